//! Queries on a game: whose decision, phase, scores, supplies, the board, the dragon and
//! the fairy, towers, tower pieces and prisoners, the tiles left.

use crate::engine_types::{CarcPhase, CarcSupply};
use crate::guard::{check_out, put, with_game, write_array, write_iter, write_out, CarcGame};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::rules::state::{StateRow, StateValue};
use carcassonne_core::{Figure, Phase};

/// The player value meaning "nobody" (`carc_game_to_play` when the game is over or waits
/// for a draw).
pub const CARC_NO_PLAYER: u32 = 0xFFFF_FFFF;
/// The tile value meaning "no tile" (`carc_game_tile_in_hand` outside `CARC_PHASE_PLACE_TILE`).
pub const CARC_NO_TILE: u16 = 0xFFFF;

/// A tile on the board (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcPlacedTile {
    /// Square, x (east).
    pub x: i32,
    /// Square, y (south).
    pub y: i32,
    /// Tile kind index (see `carc_tile_kind_id`).
    pub kind: u16,
    /// Quarter turns clockwise, 0..=3.
    pub rot: u8,
    /// Always 0.
    pub reserved: u8,
}

/// A figure on the board (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcBoardFigure {
    /// Square of its tile, x.
    pub x: i32,
    /// Square of its tile, y.
    pub y: i32,
    /// Owner's seat.
    pub owner: u8,
    /// A `CarcFigure`.
    pub figure: u8,
    /// Local feature index on its tile; for a barn, the `CarcCorner` it stands on.
    pub feature: u8,
    /// Always 0.
    pub reserved: u8,
}

/// The dragon (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcDragon {
    /// Square, x (0 when not on the board).
    pub x: i32,
    /// Square, y (0 when not on the board).
    pub y: i32,
    /// 1 when the dragon is on the board.
    pub on_board: u8,
    /// 1 during a dragon flight (`CARC_PHASE_DRAGON_FLIGHT`).
    pub in_flight: u8,
    /// Steps taken in the current flight.
    pub flight_steps: u8,
    /// Always 0.
    pub reserved: u8,
}

/// The fairy (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcFairy {
    /// Square, x (0 when not on the board).
    pub x: i32,
    /// Square, y (0 when not on the board).
    pub y: i32,
    /// 1 when the fairy is on the board.
    pub on_board: u8,
    /// 1 when it stands next to a figure (next-to-follower rule).
    pub attached: u8,
    /// Seat of the figure's owner (0 when not attached).
    pub owner: u8,
    /// Local feature index of that figure (`CARC_NO_FEATURE` when not attached).
    pub feature: u8,
}

/// The value of `CarcTower::top_owner` and `CarcTower::top_figure` for an open tower.
pub const CARC_NO_TOP: u8 = 0xFF;

/// A tower foundation on the board with its height and the figure on top (12 bytes,
/// blittable; the Tower, TW1, TW2).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcTower {
    /// Square of its tile, x.
    pub x: i32,
    /// Square of its tile, y.
    pub y: i32,
    /// Local feature index of the foundation (`t1`) on its tile.
    pub feature: u8,
    /// Tower pieces on it.
    pub height: u8,
    /// Seat of the owner of the figure on top, which closes the tower; `CARC_NO_TOP`
    /// when open.
    pub top_owner: u8,
    /// The `CarcFigure` on top; `CARC_NO_TOP` when open.
    pub top_figure: u8,
}

fn seat(h: &CarcGame, player: u32) -> Result<usize, Failure> {
    let players = h.game().num_players();
    if (player as usize) < players {
        Ok(player as usize)
    } else {
        Err(Failure::invalid(format!(
            "player {player} is not a seat of this {players}-player game"
        )))
    }
}

/// Writes the number of players to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_num_players(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_num_players", game, |h| {
        put(out, "out", h.game().num_players() as u32)
    })
}

/// Writes the seat that decides now to `*out`, or `CARC_NO_PLAYER` when the game is over
/// or waits for a draw or a token of the sheep bag (explicit chance). It differs from the turn player during a dragon
/// flight and a wagon move.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_to_play(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_to_play", game, |h| {
        let phase = h.game().phase();
        let player = if phase == Phase::GameOver || phase.is_chance() {
            CARC_NO_PLAYER
        } else {
            h.game().to_play() as u32
        };
        put(out, "out", player)
    })
}

/// Writes the seat whose turn it is (the last turn's when the game is over) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_turn_player(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_turn_player", game, |h| {
        put(out, "out", h.game().turn_player() as u32)
    })
}

/// Writes what the game waits for (a `CarcPhase`) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_phase(game: *const CarcGame, out: *mut CarcPhase) -> CarcStatus {
    with_game("carc_game_phase", game, |h| {
        put(out, "out", CarcPhase::from(h.game().phase()))
    })
}

/// Writes 1 to `*out` when the game is over, else 0.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_is_terminal(game: *const CarcGame, out: *mut u8) -> CarcStatus {
    with_game("carc_game_is_terminal", game, |h| {
        put(out, "out", u8::from(h.game().is_terminal()))
    })
}

/// Writes the scores, one per seat, into `buf` (`len` elements); `needed` receives the
/// number of players. After the game is over they include the final scoring.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_scores(
    game: *const CarcGame,
    buf: *mut i32,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_scores", game, |h| {
        write_array(h.game().scores(), buf, len, needed, "the scores")
    })
}

/// Writes each seat's score if the game ended now into `buf` (`len` elements): the
/// points so far plus the final scoring of what is on the board (incomplete features,
/// farmers, the sets' own end-of-game scoring), read on a copy (the game is unchanged).
/// The points of a turn still in progress are not in it; after the game is over, the
/// final scores. `needed` receives the number of players.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_scores_if_ended_now(
    game: *const CarcGame,
    buf: *mut i32,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_scores_if_ended_now", game, |h| {
        write_array(
            &h.game().scores_if_ended_now(),
            buf,
            len,
            needed,
            "the scores if the game ended now",
        )
    })
}

/// Writes the supply of seat `player` (figures not on the board, abbey tiles left) to
/// `*out`. A seat outside the game is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_supply(
    game: *const CarcGame,
    player: u32,
    out: *mut CarcSupply,
) -> CarcStatus {
    with_game("carc_game_supply", game, |h| {
        check_out(out, "out")?;
        let p = seat(h, player)?;
        write_out(out, CarcSupply::from(h.game().held(p)));
        Ok(())
    })
}

/// Writes the kind index of the tile drawn and waiting to be placed to `*out`, or
/// `CARC_NO_TILE` outside `CARC_PHASE_PLACE_TILE`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_tile_in_hand(game: *const CarcGame, out: *mut u16) -> CarcStatus {
    with_game("carc_game_tile_in_hand", game, |h| {
        let tile = h
            .game()
            .tile_in_hand()
            .map_or(CARC_NO_TILE, |k| k.index() as u16);
        put(out, "out", tile)
    })
}

/// Writes the number of tiles left to draw to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_tiles_left(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_tiles_left", game, |h| {
        put(out, "out", h.game().tiles_left())
    })
}

/// Writes the number of tiles left to draw per tile kind into `buf` (`len` elements,
/// index = tile kind index); `needed` receives the number of tile kinds
/// (`carc_tile_kind_count`).
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_remaining_tiles(
    game: *const CarcGame,
    buf: *mut u8,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_remaining_tiles", game, |h| {
        write_array(
            h.game().remaining_tiles(),
            buf,
            len,
            needed,
            "the remaining tile counts",
        )
    })
}

/// Writes the tiles on the board, in the order they were placed, into `buf` (`len`
/// elements); `needed` receives their number. The start tiles come first: the start tile
/// (`BASE-D`, or the River's spring), or with the Count the 12 squares of the City of
/// Carcassonne row by row (`COUNT-01` at (-2, -1) to `COUNT-12` at (1, 1), CC1) followed,
/// with a River, by the spring at (2, -1) (CC9).
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_placed_tiles(
    game: *const CarcGame,
    buf: *mut CarcPlacedTile,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_placed_tiles", game, |h| {
        let game = h.game();
        let tiles = game.board().placements().iter().map(|p| CarcPlacedTile {
            x: p.pos.x,
            y: p.pos.y,
            kind: p.kind.index() as u16,
            rot: p.rot.quarter_turns(),
            reserved: 0,
        });
        write_iter(tiles, buf, len, needed, "the placed tiles")
    })
}

/// Writes the tile placed last to `*out`: before any placement, the last start tile
/// (see `carc_game_placed_tiles`: `BASE-D`, the spring, or with the Count `COUNT-12`, or
/// the spring with the Count and a River); an abbey placed by AM1 is a tile too.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_last_placed(
    game: *const CarcGame,
    out: *mut CarcPlacedTile,
) -> CarcStatus {
    with_game("carc_game_last_placed", game, |h| {
        check_out(out, "out")?;
        let game = h.game();
        let p = game
            .board()
            .placements()
            .last()
            .expect("the start tile is always on the board");
        write_out(
            out,
            CarcPlacedTile {
                x: p.pos.x,
                y: p.pos.y,
                kind: p.kind.index() as u16,
                rot: p.rot.quarter_turns(),
                reserved: 0,
            },
        );
        Ok(())
    })
}

/// Writes the figures on the board into `buf` (`len` elements); `needed` receives their
/// number.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_board_figures(
    game: *const CarcGame,
    buf: *mut CarcBoardFigure,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_board_figures", game, |h| {
        let game = h.game();
        let board = game.board();
        let figures = game.board_figures().iter().map(|f| {
            let pos = board.placement(f.placement as usize).pos;
            CarcBoardFigure {
                x: pos.x,
                y: pos.y,
                owner: f.owner,
                figure: f.figure as u8,
                feature: f.local,
                reserved: 0,
            }
        });
        write_iter(figures, buf, len, needed, "the board figures")
    })
}

/// The value of column `column` of a row of a state table, as its C number (a seat, an
/// integer, a `CarcFigure`), or `None` when absent.
fn cell_of(row: &StateRow<'_>, column: &str) -> Option<i32> {
    match row.get(column)? {
        StateValue::Absent => None,
        value => Some(crate::expansion_state::cell(value)),
    }
}

/// A value of a state table that fits a byte field of a deprecated struct (seats, heights,
/// steps, local features, figures: all below 256).
fn byte(value: i32) -> u8 {
    u8::try_from(value).unwrap_or(u8::MAX)
}

/// Writes where the dragon is and how far its current flight has gone to `*out`: the row
/// of the state table `dragon` (PD2, PD5).
///
/// Deprecated: use `carc_game_expansion_state` and the table `dragon` (columns `x`, `y`,
/// `flight_steps`); this function reads that table and will be removed in a later release.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[deprecated(note = "use carc_game_expansion_state and the table dragon")]
#[no_mangle]
pub extern "C" fn carc_game_dragon(game: *const CarcGame, out: *mut CarcDragon) -> CarcStatus {
    with_game("carc_game_dragon", game, |h| {
        check_out(out, "out")?;
        let state = h.game().expansion_state();
        let mut dragon = CarcDragon::default();
        if let Some(row) = state.row("dragon") {
            dragon.x = cell_of(&row, "x").unwrap_or(0);
            dragon.y = cell_of(&row, "y").unwrap_or(0);
            dragon.on_board = 1;
            if let Some(steps) = cell_of(&row, "flight_steps") {
                dragon.in_flight = 1;
                dragon.flight_steps = byte(steps);
            }
        }
        write_out(out, dragon);
        Ok(())
    })
}

/// Writes where the fairy is and which figure it stands next to to `*out`: the row of
/// the state table `fairy` (PD15).
///
/// Deprecated: use `carc_game_expansion_state` and the table `fairy` (columns `x`, `y`,
/// `mover`, `owner`, `feature`); this function reads that table and will be removed in a
/// later release.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[deprecated(note = "use carc_game_expansion_state and the table fairy")]
#[no_mangle]
pub extern "C" fn carc_game_fairy(game: *const CarcGame, out: *mut CarcFairy) -> CarcStatus {
    with_game("carc_game_fairy", game, |h| {
        check_out(out, "out")?;
        let state = h.game().expansion_state();
        let mut fairy = CarcFairy {
            feature: crate::action::CARC_NO_FEATURE,
            ..CarcFairy::default()
        };
        if let Some(row) = state.row("fairy") {
            fairy.x = cell_of(&row, "x").unwrap_or(0);
            fairy.y = cell_of(&row, "y").unwrap_or(0);
            fairy.on_board = 1;
            if let (Some(owner), Some(feature)) = (cell_of(&row, "owner"), cell_of(&row, "feature"))
            {
                fairy.attached = 1;
                fairy.owner = byte(owner);
                fairy.feature = byte(feature);
            }
        }
        write_out(out, fairy);
        Ok(())
    })
}

/// Writes the towers on the board (every tower foundation, in placement order) into `buf`
/// (`len` elements); `needed` receives their number (0 without the Tower): the rows of
/// the state table `towers` (TW1, TW2).
///
/// Deprecated: use `carc_game_expansion_state` and the table `towers` (columns `x`, `y`,
/// `feature`, `height`, `top_owner`, `top_figure`); this function reads that table and
/// will be removed in a later release.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[deprecated(note = "use carc_game_expansion_state and the table towers")]
#[no_mangle]
pub extern "C" fn carc_game_towers(
    game: *const CarcGame,
    buf: *mut CarcTower,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_towers", game, |h| {
        let state = h.game().expansion_state();
        let towers = state.rows_of("towers").map(|row| CarcTower {
            x: cell_of(&row, "x").unwrap_or(0),
            y: cell_of(&row, "y").unwrap_or(0),
            feature: cell_of(&row, "feature").map_or(0, byte),
            height: cell_of(&row, "height").map_or(0, byte),
            top_owner: cell_of(&row, "top_owner").map_or(CARC_NO_TOP, byte),
            top_figure: cell_of(&row, "top_figure").map_or(CARC_NO_TOP, byte),
        });
        let towers: Vec<CarcTower> = towers.collect();
        write_iter(towers.into_iter(), buf, len, needed, "the towers")
    })
}

/// Writes the tower pieces seat `player` has left to `*out` (TW1; 0 without the Tower):
/// its row of the state table `tower_pieces`. A seat outside the game is
/// `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Deprecated: use `carc_game_expansion_state` and the table `tower_pieces` (columns
/// `seat`, `pieces`); this function reads that table and will be removed in a later
/// release.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[deprecated(note = "use carc_game_expansion_state and the table tower_pieces")]
#[no_mangle]
pub extern "C" fn carc_game_tower_pieces(
    game: *const CarcGame,
    player: u32,
    out: *mut u32,
) -> CarcStatus {
    with_game("carc_game_tower_pieces", game, |h| {
        let p = seat(h, player)?;
        let state = h.game().expansion_state();
        let pieces = state
            .rows_of("tower_pieces")
            .find(|row| cell_of(row, "seat") == Some(p as i32))
            .and_then(|row| cell_of(&row, "pieces"))
            .unwrap_or(0);
        put(out, "out", u32::try_from(pieces).unwrap_or(0))
    })
}

/// Writes the figures of seat `owner` that seat `holder` holds prisoner to `*out`, by
/// kind (TW4; `abbey` is always 0): the rows of the state table `prisoners` for that
/// holder and owner. A seat outside the game is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Deprecated: use `carc_game_expansion_state` and the table `prisoners` (columns
/// `holder`, `owner`, `figure`, `count`); this function reads that table and will be
/// removed in a later release.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[deprecated(note = "use carc_game_expansion_state and the table prisoners")]
#[no_mangle]
pub extern "C" fn carc_game_prisoners(
    game: *const CarcGame,
    holder: u32,
    owner: u32,
    out: *mut CarcSupply,
) -> CarcStatus {
    with_game("carc_game_prisoners", game, |h| {
        check_out(out, "out")?;
        let (holder, owner) = (seat(h, holder)?, seat(h, owner)?);
        let state = h.game().expansion_state();
        let mut supply = CarcSupply::default();
        for row in state.rows_of("prisoners") {
            if cell_of(&row, "holder") != Some(holder as i32)
                || cell_of(&row, "owner") != Some(owner as i32)
            {
                continue;
            }
            let count = cell_of(&row, "count").map_or(0, |n| u8::try_from(n).unwrap_or(u8::MAX));
            // Builders, pigs and shepherds are never captured (TW3, HS1): no rows of theirs.
            match row.get("figure") {
                Some(StateValue::Figure(Figure::Follower)) => supply.follower = count,
                Some(StateValue::Figure(Figure::BigFollower)) => supply.big_follower = count,
                Some(StateValue::Figure(Figure::Abbot)) => supply.abbot = count,
                Some(StateValue::Figure(Figure::Mayor)) => supply.mayor = count,
                Some(StateValue::Figure(Figure::Wagon)) => supply.wagon = count,
                Some(StateValue::Figure(Figure::Barn)) => supply.barn = count,
                _ => {}
            }
        }
        write_out(out, supply);
        Ok(())
    })
}

/// Writes a 64-bit hash of the game state to `*out` (equal states, equal hashes; a
/// clone hashes like its original).
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_state_hash(game: *const CarcGame, out: *mut u64) -> CarcStatus {
    with_game("carc_game_state_hash", game, |h| {
        put(out, "out", h.game().state_hash())
    })
}

#[cfg(test)]
#[path = "tests/unit/state.rs"]
mod tests;
