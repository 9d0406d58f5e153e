#!/usr/bin/env bash
# Runs examples/make_notebook.py with the Python of the package's virtual environment
# (python/build_and_test.sh makes it: target/python-venv), or $PYTHON, or python3.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="${CARC_VENV:-$ROOT/target/python-venv}"
if [ -z "${PYTHON:-}" ] && [ -x "$VENV/bin/python" ]; then
    PYTHON="$VENV/bin/python"
fi
cd "$ROOT/examples"
MPLBACKEND=Agg exec "${PYTHON:-python3}" make_notebook.py "$@"
