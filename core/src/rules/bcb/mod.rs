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

use crate::action::Action;
use crate::board::FitTable;
use crate::config::{GameConfig, MAX_PLAYERS};
use crate::features::NodeId;
use crate::game::Game;
use crate::geometry::{Pos, Rotation, Side};
use crate::rules::state::{LocalFeature, Seat, StateWriter};
use crate::rules::{Expansion, TurnEnd};
use crate::tiles::{Symbols, TileKind, TileSet};

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

crate::rules::state::state_tables! {
    expansion: "bridges-castles-and-bazaars";
    /// The bridges on the board, in the order their tiles were placed (BR1–BR3).
    bridges: Many {
        /// The square of the tile that carries it.
        pos: Pos,
        /// Its direction.
        axis: Axis,
    },
    /// The castles, in the order they were built (CA1): each stands on a completed city
    /// of two tiles, named by one of its parts.
    castles: Many {
        /// Its owner.
        owner: Seat,
        /// The square of a tile of its city.
        pos: Pos,
        /// The city's feature on that tile.
        feature: LocalFeature,
        /// The points it scored (CA3); absent while it waits for a feature to complete in
        /// its neighbourhood.
        points: Option<i32>,
    },
    /// The bridges and castles each seat still has in its supply (BR1, CA1).
    bridges_castles_supply: PerSeat {
        /// The seat.
        seat: Seat,
        /// Its bridges left.
        bridges: u8,
        /// Its castles left.
        castles: u8,
    },
    /// The bazaar under way (BZ1–BZ3); no row between bazaars.
    bazaar: Optional {
        /// The seat whose bazaar tile started it.
        player: Seat,
        /// The seat that picks the next tile, or picked the one auctioned now (BZ2).
        selector: Seat,
        /// The tile auctioned now; absent before it is picked.
        tile: Option<TileKind>,
        /// The bid on it (points); absent before it is picked.
        bid: Option<u32>,
        /// Who made that bid: the selector until someone outbids him; absent before the
        /// tile is picked.
        bidder: Option<Seat>,
    },
    /// The offer of the bazaar under way, one row per tile laid out, in draw order (BZ1);
    /// no rows between bazaars.
    bazaar_offer: Many {
        /// Its place in the offer (the place a selection names).
        place: u8,
        /// The tile; absent once it is taken.
        tile: Option<TileKind>,
    },
    /// The tile each seat got at a bazaar and places on its next turn instead of drawing
    /// (BZ3, BZ4).
    bazaar_tiles: PerSeat {
        /// The seat.
        seat: Seat,
        /// Its tile; absent when it holds none.
        tile: Option<TileKind>,
    },
}

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
    /// The bridge of the turn's tile on itself, laid as the tile is put (BR2).
    pub(crate) bridge_with_tile: Option<Axis>,
    pub(crate) castles: Vec<castles::Castle>,
    /// CA1: the castle candidate asked now, by index into the turn's completed roots.
    pub(crate) castle_next: u8,
    pub(crate) bazaar: bazaars::Bazaar,
}

impl Expansion for Bcb {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::BridgesCastlesBazaars)
    }

    /// 3 bridges and 3 castles each with 2–4 players, 2 and 2 with 5–6 (BR1, CA1).
    fn new(config: &GameConfig, tiles: usize) -> Bcb {
        let each = if config.players <= 4 { 3 } else { 2 };
        let mut left = [0; MAX_PLAYERS];
        left[..config.players as usize].fill(each);
        Bcb {
            bridges_left: left,
            castles_left: left,
            bridge_on: Vec::with_capacity(tiles),
            castles: Vec::with_capacity(if tiles == 0 {
                0
            } else {
                config.players as usize * 3
            }),
            bazaar: bazaars::Bazaar::with_capacity(tiles),
            ..Bcb::default()
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Bcb>> {
        vec![
            ("BR1", |b| b.bridges_left[0] ^= 1),
            ("BR1", |b| b.bridge_on.push(Some(Axis::NS))),
            ("BR1", |b| {
                b.bridge_this_turn = Some(b.bridge_this_turn.map_or(0, |i| i ^ 1))
            }),
            ("CA1", |b| b.castles_left[0] ^= 1),
            ("CA1", |b| {
                b.castles.push(castles::Castle {
                    owner: 0,
                    root: 0,
                    area: (Pos::new(0, 0), Pos::new(1, 2)),
                    built: 0,
                    scored: None,
                })
            }),
            ("CA1", |b| b.castle_next += 1),
            ("BZ1", |b| {
                b.bazaar.offer[0] = Some(TileKind(b.bazaar.offer[0].map_or(0, |t| t.0 ^ 1)))
            }),
            ("BZ1", |b| b.bazaar.drawn += 1),
            ("BZ1", |b| b.bazaar.pending ^= true),
            ("BZ2", |b| b.bazaar.selector ^= 1),
            ("BZ2", |b| b.bazaar.bid += 1),
            ("BZ2", |b| {
                b.bazaar.picked = Some(TileKind(b.bazaar.picked.map_or(0, |t| t.0 ^ 1)))
            }),
            ("BZ2", |b| {
                b.bazaar.high = Some(b.bazaar.high.map_or(0, |p| p ^ 1))
            }),
            ("BZ2", |b| b.bazaar.asked += 1),
            ("BZ3", |b| {
                b.bazaar.held[0] = Some(TileKind(b.bazaar.held[0].map_or(0, |t| t.0 ^ 1)))
            }),
            ("BZ1", |b| b.bazaar.under_way ^= true),
            ("BZ4", |b| b.bazaar.bazaar_turn ^= true),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        let bcb = &game.expansions.bcb;
        for (index, axis) in bcb.bridge_on.iter().enumerate() {
            if let Some(axis) = *axis {
                rows.bridges(game.board.placement(index).pos, axis);
            }
        }
        for castle in &bcb.castles {
            let (pos, local) = game.node_name(castle.root);
            let points = castle.scored.map(|(_, points)| points);
            rows.castles(Seat(castle.owner), pos, LocalFeature(local), points);
        }
        for seat in 0..game.num_players() {
            rows.bridges_castles_supply(
                Seat(seat as u8),
                bcb.bridges_left[seat],
                bcb.castles_left[seat],
            );
        }
        let bazaar = &bcb.bazaar;
        if bazaar.under_way {
            let picked = bazaar.picked;
            rows.bazaar(
                Seat(bazaar.bazaar_player),
                Seat(bazaar.selector),
                picked,
                picked.map(|_| bazaar.bid),
                picked.map(|_| Seat(bazaar.high.unwrap_or(bazaar.selector))),
            );
        }
        for (place, tile) in game.bazaar_offer().iter().enumerate() {
            rows.bazaar_offer(place as u8, *tile);
        }
        for seat in 0..game.num_players() {
            rows.bazaar_tiles(Seat(seat as u8), bazaar.held[seat]);
        }
    }

    /// BZ2, BZ3: each bazaar tile may hold an auction per player, with a selection, a
    /// bid and a choice per player each, and their payments.
    fn log_room(config: &GameConfig, pile: &[u8]) -> usize {
        if !config.has(TileSet::BridgesCastlesBazaars) {
            return 0;
        }
        let bazaars: usize = crate::tiles::catalogue()
            .kinds()
            .filter(|k| k.def().has(Symbols::BAZAAR))
            .map(|k| pile[k.index()] as usize)
            .sum();
        let p = config.players as usize;
        bazaars * p * (p + 2)
    }

    /// BR3: the bridge, once there is one.
    #[inline]
    fn extra_features(game: &Game, index: usize) -> u8 {
        u8::from(game.bridge_at(index).is_some())
    }

    /// BR3: every tile has a bridge node.
    #[inline]
    fn crosses_sides(_: &Game) -> bool {
        true
    }

    /// BR3.
    #[inline]
    fn crossing_node(game: &Game, index: usize, side: Side) -> Option<NodeId> {
        game.bridge_node(index, side)
    }

    /// CA1.
    #[inline]
    fn is_castle(game: &Game, root: NodeId) -> bool {
        !game.expansions.bcb.castles.is_empty() && game.castle_on(root)
    }

    /// CA4: a castle counts for a field beside it as a completed city...
    #[inline]
    fn field_extra_cities(game: &Game, root: NodeId) -> i32 {
        game.castles_beside_field(root)
    }

    /// ... worth one point more.
    #[inline]
    fn field_extra_points(game: &Game, root: NodeId) -> i32 {
        game.castles_beside_field(root)
    }

    /// CA1: a castle named by any part of its city.
    #[inline]
    fn normalize(game: &Game, action: Action) -> Action {
        match action {
            Action::BuildCastle { .. } => game.normalize_castle(action),
            _ => action,
        }
    }

    /// BR2.
    #[inline]
    fn misfits_possible(game: &Game) -> bool {
        game.may_bridge_placement()
    }

    /// BR2.
    #[inline]
    fn misfit_fit_table(tile: TileKind) -> Option<&'static FitTable> {
        Some(bridges::bridge_fit_table(tile))
    }

    /// BR2.
    #[inline]
    fn misfit_placements(
        game: &Game,
        tile: TileKind,
        pos: Pos,
        rot: Rotation,
        required: (u16, u16),
        out: &mut Vec<Action>,
    ) {
        game.bridge_placements(tile, pos, rot, required, out);
    }

    /// BR2.
    #[inline]
    fn may_discard_tile(game: &Game) -> bool {
        game.may_discard_bridge_only_tile()
    }

    /// One bridge per turn (BR1), castle decisions from the active player (CA1), not
    /// (yet) a bazaar tile's turn (BZ4).
    #[inline]
    fn reset_turn(game: &mut Game) {
        let b = &mut game.expansions.bcb;
        b.bridge_this_turn = None;
        b.castle_next = 0;
        b.bazaar.bazaar_turn = false;
    }

    /// BZ4.
    #[inline]
    fn tile_instead_of_draw(game: &mut Game) -> Option<TileKind> {
        game.take_bazaar_tile()
    }

    /// BZ4.
    #[inline]
    fn tiles_held_to_place(game: &Game) -> bool {
        game.bazaar_tiles_held()
    }

    /// BR2: the bridge placed with the tile.
    #[inline]
    fn before_turn_tile(game: &mut Game, placement: Action) {
        if let Action::PlaceTile {
            pos,
            bridge: Some(bridge),
            ..
        } = placement
        {
            game.bridge_with_tile(pos, bridge);
        }
    }

    /// BR3: the tile's bridge node, and the bridge placed with it on itself (BR2).
    #[inline]
    fn on_tile_put(game: &mut Game, index: u8) {
        game.add_bridge_node(index);
        if let Some(axis) = game.expansions.bcb.bridge_with_tile.take() {
            game.set_bridge(index as usize, axis);
        }
    }

    /// BZ1.
    #[inline]
    fn on_tile_placed(game: &mut Game, index: u8) {
        game.bazaar_tile_placed(index);
    }

    /// BR1.
    #[inline]
    fn instead_of_deploying(game: &Game, out: &mut Vec<Action>) {
        game.bridge_actions(out);
    }

    /// BR1: a bridge laid on a neighbour between abbeys closes its road by itself.
    #[inline]
    fn completed_beside_tiles(game: &mut Game) -> Option<NodeId> {
        game.bridge_completed_this_turn()
    }

    /// CA1.
    #[inline]
    fn decision_before_scoring(game: &mut Game) -> bool {
        game.next_castle_decision()
    }

    /// CA3.
    #[inline]
    fn on_turn_scored(game: &mut Game, roots: &[NodeId], _: &[NodeId]) {
        game.castles_score(roots);
    }

    /// BZ1–BZ3.
    #[inline]
    fn at_end_of_turn(game: &mut Game) -> TurnEnd {
        game.bazaar_at_end_of_turn()
    }

    /// BZ1: a tile of the offer.
    #[inline]
    fn drawn_at_end_of_turn(game: &mut Game, tile: TileKind) -> bool {
        game.bazaar_drawn(tile)
    }

    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::PlaceBridge { .. }
            | Action::BuildCastle { .. }
            | Action::CastlePass
            | Action::BazaarSelect { .. }
            | Action::BazaarBid { .. }
            | Action::BazaarPass
            | Action::BazaarBuyOrSell { .. } => {
                game.apply_bcb(player, action);
                Some(true)
            }
            _ => None,
        }
    }
}

impl Game {
    /// Applies a decision of Bridges, Castles & Bazaars: a bridge (BR1), a castle built
    /// or declined (CA1), a bazaar pick, bid, pass or buy-or-sell choice (BZ2, BZ3).
    #[inline]
    fn apply_bcb(&mut self, player: u8, action: Action) {
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
