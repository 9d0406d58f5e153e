"""Built-in players and native matches between them.

A player is given by its spec, the same string on the command line, in the C ABI and
here:

* ``"random"``: a uniformly random legal action;
* ``"greedy"``: the action with the best immediate score difference (own points gained
  minus the most points an opponent gained, with the rest of the turn settled by
  passing and a bazaar bid counted as its cost), ties at random;
* ``"mcts:<budget>[:<option>=<value>]..."``: Monte Carlo tree search over the hidden
  order of the pile, with a budget of iterations (``"mcts:2000"``) or milliseconds per
  decision (``"mcts:100ms"``) and the options ``threads=N`` (root-parallel search
  threads), ``c=X`` (exploration constant, default 0.4), ``deploy=P``, ``margin=P`` and
  ``widen=W`` (see ``carcassonne match --help``). The search runs natively with the
  interpreter released.

:class:`BuiltinPlayer` plays a :class:`~carcassonne.Game` (``player(game)``) or a
PettingZoo agent's turn (``env.step(player.act(env))``); a spec or a
:class:`BuiltinPlayer` is accepted as ``opponents`` by ``Carcassonne-v0`` and
:class:`~carcassonne.VectorEnv`. :func:`match` plays many games natively with the seats
rotated and summarises them per player (win rate with a 95 % interval, mean score and
margin); :func:`play_games` returns the scores only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _core
from .actions import Action
from .game import Game

__all__ = ["BuiltinPlayer", "MatchResult", "PlayerResult", "PlayerSpec", "match", "play_games", "player_spec"]


class BuiltinPlayer:
    """A built-in player (``spec``: ``"random"``, ``"greedy"``, ``"mcts:500"``, ...) with
    its own seed sequence. A spec that cannot be read raises
    :class:`~carcassonne.errors.InvalidArgumentError` saying what is wrong."""

    def __init__(self, spec: str = "random", seed: int = 0) -> None:
        #: The canonical spec (every setting that differs from its default).
        self.spec: str = _core.bot_spec(spec)
        #: ``random``, ``greedy`` or ``mcts``.
        self.kind: str = self.spec.split(":", 1)[0]
        self._rng = np.random.default_rng(seed)
        self._second: Optional[Tuple[int, int]] = None

    def _seed(self) -> int:
        return int(self._rng.integers(0, 2**63 - 1))

    def __call__(self, game: Game) -> Action:
        """The action this player chooses for the player who decides now."""
        return game.builtin_action(self.spec, self._seed())

    def act(self, env: Any) -> int:
        """The flat id to pass to ``env.step`` for the agent that decides now in a
        PettingZoo environment (:func:`carcassonne.pettingzoo.env`, wrapped or not) or in
        a :class:`~carcassonne.Game` played by flat ids. An action that takes two ids
        (a ``CELL`` id, then a ``SLOT`` id) is returned in two calls. If the chosen
        action lies outside the observation window, a random offered id is returned."""
        game: Game = env if isinstance(env, Game) else getattr(env, "unwrapped", env).game
        if self._second is not None:
            state, second = self._second
            self._second = None
            if game.pending_focus is not None and state == game.state_hash():
                return second
        path = game.action_to_flat_path(self(game))
        if path is None:
            offered = np.flatnonzero(game.legal_mask())
            return int(offered[self._rng.integers(0, len(offered))])
        first, then = path
        if then is not None:
            self._second = (game.state_hash(), then)
        return first

    def __repr__(self) -> str:
        return f"BuiltinPlayer({self.spec!r})"


#: A player given by its spec or as a :class:`BuiltinPlayer`.
PlayerSpec = Union[str, BuiltinPlayer]


def player_spec(player: PlayerSpec) -> str:
    """The canonical spec of a player (checked: an unknown spec raises
    :class:`~carcassonne.errors.InvalidArgumentError`)."""
    if isinstance(player, BuiltinPlayer):
        return player.spec
    return _core.bot_spec(player)


def play_games(
    num_games: int,
    players: Sequence[PlayerSpec],
    seed: int = 0,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
) -> npt.NDArray[np.int32]:
    """Plays ``num_games`` games natively between built-in players (one per seat);
    returns the final scores, int32 [num_games, len(players)]. Game ``g`` uses seed
    ``seed + g``."""
    specs = [p.spec if isinstance(p, BuiltinPlayer) else p for p in players]
    return _core.play_games(num_games, specs, seed=seed, sets=sets, edition=edition, rules=rules, figures=figures)


@dataclass(frozen=True)
class PlayerResult:
    """One player's results over a match."""

    #: The player's spec.
    spec: str
    #: Games played.
    games: int
    #: Wins; a win shared by ``k`` players counts ``1/k`` (B17).
    wins: float
    #: ``wins / games``.
    win_rate: float
    #: The 95 % Wilson score interval of the win rate.
    interval: Tuple[float, float]
    #: Mean final score.
    mean_score: float
    #: Mean of (own score minus the best other score).
    mean_margin: float
    #: Mean time per decision in milliseconds.
    ms_per_decision: float
    #: Games played at each seat.
    seat_games: List[int]
    #: Wins at each seat.
    seat_wins: List[float]


@dataclass(frozen=True)
class MatchResult:
    """Every game of a match (arrays indexed ``[game, seat]``) and the summaries."""

    #: One summary per player, in the order given.
    players: List[PlayerResult]
    #: The index of each game in the match (``first_game`` onwards), uint64 [G].
    game: npt.NDArray[np.uint64]
    #: The tile seed of each game, uint64 [G].
    seeds: npt.NDArray[np.uint64]
    #: The player (index into ``players``) at each seat, int32 [G, P].
    seating: npt.NDArray[np.int32]
    #: Final scores per seat, int32 [G, P].
    scores: npt.NDArray[np.int32]
    #: Decisions taken per seat, int32 [G, P].
    decisions: npt.NDArray[np.int32]
    #: Seconds spent choosing per seat, float64 [G, P].
    think_seconds: npt.NDArray[np.float64]
    #: Wall-clock seconds of the match.
    elapsed: float
    #: The summary as a text table (as printed by ``carcassonne match``).
    text: str
    #: With ``out``: the games written into the dataset (else ``None``).
    written: Optional[int] = None
    #: With ``out``: the games of the match already in the dataset, not played again.
    present: Optional[int] = None

    def player_scores(self) -> npt.NDArray[np.int32]:
        """Final scores per player rather than per seat, int32 [G, P]."""
        out = np.empty_like(self.scores)
        rows = np.arange(self.scores.shape[0])[:, None]
        out[rows, self.seating] = self.scores
        return out

    def __str__(self) -> str:
        return self.text


def match(
    bots: Sequence[PlayerSpec],
    games: int = 100,
    *,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    seed: int = 0,
    threads: int = 1,
    first_game: int = 0,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    part_games: int = 256,
) -> MatchResult:
    """Plays games ``first_game .. first_game + games`` natively between ``bots`` (one
    per seat; ``players`` defaults to their number) and summarises them, like
    ``carcassonne match``.

    Game ``g`` deals the tiles of seed ``seed + g // P`` and seats the players rotated
    by ``g``, so every deal is played from every seat, and a match split into ranges of
    games plays the games of the whole match. ``threads`` games are played at the same
    time. The interpreter is released while the games run.

    With ``out`` every game is written into the dataset directory ``out``
    (docs/dataset.md; created if needed), ``part_games`` games a part file, under the id
    ``match-<seed>-<g>-<hash>`` (the hash of the players and the setup): a game already
    there is not played again, and the result covers the games played (``written``,
    ``present``). Ctrl-C writes the games finished, then raises ``KeyboardInterrupt``.

    Bad arguments raise :class:`~carcassonne.errors.InvalidConfigError` naming the field.
    """
    specs = [p.spec if isinstance(p, BuiltinPlayer) else p for p in bots]
    raw = _core.play_match(
        specs,
        games,
        seed=seed,
        players=players,
        sets=sets,
        edition=edition,
        rules=rules,
        figures=figures,
        threads=threads,
        first_game=first_game,
        out=None if out is None else os.fspath(out),
        part_games=part_games,
    )
    summaries = [
        PlayerResult(
            spec=s["bot"],
            games=s["games"],
            wins=s["wins"],
            win_rate=s["win_rate"],
            interval=(s["interval"][0], s["interval"][1]),
            mean_score=s["mean_score"],
            mean_margin=s["mean_margin"],
            ms_per_decision=s["ms_per_decision"],
            seat_games=list(s["seat_games"]),
            seat_wins=list(s["seat_wins"]),
        )
        for s in raw["summaries"]
    ]
    return MatchResult(
        players=summaries,
        game=raw["game"],
        seeds=raw["seeds"],
        seating=raw["seating"],
        scores=raw["scores"],
        decisions=raw["decisions"],
        think_seconds=raw["think_seconds"],
        elapsed=raw["elapsed"],
        text=raw["text"],
        written=raw.get("written"),
        present=raw.get("present"),
    )
