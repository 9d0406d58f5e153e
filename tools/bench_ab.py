#!/usr/bin/env python3
"""A/B benchmark of two builds of the engine: another commit against the working tree.

Builds commit A in a scratch folder (``target/bench-ab/<commit>``: its files by ``git
archive``, its own cargo target directory, kept for the next run) and the working tree (B),
then prints for each configuration of docs/benchmarks.md:

* instructions per game and per decision of both builds under callgrind
  (``valgrind --tool=callgrind carcassonne bench ...``), which do not depend on the
  machine's load. Both builds play the same games: ``bench --games N`` where A has it;
  where A's ``bench`` only knows ``--seconds``, A plays for that long and B then plays as
  many games (game k has seed 1 + k on both builds). The decisions per game of both are
  printed: equal when the rules and the order of the legal actions agree;
* games per second, alternating A and B in one run (``bench --seconds S``, rounds in
  alternating order, so that a change of the machine's load hits both), with the load
  average before and after;
* MCTS search: instructions per search iteration under callgrind and iterations per
  second in alternating rounds (``bench --bot mcts:...``), where A has ``--bot``;
* the dataset loader (``carcassonne dataset bench``, full preset, one thread and two)
  over a dataset of 32 self-play games that B writes once, where B has ``dataset``
  (and A too when it has it); its rows a second are the figure to hold against the
  full observations' decisions a second below;
* with ``--vector``: the Python ``VectorEnv`` (batch 256), each build's package run by
  A's own bench script (``python/tools/bench.py``, or ``python/bench.py`` in older
  trees), alternating, masks only and full observations; and B's thread scaling
  (``python/tools/bench_threads.py``); then self-play with ``mcts:150`` on two threads
  (``carcassonne.selfplay.generate(8, 150, seed=1, threads=2)``, the 2-player base game),
  rows a second with each build's package, alternating.

A configuration that A cannot play (a set it does not know) is shown as such.

Usage: python3 tools/bench_ab.py REV [options]     (or: make bench-ab REV=<commit>)
  --rounds N        alternating rounds of games/s and iterations/s (default 6)
  --seconds S       length of one timed round, in seconds (default 2)
  --configs LIST    comma-separated configuration numbers, 1-based (default: all)
  --games N         games per configuration under callgrind (default: each configuration's
                    own count, 250 to 2,000)
  --callgrind-seconds S  how long A plays under callgrind when it lacks --games (default 10)
  --skip PARTS      comma-separated parts to leave out: instructions, speed, mcts, loader
  --vector          also the VectorEnv A/B (builds both Python packages; needs python3
                    with venv; installs maturin and numpy into target/python-venv if missing)
  --vector-rounds N rounds of the VectorEnv A/B (default 6)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
SCRATCH = ROOT / "target" / "bench-ab"

# The nine set keys of the Royal Gift box, the twelve keys before Hills & Sheep, then every
# set key (thirteen).
ROYAL_GIFT_SETS = ("base,river1,river2,princess-and-dragon,abbey-and-mayor,count,king-and-robber,"
                   "cult,bridges-castles-and-bazaars")
TWELVE_SET_KEYS = ROYAL_GIFT_SETS + ",inns-and-cathedrals,traders-and-builders,tower"
ALL_SET_KEYS = TWELVE_SET_KEYS + ",hills-and-sheep"

# The configurations of docs/benchmarks.md: label, bench options, games under callgrind.
CONFIGS: List[Tuple[str, List[str], int]] = [
    ("base game, 2 players", ["--players", "2", "--sets", "base"], 2000),
    ("base + River I + II + Abbot, 2 players",
     ["--players", "2", "--sets", "base,river1,river2", "--abbot", "1"], 1000),
    ("base + Princess & Dragon, 2 players",
     ["--players", "2", "--sets", "base,princess-and-dragon"], 1000),
    ("base + River I + II + Abbot + P&D + A&M, 4 players",
     ["--players", "4", "--sets", "base,river1,river2,princess-and-dragon,abbey-and-mayor",
      "--abbot", "1"], 400),
    ("base + Count + King & Robber + Cult, 4 players",
     ["--players", "4", "--sets", "base,count,king-and-robber,cult"], 600),
    ("base + Bridges, Castles & Bazaars, 4 players",
     ["--players", "4", "--sets", "base,bridges-castles-and-bazaars"], 500),
    ("the nine Royal Gift keys + Abbot, 4 players",
     ["--players", "4", "--sets", ROYAL_GIFT_SETS, "--abbot", "1"], 250),
    ("all twelve set keys + Abbot, 4 players",
     ["--players", "4", "--sets", TWELVE_SET_KEYS, "--abbot", "1"], 150),
    ("base + Hills & Sheep, 4 players",
     ["--players", "4", "--sets", "base,hills-and-sheep"], 500),
    ("all thirteen set keys + Abbot, 4 players",
     ["--players", "4", "--sets", ALL_SET_KEYS, "--abbot", "1"], 150),
]

# The MCTS search measured: its budget under callgrind (one game) and in timed rounds.
MCTS_CALLGRIND = ["--players", "2", "--sets", "base", "--bot", "mcts:50", "--games", "1"]
MCTS_TIMED = ["--players", "2", "--sets", "base", "--bot", "mcts:200"]

SEED = ["--seed", "1"]


def say(text: str = "") -> None:
    print(text, flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(cmd: Sequence[str], cwd: Optional[Path] = None, env: Optional[Dict[str, str]] = None,
        check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True)
    if check and proc.returncode != 0:
        sys.exit(f"bench-ab: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc


def git(*args: str) -> str:
    return run(["git", "-C", str(ROOT), *args]).stdout.strip()


class Build:
    """One build of the engine: its command line and where its sources are."""

    def __init__(self, name: str, label: str, src: Path, target: Path):
        self.name, self.label, self.src, self.target = name, label, src, target
        self.cli = target / "release" / "carcassonne"
        self._help: Optional[str] = None

    def build_cli(self) -> None:
        say(f"== building {self.name} ({self.label}): cargo build --release -p carcassonne-cli")
        run(["cargo", "build", "--release", "-q", "-p", "carcassonne-cli",
             "--target-dir", str(self.target)], cwd=self.src)

    def bench_help(self) -> str:
        if self._help is None:
            self._help = run([str(self.cli), "bench", "--help"]).stdout
        return self._help

    def has(self, option: str) -> bool:
        return option in self.bench_help()

    def can_play(self, args: Sequence[str]) -> Optional[str]:
        """None if this build plays the configuration, else its error."""
        proc = run([str(self.cli), "bench", *args, "--seconds", "0.001"], check=False)
        if proc.returncode == 0:
            return None
        return (proc.stderr.strip().splitlines() or ["failed"])[0]


def scratch_build(rev: str) -> Build:
    full = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    short = full[:9]
    folder = SCRATCH / short
    src = folder / "src"
    stamp = folder / "commit"
    if not (stamp.exists() and stamp.read_text().strip() == full):
        if folder.exists():
            shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", full],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        stamp.write_text(full + "\n")
    subject = git("log", "-1", "--format=%s", full)[:70]
    return Build(f"A {short}", subject, src, folder / "target")


def tree_build(rev: Optional[str]) -> Build:
    if rev:
        b = scratch_build(rev)
        b.name = "B" + b.name[1:]
        return b
    head = git("rev-parse", "--short=9", "HEAD")
    dirty = " with uncommitted changes" if git("status", "--porcelain", "--untracked-files=no") else ""
    return Build("B working tree", f"{head}{dirty}", ROOT, TARGET)


BENCH_LINE = re.compile(r"bench: (\d+) games, (\d+) decisions")
RATE_LINE = re.compile(r"games/s: ([\d.]+) decisions/s: ([\d.]+)")
ITER_LINE = re.compile(r"iterations/s: ([\d.]+)")
SEARCH_LINE = re.compile(r"(\d+) searches, (\d+) iterations")
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def callgrind(build: Build, args: Sequence[str]) -> Tuple[int, int, int, str]:
    """Instructions, games, decisions of one bench run under callgrind, and its output."""
    proc = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                str(build.cli), "bench", *args])
    ir = COLLECTED.search(proc.stderr)
    line = BENCH_LINE.search(proc.stdout)
    if not ir or not line:
        sys.exit(f"bench-ab: cannot read the output of {build.name}:\n{proc.stdout}\n{proc.stderr[-2000:]}")
    return int(ir.group(1)), int(line.group(1)), int(line.group(2)), proc.stdout


def fmt(n: float) -> str:
    return f"{n:,.0f}"


def instructions(a: Build, b: Build, configs: List[int], seconds: float,
                 games_override: Optional[int]) -> None:
    say()
    say("== Instructions (valgrind --tool=callgrind over carcassonne bench --seed 1; "
        "the same games on both builds)")
    say(f"load average: {load()}")
    rows = [("configuration", "games", "A /game", "A /decision", "B /game", "B /decision",
             "B/A", "decisions/game A, B")]
    for i in configs:
        label, args, games = CONFIGS[i]
        games = games_override or games
        reason = a.can_play(args)
        if reason is not None:
            ir_b, g_b, d_b, _ = callgrind(b, [*args, *SEED, "--games", str(games)])
            rows.append((f"{i + 1}. {label}", str(g_b), "-", "-", fmt(ir_b / g_b), fmt(ir_b / d_b),
                         "-", "A cannot play it"))
            say(f"  {i + 1}. done (B only)")
            continue
        if a.has("--games"):
            ir_a, g_a, d_a, _ = callgrind(a, [*args, *SEED, "--games", str(games)])
        else:
            ir_a, g_a, d_a, _ = callgrind(a, [*args, *SEED, "--seconds", str(seconds)])
        ir_b, g_b, d_b, _ = callgrind(b, [*args, *SEED, "--games", str(g_a)])
        rows.append((f"{i + 1}. {label}", str(g_a), fmt(ir_a / g_a), fmt(ir_a / d_a),
                     fmt(ir_b / g_b), fmt(ir_b / d_b), f"{(ir_b / d_b) / (ir_a / d_a):.3f}",
                     f"{d_a / g_a:.2f}, {d_b / g_b:.2f}"))
        say(f"  {i + 1}. done")
    table(rows)
    say("(A /decision: instructions per decision of A; B/A: B's instructions per decision over "
        "A's; A without --games played --seconds "
        f"{seconds:g} under callgrind and B as many games)" if not a.has("--games") else
        "(B/A: B's instructions per decision over A's)")


def table(rows: List[Tuple[str, ...]]) -> None:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for k, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [r[c].rjust(widths[c]) for c in range(1, len(r))]
        say("  " + "  ".join(cells).rstrip())
        if k == 0:
            say("  " + "  ".join("-" * w for w in widths))


def timed(build: Build, args: Sequence[str], pattern: re.Pattern) -> float:
    proc = run([str(build.cli), "bench", *args])
    m = pattern.search(proc.stdout)
    if not m:
        sys.exit(f"bench-ab: cannot read the output of {build.name}:\n{proc.stdout}")
    return float(m.group(1))


def alternate(a: Build, b: Build, args: Sequence[str], rounds: int,
              pattern: re.Pattern) -> Tuple[List[float], List[float]]:
    ra: List[float] = []
    rb: List[float] = []
    for r in range(rounds):
        order = [(a, ra), (b, rb)] if r % 2 == 0 else [(b, rb), (a, ra)]
        for build, out in order:
            out.append(timed(build, args, pattern))
    return ra, rb


def rounds_line(name: str, values: List[float]) -> str:
    return (f"    {name}: " + " / ".join(fmt(v) for v in values)
            + f"  (median {fmt(statistics.median(values))})")


def speed(a: Build, b: Build, configs: List[int], rounds: int, seconds: float) -> None:
    say()
    say(f"== Games per second, one thread, {rounds} rounds of {seconds:g} s alternating A and B "
        "(carcassonne bench --seconds S)")
    for i in configs:
        label, args, _ = CONFIGS[i]
        before = load()
        if a.can_play(args) is not None:
            rb = [timed(b, [*args, "--seconds", str(seconds)], RATE_LINE) for _ in range(rounds)]
            say(f"  {i + 1}. {label} (A cannot play it; load average {before} -> {load()})")
            say(rounds_line("B", rb))
            continue
        ra, rb = alternate(a, b, [*args, "--seconds", str(seconds)], rounds, RATE_LINE)
        say(f"  {i + 1}. {label} (load average {before} -> {load()})")
        say(rounds_line("A", ra))
        say(rounds_line("B", rb))
        say(f"    B/A (medians): {statistics.median(rb) / statistics.median(ra):.2f}")


def mcts(a: Build, b: Build, rounds: int, seconds: float) -> None:
    say()
    say("== MCTS search, base game, 2 players")
    both = a.has("--bot")
    builds = [a, b] if both else [b]
    if not both:
        say("  (A's bench has no --bot: B only)")
    for build in builds:
        ir, _, _, out = callgrind(build, [*MCTS_CALLGRIND, *SEED])
        m = SEARCH_LINE.search(out)
        if not m:
            sys.exit(f"bench-ab: no search line in the output of {build.name}:\n{out}")
        say(f"  {build.name}: {fmt(ir / int(m.group(2)))} instructions per iteration "
            f"(callgrind, bench {' '.join(MCTS_CALLGRIND)} --seed 1: {m.group(2)} iterations)")
    args = [*MCTS_TIMED, "--seconds", str(max(seconds, 3.0))]
    before = load()
    if both:
        ra, rb = alternate(a, b, args, rounds, ITER_LINE)
    else:
        ra, rb = [], [timed(b, args, ITER_LINE) for _ in range(rounds)]
    say(f"  iterations/s, bench {' '.join(args)}, {rounds} rounds "
        f"(load average {before} -> {load()}):")
    if ra:
        say(rounds_line("A", ra))
    say(rounds_line("B", rb))
    if ra:
        say(f"    B/A (medians): {statistics.median(rb) / statistics.median(ra):.2f}")


# ----- the dataset loader ---------------------------------------------------------------

LOADER_ROWS = re.compile(r"([\d.]+) s, ([\d.]+) rows/s")


def has_command(build: Build, command: str) -> bool:
    return run([str(build.cli), command, "--help"], check=False).returncode == 0


def loader(a: Build, b: Build, rounds: int) -> None:
    say()
    say("== The dataset loader, full preset, window 24: carcassonne dataset bench DIR "
        "--preset full --threads T --rows 100000")
    if not has_command(b, "dataset"):
        say("  (B has no dataset command)")
        return
    data = SCRATCH / "loader-dataset"
    if not (data / "games").exists():
        shutil.rmtree(data, ignore_errors=True)
        run([str(b.cli), "selfplay", "--games", "32", "--bots", "mcts:10", "--seed", "1",
             "--out", str(data)])
    builds = [a, b] if has_command(a, "dataset") else [b]
    if len(builds) == 1:
        say("  (A has no dataset command: B only)")
    say(f"  DIR: {data} (B's carcassonne selfplay --games 32 --bots mcts:10 --seed 1)")
    for threads in (1, 2):
        before = load()
        results: Dict[str, List[float]] = {x.name: [] for x in builds}
        for r in range(rounds):
            for build in (builds if r % 2 == 0 else builds[::-1]):
                out = run([str(build.cli), "dataset", "bench", str(data), "--preset", "full",
                           "--threads", str(threads), "--rows", "100000"]).stdout
                m = LOADER_ROWS.search(out)
                if not m:
                    sys.exit(f"bench-ab: cannot read the loader bench output:\n{out}")
                results[build.name].append(float(m.group(2).replace(",", "")))
        say(f"  rows/s, {threads} thread{'s' if threads > 1 else ''} "
            f"(load average {before} -> {load()}):")
        for build in builds:
            say(rounds_line(build.name.split()[0], results[build.name]))


# ----- VectorEnv ---------------------------------------------------------------------------

def python_env() -> Path:
    venv = Path(os.environ.get("CARC_VENV", ROOT / "target" / "python-venv"))
    py = venv / "bin" / "python"
    if not py.exists():
        say(f"== creating {venv} (maturin, numpy)")
        run([sys.executable, "-m", "venv", str(venv)])
    if run([str(py), "-c", "import maturin, numpy"], check=False).returncode != 0:
        run([str(py), "-m", "pip", "install", "--quiet", "maturin>=1.9,<2", "numpy"])
    return py


def python_package(build: Build, py: Path) -> Path:
    """Builds the build's Python package and unpacks it; returns the folder to import from."""
    site = build.target / "bench-ab-site"
    wheels = build.target / "bench-ab-wheels"
    say(f"== building {build.name}'s Python package (maturin build --release)")
    shutil.rmtree(wheels, ignore_errors=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(build.target))
    run([str(py), "-m", "maturin", "build", "--release", "--quiet", "-m",
         str(build.src / "python" / "Cargo.toml"), "--out", str(wheels)], env=env)
    found = sorted(wheels.glob("carcassonne-*.whl"))
    if len(found) != 1:
        sys.exit(f"bench-ab: expected one wheel in {wheels}, found {len(found)}")
    shutil.rmtree(site, ignore_errors=True)
    with zipfile.ZipFile(found[0]) as z:
        z.extractall(site)
    return site


def bench_script(build: Build, name: str) -> Path:
    for candidate in (build.src / "python" / "tools" / name, build.src / "python" / name):
        if candidate.exists():
            return candidate
    sys.exit(f"bench-ab: no {name} in {build.src}")


MASKS = re.compile(r"masks \+ rewards only\s*:\s*([\d,]+)")
FULL = re.compile(r"full observations\s*:\s*([\d,]+)")


def vector(a: Build, b: Build, rounds: int) -> None:
    py = python_env()
    sites = {a.name: python_package(a, py), b.name: python_package(b, py)}
    script = bench_script(a, "bench.py")
    say()
    say(f"== VectorEnv, batch 256, one thread: A's script {script.relative_to(a.src)} "
        f"--steps 300 with each build's package, {rounds} rounds alternating")
    before = load()
    results: Dict[str, Tuple[List[float], List[float]]] = {a.name: ([], []), b.name: ([], [])}
    for r in range(rounds):
        order = [a, b] if r % 2 == 0 else [b, a]
        for build in order:
            # PYTHONSAFEPATH: the script's own folder is not put first on the path (in
            # older trees, python/bench.py lies beside the package's sources, whose
            # unbuilt `carcassonne` would hide the built one).
            env = dict(os.environ, PYTHONPATH=str(sites[build.name]), PYTHONSAFEPATH="1")
            out = run([str(py), str(script), "--steps", "300"], env=env).stdout
            m, f = MASKS.search(out), FULL.search(out)
            if not m or not f:
                sys.exit(f"bench-ab: cannot read the VectorEnv bench output:\n{out}")
            results[build.name][0].append(float(m.group(1).replace(",", "")))
            results[build.name][1].append(float(f.group(1).replace(",", "")))
    say(f"  decisions/s (load average {before} -> {load()}):")
    for k, what in ((0, "masks + rewards only"), (1, "full observations")):
        say(f"  {what}:")
        for build in (a, b):
            say(rounds_line(build.name.split()[0], results[build.name][k]))
        ratio = statistics.median(results[b.name][k]) / statistics.median(results[a.name][k])
        say(f"    B/A (medians): {ratio:.2f}")
    threads = b.src / "python" / "tools" / "bench_threads.py"
    if threads.exists():
        say()
        say("== VectorEnv thread scaling of B: python/tools/bench_threads.py --batch 256 "
            "--modes masks,full")
        env = dict(os.environ, PYTHONPATH=str(sites[b.name]))
        out = run([str(py), str(threads), "--batch", "256", "--modes", "masks,full"], env=env).stdout
        for line in out.strip().splitlines():
            say("  " + line)
    selfplay(a, b, py, sites, rounds)


SELFPLAY = (
    "import time\n"
    "from carcassonne import selfplay\n"
    "start = time.perf_counter()\n"
    "rows = selfplay.generate(8, 150, seed=1, threads=2)\n"
    "print('rows', len(rows), time.perf_counter() - start)\n"
)
SELFPLAY_LINE = re.compile(r"rows (\d+) ([\d.]+)")


def selfplay(a: Build, b: Build, py: Path, sites: Dict[str, Path], rounds: int) -> None:
    say()
    say("== Self-play, mcts:150, 2-player base, two threads: "
        "carcassonne.selfplay.generate(8, 150, seed=1, threads=2), "
        f"{rounds} rounds alternating")
    before = load()
    results: Dict[str, List[float]] = {a.name: [], b.name: []}
    counts: Dict[str, int] = {}
    for r in range(rounds):
        for build in ([a, b] if r % 2 == 0 else [b, a]):
            env = dict(os.environ, PYTHONPATH=str(sites[build.name]), PYTHONSAFEPATH="1")
            out = run([str(py), "-c", SELFPLAY], env=env).stdout
            m = SELFPLAY_LINE.search(out)
            if not m:
                sys.exit(f"bench-ab: cannot read the self-play output:\n{out}")
            counts[build.name] = int(m.group(1))
            results[build.name].append(int(m.group(1)) / float(m.group(2)))
    say(f"  rows/s (load average {before} -> {load()}; rows: A {counts[a.name]}, "
        f"B {counts[b.name]}):")
    for build in (a, b):
        say(rounds_line(build.name.split()[0], results[build.name]))
    ratio = statistics.median(results[b.name]) / statistics.median(results[a.name])
    say(f"    B/A (medians): {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Prints instructions per game and per decision of A and B under callgrind, "
               "games/s and MCTS iterations/s in alternating rounds, the dataset loader's "
               "rows/s, and optionally the VectorEnv and self-play A/B.")
    parser.add_argument("rev", help="commit A (any name git knows)")
    parser.add_argument("rev_b", nargs="?", help="commit B instead of the working tree")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--configs", default="")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--callgrind-seconds", type=float, default=10.0)
    parser.add_argument("--skip", default="")
    parser.add_argument("--vector", action="store_true")
    parser.add_argument("--vector-rounds", type=int, default=6)
    args = parser.parse_args()

    skip = {s for s in args.skip.split(",") if s}
    unknown = skip - {"instructions", "speed", "mcts", "loader"}
    if unknown:
        sys.exit(f"bench-ab: --skip: unknown part(s) {', '.join(sorted(unknown))} "
                 "(parts: instructions, speed, mcts, loader)")
    try:
        configs = ([int(c) - 1 for c in args.configs.split(",")] if args.configs
                   else list(range(len(CONFIGS))))
    except ValueError:
        sys.exit(f"bench-ab: --configs: expected numbers 1 to {len(CONFIGS)}, found {args.configs!r}")
    if args.games is not None and args.games < 1:
        sys.exit(f"bench-ab: --games: expected a positive number, found {args.games}")
    if any(not 0 <= c < len(CONFIGS) for c in configs):
        sys.exit(f"bench-ab: --configs: expected numbers 1 to {len(CONFIGS)}, found {args.configs!r}")
    if "instructions" not in skip or "mcts" not in skip:
        if shutil.which("valgrind") is None:
            sys.exit("bench-ab: valgrind is needed for the instruction counts "
                     "(apt-get install valgrind), or --skip instructions,mcts")

    a = scratch_build(args.rev)
    b = tree_build(args.rev_b)
    a.build_cli()
    b.build_cli()
    say()
    say(f"A: {a.name[2:]} {a.label}")
    say(f"B: {b.name[2:]} {b.label}")
    say(f"machine: {os.cpu_count()} cores; load average {load()}")
    if "instructions" not in skip:
        instructions(a, b, configs, args.callgrind_seconds, args.games)
    if "speed" not in skip:
        speed(a, b, configs, args.rounds, args.seconds)
    if "mcts" not in skip:
        mcts(a, b, args.rounds, args.seconds)
    if "loader" not in skip:
        loader(a, b, args.rounds)
    if args.vector:
        vector(a, b, args.vector_rounds)


if __name__ == "__main__":
    main()
