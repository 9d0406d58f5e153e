"""Built-in players from Python: specs, the MCTS player on a game, as the opponents of the
Gymnasium envs, as a PettingZoo agent, and native matches."""

from __future__ import annotations

import numpy as np
import pytest

import carcassonne
from carcassonne.errors import InvalidArgumentError, InvalidConfigError
from carcassonne.players import BuiltinPlayer, match, player_spec

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
