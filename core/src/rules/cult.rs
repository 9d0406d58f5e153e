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

/// The Cult's state: where the placed monasteries and shrines lie, kept as tiles are put
/// (tiles never leave the board), so that CU2 compares a square with the few cloisters
/// of the rival kind instead of looking up its 8 surrounding squares.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Cult {
    /// The positions of the placed tiles whose cloister is a monastery, in placement
    /// order.
    monasteries: Vec<Pos>,
    /// The positions of the placed tiles whose cloister is a shrine, in placement order.
    shrines: Vec<Pos>,
}

impl Expansion for Cult {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::Cult)
    }

    fn new(_: &GameConfig, tiles: usize) -> Cult {
        // Room for every tile, so that no game of `tiles` grows the lists.
        Cult {
            monasteries: Vec::with_capacity(tiles),
            shrines: Vec::with_capacity(tiles),
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Cult>> {
        Vec::new()
    }

    #[inline]
    fn on_tile_put(game: &mut Game, index: u8) {
        game.note_cloister(index);
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

    /// Notes the cloister of the tile just put at placement `index`, if it has one.
    #[inline]
    fn note_cloister(&mut self, index: u8) {
        let p = self.board.placement(index as usize);
        let pos = p.pos;
        let def = p.def();
        if def.cloister == NO_FEATURE {
            return;
        }
        let cult = &mut self.expansions.cult;
        match def.features[def.cloister as usize].kind {
            FeatureKind::Shrine => cult.shrines.push(pos),
            _ => cult.monasteries.push(pos),
        }
    }

    /// The positions of the placed tiles whose cloister is of kind `kind` (a monastery or
    /// a shrine), in placement order.
    fn cloisters_of(&self, kind: FeatureKind) -> &[Pos] {
        if kind == FeatureKind::Shrine {
            &self.expansions.cult.shrines
        } else {
            &self.expansions.cult.monasteries
        }
    }

    /// Tiles around `pos` whose cloister is of kind `kind`, in placement order; `pos`
    /// itself must not hold a cloister of that kind (an empty square, or a cloister of
    /// the rival kind).
    fn cloisters_around(&self, pos: Pos, kind: FeatureKind) -> impl Iterator<Item = Pos> + '_ {
        // Within one square on both axes: `d + 1` in 0..=2, compared unsigned.
        let near = |d: i32| (d.wrapping_add(1) as u32) <= 2;
        self.cloisters_of(kind)
            .iter()
            .copied()
            .filter(move |q| near(q.x.wrapping_sub(pos.x)) && near(q.y.wrapping_sub(pos.y)))
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
            // In the order of `Pos::surrounding` (the order the figures return in).
            let rival_kind = Game::rival(kind);
            for q in pos.surrounding() {
                if !self.cloister_at(q).is_some_and(|(_, k)| k == rival_kind) {
                    continue;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Figures;
    use crate::Rng;

    /// The monasteries and shrines of the board, recomputed from its placed tiles in
    /// placement order: `(monasteries, shrines)`.
    fn cloisters_on_board(game: &Game) -> (Vec<Pos>, Vec<Pos>) {
        let (mut monasteries, mut shrines) = (Vec::new(), Vec::new());
        for p in game.board.placements() {
            let def = p.def();
            for f in &def.features {
                match f.kind {
                    FeatureKind::Monastery => monasteries.push(p.pos),
                    FeatureKind::Shrine => shrines.push(p.pos),
                    _ => {}
                }
            }
        }
        (monasteries, shrines)
    }

    /// CU2: the cloister lists the Cult keeps as tiles are put equal the board's
    /// monasteries and shrines after every decision of random games in several
    /// configurations (the start tiles, abbeys and the turns' tiles included).
    #[test]
    fn cu2_cloister_lists_equal_the_board_after_every_decision() {
        let configs: [(u8, Vec<TileSet>, u8); 3] = [
            (2, vec![TileSet::Base, TileSet::Cult], 0),
            (
                3,
                vec![TileSet::Base, TileSet::Cult, TileSet::AbbeyMayor],
                1,
            ),
            (4, TileSet::ALL.to_vec(), 1),
        ];
        let mut shrines_seen = 0;
        for (players, sets, abbot) in configs {
            for seed in 0..6 {
                let mut config = GameConfig::new(players);
                config.sets = sets.clone();
                config.figures = Figures::default_for(&sets);
                config.figures.abbot = abbot;
                config.seed = seed;
                let mut game = Game::new(config).unwrap();
                let mut rng = Rng::new(seed + 100);
                loop {
                    let (monasteries, shrines) = cloisters_on_board(&game);
                    assert_eq!(
                        game.expansions.cult.monasteries, monasteries,
                        "{sets:?} {seed}"
                    );
                    assert_eq!(game.expansions.cult.shrines, shrines, "{sets:?} {seed}");
                    if game.is_terminal() {
                        shrines_seen += shrines.len();
                        break;
                    }
                    let legal = game.legal();
                    game.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
                }
            }
        }
        assert!(shrines_seen > 0, "the games place shrines");
    }
}
