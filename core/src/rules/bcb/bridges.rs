//! Bridges (BR1–BR3).
//!
//! * BR1: after placing his tile a player may put one of his bridges (one per turn) on
//!   that tile or an orthogonal neighbour, across two opposite field sides; one bridge
//!   per tile.
//! * BR2: the bridged sides become road sides and every side must still fit, so a bridge
//!   end faces an empty square (or, placed with a tile, the road it meets). A tile may be
//!   placed where it fits only with a bridge (on itself, or on the neighbour whose field
//!   side its road meets); the bridge is then part of the placement. A tile that fits
//!   only with a bridge may be discarded instead (`pass`, B5).
//! * BR3: a bridge is a road segment of its tile (the feature `bridge`): it continues the
//!   roads at its ends, counts its tile once, divides nothing beneath it. A follower may
//!   be deployed on the bridge of the tile just placed. Bridges stay; the dragon does not
//!   eat them.
//!
//! Every tile of a game with this set has one more feature node than its catalogue
//! features, its bridge, unused until a bridge is placed on it.

use super::{Axis, Bridge, TileBridge};
use crate::action::Action;
use crate::board::FitTable;
use crate::features::NodeId;
use crate::game::Game;
use crate::geometry::{Pos, Rotation, Side};
use crate::tiles::{catalogue, FeatureKind, Terrain, TileKind};
use std::sync::OnceLock;

/// The record name of a bridge feature.
pub const BRIDGE_FEATURE: &str = "bridge";

/// BR2: whether a bridge could make a tile with packed sides `sides` fit where the
/// frontier requires `packed` on the sides of `mask` (whole sides: each 4-bit nibble of
/// `mask` is 0 or 0xF, as [`crate::board::packed_requirement`] gives): every side that
/// does not match is a field facing a road (a bridge on the tile) or a road facing a
/// field (a bridge on the neighbour). A quick test before [`Game::bridge_placements`]
/// looks for the bridge.
///
/// Fields are 0 and roads 1: a side that does not match is a field against a road or a
/// road against a field exactly when the two terrains differ by 1 and the tile's is a
/// field or a road. So every nibble of the difference must be 0 or 1, and the tile's
/// nibble has no bit above the lowest wherever the difference is 1 (`diff * 0xE` marks
/// those bits there).
#[inline]
pub(crate) fn bridge_may_fit(sides: u16, packed: u16, mask: u16) -> bool {
    const _: () = assert!(Terrain::Field as u16 == 0 && Terrain::Road as u16 == 1);
    let diff = (sides ^ packed) & mask;
    diff & 0xEEEE == 0 && sides & (diff * 0xE) == 0
}

/// BR2: the rotations of `tile` that a bridge could make fit where the frontier requires
/// `required`, a bit per rotation: those where every side matches or [`bridge_may_fit`]
/// lets it differ (a field against a road, a road against a field). Two lookups in a
/// table per tile kind ([`FitTable::by_side_rule`]), made once.
#[inline]
pub(crate) fn bridge_fit_table(tile: TileKind) -> &'static FitTable {
    static TABLES: OnceLock<Vec<FitTable>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        catalogue()
            .kinds()
            .map(|k| {
                let packed = Rotation::ALL.map(|r| k.def().oriented(r).packed_sides);
                FitTable::by_side_rule(packed, |required, terrain| {
                    bridge_may_fit(terrain, required, 0xF)
                })
            })
            .collect()
    });
    &tables[tile.index()]
}

impl Game {
    /// The bridge on placement `index`, if any.
    pub fn bridge_at(&self, index: usize) -> Option<Axis> {
        self.expansions.bcb.bridge_on.get(index).copied().flatten()
    }

    /// Bridges `player` still has (BR1).
    pub fn bridges_left(&self, player: usize) -> u8 {
        self.expansions.bcb.bridges_left[player]
    }

    /// The local index of the bridge feature of placement `index` (one past its
    /// catalogue features).
    fn bridge_local(&self, index: usize) -> u8 {
        self.board.placement(index).def().features.len() as u8
    }

    /// The bridge node of placement `index` if its bridge crosses `side` (BR3).
    pub(crate) fn bridge_node(&self, index: usize, side: Side) -> Option<NodeId> {
        let axis = self.bridge_at(index)?;
        axis.sides()
            .contains(&side)
            .then(|| self.board.placement(index).node_base + self.bridge_local(index) as NodeId)
    }

    /// Reserves the bridge node of a tile just put at placement `index`. Until a bridge
    /// is laid it is an inert part: a river part open on one side, which no figure fits,
    /// nothing scores and nothing joins.
    #[inline]
    pub(crate) fn add_bridge_node(&mut self, index: u8) {
        let local = self.bridge_local(index as usize);
        self.features.add(FeatureKind::River, index, local, 1, 0);
        let on = &mut self.expansions.bcb.bridge_on;
        if on.len() <= index as usize {
            on.resize(index as usize + 1, None);
        }
    }

    /// Marks a bridge along `axis` on placement `index`: its sides along the axis become
    /// road sides, its bridge node a road open at both ends (not yet joined).
    pub(crate) fn set_bridge(&mut self, index: usize, axis: Axis) {
        self.expansions.bcb.bridge_on[index] = Some(axis);
        let node = self.board.placement(index).node_base + self.bridge_local(index) as NodeId;
        let n = self.features.node_mut(node);
        n.kind = FeatureKind::Road;
        n.open = 2;
        for side in axis.sides() {
            self.board.set_side(index, side, Terrain::Road);
        }
    }

    /// Lays a bridge on placement `index`, a tile already on the board: the bridge is a
    /// road open at both ends, joined to what its ends meet.
    pub(crate) fn lay_bridge(&mut self, index: usize, axis: Axis) {
        self.set_bridge(index, axis);
        let node = self.board.placement(index).node_base + self.bridge_local(index) as NodeId;
        let pos = self.board.placement(index).pos;
        for side in axis.sides() {
            let Some(ni) = self.board.index_at(pos.step(side)) else {
                continue;
            };
            let n = self.board.placement(ni);
            if n.sides[side.opposite().index()] == Terrain::Abbey {
                // AM3: an abbey closes the bridge's end.
                let root = self.features.find(node);
                self.features.node_mut(root).open -= 1;
            } else if let Some(theirs) = self.segment_node(ni, side.opposite(), 1) {
                // A road end meets it (legal placements leave no other case).
                let theirs_root = self.features.find(theirs);
                if self.features.node(theirs_root).kind == FeatureKind::Road {
                    let root = self.join_features(node, theirs);
                    self.features.node_mut(root).open -= 2;
                }
            }
        }
    }

    /// BR1: places a bridge from `player`'s supply on a tile of the board.
    pub(crate) fn place_bridge(&mut self, player: u8, bridge: Bridge) {
        let index = self
            .board
            .index_at(bridge.pos)
            .expect("a tile under the bridge");
        self.expansions.bcb.bridges_left[player as usize] -= 1;
        self.expansions.bcb.bridge_this_turn = Some(index as u8);
        self.lay_bridge(index, bridge.axis);
    }

    /// The road of the bridge placed this turn, if that bridge completed it.
    #[inline]
    pub(crate) fn bridge_completed_this_turn(&mut self) -> Option<NodeId> {
        let index = self.expansions.bcb.bridge_this_turn? as usize;
        let node = self.board.placement(index).node_base + self.bridge_local(index) as NodeId;
        let root = self.features.find(node);
        (self.features.node(root).open == 0).then_some(root)
    }

    /// BR2: the bridge placed with the turn player's tile at `pos`: a neighbour's is laid
    /// now, before the tile; the tile's own is laid as the tile is put
    /// ([`Expansion::on_tile_put`](crate::rules::Expansion::on_tile_put)).
    #[inline]
    pub(crate) fn bridge_with_tile(&mut self, pos: Pos, bridge: TileBridge) {
        match bridge {
            neighbour @ TileBridge::Neighbour(_) => {
                self.place_bridge(self.turn_player, neighbour.at(pos));
            }
            TileBridge::OnTile(axis) => {
                let b = &mut self.expansions.bcb;
                b.bridges_left[self.turn_player as usize] -= 1;
                b.bridge_this_turn = Some(self.board.len() as u8);
                b.bridge_with_tile = Some(axis);
            }
        }
    }

    /// Whether the turn player may place a tile with a bridge (BR2): he has one left and
    /// has placed none this turn.
    #[inline]
    pub(crate) fn may_bridge_placement(&self) -> bool {
        self.expansions.bcb.bridge_this_turn.is_none()
            && self.bridges_left(self.turn_player as usize) > 0
    }

    /// BR2: whether the tile in hand may be discarded instead of placed: every legal
    /// placement of it needs a bridge (the turn's first tile; B5 as in JCloisterZone).
    #[inline]
    pub(crate) fn may_discard_bridge_only_tile(&self) -> bool {
        self.turn.placed.is_none()
            && !self.legal.is_empty()
            && self.legal.iter().all(|a| {
                matches!(
                    a,
                    Action::PlaceTile {
                        bridge: Some(_),
                        ..
                    }
                )
            })
    }

    /// Whether placement `index` may take a bridge along `axis` after it lies: no bridge
    /// yet, field on both sides, and both ends facing empty squares or an abbey.
    fn bridgeable(&self, index: usize, axis: Axis) -> bool {
        let p = self.board.placement(index);
        self.bridge_at(index).is_none()
            && axis.sides().iter().all(|&side| {
                p.sides[side.index()] == Terrain::Field
                    && self
                        .board
                        .at(p.pos.step(side))
                        .is_none_or(|n| n.sides[side.opposite().index()] == Terrain::Abbey)
            })
    }

    /// BR1: `PlaceBridge` actions after the tile: on the placed tile or an orthogonal
    /// neighbour, if the turn player has a bridge and placed none this turn.
    #[inline]
    pub(crate) fn bridge_actions(&self, out: &mut Vec<Action>) {
        let player = self.turn_player as usize;
        if self.expansions.bcb.bridge_this_turn.is_some() || self.bridges_left(player) == 0 {
            return;
        }
        let Some(placed) = self.turn.placed else {
            return;
        };
        let pos = self.board.placement(placed as usize).pos;
        let mut squares = [pos; 5];
        for (k, side) in Side::ALL.iter().enumerate() {
            squares[k + 1] = pos.step(*side);
        }
        for q in squares {
            let Some(i) = self.board.index_at(q) else {
                continue;
            };
            for axis in Axis::ALL {
                if self.bridgeable(i, axis) {
                    out.push(Action::PlaceBridge { pos: q, axis });
                }
            }
        }
    }

    /// BR2: pushes the placements of `tile` at frontier square `pos` turned by `rot` that
    /// fit only with a bridge: on the tile itself (its sides along the axis are field and
    /// become road), or on the neighbour whose field side meets the tile's road.
    /// `(packed, mask)` are the square's side requirements ([`crate::board::Board`]).
    #[inline]
    pub(crate) fn bridge_placements(
        &self,
        tile: TileKind,
        pos: Pos,
        rot: Rotation,
        (packed, mask): (u16, u16),
        out: &mut Vec<Action>,
    ) {
        let oriented = tile.def().oriented(rot);
        let nibble = |side: Side| 0xFu16 << (side.index() * 4);
        let road = |side: Side| (Terrain::Road as u16) << (side.index() * 4);
        // On the tile itself.
        for axis in Axis::ALL {
            let [a, b] = axis.sides();
            if oriented.sides[a.index()] != Terrain::Field
                || oriented.sides[b.index()] != Terrain::Field
            {
                continue;
            }
            let sides = (oriented.packed_sides & !(nibble(a) | nibble(b))) | road(a) | road(b);
            if (sides ^ packed) & mask == 0 {
                out.push(Action::PlaceTile {
                    pos,
                    rot,
                    bridge: Some(TileBridge::OnTile(axis)),
                });
            }
        }
        // On a neighbour whose field side meets the tile's road.
        for side in Side::ALL {
            if oriented.sides[side.index()] != Terrain::Road {
                continue;
            }
            let q = pos.step(side);
            let Some(ni) = self.board.index_at(q) else {
                continue;
            };
            if self.board.placement(ni).sides[side.opposite().index()] != Terrain::Field {
                continue;
            }
            // The far end must face an empty square (or an abbey); the near end is the
            // new tile's road.
            let far = side;
            let n = self.board.placement(ni);
            let far_free = n.sides[far.index()] == Terrain::Field
                && self
                    .board
                    .at(q.step(far))
                    .is_none_or(|m| m.sides[far.opposite().index()] == Terrain::Abbey);
            if self.bridge_at(ni).is_some() || !far_free {
                continue;
            }
            let required = (packed & !nibble(side)) | road(side);
            if (oriented.packed_sides ^ required) & mask == 0 {
                out.push(Action::PlaceTile {
                    pos,
                    rot,
                    bridge: Some(TileBridge::Neighbour(side)),
                });
            }
        }
    }

    /// The name of local feature `local` of placement `index` in records: its catalogue
    /// id, or `bridge` (BR3).
    pub fn feature_name(&self, index: usize, local: u8) -> &str {
        let def = self.board.placement(index).def();
        match def.features.get(local as usize) {
            Some(f) => &f.id,
            None => BRIDGE_FEATURE,
        }
    }

    /// The local feature of placement `index` named `name` (a catalogue id, or `bridge`
    /// when the tile has one).
    pub fn feature_named(&self, index: usize, name: &str) -> Option<u8> {
        let def = self.board.placement(index).def();
        match def.feature_by_id(name) {
            Some(i) => Some(i as u8),
            None => (name == BRIDGE_FEATURE && self.bridge_at(index).is_some())
                .then(|| self.bridge_local(index)),
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/bridges.rs"]
mod tests;
