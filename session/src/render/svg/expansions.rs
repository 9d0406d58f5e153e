//! The expansions' pieces in the SVG picture: on the board, bridges (BR1), castles (CA1)
//! and the count on its City (CC2); beside the scores, the King and the Robber Baron
//! (KR1, KR2) and the prisoners each seat holds (TW4); beside a shepherd, the sheep of his
//! flock (HS1, HS2); under the scores, the tokens left in the sheep bag (HS1) and the
//! quarters of the City of Carcassonne with their figures.
//! An expansion whose state a picture shows adds its function here, calls it from
//! `svg_board_state` (on the board) or `svg_summary` (beside it), and declares its pieces
//! in `pieces.rs`.

use super::symbols::{
    svg_bridge, svg_castle, svg_count, svg_crown, svg_figure, svg_robber, svg_token, svg_tower,
};
use super::tile::{segment_point, side_middle};
use super::{escape, num, seat_colour, seat_name, Layout, SCORE_LINE, TILE};
use crate::render::anchor_segment;
use crate::render::pieces::Piece;
use crate::render::summary::QuarterLine;
use carcassonne::config::Figure;
use carcassonne::game::Game;
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::Symbols;
use std::fmt::Write as _;

/// Bridges (BR1) across their tiles.
pub(super) fn bridges(out: &mut String, game: &Game, layout: &Layout) {
    let board = game.board();
    for i in 0..board.len() {
        let Some(axis) = game.bridge_at(i) else {
            continue;
        };
        let pos = board.placement(i).pos;
        let (x, y) = layout.origin(pos);
        let [a, b] = axis.sides();
        let (p, q) = (side_middle(a.index()), side_middle(b.index()));
        svg_bridge(
            out,
            (x + p.0, y + p.1),
            (x + q.0, y + q.1),
            &format!("bridge {} at {pos}", axis.name()),
        );
    }
}

/// Towers (TW1) with their height, under the follower on top (TW2), which is drawn at the
/// same point with the figures.
pub(super) fn towers(out: &mut String, game: &Game, layout: &Layout) {
    for tower in game.towers() {
        let (x, y) = layout.origin(tower.pos);
        let top = tower.top.map_or(String::new(), |(owner, _)| {
            format!(", closed by {}", seat_name(owner as usize))
        });
        let title = format!("tower of height {} at {}{top}", tower.height, tower.pos);
        let at = (x + TILE / 2.0, y + TILE / 2.0 + TILE * 0.12);
        svg_tower(out, "tower", at, tower.height, &title);
    }
}

/// Castles (CA1) on their cities, outlined in their owner's colour.
pub(super) fn castles(out: &mut String, game: &Game, layout: &Layout) {
    let board = game.board();
    for (owner, (pos, local), scored) in game.castles() {
        let Some(i) = board.index_at(pos) else {
            continue;
        };
        let p = board.placement(i);
        let (x, y) = layout.origin(pos);
        let (cx, cy) =
            anchor_segment(p.oriented(), local).map_or((TILE / 2.0, TILE / 2.0), segment_point);
        let at = (x + (cx + TILE / 2.0) / 2.0, y + (cy + TILE / 2.0) / 2.0);
        let title = format!(
            "castle of {}{}",
            seat_name(owner as usize),
            if scored { " (scored)" } else { "" }
        );
        svg_castle(out, "castle", at, seat_colour(owner as usize), &title);
    }
}

/// The count (CC2) on the square of the City that shows its quarters.
pub(super) fn count_on_its_city(out: &mut String, game: &Game, layout: &Layout) {
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

/// The titles a seat holds (KR1, KR2), side by side from `at`.
pub(super) fn titles(out: &mut String, titles: &[Piece], at: (f64, f64)) {
    let mut x = at.0;
    for title in titles {
        match title {
            Piece::King => svg_crown(out, (x + 7.0, at.1), 14.0, "the King"),
            Piece::RobberBaron => svg_robber(out, (x + 7.0, at.1), 15.0, "the Robber Baron"),
            _ => continue,
        }
        let name = if *title == Piece::King {
            "King"
        } else {
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
}

/// The prisoners `holder` holds (TW4), from `at` to the right: `prisoners` and each kind of
/// figure in its owner's colour, with its number when more than one.
pub(super) fn prisoners(
    out: &mut String,
    holder: usize,
    prisoners: &[(usize, Figure, u8)],
    at: (f64, f64),
) {
    if prisoners.is_empty() {
        return;
    }
    let (mut x, y) = at;
    let label = |out: &mut String, x: f64, text: &str| {
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222">{text}</text>"##,
            num(x),
            num(y + 4.0)
        );
    };
    let _ = write!(out, r#"<g class="prisoners" data-seat="{holder}">"#);
    label(out, x, "prisoners");
    x += 66.0;
    for &(owner, figure, n) in prisoners {
        let title = format!(
            "{n} {} of {} held prisoner by {}",
            figure.name(),
            seat_name(owner),
            seat_name(holder)
        );
        svg_figure(out, "prisoner", (x, y), Some(owner), figure, &title);
        x += 10.0;
        if n > 1 {
            label(out, x, &format!("×{n}"));
            x += 18.0;
        }
        x += 6.0;
    }
    out.push_str("</g>\n");
}

/// The City of Carcassonne (CC2) from `at` down: its name, then each quarter with its
/// figures in their owners' colours and the count where it stands. Nothing without the
/// Count.
pub(super) fn city_lines(out: &mut String, city: &[QuarterLine], at: (f64, f64)) {
    if city.is_empty() {
        return;
    }
    let (x, top) = at;
    out.push_str("<g class=\"city-of-carcassonne\">\n");
    let _ = writeln!(
        out,
        r##"<text x="{}" y="{}" font-weight="bold" fill="#222222">City of Carcassonne</text>"##,
        num(x),
        num(top + 12.0)
    );
    for (i, line) in city.iter().enumerate() {
        let base = top + SCORE_LINE * (i + 1) as f64 + 12.0;
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222">{}</text>"##,
            num(x + 16.0),
            num(base),
            escape(line.quarter.name())
        );
        let mut fx = x + 100.0;
        if line.count {
            svg_count(
                out,
                "count",
                (fx, base - 2.0),
                &format!("the count, in the {} quarter", line.quarter.name()),
            );
            fx += 16.0;
        }
        for &(owner, figure) in &line.figures {
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
                    line.quarter.name()
                ),
            );
            fx += 16.0;
        }
    }
    out.push_str("</g>\n");
}

/// The flock of `owner`'s shepherd drawn at `at` (HS1, HS2): a sheep with its number of
/// sheep, left of the shepherd. A finished game shows it as it stood before final scoring.
pub(super) fn flock(out: &mut String, game: &Game, owner: usize, at: (f64, f64)) {
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

/// The tokens left in the sheep bag (HS1) on one line from `at`: each kind of token, a
/// sheep with its number or the wolf, and how many are left.
pub(super) fn sheep_bag(out: &mut String, bag: &[u8; SheepToken::ALL.len()], at: (f64, f64)) {
    let (mut x, y) = at;
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
            SheepToken::Wolf => format!("{} left in the bag", count(n.into(), "wolf", "wolves")),
            t => format!(
                "{} of {} sheep left in the bag",
                count(n.into(), "token", "tokens"),
                t.sheep()
            ),
        };
        let label = (token != SheepToken::Wolf).then(|| token.sheep());
        svg_token(out, "bag-token", (x, y), Some(token), label, &title);
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

/// `n` with the word for one or for several: `1 token`, `3 tokens`.
fn count(n: u32, one: &str, several: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { several })
}
