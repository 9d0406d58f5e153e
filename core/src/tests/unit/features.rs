//! Unit tests of `features`, included by `features.rs` so they see its private items.

use super::*;

#[test]
fn union_adds_up_and_lists_parts() {
    let mut f = Features::with_capacity(4);
    let a = f.add(FeatureKind::City, 0, 0, 1, 1);
    let b = f.add(FeatureKind::City, 1, 0, 2, 0);
    let c = f.add(FeatureKind::City, 2, 0, 1, 1);
    f.union(a, b);
    let r = f.union(b, c);
    assert_eq!(f.node(r).open, 4);
    assert_eq!(f.node(r).pennants, 2);
    let mut parts: Vec<_> = f.parts(a).collect();
    parts.sort();
    assert_eq!(parts, vec![a, b, c]);
    assert_eq!(f.find(c), f.find(a));
}
