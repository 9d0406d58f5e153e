"""Raster pictures of the board for ``render_mode="rgb_array"``: one square of
``cell`` pixels per window square on a dark background, drawn from the observation
planes (fields green, cities brown, roads white, rivers blue, monasteries red, gardens
dark green, figures as dots in their seat's colour)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Tuple

import numpy as np
import numpy.typing as npt

from . import _core

if TYPE_CHECKING:
    from .game import Game

__all__ = ["rgb_array", "SEAT_COLOURS"]

SEAT_COLOURS = np.array(
    [[220, 40, 40], [40, 80, 220], [240, 200, 20], [30, 160, 60], [20, 20, 20], [230, 120, 200]],
    dtype=np.uint8,
)
_EMPTY = np.array([45, 45, 50], dtype=np.uint8)
_FIELD = np.array([120, 180, 90], dtype=np.uint8)
_CITY = np.array([150, 100, 60], dtype=np.uint8)
_ROAD = np.array([245, 245, 240], dtype=np.uint8)
_RIVER = np.array([70, 140, 230], dtype=np.uint8)
_MONASTERY = np.array([200, 60, 50], dtype=np.uint8)
_GARDEN = np.array([40, 110, 40], dtype=np.uint8)

_PLANES: Dict[str, int] = {name: i for i, name in enumerate(_core.plane_names())}
# (relative seat, plane) of every figure-count plane (`figures.rel<seat>.<figure>`).
_FIGURE_PLANES: List[Tuple[int, int]] = [
    (int(name.split(".")[1][3:]), i) for name, i in _PLANES.items() if name.startswith("figures.rel")
]


def rgb_array(game: "Game", cell: int = 9) -> npt.NDArray[np.uint8]:
    """The window of ``game`` as an RGB image, uint8 [W*cell, W*cell, 3]."""
    board = game.observation(0)["board"]
    w = board.shape[1]
    img = np.empty((w * cell, w * cell, 3), dtype=np.uint8)
    img[:] = _EMPTY
    c = cell
    third = max(1, c // 3)
    mid = slice(third, c - third)
    edge = max(1, c // 4)
    for wy, wx in zip(*np.nonzero(board[_PLANES["occupied"]])):
        block = img[wy * c : (wy + 1) * c, wx * c : (wx + 1) * c]
        block[:] = _FIELD
        for s, side in enumerate("NESW"):
            for kind, colour, width in (("city", _CITY, c // 3 + 1), ("road", _ROAD, 0), ("river", _RIVER, 0)):
                if not board[_PLANES[f"{kind}.{side}"], wy, wx]:
                    continue
                if kind == "city":
                    region = {
                        "N": (slice(0, width), slice(None)),
                        "S": (slice(c - width, c), slice(None)),
                        "W": (slice(None), slice(0, width)),
                        "E": (slice(None), slice(c - width, c)),
                    }[side]
                else:
                    half = slice(0, c // 2 + 1) if side in "NW" else slice(c // 2, c)
                    line = slice(c // 2 - edge // 2, c // 2 - edge // 2 + edge)
                    region = (half, line) if side in "NS" else (line, half)
                block[region] = colour
        if board[_PLANES["monastery"], wy, wx]:
            block[mid, mid] = _MONASTERY
        if board[_PLANES["garden"], wy, wx]:
            block[mid, mid] = _GARDEN
        dot = 0
        for rel, plane in _FIGURE_PLANES:
            for _ in range(int(board[plane, wy, wx])):
                y0 = 1 + (dot // 3) * max(1, c // 4)
                x0 = 1 + (dot % 3) * max(1, c // 4)
                block[y0 : y0 + max(1, c // 5), x0 : x0 + max(1, c // 5)] = SEAT_COLOURS[rel]
                dot += 1
    return img
