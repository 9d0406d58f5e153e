"""The structured Python API: actions, state inspection, copies, chance, rendering."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import carcassonne
from carcassonne import Deploy, Draw, DrawToken, Pass, PlaceTile
from conftest import CONFIGS, random_game


def test_actions_are_readable_values() -> None:
    a = PlaceTile(x=2, y=-1, rot=3)
    assert repr(a) == "PlaceTile(x=2, y=-1, rot=3)"
    assert a == PlaceTile(2, -1, 3) and hash(a) == hash(PlaceTile(2, -1, 3))
    assert repr(Deploy("follower", 1, 0, 2)) == "Deploy(figure='follower', x=1, y=0, feature=2)"
    assert repr(Pass()) == "Pass()"
    with pytest.raises(AttributeError):
        a.x = 3  # type: ignore[misc]


def test_first_decisions_of_the_base_game() -> None:
    """B2: the start tile BASE-D lies at (0, 0); seat 0 places first (B3, B4)."""
    game = carcassonne.Game(players=2, seed=1)
    assert game.board() == [(0, 0, "BASE-D", 0)]
    assert game.phase == "place_tile" and game.to_play == 0 and game.turn_player == 0
    assert game.scores == [0, 0]
    assert game.tiles_left == 70  # 72 base tiles, less the start tile and the tile in hand
    assert game.tile_in_hand is not None
    assert game.supplies() == [
        {"follower": 7, "abbot": 0, "mayor": 0, "wagon": 0, "barn": 0, "abbey": 0, "big-follower": 0,
         "builder": 0, "pig": 0, "shepherd": 0}
    ] * 2
    legal = game.legal_actions()
    assert legal and all(isinstance(a, PlaceTile) for a in legal)
    # Every placement touches the start tile (B4).
    assert all(abs(a.x) + abs(a.y) == 1 for a in legal)
    game.apply(legal[0])
    assert game.phase in ("deploy", "place_tile")


def test_deploy_by_feature_id_and_inspect_figures() -> None:
    """B6: a follower on the road of the tile just placed; feature given by id."""
    game = carcassonne.Game(players=2, chance="explicit")
    game.apply(Draw("BASE-D"))
    game.apply(PlaceTile(1, 0, 0))
    assert game.feature_id(1, 0, 1) == "r1"
    game.apply(Deploy("follower", 1, 0, "r1"))
    assert game.figures() == [(0, "follower", 1, 0, 1)]
    assert game.supply(0, "follower") == 6
    assert game.phase == "draw" and game.to_play is None
    outcomes = game.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    assert game.remaining_tiles()["BASE-D"] == 2  # 4 in C2, the start tile and one drawn


def test_hills_and_sheep_in_both_chance_modes() -> None:
    """HS1, HS3: with explicit chance the tokens of the sheep bag (``draw_token``) and the
    tiles under hills (``draw``) are chance outcomes the caller gives, with their odds;
    sampled, the game draws them itself. A random game ends in both modes."""
    for chance in ("explicit", "sampled"):
        game = carcassonne.Game(players=3, sets=["base", "hills-and-sheep"], chance=chance, seed=5)
        r = np.random.default_rng(5)
        tokens = 0
        while not game.is_terminal:
            if game.phase in ("draw", "draw_token"):
                assert chance == "explicit" and game.to_play is None
                outcomes = game.chance_outcomes()
                assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                name = outcomes[int(r.integers(len(outcomes)))][0]
                if game.phase == "draw_token":
                    tokens += 1
                    game.apply(DrawToken(name))
                else:
                    game.apply(Draw(name))
                continue
            legal = game.legal_actions()
            game.apply(legal[int(r.integers(len(legal)))])
        assert game.phase == "game_over"
        assert (tokens > 0) == (chance == "explicit")


def test_clone_is_independent() -> None:
    game = random_game(CONFIGS[3], 20)
    twin = game.clone()
    copied = copy.deepcopy(game)
    assert twin.state_hash() == game.state_hash() == copied.state_hash()
    twin.apply(twin.legal_actions()[0])
    assert twin.state_hash() != game.state_hash()
    assert copied.state_hash() == game.state_hash()


def test_builtin_players_and_native_matches() -> None:
    scores = carcassonne.play_games(20, ["greedy", "random"], seed=3)
    assert scores.shape == (20, 2) and scores.dtype == np.int32
    # The greedy player beats the random one on average.
    assert scores[:, 0].mean() > scores[:, 1].mean()
    again = carcassonne.play_games(20, ["greedy", "random"], seed=3)
    np.testing.assert_array_equal(scores, again)
    game = carcassonne.Game(players=2, seed=2)
    player = carcassonne.BuiltinPlayer("greedy", seed=1)
    while not game.is_terminal:
        game.apply(player(game))


def test_rendering() -> None:
    game = random_game(CONFIGS[2], 60)
    text = game.render_text()
    assert str(game) == text and "legend" in text
    svg = game._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    from carcassonne.render import rgb_array

    img = rgb_array(game, cell=6)
    assert img.shape == (game.window * 6, game.window * 6, 3)


def test_rgb_array_shows_tiles_and_each_seats_figures() -> None:
    from carcassonne.render import DEFAULT_CELL, SEAT_COLOURS, rgb_array

    game = random_game(CONFIGS[2], 60)
    img = rgb_array(game)
    assert DEFAULT_CELL >= 20
    assert img.shape == (game.window * DEFAULT_CELL, game.window * DEFAULT_CELL, 3)
    colours = {tuple(c) for c in img.reshape(-1, 3)}
    owners = {owner for owner, *_ in game.figures()}
    assert owners, "figures stand on the board"
    for seat in owners:
        assert tuple(SEAT_COLOURS[seat]) in colours, f"seat {seat}'s figures are not drawn"
    # Every placed tile inside the window covers a square of other pixels than the background.
    background = tuple(img[0, 0])
    covered = (img != background).any(axis=2).sum()
    assert covered >= len(game.board()) * (DEFAULT_CELL * DEFAULT_CELL) // 2
    with pytest.raises(ValueError, match="cell"):
        rgb_array(game, cell=3)


def test_observation_tables_and_sizes() -> None:
    info = carcassonne.encoder_info()
    # TILE 4·W², CELL W², SLOT 19 slots × 20 channels, CORNER 4, QUARTER 24, BRIDGE 24,
    # BAZAAR 6 places × 31 bids, BID 31, CHOICE 2, EXCHANGE 9 figures, RANSOM 6 seats × 9
    # figures, FLOCK 2, PASS 1 (docs/observations.md).
    assert (info["num_slots"], info["num_channels"]) == (19, 20)
    assert (
        info["num_actions"]
        == 5 * 32 * 32 + 19 * 20 + 4 + 24 + 24 + 6 * 31 + 31 + 2 + 9 + 6 * 9 + 2 + 1
    )
    names = carcassonne.plane_names()
    assert len(names) == info["num_planes"] and names[0] == "occupied"
    blocks = carcassonne.global_blocks()
    assert blocks[-1][1] + blocks[-1][2] == info["num_globals"]
    assert len(carcassonne.tile_ids()) == blocks[-1][2]
    game = carcassonne.Game(players=3, seed=1)
    obs = game.observation(1)
    assert obs["board"].dtype == np.uint8 and obs["board"].shape == (info["num_planes"], 32, 32)
    assert obs["globals"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    # Not seat 1's decision: nothing offered to it.
    assert not obs["action_mask"].any()
    # Written in place into given arrays.
    board = np.zeros_like(obs["board"])
    out = game._g.observation(0, board=board)
    assert out["board"] is board and board[names.index("occupied")].sum() == 1


def test_phase_names_and_holdings_cover_every_set() -> None:
    """``phase_names()`` has one name per entry of the globals' ``phase`` one-hot, and a
    game of every set only ever waits in one of them; ``supplies()`` and ``supply()``
    give the same counts, figures then the tiles held (B1: 7 followers; AM1: one abbey
    tile; IC1: one big follower; TB3, TB5: one builder, one pig; HS1: one shepherd)."""
    phases = carcassonne.phase_names()
    blocks = {name: length for name, _, length in carcassonne.global_blocks()}
    assert len(phases) == blocks["phase"] and len(set(phases)) == len(phases)
    every_set = ["base", "river1", "river2", "princess-and-dragon", "abbey-and-mayor", "count",
                 "king-and-robber", "cult", "bridges-castles-and-bazaars", "inns-and-cathedrals",
                 "traders-and-builders", "tower", "hills-and-sheep"]
    game = carcassonne.Game(players=3, sets=every_set, seed=4)
    supply = game.supplies()[0]
    assert list(supply)[0] == "follower" and supply["follower"] == 7 and supply["abbey"] == 1
    assert supply["big-follower"] == 1  # IC1
    assert supply["builder"] == 1 and supply["pig"] == 1  # TB3, TB5
    assert supply["shepherd"] == 1  # HS1
    assert all(game.supply(0, key) == count for key, count in supply.items())
    r = np.random.default_rng(4)
    seen = set()
    while not game.is_terminal:
        seen.add(game.phase)
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
    assert game.phase == "game_over" and seen <= set(phases)
    assert {"place_tile", "deploy"} <= seen


def test_action_classes_follow_the_engine_schema() -> None:
    """carcassonne/_actions.py is what python/tools/gen_actions.py writes from the engine's
    action schema now (a schema change without regenerating fails here), and every kind
    of the schema has one class with the same type name, the same fields in the same
    order and the kind's documentation, and nothing more."""
    import importlib.util
    from dataclasses import fields
    from pathlib import Path

    from carcassonne import actions

    tool = Path(__file__).resolve().parents[2] / "python" / "tools" / "gen_actions.py"
    spec = importlib.util.spec_from_file_location("gen_actions", tool)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    schema = carcassonne._core.action_schema()
    assert gen.TARGET.read_text() == gen.render(schema), "run python3 tools/generate.py"

    classes = {cls.type: cls for cls in actions._BY_TYPE.values()}
    assert sorted(classes) == sorted(name for name, _, _, _ in schema)
    for name, field_specs, _, doc in schema:
        assert [f.name for f in fields(classes[name])] == [f for f, _ in field_specs], name
        first_words = " ".join(doc.replace("`", "").split()[:4])
        assert first_words in " ".join((classes[name].__doc__ or "").replace("`", "").split()), name


@pytest.mark.filterwarnings("ignore:Game.towers is deprecated:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:Game.tower_pieces is deprecated:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:Game.prisoners is deprecated:DeprecationWarning")
def test_towers_pieces_and_prisoners() -> None:
    """TW1, TW2, TW4: towers carry the pieces put on them, the pieces leave their
    player's supply, and every follower is in a supply, on the board or a prisoner."""
    game = carcassonne.Game(players=2, sets=["base", "tower"], seed=3)
    put = 0
    while not game.is_terminal:
        legal = game.legal_actions()
        pick = next((a for a in legal if type(a).__name__ == "PlaceTowerPiece"), None)
        pick = pick or next((a for a in legal if type(a).__name__ == "Capture"), legal[0])
        put += type(pick).__name__ == "PlaceTowerPiece"
        game.apply(pick)
    assert put > 0
    assert sum(height for (_, _, height, _) in game.towers) == put
    assert game.tower_pieces(0) + game.tower_pieces(1) == 2 * 10 - put  # TW1: 10 each
    for owner in range(2):
        held = sum(n for (o, figure), n in game.prisoners(1 - owner).items() if figure == "follower" and o == owner)
        assert game.supply(owner, "follower") + held == 7
    with pytest.raises(ValueError):
        game.tower_pieces(2)


@pytest.mark.filterwarnings("ignore:Game.tower_pieces is deprecated:DeprecationWarning")
def test_tower_pieces_per_player_count_and_none_without_the_tower() -> None:
    """TW1: 10 / 9 / 7 / 6 / 5 tower pieces with 2 to 6 players; 0 without the Tower."""
    for players, pieces in zip(range(2, 7), (10, 9, 7, 6, 5)):
        tower = carcassonne.Game(players=players, sets=["base", "tower"])
        base = carcassonne.Game(players=players, sets=["base"])
        assert [tower.tower_pieces(p) for p in range(players)] == [pieces] * players
        assert [base.tower_pieces(p) for p in range(players)] == [0] * players
