//! Unit tests of `version`, included by `version.rs` so they see its private items.

use super::*;

#[test]
fn constants_match_the_crate_version() {
    let parts: Vec<u32> = env!("CARGO_PKG_VERSION")
        .split(['.', '-', '+'])
        .take(3)
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(
        parts,
        [CARC_VERSION_MAJOR, CARC_VERSION_MINOR, CARC_VERSION_PATCH]
    );
    let text = unsafe { std::ffi::CStr::from_ptr(carc_version()) };
    assert_eq!(text.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}
