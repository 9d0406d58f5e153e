"""Thread scaling of the native vector environment.

Prints decisions per second of ``carcassonne.VectorEnv`` stepped with 1 and with 2
threads (2-player base game, batch 1024 by default, random legal actions), writing
observations of the ``full`` or the ``compact`` preset or masks and rewards only
(``masks``), and the speed-up of 2 threads over 1. Runs alternate between the thread counts (``--rounds``
rounds of ``--steps`` steps each) so that a change in the machine's load hits both; the
median and the best round are printed, with the load average when the run started.

Only ``env.step`` is timed: the random legal ids are drawn with numpy outside the timed
region. Run: ``python python/tools/bench_threads.py [--batch 1024] [--steps 60]
[--rounds 5] [--threads 1,2] [--modes full,compact,masks]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Dict, List, Tuple

import numpy as np

import carcassonne


def random_legal_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random offered id per row of ``mask``."""
    counts = mask.sum(axis=1, dtype=np.int64)
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    cum = np.cumsum(mask, axis=1, dtype=np.int32)
    return np.argmax(cum > pick[:, None], axis=1).astype(np.int64)


def timed_steps(env: carcassonne.VectorEnv, obs: Dict[str, np.ndarray], steps: int,
                rng: np.random.Generator) -> Tuple[float, Dict[str, np.ndarray]]:
    """Seconds spent in ``env.step`` over ``steps`` steps, and the last observation."""
    elapsed = 0.0
    for _ in range(steps):
        actions = random_legal_ids(obs["action_mask"], rng)
        t0 = time.perf_counter()
        obs, *_ = env.step(actions)
        elapsed += time.perf_counter() - t0
    return elapsed, obs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60, help="steps per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--window", type=int, default=32)
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--modes", default="full,compact,masks",
                        help="what is written: an observation preset's observations, or masks only")
    args = parser.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    modes = args.modes.split(",")

    print(f"VectorEnv, 2-player base game, batch {args.batch}, window {args.window}, "
          f"{args.rounds} alternating rounds of {args.steps} steps; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    for mode in modes:
        envs, obs = {}, {}
        for t in counts:
            envs[t] = carcassonne.VectorEnv(args.batch, players=2, sets=["base"], seed=1, window=args.window,
                                            threads=t, preset="full" if mode == "masks" else mode,
                                            observations=mode != "masks")
            obs[t], _ = envs[t].reset()
            # Warm up: page in the buffers and the games' boards.
            _, obs[t] = timed_steps(envs[t], obs[t], 5, np.random.default_rng(t))
        rates: Dict[int, List[float]] = {t: [] for t in counts}
        rng = np.random.default_rng(0)
        for _ in range(args.rounds):
            for t in counts:
                elapsed, obs[t] = timed_steps(envs[t], obs[t], args.steps, rng)
                rates[t].append(args.batch * args.steps / elapsed)
        base = statistics.median(rates[counts[0]])
        for t in counts:
            med = statistics.median(rates[t])
            print(f"{mode:8} threads {t}: {med:>11,.0f} decisions/s median, "
                  f"{max(rates[t]):>11,.0f} best; x{med / base:.2f} of {counts[0]} thread(s)")


if __name__ == "__main__":
    main()
