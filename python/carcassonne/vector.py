"""The native vector environment: N games stepped by flat action ids in one call.

:class:`VectorEnv` owns its numpy buffers and passes them to the compiled
``carcassonne._core.VectorEnv``, which steps every game with the interpreter released
and writes observations, masks, rewards, seats and episode flags in place. The arrays
returned by :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` are those buffers: the
next call overwrites them (copy what you keep). With the full preset the board
(``obs["board"]``) is a read-only view: each game rewrites only the planes of its row
that change, so the env must be the only writer of it. Copy it to modify it;
``torch.from_numpy`` on it warns that it is not writable, while
``torch.as_tensor(board, dtype=torch.float32)`` converts it without a warning.

A ``VectorEnv`` belongs to the first thread that calls its :meth:`~VectorEnv.reset` or
:meth:`~VectorEnv.step`; a call from another thread raises
:class:`~carcassonne.errors.ConcurrentUseError` (so no thread reads buffers that another
thread's call rewrites). Separate ``VectorEnv`` objects on separate threads run in
parallel. Ctrl-C stops a long ``reset`` or ``step`` within about 20 ms; the games are
then partly stepped and only :meth:`~VectorEnv.reset` is accepted.

A batch is refused (:class:`~carcassonne.errors.InvalidConfigError`) before anything is
allocated when its estimated memory (128 KiB per game for the engine, plus its buffers)
exceeds 8 GiB or the memory available.
"""

from __future__ import annotations

import mmap
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._config import game_config
from ._ids import action_ids
from .errors import ConcurrentUseError, IllegalActionError
from .opponents import Opponent, OpponentPool, PlayerOpponent, as_opponent
from .players import BuiltinPlayer

__all__ = ["VectorEnv"]

#: The native batch's ``opponents`` for opponents played by the caller.
EXTERNAL = "external"


class _Games(Sequence[Any]):
    """The games of some rows of a batch, each copied when first read."""

    def __init__(self, env: "VectorEnv", rows: List[int]) -> None:
        self._env = env
        self._rows = rows
        self._copies: Dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, k: Any) -> Any:
        if not isinstance(k, int):
            raise TypeError("games are read one at a time")
        if k not in self._copies:
            self._copies[k] = self._env.game(self._rows[k])
        return self._copies[k]

Seeds = Union[None, int, Sequence[int]]


#: The buffers that :func:`_buffer` may put on huge pages.
_LARGE_BUFFERS = ("_board", "globals", "action_mask", "final_board", "final_globals")

#: Size of a transparent huge page (x86-64 and most 64-bit Linux systems).
_HUGE_PAGE = 2 << 20


def _buffer(shape: Tuple[int, ...], dtype: Any) -> npt.NDArray[Any]:
    """A zeroed array; on Linux, one of 1 MiB or more lies on transparent huge pages.

    Every step writes a row of each large buffer for every game, and the user's code in
    between evicts the address translations: with 4 KiB pages a batch of 256 masks is 350
    page walks per step, with 2 MiB pages one. The region is a private anonymous mapping
    aligned to the huge page and marked ``MADV_HUGEPAGE``; without that support (or when
    the system refuses) it is an ordinary ``np.zeros`` array.
    """
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    nbytes = count * dtype.itemsize
    if nbytes < (1 << 20) or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros(shape, dtype=dtype)
    rounded = -(-nbytes // _HUGE_PAGE) * _HUGE_PAGE
    try:
        region = mmap.mmap(
            -1, rounded + _HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
        )
        raw = np.frombuffer(region, dtype=np.uint8)
        start = -raw.ctypes.data % _HUGE_PAGE
        region.madvise(mmap.MADV_HUGEPAGE, start, rounded)
    except (OSError, ValueError):
        return np.zeros(shape, dtype=dtype)
    # An anonymous mapping starts zeroed; the array keeps the mapping alive.
    array: npt.NDArray[Any] = raw[start : start + nbytes].view(dtype).reshape(shape)
    return array


def _read_only(array: Optional[npt.NDArray[Any]]) -> Optional[npt.NDArray[Any]]:
    """A view of ``array`` that refuses writes (``None`` stays ``None``)."""
    if array is None:
        return None
    view = array.view()
    view.flags.writeable = False
    return view


class VectorEnv:
    """``num_envs`` games of one configuration stepped natively.

    Modes: self-play (``opponents=None``; every decision is returned, the observation is
    that of the player to play, ``rewards`` are per seat) or single agent
    (``opponents``; one learning seat per game, ``learner_seat`` fixed or ``None`` for a
    random seat per episode). A built-in player spec such as ``"random"``, ``"greedy"``,
    ``"heuristic"`` or ``"mcts:200"``, or a :class:`~carcassonne.players.BuiltinPlayer`,
    plays the other seats natively. A callable ``f(game) -> Action``, a policy
    (:func:`carcassonne.opponents.policy`) or a pool (:class:`~carcassonne.opponents.OpponentPool`
    or a list; one member drawn per episode and seat, with ``opponent_seed`` seeding the
    draws) plays them from Python in batches: after each step of the learner, every
    opponent is called once for all the games that wait on it
    (:meth:`~carcassonne.opponents.Opponent.act_batch`), until the learner is to play in
    every game. ``rewards`` then sum the learner's step and the opponents' steps that
    follow it, as with native opponents; ``info["opponents"]`` names each game's
    opponents per seat.

    Each game draws the seeds of its episodes from its own stream: episode ``k`` of game
    ``i`` uses seed ``carcassonne.episode_seed(seed, i, k)``, so batches made with
    different seeds share no game; :meth:`episode_seeds` gives the seed of each current
    game. With ``autoreset="same-step"`` (default) a step that ends an episode sets
    ``terminated`` or ``truncated``, fills that game's row of ``info["final_scores"]``,
    ``info["episode_returns"]`` (rewards per seat summed over the episode) and
    ``info["episode_lengths"]`` (steps of the episode; rows of other games are 0) and
    already shows the next episode's first observation (the last one is in
    ``info["final_board"]`` and ``info["final_globals"]`` with
    ``final_observations=True``); ``"next-step"`` shows the final observation and starts
    the next episode in the following step (its action is ignored); ``"disabled"``
    requires :meth:`reset`.

    ``preset`` chooses the observation preset (``"full"``, ``"in-play"``, ``"compact"``;
    ``docs/observations.md``): the planes, globals and action ids of the observations,
    masks and actions. ``threads`` steps the games on that many threads.

    ``outside_window``: ``"mask"`` (legal moves outside the window are not offered; the
    episode is truncated if nothing can be offered) or ``"truncate"`` (truncated as soon
    as a legal move lies outside). ``illegal_action``: ``"raise"`` (default; nothing is
    stepped), ``"penalize"`` (that game is unchanged and the acting seat gets
    ``illegal_penalty``) or ``"random"`` (a random offered id is played instead).
    ``observations=False`` skips the board and globals (masks and rewards only).
    Actions follow the package's rule for ids (:mod:`carcassonne._ids`): an integer
    array, anything else raises :class:`~carcassonne.errors.InvalidArgumentError`.
    """

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        seed: int = 0,
        *,
        window: int = 32,
        reward: str = "score",
        opponents: Any = None,
        learner_seat: Optional[int] = 0,
        outside_window: str = "mask",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        autoreset: str = "same-step",
        observations: bool = True,
        threads: int = 1,
        preset: str = "full",
        final_observations: bool = False,
        opponent_seed: Optional[int] = None,
    ) -> None:
        self._pool: Optional[Union[Opponent, OpponentPool]] = None
        if opponents is not None and not isinstance(opponents, (str, BuiltinPlayer)):
            self._pool = as_opponent(opponents)
            opponents = EXTERNAL
        self._env = _core.VectorEnv(
            num_envs,
            **game_config(players, sets, edition, rules, figures),
            seed=seed,
            window=window,
            reward=reward,
            opponents=opponents.spec if isinstance(opponents, BuiltinPlayer) else opponents,
            learner_seat=learner_seat,
            outside_window=outside_window,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            autoreset=autoreset,
            threads=threads,
            preset=preset,
        )
        e = self._env
        n, p = e.num_envs, e.num_players
        w = e.window
        self.num_envs: int = n
        self.num_players: int = p
        self._board: Optional[npt.NDArray[np.uint8]] = (
            _buffer((n, e.num_planes, w, w), np.uint8) if observations else None
        )
        self.board: Optional[npt.NDArray[np.uint8]] = self._board_view()
        self.globals: Optional[npt.NDArray[np.float32]] = (
            _buffer((n, e.num_globals), np.float32) if observations else None
        )
        self.action_mask: npt.NDArray[np.int8] = _buffer((n, e.num_actions), np.int8)
        self.rewards: npt.NDArray[np.float32] = np.zeros((n, p), dtype=np.float32)
        self.to_play: npt.NDArray[np.int32] = np.zeros(n, dtype=np.int32)
        self.terminated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.truncated: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self.final_scores: npt.NDArray[np.int32] = np.zeros((n, p), dtype=np.int32)
        self.outside_window: npt.NDArray[np.uint32] = np.zeros(n, dtype=np.uint32)
        self.episode_returns: npt.NDArray[np.float32] = np.zeros((n, p), dtype=np.float32)
        self.episode_lengths: npt.NDArray[np.int32] = np.zeros(n, dtype=np.int32)
        final = observations and final_observations
        self.final_board: Optional[npt.NDArray[np.uint8]] = (
            _buffer((n, e.num_planes, w, w), np.uint8) if final else None
        )
        self.final_globals: Optional[npt.NDArray[np.float32]] = (
            _buffer((n, e.num_globals), np.float32) if final else None
        )
        self._actions: npt.NDArray[np.int64] = np.zeros(n, dtype=np.int64)
        self._owner: Optional[int] = None
        self._owner_lock = threading.Lock()
        # Opponents played from Python: who sits where, rewards of an episode's opening
        # moves (paid with the learner's first step), learner steps, games waiting for
        # their next-step reset.
        self._rng = np.random.default_rng(seed if opponent_seed is None else opponent_seed)
        self._seated: List[List[Optional[Opponent]]] = [[None] * p for _ in range(n)]
        self._carry: npt.NDArray[np.float32] = np.zeros((n, p), dtype=np.float32)
        self._learner_steps: npt.NDArray[np.int32] = np.zeros(n, dtype=np.int32)
        self._waiting_reset: npt.NDArray[np.bool_] = np.zeros(n, dtype=np.bool_)
        self._next_step = autoreset == "next-step"

    def __getstate__(self) -> Dict[str, Any]:
        # Pickles and deep copies: the compiled batch through its state, the buffers as
        # arrays; a copy belongs to the first thread that uses it.
        state = dict(self.__dict__)
        del state["_owner_lock"]
        del state["board"]  # the read-only view of _board
        state["_owner"] = None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._owner_lock = threading.Lock()
        for name in _LARGE_BUFFERS:
            old = getattr(self, name)
            if old is not None:
                new = _buffer(old.shape, old.dtype)
                new[...] = old
                setattr(self, name, new)
        self.board = self._board_view()

    def _board_view(self) -> Optional[npt.NDArray[np.uint8]]:
        """The board as handed out. With the full preset each game rewrites only the
        planes of its row that change (it clears those it set last time), so the board is
        read-only: a write into it would stay in the following observations. Another
        preset's board is written in full at every step."""
        return _read_only(self._board) if self._env.preset == "full" else self._board

    def _claim(self) -> None:
        """Binds the env to the calling thread on first use; refuses other threads."""
        me = threading.get_ident()
        if self._owner == me:
            return
        with self._owner_lock:
            if self._owner is None:
                self._owner = me
                return
        raise ConcurrentUseError(
            "VectorEnv: this VectorEnv belongs to another thread (its arrays are "
            "rewritten by every call); give each thread its own VectorEnv"
        )

    @property
    def num_actions(self) -> int:
        return self._env.num_actions

    @property
    def num_planes(self) -> int:
        return self._env.num_planes

    @property
    def num_globals(self) -> int:
        return self._env.num_globals

    @property
    def window(self) -> int:
        return self._env.window

    @property
    def preset(self) -> str:
        """The observation preset (``full``, ``in-play`` or ``compact``)."""
        return self._env.preset

    def encoder_info(self) -> Dict[str, Any]:
        """Sizes and names of the observations and ids (as :func:`carcassonne.encoder_info`)."""
        return self._env.encoder_info()

    def episode_seeds(self) -> npt.NDArray[np.uint64]:
        """The seed of each game's current episode (``Game(seed=...)`` with the same
        configuration draws the same tiles)."""
        return self._env.episode_seeds()

    def builtin_actions(self, kind: str, seed: int = 0) -> npt.NDArray[np.int64]:
        """The id the built-in player ``kind`` (``random``, ``greedy`` or
        ``mcts:<budget>...``) would take now in each game, int64 [N] (-1 where nothing is
        offered): expert actions for imitation, or a baseline to compare a policy with.
        Ctrl-C stops it within about 20 ms, the games unchanged."""
        return self._env.builtin_actions(kind, seed)

    def learner_seats(self) -> npt.NDArray[np.int32]:
        """The learning seat of each game (single-agent mode)."""
        return self._env.learner_seats()

    @property
    def opponents(self) -> Optional[Union[Opponent, OpponentPool]]:
        """The opponents played from Python (``None`` for built-in or self-play)."""
        return self._pool

    def seated_opponents(self) -> List[List[Optional[Opponent]]]:
        """Per game and seat, the opponent drawn for the current episode (``None`` at the
        learner's seat, and without opponents played from Python)."""
        return [list(row) for row in self._seated]

    def game(self, index: int) -> "Any":
        """A copy of game ``index`` as a :class:`carcassonne.Game`."""
        from .game import Game

        return Game._wrap(self._env.game(index))

    def observation(self) -> Dict[str, Any]:
        """The current buffers: ``board``, ``globals`` (``None`` without observations),
        ``action_mask``, ``to_play``."""
        return {
            "board": self.board,
            "globals": self.globals,
            "action_mask": self.action_mask,
            "to_play": self.to_play,
        }

    def info(self) -> Dict[str, Any]:
        """``final_scores`` (int32 [N, P]), ``episode_returns`` (float32 [N, P]) and
        ``episode_lengths`` (int32 [N]): the rows of games whose episode ended in the last
        step (others are 0); ``outside_window`` (uint32 [N]): legal moves of the decision
        now offered that lie outside the window; ``final_board`` and ``final_globals``
        with ``final_observations=True``."""
        info: Dict[str, Any] = {
            "final_scores": self.final_scores,
            "episode_returns": self.episode_returns,
            "episode_lengths": self.episode_lengths,
            "outside_window": self.outside_window,
        }
        if self.final_board is not None:
            info["final_board"] = self.final_board
            info["final_globals"] = self.final_globals
        if self._pool is not None:
            info["opponents"] = [[repr(o) for o in row if o is not None] for row in self._seated]
        return info

    def reset(self, seed: Seeds = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Starts a new episode in every game: ``seed`` ``None`` continues each game's seed
        stream, an int ``s`` restarts the streams as for a batch made with seed ``s``, a
        list gives each game the seed of its next episode."""
        self._claim()
        self._env.reset(
            self.action_mask,
            self.to_play,
            board=self._board,
            globals=self.globals,
            seeds=seed,
            outside_window=self.outside_window,
            board_kept=True,
        )
        self.rewards.fill(0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        self.final_scores.fill(0)
        self.episode_returns.fill(0)
        self.episode_lengths.fill(0)
        if self._pool is not None:
            self._carry.fill(0)
            self._learner_steps.fill(0)
            self._waiting_reset.fill(False)
            everyone = np.ones(self.num_envs, dtype=np.bool_)
            self._seat_opponents(everyone)
            self._play_opponents(everyone.copy(), np.zeros(self.num_envs, dtype=np.bool_))
            self.rewards.fill(0)
        return self.observation(), self.info()

    def step(
        self, actions: "npt.ArrayLike"
    ) -> Tuple[
        Dict[str, Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, Any],
    ]:
        """Steps every game with its flat id; returns ``(obs, rewards, terminated,
        truncated, info)`` (the buffers, overwritten by the next call)."""
        self._claim()
        if (
            type(actions) is np.ndarray
            and actions.dtype == np.int64
            and actions.shape == (self.num_envs,)
        ):
            ids = actions  # read in place, not copied
        else:
            ids = self._actions
            np.copyto(ids, action_ids(actions, self.num_envs), casting="unsafe")
        if self._pool is not None:
            self._step_with_opponents(ids)
            return self.observation(), self.rewards, self.terminated, self.truncated, self.info()
        self._native_step(ids)
        return self.observation(), self.rewards, self.terminated, self.truncated, self.info()

    def _native_step(self, ids: npt.NDArray[np.int64], active: Optional[npt.NDArray[np.bool_]] = None) -> None:
        self._env.step(
            ids,
            self.action_mask,
            self.rewards,
            self.to_play,
            self.terminated,
            self.truncated,
            board=self._board,
            globals=self.globals,
            final_scores=self.final_scores,
            outside_window=self.outside_window,
            episode_returns=self.episode_returns,
            episode_lengths=self.episode_lengths,
            final_board=self.final_board,
            final_globals=self.final_globals,
            active=active,
            board_kept=True,
        )

    # ----- opponents played from Python ------------------------------------------------

    def _seat_opponents(self, games: npt.NDArray[np.bool_]) -> None:
        """Draws the opponents of the episodes that start in ``games``."""
        pool = self._pool
        seats = self._env.learner_seats()
        for i in np.flatnonzero(games):
            row = self._seated[i]
            for seat in range(self.num_players):
                if seat == seats[i]:
                    row[seat] = None
                elif isinstance(pool, OpponentPool):
                    row[seat] = pool.draw(self._rng)
                else:
                    row[seat] = pool

    def _decide(self, waiting: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The opponents' ids for the games in ``waiting``: one call per opponent."""
        ids = np.zeros(self.num_envs, dtype=np.int64)
        groups: Dict[int, Tuple[Opponent, List[int]]] = {}
        for i in np.flatnonzero(waiting):
            opponent = self._seated[i][self.to_play[i]]
            assert opponent is not None
            groups.setdefault(id(opponent), (opponent, []))[1].append(int(i))
        for opponent, rows in groups.values():
            games = np.array(rows, dtype=np.int64)
            spec = opponent.builtin if isinstance(opponent, PlayerOpponent) else None
            if spec is not None:
                active = np.zeros(self.num_envs, dtype=np.bool_)
                active[games] = True
                seed = int(self._rng.integers(0, 2**62))
                ids[games] = self._env.builtin_actions(spec, seed, active=active)[games]
            else:
                obs: Dict[str, Any] = {
                    "board": None if self.board is None else self.board[games],
                    "globals": None if self.globals is None else self.globals[games],
                    "action_mask": self.action_mask[games],
                }
                chosen = action_ids(opponent.act_batch(obs, _Games(self, rows), self._rng), len(rows))
                offered = self.action_mask[games, np.clip(chosen, 0, self.num_actions - 1)] == 1
                ok = (chosen >= 0) & (chosen < self.num_actions) & offered
                if not ok.all():
                    bad = int(np.flatnonzero(~ok)[0])
                    raise IllegalActionError(
                        f"env {rows[bad]}: opponent {opponent!r} chose id {int(chosen[bad])}, not legal now"
                    )
                ids[games] = chosen
        return ids

    def _play_opponents(self, fresh: npt.NDArray[np.bool_], ended: npt.NDArray[np.bool_]) -> None:
        """Steps the opponents until the learner is to play in every game (or its episode
        waits for a reset). Rewards of games in ``fresh`` (an episode that started in this
        call) go to ``_carry``, the others to ``rewards``; episodes that end here are
        added to ``ended`` with their rows kept."""
        seats = self._env.learner_seats()
        total = self.rewards.copy()
        saved: Dict[str, npt.NDArray[Any]] = {}
        for name in ("final_scores", "episode_returns", "episode_lengths", "final_board", "final_globals"):
            buffer = getattr(self, name)
            if buffer is not None:
                saved[name] = buffer.copy()
        terminated, truncated = self.terminated.copy(), self.truncated.copy()
        while True:
            waiting = (self.to_play != seats) & ~self._waiting_reset
            if not waiting.any():
                break
            self._native_step(self._decide(waiting), waiting)
            step = np.where(waiting[:, None], self.rewards, 0.0)
            into_carry = fresh | ended
            self._carry += np.where(into_carry[:, None], step, 0.0)
            total += np.where(into_carry[:, None], 0.0, step)
            done = waiting & (self.terminated | self.truncated)
            if done.any():
                for name, copy in saved.items():
                    copy[done] = getattr(self, name)[done]
                # An episode that ends at an opponent's step: its returns, its learner
                # steps as its length.
                saved["episode_lengths"][done] = self._learner_steps[done]
                self._learner_steps[done] = 0
                terminated[done] = self.terminated[done]
                truncated[done] = self.truncated[done]
                ended |= done
                if self._next_step:
                    self._waiting_reset |= done
                else:
                    self._carry[done] = 0
                    fresh |= done
                    seats = self._env.learner_seats()
                    self._seat_opponents(done)
        self.rewards[...] = total
        self.terminated[...] = terminated
        self.truncated[...] = truncated
        for name, copy in saved.items():
            getattr(self, name)[...] = copy

    def _step_with_opponents(self, ids: npt.NDArray[np.int64]) -> None:
        """The learner's step in every game, then the opponents' (see :meth:`_play_opponents`)."""
        resetting = self._waiting_reset.copy()
        self._waiting_reset.fill(False)
        self._native_step(ids)
        self._learner_steps[~resetting] += 1
        # Rewards of the opening moves before the learner's first decision.
        self.rewards += self._carry
        self._carry.fill(0)
        ended = (self.terminated | self.truncated) & ~resetting
        if ended.any():
            self.episode_lengths[ended] = self._learner_steps[ended]
            self._learner_steps[ended] = 0
            if self._next_step:
                self._waiting_reset |= ended
        fresh = resetting.copy()
        if not self._next_step:
            fresh |= ended
        self._seat_opponents(fresh)
        self._play_opponents(fresh, ended)
