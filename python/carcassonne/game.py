"""The :class:`Game` class: one game with readable actions, records and rendering."""

from __future__ import annotations

import operator
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np
import numpy.typing as npt

from . import _core
from ._config import game_config
from .actions import Action, Focus, action_from_tuple
from ._ids import action_id as action_id_of
from ._state import ExpansionState
from .errors import IllegalActionError, InvalidArgumentError

__all__ = ["Game"]

ActionLike = Union[Action, Tuple[object, ...]]


def _deprecated(name: str, replacement: str) -> None:
    """Warns that ``name``, kept for one release over the expansions' state tables, is
    deprecated in favour of ``replacement``."""
    warnings.warn(
        f"{name} is deprecated: use {replacement}", DeprecationWarning, stacklevel=3
    )


def _as_tuple(action: ActionLike) -> Tuple[object, ...]:
    if isinstance(action, tuple):
        return action
    to_tuple = getattr(action, "to_tuple", None)
    if to_tuple is None:
        raise IllegalActionError(
            f"expected an action such as PlaceTile(x=1, y=0, rot=0), got {type(action).__name__}"
        )
    result: Tuple[object, ...] = to_tuple()
    return result


class Game:
    """One game of Carcassonne.

    ``Game(players=2, sets=["base"], edition="C2", rules={...}, figures={...}, seed=0)``;
    keywords as in the record format's ``setup`` object (``docs`` of the project). A bad
    configuration raises :class:`~carcassonne.errors.InvalidConfigError` naming the field.
    ``chance="explicit"`` makes tile draws decisions of the caller
    (:meth:`chance_outcomes`, :class:`~carcassonne.actions.Draw`); ``window`` is the side
    of the observation window and ``preset`` the observation preset (``"full"``,
    ``"in-play"``, ``"compact"``: which planes, globals and flat ids the learning
    interface uses; ``docs/observations.md``).

    >>> game = Game(players=2, seed=1)
    >>> game.apply(game.legal_actions()[0])
    """

    __slots__ = ("_g",)

    def __init__(
        self,
        players: int = 2,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        seed: int = 0,
        *,
        chance: str = "sampled",
        window: int = 32,
        start: Optional[Mapping[str, Any]] = None,
        preset: str = "full",
    ) -> None:
        self._g = _core.Game(
            **game_config(players, sets, edition, rules, figures),
            seed=seed,
            chance=chance,
            window=window,
            start=start,
            preset=preset,
        )

    @classmethod
    def _wrap(cls, core: _core.Game) -> "Game":
        game = cls.__new__(cls)
        game._g = core
        return game

    # ----- records and copies ---------------------------------------------------------

    @classmethod
    def from_record(
        cls,
        text: str,
        *,
        window: Optional[int] = None,
        chance: Optional[str] = None,
        preset: str = "full",
    ) -> "Game":
        """The game replayed from a record (one JSON object); scores are checked. What
        the record's ``resume`` object saved is restored: the generator state (a sampled
        game goes on with the same draws), the chance mode, the window and a pending
        focus; ``window`` and ``chance`` override them. ``preset`` is the observation
        preset of the loaded game.

        Raises :class:`~carcassonne.errors.InvalidRecordError`.
        """
        return cls._wrap(_core.Game.from_record(text, window=window, chance=chance, preset=preset))

    def to_record(self, id: str = "game") -> str:
        """The record of the game so far, one line of JSON, with what resumes it exactly."""
        return self._g.to_record(id)

    def clone(self) -> "Game":
        """An independent copy."""
        return Game._wrap(self._g.clone())

    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.clone()

    def __getstate__(self) -> Dict[str, Any]:
        # The compiled game pickles as its record, which resumes it exactly.
        return {"game": self._g}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self._g = state["game"]

    # ----- state ----------------------------------------------------------------------

    @property
    def config(self) -> Dict[str, Any]:
        """The configuration (the record's ``setup`` object)."""
        config: Dict[str, Any] = self._g.config
        return config

    @property
    def num_players(self) -> int:
        return self._g.num_players

    @property
    def phase(self) -> str:
        """The decision the game waits for, by name: one of :func:`carcassonne.phase_names`
        (``place_tile``, ``deploy``, ..., ``game_over``)."""
        return self._g.phase

    @property
    def is_terminal(self) -> bool:
        return self._g.is_terminal

    @property
    def to_play(self) -> Optional[int]:
        """The seat that decides now (``None`` when over or waiting for a draw)."""
        return self._g.to_play

    @property
    def turn_player(self) -> int:
        return self._g.turn_player

    @property
    def scores(self) -> List[int]:
        return self._g.scores

    def scores_if_ended_now(self) -> List[int]:
        """Each seat's score if the game ended now: the points so far plus the final
        scoring of what is on the board (incomplete features and monasteries, farmers,
        the sets' own end-of-game scoring). The points of a turn still in progress (what
        the tile just placed completes) are not in it: they are scored when the turn
        ends. The game is unchanged; once it is over, its final scores."""
        return self._g.scores_if_ended_now()

    @property
    def tiles_left(self) -> int:
        return self._g.tiles_left

    @property
    def tile_in_hand(self) -> Optional[str]:
        return self._g.tile_in_hand

    def _seat(self, player: int, name: str) -> int:
        """``player`` as a seat of this game (:class:`InvalidArgumentError` naming it if not)."""
        seat = operator.index(player)
        players = self.num_players
        if not 0 <= seat < players:
            raise InvalidArgumentError(f"{name} {seat}: the game has seats 0..{players}")
        return seat

    @property
    def dragon(self) -> Optional[Tuple[int, int]]:
        """The dragon's square, or ``None`` before a volcano brought it onto the board
        (PD2).

        Deprecated: read ``expansion_state()["dragon"]`` (``x``, ``y``,
        ``flight_steps``); this property reads that table and will be removed in a later
        release."""
        _deprecated("Game.dragon", 'expansion_state()["dragon"]')
        row = self.expansion_state().get("dragon")
        return None if row is None else (row["x"], row["y"])

    @property
    def fairy(self) -> Optional[Tuple[int, int, Optional[int], Optional[int]]]:
        """``(x, y, owner, feature)`` of the fairy (PD15): ``owner`` and ``feature`` those
        of the figure it stands next to, ``None`` when it stands by none; ``None`` before
        it is moved.

        Deprecated: read ``expansion_state()["fairy"]`` (``x``, ``y``, ``mover``,
        ``owner``, ``feature``); this property reads that table and will be removed in a
        later release."""
        _deprecated("Game.fairy", 'expansion_state()["fairy"]')
        row = self.expansion_state().get("fairy")
        return None if row is None else (row["x"], row["y"], row["owner"], row["feature"])

    @property
    def towers(self) -> List[Tuple[int, int, int, Optional[Tuple[int, str]]]]:
        """Every tower foundation on the board (the Tower, TW1, TW2): ``(x, y, height,
        top)``, ``top`` the ``(owner, figure)`` on top or ``None`` for an open tower.

        Deprecated: read ``expansion_state()["towers"]`` (``x``, ``y``, ``feature``,
        ``height``, ``top_owner``, ``top_figure``); this property reads that table and
        will be removed in a later release."""
        _deprecated("Game.towers", 'expansion_state()["towers"]')
        towers: List[Tuple[int, int, int, Optional[Tuple[int, str]]]] = []
        for t in self.expansion_state().get("towers") or []:
            owner, figure = t["top_owner"], t["top_figure"]
            top = None if owner is None or figure is None else (owner, figure)
            towers.append((t["x"], t["y"], t["height"], top))
        return towers

    def tower_pieces(self, player: int) -> int:
        """The tower pieces ``player`` has left (TW1; 0 without the Tower). A seat outside
        the game raises :class:`~carcassonne.errors.InvalidArgumentError`.

        Deprecated: read ``expansion_state()["tower_pieces"]`` (``seat``, ``pieces``);
        this method reads that table and will be removed in a later release."""
        _deprecated("Game.tower_pieces", 'expansion_state()["tower_pieces"]')
        seat = self._seat(player, "player")
        rows = self.expansion_state().get("tower_pieces") or []
        return next((r["pieces"] for r in rows if r["seat"] == seat), 0)

    def prisoners(self, holder: int) -> Dict[Tuple[int, str], int]:
        """The prisoners ``holder`` holds (TW4): ``(owner, figure)`` → count, only the
        kinds held. A seat outside the game raises
        :class:`~carcassonne.errors.InvalidArgumentError`.

        Deprecated: read ``expansion_state()["prisoners"]`` (``holder``, ``owner``,
        ``figure``, ``count``); this method reads that table and will be removed in a
        later release."""
        _deprecated("Game.prisoners", 'expansion_state()["prisoners"]')
        seat = self._seat(holder, "holder")
        rows = self.expansion_state().get("prisoners") or []
        return {(r["owner"], r["figure"]): r["count"] for r in rows if r["holder"] == seat}

    def expansion_state(self) -> ExpansionState:
        """The visible state of the expansions in play, as each expansion declares it: a
        key per table in play (``count``, ``quarter_figures``, ``castles``, ``bridges``,
        ``bridges_castles_supply``, ``bazaar``, ``bazaar_offer``, ``bazaar_tiles``,
        ``king``, ``robber_baron``, ``dragon``, ``dragon_path``, ``fairy``, ``towers``,
        ``tower_pieces``, ``prisoners``, ``ransom``, ...), whose
        value is its row (a dict of column to value), its row or ``None``, or the list of
        its rows (one per seat, or any number). Values are ints, bools, names (quarters,
        figures, axes, tile ids) or ``None`` when absent. :func:`carcassonne.state_schema`
        describes every table; the project's ``docs/expansion-state.md`` lists them."""
        return cast(ExpansionState, self._g.expansion_state())

    @property
    def window(self) -> int:
        return self._g.window

    @property
    def preset(self) -> str:
        """The observation preset: ``full``, ``in-play`` or ``compact``."""
        return self._g.preset

    def encoder_info(self) -> Dict[str, Any]:
        """Sizes and names of this game's observations and flat ids (as
        :func:`carcassonne.encoder_info`)."""
        info: Dict[str, Any] = self._g.encoder_info()
        return info

    @property
    def chance(self) -> str:
        """How tiles are drawn: ``"sampled"`` or ``"explicit"``."""
        return self._g.chance

    def supply(self, player: int, figure: str) -> int:
        """The count of ``figure`` in ``player``'s supply: a figure, or tiles held (the keys
        of :meth:`supplies`)."""
        return self._g.supply(player, figure)

    def supplies(self) -> List[Dict[str, int]]:
        """Each player's supply: figure name to count, then the tiles held."""
        return self._g.supplies()

    def board(self) -> List[Tuple[int, int, str, int]]:
        """Placed tiles in placement order: ``(x, y, tile_id, rot)``."""
        return self._g.board()

    def figures(self) -> List[Tuple[int, str, int, int, int]]:
        """Figures on the board: ``(owner, figure, x, y, feature)`` (barn: corner index)."""
        return self._g.figures()

    def feature_id(self, x: int, y: int, feature: int) -> str:
        """The catalogue id (``c1``, ``r2``, ...) of a feature of the tile at ``(x, y)``."""
        return self._g.feature_id(x, y, feature)

    def remaining_tiles(self) -> Dict[str, int]:
        """Tiles left to draw, per tile id."""
        return dict(self._g.remaining_tiles())

    def score_events(self) -> List[Tuple[int, int, str, Optional[Tuple[int, int, int]]]]:
        """Score events so far: ``(player, points, kind, (x, y, feature) or None)``."""
        return self._g.score_events()

    @property
    def event_count(self) -> int:
        """The number of events so far (see :meth:`events`)."""
        return self._g.event_count

    def events(self, since: int = 0) -> List[Dict[str, Any]]:
        """The events numbered ``since`` and later, in the order they happened, as a
        client animates them. Each is a dict with ``type`` (``"score"`` or
        ``"figure-returned"``), ``turn`` (``None`` for the final scoring), ``player``,
        ``at`` (``(x, y, feature)``) and ``feature`` (its kind, ``"city"``, ...). A score
        has ``points``, ``what`` (``city``, ``fairy.turn``, ``farmers``, ...) and
        ``parts`` (every ``(x, y, feature)`` of the scored feature as it was when it
        scored); a figure returned has ``figure`` and ``cause`` (``scored``,
        ``final-scoring``, ``princess``, ``dragon``, ``abbot-taken``). Events keep their
        numbers: pass the count already shown."""
        return self._g.events(since)

    @property
    def last_placed(self) -> Tuple[int, int, str, int]:
        """The tile placed last: ``(x, y, tile_id, rot)``."""
        return self._g.last_placed

    def state_hash(self) -> int:
        return self._g.state_hash()

    # ----- decisions ------------------------------------------------------------------

    def legal_actions(self) -> List[Action]:
        """Every legal action now, in the engine's deterministic order."""
        return [action_from_tuple(t) for t in self._g.legal_actions()]

    def is_legal(self, action: ActionLike) -> bool:
        try:
            return self._g.is_legal(_as_tuple(action))
        except IllegalActionError:
            return False

    def apply(self, action: ActionLike) -> None:
        """Applies a legal action; raises :class:`~carcassonne.errors.IllegalActionError`
        otherwise (the game is unchanged)."""
        self._g.apply(_as_tuple(action))

    def chance_outcomes(self) -> List[Tuple[str, float]]:
        """``(tile_id, probability)`` of each possible draw (explicit-chance mode)."""
        return self._g.chance_outcomes()

    def builtin_action(self, kind: str, seed: int = 0) -> Action:
        """The action the built-in player ``kind`` (a spec: ``"random"``, ``"greedy"``,
        ``"mcts:500"``, ...; see :mod:`carcassonne.players`) picks now."""
        return action_from_tuple(self._g.builtin_action(kind, seed))

    # ----- learning interface ---------------------------------------------------------

    def observation(self, player: Optional[int] = None) -> Dict[str, npt.NDArray[Any]]:
        """``board`` uint8 [C, W, W], ``globals`` float32 [G] and ``action_mask`` int8 [A]
        for ``player`` (default: the player to play); see ``docs/observations.md``."""
        return self._g.observation(player)

    def legal_mask(self) -> npt.NDArray[np.int8]:
        """The mask of the current step, int8 [A]."""
        return self._g.legal_mask()

    def mask_info(self) -> Tuple[int, int, int]:
        """``(legal, offered, outside_window)`` of the current step."""
        return self._g.mask_info()

    @property
    def pending_focus(self) -> Optional[Tuple[int, int]]:
        """The focus tile picked by a ``CELL`` id, waiting for its ``SLOT`` id."""
        return self._g.pending_focus

    def cancel_focus(self) -> bool:
        """Takes back the ``CELL`` id of a pending focus; whether one was pending."""
        return self._g.cancel_focus()

    def window_origin(self) -> Tuple[int, int]:
        """The board square ``(x, y)`` of window cell ``(0, 0)``."""
        return self._g.window_origin()

    def step_flat(self, action_id: int) -> Union[Action, Focus]:
        """Takes a flat id: applies the action it completes, or picks a focus tile.
        Ids follow the package's rule (:mod:`carcassonne._ids`)."""
        return _decision(self._g.step_flat(action_id_of(action_id)))

    def decode_flat(self, action_id: int) -> Optional[Union[Action, Focus]]:
        """What a flat id would do now (``None`` if the mask does not offer it)."""
        t = self._g.decode_flat(action_id)
        return None if t is None else _decision(t)

    def flat_to_action(self, action_id: int) -> Optional[Action]:
        """The action a flat id completes in one step now, or ``None``."""
        t = self._g.flat_to_action(action_id)
        return None if t is None else action_from_tuple(t)

    def action_to_flat(self, action: ActionLike) -> Optional[int]:
        """The first flat id of a legal action (its ``CELL`` id if it takes two steps)."""
        return self._g.action_to_flat(_as_tuple(action))

    def action_to_flat_path(self, action: ActionLike) -> Optional[Tuple[int, Optional[int]]]:
        """Both flat ids of a legal action (the second is ``None`` for one step)."""
        return self._g.action_to_flat_path(_as_tuple(action))

    # ----- rendering ------------------------------------------------------------------

    def render_text(self) -> str:
        """The board as text."""
        return self._g.render_text()

    def render_svg(self) -> str:
        """The board as an SVG picture."""
        return self._g.render_svg()

    def _repr_svg_(self) -> str:
        return self._g.render_svg()

    def __str__(self) -> str:
        return self._g.render_text()

    def __repr__(self) -> str:
        return repr(self._g)


def _decision(t: Tuple[object, ...]) -> Union[Action, Focus]:
    if t[0] == "focus":
        return Focus(int(t[1]), int(t[2]))  # type: ignore[call-overload]
    return action_from_tuple(t)
