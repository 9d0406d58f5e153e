"""The built-in tree search's view of a decision: :func:`search`.

What a learner imitates (AlphaZero-style targets): each legal action's share of the
search's visits, the same shares over the flat action ids of the current step, and each
seat's value. Leaves are played out at random (the ``mcts`` player), or evaluated in
batches by a callable, a policy-value network, that takes the place of the playouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from .actions import Action, action_from_tuple
from .game import Game

#: An evaluator: ``f(batch) -> (priors, values)``. ``batch`` holds ``board`` uint8
#: ``[k, C, W, W]``, ``globals`` float32 ``[k, G]`` and ``action_mask`` int8 ``[k, A]``
#: (each leaf seen by its deciding seat, in the game's preset); ``priors`` is
#: ``[k, A]`` (not negative; ids the mask does not offer are ignored) and ``values`` is
#: ``[k]`` (the deciding seat's expected reward in 0..1) or ``[k, P]`` (by seat
#: relative to the deciding one).
Evaluator = Callable[[Dict[str, npt.NDArray[Any]]], Tuple[Any, Any]]


@dataclass(frozen=True)
class SearchResult:
    """What a search thinks of one decision."""

    #: The legal actions, in ``Game.legal_actions()`` order.
    actions: List[Action]
    #: Each legal action's share of the root's visits (float64 [L], sums to 1).
    shares: npt.NDArray[np.float64]
    #: Each legal action's visits (int64 [L]).
    visits: npt.NDArray[np.int64]
    #: Each legal action's mean reward for the deciding seat (float64 [L], NaN if never tried).
    mean_rewards: npt.NDArray[np.float64]
    #: Each flat id's share of the visits in the current step (float32 [A]): sums to 1
    #: over the ids the mask offers, 0 elsewhere.
    policy: npt.NDArray[np.float32]
    #: The share of the visits that went to actions with a flat id (1 unless some lay
    #: outside the window).
    policy_coverage: float
    #: Each seat's mean reward over the iterations, in 0..1 (float64 [P]).
    values: npt.NDArray[np.float64]
    #: The deciding seat's value.
    value: float
    #: The deciding seat.
    player: int
    #: Iterations run.
    iterations: int
    #: The action the search plays: the most visited.
    best: Action
    #: Wall-clock time of the search.
    seconds: float


def search(
    game: Game,
    budget: Union[int, str],
    seed: int = 0,
    evaluator: Optional[Evaluator] = None,
    batch: int = 8,
    c: Optional[float] = None,
    margin: Optional[float] = None,
    playout: Optional[float] = None,
    standing: Optional[float] = None,
    standing_end: Optional[float] = None,
) -> SearchResult:
    """Searches the current decision of ``game`` (the game is not changed).

    The search runs on a copy of the game: the evaluator may read ``game`` (its legal
    actions, ``str(game)``, an observation) and other threads may search it at the same
    time; the answer describes the game as it was when ``search`` was called.

    ``budget`` is iterations (``200``) or a time (``"50ms"``); with iterations the same
    ``seed`` gives the same result. Without ``evaluator`` this is the search of the
    ``mcts`` player (random playouts; ``c`` its exploration constant, default 0.4). With
    one, leaves are evaluated in batches of up to ``batch`` by ``evaluator(batch) ->
    (priors, values)`` (see :data:`Evaluator`) and the search selects by PUCT (``c``
    default 1.5). ``margin`` (0 to 1) weighs the smooth score margin ``½ + ½·tanh(margin /
    20)`` against the outcome (1 a win, 0 a loss) in the reward of a game finished inside
    the tree: by default 1 with playouts, 0 with an evaluator (the scale of a value
    trained on outcomes; give 1 for a value trained on the margin). ``playout`` (0 to 1,
    with an evaluator only; default 0) plays each leaf out once at random, as the
    ``mcts`` player does, and weighs that game's reward (``margin`` as above) against the
    evaluator's value. ``standing`` (0 to 1, with an evaluator only; default 0) weighs
    the standings if the game ended at the leaf against it: the deciding seat's turn is
    settled by passing, each seat's score with the final scoring is read (what
    :meth:`Game.scores_if_ended_now` gives) and scored as ``margin`` says; it is mixed in
    before the playout. With ``standing_end`` (0 to 1) that weight moves linearly from
    ``standing`` (default 0) at the start of the game to ``standing_end`` at its end, with
    the share of the tiles placed. Raises ``CarcassonneError`` when the game is over or
    waits for a draw, ``InvalidArgumentError`` for a bad budget, batch, margin, playout,
    standing, standing_end or evaluator answer; an exception raised by the evaluator
    propagates unchanged.
    """
    core = game._g
    # Read before the search: the evaluator may change the game meanwhile.
    actions = [action_from_tuple(t) for t in core.legal_actions()]
    raw: Dict[str, Any] = core.search(budget, seed=seed, evaluator=evaluator, batch=batch, c=c, margin=margin,
                                      playout=playout, standing=standing, standing_end=standing_end)
    return SearchResult(
        actions=actions,
        shares=raw["shares"],
        visits=raw["visits"],
        mean_rewards=raw["mean_rewards"],
        policy=raw["policy"],
        policy_coverage=float(raw["policy_coverage"]),
        values=raw["values"],
        value=float(raw["value"]),
        player=int(raw["player"]),
        iterations=int(raw["iterations"]),
        best=actions[int(raw["best"])],
        seconds=float(raw["seconds"]),
    )
