//! Structured actions as a blittable struct: listing the legal ones, applying one, and the
//! chance outcomes of explicit-chance mode.

use crate::guard::{check_out, with_game, with_game_mut, write_array, write_iter, CarcGame};
use crate::status::{CallResult, CarcStatus, Failure};
use carcassonne_core::action::{ActionKind, FieldKind, FieldValue, Seat, MAX_FIELDS};
use carcassonne_core::{catalogue, Action, ActionError, Figure, Rotation, TileKind};

/// The `feature` value meaning "no feature" (a fairy placed on a tile under the on-tile
/// rule; every action kind without a feature).
pub const CARC_NO_FEATURE: u8 = 255;

/// One decision as plain data (32 bytes, no padding, blittable).
///
/// `kind` is a `CarcActionKind`. Coordinates are absolute board squares (the start tile is
/// at 0, 0; `y` grows southwards). A `feature` is the local index of a feature in its
/// tile's catalogue list (see `carc_tile_feature_id`). Fields the kind does not use are
/// 0 in actions written by the library (`feature` is `CARC_NO_FEATURE`) and are ignored
/// when the caller passes an action in.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcAction {
    /// A `CarcActionKind`.
    pub kind: u8,
    /// `PLACE_TILE`: quarter turns clockwise, 0..=3.
    pub rot: u8,
    /// `DEPLOY`, `LEAVE_QUARTER`, `DEPLOY_QUARTER`, `CAPTURE`, `EXCHANGE_PRISONER`,
    /// `PAY_RANSOM`: a `CarcFigure`.
    pub figure: u8,
    /// `DEPLOY`, `MOVE_FAIRY` (`CARC_NO_FEATURE` under the on-tile fairy), `PRINCESS`,
    /// `RETURN_ABBOT`, `MOVE_WAGON`, `LEAVE_QUARTER`, `BUILD_CASTLE`, `CAPTURE`, `FLOCK`:
    /// local feature index (the index after the catalogue's features is the tile's bridge).
    pub feature: u8,
    /// `DEPLOY_BARN`: a `CarcCorner`.
    pub corner: u8,
    /// `LEAVE_QUARTER`, `DEPLOY_QUARTER`, `MOVE_COUNT`: a `CarcQuarter`.
    pub quarter: u8,
    /// `DRAW`, `BAZAAR_SELECT`: the tile kind index (see `carc_tile_kind_id`). Not used
    /// by `PLACE_TILE`: the tile placed is the one in hand (`carc_game_tile_in_hand`); with
    /// `river2_lakes: "one-turn"` the turn's second placement places `RIV2-LAKE-CITY`,
    /// which is then in hand (R6).
    pub tile: u16,
    /// Square, x (east): `PLACE_TILE`, `PLACE_ABBEY`, `DEPLOY`, `DEPLOY_BARN`, `MOVE_FAIRY`,
    /// `PRINCESS`, `RETURN_ABBOT`, `MOVE_DRAGON`, `MOVE_WAGON`, `LEAVE_QUARTER`,
    /// `PLACE_BRIDGE`, `BUILD_CASTLE`, `PLACE_TOWER_PIECE`, `CAPTURE`, `FLOCK`.
    pub x: i32,
    /// Square, y (south), for the same kinds as `x`.
    pub y: i32,
    /// `LEAVE_QUARTER`, `QUARTER_PASS`: a `CarcQuarterStep`.
    pub step: u8,
    /// `PLACE_BRIDGE`, and `PLACE_TILE` with `has_bridge`: a `CarcAxis`.
    pub axis: u8,
    /// `BAZAAR_BUY_OR_SELL`: a `CarcBazaarChoice`; `FLOCK`: a `CarcFlockChoice`.
    pub choice: u8,
    /// `PLACE_TILE`: 1 if the placement comes with the bridge at (`bridge_x`, `bridge_y`)
    /// along `axis` (it fits only so), else 0.
    pub has_bridge: u8,
    /// `BAZAAR_SELECT`, `BAZAAR_BID`: the bid in points.
    pub bid: u16,
    /// `PAY_RANSOM`: the seat holding the prisoner (`prisoner_of`).
    pub seat: u8,
    /// `DRAW_TOKEN`: a `CarcSheepToken` (the token drawn from the bag, HS1, HS2).
    pub token: u8,
    /// `PLACE_TILE` with `has_bridge`: the square of the tile carrying the bridge, x.
    pub bridge_x: i32,
    /// `PLACE_TILE` with `has_bridge`: the square of the tile carrying the bridge, y.
    pub bridge_y: i32,
}

impl From<Action> for CarcAction {
    /// Every field is written as the action schema (`carcassonne::action::SCHEMA`)
    /// declares it; fields the kind does not use stay 0 (`feature`: `CARC_NO_FEATURE`).
    fn from(action: Action) -> CarcAction {
        let mut c = CarcAction {
            kind: action.kind() as u8,
            feature: CARC_NO_FEATURE,
            ..CarcAction::default()
        };
        let spec = action.kind().spec();
        for (f, value) in spec.fields.iter().zip(action.values().as_slice()) {
            match (f.kind, *value) {
                (FieldKind::X, FieldValue::Int(x)) => c.x = x,
                (FieldKind::Y, FieldValue::Int(y)) => c.y = y,
                (_, FieldValue::Int(_)) => unreachable!("only coordinates are plain integers"),
                (_, FieldValue::Rot(r)) => c.rot = r.quarter_turns(),
                (_, FieldValue::Figure(fig)) => c.figure = fig as u8,
                (_, FieldValue::Feature(local)) => c.feature = local,
                (_, FieldValue::OptFeature(local)) => c.feature = local.unwrap_or(CARC_NO_FEATURE),
                (_, FieldValue::Tile(t)) => c.tile = t.index() as u16,
                (_, FieldValue::Bridge(None)) => {}
                (_, bridge @ FieldValue::Bridge(Some(_))) => {
                    let (x, y, _, axis) = bridge.bridge_parts().expect("a bridge");
                    c.has_bridge = 1;
                    c.axis = axis as u8;
                    c.bridge_x = x;
                    c.bridge_y = y;
                }
                (_, FieldValue::Bid(bid)) => c.bid = bid as u16,
                (_, FieldValue::Seat(Seat(seat))) => c.seat = seat,
                (kind, named) => {
                    *c.named_member(kind).0 =
                        named.number().expect("the other values are named") as u8
                }
            }
        }
        c
    }
}

/// Reads a caller's action in a game of `players` seats; fields with values no action of
/// that game can have (a seat outside the game among them) are an error naming the field.
/// Every field is read as the action schema declares it.
pub(crate) fn action_from_c(a: &CarcAction, players: usize) -> Result<Action, Failure> {
    let kind = *ActionKind::ALL.get(a.kind as usize).ok_or_else(|| {
        Failure::invalid(format!(
            "action.kind {} is not a CarcActionKind (0..={})",
            a.kind,
            ActionKind::ALL.len() - 1
        ))
    })?;
    let mut values = [FieldValue::Int(0); MAX_FIELDS];
    let fields = kind.spec().fields;
    for (f, value) in fields.iter().zip(values.iter_mut()) {
        *value = match f.kind {
            FieldKind::X => FieldValue::Int(a.x),
            FieldKind::Y => FieldValue::Int(a.y),
            FieldKind::Rot => FieldValue::Rot(Rotation::new(a.rot).ok_or_else(|| {
                Failure::invalid(format!("action.rot {} is not a rotation (0..=3)", a.rot))
            })?),
            FieldKind::Figure => FieldValue::Figure(
                Figure::ALL.get(a.figure as usize).copied().ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.figure {} is not a CarcFigure (0..={})",
                        a.figure,
                        Figure::ALL.len() - 1
                    ))
                })?,
            ),
            FieldKind::Feature => FieldValue::Feature(a.feature),
            FieldKind::OptFeature => {
                FieldValue::OptFeature((a.feature != CARC_NO_FEATURE).then_some(a.feature))
            }
            FieldKind::Tile => FieldValue::Tile(tile_kind(u32::from(a.tile), "action.tile")?),
            FieldKind::OptBridge => match a.has_bridge {
                0 => FieldValue::Bridge(None),
                1 => {
                    let axis = a.named(FieldKind::Axis)?;
                    FieldValue::bridge(a.bridge_x, a.bridge_y, axis).expect("an axis")
                }
                n => {
                    return Err(Failure::invalid(format!(
                        "action.has_bridge {n} is not 0 or 1"
                    )))
                }
            },
            FieldKind::Bid => {
                let max = FieldKind::Bid.int_max().expect("bids are bounded");
                if u32::from(a.bid) > max {
                    return Err(Failure::invalid(format!(
                        "action.bid {} is above the highest bid ({max})",
                        a.bid
                    )));
                }
                FieldValue::Bid(u32::from(a.bid))
            }
            FieldKind::Seat => {
                if usize::from(a.seat) >= players {
                    return Err(Failure::invalid(format!(
                        "action.seat {} is not a seat of this game (0..={})",
                        a.seat,
                        players - 1
                    )));
                }
                FieldValue::Seat(Seat(a.seat))
            }
            named => a.named(named)?,
        };
    }
    Action::from_values(kind, &values[..fields.len()])
        .map_err(|e| Failure::invalid(format!("action.{e}")))
}

impl CarcAction {
    /// The member that holds a value of the named kind `kind` (a corner, a quarter, a
    /// step, an axis, a bazaar's or a shepherd's choice, a token), with its name and the C
    /// enum that numbers its values.
    fn named_member(&mut self, kind: FieldKind) -> (&mut u8, &'static str, &'static str) {
        match kind {
            FieldKind::Corner => (&mut self.corner, "corner", "CarcCorner"),
            FieldKind::Quarter => (&mut self.quarter, "quarter", "CarcQuarter"),
            FieldKind::Step => (&mut self.step, "step", "CarcQuarterStep"),
            FieldKind::Axis => (&mut self.axis, "axis", "CarcAxis"),
            FieldKind::Choice => (&mut self.choice, "choice", "CarcBazaarChoice"),
            FieldKind::FlockChoice => (&mut self.choice, "choice", "CarcFlockChoice"),
            FieldKind::Token => (&mut self.token, "token", "CarcSheepToken"),
            other => unreachable!("{other:?} has no named member"),
        }
    }

    /// The value of the named kind `kind` that its member numbers; a number past the
    /// kind's list is an error naming the member and its C enum.
    fn named(&self, kind: FieldKind) -> Result<FieldValue, Failure> {
        let mut copy = *self;
        let (&mut n, member, c_enum) = copy.named_member(kind);
        kind.value_numbered(n as usize).ok_or_else(|| {
            let (count, _) = kind.value_names().expect("a named kind");
            Failure::invalid(format!(
                "action.{member} {n} is not a {c_enum} (0..={})",
                count - 1
            ))
        })
    }
}

/// The tile kind with catalogue index `index`, or an error naming `what`.
pub(crate) fn tile_kind(index: u32, what: &str) -> Result<TileKind, Failure> {
    TileKind::from_index(index as usize).ok_or_else(|| {
        Failure::invalid(format!(
            "{what} {index} is not a tile kind index (0..{})",
            catalogue().len()
        ))
    })
}

/// Applies an engine action, mapping refusals to statuses; success clears a pending flat
/// focus.
pub(crate) fn apply_action(handle: &mut CarcGame, action: Action) -> CallResult {
    handle.session().apply(action).map_err(|e| match e {
        ActionError::GameOver => Failure::new(CarcStatus::GameOver, e.to_string()),
        ActionError::Illegal { .. } => Failure::new(CarcStatus::IllegalAction, e.to_string()),
    })
}

/// Writes every legal action of the current decision, in the engine's deterministic order,
/// into `buf` (`len` elements); `needed` receives their number. When the game is over or
/// (explicit chance) waits for a draw, the list holds the game's `DRAW` outcomes or is empty.
///
/// Ownership: `game` is borrowed for the call; `buf` (`len` elements, may be NULL with
/// `len == 0` to ask for the count) and `needed` belong to the caller. On
/// `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_legal_actions(
    game: *const CarcGame,
    buf: *mut CarcAction,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_legal_actions", game, |h| {
        let session = h.session();
        let list = session.legal_actions().iter().map(|a| CarcAction::from(*a));
        write_iter(list, buf, len, needed, "the legal action list")
    })
}

/// Applies `*action` if it is legal now. An illegal action returns
/// `CARC_STATUS_ILLEGAL_ACTION` and leaves the game unchanged; a finished game returns
/// `CARC_STATUS_GAME_OVER`; a field value no action can have (kind, rot, figure, corner,
/// tile out of range) returns `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed mutably for the call; `action` is read and stays the
/// caller's.
#[no_mangle]
pub extern "C" fn carc_game_apply(game: *mut CarcGame, action: *const CarcAction) -> CarcStatus {
    with_game_mut("carc_game_apply", game, |h| {
        if action.is_null() {
            return Err(Failure::null("action"));
        }
        if !action.is_aligned() {
            return Err(Failure::invalid("action is not aligned for CarcAction"));
        }
        // SAFETY: non-NULL, aligned, and by the ABI contract a readable CarcAction (every
        // bit pattern of its integer fields is a valid value).
        let a = unsafe { action.read() };
        let action = action_from_c(&a, h.game().num_players())?;
        apply_action(h, action)
    })
}

/// One possible chance outcome in explicit-chance mode (16 bytes, blittable): a tile
/// draw, or a token of the sheep bag (HS1, HS2).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct CarcChanceOutcome {
    /// Probability of this outcome (copies of the kind that may be drawn now / all tiles
    /// that may be drawn now; tokens of the kind in the bag / tokens in the bag).
    pub probability: f64,
    /// A tile draw: the tile kind index (0 for a token).
    pub tile: u16,
    /// 1 for a token of the sheep bag (`CARC_PHASE_DRAW_TOKEN`: apply it as a
    /// `CARC_ACTION_KIND_DRAW_TOKEN` action), 0 for a tile draw.
    pub is_token: u8,
    /// A token: its `CarcSheepToken` (0 for a tile draw).
    pub token: u8,
    /// Always 0.
    pub reserved32: u32,
}

/// Writes the chance outcomes possible now with their probabilities into `buf` (`len`
/// elements); `needed` receives their number. The list is empty unless the game
/// (explicit-chance mode) waits for a draw (`CARC_PHASE_DRAW`: apply one with
/// `carc_game_apply_draw` or a `CARC_ACTION_KIND_DRAW` action) or for a token of the
/// sheep bag (`CARC_PHASE_DRAW_TOKEN`: outcomes with `is_token`, applied as a
/// `CARC_ACTION_KIND_DRAW_TOKEN` action).
///
/// Ownership: `game` is borrowed; `buf` and `needed` belong to the caller (NULL `buf` with
/// `len == 0` asks for the count; on `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is
/// written).
#[no_mangle]
pub extern "C" fn carc_game_chance_outcomes(
    game: *const CarcGame,
    buf: *mut CarcChanceOutcome,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_chance_outcomes", game, |h| {
        let tokens = h
            .game()
            .token_outcomes()
            .into_iter()
            .map(|(t, p)| CarcChanceOutcome {
                probability: p,
                is_token: 1,
                token: t as u8,
                ..CarcChanceOutcome::default()
            });
        let list: Vec<CarcChanceOutcome> = h
            .game()
            .chance_outcomes()
            .into_iter()
            .map(|(kind, p)| CarcChanceOutcome {
                probability: p,
                tile: kind.index() as u16,
                ..CarcChanceOutcome::default()
            })
            .chain(tokens)
            .collect();
        write_array(&list, buf, len, needed, "the chance outcome list")
    })
}

/// Explicit chance: the tile of kind `tile` is drawn. Same as applying a
/// `CARC_ACTION_KIND_DRAW` action: `CARC_STATUS_ILLEGAL_ACTION` when the game does not wait
/// for a draw or that tile cannot be drawn now; `CARC_STATUS_INVALID_ARGUMENT` for an index
/// outside the catalogue.
///
/// Ownership: `game` is borrowed mutably for the call.
#[no_mangle]
pub extern "C" fn carc_game_apply_draw(game: *mut CarcGame, tile: u32) -> CarcStatus {
    with_game_mut("carc_game_apply_draw", game, |h| {
        let tile = tile_kind(tile, "tile")?;
        apply_action(h, Action::Draw { tile })
    })
}

/// Writes whether `*action` is legal now (1) or not (0) to `out`. A malformed action (a
/// field value no action can have) is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `action` is read; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_is_legal(
    game: *const CarcGame,
    action: *const CarcAction,
    out: *mut u8,
) -> CarcStatus {
    with_game("carc_game_is_legal", game, |h| {
        if action.is_null() {
            return Err(Failure::null("action"));
        }
        if !action.is_aligned() {
            return Err(Failure::invalid("action is not aligned for CarcAction"));
        }
        check_out(out, "out")?;
        // SAFETY: as in `carc_game_apply`.
        let a = action_from_c(&unsafe { action.read() }, h.game().num_players())?;
        let legal = h.session().legal_actions().contains(&a);
        crate::guard::write_out(out, u8::from(legal));
        Ok(())
    })
}

#[cfg(test)]
#[path = "tests/unit/action.rs"]
mod tests;
