#!/usr/bin/env bash
# Builds the Python package from a clean checkout and runs its checks:
#   1. a virtual environment (python3 -m venv) with the test tools,
#   2. `pip install ./python` (maturin builds the extension in release mode),
#   3. mypy.stubtest of carcassonne._core against _core.pyi, mypy --strict of the package,
#   4. pytest tests/python with warnings as errors.
#
# Usage: python/build_and_test.sh            (from anywhere)
# Environment: PYTHON (default python3), CARC_VENV (default <repo>/target/python-venv),
#              CARGO_TARGET_DIR (cargo's build directory, default <repo>/target).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
VENV="${CARC_VENV:-$ROOT/target/python-venv}"

echo "== virtual environment: $VENV"
"$PYTHON" -m venv "$VENV"
# shellcheck disable=SC1091
source "$VENV/bin/activate"
python -m pip install --quiet --upgrade pip
python -m pip install --quiet "maturin>=1.9,<2" numpy gymnasium pettingzoo pytest mypy \
    nbclient nbformat ipykernel matplotlib

echo "== pip install ./python"
cd "$ROOT"
python -m pip install --quiet --force-reinstall --no-deps ./python
python -c "import carcassonne, sys; print('carcassonne', carcassonne.__version__, 'on Python', sys.version.split()[0])"

echo "== stubtest"
# Run outside the source tree so that the installed package is checked.
(cd "$VENV" && python -m mypy.stubtest carcassonne._core)

echo "== mypy --strict"
(cd "$ROOT/python" && python -m mypy --strict --cache-dir "$VENV/.mypy_cache" carcassonne)

echo "== pytest"
python -m pytest -q -W error -p no:cacheprovider "$ROOT/tests/python"
