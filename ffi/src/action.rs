//! Structured actions as a blittable struct: listing the legal ones, applying one, and the
//! chance outcomes of explicit-chance mode.

use crate::guard::{check_out, with_game, with_game_mut, write_array, write_iter, CarcGame};
use crate::status::{CallResult, CarcStatus, Failure};
use carcassonne_core::action::{ActionKind, FieldKind, FieldValue, Seat, MAX_FIELDS};
use carcassonne_core::rules::bcb::{Axis, BazaarChoice, Bridge, MAX_BID};
use carcassonne_core::rules::count::{Quarter, QuarterStep};
use carcassonne_core::rules::hills_sheep::{FlockChoice, SheepToken};
use carcassonne_core::{catalogue, Action, ActionError, Corner, Figure, Pos, Rotation, TileKind};

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
                (_, FieldValue::Corner(corner)) => c.corner = corner.index() as u8,
                (_, FieldValue::Tile(t)) => c.tile = t.index() as u16,
                (_, FieldValue::Quarter(q)) => c.quarter = q as u8,
                (_, FieldValue::Step(s)) => c.step = s as u8,
                (_, FieldValue::Bridge(b)) => {
                    if let Some(b) = b {
                        c.has_bridge = 1;
                        c.axis = b.axis as u8;
                        c.bridge_x = b.pos.x;
                        c.bridge_y = b.pos.y;
                    }
                }
                (_, FieldValue::Axis(axis)) => c.axis = axis as u8,
                (_, FieldValue::Bid(bid)) => c.bid = bid as u16,
                (_, FieldValue::Choice(choice)) => c.choice = choice as u8,
                (_, FieldValue::Seat(Seat(seat))) => c.seat = seat,
                (_, FieldValue::FlockChoice(choice)) => c.choice = choice as u8,
                (_, FieldValue::Token(token)) => c.token = token as u8,
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
            FieldKind::Corner => {
                if a.corner > 3 {
                    return Err(Failure::invalid(format!(
                        "action.corner {} is not a CarcCorner (0..=3)",
                        a.corner
                    )));
                }
                FieldValue::Corner(Corner::from_index(a.corner as usize))
            }
            FieldKind::Tile => FieldValue::Tile(tile_kind(u32::from(a.tile), "action.tile")?),
            FieldKind::Quarter => {
                FieldValue::Quarter(*Quarter::ALL.get(a.quarter as usize).ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.quarter {} is not a CarcQuarter (0..=3)",
                        a.quarter
                    ))
                })?)
            }
            FieldKind::Step => {
                FieldValue::Step(*QuarterStep::ALL.get(a.step as usize).ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.step {} is not a CarcQuarterStep (0..=3)",
                        a.step
                    ))
                })?)
            }
            FieldKind::OptBridge => FieldValue::Bridge(match a.has_bridge {
                0 => None,
                1 => Some(Bridge {
                    pos: Pos::new(a.bridge_x, a.bridge_y),
                    axis: axis_of(a.axis)?,
                }),
                n => {
                    return Err(Failure::invalid(format!(
                        "action.has_bridge {n} is not 0 or 1"
                    )))
                }
            }),
            FieldKind::Axis => FieldValue::Axis(axis_of(a.axis)?),
            FieldKind::Bid => {
                if u32::from(a.bid) > MAX_BID {
                    return Err(Failure::invalid(format!(
                        "action.bid {} is above the highest bid ({MAX_BID})",
                        a.bid
                    )));
                }
                FieldValue::Bid(u32::from(a.bid))
            }
            FieldKind::Choice => {
                FieldValue::Choice(*BazaarChoice::ALL.get(a.choice as usize).ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.choice {} is not a CarcBazaarChoice (0..=1)",
                        a.choice
                    ))
                })?)
            }
            FieldKind::FlockChoice => FieldValue::FlockChoice(
                *FlockChoice::ALL.get(a.choice as usize).ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.choice {} is not a CarcFlockChoice (0..=1)",
                        a.choice
                    ))
                })?,
            ),
            FieldKind::Token => {
                FieldValue::Token(*SheepToken::ALL.get(a.token as usize).ok_or_else(|| {
                    Failure::invalid(format!(
                        "action.token {} is not a CarcSheepToken (0..={})",
                        a.token,
                        SheepToken::ALL.len() - 1
                    ))
                })?)
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
        };
    }
    Action::from_values(kind, &values[..fields.len()])
        .map_err(|e| Failure::invalid(format!("action.{e}")))
}

/// The bridge axis numbered `n` (a `CarcAxis`).
fn axis_of(n: u8) -> Result<Axis, Failure> {
    Axis::ALL
        .get(n as usize)
        .copied()
        .ok_or_else(|| Failure::invalid(format!("action.axis {n} is not a CarcAxis (0..=1)")))
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
