"""Reinforcement-learning front ends: observation presets from Python, opponents (callables,
policies, pools), the OpenSpiel game, the SB3 VecEnv, the RLlib env and a smoke run of
the training example. Tests that need a heavy package (PyTorch, sb3-contrib, Ray RLlib,
OpenSpiel) are skipped when it is absent, except with CARC_RL_REQUIRED=1, where a missing
package fails them (python/build_and_test.sh installs them and sets it)."""

from __future__ import annotations

import csv
import importlib
import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, List

import numpy as np
import pytest

import carcassonne
from carcassonne.game import Game

ROOT = Path(__file__).resolve().parents[2]


def need(module: str) -> Any:
    """``module`` imported; skips the test when it is absent, or fails with
    CARC_RL_REQUIRED=1."""
    if os.environ.get("CARC_RL_REQUIRED") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module)


def run_example(script: str, *args: str, timeout: float) -> "subprocess.CompletedProcess[str]":
    """Runs ``examples/<script>`` with ``args`` in this interpreter; the finished process."""
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        capture_output=True, text=True, timeout=timeout,
    )


# ----- presets ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [
        dict(players=2, sets=["base"]),
        dict(players=3, sets=["base", "princess-and-dragon", "abbey-and-mayor"], figures={"abbot": 1}),
    ],
)
def test_preset_masks_offer_the_same_moves_as_the_full_encoding(config: Any) -> None:
    """At every step of random games, the in-play and compact presets offer as many ids
    as the full encoding, each decoding to a move whose full id is offered; their arrays
    have the sizes encoder_info gives."""
    for preset in ("in-play", "compact"):
        full = Game(seed=5, **config)
        view = Game(seed=5, preset=preset, **config)
        info = view.encoder_info()
        assert info == carcassonne.encoder_info(32, preset, **config)
        assert info["num_actions"] < full.encoder_info()["num_actions"]
        r = np.random.default_rng(0)
        steps = 0
        while not full.is_terminal:
            fo, vo = full.observation(), view.observation()
            assert vo["board"].shape == (info["num_planes"], 32, 32)
            assert vo["globals"].shape == (info["num_globals"],)
            fm, vm = fo["action_mask"], vo["action_mask"]
            assert int(fm.sum()) == int(vm.sum())
            ids = np.flatnonzero(vm)
            # The same decisions (structured actions, or focus tiles of two-step ones)
            # are offered, each by one id.
            offered = {view.decode_flat(int(i)): int(i) for i in ids}
            full_offered = {full.decode_flat(int(j)): int(j) for j in np.flatnonzero(fm)}
            assert None not in offered and len(offered) == len(ids)
            assert offered.keys() == full_offered.keys()
            if len(ids) == 0:
                first = full.legal_actions()[0]
                full.apply(first)
                view.apply(first)
                continue
            i = int(r.choice(ids))
            decided = view.step_flat(i)
            full.step_flat(full_offered[decided])
            assert full.state_hash() == view.state_hash()
            steps += 1
        assert steps > 50
    with pytest.raises(carcassonne.InvalidConfigError, match="preset"):
        Game(preset="tiny")


def test_compact_preset_is_smaller_and_names_its_planes() -> None:
    full = carcassonne.encoder_info(32)
    compact = carcassonne.encoder_info(24, "compact", players=2, sets=["base"])
    assert full["num_planes"] == len(full["plane_names"]) == 125  # docs/observations.md: C = 125
    assert compact["num_planes"] == len(compact["plane_names"]) < 50
    assert "figures.opponents.follower" in compact["plane_names"]
    assert "dragon" not in compact["plane_names"]
    assert [b[0] for b in compact["action_blocks"]] == ["tile", "slot", "pass"]
    assert compact["pass_id"] == compact["num_actions"] - 1 and compact["cell_base"] is None
    env = carcassonne.VectorEnv(2, preset="compact", window=24)
    obs, _ = env.reset()
    assert obs["board"].shape == (2, compact["num_planes"], 24, 24)
    assert obs["action_mask"].shape == (2, compact["num_actions"])


# ----- opponents -------------------------------------------------------------------------


def test_gymnasium_env_plays_callables_policies_and_pools() -> None:
    gym = pytest.importorskip("gymnasium")
    from carcassonne.opponents import OpponentPool, PolicyOpponent, policy

    calls: List[int] = []

    def first_legal(game: Game) -> Any:
        calls.append(1)
        return game.legal_actions()[0]

    def lowest_id(obs: Any) -> int:
        return int(np.flatnonzero(obs["action_mask"])[0])

    class Model:
        """Looks like an SB3 model: predict(obs, action_masks=..., deterministic=...)."""

        def __init__(self) -> None:
            self.seen = 0

        def predict(self, obs: Any, action_masks: Any = None, deterministic: bool = True) -> Any:
            self.seen += 1
            assert action_masks is not None and action_masks.dtype == bool
            return np.array(int(np.flatnonzero(action_masks)[-1])), None

    model = Model()
    pool = OpponentPool(["greedy", first_legal, policy(lowest_id), PolicyOpponent(model)], weights=[1, 1, 1, 1])
    env = gym.make("Carcassonne-v0", players=3, opponents=pool, learner_seat=None, preset="in-play",
                   reward="score-diff")
    seen_opponents = set()
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        seen_opponents.update(info["opponents"])
        assert len(info["opponents"]) == 2
        done = False
        total = 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.any() and (mask == obs["action_mask"].astype(bool)).all()
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
            total += reward
            done = terminated or truncated
        s = info["final_scores"]
        seat = info["learner_seat"]
        assert total == pytest.approx(s[seat] - (sum(s) - s[seat]) / 2)
        assert info["final_return"] == pytest.approx(total)
    assert calls and model.seen > 0
    assert len(seen_opponents) >= 2
    # The same seed and opponents give the same game.
    a = gym.make("Carcassonne-v0", opponents=[first_legal])
    b = gym.make("Carcassonne-v0", opponents=[first_legal])
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    np.testing.assert_array_equal(oa["board"], ob["board"])
    with pytest.raises(carcassonne.InvalidConfigError):
        gym.make("Carcassonne-v0", opponents=[])
    with pytest.raises(carcassonne.InvalidConfigError):
        gym.make("Carcassonne-v0", opponents=3)


def test_python_played_opponents_see_the_same_game_as_native_ones() -> None:
    """With the same seed, the env whose opponents play from Python starts the same game
    as the env whose opponents play natively (seat 0 decides first)."""
    gym = pytest.importorskip("gymnasium")
    from carcassonne.opponents import PlayerOpponent

    native = gym.make("Carcassonne-v0", opponents="random", learner_seat=0)
    python = gym.make("Carcassonne-v0", opponents=PlayerOpponent(lambda g: g.legal_actions()[0]), learner_seat=0)
    on, _ = native.reset(seed=4)
    op, _ = python.reset(seed=4)
    # Seat 0 decides first: nobody has moved, so the first observations are the same.
    np.testing.assert_array_equal(on["board"], op["board"])
    np.testing.assert_array_equal(on["action_mask"], op["action_mask"])


# ----- OpenSpiel ---------------------------------------------------------------------------


def test_openspiel_game_passes_random_simulation_checks() -> None:
    pyspiel = need("pyspiel")
    import carcassonne.openspiel  # noqa: F401

    game = pyspiel.load_game("python_carcassonne")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    three = pyspiel.load_game("python_carcassonne(players=3,sets=base+princess-and-dragon,window=32,preset=in-play)")
    pyspiel.random_sim_test(three, num_sims=1, serialize=False, verbose=False)
    # Observation tensors: the preset's planes then its globals.
    state = game.new_initial_state()
    state.apply_action(outcomes[0][0])
    info = carcassonne.encoder_info(24, "compact", players=2, sets=["base"])
    tensor = np.array(state.observation_tensor(state.current_player()))
    assert tensor.shape == (info["num_planes"] * 24 * 24 + info["num_globals"],)
    assert tensor.any()


def test_openspiel_example_runs() -> None:
    need("pyspiel")
    done = run_example("openspiel_mcts.py", "--games", "1", "--simulations", "2", timeout=600)
    assert done.returncode == 0, done.stderr
    assert "MCTS (2 simulations) against random:" in done.stdout


# ----- PyTorch: SB3 and the training example ------------------------------------------------


def test_sb3_vec_env_trains_maskable_ppo(tmp_path: Path) -> None:
    need("torch")
    need("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.logger import configure

    from carcassonne.sb3 import make_vec_env, policy_kwargs

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. SB3's warning for a VecEnv without render_mode
        env = make_vec_env(4, opponents="random", preset="compact", window=24, seed=1)
    env.reset()
    masks = get_action_masks(env)
    assert masks.shape == (4, env.action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MultiInputPolicy", env, policy_kwargs=policy_kwargs(), n_steps=64, batch_size=64,
                        n_epochs=1, seed=0)
    model.set_logger(configure(str(tmp_path), []))  # SB3 would make a folder in /tmp otherwise
    model.learn(256)
    obs = env.reset()
    episodes = 0
    for _ in range(200):
        actions, _ = model.predict(obs, action_masks=get_action_masks(env))
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            assert set(infos[i]["terminal_observation"]) == {"board", "globals"}
            assert infos[i]["episode"]["l"] > 0
            episodes += 1
    assert episodes > 0


def test_training_example_smoke_run(tmp_path: Path) -> None:
    need("torch")
    done = run_example(
        "train_ppo.py", "--minutes", "0.05", "--envs", "8", "--steps", "16", "--eval-games", "4",
        "--final-games", "4", "--bc-decisions", "64", "--bc-epochs", "1", "--out", str(tmp_path),
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("minutes,env_steps") and len(rows) >= 3
    steps = int(rows[-1].split(",")[1])
    assert steps >= 8 * 16 and steps % (8 * 16) == 0, "whole PPO updates of 8 envs x 16 steps, at least one"
    assert (tmp_path / "policy.pt").stat().st_size > 10_000
    # The saved weights play through Carcassonne-v0.
    done = run_example(
        "train_ppo.py", "--evaluate", str(tmp_path / "policy.pt"), "--final-games", "2", "--opponents", "random",
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "against random over 2 games" in done.stdout


def test_shipped_ppo_weights_evaluate_as_documented() -> None:
    """docs/reinforcement-learning.md's command plays examples/ppo_base_2p.pt: the weights
    still fit the observation layout (two games instead of 400)."""
    need("torch")
    done = run_example(
        "train_ppo.py", "--evaluate", str(ROOT / "examples" / "ppo_base_2p.pt"), "--final-games", "2",
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "against greedy over 2 games" in done.stdout


def test_training_example_minutes_bound_the_whole_run(tmp_path: Path) -> None:
    """``--minutes`` bounds imitation and evaluations too: with far more imitation decisions
    and evaluation games than the time allows, the run still ends within its minutes (plus
    one PPO update of 8 x 16 steps and the interpreter's start)."""
    need("torch")
    import time

    minutes = 0.3
    started = time.monotonic()
    done = run_example(
        "train_ppo.py", "--minutes", str(minutes), "--envs", "8", "--steps", "16", "--eval-games", "100000",
        "--final-games", "100000", "--bc-decisions", "10000000", "--out", str(tmp_path), timeout=900,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "whole run:" in done.stdout
    reported = float(done.stdout.split("whole run:")[1].split()[0])
    assert reported <= minutes + 0.1, done.stdout
    assert elapsed <= 60 * minutes + 45, f"{elapsed:.0f} s for a run of {minutes} minutes"


def load_example(name: str) -> Any:
    """The module ``examples/<name>.py``, imported."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_expert_iteration_smoke_run(tmp_path: Path) -> None:
    """One tiny iteration with playouts, then one guided by the network it trained (its
    search tuned from the command line), of a width and depth other than the default
    (which the evaluation reads from the weights)."""
    torch = need("torch")
    done = run_example("expert_iteration.py", "--smoke", "--width", "16", "--depth", "2", "--out", str(tmp_path),
                       "--margin", "1", "--standing", "0.4", "--standing-end", "0.9", timeout=900)
    assert done.returncode == 0, done.stderr
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,search,games,rows") and len(rows) == 3, rows
    first, second = (r.split(",") for r in rows[1:])
    assert first[1] == "mcts:16" and second[1] == "guided:8 margin=1 standing=0.4 standing_end=0.9", (first, second)
    assert 0 < int(first[3]) < int(second[3]), "rows add up over the iterations"
    assert (tmp_path / "policy.pt").stat().st_size > 10_000
    weights = torch.load(tmp_path / "policy.pt")
    assert weights["inp.weight"].shape[0] == 16 and "convs.1.weight" in weights and "convs.2.weight" not in weights
    # The self-play went into OUT/data, each iteration its own games; the guided games
    # are named by the network's weights (their hash differs from the playout games').
    first_run = check_run_dataset(tmp_path, 2)
    assert [len(g) for g in first_run] == [2, 2]
    assert first_run[0][0].rsplit("-", 1)[1] != first_run[1][0].rsplit("-", 1)[1]
    # The same command again goes on from the checkpoint: two more iterations, after the
    # games already there (none written again), the curve going on.
    done = run_example("expert_iteration.py", "--smoke", "--out", str(tmp_path),
                       "--margin", "1", "--standing", "0.4", "--standing-end", "0.9", timeout=900)
    assert done.returncode == 0, done.stderr
    assert "going on from" in done.stdout and "2 iterations, games 0..3" in done.stdout, done.stdout
    both = check_run_dataset(tmp_path, 4)
    assert both[:2] == first_run and [len(g) for g in both] == [2, 2, 2, 2]
    assert [r.split(",")[0] for r in (tmp_path / "curve.csv").read_text().splitlines()[1:]] == ["0", "1", "2", "3"]
    # --playouts --init: both iterations search with playouts, going on from the weights.
    again = tmp_path / "again"
    done = run_example("expert_iteration.py", "--smoke", "--playouts", "--init", str(tmp_path / "policy.pt"),
                       "--out", str(again), timeout=900)
    assert done.returncode == 0, done.stderr
    searches = [r.split(",")[1] for r in (again / "curve.csv").read_text().splitlines()[1:]]
    assert searches == ["mcts:16", "mcts:16"], searches
    assert torch.load(again / "policy.pt")["inp.weight"].shape[0] == 16, "the width comes from --init's weights"
    done = run_example("expert_iteration.py", "--evaluate", str(tmp_path / "policy.pt"), "--width", "32",
                       "--deals", "1", timeout=600)
    assert done.returncode != 0 and "--width 32: the weights" in done.stderr and "have width 16" in done.stderr
    done = run_example(
        "expert_iteration.py", "--evaluate", str(tmp_path / "policy.pt"), "--player", "search:4",
        "--c", "3", "--batch", "2", "--margin", "1", "--playout", "0.5", "--standing", "0.25", "--standing-end", "0.75",
        "--opponent", "random", "--deals", "1", timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert ("network+search:4,c=3,margin=1,playout=0.5,standing=0.25,standing_end=0.75 against random: 2 games"
            in done.stdout)
    # Refused settings, each with the option it names: out of range, or given to a player
    # without a search.
    search = ("--player", "search:4")
    refused = [
        (search + ("--c", "11"), "--c 11.0: expected a PUCT constant in 0..10"),
        (("--c", "3"), "--c 3.0: only a guided search has it"),
        (search + ("--margin", "1.5"), "--margin 1.5: expected a weight in 0..1"),
        (search + ("--margin", "nan"), "--margin nan: expected a weight in 0..1"),
        (("--margin", "1"), "--margin 1.0: only a guided search has it"),
        (search + ("--playout", "1.5"), "--playout 1.5: expected a weight in 0..1"),
        (("--playout", "0.5"), "--playout 0.5: only a guided search has it"),
        (search + ("--standing", "-1"), "--standing -1.0: expected a weight in 0..1"),
        (("--standing-end", "0.5"), "--standing-end 0.5: only a guided search has it"),
    ]
    for options, error in refused:
        done = run_example("expert_iteration.py", "--evaluate", str(tmp_path / "policy.pt"), *options,
                           "--deals", "1", timeout=600)
        assert done.returncode != 0 and error in done.stderr, (options, done.stderr)
    # Training tunes its guided iterations; with --playouts, or one iteration without
    # --init (its search plays out), there are none. (A run that goes on from a
    # checkpoint has guided iterations: a folder of no run.)
    fresh = tmp_path / "fresh"
    for options in [("--smoke", "--playouts"), ("--iterations", "1")]:
        done = run_example("expert_iteration.py", *options, "--standing", "0.5", "--out", str(fresh), timeout=600)
        assert done.returncode != 0 and "--standing 0.5: only a guided search has it" in done.stderr, done.stderr


@pytest.fixture
def ray_cluster(request: pytest.FixtureRequest) -> Any:
    """The local Ray cluster of two nodes (conftest's ``cluster``), when Ray, pyarrow and
    PyTorch are there (Linux only: its processes are found through /proc)."""
    for module in ("torch", "ray", "pyarrow"):
        need(module)
    if not sys.platform.startswith("linux"):
        pytest.skip("the cluster's processes are found through /proc (Linux only)")
    return request.getfixturevalue("cluster")


def test_expert_iteration_on_a_ray_cluster(ray_cluster: Any, tmp_path: Path) -> None:
    """--ray: each iteration's self-play runs as Ray tasks on the cluster (the guided
    iteration's with the network sent as its weights) into OUT/data, and training
    streams from it; each distributed run's summary is printed, and the run ends with
    what Ray ran again."""
    from conftest import ENV

    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "expert_iteration.py"), "--smoke", "--minutes", "10", "--ray",
         ray_cluster.address, "--out", str(tmp_path)],
        env=ENV, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    runs = check_run_dataset(tmp_path, 2)
    assert [len(g) for g in runs] == [2, 2]
    assert done.stdout.count("2 games written") == 2, done.stdout
    assert done.stdout.count("chunks: 1 submitted, 0 run again by Ray") == 2, done.stdout
    assert "self-play on the cluster: 0 chunks run again by Ray" in done.stdout, done.stdout


def test_network_guided_search_targets_sum_to_one_and_repeat_from_a_seed() -> None:
    torch = need("torch")
    example = load_example("expert_iteration")
    torch.manual_seed(0)
    model = example.make_model(24)
    model.eval()
    game = Game(players=2, sets=["base"], seed=11, preset="compact", window=24)
    for _ in range(9):
        game.apply(game.legal_actions()[0])
    evaluator = example.NetworkEvaluator(model)
    first = carcassonne.search(game, 40, seed=5, evaluator=evaluator, batch=8)
    legal = game.legal_actions()
    assert first.actions == legal and len(legal) > 1
    assert first.shares.shape == (len(legal),) and np.all(first.shares >= 0)
    assert abs(first.shares.sum() - 1.0) < 1e-9
    assert first.visits.sum() == 40
    mask = game.legal_mask()
    assert abs(float(first.policy[mask == 1].sum()) - 1.0) < 1e-5 and not first.policy[mask == 0].any()
    # Batched: the root alone, then up to 8 leaves a call; 41 leaves at most.
    assert evaluator.leaves <= 41 and evaluator.calls < evaluator.leaves
    again = carcassonne.search(game, 40, seed=5, evaluator=example.NetworkEvaluator(model), batch=8)
    assert np.array_equal(first.visits, again.visits) and first.best == again.best
    assert np.allclose(first.values, again.values)


def test_expert_iteration_window_is_the_last_games_of_the_run() -> None:
    """The replay window of the training example: the ids of the last ``--buffer``
    games of the run, across iterations, each with its iteration's hash."""
    need("torch")
    example = load_example("expert_iteration")
    records = [{"first_game": 0, "games": 3, "hash": "aaaa0000"}, {"first_game": 3, "games": 2, "hash": "bbbb1111"}]
    assert example.window_ids(records, 7, 3) == [
        "selfplay-7-4-bbbb1111", "selfplay-7-3-bbbb1111", "selfplay-7-2-aaaa0000"]
    assert len(example.window_ids(records, 7, 100)) == 5
    assert example.next_game(records) == 5 and example.next_game([]) == 0


def test_expert_iteration_minibatches_are_the_loaders_rows_and_targets(tmp_path: Path) -> None:
    """A minibatch of the training example, streamed from a dataset: the planes and
    mask of the self-play rows of the same games, the policy target their visit shares
    (1 over the mask), the value target the mix of outcome and search value."""
    torch = need("torch")
    example = load_example("expert_iteration")
    settings: Any = dict(budget=24, seed=4, window=24, sample_moves=30, players=2, sets=["base"])
    rows = carcassonne.selfplay.generate(3, **settings)
    carcassonne.selfplay.generate(3, out=tmp_path, **settings)
    from carcassonne import data

    batch = next(iter(data.batches(tmp_path, 10_000, shuffle=False)))
    got = example.minibatch(batch, 0.25)
    assert all(torch.is_tensor(t) for t in got.values())
    assert np.array_equal(got["board"].numpy(), rows.board)
    assert np.array_equal(got["mask"].numpy(), rows.action_mask)
    assert np.array_equal(got["policy"].numpy(), rows.policy)
    assert np.allclose(got["policy"].numpy().sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(got["value"].numpy(), 0.75 * rows.outcome + 0.25 * rows.search_value)


def dataset_game_ids(path: Path) -> List[str]:
    """The game ids of the dataset ``path``, read with pyarrow from its ``games`` files."""
    pq = need("pyarrow.parquet")
    ids: List[str] = []
    for part in sorted((path / "games").glob("part-*.parquet")):
        ids += pq.read_table(part, columns=["game_id"]).column("game_id").to_pylist()
    return ids


def check_run_dataset(out: Path, iterations: int) -> List[List[str]]:
    """The dataset of an expert-iteration run in ``out``: each iteration of its curve
    wrote its games ``first_game ..`` under one hash of its own, no id twice; the ids of
    each iteration's games."""
    ids = dataset_game_ids(out / "data")
    assert len(ids) == len(set(ids)), "a game id written twice"
    rows = list(csv.DictReader((out / "curve.csv").open()))
    assert len(rows) == iterations, rows
    by_number = {int(i.split("-")[2]): i for i in ids}
    assert len(by_number) == len(ids), "a game number written twice"
    per_iteration = []
    first = 0
    for row in rows:
        assert int(row["first_game"]) == first, "each iteration plays the games after the last one's"
        games = [by_number[n] for n in range(first, first + int(row["games"]))]
        assert len({g.rsplit("-", 1)[1] for g in games}) == 1, "one hash an iteration"
        per_iteration.append(games)
        first += int(row["games"])
    assert sorted(by_number) == list(range(first)), "the dataset holds the games of the curve, no other"
    return per_iteration


def test_value_refinement_changes_the_value_head_alone(tmp_path: Path) -> None:
    """examples/train_value.py trains the value head on its self-play outcomes and leaves
    every other weight as it was: the arg-max policy is that of --init."""
    torch = need("torch")
    init = ROOT / "examples" / "expert_iteration_base_2p.pt"
    done = run_example("train_value.py", "--smoke", "--init", str(init), "--out", str(tmp_path), timeout=600)
    assert done.returncode == 0, done.stderr
    assert "self-play: 8 games" in done.stdout and "pass 1: training cross-entropy" in done.stdout, done.stdout
    before, after = torch.load(init), torch.load(tmp_path / "policy.pt")
    assert before.keys() == after.keys()
    changed = {name for name in before if not torch.equal(before[name], after[name])}
    assert changed and all(name.startswith("value_head.") for name in changed), changed
    done = run_example("train_value.py", "--smoke", "--keep", "1.5", "--out", str(tmp_path), timeout=600)
    assert done.returncode != 0 and "--keep 1.5: expected a share in 0..1" in done.stderr


def test_value_targets_are_the_rewards_the_search_backs_up() -> None:
    """train_value.py's targets are on the scale of the guided search's finished games: the
    outcome with margin 0, the smooth margin with margin 1 (B17), at the last tile where
    every action ends the game."""
    need("torch")
    value_target = load_example("train_value").value_target
    game = Game(players=2, sets=["base"], seed=3)
    probe, decisions = game.clone(), 0
    while not probe.is_terminal:
        probe.apply(probe.legal_actions()[0])
        decisions += 1
    for _ in range(decisions - 1):
        game.apply(game.legal_actions()[0])
    seat = game.to_play
    for target, margin_weight in (("outcome", 0.0), ("margin", 1.0)):
        result = carcassonne.search(game, 60, seed=2, margin=margin_weight)
        tried = np.flatnonzero(~np.isnan(result.mean_rewards))
        assert len(tried) >= 10
        for k in tried:
            after = game.clone()
            after.apply(result.actions[k])
            assert after.is_terminal
            margin = after.scores[seat] - after.scores[1 - seat]
            assert abs(result.mean_rewards[k] - value_target(margin, target)) < 1e-6, (target, margin)


def test_shipped_expert_iteration_weights_play_a_game() -> None:
    """The weights in examples/ still fit the observation layout: they load and play."""
    torch = need("torch")
    example = load_example("expert_iteration")
    model = example.make_model(24)
    model.load_state_dict(torch.load(ROOT / "examples" / "expert_iteration_base_2p.pt"))
    model.eval()
    play = example.argmax_player(model)
    game = Game(players=2, sets=["base"], seed=3, preset="compact", window=24)
    while not game.is_terminal:
        action = play(game)
        assert game.is_legal(action)
        game.apply(action)
    assert sum(game.scores) > 0


# ----- Ray RLlib ------------------------------------------------------------------------------


def test_rllib_env_and_a_few_training_iterations() -> None:
    need("torch")
    need("ray.rllib")
    from carcassonne.rllib import CarcassonneMultiAgentEnv

    env = CarcassonneMultiAgentEnv({"players": 2, "window": 16, "preset": "compact"})
    obs, infos = env.reset(seed=0)
    assert list(obs) == [env.agents[0]] or len(obs) == 1
    # An id the mask does not offer (RLlib's env check steps random ids): penalized, the
    # same agent decides again on the same observation.
    agent = next(iter(obs))
    bad = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    again, rewards, terminateds, _, infos = env.step({agent: bad})
    assert list(again) == [agent] and rewards[agent] == -1.0 and infos[agent]["illegal_action"]
    np.testing.assert_array_equal(again[agent]["observations"], obs[agent]["observations"])
    assert not terminateds["__all__"]
    strict = CarcassonneMultiAgentEnv({"players": 2, "window": 16, "illegal_action": "raise"})
    first, _ = strict.reset(seed=0)
    with pytest.raises(carcassonne.IllegalActionError):
        strict.step({agent: bad})
    with pytest.raises(carcassonne.InvalidArgumentError):
        strict.step({agent: 1.5})
    steps = 0
    while True:
        agent = next(iter(obs))
        mask = obs[agent]["action_mask"]
        obs, rewards, terminateds, truncateds, infos = env.step({agent: int(np.flatnonzero(mask)[0])})
        steps += 1
        if terminateds["__all__"] or truncateds["__all__"]:
            break
    assert steps > 20
    done = run_example("rllib_ppo.py", "--iterations", "2", "--env-runners", "1", "--window", "16", timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "iteration 2" in done.stdout


def test_exported_network_in_rust_takes_the_pytorch_arg_max(tmp_path: Path) -> None:
    """``expert_iteration.py --export`` writes a small randomly initialised network as
    ONNX; the Rust player ``net:FILE`` picks the action with the highest masked logit
    of the PyTorch model on every position of random and self-play games (two logits
    within 1e-4 of each other count as a tie, either of them accepted)."""
    torch = need("torch")
    need("onnx")
    example = load_example("expert_iteration")
    torch.manual_seed(11)
    model = example.make_model(24, width=8, depth=1)
    weights, path = tmp_path / "small.pt", tmp_path / "small.onnx"
    torch.save(model.state_dict(), weights)
    done = run_example("expert_iteration.py", "--init", str(weights), "--export", str(path), timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{path}: " in done.stdout
    model.eval()
    spec = f"net:{path}"
    assert carcassonne.BuiltinPlayer(spec).spec == spec
    positions = 0
    for seed in range(4):
        game = Game(players=2, sets=["base"], seed=seed, preset="compact", window=24)
        rng = np.random.default_rng(seed)
        while not game.is_terminal and positions < 100 * (seed + 1):
            ours = game.builtin_action(spec)
            mask = game.legal_mask()
            if mask.any():
                obs = game.observation()
                with torch.no_grad():
                    logits, _ = model(torch.from_numpy(obs["board"][None]), torch.from_numpy(obs["globals"][None]))
                row = logits[0].numpy()
                best = row[mask == 1].max()
                ties = [game.flat_to_action(int(i)) for i in np.flatnonzero((mask == 1) & (row >= best - 1e-4))]
                assert ours in ties, (seed, positions, ours, ties)
                positions += 1
            # Even seeds: random games; odd seeds: the network plays itself.
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))] if seed % 2 == 0 else ours)
    assert positions >= 300, positions
    with pytest.raises(carcassonne.InvalidConfigError, match="made for 2 players, this game has 3"):
        carcassonne.match([spec, "random", "random"], games=1, players=3)
