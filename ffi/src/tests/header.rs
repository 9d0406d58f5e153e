//! The committed header `include/carcassonne.h` must be exactly what the pinned cbindgen
//! generates from this crate. Regenerate it (and `src/engine_types.rs`, which it declares)
//! with
//! `CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib tests::header`.

use std::path::PathBuf;

fn generate() -> String {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn committed_header_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../include/carcassonne.h");
    if std::env::var_os("CARC_BLESS_HEADER").is_some() {
        // The header declares the generated enums: write them first.
        super::engine_types::bless();
        let generated = generate();
        std::fs::write(&path, &generated).expect("write include/carcassonne.h");
        return;
    }
    let generated = generate();
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "include/carcassonne.h differs from the generated header from line {}:\n  committed: {:?}\n  generated: {:?}\nRegenerate with: CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib tests::header",
            first + 1,
            committed.lines().nth(first).unwrap_or("<end of file>"),
            generated.lines().nth(first).unwrap_or("<end of file>"),
        );
    }
}

#[test]
fn header_declares_every_status_and_the_version_macros() {
    let header = generate();
    for needle in [
        "#define CARC_VERSION_MAJOR",
        "#define CARC_VERSION_MINOR",
        "#define CARC_VERSION_PATCH",
        "#define CARC_ABI_VERSION",
        "CARC_STATUS_OK = 0",
        "CARC_STATUS_INVALID_ARGUMENT = 10",
        "typedef struct CarcGame CarcGame;",
    ] {
        assert!(header.contains(needle), "header lacks {needle:?}");
    }
}

/// Every type a comment of the header names (`` `CarcSheepToken` ``) is defined in it
/// (a struct, an enum or a typedef), so that a client written from the header alone finds
/// what it is told to use.
#[test]
fn header_defines_every_type_its_comments_name() {
    let header = generate();
    let mut named = std::collections::BTreeSet::new();
    for piece in header.split('`').skip(1).step_by(2) {
        if piece.starts_with("Carc")
            && piece.len() > 4
            && piece.chars().all(|c| c.is_ascii_alphanumeric())
        {
            named.insert(piece.to_string());
        }
    }
    assert!(named.contains("CarcSheepToken") && named.contains("CarcFlockChoice"));
    let missing: Vec<&String> = named
        .iter()
        .filter(|name| {
            ![
                format!("typedef enum {name} {name};"),
                format!("typedef struct {name} {name};"),
                format!("typedef struct {name} {{"),
                format!("}} {name};"),
                format!("typedef uint8_t {name};"),
                format!("typedef uint32_t {name};"),
            ]
            .iter()
            .any(|d| header.contains(d.as_str()))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "named in comments but not defined: {missing:?}"
    );
}
