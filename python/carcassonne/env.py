"""Gymnasium environments: ``Carcassonne-v0`` (one learning seat against opponents) and
its native vector version (``gymnasium.make_vec``).

**Opponents** (:mod:`carcassonne.opponents`): built-in players play natively between
the learner's steps: a spec (``"random"``, ``"greedy"``, ``"mcts:200"``,
``"mcts:50ms"``; see :mod:`carcassonne.players`) or a
:class:`~carcassonne.players.BuiltinPlayer` (its spec is used; the opponents draw their
random choices from the episode's seed). A callable ``f(game) -> Action``, a trained policy
(:func:`carcassonne.opponents.policy`) or a pool of them
(:class:`carcassonne.opponents.OpponentPool`, or a list) play from Python, one pool
member drawn per episode and seat (``info["opponents"]`` names them); the vector env
asks each of them once per step for all the games that wait on it.

**Observation presets**: ``preset="full"`` (default), ``"in-play"`` or ``"compact"``
(``docs/observations.md``) choose the planes, globals and action ids. The spaces' shapes
are those of :func:`carcassonne.encoder_info` for the preset, and
``metadata["layout_version"]`` is the observation layout version
(:data:`carcassonne.LAYOUT_VERSION`).

Observations are dicts of ``board`` uint8 [C, W, W], ``globals`` float32 [G] and
``action_mask`` int8 [A] (``docs/observations.md``); actions are flat ids
(``Discrete(A)``); :meth:`CarcassonneEnv.action_masks` gives the mask as booleans for
maskable policies. The reward is the learner's (``reward="score"``, ``"score-diff"``,
``"outcome"`` or ``"win-loss"``; ``docs/observations.md``), accumulated over the
opponents' moves until the learner decides again.

**Actions** are integer ids (:mod:`carcassonne._ids`: a float, bool or string raises
:class:`~carcassonne.errors.InvalidArgumentError`, as everywhere in the package).
**Illegal actions** (ids the mask does not offer, or out of range): with
``illegal_action="penalize"`` (default) the game is unchanged, the reward is
``illegal_penalty`` (default -1) and ``info["illegal_action"]`` is ``True``; with
``"random"`` a random legal id is played instead; with ``"raise"`` an
:class:`~carcassonne.errors.IllegalActionError` is raised (the game is unchanged).
Nothing crashes.

**Episode statistics**: the step that ends an episode puts ``final_scores``,
``final_return`` (the learner's return) and ``final_length`` (the learner's steps) in
``info``; the vector env puts them in ``info`` as arrays with the masks
``_final_scores``, ``_final_return`` and ``_final_length``. The key ``episode`` is left
to Gymnasium's ``RecordEpisodeStatistics`` (which CleanRL and others wrap around the
env, single or vector, and which refuses an env that writes it itself).

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
from ._config import GameConfig, checked_render_mode, game_config
from ._ids import action_id, action_ids
from .errors import IllegalActionError, InvalidConfigError
from .game import Game
from .opponents import Opponent, OpponentPool, as_opponent
from .players import BuiltinPlayer, player_spec
from .render import rgb_array
from .vector import VectorEnv

__all__ = ["CarcassonneEnv", "CarcassonneVectorEnv", "observation_space"]

Obs = Dict[str, npt.NDArray[Any]]

#: Bound of the globals' Box space (window origins and counts stay far inside).
GLOBALS_BOUND = 1.0e6


def observation_space(window: int = 32, info: Optional[Dict[str, Any]] = None) -> spaces.Dict:
    """The observation space for window side ``window`` (full preset), or of the sizes of
    ``info`` (an ``encoder_info`` dict)."""
    if info is None:
        info = _core.encoder_info(window)
    window = int(info["window"])
    c, g, a = info["num_planes"], info["num_globals"], info["num_actions"]
    return spaces.Dict(
        {
            "board": spaces.Box(0, 255, shape=(c, window, window), dtype=np.uint8),
            "globals": spaces.Box(-GLOBALS_BOUND, GLOBALS_BOUND, shape=(g,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(a,), dtype=np.int8),
        }
    )


def _native(
    num_envs: int, config: GameConfig, opponents: Any, autoreset: str, **options: Any
) -> VectorEnv:
    """The native vector env (and its buffers) behind both environments: ``options`` are
    the environment keywords (``learner_seat``, ``window``, ``reward``,
    ``outside_window``, ``illegal_action``, ``illegal_penalty``). Built-in opponents are
    checked here; others are played from Python by the :class:`VectorEnv`."""
    if isinstance(opponents, (str, BuiltinPlayer)):
        try:
            opponents = player_spec(opponents)
        except ValueError as e:
            raise InvalidConfigError(f"opponents: {e}") from None
    return VectorEnv(num_envs, **config, opponents=opponents, autoreset=autoreset, **options)


class CarcassonneEnv(gym.Env[Obs, np.int64]):
    """One learning seat against opponents: built-in players (a spec such as
    ``"random"``, ``"greedy"`` or ``"mcts:200"``, or a
    :class:`~carcassonne.players.BuiltinPlayer`; played natively), callables, policies or
    a pool (:mod:`carcassonne.opponents`).

    ``learner_seat`` is the learner's seat (``None``: a random seat per episode).
    ``preset`` and ``window`` choose the observation preset and window. ``render_mode``:
    ``"ansi"`` makes ``render()`` return the board as text (as ``carcassonne render``
    prints it), ``"rgb_array"`` the observation window as an RGB image, uint8
    ``[window * 24, window * 24, 3]`` (:func:`carcassonne.render.rgb_array`). Other
    keywords configure the game as for :class:`carcassonne.Game`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2, "layout_version": _core.LAYOUT_VERSION}

    def __init__(
        self,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        *,
        opponents: Any = "random",
        learner_seat: Optional[int] = 0,
        window: int = 32,
        reward: str = "score",
        outside_window: str = "mask",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: Optional[str] = None,
        preset: str = "full",
    ) -> None:
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        config = game_config(players, sets, edition, rules, figures)
        self._native = isinstance(opponents, (str, BuiltinPlayer))
        # The native env validates every keyword (and plays built-in opponents).
        self._env = _native(
            1,
            config,
            opponents if self._native else "random",
            "disabled",
            learner_seat=learner_seat,
            window=window,
            reward=reward,
            outside_window=outside_window,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            preset=preset,
        )
        self._config = config
        self._opponents: Optional[Union[Opponent, OpponentPool]] = (
            None if self._native else as_opponent(opponents)
        )
        self._learner_seat = learner_seat
        self._reward = reward
        self._outside = outside_window
        self._illegal_penalty = float(illegal_penalty)
        self._window = window
        self._preset = preset
        self._action = np.zeros(1, dtype=np.int64)
        self._illegal = illegal_action
        info = self._env.encoder_info()
        self._num_actions = int(info["num_actions"])
        self._has_seed = False
        self._started = False
        self._game: Optional[Game] = None
        self._seat = 0
        self._seated: List[Opponent] = []
        self._scores_before: List[int] = []
        self._return = 0.0
        self._length = 0
        self.observation_space = observation_space(window, info)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self._num_actions)

    # ----- Python-played opponents ----------------------------------------------------

    def _py_obs(self) -> Obs:
        assert self._game is not None
        o = self._game.observation(self._seat)
        if self._game.to_play != self._seat:
            o["action_mask"][:] = 0
        return {"board": o["board"], "globals": o["globals"], "action_mask": o["action_mask"]}

    def _py_play_opponents(self) -> None:
        game = self._game
        assert game is not None
        while not game.is_terminal and game.to_play is not None and game.to_play != self._seat:
            seat = game.to_play
            self._seated[seat].play(game, seat, self.np_random)

    def _py_outside(self) -> Tuple[int, bool]:
        """(legal moves outside the window, whether the episode must be truncated)."""
        assert self._game is not None
        if self._game.is_terminal:
            return 0, False
        _, offered, outside = self._game.mask_info()
        return outside, offered == 0 or (self._outside == "truncate" and outside > 0)

    def _py_reset(self, seed: int) -> Tuple[Obs, Dict[str, Any]]:
        assert self._opponents is not None
        rng = self.np_random
        self._game = Game(**self._config, seed=seed, window=self._window, preset=self._preset)
        n = self._game.num_players
        self._seat = int(rng.integers(n)) if self._learner_seat is None else int(self._learner_seat)
        pool = self._opponents
        self._seated = [pool.draw(rng) if isinstance(pool, OpponentPool) else pool for _ in range(n)]
        self._return, self._length = 0.0, 0
        self._scores_before = [0] * n
        self._py_play_opponents()
        return self._py_obs(), self._py_info()

    def _py_info(self) -> Dict[str, Any]:
        outside, _ = self._py_outside()
        return {
            "learner_seat": self._seat,
            "outside_window": outside,
            "opponents": [repr(o) for i, o in enumerate(self._seated) if i != self._seat],
        }

    def _py_step(self, a: int) -> Tuple[Obs, float, bool, bool, Dict[str, Any]]:
        game = self._game
        assert game is not None
        mask = game.legal_mask()
        legal = 0 <= a < self._num_actions and mask[a] == 1
        if not legal and self._illegal == "raise":
            raise IllegalActionError(f"action id {a} is not legal now")
        self._length += 1
        if not legal and self._illegal == "penalize":
            info = self._py_info()
            info["illegal_action"] = True
            self._return += self._illegal_penalty
            return self._py_obs(), self._illegal_penalty, False, False, info
        if not legal:
            a = int(self.np_random.choice(np.flatnonzero(mask)))
        game.step_flat(a)
        self._py_play_opponents()
        after = game.scores
        terminated = game.is_terminal
        rewards = _core.step_rewards(self._reward, self._scores_before, after, terminated)
        self._scores_before = after
        reward = float(rewards[self._seat])
        self._return += reward
        _, truncated = self._py_outside()
        info = self._py_info()
        info["illegal_action"] = not legal
        if terminated or truncated:
            info["final_scores"] = list(after)
            info["final_return"] = self._return
            info["final_length"] = self._length
            self._started = False
        return self._py_obs(), reward, terminated, truncated, info

    # ----- the Gymnasium interface ------------------------------------------------------

    def _obs(self) -> Obs:
        o = self._env.observation()
        return {
            "board": o["board"][0].copy(),
            "globals": o["globals"][0].copy(),
            "action_mask": o["action_mask"][0].copy(),
        }

    def _info(self) -> Dict[str, Any]:
        return {
            "learner_seat": int(self._env.learner_seats()[0]),
            "outside_window": int(self._env.outside_window[0]),
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Obs, Dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            game_seed = int(seed) % 2**64
        else:
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._has_seed = True
        self._started = True
        if not self._native:
            return self._py_reset(game_seed)
        self._env.reset([game_seed])
        return self._obs(), self._info()

    @property
    def opponents(self) -> Optional[Union[Opponent, OpponentPool]]:
        """The opponents played from Python (``None`` for a native built-in player)."""
        return self._opponents

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of the current step as booleans [A]."""
        if not self._native:
            if self._game is None:
                return np.zeros(self._num_actions, dtype=bool)
            return self._py_obs()["action_mask"].astype(bool)
        mask: npt.NDArray[np.bool_] = self._env.action_mask[0].astype(bool)
        return mask

    def step(self, action: Any) -> Tuple[Obs, float, bool, bool, Dict[str, Any]]:
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        a = action_id(action)
        if not self._native:
            return self._py_step(a)
        legal = 0 <= a < self._num_actions and self._env.action_mask[0, a] == 1
        if not legal and self._illegal == "raise":
            raise IllegalActionError(f"action id {a} is not legal now")
        self._action[0] = a if 0 <= a < self._num_actions else -1
        seat = int(self._env.learner_seats()[0])
        self._env.step(self._action)
        terminated = bool(self._env.terminated[0])
        truncated = bool(self._env.truncated[0])
        info = self._info()
        info["illegal_action"] = not legal
        if terminated or truncated:
            info["final_scores"] = self._env.final_scores[0].tolist()
            info["final_return"] = float(self._env.episode_returns[0, seat])
            info["final_length"] = int(self._env.episode_lengths[0])
            self._started = False
        return self._obs(), float(self._env.rewards[0, seat]), terminated, truncated, info

    def game(self) -> Game:
        """A copy of the current game."""
        if not self._native:
            assert self._game is not None, "call reset() first"
            return self._game.clone()
        game: Game = self._env.game(0)
        return game

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return self.game().render_text()
        if self.render_mode == "rgb_array":
            return rgb_array(self.game())
        return None


class CarcassonneVectorEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` copies of ``Carcassonne-v0`` stepped natively in one call
    (next-step autoreset: the step after an episode ends starts the next one and its
    action is ignored), against a built-in player (``"random"``, ``"greedy"``,
    ``"heuristic"``, ``"mcts:200"``; played natively) or opponents played from Python in
    batches (callables, policies, pools; see :class:`carcassonne.VectorEnv`;
    ``info["opponents"]`` names them per env).
    Episode ``k`` of env ``i`` uses seed ``carcassonne.episode_seed(seed, i, k)``.
    Observations are copied unless ``copy=False`` (then they are the native buffers,
    overwritten by the next step). ``threads`` steps the envs on that many threads.
    ``render()`` returns one frame per env, as :class:`CarcassonneEnv`'s (``render_mode``
    ``"ansi"`` or ``"rgb_array"``)."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "layout_version": _core.LAYOUT_VERSION,
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
        opponents: Any = "random",
        learner_seat: Optional[int] = 0,
        window: int = 32,
        reward: str = "score",
        outside_window: str = "mask",
        illegal_action: str = "penalize",
        illegal_penalty: float = -1.0,
        render_mode: Optional[str] = None,
        copy: bool = True,
        preset: str = "full",
        threads: int = 1,
    ) -> None:
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self._env = _native(
            num_envs,
            game_config(players, sets, edition, rules, figures),
            opponents,
            "next-step",
            learner_seat=learner_seat,
            window=window,
            reward=reward,
            outside_window=outside_window,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            preset=preset,
            threads=threads,
        )
        self._copy = copy
        self._illegal = illegal_action
        self.num_envs = num_envs
        self.single_observation_space = observation_space(window, self._env.encoder_info())
        self.single_action_space = spaces.Discrete(self._env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._has_seed = False

    def _obs(self) -> Obs:
        o = self._env.observation()
        obs = {"board": o["board"], "globals": o["globals"], "action_mask": o["action_mask"]}
        if self._copy:
            return {key: value.copy() for key, value in obs.items()}
        return obs

    def _info(self) -> Dict[str, Any]:
        info = {
            "learner_seat": self._env.learner_seats(),
            "outside_window": self._env.outside_window.copy(),
        }
        if self._env.opponents is not None:
            info["opponents"] = self._env.info()["opponents"]
        return info

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
        self._env.reset(seeds)
        return self._obs(), self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of every env as booleans [N, A]."""
        return self._env.action_mask.astype(bool)

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], Dict[str, Any]]:
        a = action_ids(actions, self.num_envs)
        ok = (a >= 0) & (a < self._env.num_actions)
        ids = np.where(ok, a, 0).astype(np.int64)
        legal = ok & (self._env.action_mask[np.arange(self.num_envs), ids] == 1)
        if self._illegal == "raise" and not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"env {bad}: action id {int(a[bad])} is not legal now")
        seats = self._env.learner_seats()
        self._env.step(np.where(ok, a, -1).astype(np.int64))
        rewards = self._env.rewards[np.arange(self.num_envs), seats].astype(np.float32)
        info = self._info()
        info["illegal_action"] = ~legal
        done = self._env.terminated | self._env.truncated
        if done.any():
            env_ids = np.arange(self.num_envs)
            info["final_scores"] = self._env.final_scores.copy()
            info["_final_scores"] = done.copy()
            info["final_return"] = self._env.episode_returns[env_ids, seats].copy()
            info["_final_return"] = done.copy()
            info["final_length"] = self._env.episode_lengths.copy()
            info["_final_length"] = done.copy()
        return (
            self._obs(),
            rewards,
            self._env.terminated.copy(),
            self._env.truncated.copy(),
            info,
        )

    def render(self) -> Optional[Tuple[Any, ...]]:
        if self.render_mode == "ansi":
            return tuple(self._env.game(i).render_text() for i in range(self.num_envs))
        if self.render_mode == "rgb_array":
            return tuple(rgb_array(self._env.game(i)) for i in range(self.num_envs))
        return None
