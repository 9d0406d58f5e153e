"""Refines the value head of expert-iteration weights on the network's own games.

A network distilled from a search's games (``expert_iteration.py``) learns its policy
well and its value head poorly: every row of a game shares one outcome, so a few thousand
games teach a few thousand labels. The guided search (``expert_iteration.py --evaluate
WEIGHTS --player search:N``) trusts that head at every leaf. This example gives it many
more games, cheaply: the arg-max network plays itself in a native
:class:`carcassonne.VectorEnv` (``--envs`` games stepped together, one batched forward
pass a step; a share ``--explore`` of the moves is drawn from the policy instead, so that
games and positions differ), a random share ``--keep`` of the positions is kept with the
deciding seat's final outcome (1 a win, ½ a tie, 0 a loss; a game cut short because
nothing could be offered inside the window is dropped), and then the value head alone is
trained on them (binary cross-entropy of its logit). With ``--target margin`` the target
is instead the smooth final margin ``½ + ½·tanh(margin / 20)``, the reward the built-in
``mcts`` player backs up: a search guided by such a head should score finished games the
same way (``carcassonne.search(..., margin=1)``, ``expert_iteration.py --margin 1``). The
trunk and the policy's heads are frozen: the arg-max policy of the result is exactly that
of ``--init``, only the search's leaf values change.

Self-play takes half of ``--minutes``, training the rest (``--epochs`` passes at most).
One game in ten is held out: the value's cross-entropy and squared error on its positions
are printed before training and after each pass, and the weights are written to
``OUT/policy.pt`` after each pass. Rows take 25 KB each (the planes as uint8):
``--max-rows`` bounds the memory (300,000 rows, about 7.5 GB).

Run (from the repository's root, with the package and PyTorch installed)::

    python examples/train_value.py --init examples/expert_iteration_base_2p.pt \\
        --minutes 44 --out runs/value

``--smoke`` plays a few games and trains one short pass, within a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Dict, List, Tuple

import numpy as np
import torch
import torch.nn.functional as F

import carcassonne

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expert_iteration import GAME, PRESET, load_model  # noqa: E402
from train_ppo import Policy, masked  # noqa: E402

SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expert_iteration_base_2p.pt")


class Positions:
    """Positions kept from self-play, in arrays allocated once: the deciding seat's
    observation, its seat, the game it belongs to, and (once that game ends) its value
    target in ``outcome`` (NaN before)."""

    def __init__(self, capacity: int, board_shape: Tuple[int, ...], num_globals: int) -> None:
        self.capacity = capacity
        self.board = np.empty((capacity,) + board_shape, dtype=np.uint8)
        self.globals = np.empty((capacity, num_globals), dtype=np.float32)
        self.seat = np.empty(capacity, dtype=np.int8)
        self.game = np.empty(capacity, dtype=np.int64)
        self.outcome = np.full(capacity, np.nan, dtype=np.float32)
        self.size = 0

    def full(self, room: int) -> bool:
        return self.size + room > self.capacity

    def add(self, board: np.ndarray, globals_: np.ndarray, seat: int, game: int) -> int:
        k = self.size
        self.board[k], self.globals[k], self.seat[k], self.game[k] = board, globals_, seat, game
        self.size += 1
        return k

    def finished(self) -> np.ndarray:
        """The rows whose game ended with scores (an outcome)."""
        return np.nonzero(~np.isnan(self.outcome[:self.size]))[0]


def self_play(model: Policy, args: argparse.Namespace, stop_at: float) -> Tuple[Positions, int]:
    """Arg-max self-play (a share ``--explore`` of the moves sampled) until ``stop_at``
    (``time.monotonic()``), ``--max-rows`` or, with ``--games``, that many games ended;
    the positions kept and the games that ended with scores."""
    env = carcassonne.VectorEnv(args.envs, **GAME, seed=args.seed, window=args.window, preset=PRESET,
                                learner_seat=None, threads=args.threads)
    obs, _ = env.reset()
    rng = np.random.default_rng(args.seed)
    positions = Positions(args.max_rows, obs["board"].shape[1:], obs["globals"].shape[1])
    # Rows waiting for their game's end, by env; the run's number of each env's game.
    pending: List[List[int]] = [[] for _ in range(args.envs)]
    game_of = np.arange(args.envs, dtype=np.int64)
    next_game, ended = args.envs, 0
    while time.monotonic() < stop_at and not positions.full(args.envs) and (args.games is None or ended < args.games):
        board, globals_, mask = obs["board"], obs["globals"], obs["action_mask"]
        for i in np.nonzero(rng.random(args.envs) < args.keep)[0]:
            pending[i].append(positions.add(board[i], globals_[i], int(obs["to_play"][i]), int(game_of[i])))
        with torch.no_grad():
            logits = masked(model(torch.from_numpy(board), torch.from_numpy(globals_))[0], torch.from_numpy(mask))
            ids = logits.argmax(dim=1).numpy()
            drawn = torch.multinomial(torch.softmax(logits, dim=1), 1)[:, 0].numpy()
        ids = np.where(rng.random(args.envs) < args.explore, drawn, ids).astype(np.int64)
        obs, _, terminated, truncated, info = env.step(ids)
        for i in np.nonzero(terminated | truncated)[0]:
            if terminated[i]:
                scores = info["final_scores"][i]
                for row in pending[i]:
                    seat = positions.seat[row]
                    margin = int(scores[seat]) - int(scores[1 - seat])
                    positions.outcome[row] = value_target(margin, args.target)
                ended += 1
            pending[i] = []
            game_of[i] = next_game
            next_game += 1
    return positions, ended


def value_target(margin: int, target: str) -> float:
    """The value head's target for a final ``margin`` (own score minus the opponent's):
    the outcome (1 a win, ½ a tie, 0 a loss) or, with ``target`` ``margin``, the smooth
    margin ``½ + ½·tanh(margin / 20)`` that the built-in ``mcts`` player backs up."""
    if target == "margin":
        return 0.5 + 0.5 * float(np.tanh(margin / 20.0))
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def value_losses(model: Policy, positions: Positions, rows: np.ndarray, minibatch: int) -> Dict[str, float]:
    """The value head's binary cross-entropy and squared error (of its sigmoid) on ``rows``."""
    bce = mse = 0.0
    with torch.no_grad():
        for k in range(0, len(rows), minibatch):
            at = rows[k:k + minibatch]
            target = torch.from_numpy(positions.outcome[at])
            _, v = model(torch.from_numpy(positions.board[at]), torch.from_numpy(positions.globals[at]))
            bce += float(F.binary_cross_entropy_with_logits(v, target, reduction="sum"))
            mse += float(((torch.sigmoid(v) - target) ** 2).sum())
    n = max(len(rows), 1)
    return {"bce": bce / n, "mse": mse / n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--init", default=SHIPPED, metavar="WEIGHTS", help="the weights to refine (default: the shipped ones)")
    parser.add_argument("--minutes", type=float, default=40.0, help="time of the whole run (half of it self-play)")
    parser.add_argument("--games", type=int, help="stop self-play after this many games (default: the time decides)")
    parser.add_argument("--envs", type=int, default=256, help="games stepped together")
    parser.add_argument("--keep", type=float, default=0.15, help="share of the positions kept")
    parser.add_argument("--explore", type=float, default=0.15, help="share of the moves drawn from the policy")
    parser.add_argument("--max-rows", type=int, default=300_000, help="most positions kept (25 KB each)")
    parser.add_argument("--target", choices=("outcome", "margin"), default="outcome",
                        help="the value's target: the final outcome, or the smooth final margin")
    parser.add_argument("--epochs", type=int, default=2, help="most passes over the kept positions")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--window", type=int, default=24)
    parser.add_argument("--threads", type=int, default=2, help="threads of the vector env")
    parser.add_argument("--torch-threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", default="runs/value")
    parser.add_argument("--smoke", action="store_true", help="a few games and one short pass, within a minute")
    args = parser.parse_args()
    for name in ("keep", "explore"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            parser.error(f"--{name} {getattr(args, name)}: expected a share in 0..1")
    for name in ("envs", "max_rows", "epochs", "minibatch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected at least 1")
    if args.games is not None and args.games < 1:
        parser.error(f"--games {args.games}: expected at least 1")
    if args.max_rows < args.envs:
        parser.error(f"--max-rows {args.max_rows}: expected at least --envs ({args.envs})")
    if args.smoke:
        args.envs, args.games, args.keep, args.epochs, args.minutes = 8, 8, 0.5, 1, min(args.minutes, 1.0)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    started = time.monotonic()
    deadline = started + 60.0 * args.minutes
    model = load_model(args.init, args.window)
    positions, games = self_play(model, args, started + 30.0 * args.minutes)
    rows = positions.finished()
    held_out = rows[positions.game[rows] % 10 == 0]
    train_rows = rows[positions.game[rows] % 10 != 0]
    minutes = (time.monotonic() - started) / 60
    print(f"self-play: {games} games in {minutes:.1f} min, {len(rows):,} positions kept "
          f"({len(train_rows):,} to train on, {len(held_out):,} held out); "
          f"mean {args.target} target of the deciding seat {float(positions.outcome[rows].mean()):.3f}", flush=True)
    if len(train_rows) == 0:
        raise SystemExit("no finished game: nothing to train on (give more --minutes or --games)")

    for p in model.parameters():
        p.requires_grad_(False)
    for p in model.value_head.parameters():
        p.requires_grad_(True)
    opt = torch.optim.Adam(model.value_head.parameters(), lr=args.lr)
    before = value_losses(model, positions, held_out, args.minibatch)
    print(f"held out, before: value cross-entropy {before['bce']:.4f}, squared error {before['mse']:.4f}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "policy.pt")
    for epoch in range(args.epochs):
        if epoch > 0 and time.monotonic() >= deadline:
            break
        order = train_rows[torch.randperm(len(train_rows)).numpy()]
        total, seen = 0.0, 0
        for k in range(0, len(order), args.minibatch):
            at = np.sort(order[k:k + args.minibatch])
            _, v = model(torch.from_numpy(positions.board[at]), torch.from_numpy(positions.globals[at]))
            loss = F.binary_cross_entropy_with_logits(v, torch.from_numpy(positions.outcome[at]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(at)
            seen += len(at)
            if time.monotonic() >= deadline and not args.smoke:
                break
        after = value_losses(model, positions, held_out, args.minibatch)
        torch.save(model.state_dict(), path)
        print(f"pass {epoch + 1}: training cross-entropy {total / max(seen, 1):.4f}; held out: value cross-entropy "
              f"{after['bce']:.4f}, squared error {after['mse']:.4f} "
              f"({(time.monotonic() - started) / 60:.1f} min)", flush=True)
    print(f"weights: {path} (the policy of {args.init}, a new value head)")


if __name__ == "__main__":
    main()
