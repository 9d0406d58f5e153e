//! Bridges, Castles & Bazaars (BR1–BR3, CA1–CA4, BZ1–BZ4), active with the
//! `bridges-castles-and-bazaars` set. The state of the set is one struct, `Bcb`; its
//! three parts have a module each:
//!
//! * [`bridges`]: a bridge is an extra road segment of its tile across two field sides
//!   (BR1–BR3); a tile may be placed where it fits only with a bridge.
//! * [`castles`]: a completed two-tile city of caps with one figure may become a castle
//!   (CA1), which scores the next feature completed in its neighbourhood (CA2, CA3) and
//!   counts for farmers (CA4).
//! * [`bazaars`]: after a bazaar tile, the tiles of the pile are auctioned one per player
//!   (BZ1–BZ3) and placed instead of drawing (BZ4).

pub mod bazaars;
pub mod bridges;
pub mod castles;

use crate::config::{GameConfig, MAX_PLAYERS};
use crate::geometry::{Pos, Side};

crate::named_enum! {
    /// The direction of a bridge across its tile, in the board frame (BR1).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[repr(u8)]
    pub enum Axis {
        /// From the north side to the south side.
        NS(0) = "NS",
        /// From the west side to the east side.
        WE(1) = "WE",
    }
}

impl Axis {
    /// The axis through `side`.
    pub const fn through(side: Side) -> Axis {
        match side {
            Side::N | Side::S => Axis::NS,
            Side::E | Side::W => Axis::WE,
        }
    }

    /// The two sides the bridge joins.
    pub const fn sides(self) -> [Side; 2] {
        match self {
            Axis::NS => [Side::N, Side::S],
            Axis::WE => [Side::W, Side::E],
        }
    }
}

/// A bridge on the board: the tile that carries it and its direction (BR1, BR2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bridge {
    /// The tile that carries the bridge.
    pub pos: Pos,
    /// Its direction.
    pub axis: Axis,
}

impl Bridge {
    /// The same bridge seen from a tile placed at `tile` ([`TileBridge`]); `None` unless
    /// it lies on that tile or on the neighbour across one of its sides, in the direction
    /// through that side.
    pub fn relative_to(self, tile: Pos) -> Option<TileBridge> {
        if self.pos == tile {
            return Some(TileBridge::OnTile(self.axis));
        }
        // In i64: positions come from records and front ends, any i32 is possible.
        let d = (
            i64::from(self.pos.x) - i64::from(tile.x),
            i64::from(self.pos.y) - i64::from(tile.y),
        );
        Side::ALL
            .into_iter()
            .find(|&side| {
                let (dx, dy) = side.delta();
                d == (i64::from(dx), i64::from(dy)) && Axis::through(side) == self.axis
            })
            .map(TileBridge::Neighbour)
    }
}

/// The bridge a tile placement carries (BR2), relative to the placed tile: on the tile
/// itself, or on the neighbour across one of its sides (that bridge runs through the
/// side). Two bytes wide, it keeps [`crate::action::Action`] small; [`TileBridge::at`]
/// gives the [`Bridge`] on the board.
///
/// ```
/// use carcassonne::geometry::{Pos, Side};
/// use carcassonne::rules::bcb::{Axis, Bridge, TileBridge};
///
/// let east = TileBridge::Neighbour(Side::E).at(Pos::new(2, 5));
/// assert_eq!(east, Bridge { pos: Pos::new(3, 5), axis: Axis::WE });
/// assert_eq!(east.relative_to(Pos::new(2, 5)), Some(TileBridge::Neighbour(Side::E)));
/// // A bridge that does not run through the shared side is no placement's bridge.
/// assert_eq!(Bridge { axis: Axis::NS, ..east }.relative_to(Pos::new(2, 5)), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileBridge {
    /// On the placed tile, in this direction.
    OnTile(Axis),
    /// On the neighbour across this side of the placed tile.
    Neighbour(Side),
}

impl TileBridge {
    /// The bridge on the board for a tile placed at `tile`.
    pub const fn at(self, tile: Pos) -> Bridge {
        match self {
            TileBridge::OnTile(axis) => Bridge { pos: tile, axis },
            TileBridge::Neighbour(side) => {
                // Wrapping: an action built by hand at the edge of the i32 range names a
                // square no game reaches (it is never legal) rather than overflowing.
                let (dx, dy) = side.delta();
                Bridge {
                    pos: Pos::new(tile.x.wrapping_add(dx), tile.y.wrapping_add(dy)),
                    axis: Axis::through(side),
                }
            }
        }
    }
}

crate::named_enum! {
    /// What the player who picked a bazaar tile does when it was outbid (BZ3).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum BazaarChoice {
        /// Take the tile and pay the highest bid to its bidder.
        Buy(0) = "buy",
        /// Let the highest bidder take it, for his bid paid to the player who picked it.
        Sell(1) = "sell",
    }
}

/// The highest bid the engine offers at a bazaar (BZ2): bids are points, 0 to this.
pub const MAX_BID: u32 = 30;

/// The state of Bridges, Castles & Bazaars.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bcb {
    /// Bridges and castles each seat still has (BR1, CA1).
    pub(crate) bridges_left: [u8; MAX_PLAYERS],
    pub(crate) castles_left: [u8; MAX_PLAYERS],
    /// The bridge on each placement, by placement index (`None` beyond the end).
    pub(crate) bridge_on: Vec<Option<Axis>>,
    /// The placement that got a bridge this turn (one per turn, BR1).
    pub(crate) bridge_this_turn: Option<u8>,
    pub(crate) castles: Vec<castles::Castle>,
    /// CA1: the castle candidate asked now, by index into the turn's completed roots.
    pub(crate) castle_next: u8,
    pub(crate) bazaar: bazaars::Bazaar,
}

impl crate::game::Game {
    /// A turn begins: one bridge per turn (BR1), castle decisions from the active player
    /// (CA1), not (yet) a bazaar tile's turn (BZ4).
    pub(crate) fn bcb_turn_start(&mut self) {
        self.ext.bcb.bridge_this_turn = None;
        self.ext.bcb.castle_next = 0;
        self.ext.bcb.bazaar.bazaar_turn = false;
    }

    /// Hashes the set's state (bridges, castles, bazaar).
    pub(crate) fn hash_bcb(&self, h: &mut crate::game::Fnv) {
        if !self.bcb_on() {
            return;
        }
        let b = &self.ext.bcb;
        h.write(&b.bridges_left);
        h.write(&b.castles_left);
        for (i, axis) in b.bridge_on.iter().enumerate() {
            if let Some(axis) = axis {
                h.write(&[i as u8, *axis as u8]);
            }
        }
        for c in &b.castles {
            h.write(&[c.owner, u8::from(c.scored.is_some())]);
            h.write(&c.root.to_le_bytes());
        }
        let z = &b.bazaar;
        for t in z.offer.iter().chain(&z.held) {
            h.write(&[t.map_or(u8::MAX, |t| t.index() as u8)]);
        }
        h.write(&[z.selector, z.high.unwrap_or(u8::MAX), z.asked, z.drawn]);
        h.write(&z.bid.to_le_bytes());
        h.write(&[z.picked.map_or(u8::MAX, |t| t.index() as u8)]);
    }
}

impl Bcb {
    /// The state at the start of a game of `config`: 3 bridges and 3 castles each with
    /// 2–4 players, 2 and 2 with 5–6 (BR1, CA1).
    pub(crate) fn new(config: &GameConfig, tiles: usize) -> Bcb {
        let each = if config.players <= 4 { 3 } else { 2 };
        let mut left = [0; MAX_PLAYERS];
        left[..config.players as usize].fill(each);
        Bcb {
            bridges_left: left,
            castles_left: left,
            bridge_on: Vec::with_capacity(tiles),
            castles: Vec::with_capacity(config.players as usize * 3),
            bazaar: bazaars::Bazaar {
                log: Vec::with_capacity(tiles),
                ..bazaars::Bazaar::default()
            },
            ..Bcb::default()
        }
    }
}

impl crate::game::Game {
    /// Applies a decision of Bridges, Castles & Bazaars: a bridge (BR1), a castle built
    /// or declined (CA1), a bazaar pick, bid, pass or buy-or-sell choice (BZ2, BZ3).
    pub(crate) fn apply_bcb(&mut self, player: u8, action: crate::action::Action) {
        use crate::action::Action;
        self.record(player, action);
        match action {
            Action::PlaceBridge { pos, axis } => self.place_bridge(player, Bridge { pos, axis }),
            Action::BuildCastle { pos, feature } => self.build_castle(player, pos, feature),
            Action::CastlePass => self.castle_passed(),
            Action::BazaarSelect { tile, bid } => self.bazaar_select(tile, bid),
            Action::BazaarBid { bid } => self.bazaar_raise(player, bid),
            Action::BazaarPass => {}
            Action::BazaarBuyOrSell { choice } => self.bazaar_buy_or_sell(choice),
            _ => unreachable!("not a Bridges, Castles & Bazaars decision"),
        }
    }
}
