//! The Princess & the Dragon (PD1–PD15): the dragon and the fairy over the figures.

use super::SetModule;
use crate::render::svg::symbols::{svg_dragon, svg_fairy};
use crate::render::svg::tile::figure_point;
use crate::render::svg::{Layout, TILE};
use carcassonne::game::Game;
use carcassonne::tiles::TileSet;

pub(crate) struct PrincessDragon;

impl SetModule for PrincessDragon {
    fn set(&self) -> TileSet {
        TileSet::PrincessDragon
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
