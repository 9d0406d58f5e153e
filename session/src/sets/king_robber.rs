//! King & Robber Baron (KR1–KR3): who holds the titles.

use super::SetModule;
use carcassonne::game::Game;
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

pub(crate) struct KingRobber;

impl SetModule for KingRobber {
    fn set(&self) -> TileSet {
        TileSet::KingRobber
    }

    /// The holders of the King (KR1) and the Robber Baron (KR2).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let holder = |h: Option<usize>| h.map_or("nobody".to_string(), |s| format!("seat {s}"));
        let (king, robber) = game.titles();
        let _ = writeln!(
            out,
            "King: {}; Robber Baron: {}",
            holder(king),
            holder(robber)
        );
    }
}
