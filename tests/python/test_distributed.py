"""carcassonne.distributed on a real Ray cluster of this machine: a head node and a
second node joining it (``ray start``, each its own processes with one CPU, loopback
only). Self-play written by Ray tasks, with one worker killed (SIGKILL) while it plays
a chunk, gives the dataset the single-process writer gives for the same seed and games
(every table, by game id and row content), no game id twice, and a summary naming the
chunk Ray ran again; a rerun plays nothing; an interrupted run's staged parts are
adopted and its leftovers removed; a match split into tasks merges into the result of
``carcassonne.match`` over the whole range (B17: a shared win counts 1/k). The cluster's
processes are stopped by their ids when the tests end. Needs Ray and pyarrow (skipped
without them)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List

import pytest

import carcassonne
from carcassonne import data

ray = pytest.importorskip("ray", reason='Ray is not installed (pip install "./python[ray]")')
pa = pytest.importorskip("pyarrow", reason='pyarrow is not installed (pip install "./python[ray]")')
distributed = pytest.importorskip("carcassonne.distributed")

from conftest import ENV, Cluster  # noqa: E402  (the cluster fixture is conftest's)

if not sys.platform.startswith("linux"):
    pytest.skip("the cluster's processes are found through /proc (Linux only)", allow_module_level=True)

SEED = 11
GAMES = 24
SMALL: Dict[str, Any] = dict(budget=6, window=16, sample_moves=8)


def by_game(table: Any) -> Dict[str, List[Dict[str, Any]]]:
    """A table's rows grouped by game id, in their order within the game."""
    out: Dict[str, List[Dict[str, Any]]] = {}
    for row in table.to_pylist():
        out.setdefault(row["game_id"], []).append(row)
    return out


def assert_same_dataset(got: Path, want: Path) -> None:
    a, b = data.open(got), data.open(want)
    assert a.skipped == [] and b.skipped == []
    ids = a.games.column("game_id").to_pylist()
    assert len(ids) == len(set(ids)), "a game id appears twice"
    for table in data.TABLES:
        assert by_game(a.table(table)) == by_game(b.table(table)), table


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "carcassonne.distributed", *args], env=ENV, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Games 0 .. GAMES of SEED written by the single-process writer."""
    path = tmp_path_factory.mktemp("reference")
    data.write_selfplay(path, GAMES, seed=SEED, part_games=7, **SMALL)
    return path


def test_selfplay_with_a_worker_killed_equals_the_single_process_run(cluster: Cluster, reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    args = ["selfplay", "--address", cluster.address, "--out", str(out), "--games", str(GAMES), "--seed", str(SEED),
            "--budget", "6", "--window", "16", "--sample-moves", "8", "--chunk-games", "3"]
    killed: List[int] = []

    def kill_one() -> None:
        # A worker is killed once it is playing its chunk: its process runs the task and
        # has written its line (host and process id) into the chunk's attempts file.
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline:
            running = set(cluster.workers("selfplay_chunk"))
            for attempts in (out / distributed.STAGING).glob("*/attempts"):
                try:
                    pids = {int(line.split()[1]) for line in attempts.read_text().splitlines()}
                except (OSError, IndexError, ValueError):
                    continue
                for pid in pids & running:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one)
    killer.start()
    done = run_cli(*args)
    killer.join()
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(killed) == 1, "no worker was seen running a chunk"
    # The chunk whose worker died was run again by Ray, and the summary says so.
    assert "1 run again by Ray" in done.stdout, done.stdout
    assert f"{GAMES} games written" in done.stdout, done.stdout
    assert_same_dataset(out, reference)
    # Readers see the tables only: the staging folder is hidden and empty but for its lock.
    assert sorted(os.listdir(out / distributed.STAGING)) == ["lock"]
    # The same command again plays nothing and writes nothing.
    again = run_cli(*args)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 games written" in again.stdout and f"already present: {GAMES} games" in again.stdout, again.stdout
    assert_same_dataset(out, reference)
    # Another budget with the same seed is other games (their ids hash the settings):
    # written beside the others, and not again on a rerun.
    other = list(args)
    other[other.index("--budget") + 1] = "7"
    other[other.index("--games") + 1] = "3"
    for written, present in ((3, 0), (0, 3)):
        run = run_cli(*other)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"{written} games written" in run.stdout and f"already present: {present} games" in run.stdout, run.stdout
    assert data.open(out).games.num_rows == GAMES + 3


def test_an_interrupted_runs_staged_parts_are_adopted_and_its_leftovers_removed(reference: Path, tmp_path: Path) -> None:
    # An earlier run stopped with games 0..11 staged whole, games 12..23 half written,
    # and an orphan part file in a table (its games file never renamed into place).
    staging = tmp_path / distributed.STAGING
    hash = data.write_selfplay(staging / f"{SEED}-0-11", 12, seed=SEED, part_games=12, **SMALL)["hash"]
    data.write_selfplay(staging / f"{SEED}-12-23", 4, seed=SEED, first_game=12, part_games=4, **SMALL)
    os.remove(staging / f"{SEED}-12-23" / "decisions" / "part-00000.parquet")
    (tmp_path / "turns").mkdir(parents=True)
    (tmp_path / "turns" / "part-00000.parquet").write_bytes(b"half a file")
    # The games staged whole are adopted without a cluster; then the rest are played.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summary = distributed.selfplay(tmp_path, 12, seed=SEED, **SMALL)
    assert (summary.recovered, summary.written, summary.present, summary.chunks) == (12, 0, 0, 0)
    assert sorted(os.listdir(staging)) == ["lock"]
    ds = data.open(tmp_path)
    assert sorted(ds.games.column("game_id").to_pylist()) == sorted(f"selfplay-{SEED}-{n}-{hash}" for n in range(12))


def test_bad_arguments_name_the_argument(tmp_path: Path) -> None:
    with pytest.raises(carcassonne.InvalidArgumentError, match="chunk_games: 0 is out of range"):
        distributed.selfplay(tmp_path, 4, chunk_games=0)
    with pytest.raises(carcassonne.InvalidArgumentError, match="games: expected an integer"):
        distributed.selfplay(tmp_path, "4")  # type: ignore[arg-type]
    with pytest.raises(carcassonne.InvalidArgumentError, match="num_cpus: 0 is out of range"):
        distributed.match(["random", "greedy"], 4, num_cpus=0)
    # Game settings are checked by the native writer before any task (B1: 2 to 6 players).
    with pytest.raises(carcassonne.InvalidConfigError, match="players: 9 players"):
        distributed.selfplay(tmp_path, 4, players=9)
    assert not ray.is_initialized()


def test_a_second_run_on_the_same_directory_is_refused(tmp_path: Path) -> None:
    lock = distributed._Lock(str(tmp_path / distributed.STAGING), str(tmp_path))
    try:
        with pytest.raises(distributed.DistributedError, match="another distributed run is writing"):
            distributed.selfplay(tmp_path, 2, seed=SEED, **SMALL)
    finally:
        lock.release()


def _rows(result: Any, rows: slice) -> Any:
    """The games ``rows`` of a match result, as a task playing only those would return them."""
    return carcassonne.MatchResult(
        players=[], game=result.game[rows], seeds=result.seeds[rows], seating=result.seating[rows], scores=result.scores[rows],
        decisions=result.decisions[rows], think_seconds=result.think_seconds[rows], elapsed=0.0, text="",
    )


def assert_same_statistics(got: Any, want: Any) -> None:
    for name in ("game", "seeds", "seating", "scores", "decisions"):
        assert getattr(got, name).tolist() == getattr(want, name).tolist(), name
    assert len(got.players) == len(want.players)
    for a, b in zip(got.players, want.players):
        assert (a.spec, a.games, a.wins, a.win_rate, a.interval, a.mean_score, a.mean_margin, a.seat_games, a.seat_wins) == (
            b.spec, b.games, b.wins, b.win_rate, b.interval, b.mean_score, b.mean_margin, b.seat_games, b.seat_wins)


def test_merged_ranges_give_the_statistics_of_the_whole_match() -> None:
    # B17: a win shared by k seats counts 1/k; the merge sums wins, scores and margins
    # game by game as carcassonne.match does, so every figure is equal, not just close.
    whole = carcassonne.match(["greedy", "random", "random"], 14, seed=2)
    assert any(list(row).count(max(row)) > 1 for row in whole.scores.tolist()), "a game with a shared win"
    merged = distributed.merge_results([p.spec for p in whole.players],
                                       [_rows(whole, slice(0, 5)), _rows(whole, slice(5, 6)), _rows(whole, slice(6, 14))],
                                       elapsed=whole.elapsed)
    assert_same_statistics(merged, whole)
    for a, b in zip(merged.players, whole.players):
        assert a.ms_per_decision == pytest.approx(b.ms_per_decision, rel=1e-9)
    # The summary table is the one carcassonne.match prints.
    assert merged.text == whole.text


def test_readers_and_the_native_writer_do_not_see_the_staging_folder(tmp_path: Path) -> None:
    # A chunk staged whole, not yet adopted: carcassonne.data.open (pyarrow) and the Rust
    # reader, through which the native writer reads the ids present, list DIR/<table>/ only.
    data.write_selfplay(tmp_path / distributed.STAGING / f"{SEED}-0-1", 2, seed=SEED, **SMALL)
    assert data.open(tmp_path / distributed.STAGING / f"{SEED}-0-1").games.num_rows == 2
    done = data.write_selfplay(tmp_path, 1, seed=SEED, first_game=1, **SMALL)
    assert (done["written"], done["present"]) == (1, 0)
    assert data.open(tmp_path).games.column("game_id").to_pylist() == [f"selfplay-{SEED}-1-{done['hash']}"]


MATCH = ["greedy", "random", "random"]

DRIVER = """
import json, sys
import ray
from carcassonne import distributed
ray.init(address=sys.argv[1], log_to_driver=False)
r = distributed.match(%r, int(sys.argv[3]), seed=2, chunk_games=4, out=sys.argv[2])
print(json.dumps({"written": r.written, "present": r.present, "game": r.game.tolist(), "seeds": r.seeds.tolist(), "seating": r.seating.tolist(),
                  "scores": r.scores.tolist(), "decisions": r.decisions.tolist(), "text": r.text,
                  "players": [[p.spec, p.games, p.wins, p.win_rate, list(p.interval), p.mean_score, p.mean_margin,
                               p.seat_games, p.seat_wins] for p in r.players]}))
""" % (MATCH,)


def without_times(text: str) -> List[str]:
    """The summary table without its last column (milliseconds a decision)."""
    return [line.rsplit(None, 1)[0] if line and line[-1].isdigit() and "seat" not in line else line
            for line in text.splitlines()]


def test_a_match_on_the_cluster_equals_the_whole_match(cluster: Cluster, tmp_path: Path) -> None:
    # Four tasks of at most 4 games; game g dealt and seated as game g of the whole
    # match, so every game, every statistic (B17: a shared win counts 1/k) and the table
    # but for its times equal carcassonne.match over the 15 games, and the games written
    # are those carcassonne.match writes.
    whole = carcassonne.match(MATCH, 15, seed=2, out=tmp_path / "reference")
    out = tmp_path / "ds"

    def drive(games: int) -> Dict[str, Any]:
        done = subprocess.run([sys.executable, "-c", DRIVER, cluster.address, str(out), str(games)], env=ENV,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        result: Dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    got = drive(15)
    assert (got["written"], got["present"]) == (15, 0)
    assert_same_dataset(out, tmp_path / "reference")
    # Again: as carcassonne.match(out=) does, no game present is played again; the
    # result covers the games played (none here).
    again = drive(15)
    assert (again["written"], again["present"], again["game"], again["scores"]) == (0, 15, [], [])
    assert [p[1] for p in again["players"]] == [0, 0, 0]
    assert_same_dataset(out, tmp_path / "reference")
    for name in ("game", "seeds", "seating", "scores", "decisions"):
        assert got[name] == getattr(whole, name).tolist(), name
    assert got["players"] == [[p.spec, p.games, p.wins, p.win_rate, list(p.interval), p.mean_score, p.mean_margin,
                               p.seat_games, p.seat_wins] for p in whole.players]
    assert without_times(got["text"]) == without_times(whole.text)
    # A longer range over the same directory plays only the games not there (15 to 19),
    # and the result is that of carcassonne.match over them.
    more = drive(20)
    rest = carcassonne.match(MATCH, 5, seed=2, first_game=15, out=tmp_path / "reference")
    assert (more["written"], more["present"], rest.written, rest.present) == (5, 15, 5, 0)
    for name in ("game", "seeds", "seating", "scores", "decisions"):
        assert more[name] == getattr(rest, name).tolist(), name
    assert more["players"] == [[p.spec, p.games, p.wins, p.win_rate, list(p.interval), p.mean_score, p.mean_margin,
                                p.seat_games, p.seat_wins] for p in rest.players]
    assert_same_dataset(out, tmp_path / "reference")
    # The command line prints the same table.
    cli = run_cli("match", "--address", cluster.address, "--games", "15", "--seed", "2", "--chunk-games", "4", *MATCH)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    table = [line for line in cli.stdout.splitlines() if not line.startswith(("\x1b", "("))]
    assert without_times("\n".join(table[: len(whole.text.splitlines())])) == without_times(whole.text)


def test_a_match_of_the_learned_player_on_the_cluster_equals_the_whole_match(cluster: Cluster) -> None:
    # The shipped network (`net`, run in Rust on the workers)
    # against greedy: the command line on the cluster, in chunks of 2 games, prints the table
    # carcassonne.match prints for the same 4 games (the network is deterministic, so the
    # games are the same wherever they run).
    players = ["net", "greedy"]
    whole = carcassonne.match(players, 4, seed=5)
    cli = run_cli("match", "--address", cluster.address, "--games", "4", "--seed", "5", "--chunk-games", "2",
                  *players)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    table = [line for line in cli.stdout.splitlines() if not line.startswith(("\x1b", "("))]
    assert without_times("\n".join(table[: len(whole.text.splitlines())])) == without_times(whole.text)


#: An evaluator of numpy alone, defined in the driver's ``__main__`` (so Ray pickles it
#: by value): priors uniform over the mask, the value a squashed mean of the globals.
GUIDE = """
import numpy as np


class Guide:
    def __call__(self, batch):
        mask = batch["action_mask"].astype(np.float32)
        priors = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1.0)
        value = 1.0 / (1.0 + np.exp(-batch["globals"].astype(np.float64).mean(axis=1)))
        return priors, value.astype(np.float32)
"""
GUIDED: Dict[str, Any] = dict(players=2, budget=6, window=16, sample_moves=8, batch=4, seat_name="test:guide")
GUIDED_DRIVER = GUIDE + """
import json, sys
import ray
from carcassonne import distributed
ray.init(address=sys.argv[1], log_to_driver=False)
s = distributed.selfplay(sys.argv[2], 6, seed=%d, evaluator=Guide(), chunk_games=2, **%r)
print(s)
print(json.dumps({"written": s.written, "chunks": s.chunks, "hash": s.hash}))
""" % (SEED, GUIDED)


def test_guided_selfplay_on_the_cluster_equals_the_single_process_run(cluster: Cluster, tmp_path: Path) -> None:
    """Self-play guided by an evaluator: the tasks get the evaluator (pickled once by
    Ray) and write the dataset the single-process writer writes with the same evaluator,
    seat name and seed; the summary gives the hash of the games' ids."""
    namespace: Dict[str, Any] = {}
    exec(GUIDE, namespace)
    want = tmp_path / "want"
    reference = carcassonne.selfplay.generate(6, seed=SEED, out=want, evaluator=namespace["Guide"](), part_games=6,
                                              **GUIDED)
    out = tmp_path / "ds"
    done = subprocess.run([sys.executable, "-c", GUIDED_DRIVER, cluster.address, str(out)], env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == {"written": 6, "chunks": 3, "hash": reference["hash"]}, done.stdout
    assert_same_dataset(out, want)
    # The guided games are other games than the playout search's of the same budget.
    playouts = data.write_selfplay(tmp_path / "playouts", 0, seed=SEED, budget=6, window=16, sample_moves=8)
    assert playouts["hash"] != reference["hash"]


def test_without_ray_the_import_error_names_the_extra() -> None:
    code = "import sys; sys.modules['ray'] = None\ntry:\n    import carcassonne.distributed\nexcept ImportError as e:\n    print(e)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert 'pip install "carcassonne[ray]"' in done.stdout and "./python[ray]" in done.stdout, done.stdout + done.stderr
