//! The numbers and names the documentation of the C ABI states, held against what the
//! library reports, so that they cannot drift: the layout version (docs/observations.md,
//! the header's macro), the observation sizes of the full encoding (`S`, `F` of the
//! header's `CarcObservationSizes`, docs/c-api.md), the flattening of the global blocks
//! (`supply + 9·r + f` in docs/c-api.md, docs/observations.md, docs/interfaces.md), the
//! sizes quoted after the presets' table, the bytes of the benchmark's observation, and
//! every `carc_*` function the documents name.

use crate::game::{carc_game_free, carc_game_new};
use crate::guard::CarcGame;
use crate::layout::{
    carc_game_layout_block, carc_game_layout_block_count, carc_game_plane_name,
    carc_layout_version, CarcLayoutBlock, CarcLayoutPart,
};
use crate::learn::{carc_game_observation_sizes, CarcObservationSizes};
use crate::status::CarcStatus;
use std::ffi::{c_char, CStr, CString};
use std::path::Path;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The document's text with its lines joined (a phrase may be wrapped anywhere).
fn joined(path: &str) -> String {
    read(path).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The numbers that follow each occurrence of `before` in `text` (digits, with `,` and
/// `.` inside), as written.
fn numbers_after(text: &str, before: &str) -> Vec<String> {
    text.match_indices(before)
        .map(|(i, _)| {
            text[i + before.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
                .collect::<String>()
                .trim_end_matches(['.', ','])
                .to_string()
        })
        .collect()
}

/// Asserts that `text` (named `what`) states `before` followed by `want`, at least once,
/// and never followed by another number.
fn states(what: &str, text: &str, before: &str, want: &str) {
    let found = numbers_after(text, before);
    assert!(!found.is_empty(), "{what}: no {before:?}");
    for n in &found {
        assert_eq!(
            n, want,
            "{what}: {before:?} is followed by {n}, the library says {want}"
        );
    }
}

/// `n` with a comma every three digits, as the documents write counts.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

struct Full {
    game: *mut CarcGame,
    sizes: CarcObservationSizes,
}

impl Full {
    /// A game in the full encoding at the default window.
    fn new() -> Full {
        let config = CString::new(r#"{"players":2,"sets":["base"]}"#).unwrap();
        let mut game = std::ptr::null_mut();
        assert_eq!(carc_game_new(config.as_ptr(), &mut game), CarcStatus::Ok);
        let mut sizes = CarcObservationSizes::default();
        assert_eq!(
            carc_game_observation_sizes(game, &mut sizes),
            CarcStatus::Ok
        );
        Full { game, sizes }
    }

    fn global_block(&self, name: &str) -> CarcLayoutBlock {
        let mut count = 0;
        let part = CarcLayoutPart::Globals as u32;
        assert_eq!(
            carc_game_layout_block_count(self.game, part, &mut count),
            CarcStatus::Ok
        );
        for i in 0..count {
            let mut b = std::mem::MaybeUninit::<CarcLayoutBlock>::uninit();
            assert_eq!(
                carc_game_layout_block(self.game, part, i, b.as_mut_ptr()),
                CarcStatus::Ok
            );
            // SAFETY: written on success.
            let b = unsafe { b.assume_init() };
            // SAFETY: a NUL-terminated name owned by the library.
            if unsafe { CStr::from_ptr(b.name) }.to_str() == Ok(name) {
                return b;
            }
        }
        panic!("no global block {name}");
    }

    fn plane_names(&self) -> Vec<String> {
        (0..self.sizes.planes)
            .map(|i| {
                let mut name: *const c_char = std::ptr::null();
                assert_eq!(
                    carc_game_plane_name(self.game, i, &mut name),
                    CarcStatus::Ok
                );
                // SAFETY: a NUL-terminated name owned by the library.
                unsafe { CStr::from_ptr(name) }
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }
}

impl Drop for Full {
    fn drop(&mut self) {
        carc_game_free(self.game);
    }
}

#[test]
fn the_layout_version_is_the_librarys_everywhere() {
    let version = carc_layout_version();
    let observations = joined("docs/observations.md");
    states(
        "docs/observations.md",
        &observations,
        "**Layout version `",
        &format!("{version:016x}"),
    );
    assert!(
        observations.contains(&format!("`{version}` in decimal")),
        "docs/observations.md: the decimal version {version}"
    );
    assert!(observations.contains(&format!("`0x{version:016x}`")));
    states(
        "include/carcassonne.h",
        &read("include/carcassonne.h"),
        "#define CARC_LAYOUT_VERSION ",
        &version.to_string(),
    );
}

#[test]
fn the_slot_block_sides_are_the_librarys() {
    let full = Full::new();
    let (s, f) = (
        full.sizes.slots.to_string(),
        full.sizes.channels.to_string(),
    );
    let header = joined("include/carcassonne.h");
    states("include/carcassonne.h", &header, "`S = ", &s);
    states("include/carcassonne.h", &header, "`F = ", &f);
    let c_api = joined("docs/c-api.md");
    assert!(
        c_api.contains(&format!("({s} and {f} in the full encoding)")),
        "docs/c-api.md: the sides of the SLOT block are {s} and {f}"
    );
}

#[test]
fn the_flattening_formulas_use_the_blocks_shapes() {
    let full = Full::new();
    let supply = full.global_block("supply");
    assert_eq!(supply.rank, 2);
    let per_seat = supply.shape[1].to_string();
    let quarters = full.global_block("quarter-figures").shape[1].to_string();
    for doc in [
        "docs/c-api.md",
        "docs/observations.md",
        "docs/interfaces.md",
    ] {
        let text = joined(doc);
        states(doc, &text, "supply + ", &per_seat);
        if text.contains("quarter-figures + ") {
            states(doc, &text, "quarter-figures + ", &quarters);
        }
    }
    // The plane group `figures`: relative seat × figure, as many figures per seat.
    let figures_per_seat = full
        .plane_names()
        .iter()
        .filter(|n| n.starts_with("figures.rel0."))
        .count();
    assert_eq!(figures_per_seat.to_string(), per_seat);
    let observations = joined("docs/observations.md");
    states(
        "docs/observations.md",
        &observations,
        "plane `figures + ",
        &per_seat,
    );
}

#[test]
fn the_sizes_quoted_in_the_text_are_the_librarys() {
    let full = Full::new();
    let s = full.sizes;
    assert_eq!(s.window, 32, "the default window");
    let bytes = u64::from(s.planes_len) + 4 * u64::from(s.globals_len) + u64::from(s.actions);
    let kib = format!("{:.1}", bytes as f64 / 1024.0);
    let observations = joined("docs/observations.md");
    states(
        "docs/observations.md",
        &observations,
        "KiB per observation instead of ",
        &kib,
    );
    states(
        "docs/observations.md",
        &observations,
        "ids instead of ",
        &grouped(u64::from(s.actions)),
    );
    // The benchmark's observation (Throughput): planes, globals and mask of the full
    // encoding at W = 32.
    states(
        "docs/observations.md",
        &observations,
        "bytes per observation: ",
        &grouped(bytes),
    );
    states(
        "docs/observations.md",
        &observations,
        "(board ",
        &grouped(u64::from(s.planes_len)),
    );
}

#[test]
fn every_function_the_documents_name_exists() {
    let header = read("include/carcassonne.h");
    for doc in [
        "docs/c-api.md",
        "docs/c.md",
        "docs/observations.md",
        "docs/interfaces.md",
        "docs/expansion-state.md",
        "include/carcassonne.h",
    ] {
        let text = read(doc);
        for (i, _) in text.match_indices("carc_") {
            if i > 0 && text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = text[i..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if text[i + name.len()..].starts_with(['(', '`', ' ', ',', ')']) && name.len() > 5 {
                assert!(
                    header.contains(&format!("{name}(")),
                    "{doc} names {name}, which the header does not declare"
                );
            }
        }
    }
}

/// docs/interfaces.md's table of action kinds lists every kind, by its record type.
#[test]
fn the_interfaces_table_lists_every_action_kind() {
    use carcassonne_core::action::ActionKind;
    let text = read("docs/interfaces.md");
    for kind in ActionKind::ALL {
        let name = kind.name();
        let row = if name == "draw" {
            "the turn's `draw`".to_string()
        } else {
            format!("| `{name}` |")
        };
        assert!(
            text.contains(&row),
            "docs/interfaces.md: no row for the action kind {name}"
        );
    }
}
