"""Compiled core of the ``carcassonne`` package (see ``carcassonne.Game`` for the
readable interface). Actions cross this module as tuples: the kind's record name, then
its fields in the order ``action_schema()`` gives, absent ones ``None``:
``("place_tile", x, y, rot, bridge)`` (``bridge`` ``None`` or ``(x, y, axis)``),
``("deploy", figure, x, y, feature)``, ``("pass",)``, ``("draw", tile_id)``, ..."""

from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeAlias

__all__ = [
    "Game",
    "VectorEnv",
    "action_schema",
    "state_schema",
    "tile_ids",
    "phase_names",
    "plane_names",
    "global_blocks",
    "encoder_info",
    "episode_seed",
    "describe_action_id",
    "rotate_board",
    "rotate_globals",
    "rotate_action_id",
    "step_rewards",
    "play_games",
    "tile_geometry",
    "tile_symbols",
    "_game_from_record",
    "_vector_env_from_state",
    "play_match",
    "match_summary",
    "match_game_ids",
    "selfplay",
    "DatasetLoader",
    "bot_spec",
    "__version__",
    "LAYOUT_VERSION",
]

__version__: str
LAYOUT_VERSION: str

_ActionTuple: TypeAlias = Tuple[Any, ...]

@final
class Game:
    def __new__(
        cls,
        players: Optional[int] = None,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        seed: Optional[int] = None,
        chance: str = "sampled",
        window: int = 32,
        start: Optional[Mapping[str, Any]] = None,
        preset: str = "full",
    ) -> Game: ...
    @staticmethod
    def from_record(
        text: str, window: Optional[int] = None, chance: Optional[str] = None, preset: str = "full"
    ) -> Game: ...
    def to_record(self, id: str = "game") -> str: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str, str]]: ...
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, _memo: Any) -> Game: ...
    @property
    def config(self) -> Dict[str, Any]: ...
    @property
    def num_players(self) -> int: ...
    @property
    def window(self) -> int: ...
    @property
    def preset(self) -> str: ...
    def encoder_info(self) -> Dict[str, Any]: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def to_play(self) -> Optional[int]: ...
    @property
    def turn_player(self) -> int: ...
    @property
    def scores(self) -> List[int]: ...
    def scores_if_ended_now(self) -> List[int]: ...
    @property
    def tiles_left(self) -> int: ...
    @property
    def tile_in_hand(self) -> Optional[str]: ...
    def expansion_state(self) -> Dict[str, Any]: ...
    @property
    def chance(self) -> str: ...
    @property
    def pending_focus(self) -> Optional[Tuple[int, int]]: ...
    def cancel_focus(self) -> bool: ...
    @property
    def last_placed(self) -> Tuple[int, int, str, int]: ...
    @property
    def event_count(self) -> int: ...
    def events(self, since: int = 0) -> List[Dict[str, Any]]: ...
    def supply(self, player: int, figure: str) -> int: ...
    def supplies(self) -> List[Dict[str, int]]: ...
    def board(self) -> List[Tuple[int, int, str, int]]: ...
    def figures(self) -> List[Tuple[int, str, int, int, int]]: ...
    def feature_id(self, x: int, y: int, feature: int) -> str: ...
    def remaining_tiles(self) -> List[Tuple[str, int]]: ...
    def score_events(self) -> List[Tuple[int, int, str, Optional[Tuple[int, int, int]]]]: ...
    def state_hash(self) -> int: ...
    def legal_actions(self) -> List[_ActionTuple]: ...
    def is_legal(self, action: Any) -> bool: ...
    def apply(self, action: Any) -> None: ...
    def chance_outcomes(self) -> List[Tuple[str, float]]: ...
    def builtin_action(self, kind: str, seed: int = 0) -> _ActionTuple: ...
    def search(
        self,
        budget: Union[int, str],
        seed: int = 0,
        evaluator: Optional[Callable[[Dict[str, npt.NDArray[Any]]], Any]] = None,
        batch: int = 8,
        c: Optional[float] = None,
        margin: Optional[float] = None,
        playout: Optional[float] = None,
        standing: Optional[float] = None,
        standing_end: Optional[float] = None,
    ) -> Dict[str, Any]: ...
    def render_text(self) -> str: ...
    def render_svg(self) -> str: ...
    def window_origin(self) -> Tuple[int, int]: ...
    def observation(
        self,
        player: Optional[int] = None,
        board: Optional[npt.NDArray[np.uint8]] = None,
        globals: Optional[npt.NDArray[np.float32]] = None,
        action_mask: Optional[npt.NDArray[np.int8]] = None,
    ) -> Dict[str, npt.NDArray[Any]]: ...
    def legal_mask(self) -> npt.NDArray[np.int8]: ...
    def mask_info(self) -> Tuple[int, int, int]: ...
    def decode_flat(self, id: int) -> Optional[_ActionTuple]: ...
    def step_flat(self, id: int) -> _ActionTuple: ...
    def action_to_flat(self, action: Any) -> Optional[int]: ...
    def action_to_flat_path(self, action: Any) -> Optional[Tuple[int, Optional[int]]]: ...
    def flat_to_action(self, id: int) -> Optional[_ActionTuple]: ...

@final
class VectorEnv:
    def __new__(
        cls,
        num_envs: int,
        players: Optional[int] = None,
        sets: Optional[Sequence[str]] = None,
        edition: Optional[str] = None,
        rules: Optional[Mapping[str, Any]] = None,
        figures: Optional[Mapping[str, int]] = None,
        seed: Optional[int] = None,
        window: int = 32,
        reward: str = "score",
        opponents: Optional[str] = None,
        learner_seat: Optional[int] = 0,
        outside_window: str = "mask",
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        autoreset: str = "same-step",
        threads: int = 1,
        preset: str = "full",
    ) -> VectorEnv: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def window(self) -> int: ...
    @property
    def num_planes(self) -> int: ...
    @property
    def num_globals(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def single_agent(self) -> bool: ...
    @property
    def external_opponents(self) -> bool: ...
    @property
    def preset(self) -> str: ...
    def encoder_info(self) -> Dict[str, Any]: ...
    def episode_seeds(self) -> npt.NDArray[np.uint64]: ...
    def builtin_actions(
        self, kind: str, seed: int = 0, active: Optional[npt.NDArray[np.bool_]] = None
    ) -> npt.NDArray[np.int64]: ...
    def learner_seats(self) -> npt.NDArray[np.int32]: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]: ...
    def game(self, index: int) -> Game: ...
    def reset(
        self,
        action_mask: npt.NDArray[np.int8],
        to_play: npt.NDArray[np.int32],
        board: Optional[npt.NDArray[np.uint8]] = None,
        globals: Optional[npt.NDArray[np.float32]] = None,
        seeds: Union[None, int, Sequence[int]] = None,
        outside_window: Optional[npt.NDArray[np.uint32]] = None,
        board_kept: bool = False,
    ) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        action_mask: npt.NDArray[np.int8],
        rewards: npt.NDArray[np.float32],
        to_play: npt.NDArray[np.int32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        board: Optional[npt.NDArray[np.uint8]] = None,
        globals: Optional[npt.NDArray[np.float32]] = None,
        final_scores: Optional[npt.NDArray[np.int32]] = None,
        outside_window: Optional[npt.NDArray[np.uint32]] = None,
        episode_returns: Optional[npt.NDArray[np.float32]] = None,
        episode_lengths: Optional[npt.NDArray[np.int32]] = None,
        final_board: Optional[npt.NDArray[np.uint8]] = None,
        final_globals: Optional[npt.NDArray[np.float32]] = None,
        active: Optional[npt.NDArray[np.bool_]] = None,
        board_kept: bool = False,
    ) -> None: ...

def tile_ids() -> List[str]: ...
def tile_geometry(tile_id: str, rot: int = 0) -> List[Dict[str, Any]]: ...
def tile_symbols(tile_id: str) -> List[str]: ...
def _game_from_record(text: str, preset: str = "full") -> Game: ...
def _vector_env_from_state(state: str) -> VectorEnv: ...
def phase_names() -> List[str]: ...
def plane_names() -> List[str]: ...
def global_blocks() -> List[Tuple[str, int, int]]: ...
def action_schema() -> List[Tuple[str, List[Tuple[str, str]], bool, str]]: ...
def state_schema() -> List[Tuple[str, str, str, str, List[Tuple[str, str, bool, str]]]]: ...
def encoder_info(
    window: int = 32,
    preset: str = "full",
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
) -> Dict[str, Any]: ...
def episode_seed(seed: int, env: int, episode: int) -> int: ...
def describe_action_id(id: int, window: int = 32) -> Tuple[str, List[str]]: ...
def rotate_board(board: npt.NDArray[np.uint8], quarter_turns: int) -> npt.NDArray[np.uint8]: ...
def rotate_globals(globals: npt.NDArray[np.float32], quarter_turns: int) -> npt.NDArray[np.float32]: ...
def rotate_action_id(id: int, quarter_turns: int, window: int = 32) -> int: ...
def step_rewards(mode: str, before: Sequence[int], after: Sequence[int], terminal: bool) -> List[float]: ...
def play_games(
    num_games: int,
    players: Sequence[str],
    seed: int = 0,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
) -> npt.NDArray[np.int32]: ...
def bot_spec(spec: str) -> str: ...
def play_match(
    bots: Sequence[str],
    games: int = 100,
    seed: int = 0,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    threads: int = 1,
    first_game: int = 0,
    out: Optional[str] = None,
    part_games: int = 256,
) -> Dict[str, Any]: ...
def match_summary(
    bots: Sequence[str],
    seating: npt.ArrayLike,
    scores: npt.ArrayLike,
    decisions: npt.ArrayLike,
    think_seconds: npt.ArrayLike,
    game: Optional[Sequence[int]] = None,
) -> Dict[str, Any]: ...
def match_game_ids(
    bots: Sequence[str],
    games: int = 100,
    seed: int = 0,
    players: Optional[int] = None,
    sets: Optional[Sequence[str]] = None,
    edition: Optional[str] = None,
    rules: Optional[Mapping[str, Any]] = None,
    figures: Optional[Mapping[str, int]] = None,
    first_game: int = 0,
) -> List[str]: ...
def selfplay(
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
    preset: str = "compact",
    sample_moves: int = 30,
    evaluator: Optional[Callable[[Dict[str, npt.NDArray[Any]]], Any]] = None,
    batch: int = 8,
    c: Optional[float] = None,
    margin: Optional[float] = None,
    playout: Optional[float] = None,
    standing: Optional[float] = None,
    standing_end: Optional[float] = None,
    out: Optional[str] = None,
    part_games: Optional[int] = None,
    seat_name: Optional[str] = None,
) -> Dict[str, Any]: ...

@final
class DatasetLoader:
    def __new__(
        cls,
        path: str,
        preset: str = "compact",
        window: Optional[int] = None,
        shuffle: bool = True,
        seed: int = 0,
        threads: int = 1,
        epochs: int = 1,
        shuffle_buffer: int = 4096,
        skip_bad: bool = False,
        games: Optional[List[str]] = None,
    ) -> "DatasetLoader": ...
    def next_batch(self, size: int) -> Optional[Dict[str, npt.NDArray[Any]]]: ...
    @property
    def board_shape(self) -> Tuple[int, int, int]: ...
    @property
    def num_globals(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def decisions(self) -> int: ...
    @property
    def rows_given(self) -> int: ...
    @property
    def dropped(self) -> int: ...
    @property
    def peak_rows_held(self) -> int: ...
    @property
    def max_rows_held(self) -> int: ...
    @property
    def skipped(self) -> List[str]: ...
