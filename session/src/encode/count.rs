//! The Count of Carcassonne in the observation schema: the City of Carcassonne's
//! squares (CC1), where the count stands and whose figures are in which quarter (CC3,
//! CC5), and the `QUARTER` ids.

use super::observe::Writer;
use super::schema::{global_offset, plane_index, Dim, Live, Row, Section};
use carcassonne::tiles::TileSet;

const IN_PLAY: Live = Live::Set(TileSet::Count);

/// The Count's rows.
pub const SECTION: Section = Section {
    key: "count",
    title: "The Count of Carcassonne",
    planes: &[Row::new(
        "city-of-carcassonne",
        &[],
        "1 on the twelve squares of the City of Carcassonne (CC1)",
    )
    .live(IN_PLAY)],
    globals: &[
        Row::new("count-quarter", &[Dim::Quarter], "one-hot of the count's quarter (CC5)")
            .live(IN_PLAY),
        Row::new(
            "quarter-figures",
            &[Dim::Seat, Dim::Quarter],
            "figures of that seat in that quarter of the City of Carcassonne (CC3)",
        )
        .live(IN_PLAY),
    ],
    ids: &[Row::new(
        "quarter",
        &[Dim::QuarterMover, Dim::Quarter],
        "a follower, the abbot, the mayor, the wagon or the big follower into a quarter of the City of Carcassonne (CC3), or the count's move to a quarter (CC5)",
    )
    .live(IN_PLAY)],
    // Leaving the City onto a feature is a CELL id, then a SLOT id.
    names_squares: IN_PLAY,
    write,
};

const CITY_OF_CARCASSONNE: usize = plane_index("city-of-carcassonne");
const COUNT_QUARTER: usize = global_offset("count-quarter");
const QUARTER_FIGURES: usize = global_offset("quarter-figures");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    if !game.has_set(TileSet::Count) {
        return;
    }
    for placement in game.board().placements() {
        if placement.def().set == TileSet::Count {
            w.mark(CITY_OF_CARCASSONNE, placement.pos);
        }
    }
    if let Some(q) = game.count_quarter() {
        w.global(COUNT_QUARTER + q as usize, 1.0);
    }
    for &(q, owner, _) in game.quarter_figures() {
        w.add_global(
            QUARTER_FIGURES + 4 * w.rel(owner as usize) + q as usize,
            1.0,
        );
    }
}
