//! The Cult in the observation schema: the shrine (CU1). The base section's tile loop
//! fills its plane ([`Fill`](super::schema::Fill)); a shrine also counts in the
//! `monastery` plane.

use super::observe::Writer;
use super::schema::{Live, Row, Section};
use carcassonne::tiles::Symbols;

/// The Cult's rows.
pub const SECTION: Section = Section {
    key: "cult",
    title: "The Cult",
    planes: &[Row::symbol(
        "shrine",
        Symbols::SHRINE,
        "1 if the tile has a shrine (CU1)",
    )],
    globals: &[],
    ids: &[],
    names_squares: Live::Any(&[]),
    write,
};

fn write(_: &mut Writer<'_>) {}
