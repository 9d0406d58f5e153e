"""carcassonne.data: self-play written as a dataset of Parquet tables and read back as
pyarrow tables: every record rebuilds its game with the final scores of its games row
(B17: ranks by the most points, ties share), every decision's targets sum to 1, a rerun
writes no game twice, a corrupt file is named (or skipped and reported), another schema
version is refused; carcassonne.match(out=) writes the games it reports, first_game
plays the games of the whole match; selfplay.generate(out=) writes the rows generate()
returns, with playouts and with a numpy evaluator. Needs pyarrow (skipped without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import carcassonne
from carcassonne import data, selfplay

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SMALL = dict(budget=6, window=16, sample_moves=8)


def write(path: Path, games: int, part_games: int = 1) -> Dict[str, int]:
    return data.write_selfplay(path, games, seed=4, threads=2, part_games=part_games, **SMALL)  # type: ignore[arg-type]


def test_selfplay_reads_back_as_tables_and_replays(tmp_path: Path) -> None:
    done = write(tmp_path, 2)
    assert done["written"] == 2 and done["present"] == 0 and done["decisions"] > 100
    ds = data.open(tmp_path)
    assert ds.skipped == []
    assert sorted(ds.games.column("game_id").to_pylist()) == ["selfplay-4-0", "selfplay-4-1"]
    assert ds.decisions.num_rows == done["decisions"]
    finals = dict(zip(ds.games.column("game_id").to_pylist(), ds.games.column("final_scores").to_pylist()))
    ranks = dict(zip(ds.games.column("game_id").to_pylist(), ds.games.column("ranks").to_pylist()))
    for game_id, text in zip(ds.records.column("game_id").to_pylist(), ds.records.column("record").to_pylist()):
        game = carcassonne.Game.from_record(text)
        assert game.is_terminal
        assert list(game.scores) == finals[game_id]
        scores = finals[game_id]
        assert ranks[game_id] == [1 + sum(t > s for t in scores) for s in scores]
    for targets in ds.decisions.column("targets").to_pylist():
        assert abs(sum(t["share"] for t in targets) - 1.0) < 1e-4
    assert ds.decisions.schema.metadata[b"carcassonne.dataset.version"] == b"1"


def test_a_rerun_writes_no_game_twice(tmp_path: Path) -> None:
    write(tmp_path, 1)
    again = write(tmp_path, 2)
    assert (again["written"], again["present"]) == (1, 1)
    ids = data.open(tmp_path).games.column("game_id").to_pylist()
    assert sorted(ids) == ["selfplay-4-0", "selfplay-4-1"]


def test_first_game_writes_the_same_game_as_a_run_from_zero(tmp_path: Path) -> None:
    # Game n is dealt and searched from the seed and n only, so a run of games 2..3
    # writes game 2 exactly as a run of games 0..3 does.
    write(tmp_path / "all", 3)
    data.write_selfplay(tmp_path / "late", 1, seed=4, first_game=2, **SMALL)  # type: ignore[arg-type]
    late = data.open(tmp_path / "late")
    assert late.games.column("game_id").to_pylist() == ["selfplay-4-2"]
    whole = data.open(tmp_path / "all")
    records = dict(zip(whole.records.column("game_id").to_pylist(), whole.records.column("record").to_pylist()))
    assert late.records.column("record").to_pylist() == [records["selfplay-4-2"]]
    with pytest.raises(ValueError, match="first_game"):
        data.write_selfplay(tmp_path / "late", 1, first_game=-1)


def test_a_corrupt_file_is_named_or_skipped(tmp_path: Path) -> None:
    write(tmp_path, 2)
    bad = tmp_path / "decisions" / "part-00001.parquet"
    bad.write_bytes(bad.read_bytes()[:100])
    with pytest.raises(data.DatasetError, match="part-00001.parquet"):
        data.open(tmp_path)
    ds = data.open(tmp_path, skip_bad=True)
    assert len(ds.skipped) == 1 and "part-00001.parquet" in ds.skipped[0]
    assert set(ds.decisions.column("game_id").to_pylist()) == {"selfplay-4-0"}


def test_another_schema_version_is_refused(tmp_path: Path) -> None:
    write(tmp_path, 1)
    games = pq.read_table(tmp_path / "games" / "part-00000.parquet")
    meta = dict(games.schema.metadata)
    meta[b"carcassonne.dataset.version"] = b"2"
    pq.write_table(games.replace_schema_metadata(meta), tmp_path / "games" / "part-00001.parquet")
    with pytest.raises(data.DatasetError, match="schema version '2'"):
        data.open(tmp_path)
    assert issubclass(data.DatasetError, ValueError)


def test_bad_arguments_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="threads"):
        data.write_selfplay(tmp_path, 1, threads=0)
    with pytest.raises(ValueError, match="part_games"):
        data.write_selfplay(tmp_path, 1, part_games=0)
    with pytest.raises(data.DatasetError, match="is .* a dataset"):
        data.open(tmp_path / "nothing")


def test_match_out_writes_the_games_it_reports(tmp_path: Path) -> None:
    # Every game of the match is written with its players per seat; each record
    # replays to the scores the match reported; ranks by the most points (B17).
    result = carcassonne.match(["greedy", "random"], 3, seed=5, out=tmp_path, part_games=2)
    assert (result.written, result.present) == (3, 0)
    assert list(result.game) == [0, 1, 2]
    ds = data.open(tmp_path)
    rows = {r["game_id"]: r for r in ds.games.to_pylist()}
    records = dict(zip(ds.records.column("game_id").to_pylist(), ds.records.column("record").to_pylist()))
    assert len(rows) == 3 and ds.decisions.num_rows == 0
    by_seed_and_seats = {}
    for game_id, row in rows.items():
        assert game_id.startswith("match-5-")
        game = carcassonne.Game.from_record(records[game_id])
        assert list(game.scores) == row["final_scores"]
        s = row["final_scores"]
        assert row["ranks"] == [1 + sum(t > x for t in s) for x in s]
        by_seed_and_seats[(row["seed"], tuple(row["seats"]))] = s
    for g in range(3):
        seats = ("greedy", "random") if g % 2 == 0 else ("random", "greedy")
        assert by_seed_and_seats[(5 + g // 2, seats)] == list(result.scores[g])
    # Again: nothing played, nothing written twice.
    again = carcassonne.match(["greedy", "random"], 3, seed=5, out=tmp_path)
    assert (again.written, again.present) == (0, 3) and len(again.game) == 0
    assert data.open(tmp_path).games.num_rows == 3


def test_match_first_game_plays_the_games_of_the_whole_match(tmp_path: Path) -> None:
    whole = carcassonne.match(["greedy", "random"], 4, seed=2)
    tail = carcassonne.match(["greedy", "random"], 3, seed=2, first_game=1, out=tmp_path)
    assert list(tail.game) == [1, 2, 3]
    assert (tail.seeds == whole.seeds[1:]).all()
    assert (tail.seating == whole.seating[1:]).all()
    assert (tail.scores == whole.scores[1:]).all()
    assert whole.written is None
    with pytest.raises(ValueError, match="first_game"):
        carcassonne.match(["greedy", "random"], 1, first_game=-1)
    with pytest.raises(ValueError, match="part_games"):
        carcassonne.match(["greedy", "random"], 1, out=tmp_path, part_games=0)


def tiny_evaluator(batch: Dict[str, Any]) -> Tuple[Any, Any]:
    """Priors that prefer some ids over others, a value from the globals."""
    mask = batch["action_mask"].astype(np.float32)
    ids = np.arange(mask.shape[1], dtype=np.float32)
    priors = mask * (1.0 + (ids % 7.0))
    value = 0.5 + 0.1 * np.tanh(batch["globals"].sum(axis=1))
    return priors, value.astype(np.float32)


def decisions_by_game(ds: Any) -> Dict[str, List[Dict[str, Any]]]:
    out: Dict[str, List[Dict[str, Any]]] = {}
    for row in sorted(ds.decisions.to_pylist(), key=lambda r: (r["game_id"], r["index"])):
        out.setdefault(row["game_id"], []).append(row)
    return out


@pytest.mark.parametrize("guided", [False, True])
def test_generate_out_writes_the_rows_generate_returns(tmp_path: Path, guided: bool) -> None:
    # The full preset: the rows' ids are the dataset's full flat ids.
    settings: Dict[str, Any] = dict(SMALL, seed=6, first_game=1, threads=2, preset="full")
    if guided:
        settings["evaluator"] = tiny_evaluator
    rows = selfplay.generate(2, **settings)
    done = selfplay.generate(2, out=tmp_path, part_games=1, **settings)
    assert done == {"written": 2, "present": 0, "decisions": len(rows)}
    ds = data.open(tmp_path)
    games = {r["game_id"]: r for r in ds.games.to_pylist()}
    assert sorted(games) == ["selfplay-6-1", "selfplay-6-2"]
    seat = "guided:6" if guided else "mcts:6"
    assert all(g["seats"] == [seat, seat] for g in games.values())
    written = decisions_by_game(ds)
    for g in range(2):
        game_id = f"selfplay-6-{1 + g}"
        assert games[game_id]["seed"] == int(rows.seeds[g])
        assert games[game_id]["final_scores"] == list(rows.scores[g])
        ks = np.flatnonzero(rows.game == g)
        assert len(written[game_id]) == len(ks) == games[game_id]["decisions"]
        for k, d in zip(ks, written[game_id]):
            policy, mask = rows.policy[k], rows.action_mask[k]
            ids = np.flatnonzero(policy > 0)
            assert [t["id"] for t in d["targets"]] == list(ids)
            assert [t["share"] for t in d["targets"]] == [float(x) for x in policy[ids]]
            assert d["legal"] == int(mask.sum())
            assert d["chosen"] is not None and mask[d["chosen"]] == 1
            assert d["player"] == rows.player[k]
            assert d["values"][d["player"]] == pytest.approx(float(rows.search_value[k]))
            assert (d["outcome"], d["margin"]) == (pytest.approx(float(rows.outcome[k])), rows.margin[k])
    # Again, with the first game added: only it is played.
    again = selfplay.generate(3, out=tmp_path, **dict(settings, first_game=0))
    assert (again["written"], again["present"]) == (1, 2)
    assert data.open(tmp_path).games.num_rows == 3


def test_generate_out_names_a_network_seat_and_refuses_bad_names(tmp_path: Path) -> None:
    name = "net:" + "ab" * 32
    selfplay.generate(1, out=tmp_path, evaluator=tiny_evaluator, seat_name=name, **SMALL)
    assert data.open(tmp_path).games.column("seats").to_pylist() == [[name, name]]
    with pytest.raises(ValueError, match="seat_name: only with out and an evaluator"):
        selfplay.generate(1, out=tmp_path, seat_name="x", **SMALL)
    with pytest.raises(ValueError, match="seat_name: 257 bytes; expected 1 to 256"):
        selfplay.generate(1, out=tmp_path, evaluator=tiny_evaluator, seat_name="x" * 257)
    with pytest.raises(ValueError, match="seat_name: the control character"):
        selfplay.generate(1, out=tmp_path, evaluator=tiny_evaluator, seat_name="a\nb")
    with pytest.raises(ValueError, match="part_games: only with out"):
        selfplay.generate(1, part_games=4)
