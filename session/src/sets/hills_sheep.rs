//! Hills & Sheep (HS1–HS5): each shepherd's flock and the tokens left in the sheep bag.

use super::SetModule;
use crate::render::summary::seat_name;
use crate::render::svg::expansions::count;
use crate::render::svg::symbols::svg_token;
use crate::render::svg::TILE;
use crate::render::text::wrapped;
use carcassonne::config::Figure;
use carcassonne::game::{BoardFigure, Game};
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::TileSet;

pub(crate) struct HillsSheep;

impl SetModule for HillsSheep {
    fn set(&self) -> TileSet {
        TileSet::HillsSheep
    }

    /// Each shepherd's flock (HS1, HS2) and the tokens left in the bag (HS1).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let board = game.board();
        let flocks: Vec<String> = game
            .board_figures()
            .iter()
            .filter(|f| f.figure == Figure::Shepherd)
            .map(|f| {
                let index = f.placement as usize;
                format!(
                    "seat {} at {} on {}: {} sheep",
                    f.owner,
                    board.placement(index).pos,
                    game.feature_name(index, f.local),
                    game.flock_sheep(f.owner as usize)
                )
            })
            .collect();
        out.push_str(&wrapped("flocks:", &flocks));
        let bag = game.sheep_bag();
        let tokens: Vec<String> = SheepToken::ALL
            .iter()
            .map(|t| format!("{} {}", bag[*t as usize], t.name()))
            .collect();
        out.push_str(&wrapped("sheep bag:", &tokens));
    }

    /// The flock of a shepherd (HS1, HS2): a sheep with the number of sheep of his
    /// flock, left of him. A finished game shows it as it stood before final scoring.
    fn svg_beside_figure(&self, out: &mut String, game: &Game, f: &BoardFigure, at: (f64, f64)) {
        if f.figure != Figure::Shepherd {
            return;
        }
        let owner = f.owner as usize;
        let tokens = game.flock_before_final_scoring(owner);
        let sheep: u32 = SheepToken::ALL
            .into_iter()
            .map(|t| t.sheep() * u32::from(tokens[t as usize]))
            .sum();
        let title = format!(
            "flock of {}: {sheep} sheep on {}",
            seat_name(owner),
            count(
                tokens.iter().map(|&n| u32::from(n)).sum(),
                "token",
                "tokens"
            )
        );
        svg_token(
            out,
            "flock",
            (at.0 - TILE * 0.22, at.1 - 2.0),
            None,
            Some(sheep),
            &title,
        );
    }
}
