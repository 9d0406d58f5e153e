//! Version of the library and of its ABI.
//!
//! The `CARC_VERSION_*` constants are literals so that the header carries them as macros;
//! a test checks them against the crate version, and the C tests check the macros
//! against `carc_version()` and the workspace's `Cargo.toml`.

use std::ffi::c_char;

/// Major version of the library.
pub const CARC_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const CARC_VERSION_MINOR: u32 = 1;
/// Patch version of the library.
pub const CARC_VERSION_PATCH: u32 = 0;
/// Version of the ABI: raised whenever a function, struct or constant changes in a way
/// that breaks callers compiled against the header of the last release, once per release
/// (1: version 0.1.0; 2: every change since, the structs grown with later sets included).
pub const CARC_ABI_VERSION: u32 = 2;

const VERSION_STRING: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library version as `"MAJOR.MINOR.PATCH"` (NUL-terminated), equal to the
/// `CARC_VERSION_*` macros of the header it was built with.
///
/// Ownership: the string belongs to the library and lives as long as the process; the
/// caller must not free or modify it. Never returns NULL.
#[no_mangle]
pub extern "C" fn carc_version() -> *const c_char {
    VERSION_STRING.as_ptr().cast()
}

/// The ABI version of the library, equal to the `CARC_ABI_VERSION` macro of the header it
/// was built with. A program can compare the two to detect a mismatched library.
///
/// Ownership: returns a plain value; nothing to release.
#[no_mangle]
pub extern "C" fn carc_abi_version() -> u32 {
    CARC_ABI_VERSION
}

#[cfg(test)]
#[path = "tests/unit/version.rs"]
mod tests;
