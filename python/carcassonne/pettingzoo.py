"""PettingZoo AEC environment: every seat is an agent (``player_0``, ``player_1``, ...).

``carcassonne.pettingzoo.env(players=3)`` returns the environment wrapped as
PettingZoo's classic board games are (``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``); ``raw_env`` is the bare
environment. The agent to act
is the player who decides now (the turn player, or another seat during a dragon flight
or a wagon move); a two-step decision (``CELL`` then ``SLOT`` id) is two steps of the
same agent. Rewards follow ``reward`` (``score``, ``score-diff``, ``outcome``,
``win-loss``; ``docs/observations.md``) for every agent after every step.

**Observations** are egocentric dicts. With ``observation_format="dict"`` (default):
``observation`` (the board planes, uint8 [C, W, W]), ``globals`` (float32 [G]: the tile
in hand, the scores, the figures left, ...) and ``action_mask`` (int8 [A], all zero for
an agent that does not decide now); see ``docs/observations.md``. Code written for the
classic games that reads only ``observation`` and ``action_mask`` never sees
``globals``, so it plays without knowing its tile: give such code
``observation_format="flat"``, where ``observation`` is one float32 vector
[C·W·W + G] (the planes flattened in C order, then the globals) and the dict holds only
``observation`` and ``action_mask``.

**Illegal moves** follow the classic games: through :func:`env`, an id the mask does
not offer ends the game, the agent that made it gets ``illegal_reward`` (default -1)
and the others 0 (``TerminateIllegalWrapper``); the bare :class:`raw_env` raises
:class:`~carcassonne.errors.IllegalActionError` and changes nothing. An id out of the
action space is an assertion error (``AssertOutOfBoundsWrapper``); a float or other
non-integer raises :class:`~carcassonne.errors.InvalidArgumentError`
(:mod:`carcassonne._ids`). When no legal move can be offered in the window (or, with
``outside_window="truncate"``, when one lies outside), every agent is truncated. Once
every agent has finished, ``step`` changes nothing (no error).

``preset`` and ``window`` choose the observation preset and window. ``render_mode``:
``"human"`` prints the board as text, ``"ansi"`` returns that text, ``"rgb_array"`` the
observation window as an RGB image, uint8 ``[window * 24, window * 24, 3]``
(:func:`carcassonne.render.rgb_array`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import BaseWrapper  # type: ignore[import-untyped]

from . import _core
from ._config import checked_render_mode, game_config
from ._ids import action_id
from .errors import InvalidConfigError
from .game import Game
from .render import rgb_array

__all__ = ["env", "raw_env"]

Obs = Dict[str, npt.NDArray[Any]]

#: The reward modes (``docs/observations.md``).
REWARDS = ("score", "score-diff", "outcome", "win-loss")


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module documentation)."""

    metadata: Dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "carcassonne_v0",
        "is_parallelizable": False,
        "render_fps": 2,
        "layout_version": _core.LAYOUT_VERSION,
    }

    def __init__(
        self,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        *,
        window: int = 32,
        reward: str = "score",
        outside_window: str = "mask",
        render_mode: Optional[str] = None,
        preset: str = "full",
        observation_format: str = "dict",
    ) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        if reward not in REWARDS:
            raise InvalidConfigError(f"reward: unknown mode {reward!r} ({', '.join(REWARDS)})")
        if observation_format not in ("dict", "flat"):
            raise InvalidConfigError(
                f"observation_format: unknown format {observation_format!r} (dict, flat)"
            )
        self._flat = observation_format == "flat"
        if outside_window not in ("mask", "truncate"):
            raise InvalidConfigError(f"outside_window: unknown policy {outside_window!r} (mask, truncate)")
        self._config = game_config(players, sets, edition, rules, figures)
        self._window = window
        self._preset = preset
        # Validates the configuration now.
        probe = _core.Game(**self._config, window=window, preset=preset)
        self._reward = reward
        self._outside = outside_window
        self.possible_agents: List[str] = [f"player_{i}" for i in range(probe.num_players)]
        self.agents: List[str] = []
        info = probe.encoder_info()
        mask_space = spaces.Box(0, 1, shape=(info["num_actions"],), dtype=np.int8)
        if self._flat:
            size = info["num_planes"] * window * window + info["num_globals"]
            self._obs_space = spaces.Dict(
                {
                    "observation": spaces.Box(-1.0e6, 1.0e6, shape=(size,), dtype=np.float32),
                    "action_mask": mask_space,
                }
            )
        else:
            self._obs_space = spaces.Dict(
                {
                    "observation": spaces.Box(
                        0, 255, shape=(info["num_planes"], window, window), dtype=np.uint8
                    ),
                    "globals": spaces.Box(-1.0e6, 1.0e6, shape=(info["num_globals"],), dtype=np.float32),
                    "action_mask": mask_space,
                }
            )
        self._act_space = spaces.Discrete(info["num_actions"])
        self._game = probe
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    @property
    def game(self) -> Game:
        """A copy of the current game."""
        return Game._wrap(self._game.clone())

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63 - 1))
        self._game = _core.Game(**self._config, seed=game_seed, window=self._window, preset=self._preset)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self._game.to_play
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]
        if self._game.is_terminal:
            return
        legal, offered, outside = self._game.mask_info()
        for a in self.agents:
            self.infos[a] = {"outside_window": outside}
        if offered == 0 or (self._outside == "truncate" and outside > 0):
            self.truncations = {a: True for a in self.agents}

    def observe(self, agent: str) -> Obs:
        d = self._game.observation(self.possible_agents.index(agent))
        if self._flat:
            flat = np.concatenate([d["board"].reshape(-1).astype(np.float32), d["globals"]])
            return {"observation": flat, "action_mask": d["action_mask"]}
        return {"observation": d["board"], "globals": d["globals"], "action_mask": d["action_mask"]}

    def step(self, action: Optional[int]) -> None:
        if not self.agents:
            # Every agent has finished: nothing to do.
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            from .errors import IllegalActionError

            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        a = action_id(action)
        self._cumulative_rewards[agent] = 0.0
        before = self._game.scores
        self._game.step_flat(a)
        after = self._game.scores
        terminal = self._game.is_terminal
        rewards = _core.step_rewards(self._reward, before, after, terminal)
        self.rewards = {x: float(rewards[i]) for i, x in enumerate(self.possible_agents) if x in self.agents}
        if terminal:
            self.terminations = {x: True for x in self.agents}
            for x in self.agents:
                self.infos[x] = {"final_scores": after}
        self._select()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode == "human":
            print(self._game.render_text())
            return None
        if self.render_mode == "ansi":
            return self._game.render_text()
        if self.render_mode == "rgb_array":
            return rgb_array(Game._wrap(self._game))
        return None

    def close(self) -> None:
        pass


class _IntegerIds(BaseWrapper):  # type: ignore[misc]
    """Applies the package's rule for ids before the classic wrappers see them: a
    non-integer raises :class:`~carcassonne.errors.InvalidArgumentError` (``None``
    passes, for finished agents)."""

    def step(self, action: Any) -> None:
        super().step(None if action is None else action_id(action))

    def __str__(self) -> str:
        return str(self.env)


def env(illegal_reward: float = -1.0, **kwargs: Any) -> AECEnv:
    """The AEC environment with the classic games' wrappers (keywords as for
    :class:`raw_env`): an illegal id ends the game with ``illegal_reward`` for the agent
    that made it."""
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(_IntegerIds(e))
