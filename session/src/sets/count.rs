//! The Count of Carcassonne (CC1–CC4): the count on the City and the figures in its
//! quarters.

use super::SetModule;
use crate::render::pieces::{piece, Piece, PieceInfo, Presence};
use crate::render::summary::seat_name;
use crate::render::svg::symbols::{svg_figure, svg_piece, swatch_square, Shape};
use crate::render::svg::{
    escape, icon, num, Icon, Layout, CARCASSONNE_COLOUR, COUNT_COLOUR, SCORE_LINE, TILE,
};
use carcassonne::action::ActionKind;
use carcassonne::config::Figure;
use carcassonne::game::{Game, Phase};
use carcassonne::rules::count::Quarter;
use carcassonne::tiles::{Symbols, TileSet};
use std::fmt::Write as _;

pub(crate) struct Count;

impl SetModule for Count {
    fn set(&self) -> TileSet {
        TileSet::Count
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (ActionKind::LeaveQuarter, "leave the City of Carcassonne"),
            (ActionKind::QuarterPass, "pass"),
            (ActionKind::DeployQuarter, "enter the City of Carcassonne"),
            (ActionKind::MoveCount, "move the count"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[
            (
                Phase::LeaveQuarter,
                "move a figure out of the City of Carcassonne, or pass",
            ),
            (
                Phase::EnterQuarter,
                "put a figure into the City of Carcassonne, or pass",
            ),
            (Phase::MoveCount, "move the count, or pass"),
        ]
    }

    /// The walled City of Carcassonne and the count (CC2).
    fn legend(&self) -> &'static [PieceInfo] {
        const LEGEND: [PieceInfo; 2] = [
            piece(
                Piece::CityOfCarcassonne,
                "City of Carcassonne",
                Some(":"),
                Presence::Always,
            ),
            piece(Piece::Count, "the count", None, Presence::Always),
        ];
        &LEGEND
    }

    fn svg_swatch(&self, out: &mut String, piece: Piece, (x, y): (f64, f64)) {
        match piece {
            Piece::CityOfCarcassonne => swatch_square(out, (x, y), CARCASSONNE_COLOUR, "#00000055"),
            _ => svg_count(out, "swatch count", (x + 8.0, y + 10.0), "the count"),
        }
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

    /// Where the count stands and the figures in the City of Carcassonne (CC1, CC3).
    fn notes(&self, game: &Game, out: &mut Vec<String>) {
        let Some(q) = game.count_quarter() else {
            return;
        };
        let mut line = format!("the count stands in the {} quarter", q.name());
        let figures = game.quarter_figures();
        if figures.is_empty() {
            line.push_str("; no figure in the City of Carcassonne");
        } else {
            let parts: Vec<String> = figures
                .iter()
                .map(|(q, owner, f)| {
                    format!(
                        "{}'s {} in the {} quarter",
                        seat_name(*owner as usize),
                        f.name(),
                        q.name()
                    )
                })
                .collect();
            line.push_str(&format!(
                "; in the City of Carcassonne: {}",
                parts.join(", ")
            ));
        }
        out.push(line);
    }

    /// The City's name and a line per quarter (CC2).
    fn svg_lines_under_scores(&self, game: &Game) -> usize {
        if game.count_quarter().is_some() {
            1 + Quarter::ALL.len()
        } else {
            0
        }
    }

    /// The City of Carcassonne (CC2): its name, then each quarter with its figures in
    /// their owners' colours and the count where it stands.
    fn svg_under_scores(&self, out: &mut String, game: &Game, at: (f64, f64)) {
        let Some(count) = game.count_quarter() else {
            return;
        };
        let (x, top) = at;
        out.push_str("<g class=\"city-of-carcassonne\">\n");
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-weight="bold" fill="#222222">City of Carcassonne</text>"##,
            num(x),
            num(top + 12.0)
        );
        for (i, quarter) in Quarter::ALL.into_iter().enumerate() {
            let base = top + SCORE_LINE * (i + 1) as f64 + 12.0;
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" fill="#222222">{}</text>"##,
                num(x + 16.0),
                num(base),
                escape(quarter.name())
            );
            let mut fx = x + 100.0;
            if quarter == count {
                svg_count(
                    out,
                    "count",
                    (fx, base - 2.0),
                    &format!("the count, in the {} quarter", quarter.name()),
                );
                fx += 16.0;
            }
            for (owner, figure) in figures_in(game, quarter) {
                svg_figure(
                    out,
                    "quarter-figure",
                    (fx, base - 2.0),
                    Some(owner as usize),
                    figure,
                    &format!(
                        "{} {} in the {} quarter",
                        seat_name(owner as usize),
                        figure.name(),
                        quarter.name()
                    ),
                );
                fx += 16.0;
            }
        }
        out.push_str("</g>\n");
    }

    fn html_under_scores(&self, out: &mut String, game: &Game) {
        let Some(count) = game.count_quarter() else {
            return;
        };
        out.push_str("<div class=\"city\"><b>City of Carcassonne</b><ul>\n");
        for quarter in Quarter::ALL {
            let _ = write!(out, "<li>{}:", escape(quarter.name()));
            if quarter == count {
                let _ = write!(out, " {}", icon(Icon::Piece(Piece::Count)));
            }
            for (owner, figure) in figures_in(game, quarter) {
                let _ = write!(out, " {}", icon(Icon::Seat(owner as usize, figure)));
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul></div>\n");
    }
}

/// The figures in `quarter` of the City: (owner, figure), in the engine's order.
fn figures_in(game: &Game, quarter: Quarter) -> Vec<(u8, Figure)> {
    game.quarter_figures()
        .iter()
        .filter(|(q, _, _)| *q == quarter)
        .map(|&(_, owner, figure)| (owner, figure))
        .collect()
}

/// The count (CC2): a meeple of its own grey, marked `C`.
fn svg_count(out: &mut String, class: &str, at: (f64, f64), title: &str) {
    svg_piece(
        out,
        class,
        "",
        at,
        Shape::Meeple,
        (COUNT_COLOUR, "#ffffff"),
        Some('C'),
        title,
    );
}
