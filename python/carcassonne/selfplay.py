"""Self-play with tree search: training rows for a policy-value network.

:func:`generate` plays games natively, on several threads, in which every seat searches
every decision with the built-in tree search (random playouts, or a batched evaluator
such as a network, as :func:`carcassonne.search` takes), and returns a row per searched
step: what the deciding seat saw (the observation and the legal-id mask, in an
observation preset), what the search taught (its visit shares over the ids and its value)
and how the game ended for that seat. :func:`batches` yields the rows of a long run a
few games at a time. The rows depend on the seed and the settings, not on the threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterator, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._search import Evaluator


@dataclass(frozen=True)
class SelfPlayRows:
    """Training rows (``N`` rows) of ``games`` self-play games."""

    #: Board planes, uint8 ``[N, C, W, W]`` (the deciding seat's observation).
    board: npt.NDArray[np.uint8]
    #: Globals, float32 ``[N, G]``.
    globals: npt.NDArray[np.float32]
    #: The mask of the step, int8 ``[N, A]``.
    action_mask: npt.NDArray[np.int8]
    #: The search's visit shares over the flat ids, float32 ``[N, A]``: 1 in total over
    #: the mask, 0 elsewhere (the policy target).
    policy: npt.NDArray[np.float32]
    #: The deciding seat, int32 ``[N]``.
    player: npt.NDArray[np.int32]
    #: The search's value of the decision for the deciding seat, float32 ``[N]`` in 0..1.
    search_value: npt.NDArray[np.float32]
    #: The deciding seat's outcome, float32 ``[N]``: 1 a win, 1/k a win shared by k, 0 a
    #: loss (the value target).
    outcome: npt.NDArray[np.float32]
    #: The deciding seat's final score minus the best opponent's, int32 ``[N]``.
    margin: npt.NDArray[np.int32]
    #: The game of each row (its index in the run), int32 ``[N]``.
    game: npt.NDArray[np.int32]
    #: Each game's seed, uint64 ``[games]`` (``Game(seed=...)`` deals the same game).
    seeds: npt.NDArray[np.uint64]
    #: Each game's final scores, int32 ``[games, P]``.
    scores: npt.NDArray[np.int32]
    #: Wall-clock time of the run.
    seconds: float

    def __len__(self) -> int:
        return int(self.player.shape[0])

    @property
    def rows_per_second(self) -> float:
        return len(self) / self.seconds if self.seconds > 0 else 0.0


def generate(
    games: int,
    budget: Union[int, str] = 150,
    seed: int = 0,
    threads: int = 1,
    players: int = 2,
    sets: Optional[Sequence[str]] = None,
    window: int = 24,
    preset: str = "compact",
    sample_moves: int = 30,
    evaluator: Optional[Evaluator] = None,
    batch: int = 8,
    c: Optional[float] = None,
    first_game: int = 0,
    margin: Optional[float] = None,
    playout: Optional[float] = None,
    standing: Optional[float] = None,
    standing_end: Optional[float] = None,
    **config: Any,
) -> SelfPlayRows:
    """Plays ``games`` self-play games and returns their rows.

    Every decision with more than one legal action is searched with ``budget`` (iterations,
    or a time such as ``"50ms"``); a decision with one legal action gives no row, a
    two-step decision (a ``CELL`` id, then a ``SLOT`` id) a row per step. The first
    ``sample_moves`` searched decisions of each game play an action drawn by visit share,
    the later ones the most visited. Game ``g`` is dealt from
    ``episode_seed(seed, 0, first_game + g)``. ``threads`` threads play the games, with the
    interpreter released; the rows come out in game order whatever the threads. With
    ``evaluator`` (see :func:`carcassonne.search`) the search is guided by it, called with
    up to ``batch`` leaves at a time from every thread. ``c``, ``margin``, ``playout``,
    ``standing`` and ``standing_end`` tune the search as they tune
    :func:`carcassonne.search` (the last three with an evaluator only): a teacher whose
    leaves mix the standings into the network's value, for instance. Other keywords (``edition``,
    ``rules``, ``figures``) configure the games as for :class:`carcassonne.Game`.
    """
    raw: Dict[str, Any] = _core.selfplay(
        games,
        budget=budget,
        seed=seed,
        first_game=first_game,
        threads=threads,
        players=players,
        sets=sets,
        window=window,
        preset=preset,
        sample_moves=sample_moves,
        evaluator=evaluator,
        batch=batch,
        c=c,
        margin=margin,
        playout=playout,
        standing=standing,
        standing_end=standing_end,
        **config,
    )
    return SelfPlayRows(**raw)


def batches(
    games_per_batch: int,
    num_batches: Optional[int] = None,
    seed: int = 0,
    **kwargs: Any,
) -> Iterator[SelfPlayRows]:
    """Yields the rows of ``games_per_batch`` games at a time (forever when
    ``num_batches`` is ``None``): batch ``b`` holds games ``b·games_per_batch`` onwards of
    one run from ``seed``, so the batches together are the rows of one long
    :func:`generate` run. Keywords as for :func:`generate`."""
    b = 0
    while num_batches is None or b < num_batches:
        yield generate(games_per_batch, seed=seed, first_game=b * games_per_batch, **kwargs)
        b += 1
