//! King & Robber Baron (KR1–KR3): who holds the titles.

use super::SetModule;
use crate::render::pieces::{piece, Piece, PieceInfo, Presence};
use crate::render::summary::seat_name;
use crate::render::svg::{escape, icon, num, Icon, KING_COLOUR, ROBBER_COLOUR};
use carcassonne::game::Game;
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

pub(crate) struct KingRobber;

impl SetModule for KingRobber {
    fn set(&self) -> TileSet {
        TileSet::KingRobber
    }

    /// The King (KR1) and the Robber Baron (KR2).
    fn legend(&self) -> &'static [PieceInfo] {
        const LEGEND: [PieceInfo; 2] = [
            piece(Piece::King, "King", None, Presence::Always),
            piece(Piece::RobberBaron, "Robber Baron", None, Presence::Always),
        ];
        &LEGEND
    }

    fn svg_swatch(&self, out: &mut String, piece: Piece, (x, y): (f64, f64)) {
        let at = (x + 8.0, y + 8.0);
        match piece {
            Piece::King => svg_crown(out, at, 14.0, "the King"),
            _ => svg_robber(out, at, 15.0, "the Robber Baron"),
        }
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

    /// Who holds the King and the Robber Baron (KR1, KR2).
    fn notes(&self, game: &Game, out: &mut Vec<String>) {
        let (king, robber) = game.titles();
        let holder = |h: Option<usize>| h.map_or("nobody".to_string(), seat_name);
        out.push(format!(
            "the King: {}; the Robber Baron: {}",
            holder(king),
            holder(robber)
        ));
    }

    /// The titles seat `seat` holds (KR1, KR2), side by side.
    fn svg_beside_score(&self, out: &mut String, game: &Game, seat: usize, at: (f64, f64)) -> f64 {
        let mut x = at.0;
        for title in held(game, seat) {
            let name = if title == Piece::King {
                svg_crown(out, (x + 7.0, at.1), 14.0, "the King");
                "King"
            } else {
                svg_robber(out, (x + 7.0, at.1), 15.0, "the Robber Baron");
                "Robber Baron"
            };
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" fill="#222222">{name}</text>"##,
                num(x + 17.0),
                num(at.1 + 4.0)
            );
            x += 100.0;
        }
        x - at.0
    }

    fn html_beside_score(&self, out: &mut String, game: &Game, seat: usize) {
        for title in held(game, seat) {
            let name = if title == Piece::King {
                "King"
            } else {
                "Robber Baron"
            };
            let _ = write!(
                out,
                r#" <span class="title">{} {name}</span>"#,
                icon(Icon::Piece(title))
            );
        }
    }
}

/// The titles `seat` holds: [`Piece::King`], then [`Piece::RobberBaron`].
fn held(game: &Game, seat: usize) -> Vec<Piece> {
    let (king, robber) = game.titles();
    [(king, Piece::King), (robber, Piece::RobberBaron)]
        .into_iter()
        .filter(|(holder, _)| *holder == Some(seat))
        .map(|(_, piece)| piece)
        .collect()
}

/// The King (KR1) at `at`: a golden crown, `s` wide.
fn svg_crown(out: &mut String, at: (f64, f64), s: f64, title: &str) {
    let (x, y) = at;
    let h = s * 0.7;
    let _ = writeln!(
        out,
        r##"<g class="king"><title>{}</title><polygon points="{},{} {},{} {},{} {},{} {},{} {},{} {},{}" fill="{KING_COLOUR}" stroke="#5c4400" stroke-width="1"/></g>"##,
        escape(title),
        num(x - s / 2.0),
        num(y + h / 2.0),
        num(x - s / 2.0),
        num(y - h / 2.0),
        num(x - s / 4.0),
        num(y),
        num(x),
        num(y - h / 2.0),
        num(x + s / 4.0),
        num(y),
        num(x + s / 2.0),
        num(y - h / 2.0),
        num(x + s / 2.0),
        num(y + h / 2.0)
    );
}

/// The Robber Baron (KR2) at `at`: a dark bandit's mask, `s` wide.
fn svg_robber(out: &mut String, at: (f64, f64), s: f64, title: &str) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<g class="robber-baron"><title>{}</title><ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="{ROBBER_COLOUR}" stroke="#1a1a1a" stroke-width="1"/><circle cx="{}" cy="{}" r="{}" fill="#fffaf0"/><circle cx="{}" cy="{}" r="{}" fill="#fffaf0"/></g>"##,
        escape(title),
        num(x),
        num(y),
        num(s / 2.0),
        num(s / 3.5),
        num(x - s / 5.0),
        num(y),
        num(s / 9.0),
        num(x + s / 5.0),
        num(y),
        num(s / 9.0)
    );
}
