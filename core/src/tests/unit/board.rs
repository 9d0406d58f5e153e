//! Unit tests of `board`, included by `board.rs` so they see its private items.

use super::*;
use crate::tiles::catalogue;

#[test]
fn frontier_follows_placements() {
    let d = catalogue().by_id("BASE-D").unwrap();
    let mut b = Board::new(60);
    b.place(Pos::new(0, 0), d, Rotation::default(), 0);
    assert_eq!(b.frontier().len(), 4);
    b.place(Pos::new(1, 0), d, Rotation::default(), 4);
    assert_eq!(b.frontier().len(), 6);
    assert!(!b.frontier().contains(&Pos::new(1, 0)));
    assert_eq!(b.at(Pos::new(0, 0)).unwrap().surrounded_by, 1);
    // BASE-D's east side is a road: a square east of it requires a road on its west.
    let (packed, mask) = b.requirements(Pos::new(2, 0));
    assert_eq!(mask, 0xF << 12);
    assert_eq!(packed, (Terrain::Road as u16) << 12);
    // Far placements grow the grid; lookups and the frontier stay right.
    let mut x = 2;
    while x < 40 {
        b.place(Pos::new(x, 0), d, Rotation::default(), 0);
        x += 1;
    }
    assert!(b.is_placed(Pos::new(39, 0)) && b.is_placed(Pos::new(0, 0)));
    assert!(b.frontier().contains(&Pos::new(40, 0)));
    assert_eq!(b.bounds(), (Pos::new(0, 0), Pos::new(39, 0)));
    assert_eq!(b.frontier().len(), 2 * 40 + 2);
    // The incrementally kept requirements agree with the computed ones.
    for (pos, req) in b.frontier().iter().zip(b.frontier_requirements()) {
        assert_eq!(*req, b.requirements(*pos));
    }
}
