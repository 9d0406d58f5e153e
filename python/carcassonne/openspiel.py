"""An OpenSpiel game: ``pyspiel.load_game("python_carcassonne")``.

Importing this module registers the game (it needs the ``open_spiel`` package). Tile
draws are chance nodes (explicit chance: the outcomes are the catalogue tile kinds
left to draw, with their probabilities); player actions are the flat ids of the
observation preset; a two-step decision (``CELL`` then ``SLOT`` id) is two moves of the
same player. Returns are rank-based in [-1, 1] at the end (the ``outcome`` reward:
first 1, last -1, ties share), zero-sum. Observation tensors are the preset's planes
(as float32) followed by its globals, from the observing player's seat.

Parameters (``pyspiel.load_game("python_carcassonne(players=3,sets=base+river1)")``):
``players`` (2 to 6), ``sets`` (set keys joined by ``+``), ``window`` (default 24) and
``preset`` (default ``compact``; ``docs/observations.md``).

If no legal move can be offered in the window (a board longer than the window), the
game plays the first legal move for the player: OpenSpiel requires legal actions at
every decision node; such moves are counted in ``state.auto_moves``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from . import _core
from .actions import Draw
from .game import Game

__all__ = ["CarcassonneGame", "CarcassonneState", "GAME_TYPE", "NAME"]

NAME = "python_carcassonne"
_DEFAULTS: Dict[str, Any] = {"players": 2, "sets": "base", "window": 24, "preset": "compact"}
_TILES = _core.tile_ids()
_TILE_INDEX = {t: i for i, t in enumerate(_TILES)}

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Python Carcassonne",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _config(params: Dict[str, Any]) -> Dict[str, Any]:
    p = {**_DEFAULTS, **(params or {})}
    return {
        "players": int(p["players"]),
        "sets": str(p["sets"]).split("+"),
        "window": int(p["window"]),
        "preset": str(p["preset"]),
    }


class CarcassonneGame(pyspiel.Game):  # type: ignore[misc]
    """The game (see the module documentation)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        self.config = _config(params or {})
        c = self.config
        probe = Game(players=c["players"], sets=c["sets"], window=c["window"], preset=c["preset"],
                     chance="explicit")
        self.info = probe.encoder_info()
        tiles = sum(probe.remaining_tiles().values()) + 8
        info = pyspiel.GameInfo(
            num_distinct_actions=int(self.info["num_actions"]),
            max_chance_outcomes=len(_TILES),
            num_players=c["players"],
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # Per tile at most: a draw, a placement (two ids with a bridge), two ids of
            # a deployment and a handful of follow-up decisions.
            max_game_length=16 * tiles,
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> "CarcassonneState":
        return CarcassonneState(self)

    def make_py_observer(
        self, iig_obs_type: Optional[pyspiel.IIGObservationType] = None, params: Optional[Dict[str, Any]] = None
    ) -> "CarcassonneObserver":
        return CarcassonneObserver(self, iig_obs_type, params)


class CarcassonneState(pyspiel.State):  # type: ignore[misc]
    """A state: a :class:`carcassonne.Game` in explicit-chance mode."""

    def __init__(self, game: CarcassonneGame, g: Optional[Game] = None) -> None:
        super().__init__(game)
        c = game.config
        self.game_ = g if g is not None else Game(
            players=c["players"], sets=c["sets"], window=c["window"], preset=c["preset"], chance="explicit"
        )
        self.auto_moves = 0
        self._settle()

    def _settle(self) -> None:
        """Plays the first legal move wherever a player has nothing offered in the window."""
        g = self.game_
        while not g.is_terminal and g.phase != "draw" and int(g.legal_mask().sum()) == 0:
            g.apply(g.legal_actions()[0])
            self.auto_moves += 1

    def current_player(self) -> int:
        g = self.game_
        if g.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if g.phase == "draw":
            return int(pyspiel.PlayerId.CHANCE)
        seat = g.to_play
        assert seat is not None
        return int(seat)

    def _legal_actions(self, player: int) -> List[int]:
        if self.game_.is_terminal or player != self.current_player():
            return []
        return [int(i) for i in np.flatnonzero(self.game_.legal_mask())]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        return sorted((_TILE_INDEX[t], float(p)) for t, p in self.game_.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.game_.apply(Draw(_TILES[action]))
        else:
            self.game_.step_flat(int(action))
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {_TILES[action]}"
        kind, parts = _core.describe_action_id(int(action), self.game_.window) if self.game_.preset == "full" else (
            "id", [str(action)]
        )
        decided = self.game_.decode_flat(int(action)) if player == self.current_player() else None
        return f"{kind} {' '.join(parts)}" + (f" = {decided}" if decided is not None else "")

    def is_terminal(self) -> bool:
        return bool(self.game_.is_terminal)

    def returns(self) -> List[float]:
        n = self.game_.num_players
        if not self.game_.is_terminal:
            return [0.0] * n
        return [float(r) for r in _core.step_rewards("outcome", [0] * n, self.game_.scores, True)]

    def __str__(self) -> str:
        g = self.game_
        return f"{g.phase} scores {g.scores} tiles left {g.tiles_left}\n{g.render_text()}"


class CarcassonneObserver:
    """Observation tensors (planes as float32, then globals) and strings."""

    def __init__(
        self, game: CarcassonneGame, iig_obs_type: Optional[pyspiel.IIGObservationType], params: Optional[Dict[str, Any]]
    ) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        info = game.info
        w = int(info["window"])
        c, g = int(info["num_planes"]), int(info["num_globals"])
        self.tensor = np.zeros(c * w * w + g, dtype=np.float32)
        self.dict = {
            "board": self.tensor[: c * w * w].reshape(c, w, w),
            "globals": self.tensor[c * w * w :],
        }

    def set_from(self, state: CarcassonneState, player: int) -> None:
        o = state.game_.observation(player)
        self.dict["board"][...] = o["board"]
        self.dict["globals"][...] = o["globals"]

    def string_from(self, state: CarcassonneState, player: int) -> str:
        if self.perfect_recall:
            # Perfect information: the information state is the history.
            return f"p{player} " + " ".join(str(a) for a in state.history())
        g = state.game_
        return (f"p{player} {g.phase} to play {g.to_play} focus {g.pending_focus} scores {g.scores} "
                f"board {g.board()} figures {g.figures()} hand {g.tile_in_hand}")


pyspiel.register_game(GAME_TYPE, CarcassonneGame)
