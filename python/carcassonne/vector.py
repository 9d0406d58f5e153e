"""The native vector environment: N games stepped by flat action ids in one call.

:class:`VectorEnv` owns its numpy buffers and passes them to the compiled
``carcassonne._core.VectorEnv``, which steps every game with the interpreter released
and writes observations, masks, rewards, seats and episode flags in place. The arrays
returned by :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` are those buffers: the
next call overwrites them (copy what you keep).

A ``VectorEnv`` belongs to the first thread that calls its :meth:`~VectorEnv.reset` or
:meth:`~VectorEnv.step`; a call from another thread raises
:class:`~carcassonne.errors.ConcurrentUseError` (so no thread reads buffers that another
thread's call rewrites). Separate ``VectorEnv`` objects on separate threads run in
parallel. Ctrl-C stops a long ``reset`` or ``step`` within about 20 ms; the games are
then partly stepped and only :meth:`~VectorEnv.reset` is accepted.

A batch is refused (:class:`~carcassonne.errors.InvalidConfigError`) before anything is
allocated when its estimated memory (128 KiB per game for the engine, plus its buffers)
exceeds 8 GiB or the memory available.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._config import game_config
from .errors import ConcurrentUseError, InvalidArgumentError
from .players import BuiltinPlayer

__all__ = ["VectorEnv"]

Seeds = Union[None, int, Sequence[int]]


class VectorEnv:
    """``num_envs`` games of one configuration stepped natively.

    Modes: self-play (``opponents=None``; every decision is returned, the observation is
    that of the player to play, ``rewards`` are per seat) or single agent
    (``opponents``: a built-in player spec such as ``"random"``, ``"greedy"`` or
    ``"mcts:200"``, or a :class:`~carcassonne.players.BuiltinPlayer`; one learning seat
    per game, ``learner_seat``
    fixed or ``None`` for a random seat per episode; the other seats are played natively).

    Episode ``k`` of game ``i`` uses seed ``seed + i + k * num_envs``. With
    ``autoreset="same-step"`` (default) a step that ends an episode sets ``terminated``
    or ``truncated``, writes ``final_scores`` and already shows the next episode's first
    observation; ``"next-step"`` shows the final observation and starts the next episode
    in the following step (its action is ignored); ``"disabled"`` requires :meth:`reset`.

    ``outside_window``: ``"mask"`` (legal moves outside the window are not offered; the
    episode is truncated if nothing can be offered) or ``"truncate"`` (truncated as soon
    as a legal move lies outside). ``illegal_action``: ``"raise"`` (default; nothing is
    stepped), ``"penalize"`` (that game is unchanged and the acting seat gets
    ``illegal_penalty``) or ``"random"`` (a random offered id is played instead).
    ``observations=False`` skips the board and globals (masks and rewards only).
    """

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        seed: int = 0,
        *,
        window: int = 32,
        reward: str = "score",
        opponents: Optional[Union[str, BuiltinPlayer]] = None,
        learner_seat: Optional[int] = 0,
        outside_window: str = "mask",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        autoreset: str = "same-step",
        observations: bool = True,
        threads: int = 1,
    ) -> None:
        self._env = _core.VectorEnv(
            num_envs,
            **game_config(players, sets, edition, rules, figures),
            seed=seed,
            window=window,
            reward=reward,
            opponents=opponents.spec if isinstance(opponents, BuiltinPlayer) else opponents,
            learner_seat=learner_seat,
            outside_window=outside_window,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            autoreset=autoreset,
            threads=threads,
        )
        e = self._env
        n, p = e.num_envs, e.num_players
        w = e.window
        self.num_envs: int = n
        self.num_players: int = p
        self.board: Optional[npt.NDArray[np.uint8]] = (
            np.zeros((n, e.num_planes, w, w), dtype=np.uint8) if observations else None
        )
        self.globals: Optional[npt.NDArray[np.float32]] = (
            np.zeros((n, e.num_globals), dtype=np.float32) if observations else None
        )
        self.action_mask: npt.NDArray[np.int8] = np.zeros((n, e.num_actions), dtype=np.int8)
        self.rewards: npt.NDArray[np.float32] = np.zeros((n, p), dtype=np.float32)
        self.to_play: npt.NDArray[np.int32] = np.zeros(n, dtype=np.int32)
        self.terminated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.truncated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.final_scores: npt.NDArray[np.int32] = np.zeros((n, p), dtype=np.int32)
        self.outside_window: npt.NDArray[np.uint32] = np.zeros(n, dtype=np.uint32)
        self._actions: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
        self._owner: Optional[int] = None
        self._owner_lock = threading.Lock()

    def __getstate__(self) -> Dict[str, Any]:
        # Pickles and deep copies: the compiled batch through its state, the buffers as
        # arrays; a copy belongs to the first thread that uses it.
        state = dict(self.__dict__)
        del state["_owner_lock"]
        state["_owner"] = None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._owner_lock = threading.Lock()

    def _claim(self) -> None:
        """Binds the env to the calling thread on first use; refuses other threads."""
        me = threading.get_ident()
        if self._owner == me:
            return
        with self._owner_lock:
            if self._owner is None:
                self._owner = me
                return
        raise ConcurrentUseError(
            "VectorEnv: this VectorEnv belongs to another thread (its arrays are "
            "rewritten by every call); give each thread its own VectorEnv"
        )

    @property
    def num_actions(self) -> int:
        return self._env.num_actions

    @property
    def num_planes(self) -> int:
        return self._env.num_planes

    @property
    def num_globals(self) -> int:
        return self._env.num_globals

    @property
    def window(self) -> int:
        return self._env.window

    def learner_seats(self) -> npt.NDArray[np.int32]:
        """The learning seat of each game (single-agent mode)."""
        return self._env.learner_seats()

    def game(self, index: int) -> "Any":
        """A copy of game ``index`` as a :class:`carcassonne.Game`."""
        from .game import Game

        return Game._wrap(self._env.game(index))

    def observation(self) -> Dict[str, Any]:
        """The current buffers: ``board``, ``globals`` (``None`` without observations),
        ``action_mask``, ``to_play``."""
        return {
            "board": self.board,
            "globals": self.globals,
            "action_mask": self.action_mask,
            "to_play": self.to_play,
        }

    def info(self) -> Dict[str, Any]:
        return {"final_scores": self.final_scores, "outside_window": self.outside_window}

    def reset(self, seed: Seeds = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Starts a new episode in every game: ``seed`` ``None`` continues each game's seed
        sequence, an int ``s`` gives game ``i`` seed ``s + i``, a list one seed per game."""
        self._claim()
        self._env.reset(
            self.action_mask,
            self.to_play,
            board=self.board,
            globals=self.globals,
            seeds=seed,
            outside_window=self.outside_window,
        )
        self.rewards.fill(0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        return self.observation(), self.info()

    def step(
        self, actions: "npt.ArrayLike"
    ) -> Tuple[
        Dict[str, Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, Any],
    ]:
        """Steps every game with its flat id; returns ``(obs, rewards, terminated,
        truncated, info)`` (the buffers, overwritten by the next call)."""
        self._claim()
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise InvalidArgumentError(
                f"actions: expected {self.num_envs} integer ids, got shape {a.shape} of {a.dtype}"
            )
        np.copyto(self._actions, a, casting="unsafe")
        self._env.step(
            self._actions,
            self.action_mask,
            self.rewards,
            self.to_play,
            self.terminated,
            self.truncated,
            board=self.board,
            globals=self.globals,
            final_scores=self.final_scores,
            outside_window=self.outside_window,
        )
        return self.observation(), self.rewards, self.terminated, self.truncated, self.info()
