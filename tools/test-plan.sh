#!/usr/bin/env bash
# What `make test` installs, where and how big, printed before it starts (the first step
# of `make test`; `make test-plan` prints it alone). The sizes and the time are those of
# a fresh clone on Debian 12 with 2 cores (74 min with the reinforcement-learning step;
# target/ about 11 GB besides rl-venv's 6.4 GB, in the last step); "now" is this
# machine's present state.
#
# Usage: tools/test-plan.sh      (CARC_RL_TESTS=0 leaves the reinforcement-learning step
#                                 out, as it does in python/build_and_test.sh)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

# The tools the test scripts install with apt-get when missing: command, package, size
# with the dependencies that --no-install-recommends brings on Debian 12.
TOOLS=(
    "gcc gcc 60MB" "g++ g++ 40MB" "make make 1MB" "pkg-config pkg-config 1MB"
    "cmake cmake 40MB" "readelf binutils 30MB" "valgrind valgrind 80MB"
    "mcs mono-mcs 40MB" "mono mono-runtime 30MB" "chromium chromium 300MB"
    "chromedriver chromium-driver 15MB"
)

size_of() { # path: its size, or "none yet"
    if [ -e "$1" ]; then du -sh "$1" 2>/dev/null | cut -f1; else echo "none yet"; fi
}

missing=()
for tool in "${TOOLS[@]}"; do
    read -r command package size <<<"$tool"
    command -v "$command" >/dev/null || missing+=("$package ($size)")
done

cat <<EOF
== make test: every check CI runs (about 75 minutes from a fresh clone on 2 cores, the
   reinforcement-learning step included)
It installs:
  * system packages, with apt-get as root or through sudo, only those missing:
      gcc, g++, make, pkg-config, cmake, binutils, valgrind, mono-mcs, mono-runtime,
      chromium, chromium-driver (about 620 MB if none is installed)
      missing now: ${missing[*]:-none}
  * into $TARGET_DIR (inside the repository; make clean removes it):
      Rust builds: debug, release, docs (with python-venv and python-wheel-venv about 11 GB at the
        end; all of target/ now: $(size_of "$TARGET_DIR"))
      python-venv and python-wheel-venv: maturin, numpy, Gymnasium, PettingZoo,
        matplotlib, pyarrow, a Jupyter kernel, pytest and mypy from PyPI (about 0.75 GB)
EOF
if [ "${CARC_RL_TESTS:-1}" = 0 ]; then
    echo "      rl-venv: left out (CARC_RL_TESTS=0)"
else
    cat <<EOF
      rl-venv: PyTorch with its CUDA libraries, sb3-contrib, Ray RLlib and OpenSpiel from
        PyPI (about 6.4 GB, 10 GB free while it downloads; now $(size_of "$TARGET_DIR/rl-venv"));
        CARC_RL_TESTS=0 make test leaves this step out
EOF
fi
cat <<EOF
  * nothing else: the C library is installed into a temporary prefix, and what the
    documents install (make install, cargo install) into a scratch HOME; both are
    removed at the end. Cargo's download cache (~/.cargo/registry) and pip's
    (~/.cache/pip) fill as usual.
EOF
