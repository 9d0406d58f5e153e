#!/usr/bin/env bash
# The documents' links and the README's length (tests/docs/check_docs.py), then every
# command and program of the READMEs and docs, run as written (tests/docs/snippets.py
# says which blocks run and how, and in what environment: what they install lands in a
# scratch HOME): the command line, a first program in Rust, C, C++, C#
# and Python with its documented output, the Python examples and tools.
# Needs what the documents use: the release C library (built here), a C and C++
# compiler and Mono (installed with apt-get when missing), and the package's virtual
# environment (python/build_and_test.sh makes it; `make test` runs that first).
#
# Usage: tests/docs/run.sh [DOC.md ...]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}

missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v mcs >/dev/null || missing+=(mono-mcs)
command -v mono >/dev/null || missing+=(mono-runtime)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null; then
        SUDO="sudo"
    else
        echo "missing tools (${missing[*]}) and no way to install them (not root, no sudo)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -x "${CARC_VENV:-$ROOT/target/python-venv}/bin/python" ]; then
    echo "the package's virtual environment is missing: run python/build_and_test.sh first" >&2
    exit 1
fi

echo "== the documents: length, links, names"
python3 "$ROOT/tests/docs/check_docs.py"
echo "== build the C library and the command line (release)"
"$CARGO" build -q --release -p carcassonne-ffi -p carcassonne-cli
exec python3 "$ROOT/tests/docs/snippets.py" "$@"
