//! Unit tests of the bridges' quick test, included by `rules/bcb/bridges.rs`.

use super::*;
use crate::board::Requirement;
use crate::Rng;

/// BR2 side by side, from the terrains themselves: a side fits when nothing is required
/// of it or it matches, and a bridge can make it fit when it is a field facing a road or
/// a road facing a field.
fn reference(sides: [u16; 4], required: [Option<u16>; 4]) -> bool {
    let (field, road) = (Terrain::Field as u16, Terrain::Road as u16);
    (0..4).all(|i| match required[i] {
        None => true,
        Some(theirs) => {
            let mine = sides[i];
            mine == theirs || (mine == field && theirs == road) || (mine == road && theirs == field)
        }
    })
}

/// The packed form of the reference's arguments: terrains 4 bits a side, the mask 0xF on
/// each side with a requirement.
fn packed(sides: [u16; 4], required: [Option<u16>; 4]) -> (u16, u16, u16) {
    let mut out = (0, 0, 0);
    for i in 0..4 {
        out.0 |= sides[i] << (4 * i);
        if let Some(t) = required[i] {
            out.1 |= t << (4 * i);
            out.2 |= 0xF << (4 * i);
        }
    }
    out
}

/// BR2: `bridge_may_fit` (bit arithmetic over the packed sides) agrees with the side by
/// side reference for every terrain on every side alone (the others matching or free),
/// and for 200,000 random tiles and requirements over all six terrains.
#[test]
fn br2_bridge_test_agrees_with_the_sides() {
    let terrains = 6u16; // field, road, city, river, abbey, the City of Carcassonne
    let mut checked = 0;
    let mut fits = 0;
    for side in 0..4 {
        for mine in 0..terrains {
            for theirs in (0..terrains).map(Some).chain([None]) {
                let mut sides = [2, 3, 0, 1];
                let mut required = [Some(2), None, Some(0), Some(1)];
                sides[side] = mine;
                required[side] = theirs;
                let (s, p, m) = packed(sides, required);
                let want = reference(sides, required);
                assert_eq!(
                    bridge_may_fit(s, p, m),
                    want,
                    "{sides:?} against {required:?}"
                );
                checked += 1;
                fits += usize::from(want);
            }
        }
    }
    let mut rng = Rng::new(7);
    for _ in 0..200_000 {
        let sides = [(); 4].map(|_| rng.below(u32::from(terrains)) as u16);
        let required = [(); 4].map(|_| {
            let t = rng.below(u32::from(terrains) + 1) as u16;
            (t < terrains).then_some(t)
        });
        let (s, p, m) = packed(sides, required);
        let want = reference(sides, required);
        assert_eq!(
            bridge_may_fit(s, p, m),
            want,
            "{sides:?} against {required:?}"
        );
        checked += 1;
        fits += usize::from(want);
    }
    assert!(
        fits > 1000 && checked - fits > 1000,
        "both answers are met: {fits} of {checked}"
    );
}

/// BR2: the table of the rotations a bridge could make fit (`bridge_fit_table`, looked up
/// per frontier square) agrees with the side by side reference for every tile kind of
/// the catalogue, every rotation and every requirement of the four sides (nothing, or
/// any of the seven terrain numbers a requirement can name, on each side).
#[test]
fn br2_bridge_table_agrees_with_the_sides() {
    let shift = [0, 3, 8, 11];
    let (mut listed, mut checked) = (0usize, 0usize);
    for kind in catalogue().kinds() {
        let table = bridge_fit_table(kind);
        for codes in 0..8u16 * 8 * 8 * 8 {
            let code = |side: usize| codes >> (3 * side) & 7;
            let required: Requirement = (0..4).fold(0, |r, side| r | code(side) << shift[side]);
            let terrains = [0, 1, 2, 3].map(|side| match code(side) {
                0 => None,
                c => Some(c - 1),
            });
            let fits = table.fits(required);
            for rot in Rotation::ALL {
                let sides = kind.def().oriented(rot).sides.map(|t| t as u16);
                let want = reference(sides, terrains);
                assert_eq!(
                    fits >> rot.quarter_turns() & 1 == 1,
                    want,
                    "{} turned {rot:?} against {terrains:?}",
                    kind.def().id
                );
                checked += 1;
                listed += usize::from(want);
            }
        }
    }
    assert!(
        listed > 1000 && checked - listed > 1000,
        "both answers are met: {listed} of {checked}"
    );
}
