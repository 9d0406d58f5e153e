//! Inns & Cathedrals (IC1–IC4), active with the `inns-and-cathedrals` set.
//!
//! * IC1: each player has one big follower (`big-follower`), a follower for every rule
//!   that speaks of followers, which counts as two followers in every majority.
//! * IC2: a road with an inn (a road part the catalogue marks `inn`: the set's six inn
//!   tiles, River II's lake inn, the two inns of Bridges, Castles & Bazaars) scores 2 per
//!   tile when completed and nothing at the end of the game.
//! * IC3: a city with a cathedral scores 3 per tile and 3 per pennant when completed and
//!   nothing at the end of the game.
//! * IC4: every value taken from a feature's score (a castle's reward, CA3) is the IC2 or
//!   IC3 value; the fairy's bonus stays 3 (PD16c).
//!
//! Without the set, inns and cathedrals are plain roads and cities.

use crate::config::{ConfigError, Figure, Figures, GameConfig};
use crate::features::NodeId;
use crate::game::Game;
use crate::rules::{Expansion, FigureCounts};
use crate::tiles::{FeatureKind, TileSet};

/// The rules of Inns & Cathedrals: no state of their own (the big follower is a figure
/// of the supply; inns and cathedrals are parts of the tiles).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct InnsCathedrals;

impl Expansion for InnsCathedrals {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::InnsCathedrals)
    }

    fn new(_: &GameConfig, _: usize) -> InnsCathedrals {
        InnsCathedrals
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<InnsCathedrals>> {
        Vec::new()
    }

    /// IC1: with the set, each player has one big follower by default.
    fn default_figures(sets: &[TileSet], counts: &mut FigureCounts) {
        if sets.contains(&TileSet::InnsCathedrals) {
            counts[Figures::FIGURE_KEYS[Figure::BigFollower.index()]] = 1;
        }
    }

    /// IC1: at most one big follower, and none without the set.
    fn check_config(config: &GameConfig) -> Result<(), ConfigError> {
        let n = config.figures.big_follower;
        if n > 1 {
            return Err(ConfigError::new(
                "figures.big-follower",
                format!("{n}; at most 1 (IC1)"),
            ));
        }
        if n > 0 && !config.has(TileSet::InnsCathedrals) {
            return Err(ConfigError::new(
                "figures.big-follower",
                "needs the inns-and-cathedrals set",
            ));
        }
        Ok(())
    }

    /// IC1: the big follower stands wherever a follower does (B6, B16, CU1).
    #[inline]
    fn figure_fits(config: &GameConfig, figure: Figure, kind: FeatureKind) -> bool {
        figure == Figure::BigFollower && crate::game::follower_fits(config, kind)
    }

    /// IC1: the big follower weighs two followers.
    #[inline]
    fn figure_weight(_: &Game, figure: Figure, _: NodeId) -> Option<u32> {
        (figure == Figure::BigFollower).then_some(2)
    }

    /// IC2, IC3.
    #[inline]
    fn feature_value(game: &Game, root: NodeId, tiles: u32, complete: bool) -> Option<i32> {
        game.inn_or_cathedral_value(root, tiles, complete)
    }
}

impl Game {
    /// IC2, IC3: the value of the road or city of `root` (`tiles` distinct tiles) if it
    /// has an inn or a cathedral: completed 2 per tile (an inn road), 3 per tile and per
    /// pennant (a cathedral city); at the end of the game nothing.
    fn inn_or_cathedral_value(&self, root: NodeId, tiles: u32, complete: bool) -> Option<i32> {
        let node = self.features.node(root);
        let (kind, pennants) = (node.kind, node.pennants as i32);
        let special = |f: &crate::tiles::FeatureDef| match kind {
            FeatureKind::Road => f.inn,
            FeatureKind::City => f.cathedral,
            _ => false,
        };
        let has = self.features.parts(root).any(|id| {
            let part = self.features.node(id);
            let def = self.board.placement(part.placement as usize).def();
            // Parts beyond the catalogue's (a bridge, BR3) carry no inn.
            def.features.get(part.local as usize).is_some_and(special)
        });
        if !has {
            return None;
        }
        let tiles = tiles as i32;
        Some(match (kind, complete) {
            (_, false) => 0,
            (FeatureKind::Road, true) => 2 * tiles,
            _ => 3 * tiles + 3 * pennants,
        })
    }
}
