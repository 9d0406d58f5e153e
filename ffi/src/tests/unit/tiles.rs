//! Unit tests of `tiles`, included by `tiles.rs` so they see its private items.

use super::*;

/// The constants of the header are the engine's symbol bits, one per symbol, and every
/// symbol is on some tile.
#[test]
fn symbol_bits_name_the_engines_symbols() {
    use crate::engine_types::{CARC_SYMBOL_ABBEY, CARC_SYMBOL_COUNT_QUARTERS};
    use carcassonne_core::tiles::Symbols;
    assert_eq!(std::mem::size_of::<CarcFeatureGeometry>(), 12);
    assert_eq!(Symbols::ABBEY.bits(), CARC_SYMBOL_ABBEY);
    assert_eq!(CARC_SYMBOL_COUNT_QUARTERS, 1 << 14);
    let mut seen = 0;
    for t in &catalogue().tiles {
        let mut bits = 0;
        let kind = catalogue().by_id(&t.id).unwrap();
        carc_tile_symbols(kind.index() as u32, &mut bits);
        for (name, flag, _) in Symbols::ALL {
            assert_eq!(
                bits & flag.bits() != 0,
                t.symbols.names().any(|n| n == name),
                "{} {name}",
                t.id
            );
        }
        seen |= bits;
    }
    assert_eq!(
        seen,
        (1 << Symbols::ALL.len()) - 1,
        "every symbol is on some tile"
    );
}
