"""Plays a whole game on the page of `carcassonne serve` in headless Chromium, by clicks,
as a person would: sets the game up in the form (every set, one person against an MCTS
bot), then at each of the person's decisions clicks what the page offers (a highlighted
square, the tile to turn it, the button that places it, a figure's spot on a tile, a
yellow tile, a button, a bid). Along the way it takes decisions back, reloads the page
(the game must come back as it was), asks for the MCTS view, and saves a record in the
middle; at the end it checks the scores shown against the record, replays the record
with `carcassonne replay`, and loads the mid-game record through the page.

The browser is driven through chromedriver's WebDriver protocol (plain HTTP and JSON,
standard library only); nothing leaves the machine.

Usage: python3 tests/play/browser.py CARCASSONNE CHECK_DIR CHROMIUM CHROMEDRIVER
Environment: SCREENSHOT=PATH keeps a picture of the page mid-game (docs/play.png).
Prints one line per check and `browser: N passed, M failed`; exit status 1 on a failure.
"""

from __future__ import annotations

import base64
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any, List, Optional

from checks import check, summary

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def http(method: str, url: str, body: Any = None, timeout: float = 120) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, method=method, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as r:
        text = r.read()
        return json.loads(text) if text else None


class WebDriverError(Exception):
    def __init__(self, error: str, message: str) -> None:
        super().__init__(f"{error}: {message}")
        self.error = error


class Browser:
    """Headless Chromium through chromedriver (W3C WebDriver)."""

    def __init__(self, chromium: str, chromedriver: str, scratch: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.log = open(os.path.join(scratch, "chromedriver.log"), "w")
        self.driver = subprocess.Popen([chromedriver, f"--port={port}"], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if http("GET", self.base + "/status", timeout=2)["value"]["ready"]:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.1)
        profile = os.path.join(scratch, f"profile-{os.getpid()}")
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", f"--user-data-dir={profile}", "--window-size=1280,800"]
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": {"binary": chromium, "args": args}}}}
        value = http("POST", self.base + "/session", caps)["value"]
        self.session = f"{self.base}/session/{value['sessionId']}"

    def cmd(self, method: str, path: str, body: Any = None) -> Any:
        try:
            return http(method, self.session + path, {} if body is None and method == "POST" else body)["value"]
        except urllib.error.HTTPError as e:
            value = json.loads(e.read() or b"{}").get("value", {})
            raise WebDriverError(value.get("error", str(e.code)), value.get("message", "")[:300]) from None

    def go(self, url: str) -> None:
        self.cmd("POST", "/url", {"url": url})

    def refresh(self) -> None:
        self.cmd("POST", "/refresh")

    def find_all(self, css: str) -> List[str]:
        return [e[ELEMENT] for e in self.cmd("POST", "/elements", {"using": "css selector", "value": css})]

    def find(self, css: str) -> Optional[str]:
        found = self.find_all(css)
        return found[0] if found else None

    def click(self, element: str) -> None:
        self.cmd("POST", f"/element/{element}/click")

    def attr(self, element: str, name: str) -> Optional[str]:
        return self.cmd("GET", f"/element/{element}/attribute/{name}")

    def text(self, element: str) -> str:
        return self.cmd("GET", f"/element/{element}/text")

    def type(self, element: str, text: str) -> None:
        self.cmd("POST", f"/element/{element}/value", {"text": text})

    def clear(self, element: str) -> None:
        self.cmd("POST", f"/element/{element}/clear")

    def displayed(self, element: str) -> bool:
        return bool(self.cmd("GET", f"/element/{element}/displayed"))

    def script(self, js: str) -> Any:
        return self.cmd("POST", "/execute/sync", {"script": js, "args": []})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.cmd("GET", "/screenshot"))

    def quit(self) -> None:
        try:
            http("DELETE", self.session)
        except OSError:
            pass
        self.driver.terminate()
        self.driver.wait(10)
        self.log.close()


# The text of the board (its row and column labels, the points scored) that the last
# bot move's message covers; only what the board shows (inside its scrolled area) counts.
COVERED_BY_TOAST = """
var t = document.getElementById("toast").getBoundingClientRect();
var w = document.getElementById("board-wrap").getBoundingClientRect();
var hit = [];
document.querySelectorAll("#board svg text").forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width === 0 || r.bottom <= w.top || r.top >= w.bottom || r.right <= w.left || r.left >= w.right) { return; }
  if (r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top) { hit.push(e.textContent); }
});
return hit;
"""


def status(b: Browser) -> tuple:
    """The page's state (human, bot, busy, over), version and status text."""
    s = b.find("#status")
    return b.attr(s, "data-state"), b.attr(s, "data-version"), b.text(s)


def settle(b: Browser, timeout: float = 300) -> tuple:
    """Waits until the person decides or the game is over."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = status(b)
        if st[0] in ("human", "over"):
            return st
        time.sleep(0.05)
    raise TimeoutError(f"the page stayed {status(b)} for {timeout} s")


def wait_for(b: Browser, css: str, timeout: float = 30) -> Optional[str]:
    """The first element matching ``css``, once the page has built it (the setup form is
    filled in by the page's script after the load; an analysis shows its moves when the
    search is done); ``None`` if none came within ``timeout`` seconds."""
    deadline = time.time() + timeout
    while True:
        found = b.find(css)
        if found is not None or time.time() >= deadline:
            return found
        time.sleep(0.05)


def choose_option(b: Browser, select_css: str, value: str) -> None:
    css = f"{select_css} option[value='{value}']"
    option = wait_for(b, css)
    if option is None:
        raise TimeoutError(f"no element {css} after 30 s")
    b.click(option)


def main() -> int:
    carc, scratch, chromium, chromedriver = sys.argv[1:5]
    rng = random.Random(7)
    server = subprocess.Popen([carc, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = server.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        print(f"the server did not start: {line}")
        return 1
    base = f"http://127.0.0.1:{m.group(1)}"
    b = Browser(chromium, chromedriver, scratch)
    try:
        play(b, base, carc, scratch, rng)
    finally:
        b.quit()
        server.terminate()
        server.wait(10)
    return summary("browser")


def play(b: Browser, base: str, carc: str, scratch: str, rng: random.Random) -> None:
    b.go(base + "/?speed=0")
    # ----- the setup form: two players, every set, the abbot, a person against MCTS.
    choose_option(b, "#players", "2")
    b.click(b.find("#all-sets"))
    sets = b.find_all("input[name=set]")
    check("the form offers every set", len(sets) >= 12 and all(b.cmd("GET", f"/element/{s}/selected") for s in sets),
          f"{len(sets)} sets")
    b.click(b.find("#abbot"))
    offered = [b.attr(o, "value") for o in b.find_all("#seat-1 option")]
    check("the seat menu offers every kind of bot",
          all(k in offered for k in ["random", "greedy", "heuristic"]) and any(o.startswith("mcts:") for o in offered),
          str(offered))
    choose_option(b, "#seat-0", "human")
    choose_option(b, "#seat-1", "other")
    spec = b.find("#seat-spec-1")
    b.type(spec, "mcts:20")
    seed = b.find("#seed")
    b.clear(seed)
    b.type(seed, "11")
    b.click(b.find("#start"))
    st = settle(b)
    game_id = re.search(r"#game=(\w+)", b.cmd("GET", "/url")).group(1)
    check("the game starts and waits for the person", st[0] == "human", str(st))
    held = b.text(b.find("#seat-table tr"))
    check("the figures held read in the plural", "7 followers, 1 abbot" in held, held)
    api = f"{base}/api/games/{game_id}"

    counts = {"square": 0, "turn": 0, "key": 0, "place": 0, "spot": 0, "tile": 0, "button": 0, "bid": 0,
              "undo": 0, "reload": 0, "analyse": 0, "bot view": 0, "pick": 0}
    phases = set()
    decisions = 0
    saved_mid = None
    reload_ok = True
    undo_ok = True
    clicks = 0
    toasts_seen = 0
    covered: List[str] = []
    while True:
        st = settle(b)
        if st[0] == "over":
            break
        if toasts_seen < 5 and b.find("#toast.shown"):
            toasts_seen += 1
            covered += b.script(COVERED_BY_TOAST)
        clicks += 1
        if clicks > 6000:
            check("the game ends within 6000 clicks", False)
            return
        prompt = b.text(b.find("#prompt"))
        phases.add(re.sub(r" [A-Z0-9]+-[-A-Z0-9]+$", "", prompt))
        roll = rng.random()
        # Now and then: reload the page, ask for the MCTS view, show the bot's view.
        if roll < 0.02:
            b.refresh()
            again = settle(b)
            counts["reload"] += 1
            reload_ok &= again[1] == st[1] and again[0] == st[0]
            continue
        if roll < 0.035:
            b.click(b.find("#analyse"))
            if wait_for(b, "#view .move", timeout=120) is not None:
                counts["analyse"] += 1
            continue
        if roll < 0.05:
            button = b.find("#show-bot-view")
            if b.attr(button, "disabled") is None:
                b.click(button)
                if b.find_all("#view .move"):
                    counts["bot view"] += 1
                b.click(button)
            continue
        if decisions >= 40 and saved_mid is None and prompt.startswith("You: place the tile") \
                and not b.find("#confirm") and b.find_all(".overlay .act.target.fits"):
            # Mid-game: a square chosen for the tile in hand, the MCTS view asked for;
            # the picture of the page, and the record saved.
            b.click(rng.choice(b.find_all(".overlay .act.target.fits")))
            b.type(b.find("#iterations"), os.environ.get("SCREENSHOT_ITERATIONS", "600"))
            b.click(b.find("#analyse"))
            wait_for(b, "#view .move", timeout=120)
            saved_mid = http("GET", api + "/record")
            with open(os.path.join(scratch, "browser-mid.json"), "w") as f:
                f.write(json.dumps(saved_mid) + "\n")
            shot = b.screenshot()
            path = os.environ.get("SCREENSHOT") or os.path.join(scratch, "browser-mid.png")
            with open(path, "wb") as f:
                f.write(shot)
            b.clear(b.find("#iterations"))
            check("a picture of the page mid-game, a square chosen and the MCTS view shown",
                  shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 20000 and bool(b.find("#ghost"))
                  and bool(b.find_all("#view .move")), f"{len(shot)} bytes")
            continue
        undo = b.find("#undo")
        if b.attr(undo, "disabled") is None and rng.random() < 0.3:
            b.click(undo)
            after = settle(b)
            counts["undo"] += 1
            undo_ok &= int(after[1]) > int(st[1])
            continue
        confirm = b.find("#confirm")
        if confirm:
            r = rng.random()
            if r < 0.2 and b.find("#rotate-right"):
                b.click(b.find(rng.choice(["#rotate-right", "#rotate-left", "#ghost", "#hand-tile"])))
                counts["turn"] += 1
            elif r < 0.3 and b.find("#rotate-right"):
                b.type(b.find("body"), "r")
                counts["key"] += 1
            else:
                b.click(confirm)
                counts["place"] += 1
                decisions += 1
            continue
        groups = {
            "square": b.find_all(".overlay .act.target"),
            "spot": b.find_all(".overlay .act.spot"),
            "tile": b.find_all(".overlay .act.tilepick"),
            "button": b.find_all("#actions .act.choice:not(.bid-button)"),
            "bid": b.find_all("#actions .act.bid-button"),
        }
        offered = [k for k, v in groups.items() if v]
        if not offered:
            check(f"the page offers something to click ({prompt})", False, st[2])
            return
        kind = rng.choice(offered)
        element = rng.choice(groups[kind])
        try:
            b.click(element)
        except WebDriverError as e:
            if e.error in ("element click intercepted", "element not interactable"):
                continue
            raise
        counts[kind] += 1
        if kind in ("button", "bid"):
            decisions += 1
        elif kind in ("spot", "tile"):
            # One choice there is played at once; several become buttons.
            if b.find("#cancel") and b.find_all("#actions .act.choice"):
                counts["pick"] += 1
            else:
                decisions += 1

    final = http("GET", api)
    record = http("GET", api + "/record")
    print(f"clicks: {clicks}; {decisions} decisions; {json.dumps(counts)}")
    print(f"decisions met: {sorted(phases)}")
    check("the game reaches its end", final["over"])
    shown = [int(b.text(e)) for e in b.find_all("#seat-table td.score")]
    check("the scores shown are the record's", shown == record["final_scores"], f"{shown} vs {record['final_scores']}")
    check("the status names the winner", "Game over" in b.text(b.find("#status")))
    check("the bot's move was shown without covering the board's labels", toasts_seen > 0 and not covered,
          f"{toasts_seen} seen; covered: {covered[:10]}")
    path = os.path.join(scratch, "browser-record.json")
    with open(path, "w") as f:
        f.write(json.dumps(record) + "\n")
    replay = subprocess.run([carc, "replay", path], capture_output=True, text=True)
    check("the record of the page's game replays", replay.returncode == 0 and "1 reproduced" in replay.stdout,
          replay.stdout + replay.stderr)
    for what in ["square", "turn", "place", "spot", "button"]:
        check(f"clicks of kind {what!r}", counts[what] > 0, json.dumps(counts))
    check("decisions were taken back, each a new version", counts["undo"] > 0 and undo_ok, json.dumps(counts))
    check("a reload shows the game as it was", counts["reload"] > 0 and reload_ok, json.dumps(counts))
    check("the MCTS view is shown on request", counts["analyse"] > 0, json.dumps(counts))
    check("more decisions than placing and deploying (every set)", len(phases) >= 4, str(sorted(phases)))

    # ----- load the mid-game record through the page: the game goes on from there.
    check("a record was saved mid-game", saved_mid is not None)
    if saved_mid is None:
        return
    b.click(b.find("#to-setup"))
    b.type(b.find("#load-file"), os.path.join(scratch, "browser-mid.json"))
    b.click(b.find("#load"))
    # The page names the loaded game in its address once the server has answered; until
    # then it still shows the finished game's state.
    deadline = time.time() + 60
    loaded_id = None
    while loaded_id in (None, game_id) and time.time() < deadline:
        m = re.search(r"#game=(\w+)", b.cmd("GET", "/url"))
        loaded_id = m.group(1) if m else None
        time.sleep(0.05)
    check("the page shows the loaded game", loaded_id not in (None, game_id),
          f"{b.cmd('GET', '/url')}; {b.text(b.find('#setup-error'))}")
    if loaded_id in (None, game_id):
        return
    # The loaded game is not over: wait for the page to leave the finished game's state.
    st = settle(b)
    while st[0] == "over" and time.time() < deadline:
        time.sleep(0.05)
        st = settle(b)
    loaded = http("GET", f"{base}/api/games/{loaded_id}")
    check("a loaded record goes on where it was saved",
          loaded_id != game_id and loaded["turn"] == len(saved_mid["turns"]) and not loaded["over"],
          f"turn {loaded['turn']} vs {len(saved_mid['turns'])} turns saved")
    games = http("GET", f"{base}/api/games")["games"]
    check("several games at once on the server", len({g["id"] for g in games}) >= 2, str(games))
    # The page still plays: one more decision by clicks.
    before = st[1]
    target = b.find_all(".overlay .act.target") or b.find_all("#actions .act.choice") or b.find_all(".overlay .act.spot")
    if target:
        b.click(target[0])
        if b.find("#confirm"):
            b.click(b.find("#confirm"))
        after = settle(b)
        check("the loaded game plays on", after[1] != before, f"{before} -> {after}")


if __name__ == "__main__":
    sys.exit(main())
