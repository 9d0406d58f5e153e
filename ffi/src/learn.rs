//! The learning interface: observation sizes, observations, flat action ids and masks.
//! Every function here uses the engine's one observation encoder
//! (`carcassonne_session::encode`), the same as the Python package, so a policy sees the same
//! tensors and ids through either.
//!
//! Flat ids come in blocks (`TILE`, `CELL`, `SLOT`, `CORNER`, `QUARTER`, `BRIDGE`,
//! `BAZAAR`, `BID`, `CHOICE`, `PASS`; `carc_game_layout_block` lists those of a game's
//! preset). An action on a tile other than the one just placed, and a placement that
//! needs a bridge, take two ids: a `CELL` id picks the square (the game does not
//! change), then a `SLOT` or `BRIDGE` id completes the action. The handle keeps the
//! pending focus; applying a structured action clears it.

use crate::action::{action_from_c, CarcAction};
use crate::guard::{check_buffer, check_out, with_game, with_game_mut, write_out, CarcGame};
use crate::status::{CarcStatus, Failure};
use carcassonne_session::encode::{EncodeError, FlatDecision, FlatError};

/// Shapes of the learning interface for a game (28 bytes, blittable). They depend on the
/// window `W` of the game's configuration and on the tile catalogue, not on the state.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcObservationSizes {
    /// Window side `W`.
    pub window: u32,
    /// Number of board planes `C`.
    pub planes: u32,
    /// Length of the planes buffer, `C·W·W` bytes (layout `plane·W² + wy·W + wx`).
    pub planes_len: u32,
    /// Length of the globals buffer `G` (floats).
    pub globals_len: u32,
    /// Number of distinct flat action ids `A` (length of the mask buffer).
    pub actions: u32,
    /// Slots of the game's `SLOT` block: `S = 19` in the full encoding; under a preset
    /// the slots it keeps (0 if it keeps no `SLOT` id). Its ids are
    /// `first + slot_k·channels + channel_k` (`carc_game_layout_block` gives `first`,
    /// `carc_game_layout_label` which slot and channel each position stands for).
    pub slots: u32,
    /// Channels of the game's `SLOT` block: `F = 20` in the full encoding; under a
    /// preset the channels it keeps (0 if it keeps no `SLOT` id).
    pub channels: u32,
}

/// What a legal-move mask covered (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcMaskInfo {
    /// Legal structured actions of the decision.
    pub legal: u32,
    /// Ids set to 1 in the mask.
    pub offered: u32,
    /// Legal structured actions not offered because a square they need lies outside the
    /// window.
    pub outside_window: u32,
}

/// The id value meaning "no second id" (`carc_game_action_to_flat` for a one-step action).
pub const CARC_NO_ACTION_ID: u32 = 0xFFFF_FFFF;

/// The pending focus of a two-step flat decision (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcFocus {
    /// Square of the focus tile, x (0 when none is pending).
    pub x: i32,
    /// Square of the focus tile, y (0 when none is pending).
    pub y: i32,
    /// 1 when a `CELL` id picked the focus tile and a `SLOT` id must follow.
    pub pending: u8,
    /// Always 0.
    pub reserved8: u8,
    /// Always 0.
    pub reserved16: u16,
}

/// The board square shown in window cell (0, 0) (8 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcWindowOrigin {
    /// Board column of window column 0.
    pub x: i32,
    /// Board row of window row 0.
    pub y: i32,
}

fn encode_failure(e: EncodeError) -> Failure {
    match e {
        EncodeError::BufferSize { .. } => Failure::new(CarcStatus::BufferTooSmall, e.to_string()),
        EncodeError::Player { .. } => Failure::invalid(e.to_string()),
    }
}

/// Writes the shapes of the game's observations and flat action space to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_observation_sizes(
    game: *const CarcGame,
    out: *mut CarcObservationSizes,
) -> CarcStatus {
    with_game("carc_game_observation_sizes", game, |h| {
        check_out(out, "out")?;
        let spec = h.spec();
        let (planes, planes_len, globals_len, actions) = h.sizes();
        let layout = h.session().current_layout();
        let (slots, channels) = match layout.id_blocks().iter().find(|b| b.name == "slot") {
            Some(b) => (b.kept[0].len(), b.kept[1].len()),
            None => (0, 0),
        };
        write_out(
            out,
            CarcObservationSizes {
                window: u32::from(spec.window),
                planes: planes as u32,
                planes_len: planes_len as u32,
                globals_len: globals_len as u32,
                actions: actions as u32,
                slots: slots as u32,
                channels: channels as u32,
            },
        );
        Ok(())
    })
}

/// Writes the number of distinct flat action ids `A` (ids are `0..A`) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_num_actions(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_num_actions", game, |h| {
        crate::guard::put(out, "out", h.sizes().3 as u32)
    })
}

/// Writes the pending focus (the tile a `CELL` id picked, waiting for its `SLOT` id) to
/// `*out`; `pending` is 0 when there is none.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_pending_focus(
    game: *const CarcGame,
    out: *mut CarcFocus,
) -> CarcStatus {
    with_game("carc_game_pending_focus", game, |h| {
        check_out(out, "out")?;
        let focus = h
            .session()
            .pending_focus()
            .map_or(CarcFocus::default(), |p| CarcFocus {
                x: p.x,
                y: p.y,
                pending: 1,
                ..CarcFocus::default()
            });
        write_out(out, focus);
        Ok(())
    })
}

/// Takes back the `CELL` id of a pending focus: the mask offers the first ids of the
/// decision again (the game itself never changed). `cancelled` (optional, may be NULL)
/// receives 1 when a focus was pending, else 0; without one nothing changes.
///
/// Ownership: `game` is borrowed mutably; `cancelled` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_cancel_focus(game: *mut CarcGame, cancelled: *mut u8) -> CarcStatus {
    with_game_mut("carc_game_cancel_focus", game, |h| {
        if !cancelled.is_null() {
            check_out(cancelled, "cancelled")?;
        }
        let was = h.session().cancel_focus();
        if !cancelled.is_null() {
            write_out(cancelled, u8::from(was));
        }
        Ok(())
    })
}

/// Writes the window origin of the current decision (the board square of window cell
/// (0, 0); see `docs/observations.md`) to `*out`: window cell `(wx, wy)` shows board
/// square `(x + wx, y + wy)`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_window_origin(
    game: *const CarcGame,
    out: *mut CarcWindowOrigin,
) -> CarcStatus {
    with_game("carc_game_window_origin", game, |h| {
        check_out(out, "out")?;
        let o = h.session().window_origin();
        write_out(out, CarcWindowOrigin { x: o.x, y: o.y });
        Ok(())
    })
}

/// Writes the legal-move mask of the current step into `buf` (`int8_t [A]`, 1 = the id is
/// legal now, 0 = not); `needed` receives `A`. With a focus pending (after a `CELL` id)
/// the mask offers the `SLOT` ids that complete an action on the focus tile. The mask is
/// all zeros when the game is over or waits for a draw. If `info` is not NULL it receives
/// what the mask covered (legal moves outside the window are counted, not offered).
///
/// Ownership: `game` is borrowed; `buf` (`len` bytes, may be NULL with `len == 0` to ask
/// for `A`), `needed` and `info` (optional) belong to the caller. A longer buffer is
/// accepted (only the first `A` bytes are written). On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_legal_mask(
    game: *const CarcGame,
    buf: *mut i8,
    len: u32,
    needed: *mut u32,
    info: *mut CarcMaskInfo,
) -> CarcStatus {
    with_game("carc_game_legal_mask", game, |h| {
        check_buffer(buf, len, needed)?;
        if !info.is_null() {
            check_out(info, "info")?;
        }
        let n = h.sizes().3;
        write_out(needed, n as u32);
        if buf.is_null() {
            return Ok(());
        }
        if (len as usize) < n {
            return Err(Failure::new(
                CarcStatus::BufferTooSmall,
                format!("the mask needs {n} bytes, the buffer holds {len}"),
            ));
        }
        // SAFETY: non-NULL, and by the ABI contract valid for `len >= n` bytes that
        // nothing else accesses during the call.
        let mask = unsafe { std::slice::from_raw_parts_mut(buf, n) };
        let covered = h.session().legal_mask(mask).map_err(encode_failure)?;
        if !info.is_null() {
            write_out(
                info,
                CarcMaskInfo {
                    legal: covered.legal,
                    offered: covered.offered,
                    outside_window: covered.outside_window,
                },
            );
        }
        Ok(())
    })
}

/// Takes flat id `id`: either it completes a structured action, which is applied, or it
/// is a `CELL` id that picks the focus tile of a two-step action (the game does not
/// change; a `SLOT` id must follow). If `completed` is not NULL it receives 1 in the first
/// case and 0 in the second.
///
/// Returns `CARC_STATUS_INVALID_ARGUMENT` for an id outside `0..A`,
/// `CARC_STATUS_ILLEGAL_ACTION` for an id the mask does not offer now (also when the game
/// waits for a draw), and `CARC_STATUS_GAME_OVER` when the game is over; the game is then
/// unchanged.
///
/// Ownership: `game` is borrowed mutably; `completed` (optional) belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_apply_flat(
    game: *mut CarcGame,
    id: u32,
    completed: *mut u8,
) -> CarcStatus {
    with_game_mut("carc_game_apply_flat", game, |h| {
        if !completed.is_null() {
            check_out(completed, "completed")?;
        }
        let actions = h.sizes().3;
        if id as usize >= actions {
            return Err(Failure::invalid(format!(
                "action id {id} is outside 0..{actions}"
            )));
        }
        let decision = h.session().step(id).map_err(|e| match e {
            FlatError::GameOver => Failure::new(CarcStatus::GameOver, "the game is over"),
            FlatError::ChanceNode => Failure::new(
                CarcStatus::IllegalAction,
                format!("action id {id}: the game waits for a draw, not a player decision"),
            ),
            FlatError::NotOffered { .. } => Failure::new(
                CarcStatus::IllegalAction,
                format!("action id {id} is not legal now"),
            ),
        })?;
        let done = u8::from(matches!(decision, FlatDecision::Action(_)));
        if !completed.is_null() {
            write_out(completed, done);
        }
        Ok(())
    })
}

/// Writes the flat ids of the legal structured action `*action` in the current state (no
/// focus pending): `*first` is the id to take now and `*second` the `SLOT` id that
/// follows for a two-step action, or `CARC_NO_ACTION_ID`.
///
/// Returns `CARC_STATUS_ILLEGAL_ACTION` if the action is not legal now, and
/// `CARC_STATUS_INVALID_ARGUMENT` if it is malformed or legal but has no flat id (a
/// square outside the window, a draw).
///
/// Ownership: `game` is borrowed; `action` is read; `first` and `second` belong to the
/// caller.
#[no_mangle]
pub extern "C" fn carc_game_action_to_flat(
    game: *const CarcGame,
    action: *const CarcAction,
    first: *mut u32,
    second: *mut u32,
) -> CarcStatus {
    with_game("carc_game_action_to_flat", game, |h| {
        if action.is_null() {
            return Err(Failure::null("action"));
        }
        if !action.is_aligned() {
            return Err(Failure::invalid("action is not aligned for CarcAction"));
        }
        check_out(first, "first")?;
        check_out(second, "second")?;
        // SAFETY: non-NULL, aligned, a readable CarcAction (ABI contract).
        let a = action_from_c(&unsafe { action.read() }, h.game().num_players())?;
        let mut session = h.session();
        if !session.legal_actions().contains(&a) {
            return Err(Failure::new(
                CarcStatus::IllegalAction,
                format!("{a} is not legal now"),
            ));
        }
        let path = session.flat_path(a).ok_or_else(|| {
            Failure::invalid(format!(
                "{a} has no flat id (a square outside the window, or a draw)"
            ))
        })?;
        write_out(first, path.first);
        write_out(second, path.second.unwrap_or(CARC_NO_ACTION_ID));
        Ok(())
    })
}

/// Writes the observation of the current step for seat `player` (egocentric: relative
/// seat 0 is `player`) into `planes` (`uint8_t [C·W·W]`, layout `plane·W² + wy·W + wx`)
/// and `globals` (`float [G]`); `planes_needed` and `globals_needed` receive `C·W·W` and
/// `G`. The tables of planes and globals are in the project's `docs/observations.md`.
///
/// Pass both buffers as NULL with lengths 0 to ask for the sizes (or use
/// `carc_game_observation_sizes`). Longer buffers are accepted (only the first elements
/// are written); a shorter one is `CARC_STATUS_BUFFER_TOO_SMALL` and nothing but the
/// sizes is written. A seat outside the game is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; the buffers and the size out-parameters belong to the
/// caller.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn carc_game_observe(
    game: *const CarcGame,
    player: u32,
    planes: *mut u8,
    planes_len: u32,
    planes_needed: *mut u32,
    globals: *mut f32,
    globals_len: u32,
    globals_needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_observe", game, |h| {
        // Both buffers, or neither to ask for the sizes.
        check_buffer(planes, planes_len, planes_needed)?;
        check_buffer(globals, globals_len, globals_needed)?;
        if planes.is_null() != globals.is_null() {
            return Err(Failure::null(if planes.is_null() {
                "planes (pass both buffers, or neither to ask for the sizes)"
            } else {
                "globals (pass both buffers, or neither to ask for the sizes)"
            }));
        }
        let players = h.game().num_players();
        if player as usize >= players {
            return Err(Failure::invalid(format!(
                "player {player} is not a seat of this {players}-player game"
            )));
        }
        let (_, np, ng, _) = h.sizes();
        write_out(planes_needed, np as u32);
        write_out(globals_needed, ng as u32);
        if planes.is_null() {
            return Ok(());
        }
        if (planes_len as usize) < np || (globals_len as usize) < ng {
            return Err(Failure::new(
                CarcStatus::BufferTooSmall,
                format!(
                    "the observation needs {np} plane bytes and {ng} globals; the buffers hold {planes_len} and {globals_len}"
                ),
            ));
        }
        // SAFETY: both non-NULL, aligned (checked), and by the ABI contract valid for
        // their lengths and not accessed elsewhere during the call.
        let (p, g) = unsafe {
            (
                std::slice::from_raw_parts_mut(planes, np),
                std::slice::from_raw_parts_mut(globals, ng),
            )
        };
        h.session()
            .observe(player as usize, p, g)
            .map_err(encode_failure)?;
        Ok(())
    })
}

#[cfg(test)]
#[path = "tests/unit/learn.rs"]
mod tests;
