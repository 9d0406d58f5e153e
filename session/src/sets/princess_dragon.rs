//! The Princess & the Dragon (PD1–PD15): the dragon and the fairy over the figures.

use super::SetModule;
use crate::render::pieces::{piece, Piece, PieceInfo, Presence};
use crate::render::svg::tile::figure_point;
use crate::render::svg::{escape, num, Layout, TILE};
use carcassonne::action::ActionKind;
use carcassonne::game::{Game, Phase};
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

pub(crate) struct PrincessDragon;

impl SetModule for PrincessDragon {
    fn set(&self) -> TileSet {
        TileSet::PrincessDragon
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (ActionKind::MoveFairy, "move the fairy"),
            (ActionKind::Princess, "remove a knight with the princess"),
            (ActionKind::MoveDragon, "move the dragon"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[(Phase::DragonFlight, "move the dragon one step")]
    }

    /// The dragon (PD5) and the fairy (PD15).
    fn legend(&self) -> &'static [PieceInfo] {
        const LEGEND: [PieceInfo; 2] = [
            piece(Piece::Dragon, "dragon", Some("D"), Presence::Always),
            piece(Piece::Fairy, "fairy", Some("F"), Presence::Always),
        ];
        &LEGEND
    }

    fn svg_swatch(&self, out: &mut String, piece: Piece, (x, y): (f64, f64)) {
        let at = (x + 8.0, y + 8.0);
        match piece {
            Piece::Dragon => svg_dragon(out, "swatch dragon", at, "the dragon"),
            _ => svg_fairy(out, "swatch fairy", at, "the fairy"),
        }
    }

    /// The fairy (PD15) beside the follower she stands next to (the last of the figures
    /// in the picture's order when several match), or on her tile; then the dragon
    /// (PD5).
    fn svg_over_figures(&self, out: &mut String, game: &Game, layout: &Layout) {
        if let Some((pos, next_to)) = game.fairy() {
            let board = game.board();
            let (ox, oy) = layout.origin(pos);
            let beside = next_to.and_then(|(owner, local)| {
                game.figures_before_final_scoring()
                    .iter()
                    .filter(|f| {
                        f.owner == owner
                            && f.local == local
                            && f.corner().is_none()
                            && board.placement(f.placement as usize).pos == pos
                    })
                    .max_by_key(|f| (f.placement, f.figure, f.local, f.owner))
                    .map(|f| {
                        let p = board.placement(f.placement as usize);
                        let (fx, fy) = figure_point(p.kind, p.rot, f);
                        (ox + fx + TILE * 0.15, oy + fy - TILE * 0.15)
                    })
            });
            let at = beside.unwrap_or((ox + TILE * 0.8, oy + TILE * 0.2));
            svg_fairy(out, "fairy", at, &format!("fairy at {pos}"));
        }
        if let Some(pos) = game.dragon() {
            let (ox, oy) = layout.origin(pos);
            svg_dragon(
                out,
                "dragon",
                (ox + TILE * 0.72, oy + TILE * 0.72),
                &format!("dragon at {pos}"),
            );
        }
    }
}

/// The dragon (PD1) at `at`.
fn svg_dragon(out: &mut String, class: &str, at: (f64, f64), title: &str) {
    let _ = writeln!(
        out,
        r##"<g class="{class}"><title>{}</title><circle cx="{}" cy="{}" r="{}" fill="#5a0f0f" stroke="#ffcc00" stroke-width="1.5"/><text x="{}" y="{}" font-size="10" font-weight="bold" fill="#ffcc00" text-anchor="middle">D</text></g>"##,
        escape(title),
        num(at.0),
        num(at.1),
        num(TILE * 0.14),
        num(at.0),
        num(at.1 + 3.5)
    );
}

/// The fairy (PD15) at `at`.
fn svg_fairy(out: &mut String, class: &str, at: (f64, f64), title: &str) {
    let _ = writeln!(
        out,
        r##"<g class="{class}"><title>{}</title><circle cx="{}" cy="{}" r="{}" fill="#ff8fd0" stroke="#7a1f5c" stroke-width="1"/><text x="{}" y="{}" font-size="8" font-weight="bold" fill="#7a1f5c" text-anchor="middle">F</text></g>"##,
        escape(title),
        num(at.0),
        num(at.1),
        num(TILE * 0.1),
        num(at.0),
        num(at.1 + 3.0)
    );
}
