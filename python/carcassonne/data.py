"""Games and self-play on disk as a dataset of Parquet tables (docs/dataset.md).

A dataset is a directory with a folder per table (``games``, ``turns``, ``events``,
``decisions``, ``records``) of files ``part-NNNNN.parquet``, written by
:func:`write_selfplay`, ``carcassonne selfplay`` or ``carcassonne dataset convert``.
:func:`open` reads it as pyarrow tables (``.to_pandas()``, ``polars.from_arrow``);
pyarrow is needed for that (``pip install pyarrow``), not for writing.

>>> import carcassonne.data
>>> carcassonne.data.write_selfplay("games-ds", games=2, budget=20)  # doctest: +SKIP
{'written': 2, 'present': 0, 'decisions': ...}
>>> ds = carcassonne.data.open("games-ds")  # doctest: +SKIP
>>> ds.games.num_rows  # doctest: +SKIP
2
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _core
from .errors import CarcassonneError

__all__ = [
    "SCHEMA_VERSION",
    "TABLES",
    "DEFAULT_SHUFFLE_BUFFER",
    "MAX_GAME_IDS",
    "Batches",
    "Dataset",
    "DatasetError",
    "batches",
    "open",
    "write_selfplay",
]

#: The schema version this module reads (``carcassonne.dataset.version`` of every file).
SCHEMA_VERSION = 1
#: The tables of a dataset.
TABLES = ("games", "turns", "events", "decisions", "records")

#: The rows of the shuffle buffer of :meth:`Dataset.batches` by default.
DEFAULT_SHUFFLE_BUFFER = 4096
#: The most game ids :func:`batches` takes as ``games``.
MAX_GAME_IDS = 10_000_000

_VERSION_KEY = b"carcassonne.dataset.version"
_TABLE_KEY = b"carcassonne.dataset.table"


class DatasetError(CarcassonneError, ValueError):
    """A dataset file that cannot be read: the message names the file, and the row
    group when the error is inside one."""


class Dataset:
    """The tables of a dataset as pyarrow tables, and what was skipped reading them."""

    def __init__(self, path: str, tables: Dict[str, Any], skipped: List[str]) -> None:
        self.path = path
        self._tables = tables
        #: Each file or row group skipped with ``skip_bad=True``, with what was wrong.
        self.skipped = skipped

    def table(self, name: str) -> Any:
        """The table ``name`` (one of :data:`TABLES`) as a ``pyarrow.Table``."""
        if name not in self._tables:
            raise DatasetError(f"no table {name!r} in a dataset (tables: {', '.join(TABLES)})")
        return self._tables[name]

    @property
    def games(self) -> Any:
        """One row per game (``pyarrow.Table``)."""
        return self._tables["games"]

    @property
    def turns(self) -> Any:
        """One row per turn (``pyarrow.Table``)."""
        return self._tables["turns"]

    @property
    def events(self) -> Any:
        """One row per score event or figure returned (``pyarrow.Table``)."""
        return self._tables["events"]

    @property
    def decisions(self) -> Any:
        """One row per searched decision step, with the search's targets (``pyarrow.Table``)."""
        return self._tables["decisions"]

    @property
    def records(self) -> Any:
        """One row per game: its game record as JSON text (``pyarrow.Table``)."""
        return self._tables["records"]

    def batches(
        self,
        size: int,
        preset: str = "compact",
        window: Optional[int] = None,
        shuffle: bool = True,
        seed: int = 0,
        threads: int = 1,
        epochs: int = 1,
        shuffle_buffer: int = DEFAULT_SHUFFLE_BUFFER,
        drop_last: bool = False,
        skip_bad: bool = False,
        games: Optional[Iterable[str]] = None,
    ) -> "Batches":
        """Training rows of the dataset's decisions, ``size`` at a time: see :func:`batches`."""
        return batches(
            self.path,
            size,
            preset=preset,
            window=window,
            shuffle=shuffle,
            seed=seed,
            threads=threads,
            epochs=epochs,
            shuffle_buffer=shuffle_buffer,
            drop_last=drop_last,
            skip_bad=skip_bad,
            games=games,
        )

    def __repr__(self) -> str:
        rows = ", ".join(f"{t}={self._tables[t].num_rows}" for t in TABLES)
        return f"Dataset({self.path!r}, {rows})"


def _parts(path: str, table: str) -> List[str]:
    folder = os.path.join(path, table)
    try:
        names = os.listdir(folder)
    except OSError as e:
        raise DatasetError(f"{folder}: cannot list the {table} table ({e}); is {path} a dataset?") from None
    parts = [n for n in names if n.startswith("part-") and n.endswith(".parquet")]
    return [os.path.join(folder, n) for n in sorted(parts)]


def _read_part(file: str, table: str, skip_bad: bool, skipped: List[str], out: List[Any]) -> None:
    # pyarrow is optional and has no type information.
    import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]

    def bad(message: str) -> None:
        if not skip_bad:
            raise DatasetError(message)
        skipped.append(message)

    try:
        pf = pq.ParquetFile(file)
    except Exception as e:  # pyarrow raises several kinds for a bad file
        return bad(f"{file}: not a readable Parquet file: {e}")
    meta = pf.metadata.metadata or {}
    version = meta.get(_VERSION_KEY)
    if version is None:
        return bad(f"{file}: not a dataset file: no {_VERSION_KEY.decode()} in its metadata")
    if version != str(SCHEMA_VERSION).encode():
        return bad(f"{file}: schema version {version.decode()!r}; this reader reads version {SCHEMA_VERSION} only")
    if meta.get(_TABLE_KEY) != table.encode():
        return bad(f"{file}: a file of table {meta.get(_TABLE_KEY, b'').decode()!r} in the {table} table")
    for group in range(pf.num_row_groups):
        try:
            out.append(pf.read_row_group(group))
        except Exception as e:
            bad(f"{file} row group {group}: cannot read: {e}")


def open(path: Union[str, "os.PathLike[str]"], *, skip_bad: bool = False) -> Dataset:
    """Reads the dataset directory ``path``: every table as a ``pyarrow.Table``.

    Every file's schema version must be :data:`SCHEMA_VERSION`. A file or row group
    that cannot be read, or of another version, is a :class:`DatasetError` naming it;
    with ``skip_bad=True`` it is left out and listed in :attr:`Dataset.skipped`.
    """
    try:
        import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        raise ImportError("carcassonne.data.open needs pyarrow: pip install pyarrow") from None
    path = os.fspath(path)
    tables: Dict[str, Any] = {}
    skipped: List[str] = []
    for table in TABLES:
        pieces: List[Any] = []
        for file in _parts(path, table):
            _read_part(file, table, skip_bad, skipped, pieces)
        tables[table] = pa.concat_tables(pieces) if pieces else pa.table({})
    return Dataset(path, tables, skipped)


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DatasetError(f"{name}: expected an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise DatasetError(f"{name}: {value}; expected {low} to {high}")
    return value


def _game_ids(games: Any) -> List[str]:
    if isinstance(games, (str, bytes)) or not hasattr(games, "__iter__"):
        raise DatasetError(f"games: expected game ids (a list of strings), got {type(games).__name__}")
    ids = list(games)
    for i, g in enumerate(ids):
        if not isinstance(g, str):
            raise DatasetError(f"games[{i}]: expected a game id (a string), got {type(g).__name__} {g!r}")
    if not ids:
        raise DatasetError("games: no game id; expected at least one (or None: every game)")
    if len(ids) > MAX_GAME_IDS:
        raise DatasetError(f"games: {len(ids)} game ids; expected at most {MAX_GAME_IDS}")
    return ids


def batches(
    path: Union[str, "os.PathLike[str]"],
    size: int,
    preset: str = "compact",
    window: Optional[int] = None,
    shuffle: bool = True,
    seed: int = 0,
    threads: int = 1,
    epochs: int = 1,
    shuffle_buffer: int = DEFAULT_SHUFFLE_BUFFER,
    drop_last: bool = False,
    skip_bad: bool = False,
    games: Optional[Iterable[str]] = None,
) -> "Batches":
    """Training rows of the decisions of the dataset ``path``, ``size`` rows a batch.

    Each game's record is replayed natively and each row of its ``decisions`` table
    encoded in the observation ``preset`` (``full``, ``in-play``, ``compact``) and
    ``window`` (default: the dataset's), on ``threads`` threads, with the interpreter
    released while a batch is waited for and copied. A batch is a dict of numpy arrays
    named as the fields of :class:`carcassonne.selfplay.SelfPlayRows`: ``board`` uint8
    ``[n, C, W, W]``, ``globals`` float32 ``[n, G]``, ``action_mask`` int8 ``[n, A]``,
    ``policy`` float32 ``[n, A]`` (the search's visit shares, 1 in total over the mask),
    ``player`` int32, ``search_value`` float32, ``outcome`` float32, ``margin`` int32,
    and ``game`` int64 (the game's index in the dataset) and ``index`` uint32 (the
    row's index among its game's decisions).

    ``shuffle=False`` gives the rows in dataset order (parts in order, games in part
    order, decisions in order). ``shuffle=True`` shuffles the parts and the games of
    each part by ``seed`` and the epoch, and draws each row at random from a buffer of
    ``shuffle_buffer`` rows. The rows and their order depend on the dataset and the
    arguments only, not on ``threads``. ``epochs`` passes are made, each shuffled
    anew. The last batch is shorter when the rows do not fill it, unless
    ``drop_last=True`` leaves it out. A bad file, row group or game raises
    :class:`DatasetError` naming it; with ``skip_bad=True`` it is skipped (the
    iterator's ``skipped`` lists it).

    ``games`` (game ids, such as a list of strings) restricts the rows to those
    games, a window of the dataset such as a replay buffer's last games: the games
    keep their dataset order (and ``game`` its index in the whole dataset), and the
    order of the ids given does not matter (an id given twice counts once). Each id
    must name a game with decisions in the dataset: a :class:`DatasetError` names the
    ones that do not; at most :data:`MAX_GAME_IDS` ids. docs/dataset.md, "Loading
    for training".
    """
    _check_int("size", size, 1, 1 << 20)
    if not isinstance(preset, str) or preset not in ("full", "in-play", "compact"):
        raise DatasetError(f"preset: {preset!r}; expected 'full', 'in-play' or 'compact'")
    if window is not None:
        _check_int("window", window, 3, 512)
    _check_int("seed", seed, 0, (1 << 64) - 1)
    _check_int("threads", threads, 1, 64)
    _check_int("epochs", epochs, 1, 1_000_000)
    _check_int("shuffle_buffer", shuffle_buffer, 1, 10_000_000)
    ids = None if games is None else _game_ids(games)
    loader = _core.DatasetLoader(
        os.fspath(path),
        preset=preset,
        window=window,
        shuffle=bool(shuffle),
        seed=seed,
        threads=threads,
        epochs=epochs,
        shuffle_buffer=shuffle_buffer,
        skip_bad=bool(skip_bad),
        games=ids,
    )
    return Batches(loader, size, drop_last)


class Batches:
    """The iterator of :func:`batches` (dicts of numpy arrays), with the loader's counters."""

    def __init__(self, loader: "_core.DatasetLoader", size: int, drop_last: bool) -> None:
        self._loader = loader
        self._size = size
        self._drop_last = drop_last

    def __iter__(self) -> "Batches":
        return self

    def __next__(self) -> Dict[str, Any]:
        batch = self._loader.next_batch(self._size)
        if batch is None or (self._drop_last and len(batch["player"]) < self._size):
            raise StopIteration
        return batch

    @property
    def skipped(self) -> List[str]:
        """Each file, row group or game skipped with ``skip_bad=True``, with why."""
        return self._loader.skipped

    @property
    def decisions(self) -> int:
        """The decision rows of one pass (epoch) over the games loaded, from the
        ``games`` table (rows dropped as :attr:`dropped` counts are not given)."""
        return int(self._loader.decisions)

    @property
    def peak_rows_held(self) -> int:
        """The most rows held in memory at once so far."""
        return self._loader.peak_rows_held

    @property
    def max_rows_held(self) -> int:
        """The bound on the rows held in memory at once: ``shuffle_buffer`` (with
        shuffling) and 3 buffers per thread of the dataset's longest game."""
        return self._loader.max_rows_held

    @property
    def dropped(self) -> int:
        """Rows dropped so far: nothing left to learn in the requested preset or window."""
        return self._loader.dropped


def write_selfplay(
    path: Union[str, "os.PathLike[str]"],
    games: int,
    budget: Union[int, str] = 150,
    seed: int = 0,
    first_game: int = 0,
    threads: int = 1,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    window: int = 24,
    sample_moves: int = 30,
    part_games: int = 64,
) -> Dict[str, Any]:
    """Plays self-play games ``first_game .. first_game + games`` of ``seed`` (every seat
    searching ``budget`` iterations per decision, or ``"50ms"``) and writes them into the
    dataset ``path`` with the search's targets, as ``carcassonne selfplay`` does; games
    already there are not played again. Returns ``{"written", "present", "decisions",
    "hash"}`` (``hash``: the one in the games' ids ``selfplay-<seed>-<n>-<hash>``).
    The same as ``carcassonne.selfplay.generate(games, ..., out=path)``, which takes
    every other argument of a self-play run too (an ``evaluator``, the search's tuning).
    The interpreter is released while the games are played; Ctrl-C stops the run
    (``KeyboardInterrupt``) and leaves the parts written whole."""
    from .selfplay import generate

    return generate(
        games,
        budget=budget,
        seed=seed,
        out=path,
        first_game=first_game,
        threads=threads,
        players=players,
        sets=sets,
        edition=edition,
        rules=rules,
        figures=figures,
        window=window,
        sample_moves=sample_moves,
        part_games=part_games,
    )
