"""Self-play throughput: training rows per second of ``carcassonne.selfplay.generate``.

Plays ``--games`` 2-player base games (``compact`` preset, window 24) with each budget of
``--budgets`` (MCTS iterations per searched decision, random playouts), on 1 thread and
on ``--threads`` threads, and prints rows, games and seconds with rows per second and
the speed-up of the threads. With ``--evaluator`` it also times a guided search whose
evaluator is a numpy stand-in for a network (the mask as the prior, an even value; batch
``--batch``), which shows the cost of the calls into Python without a network's own.

Run: ``python python/tools/bench_selfplay.py [--games 8] [--budgets 50,150] [--threads 2]``
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Dict, List, Tuple

import numpy as np

from carcassonne import selfplay


def uniform(batch: Dict[str, np.ndarray]) -> Tuple[np.ndarray, np.ndarray]:
    mask = batch["action_mask"].astype(np.float32)
    return mask, np.full(len(mask), 0.5, dtype=np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--budgets", default="50,150")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--evaluator", action="store_true")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games per run, 2 players, base game, compact preset, window 24;"
          f" load average {load:.1f} on {os.cpu_count()} cores")
    print("| search | threads | rows | seconds | rows/s | ×1 thread |")
    print("|---|---|---|---|---|---|")
    runs: List[Tuple[str, Dict[str, Any]]] = [
        (f"mcts:{b}", dict(budget=int(b))) for b in args.budgets.split(",")
    ]
    if args.evaluator:
        for b in args.budgets.split(","):
            runs.append((f"guided:{b} (numpy stand-in, batch {args.batch})",
                         dict(budget=int(b), evaluator=uniform, batch=args.batch)))
    for name, kw in runs:
        single = 0.0
        for threads in sorted({1, args.threads}):
            rows = selfplay.generate(args.games, seed=args.seed, threads=threads, **kw)
            rate = rows.rows_per_second
            single = single or rate
            print(f"| {name} | {threads} | {len(rows)} | {rows.seconds:.1f} | {rate:,.1f} |"
                  f" ×{rate / single:.2f} |", flush=True)


if __name__ == "__main__":
    main()
