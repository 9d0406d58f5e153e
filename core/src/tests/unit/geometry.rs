//! Unit tests of `geometry`, included by `geometry.rs` so they see its private items.

use super::*;

#[test]
fn rotation_maps_sides_clockwise() {
    let r1 = Rotation::new(1).unwrap();
    assert_eq!(Side::N.rotated(r1), Side::E);
    assert_eq!(Side::W.rotated(r1), Side::N);
    assert_eq!(r1.canonical_side(Side::E), Side::N);
    assert_eq!(Rotation::new(3).unwrap().canonical_side(Side::N), Side::E);
    assert!(Rotation::new(4).is_none());
}

#[test]
fn corners_meet_four_squares() {
    let around = Corner::NE.squares_around(Pos::new(0, 0));
    assert!(around.contains(&(Pos::new(0, 0), Corner::NE)));
    assert!(around.contains(&(Pos::new(1, -1), Corner::SW)));
    assert!(around.contains(&(Pos::new(0, -1), Corner::SE)));
    assert!(around.contains(&(Pos::new(1, 0), Corner::NW)));
}
