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

The vector environments (:class:`~carcassonne.VectorEnv`, ``gymnasium.make_vec`` and the
SB3 ``VecEnv``) accept the same opponents and decide in batches: after the learner's
step, every game where an opponent is to play waits, and each opponent is asked once
for all the games that wait on it (:meth:`Opponent.act_batch`: a policy gets the
observations stacked, ``[k, ...]``, and SB3's ``predict`` is called once for them; a
built-in player inside a pool plays natively on those games; a callable on games is
called once per game), until the learner is to play everywhere. A policy whose
callable takes the stacked observations at once is ``policy(f, batched=True)``. An
:class:`Opponent` of your own implements :meth:`~Opponent.play` (single env) and
:meth:`~Opponent.act_batch` (vector envs).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._ids import action_id, action_ids
from .actions import Action
from .errors import InvalidConfigError
from .game import Game
from .players import BuiltinPlayer

__all__ = ["Opponent", "OpponentPool", "PolicyOpponent", "PlayerOpponent", "policy", "as_opponent"]

Obs = Dict[str, npt.NDArray[Any]]


class Opponent:
    """One opponent: :meth:`play` makes the decisions of ``seat`` until another seat
    decides or the game ends; :meth:`act_batch` decides for many games at once."""

    def play(self, game: Game, seat: int, rng: np.random.Generator) -> None:
        raise NotImplementedError

    def act_batch(self, obs: Obs, games: Sequence[Game], rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """The flat ids for ``k`` games where this opponent decides: ``obs`` holds their
        observations (``board``, ``globals``, ``action_mask``: arrays ``[k, ...]``, each
        from the deciding seat's view), ``games`` gives each game (built on demand: a
        copy of the game is made only for the rows read)."""
        raise InvalidConfigError(
            f"opponents: {type(self).__name__} has no act_batch(obs, games, rng), which the vector envs call"
        )


class PlayerOpponent(Opponent):
    """A callable ``f(game) -> Action`` (a structured legal action)."""

    def __init__(self, player: Callable[[Game], Action]) -> None:
        self.player = player

    def play(self, game: Game, seat: int, rng: np.random.Generator) -> None:
        game.apply(self.player(game))

    @property
    def builtin(self) -> Optional[str]:
        """The spec of a built-in player (which the vector envs play natively)."""
        return self.player.spec if isinstance(self.player, BuiltinPlayer) else None

    def act_batch(self, obs: Obs, games: Sequence[Game], rng: np.random.Generator) -> npt.NDArray[np.int64]:
        ids = np.empty(len(games), dtype=np.int64)
        for k in range(len(games)):
            game = games[k]
            second = game.pending_focus is not None
            if second:
                # The CELL id of a two-id action was played: decide again on the game
                # without it and play the SLOT id.
                game = game.clone()
                game.cancel_focus()
            path = game.action_to_flat_path(self.player(game))
            offered = obs["action_mask"][k]
            pick = None if path is None else path[1] if second else path[0]
            if pick is None or not (0 <= pick < len(offered) and offered[pick]):
                # Outside the observation window: a random offered id.
                pick = int(rng.choice(np.flatnonzero(offered)))
            ids[k] = pick
        return ids

    def __repr__(self) -> str:
        return f"PlayerOpponent({self.player!r})"


class PolicyOpponent(Opponent):
    """A policy on observations (see :func:`policy`)."""

    def __init__(self, model: Any, deterministic: bool = True, batched: bool = False) -> None:
        self.model = model
        self.deterministic = deterministic
        self.batched = batched
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

    def act_batch(self, obs: Obs, games: Sequence[Game], rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One call for all the rows: SB3's ``predict`` on the stacked observations, or
        the callable (on the stacked observations with ``batched=True``, else row by
        row)."""
        k = len(obs["action_mask"])
        if self._predict is not None:
            mask = obs["action_mask"].astype(bool)
            action, _ = self._predict(obs, action_masks=mask, deterministic=self.deterministic)
            return action_ids(action, k)
        if self.batched:
            return action_ids(self.model(obs), k)
        rows = [{key: value[j] for key, value in obs.items() if value is not None} for j in range(k)]
        return np.array([action_id(self.model(row)) for row in rows], dtype=np.int64)

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.model!r})"


def policy(model: Any, deterministic: bool = True, batched: bool = False) -> PolicyOpponent:
    """An opponent that plays ``model`` on its own (egocentric) observations. With
    ``batched=True`` a callable ``model`` takes the observations of many games stacked
    (arrays ``[k, ...]``) and returns ``k`` ids (SB3 models are always called so)."""
    return PolicyOpponent(model, deterministic, batched)


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
