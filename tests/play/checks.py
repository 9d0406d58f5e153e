"""The tally of checks that terminal.py and browser.py print: one line per check and a
summary line `NAME: N passed, M failed`."""

from __future__ import annotations

passed = 0
failed = 0


def check(name: str, ok: bool, detail: str = "") -> None:
    """Counts one check and prints `ok: NAME` or `!! FAILED: NAME: DETAIL`."""
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {name}")
    else:
        failed += 1
        print(f"!! FAILED: {name}{': ' + detail if detail else ''}")


def summary(part: str) -> int:
    """Prints `PART: N passed, M failed` and returns the exit status (1 on a failure)."""
    print(f"{part}: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
