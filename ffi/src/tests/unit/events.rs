//! Unit tests of `events`, included by `events.rs` so they see its private items.

use super::*;
use carcassonne_core::tiles::FeatureKind;
use carcassonne_core::{ReturnCause, ScoreKind};

#[test]
fn struct_sizes_and_numbers() {
    assert_eq!(std::mem::size_of::<CarcEvent>(), 28);
    assert_eq!(std::mem::size_of::<CarcFeaturePart>(), 12);
    // Every engine value has its own C number, the numbers are dense, and the names
    // agree (the C numbers are stable: new values are appended).
    let mut scores: Vec<usize> = ScoreKind::ALL
        .iter()
        .map(|k| {
            let c = CarcScoreKind::from(*k);
            assert_eq!(format!("{c:?}"), format!("{k:?}"));
            c as usize
        })
        .collect();
    scores.sort_unstable();
    assert_eq!(scores, (0..ScoreKind::ALL.len()).collect::<Vec<_>>());
    for (i, c) in ReturnCause::ALL.iter().enumerate() {
        assert_eq!(CarcReturnCause::from(*c) as usize, i, "{c:?}");
        assert_eq!(format!("{:?}", CarcReturnCause::from(*c)), format!("{c:?}"));
    }
    for (i, k) in FeatureKind::ALL.iter().enumerate() {
        assert_eq!(CarcFeatureKind::from(*k) as usize, i, "{k:?}");
        assert_eq!(*k as usize, i);
    }
}
