"""The flat action mask agrees with the structured legal list at every step."""

from __future__ import annotations

from typing import Any, Dict, Set

import numpy as np
import pytest

import carcassonne
from carcassonne import Focus
from conftest import CONFIGS, offered


def _check_decision(game: carcassonne.Game) -> Dict[str, int]:
    """Every offered id (and every id behind an offered CELL) leads to a distinct legal
    action with that id path; the rest of the legal list lies outside the window."""
    legal = game.legal_actions()
    mask = game.legal_mask()
    obs = game.observation()
    np.testing.assert_array_equal(obs["action_mask"], mask)
    n_legal, n_offered, outside = game.mask_info()
    assert n_legal == len(legal)
    ids = offered(mask)
    assert len(ids) == n_offered
    reached: Set[Any] = set()
    two_step = 0
    for i in ids:
        decision = game.decode_flat(i)
        assert decision is not None
        if isinstance(decision, Focus):
            two_step += 1
            picked = game.clone()
            assert picked.step_flat(i) == decision
            assert picked.pending_focus == (decision.x, decision.y)
            assert picked.state_hash() == game.state_hash()
            second = picked.legal_mask()
            assert second.any()
            for j in offered(second):
                action = picked.decode_flat(j)
                assert action in legal and not isinstance(action, Focus)
                assert action not in reached
                reached.add(action)
                assert game.action_to_flat_path(action) == (i, j)
        else:
            assert decision in legal
            assert decision not in reached
            reached.add(decision)
            assert game.flat_to_action(i) == decision
            assert game.action_to_flat(decision) == i
            assert game.action_to_flat_path(decision) == (i, None)
    assert len(reached) + outside == len(legal)
    return {"two_step": two_step, "outside": outside}


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "+".join(c["sets"]) + f"-{c['players']}p")
def test_mask_agrees_with_legal_list_at_every_step(config: Dict[str, Any]) -> None:
    r = np.random.default_rng(config["seed"])
    game = carcassonne.Game(**config)
    steps = 0
    while not game.is_terminal:
        _check_decision(game)
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
        steps += 1
    assert steps > 50
    assert not game.legal_mask().any()


def test_small_window_counts_moves_outside() -> None:
    r = np.random.default_rng(4)
    game = carcassonne.Game(players=2, seed=4, window=5)
    outside = 0
    while not game.is_terminal:
        outside += _check_decision(game)["outside"]
        legal = game.legal_actions()
        game.apply(legal[int(r.integers(len(legal)))])
    assert outside > 0


def test_two_step_decisions_play_through_flat_ids() -> None:
    """Games played only through flat ids reach two-step decisions (portal, fairy,
    princess, abbot, wagon targets) and end normally."""
    two_step = 0
    for seed in range(3):
        game = carcassonne.Game(
            players=3,
            sets=["base", "princess-and-dragon", "abbey-and-mayor"],
            figures={"abbot": 1},
            seed=seed,
        )
        r = np.random.default_rng(seed)
        while not game.is_terminal:
            ids = offered(game.legal_mask())
            if not ids:
                game.apply(game.legal_actions()[0])
                continue
            if isinstance(game.step_flat(ids[int(r.integers(len(ids)))]), Focus):
                two_step += 1
                assert game.pending_focus is not None
        assert len(game.scores) == 3
    assert two_step > 0


def test_rotations_of_observations_and_ids() -> None:
    from conftest import random_game

    game = random_game(CONFIGS[2], 80)
    board = game.observation()["board"]
    turned = board
    for _ in range(4):
        turned = carcassonne.rotate_board(turned, 1)
    np.testing.assert_array_equal(turned, board)
    assert not np.array_equal(carcassonne.rotate_board(board, 1), board)
    info = carcassonne.encoder_info(game.window)
    for i in range(0, info["num_actions"], 7):
        t = i
        for _ in range(4):
            t = carcassonne.rotate_action_id(t, 1, game.window)
        assert t == i
    # A quarter turn moves a TILE id to the next rotation (TILE block layout).
    assert carcassonne.describe_action_id(carcassonne.rotate_action_id(0, 1))[1][0] == "1"
