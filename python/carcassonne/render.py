"""Raster pictures of the board for ``render_mode="rgb_array"``.

The picture is the observation window of seat 0 (``game.observation(0)``), one square of
``cell`` pixels per window square (default 24: 768 × 768 pixels for the default window of
32), drawn from the observation planes, so it shows what a learner sees: every tile with
a dark outline on a dark background; fields green, cities brown with light pennants, roads
white, rivers blue, monasteries and shrines as a chapel at the centre, gardens dark green,
the abbey's walls, volcanoes, magic portals, bazaars, bridges and castles; the last tile
placed framed in white; figures as squares with a black edge in their seat's colour
(``SEAT_COLOURS``, a letter-free mark per figure: followers full, other figures hollow),
the dragon and the fairy as dots. The same game always gives the same pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Tuple

import numpy as np
import numpy.typing as npt

from . import _core

if TYPE_CHECKING:
    from .game import Game

__all__ = ["rgb_array", "SEAT_COLOURS", "DEFAULT_CELL"]

#: Pixels per window square when ``rgb_array`` is not told otherwise.
DEFAULT_CELL = 24

SEAT_COLOURS = np.array(
    [[214, 39, 40], [31, 63, 191], [247, 225, 26], [34, 34, 34], [155, 77, 202], [255, 127, 14]],
    dtype=np.uint8,
)


def _rgb(hex_colour: str) -> npt.NDArray[np.uint8]:
    v = int(hex_colour.lstrip("#"), 16)
    return np.array([v >> 16, (v >> 8) & 255, v & 255], dtype=np.uint8)


# The colours of the SVG pictures (carcassonne.Game.render_svg).
_EMPTY = _rgb("#2d2d32")
_OUTLINE = _rgb("#1e1e1e")
_FIELD = _rgb("#9cc56a")
_CITY = _rgb("#d2b48c")
_PENNANT = _rgb("#fffaf0")
_ROAD = _rgb("#f6f2e4")
_RIVER = _rgb("#5aa9cf")
_MONASTERY = _rgb("#f3ead8")
_MONASTERY_EDGE = _rgb("#5b3a1a")
_GARDEN = _rgb("#3d7a35")
_ABBEY = _rgb("#e3d3b0")
_VOLCANO = _rgb("#6b4a3a")
_PORTAL = _rgb("#19a7a0")
_BAZAAR = _rgb("#c2410c")
_CASTLE = _rgb("#9a9a9a")
_CARCASSONNE = _rgb("#c9b8d8")
_LAST = _rgb("#ffffff")
_DRAGON = _rgb("#5a0f0f")
_FAIRY = _rgb("#ff8fd0")
_BLACK = np.array([0, 0, 0], dtype=np.uint8)

_PLANES: Dict[str, int] = {name: i for i, name in enumerate(_core.plane_names())}
# (relative seat, figure, plane) of every figure-count plane (`figures.rel<seat>.<figure>`).
_FIGURE_PLANES: List[Tuple[int, str, int]] = [
    (int(name.split(".")[1][3:]), name.split(".")[2], i)
    for name, i in _PLANES.items()
    if name.startswith("figures.rel")
]


def rgb_array(game: "Game", cell: int = DEFAULT_CELL) -> npt.NDArray[np.uint8]:
    """The observation window of ``game`` as an RGB image, uint8 [W*cell, W*cell, 3].

    ``cell`` (at least 6) is the side of one board square in pixels."""
    if cell < 6:
        raise ValueError(f"cell: at least 6 pixels, found {cell}")
    board = game.observation(0)["board"]
    w = board.shape[1]
    c = cell
    img = np.empty((w * c, w * c, 3), dtype=np.uint8)
    img[:] = _EMPTY
    band = max(2, c // 4)  # depth of a city along its side
    line = max(2, c // 6)  # width of a road
    wide = max(3, c // 4)  # width of a river
    centre = c // 2
    mark = max(4, c // 3)  # side of a figure's mark

    def span(width: int) -> slice:
        return slice(centre - width // 2, centre - width // 2 + width)

    def half(side: str) -> slice:
        return slice(0, centre + 1) if side in "NW" else slice(centre, c)

    zeros = np.zeros(board.shape[1:], dtype=board.dtype)

    def plane(name: str) -> npt.NDArray[np.uint8]:
        """Plane ``name``, or zeros for a plane this observation does not have."""
        i = _PLANES.get(name)
        return board[i] if i is not None else zeros

    for wy, wx in zip(*np.nonzero(plane("occupied"))):
        block = img[wy * c : (wy + 1) * c, wx * c : (wx + 1) * c]
        block[:] = _FIELD
        if plane("city-of-carcassonne")[wy, wx]:
            block[band:-band, band:-band] = _CARCASSONNE
        if plane("abbey")[wy, wx]:
            block[:] = _ABBEY
        for side in "NESW":
            if plane(f"river.{side}")[wy, wx]:
                region = (half(side), span(wide)) if side in "NS" else (span(wide), half(side))
                block[region] = _RIVER
        for side in "NESW":
            if plane(f"road.{side}")[wy, wx]:
                region = (half(side), span(line)) if side in "NS" else (span(line), half(side))
                block[region] = _ROAD
        for side in "NESW":
            if plane(f"city.{side}")[wy, wx]:
                region = {
                    "N": (slice(0, band), slice(None)),
                    "S": (slice(c - band, c), slice(None)),
                    "W": (slice(None), slice(0, band)),
                    "E": (slice(None), slice(c - band, c)),
                }[side]
                block[region] = _CITY
        if plane("pennants")[wy, wx]:
            block[1 : 1 + mark // 2 + 1, c - mark - 1 : c - 1] = _PENNANT
        small = span(max(3, c // 3))
        for name, colour in (
            ("monastery", _MONASTERY),
            ("shrine", _MONASTERY),
            ("garden", _GARDEN),
            ("volcano", _VOLCANO),
            ("magic-portal", _PORTAL),
            ("bazaar", _BAZAAR),
        ):
            if plane(name)[wy, wx]:
                block[small, small] = colour
                if name in ("monastery", "shrine"):
                    block[small, small][0, :] = _MONASTERY_EDGE
                    block[small, small][-1, :] = _MONASTERY_EDGE
        if plane("bridge.NS")[wy, wx]:
            block[:, span(line)] = _ROAD
        if plane("bridge.WE")[wy, wx]:
            block[span(line), :] = _ROAD
        if plane("castle-own")[wy, wx] or plane("castle-opponent")[wy, wx]:
            block[band : band + mark, band : band + mark] = _CASTLE
        # Figures: a mark per figure along the bottom, then the top, of the tile.
        spots = [(c - mark - 2, 2 + k * (mark + 2)) for k in range(max(1, (c - 2) // (mark + 2)))]
        spots += [(2, 2 + k * (mark + 2)) for k in range(max(1, (c - 2) // (mark + 2)))]
        used = 0
        for rel, figure, index in _FIGURE_PLANES:
            for _ in range(int(board[index, wy, wx])):
                if used >= len(spots):
                    break
                y0, x0 = spots[used]
                used += 1
                block[y0 : y0 + mark, x0 : x0 + mark] = _BLACK
                inner = block[y0 + 1 : y0 + mark - 1, x0 + 1 : x0 + mark - 1]
                inner[:] = SEAT_COLOURS[rel % len(SEAT_COLOURS)]
                if figure != "follower" and mark >= 5:
                    inner[1:-1, 1:-1] = _BLACK
        for name, colour, at in (("dragon", _DRAGON, (2, c - mark - 2)), ("fairy", _FAIRY, (c - mark - 2, c - mark - 2))):
            if plane(name)[wy, wx]:
                block[at[0] : at[0] + mark, at[1] : at[1] + mark] = colour
        if plane("last-placed")[wy, wx]:
            block[0, :] = _LAST
            block[-1, :] = _LAST
            block[:, 0] = _LAST
            block[:, -1] = _LAST
        else:
            block[0, :] = _OUTLINE
            block[:, 0] = _OUTLINE
    return img
