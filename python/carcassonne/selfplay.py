"""Self-play with tree search: training rows for a policy-value network.

:func:`generate` plays games natively, on several threads, in which every seat searches
every decision with the built-in tree search (random playouts, or a batched evaluator
such as a network, as :func:`carcassonne.search` takes), and returns a row per searched
step: what the deciding seat saw (the observation and the legal-id mask, in an
observation preset), what the search taught (its visit shares over the ids and its value)
and how the game ended for that seat. :func:`batches` yields the rows of a long run a
few games at a time. The rows depend on the seed and the settings, not on the threads.
With ``out=DIR`` :func:`generate` writes the games into a dataset of Parquet tables
instead (docs/dataset.md), with the search's targets, and holds only a part's games in
memory at a time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, Optional, Sequence, Union, overload

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


@overload
def generate(
    games: int,
    budget: Union[int, str] = ...,
    seed: int = ...,
    *,
    out: None = ...,
    **kwargs: Any,
) -> SelfPlayRows: ...


@overload
def generate(
    games: int,
    budget: Union[int, str] = ...,
    seed: int = ...,
    *,
    out: Union[str, "os.PathLike[str]"],
    **kwargs: Any,
) -> Dict[str, int]: ...


def generate(
    games: int,
    budget: Union[int, str] = 150,
    seed: int = 0,
    threads: int = 1,
    players: Optional[int] = 2,
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
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    part_games: Optional[int] = None,
    seat_name: Optional[str] = None,
    **config: Any,
) -> Union[SelfPlayRows, Dict[str, int]]:
    """Plays ``games`` self-play games and returns their rows (or, with ``out``, writes
    them into a dataset).

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

    With ``out`` (a directory, created if needed) the games are written into a dataset
    (docs/dataset.md) instead of returned: the decisions with the search's targets as
    full flat ids, a part file every ``part_games`` games (default 64; only a part's
    games are held in memory), game ``first_game + g`` under the id
    ``selfplay-<seed>-<first_game + g>``. A game whose id is there already is not played
    again (the ids name the seed and the game, not the search: give each configuration
    or network its own seed or directory). Each seat is named in the ``seats`` column by
    the playout search's spec (``mcts:150``) or, with an evaluator, by ``seat_name``
    (default ``guided:<budget>``; 1 to 256 bytes, no control character, such as
    ``"net:" + hashlib.sha256(weights).hexdigest()``). Returns ``{"written", "present",
    "decisions"}``; Ctrl-C raises ``KeyboardInterrupt`` and leaves the parts written
    whole.
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
        out=None if out is None else os.fspath(out),
        part_games=part_games,
        seat_name=seat_name,
        **config,
    )
    if out is not None:
        return {k: int(v) for k, v in raw.items()}
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
