//! Hills & Sheep in the observation schema: hill and vineyard tiles (HS3, HS5), the sheep
//! of the flock standing on each tile (HS1), the tokens left in the bag and each seat's
//! flock (HS1, HS2), and the `FLOCK` ids (grow, herd: HS2). The shepherd is a figure kind:
//! it has its planes and supply entries with the other figures, and its deployment is a
//! `SLOT` id of its own channel.

use super::observe::Writer;
use super::schema::{global_offset, plane_index, Dim, Live, Row, Section};
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::{Symbols, TileSet};
use carcassonne::Figure;

const IN_PLAY: Live = Live::Set(TileSet::HillsSheep);

/// Hills & Sheep's rows.
pub const SECTION: Section = Section {
    key: "hills-and-sheep",
    title: "Hills & Sheep",
    planes: &[
        Row::symbol(
            "hill",
            Symbols::HILL,
            "1 if the tile lies on a hill (HS3, HS4)",
        ),
        Row::symbol(
            "vineyard",
            Symbols::VINEYARD,
            "1 if the tile has a vineyard (HS5)",
        ),
        Row::new(
            "flock",
            &[],
            "sheep of the flock of the shepherd standing on the tile (HS1, HS2)",
        )
        .live(IN_PLAY),
    ],
    globals: &[
        Row::new(
            "sheep-bag",
            &[Dim::Token],
            "tokens of that kind left in the bag (HS1)",
        )
        .live(IN_PLAY),
        Row::new(
            "flock-sheep",
            &[Dim::Seat],
            "sheep of the seat's flock (HS1, HS2)",
        )
        .live(IN_PLAY),
    ],
    ids: &[Row::new(
        "flock",
        &[Dim::FlockChoice],
        "grow the turn player's flock or herd it into the fold (HS2)",
    )
    .live(IN_PLAY)],
    names_squares: Live::Any(&[]),
    write,
};

const FLOCK: usize = plane_index("flock");
const SHEEP_BAG: usize = global_offset("sheep-bag");
const FLOCK_SHEEP: usize = global_offset("flock-sheep");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    if !game.has_set(TileSet::HillsSheep) {
        return;
    }
    for f in game.board_figures() {
        if f.figure != Figure::Shepherd {
            continue;
        }
        let pos = game.board().placement(f.placement as usize).pos;
        if let Some(c) = w.cell(pos) {
            let sheep = game.flock_sheep(f.owner as usize);
            w.set(FLOCK, c, sheep.min(u32::from(u8::MAX)) as u8);
        }
    }
    let bag = game.sheep_bag();
    for token in SheepToken::ALL {
        w.global(SHEEP_BAG + token as usize, f32::from(bag[token as usize]));
    }
    for seat in 0..game.num_players() {
        let r = w.rel(seat);
        w.global(FLOCK_SHEEP + r, game.flock_sheep(seat) as f32);
    }
}
