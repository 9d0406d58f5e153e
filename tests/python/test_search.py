"""carcassonne.search: the built-in search's visit shares over the legal actions and the
flat ids (the targets a learner imitates), every seat's value, reproducible from the seed,
within its budget; a batched evaluator in place of the playouts; clear errors."""

from __future__ import annotations

import tempfile
import threading
from typing import Any, Dict, List, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import carcassonne
import carcassonne.data
from carcassonne.errors import CarcassonneError, ConcurrentUseError, InvalidArgumentError


def midgame(decisions: int = 6, **kw: Any) -> carcassonne.Game:
    kw.setdefault("players", 2)
    kw.setdefault("seed", 3)
    game = carcassonne.Game(**kw)
    rng = np.random.default_rng(1)
    for _ in range(decisions):
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return game


def check_targets(game: carcassonne.Game, result: carcassonne.SearchResult) -> None:
    assert result.actions == game.legal_actions()
    assert result.shares.shape == (len(result.actions),)
    assert abs(result.shares.sum() - 1.0) < 1e-9
    mask = game.legal_mask()
    assert result.policy.shape == mask.shape and result.policy.dtype == np.float32
    assert abs(float(result.policy.sum()) - 1.0) < 1e-5
    assert not np.any(result.policy[mask == 0]), "shares on ids the mask does not offer"
    assert result.player == game.to_play
    assert result.values.shape == (game.num_players,)
    assert abs(result.value - result.values[result.player]) < 1e-9


def test_playout_search_targets_sum_to_one_over_the_legal_actions() -> None:
    game = midgame(preset="compact", window=24)
    result = carcassonne.search(game, 200, seed=4)
    check_targets(game, result)
    assert result.iterations == 200 and int(result.visits.sum()) == 200
    # Each one-step action's flat id carries its share (base game: every action is one id).
    for action, share in zip(result.actions, result.shares):
        assert abs(result.policy[game.action_to_flat(action)] - share) < 1e-6
    assert result.best == result.actions[int(np.argmax(result.visits))]
    # Two players' margin rewards are complementary.
    assert abs(result.values.sum() - 1.0) < 1e-9
    assert game.is_legal(result.best) and len(game.legal_actions()) == len(result.actions)


def test_the_same_seed_gives_the_same_search() -> None:
    game = midgame(8)
    a, b = carcassonne.search(game, 150, seed=9), carcassonne.search(game, 150, seed=9)
    assert np.array_equal(a.visits, b.visits) and np.array_equal(a.values, b.values)
    c = carcassonne.search(game, 150, seed=10)
    assert not np.array_equal(a.visits, c.visits)


def test_a_time_budget_is_accepted() -> None:
    result = carcassonne.search(midgame(), "30ms", seed=1)
    assert result.iterations >= 1
    assert result.seconds < 5


def test_two_step_decisions_give_targets_for_each_step() -> None:
    # The fairy (PD15) moves by a CELL id, then a SLOT id: the first step's target is over
    # the ids that start an action, the second's over the SLOT ids after the chosen cell.
    game = carcassonne.Game(players=2, sets=["base", "princess-and-dragon"], seed=5)
    rng = np.random.default_rng(3)
    info = carcassonne.encoder_info()
    cell_base, slot_base = info["cell_base"], info["slot_base"]
    while not game.is_terminal:
        mask = game.legal_mask()
        cells = [i for i in np.flatnonzero(mask) if cell_base <= i < slot_base]
        if cells and game.phase == "deploy":
            break
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    else:
        pytest.fail("no two-step decision in the game")
    first = carcassonne.search(game, 120, seed=2)
    check_targets(game, first)
    game.step_flat(int(cells[0]))
    assert game.pending_focus is not None
    second = carcassonne.search(game, 120, seed=2)
    mask = game.legal_mask()
    assert abs(float(second.policy.sum()) - 1.0) < 1e-5
    assert not np.any(second.policy[mask == 0])
    assert np.all(np.flatnonzero(second.policy) >= slot_base)


class Recorder:
    """An evaluator: priors from the mask (one favoured id), a fixed value."""

    def __init__(self, value: Any = 0.5, favour_last: bool = False) -> None:
        self.value = value
        self.favour_last = favour_last
        self.batches: List[Tuple[int, ...]] = []

    def __call__(self, batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        mask = batch["action_mask"]
        k = mask.shape[0]
        self.batches.append(batch["board"].shape)
        assert batch["globals"].shape[0] == k and batch["board"].dtype == np.uint8
        priors = mask.astype(np.float32)
        if self.favour_last:
            priors = np.zeros_like(priors)
            for row, m in zip(priors, mask):
                row[np.flatnonzero(m)[-1]] = 1.0
        return priors, np.broadcast_to(np.asarray(self.value, dtype=np.float32), (k,) + np.shape(self.value)[1:])


def test_an_evaluator_replaces_the_playouts_in_batches() -> None:
    game = midgame(preset="compact", window=24)
    rec = Recorder(value=0.75)
    result = carcassonne.search(game, 96, seed=1, evaluator=rec, batch=16)
    check_targets(game, result)
    assert result.iterations == 96
    sizes = [shape[0] for shape in rec.batches]
    assert sizes[0] == 1, "the root first"
    assert max(sizes) <= 16 and sum(sizes) == 97
    assert rec.batches[0][1:] == game.observation()["board"].shape
    # Each leaf's deciding seat gets 0.75 and the other 1 - 0.75: every seat's value is
    # a mean of the two, and the two add up to 1.
    assert abs(result.values.sum() - 1.0) < 1e-6
    assert np.all((result.values >= 0.25 - 1e-6) & (result.values <= 0.75 + 1e-6))
    assert not np.allclose(result.values, 0.5)


def test_per_seat_values_and_priors_steer_the_search() -> None:
    game = midgame(4)
    rec = Recorder(value=np.array([[0.9, 0.1]]), favour_last=True)
    result = carcassonne.search(game, 200, seed=3, evaluator=rec, batch=4)
    favoured = game.flat_to_action(int(np.flatnonzero(game.legal_mask())[-1]))
    k = result.actions.index(favoured)
    assert result.best == favoured and result.shares[k] > 0.5
    # Values by relative seat: each leaf's deciding seat 0.9, the other 0.1.
    assert abs(result.values.sum() - 1.0) < 1e-6
    assert np.all((result.values >= 0.1 - 1e-6) & (result.values <= 0.9 + 1e-6))


def test_the_margin_weight_sets_the_reward_of_a_finished_game() -> None:
    # At the last tile every action ends the game (B16, B17): with margin 0 each action's
    # mean reward is the outcome (1, 1/2 or 0); with margin 1 it is the smooth margin
    # 1/2 + 1/2 tanh(margin / 20); the same with playouts and with an evaluator.
    game = carcassonne.Game(players=2, seed=3)
    decisions = 0
    probe = game.clone()
    while not probe.is_terminal:
        probe.apply(probe.legal_actions()[0])
        decisions += 1
    for _ in range(decisions - 1):
        game.apply(game.legal_actions()[0])
    scores = []
    for action in game.legal_actions():
        after = game.clone()
        after.apply(action)
        assert after.is_terminal
        scores.append(after.scores)
    for evaluator in (None, Recorder()):
        outcome = carcassonne.search(game, 40, seed=1, evaluator=evaluator, margin=0)
        smooth = carcassonne.search(game, 40, seed=1, evaluator=evaluator, margin=1)
        seat = game.to_play
        for result, reward in ((outcome, lambda m: 1.0 if m > 0 else 0.5 if m == 0 else 0.0),
                               (smooth, lambda m: 0.5 + 0.5 * np.tanh(m / 20))):
            tried = np.flatnonzero(~np.isnan(result.mean_rewards))
            assert len(tried) >= 10
            for k in tried:
                margin = scores[k][seat] - scores[k][1 - seat]
                assert abs(result.mean_rewards[k] - reward(margin)) < 1e-9


def test_a_playout_weighs_into_each_leafs_value() -> None:
    # The evaluator says 0.9 for both seats (sum 1.8); two players' margin rewards of a
    # finished game sum to 1. With playout weight w each leaf's values, and so their
    # mean, sum to (1 - w) 1.8 + w 1; the evaluator still sees every leaf.
    game = midgame(10)
    for weight, total in ((0.0, 1.8), (0.5, 1.4), (1.0, 1.0)):
        rec = Recorder(value=np.array([[0.9, 0.9]]))
        result = carcassonne.search(game, 64, seed=2, evaluator=rec, margin=1, playout=weight)
        check_targets(game, result)
        assert abs(float(result.values.sum()) - total) < 1e-5, (weight, result.values)
        assert sum(shape[0] for shape in rec.batches) == 65, "the root and every leaf"
        again = carcassonne.search(game, 64, seed=2, evaluator=Recorder(value=np.array([[0.9, 0.9]])), margin=1,
                                   playout=weight)
        assert np.array_equal(again.visits, result.visits) and np.array_equal(again.values, result.values)


def test_the_standings_weigh_into_each_leafs_value() -> None:
    # As with a playout: two players' margin rewards sum to 1, so with standing weight w
    # each leaf's values, and their mean, sum to (1 - w) 1.8 + w 1.
    game = midgame(10)
    for weight, total in ((0.5, 1.4), (1.0, 1.0)):
        rec = Recorder(value=np.array([[0.9, 0.9]]))
        result = carcassonne.search(game, 64, seed=2, evaluator=rec, margin=1, standing=weight)
        check_targets(game, result)
        assert abs(float(result.values.sum()) - total) < 1e-5, (weight, result.values)
        assert sum(shape[0] for shape in rec.batches) == 65, "the root and every leaf"
    # From 0 at the start to 1 at the end the weight is the share p of the tiles placed
    # at the leaf, a few tiles past the root's share: the sum lies near (1 - p) 1.8 + p.
    game = midgame(60)
    placed = len(game.board())
    total = placed + game.tiles_left
    rec = Recorder(value=np.array([[0.9, 0.9]]))
    result = carcassonne.search(game, 64, seed=2, evaluator=rec, margin=1, standing=0, standing_end=1)
    low, high = 1.8 - 0.8 * (placed + 4) / total, 1.8 - 0.8 * placed / total
    assert low <= float(result.values.sum()) <= high, (low, result.values, high)


def test_scores_if_ended_now_reads_the_final_scoring_ahead() -> None:
    # B15-B17: at the last decision the final scoring is all that is left to add, so the
    # scores read ahead are those the game ends with; before, the game is unchanged.
    game = carcassonne.Game(players=2, seed=5)
    while not game.is_terminal:
        before = game.scores
        ahead = game.scores_if_ended_now()
        assert all(a >= b for a, b in zip(ahead, before)), "the final scoring only adds"
        assert game.scores == before
        game.apply(game.legal_actions()[-1])
    assert game.scores_if_ended_now() == game.scores


def test_bad_input_is_refused_clearly() -> None:
    game = midgame()
    for budget in [0, -5, "fast", True, 1.5]:
        with pytest.raises(InvalidArgumentError, match="budget"):
            carcassonne.search(game, budget)  # type: ignore[arg-type]
    for margin in (-0.1, 1.5, float("nan")):
        with pytest.raises(InvalidArgumentError, match="margin: .*expected a weight 0 to 1"):
            carcassonne.search(game, 10, margin=margin)
        with pytest.raises(InvalidArgumentError, match="margin: "):
            carcassonne.search(game, 10, evaluator=Recorder(), margin=margin)
    for playout in (-0.5, 2.0, float("nan")):
        with pytest.raises(InvalidArgumentError, match="playout: .*expected a weight 0 to 1"):
            carcassonne.search(game, 10, evaluator=Recorder(), playout=playout)
    with pytest.raises(InvalidArgumentError, match="playout: a guided search's setting"):
        carcassonne.search(game, 10, playout=0.5)
    for standing in (-0.5, 2.0, float("nan")):
        with pytest.raises(InvalidArgumentError, match="standing: .*expected a weight 0 to 1"):
            carcassonne.search(game, 10, evaluator=Recorder(), standing=standing)
    with pytest.raises(InvalidArgumentError, match="standing: a guided search's setting"):
        carcassonne.search(game, 10, standing=0.5)
    with pytest.raises(InvalidArgumentError, match="standing_end: 1.5; expected a weight 0 to 1"):
        carcassonne.search(game, 10, evaluator=Recorder(), standing_end=1.5)
    with pytest.raises(InvalidArgumentError, match="standing_end: a guided search's setting"):
        carcassonne.search(game, 10, standing_end=0.5)
    with pytest.raises(InvalidArgumentError, match="batch: 0"):
        carcassonne.search(game, 10, evaluator=Recorder(), batch=0)
    with pytest.raises(InvalidArgumentError, match="not callable"):
        carcassonne.search(game, 10, evaluator=42)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=r"priors of shape \[1, 3\]"):
        carcassonne.search(game, 10, evaluator=lambda b: (np.zeros((1, 3)), np.zeros(1)))
    with pytest.raises(InvalidArgumentError, match="values of shape"):
        carcassonne.search(
            game, 10, evaluator=lambda b: (b["action_mask"], np.zeros((1, 5)))
        )
    with pytest.raises(InvalidArgumentError, match="expected a tuple"):
        carcassonne.search(game, 10, evaluator=lambda b: None)
    with pytest.raises(InvalidArgumentError, match="prior"):
        carcassonne.search(
            game, 10, evaluator=lambda b: (-b["action_mask"].astype(np.float32), np.zeros(1))
        )
    with pytest.raises(InvalidArgumentError, match="value of seat"):
        carcassonne.search(game, 10, evaluator=lambda b: (b["action_mask"], np.full(1, 3.0)))

    def failing(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        raise KeyError("the network is not loaded")

    with pytest.raises(KeyError, match="not loaded"):
        carcassonne.search(game, 10, evaluator=failing)
    over = midgame(0)
    while not over.is_terminal:
        over.apply(over.legal_actions()[0])
    with pytest.raises(CarcassonneError, match="game is over"):
        carcassonne.search(over, 10)
    with pytest.raises(CarcassonneError, match="game is over"):
        carcassonne.search(over, 10, evaluator=Recorder())
    chance = carcassonne.Game(players=2, seed=1, chance="explicit")
    assert chance.phase == "draw"
    with pytest.raises(CarcassonneError, match="draw"):
        carcassonne.search(chance, 10)


def test_the_evaluator_may_read_the_game_being_searched() -> None:
    """The search runs on a copy of the game: reading the game from inside the evaluator
    (legal actions, the text picture, the mask, an observation) works, and the search's
    answer is the one it gives without those reads."""
    game = midgame(preset="compact", window=24)
    quiet = carcassonne.search(game, 48, seed=5, evaluator=Recorder(), batch=4)
    legal_before = game.legal_actions()
    seen: List[int] = []

    def reading(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        assert game.legal_actions() == legal_before
        assert str(game) == game.render_text()
        assert game.legal_mask().sum() > 0
        seen.append(int(game.observation()["board"].sum()))
        return Recorder()(batch)

    loud = carcassonne.search(game, 48, seed=5, evaluator=reading, batch=4)
    assert seen, "the evaluator was called"
    assert np.array_equal(loud.visits, quiet.visits)
    assert np.array_equal(loud.policy, quiet.policy)


def test_the_evaluator_may_even_change_the_game_being_searched() -> None:
    """The answer describes the game as it was when the search was called."""
    game = midgame(preset="compact", window=24)
    copy = game.clone()
    expected = carcassonne.search(copy, 32, seed=2, evaluator=Recorder(), batch=4)

    def playing(batch: Dict[str, npt.NDArray[Any]]) -> Tuple[Any, Any]:
        if not game.is_terminal:
            game.apply(game.legal_actions()[0])
        return Recorder()(batch)

    result = carcassonne.search(game, 32, seed=2, evaluator=playing, batch=4)
    assert game.state_hash() != copy.state_hash(), "the evaluator played on"
    assert result.actions == copy.legal_actions()
    assert np.array_equal(result.visits, expected.visits)


def test_two_threads_search_one_game() -> None:
    game = midgame()
    expected = {s: carcassonne.search(game, 400, seed=s) for s in (1, 2)}
    results: Dict[int, carcassonne.SearchResult] = {}
    errors: List[BaseException] = []

    def run(s: int) -> None:
        try:
            results[s] = carcassonne.search(game, 400, seed=s)
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            errors.append(e)

    threads = [threading.Thread(target=run, args=(s,)) for s in (1, 2)]
    for t in threads:
        t.start()
    # This thread reads and plays a copy meanwhile.
    while any(t.is_alive() for t in threads):
        assert game.legal_actions() and str(game)
    for t in threads:
        t.join()
    assert errors == []
    for s in (1, 2):
        assert np.array_equal(results[s].visits, expected[s].visits)


def test_a_change_made_while_the_game_is_read_is_a_concurrent_use_error() -> None:
    """The one place a game is still borrowed while Python code runs: reading a
    structured action whose numbers are objects with ``__index__``. Code there may read
    the game, but a change is refused with ``ConcurrentUseError``, never pyo3's bare
    ``RuntimeError: Already borrowed``."""
    game = midgame()
    core = game._g
    action = core.legal_actions()[0]
    other = core.legal_actions()[-1]
    caught: List[BaseException] = []
    read: List[int] = []

    class Index:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            read.append(len(core.legal_actions()))
            try:
                core.apply(other)
            except BaseException as e:  # noqa: BLE001 - recorded for the assertion
                caught.append(e)
            return self.value

    tricky = (action[0], Index(action[1])) + tuple(action[2:])
    before = core.state_hash()
    assert core.is_legal(tricky)
    core.apply(tricky)
    assert read and caught
    assert all(isinstance(e, ConcurrentUseError) for e in caught), caught
    assert "in use by another call" in str(caught[0])
    assert core.state_hash() != before


def test_seeds_up_to_2_to_the_64_minus_1_everywhere() -> None:
    top = 2**64 - 1
    game = midgame()
    carcassonne.Game(players=2, seed=top)
    assert carcassonne.search(game, 20, seed=top).iterations == 20
    assert carcassonne.search(game, 20, seed=np.uint64(top)).iterations == 20
    assert game._g.builtin_action("random", seed=top) in game._g.legal_actions()
    assert isinstance(carcassonne._core.episode_seed(top, 0, 0), int)
    with tempfile.TemporaryDirectory() as out:
        assert carcassonne.data.write_selfplay(out, 0, seed=top)["written"] == 0
        with pytest.raises(InvalidArgumentError, match="seed: -1 is negative"):
            carcassonne.data.write_selfplay(out, 0, seed=-1)
    for bad, message in [
        (2**64, "seed: an integer of 65 bits; seeds are 0 to 2\\*\\*64-1"),
        (-1, "seed: -1 is negative; seeds are 0 to 2\\*\\*64-1"),
        (-(2**70), "seed: a negative integer of 71 bits"),
        (True, "seed: expected an integer 0 to 2\\*\\*64-1, got \"bool\""),
        (1.5, "seed: expected an integer 0 to 2\\*\\*64-1, got \"float\""),
    ]:
        with pytest.raises(InvalidArgumentError, match=message):
            carcassonne.search(game, 10, seed=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgumentError, match=message):
            game._g.builtin_action("random", seed=bad)
        with pytest.raises(InvalidArgumentError, match=message):
            carcassonne._core.episode_seed(bad, 0, 0)


def test_numbers_in_messages_are_quoted_short() -> None:
    """docs/reliability.md: a value quoted in a message has at most 40 characters; a
    long number is written in scientific notation."""
    game = midgame()
    with pytest.raises(InvalidArgumentError) as e:
        carcassonne.search(game, 10, c=1e308)
    assert str(e.value) == "c: 1e308; expected 0 to 10"
    with pytest.raises(InvalidArgumentError) as e:
        carcassonne.search(game, 10, margin=-1e-300)
    assert str(e.value) == "margin: -1e-300; expected a weight 0 to 1"
    with pytest.raises(InvalidArgumentError, match=r"^c: 10\.5; expected 0 to 10$"):
        carcassonne.search(game, 10, c=10.5)
