//! River I and II in the observation schema: the river's sides and the pig herd
//! (R5). The base section's tile loop fills both ([`Fill`](super::schema::Fill)).

use super::observe::Writer;
use super::schema::{Live, Row, Section};
use carcassonne::tiles::{Symbols, Terrain};

/// The rivers' rows.
pub const SECTION: Section = Section {
    key: "river",
    title: "River I and II",
    planes: &[
        Row::side_terrain("river", Terrain::River, "1 if the side is river"),
        Row::symbol(
            "pig-herd",
            Symbols::PIG_HERD,
            "1 if the tile shows a pig herd (R5)",
        ),
    ],
    globals: &[],
    ids: &[],
    names_squares: Live::Any(&[]),
    write,
};

fn write(_: &mut Writer<'_>) {}
