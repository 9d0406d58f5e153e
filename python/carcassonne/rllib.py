"""A Ray RLlib multi-agent environment: every seat is an agent (``player_0``, ...).

Turn-based: each step returns the observation of the agent that decides next only
(a two-step decision is two steps of the same agent); rewards go to every agent after
every step (RLlib keeps those of agents that do not act until they next do). At the end
every agent gets its last observation and ``terminateds["__all__"]`` is set.
Observations are dicts of ``observations`` (the preset's planes, float32, flattened,
then its globals) and ``action_mask`` (float32 [A]), the form RLlib's action-masking
RL modules read. When no legal move can be offered in the window the episode is
truncated.

``env_config`` keys: ``players`` (2), ``sets`` (``["base"]``), ``edition``, ``rules``,
``figures``, ``window`` (24), ``preset`` (``"compact"``), ``reward`` (``"score-diff"``,
``"score"`` or ``"outcome"``), ``illegal_action`` (``"penalize"``: an id the mask does
not offer changes nothing, the agent gets ``illegal_penalty``, default -1, and decides
again, with ``infos[agent]["illegal_action"]``; ``"raise"``:
:class:`~carcassonne.errors.IllegalActionError`), ``seed``. RLlib's environment check
steps random ids of the action space, which the default policy accepts. Register it with
``ray.tune.registry.register_env("carcassonne", lambda c: CarcassonneMultiAgentEnv(c))``
(``examples/rllib_ppo.py`` trains PPO on it with several env runners).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # type: ignore[import-not-found, unused-ignore]

from . import _core
from ._ids import action_id
from .errors import InvalidConfigError
from .game import Game

__all__ = ["CarcassonneMultiAgentEnv"]

Obs = Dict[str, npt.NDArray[np.float32]]


class CarcassonneMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """The environment (see the module documentation)."""

    def __init__(self, config: Optional[Dict[str, Any]] = None) -> None:
        super().__init__()
        c = dict(config or {})
        self._kwargs: Dict[str, Any] = {
            "players": int(c.get("players", 2)),
            "sets": c.get("sets", ["base"]),
            "edition": c.get("edition"),
            "rules": c.get("rules"),
            "figures": c.get("figures"),
            "window": int(c.get("window", 24)),
            "preset": c.get("preset", "compact"),
        }
        self._reward = str(c.get("reward", "score-diff"))
        self._illegal = str(c.get("illegal_action", "penalize"))
        if self._illegal not in ("penalize", "raise"):
            raise InvalidConfigError(f"illegal_action: {self._illegal!r}; one of penalize, raise")
        self._penalty = float(c.get("illegal_penalty", -1.0))
        _core.step_rewards(self._reward, [0, 0], [0, 0], False)  # validates the mode
        self._rng = np.random.default_rng(c.get("seed"))
        self._game = Game(**self._kwargs)
        info = self._game.encoder_info()
        w = self._kwargs["window"]
        size = int(info["num_planes"]) * w * w + int(info["num_globals"])
        self._num_actions = int(info["num_actions"])
        space = spaces.Dict(
            {
                "observations": spaces.Box(-1.0e6, 1.0e6, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, shape=(self._num_actions,), dtype=np.float32),
            }
        )
        self.possible_agents = [f"player_{i}" for i in range(self._game.num_players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self.observation_space = space
        self.action_space = spaces.Discrete(self._num_actions)

    def _observe(self, seat: int) -> Obs:
        o = self._game.observation(seat)
        flat = np.concatenate([o["board"].reshape(-1).astype(np.float32), o["globals"]])
        return {"observations": flat, "action_mask": o["action_mask"].astype(np.float32)}

    def _to_play(self) -> Dict[str, Obs]:
        seat = self._game.to_play
        assert seat is not None
        return {self.possible_agents[seat]: self._observe(seat)}

    def _blocked(self) -> bool:
        """Whether the decision now offers nothing (every legal move outside the window)."""
        return not self._game.is_terminal and int(self._game.legal_mask().sum()) == 0

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Obs], Dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._game = Game(**self._kwargs, seed=int(self._rng.integers(0, 2**63 - 1)))
        self.agents = self.possible_agents[:]
        return self._to_play(), {}

    def step(
        self, action_dict: Dict[str, Any]
    ) -> Tuple[Dict[str, Obs], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]:
        seat = self._game.to_play
        assert seat is not None, "the episode is over: call reset()"
        agent = self.possible_agents[seat]
        a = action_id(action_dict[agent])
        if self._illegal == "penalize" and not (0 <= a < self._num_actions and self._game.legal_mask()[a] == 1):
            penalty = {x: (self._penalty if x == agent else 0.0) for x in self.possible_agents}
            return self._to_play(), penalty, {"__all__": False}, {"__all__": False}, {agent: {"illegal_action": True}}
        before = self._game.scores
        self._game.step_flat(a)
        after = self._game.scores
        terminal = self._game.is_terminal
        r = _core.step_rewards(self._reward, before, after, terminal)
        rewards = {a: float(r[i]) for i, a in enumerate(self.possible_agents)}
        truncated = self._blocked()
        if terminal or truncated:
            obs = {a: self._observe(i) for i, a in enumerate(self.possible_agents)}
            infos: Dict[str, Any] = {a: {"final_scores": after} for a in self.possible_agents}
            done = {a: terminal for a in self.possible_agents}
            cut = {a: truncated for a in self.possible_agents}
            done["__all__"], cut["__all__"] = terminal, truncated
            self.agents = []
            return obs, rewards, done, cut, infos
        return self._to_play(), rewards, {"__all__": False}, {"__all__": False}, {}
