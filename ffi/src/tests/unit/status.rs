//! Unit tests of `status`, included by `status.rs` so they see its private items.

use super::*;

#[test]
fn numbers_are_stable_and_dense() {
    for (i, s) in CarcStatus::ALL.iter().enumerate() {
        assert_eq!(*s as u32, i as u32);
        assert_eq!(CarcStatus::from_u32(i as u32), Some(*s));
    }
    assert_eq!(CarcStatus::from_u32(CarcStatus::ALL.len() as u32), None);
    assert_eq!(CarcStatus::Ok as u32, 0);
    assert_eq!(CarcStatus::Panic as u32, 8);
}

#[test]
fn every_message_is_terminated_and_distinct() {
    let mut seen = std::collections::HashSet::new();
    for s in CarcStatus::ALL {
        let bytes = s.message_bytes();
        assert_eq!(bytes.last(), Some(&0));
        assert!(!bytes[..bytes.len() - 1].contains(&0));
        assert!(seen.insert(s.message()), "duplicate message for {s:?}");
    }
}
