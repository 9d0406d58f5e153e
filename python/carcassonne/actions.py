"""Structured actions: one per decision, in absolute board coordinates.

They match the record format's action types one to one. ``feature`` is the local index
of a feature in its tile's catalogue list (:meth:`carcassonne.Game.feature_id` names
it, e.g. ``"c1"``); actions given to :meth:`carcassonne.Game.apply` may also use the
catalogue feature id instead of the index.

>>> PlaceTile(x=2, y=-1, rot=3)
PlaceTile(x=2, y=-1, rot=3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Tuple, get_args

from . import _actions
from ._actions import *  # noqa: F403 (the classes generated from the engine's schema)
from ._actions import Action

__all__ = [*_actions.__all__, "Focus", "action_from_tuple"]


@dataclass(frozen=True)
class Focus:
    """Not an action: a flat ``CELL`` id picked the tile at ``(x, y)`` as the focus of a
    two-step decision; a ``SLOT`` id follows."""

    x: int
    y: int


# Every action class by its record type, from the generated union (one list of the kinds).
_BY_TYPE: Dict[str, Callable[..., Action]] = {cls.type: cls for cls in get_args(Action)}


def action_from_tuple(t: Tuple[object, ...]) -> Action:
    """The action object of the tuple form used by ``carcassonne._core``."""
    return _BY_TYPE[str(t[0])](*t[1:])
