"""Opponents for the single-agent environment ``Carcassonne-v0``: built-in players,
callables, trained policies and pools of them (self-play).

An opponent decides for the seats other than the learner's. What
:class:`~carcassonne.env.CarcassonneEnv` accepts as ``opponents``:

* ``"random"``, ``"greedy"`` (or any built-in player's name): played natively, fastest;
* a callable ``f(game) -> Action`` taking a :class:`~carcassonne.Game` and returning a
  legal structured action (as :class:`~carcassonne.BuiltinPlayer` does);
* :func:`policy`: a trained policy that sees the opponent seat's own observation (the
  env's preset and window) and returns a flat id: an object with Stable-Baselines3's
  ``predict(obs, action_masks=..., deterministic=...)`` (``MaskablePPO``) or a callable
  ``f(obs) -> id`` where ``obs`` is the observation dict with its ``action_mask``;
* :class:`OpponentPool` (or a list, made into one): one member drawn per episode and
  seat, with optional weights; :meth:`OpponentPool.add` grows it during training (the
  usual self-play loop adds frozen copies of the learner).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._ids import action_id
from .actions import Action
from .errors import InvalidConfigError
from .game import Game
from .players import BuiltinPlayer

__all__ = ["Opponent", "OpponentPool", "PolicyOpponent", "PlayerOpponent", "policy", "as_opponent"]

Obs = Dict[str, npt.NDArray[Any]]


class Opponent:
    """One opponent: :meth:`play` makes the decisions of ``seat`` until another seat
    decides or the game ends."""

    def play(self, game: Game, seat: int, rng: np.random.Generator) -> None:
        raise NotImplementedError


class PlayerOpponent(Opponent):
    """A callable ``f(game) -> Action`` (a structured legal action)."""

    def __init__(self, player: Callable[[Game], Action]) -> None:
        self.player = player

    def play(self, game: Game, seat: int, rng: np.random.Generator) -> None:
        game.apply(self.player(game))

    def __repr__(self) -> str:
        return f"PlayerOpponent({self.player!r})"


class PolicyOpponent(Opponent):
    """A policy on observations (see :func:`policy`)."""

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        self.model = model
        self.deterministic = deterministic
        predict = getattr(model, "predict", None)
        if predict is None and not callable(model):
            raise InvalidConfigError(
                "opponents: a policy needs predict(obs, action_masks=..., deterministic=...) or to be callable"
            )
        self._predict = predict

    def act(self, obs: Obs) -> int:
        """The flat id the policy takes for observation ``obs``."""
        if self._predict is not None:
            mask = obs["action_mask"].astype(bool)
            action, _ = self._predict(obs, action_masks=mask, deterministic=self.deterministic)
            return action_id(action)
        return action_id(self.model(obs))

    def play(self, game: Game, seat: int, rng: np.random.Generator) -> None:
        obs = game.observation(seat)
        if int(obs["action_mask"].sum()) == 0:
            # Nothing offered in the window: play on with the first legal action.
            game.apply(game.legal_actions()[0])
            return
        game.step_flat(self.act(obs))

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.model!r})"


def policy(model: Any, deterministic: bool = True) -> PolicyOpponent:
    """An opponent that plays ``model`` on its own (egocentric) observations."""
    return PolicyOpponent(model, deterministic)


OpponentLike = Union[str, Callable[[Game], Action], Opponent, "OpponentPool", Sequence[Any]]


def as_opponent(value: Any) -> Union[Opponent, "OpponentPool"]:
    """An :class:`Opponent` or :class:`OpponentPool` from what ``opponents`` accepts."""
    if isinstance(value, (Opponent, OpponentPool)):
        return value
    if isinstance(value, str):
        return PlayerOpponent(BuiltinPlayer(value))
    if isinstance(value, (list, tuple)):
        return OpponentPool(value)
    if callable(value):
        return PlayerOpponent(value)
    raise InvalidConfigError(
        f"opponents: expected a built-in player's name, a callable, a policy or a pool, got {type(value).__name__}"
    )


class OpponentPool:
    """Opponents drawn per episode and seat, with ``weights`` (default: uniform)."""

    def __init__(self, opponents: Sequence[Any], weights: Optional[Sequence[float]] = None) -> None:
        self.members: List[Opponent] = []
        self.weights: List[float] = []
        if len(opponents) == 0:
            raise InvalidConfigError("opponents: an empty pool")
        if weights is not None and len(weights) != len(opponents):
            raise InvalidConfigError(f"weights: {len(weights)} weights for {len(opponents)} opponents")
        for i, o in enumerate(opponents):
            self.add(o, 1.0 if weights is None else float(weights[i]))

    def add(self, opponent: Any, weight: float = 1.0) -> None:
        """Adds an opponent (anything ``opponents`` accepts but a pool)."""
        member = as_opponent(opponent)
        if isinstance(member, OpponentPool):
            raise InvalidConfigError("opponents: a pool inside a pool")
        if not (weight > 0 and np.isfinite(weight)):
            raise InvalidConfigError(f"weight: {weight}; a positive number")
        self.members.append(member)
        self.weights.append(weight)

    def draw(self, rng: np.random.Generator) -> Opponent:
        """One member, drawn with the weights."""
        w = np.asarray(self.weights, dtype=np.float64)
        return self.members[int(rng.choice(len(self.members), p=w / w.sum()))]

    def __len__(self) -> int:
        return len(self.members)

    def __repr__(self) -> str:
        return f"OpponentPool({self.members!r})"
