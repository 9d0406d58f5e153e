//! The Count of Carcassonne (CC1–CC4): the count on the City and the figures in its
//! quarters.

use super::SetModule;
use crate::render::svg::symbols::svg_count;
use crate::render::svg::{Layout, TILE};
use carcassonne::game::Game;
use carcassonne::rules::count::Quarter;
use carcassonne::tiles::{Symbols, TileSet};
use std::fmt::Write as _;

pub(crate) struct Count;

impl SetModule for Count {
    fn set(&self) -> TileSet {
        TileSet::Count
    }

    /// The quarter of the count and the figures in each quarter (CC2).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let Some(count) = game.count_quarter() else {
            return;
        };
        let _ = write!(
            out,
            "City of Carcassonne: the count in the {} quarter",
            count.name()
        );
        for quarter in Quarter::ALL {
            let inside: Vec<String> = game
                .quarter_figures()
                .iter()
                .filter(|(q, _, _)| *q == quarter)
                .map(|(_, owner, figure)| format!("seat {owner} {}", figure.name()))
                .collect();
            if !inside.is_empty() {
                let _ = write!(out, "; {}: {}", quarter.name(), inside.join(", "));
            }
        }
        out.push('\n');
    }

    /// The count (CC2) on the square of the City that shows its quarters.
    fn svg_board(&self, out: &mut String, game: &Game, layout: &Layout) {
        let Some(quarter) = game.count_quarter() else {
            return;
        };
        let board = game.board();
        let Some(p) = board
            .placements()
            .iter()
            .find(|p| p.def().has(Symbols::COUNT_QUARTERS))
        else {
            return;
        };
        let (x, y) = layout.origin(p.pos);
        svg_count(
            out,
            "count",
            (x + TILE / 2.0, y + TILE * 0.62),
            &format!("the count, in the {} quarter", quarter.name()),
        );
    }
}
