//! Traders & Builders in the observation schema: the tiles with trade goods (TB1), the
//! goods tokens each seat holds (TB1, TB2), and whether the turn is a builder's extra turn
//! (TB4). Builders and pigs are figure kinds: they have their planes and supply entries
//! with the other figures, and their deployments are `SLOT` ids of their own channels.

use super::observe::Writer;
use super::schema::{global_offset, Dim, Live, Row, Section};
use carcassonne::tiles::{Goods, Symbols, TileSet};

const IN_PLAY: Live = Live::Set(TileSet::TradersBuilders);

/// Traders & Builders' rows.
pub const SECTION: Section = Section {
    key: "traders-and-builders",
    title: "Traders & Builders",
    planes: &[Row::symbol(
        "goods",
        Symbols::GOODS,
        "1 if a city part of the tile carries trade goods (TB1)",
    )],
    globals: &[
        Row::new(
            "goods-wine",
            &[Dim::Seat],
            "wine tokens the seat holds (TB1, TB2)",
        )
        .live(IN_PLAY),
        Row::new(
            "goods-grain",
            &[Dim::Seat],
            "grain tokens the seat holds (TB1, TB2)",
        )
        .live(IN_PLAY),
        Row::new(
            "goods-cloth",
            &[Dim::Seat],
            "cloth tokens the seat holds (TB1, TB2)",
        )
        .live(IN_PLAY),
        Row::new(
            "extra-turn",
            &[],
            "1 if the turn is the turn player's extra turn, earned by his builder (TB4)",
        )
        .live(IN_PLAY),
    ],
    ids: &[],
    names_squares: Live::Any(&[]),
    write,
};

/// The offset of each kind's block, by [`Goods`].
const GOODS: [usize; 3] = [
    global_offset("goods-wine"),
    global_offset("goods-grain"),
    global_offset("goods-cloth"),
];
const EXTRA_TURN: usize = global_offset("extra-turn");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    if !game.has_set(TileSet::TradersBuilders) {
        return;
    }
    for seat in 0..game.num_players() {
        let r = w.rel(seat);
        for goods in Goods::ALL {
            let held = game.goods_held(seat, goods);
            w.global(GOODS[goods as usize] + r, f32::from(held));
        }
    }
    w.flag(EXTRA_TURN, game.in_extra_turn());
}
