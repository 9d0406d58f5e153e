//! The River and River II (R1–R5).
//!
//! * R1: the spring is the start tile; river tiles are drawn first (River II's fork
//!   first), the lakes last ([`crate::deck`]).
//! * R2: river sides match only river sides (the side fit check); a river tile must
//!   continue exactly one open river end (so two branches are never joined), and the
//!   river may not make an immediate U-turn: two consecutive bends the same way, also
//!   along the path from one branch of River II's fork through the fork into the other
//!   (the first tile of a branch may not bend as that path bends at the fork).
//! * R3: the river is no feature for figures and separates fields like a road.
//! * R4: with River I and II, one spring (River II's) and no River I lake ([`crate::deck`]).
//! * R5: the pig herd adds 1 per city to its field's farmers (with the `pig_herd`
//!   switch; its `field_bonus_per_city` hook); the volcano lake brings the dragon
//!   ([`super::princess_dragon`]).
//! * R6 (`river2_lakes`): `one-turn`, the player who places the volcano lake places the
//!   city lake at once, in the same turn (the pile holds the city lake back until then,
//!   [`crate::deck`]), and no figure ever stands on the volcano lake (PD1); `two-turns`,
//!   the lakes are ordinary last river tiles.

use crate::config::GameConfig;
use crate::features::NodeId;
use crate::game::Game;
use crate::geometry::{Pos, Rotation, Side};
use crate::rules::Expansion;
use crate::tiles::{catalogue, FeatureKind, RoadEnd, Symbols, Terrain, TileDef, TileKind, TileSet};
use std::sync::OnceLock;

crate::named_enum! {
    /// How the two River II lakes are placed (R6).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum RiverLakes {
        /// After the last river tile, one player places the volcano lake and then the
        /// city lake in the same turn (default, the River II rulebook).
        #[default]
        OneTurn = "one-turn",
        /// The lakes are the last river tiles, drawn in random order by successive
        /// players as ordinary turns (the reading of the reference engine).
        TwoTurns = "two-turns",
    }
}

/// The River's state: the direction of travel into each placed river tile (R2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct River {
    /// Per placement index: the side the river flows towards when it enters the tile
    /// (`u8::MAX`, or beyond the end, for tiles without a river and for the spring).
    heading_in: Vec<u8>,
}

/// The River II city lake, set aside under `river2_lakes: one-turn` (R6).
const CITY_LAKE: &str = "RIV2-LAKE-CITY";

impl Expansion for River {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::River1) || config.has(TileSet::River2)
    }

    fn new(_: &GameConfig, tiles: usize) -> River {
        River {
            heading_in: Vec::with_capacity(tiles),
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<River>> {
        vec![("R2", |r| r.heading_in.push(Side::N as u8))]
    }

    /// R5: every player who scores a field holding the pig herd scores 1 more per city
    /// (and per castle, CA4) of that field.
    #[inline]
    fn field_bonus_per_city(game: &Game, root: NodeId, _player: u8) -> i32 {
        i32::from(game.rules.pig_herd && game.field_holds_pig_herd(root))
    }

    /// R1: a spring is only ever a start tile.
    fn never_drawn(def: &TileDef) -> bool {
        def.features
            .iter()
            .any(|f| f.kind == FeatureKind::River && f.road_end == Some(RoadEnd::Spring))
    }

    /// R4: with River I and II, no River I lake.
    fn adjust_pile(config: &GameConfig, counts: &mut [u8]) {
        if config.has(TileSet::River1) && config.has(TileSet::River2) {
            let lake = catalogue()
                .by_id("RIV1-LAKE")
                .expect("River I lake in catalogue");
            counts[lake.index()] = 0;
        }
    }

    /// R6 (`one-turn`): the city lake waits for the volcano lake.
    fn set_aside(config: &GameConfig) -> Option<TileKind> {
        (config.has(TileSet::River2) && config.rules.river2_lakes == RiverLakes::OneTurn).then(
            || {
                catalogue()
                    .by_id(CITY_LAKE)
                    .expect("River II city lake in catalogue")
            },
        )
    }

    #[inline]
    fn figure_barred_on(game: &Game, index: usize) -> bool {
        game.volcano_lake_bars(index)
    }

    #[inline]
    fn placement_restricted(_: &Game, tile: TileKind) -> bool {
        tile.def().has(Symbols::RIVER)
    }

    const RESTRICTS_ROTATIONS: bool = true;

    #[inline]
    fn placement_allowed_turned(game: &Game, tile: TileKind, pos: Pos, rot: Rotation) -> bool {
        game.river_allows(tile, pos, rot)
    }

    #[inline]
    fn on_tile_placed(game: &mut Game, index: u8) {
        game.river_placed(index);
    }

    #[inline]
    fn on_tile_discarded(game: &mut Game, tile: TileKind) {
        game.river_tile_discarded(tile);
    }

    #[inline]
    fn second_tile_after(game: &mut Game, index: u8) -> Option<TileKind> {
        game.lake_after(index)
    }
}

/// Turn of travelling in direction `heading` and leaving through side `exit`:
/// 0 straight, 1 right, 3 left (quarter turns clockwise), 2 back.
fn turn(heading: Side, exit: Side) -> u8 {
    ((exit.index() + 4 - heading.index()) % 4) as u8
}

impl Game {
    /// Board sides through which the river of `tile` turned by `rot` leaves the tile
    /// ([`Game::river_sides_of`], made once for every kind and rotation).
    #[inline]
    fn river_sides(tile: TileKind, rot: Rotation) -> u8 {
        static SIDES: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
        let sides = SIDES.get_or_init(|| {
            catalogue()
                .kinds()
                .map(|k| Rotation::ALL.map(|r| Game::river_sides_of(k, r)))
                .collect()
        });
        sides[tile.index()][rot.quarter_turns() as usize]
    }

    /// Board sides through which the river of `tile` turned by `rot` leaves the tile,
    /// from its features.
    fn river_sides_of(tile: TileKind, rot: Rotation) -> u8 {
        let def = tile.def();
        let o = def.oriented(rot);
        def.features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == FeatureKind::River)
            .fold(0, |acc, (i, _)| acc | o.feature_sides[i])
    }

    /// R2 beyond side matching: a river tile continues exactly one open river end and
    /// makes no immediate U-turn, neither after the tile it continues nor, as the first
    /// tile of a branch of the fork, after the path from the other branch through the
    /// fork. Other tiles always pass.
    #[inline]
    fn river_allows(&self, tile: TileKind, pos: Pos, rot: Rotation) -> bool {
        if !tile.def().has(Symbols::RIVER) {
            return true;
        }
        let sides = Game::river_sides(tile, rot);
        let mut entry = None;
        for side in Side::ALL {
            if sides & (1 << side.index()) == 0 {
                continue;
            }
            if let Some(n) = self.board.at(pos.step(side)) {
                if n.sides[side.opposite().index()] != Terrain::River || entry.is_some() {
                    return false;
                }
                entry = Some(side);
            }
        }
        let Some(entry) = entry else { return false };
        let heading = entry.opposite();
        let exits = sides & !(1 << entry.index());
        if exits.count_ones() != 1 {
            return true;
        }
        let exit = Side::from_index(exits.trailing_zeros() as usize);
        let bend = turn(heading, exit);
        if bend == 0 {
            return true;
        }
        let prev = self
            .board
            .index_at(pos.step(entry))
            .expect("entry neighbour");
        let prev_heading = match self
            .expansions
            .river
            .heading_in
            .get(prev)
            .copied()
            .unwrap_or(u8::MAX)
        {
            u8::MAX => return true,
            h => Side::from_index(h as usize),
        };
        if turn(prev_heading, heading) == bend {
            return false;
        }
        // At a fork, the path from the other branch through the fork into this one: the
        // first tile of a branch may not bend the same way as that path bends.
        let p = self.board.placement(prev);
        let fork_sides = Game::river_sides(p.kind, p.rot);
        if fork_sides.count_ones() < 3 {
            return true;
        }
        let others = fork_sides & !(1 << prev_heading.opposite().index()) & !(1 << heading.index());
        Side::ALL
            .into_iter()
            .filter(|s| others & (1 << s.index()) != 0)
            .all(|other| turn(other.opposite(), heading) != bend)
    }

    /// Notes the direction of travel into a river tile just placed.
    #[inline]
    fn river_placed(&mut self, index: u8) {
        let p = self.board.placement(index as usize);
        if !p.def().has(Symbols::RIVER) {
            return;
        }
        let sides = Game::river_sides(p.kind, p.rot);
        let pos = p.pos;
        for side in Side::ALL {
            if sides & (1 << side.index()) == 0 {
                continue;
            }
            if let Some(n) = self.board.at(pos.step(side)) {
                if n.sides[side.opposite().index()] == Terrain::River {
                    let heading_in = &mut self.expansions.river.heading_in;
                    if heading_in.len() <= index as usize {
                        heading_in.resize(index as usize + 1, u8::MAX);
                    }
                    heading_in[index as usize] = side.opposite() as u8;
                }
            }
        }
    }
}

impl Game {
    /// Whether `tile` is River II's volcano lake.
    fn is_volcano_lake(tile: TileKind) -> bool {
        let def = tile.def();
        def.set == TileSet::River2 && def.has(Symbols::VOLCANO)
    }

    /// R6 (`one-turn`): the city lake, taken from the pile, after the volcano lake at
    /// placement `index`.
    #[inline]
    fn lake_after(&mut self, index: u8) -> Option<TileKind> {
        if self.rules.river2_lakes != RiverLakes::OneTurn
            || !Game::is_volcano_lake(self.board.placement(index as usize).kind)
        {
            return None;
        }
        self.deck.take_held()
    }

    /// R6: a discarded volcano lake leaves the city lake to be drawn like any river tile.
    #[inline]
    fn river_tile_discarded(&mut self, tile: TileKind) {
        if Game::is_volcano_lake(tile) {
            self.deck.release_held();
        }
    }

    /// PD1, R6 (`one-turn`): no figure on the volcano lake, with or without The Princess
    /// & the Dragon. Under `two-turns` it is an ordinary tile unless The Princess & the
    /// Dragon makes it a volcano (PD1 in [`super::princess_dragon`]).
    #[inline]
    fn volcano_lake_bars(&self, index: usize) -> bool {
        self.rules.river2_lakes == RiverLakes::OneTurn
            && Game::is_volcano_lake(self.board.placement(index).kind)
    }
}

impl Game {
    /// R5: whether a part of the field of `root` is the pig herd's.
    fn field_holds_pig_herd(&self, root: NodeId) -> bool {
        self.features.parts(root).any(|id| {
            let node = self.features.node(id);
            let def = self.board.placement(node.placement as usize).def();
            def.features[node.local as usize].pig_herd
        })
    }
}

#[cfg(test)]
mod river_side_tests {
    use super::*;

    /// R2: the river sides looked up per kind and rotation are the sides of the turned
    /// tile whose terrain is the river, for every river tile of the catalogue.
    #[test]
    fn r2_river_sides_are_the_river_terrain_sides() {
        let mut river_tiles = 0;
        for kind in catalogue().kinds() {
            if !kind.def().has(Symbols::RIVER) {
                continue;
            }
            river_tiles += 1;
            for rot in Rotation::ALL {
                let sides = kind.def().oriented(rot).sides;
                let want = Side::ALL
                    .iter()
                    .filter(|s| sides[s.index()] == Terrain::River)
                    .fold(0u8, |mask, s| mask | 1 << s.index());
                assert_eq!(
                    Game::river_sides(kind, rot),
                    want,
                    "{} turned {rot:?}",
                    kind.def().id
                );
            }
        }
        assert!(river_tiles >= 12, "{river_tiles} river tiles");
    }
}
