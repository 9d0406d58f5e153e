//! The Cult (CU1–CU3), active with the `cult` set.
//!
//! * CU1: a shrine is a cloister that completes, scores and counts at the end like a
//!   monastery ([`crate::scoring`]); a follower on it is a heretic. Everywhere else a
//!   shrine counts as a monastery (abbot, wagon, portal, the City's cathedral, castles).
//! * CU2: after every placement each shrine has at most one monastery among its 8
//!   surrounding tiles and each monastery at most one shrine: a placement breaking this is
//!   illegal (the abbey and the monastery in a city are monasteries).
//! * CU3: a monastery and a shrine on neighbouring tiles challenge each other: when one is
//!   completed and scores for a player while the other is incomplete, every figure on the
//!   other returns to its owner with no points. Both completed in the same turn both score
//!   normally; a completed one without figures removes nothing.

use crate::config::GameConfig;
use crate::features::NodeId;
use crate::game::{Game, ReturnCause};
use crate::geometry::Pos;
use crate::rules::Expansion;
use crate::tiles::{FeatureKind, TileKind, TileSet, NO_FEATURE};

/// The Cult's rules: no state of their own (shrines are features of the board).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Cult;

impl Expansion for Cult {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::Cult)
    }

    fn new(_: &GameConfig, _: usize) -> Cult {
        Cult
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Cult>> {
        Vec::new()
    }

    #[inline]
    fn placement_restricted(game: &Game, tile: TileKind) -> bool {
        game.cult_restricts(tile)
    }

    #[inline]
    fn placement_allowed_at(game: &Game, tile: TileKind, pos: Pos) -> bool {
        game.cult_allows(tile, pos)
    }

    /// CU3.
    #[inline]
    fn on_turn_scored(game: &mut Game, roots: &[NodeId], scored: &[NodeId]) {
        game.resolve_challenges(roots, scored);
    }
}

impl Game {
    /// The monastery or shrine of the tile at `pos` (local index and kind), if any.
    fn cloister_at(&self, pos: Pos) -> Option<(usize, FeatureKind)> {
        let def = self.board.at(pos)?.def();
        let f = def.cloister as usize;
        (def.cloister != NO_FEATURE).then(|| (f, def.features[f].kind))
    }

    /// The monastery-or-shrine rival kind of `kind`.
    fn rival(kind: FeatureKind) -> FeatureKind {
        if kind == FeatureKind::Shrine {
            FeatureKind::Monastery
        } else {
            FeatureKind::Shrine
        }
    }

    /// Tiles around `pos` whose cloister is of kind `kind` (not counting `pos` itself).
    fn cloisters_around(&self, pos: Pos, kind: FeatureKind) -> impl Iterator<Item = Pos> + '_ {
        pos.surrounding()
            .into_iter()
            .filter(move |q| self.cloister_at(*q).is_some_and(|(_, k)| k == kind))
    }

    /// CU2: whether `tile` may lie at `pos` without a shrine or a monastery ending up
    /// with two rivals around it.
    #[inline]
    fn cult_allows(&self, tile: TileKind, pos: Pos) -> bool {
        let def = tile.def();
        if def.cloister == NO_FEATURE {
            return true;
        }
        let mine = def.features[def.cloister as usize].kind;
        let rival = Game::rival(mine);
        let mut rivals = 0;
        for q in self.cloisters_around(pos, rival) {
            rivals += 1;
            // The rival must not have a rival of its own already.
            if self.cloisters_around(q, mine).next().is_some() {
                return false;
            }
        }
        rivals <= 1
    }

    /// Whether tiles of `tile` need the CU2 check at all.
    fn cult_restricts(&self, tile: TileKind) -> bool {
        tile.def().cloister != NO_FEATURE
    }

    /// CU3: after the turn's features scored, each monastery or shrine completed this turn
    /// (`roots`) that scored challenges its incomplete rival: every figure on the rival
    /// returns with no points.
    #[inline]
    fn resolve_challenges(&mut self, roots: &[NodeId], scored: &[NodeId]) {
        for &r in roots {
            if !scored.contains(&r) {
                continue; // completed without figures: removes nothing
            }
            let node = self.features.node(r);
            if !node.kind.is_monastery_like() {
                continue;
            }
            let kind = node.kind;
            let pos = self.board.placement(node.placement as usize).pos;
            // CU2 leaves at most one rival; collected first, as returning figures changes
            // the game.
            let mut rivals = [Pos::default(); 8];
            let mut n = 0;
            for q in self.cloisters_around(pos, Game::rival(kind)) {
                rivals[n] = q;
                n += 1;
            }
            for &q in &rivals[..n] {
                let (local, _) = self.cloister_at(q).expect("a rival cloister");
                let base = self.board.at(q).expect("a tile").node_base;
                let rival = self.features.find(base + local as NodeId);
                if !self.is_complete(rival) {
                    self.return_figures_of(rival, ReturnCause::Challenged);
                }
            }
        }
    }
}
