"""Built-in players and native matches between them.

``random`` picks uniformly among the legal actions; ``greedy`` picks the action with the
best immediate score difference (own points gained minus the most points an opponent
gained, judging a tile placement with its deployment step passed), ties at random.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _core
from .actions import Action
from .game import Game

__all__ = ["BuiltinPlayer", "play_games"]


class BuiltinPlayer:
    """A built-in player (``kind``: ``random`` or ``greedy``) with its own seed sequence."""

    def __init__(self, kind: str, seed: int = 0) -> None:
        if kind not in ("random", "greedy"):
            from .errors import InvalidArgumentError

            raise InvalidArgumentError(f"kind: unknown built-in player {kind!r} (random, greedy)")
        self.kind = kind
        self._rng = np.random.default_rng(seed)

    def __call__(self, game: Game) -> Action:
        return game.builtin_action(self.kind, int(self._rng.integers(0, 2**63 - 1)))

    def __repr__(self) -> str:
        return f"BuiltinPlayer({self.kind!r})"


def play_games(
    num_games: int,
    players: Sequence[str],
    seed: int = 0,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
) -> npt.NDArray[np.int32]:
    """Plays ``num_games`` games natively between built-in players (one kind per seat);
    returns the final scores, int32 [num_games, len(players)]. Game ``g`` uses seed
    ``seed + g``."""
    return _core.play_games(
        num_games, list(players), seed=seed, sets=sets, edition=edition, rules=rules, figures=figures
    )
