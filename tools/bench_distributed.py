"""Measures carcassonne.distributed on this machine (docs/benchmarks.md, docs/distributed.md).

Prints, for self-play into a dataset and for a match:
* the native run (carcassonne.data.write_selfplay, carcassonne.match) on one thread and
  on two,
* the distributed run on a Ray cluster of this machine (``ray.init(num_cpus=N)``) with one
  worker and with two, each task one CPU,
* the overhead per game of the distributed run with one worker against the native run on
  one thread, and the speed-up of two against one.

Native and distributed runs are taken in turns (``--repeat`` pairs, default 3) and every
run is printed with the load average, since the machine may be shared; the summary keeps
the best of each. Each run's CPU time is measured too (this process and every process
under it, the local cluster's included: /proc), which other work on the machine moves
less than the wall-clock time. The cluster is started before the clock starts, and a first, cold run
(printed, not counted) starts its workers and imports the package in them; a counted
run's time includes everything else: submitting the tasks, the workers' staging, the
driver adopting the parts.

Usage (a release build of the package in the environment, with the ray extra):
    python tools/bench_distributed.py [--games 64] [--budget 50] [--match-games 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from typing import Any, Callable, Dict, List

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402

import carcassonne  # noqa: E402
from carcassonne import data, distributed  # noqa: E402


def _tree_cpu() -> float:
    """CPU seconds (user and system) used so far by this process and every process under
    it: with ``ray.init()`` here, the local cluster's processes and its workers (Linux)."""
    parent: Dict[int, int] = {}
    ticks: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry)] = int(fields[1])
        ticks[int(entry)] = int(fields[11]) + int(fields[12])
    mine = {os.getpid()}
    grew = True
    while grew:
        more = {pid for pid, ppid in parent.items() if ppid in mine} - mine
        grew = bool(more)
        mine |= more
    return sum(ticks[pid] for pid in mine if pid in ticks) / os.sysconf("SC_CLK_TCK")


def timed(run: Callable[[], float]) -> Dict[str, float]:
    cpu = _tree_cpu()
    start = time.perf_counter()
    rows = run()
    return {"seconds": time.perf_counter() - start, "rows": rows, "cpu": _tree_cpu() - cpu}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=64, help="self-play games per run (default 64)")
    p.add_argument("--budget", type=int, default=50, help="self-play search iterations per decision (default 50)")
    p.add_argument("--chunk-games", type=int, default=8, help="games per task (default 8)")
    p.add_argument("--match-games", type=int, default=64, help="match games per run (default 64)")
    p.add_argument("--bots", default="mcts:50,greedy", help="the match's players, comma separated (default mcts:50,greedy)")
    p.add_argument("--repeat", type=int, default=3, help="pairs of runs of each measurement (default 3)")
    p.add_argument("--skip-match", action="store_true", help="measure self-play only")
    args = p.parse_args()
    settings: Dict[str, Any] = dict(budget=args.budget, seed=1)
    bots = args.bots.split(",")
    work = tempfile.mkdtemp(prefix="bench-distributed-")
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return os.path.join(work, f"ds{counter[0]}")

    def native_selfplay(threads: int) -> float:
        return float(data.write_selfplay(fresh(), args.games, threads=threads, part_games=args.chunk_games, **settings)["decisions"])

    def ray_selfplay(workers: int) -> float:
        return float(distributed.selfplay(fresh(), args.games, chunk_games=args.chunk_games, **settings).decisions)

    def native_match(threads: int) -> float:
        return float(carcassonne.match(bots, args.match_games, seed=1, threads=threads).decisions.sum())

    def ray_match(workers: int) -> float:
        return float(distributed.match(bots, args.match_games, seed=1, chunk_games=args.chunk_games).decisions.sum())

    print(f"carcassonne {carcassonne.__version__}, ray {ray.__version__}, {os.cpu_count()} cores; "
          f"self-play: {args.games} games of mcts:{args.budget}, {args.chunk_games} a task; "
          f"match: {args.match_games} games of {' vs '.join(bots)}, {args.chunk_games} a task", flush=True)
    kinds: List[str] = ["selfplay"] + ([] if args.skip_match else ["match"])
    runs: Dict[str, List[Dict[str, float]]] = {}
    try:
        for kind in kinds:
            native = native_selfplay if kind == "selfplay" else native_match
            on_ray = ray_selfplay if kind == "selfplay" else ray_match
            for n in (1, 2):
                # A cluster of this machine with n CPUs: n workers of one CPU each.
                ray.init(num_cpus=n, include_dashboard=False, log_to_driver=False)
                try:
                    cold = timed(lambda: on_ray(n))
                    print(f"  {kind}: ray {n} worker(s), cold run (workers start): {cold['seconds']:.2f} s", flush=True)
                    # Native and distributed runs taken in turns, so that other work on
                    # the machine weighs on both alike.
                    for i in range(args.repeat):
                        for name, run in ((f"native {n}", lambda: native(n)), (f"ray {n}", lambda: on_ray(n))):
                            r = timed(run)
                            runs.setdefault(f"{kind} {name}", []).append(r)
                            load = os.getloadavg()[0]
                            print(f"  {kind}: {name:8} run {i + 1}: {r['seconds']:6.2f} s, "
                                  f"{r['rows'] / r['seconds']:5.0f} decisions/s, CPU {r['cpu']:6.2f} s "
                                  f"(load {load:.1f})", flush=True)
                finally:
                    ray.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    for kind in kinds:
        games = args.games if kind == "selfplay" else args.match_games
        best = {k.split(" ", 1)[1]: min(r["seconds"] for r in v) for k, v in runs.items() if k.startswith(kind + " ")}
        rows = runs[f"{kind} native 1"][0]["rows"]
        print(f"{kind} ({games} games, {rows:.0f} decisions), best of {args.repeat}:")
        for name in ("native 1", "ray 1", "native 2", "ray 2"):
            label = f"{'native' if name.startswith('native') else 'ray'} {name[-1]} {'thread(s)' if name.startswith('native') else 'worker(s)'}"
            print(f"  {label:18} {best[name]:6.2f} s  {rows / best[name]:6.0f} decisions/s  {games / best[name]:6.2f} games/s")
        pairs = [r["seconds"] / n["seconds"] for n, r in zip(runs[f"{kind} native 1"], runs[f"{kind} ray 1"])]
        print(f"  overhead per game, ray 1 worker against native 1 thread: best {(best['ray 1'] - best['native 1']) / games * 1000:+.1f} ms "
              f"({(best['ray 1'] / best['native 1'] - 1) * 100:+.1f} %); run by run: "
              + ", ".join(f"{(x - 1) * 100:+.1f} %" for x in pairs))
        print(f"  2 against 1: ray x{best['ray 1'] / best['ray 2']:.2f}, native x{best['native 1'] / best['native 2']:.2f}")
        cpu = {k.split(" ", 1)[1]: min(r["cpu"] for r in v) for k, v in runs.items() if k.startswith(kind + " ")}
        print(f"  CPU per game (least of {args.repeat}): native 1 thread {cpu['native 1'] / games * 1000:.1f} ms, "
              f"ray 1 worker {cpu['ray 1'] / games * 1000:.1f} ms (all of the cluster's processes): "
              f"{(cpu['ray 1'] - cpu['native 1']) / games * 1000:+.1f} ms ({(cpu['ray 1'] / cpu['native 1'] - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
