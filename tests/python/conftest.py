"""Shared helpers of the Python tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, Iterator, List

import numpy as np
import pytest

import carcassonne

DATA = Path(__file__).resolve().parents[1] / "data"

#: Configurations that reach every kind of decision between them.
CONFIGS: List[Dict[str, Any]] = [
    dict(players=2, sets=["base"], seed=1),
    dict(players=3, sets=["base", "river1"], seed=2),
    dict(players=4, sets=["base", "princess-and-dragon"], seed=3, figures={"abbot": 1}),
    dict(players=2, sets=["base", "abbey-and-mayor"], seed=4),
    dict(
        players=5,
        sets=["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor"],
        seed=5,
        figures={"abbot": 1},
    ),
    dict(players=3, sets=["base", "princess-and-dragon"], seed=7, rules={"fairy": "on-tile"}),
]


def records(name: str) -> Iterator[Dict[str, Any]]:
    """The records of ``tests/data/<name>``."""
    with open(DATA / name, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def offered(mask: np.ndarray) -> List[int]:
    return [int(i) for i in np.flatnonzero(mask)]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12345)


def random_game(config: Dict[str, Any], decisions: int, seed: int = 0) -> carcassonne.Game:
    """A game after ``decisions`` random legal decisions (or at its end)."""
    game = carcassonne.Game(**config)
    r = np.random.default_rng(seed)
    for _ in range(decisions):
        if game.is_terminal:
            break
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
    return game
