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

/// A table with a bad edge group, edge code or segment is refused with a message that
/// names the tile and what is wrong; so is a tile with more features than `no_field`
/// holds.
#[test]
fn bad_tables_are_refused_with_the_tile_and_the_fault() {
    let tile = |edges: &str, segments: &str| {
        format!("T-1 base 1 1 1 {edges}\n  c1 city {segments} pennants=0\n  f1 field - cities=c1\n")
    };
    let error = |text: String| parse_table(&text).expect_err("a bad table");
    let cases = [
        (
            "ccc.fff.fff",
            "N0,N1,N2",
            r#"tile T-1: bad edges "ccc.fff.fff""#,
        ),
        (
            "ccc.fff.fff.fff.fff",
            "N0,N1,N2",
            r#"tile T-1: bad edges "ccc.fff.fff.fff.fff""#,
        ),
        (
            "ccc.ff.fff.fff",
            "N0,N1,N2",
            r#"tile T-1: bad edges "ccc.ff.fff.fff""#,
        ),
        ("cxc.fff.fff.fff", "N0,N1,N2", "tile T-1: bad edge x"),
        (
            "ccc.fff.fff.fff",
            "N0,N3",
            r#"tile T-1: bad segment "N3" in "  c1 city N0,N3 pennants=0""#,
        ),
        (
            "ccc.fff.fff.fff",
            "N0,Q1",
            r#"tile T-1: bad segment "Q1" in "  c1 city N0,Q1 pennants=0""#,
        ),
    ];
    for (edges, segments, expected) in cases {
        assert_eq!(
            error(tile(edges, segments)),
            expected,
            "edges {edges}, segments {segments}"
        );
    }
    // Seventeen fields on one tile: more local features than a `u16` has bits.
    let mut crowded = String::from("T-2 base 1 1 1 fff.fff.fff.fff\n");
    for i in 0..17 {
        crowded.push_str(&format!("  f{i} field - cities=\n"));
    }
    assert_eq!(error(crowded), "tile T-2: more than 16 features");
}
