"""The observation layout as Python reads it, against ``docs/observations.md`` (generated
from the same schema): the layout version, every plane's name and index, every global
block's name, offset and shape, the id blocks' first ids; 2-D global blocks row-major
(``supply + 5·seat + figure``), also under a preset; a preset's ``SLOT`` block and its
``num_slots`` × ``num_channels``; the environments' spaces and metadata."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

import carcassonne
from carcassonne.env import CarcassonneEnv

DOCS = Path(__file__).resolve().parents[2] / "docs" / "observations.md"


def _part(name: str) -> List[str]:
    """The table rows of a generated part of the document."""
    text = DOCS.read_text(encoding="utf-8")
    body = text.split(f"<!-- generated: {name} -->\n")[1].split(f"<!-- end: {name} -->")[0]
    return [line for line in body.splitlines() if line.startswith("| ")][1:]


def _cells(row: str) -> List[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def test_layout_version_is_the_documented_one() -> None:
    info = carcassonne.encoder_info()
    assert re.fullmatch(r"[0-9a-f]{16}", carcassonne.LAYOUT_VERSION)
    assert info["layout_version"] == carcassonne.LAYOUT_VERSION
    assert f"**Layout version `{carcassonne.LAYOUT_VERSION}`**" in DOCS.read_text(encoding="utf-8")
    game = carcassonne.Game(players=2, preset="compact")
    assert game.encoder_info()["layout_version"] == carcassonne.LAYOUT_VERSION


def test_planes_globals_and_ids_are_the_documented_ones() -> None:
    info = carcassonne.encoder_info()
    planes = [(int(c[0]), c[1].strip("`")) for c in map(_cells, _part("planes"))]
    assert planes == list(enumerate(info["plane_names"]))
    assert carcassonne.plane_names() == info["plane_names"]
    documented: List[Tuple[str, int, int, List[int]]] = []
    for c in map(_cells, _part("globals")):
        start, _, end = c[0].partition("..")
        first = int(start)
        last = int(end) if end else first + 1
        shape = [] if c[2] == "1" else [int(n) for n in c[2].split(" (")[0].split(" × ")]
        documented.append((c[1].strip("`"), first, last - first, shape))
    layout = [(b["name"], b["start"], int(np.prod(b["shape"], dtype=int)), b["shape"]) for b in info["global_layout"]]
    assert layout == documented
    assert [(n, s, ln) for n, s, ln, _ in documented] == info["global_blocks"]
    ids = [(c[0].strip("`").lower(), c[1]) for c in map(_cells, _part("ids"))]
    assert [name for name, _ in ids] == [b[0] for b in info["action_blocks"]]
    for (name, first), (_, start, _) in zip(ids, info["action_blocks"]):
        at_32 = int(first.split("(")[1].rstrip(")")) if "(" in first else int(first)
        assert at_32 == start, name


@pytest.mark.parametrize("preset", ["full", "in-play", "compact"])
def test_two_dimensional_globals_are_row_major(preset: str) -> None:
    """The supply of relative seat ``r`` and figure ``f`` is at ``start + shape[1]·r + f``,
    the figures named by the block's labels (B1, AM5: followers, mayor, wagon, barn)."""
    game = carcassonne.Game(players=3, sets=["base", "abbey-and-mayor"], seed=3, preset=preset)
    info = game.encoder_info()
    supply = next(b for b in info["global_layout"] if b["name"] == "supply")
    assert supply["indices"] == ["relative seat", "figure"]
    seats, figures = supply["labels"]
    assert len(seats) == (6 if preset == "full" else 3)
    obs = game.observation(1)
    for r, _ in enumerate(seats):
        for f, figure in enumerate(figures):
            value = obs["globals"][supply["start"] + supply["shape"][1] * r + f]
            want = game.supply((1 + r) % 3, figure) if r < 3 else 0
            assert value == want, (r, figure)


def test_slot_block_of_a_preset() -> None:
    """``num_slots`` and ``num_channels`` are the sides of the preset's ``SLOT`` block; its
    labels name the full slot and channel of each id."""
    full = carcassonne.encoder_info()
    assert (full["num_slots"], full["num_channels"]) == (19, 20)
    info = carcassonne.encoder_info(24, "compact", players=2, sets=["base"])
    slot = next(b for b in info["action_layout"] if b["name"] == "slot")
    assert slot["shape"] == [info["num_slots"], info["num_channels"]]
    assert slot["labels"][1] == ["follower"]
    for k, name in enumerate(slot["labels"][0]):
        kind, args = carcassonne.describe_action_id(
            _to_full(info, slot["start"] + k * info["num_channels"]), 24
        )
        assert (kind, args) == ("slot", [name, "follower"])


def _to_full(info: Dict[str, object], layout_id: int) -> int:
    """The full id of a layout id, from the blocks' labels (as a client would)."""
    full = carcassonne.encoder_info(int(info["window"]))  # type: ignore[arg-type]
    for block in info["action_layout"]:  # type: ignore[attr-defined]
        if block["start"] <= layout_id < block["start"] + int(np.prod(block["shape"], dtype=int)):
            whole = next(b for b in full["action_layout"] if b["name"] == block["name"])
            k = layout_id - block["start"]
            index = []
            for n in reversed(block["shape"]):
                index.append(k % n)
                k //= n
            index.reverse()
            offset = 0
            for d, i in enumerate(index):
                position = whole["labels"][d].index(block["labels"][d][i])
                offset = offset * whole["shape"][d] + position
            return int(whole["start"]) + offset
    raise AssertionError("no block")


@pytest.mark.parametrize("preset", ["full", "compact"])
def test_environment_spaces_and_metadata(preset: str) -> None:
    env = CarcassonneEnv(players=2, window=24, preset=preset)
    info = carcassonne.encoder_info(24, preset, players=2)
    space = env.observation_space
    assert space["board"].shape == (info["num_planes"], 24, 24)
    assert space["globals"].shape == (info["num_globals"],)
    assert env.action_space.n == info["num_actions"]
    assert env.metadata["layout_version"] == carcassonne.LAYOUT_VERSION
    env.close()


def test_rotate_globals_turns_the_focus_rotation() -> None:
    info = carcassonne.encoder_info()
    rot = next(b for b in info["global_layout"] if b["name"] == "focus-rotation")
    g = np.zeros(info["num_globals"], dtype=np.float32)
    g[rot["start"] + 1] = 1.0
    g[0] = 5.0
    turned = carcassonne.rotate_globals(g, 1)
    assert turned[rot["start"] + 2] == 1.0 and turned[rot["start"] + 1] == 0.0
    assert turned[0] == 5.0
    with pytest.raises(carcassonne.InvalidArgumentError):
        carcassonne.rotate_globals(g[:-1], 1)


def test_the_bazaar_selector_is_set_in_the_bazaars_decisions_only() -> None:
    """docs/observations.md: `bazaar-selector` is set at BAZAAR_SELECT, BAZAAR_BID and
    BAZAAR_BUY_OR_SELL and is 0 at every draw, the explicit draws of the offer included
    (BZ1, BZ2)."""
    import random

    game = carcassonne.Game(players=3, sets=["base", "bridges-castles-and-bazaars"], seed=3, chance="explicit")
    blocks = {name: (start, length) for name, start, length in game.encoder_info()["global_blocks"]}
    start, length = blocks["bazaar-selector"]
    rng = random.Random(1)
    set_in: "set[str]" = set()
    draws = 0
    while not game.is_terminal:
        selector = game.observation()["globals"][start:start + length]
        if selector.any():
            set_in.add(game.phase)
        if game.phase == "draw":
            draws += 1
            outcomes = game.chance_outcomes()
            game.apply(carcassonne.actions.Draw(tile=outcomes[rng.randrange(len(outcomes))][0]))
        else:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert set_in == {"bazaar_select", "bazaar_bid", "bazaar_buy_or_sell"}, set_in
    assert draws > 70
