"""Head-to-head evaluation of two players: every deal played from both seats, wins, ties
and losses counted apart, 95 % Wilson intervals.

A player is a built-in spec (``"random"``, ``"greedy"``, ``"heuristic"``,
``"mcts:150"``; :mod:`carcassonne.players`) or a callable ``f(game) -> Action``. Two
built-in players play natively (:func:`carcassonne.match`, on ``threads`` threads);
otherwise the games are played here, one decision at a time.

Deal ``k`` (``k`` from 0) deals the tiles of seed ``seed + k`` and is played once with
``a`` in seat 0 and once with ``a`` in seat 1 (2-player games: ``2 * deals`` games), so
neither the tiles nor the first move favour a player. From the command line::

    python -m carcassonne.evaluation heuristic greedy --deals 200 --threads 2

prints the table of :meth:`Evaluation.text`; ``--json FILE`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from .actions import Action
from .game import Game
from .players import BuiltinPlayer, match, player_spec

__all__ = ["Evaluation", "evaluate", "wilson"]

Player = Union[str, BuiltinPlayer, Callable[[Game], Action]]


def wilson(successes: float, trials: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for ``z = 1.96``); ``(0, 1)``
    without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    d = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / d
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Evaluation:
    """The result of ``a`` against ``b``."""

    #: The players as given (specs, or the callables' ``repr``).
    a: str
    b: str
    #: Games played (``2 * deals``), and ``a``'s wins, ties and losses among them.
    games: int
    wins: int
    ties: int
    losses: int
    #: ``wins / games`` and its 95 % Wilson interval (a tie is not a win).
    win_rate: float
    win_interval: Tuple[float, float]
    #: ``losses / games`` and its 95 % Wilson interval.
    loss_rate: float
    loss_interval: Tuple[float, float]
    #: ``a``'s wins with ``a`` in seat 0, and in seat 1 (``deals`` games each).
    wins_by_seat: Tuple[int, int]
    #: Mean final score of ``a`` and of ``b``; mean of ``a``'s score minus ``b``'s.
    mean_scores: Tuple[float, float]
    mean_margin: float
    #: Wall-clock seconds.
    seconds: float

    def text(self) -> str:
        """A short table of the result."""
        lo, hi = self.win_interval
        llo, lhi = self.loss_interval
        return (
            f"{self.a} against {self.b}: {self.games} games ({self.games // 2} deals, both seats)\n"
            f"  wins {self.wins}, ties {self.ties}, losses {self.losses}\n"
            f"  win rate  {100 * self.win_rate:5.1f} % (95 % interval {100 * lo:.1f}-{100 * hi:.1f} %)\n"
            f"  loss rate {100 * self.loss_rate:5.1f} % (95 % interval {100 * llo:.1f}-{100 * lhi:.1f} %)\n"
            f"  wins by seat of {self.a}: {self.wins_by_seat[0]} in seat 0, {self.wins_by_seat[1]} in seat 1\n"
            f"  mean score {self.mean_scores[0]:.1f} : {self.mean_scores[1]:.1f}, "
            f"mean margin {self.mean_margin:+.1f} ({self.seconds:.1f} s)"
        )


def _builtin(player: Player) -> Optional[str]:
    """The spec of a built-in player, ``None`` for a callable."""
    if isinstance(player, BuiltinPlayer):
        return player.spec
    if isinstance(player, str):
        return player_spec(player)
    return None


def _name(player: Player) -> str:
    spec = _builtin(player)
    return spec if spec is not None else repr(player)


def _play(players: Sequence[Callable[[Game], Action]], seed: int, config: Any) -> List[int]:
    """One game between ``players`` (one per seat): the final scores."""
    game = Game(**config, seed=seed)
    while not game.is_terminal:
        seat = game.to_play
        assert seat is not None
        game.apply(players[seat](game))
    return list(game.scores)


def evaluate(
    a: Player,
    b: Player,
    deals: int = 200,
    *,
    sets: Optional[Sequence[str]] = None,
    seed: int = 0,
    threads: int = 1,
    **config: Any,
) -> Evaluation:
    """Plays ``a`` against ``b`` on ``deals`` deals from both seats (2 players; other
    keywords configure the game as for :class:`carcassonne.Game`: ``edition``, ``rules``,
    ``figures``). Built-in players are seeded from ``seed``; a callable keeps its own
    state."""
    if deals < 1:
        raise ValueError(f"deals: {deals}; at least 1")
    started = time.monotonic()
    spec_a, spec_b = _builtin(a), _builtin(b)
    scores = np.zeros((2 * deals, 2), dtype=np.int64)  # [game, (a, b)]
    a_seat = np.zeros(2 * deals, dtype=np.int64)
    if spec_a is not None and spec_b is not None:
        # Native: game g deals seed + g // 2 with the seats rotated by g.
        result = match([spec_a, spec_b], 2 * deals, players=2, sets=sets, seed=seed, threads=threads, **config)
        scores[:] = result.player_scores()
        a_seat[:] = np.argmax(result.seating == 0, axis=1)
    else:
        call_a = BuiltinPlayer(spec_a, seed=seed) if spec_a is not None else a
        call_b = BuiltinPlayer(spec_b, seed=seed + 1) if spec_b is not None else b
        game_config = {"players": 2, "sets": sets, **config}
        for k in range(deals):
            for seat in (0, 1):
                g = 2 * k + seat
                seating = [call_a, call_b] if seat == 0 else [call_b, call_a]
                final = _play(seating, seed + k, game_config)  # type: ignore[arg-type]
                scores[g] = (final[seat], final[1 - seat])
                a_seat[g] = seat
    diff = scores[:, 0] - scores[:, 1]
    n = 2 * deals
    wins, ties, losses = int((diff > 0).sum()), int((diff == 0).sum()), int((diff < 0).sum())
    return Evaluation(
        a=_name(a),
        b=_name(b),
        games=n,
        wins=wins,
        ties=ties,
        losses=losses,
        win_rate=wins / n,
        win_interval=wilson(wins, n),
        loss_rate=losses / n,
        loss_interval=wilson(losses, n),
        wins_by_seat=(int(((diff > 0) & (a_seat == 0)).sum()), int(((diff > 0) & (a_seat == 1)).sum())),
        mean_scores=(float(scores[:, 0].mean()), float(scores[:, 1].mean())),
        mean_margin=float(diff.mean()),
        seconds=time.monotonic() - started,
    )


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m carcassonne.evaluation",
        description="Plays two built-in players on the same deals from both seats; "
        "wins, ties and losses apart, with 95 % Wilson intervals.",
    )
    parser.add_argument("a", help="a built-in player's spec (random, greedy, heuristic, mcts:150, ...)")
    parser.add_argument("b", help="its opponent's spec")
    parser.add_argument("--deals", type=int, default=200, help="deals, each played from both seats")
    parser.add_argument("--sets", default="base", help="comma-separated sets (default base)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    result = evaluate(args.a, args.b, args.deals, sets=args.sets.split(","), seed=args.seed, threads=args.threads)
    print(result.text())
    if args.json:
        with open(args.json, "w") as f:
            json.dump(asdict(result), f, indent=1)


if __name__ == "__main__":
    main()
