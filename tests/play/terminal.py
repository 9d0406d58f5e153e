"""Plays whole games of `carcassonne play --human` through a pseudo-terminal, as a person
would: reads each decision from the screen, types a choice (a number, the square's
coordinates or letter with the rotation, words, a bid), and the commands (`?`, `u`,
`b`, `s`, `t`, `h`, `m`), presses Ctrl-C in the middle and goes on with `--resume`,
then checks the record with `carcassonne replay`.

Usage: python3 tests/play/terminal.py CARCASSONNE_BINARY SCRATCH_DIR
Prints one line per check and `terminal: N passed, M failed`; exit status 1 on a failure.
"""

from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from typing import List, Optional, Tuple

from checks import check, summary

PROMPT = re.compile(r"seat (\d) \((\w+)\) > $")
TIMEOUT = 180.0


class Terminal:
    """A program running on a pseudo-terminal: what it wrote, and keys to type."""

    def __init__(self, argv: List[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(argv[0], argv)
        self.screen = ""
        self.status: Optional[int] = None

    def read_until(self, pattern: re.Pattern, timeout: float = TIMEOUT) -> Optional[re.Match]:
        """Reads until the text written since the last call matches `pattern` at its end
        (a prompt), or the program ends. Returns the match, None at the end."""
        if self.status is not None:
            return None
        start = len(self.screen)
        deadline = time.time() + timeout
        while True:
            m = pattern.search(self.screen, start)
            if m:
                return m
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError(f"no {pattern.pattern!r} after {timeout} s; last output:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.wait()
                return None
            self.screen += data.decode("utf-8", "replace").replace("\r\n", "\n")

    def since(self, mark: int) -> str:
        return self.screen[mark:]

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self) -> int:
        if self.status is None:
            _, status = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(status)
            try:
                os.close(self.fd)
            except OSError:
                pass
        return self.status


OPTION = re.compile(r"(?:^|  )\s*(\d+)\) (.*?)(?=  \s*\d+\) |$)")


def options_of(view: str) -> List[Tuple[int, str, str]]:
    """The numbered choices of the last decision view: (number, text, the line)."""
    part = view[view.rfind("\nyour decision: ") :]
    out = []
    for line in part.splitlines():
        for m in OPTION.finditer(line):
            out.append((int(m.group(1)), m.group(2).strip(), line))
    return out


SQUARE = re.compile(r"^\s+([A-Z]+) \((-?\d+), (-?\d+)\)")


def answer(view: str, rng: random.Random) -> Tuple[str, str]:
    """What to type for a random choice of the view, and the kind of input used."""
    options = options_of(view)
    if not options:
        raise AssertionError(f"no choices on the screen:\n{view[-1500:]}")
    number, text, line = rng.choice(options)
    bids = re.search(r"bid (\d+) to (\d+)", text)
    if bids:
        lo, hi = int(bids.group(1)), int(bids.group(2))
        return f"{number} {rng.randint(lo, min(hi, lo + 3))}", "bid"
    turned = re.match(r"turned (\d)$", text)
    square = SQUARE.match(line)
    if turned and square and rng.random() < 0.5:
        letter, x, y = square.groups()
        if rng.random() < 0.5:
            return f"{x} {y} {turned.group(1)}", "coordinates"
        return f"{letter} {turned.group(1)}", "letter"
    return str(number), "number"


def play_game(binary: str, out: str, args: List[str], rng: random.Random, interrupt_at: Optional[int]) -> dict:
    """Plays one game to its end (or to `interrupt_at` decisions, then Ctrl-C).
    Returns what happened."""
    term = Terminal([binary, "play", "--out", out] + args)
    seen = {"decisions": 0, "inputs": set(), "phases": set(), "undone": 0, "refused_undo": 0, "help": 0,
            "bad_input": 0, "interrupted": False, "over": False, "commands": set()}
    mark = 0
    prompted = False
    while True:
        if not prompted:
            m = term.read_until(PROMPT)
            if m is None:
                seen["over"] = "game over after" in term.screen
                seen["status"] = term.wait()
                seen["screen"] = term.screen
                return seen
        prompted = False
        view = term.since(mark)
        phase = re.findall(r"\nyour decision: (.*)", view)
        if phase:
            seen["phases"].add(re.sub(r" [A-Z0-9]+-[-A-Z0-9]+$", "", phase[-1]))
        if interrupt_at is not None and seen["decisions"] >= interrupt_at:
            term.type("\x03")
            term.read_until(re.compile(r"go on with\n\s+.*\n"), timeout=30)
            seen["interrupted"] = True
            seen["status"] = term.wait()
            seen["screen"] = term.screen
            return seen
        roll = rng.random()
        if roll < 0.03:
            # A command: its answer, then the prompt again (the view stays as it was).
            command = rng.choice(["?", "b", "s", "t", "h", "m"])
            at = len(term.screen)
            term.type(command + "\n")
            term.read_until(PROMPT)
            shown = term.since(at)
            seen["commands"].add(command)
            expected = {"?": "What to type at the prompt", "b": "legend:", "s": "points; holds",
                        "t": "tiles left to draw", "h": "iterations; value", "m": "MCTS bot"}[command]
            if expected not in shown:
                raise AssertionError(f"command {command!r} showed:\n{shown}")
            prompted = True
            continue
        if roll < 0.05:
            at = len(term.screen)
            term.type("no such choice\n")
            term.read_until(PROMPT)
            if "names no choice here" not in term.since(at):
                raise AssertionError(f"bad input answered with:\n{term.since(at)}")
            seen["bad_input"] += 1
            prompted = True
            continue
        text, kind = answer(view, rng)
        mark = len(term.screen)
        term.type(text + "\n")
        seen["inputs"].add(kind)
        seen["decisions"] += 1
        if rng.random() >= 0.15:
            continue
        # Now and then, take the decision back and decide again.
        m = term.read_until(PROMPT)
        if m is None:
            continue
        after = term.since(mark)
        if "refused" in after or "names no choice" in after or "fits" in after:
            raise AssertionError(f"{text!r} was not accepted:\n{after}")
        at = len(term.screen)
        term.type("u\n")
        term.read_until(PROMPT)
        reply = term.since(at)
        if "taken back" in reply:
            seen["undone"] += 1
            # The view of the decision taken back is shown again.
            if "\nyour decision: " not in reply:
                raise AssertionError(f"no view after taking back:\n{reply}")
            mark = at
        elif "cannot take back" in reply:
            seen["refused_undo"] += 1
        else:
            raise AssertionError(f"undo answered with:\n{reply}")
        prompted = True


def main() -> int:
    binary, scratch = sys.argv[1], sys.argv[2]
    rng = random.Random(20240611)
    known = subprocess.run([binary, "play", "--sets", "?"], capture_output=True, text=True).stderr
    sets = re.search(r"known: ([a-z0-9, -]+)\)", known).group(1).replace(" ", "")
    record = os.path.join(scratch, "terminal-record.json")
    args = ["--players", "2", "--sets", sets, "--abbot", "1", "--seed", "7", "--human", "0", "--bots", "mcts:20"]

    first = play_game(binary, record, args, rng, interrupt_at=25)
    check("Ctrl-C stops the game", first["interrupted"] and first["status"] == 130,
          f"status {first.get('status')}")
    check("Ctrl-C says how to go on", "carcassonne play --resume" in first["screen"])
    turns_before = len(re.findall(r"== turn (\d+):", first["screen"]))
    replay = subprocess.run([binary, "replay", record], capture_output=True, text=True)
    check("the record kept at Ctrl-C replays", replay.returncode == 0 and "1 reproduced" in replay.stdout,
          replay.stdout + replay.stderr)

    resume = ["--resume", record, "--human", "0", "--bots", "mcts:20"]
    second = play_game(binary, record, resume, rng, interrupt_at=None)
    check("the resumed game goes on to its end", second["over"] and second["status"] == 0,
          f"status {second.get('status')}: {second['screen'][-800:]}")
    first_turn = re.search(r"== turn (\d+):", second["screen"])
    last_turn = re.findall(r"== turn (\d+):", first["screen"])
    check("the game resumes where it stopped",
          first_turn is not None and last_turn and int(first_turn.group(1)) >= int(last_turn[-1]),
          f"{first_turn and first_turn.group(1)} after {last_turn[-1:]}")
    replay = subprocess.run([binary, "replay", record], capture_output=True, text=True)
    check("the final record replays", replay.returncode == 0 and "1 reproduced" in replay.stdout,
          replay.stdout + replay.stderr)
    final = re.search(r'"final_scores":\[(-?\d+),(-?\d+)\]', open(record).read())
    shown = re.findall(r"seat (\d) \(\w+\) \[[^\]]+\]: (-?\d+)", second["screen"])
    check("the final scores shown are the record's",
          final is not None and [s for _, s in shown[-2:]] == [final.group(1), final.group(2)],
          f"{shown[-2:]} vs {final and final.groups()}")

    phases = first["phases"] | second["phases"]
    print(f"decisions typed: {first['decisions'] + second['decisions']}; kinds of decision: {sorted(phases)}")
    inputs = first["inputs"] | second["inputs"]
    check("choices were typed as numbers, coordinates, letters",
          {"number", "coordinates", "letter"} <= inputs, str(sorted(inputs)))
    for expected in ["place the tile", "deploy a figure, or pass"]:
        check(f"a decision to {expected}", expected in phases, str(sorted(phases)))
    check("more than the placements and deployments were decided (every set is in play)",
          len(phases) >= 4, str(sorted(phases)))
    undone = first["undone"] + second["undone"]
    refused = first["refused_undo"] + second["refused_undo"]
    check("decisions were taken back", undone > 0, f"{undone} taken back")
    check("taking back after a draw is refused", refused > 0, f"{refused} refused")
    commands = first["commands"] | second["commands"]
    check("the commands answered", len(commands) >= 3, str(sorted(commands)))
    check("bad input is answered, not fatal", first["bad_input"] + second["bad_input"] > 0)

    # The end of the input stops the game and keeps it.
    eof_record = os.path.join(scratch, "eof-record.json")
    proc = subprocess.run([binary, "play", "--out", eof_record, "--players", "3", "--human", "1",
                           "--bots", "random", "--seed", "3"], input="1\n", capture_output=True, text=True,
                          timeout=120)
    check("the end of the input stops and keeps the game",
          proc.returncode == 0 and "end of input: the game is kept in" in proc.stdout,
          proc.stdout[-500:] + proc.stderr)
    replay = subprocess.run([binary, "replay", eof_record], capture_output=True, text=True)
    check("the record kept at the end of the input replays", "1 reproduced" in replay.stdout,
          replay.stdout + replay.stderr)
    # Mistakes on the command line are named.
    for argv, expected in [
        (["--human", "5"], "--human: expected a seat from 0 to 1"),
        (["--human", "0", "--human", "0"], "--human 0: given more than once"),
        (["--resume", os.path.join(scratch, "missing.json"), "--human", "0"], "--resume: cannot read"),
        (["--resume", record, "--human", "0", "--players", "3"], "--players: the game of --resume keeps its own setup"),
        (["--resume", record, "--human", "0"], "the game of this record is over"),
    ]:
        proc = subprocess.run([binary, "play", "--players", "2"] + argv if "--resume" not in argv else
                              [binary, "play"] + argv, capture_output=True, text=True, timeout=60)
        check(f"play {' '.join(argv)}: {expected}", proc.returncode == 2 and expected in proc.stderr,
              proc.stderr)

    return summary("terminal")


if __name__ == "__main__":
    sys.exit(main())
