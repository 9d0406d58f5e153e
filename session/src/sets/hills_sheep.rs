//! Hills & Sheep (HS1–HS5): each shepherd's flock and the tokens left in the sheep bag.

use super::SetModule;
use crate::record::{as_object, as_str, diverged, named_value, tile_by_id, At, ReplayError};
use crate::render::pieces::{piece, Piece, PieceInfo, Presence};
use crate::render::summary::seat_name;
use crate::render::svg::{count, escape, icon_drawn, num, SHEEP_COLOUR, TILE, WOLF_COLOUR};
use crate::render::text::wrapped;
use carcassonne::action::{Action, ActionKind, FieldKind};
use carcassonne::config::Figure;
use carcassonne::game::{BoardFigure, Game, Phase};
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::TileSet;
use serde_json::{json, Value};
use std::fmt::Write as _;

pub(crate) struct HillsSheep;

impl SetModule for HillsSheep {
    fn set(&self) -> TileSet {
        TileSet::HillsSheep
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (ActionKind::Flock, "the flock"),
            (ActionKind::DrawToken, "the token drawn"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[
            (
                Phase::Flock,
                "grow your flock by a token from the bag, or herd it into the fold",
            ),
            (Phase::DrawToken, "the token drawn from the bag"),
        ]
    }

    /// HS1–HS3: the tile put under a hill (`under_hill` of a placement) and the token
    /// drawn for a shepherd (`token` of a deploy or a grown flock).
    fn record_action_keys(&self) -> &'static [(&'static str, &'static [&'static str])] {
        &[
            ("place_tile", &["under_hill"]),
            ("deploy", &["token"]),
            ("flock", &["token"]),
        ]
    }

    fn write_action_chance(&self, game: &Game, index: usize, action: &mut Value) {
        if let Some(tile) = game.under_hill_after(index) {
            action["under_hill"] = json!(tile.id());
        }
        if let Some(token) = game.token_after(index) {
            action["token"] = json!(token.name());
        }
    }

    /// The tile under a hill first (HS3), then the token (HS1, HS2); each must be what
    /// the game waits for.
    fn replay_action_chance(
        &self,
        game: &mut Game,
        action: &Value,
        (t, a): (usize, usize),
        path: &At<'_>,
    ) -> Result<(), ReplayError> {
        if let Some(v) = action.get("under_hill") {
            let p = path.key("under_hill");
            let tile = tile_by_id(as_str(v, &p)?, &p)?;
            if !game.waits_for_tile_after_placement() {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{} goes under a hill", tile.id()),
                    "no tile goes under a hill here (HS3)",
                ));
            }
            game.apply(Action::Draw { tile }).map_err(|_| {
                diverged(
                    t,
                    Some(a),
                    format!("{} goes under the hill", tile.id()),
                    "that tile is not in the pile",
                )
            })?;
        }
        if action.get("token").is_some() {
            let token = named_value(as_object(action, path)?, "token", path, FieldKind::Token)?;
            let drawn = format!("{} drawn from the bag", token.name().expect("a token"));
            if game.phase() != Phase::DrawToken {
                return Err(diverged(
                    t,
                    Some(a),
                    drawn,
                    "no token is drawn here (HS1, HS2)",
                ));
            }
            let draw = Action::from_values(ActionKind::DrawToken, &[token]).expect("a token");
            game.apply(draw)
                .map_err(|_| diverged(t, Some(a), drawn, "that token is not in the bag"))?;
        }
        Ok(())
    }

    /// The sheep of a flock and of the bag, and the wolves of the bag (HS1, HS2).
    fn legend(&self) -> &'static [PieceInfo] {
        const LEGEND: [PieceInfo; 2] = [
            piece(Piece::Sheep, "sheep (flock, bag)", None, Presence::Always),
            piece(Piece::Wolf, "wolf (bag)", None, Presence::Always),
        ];
        &LEGEND
    }

    fn svg_swatch(&self, out: &mut String, piece: Piece, (x, y): (f64, f64)) {
        let at = (x + 9.0, y + 8.0);
        match piece {
            Piece::Sheep => svg_token(out, "swatch sheep", at, false, None, "sheep"),
            _ => svg_token(out, "swatch wolf", at, true, None, "the wolf"),
        }
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

/// A token of the sheep bag (HS1) centred at `at`: a sheep (a white fleece with a dark
/// head) with `label` on it (its sheep, or the sheep of a flock), or with `wolf` the wolf
/// (a grey fleece marked `W`), titled `title` in a group of class `class`.
fn svg_token(
    out: &mut String,
    class: &str,
    at: (f64, f64),
    wolf: bool,
    label: Option<u32>,
    title: &str,
) {
    let (x, y) = at;
    let (fleece, ink) = if wolf {
        (WOLF_COLOUR, "#ffffff")
    } else {
        (SHEEP_COLOUR, "#111111")
    };
    let _ = write!(
        out,
        r##"<g class="{class}"><title>{}</title><ellipse cx="{}" cy="{}" rx="3" ry="2.2" fill="#2b2b2b"/><ellipse cx="{}" cy="{}" rx="6.5" ry="5" fill="{fleece}" stroke="#2b2b2b" stroke-width="1"/>"##,
        escape(title),
        num(x - 6.5),
        num(y - 1.5),
        num(x + 1.0),
        num(y),
    );
    let text = if wolf {
        Some("W".to_string())
    } else {
        label.map(|n| n.to_string())
    };
    if let Some(text) = text {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="8" font-weight="bold" fill="{ink}" text-anchor="middle">{text}</text>"#,
            num(x + 1.0),
            num(y + 3.0)
        );
    }
    out.push_str("</g>\n");
}
