"""Gymnasium environments: ``Carcassonne-v0`` (one learning seat against built-in
opponents) and its native vector version (``gymnasium.make_vec``).

Observations are dicts of ``board`` uint8 [C, W, W], ``globals`` float32 [G] and
``action_mask`` int8 [A] (``docs/observations.md``); actions are flat ids
(``Discrete(A)``); :meth:`CarcassonneEnv.action_masks` gives the mask as booleans for
maskable policies. The reward is the learner's (``reward="score"``, ``"score-diff"`` or
``"outcome"``), accumulated over the opponents' moves until the learner decides again.

**Illegal actions** (ids the mask does not offer, or out of range): with
``illegal_action="penalize"`` (default) the game is unchanged, the reward is
``illegal_penalty`` (default -1) and ``info["illegal_action"]`` is ``True``; with
``"random"`` a random legal id is played instead; with ``"raise"`` an
:class:`~carcassonne.errors.IllegalActionError` is raised (the game is unchanged).
Nothing crashes.

**Window.** Legal moves outside the observation window are not offered
(``info["outside_window"]`` counts them); if nothing can be offered the episode ends as
truncated. ``outside_window="truncate"`` truncates as soon as a legal move lies outside.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _core
from .errors import IllegalActionError, InvalidConfigError
from .game import Game
from .render import rgb_array

__all__ = ["CarcassonneEnv", "CarcassonneVectorEnv", "observation_space"]

Obs = Dict[str, npt.NDArray[Any]]

#: Bound of the globals' Box space (window origins and counts stay far inside).
GLOBALS_BOUND = 1.0e6


def observation_space(window: int = 32) -> spaces.Dict:
    """The observation space for window side ``window``."""
    info = _core.encoder_info(window)
    c, g, a = info["num_planes"], info["num_globals"], info["num_actions"]
    return spaces.Dict(
        {
            "board": spaces.Box(0, 255, shape=(c, window, window), dtype=np.uint8),
            "globals": spaces.Box(-GLOBALS_BOUND, GLOBALS_BOUND, shape=(g,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(a,), dtype=np.int8),
        }
    )


def _native(
    num_envs: int,
    players: int,
    sets: Optional[Sequence[str]],
    edition: Optional[str],
    rules: Optional[Mapping[str, Any]],
    figures: Optional[Mapping[str, int]],
    opponents: str,
    learner_seat: Optional[int],
    window: int,
    reward: str,
    outside_window: str,
    illegal_action: str,
    illegal_penalty: float,
    autoreset: str,
    seed: int = 0,
) -> _core.VectorEnv:
    if opponents not in ("random", "greedy"):
        raise InvalidConfigError(f"opponents: unknown built-in player {opponents!r} (random, greedy)")
    return _core.VectorEnv(
        num_envs,
        players=players,
        sets=sets,
        edition=edition,
        rules=rules,
        figures=figures,
        seed=seed,
        window=window,
        reward=reward,
        opponents=opponents,
        learner_seat=learner_seat,
        outside_window=outside_window,
        illegal_action=illegal_action,
        illegal_penalty=illegal_penalty,
        autoreset=autoreset,
    )


class _Buffers:
    """The arrays a native vector env writes into."""

    def __init__(self, env: _core.VectorEnv) -> None:
        n, p, w = env.num_envs, env.num_players, env.window
        self.board = np.zeros((n, env.num_planes, w, w), dtype=np.uint8)
        self.globals = np.zeros((n, env.num_globals), dtype=np.float32)
        self.mask = np.zeros((n, env.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.to_play = np.zeros(n, dtype=np.int32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.final_scores = np.zeros((n, p), dtype=np.int32)
        self.outside = np.zeros(n, dtype=np.uint32)
        self.actions = np.zeros(n, dtype=np.int64)

    def reset(self, env: _core.VectorEnv, seeds: Union[None, int, List[int]]) -> None:
        env.reset(
            self.mask,
            self.to_play,
            board=self.board,
            globals=self.globals,
            seeds=seeds,
            outside_window=self.outside,
        )

    def step(self, env: _core.VectorEnv) -> None:
        env.step(
            self.actions,
            self.mask,
            self.rewards,
            self.to_play,
            self.terminated,
            self.truncated,
            board=self.board,
            globals=self.globals,
            final_scores=self.final_scores,
            outside_window=self.outside,
        )


class CarcassonneEnv(gym.Env[Obs, np.int64]):
    """One learning seat against built-in opponents (``random`` or ``greedy``).

    ``learner_seat`` is the learner's seat (``None``: a random seat per episode). Other
    keywords configure the game as for :class:`carcassonne.Game`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        *,
        opponents: str = "random",
        learner_seat: Optional[int] = 0,
        window: int = 32,
        reward: str = "score",
        outside_window: str = "mask",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidConfigError(f"render_mode: {render_mode!r}; one of ansi, rgb_array or None")
        self.render_mode = render_mode
        self._env = _native(
            1,
            players,
            sets,
            edition,
            rules,
            figures,
            opponents,
            learner_seat,
            window,
            reward,
            outside_window,
            illegal_action,
            illegal_penalty,
            "disabled",
        )
        self._buf = _Buffers(self._env)
        self._illegal = illegal_action
        self._num_actions = self._env.num_actions
        self._has_seed = False
        self._started = False
        self.observation_space = observation_space(window)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self._num_actions)

    def _obs(self) -> Obs:
        b = self._buf
        return {
            "board": b.board[0].copy(),
            "globals": b.globals[0].copy(),
            "action_mask": b.mask[0].copy(),
        }

    def _info(self) -> Dict[str, Any]:
        return {
            "learner_seat": int(self._env.learner_seats()[0]),
            "outside_window": int(self._buf.outside[0]),
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Obs, Dict[str, Any]]:
        super().reset(seed=seed)
        seeds: Optional[List[int]] = None
        if seed is not None:
            seeds = [int(seed) % 2**63]
        elif not self._has_seed:
            seeds = [int(self.np_random.integers(0, 2**63 - 1))]
        self._has_seed = True
        self._buf.reset(self._env, seeds)
        self._started = True
        return self._obs(), self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of the current step as booleans [A]."""
        mask: npt.NDArray[np.bool_] = self._buf.mask[0].astype(bool)
        return mask

    def step(self, action: Any) -> Tuple[Obs, float, bool, bool, Dict[str, Any]]:
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"expected an integer action id, got {action!r}") from None
        legal = 0 <= a < self._num_actions and self._buf.mask[0, a] == 1
        if not legal and self._illegal == "raise":
            raise IllegalActionError(f"action id {a} is not legal now")
        self._buf.actions[0] = a if 0 <= a < self._num_actions else -1
        seat = int(self._env.learner_seats()[0])
        self._buf.step(self._env)
        terminated = bool(self._buf.terminated[0])
        truncated = bool(self._buf.truncated[0])
        info = self._info()
        info["illegal_action"] = not legal
        if terminated or truncated:
            info["final_scores"] = self._buf.final_scores[0].tolist()
            self._started = False
        return self._obs(), float(self._buf.rewards[0, seat]), terminated, truncated, info

    def game(self) -> Game:
        """A copy of the current game."""
        return Game._wrap(self._env.game(0))

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return self._env.game(0).render_text()
        if self.render_mode == "rgb_array":
            return rgb_array(self.game())
        return None


class CarcassonneVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` copies of ``Carcassonne-v0`` stepped natively in one call
    (next-step autoreset: the step after an episode ends starts the next one and its
    action is ignored). Episode ``k`` of env ``i`` uses seed ``seed + i + k * num_envs``.
    Observations are copied unless ``copy=False`` (then they are the native buffers,
    overwritten by the next step)."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        *,
        opponents: str = "random",
        learner_seat: Optional[int] = 0,
        window: int = 32,
        reward: str = "score",
        outside_window: str = "mask",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: Optional[str] = None,
        copy: bool = True,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidConfigError(f"render_mode: {render_mode!r}; one of ansi, rgb_array or None")
        self.render_mode = render_mode
        self._env = _native(
            num_envs,
            players,
            sets,
            edition,
            rules,
            figures,
            opponents,
            learner_seat,
            window,
            reward,
            outside_window,
            illegal_action,
            illegal_penalty,
            "next-step",
        )
        self._buf = _Buffers(self._env)
        self._copy = copy
        self._illegal = illegal_action
        self.num_envs = num_envs
        self.single_observation_space = observation_space(window)
        self.single_action_space = spaces.Discrete(self._env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._has_seed = False

    def _obs(self) -> Obs:
        b = self._buf
        if self._copy:
            return {"board": b.board.copy(), "globals": b.globals.copy(), "action_mask": b.mask.copy()}
        return {"board": b.board, "globals": b.globals, "action_mask": b.mask}

    def _info(self) -> Dict[str, Any]:
        return {
            "learner_seat": self._env.learner_seats(),
            "outside_window": self._buf.outside.copy(),
        }

    def reset(
        self,
        *,
        seed: Union[None, int, List[int]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Obs, Dict[str, Any]]:
        super().reset(seed=seed)  # type: ignore[arg-type]
        seeds: Union[None, int, List[int]] = seed
        if seed is None and not self._has_seed:
            seeds = int(self.np_random.integers(0, 2**62))
        self._has_seed = True
        self._buf.reset(self._env, seeds)
        return self._obs(), self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of every env as booleans [N, A]."""
        return self._buf.mask.astype(bool)

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Dict[str, Any]]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise IllegalActionError(f"actions: expected shape ({self.num_envs},), got {a.shape}")
        ok = (a >= 0) & (a < self._env.num_actions)
        ids = np.where(ok, a, 0).astype(np.int64)
        legal = ok & (self._buf.mask[np.arange(self.num_envs), ids] == 1)
        if self._illegal == "raise" and not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"env {bad}: action id {int(a[bad])} is not legal now")
        np.copyto(self._buf.actions, np.where(ok, a, -1), casting="unsafe")
        seats = self._env.learner_seats()
        self._buf.step(self._env)
        rewards = self._buf.rewards[np.arange(self.num_envs), seats].astype(np.float32)
        info = self._info()
        info["illegal_action"] = ~legal
        return (
            self._obs(),
            rewards,
            self._buf.terminated.copy(),
            self._buf.truncated.copy(),
            info,
        )

    def render(self) -> Optional[Tuple[Any, ...]]:
        if self.render_mode == "ansi":
            return tuple(self._env.game(i).render_text() for i in range(self.num_envs))
        if self.render_mode == "rgb_array":
            return tuple(rgb_array(Game._wrap(self._env.game(i))) for i in range(self.num_envs))
        return None
