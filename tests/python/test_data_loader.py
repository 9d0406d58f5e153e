"""carcassonne.data batches: the training loader replays each game of a dataset and
encodes its decisions natively. Every row equals the row carcassonne.selfplay.generate
makes for the same games (same seed and settings), byte for byte, for the compact and
full presets; policies sum to 1 over the mask; batch sizes, epochs, drop_last;
threads and shuffling give the same multiset of rows; bad arguments raise ValueError
naming the argument. Needs pyarrow for Dataset.batches (skipped without it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

from carcassonne import data, selfplay

SETTINGS: Dict[str, Any] = dict(budget=6, seed=5, window=16, sample_moves=8)
GAMES = 3
FIELDS = ("board", "globals", "action_mask", "policy", "player", "search_value", "outcome", "margin")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("loader")
    done = data.write_selfplay(path, GAMES, part_games=2, **SETTINGS)
    assert done["written"] == GAMES
    return path


def collect(batches: Any) -> Tuple[Dict[str, np.ndarray], List[int]]:
    parts: Dict[str, List[np.ndarray]] = {}
    sizes: List[int] = []
    for batch in batches:
        sizes.append(len(batch["player"]))
        for name, array in batch.items():
            parts.setdefault(name, []).append(array)
    return {name: np.concatenate(arrays) for name, arrays in parts.items()}, sizes


@pytest.mark.parametrize("preset", ["compact", "full"])
def test_rows_equal_the_rows_of_generate(dataset: Path, preset: str) -> None:
    rows = selfplay.generate(GAMES, preset=preset, **SETTINGS)
    got, sizes = collect(data.batches(dataset, 7, preset=preset, shuffle=False))
    n = len(rows)
    assert sum(sizes) == n
    assert sizes[:-1] == [7] * (len(sizes) - 1) and sizes[-1] == (n - 1) % 7 + 1
    for name in FIELDS:
        expected = getattr(rows, name)
        assert got[name].dtype == expected.dtype, name
        assert got[name].shape == expected.shape, name
        assert np.array_equal(got[name], expected), name
    assert np.array_equal(got["game"], rows.game.astype(np.int64))
    # The targets sum to 1 over the legal ids and are 0 elsewhere.
    assert np.allclose(got["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not np.any(got["policy"][got["action_mask"] == 0])


def keys(rows: Dict[str, np.ndarray]) -> List[Tuple[int, int, bytes]]:
    return sorted(
        (int(g), int(i), b.tobytes() + p.tobytes())
        for g, i, b, p in zip(rows["game"], rows["index"], rows["board"], rows["policy"])
    )


def test_shuffle_threads_epochs_and_drop_last(dataset: Path) -> None:
    plain, _ = collect(data.batches(dataset, 32, shuffle=False))
    n = len(plain["player"])
    one, _ = collect(data.batches(dataset, 32, seed=1, shuffle_buffer=50))
    two, _ = collect(data.batches(dataset, 32, seed=1, shuffle_buffer=50, threads=2))
    other, _ = collect(data.batches(dataset, 32, seed=2, shuffle_buffer=50))
    assert keys(one) == keys(plain) == keys(other)
    order = lambda r: list(zip(r["game"].tolist(), r["index"].tolist()))  # noqa: E731
    assert order(one) != order(plain)
    assert order(one) != order(other)
    for name in one:
        assert np.array_equal(one[name], two[name]), name
    # Two epochs: every row twice.
    twice, _ = collect(data.batches(dataset, 64, epochs=2))
    assert len(twice["player"]) == 2 * n
    assert sorted(order(twice)) == sorted(order(plain) * 2)
    # drop_last leaves out the short last batch.
    _, sizes = collect(data.batches(dataset, 50, shuffle=False, drop_last=True))
    assert sizes == [50] * (n // 50)
    # Memory: never more rows held than the stated bound (the shuffle buffer and three
    # games' rows), which is less than the rows streamed.
    it = data.batches(dataset, 16, shuffle_buffer=20, epochs=3)
    collect(it)
    assert 0 < it.peak_rows_held <= it.max_rows_held < 3 * n


def test_dataset_batches_and_a_smaller_window(dataset: Path) -> None:
    pytest.importorskip("pyarrow")
    ds = data.open(dataset)
    rows, _ = collect(ds.batches(64, window=12, shuffle=False))
    assert rows["board"].shape[2:] == (12, 12)
    assert np.allclose(rows["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert len(rows["player"]) <= ds.decisions.num_rows


@pytest.mark.parametrize(
    "argument, value",
    [
        ("size", 0),
        ("preset", "big"),
        ("window", 2),
        ("threads", 0),
        ("threads", 65),
        ("epochs", 0),
        ("shuffle_buffer", 0),
        ("seed", -1),
        ("size", "8"),
    ],
)
def test_bad_arguments_are_named(dataset: Path, argument: str, value: Any) -> None:
    kwargs: Dict[str, Any] = {"size": 8}
    kwargs[argument] = value
    with pytest.raises(ValueError, match=f"^{argument}: "):
        data.batches(dataset, **kwargs)


def test_a_directory_that_is_not_a_dataset_is_named(tmp_path: Path) -> None:
    with pytest.raises(data.DatasetError, match=str(tmp_path)):
        next(iter(data.batches(tmp_path, 8)))


def game_ids(dataset: Path, numbers: List[int]) -> List[str]:
    """The ids of games ``numbers`` of the fixture's run: ``selfplay-<seed>-<n>-<hash>``,
    the hash as the writer gives it (writing again plays and writes nothing)."""
    again = data.write_selfplay(dataset, GAMES, part_games=2, **SETTINGS)
    assert again["written"] == 0 and again["present"] == GAMES
    return [f"selfplay-{SETTINGS['seed']}-{n}-{again['hash']}" for n in numbers]


def test_a_window_of_games_gives_exactly_their_rows(dataset: Path) -> None:
    """``games=`` (a replay window): the rows are those of the chosen games, each equal
    to the row generate makes for that game, in dataset order whatever the order of the
    ids; shuffled and on two threads, the same rows."""
    rows = selfplay.generate(GAMES, **SETTINGS)
    chosen = [2, 0]  # games 0 and 2 of 0..2, in two parts (two games a part), given out of order
    ids = game_ids(dataset, chosen)
    got, _ = collect(data.batches(dataset, 5, shuffle=False, games=ids + ids[:1]))  # an id twice counts once
    keep = np.isin(rows.game, chosen)
    assert 0 < keep.sum() < len(rows)
    assert sorted(set(got["game"].tolist())) == [0, 2]
    for name in FIELDS:
        assert np.array_equal(got[name], getattr(rows, name)[keep]), name
    assert np.array_equal(got["game"], rows.game[keep].astype(np.int64))
    shuffled, _ = collect(data.batches(dataset, 8, seed=3, shuffle_buffer=10, threads=2, games=ids))
    assert keys(shuffled) == keys(got)
    # The window of one game.
    one, _ = collect(data.batches(dataset, 64, shuffle=False, games=game_ids(dataset, [1])))
    assert np.array_equal(one["policy"], rows.policy[rows.game == 1])


@pytest.mark.parametrize(
    "games, message",
    [
        ([], r"^games: no game id"),
        ("selfplay-5-0-x", r"^games: expected game ids \(a list of strings\), got str"),
        (7, r"^games: expected game ids \(a list of strings\), got int"),
        (["a", 3], r"^games\[1\]: expected a game id \(a string\), got int 3"),
    ],
)
def test_bad_game_windows_are_named(dataset: Path, games: Any, message: str) -> None:
    with pytest.raises(data.DatasetError, match=message):
        data.batches(dataset, 8, games=games)


def test_game_ids_not_in_the_dataset_are_named(dataset: Path) -> None:
    ids = game_ids(dataset, [0]) + ["selfplay-5-99-nothere"]
    with pytest.raises(data.DatasetError, match=r"games: 1 of the 2 game ids are not games with decisions in the "
                       r"dataset \(\"selfplay-5-99-nothere\"\)"):
        data.batches(dataset, 8, games=ids)
