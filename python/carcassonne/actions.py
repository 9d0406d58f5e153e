"""Structured actions: one per decision, in absolute board coordinates.

They match the record format's action types one to one. ``feature`` is the local index
of a feature in its tile's catalogue list (:meth:`carcassonne.Game.feature_id` names
it, e.g. ``"c1"``); actions given to :meth:`carcassonne.Game.apply` may also use the
catalogue feature id instead of the index.

>>> PlaceTile(x=2, y=-1, rot=3)
PlaceTile(x=2, y=-1, rot=3)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, ClassVar, Dict, Optional, Tuple, Union, get_args

__all__ = [
    "Action",
    "PlaceTile",
    "PlaceAbbey",
    "Deploy",
    "DeployBarn",
    "MoveFairy",
    "Princess",
    "ReturnAbbot",
    "Pass",
    "MoveDragon",
    "MoveWagon",
    "Draw",
    "LeaveQuarter",
    "QuarterPass",
    "DeployQuarter",
    "MoveCount",
    "PlaceBridge",
    "BuildCastle",
    "CastlePass",
    "BazaarSelect",
    "BazaarBid",
    "BazaarPass",
    "BazaarBuyOrSell",
    "Focus",
    "action_from_tuple",
]


class _ActionBase:
    """The tuple form shared by every action: its ``type`` followed by its fields in
    declaration order."""

    type: ClassVar[str]

    def to_tuple(self) -> Tuple[object, ...]:
        """The tuple form used by ``carcassonne._core``, e.g. ``("place_tile", 2, -1, 3)``."""
        return (self.type, *(getattr(self, f.name) for f in fields(self)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class PlaceTile(_ActionBase):
    """Place the drawn tile at ``(x, y)`` turned ``rot`` clockwise quarter turns (B4);
    ``bridge`` is ``(x, y, axis)`` of the bridge a placement legal only with one brings
    (BR2, axis ``"NS"`` or ``"WE"``), else ``None``."""

    x: int
    y: int
    rot: int
    bridge: Optional[Tuple[int, int, str]] = None
    type: ClassVar[str] = "place_tile"

    def __repr__(self) -> str:
        bridge = "" if self.bridge is None else f", bridge={self.bridge!r}"
        return f"PlaceTile(x={self.x}, y={self.y}, rot={self.rot}{bridge})"


@dataclass(frozen=True)
class PlaceAbbey(_ActionBase):
    """Place the abbey tile into the hole at ``(x, y)`` instead of drawing (AM1)."""

    x: int
    y: int
    type: ClassVar[str] = "place_abbey"


@dataclass(frozen=True)
class Deploy(_ActionBase):
    """Put a ``figure`` (follower, abbot, mayor, wagon) on a feature of the tile at ``(x, y)``."""

    figure: str
    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "deploy"


@dataclass(frozen=True)
class DeployBarn(_ActionBase):
    """Put the barn on ``corner`` (NW, NE, SE, SW) of the tile just placed (AM6)."""

    x: int
    y: int
    corner: str
    type: ClassVar[str] = "deploy_barn"


@dataclass(frozen=True)
class MoveFairy(_ActionBase):
    """Move the fairy next to the player's figure on ``feature`` at ``(x, y)`` (PD15).

    ``feature`` is ``None`` under the ``on-tile`` fairy rule.
    """

    x: int
    y: int
    feature: Optional[Union[int, str]] = None
    type: ClassVar[str] = "move_fairy"


@dataclass(frozen=True)
class Princess(_ActionBase):
    """Remove the knight on ``feature`` at ``(x, y)`` with the princess (PD9)."""

    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "princess"


@dataclass(frozen=True)
class ReturnAbbot(_ActionBase):
    """Take the abbot on ``feature`` at ``(x, y)`` back and score it (A3)."""

    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "return_abbot"


@dataclass(frozen=True)
class Pass(_ActionBase):
    """Do nothing: deploy nothing, decline the abbey, the princess or a wagon move."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class MoveDragon(_ActionBase):
    """One step of the dragon onto the tile at ``(x, y)`` (PD5)."""

    x: int
    y: int
    type: ClassVar[str] = "move_dragon"


@dataclass(frozen=True)
class MoveWagon(_ActionBase):
    """Move the wagon onto ``feature`` of the tile at ``(x, y)`` after scoring (AM11)."""

    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "move_wagon"


@dataclass(frozen=True)
class Draw(_ActionBase):
    """The chance outcome: the tile drawn (explicit-chance mode)."""

    tile: str
    type: ClassVar[str] = "draw"


@dataclass(frozen=True)
class LeaveQuarter(_ActionBase):
    """Move ``figure`` out of ``quarter`` of the City of Carcassonne onto ``feature`` of
    the tile at ``(x, y)`` (any part of the feature names it); ``step`` is
    ``"before-scoring"`` (CC4) or ``"final"`` (CC6)."""

    step: str
    quarter: str
    figure: str
    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "leave_quarter"


@dataclass(frozen=True)
class QuarterPass(_ActionBase):
    """Decline a move of the City of Carcassonne: ``step`` ``"before-scoring"`` or
    ``"final"`` (moving figures out, CC4, CC6), ``"deploy"`` (putting one in, CC3),
    ``"count"`` (moving the count, CC3)."""

    step: str
    type: ClassVar[str] = "quarter_pass"


@dataclass(frozen=True)
class DeployQuarter(_ActionBase):
    """Put ``figure`` from the supply into ``quarter`` of the City of Carcassonne (CC3)."""

    figure: str
    quarter: str
    type: ClassVar[str] = "deploy_quarter"


@dataclass(frozen=True)
class MoveCount(_ActionBase):
    """Move the count to ``quarter`` (CC3)."""

    quarter: str
    type: ClassVar[str] = "move_count"


@dataclass(frozen=True)
class PlaceBridge(_ActionBase):
    """Put a bridge from the supply on the tile at ``(x, y)`` along ``axis`` (``"NS"`` or
    ``"WE"``) after placing the tile (BR1)."""

    x: int
    y: int
    axis: str
    type: ClassVar[str] = "place_bridge"


@dataclass(frozen=True)
class BuildCastle(_ActionBase):
    """Turn the two-tile city just completed at ``feature`` of the tile at ``(x, y)`` into
    a castle instead of having it scored (CA1)."""

    x: int
    y: int
    feature: Union[int, str]
    type: ClassVar[str] = "build_castle"


@dataclass(frozen=True)
class CastlePass(_ActionBase):
    """Decline to build a castle (CA1)."""

    type: ClassVar[str] = "castle_pass"


@dataclass(frozen=True)
class BazaarSelect(_ActionBase):
    """Pick ``tile`` of the bazaar's offer and open the bidding at ``bid`` (BZ2)."""

    tile: str
    bid: int
    type: ClassVar[str] = "bazaar_select"


@dataclass(frozen=True)
class BazaarBid(_ActionBase):
    """Raise the bid on the picked bazaar tile to ``bid`` (BZ2)."""

    bid: int
    type: ClassVar[str] = "bazaar_bid"


@dataclass(frozen=True)
class BazaarPass(_ActionBase):
    """Do not raise the bid (BZ2)."""

    type: ClassVar[str] = "bazaar_pass"


@dataclass(frozen=True)
class BazaarBuyOrSell(_ActionBase):
    """The selector ``"buy"``s the tile or ``"sell"``s it to the highest bidder (BZ3)."""

    choice: str
    type: ClassVar[str] = "bazaar_buy_or_sell"


@dataclass(frozen=True)
class Focus:
    """Not an action: a flat ``CELL`` id picked the tile at ``(x, y)`` as the focus of a
    two-step decision; a ``SLOT`` id follows."""

    x: int
    y: int


Action = Union[
    PlaceTile,
    PlaceAbbey,
    Deploy,
    DeployBarn,
    MoveFairy,
    Princess,
    ReturnAbbot,
    Pass,
    MoveDragon,
    MoveWagon,
    Draw,
    LeaveQuarter,
    QuarterPass,
    DeployQuarter,
    MoveCount,
    PlaceBridge,
    BuildCastle,
    CastlePass,
    BazaarSelect,
    BazaarBid,
    BazaarPass,
    BazaarBuyOrSell,
]

# Every action class by its record type, from the union above (one list of the kinds).
_BY_TYPE: Dict[str, Callable[..., Action]] = {cls.type: cls for cls in get_args(Action)}


def action_from_tuple(t: Tuple[object, ...]) -> Action:
    """The action object of the tuple form used by ``carcassonne._core``."""
    return _BY_TYPE[str(t[0])](*t[1:])
