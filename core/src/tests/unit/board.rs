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
    assert!(!b.frontier().iter().any(|s| s.pos == Pos::new(1, 0)));
    assert_eq!(b.at(Pos::new(0, 0)).unwrap().surrounded_by, 1);
    // BASE-D's east side is a road: a square east of it requires a road on its west.
    assert_eq!(
        b.requirement(Pos::new(2, 0)),
        (Terrain::Road as Requirement + 1) << 11
    );
    assert_eq!(
        packed_requirement(b.requirement(Pos::new(2, 0))),
        ((Terrain::Road as u16) << 12, 0xF << 12)
    );
    // Far placements grow the grid; lookups and the frontier stay right.
    let mut x = 2;
    while x < 40 {
        b.place(Pos::new(x, 0), d, Rotation::default(), 0);
        x += 1;
    }
    assert!(b.is_placed(Pos::new(39, 0)) && b.is_placed(Pos::new(0, 0)));
    assert!(b.frontier().iter().any(|s| s.pos == Pos::new(40, 0)));
    assert_eq!(b.bounds(), (Pos::new(0, 0), Pos::new(39, 0)));
    assert_eq!(b.frontier().len(), 2 * 40 + 2);
    // The incrementally kept requirements agree with the computed ones.
    for square in b.frontier() {
        assert_eq!(square.required, b.requirement(square.pos));
        assert_eq!(
            square.neighbours as usize,
            b.orthogonal_neighbours(square.pos)
        );
    }
}

#[test]
fn frontier_counts_the_tiles_around_a_hole() {
    // AM1: a hole is an empty square with tiles on all four sides. Tiles put around
    // (0, 0) one by one: the square's count goes 1, 2, 3, 4.
    let d = catalogue().by_id("BASE-D").unwrap();
    let mut b = Board::new(60);
    let around = [
        Pos::new(0, -1),
        Pos::new(1, -1),
        Pos::new(1, 0),
        Pos::new(1, 1),
        Pos::new(0, 1),
        Pos::new(-1, 1),
        Pos::new(-1, 0),
    ];
    let mut counts = Vec::new();
    for pos in around {
        b.place(pos, d, Rotation::default(), 0);
        let square = b.frontier().iter().find(|s| s.pos == Pos::new(0, 0));
        counts.push(square.map(|s| s.neighbours));
    }
    assert_eq!(
        counts,
        [
            Some(1),
            Some(1),
            Some(2),
            Some(2),
            Some(3),
            Some(3),
            Some(4)
        ]
    );
}

#[test]
fn fit_tables_agree_with_the_sides() {
    // B4: a rotation fits when every side facing a tile shows the same terrain. Every tile
    // kind against every combination of a required terrain (or none) per side.
    let terrains = [
        Terrain::Field,
        Terrain::Road,
        Terrain::City,
        Terrain::River,
        Terrain::Abbey,
        Terrain::Carcassonne,
    ];
    let mut requirements = Vec::new();
    for combination in 0..7usize.pow(4) {
        // Per side: 0 for no neighbour, else a terrain the neighbour shows.
        let facing: [usize; 4] =
            std::array::from_fn(|side| combination / 7usize.pow(side as u32) % 7);
        let required = Side::ALL
            .iter()
            .fold(0, |code, &side| match facing[side.index()] {
                0 => code,
                t => code | side_requirement(side, terrains[t - 1]),
            });
        requirements.push((facing, required));
    }
    // Some rotations fit and some do not: the comparison is not vacuous.
    let (mut fitted, mut refused) = (0, 0);
    for kind in catalogue().kinds() {
        let table = FitTable::of(kind);
        for (facing, required) in &requirements {
            let mut expected = 0u8;
            for (r, &rot) in Rotation::ALL.iter().enumerate() {
                let sides = &kind.def().oriented(rot).sides;
                let fits = Side::ALL.iter().all(|&side| match facing[side.index()] {
                    0 => true,
                    // The abbey fits anything (AM1): it requires nothing.
                    t if terrains[t - 1] == Terrain::Abbey => true,
                    t => sides[side.index()] == terrains[t - 1],
                });
                expected |= u8::from(fits) << r;
            }
            assert_eq!(table.fits(*required), expected, "{kind:?} {facing:?}");
            fitted += expected.count_ones();
            refused += 4 - expected.count_ones();
        }
    }
    assert!(fitted > 0 && refused > 0);
}

#[test]
fn packed_requirements_name_the_facing_terrains() {
    // B4: the packed form requires, on each side that faces a tile, that tile's terrain.
    let terrains = [
        Terrain::Field,
        Terrain::Road,
        Terrain::City,
        Terrain::River,
        Terrain::Carcassonne,
    ];
    for (i, &north) in terrains.iter().enumerate() {
        let west = terrains[(i + 2) % terrains.len()];
        let required = side_requirement(Side::N, north) | side_requirement(Side::W, west);
        let (packed, mask) = packed_requirement(required);
        assert_eq!(mask, 0xF00F);
        assert_eq!(packed, north as u16 | (west as u16) << 12);
    }
    // The abbey requires nothing (AM1); no neighbour requires nothing.
    assert_eq!(
        packed_requirement(side_requirement(Side::E, Terrain::Abbey)),
        (0, 0)
    );
    assert_eq!(packed_requirement(0), (0, 0));
}
