#!/usr/bin/env bash
# Plays against the engine as a person would, in both front ends, with every set, one
# person against an MCTS bot:
#  * the terminal (`carcassonne play --human`), driven through a pseudo-terminal by
#    terminal.py (Ctrl-C and --resume in the middle);
#  * the browser page (`carcassonne serve`), driven by browser.py through headless
#    Chromium and chromedriver (installed with apt-get when missing), by clicks.
# Both records are then checked with `carcassonne replay`.
#
# Usage: tests/play/run.sh [terminal|browser]...   (default: both)
#        SCREENSHOT=docs/play.png tests/play/run.sh browser   (keeps a mid-game picture)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
CARGO=${CARGO:-cargo}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/carc-play.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(terminal browser)

"$CARGO" build -q -p carcassonne-cli
CARC="$TARGET_DIR/debug/carcassonne"

status=0
for part in "${parts[@]}"; do
    case "$part" in
        terminal)
            echo "== the terminal: play --human through a pseudo-terminal"
            python3 tests/play/terminal.py "$CARC" "$OUT" || status=1
            ;;
        browser)
            echo "== the browser: serve, played by clicks in headless Chromium"
            bash tests/play/browser.sh "$CARC" "$OUT" || status=1
            ;;
        *)
            echo "unknown part $part (terminal, browser)" >&2
            exit 2
            ;;
    esac
done
exit $status
