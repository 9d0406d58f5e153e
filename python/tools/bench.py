"""Throughput of the native vector environment.

Prints decisions per second of ``carcassonne.VectorEnv`` (2-player base game, window 32,
batch 256, one thread, random legal actions) with masks and rewards only and with full
observations, the bytes of one observation, and how long writing observations takes
compared with a plain numpy copy of the same bytes.

Only ``env.step`` is timed: the random legal ids are drawn with numpy outside the timed
region. Run: ``python python/tools/bench.py [--batch 256] [--steps 400] [--threads 1]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Tuple

import numpy as np

import carcassonne


def random_legal_ids(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random offered id per row of ``mask``."""
    counts = mask.sum(axis=1, dtype=np.int64)
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    cum = np.cumsum(mask, axis=1, dtype=np.int32)
    return np.argmax(cum > pick[:, None], axis=1).astype(np.int64)


def run(batch: int, steps: int, window: int, threads: int, observations: bool) -> Tuple[float, int]:
    env = carcassonne.VectorEnv(
        batch, players=2, seed=1, window=window, observations=observations, threads=threads
    )
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    elapsed = 0.0
    for _ in range(steps):
        actions = random_legal_ids(obs["action_mask"], rng)
        t0 = time.perf_counter()
        obs, rewards, terminated, truncated, info = env.step(actions)
        elapsed += time.perf_counter() - t0
    return elapsed, batch * steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--window", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    info = carcassonne.encoder_info(args.window)
    c, w, g, a = info["num_planes"], args.window, info["num_globals"], info["num_actions"]
    board_bytes, globals_bytes, mask_bytes = c * w * w, 4 * g, a
    obs_bytes = board_bytes + globals_bytes + mask_bytes

    # Warm up (page in buffers, grow per-thread scratch).
    run(args.batch, 5, args.window, args.threads, True)
    t_mask, n = run(args.batch, args.steps, args.window, args.threads, False)
    t_full, _ = run(args.batch, args.steps, args.window, args.threads, True)

    # A plain numpy copy of the same observation bytes (board + globals) per step.
    src_b = np.ones((args.batch, c, w, w), dtype=np.uint8)
    src_g = np.ones((args.batch, g), dtype=np.float32)
    dst_b, dst_g = np.empty_like(src_b), np.empty_like(src_g)
    reps = 50
    t0 = time.perf_counter()
    for _ in range(reps):
        np.copyto(dst_b, src_b)
        np.copyto(dst_g, src_g)
    t_copy = (time.perf_counter() - t0) / reps * args.steps
    t_obs = max(t_full - t_mask, 0.0)

    print(f"VectorEnv: 2-player base game, window {w}, batch {args.batch}, threads {args.threads}, "
          f"{args.steps} steps, random legal actions")
    print(f"  masks + rewards only : {n / t_mask:12,.0f} decisions/s")
    print(f"  full observations    : {n / t_full:12,.0f} decisions/s")
    print(f"  bytes per observation: {obs_bytes:,} (board {board_bytes:,} + globals {globals_bytes:,} "
          f"+ mask {mask_bytes:,})")
    print(f"  observation writing  : {t_obs / n * 1e6:8.2f} us per observation "
          f"({t_obs / t_copy:.1f}x a numpy copy of the same {board_bytes + globals_bytes:,} bytes, "
          f"{t_copy / n * 1e6:.2f} us)")


if __name__ == "__main__":
    main()
