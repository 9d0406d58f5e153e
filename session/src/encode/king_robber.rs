//! King & Robber Baron in the observation schema: who holds the King (KR1) and the
//! Robber Baron (KR2).

use super::observe::Writer;
use super::schema::{global_offset, Dim, Live, Row, Section};
use carcassonne::tiles::TileSet;

const IN_PLAY: Live = Live::Set(TileSet::KingRobber);

/// King & Robber Baron's rows.
pub const SECTION: Section = Section {
    key: "king-and-robber",
    title: "King & Robber Baron",
    planes: &[],
    globals: &[
        Row::new("king", &[Dim::Seat], "1 if the seat holds the King (KR1)").live(IN_PLAY),
        Row::new(
            "robber-baron",
            &[Dim::Seat],
            "1 if the seat holds the Robber Baron (KR2)",
        )
        .live(IN_PLAY),
    ],
    ids: &[],
    names_squares: Live::Any(&[]),
    write,
};

const KING: usize = global_offset("king");
const ROBBER_BARON: usize = global_offset("robber-baron");

fn write(w: &mut Writer<'_>) {
    let (king, robber) = w.game.titles();
    if let Some(p) = king {
        w.global(KING + w.rel(p), 1.0);
    }
    if let Some(p) = robber {
        w.global(ROBBER_BARON + w.rel(p), 1.0);
    }
}
