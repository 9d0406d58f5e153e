#!/usr/bin/env bash
# The browser part of tests/play/run.sh: installs Chromium and chromedriver with apt-get
# when they are missing, then runs browser.py.
#
# Usage: tests/play/browser.sh CARCASSONNE_BINARY SCRATCH_DIR
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CARC=$1
OUT=$2

find_tool() {
    for candidate in "$@"; do
        if command -v "$candidate" >/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

CHROMIUM=$(find_tool chromium chromium-browser || true)
DRIVER=$(find_tool chromedriver || true)
if [ -z "$CHROMIUM" ] || [ -z "$DRIVER" ]; then
    echo "== installing chromium and chromium-driver"
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null; then
        SUDO="sudo"
    else
        echo "chromium or chromedriver is missing and cannot be installed (not root, no sudo)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    CHROMIUM=$(find_tool chromium chromium-browser)
    DRIVER=$(find_tool chromedriver)
fi

exec python3 "$ROOT/tests/play/browser.py" "$CARC" "$OUT" "$CHROMIUM" "$DRIVER"
