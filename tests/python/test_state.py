"""The visible state of the expansions from Python (``Game.expansion_state``,
``state_schema``): the typed dicts follow the engine's schema, scenarios of the Royal
Gift sets read what the rules say (rule ids in each test), and random games of the box
agree with the rest of the API at every decision."""

from __future__ import annotations

import importlib.util
import re
import typing
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import pytest

import carcassonne
from carcassonne import _state
from carcassonne.actions import Deploy, DeployQuarter, Draw, MoveCount, Pass, PlaceTile

ROYAL_GIFT = [
    "base",
    "river1",
    "river2",
    "princess-and-dragon",
    "count",
    "king-and-robber",
    "cult",
    "bridges-castles-and-bazaars",
]

#: The Python values of each column kind.
KIND_TYPES = {"seat": int, "int": int, "flag": bool, "x": int, "y": int, "feature": int}


def test_typed_dicts_follow_the_engine_schema() -> None:
    """carcassonne/_state.py is what python/tools/gen_state.py writes from the engine's
    schema now, and each table has a typed dict with its columns in order."""
    from pathlib import Path

    tool = Path(__file__).resolve().parents[2] / "python" / "tools" / "gen_state.py"
    spec = importlib.util.spec_from_file_location("gen_state", tool)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    schema = carcassonne.state_schema()
    assert gen.TARGET.read_text() == gen.render(schema), "run python3 tools/generate.py"
    names = [t[0] for t in schema]
    assert len(set(names)) == len(names)
    assert set(typing.get_type_hints(carcassonne.ExpansionState)) == set(names)
    for name, expansion, rows, doc, columns in schema:
        assert rows in ("one", "optional", "per-seat", "many") and doc and expansion
        row_type = getattr(_state, gen.class_name(name))
        assert list(typing.get_type_hints(row_type)) == [c[0] for c in columns], name


def _check_row(table: str, row: Dict[str, Any], schema: Dict[str, Any], players: int) -> None:
    columns = schema[table][4]
    assert list(row) == [c[0] for c in columns], table
    for column, kind, optional, _ in columns:
        value = row[column]
        if value is None:
            assert optional, f"{table}.{column} is never absent"
        elif kind in KIND_TYPES:
            assert type(value) is KIND_TYPES[kind], (table, column, value)
            if kind == "seat":
                assert isinstance(value, int) and 0 <= value < players
        else:
            assert isinstance(value, str), (table, column, value)


def _rows(state: carcassonne.ExpansionState, table: str) -> List[Dict[str, Any]]:
    value = typing.cast(Dict[str, Any], state)[table]
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def test_base_game_has_no_expansion_state() -> None:
    assert carcassonne.Game(players=2).expansion_state() == {}
    state = carcassonne.Game(players=2, sets=["base", "king-and-robber"]).expansion_state()
    assert state == {
        "king": {"holder": None, "tiles": 0},
        "robber_baron": {"holder": None, "tiles": 0},
    }


def _place(game: carcassonne.Game, tile: str, x: int, y: int, rot: int) -> None:
    """Draws `tile`, places it, and deploys nothing."""
    game.apply(Draw(tile))
    game.apply(PlaceTile(x, y, rot))
    game.apply(Pass())


def test_kr1_the_king_goes_to_the_first_completed_city() -> None:
    """KR1: seat 0 closes the start city (2 tiles) and takes the King."""
    game = carcassonne.Game(players=2, sets=["base", "king-and-robber"], chance="explicit")
    _place(game, "BASE-E", 0, -1, 2)
    state = game.expansion_state()
    assert state["king"] == {"holder": 0, "tiles": 2}
    assert state["robber_baron"] == {"holder": None, "tiles": 0}


def test_cc3_the_count_and_a_follower_in_a_quarter() -> None:
    """CC1, CC3: the count starts in the castle; seat 1, who scored nothing when he
    closed seat 0's road out of the City, puts a follower into the market and moves the
    count to the blacksmith."""
    game = carcassonne.Game(players=2, sets=["base", "count"], chance="explicit")
    assert game.expansion_state() == {"count": {"quarter": "castle"}, "quarter_figures": []}
    game.apply(Draw("BASE-U"))
    game.apply(PlaceTile(0, 2, 1))
    game.apply(Deploy("follower", 0, 2, "r1"))
    _place(game, "BASE-W", 0, 3, 2)
    assert game.phase == "enter_quarter"
    game.apply(DeployQuarter("follower", "market"))
    game.apply(MoveCount("blacksmith"))
    assert game.expansion_state() == {
        "count": {"quarter": "blacksmith"},
        "quarter_figures": [{"quarter": "market", "owner": 1, "figure": "follower"}],
    }


def _old(call: Callable[[], Any], table: str) -> Any:
    """The value of a deprecated per-set getter, which must warn and name its table."""
    with pytest.warns(DeprecationWarning, match=re.escape(f'expansion_state()["{table}"]')):
        return call()


def test_the_per_set_getters_are_deprecated_and_name_their_table() -> None:
    """``Game.dragon``, ``fairy``, ``towers``, ``tower_pieces`` and ``prisoners`` are
    kept for one release over the state tables: each warns, naming its table, and still
    answers (PD2, PD15, TW1, TW4; a seat outside the game is still refused)."""
    game = carcassonne.Game(players=2, sets=["base", "princess-and-dragon", "tower"])
    assert _old(lambda: game.dragon, "dragon") is None
    assert _old(lambda: game.fairy, "fairy") is None
    assert _old(lambda: game.towers, "towers") == []
    assert _old(lambda: game.tower_pieces(1), "tower_pieces") == 10  # TW1: 10 each with 2
    assert _old(lambda: game.prisoners(0), "prisoners") == {}
    with pytest.warns(DeprecationWarning), pytest.raises(carcassonne.errors.InvalidArgumentError, match="player 2"):
        game.tower_pieces(2)
    with pytest.warns(DeprecationWarning), pytest.raises(carcassonne.errors.InvalidArgumentError, match="holder -1"):
        game.prisoners(-1)


def test_random_royal_gift_games_agree_with_the_api() -> None:
    """At every decision of random Royal Gift games (castles always built, CA1): every
    table in play with the rows its schema says and values of its kinds; every follower in
    a supply, on the board or in a quarter (B1, CC2); every bridge and castle in a supply
    or on the board (BR1, CA1); the dragon and the fairy where the deprecated
    ``Game.dragon`` and ``Game.fairy`` say (PD2, PD15). Over the games every table shows a row."""
    schema = {t[0]: t for t in carcassonne.state_schema() if t[1] in ROYAL_GIFT}
    shown = set()
    for seed in range(12):
        game = carcassonne.Game(players=4, sets=ROYAL_GIFT, seed=100 + seed)
        r = np.random.default_rng(seed)
        while True:
            state = game.expansion_state()
            assert set(state) == set(schema), "the tables of the box's sets, no other"
            for table, (_, _, rows, _, _) in schema.items():
                got = _rows(state, table)
                if rows == "one":
                    assert len(got) == 1
                elif rows == "optional":
                    assert len(got) <= 1
                elif rows == "per-seat":
                    assert [row["seat"] for row in got] == [0, 1, 2, 3]
                for row in got:
                    _check_row(table, row, schema, 4)
                if got:
                    shown.add(table)
            in_quarters = [0] * 4
            for figure in state["quarter_figures"]:
                in_quarters[figure["owner"]] += figure["figure"] == "follower"
            on_board = [0] * 4
            for owner, kind, *_ in game.figures():
                on_board[owner] += kind == "follower"
            for seat in range(4):
                assert game.supply(seat, "follower") + on_board[seat] + in_quarters[seat] == 7
            supply = state["bridges_castles_supply"]
            assert len(state["bridges"]) + sum(s["bridges"] for s in supply) == 12
            assert len(state["castles"]) + sum(s["castles"] for s in supply) == 12
            dragon: Optional[Any] = state["dragon"]
            assert (None if dragon is None else (dragon["x"], dragon["y"])) == _old(lambda: game.dragon, "dragon")
            fairy: Optional[Any] = state["fairy"]
            expected = None if fairy is None else (fairy["x"], fairy["y"], fairy["owner"], fairy["feature"])
            assert expected == _old(lambda: game.fairy, "fairy")
            if game.is_terminal:
                break
            legal = game.legal_actions()
            castles = [a for a in legal if a.type == "build_castle"]
            game.apply(castles[0] if castles else legal[int(r.integers(len(legal)))])
        if shown == set(schema):
            break
    assert shown == set(schema)


def test_random_tower_games_agree_with_the_api() -> None:
    """TW1–TW5 in random games of the Tower: at every decision the tables ``towers``,
    ``tower_pieces``, ``prisoners`` and ``ransom`` say what the deprecated ``Game.towers``,
    ``Game.tower_pieces`` and ``Game.prisoners`` say; over the games a tower is closed by
    a figure on top (TW2) and a prisoner is held (TW3, TW4)."""
    shown = set()
    for seed in range(4):
        players = 2 + seed
        game = carcassonne.Game(players=players, sets=["base", "tower"], seed=200 + seed)
        r = np.random.default_rng(seed)
        while True:
            state: Any = game.expansion_state()
            towers = [
                (t["x"], t["y"], t["height"], None if t["top_owner"] is None else (t["top_owner"], t["top_figure"]))
                for t in state["towers"]
            ]
            assert towers == _old(lambda: game.towers, "towers")
            assert [row["pieces"] for row in state["tower_pieces"]] == [_old(lambda: game.tower_pieces(p), "tower_pieces") for p in range(players)]
            held = {
                holder: {(row["owner"], row["figure"]): row["count"] for row in state["prisoners"] if row["holder"] == holder}
                for holder in range(players)
            }
            assert held == {h: _old(lambda: game.prisoners(h), "prisoners") for h in range(players)}
            assert isinstance(state["ransom"]["paid_this_turn"], bool)
            if any(t[3] is not None for t in towers):
                shown.add("closed tower")
            if state["prisoners"]:
                shown.add("prisoner")
            if game.is_terminal:
                break
            legal = game.legal_actions()
            game.apply(legal[int(r.integers(len(legal)))])
    assert shown == {"closed tower", "prisoner"}
