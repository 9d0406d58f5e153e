"""Carcassonne: a rules engine with observation tensors for learning.

* :class:`Game`: one game with readable structured actions (:mod:`carcassonne.actions`),
  records, rendering (text, SVG in notebooks) and the learning interface (observations,
  masks, flat action ids).
* :meth:`Game.expansion_state`: the visible state of the expansions in play (the count
  and the quarters, castles, bridges, the bazaar, the titles, the dragon, the fairy), as
  :class:`ExpansionState`, typed per table from :func:`state_schema`.
* :class:`VectorEnv`: a native batch of games stepped in one call.
* ``gymnasium.make("Carcassonne-v0")`` (:mod:`carcassonne.env`; registered when
  Gymnasium is installed) and :func:`carcassonne.pettingzoo.env`.
* :mod:`carcassonne.players`: the built-in players (``random``, ``greedy``, ``mcts:<budget>``)
  as :class:`BuiltinPlayer` (for a game, a PettingZoo agent, or as the opponents of the
  Gymnasium envs), :func:`match` (many games, seats rotated, win rates with 95 %
  intervals) and :func:`play_games`.
* :func:`search`: the built-in tree search's view of a decision (visit shares over the
  legal actions and the flat ids, every seat's value), with random playouts or a batched
  evaluator (a policy-value network) at the leaves.

The observation layout is documented in the project's ``docs/observations.md``.
"""

from __future__ import annotations

from . import _core
from . import actions
from .actions import *  # noqa: F403 (every action class, Focus, action_from_tuple)
from .errors import (
    CarcassonneError,
    ConcurrentUseError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidConfigError,
    InvalidRecordError,
)
from ._state import ExpansionState
from .game import Game
from .players import BuiltinPlayer, MatchResult, PlayerResult, match, play_games
from ._search import SearchResult, search
from .vector import VectorEnv

__version__: str = _core.__version__
#: The observation layout version: a hash of the observation schema (every plane, global
#: block and block of ids; ``docs/observations.md``). ``encoder_info()["layout_version"]``
#: gives the same; a model trained on one version cannot read another's observations.
LAYOUT_VERSION: str = _core.LAYOUT_VERSION

tile_ids = _core.tile_ids
phase_names = _core.phase_names
plane_names = _core.plane_names
global_blocks = _core.global_blocks
encoder_info = _core.encoder_info
describe_action_id = _core.describe_action_id
rotate_board = _core.rotate_board
rotate_globals = _core.rotate_globals
rotate_action_id = _core.rotate_action_id
episode_seed = _core.episode_seed
tile_geometry = _core.tile_geometry
tile_symbols = _core.tile_symbols
state_schema = _core.state_schema

__all__ = [
    *actions.__all__,
    "BuiltinPlayer",
    "CarcassonneError",
    "ConcurrentUseError",
    "ExpansionState",
    "Game",
    "IllegalActionError",
    "LAYOUT_VERSION",
    "InvalidArgumentError",
    "InvalidConfigError",
    "InvalidRecordError",
    "MatchResult",
    "PlayerResult",
    "SearchResult",
    "VectorEnv",
    "describe_action_id",
    "encoder_info",
    "episode_seed",
    "global_blocks",
    "match",
    "phase_names",
    "plane_names",
    "play_games",
    "rotate_action_id",
    "rotate_board",
    "rotate_globals",
    "search",
    "state_schema",
    "tile_geometry",
    "tile_ids",
    "tile_symbols",
]


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:
        return
    if "Carcassonne-v0" not in gymnasium.registry:
        gymnasium.register(
            id="Carcassonne-v0",
            entry_point="carcassonne.env:CarcassonneEnv",
            vector_entry_point="carcassonne.env:CarcassonneVectorEnv",
        )


_register_gymnasium()
