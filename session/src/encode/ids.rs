//! Flat action ids taken apart: feature slots in the board frame ([`slot`]), the
//! channels of the `SLOT` block ([`Channel`]) and the blocks ([`FlatAction`]).

use super::schema::Live;
use super::{EncoderSpec, BIDS, BRIDGE_VARIANTS, CHANNEL_COUNT, FIGURE_KINDS};
use carcassonne::config::Figure;
use carcassonne::geometry::{Corner, Rotation};
use carcassonne::rules::bcb::{BazaarChoice, TileBridge};
use carcassonne::rules::count::Quarter;
use carcassonne::rules::hills_sheep::FlockChoice;
use carcassonne::tiles::{FeatureKind, TileKind, TileSet};

/// Feature slots: where on a tile, in the board frame.
///
/// * `0..4` [`slot::SIDE`] + side (N, E, S, W): the feature on the middle third of the side.
/// * `4..12` [`slot::HALF_EDGE`] + 2·side + h: the field on third 0 (h = 0) or third 2
///   (h = 1) of the side (thirds run clockwise around the tile from its NW corner).
/// * `12` [`slot::CLOISTER`]: a monastery or the abbey; `13` [`slot::GARDEN`];
///   `14`, `15` [`slot::INNER_FIELD`]: fields enclosed inside the tile, in catalogue order.
/// * `16` [`slot::WHOLE_TILE`]: the tile itself (the fairy under the `on-tile` rule).
/// * `17` [`slot::BRIDGE`]: the tile's bridge (BR3), or where one goes (BR1).
///
/// A feature's slot is the first of the side and half-edge slots that it covers, taken
/// in the tile's canonical orientation and then turned with the tile, so the slot of a
/// feature turns with the board.
pub mod slot {
    /// First side slot (N, E, S, W follow).
    pub const SIDE: u8 = 0;
    /// First half-edge slot.
    pub const HALF_EDGE: u8 = 4;
    /// Monastery or abbey.
    pub const CLOISTER: u8 = 12;
    /// Garden.
    pub const GARDEN: u8 = 13;
    /// First inner field.
    pub const INNER_FIELD: u8 = 14;
    /// The whole tile.
    pub const WHOLE_TILE: u8 = 16;
    /// The tile's bridge.
    pub const BRIDGE: u8 = 17;
    /// The tile's tower foundation (TW1).
    pub const TOWER: u8 = 18;

    /// The slot after `quarter_turns` clockwise quarter turns of the board.
    pub const fn rotate(slot: u8, quarter_turns: u8) -> u8 {
        let q = quarter_turns & 3;
        if slot < HALF_EDGE {
            (slot + q) & 3
        } else if slot < CLOISTER {
            let k = slot - HALF_EDGE;
            HALF_EDGE + ((k / 2 + q) & 3) * 2 + (k & 1)
        } else {
            slot
        }
    }

    /// A short name: `N`, `E0`, `W2`, `cloister`, `inner1`, `tile`, ...
    pub fn name(slot: u8) -> String {
        const SIDES: [char; 4] = ['N', 'E', 'S', 'W'];
        match slot {
            0..=3 => SIDES[slot as usize].to_string(),
            4..=11 => {
                let k = slot - HALF_EDGE;
                format!(
                    "{}{}",
                    SIDES[(k / 2) as usize],
                    if k & 1 == 0 { 0 } else { 2 }
                )
            }
            CLOISTER => "cloister".into(),
            GARDEN => "garden".into(),
            14 | 15 => format!("inner{}", slot - INNER_FIELD + 1),
            WHOLE_TILE => "tile".into(),
            BRIDGE => "bridge".into(),
            TOWER => "tower".into(),
            _ => format!("slot{slot}"),
        }
    }
}

/// When a `SLOT` id on slot `slot` can be offered: the side slots always; fields away
/// from the sides' middle thirds only with farmers; the cloister with monasteries,
/// shrines or the abbey; the garden with gardens and the abbot (A1); the whole tile with
/// the fairy (PD15); the bridge slot with bridges (BR1); the tower slot with the Tower
/// (TW2, TW3).
pub fn slot_live(slot: u8) -> Live {
    match slot {
        0..=3 => Live::Always,
        4..=11 | 14 | 15 => Live::Farmers,
        slot::CLOISTER => Live::Any(&[
            Live::Feature(FeatureKind::Monastery),
            Live::Feature(FeatureKind::Shrine),
        ]),
        slot::GARDEN => Live::All(&[
            Live::Feature(FeatureKind::Garden),
            Live::Figure(Figure::Abbot),
        ]),
        slot::WHOLE_TILE => Live::Set(TileSet::PrincessDragon),
        slot::BRIDGE => Live::Set(TileSet::BridgesCastlesBazaars),
        slot::TOWER => Live::Set(TileSet::Tower),
        _ => Live::Always,
    }
}

/// The slot of local feature `local` of `kind` turned by `rot` (see [`slot`]); the local
/// feature after the catalogue's is the tile's bridge (BR3).
pub fn feature_slot(kind: TileKind, rot: Rotation, local: u8) -> Option<u8> {
    let def = kind.def();
    if local as usize == def.features.len() {
        return Some(slot::BRIDGE);
    }
    let f = def.features.get(local as usize)?;
    if f.segments != 0 {
        let canonical = (0..4u8)
            .map(|s| (s, s as u16 * 3 + 1))
            .chain((0..4u8).flat_map(|s| {
                [
                    (slot::HALF_EDGE + 2 * s, s as u16 * 3),
                    (slot::HALF_EDGE + 2 * s + 1, s as u16 * 3 + 2),
                ]
            }))
            .find(|(_, bit)| f.segments & (1 << bit) != 0)
            .map(|(s, _)| s)?;
        return Some(slot::rotate(canonical, rot.quarter_turns()));
    }
    match f.kind {
        FeatureKind::Monastery | FeatureKind::Shrine => Some(slot::CLOISTER),
        FeatureKind::Garden => Some(slot::GARDEN),
        FeatureKind::Tower => Some(slot::TOWER),
        FeatureKind::Field => {
            let nth = def.features[..local as usize]
                .iter()
                .filter(|g| g.segments == 0 && g.kind == FeatureKind::Field)
                .count();
            (nth < 2).then_some(slot::INNER_FIELD + nth as u8)
        }
        _ => None,
    }
}

/// The local feature of `kind` turned by `rot` whose slot is `slot` (the bridge slot
/// names the local feature after the catalogue's).
pub fn slot_feature(kind: TileKind, rot: Rotation, slot: u8) -> Option<u8> {
    let n = kind.def().features.len() as u8;
    (0..=n).find(|&i| feature_slot(kind, rot, i) == Some(slot))
}

carcassonne::named_enum! {
    /// What a `SLOT` id does on the focus tile.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Channel {
        /// Deploy a follower.
        Follower(0) = "follower",
        /// Deploy the abbot.
        Abbot(1) = "abbot",
        /// Deploy the mayor.
        Mayor(2) = "mayor",
        /// Deploy the wagon, or move it there after scoring.
        Wagon(3) = "wagon",
        /// Move the fairy next to the figure on this feature (or onto the tile: whole-tile
        /// slot).
        Fairy(4) = "fairy",
        /// Remove the knight on this feature with the princess.
        Princess(5) = "princess",
        /// Take the abbot on this feature back.
        AbbotReturn(6) = "abbot-return",
        /// Move a follower out of the City of Carcassonne onto this feature (the quarter
        /// of the feature's kind, CC4, CC6).
        LeaveFollower(7) = "leave-follower",
        /// Move the abbot out of the cathedral onto this monastery or shrine.
        LeaveAbbot(8) = "leave-abbot",
        /// Move the mayor out of the castle onto this city.
        LeaveMayor(9) = "leave-mayor",
        /// Move the wagon out of the City onto this feature.
        LeaveWagon(10) = "leave-wagon",
        /// Turn this completed city into a castle (CA1).
        Castle(11) = "castle",
        /// Put a bridge from north to south on this tile (BR1; bridge slot).
        BridgeNS(12) = "bridge-ns",
        /// Put a bridge from west to east on this tile (BR1; bridge slot).
        BridgeWE(13) = "bridge-we",
        /// Deploy the big follower (IC1).
        BigFollower(14) = "big-follower",
        /// Move the big follower out of the City of Carcassonne onto this feature (IC1,
        /// CC7).
        LeaveBigFollower(15) = "leave-big-follower",
        /// Put a tower piece on this tower (TW2; tower slot).
        TowerPiece(16) = "tower-piece",
        /// Deploy the builder (TB3).
        Builder(17) = "builder",
        /// Deploy the pig (TB5).
        Pig(18) = "pig",
        /// Deploy the shepherd (HS1).
        Shepherd(19) = "shepherd",
    }
}

impl Channel {
    /// The channel that deploys `figure` (and moves a wagon there); `None` for a figure
    /// that stands on a corner (a `CORNER` id).
    pub fn deploying(figure: Figure) -> Option<Channel> {
        match figure {
            Figure::Follower => Some(Channel::Follower),
            Figure::Abbot => Some(Channel::Abbot),
            Figure::Mayor => Some(Channel::Mayor),
            Figure::Wagon => Some(Channel::Wagon),
            Figure::BigFollower => Some(Channel::BigFollower),
            Figure::Builder => Some(Channel::Builder),
            Figure::Pig => Some(Channel::Pig),
            Figure::Shepherd => Some(Channel::Shepherd),
            Figure::Barn => None,
        }
    }

    /// The channel that moves `figure` out of the City of Carcassonne.
    pub fn leaving(figure: Figure) -> Option<Channel> {
        match figure {
            Figure::Follower => Some(Channel::LeaveFollower),
            Figure::Abbot => Some(Channel::LeaveAbbot),
            Figure::Mayor => Some(Channel::LeaveMayor),
            Figure::Wagon => Some(Channel::LeaveWagon),
            Figure::BigFollower => Some(Channel::LeaveBigFollower),
            // Builders, pigs (TB6) and shepherds (HS1) never enter the City.
            Figure::Barn | Figure::Builder | Figure::Pig | Figure::Shepherd => None,
        }
    }

    /// When the channel can be offered: a figure's channels when the figure is in play
    /// (the leaving channels with the Count too), the fairy and the princess with the
    /// Princess & the Dragon, the abbot's return with the abbot, the castle and the
    /// bridges with Bridges, Castles & Bazaars, the big follower's with the big follower,
    /// the tower piece with the Tower, the builder's, the pig's and the shepherd's with
    /// their figures.
    pub const fn live(self) -> Live {
        use Channel::*;
        const COUNT: Live = Live::Set(TileSet::Count);
        match self {
            Follower => Live::Always,
            Abbot | AbbotReturn => Live::Figure(Figure::Abbot),
            Mayor => Live::Figure(Figure::Mayor),
            Wagon => Live::Figure(Figure::Wagon),
            Fairy | Princess => Live::Set(TileSet::PrincessDragon),
            LeaveFollower => COUNT,
            LeaveAbbot => Live::All(&[Live::Figure(Figure::Abbot), COUNT]),
            LeaveMayor => Live::All(&[Live::Figure(Figure::Mayor), COUNT]),
            LeaveWagon => Live::All(&[Live::Figure(Figure::Wagon), COUNT]),
            Castle | BridgeNS | BridgeWE => Live::Set(TileSet::BridgesCastlesBazaars),
            BigFollower => Live::Figure(Figure::BigFollower),
            LeaveBigFollower => Live::All(&[Live::Figure(Figure::BigFollower), COUNT]),
            TowerPiece => Live::Set(TileSet::Tower),
            Builder => Live::Figure(Figure::Builder),
            Pig => Live::Figure(Figure::Pig),
            Shepherd => Live::Figure(Figure::Shepherd),
        }
    }
}

/// The figures that may enter the City of Carcassonne (CC7, IC1), in the order of the
/// `QUARTER` block.
pub(super) const QUARTER_FIGURES: [Figure; 5] = [
    Figure::Follower,
    Figure::Abbot,
    Figure::Mayor,
    Figure::Wagon,
    Figure::BigFollower,
];

/// Position of a figure kind in the `QUARTER` block.
pub(super) fn quarter_figure(figure: Figure) -> Option<u32> {
    QUARTER_FIGURES
        .iter()
        .position(|f| *f == figure)
        .map(|i| i as u32)
}

/// A flat id taken apart into its block and coordinates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlatAction {
    /// `TILE`: place the tile in hand on window cell `(wx, wy)` turned by `rot`.
    Tile {
        /// Rotation.
        rot: Rotation,
        /// Window column.
        wx: u16,
        /// Window row.
        wy: u16,
    },
    /// `CELL`: a square of the window (abbey hole, dragon step, focus tile).
    Cell {
        /// Window column.
        wx: u16,
        /// Window row.
        wy: u16,
    },
    /// `SLOT`: a feature slot of the focus tile and a channel.
    Slot {
        /// The slot (see [`slot`]).
        slot: u8,
        /// The channel.
        channel: Channel,
    },
    /// `CORNER`: a barn on this corner of the placed tile.
    Corner(Corner),
    /// `QUARTER`: put a figure into a quarter of the City of Carcassonne.
    EnterQuarter {
        /// The figure (follower, abbot, mayor or wagon).
        figure: Figure,
        /// The quarter.
        quarter: Quarter,
    },
    /// `QUARTER`: move the count to a quarter.
    MoveCount(Quarter),
    /// `BRIDGE`: after a `CELL` id picked the square, the placement turned by `rot` with
    /// its bridge: `variant` 0 and 1 on the tile itself (NS, WE), 2 + side on the
    /// neighbour at that side (N, E, S, W; across the side it shares).
    Bridge {
        /// The rotation of the placement.
        rot: Rotation,
        /// Which bridge.
        variant: u8,
    },
    /// `BAZAAR`: pick the tile at `place` of the offer and open with `bid`.
    BazaarSelect {
        /// Place in the offer (draw order).
        place: u8,
        /// Opening bid.
        bid: u32,
    },
    /// `BID`: raise to this bid.
    Bid(u32),
    /// `CHOICE`: buy or sell the outbid tile.
    Choice(BazaarChoice),
    /// `EXCHANGE`: the kind of figure the capturer gets back in a prisoner exchange (TW4).
    Exchange(Figure),
    /// `RANSOM`: buy back a prisoner of this kind from the player at relative seat
    /// `holder` (1 the next in turn order after the payer, ...; TW5).
    Ransom {
        /// The holder, a seat relative to the payer.
        holder: u8,
        /// The prisoner's kind.
        figure: Figure,
    },
    /// `FLOCK`: grow the flock of the turn player's shepherd or herd it (HS2).
    Flock(FlockChoice),
    /// `PASS`.
    Pass,
}

/// The `BRIDGE` variant of the bridge a placement carries.
pub(super) fn bridge_variant(bridge: TileBridge) -> u8 {
    match bridge {
        TileBridge::OnTile(axis) => axis as u8,
        TileBridge::Neighbour(side) => 2 + side.index() as u8,
    }
}

impl FlatAction {
    /// The id of this flat action.
    pub fn id(self, spec: EncoderSpec) -> u32 {
        let w = spec.window as u32;
        match self {
            FlatAction::Tile { rot, wx, wy } => {
                rot.quarter_turns() as u32 * w * w + wy as u32 * w + wx as u32
            }
            FlatAction::Cell { wx, wy } => spec.cell_base() + wy as u32 * w + wx as u32,
            FlatAction::Slot { slot, channel } => {
                spec.slot_base() + slot as u32 * CHANNEL_COUNT as u32 + channel as u32
            }
            FlatAction::Corner(c) => spec.corner_base() + c.index() as u32,
            FlatAction::EnterQuarter { figure, quarter } => {
                spec.quarter_base() + 4 * quarter_figure(figure).unwrap_or(0) + quarter as u32
            }
            FlatAction::MoveCount(quarter) => {
                spec.quarter_base() + 4 * QUARTER_FIGURES.len() as u32 + quarter as u32
            }
            FlatAction::Bridge { rot, variant } => {
                spec.bridge_base()
                    + BRIDGE_VARIANTS as u32 * rot.quarter_turns() as u32
                    + variant as u32
            }
            FlatAction::BazaarSelect { place, bid } => {
                spec.bazaar_base() + BIDS as u32 * place as u32 + bid
            }
            FlatAction::Bid(bid) => spec.bid_base() + bid,
            FlatAction::Choice(c) => spec.choice_base() + c as u32,
            FlatAction::Exchange(f) => spec.exchange_base() + f.index() as u32,
            FlatAction::Ransom { holder, figure } => {
                spec.ransom_base() + (FIGURE_KINDS * holder as usize + figure.index()) as u32
            }
            FlatAction::Flock(choice) => spec.flock_base() + choice as u32,
            FlatAction::Pass => spec.pass_id(),
        }
    }

    /// The flat action of `id`; `None` if `id` is out of range.
    pub fn from_id(spec: EncoderSpec, id: u32) -> Option<FlatAction> {
        let w = spec.window as u32;
        let ww = w * w;
        Some(if id < spec.cell_base() {
            let rot = Rotation::new((id / ww) as u8)?;
            let c = id % ww;
            FlatAction::Tile {
                rot,
                wx: (c % w) as u16,
                wy: (c / w) as u16,
            }
        } else if id < spec.slot_base() {
            let c = id - spec.cell_base();
            FlatAction::Cell {
                wx: (c % w) as u16,
                wy: (c / w) as u16,
            }
        } else if id < spec.corner_base() {
            let k = id - spec.slot_base();
            FlatAction::Slot {
                slot: (k / CHANNEL_COUNT as u32) as u8,
                channel: Channel::ALL[(k % CHANNEL_COUNT as u32) as usize],
            }
        } else if id < spec.quarter_base() {
            FlatAction::Corner(Corner::from_index((id - spec.corner_base()) as usize))
        } else if id < spec.bridge_base() {
            let k = id - spec.quarter_base();
            let entries = 4 * QUARTER_FIGURES.len() as u32;
            if k < entries {
                FlatAction::EnterQuarter {
                    figure: QUARTER_FIGURES[(k / 4) as usize],
                    quarter: Quarter::ALL[(k % 4) as usize],
                }
            } else {
                FlatAction::MoveCount(Quarter::ALL[(k - entries) as usize])
            }
        } else if id < spec.bazaar_base() {
            let k = id - spec.bridge_base();
            FlatAction::Bridge {
                rot: Rotation::new((k / BRIDGE_VARIANTS as u32) as u8)?,
                variant: (k % BRIDGE_VARIANTS as u32) as u8,
            }
        } else if id < spec.bid_base() {
            let k = id - spec.bazaar_base();
            FlatAction::BazaarSelect {
                place: (k / BIDS as u32) as u8,
                bid: k % BIDS as u32,
            }
        } else if id < spec.choice_base() {
            FlatAction::Bid(id - spec.bid_base())
        } else if id < spec.exchange_base() {
            FlatAction::Choice(BazaarChoice::ALL[(id - spec.choice_base()) as usize])
        } else if id < spec.ransom_base() {
            FlatAction::Exchange(*Figure::ALL.get((id - spec.exchange_base()) as usize)?)
        } else if id < spec.flock_base() {
            let k = (id - spec.ransom_base()) as usize;
            FlatAction::Ransom {
                holder: (k / FIGURE_KINDS) as u8,
                figure: Figure::ALL[k % FIGURE_KINDS],
            }
        } else if id < spec.pass_id() {
            FlatAction::Flock(FlockChoice::ALL[(id - spec.flock_base()) as usize])
        } else if id == spec.pass_id() {
            FlatAction::Pass
        } else {
            return None;
        })
    }
}
