//! The Tower (TW1–TW5): towers with their height, the tower pieces left and the
//! prisoners.

use super::SetModule;
use crate::render::summary::seat_name;
use crate::render::svg::symbols::svg_tower;
use crate::render::svg::{Layout, TILE};
use crate::render::text::wrapped;
use carcassonne::config::Figure;
use carcassonne::game::Game;
use carcassonne::tiles::TileSet;

pub(crate) struct Tower;

impl SetModule for Tower {
    fn set(&self) -> TileSet {
        TileSet::Tower
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
}
