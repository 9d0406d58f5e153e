#!/usr/bin/env bash
# The README's pictures, from a reference game of the Royal Gift sets (6 players; it has
# the City of Carcassonne with a figure in a quarter, a castle, bridges, shrines, bazaars,
# the King and the Robber Baron):
#   docs/board.png   the SVG board of the finished game (`carcassonne render --svg`)
#   docs/replay.png  the HTML replay (`carcassonne render --html`) at its middle turn, in
#                    a 1280×800 window
# taken with headless Chromium (installed by tests/html/run.sh, or `apt-get install
# chromium`).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carc-shots.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium is needed: apt-get install chromium" >&2; exit 1; }

"$CARGO" build -q -p carcassonne-cli
CARC="$TARGET_DIR/debug/carcassonne"
GAME=(tests/data/royal-gift.jsonl --id royal-gift-6p-0040)
"$CARC" render "${GAME[@]}" --svg "$OUT/board.svg" --html "$OUT/replay.html" --quiet
size() { sed -n 's/^<svg [^>]* width="\([0-9.]*\)" height="\([0-9.]*\)".*/\1 \2/p' "$1" | head -n 1; }
read -r width height < <(size "$OUT/board.svg")
shot() { # out.png width height url
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
        --user-data-dir="$OUT/profile-$RANDOM" --window-size="$2,$3" \
        --virtual-time-budget=3000 --screenshot="$1" "$4" 2>/dev/null
}
shot docs/board.png "${width%.*}" "${height%.*}" "file://$OUT/board.svg"
turns=$(grep -o 'data-turns="[0-9]*"' "$OUT/replay.html" | head -n 1 | tr -dc 0-9)
shot docs/replay.png 1280 800 "file://$OUT/replay.html#turn=$((turns / 2))"
ls -l docs/board.png docs/replay.png
