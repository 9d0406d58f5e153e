#!/usr/bin/env bash
# Builds the Python package from a clean checkout and runs its checks:
#   1. a development virtual environment (python3 -m venv) with maturin and the test tools,
#   2. the wheel, built by pip through maturin (`pip wheel ./python`, the same PEP 517 build
#      as `pip install ./python`): one abi3 wheel for CPython 3.10 and newer,
#   3. a fresh virtual environment with no Rust toolchain on PATH (cargo and rustc are
#      taken off PATH and checked to be unreachable): the wheel and the test dependencies
#      installed from binaries only, an import smoke test, then pytest tests/python with
#      warnings as errors, so the tests exercise the wheel as a user installs it,
#   4. mypy.stubtest of carcassonne._core against _core.pyi and mypy --strict of the
#      package, in the development environment with the same wheel installed,
#   5. the tests that need heavy packages (PyTorch, sb3-contrib, Ray RLlib, OpenSpiel:
#      tests/python/test_rl.py, which also runs short smoke runs of
#      examples/train_ppo.py and examples/expert_iteration.py, the RLlib example for two iterations and the OpenSpiel
#      example), in a reinforcement-learning environment kept between runs (created and
#      filled on the first run, several minutes and about 6 GB, with about 10 GB free
#      needed while it downloads, checked first; then only the wheel is reinstalled).
#      CARC_RL_TESTS=0 skips this step and says so.
#
# Usage: python/build_and_test.sh            (from anywhere)
# Environment: PYTHON (default python3), CARC_VENV (default <repo>/target/python-venv),
#              CARC_WHEEL_VENV (default <repo>/target/python-wheel-venv, recreated each run),
#              CARC_RL_VENV (default <repo>/target/rl-venv, kept between runs),
#              CARC_RL_TESTS (1 by default; 0 skips step 5),
#              CARGO_TARGET_DIR (cargo's build directory, default <repo>/target).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
VENV="${CARC_VENV:-$ROOT/target/python-venv}"
WHEEL_VENV="${CARC_WHEEL_VENV:-$ROOT/target/python-wheel-venv}"
WHEELS="${CARGO_TARGET_DIR:-$ROOT/target}/wheels"
TEST_DEPS=(numpy gymnasium pettingzoo pytest nbclient nbformat ipykernel matplotlib pyarrow polars ray)
RL_VENV="${CARC_RL_VENV:-$ROOT/target/rl-venv}"
# What the rl, openspiel and rllib extras bring (python/pyproject.toml).
RL_DEPS=(numpy gymnasium pettingzoo pytest torch onnx "sb3-contrib>=2.4" "ray[rllib]>=2.40" "open-spiel>=1.5")

echo "== development environment: $VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "maturin>=1.9,<2" mypy "${TEST_DEPS[@]}"

echo "== pip wheel ./python: compiles the extension in release mode through maturin;"
echo "   pip prints nothing meanwhile, and this takes a minute or more"
cd "$ROOT"
rm -rf "$WHEELS"
"$VENV/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$WHEELS" ./python
shopt -s nullglob
wheels=("$WHEELS"/carcassonne-*.whl)
shopt -u nullglob
[ ${#wheels[@]} -eq 1 ] || { echo "expected one wheel in $WHEELS, found ${#wheels[@]}" >&2; exit 1; }
WHEEL=${wheels[0]}
echo "built $(basename "$WHEEL") ($(du -k "$WHEEL" | cut -f1) KiB)"
case $(basename "$WHEEL") in
*-cp310-abi3-*.whl) ;;
*) echo "the wheel is not tagged cp310-abi3 (stable ABI for CPython 3.10+)" >&2; exit 1 ;;
esac

echo "== fresh environment without Rust: $WHEEL_VENV"
# PATH without any directory that holds cargo, rustc or rustup.
NO_RUST_PATH=""
IFS=: read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
    [ -n "$dir" ] || continue
    if [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ] || [ -x "$dir/rustup" ]; then
        echo "off PATH: $dir"
        continue
    fi
    NO_RUST_PATH=${NO_RUST_PATH:+$NO_RUST_PATH:}$dir
done
no_rust() {
    env -u CARGO -u RUSTC -u RUSTUP_TOOLCHAIN -u CARGO_TARGET_DIR PATH="$WHEEL_VENV/bin:$NO_RUST_PATH" "$@"
}
if no_rust bash -c 'command -v cargo || command -v rustc'; then
    echo "cargo or rustc is still reachable without the Rust directories on PATH" >&2
    exit 1
fi
rm -rf "$WHEEL_VENV"
"$PYTHON" -m venv "$WHEEL_VENV"
no_rust python -m pip install --quiet --upgrade pip
# Binaries only: nothing is compiled, the engine comes from the wheel.
no_rust python -m pip install --quiet --only-binary=:all: "$WHEEL" "${TEST_DEPS[@]}"
(cd "$WHEEL_VENV" && no_rust python - <<'PY'
import sys
import carcassonne
from carcassonne import _core

assert _core.__file__.startswith(sys.prefix), (_core.__file__, sys.prefix)
assert _core.__file__.endswith(".abi3.so"), _core.__file__
from importlib import metadata
dist = metadata.distribution("carcassonne")
assert dist.metadata["License-Expression"] == "MIT OR Apache-2.0", dist.metadata["License-Expression"]
licenses = {f.name for f in dist.files or [] if "licenses" in f.parts}
assert licenses == {"LICENSE-MIT", "LICENSE-APACHE"}, licenses
assert dist.metadata["Requires-Python"] == ">=3.10", dist.metadata["Requires-Python"]
game = carcassonne.Game(players=2, sets=["base"], seed=1)
while not game.is_terminal:
    game.apply(game.legal_actions()[0])
print(f"carcassonne {carcassonne.__version__} from the wheel on Python {sys.version.split()[0]}:",
      f"a 2-player game ends {game.scores}")
PY
)

echo "== pytest (wheel, no Rust on PATH)"
no_rust python -m pytest -q -W error -p no:cacheprovider "$ROOT/tests/python"

echo "== stubtest"
"$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps "$WHEEL"
# Run outside the source tree so that the installed package is checked.
(cd "$VENV" && "$VENV/bin/python" -m mypy.stubtest carcassonne._core)

echo "== mypy --strict"
(cd "$ROOT/python" && "$VENV/bin/python" -m mypy --strict --cache-dir "$VENV/.mypy_cache" carcassonne)

if [ "${CARC_RL_TESTS:-1}" = 0 ]; then
    echo "== reinforcement-learning tests SKIPPED (CARC_RL_TESTS=0): tests/python/test_rl.py ran without PyTorch, RLlib and OpenSpiel"
    exit 0
fi
echo "== reinforcement-learning environment: $RL_VENV"
start=$SECONDS
# A first fill downloads and unpacks about 10 GB (PyTorch's CUDA libraries); pip's own
# "No space left on device" comes late and names no figure, so check first.
if ! "$RL_VENV/bin/python" -c "import torch, ray, sb3_contrib, pyspiel" 2>/dev/null; then
    mkdir -p "$(dirname "$RL_VENV")"
    need_kib=$((10 * 1024 * 1024))
    free_kib=$(df -Pk "$(dirname "$RL_VENV")" | awk 'NR == 2 { print $4 }')
    if [ "$free_kib" -lt "$need_kib" ]; then
        echo "the reinforcement-learning environment needs about 10 GB free on the disk of $RL_VENV;" \
            "$((free_kib / 1024)) MB are free. Free some space, point CARC_RL_VENV at a larger disk," \
            "or skip these tests with CARC_RL_TESTS=0." >&2
        exit 1
    fi
fi
[ -x "$RL_VENV/bin/python" ] || "$PYTHON" -m venv "$RL_VENV"
"$RL_VENV/bin/python" -m pip install --quiet --upgrade pip
# Nothing to do when everything is there already.
"$RL_VENV/bin/python" -m pip install --quiet "${RL_DEPS[@]}"
"$RL_VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps "$WHEEL"
echo "ready in $((SECONDS - start)) s"
echo "== pytest tests/python/test_rl.py (PyTorch, sb3-contrib, Ray RLlib, OpenSpiel)"
(cd "$RL_VENV" && CARC_RL_REQUIRED=1 "$RL_VENV/bin/python" -m pytest -q -p no:cacheprovider -rs "$ROOT/tests/python/test_rl.py")
