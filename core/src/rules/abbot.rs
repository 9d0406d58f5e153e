//! The Abbot and gardens (A1–A3).
//!
//! * A1: the abbot may be deployed instead of a follower, only on a monastery or garden
//!   of the tile just placed (the engine's figure-to-feature check); followers never go on gardens.
//! * A2: a garden is complete when surrounded by 8 tiles and scores like a monastery.
//! * A3: instead of deploying, a player may take the abbot back from an incomplete
//!   monastery or garden; it scores 1 + the number of neighbouring tiles.

use crate::action::Action;
use crate::config::Figure;
use crate::game::{Game, ReturnCause, ScoreKind, Step};
use crate::geometry::Pos;

impl Game {
    /// Applies `ReturnAbbot` (A3).
    pub(crate) fn apply_abbot(&mut self, player: u8, action: Action) {
        let Action::ReturnAbbot { pos, feature } = action else {
            unreachable!("not an Abbot decision")
        };
        self.record(player, action);
        self.return_abbot(pos, feature);
        self.step = Step::AfterDeployment;
    }

    /// `ReturnAbbot` actions of the turn player (A3): each of his abbots on an incomplete
    /// monastery or garden.
    pub(crate) fn abbot_returns(&self, out: &mut Vec<Action>) {
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
    pub(crate) fn return_abbot(&mut self, pos: Pos, feature: u8) {
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
