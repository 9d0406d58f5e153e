//! The expansions' pieces in the summary of the SVG picture: beside the scores, the King
//! and the Robber Baron (KR1, KR2) and the prisoners each seat holds (TW4); under the
//! scores, the tokens left in the sheep bag (HS1) and the quarters of the City of
//! Carcassonne with their figures. What a set shows on the board is drawn by its module
//! ([`crate::sets`]).

use super::symbols::{svg_count, svg_crown, svg_figure, svg_robber, svg_token};
use super::{escape, num, seat_name, SCORE_LINE};
use crate::render::pieces::Piece;
use crate::render::summary::QuarterLine;
use carcassonne::config::Figure;
use carcassonne::rules::hills_sheep::SheepToken;
use std::fmt::Write as _;

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
pub(crate) fn count(n: u32, one: &str, several: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { several })
}
