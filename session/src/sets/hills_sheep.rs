//! Hills & Sheep (HS1–HS5): each shepherd's flock and the tokens left in the sheep bag.

use super::SetModule;
use crate::render::summary::seat_name;
use crate::render::svg::symbols::svg_token;
use crate::render::svg::{count, icon_drawn, num, TILE};
use crate::render::text::wrapped;
use carcassonne::config::Figure;
use carcassonne::game::{BoardFigure, Game};
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

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
            false,
            Some(sheep),
            &title,
        );
    }

    /// The sheep bag's line.
    fn svg_lines_under_scores(&self, _game: &Game) -> usize {
        1
    }

    /// The tokens left in the sheep bag (HS1) on one line: each kind of token, a sheep
    /// with its number or the wolf, and how many are left; a finished game's as they
    /// stood before final scoring put the flocks back.
    fn svg_under_scores(&self, out: &mut String, game: &Game, at: (f64, f64)) {
        let bag = game.sheep_bag_before_final_scoring();
        let (mut x, y) = (at.0, at.1 + 8.0);
        out.push_str("<g class=\"sheep-bag\">\n");
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222">sheep bag ({})</text>"##,
            num(x),
            num(y + 4.0),
            count(bag.iter().map(|&n| u32::from(n)).sum(), "token", "tokens")
        );
        x += 130.0;
        for token in SheepToken::ALL {
            let n = bag[token as usize];
            let title = match token {
                SheepToken::Wolf => {
                    format!("{} left in the bag", count(n.into(), "wolf", "wolves"))
                }
                t => format!(
                    "{} of {} sheep left in the bag",
                    count(n.into(), "token", "tokens"),
                    t.sheep()
                ),
            };
            let wolf = token == SheepToken::Wolf;
            let label = (!wolf).then(|| token.sheep());
            svg_token(out, "bag-token", (x, y), wolf, label, &title);
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" fill="#222222">×{n}</text>"##,
                num(x + 10.0),
                num(y + 4.0)
            );
            x += 44.0;
        }
        out.push_str("</g>\n");
    }

    fn html_under_scores(&self, out: &mut String, game: &Game) {
        let bag = game.sheep_bag_before_final_scoring();
        let left: u32 = bag.iter().map(|&n| u32::from(n)).sum();
        let tokens = if left == 1 { "token" } else { "tokens" };
        let _ = write!(
            out,
            r#"<p class="sheep-bag"><b>Sheep bag</b> ({left} {tokens}):"#
        );
        for token in SheepToken::ALL {
            let wolf = token == SheepToken::Wolf;
            let title = if wolf {
                "the wolf".to_string()
            } else {
                format!("{} sheep", token.sheep())
            };
            let label = (!wolf).then(|| token.sheep());
            let icon = icon_drawn(|out| svg_token(out, "swatch", (9.0, 8.0), wolf, label, &title));
            let _ = write!(
                out,
                r#" <span class="bag-token" data-token="{}">{icon}×{}</span>"#,
                token.name(),
                bag[token as usize]
            );
        }
        out.push_str("</p>\n");
    }
}
