"""The throughput a trainer sees: learner decisions per second of ``carcassonne.VectorEnv``
against each kind of opponent.

A batch of ``--batch`` 2-player base games (``compact`` preset, window 24, the learner's
seat drawn per episode, as ``examples/train_ppo.py`` plays them); the learner samples a
random legal id per game from the mask (numpy, inside the timed loop, as a trainer's
sampling is), and the opponents play between its steps: built-in players natively,
Python policies in batches (one call per round for all the games that wait on them).
Each opponent runs for ``--seconds`` after a warm-up step; the figure is learner
decisions (games x steps) per second of wall time.

Run: ``python python/tools/bench_opponents.py [--batch 64] [--seconds 10] [--threads 1]``
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any, Dict, List, Tuple

import numpy as np

import carcassonne
from carcassonne.opponents import policy


def sample_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random offered id per row of ``mask``."""
    counts = mask.sum(axis=1, dtype=np.int64)
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    cum = np.cumsum(mask, axis=1, dtype=np.int32)
    return np.argmax(cum > pick[:, None], axis=1).astype(np.int64)


def lowest_ids(obs: Dict[str, Any]) -> np.ndarray:
    """A batched Python policy: the lowest offered id of every row (one numpy call)."""
    return np.argmax(obs["action_mask"], axis=1).astype(np.int64)


def run(opponents: Any, batch: int, seconds: float, threads: int) -> Tuple[float, int]:
    """(learner decisions per second, episodes finished)."""
    env = carcassonne.VectorEnv(
        batch, players=2, sets=["base"], seed=1, window=24, preset="compact", opponents=opponents,
        learner_seat=None, reward="score-diff", threads=threads,
    )
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    obs, *_ = env.step(sample_legal(obs["action_mask"], rng))  # warm-up
    steps, episodes = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.step(sample_legal(obs["action_mask"], rng))
        steps += 1
        episodes += int((terminated | truncated).sum())
    return steps * batch / (time.perf_counter() - start), episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--mcts", default="mcts:50,mcts:150", help="MCTS opponents, comma-separated")
    args = parser.parse_args()
    opponents: List[Tuple[str, Any]] = [
        ("random (native)", "random"),
        ("greedy (native)", "greedy"),
        ("heuristic (native)", "heuristic"),
    ]
    opponents += [(f"{spec} (native)", spec) for spec in args.mcts.split(",") if spec]
    opponents += [
        ("a batched Python policy", [policy(lowest_ids, batched=True)]),
        ("a pool: Python policy + heuristic", [policy(lowest_ids, batched=True), "heuristic"]),
    ]
    load = os.getloadavg()[0]
    print(f"batch {args.batch}, {args.threads} thread(s), load average {load:.1f} at the start")
    print("| opponent | learner decisions/s | episodes |")
    print("|---|---|---|")
    for name, opp in opponents:
        rate, episodes = run(opp, args.batch, args.seconds, args.threads)
        print(f"| {name} | {rate:,.0f} | {episodes} |", flush=True)


if __name__ == "__main__":
    main()
