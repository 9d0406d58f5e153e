#!/usr/bin/env bash
# The animated replay page (`carcassonne render --html`) in a real browser: headless
# Chromium loads the page, its script runs, and the DOM it leaves must show the record's
# number of turns, the turn asked for in the address (`#turn=N`) and the tiles placed by
# then, as `carcassonne render --turn N` counts them; in a 1280×800 window, the controls,
# the turn's scores and the legend must lie inside the window. Installs Chromium with
# apt-get when it is missing.
#
# Usage: tests/html/run.sh        (CARGO_TARGET_DIR is honoured; CARGO passes through)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carc-html.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# ----- tools ------------------------------------------------------------------------
CHROMIUM=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null; then
        CHROMIUM=$(command -v "$candidate")
        break
    fi
done
if [ -z "$CHROMIUM" ]; then
    echo "== installing chromium"
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null; then
        SUDO="sudo"
    else
        echo "chromium is missing and cannot be installed (not root, no sudo)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
    CHROMIUM=$(command -v chromium)
fi

# Headless, offline, with a fresh profile each time.
browser() {
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --disable-extensions \
        --user-data-dir="$OUT/profile-$RANDOM$RANDOM" "$@" 2>"$OUT/chromium.log"
}

"$CARGO" build -q -p carcassonne-cli
CARC="$TARGET_DIR/debug/carcassonne"

passed=0
failed=0
check() { # name expected actual
    if [ "$2" = "$3" ]; then
        passed=$((passed + 1))
        echo "ok: $1 = $3"
    else
        failed=$((failed + 1))
        echo "!! FAILED: $1: expected $2, the page shows ${3:-nothing}"
    fi
}

# The text inside <span id="NAME">...</span> of a DOM dump.
span() {
    sed -n "s/.*<span id=\"$1\">\\([^<]*\\)<\\/span>.*/\\1/p" "$2" | head -n 1
}

# A game played by the command line, and reference games with many sets.
"$CARC" play --players 3 --seed 11 --bots greedy,random,greedy --out "$OUT/played.json" >/dev/null
# Hills & Sheep is in no game of all.jsonl: one of its games with the Princess & the
# Dragon and Traders & Builders adds the sheep bag to the panel and its pieces to the legend.
cases=("$OUT/played.json|" "tests/data/all.jsonl|all-3p-0002" "tests/data/royal-gift.jsonl|royal-gift-4p-0003"
    "tests/data/hs-pd-tb.jsonl|hs-pd-tb-5p-0004")

# The replay page in a 1280×800 frame: the box (left top right bottom) of the controls,
# the turn's scores, the legend and the board, one line each.
fit_page() { # page.html#fragment
    cat >"$OUT/fit.html" <<EOF
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="$1" width="1280" height="800" style="border:0"></iframe>
<pre id="result">not loaded</pre>
<script>
document.getElementById("f").addEventListener("load", function () {
  var d = this.contentDocument, out = [];
  [["#controls", "controls"], ["div.turn-info.shown", "scores"], ["ul.legend", "legend"], ["#board svg", "board"]].forEach(function (c) {
    var e = d.querySelector(c[0]);
    if (!e) { out.push(c[1] + " missing"); return; }
    var r = e.getBoundingClientRect();
    out.push([c[1], Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)].join(" "));
  });
  document.getElementById("result").textContent = out.join("\\n");
});
</script></body></html>
EOF
    browser --allow-file-access-from-files --window-size=1400,1000 --virtual-time-budget=5000 \
        --dump-dom "file://$OUT/fit.html" | sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
}

for case in "${cases[@]}"; do
    file=${case%%|*}
    id=${case#*|}
    id_args=()
    [ -n "$id" ] && id_args=(--id "$id")
    name=$(basename "$file")${id:+ $id}
    "$CARC" render "$file" "${id_args[@]}" --html "$OUT/replay.html" >"$OUT/render.txt"
    turns=$(sed -n 's/^html replay of \([0-9]*\) turns written to .*/\1/p' "$OUT/render.txt")
    [ -n "$turns" ] || { echo "no turn count in: $(cat "$OUT/render.txt")" >&2; exit 1; }
    for shown in "" $((turns / 2)); do
        url="file://$OUT/replay.html"
        want=$turns
        if [ -n "$shown" ]; then
            url="$url#turn=$shown"
            want=$shown
        fi
        "$CARC" render "$file" "${id_args[@]}" --turn "$want" >"$OUT/turn.txt"
        tiles=$(sed -n 's/^tiles: \([0-9]*\) placed.*/\1/p' "$OUT/turn.txt")
        browser --virtual-time-budget=5000 --dump-dom "$url" >"$OUT/dom.html" || true
        check "$name${shown:+ #turn=$shown}: turn count" "$turns" "$(span turn-count "$OUT/dom.html")"
        check "$name${shown:+ #turn=$shown}: turn shown" "$want" "$(span turn-shown "$OUT/dom.html")"
        check "$name${shown:+ #turn=$shown}: tiles shown" "$tiles" "$(span tiles-shown "$OUT/dom.html")"
        frames=$(grep -o 'class="frame shown"' "$OUT/dom.html" | wc -l)
        check "$name${shown:+ #turn=$shown}: frames shown" 1 "$frames"
        panels=$(grep -o 'class="turn-info shown"' "$OUT/dom.html" | wc -l)
        check "$name${shown:+ #turn=$shown}: score panels shown" 1 "$panels"
    done
    # In a 1280×800 window, everything but the board keeps its size and stays in view;
    # the board shrinks to the room left.
    fit_page "replay.html#turn=$((turns / 2))" >"$OUT/fit.txt"
    for part in controls scores legend board; do
        box=$(awk -v p="$part" '$1 == p {print $2, $3, $4, $5}' "$OUT/fit.txt")
        inside=no
        if [ -n "$box" ]; then
            read -r left top right bottom <<<"$box"
            [ "$left" -ge 0 ] && [ "$top" -ge 0 ] && [ "$right" -le 1280 ] && [ "$bottom" -le 800 ] && inside=yes
        fi
        check "$name: the $part inside a 1280x800 window (${box:-missing})" yes "$inside"
    done
done

if [ "$failed" -gt 0 ]; then
    echo "chromium log:"
    tail -n 20 "$OUT/chromium.log"
fi
echo "html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
