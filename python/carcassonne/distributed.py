"""Self-play and matches on a Ray cluster (docs/distributed.md).

Needs Ray and pyarrow: ``pip install "carcassonne[ray]"`` (from a checkout,
``pip install "./python[ray]"``).

* :func:`selfplay` plays self-play games ``first_game .. first_game + games`` of a seed
  as Ray tasks, a chunk of consecutive games per task, and writes them into one dataset
  directory (docs/dataset.md). Game ``n`` is dealt and searched from the seed and ``n``
  only, so the dataset is the one :func:`carcassonne.data.write_selfplay` writes for the
  same seed and games, whatever the number of workers or the order they finish in.
* :func:`match` plays a match between built-in players as Ray tasks by game ranges and
  merges them into the :class:`~carcassonne.MatchResult` of :func:`carcassonne.match`
  over the whole range.

Every task writes its chunk into a staging directory of its own inside the dataset,
``DIR/.staging/<seed>-<first>-<last>-<hash>`` (hidden: the readers of the dataset list
``DIR/<table>/`` only). The driver is the only writer of the dataset's tables: as each
task finishes (``ray.wait``) it moves the chunk's part files into ``DIR/<table>/``
under the next part number, the ``games`` file last, and it never adopts a game id that
is there already. A task that Ray runs again (a worker killed, a node lost:
``max_retries``) goes on in its staging directory from the games its earlier attempt
wrote whole. A run started again over the same directory adopts what an interrupted run
left staged and plays only the games not there.

Command line::

    python -m carcassonne.distributed selfplay --address auto --out DIR --games 1000 --budget 150
    python -m carcassonne.distributed match --address auto --games 400 mcts:200 greedy
"""

from __future__ import annotations

try:
    import ray  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import ray.exceptions  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError:
    raise ImportError(
        'carcassonne.distributed needs Ray: pip install "carcassonne[ray]" '
        '(from a checkout: pip install "./python[ray]")'
    ) from None
try:
    import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError:
    raise ImportError(
        'carcassonne.distributed needs pyarrow: pip install "carcassonne[ray]" '
        '(from a checkout: pip install "./python[ray]")'
    ) from None

import argparse
import dataclasses
import fcntl
import math
import os
import shutil
import socket
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple, Union

import numpy as np

from . import _core, data, selfplay as _selfplay
from ._search import Evaluator
from .errors import CarcassonneError, InvalidArgumentError
from .players import MatchResult, PlayerSpec, player_spec, summarize

__all__ = ["DistributedError", "SelfPlaySummary", "match", "selfplay"]

#: The hidden folder of the dataset directory where tasks write their chunks.
STAGING = ".staging"
_TABLES = data.TABLES
_MAX_CHUNK_GAMES = 64


class DistributedError(CarcassonneError, RuntimeError):
    """A distributed run that could not finish: chunks that failed after Ray's retries,
    or a dataset another writer changed meanwhile. ``summary`` is what was done (for
    :func:`selfplay`, a :class:`SelfPlaySummary`; the parts adopted stay)."""

    def __init__(self, message: str, summary: Optional["SelfPlaySummary"] = None) -> None:
        super().__init__(message)
        self.summary = summary


@dataclass
class SelfPlaySummary:
    """What :func:`selfplay` did."""

    #: The dataset directory.
    out: str
    #: The games asked for (``first_game .. first_game + games``).
    games: int
    #: Games played and adopted into the dataset by this run.
    written: int = 0
    #: Games whose id was in the dataset already when the run started (not played).
    present: int = 0
    #: Games adopted from the staging directory of an earlier, interrupted run (not played again).
    recovered: int = 0
    #: Decisions (rows of ``decisions``) adopted by this run.
    decisions: int = 0
    #: Parts adopted by this run.
    parts: int = 0
    #: Chunks submitted as Ray tasks.
    chunks: int = 0
    #: Chunks Ray ran more than once (a worker died, ``max_retries``): ``(first, last, attempts)``.
    retried: List[Tuple[int, int, int]] = field(default_factory=list)
    #: Games a retried attempt found written whole by an earlier attempt of its chunk (not played again).
    resumed: int = 0
    #: Chunks that failed after Ray's retries: ``"first-last: error"``; a rerun plays them.
    failed: List[str] = field(default_factory=list)
    #: Wall-clock seconds of the run.
    seconds: float = 0.0
    #: The hash in the games' ids ``selfplay-<seed>-<n>-<hash>`` (8 hexadecimal digits of
    #: the settings: :func:`carcassonne.selfplay.generate`).
    hash: str = ""

    @property
    def rows_per_second(self) -> float:
        """Decisions adopted a second of the run."""
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        lines = [
            f"{self.out}: {self.written} games written ({self.decisions} decisions, {self.parts} parts) "
            f"in {self.seconds:.1f} s, {self.rows_per_second:.0f} decisions/s",
            f"already present: {self.present} games; recovered from an interrupted run: {self.recovered} games",
            f"chunks: {self.chunks} submitted, {len(self.retried)} run again by Ray"
            + "".join(f" ({a}-{b}: {n} attempts)" for a, b, n in self.retried)
            + f", {self.resumed} games found written by an earlier attempt",
        ]
        if self.failed:
            lines.append(f"failed after Ray's retries ({len(self.failed)}; a rerun plays them):")
            lines.extend(f"  {f}" for f in self.failed)
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# Arguments and the connection.


def _count(name: str, value: Any, low: int, high: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError(f"{name}: expected an integer, got {type(value).__name__} {value!r}")
    if value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise InvalidArgumentError(f"{name}: {value} is out of range ({limit})")
    return value


def _connect(address: Optional[str]) -> None:
    """``ray.init(address=address)`` unless this process is connected already (then the
    connection is used as it is)."""
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)


def _slots(num_cpus: float) -> int:
    cpus = float(ray.cluster_resources().get("CPU", 1.0))
    return max(1, int(cpus // num_cpus))


def _chunks(numbers: Sequence[int], size: int) -> Iterator[Tuple[int, int]]:
    """Runs of consecutive game numbers of ``numbers`` (increasing), at most ``size`` long:
    ``(first, count)``."""
    i = 0
    while i < len(numbers):
        j = i + 1
        while j < len(numbers) and j - i < size and numbers[j] == numbers[j - 1] + 1:
            j += 1
        yield numbers[i], j - i
        i = j


# ---------------------------------------------------------------------------------------
# The dataset directory, written by the driver only.


def _part_name(n: int) -> str:
    return f"part-{n:05}.parquet"


def _part_number(name: str) -> Optional[int]:
    if name.startswith("part-") and name.endswith(".parquet"):
        digits = name[len("part-") : -len(".parquet")]
        if digits.isdigit():
            return int(digits)
    return None


def _committed(path: str) -> Dict[int, str]:
    """The parts whose ``games`` file is in place, by number."""
    folder = os.path.join(path, "games")
    out: Dict[int, str] = {}
    for name in os.listdir(folder):
        n = _part_number(name)
        if n is not None:
            out[n] = os.path.join(folder, name)
    return out


def _prepare(path: str) -> Tuple[int, Set[str]]:
    """Creates the tables' folders, removes what an interrupted writer left (temporary
    files, parts without their ``games`` file: as the native writer does), and returns
    the next part number and the game ids present."""
    for table in _TABLES:
        os.makedirs(os.path.join(path, table), exist_ok=True)
    committed = _committed(path)
    for table in _TABLES:
        folder = os.path.join(path, table)
        for name in os.listdir(folder):
            n = _part_number(name)
            leftover = (name.startswith(".part-") and name.endswith(".tmp")) or (n is not None and n not in committed)
            if leftover:
                os.remove(os.path.join(folder, name))
    present: Set[str] = set()
    for n, file in sorted(committed.items()):
        present.update(_game_ids(file))
    return (max(committed) + 1 if committed else 0), present


def _game_ids(file: str) -> List[str]:
    try:
        ids: List[str] = pq.read_table(file, columns=["game_id"]).column("game_id").to_pylist()
    except Exception as e:  # pyarrow raises several kinds for a bad file
        raise data.DatasetError(f"{file}: cannot read its game ids: {e}") from None
    return ids


class _Adopter:
    """Moves staged parts into the dataset: the driver's side of a run."""

    def __init__(self, out: str, summary: SelfPlaySummary) -> None:
        self.out = out
        self.summary = summary
        self.next_part, self.present = _prepare(out)

    def staged_parts(self, staging: str) -> List[Tuple[str, List[str], int]]:
        """The complete parts of a staging directory (every table's file there): name,
        game ids and decisions. A part without its ``games`` file or with a table's file
        missing is an unfinished leftover and is left out."""
        parts = []
        games = os.path.join(staging, "games")
        if not os.path.isdir(games):
            return []
        for name in sorted(os.listdir(games)):
            if _part_number(name) is None:
                continue
            if not all(os.path.isfile(os.path.join(staging, t, name)) for t in _TABLES):
                continue
            table = pq.read_table(os.path.join(games, name), columns=["game_id", "decisions"])
            ids = table.column("game_id").to_pylist()
            parts.append((name, ids, int(sum(table.column("decisions").to_pylist()))))
        return parts

    def adopt(self, staging: str, name: str, ids: List[str], decisions: int) -> None:
        """Moves part ``name`` of ``staging`` into the dataset as its next part, the
        ``games`` file last (a part is committed once that file is in place)."""
        target = _part_name(self.next_part)
        for table in (*[t for t in _TABLES if t != "games"], "games"):
            dst = os.path.join(self.out, table, target)
            if os.path.exists(dst):
                raise DistributedError(
                    f"{dst}: exists already; another writer is writing {self.out}", self.summary
                )
            os.replace(os.path.join(staging, table, name), dst)
        folder = os.open(os.path.join(self.out, "games"), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        self.present.update(ids)
        self.next_part += 1
        self.summary.parts += 1
        self.summary.decisions += decisions

    def recover(self, staging_root: str) -> None:
        """Adopts the complete parts an interrupted run left staged whose games are not
        in the dataset, then removes every staging directory."""
        if not os.path.isdir(staging_root):
            return
        for entry in sorted(os.listdir(staging_root)):
            staging = os.path.join(staging_root, entry)
            if not os.path.isdir(staging):
                continue
            for name, ids, decisions in self.staged_parts(staging):
                if self.present.isdisjoint(ids):
                    self.adopt(staging, name, ids, decisions)
                    self.summary.recovered += len(ids)
            shutil.rmtree(staging)


class _Lock:
    """One driver per dataset directory: an exclusive lock on ``DIR/.staging/lock``
    (released by the system when the driver ends, however it ends)."""

    def __init__(self, staging_root: str, out: str) -> None:
        os.makedirs(staging_root, exist_ok=True)
        self.fd = os.open(os.path.join(staging_root, "lock"), os.O_CREAT | os.O_RDWR, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            raise DistributedError(f"{out}: another distributed run is writing this dataset") from None

    def release(self) -> None:
        os.close(self.fd)


# ---------------------------------------------------------------------------------------
# Tasks.


def selfplay_chunk(
    staging: str,
    first: int,
    count: int,
    settings: Dict[str, Any],
    threads: int,
    evaluator: Optional[Evaluator] = None,
) -> Dict[str, Any]:
    """Plays self-play games ``first .. first + count`` into the dataset ``staging`` as one
    part (the body of a Ray task), searching with ``evaluator`` when there is one. An
    attempt after an earlier one of the same chunk goes on from the games that attempt
    wrote whole. Returns the counts of :func:`carcassonne.selfplay.generate` and the
    number of attempts so far."""
    os.makedirs(staging, exist_ok=True)
    with open(os.path.join(staging, "attempts"), "a", encoding="utf-8") as f:
        f.write(f"{socket.gethostname()} {os.getpid()}\n")
    if evaluator is not None:
        settings = {**settings, "evaluator": evaluator}
    done = _selfplay.generate(count, out=staging, first_game=first, part_games=count, threads=threads, **settings)
    with open(os.path.join(staging, "attempts"), encoding="utf-8") as f:
        attempts = sum(1 for _ in f)
    return {**done, "first": first, "count": count, "attempts": attempts}


def match_chunk(
    bots: List[str], first: int, count: int, settings: Dict[str, Any], threads: int, staging_root: Optional[str]
) -> Tuple[MatchResult, Optional[str]]:
    """Plays games ``first .. first + count`` of a match (the body of a Ray task). With
    ``staging_root``, writes them as one part into a staging directory of this attempt's
    own (so that every attempt plays and returns every game of its chunk), and returns
    its path too."""
    from .players import match as native_match

    if staging_root is None:
        return native_match(bots, count, first_game=first, threads=threads, **settings), None
    name = f"match-{settings['seed']}-{first}-{first + count - 1}-{uuid.uuid4().hex[:12]}"
    staging = os.path.join(staging_root, name)
    result = native_match(
        bots, count, first_game=first, threads=threads, out=staging, part_games=count, **settings
    )
    return result, staging


_selfplay_task = ray.remote(selfplay_chunk)
_match_task = ray.remote(match_chunk)


# ---------------------------------------------------------------------------------------
# Self-play.


def selfplay(
    out: Union[str, "os.PathLike[str]"],
    games: int,
    *,
    address: Optional[str] = None,
    budget: Union[int, str] = 150,
    seed: int = 0,
    first_game: int = 0,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    window: int = 24,
    sample_moves: int = 30,
    evaluator: Optional[Evaluator] = None,
    preset: Optional[str] = None,
    batch: Optional[int] = None,
    seat_name: Optional[str] = None,
    c: Optional[float] = None,
    margin: Optional[float] = None,
    playout: Optional[float] = None,
    standing: Optional[float] = None,
    standing_end: Optional[float] = None,
    chunk_games: Optional[int] = None,
    num_cpus: int = 1,
    max_retries: int = 3,
) -> SelfPlaySummary:
    """Plays self-play games ``first_game .. first_game + games`` of ``seed`` on a Ray
    cluster and writes them into the dataset ``out`` (a directory every node reaches:
    shared storage), as :func:`carcassonne.data.write_selfplay` would with the same
    arguments.

    With ``evaluator`` (see :func:`carcassonne.search`: a callable of a batch of leaves
    that returns their priors and values, such as a network's) every search is guided
    by it, as :func:`carcassonne.selfplay.generate` guides it, the leaves' observations in
    ``preset`` (default ``compact``), with ``batch``, ``c``,
    ``margin``, ``playout``, ``standing``, ``standing_end`` and ``seat_name`` as there
    (name each network's games by its own ``seat_name``: it enters their ids). The
    evaluator is pickled once by Ray (its cloudpickle: a class or function of the
    driver's ``__main__`` goes by value, one of an importable module by reference, so
    that module must be installed on every node) and unpickled in every task, which
    calls it from its search threads: it should hold what it needs to evaluate (a
    network's weights, for instance) and set itself up on its first call. Without an
    evaluator those options are the playout search's (``c``, ``margin``) or refused as
    :func:`carcassonne.selfplay.generate` refuses them.

    Connects with ``ray.init(address=address)`` (``"auto"``: the cluster this node is
    part of; ``None``: a cluster of this machine alone) unless this process is connected
    already. The games not in ``out`` are split into chunks of at most ``chunk_games``
    consecutive games (default: about four chunks per task slot, at most 64 games), one
    task of ``num_cpus`` CPUs (searching on as many threads) per chunk, each written as
    one part. Ray runs a task again up to ``max_retries`` times when its worker dies.

    Returns a :class:`SelfPlaySummary`. Raises :class:`DistributedError` (its
    ``summary`` attached) when chunks failed after Ray's retries, once every other
    chunk is adopted: a rerun plays what is missing. Bad arguments raise
    :class:`~carcassonne.errors.InvalidArgumentError` naming the argument; bad game
    settings raise as :func:`carcassonne.data.write_selfplay` does, before any task.
    """
    path = os.path.abspath(os.fspath(out))
    games = _count("games", games, 0)
    first_game = _count("first_game", first_game, 0, 2**63 - 1)
    if first_game + games > 2**63:
        raise InvalidArgumentError(f"first_game + games: {first_game + games} is out of range (at most 2**63)")
    num_cpus = _count("num_cpus", num_cpus, 1, 256)
    max_retries = _count("max_retries", max_retries, -1)
    if chunk_games is not None:
        chunk_games = _count("chunk_games", chunk_games, 1, 100_000)
    settings: Dict[str, Any] = dict(
        budget=budget,
        seed=seed,
        players=players,
        sets=sets,
        edition=edition,
        rules=rules,
        figures=figures,
        window=window,
        sample_moves=sample_moves,
    )
    # The search's options, when given (the others keep generate's defaults).
    tuning = dict(preset=preset, batch=batch, seat_name=seat_name, c=c, margin=margin, playout=playout, standing=standing,
                  standing_end=standing_end)
    settings.update({k: v for k, v in tuning.items() if v is not None})
    started = time.monotonic()
    summary = SelfPlaySummary(out=path, games=games)
    staging_root = os.path.join(path, STAGING)
    # The settings are checked here, by the native writer on a dataset of no games,
    # before a task is submitted.
    os.makedirs(staging_root, exist_ok=True)
    lock = _Lock(staging_root, path)
    try:
        probe = os.path.join(staging_root, "check")
        # The games' ids name the settings by their hash, which the writer returns.
        hash = _selfplay.generate(0, out=probe, first_game=first_game, evaluator=evaluator, **settings)["hash"]
        shutil.rmtree(probe)
        summary.hash = hash

        def game_id(n: int) -> str:
            return f"selfplay-{seed}-{n}-{hash}"

        adopter = _Adopter(path, summary)
        wanted = range(first_game, first_game + games)
        summary.present = sum(game_id(n) in adopter.present for n in wanted)
        adopter.recover(staging_root)
        missing = [n for n in wanted if game_id(n) not in adopter.present]
        if not missing:
            summary.seconds = time.monotonic() - started
            return summary
        _connect(address)
        if chunk_games is None:
            chunk_games = max(1, min(_MAX_CHUNK_GAMES, math.ceil(len(missing) / (4 * _slots(num_cpus)))))
        task = _selfplay_task.options(num_cpus=num_cpus, max_retries=max_retries)
        # Pickled once into the object store; each task gets it back as an argument.
        shared = None if evaluator is None else ray.put(evaluator)
        pending: Dict[Any, Tuple[int, int, str]] = {}
        for first, count in _chunks(missing, chunk_games):
            staging = os.path.join(staging_root, f"{seed}-{first}-{first + count - 1}-{hash}")
            pending[task.remote(staging, first, count, settings, num_cpus, shared)] = (first, count, staging)
        summary.chunks = len(pending)
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    first, count, staging = pending.pop(ref)
                    _finish_chunk(adopter, summary, ref, first, count, staging, game_id)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    finally:
        lock.release()
    summary.seconds = time.monotonic() - started
    if summary.failed:
        raise DistributedError(
            f"{len(summary.failed)} of {summary.chunks} chunks failed after Ray's retries "
            f"({'; '.join(summary.failed)}); the others are written, and the same call again plays the rest",
            summary,
        )
    return summary


def _finish_chunk(
    adopter: _Adopter,
    summary: SelfPlaySummary,
    ref: Any,
    first: int,
    count: int,
    staging: str,
    game_id: Callable[[int], str],
) -> None:
    last = first + count - 1
    try:
        result = ray.get(ref)
    except ray.exceptions.RayError as e:
        summary.failed.append(f"{first}-{last}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return
    if result["attempts"] > 1:
        summary.retried.append((first, last, int(result["attempts"])))
        summary.resumed += int(result["present"])
    expected = {game_id(n) for n in range(first, first + count)}
    adopted: Set[str] = set()
    for name, ids, decisions in adopter.staged_parts(staging):
        if not expected.issuperset(ids):
            raise DistributedError(f"{staging}: part {name} holds games of another chunk", summary)
        if not adopter.present.isdisjoint(ids):
            twice = sorted(adopter.present.intersection(ids))
            raise DistributedError(
                f"{staging}: games {', '.join(twice[:3])} are in {adopter.out} already; "
                "another writer is writing this dataset",
                summary,
            )
        adopter.adopt(staging, name, ids, decisions)
        adopted.update(ids)
        summary.written += len(ids)
    if adopted != expected:
        summary.failed.append(f"{first}-{last}: the task wrote {len(adopted)} of its {count} games")
        return
    shutil.rmtree(staging)


# ---------------------------------------------------------------------------------------
# Matches.


def merge_results(specs: Sequence[str], parts: Sequence[MatchResult], elapsed: float) -> MatchResult:
    """One :class:`~carcassonne.MatchResult` of the games of ``parts`` (game ranges of
    one match, put in order of their first game), with the statistics and the table
    :func:`carcassonne.match` gives over those games, computed natively by the same
    code (:func:`carcassonne.players.summarize`); ``elapsed`` is the wall-clock time of
    the whole. No parts give the result of no games."""
    parts = sorted(parts, key=lambda r: int(r.game[0]) if len(r.game) else 0)
    p = len(specs)

    def joined(name: str, dtype: Any, shape: Tuple[int, ...]) -> Any:
        return np.concatenate([np.zeros(shape, dtype)] + [getattr(r, name) for r in parts])

    seating = joined("seating", np.int32, (0, p))
    scores = joined("scores", np.int32, (0, p))
    decisions = joined("decisions", np.int32, (0, p))
    think = joined("think_seconds", np.float64, (0, p))
    game = joined("game", np.uint64, (0,))
    summaries, text = summarize(specs, seating, scores, decisions, think, game=game)
    return MatchResult(
        players=summaries,
        game=game,
        seeds=joined("seeds", np.uint64, (0,)),
        seating=seating,
        scores=scores,
        decisions=decisions,
        think_seconds=think,
        elapsed=elapsed,
        text=text,
    )


def match(
    bots: Sequence[PlayerSpec],
    games: int = 100,
    *,
    address: Optional[str] = None,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    seed: int = 0,
    first_game: int = 0,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    chunk_games: Optional[int] = None,
    num_cpus: int = 1,
    max_retries: int = 3,
) -> MatchResult:
    """Plays the match :func:`carcassonne.match` plays (the same games: game ``g`` dealt
    and seated as game ``g`` of the whole match) as Ray tasks of at most
    ``chunk_games`` consecutive games (default: about four chunks per task slot, at
    most 64 games), each of ``num_cpus`` CPUs playing as many games at a time, and
    merges them into one :class:`~carcassonne.MatchResult` with the same statistics.
    Its times (``think_seconds``, ``ms_per_decision``) are those measured on the
    workers and ``elapsed`` the driver's wall-clock time. Connects as :func:`selfplay`
    does. Games ``first_game .. first_game + games`` are played; chunks start at
    multiples of ``chunk_games``.

    With ``out``, the games are also written into the dataset ``out`` as
    ``carcassonne.match(..., out=out)`` writes them (ids ``match-<seed>-<g>-<hash>``,
    :func:`carcassonne._core.match_game_ids`), and, as there, a game whose id is in
    ``out`` already is not played again: the result covers the games played by this
    call (its arrays and statistics; none when every game is there), ``written``
    counts them and ``present`` the games of the range found in ``out``. The statistics
    of a whole match written over several runs are those of the games in ``out``
    (``carcassonne.data.open(out).games``: ``seats`` and ``final_scores``). Each task
    writes into a staging directory of its own, the driver adopting the parts as
    :func:`selfplay` does; a run started again over the same directory first adopts
    what an interrupted run left staged whole.

    A task Ray runs again plays its chunk again; one that fails after ``max_retries``
    raises :class:`DistributedError`."""
    specs = [player_spec(b) for b in bots]
    games = _count("games", games, 1, 10_000_000)
    first_game = _count("first_game", first_game, 0, 2**53)
    num_cpus = _count("num_cpus", num_cpus, 1, 256)
    max_retries = _count("max_retries", max_retries, -1)
    if chunk_games is not None:
        chunk_games = _count("chunk_games", chunk_games, 1, 10_000_000)
    settings: Dict[str, Any] = dict(
        players=players, sets=sets, edition=edition, rules=rules, figures=figures, seed=seed
    )
    started = time.monotonic()
    wanted = list(range(first_game, first_game + games))
    if out is None:
        _connect(address)
        chunks = _match_chunks(wanted, chunk_games, num_cpus)
        done = _run_match_chunks(specs, chunks, settings, num_cpus, max_retries, None)
        return merge_results(specs, [r for r, _ in done], time.monotonic() - started)
    # The game ids, and with them the settings, are checked before anything is written.
    ids = _core.match_game_ids(specs, games, first_game=first_game, **settings)
    path = os.path.abspath(os.fspath(out))
    staging_root = os.path.join(path, STAGING)
    lock = _Lock(staging_root, path)
    try:
        counts = SelfPlaySummary(out=path, games=games)
        adopter = _Adopter(path, counts)
        adopter.recover(staging_root)
        missing = [g for g, i in zip(wanted, ids) if i not in adopter.present]
        present = games - len(missing)
        if not missing:
            return dataclasses.replace(
                merge_results(specs, [], time.monotonic() - started), written=0, present=present
            )
        _connect(address)
        chunks = _match_chunks(missing, chunk_games, num_cpus)
        done = _run_match_chunks(specs, chunks, settings, num_cpus, max_retries, staging_root)
        merged = merge_results(specs, [r for r, _ in done], time.monotonic() - started)
        written = 0
        clash: List[str] = []
        try:
            for _, staging in done:
                assert staging is not None
                for name, part_ids, decisions in adopter.staged_parts(staging):
                    if adopter.present.isdisjoint(part_ids):
                        adopter.adopt(staging, name, part_ids, decisions)
                        written += len(part_ids)
                    else:
                        clash.append(f"{os.path.basename(staging)}: {len(adopter.present.intersection(part_ids))} "
                                     f"of its {len(part_ids)} games present")
        finally:
            # Every staging directory of this run's chunks goes, those of attempts Ray
            # abandoned included.
            prefixes = tuple(f"match-{seed}-{a}-{a + n - 1}-" for a, n in chunks)
            for entry in os.listdir(staging_root):
                if entry.startswith(prefixes):
                    shutil.rmtree(os.path.join(staging_root, entry), ignore_errors=True)
        if clash:
            raise DistributedError(
                f"parts not written, their games written meanwhile by another writer: {'; '.join(clash)}"
            )
        return dataclasses.replace(merged, written=written, present=present)
    finally:
        lock.release()


def _match_chunks(numbers: Sequence[int], chunk_games: Optional[int], num_cpus: int) -> List[Tuple[int, int]]:
    """The chunks of the games ``numbers`` (increasing): runs of consecutive games, cut
    at the multiples of ``chunk_games`` (default: about four chunks per task slot, at
    most 64 games); ``(first, count)``."""
    if chunk_games is None:
        chunk_games = max(1, min(_MAX_CHUNK_GAMES, math.ceil(len(numbers) / (4 * _slots(num_cpus)))))
    out: List[Tuple[int, int]] = []
    for first, count in _chunks(numbers, len(numbers)):
        end = first + count
        while first < end:
            stop = min(end, (first // chunk_games + 1) * chunk_games)
            out.append((first, stop - first))
            first = stop
    return out


def _run_match_chunks(
    specs: List[str],
    chunks: List[Tuple[int, int]],
    settings: Dict[str, Any],
    num_cpus: int,
    max_retries: int,
    staging_root: Optional[str],
) -> List[Tuple[MatchResult, Optional[str]]]:
    task = _match_task.options(num_cpus=num_cpus, max_retries=max_retries)
    refs = [task.remote(specs, a, n, settings, num_cpus, staging_root) for a, n in chunks]
    try:
        done: List[Tuple[MatchResult, Optional[str]]] = ray.get(refs)
    except ray.exceptions.RayError as e:
        raise DistributedError(f"a chunk of the match failed after Ray's retries: {e}") from None
    except BaseException:
        for ref in refs:
            ray.cancel(ref, force=True)
        raise
    return done


# ---------------------------------------------------------------------------------------
# Command line.


def _rules(items: Sequence[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"--rule {item!r}: expected NAME=VALUE")
        out[name] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    return out


def _setup_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address",
        default=None,
        help='the Ray cluster: "auto" (the one this node belongs to) or "HOST:PORT" (default: this machine alone)',
    )
    p.add_argument("--games", type=int, required=True, help="number of games")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--players", type=int, default=None, help="players (self-play: default 2; match: one per bot)")
    p.add_argument("--sets", default=None, help="tile sets, comma separated (default base)")
    p.add_argument("--edition", default=None, help="tile edition (C1, C2, C3)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a rule switch (repeatable)")
    p.add_argument(
        "--chunk-games",
        type=int,
        default=None,
        help="games a task (default: about four chunks a task slot, at most 64)",
    )
    p.add_argument("--num-cpus", type=int, default=1, help="CPUs per task, searched on as many threads (default 1)")
    p.add_argument("--max-retries", type=int, default=3, help="Ray's retries of a task whose worker died (default 3)")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m carcassonne.distributed selfplay|match ...``; see ``--help``."""
    parser = argparse.ArgumentParser(
        prog="python -m carcassonne.distributed", description="Self-play and matches on a Ray cluster."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="self-play games written into a dataset directory")
    _setup_args(sp)
    sp.add_argument("--out", required=True, help="the dataset directory (on storage every node reaches)")
    sp.add_argument("--first-game", type=int, default=0, help="the first game's number (default 0)")
    sp.add_argument(
        "--budget", default="150", help="search iterations per decision, or a time such as 50ms (default 150)"
    )
    sp.add_argument("--window", type=int, default=24, help="observation window of the flat ids (default 24)")
    sp.add_argument(
        "--sample-moves",
        type=int,
        default=30,
        help="searched decisions a game whose action is drawn by visit share, then the most visited (default 30)",
    )
    mp = sub.add_parser("match", help="a match between built-in players")
    _setup_args(mp)
    mp.add_argument("--first-game", type=int, default=0, help="the first game's index in the match (default 0)")
    mp.add_argument("--out", default=None, help="also write the games into this dataset directory")
    mp.add_argument("bots", nargs="+", help="one player per seat: random, greedy, mcts:<budget>[...]")
    args = parser.parse_args(argv)
    sets = args.sets.split(",") if args.sets else None
    rules = _rules(args.rule) or None
    try:
        if args.command == "selfplay":
            budget: Union[int, str] = int(args.budget) if args.budget.isdigit() else args.budget
            summary = selfplay(
                args.out,
                args.games,
                address=args.address,
                budget=budget,
                seed=args.seed,
                first_game=args.first_game,
                players=args.players,
                sets=sets,
                edition=args.edition,
                rules=rules,
                window=args.window,
                sample_moves=args.sample_moves,
                chunk_games=args.chunk_games,
                num_cpus=args.num_cpus,
                max_retries=args.max_retries,
            )
            print(summary)
        else:
            result = match(
                args.bots,
                args.games,
                address=args.address,
                players=args.players,
                sets=sets,
                edition=args.edition,
                rules=rules,
                seed=args.seed,
                first_game=args.first_game,
                out=args.out,
                chunk_games=args.chunk_games,
                num_cpus=args.num_cpus,
                max_retries=args.max_retries,
            )
            print(result.text, end="")
            print(f"{len(result.seeds)} games in {result.elapsed:.1f} s")
            if args.out is not None:
                print(f"{args.out}: {result.written} games written, {result.present} already present")
    except DistributedError as e:
        if e.summary is not None:
            print(e.summary)
        print(f"error: {e}", file=sys.stderr)
        return 1
    except CarcassonneError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
