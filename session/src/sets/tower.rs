//! The Tower (TW1–TW5): towers with their height, the tower pieces left and the
//! prisoners.

use super::SetModule;
use crate::render::summary::seat_name;
use crate::render::svg::symbols::{svg_figure, svg_tower};
use crate::render::svg::{icon, num, Icon, Layout, TILE};
use crate::render::text::wrapped;
use carcassonne::action::ActionKind;
use carcassonne::config::{Figure, MAX_PLAYERS};
use carcassonne::game::{Game, Phase};
use carcassonne::rules::tower::RANSOM;
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

pub(crate) struct Tower;

impl SetModule for Tower {
    fn set(&self) -> TileSet {
        TileSet::Tower
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (
                ActionKind::PlaceTowerPiece,
                "put a tower piece on the tower",
            ),
            (ActionKind::Capture, "take prisoner"),
            (ActionKind::CapturePass, "take no prisoner"),
            (ActionKind::ExchangePrisoner, "take back in the exchange"),
            (ActionKind::PayRansom, "pay a ransom"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[
            (
                Phase::Capture,
                "take a figure in reach of the tower prisoner, or pass",
            ),
            (
                Phase::ExchangePrisoner,
                "pick which of your figures comes back in the exchange",
            ),
        ]
    }

    /// The towers begun (TW1, TW2: height, the follower that closed it), each seat's
    /// tower pieces left and the prisoners held (TW4).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let towers: Vec<String> = game
            .towers()
            .filter(|t| t.height > 0 || t.top.is_some())
            .map(|t| {
                let top = t.top.map_or(String::new(), |(owner, figure)| {
                    format!(", closed by seat {owner}'s {}", figure.name())
                });
                format!("{} height {}{top}", t.pos, t.height)
            })
            .collect();
        out.push_str(&wrapped("towers:", &towers));
        let players = game.num_players();
        let pieces: Vec<String> = (0..players)
            .map(|seat| format!("seat {seat} {}", game.tower_pieces_left(seat)))
            .collect();
        out.push_str(&wrapped("tower pieces left:", &pieces));
        let mut prisoners = Vec::new();
        for holder in 0..players {
            for owner in (0..players).filter(|o| *o != holder) {
                for figure in Figure::ALL {
                    let n = game.prisoners(holder, owner, figure);
                    if n > 0 {
                        prisoners.push(format!(
                            "seat {holder} holds {n} {} of seat {owner}",
                            figure.name()
                        ));
                    }
                }
            }
        }
        out.push_str(&wrapped("prisoners:", &prisoners));
    }

    /// Towers (TW1) with their height, under the follower on top (TW2), which is drawn
    /// at the same point with the figures.
    fn svg_board(&self, out: &mut String, game: &Game, layout: &Layout) {
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

    /// The prisoners seat `seat` holds (TW4): each kind of figure in its owner's colour,
    /// with its number when more than one.
    fn svg_beside_score(&self, out: &mut String, game: &Game, seat: usize, at: (f64, f64)) -> f64 {
        let prisoners = prisoners_held(game, seat);
        if prisoners.is_empty() {
            return 0.0;
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
        let _ = write!(out, r#"<g class="prisoners" data-seat="{seat}">"#);
        label(out, x, "prisoners");
        x += 66.0;
        for (owner, figure, n) in prisoners {
            let title = format!(
                "{n} {} of {} held prisoner by {}",
                figure.name(),
                seat_name(owner),
                seat_name(seat)
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
        x - at.0
    }

    /// The worth of the prisoners ([`prisoner_values`]).
    fn worth(&self, game: &Game, points: &mut [i32; MAX_PLAYERS]) {
        for (p, v) in points.iter_mut().zip(prisoner_values(game)) {
            *p += v;
        }
    }

    fn html_beside_score(&self, out: &mut String, game: &Game, seat: usize) {
        let prisoners = prisoners_held(game, seat);
        if prisoners.is_empty() {
            return;
        }
        out.push_str(r#" <span class="prisoners">prisoners"#);
        for (owner, figure, n) in prisoners {
            let _ = write!(out, " {}", icon(Icon::Seat(owner, figure)));
            if n > 1 {
                let _ = write!(out, "×{n}");
            }
        }
        out.push_str("</span>");
    }
}

/// The figures of the other seats that `holder` holds prisoner (TW4): (owner, figure, how
/// many), by owner, then in the order of [`Figure::ALL`].
fn prisoners_held(game: &Game, holder: usize) -> Vec<(usize, Figure, u8)> {
    if game.prisoners_held(holder) == 0 {
        return Vec::new();
    }
    (0..game.num_players())
        .flat_map(|owner| Figure::ALL.into_iter().map(move |figure| (owner, figure)))
        .filter_map(|(owner, figure)| {
            let n = game.prisoners(holder, owner, figure);
            (n > 0).then_some((owner, figure, n))
        })
        .collect()
}

/// What a prisoner is worth to the seat that holds it (TW4): the ransom it may fetch
/// (TW5).
pub const PRISONER_WORTH: i32 = RANSOM;

/// What a figure held prisoner costs its owner while he still has a follower in his
/// supply: less than the ransom, so that a ransom is not worth paying then.
pub const PRISONER_COST: i32 = RANSOM - 1;

/// What a figure held prisoner costs its owner who has no follower left in his supply:
/// more than the ransom, so that he pays it to play on.
pub const PRISONER_COST_SHORT: i32 = RANSOM + 2;

/// The worth of the prisoners for each seat, in points (TW4, TW5): [`PRISONER_WORTH`] for
/// each figure a seat holds, minus [`PRISONER_COST`] (or [`PRISONER_COST_SHORT`] when he
/// has no follower in his supply) for each of his own figures held. Nothing without the
/// Tower, nor once the game is over (prisoners score nothing, TW7).
pub fn prisoner_values(game: &Game) -> [i32; MAX_PLAYERS] {
    let mut values = [0i32; MAX_PLAYERS];
    if !game.has_set(TileSet::Tower) || game.is_terminal() {
        return values;
    }
    let n = game.num_players();
    for holder in (0..n).filter(|&h| game.prisoners_held(h) > 0) {
        for owner in (0..n).filter(|&o| o != holder) {
            let held: i32 = Figure::ALL
                .iter()
                .map(|&f| i32::from(game.prisoners(holder, owner, f)))
                .sum();
            let cost = if game.supply(owner, Figure::Follower) == 0 {
                PRISONER_COST_SHORT
            } else {
                PRISONER_COST
            };
            values[holder] += held * PRISONER_WORTH;
            values[owner] -= held * cost;
        }
    }
    values
}
