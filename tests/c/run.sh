#!/usr/bin/env bash
# Every test of the C ABI, from a clean clone:
#   * the header drift check and the ffi crate's Rust tests (unit, random-call fuzz);
#   * `make install` into a temporary prefix (tools/install.sh): SONAME, links, pkg-config
#     and CMake files, uninstall; every program below is built against that installed copy;
#   * the C programs of tests/c built with -Wall -Wextra -Wpedantic -Werror, run plainly,
#     under AddressSanitizer + UndefinedBehaviorSanitizer, and under valgrind with the
#     installed suppression file (test_clients.c: save and resume, events, tile geometry,
#     the flat focus; test_layout.c: the observation layout read through the ABI against
#     docs/observations.md; test_expansion_state.c: the Royal Gift sets drawn from the
#     expansion state query; test_net.c, the learned players, plainly and under the
#     sanitizers only: a game of network decisions takes too long under valgrind);
#   * a C++ program linked against the static library (pkg-config carcassonne-static);
#   * the C++ example examples/cpp built with CMake (find_package) against the shared and
#     the static library, and the CMake package's version rules;
#   * the C# binding: its enums and constants against the header, the Unity package
#     layout, the console test and the usage guide's example (Mono);
#   * the first program of docs/c.md, compiled as written there with its pkg-config line,
#     the examples of the "Game clients" sections of docs/c.md and docs/csharp.md (C,
#     C++ against the static library, C#), and those of their "Expansion state" sections
#     with the output the guides show.
# Installs the tools it needs with apt-get when they are missing.
#
# Usage: tests/c/run.sh        (CARGO_TARGET_DIR is honoured; CARGO passes through)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BUILD_DIR=$TARGET_DIR/release
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carc-c-abi.XXXXXX")
# Everything is built against the library as `make install` lays it out.
PREFIX=$OUT/prefix
LIB_DIR=$PREFIX/lib
export PKG_CONFIG_PATH=$LIB_DIR/pkgconfig
trap 'rm -rf "$OUT"' EXIT
START=$(date +%s)

# ----- tools ------------------------------------------------------------------------
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v valgrind >/dev/null || missing+=(valgrind)
command -v mcs >/dev/null || missing+=(mono-mcs)
command -v mono >/dev/null || missing+=(mono-runtime)
command -v cmake >/dev/null || missing+=(cmake)
command -v make >/dev/null || missing+=(make)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v readelf >/dev/null || missing+=(binutils)
command -v python3 >/dev/null || missing+=(python3)
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

CFLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -I"$PREFIX/include")
CXXFLAGS=(-std=c++17 -Wall -Wextra -Wpedantic -Werror)
SAN=(-g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
LINK_SHARED=(-L"$LIB_DIR" -lcarcassonne -Wl,-rpath,"$LIB_DIR")
DATA=tests/data
# Every reference game.
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

# ----- install ---------------------------------------------------------------------------
ABI=$(awk '$1 == "#define" && $2 == "CARC_ABI_VERSION" {print $3; exit}' include/carcassonne.h)
SONAME=libcarcassonne.so.$ABI
install_prefix() {
    PREFIX="$PREFIX" BUILD_DIR="$BUILD_DIR" bash tools/install.sh install
}
check_install() {
    local f missing=0
    for f in include/carcassonne.h lib/"$SONAME" lib/libcarcassonne.a lib/pkgconfig/carcassonne.pc \
        lib/pkgconfig/carcassonne-static.pc lib/cmake/carcassonne/carcassonneConfig.cmake \
        lib/cmake/carcassonne/carcassonneConfigVersion.cmake share/carcassonne/carcassonne.supp \
        share/doc/carcassonne/LICENSE-MIT share/doc/carcassonne/LICENSE-APACHE; do
        [ -f "$PREFIX/$f" ] || { echo "not installed: $f"; missing=1; }
    done
    [ "$missing" -eq 0 ] &&
        cmp include/carcassonne.h "$PREFIX/include/carcassonne.h" &&
        [ "$(readlink "$LIB_DIR/libcarcassonne.so")" = "$SONAME" ] &&
        echo "libcarcassonne.so -> $(readlink "$LIB_DIR/libcarcassonne.so")"
}
check_soname() { # the SONAME names the header's CARC_ABI_VERSION
    local soname
    soname=$(readelf -d "$LIB_DIR/$SONAME" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
    echo "SONAME: ${soname:-none}, header CARC_ABI_VERSION $ABI"
    [ "$soname" = "$SONAME" ]
}
check_pkg_config() {
    local version supp
    version=$(pkg-config --modversion carcassonne) &&
        supp=$(pkg-config --variable=valgrind_suppressions carcassonne) &&
        echo "pkg-config: carcassonne $version; $(pkg-config --cflags --libs carcassonne)" &&
        echo "pkg-config: carcassonne-static $(pkg-config --libs carcassonne-static)" &&
        [ "$version" = "$VERSION" ] && [ "$(pkg-config --modversion carcassonne-static)" = "$VERSION" ] &&
        [ "$(pkg-config --variable=abi_version carcassonne)" = "$ABI" ] &&
        cmp "$supp" ffi/pkg/carcassonne.supp
}
check_uninstall() { # install into a second prefix with DESTDIR staging, then remove it all
    local stage=$OUT/stage
    DESTDIR="$stage" PREFIX=/opt/carcassonne BUILD_DIR="$BUILD_DIR" bash tools/install.sh install &&
        grep -q '^prefix=/opt/carcassonne$' "$stage/opt/carcassonne/lib/pkgconfig/carcassonne.pc" &&
        DESTDIR="$stage" PREFIX=/opt/carcassonne bash tools/install.sh uninstall &&
        left=$(find "$stage" -type f -o -type l) &&
        { [ -z "$left" ] || { echo "left after uninstall: $left"; false; }; }
}
step "install into a temporary prefix (tools/install.sh)" install_prefix
step "installed files, header and development link" check_install
step "SONAME of the installed shared library" check_soname
step "pkg-config files" check_pkg_config
step "DESTDIR install and uninstall" check_uninstall
VALGRIND=(valgrind -q --error-exitcode=1 --leak-check=full
    --suppressions="$PREFIX/share/carcassonne/carcassonne.supp")

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
        build_c "test_clients$suffix" tests/c/test_clients.c "$@" &&
        build_c "test_bots$suffix" tests/c/test_bots.c "$@" &&
        build_c "test_net$suffix" tests/c/test_net.c "$@" &&
        build_c "test_layout$suffix" tests/c/test_layout.c "$@" &&
        build_c "test_expansion_state$suffix" tests/c/test_expansion_state.c "$@" &&
        build_c "example$suffix" "$OUT/example.c" "$@"
}
# The C guide, whose first program and build lines are compiled here.
C_GUIDE=docs/c.md
extract_example() {
    awk '/^## A first game$/{s=1} s && /^```c$/{c=1; next} c && /^```$/{exit} c{print}' \
        "$C_GUIDE" >"$OUT/example.c"
    [ -s "$OUT/example.c" ] && echo "$C_GUIDE example: $(wc -l <"$OUT/example.c") lines"
}
# The guide's build command: the compiler line with pkg-config, run in $OUT.
build_guide_example() {
    local line
    line=$(awk '/^## /{s=($0 ~ /^## Building against the installed library/)} s && /^```sh$/{c=1; next} c && /^```$/{c=0}
        s && c && /^cc /{print; exit}' "$C_GUIDE")
    [ -n "$line" ] || { echo "no 'cc ...' line in a sh block of $C_GUIDE"; return 1; }
    echo "$line"
    (cd "$OUT" && bash -c "set -e; $line")
}
# The first code block of section `heading` of document `doc` in language `lang`, into `out`.
extract_block() { # doc heading lang out
    awk -v h="## $2" -v l="$3" '$0 == h {s=1; next} s && /^## /{exit} s && $0 == "```" l {c=1; next} c && /^```$/{exit} c{print}' \
        "$1" >"$4"
    [ -s "$4" ] && echo "$1, $2: $(wc -l <"$4") lines"
}
client_examples() {
    extract_block "$C_GUIDE" "Game clients in C" c "$OUT/client.c" &&
        extract_block "$C_GUIDE" "Game clients in C++" cpp "$OUT/client.cpp" &&
        extract_block docs/csharp.md "Game clients in C# (Unity)" csharp "$OUT/Client.cs" &&
        gcc "${CFLAGS[@]}" "$OUT/client.c" -o "$OUT/client_c" "${LINK_SHARED[@]}" &&
        "$OUT/client_c" | grep -q "same game after resuming: yes" &&
        # shellcheck disable=SC2046 # pkg-config's output is a list of words
        g++ "${CXXFLAGS[@]}" "$OUT/client.cpp" $(pkg-config --cflags --libs carcassonne-static) \
            -o "$OUT/client_cpp" &&
        "$OUT/client_cpp" | grep -q "resumed game identical: yes" &&
        mcs -warnaserror -nologo -out:"$OUT/Client.exe" "$CS_BINDING" "$OUT/Client.cs" &&
        env LD_LIBRARY_PATH="$LIB_DIR" mono "$OUT/Client.exe" | grep -q "resumed identical: True"
}
# The expansion state examples of the C and C# guides: each prints the tables of a new
# game as the text block after it says.
state_examples() {
    extract_block "$C_GUIDE" "Expansion state in C" c "$OUT/state.c" &&
        extract_block "$C_GUIDE" "Expansion state in C" text "$OUT/state.expected" &&
        gcc "${CFLAGS[@]}" "$OUT/state.c" -o "$OUT/state_c" "${LINK_SHARED[@]}" &&
        "$OUT/state_c" >"$OUT/state.out" && diff "$OUT/state.expected" "$OUT/state.out" &&
        extract_block docs/csharp.md "Expansion state in C#" csharp "$OUT/State.cs" &&
        extract_block docs/csharp.md "Expansion state in C#" text "$OUT/State.expected" &&
        mcs -warnaserror -nologo -out:"$OUT/State.exe" "$CS_BINDING" "$OUT/State.cs" &&
        env LD_LIBRARY_PATH="$LIB_DIR" mono "$OUT/State.exe" >"$OUT/State.out" &&
        diff "$OUT/State.expected" "$OUT/State.out"
}
run_example() {
    "$OUT/$1" >"$OUT/example.out" && grep -q "player 1:" "$OUT/example.out" && cat "$OUT/example.out"
}

step "extract the C guide's first program" extract_example
step "the C guide's build command (pkg-config)" build_guide_example
step "compile C tests (-Wall -Wextra -Wpedantic -Werror)" build_all_c ""

# The per-set getters kept for one release are CARC_DEPRECATED: a call warns (an error
# under -Werror), and compiles cleanly with CARC_NO_DEPRECATED_WARNINGS.
deprecated_getters_warn() {
    local src=$OUT/deprecated.c
    printf '#include <stddef.h>\n#include <carcassonne.h>\nint main(void) { CarcDragon d; return (int)carc_game_dragon(NULL, &d); }\n' >"$src"
    if gcc "${CFLAGS[@]}" -c "$src" -o "$OUT/deprecated.o" 2>"$OUT/deprecated.err"; then
        echo "a call of carc_game_dragon compiled without a deprecation warning"
        return 1
    fi
    grep -q "carc_game_expansion_state and the table dragon" "$OUT/deprecated.err" &&
        gcc "${CFLAGS[@]}" -DCARC_NO_DEPRECATED_WARNINGS -c "$src" -o "$OUT/deprecated.o"
}
step "the deprecated getters warn (CARC_DEPRECATED)" deprecated_getters_warn
step "C: status codes and versions" "$OUT/test_status"
step "C: complete games with every set" "$OUT/test_games" 4
step "C: reference games through the API" "$OUT/test_records" "$DATA/known-divergences.md" "${RECORDS[@]}"
step "C: save and resume, events, tile geometry, focus" "$OUT/test_clients" 4
step "C: built-in players (MCTS, greedy, random)" "$OUT/test_bots" 20
step "C: learned players (net, net:FILE, net:search=N)" "$OUT/test_net" "$ROOT" 2
step "C: observation layout against docs/observations.md" "$OUT/test_layout" docs/observations.md 3
step "C: the Royal Gift sets drawn from the expansion state query" "$OUT/test_expansion_state" 6
step "C: the guide's first program" run_example example

step "compile C tests with -fsanitize=address,undefined" build_all_c _asan "${SAN[@]}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
step "ASan+UBSan: status codes" "$OUT/test_status_asan"
step "ASan+UBSan: complete games" "$OUT/test_games_asan" 2
step "ASan+UBSan: reference games" "$OUT/test_records_asan" "$DATA/known-divergences.md" "${RECORDS[@]}"
step "ASan+UBSan: client features" "$OUT/test_clients_asan" 2
step "ASan+UBSan: built-in players" "$OUT/test_bots_asan" 8
step "ASan+UBSan: learned players" "$OUT/test_net_asan" "$ROOT" 1
step "ASan+UBSan: observation layout" "$OUT/test_layout_asan" docs/observations.md 1
step "ASan+UBSan: expansion state" "$OUT/test_expansion_state_asan" 4
step "ASan+UBSan: docs example" run_example example_asan
unset ASAN_OPTIONS UBSAN_OPTIONS

step "valgrind: status codes" "${VALGRIND[@]}" "$OUT/test_status"
step "valgrind: complete games" "${VALGRIND[@]}" "$OUT/test_games" 1
step "valgrind: client features" "${VALGRIND[@]}" "$OUT/test_clients" 1
step "valgrind: built-in players" "${VALGRIND[@]}" "$OUT/test_bots" 3
# test_net is not run under valgrind: every decision of a learned player runs the
# network, and a whole game of them takes minutes there (the plain and sanitizer runs
# above cover it).
step "valgrind: observation layout" "${VALGRIND[@]}" "$OUT/test_layout" docs/observations.md 1
step "valgrind: expansion state" "${VALGRIND[@]}" "$OUT/test_expansion_state" 1

# ----- C++ against the static library ---------------------------------------------------
build_cpp() {
    local flags
    flags=$(pkg-config --cflags --libs carcassonne-static) &&
        # shellcheck disable=SC2086 # pkg-config's output is a list of words
        g++ "${CXXFLAGS[@]}" tests/c/test_cpp.cpp $flags -o "$OUT/test_cpp" &&
        ! readelf -d "$OUT/test_cpp" | grep -q "libcarcassonne"
}
step "compile C++ test against libcarcassonne.a (pkg-config carcassonne-static)" build_cpp
step "C++: game through the static library" "$OUT/test_cpp"

# ----- C++ example with CMake against the installed package -----------------------------
CMAKE_BUILD=$OUT/cmake-example
build_cmake_example() {
    cmake -S examples/cpp -B "$CMAKE_BUILD" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Release \
        >"$OUT/cmake.log" 2>&1 &&
        cmake --build "$CMAKE_BUILD" >>"$OUT/cmake.log" 2>&1 &&
        grep "carcassonne $VERSION (ABI $ABI)" "$OUT/cmake.log" || { cat "$OUT/cmake.log"; false; }
}
check_cmake_linkage() { # the shared build needs the SONAME, the static one no library of ours
    readelf -d "$CMAKE_BUILD/play" | grep -q "Shared library: \[$SONAME\]" &&
        ! readelf -d "$CMAKE_BUILD/play_static" | grep -q "libcarcassonne"
}
run_cmake_example() { # both builds play the same game to the same scores
    "$CMAKE_BUILD/play" >"$OUT/play.out" && "$CMAKE_BUILD/play_static" >"$OUT/play_static.out" &&
        cat "$OUT/play.out" && grep -q "^player 2: " "$OUT/play.out" &&
        cmp "$OUT/play.out" "$OUT/play_static.out"
}
check_cmake_versions() {
    cmake -S tests/c/cmake_version -B "$OUT/cmake-version" -DCMAKE_PREFIX_PATH="$PREFIX" \
        -DEXPECTED_VERSION="$VERSION" >"$OUT/cmake-version.log" 2>&1 &&
        grep "find_package" "$OUT/cmake-version.log" || { cat "$OUT/cmake-version.log"; false; }
}
step "CMake: build examples/cpp against the installed package" build_cmake_example
step "CMake: shared target needs $SONAME, static target no shared library" check_cmake_linkage
step "CMake: C++ example, shared and static give the same game" run_cmake_example
step "valgrind: C++ example (shared library)" "${VALGRIND[@]}" "$CMAKE_BUILD/play"
step "CMake: package version rules" check_cmake_versions

# ----- C# -------------------------------------------------------------------------------
CS_BINDING=bindings/csharp/Runtime/Carcassonne.cs
extract_csharp_guide() {
    awk '/^## A first game/{s=1} s && /^```csharp$/{c=1; next} c && /^```$/{exit} c{print}' \
        bindings/csharp/README.md >"$OUT/FirstGame.cs"
    [ -s "$OUT/FirstGame.cs" ] && echo "bindings/csharp/README.md example: $(wc -l <"$OUT/FirstGame.cs") lines"
}
run_csharp_guide() {
    env LD_LIBRARY_PATH="$LIB_DIR" mono "$OUT/FirstGame.exe" >"$OUT/first-game.out" &&
        cat "$OUT/first-game.out" && grep -q "^player 1: " "$OUT/first-game.out" &&
        grep -q "^reloaded: same state$" "$OUT/first-game.out"
}
step "C#: the binding's enums, CarcSupply and symbol bits are those tools/gen_csharp.py writes from the header" \
    python3 tools/gen_csharp.py --check
step "C#: compile the enum and constant check (mcs)" \
    mcs -warnaserror -nologo -out:"$OUT/CheckEnums.exe" "$CS_BINDING" tests/csharp/CheckEnums.cs
step "C#: enums and constants equal the header's" mono "$OUT/CheckEnums.exe" "$PREFIX/include/carcassonne.h"
step "C#: Unity package layout" python3 tests/csharp/check_package.py
step "compile C# binding and test (mcs)" \
    mcs -warnaserror -nologo -out:"$OUT/PlayGame.exe" "$CS_BINDING" tests/csharp/PlayGame.cs
step "C#: game through P/Invoke (mono)" env LD_LIBRARY_PATH="$LIB_DIR" mono "$OUT/PlayGame.exe" docs/observations.md
step "extract the C# guide's example" extract_csharp_guide
step "compile the C# guide's example (mcs)" \
    mcs -warnaserror -nologo -out:"$OUT/FirstGame.exe" "$CS_BINDING" "$OUT/FirstGame.cs"
step "C#: the guide's example" run_csharp_guide
step "the guides' client examples (C, C++ static, C#)" client_examples
step "the guides' expansion state examples (C, C#)" state_examples

# ----- summary --------------------------------------------------------------------------
echo
echo "C ABI suite finished in $(($(date +%s) - START)) s"
for f in "${failures[@]+"${failures[@]}"}"; do
    echo "failed: $f"
done
echo "c-abi: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
