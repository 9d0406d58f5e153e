//! The Abbot and gardens (A1–A3).
//!
//! * A1: the abbot may be deployed instead of a follower, only on a monastery or garden
//!   of the tile just placed (the engine's figure-to-feature check); followers never go on gardens.
//! * A2: a garden is complete when surrounded by 8 tiles and scores like a monastery.
//! * A3: instead of deploying, a player may take the abbot back from an incomplete
//!   monastery or garden; it scores 1 + the number of neighbouring tiles.

use crate::action::Action;
use crate::config::{Figure, GameConfig};
use crate::game::{Game, ReturnCause, ScoreKind, TurnStep};
use crate::geometry::Pos;
use crate::rules::Expansion;
use crate::tiles::FeatureKind;

/// The Abbot's rules: no state of their own (the abbot is a figure of the supply).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Abbot;

impl Expansion for Abbot {
    fn in_play(config: &GameConfig) -> bool {
        config.figures.abbot > 0
    }

    fn new(_: &GameConfig, _: usize) -> Abbot {
        Abbot
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Abbot>> {
        Vec::new()
    }

    /// A1: on a monastery or garden (a shrine is a monastery, CU1).
    #[inline]
    fn figure_fits(_: &GameConfig, figure: Figure, kind: FeatureKind) -> bool {
        figure == Figure::Abbot && kind.is_cloister()
    }

    /// A3.
    #[inline]
    fn instead_of_deploying(game: &Game, out: &mut Vec<Action>) {
        game.abbot_returns(out);
    }

    /// A3: `ReturnAbbot`.
    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        let Action::ReturnAbbot { pos, feature } = action else {
            return None;
        };
        game.record(player, action);
        game.return_abbot(pos, feature);
        game.step = TurnStep::AfterDeployment;
        Some(true)
    }
}

impl Game {
    /// `ReturnAbbot` actions of the turn player (A3): each of his abbots on an incomplete
    /// monastery or garden.
    #[inline]
    fn abbot_returns(&self, out: &mut Vec<Action>) {
        for f in &self.figures {
            if f.owner != self.turn_player || f.figure != Figure::Abbot {
                continue;
            }
            if !self.is_complete(self.features.root(f.node)) {
                let pos = self.board.placement(f.placement as usize).pos;
                out.push(Action::ReturnAbbot {
                    pos,
                    feature: f.local,
                });
            }
        }
    }

    /// Takes the abbot at `(pos, feature)` back and scores its monastery or garden as at
    /// the end of the game (A3). No fairy bonus: this is not a feature scoring.
    #[inline]
    fn return_abbot(&mut self, pos: Pos, feature: u8) {
        let index = self.board.index_at(pos).expect("abbot on a tile") as u8;
        let k = self.figure_at(index, feature).expect("an abbot there");
        let f = self.figures[k];
        let root = self.features.find(f.node);
        let points = self.incomplete_value(root);
        self.add_score(
            f.owner,
            points,
            ScoreKind::AbbotReturn,
            Some((pos, feature)),
            Some(root),
        );
        self.return_figure(k, ReturnCause::AbbotTaken);
    }
}
