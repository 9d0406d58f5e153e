//! One decision, routed once: the flat ids of every legal action ([`DecisionTable`]), the
//! mask, decoding, and the free functions that build a table on the fly.

use super::ids::{bridge_variant, quarter_figure};
use super::{
    check_len, feature_slot, slot, Channel, EncodeError, EncoderSpec, FlatAction, WindowOrigin,
};
use carcassonne::action::Action;
use carcassonne::game::{Game, Phase};
use carcassonne::geometry::{Pos, Rotation};
use carcassonne::rules::bcb::Axis;
use carcassonne::tiles::FeatureKind;
use std::cell::RefCell;
use std::fmt;

/// How a structured action is reached through flat ids.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Route {
    /// One id.
    Direct(u32),
    /// A `CELL` id choosing the focus tile `focus`, then the `SLOT` id `slot`.
    Pointer { cell: u32, focus: Pos, slot: u32 },
    /// A square outside the window: not offered.
    Outside,
    /// Not an agent decision (a chance outcome).
    Unencodable,
}

/// What the routing needs about the current decision.
#[derive(Copy, Clone, Debug)]
pub(super) struct Frame {
    spec: EncoderSpec,
    pub(super) origin: WindowOrigin,
    /// The focus tile that `SLOT` ids reach directly (the placed tile while deploying).
    pub(super) placed: Option<Pos>,
}

impl Frame {
    fn new(game: &Game, spec: EncoderSpec) -> Frame {
        let placed = match game.phase() {
            Phase::Deploy | Phase::Castle => game.placed_this_turn(),
            _ => None,
        };
        Frame {
            spec,
            origin: WindowOrigin::of(game, spec),
            placed,
        }
    }

    fn cell_id(&self, pos: Pos) -> Option<u32> {
        self.origin
            .cell_index(self.spec, pos)
            .map(|c| self.spec.cell_base() + c as u32)
    }

    fn route(&self, game: &Game, action: Action) -> Route {
        let spec = self.spec;
        match action {
            Action::PlaceTile { pos, rot, bridge } => match self.origin.cell_index(spec, pos) {
                Some(c) => {
                    let tile = (rot.quarter_turns() as usize * spec.w() * spec.w() + c) as u32;
                    // A placement with a bridge: the square's CELL id, then the BRIDGE
                    // id naming the rotation and the bridge.
                    match bridge.map(bridge_variant) {
                        None => Route::Direct(tile),
                        Some(variant) => Route::Pointer {
                            cell: spec.cell_base() + c as u32,
                            focus: pos,
                            slot: FlatAction::Bridge { rot, variant }.id(spec),
                        },
                    }
                }
                None => Route::Outside,
            },
            Action::PlaceAbbey { pos } | Action::MoveDragon { pos } => {
                self.cell_id(pos).map_or(Route::Outside, Route::Direct)
            }
            Action::Pass => Route::Direct(spec.pass_id()),
            Action::DeployBarn { corner, .. } => {
                Route::Direct(spec.corner_base() + corner.index() as u32)
            }
            Action::Deploy {
                figure,
                pos,
                feature,
            } => match Channel::deploying(figure) {
                Some(ch) => self.targeted(game, pos, Some(feature), ch),
                None => Route::Unencodable,
            },
            Action::MoveFairy { pos, feature } => self.targeted(game, pos, feature, Channel::Fairy),
            Action::Princess { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Princess)
            }
            Action::ReturnAbbot { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::AbbotReturn)
            }
            Action::MoveWagon { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Wagon)
            }
            Action::Draw { .. } | Action::DrawToken { .. } => Route::Unencodable,
            // One shepherd per player: the choice names the flock (HS2).
            Action::Flock { choice, .. } => Route::Direct(FlatAction::Flock(choice).id(spec)),
            Action::PlaceTowerPiece { pos } => {
                let tower = game.board().at(pos).and_then(|p| {
                    let features = &p.def().features;
                    features.iter().position(|f| f.kind == FeatureKind::Tower)
                });
                match tower {
                    Some(local) => self.targeted(game, pos, Some(local as u8), Channel::TowerPiece),
                    None => Route::Unencodable,
                }
            }
            // The channel that deploys the figure's kind takes it prisoner in the capture
            // step (TW3).
            Action::Capture {
                pos,
                feature,
                figure,
            } => match Channel::deploying(figure) {
                Some(ch) => self.targeted(game, pos, Some(feature), ch),
                None => Route::Unencodable,
            },
            Action::CapturePass => Route::Direct(spec.pass_id()),
            Action::ExchangePrisoner { figure } => {
                Route::Direct(FlatAction::Exchange(figure).id(spec))
            }
            Action::PayRansom {
                prisoner_of,
                figure,
            } => {
                let n = game.num_players();
                let holder = (prisoner_of.0 as usize + n - game.to_play()) % n;
                Route::Direct(
                    FlatAction::Ransom {
                        holder: holder as u8,
                        figure,
                    }
                    .id(spec),
                )
            }
            Action::LeaveQuarter {
                figure,
                pos,
                feature,
                ..
            } => match Channel::leaving(figure) {
                Some(ch) => self.targeted(game, pos, Some(feature), ch),
                None => Route::Unencodable,
            },
            Action::QuarterPass { .. } => Route::Direct(spec.pass_id()),
            Action::DeployQuarter { figure, quarter } => match quarter_figure(figure) {
                Some(_) => Route::Direct(FlatAction::EnterQuarter { figure, quarter }.id(spec)),
                None => Route::Unencodable,
            },
            Action::MoveCount { quarter } => Route::Direct(FlatAction::MoveCount(quarter).id(spec)),
            Action::PlaceBridge { pos, axis } => {
                let ch = match axis {
                    Axis::NS => Channel::BridgeNS,
                    Axis::WE => Channel::BridgeWE,
                };
                match game.board().at(pos) {
                    Some(p) => {
                        let local = p.def().features.len() as u8;
                        self.targeted(game, pos, Some(local), ch)
                    }
                    None => Route::Unencodable,
                }
            }
            Action::BuildCastle { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Castle)
            }
            Action::CastlePass | Action::BazaarPass => Route::Direct(spec.pass_id()),
            Action::BazaarSelect { tile, bid } => {
                match game.bazaar_offer().iter().position(|t| *t == Some(tile)) {
                    Some(place) => Route::Direct(
                        FlatAction::BazaarSelect {
                            place: place as u8,
                            bid,
                        }
                        .id(spec),
                    ),
                    None => Route::Unencodable,
                }
            }
            Action::BazaarBid { bid } => Route::Direct(FlatAction::Bid(bid).id(spec)),
            Action::BazaarBuyOrSell { choice } => {
                Route::Direct(FlatAction::Choice(choice).id(spec))
            }
        }
    }

    fn targeted(&self, game: &Game, pos: Pos, feature: Option<u8>, ch: Channel) -> Route {
        let Some(p) = game.board().at(pos) else {
            return Route::Unencodable;
        };
        let slot = match feature {
            Some(local) => match feature_slot(p.kind, p.rot, local) {
                Some(s) => s,
                None => return Route::Unencodable,
            },
            None => slot::WHOLE_TILE,
        };
        let slot_id = FlatAction::Slot { slot, channel: ch }.id(self.spec);
        if self.placed == Some(pos) {
            return Route::Direct(slot_id);
        }
        match self.cell_id(pos) {
            Some(cell) => Route::Pointer {
                cell,
                focus: pos,
                slot: slot_id,
            },
            None => Route::Outside,
        }
    }
}

/// What a mask covered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MaskInfo {
    /// Legal structured actions of the decision.
    pub legal: u32,
    /// Ids set in the mask.
    pub offered: u32,
    /// Legal structured actions not reachable because a square they need lies outside
    /// the window (each such action counts once).
    pub outside_window: u32,
    /// Ids of the full encoding offered but missing from the [`super::Layout`] the mask was
    /// written for (0 without a layout, and for a layout made for the game's own
    /// configuration).
    pub outside_layout: u32,
}

/// What a flat id does in the current step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlatDecision {
    /// The id completes this structured action.
    Action(Action),
    /// The id picks the focus tile at this square; a `SLOT` id follows.
    Focus(Pos),
}

/// The first and, for two-step actions, the second id of a structured action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FlatPath {
    /// The id to take now.
    pub first: u32,
    /// The `SLOT` id to take after `first` (a `CELL` id) when the action takes two steps.
    pub second: Option<u32>,
}

/// The flat ids of every legal action of one decision, computed once: the mask, the
/// decoder and the observation of that decision all read it.
///
/// It holds the first-step id of each action of the game's legal list ([`Game::legal`],
/// same order) — an id → action table: decoding a first-step id is a search of one short
/// array that stays in cache — and, for the two-step actions, the focus tile and the
/// `SLOT` id that follows the `CELL` id. [`DecisionTable::refresh`] recomputes it for a
/// new decision (no allocation once its buffers have grown to the largest decision);
/// the free functions of this module build one on the fly, [`crate::session::Session`]
/// keeps one per game. Its methods take the game it was refreshed for.
#[derive(Clone, Debug)]
pub struct DecisionTable {
    pub(super) spec: EncoderSpec,
    pub(super) frame: Frame,
    /// The first-step id of each legal action (`TILE`, `CELL`, `SLOT` on the placed tile,
    /// `CORNER`, `PASS`), [`NO_ID`] if it has none (outside the window, a draw).
    first: Vec<u32>,
    /// The two-step actions: index in the legal list, focus tile, `SLOT` id.
    pointers: Vec<(u32, Pos, u32)>,
    /// Legal actions with a square outside the window.
    outside: u32,
}

/// Marks a legal action without a flat id in [`DecisionTable`].
const NO_ID: u32 = u32::MAX;

impl DecisionTable {
    /// An empty table for the window of `spec` (call [`DecisionTable::refresh`]).
    pub fn new(spec: EncoderSpec) -> DecisionTable {
        DecisionTable {
            spec,
            frame: Frame {
                spec,
                origin: WindowOrigin::default(),
                placed: None,
            },
            first: Vec::new(),
            pointers: Vec::new(),
            outside: 0,
        }
    }

    /// A table computed for the current decision of `game`.
    pub fn of(game: &Game, spec: EncoderSpec) -> DecisionTable {
        let mut table = DecisionTable::new(spec);
        table.refresh(game);
        table
    }

    /// Recomputes the table for the current decision of `game`.
    pub fn refresh(&mut self, game: &Game) {
        self.first.clear();
        self.pointers.clear();
        self.outside = 0;
        self.frame = Frame::new(game, self.spec);
        for (i, &action) in game.legal().iter().enumerate() {
            let id = match self.frame.route(game, action) {
                Route::Direct(id) => id,
                Route::Pointer { cell, focus, slot } => {
                    self.pointers.push((i as u32, focus, slot));
                    cell
                }
                Route::Outside => {
                    self.outside += 1;
                    NO_ID
                }
                Route::Unencodable => NO_ID,
            };
            self.first.push(id);
        }
    }

    /// The spec the ids refer to.
    pub fn spec(&self) -> EncoderSpec {
        self.spec
    }

    /// The window origin of the decision.
    pub fn origin(&self) -> WindowOrigin {
        self.frame.origin
    }

    /// Whether a `CELL` id of this decision picks the tile at `pos` as focus.
    pub fn offers_focus(&self, pos: Pos) -> bool {
        self.pointers.iter().any(|(_, f, _)| *f == pos)
    }

    /// Writes the mask of the current step into `mask` (`i8 [A]`, 1 = offered): with
    /// `focus` `None` the ids that start a legal action, with `focus` `Some(pos)` (a
    /// `CELL` id picked that tile) the `SLOT` ids that complete one there.
    pub fn mask(&self, focus: Option<Pos>, mask: &mut [i8]) -> Result<MaskInfo, EncodeError> {
        check_len("mask", mask.len(), self.spec.num_actions())?;
        mask.fill(0);
        let mut info = MaskInfo {
            legal: self.first.len() as u32,
            offered: 0,
            outside_window: self.outside,
            outside_layout: 0,
        };
        let mut offer = |id: u32| {
            let m = &mut mask[id as usize];
            if *m == 0 {
                *m = 1;
                info.offered += 1;
            }
        };
        match focus {
            None => self
                .first
                .iter()
                .filter(|id| **id != NO_ID)
                .for_each(|id| offer(*id)),
            Some(pos) => self
                .pointers
                .iter()
                .filter(|(_, f, _)| *f == pos)
                .for_each(|(_, _, slot)| offer(*slot)),
        }
        Ok(info)
    }

    /// What flat `id` does in the current step of `game` (with the pending `focus`, if
    /// any); `None` if the mask of this step does not offer it.
    pub fn decode(&self, game: &Game, focus: Option<Pos>, id: u32) -> Option<FlatDecision> {
        match focus {
            None => {
                if id == NO_ID {
                    return None;
                }
                let i = self.first.iter().position(|f| *f == id)?;
                match self.pointers.iter().find(|(k, _, _)| *k as usize == i) {
                    Some((_, focus, _)) => Some(FlatDecision::Focus(*focus)),
                    None => Some(FlatDecision::Action(game.legal()[i])),
                }
            }
            Some(pos) => self
                .pointers
                .iter()
                .find(|(_, f, slot)| *f == pos && *slot == id)
                .map(|(i, _, _)| FlatDecision::Action(game.legal()[*i as usize])),
        }
    }

    /// Both ids of a legal structured `action` of `game`; `None` if it is not legal, lies
    /// outside the window or is a chance outcome.
    pub fn path(&self, game: &Game, action: Action) -> Option<FlatPath> {
        let i = game.legal().iter().position(|a| *a == action)?;
        let first = self.first[i];
        if first == NO_ID {
            return None;
        }
        let second = self
            .pointers
            .iter()
            .find(|(k, _, _)| *k as usize == i)
            .map(|(_, _, slot)| *slot);
        Some(FlatPath { first, second })
    }

    /// The legal placements (rotation, window cell) and the window cells that a `CELL` id
    /// offers, for the observation planes.
    pub(super) fn offered_cells(&self) -> impl Iterator<Item = (Option<Rotation>, usize)> + '_ {
        let spec = self.spec;
        let ww = spec.w() * spec.w();
        self.first.iter().filter_map(move |&id| {
            if id < spec.cell_base() {
                let rot = Rotation::new((id as usize / ww) as u8).expect("a TILE id");
                Some((Some(rot), id as usize % ww))
            } else if id < spec.slot_base() {
                Some((None, (id - spec.cell_base()) as usize))
            } else {
                None
            }
        })
    }
}

thread_local! {
    static TABLE: RefCell<Option<DecisionTable>> = const { RefCell::new(None) };
}

/// Runs `f` on the decision table of `game`, computed in a per-thread table (reused
/// while the spec stays the same, so the free functions allocate nothing per call).
pub(super) fn with_table<R>(
    game: &Game,
    spec: EncoderSpec,
    f: impl FnOnce(&DecisionTable) -> R,
) -> R {
    TABLE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let table = match slot.as_mut() {
                Some(t) if t.spec == spec => t,
                _ => slot.insert(DecisionTable::new(spec)),
            };
            table.refresh(game);
            f(table)
        }
        Err(_) => f(&DecisionTable::of(game, spec)),
    })
}

/// Writes the legal-move mask of the current decision (no pending focus) into `mask`
/// (`i8 [A]`, 1 = legal). See [`legal_mask_at`].
pub fn legal_mask(
    game: &Game,
    spec: EncoderSpec,
    mask: &mut [i8],
) -> Result<MaskInfo, EncodeError> {
    legal_mask_at(game, spec, None, mask)
}

/// Writes the mask of the current step into `mask`: with `focus` `None`, the ids that
/// start a legal action; with `focus` `Some(pos)` (a `CELL` id picked that tile), the
/// `SLOT` ids that complete a legal action there. Empty when the game is over or waits
/// for a chance outcome.
pub fn legal_mask_at(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    mask: &mut [i8],
) -> Result<MaskInfo, EncodeError> {
    check_len("mask", mask.len(), spec.num_actions())?;
    with_table(game, spec, |t| t.mask(focus, mask))
}

/// The first flat id of a legal structured `action` in the current state (no pending
/// focus); `None` if it is not legal, lies outside the window or is a chance outcome.
/// Two-step actions give their `CELL` id; see [`action_to_flat_path`].
pub fn action_to_flat(game: &Game, spec: EncoderSpec, action: Action) -> Option<u32> {
    action_to_flat_path(game, spec, action).map(|p| p.first)
}

/// Both ids of a legal structured `action` (see [`FlatPath`]).
pub fn action_to_flat_path(game: &Game, spec: EncoderSpec, action: Action) -> Option<FlatPath> {
    with_table(game, spec, |t| t.path(game, action))
}

/// The structured action that flat `id` completes in one step in the current state (no
/// pending focus); `None` if the id is not legal now or only picks a focus tile.
pub fn flat_to_action(game: &Game, spec: EncoderSpec, id: u32) -> Option<Action> {
    match decode_flat(game, spec, None, id) {
        Some(FlatDecision::Action(a)) => Some(a),
        _ => None,
    }
}

/// What flat `id` does in the current step (with the pending `focus`, if any); `None` if
/// the mask of this step does not offer it.
pub fn decode_flat(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    id: u32,
) -> Option<FlatDecision> {
    if id as usize >= spec.num_actions() {
        return None;
    }
    with_table(game, spec, |t| t.decode(game, focus, id))
}

/// Why a flat id was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlatError {
    /// The game is over.
    GameOver,
    /// The game waits for a chance outcome, not a player decision.
    ChanceNode,
    /// The mask of this step does not offer the id.
    NotOffered {
        /// The refused id.
        id: u32,
    },
}

impl fmt::Display for FlatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlatError::GameOver => write!(f, "the game is over"),
            FlatError::ChanceNode => write!(f, "the game waits for a chance outcome"),
            FlatError::NotOffered { id } => write!(f, "action id {id} is not legal now"),
        }
    }
}

impl std::error::Error for FlatError {}
