//! Unit tests of `tiles`, included by `tiles.rs` so they see its private items.

use super::*;

#[test]
fn table_parses_and_orients() {
    let c = catalogue();
    assert_eq!(c.len(), 218);
    let d = c.by_id("BASE-D").unwrap().def();
    let r1 = d.oriented(Rotation::new(1).unwrap());
    // BASE-D: city north; after a quarter turn the city faces east.
    assert_eq!(
        r1.sides,
        [Terrain::Road, Terrain::City, Terrain::Road, Terrain::Field]
    );
    let city = d.feature_by_id("c1").unwrap() as u8;
    assert_eq!(r1.segment_feature[3..6], [city; 3]);
    assert_eq!(r1.feature_sides[city as usize], 0b0010);
}

/// Turning a tile moves segments, sides and corners with it, as `Oriented` does.
#[test]
fn rotations_of_masks_follow_the_oriented_tile() {
    for kind in catalogue().kinds() {
        let def = kind.def();
        for rot in Rotation::ALL {
            let o = def.oriented(rot);
            for (i, f) in def.features.iter().enumerate() {
                let segs = rotate_segments(f.segments, rot);
                for (seg, local) in o.segment_feature.iter().enumerate() {
                    assert_eq!(segs & (1 << seg) != 0, *local == i as u8, "{} {i}", def.id);
                }
                assert_eq!(rotate_quarters(f.side_mask(), rot), o.feature_sides[i]);
            }
        }
    }
    let d = catalogue().by_id("BASE-D").unwrap().def();
    let field_at = |c: u8| d.features.iter().filter(|f| f.corners() & c != 0).count();
    // BASE-D: a cap on the north side (N0..N2) and a road west–east. The cap and the
    // field beside it meet at NW and NE, so nothing covers those corners; the field
    // south of the road covers SE and SW.
    assert_eq!(d.features[d.feature_by_id("c1").unwrap()].corners(), 0);
    assert_eq!([1, 2, 4, 8].map(field_at), [0, 0, 1, 1]);
    assert_eq!(rotate_quarters(0b0001, Rotation::new(3).unwrap()), 0b1000);
}
