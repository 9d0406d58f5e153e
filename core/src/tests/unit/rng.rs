//! Unit tests of `rng`, included by `rng.rs` so they see its private items.

use super::Rng;

#[test]
fn same_seed_same_stream_and_bounded() {
    let mut a = Rng::new(7);
    let mut b = Rng::new(7);
    for _ in 0..100 {
        let x = a.below(13);
        assert_eq!(x, b.below(13));
        assert!(x < 13);
    }
    assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
}

#[test]
fn a_saved_state_continues_the_same_stream() {
    let mut a = Rng::new(11);
    for _ in 0..5 {
        a.next_u64();
    }
    let hex = a.to_hex();
    assert_eq!(hex.len(), 64);
    let mut b = Rng::from_hex(&hex).unwrap();
    let mut c = Rng::from_hex(&hex.to_uppercase()).unwrap();
    assert_eq!(Rng::from_state(a.state()), Some(a.clone()));
    for _ in 0..100 {
        let x = a.next_u64();
        assert_eq!(x, b.next_u64());
        assert_eq!(x, c.next_u64());
    }
    assert!(Rng::from_hex(&"0".repeat(64)).is_err());
    assert!(Rng::from_hex("12ab").is_err());
    assert!(Rng::from_hex(&"g".repeat(64)).is_err());
    assert!(Rng::from_hex(&"+1".repeat(32)).is_err());
}
