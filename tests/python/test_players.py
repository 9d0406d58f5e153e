"""Built-in players from Python: specs, the MCTS player on a game, as the opponents of the
Gymnasium envs, as a PettingZoo agent, and native matches."""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import pytest

import carcassonne
from carcassonne.errors import InvalidArgumentError, InvalidConfigError
from carcassonne.players import BuiltinPlayer, match, player_spec, summarize

gym = pytest.importorskip("gymnasium")


def test_specs_are_read_and_checked() -> None:
    assert BuiltinPlayer("mcts:250").spec == "mcts:250"
    assert BuiltinPlayer("mcts").spec == "mcts:1000"
    assert BuiltinPlayer("mcts:80ms:threads=2").kind == "mcts"
    assert player_spec(BuiltinPlayer("greedy")) == "greedy"
    for bad, text in [("mcts:lots", "lots"), ("mcts:10:speed=2", "speed"), ("oracle", "oracle")]:
        with pytest.raises(InvalidArgumentError, match=text):
            BuiltinPlayer(bad)
    assert repr(BuiltinPlayer("mcts:5")) == "BuiltinPlayer('mcts:5')"


def test_mcts_plays_legal_actions_and_is_reproducible() -> None:
    game = carcassonne.Game(players=2, sets=["base", "abbey-and-mayor"], seed=3)
    a, b = BuiltinPlayer("mcts:30", seed=5), BuiltinPlayer("mcts:30", seed=5)
    twin = game.clone()
    for _ in range(6):
        x, y = a(game), b(twin)
        assert x == y and game.is_legal(x)
        game.apply(x)
        twin.apply(y)
    player = BuiltinPlayer("mcts:10", seed=1)
    while not game.is_terminal:
        game.apply(player(game))


def test_gymnasium_env_with_mcts_opponents() -> None:
    for opponents in ["mcts:10", BuiltinPlayer("mcts:10")]:
        env = gym.make("Carcassonne-v0", opponents=opponents)
        obs, _ = env.reset(seed=2)
        for _ in range(4):
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, _, terminated, truncated, _ = env.step(action)
            assert not (terminated or truncated)
    with pytest.raises(InvalidConfigError, match="opponents"):
        gym.make("Carcassonne-v0", opponents="mcts:0")
    vec = carcassonne.VectorEnv(2, opponents=BuiltinPlayer("greedy"))
    assert vec.num_envs == 2
    with pytest.raises(InvalidConfigError, match="opponents"):
        carcassonne.VectorEnv(1, opponents="mcts:x")


def test_pettingzoo_agents_played_by_builtin_players() -> None:
    pytest.importorskip("pettingzoo")
    from carcassonne import pettingzoo as cpz

    env = cpz.env(players=2, sets=["base", "princess-and-dragon"])
    env.reset(seed=4)
    players = {"player_0": BuiltinPlayer("mcts:8", seed=1), "player_1": BuiltinPlayer("greedy", seed=2)}
    steps = 0
    for agent in env.agent_iter(max_iter=2000):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = players[agent].act(env)
        assert env.observe(agent)["action_mask"][action] == 1
        env.step(action)
        steps += 1
    assert steps > 40
    assert env.game.is_terminal


def test_native_match_summaries() -> None:
    result = match(["mcts:20", "random"], games=4, seed=3)
    mcts, rnd = result.players
    assert (mcts.spec, rnd.spec) == ("mcts:20", "random")
    assert mcts.games == rnd.games == 4
    assert mcts.wins + rnd.wins == pytest.approx(4.0)
    assert mcts.wins == 4.0 and mcts.mean_margin > 0
    assert mcts.interval[0] <= mcts.win_rate <= mcts.interval[1]
    assert mcts.seat_games == [2, 2]
    # Every deal is played from both seats.
    assert result.seeds.tolist() == [3, 3, 4, 4]
    assert result.seating.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]
    by_player = result.player_scores()
    assert by_player[:, 0].mean() == pytest.approx(mcts.mean_score)
    assert "win rate" in str(result)
    again = match(["mcts:20", "random"], games=4, seed=3, threads=2)
    np.testing.assert_array_equal(result.scores, again.scores)
    with pytest.raises(InvalidConfigError, match="bots"):
        match(["random"], games=2, players=3)
    with pytest.raises(InvalidConfigError, match="games"):
        match(["random", "random"], games=0)


def test_summarize_computes_the_figures_by_hand() -> None:
    # Two games of two players; game 0 is a tie (B17: a win shared by 2 counts 1/2 each).
    players, text = summarize(
        ["greedy", "random"],
        seating=[[0, 1], [1, 0]],
        scores=[[10, 10], [5, 3]],
        decisions=[[10, 20], [30, 40]],
        think_seconds=[[0.1, 0.2], [0.3, 0.4]],
    )
    greedy, rnd = players
    assert (greedy.spec, greedy.games, greedy.wins, greedy.win_rate) == ("greedy", 2, 0.5, 0.25)
    assert (greedy.mean_score, greedy.mean_margin) == (6.5, -1.0)
    assert (greedy.seat_games, greedy.seat_wins) == ([1, 1], [0.5, 0.0])
    assert (rnd.wins, rnd.mean_score, rnd.mean_margin) == (1.5, 7.5, 1.0)
    assert (rnd.seat_games, rnd.seat_wins) == ([1, 1], [1.0, 0.5])
    # (0.1 + 0.4) s over 10 + 40 decisions; (0.2 + 0.3) s over 20 + 30.
    assert greedy.ms_per_decision == pytest.approx(10.0) and rnd.ms_per_decision == pytest.approx(10.0)
    assert text.splitlines()[1].split()[:4] == ["greedy", "2", "0.5", "25.0%"]


def test_summarize_of_a_matchs_arrays_is_the_matchs_summary() -> None:
    result = match(["greedy", "random", "random"], games=6, seed=2)
    players, text = summarize(
        [p.spec for p in result.players], result.seating, result.scores, result.decisions, result.think_seconds,
        game=result.game,
    )
    assert players == result.players
    assert text == result.text


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(scores=[[1, 2, 3], [4, 5, 6]]), r"scores: shape \(2, 3\); expected \(2, 2\)"),
        (dict(decisions=[[1, 2]]), r"decisions: shape \(1, 2\); expected \(2, 2\)"),
        (dict(seating=[0, 1]), "seating: expected a 2-D array"),
        (dict(think_seconds=[["a", "b"], ["c", "d"]]), "think_seconds: expected a 2-D array"),
        (dict(seating=[[0, 1], [2, 0]]), r"seating: game 1 \(row 1\), seat 0: player 2 is not from 0 to 1"),
        (dict(seating=[[0, 1], [-1, 0]]), "seating: game 1 .*player -1"),
        (dict(seating=[[0, 0], [1, 0]]), r"seating: game 0 \(row 0\) seats player 0 twice"),
        (dict(decisions=[[1, -2], [3, 4]]), "decisions: game 0 .*seat 1: -2"),
        (dict(think_seconds=[[0.1, float("nan")], [0.1, 0.1]]), "think_seconds: game 0 .*seat 1: NaN is not a time"),
        (dict(game=[0]), "game: 1 indices for 2 games"),
        (dict(bots=["greedy", "nobody"]), "bots: "),
    ],
)
def test_summarize_names_the_bad_argument(change: Dict[str, Any], message: str) -> None:
    args: Dict[str, Any] = dict(
        bots=["greedy", "random"],
        seating=[[0, 1], [1, 0]],
        scores=[[10, 10], [5, 3]],
        decisions=[[10, 20], [30, 40]],
        think_seconds=[[0.1, 0.2], [0.3, 0.4]],
    )
    args.update(change)
    with pytest.raises(InvalidArgumentError, match=message) as raised:
        summarize(**args)
    assert isinstance(raised.value, ValueError)


def test_the_learned_player_refuses_a_game_its_network_was_not_made_for() -> None:
    """The shipped ``net`` was made for the 2-player base game: in a 3-player game every
    Python front end refuses it with an error naming what differs, before it plays."""
    expected = "the network was made for 2 players, this game has 3"
    game = carcassonne.Game(players=3, seed=1)
    with pytest.raises(InvalidArgumentError, match=expected):
        game.builtin_action("net")
    with pytest.raises(InvalidArgumentError, match=expected):
        carcassonne.BuiltinPlayer("net")(game)
    with pytest.raises(InvalidConfigError, match=expected):
        carcassonne.VectorEnv(2, players=3, seed=1, opponents="net")
    env = carcassonne.VectorEnv(2, players=3, seed=1, observations=False)
    with pytest.raises(InvalidArgumentError, match=expected):
        env.builtin_actions("net")
    two = carcassonne.Game(players=2, seed=1)
    assert two.builtin_action("net") in two.legal_actions()
