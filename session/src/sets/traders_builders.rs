//! Traders & Builders (TB1–TB5): the goods each seat holds and the builder's extra turn.

use super::SetModule;
use crate::render::text::wrapped;
use carcassonne::game::Game;
use carcassonne::tiles::{Goods, TileSet};
use std::fmt::Write as _;

pub(crate) struct TradersBuilders;

impl SetModule for TradersBuilders {
    fn set(&self) -> TileSet {
        TileSet::TradersBuilders
    }

    /// The goods tokens each seat holds (TB1, TB2) and an extra turn under way (TB4).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let goods: Vec<String> = (0..game.num_players())
            .map(|seat| {
                let held: Vec<String> = Goods::ALL
                    .iter()
                    .map(|&g| format!("{} {}", game.goods_held(seat, g), g.name()))
                    .collect();
                format!("seat {seat} {}", held.join(", "))
            })
            .collect();
        out.push_str(&wrapped("goods:", &goods));
        if game.in_extra_turn() {
            let _ = writeln!(
                out,
                "extra turn: seat {} plays again (builder, TB4)",
                game.turn_player()
            );
        }
    }
}
