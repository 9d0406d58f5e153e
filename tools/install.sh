#!/usr/bin/env bash
# Installs the carcassonne C library (what `make install` and `make uninstall` run):
#
#   $INCLUDEDIR/carcassonne.h
#   $LIBDIR/libcarcassonne.so.<ABI>      the shared library (SONAME libcarcassonne.so.<ABI>,
#   $LIBDIR/libcarcassonne.so            <ABI> = CARC_ABI_VERSION) and its development link
#   $LIBDIR/libcarcassonne.a             the static library
#   $LIBDIR/pkgconfig/carcassonne.pc, carcassonne-static.pc
#   $LIBDIR/cmake/carcassonne/carcassonneConfig.cmake, carcassonneConfigVersion.cmake
#   $DATADIR/carcassonne/carcassonne.supp            valgrind suppression
#   $DATADIR/doc/carcassonne/                        licenses, changelog, C API guide
#
# Usage: tools/install.sh [install|uninstall]
# Environment: PREFIX (default /usr/local), LIBDIR (default $PREFIX/lib), INCLUDEDIR
# (default $PREFIX/include), DATADIR (default $PREFIX/share), DESTDIR (a staging root
# prepended to every path written, not to the paths inside the files), BUILD_DIR (where
# cargo left the libraries, default ${CARGO_TARGET_DIR:-target}/release).
# The libraries must be built first: cargo build --release -p carcassonne-ffi.
# Linux (and other ELF systems whose libraries carry a SONAME) only.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACTION=${1:-install}
die() {
    echo "install.sh: $*" >&2
    exit 1
}
absolute() { # a path made absolute without requiring it to exist
    case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "$1" ;;
    esac
}

PREFIX=$(absolute "${PREFIX:-/usr/local}")
LIBDIR=$(absolute "${LIBDIR:-$PREFIX/lib}")
INCLUDEDIR=$(absolute "${INCLUDEDIR:-$PREFIX/include}")
DATADIR=$(absolute "${DATADIR:-$PREFIX/share}")
DESTDIR=${DESTDIR:-}
[ -z "$DESTDIR" ] || DESTDIR=$(absolute "$DESTDIR")
BUILD_DIR=$(absolute "${BUILD_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/release}")

HEADER=$ROOT/include/carcassonne.h
VERSION=$(awk -F'"' '/^\[workspace\.package\]/{w=1; next} /^\[/{w=0} w && /^version *=/{print $2; exit}' \
    "$ROOT/Cargo.toml")
[ -n "$VERSION" ] || die "no [workspace.package] version in $ROOT/Cargo.toml"
ABI=$(awk '$1 == "#define" && $2 == "CARC_ABI_VERSION" {print $3; exit}' "$HEADER")
case $ABI in
'' | *[!0-9]*) die "no numeric CARC_ABI_VERSION macro in $HEADER" ;;
esac
SONAME=libcarcassonne.so.$ABI
DOCDIR=$DATADIR/doc/carcassonne
CMAKEDIR=$LIBDIR/cmake/carcassonne

case "$(uname -s)" in
Linux | FreeBSD | NetBSD | OpenBSD | DragonFly) ;;
*) die "this script installs ELF shared libraries; on $(uname -s) use the files of $BUILD_DIR directly" ;;
esac

FILES=(
    "$INCLUDEDIR/carcassonne.h"
    "$LIBDIR/$SONAME"
    "$LIBDIR/libcarcassonne.so"
    "$LIBDIR/libcarcassonne.a"
    "$LIBDIR/pkgconfig/carcassonne.pc"
    "$LIBDIR/pkgconfig/carcassonne-static.pc"
    "$CMAKEDIR/carcassonneConfig.cmake"
    "$CMAKEDIR/carcassonneConfigVersion.cmake"
    "$DATADIR/carcassonne/carcassonne.supp"
    "$DOCDIR/LICENSE-MIT"
    "$DOCDIR/LICENSE-APACHE"
    "$DOCDIR/CHANGELOG.md"
    "$DOCDIR/c-api.md"
)

if [ "$ACTION" = uninstall ]; then
    for f in "${FILES[@]}"; do
        rm -f "$DESTDIR$f"
    done
    for d in "$CMAKEDIR" "$DATADIR/carcassonne" "$DOCDIR"; do
        rmdir "$DESTDIR$d" 2>/dev/null || true
    done
    echo "removed carcassonne $VERSION from $DESTDIR$PREFIX"
    exit 0
fi
[ "$ACTION" = install ] || die "unknown action '$ACTION' (install or uninstall)"

# ----- checks before writing anything ---------------------------------------------------
for f in "$BUILD_DIR/libcarcassonne.so" "$BUILD_DIR/libcarcassonne.a"; do
    [ -f "$f" ] || die "$f is missing: build it first (cargo build --release -p carcassonne-ffi)"
done
if command -v readelf >/dev/null; then
    built=$(readelf -d "$BUILD_DIR/libcarcassonne.so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
    [ "$built" = "$SONAME" ] || die "$BUILD_DIR/libcarcassonne.so has SONAME '${built:-none}'," \
        "the header's CARC_ABI_VERSION wants '$SONAME': rebuild (cargo build --release -p carcassonne-ffi)"
fi
case $(getconf LONG_BIT 2>/dev/null || echo 64) in
32) SIZEOF_VOID_P=4 ;;
*) SIZEOF_VOID_P=8 ;;
esac
# What the static library needs from the system: `rustc --print native-static-libs` for
# the Linux targets (the C tests link the installed static library with exactly these).
STATIC_LIBS="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
CMAKE_STATIC_LIBS="gcc_s;util;rt;Threads::Threads;m;\${CMAKE_DL_LIBS}"

relative() { # path of $2 seen from directory $1
    realpath -m --relative-to="$1" "$2"
}
substitute() { # template output
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@LIBDIR@|$LIBDIR|g" -e "s|@INCLUDEDIR@|$INCLUDEDIR|g" \
        -e "s|@DATADIR@|$DATADIR|g" -e "s|@VERSION@|$VERSION|g" -e "s|@ABI@|$ABI|g" \
        -e "s|@SONAME@|$SONAME|g" -e "s|@STATIC_LIBS@|$STATIC_LIBS|g" \
        -e "s|@CMAKE_STATIC_LIBS@|$CMAKE_STATIC_LIBS|g" \
        -e "s|@REL_INCLUDEDIR@|$(relative "$LIBDIR" "$INCLUDEDIR")|g" \
        -e "s|@REL_DATADIR@|$(relative "$LIBDIR" "$DATADIR")|g" \
        -e "s|@SIZEOF_VOID_P@|$SIZEOF_VOID_P|g" \
        -e "s|@VERSION_MAJOR@|${VERSION%%.*}|g" \
        -e "s|@VERSION_MINOR@|$(echo "$VERSION" | cut -d. -f2)|g" \
        "$1" >"$2"
    if grep -n '@[A-Z_]*@' "$2"; then
        die "unreplaced placeholder in $2"
    fi
}

# ----- install --------------------------------------------------------------------------
d=$DESTDIR
install -d "$d$INCLUDEDIR" "$d$LIBDIR/pkgconfig" "$d$CMAKEDIR" "$d$DATADIR/carcassonne" "$d$DOCDIR"
install -m 644 "$HEADER" "$d$INCLUDEDIR/carcassonne.h"
install -m 755 "$BUILD_DIR/libcarcassonne.so" "$d$LIBDIR/$SONAME"
ln -sfn "$SONAME" "$d$LIBDIR/libcarcassonne.so"
install -m 644 "$BUILD_DIR/libcarcassonne.a" "$d$LIBDIR/libcarcassonne.a"
install -m 644 "$ROOT/ffi/pkg/carcassonne.supp" "$d$DATADIR/carcassonne/carcassonne.supp"
install -m 644 "$ROOT/LICENSE-MIT" "$ROOT/LICENSE-APACHE" "$ROOT/CHANGELOG.md" \
    "$ROOT/docs/c-api.md" "$d$DOCDIR/"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
substitute "$ROOT/ffi/pkg/carcassonne.pc.in" "$tmp/carcassonne.pc"
substitute "$ROOT/ffi/pkg/carcassonne-static.pc.in" "$tmp/carcassonne-static.pc"
substitute "$ROOT/ffi/pkg/carcassonneConfig.cmake.in" "$tmp/carcassonneConfig.cmake"
substitute "$ROOT/ffi/pkg/carcassonneConfigVersion.cmake.in" "$tmp/carcassonneConfigVersion.cmake"
install -m 644 "$tmp/carcassonne.pc" "$tmp/carcassonne-static.pc" "$d$LIBDIR/pkgconfig/"
install -m 644 "$tmp/carcassonneConfig.cmake" "$tmp/carcassonneConfigVersion.cmake" "$d$CMAKEDIR/"
echo "installed carcassonne $VERSION (ABI $ABI) into $d$PREFIX"
