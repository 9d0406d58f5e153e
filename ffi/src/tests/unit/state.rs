//! Unit tests of `state`, included by `state.rs` so they see its private items.

use super::*;

#[test]
fn struct_sizes_have_no_hidden_padding() {
    assert_eq!(
        std::mem::size_of::<CarcSupply>(),
        carcassonne_core::config::Figures::KEYS.len()
    );
    assert_eq!(std::mem::size_of::<CarcPlacedTile>(), 12);
    assert_eq!(std::mem::size_of::<CarcBoardFigure>(), 12);
    assert_eq!(std::mem::size_of::<CarcDragon>(), 12);
    assert_eq!(std::mem::size_of::<CarcFairy>(), 12);
    assert_eq!(std::mem::size_of::<CarcTower>(), 12);
}

#[test]
fn phase_numbers_are_stable() {
    assert_eq!(CarcPhase::from(Phase::Abbey) as u32, 0);
    assert_eq!(CarcPhase::from(Phase::PlaceTile) as u32, 2);
    assert_eq!(CarcPhase::from(Phase::GameOver) as u32, 6);
}
