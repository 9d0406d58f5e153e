"""The native vector environment as a Stable-Baselines3 ``VecEnv`` (the ``rl`` extra).

:func:`make_vec_env` returns ``num_envs`` games stepped natively in one call, with one
learning seat per game against opponents (built-in players natively; callables,
policies and pools from Python in batches, as for :class:`carcassonne.VectorEnv`), for SB3 and sb3-contrib's
``MaskablePPO`` (which reads the masks through ``env_method("action_masks")``).
Observations are dicts of ``board`` (uint8 [C, W, W], channels first) and ``globals``
(float32 [G]); the step that ends an episode puts ``terminal_observation``,
``TimeLimit.truncated``, ``episode`` (``{"r", "l", "t"}``, as SB3's ``Monitor``) and
``final_scores`` in that env's ``info``.

SB3 guesses an image's channel axis from its smallest dimension and would transpose
the planes; :func:`make_vec_env` therefore wraps the env in ``VecTransposeImage(skip=True)``
and :func:`policy_kwargs` gives ``MultiInputPolicy`` a small convolutional feature
extractor for the planes (:class:`BoardExtractor`)::

    from sb3_contrib import MaskablePPO
    from carcassonne.sb3 import make_vec_env, policy_kwargs

    env = make_vec_env(16, opponents="greedy", preset="compact", window=24)
    model = MaskablePPO("MultiInputPolicy", env, policy_kwargs=policy_kwargs(), n_steps=128)
    model.learn(10_000)
"""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, Sequence, Type

import numpy as np
import numpy.typing as npt
import torch  # type: ignore[import-not-found, unused-ignore]
import torch.nn as nn  # type: ignore[import-not-found, unused-ignore]
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor  # type: ignore[import-not-found, unused-ignore]
from stable_baselines3.common.vec_env import VecEnv, VecTransposeImage  # type: ignore[import-not-found, unused-ignore]

from .env import GLOBALS_BOUND
from .vector import VectorEnv

__all__ = ["BoardExtractor", "CarcassonneVecEnv", "make_vec_env", "policy_kwargs"]


class CarcassonneVecEnv(VecEnv):  # type: ignore[misc]
    """``num_envs`` games against ``opponents`` (keywords as for
    :class:`carcassonne.VectorEnv`; ``learner_seat=None`` draws the seat per episode)."""

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        *,
        opponents: Any = "greedy",
        learner_seat: Optional[int] = None,
        seed: int = 0,
        window: int = 24,
        preset: str = "compact",
        reward: str = "score-diff",
        threads: int = 1,
        **kwargs: Any,
    ) -> None:
        self._env = VectorEnv(
            num_envs, players, sets, seed=seed, window=window, preset=preset, reward=reward,
            opponents=opponents, learner_seat=learner_seat, illegal_action="penalize",
            final_observations=True, threads=threads, **kwargs,
        )
        e = self._env
        w = e.window
        obs_space = spaces.Dict(
            {
                "board": spaces.Box(0, 255, shape=(e.num_planes, w, w), dtype=np.uint8),
                "globals": spaces.Box(-GLOBALS_BOUND, GLOBALS_BOUND, shape=(e.num_globals,), dtype=np.float32),
            }
        )
        # Set before VecEnv's constructor, which reads it through get_attr (and warns
        # when it is missing).
        self.render_mode = None
        super().__init__(num_envs, obs_space, spaces.Discrete(e.num_actions))
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._start = time.monotonic()
        self._seed: Optional[int] = None

    @property
    def native(self) -> VectorEnv:
        """The :class:`carcassonne.VectorEnv` behind."""
        return self._env

    def _obs(self) -> Dict[str, npt.NDArray[Any]]:
        assert self._env.board is not None and self._env.globals is not None
        return {"board": self._env.board.copy(), "globals": self._env.globals.copy()}

    def reset(self) -> Dict[str, npt.NDArray[Any]]:
        self._env.reset(self._seed)
        self._seed = None
        return self._obs()

    def seed(self, seed: Optional[int] = None) -> List[Optional[int]]:
        self._seed = seed
        return [seed] * self.num_envs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> Any:
        seats = self._env.learner_seats().copy()
        _, rewards, terminated, truncated, info = self._env.step(self._actions)
        rows = np.arange(self.num_envs)
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": {"board": info["final_board"][i].copy(),
                                         "globals": info["final_globals"][i].copy()},
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                "episode": {"r": float(info["episode_returns"][i, seats[i]]),
                            "l": int(info["episode_lengths"][i]),
                            "t": round(time.monotonic() - self._start, 6)},
                "final_scores": info["final_scores"][i].tolist(),
                "learner_seat": int(seats[i]),
            }
        return self._obs(), rewards[rows, seats].astype(np.float32), dones.copy(), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of every env as booleans [N, A]."""
        return self._env.action_mask.astype(bool)

    def close(self) -> None:
        pass

    def _indices(self, indices: Any) -> List[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> List[Any]:
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> List[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        return [getattr(self, method_name)(*args, **kwargs) for _ in idx]

    def env_is_wrapped(self, wrapper_class: Type[Any], indices: Any = None) -> List[bool]:
        return [False for _ in self._indices(indices)]


def make_vec_env(num_envs: int, **kwargs: Any) -> VecEnv:
    """:class:`CarcassonneVecEnv` inside ``VecTransposeImage(skip=True)`` (the planes are
    already channels first)."""
    return VecTransposeImage(CarcassonneVecEnv(num_envs, **kwargs), skip=True)


class BoardExtractor(BaseFeaturesExtractor):  # type: ignore[misc]
    """Features of a ``{board, globals}`` observation: three convolutions over the planes
    (mean- and max-pooled) and a layer over the globals."""

    def __init__(self, observation_space: spaces.Dict, width: int = 32, features_dim: int = 128) -> None:
        super().__init__(observation_space, features_dim)
        board_shape = observation_space["board"].shape
        globals_shape = observation_space["globals"].shape
        assert board_shape is not None and globals_shape is not None
        g = globals_shape[0]
        self.convs = nn.Sequential(
            nn.Conv2d(board_shape[0], width, 1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.glob = nn.Sequential(nn.Linear(g, width), nn.ReLU())
        self.out = nn.Sequential(nn.Linear(3 * width, features_dim), nn.ReLU())

    def forward(self, obs: Dict[str, Any]) -> Any:
        h = self.convs(obs["board"].float() / 8.0)
        gl = obs["globals"]
        g = self.glob(torch.sign(gl) * torch.log1p(gl.abs()))
        return self.out(torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3)), g], dim=1))


def policy_kwargs(**extra: Any) -> Dict[str, Any]:
    """``policy_kwargs`` for ``MultiInputPolicy`` on these observations."""
    return {"features_extractor_class": BoardExtractor, "normalize_images": False, **extra}
