#!/usr/bin/env bash
# Every test of the C ABI, from a clean clone:
#   * the header drift check and the ffi crate's Rust tests (unit, random-call fuzz);
#   * the C programs of tests/c built with -Wall -Wextra -Wpedantic -Werror, run plainly,
#     under AddressSanitizer + UndefinedBehaviorSanitizer, and under valgrind;
#   * a C++ program linked against the static library;
#   * the C# binding's console test (Mono);
#   * the example of the README's "Using the C library", compiled exactly as written there.
# Installs the tools it needs with apt-get when they are missing.
#
# Usage: tests/c/run.sh        (CARGO_TARGET_DIR is honoured; CARGO passes through)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
LIB_DIR=$TARGET_DIR/release
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carc-c-abi.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
START=$(date +%s)

# ----- tools ------------------------------------------------------------------------
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
command -v mcs >/dev/null || missing+=(mono-mcs)
command -v mono >/dev/null || missing+=(mono-runtime)
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

# ----- bookkeeping ------------------------------------------------------------------
passed=0
failed=0
failures=()
step() {
    local name=$1
    shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "!! FAILED: $name"
    fi
}

CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude)
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror -Iinclude)
SAN=(-g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
LINK_SHARED=(-L"$LIB_DIR" -lcarcassonne -Wl,-rpath,"$LIB_DIR")
# What a Rust static library needs from the system on Linux (rustc --print native-static-libs).
STATIC_DEPS=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
VALGRIND=(valgrind -q --error-exitcode=1 --leak-check=full
    --suppressions="$ROOT/tests/c/valgrind.supp")
DATA=tests/data
RECORDS=("$DATA"/*.jsonl)

# The version every layer must report: [workspace.package] version in Cargo.toml.
VERSION=$(awk -F'"' '/^\[workspace\.package\]/{w=1; next} /^\[/{w=0} w && /^version *=/{print $2; exit}' Cargo.toml)
[ -n "$VERSION" ] || { echo "no [workspace.package] version in Cargo.toml" >&2; exit 1; }

# ----- Rust side ----------------------------------------------------------------------
step "header drift (include/carcassonne.h vs pinned cbindgen)" \
    "$CARGO" test -q -p carcassonne-ffi --lib tests::header
step "ffi Rust tests (unit, random-call fuzz)" \
    "$CARGO" test -q -p carcassonne-ffi --lib -- --skip tests::header
step "build libcarcassonne (release)" "$CARGO" build -q --release -p carcassonne-ffi

# ----- C --------------------------------------------------------------------------------
build_c() { # name source extra-flags...
    local name=$1 src=$2
    shift 2
    gcc "${CFLAGS[@]}" "$@" "$src" -o "$OUT/$name" "${LINK_SHARED[@]}"
}
build_all_c() { # suffix extra-flags...
    local suffix=$1
    shift
    build_c "test_status$suffix" tests/c/test_status.c -DCARC_EXPECTED_VERSION="\"$VERSION\"" "$@" &&
        build_c "test_games$suffix" tests/c/test_games.c "$@" &&
        build_c "test_records$suffix" tests/c/test_records.c "$@" &&
        build_c "test_bots$suffix" tests/c/test_bots.c "$@" &&
        build_c "example$suffix" "$OUT/example.c" "$@"
}
extract_example() {
    awk '/^## Using the C library/{s=1} s && /^```c$/{c=1; next} c && /^```$/{exit} c{print}' \
        README.md >"$OUT/example.c"
    [ -s "$OUT/example.c" ] && echo "README.md example: $(wc -l <"$OUT/example.c") lines"
}
run_example() {
    "$OUT/$1" >"$OUT/example.out" && grep -q "player 1:" "$OUT/example.out" && cat "$OUT/example.out"
}

step "extract the README example" extract_example
step "compile C tests (-Wall -Wextra -Wpedantic -Werror)" build_all_c ""
step "C: status codes and versions" "$OUT/test_status"
step "C: complete games with every set" "$OUT/test_games" 4
step "C: reference games through the API" "$OUT/test_records" "$DATA/known-divergences.md" "${RECORDS[@]}"
step "C: built-in players (MCTS, greedy, random)" "$OUT/test_bots" 20
step "C: README example" run_example example

step "compile C tests with -fsanitize=address,undefined" build_all_c _asan "${SAN[@]}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
step "ASan+UBSan: status codes" "$OUT/test_status_asan"
step "ASan+UBSan: complete games" "$OUT/test_games_asan" 2
step "ASan+UBSan: reference games" "$OUT/test_records_asan" "$DATA/known-divergences.md" "${RECORDS[@]}"
step "ASan+UBSan: built-in players" "$OUT/test_bots_asan" 8
step "ASan+UBSan: docs example" run_example example_asan
unset ASAN_OPTIONS UBSAN_OPTIONS

step "valgrind: status codes" "${VALGRIND[@]}" "$OUT/test_status"
step "valgrind: complete games" "${VALGRIND[@]}" "$OUT/test_games" 1
step "valgrind: built-in players" "${VALGRIND[@]}" "$OUT/test_bots" 3

# ----- C++ against the static library ---------------------------------------------------
build_cpp() {
    g++ "${CXXFLAGS[@]}" tests/c/test_cpp.cpp "$LIB_DIR/libcarcassonne.a" "${STATIC_DEPS[@]}" \
        -o "$OUT/test_cpp"
}
step "compile C++ test against libcarcassonne.a" build_cpp
step "C++: game through the static library" "$OUT/test_cpp"

# ----- C# -------------------------------------------------------------------------------
step "compile C# binding and test (mcs)" \
    mcs -warnaserror -nologo -out:"$OUT/PlayGame.exe" bindings/csharp/Carcassonne.cs \
    bindings/csharp/tests/PlayGame.cs
step "C#: game through P/Invoke (mono)" env LD_LIBRARY_PATH="$LIB_DIR" mono "$OUT/PlayGame.exe"

# ----- summary --------------------------------------------------------------------------
echo
echo "C ABI suite finished in $(($(date +%s) - START)) s"
for f in "${failures[@]+"${failures[@]}"}"; do
    echo "failed: $f"
done
echo "c-abi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
