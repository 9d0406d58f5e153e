"""The native vector environment against single games with the same seeds."""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import carcassonne
from conftest import offered

CONFIG: Dict[str, Any] = dict(players=3, sets=["base", "princess-and-dragon"], figures={"abbot": 1})


def _pick(mask: np.ndarray, r: np.random.Generator) -> int:
    ids = offered(mask)
    return ids[int(r.integers(len(ids)))]


def test_vector_env_matches_single_games_with_the_same_seeds() -> None:
    """Self-play: game ``i`` of the batch follows ``Game(seed=episode_seed(seed, i, 0))``
    step by step (observation, mask, seat, rewards, end, episode return and length), and
    its next episode starts as ``Game(seed=episode_seed(seed, i, 1))``."""
    n, seed = 4, 100
    env = carcassonne.VectorEnv(n, seed=seed, **CONFIG)
    obs, _ = env.reset()
    seeds = [carcassonne.episode_seed(seed, i, 0) for i in range(n)]
    assert list(env.episode_seeds()) == seeds
    singles = [carcassonne.Game(seed=s, **CONFIG) for s in seeds]
    returns = np.zeros((n, 3), dtype=np.float32)
    lengths = [0] * n
    rngs = [np.random.default_rng(i) for i in range(n)]
    episodes_done = [0] * n
    steps = 0
    while min(episodes_done) < 1:
        actions = np.zeros(n, dtype=np.int64)
        for i, g in enumerate(singles):
            o = g.observation()
            assert obs["to_play"][i] == g.to_play
            np.testing.assert_array_equal(obs["board"][i], o["board"])
            np.testing.assert_array_equal(obs["globals"][i], o["globals"])
            np.testing.assert_array_equal(obs["action_mask"][i], o["action_mask"])
            actions[i] = _pick(o["action_mask"], rngs[i])
        obs, rewards, terminated, truncated, info = env.step(actions)
        steps += 1
        for i, g in enumerate(singles):
            before = g.scores
            g.step_flat(int(actions[i]))
            expected = carcassonne._core.step_rewards("score", before, g.scores, g.is_terminal)
            np.testing.assert_array_equal(rewards[i], np.array(expected, dtype=np.float32))
            returns[i] += rewards[i]
            lengths[i] += 1
            assert terminated[i] == g.is_terminal
            assert not truncated[i]
            if g.is_terminal:
                assert list(info["final_scores"][i]) == g.scores
                np.testing.assert_array_equal(info["episode_returns"][i], returns[i])
                assert info["episode_lengths"][i] == lengths[i]
                returns[i] = 0
                lengths[i] = 0
                episodes_done[i] += 1
                nxt = carcassonne.episode_seed(seed, i, episodes_done[i])
                assert env.episode_seeds()[i] == nxt
                singles[i] = carcassonne.Game(seed=nxt, **CONFIG)
            else:
                assert info["episode_lengths"][i] == 0 and not info["final_scores"][i].any()
    assert steps > 100


def test_seed_streams_do_not_overlap() -> None:
    """Games of batches made with neighbouring seeds, and of the envs of one batch, are
    all different (the old ``seed + i`` scheme made env 1 of seed 0 env 0 of seed 1)."""
    seen = set()
    for base in range(3):
        for i in range(16):
            for k in range(4):
                seen.add(carcassonne.episode_seed(base, i, k))
    assert len(seen) == 3 * 16 * 4
    a = carcassonne.VectorEnv(4, seed=0, observations=False)
    b = carcassonne.VectorEnv(4, seed=1, observations=False)
    a.reset()
    b.reset()
    assert not set(a.episode_seeds().tolist()) & set(b.episode_seeds().tolist())
    # reset(seed=s) restarts the streams of a batch made with seed s; a list sets the
    # next game's seed of each env.
    a.reset(seed=1)
    assert a.episode_seeds().tolist() == b.episode_seeds().tolist()
    a.reset(seed=[5, 6, 7, 8])
    assert a.episode_seeds().tolist() == [5, 6, 7, 8]
    with pytest.raises(carcassonne.InvalidArgumentError):
        carcassonne.episode_seed(-1, 0, 0)


def test_single_agent_episode_statistics() -> None:
    """Against built-in opponents the episode return is the sum of the learner's rewards
    and the length its number of steps; the final observation is that of the ended game."""
    n = 3
    env = carcassonne.VectorEnv(n, seed=4, opponents="greedy", learner_seat=None, reward="score-diff",
                                final_observations=True, **CONFIG)
    obs, _ = env.reset()
    r = np.random.default_rng(3)
    acc = np.zeros(n)
    steps = np.zeros(n, dtype=int)
    ended = 0
    for _ in range(600):
        seats = env.learner_seats().copy()
        games = [env.game(i) for i in range(n)]
        actions = np.array([_pick(m, r) for m in obs["action_mask"]], dtype=np.int64)
        obs, rewards, terminated, truncated, info = env.step(actions)
        acc += rewards[np.arange(n), seats]
        steps += 1
        # Rows of games whose episode goes on are zero (not left from an earlier end).
        going_on = ~(terminated | truncated)
        assert not info["final_scores"][going_on].any()
        assert not info["episode_returns"][going_on].any()
        assert not info["episode_lengths"][going_on].any()
        for i in np.flatnonzero(terminated | truncated):
            assert info["episode_returns"][i, seats[i]] == pytest.approx(acc[i], abs=1e-3)
            assert info["episode_lengths"][i] == steps[i]
            s = info["final_scores"][i]
            # score-diff rewards of two... three players sum to own - mean of the others.
            assert acc[i] == pytest.approx(s[seats[i]] - (s.sum() - s[seats[i]]) / 2, abs=1e-3)
            assert info["final_board"][i].any() and info["final_board"][i].shape == obs["board"][i].shape
            before = games[i]
            assert before.num_players == 3
            acc[i], steps[i] = 0, 0
            ended += 1
    assert ended >= 3


def test_builtin_actions_are_offered() -> None:
    env = carcassonne.VectorEnv(6, seed=2, preset="in-play", **CONFIG)
    obs, _ = env.reset()
    for _ in range(200):
        ids = env.builtin_actions("greedy", seed=1)
        assert all(obs["action_mask"][i, a] == 1 for i, a in enumerate(ids))
        obs, *_ = env.step(ids)
    with pytest.raises(carcassonne.InvalidArgumentError, match="kind"):
        env.builtin_actions("perfect")


def test_threads_do_not_change_trajectories() -> None:
    def run(threads: int) -> List[np.ndarray]:
        env = carcassonne.VectorEnv(5, seed=7, threads=threads, opponents="greedy", **CONFIG)
        obs, _ = env.reset()
        r = np.random.default_rng(0)
        seen = []
        for _ in range(120):
            actions = np.array([_pick(m, r) for m in obs["action_mask"]], dtype=np.int64)
            obs, rewards, terminated, truncated, info = env.step(actions)
            seen.append(obs["board"].copy())
            seen.append(rewards.copy())
        return seen

    for a, b in zip(run(1), run(2)):
        np.testing.assert_array_equal(a, b)


def test_single_agent_batch_matches_gymnasium_env() -> None:
    """Opponents played natively: env ``i`` of a batch behaves as a one-game env with
    seed ``episode_seed(seed, i, 0)``, and only the learner's decisions are returned."""
    gym = pytest.importorskip("gymnasium")
    from carcassonne.env import CarcassonneEnv

    n, seed = 3, 50
    env = carcassonne.VectorEnv(n, seed=seed, opponents="random", learner_seat=1, **CONFIG)
    obs, _ = env.reset()
    singles = [CarcassonneEnv(opponents="random", learner_seat=1, illegal_action="raise", **CONFIG) for _ in range(n)]
    single_obs = [s.reset(seed=carcassonne.episode_seed(seed, i, 0))[0] for i, s in enumerate(singles)]
    assert isinstance(singles[0], gym.Env)
    r = np.random.default_rng(1)
    ended = [False] * n
    for _ in range(400):
        assert (obs["to_play"] == 1).all()
        actions = np.zeros(n, dtype=np.int64)
        for i in range(n):
            if not ended[i]:
                np.testing.assert_array_equal(obs["board"][i], single_obs[i]["board"])
                np.testing.assert_array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
            actions[i] = _pick(obs["action_mask"][i], r)
        obs, rewards, terminated, truncated, _ = env.step(actions)
        for i in range(n):
            if ended[i]:
                continue
            single_obs[i], reward, term, trunc, _ = singles[i].step(int(actions[i]))
            assert reward == rewards[i, 1]
            assert term == terminated[i] and trunc == truncated[i]
            ended[i] = term or trunc
        if all(ended):
            break
    assert all(ended)


def test_masks_and_rewards_only_mode_and_bad_arguments() -> None:
    env = carcassonne.VectorEnv(2, observations=False)
    obs, _ = env.reset(seed=[3, 4])
    assert obs["board"] is None and obs["globals"] is None
    assert obs["action_mask"].sum(axis=1).min() > 0
    with pytest.raises(carcassonne.IllegalActionError):
        env.step(np.array([-1, 0]))
    with pytest.raises(carcassonne.InvalidArgumentError):
        env.step(np.array([0.5, 1.0]))
    with pytest.raises(carcassonne.InvalidArgumentError):
        env.step(np.array([0, 0, 0]))
    core = carcassonne._core.VectorEnv(2)
    with pytest.raises(carcassonne.InvalidArgumentError):
        core.reset(np.zeros((2, 5), dtype=np.int8), np.zeros(2, dtype=np.int32))
    with pytest.raises(carcassonne.InvalidArgumentError):
        core.reset(np.zeros((2, core.num_actions), dtype=np.float32), np.zeros(2, dtype=np.int32))
    mask = np.zeros((2, core.num_actions), dtype=np.int8)
    with pytest.raises(carcassonne.InvalidArgumentError):
        core.reset(mask[:, ::2], np.zeros(2, dtype=np.int32))
    with pytest.raises(carcassonne.InvalidArgumentError):
        core.reset(mask, np.zeros(2, dtype=np.int32), seeds=[1, 2, 3])
    with pytest.raises(carcassonne.InvalidConfigError, match="num_envs"):
        carcassonne.VectorEnv(0)
    with pytest.raises(carcassonne.InvalidConfigError, match="opponents"):
        carcassonne.VectorEnv(1, opponents="perfect")
    with pytest.raises(carcassonne.InvalidConfigError, match="learner_seat"):
        carcassonne.VectorEnv(1, opponents="random", learner_seat=2)


def test_illegal_action_policies() -> None:
    pen = carcassonne.VectorEnv(1, illegal_action="penalize", illegal_penalty=-3.0)
    obs, _ = pen.reset(seed=1)
    before = pen.game(0).state_hash()
    bad = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    _, rewards, terminated, truncated, _ = pen.step(np.array([bad]))
    assert rewards[0, 0] == -3.0 and not terminated[0] and not truncated[0]
    assert pen.game(0).state_hash() == before
    rnd = carcassonne.VectorEnv(1, illegal_action="random")
    rnd.reset(seed=1)
    rnd.step(np.array([bad]))
    assert rnd.game(0).state_hash() != before


def test_truncation_when_the_window_is_too_small() -> None:
    env = carcassonne.VectorEnv(2, window=4, outside_window="truncate", observations=False)
    obs, _ = env.reset(seed=0)
    r = np.random.default_rng(0)
    truncations = 0
    for _ in range(300):
        actions = np.array([_pick(m, r) for m in obs["action_mask"]], dtype=np.int64)
        obs, _, _, truncated, info = env.step(actions)
        truncations += int(truncated.sum())
        # After an automatic reset the decision offered is playable.
        assert obs["action_mask"].sum(axis=1).min() > 0
    assert truncations > 0


def test_large_buffers_lie_on_huge_page_boundaries_and_survive_pickling() -> None:
    """The mask, planes and globals of a large batch are ordinary C-contiguous arrays
    (the mask writable, the full preset's board a read-only view); on Linux they start on
    a 2 MiB boundary (transparent huge pages), also in a pickled copy, which steps exactly
    like the original."""
    import mmap
    import pickle

    env = carcassonne.VectorEnv(256, players=2, seed=5)
    obs, _ = env.reset()
    copy = pickle.loads(pickle.dumps(env))
    for e in (env, copy):
        for name in ("action_mask", "board"):
            a = getattr(e, name)
            assert a.flags.c_contiguous and a.nbytes >= 1 << 20
            assert a.flags.writeable == (name == "action_mask"), name
            if hasattr(mmap, "MADV_HUGEPAGE"):
                assert a.ctypes.data % (2 << 20) == 0, name
    assert np.array_equal(copy.action_mask, env.action_mask)
    r = np.random.default_rng(0)
    for _ in range(5):
        actions = np.array([_pick(m, r) for m in env.action_mask], dtype=np.int64)
        a, *_ = env.step(actions)
        b, *_ = copy.step(actions.tolist())  # a list goes through the checked copy
        assert np.array_equal(a["action_mask"], b["action_mask"])
        assert np.array_equal(a["board"], b["board"])


def test_full_board_is_read_only_and_rewritten_only_where_it_changes() -> None:
    """With the full preset each game clears only the planes it set in its row last
    time, so the board is handed out read-only (a write would stay in later
    observations); over a whole episode and the automatic resets after it every row
    still equals the single game's observation. A compact board is written in full and
    stays writable."""
    n = 3
    env = carcassonne.VectorEnv(n, players=2, seed=11)
    obs, _ = env.reset()
    with pytest.raises(ValueError):
        obs["board"][0, 0, 0, 0] = 1
    r = np.random.default_rng(3)
    for _ in range(2 * 80):  # beyond the end of every first episode
        actions = np.array([_pick(m, r) for m in obs["action_mask"]], dtype=np.int64)
        obs, *_ = env.step(actions)
        for i in range(n):
            expected = env.game(i).observation(int(obs["to_play"][i]))["board"]
            np.testing.assert_array_equal(obs["board"][i], expected)
    compact = carcassonne.VectorEnv(2, players=2, seed=11, preset="compact", window=16)
    cobs, _ = compact.reset()
    assert cobs["board"].flags.writeable



# ----- opponents played from Python, in batches ---------------------------------------------


def _lowest(obs: Dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_python_opponents_follow_the_single_env_step_by_step() -> None:
    """A callable opponent in the batch plays the same games as in ``Carcassonne-v0``
    (same seeds, the learner in seat 1 so the opponent opens): the same observations,
    rewards (the opponents' moves summed into the learner's step, the opening ones into
    its first step), ends and final scores."""
    gym = pytest.importorskip("gymnasium")
    first_legal = lambda game: game.legal_actions()[0]  # noqa: E731
    n, seeds = 3, [5, 6, 7]
    env = carcassonne.VectorEnv(n, players=2, opponents=[first_legal], learner_seat=1, reward="score-diff",
                                illegal_action="penalize")
    obs, _ = env.reset(seed=seeds)
    singles = [gym.make("Carcassonne-v0", opponents=[first_legal], learner_seat=1, reward="score-diff")
               for _ in range(n)]
    single_obs = [s.reset(seed=seed)[0] for s, seed in zip(singles, seeds)]
    returns = np.zeros(n)
    alive = np.ones(n, dtype=bool)
    while alive.any():
        for i in np.flatnonzero(alive):
            np.testing.assert_array_equal(obs["board"][i], single_obs[i]["board"])
            np.testing.assert_array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
            assert obs["to_play"][i] == 1
        ids = np.array([_lowest({"action_mask": m}) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(ids)
        for i in np.flatnonzero(alive):
            single_obs[i], r, te, tr, single_info = singles[i].step(int(ids[i]))
            assert rewards[i, 1] == pytest.approx(r)
            returns[i] += r
            assert (terminated[i], truncated[i]) == (te, tr)
            if te or tr:
                alive[i] = False
                assert list(info["final_scores"][i]) == single_info["final_scores"]
                assert info["episode_returns"][i, 1] == pytest.approx(returns[i])
                assert info["episode_lengths"][i] == single_info["final_length"]


def test_python_opponents_are_asked_once_per_step_for_all_their_games() -> None:
    """Batched: each opponent is called once per round of decisions for every game that
    waits on it (SB3's predict with stacked observations and masks), a built-in member of
    a pool plays natively, pools draw per episode and seat, and the learner always gets
    back a game where it decides; rewards of score mode sum to its final score."""
    class Model:
        """Looks like an SB3 model."""

        def __init__(self) -> None:
            self.batches: List[int] = []

        def predict(self, obs: Any, action_masks: Any = None, deterministic: bool = True) -> Any:
            assert action_masks.dtype == bool and action_masks.ndim == 2
            assert obs["board"].shape[0] == action_masks.shape[0]
            self.batches.append(len(action_masks))
            return np.array([np.flatnonzero(m)[-1] for m in action_masks]), None

    from carcassonne.opponents import OpponentPool, policy

    model = Model()
    batched_calls: List[int] = []

    def lowest_batch(obs: Dict[str, Any]) -> np.ndarray:
        batched_calls.append(len(obs["action_mask"]))
        return np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])

    n = 16
    pool = OpponentPool([policy(model), policy(lowest_batch, batched=True), "greedy"])
    env = carcassonne.VectorEnv(n, players=3, seed=8, opponents=pool, learner_seat=None, reward="score")
    obs, info = env.reset()
    assert all(len(row) == 2 for row in info["opponents"])
    r = np.random.default_rng(4)
    totals = np.zeros(n)
    ended = 0
    steps = 150
    for _ in range(steps):
        seats = env.learner_seats().copy()
        np.testing.assert_array_equal(obs["to_play"], seats)
        assert obs["action_mask"].any(axis=1).all()
        ids = np.array([_pick(m, r) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(ids)
        totals += rewards[np.arange(n), seats]
        for i in np.flatnonzero(terminated):
            assert totals[i] == pytest.approx(info["final_scores"][i, seats[i]])
            assert info["episode_returns"][i, seats[i]] == pytest.approx(totals[i])
            ended += 1
        totals[terminated | truncated] = 0
    assert ended >= n // 2
    # Each round of opponents' decisions asks a member once for all its games: far
    # fewer calls than decisions (each opponent's turn is a placement and a deployment,
    # two rounds, and two opponents play between the learner's decisions).
    for calls in (model.batches, batched_calls):
        assert 0 < len(calls) <= 4 * (steps + 1) + 8
        assert sum(calls) >= 2 * len(calls) and max(calls) > 2
    seated = {repr(o) for row in env.seated_opponents() for o in row if o is not None}
    assert len(seated) >= 2


def test_python_opponents_that_choose_illegal_ids_are_named() -> None:
    env = carcassonne.VectorEnv(2, opponents=[carcassonne.opponents.policy(lambda obs: -1)], learner_seat=1)
    with pytest.raises(carcassonne.IllegalActionError, match="opponent"):
        env.reset()
    with pytest.raises(carcassonne.InvalidConfigError):
        carcassonne.VectorEnv(2, opponents=[])


def test_make_vec_and_record_episode_statistics_with_a_pool() -> None:
    """gymnasium.make_vec with a pool (next-step autoreset): RecordEpisodeStatistics
    counts the learner's returns and steps as the env's final_return / final_length."""
    gym = pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    first_legal = lambda game: game.legal_actions()[0]  # noqa: E731
    envs = RecordEpisodeStatistics(gym.make_vec("Carcassonne-v0", num_envs=4, opponents=["random", first_legal],
                                                learner_seat=None, reward="score", preset="compact", window=24))
    obs, info = envs.reset(seed=1)
    assert len(info["opponents"]) == 4
    r = np.random.default_rng(2)
    ended = 0
    for _ in range(250):
        ids = np.array([_pick(m, r) if m.any() else 0 for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(ids)
        if "episode" in info:
            done = info["_episode"]
            np.testing.assert_allclose(info["episode"]["r"][done], info["final_return"][done])
            np.testing.assert_array_equal(info["episode"]["l"][done], info["final_length"][done])
            for i in np.flatnonzero(done & terminated):
                assert info["final_return"][i] == info["final_scores"][i][info["learner_seat"][i]]
            ended += int(done.sum())
    assert ended >= 4
