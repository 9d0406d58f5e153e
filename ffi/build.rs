//! Build script of the C library: gives the shared library an ELF SONAME.
//!
//! The SONAME is `libcarcassonne.so.<CARC_ABI_VERSION>`, read from `src/version.rs`, so a
//! program linked against the library records the ABI it was built for, and a library
//! with a different ABI is never loaded in its place. `make install` installs the file
//! under that name with the development link `libcarcassonne.so` beside it
//! (`tools/install.sh`).
//!
//! Only ELF systems whose shared libraries are versioned by file name get a SONAME.
//! Android is left out: its loader and packaging expect a library's SONAME to be its plain
//! file name. Static libraries have no SONAME.

use std::env;
use std::fs;

fn main() {
    println!("cargo:rerun-if-changed=src/version.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if !matches!(
        os.as_str(),
        "linux" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        return;
    }
    let abi = abi_version();
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcarcassonne.so.{abi}");
}

/// The value of `pub const CARC_ABI_VERSION: u32 = N;` in `src/version.rs`.
fn abi_version() -> u32 {
    let source = fs::read_to_string("src/version.rs")
        .unwrap_or_else(|e| panic!("build.rs: cannot read src/version.rs: {e}"));
    source
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("pub const CARC_ABI_VERSION: u32 =")?
                .trim()
                .strip_suffix(';')?
                .trim()
                .parse()
                .ok()
        })
        .expect(
            "build.rs: src/version.rs has no line `pub const CARC_ABI_VERSION: u32 = <number>;`",
        )
}
