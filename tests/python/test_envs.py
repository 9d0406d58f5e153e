"""Gymnasium and PettingZoo environments pass their libraries' checkers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import carcassonne

gym = pytest.importorskip("gymnasium")


@pytest.mark.parametrize("render_mode", [None, "ansi", "rgb_array"])
def test_gymnasium_env_checker(render_mode: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make("Carcassonne-v0", render_mode=render_mode)
    check_env(env.unwrapped)
    env.reset(seed=0)
    frame = env.render()
    if render_mode == "ansi":
        assert isinstance(frame, str) and "legend" in frame
    elif render_mode == "rgb_array":
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 2


def test_gymnasium_episode_with_masks_and_opponents() -> None:
    env = gym.make("Carcassonne-v0", players=3, opponents="greedy", learner_seat=None, reward="outcome")
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    r = np.random.default_rng(0)
    total = 0.0
    for _ in range(1000):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        action = int(r.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        total += reward
        if terminated or truncated:
            break
    assert terminated
    scores = info["final_scores"]
    seat = info["learner_seat"]
    best = max(scores)
    # outcome: 1 for a sole winner, -1 for the sole last (ties share).
    if scores.count(best) == 1 and scores[seat] == best:
        assert total == 1.0
    assert -1.0 <= total <= 1.0


def test_masks_are_reachable_through_gymnasium_wrappers() -> None:
    # gymnasium.make wraps the env (OrderEnforcing, PassiveEnvChecker): wrappers do not
    # forward attributes, so the documented ways are env.unwrapped.action_masks() and
    # env.get_wrapper_attr("action_masks")() (what sb3-contrib's MaskablePPO calls).
    env = gym.make("Carcassonne-v0", players=2, opponents="greedy", reward="score-diff")
    assert env is not env.unwrapped
    obs, _ = env.reset(seed=3)
    for _ in range(5):
        by_wrapper = env.get_wrapper_attr("action_masks")()
        np.testing.assert_array_equal(by_wrapper, env.unwrapped.action_masks())
        np.testing.assert_array_equal(by_wrapper, obs["action_mask"].astype(bool))
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(by_wrapper)[0]))
        assert not (terminated or truncated)


def test_gymnasium_illegal_actions_are_penalised_raised_or_replaced() -> None:
    env = gym.make("Carcassonne-v0")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.game().state_hash()
    obs2, reward, terminated, truncated, info = env.step(bad)
    assert reward == -1.0 and info["illegal_action"] and not terminated
    assert env.unwrapped.game().state_hash() == before
    env.step(10**12)  # out of range: same policy
    strict = gym.make("Carcassonne-v0", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(carcassonne.IllegalActionError):
        strict.step(bad)
    with pytest.raises(carcassonne.InvalidArgumentError):  # not an integer id
        strict.step("north")
    lenient = gym.make("Carcassonne-v0", illegal_action="random")
    lenient.reset(seed=1)
    lenient.step(bad)
    assert lenient.unwrapped.game().state_hash() != before


def test_make_vec_uses_the_native_vector_env() -> None:
    from carcassonne.env import CarcassonneVectorEnv

    envs = gym.make_vec("Carcassonne-v0", num_envs=3, players=2)
    assert isinstance(envs.unwrapped, CarcassonneVectorEnv)
    obs, info = envs.reset(seed=11)
    assert envs.observation_space.contains(obs)
    r = np.random.default_rng(2)
    finished = 0
    for _ in range(300):
        masks = envs.unwrapped.action_masks()
        actions = np.array([r.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert rewards.shape == (3,)
        finished += int(terminated.sum())
    assert finished > 0
    # Same seeds, same first observations as single environments.
    single = gym.make("Carcassonne-v0")
    first, _ = single.reset(seed=carcassonne.episode_seed(11, 1, 0))
    again, _ = envs.reset(seed=11)
    np.testing.assert_array_equal(again["board"][1], first["board"])


def test_pettingzoo_api_and_seed_tests() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from carcassonne import pettingzoo as cpz

    with warnings.catch_warnings():
        # Advisories of api_test about dict observations and spaces, which PettingZoo
        # itself recommends for action masks ({"observation", "action_mask"}), and about
        # the all-zero mask of finished agents.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")
        api_test(cpz.env(players=3), num_cycles=300)
        api_test(cpz.env(players=2, sets=["base", "princess-and-dragon", "abbey-and-mayor"]), num_cycles=300)
    seed_test(lambda render_mode=None: cpz.env(players=2), num_cycles=200)


def test_pettingzoo_plays_a_whole_game_with_rewards_summing_to_scores() -> None:
    pytest.importorskip("pettingzoo")
    from carcassonne import pettingzoo as cpz

    env = cpz.env(players=3, render_mode="ansi")
    env.reset(seed=3)
    returns = {a: 0.0 for a in env.possible_agents}
    final = None
    r = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            final = info.get("final_scores", final)
            env.step(None)
            continue
        env.step(int(r.choice(np.flatnonzero(obs["action_mask"]))))
    assert final is not None
    assert [returns[a] for a in env.possible_agents] == [float(s) for s in final]
    with pytest.raises(carcassonne.InvalidConfigError):
        cpz.env(players=9)


def test_pettingzoo_follows_the_classic_conventions() -> None:
    """Wrapped as the classic games: an illegal id ends the game with -1 for its agent
    and 0 for the others; stepping after the end changes nothing; render_test passes;
    floats are refused as everywhere."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import render_test
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper, TerminateIllegalWrapper

    from carcassonne import pettingzoo as cpz

    env = cpz.env(players=3, preset="in-play")
    assert isinstance(env, OrderEnforcingWrapper)
    layers = []
    e = env
    while hasattr(e, "env"):
        layers.append(type(e))
        e = e.env
    assert TerminateIllegalWrapper in layers and isinstance(e, cpz.raw_env)
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    assert obs["observation"].shape[0] == env.unwrapped.observe(agent)["observation"].shape[0] < 94
    with pytest.raises(carcassonne.InvalidArgumentError):
        env.step(1.0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper's notice of the illegal move
        env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1 and all(env.rewards[a] == 0 for a in env.agents if a != agent)
    # Finish the episode as the AEC loop does, then step again: nothing happens.
    for a in env.agent_iter():
        env.step(None)
    assert env.agents == []
    env.unwrapped.step(None)
    env.unwrapped.step(0)
    # The bare environment refuses the illegal id and changes nothing.
    raw = cpz.raw_env(players=2)
    raw.reset(seed=2)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    before = raw.game.state_hash()
    with pytest.raises(carcassonne.IllegalActionError):
        raw.step(int(np.flatnonzero(mask == 0)[0]))
    assert raw.game.state_hash() == before
    render_test(lambda render_mode=None: cpz.env(players=2, render_mode=render_mode))


def test_gymnasium_env_refuses_float_actions_and_reports_episodes() -> None:
    env = gym.make("Carcassonne-v0", preset="compact", window=24, opponents="greedy", reward="score-diff")
    obs, info = env.reset(seed=3)
    assert obs["board"].shape == (44, 24, 24)
    mask = env.unwrapped.action_masks()
    good = int(np.flatnonzero(mask)[0])
    for bad in (float(good), np.float64(good), True, "3", None):
        with pytest.raises(carcassonne.InvalidArgumentError):
            env.step(bad)
    obs, total, terminated, truncated, info = env.step(np.array([good]))  # a one-element array is an id
    done = terminated or truncated
    while not done:
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(np.int64(np.flatnonzero(mask)[0]))
        total += reward
        done = terminated or truncated
    assert info["final_return"] == pytest.approx(total)
    s = info["final_scores"]
    seat = info["learner_seat"]
    assert total == pytest.approx(s[seat] - s[1 - seat])
    assert info["final_length"] > 20
    envs = gym.make_vec("Carcassonne-v0", num_envs=2, preset="in-play")
    envs.reset(seed=0)
    with pytest.raises(carcassonne.InvalidArgumentError):
        envs.step(np.array([0.0, 1.0]))


def play_random(env, episodes: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """Plays random legal ids until ``episodes`` episodes ended; the final infos."""
    r = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    ends = []
    while len(ends) < episodes:
        obs, reward, terminated, truncated, info = env.step(int(r.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            ends.append(info)
            obs, info = env.reset()
    return ends


@pytest.mark.parametrize("opponents", ["greedy", "python"])
def test_record_episode_statistics_wraps_the_env_unchanged(opponents: str) -> None:
    """Gymnasium's RecordEpisodeStatistics (what CleanRL wraps around every env) owns
    info["episode"]: the env keeps its own figures under final_return / final_length,
    and the wrapper's return and length agree with them."""
    from gymnasium.wrappers import RecordEpisodeStatistics

    chosen = "greedy" if opponents == "greedy" else [lambda game: game.legal_actions()[0]]
    env = RecordEpisodeStatistics(
        gym.make("Carcassonne-v0", opponents=chosen, preset="compact", window=24, reward="score-diff")
    )
    for info in play_random(env, 2, seed=5):
        assert info["episode"]["r"] == pytest.approx(info["final_return"])
        assert info["episode"]["l"] == info["final_length"] > 20
        s, seat = info["final_scores"], info["learner_seat"]
        assert info["final_return"] == pytest.approx(s[seat] - s[1 - seat])


def test_record_episode_statistics_wraps_make_vec_unchanged() -> None:
    """The vector wrapper (next-step autoreset, as the env declares) counts the same
    returns and lengths as the env's own final_return / final_length."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(gym.make_vec("Carcassonne-v0", num_envs=3, preset="compact", window=24,
                                                opponents="random", reward="win-loss"))
    obs, _ = envs.reset(seed=2)
    r = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        actions = np.array([r.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        if "episode" in info:
            done = info["_episode"]
            assert (done == info["_final_return"]).all()
            np.testing.assert_allclose(info["episode"]["r"][done], info["final_return"][done])
            np.testing.assert_array_equal(info["episode"]["l"][done], info["final_length"][done])
            # win-loss (B17): the return is 1, -1, or 0 for a tie, by the final scores.
            for i in np.flatnonzero(done):
                s, seat = info["final_scores"][i], info["learner_seat"][i]
                assert info["final_return"][i] == float(np.sign(s[seat] - s[1 - seat]))
            ended += int(done.sum())
    assert ended >= 3


@pytest.mark.parametrize("opponents", ["greedy", "python"])
def test_win_loss_reward_is_paid_once_at_the_end(opponents: str) -> None:
    """reward="win-loss": 0 at every step but the last, then 1 for a win, -1 for a loss,
    0 for a tie (B17: tied players share the win)."""
    chosen = "greedy" if opponents == "greedy" else [lambda game: game.legal_actions()[0]]
    env = gym.make("Carcassonne-v0", opponents=chosen, reward="win-loss", learner_seat=None)
    r = np.random.default_rng(3)
    outcomes = set()
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        rewards = []
        done = False
        while not done:
            obs, reward, terminated, truncated, info = env.step(int(r.choice(np.flatnonzero(obs["action_mask"]))))
            rewards.append(reward)
            done = terminated or truncated
        assert terminated
        s, seat = info["final_scores"], info["learner_seat"]
        expected = float(np.sign(s[seat] - max(x for i, x in enumerate(s) if i != seat)))
        assert rewards[-1] == expected and not any(rewards[:-1])
        outcomes.add(expected)
    assert outcomes, "some episodes ended"
    assert list(carcassonne._core.step_rewards("win-loss", [0, 0, 0], [7, 7, 2], True)) == [0.0, 0.0, -1.0]
    with pytest.raises(carcassonne.InvalidConfigError, match="win-loss"):
        gym.make("Carcassonne-v0", reward="win/loss")


def test_pettingzoo_flat_observations_keep_the_globals() -> None:
    """observation_format="flat": one float32 vector, the planes (C order) then the
    globals, so code that reads only "observation" sees the tile in hand and the scores."""
    pytest.importorskip("pettingzoo")
    from carcassonne import pettingzoo as cpz

    plain = cpz.env(players=2)
    flat = cpz.env(players=2, observation_format="flat", reward="win-loss")
    plain.reset(seed=4)
    flat.reset(seed=4)
    a, b = plain.observe("player_0"), flat.observe("player_0")
    assert set(b) == {"observation", "action_mask"}
    assert b["observation"].dtype == np.float32
    size = a["observation"].size
    assert b["observation"].shape == (size + a["globals"].size,)
    np.testing.assert_array_equal(b["observation"][:size], a["observation"].reshape(-1))
    np.testing.assert_array_equal(b["observation"][size:], a["globals"])
    np.testing.assert_array_equal(b["action_mask"], a["action_mask"])
    assert flat.observation_space("player_0").contains(b)
    with pytest.raises(carcassonne.InvalidConfigError):
        cpz.env(observation_format="flattened")
