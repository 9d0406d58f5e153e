//! Abbey & Mayor in the observation schema: the abbey tile (AM1) and the abbeys each
//! player holds, and the `CORNER` ids of the barn (AM6). The mayor, the wagon and the
//! barn are figures of the base section's figure planes and supplies.

use super::observe::Writer;
use super::schema::{global_offset, Dim, Live, Row, Section};
use carcassonne::config::Figure;
use carcassonne::tiles::Symbols;

/// Abbey & Mayor's rows.
pub const SECTION: Section = Section {
    key: "abbey-and-mayor",
    title: "Abbey & Mayor",
    planes: &[Row::symbol(
        "abbey",
        Symbols::ABBEY,
        "1 if the tile is the abbey tile (AM1)",
    )],
    globals: &[Row::new("abbeys", &[Dim::Seat], "abbey tiles held (AM1)").live(Live::Abbeys)],
    ids: &[Row::new(
        "corner",
        &[Dim::Corner],
        "the barn on this corner of the placed tile (AM6)",
    )
    .live(Live::Figure(Figure::Barn))],
    // The abbey's hole and the wagon's moves name squares.
    names_squares: Live::Any(&[Live::Abbeys, Live::Figure(Figure::Wagon)]),
    write,
};

const ABBEYS: usize = global_offset("abbeys");

fn write(w: &mut Writer<'_>) {
    for seat in 0..w.game.num_players() {
        let abbeys = w.game.abbeys_left(seat) as f32;
        w.global(ABBEYS + w.rel(seat), abbeys);
    }
}
