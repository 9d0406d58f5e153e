"""carcassonne.selfplay: training rows of self-play games with tree search: shapes and
types, policies that sum to 1 over the mask, outcomes from the final scores (B17), rows
that match the games they came from, independent of the threads; batches that continue
one run; a guided search with a Python evaluator, tuned as carcassonne.search is (the
standings of B15/B16 in its leaves); clear errors."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import carcassonne
from carcassonne import selfplay
from carcassonne.errors import InvalidArgumentError, InvalidConfigError

SMALL = dict(budget=6, window=16, sample_moves=8)


def test_rows_have_their_shapes_and_targets() -> None:
    rows = selfplay.generate(2, seed=3, **SMALL)  # type: ignore[arg-type]
    n = len(rows)
    info = carcassonne.encoder_info(window=16, preset="compact", players=2)
    assert n > 100
    assert rows.board.shape == (n, info["num_planes"], 16, 16) and rows.board.dtype == np.uint8
    assert rows.globals.shape == (n, info["num_globals"]) and rows.globals.dtype == np.float32
    assert rows.action_mask.shape == (n, info["num_actions"])
    assert rows.policy.shape == rows.action_mask.shape and rows.policy.dtype == np.float32
    np.testing.assert_allclose(rows.policy.sum(axis=1), 1.0, atol=1e-4)
    assert not np.any(rows.policy[rows.action_mask == 0])
    assert np.all((rows.search_value >= 0) & (rows.search_value <= 1))
    assert rows.scores.shape == (2, 2) and rows.seeds.shape == (2,)
    assert list(np.unique(rows.game)) == [0, 1]
    # B17: the most points wins; a tie shares the win.
    for k in range(n):
        scores = rows.scores[rows.game[k]]
        me = scores[rows.player[k]]
        best = scores.max()
        expected = (1.0 / np.count_nonzero(scores == best)) if me == best else 0.0
        assert rows.outcome[k] == pytest.approx(expected)
        assert rows.margin[k] == me - np.delete(scores, rows.player[k]).max()


def test_the_first_row_is_the_games_first_observation() -> None:
    rows = selfplay.generate(1, seed=5, **SMALL)  # type: ignore[arg-type]
    game = carcassonne.Game(players=2, seed=int(rows.seeds[0]), preset="compact", window=16)
    assert len(game.legal_actions()) > 1
    obs = game.observation()
    assert np.array_equal(rows.board[0], obs["board"])
    assert np.array_equal(rows.globals[0], obs["globals"])
    assert np.array_equal(rows.action_mask[0], obs["action_mask"])
    assert rows.player[0] == game.to_play


def test_threads_and_batches_give_the_rows_of_one_run() -> None:
    one = selfplay.generate(2, seed=9, threads=1, **SMALL)  # type: ignore[arg-type]
    two = selfplay.generate(2, seed=9, threads=2, **SMALL)  # type: ignore[arg-type]
    for field in ["board", "globals", "action_mask", "policy", "player", "outcome", "game", "seeds"]:
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    parts = list(selfplay.batches(1, 2, seed=9, **SMALL))
    assert [int(p.seeds[0]) for p in parts] == [int(s) for s in one.seeds]
    assert np.array_equal(np.concatenate([p.policy for p in parts]), one.policy)
    other = selfplay.generate(2, seed=10, **SMALL)  # type: ignore[arg-type]
    assert not np.array_equal(other.seeds, one.seeds)


def test_a_python_evaluator_guides_the_search() -> None:
    calls: List[int] = []

    def uniform(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        mask = batch["action_mask"]
        calls.append(len(mask))
        return mask.astype(np.float32), np.full(len(mask), 0.5, dtype=np.float32)

    rows = selfplay.generate(1, seed=2, evaluator=uniform, batch=4, threads=2, **SMALL)  # type: ignore[arg-type]
    assert len(rows) > 50 and max(calls) <= 4
    np.testing.assert_allclose(rows.policy.sum(axis=1), 1.0, atol=1e-4)

    def failing(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        raise RuntimeError("no network")

    with pytest.raises(RuntimeError, match="no network"):
        selfplay.generate(2, seed=2, evaluator=failing, threads=2, **SMALL)  # type: ignore[arg-type]


def test_bad_settings_are_refused_clearly() -> None:
    with pytest.raises(InvalidArgumentError, match="threads: 0"):
        selfplay.generate(1, threads=0)
    with pytest.raises(InvalidArgumentError, match="games: -1"):
        selfplay.generate(-1)
    with pytest.raises(InvalidArgumentError, match="budget"):
        selfplay.generate(1, budget=0)
    with pytest.raises(InvalidConfigError, match="preset"):
        selfplay.generate(1, preset="tiny")
    with pytest.raises(InvalidArgumentError, match="batch: 0"):
        selfplay.generate(1, evaluator=lambda b: None, batch=0)
    assert len(selfplay.generate(0)) == 0


def test_the_search_tuning_reaches_the_self_play_search() -> None:
    # The same tuning as carcassonne.search: with a fixed evaluator that calls every leaf
    # a loss for every seat (values by seat, [k, 2]), the standings (B15/B16 final
    # scoring, scored by the margin) are the only source of value, so the rows' search
    # values move off 0 with them.
    def losing(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        mask = batch["action_mask"]
        return mask.astype(np.float32), np.zeros((len(mask), 2), dtype=np.float32)

    plain = selfplay.generate(1, seed=4, evaluator=losing, **SMALL)  # type: ignore[arg-type]
    assert float(np.median(plain.search_value)) == 0.0  # only a game finished in the tree scores
    mixed = selfplay.generate(1, seed=4, evaluator=losing, standing=0.5, margin=1.0, **SMALL)  # type: ignore[arg-type]
    # Half of each leaf's value is the standings' smooth margin reward 1/2 + tanh(d/20)/2,
    # in 0..1 and 0.4 to 0.6 while the scores differ by 4 points or less (the first
    # tiles), so the searched values sit near a quarter, at the first decision within
    # 0.2 to 0.3.
    assert 0.2 <= float(mixed.search_value[0]) <= 0.3
    assert 0.1 < float(np.median(mixed.search_value)) < 0.5
    again = selfplay.generate(1, seed=4, evaluator=losing, standing=0.5, margin=1.0, threads=2, **SMALL)  # type: ignore[arg-type]
    assert np.array_equal(again.policy, mixed.policy)
    with pytest.raises(InvalidArgumentError, match="standing: a guided search's setting"):
        selfplay.generate(1, standing=0.5)
    with pytest.raises(InvalidArgumentError, match="playout: 2; expected a weight 0 to 1"):
        selfplay.generate(1, evaluator=losing, playout=2.0)
    with pytest.raises(InvalidArgumentError, match="c: -1; expected 0 to 10"):
        selfplay.generate(1, c=-1.0)
    with pytest.raises(InvalidArgumentError, match="evaluator: not callable"):
        selfplay.generate(1, evaluator=3)  # type: ignore[arg-type]
