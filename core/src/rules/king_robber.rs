//! King & Robber Baron (KR1–KR3), active with the `king-and-robber` set.
//!
//! * KR1: the player who places the tile (or abbey) that completes a city takes the King
//!   tile, from beside the board or from its holder, when that city has more tiles than
//!   every city completed before it (a tie does not take it; with several cities
//!   completed at once only the largest counts). A city turned into a castle is not
//!   completed.
//! * KR2: the same for completed roads and the Robber Baron (tiles counted once, B12).
//! * KR3: at the end the King's holder scores 1 point per completed city on the board
//!   (the City of Carcassonne counts as one; castles do not), the Robber Baron's holder 1
//!   per completed road.

use crate::config::GameConfig;
use crate::features::NodeId;
use crate::game::{Game, ScoreKind};
use crate::rules::state::{Seat, StateWriter};
use crate::rules::Expansion;
use crate::tiles::{FeatureKind, TileSet};

/// One title: its holder and the size of the largest feature of its kind completed so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Title {
    holder: Option<u8>,
    record: u32,
}

crate::rules::state::state_tables! {
    expansion: "king-and-robber";
    /// The King tile (KR1): who holds it, and the size of the largest city completed so
    /// far, which a city must exceed to take it.
    king: One {
        /// Its holder; absent while it lies beside the board.
        holder: Option<Seat>,
        /// The tiles of the largest completed city (0 before the first).
        tiles: u32,
    },
    /// The Robber Baron tile (KR2): who holds it, and the size of the largest road
    /// completed so far, which a road must exceed to take it.
    robber_baron: One {
        /// Its holder; absent while it lies beside the board.
        holder: Option<Seat>,
        /// The tiles of the largest completed road (0 before the first).
        tiles: u32,
    },
}

/// The state of King & Robber Baron: the two titles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct KingRobber {
    king: Title,
    robber: Title,
}

impl Expansion for KingRobber {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::KingRobber)
    }

    fn new(_: &GameConfig, _: usize) -> KingRobber {
        KingRobber::default()
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<KingRobber>> {
        vec![
            ("KR1", |k| {
                k.king.holder = Some(k.king.holder.map_or(0, |p| p ^ 1))
            }),
            ("KR1", |k| k.king.record += 1),
            ("KR2", |k| {
                k.robber.holder = Some(k.robber.holder.map_or(0, |p| p ^ 1))
            }),
            ("KR2", |k| k.robber.record += 1),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        let KingRobber { king, robber } = game.expansions.king;
        rows.king(king.holder.map(Seat), king.record);
        rows.robber_baron(robber.holder.map(Seat), robber.record);
    }

    /// KR1, KR2.
    #[inline]
    fn on_turn_scored(game: &mut Game, roots: &[NodeId], _: &[NodeId]) {
        game.award_titles(roots);
    }

    /// KR3.
    #[inline]
    fn final_scoring(game: &mut Game) {
        game.title_final_scoring();
    }
}

impl Game {
    /// The holders of the King and the Robber Baron tiles (KR1, KR2).
    pub fn titles(&self) -> (Option<usize>, Option<usize>) {
        let kr = &self.expansions.king;
        (
            kr.king.holder.map(usize::from),
            kr.robber.holder.map(usize::from),
        )
    }

    /// KR1, KR2: after the turn's scoring, the largest city and the largest road that the
    /// turn completed (`roots`) may take the titles for the turn player.
    #[inline]
    fn award_titles(&mut self, roots: &[NodeId]) {
        let (mut city, mut road) = (0, 0);
        for &r in roots {
            let root = self.features.find(r);
            let node = self.features.node(root);
            let (kind, open) = (node.kind, node.open);
            if open != 0 || self.is_castle(root) {
                continue;
            }
            match kind {
                FeatureKind::City => city = city.max(self.feature_tiles(root)),
                FeatureKind::Road => road = road.max(self.feature_tiles(root)),
                _ => {}
            }
        }
        let player = self.turn_player;
        for (title, size) in [
            (&mut self.expansions.king.king, city),
            (&mut self.expansions.king.robber, road),
        ] {
            if size > title.record {
                title.record = size;
                title.holder = Some(player);
            }
        }
    }

    /// KR3: the titles score 1 point per completed city (King) and road (Robber Baron).
    #[inline]
    fn title_final_scoring(&mut self) {
        let (mut cities, mut roads) = (0, 0);
        for id in 0..self.features.len() as NodeId {
            if self.features.root(id) != id {
                continue;
            }
            let node = self.features.node(id);
            if node.open != 0 {
                continue;
            }
            match node.kind {
                FeatureKind::City if !self.is_castle(id) => cities += 1,
                FeatureKind::Road => roads += 1,
                _ => {}
            }
        }
        // CC2: the City of Carcassonne counts as one completed city.
        cities += i32::from(self.has_set(TileSet::Count));
        let kr = &self.expansions.king;
        let (king, robber) = (kr.king.holder, kr.robber.holder);
        if let Some(p) = king.filter(|_| cities > 0) {
            self.add_score(p, cities, ScoreKind::King, None, None);
        }
        if let Some(p) = robber.filter(|_| roads > 0) {
            self.add_score(p, roads, ScoreKind::RobberBaron, None, None);
        }
    }
}
