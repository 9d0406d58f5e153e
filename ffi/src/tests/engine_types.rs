//! Writes `ffi/src/engine_types.rs`: the C ABI's enums that number the values of an
//! engine enum (phases, action kinds, figures, score kinds, ...), with the engine's
//! documentation of each value and the conversion from the engine's type, the supply
//! struct (one byte per key of the engine's `Figures`) and the `CARC_SYMBOL_*` bits (the
//! engine's `Symbols`).
//!
//! The committed file must be exactly what [`render`] writes; regenerate it (and the
//! header after it) with `CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib
//! tests::header`. Numbers are stable: a value keeps the number the committed file gives
//! it, and [`render`] refuses an engine order that would renumber one, so a new value goes
//! at the end of its engine enum.

use carcassonne_core::action::ActionKind;
use carcassonne_core::config::Figures;
use carcassonne_core::names::Named;
use carcassonne_core::rules::bcb::{Axis, BazaarChoice};
use carcassonne_core::rules::count::{Quarter, QuarterStep};
use carcassonne_core::rules::hills_sheep::{FlockChoice, SheepToken};
use carcassonne_core::rules::state::{ColumnKind, Rows};
use carcassonne_core::tiles::{FeatureKind, Symbols};
use carcassonne_core::{Corner, Figure, Phase, ReturnCause, ScoreKind};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One generated enum: its C ABI name, representation, documentation, the engine type it
/// mirrors (path as written in the file) and that type's values as `(ident, doc)`.
struct Mirror {
    name: &'static str,
    repr: &'static str,
    doc: &'static str,
    engine: &'static str,
    values: Vec<(String, String)>,
}

/// `(ident, doc)` of each value of a `named_enum!` type, in declaration order; the doc
/// ends with the value's name.
fn named<T: Named + std::fmt::Debug>() -> Vec<(String, String)> {
    T::all()
        .iter()
        .map(|v| (format!("{v:?}"), with_name(v.doc(), v.name())))
        .collect()
}

/// `doc`, then the name that records, configurations and Python use for the value.
fn with_name(doc: &str, name: &str) -> String {
    format!("{} Name: `{name}`.", doc.trim())
}

fn mirrors() -> Vec<Mirror> {
    let m = |name, repr, doc, engine, values| Mirror {
        name,
        repr,
        doc,
        engine,
        values,
    };
    vec![
        m(
            "CarcPhase",
            "u32",
            "What the game waits for (`carc_game_phase`).",
            "Phase",
            named::<Phase>(),
        ),
        m(
            "CarcActionKind",
            "u8",
            "What a `CarcAction` does (its `kind` field); the record format's action types, one \
             to one. A field the kind does not have is ignored; an absent feature is \
             `CARC_NO_FEATURE`.",
            "ActionKind",
            ActionKind::ALL
                .iter()
                .map(|k| (format!("{k:?}"), with_name(k.spec().doc, k.spec().name)))
                .collect(),
        ),
        m(
            "CarcFigure",
            "u8",
            "A kind of figure (the `figure` field of a `CarcAction` and of a `CarcBoardFigure`).",
            "Figure",
            named::<Figure>(),
        ),
        m(
            "CarcCorner",
            "u8",
            "Barn corners, board frame (the `corner` field of a `CarcAction`).",
            "Corner",
            named::<Corner>(),
        ),
        m(
            "CarcQuarter",
            "u8",
            "A quarter of the City of Carcassonne (the `quarter` field of a `CarcAction`).",
            "Quarter",
            named::<Quarter>(),
        ),
        m(
            "CarcQuarterStep",
            "u8",
            "When a player acts on the City of Carcassonne (the `step` field of a `CarcAction`).",
            "QuarterStep",
            named::<QuarterStep>(),
        ),
        m(
            "CarcAxis",
            "u8",
            "The direction of a bridge, board frame (the `axis` field of a `CarcAction`).",
            "Axis",
            named::<Axis>(),
        ),
        m(
            "CarcBazaarChoice",
            "u8",
            "What the player who picked an outbid bazaar tile does (the `choice` field of a \
             `CarcAction`).",
            "BazaarChoice",
            named::<BazaarChoice>(),
        ),
        m(
            "CarcFlockChoice",
            "u8",
            "The turn player's choice for his shepherd's flock (the `choice` field of a \
             `CarcAction` of kind `FLOCK`).",
            "FlockChoice",
            named::<FlockChoice>(),
        ),
        m(
            "CarcSheepToken",
            "u8",
            "A token of the sheep bag (the `token` field of a `CarcAction` of kind \
             `DRAW_TOKEN`).",
            "SheepToken",
            named::<SheepToken>(),
        ),
        m(
            "CarcScoreKind",
            "u8",
            "Why points were scored (`score_kind` of a `CarcEvent`).",
            "ScoreKind",
            named::<ScoreKind>(),
        ),
        m(
            "CarcReturnCause",
            "u8",
            "Why a figure left the board (`cause` of a `CarcEvent`).",
            "ReturnCause",
            named::<ReturnCause>(),
        ),
        m(
            "CarcFeatureKind",
            "u8",
            "The kind of a feature (`carc_tile_feature_geometry`, events, parts).",
            "FeatureKind",
            named::<FeatureKind>(),
        ),
        m(
            "CarcStateKind",
            "u8",
            "What the values of a column of the expansions' state are, and how a `CarcStateRow` \
             writes them (`kind` of a `CarcStateColumn`): a seat number; an integer; 0 or 1; a \
             board square's x or y; a local feature index of the tile at the row's square; a \
             `CarcQuarter`, a `CarcFigure`, a tile kind index, a `CarcAxis`. \
             `CARC_STATE_ABSENT` when a value of an optional column is absent.",
            "ColumnKind",
            named::<ColumnKind>(),
        ),
        m(
            "CarcStateRows",
            "u8",
            "How many rows a table of the expansions' state has in a game where its expansion \
             is in play (`rows` of a `CarcStateTable`).",
            "Rows",
            named::<Rows>(),
        ),
    ]
}

/// `NW` → `Nw`: the C ABI's variants are CamelCase (cbindgen turns them into
/// `CARC_CORNER_NW`).
fn camel(ident: &str) -> String {
    if ident.len() > 1 && ident.chars().all(|c| c.is_ascii_uppercase()) {
        let mut out = ident[..1].to_string();
        out.push_str(&ident[1..].to_ascii_lowercase());
        out
    } else {
        ident.to_string()
    }
}

/// `text` as `///` lines of at most 100 columns at `indent`.
fn doc_lines(out: &mut String, indent: &str, text: &str) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let width = 100 - indent.len() - 4;
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            writeln!(out, "{indent}/// {line}").unwrap();
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    writeln!(out, "{indent}/// {line}").unwrap();
}

/// The numbers the committed file gives: `(enum, variant, number)`.
fn committed_numbers(committed: &str) -> Vec<(String, String, u32)> {
    let mut out = Vec::new();
    let mut current = None;
    for line in committed.lines() {
        if let Some(rest) = line.strip_prefix("pub enum ") {
            current = rest.split_whitespace().next().map(str::to_string);
        } else if let (Some(e), Some((variant, number))) = (&current, line.trim().split_once(" = "))
        {
            if let Ok(n) = number.trim_end_matches(',').parse() {
                out.push((e.clone(), variant.to_string(), n));
            }
        }
    }
    out
}

/// The file for the current engine; `Err` names a value whose number would change
/// against `committed`.
fn render(committed: &str) -> Result<String, String> {
    let mut out = String::new();
    out.push_str(
        "//! The C ABI's enums that number the values of an engine enum, with the engine's\n\
         //! documentation of each value and the conversion from the engine's type (stable\n\
         //! numbers: new values come last), the supply struct and the symbol bits.\n\
         //!\n\
         //! Generated by `ffi/src/tests/engine_types.rs` from the engine's name tables; do not\n\
         //! edit. Regenerate with: `CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib\n\
         //! tests::header`.\n\n\
         use carcassonne_core::action::ActionKind;\n\
         use carcassonne_core::config::Figures;\n\
         use carcassonne_core::rules::bcb::{Axis, BazaarChoice};\n\
         use carcassonne_core::rules::count::{Quarter, QuarterStep};\n\
         use carcassonne_core::rules::hills_sheep::{FlockChoice, SheepToken};\n\
         use carcassonne_core::rules::state::{ColumnKind, Rows};\n\
         use carcassonne_core::tiles::FeatureKind;\n\
         use carcassonne_core::{Corner, Figure, Phase, ReturnCause, ScoreKind};\n",
    );
    let before = committed_numbers(committed);
    for m in mirrors() {
        out.push('\n');
        doc_lines(&mut out, "", &format!("{} Stable numbers.", m.doc));
        writeln!(out, "#[repr({})]", m.repr).unwrap();
        out.push_str("#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]\n");
        writeln!(out, "pub enum {} {{", m.name).unwrap();
        for (number, (ident, doc)) in m.values.iter().enumerate() {
            let variant = camel(ident);
            if let Some((_, _, old)) = before.iter().find(|(e, v, _)| e == m.name && *v == variant)
            {
                if *old != number as u32 {
                    return Err(format!(
                        "{}::{variant} would change from {old} to {number}: add new values of {} \
                         at the end",
                        m.name, m.engine
                    ));
                }
            }
            doc_lines(&mut out, "    ", doc);
            writeln!(out, "    {variant} = {number},").unwrap();
        }
        out.push_str("}\n\n");
        writeln!(out, "impl From<{}> for {} {{", m.engine, m.name).unwrap();
        writeln!(out, "    fn from(value: {}) -> {} {{", m.engine, m.name).unwrap();
        out.push_str("        match value {\n");
        for (ident, _) in &m.values {
            writeln!(
                out,
                "            {}::{ident} => {}::{},",
                m.engine,
                m.name,
                camel(ident)
            )
            .unwrap();
        }
        out.push_str("        }\n    }\n}\n");
    }
    supply_struct(&mut out);
    symbol_constants(&mut out);
    Ok(out)
}

/// `CARC_SYMBOL_<NAME>`: the bit of each symbol of [`Symbols::ALL`], as the engine sets it.
fn symbol_constants(out: &mut String) {
    for (i, (name, flag, doc)) in Symbols::ALL.iter().enumerate() {
        out.push('\n');
        if i == 0 {
            out.push_str("/// `carc_tile_symbols` (bits):\n///\n");
        }
        doc_lines(out, "", doc);
        // `goods:wine` is `CARC_SYMBOL_GOODS_WINE`.
        let constant = name.to_ascii_uppercase().replace(':', "_");
        writeln!(
            out,
            "pub const CARC_SYMBOL_{constant}: u32 = {};",
            flag.bits()
        )
        .unwrap();
    }
}

/// `CarcSupply`: one byte per key of [`Figures`], in key order, and the conversion.
fn supply_struct(out: &mut String) {
    let n = Figures::KEYS.len();
    out.push('\n');
    doc_lines(
        out,
        "",
        &format!(
            "A player's holdings ({n} bytes, blittable; `carc_game_supply`): figures not on the \
             board, and tiles of the expansions not yet placed."
        ),
    );
    out.push_str("#[repr(C)]\n#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]\n");
    out.push_str("pub struct CarcSupply {\n");
    for (field, doc) in Figures::FIELDS.iter().zip(Figures::DOCS) {
        doc_lines(out, "    ", doc);
        writeln!(out, "    pub {field}: u8,").unwrap();
    }
    out.push_str("}\n\nimpl From<Figures> for CarcSupply {\n");
    out.push_str("    fn from(value: Figures) -> CarcSupply {\n        CarcSupply {\n");
    for field in Figures::FIELDS {
        writeln!(out, "            {field}: value.{field},").unwrap();
    }
    out.push_str("        }\n    }\n}\n");
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/engine_types.rs")
}

/// Rewrites the committed file (called by the header's test when blessing, before it
/// runs cbindgen over the crate).
pub(super) fn bless() {
    let committed = std::fs::read_to_string(path()).unwrap_or_default();
    let generated = render(&committed).unwrap_or_else(|e| panic!("{e}"));
    if generated != committed {
        std::fs::write(path(), generated).expect("write ffi/src/engine_types.rs");
    }
}

#[test]
fn committed_engine_types_are_current() {
    let committed = std::fs::read_to_string(path()).unwrap_or_default();
    let generated = render(&committed).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        committed == generated,
        "ffi/src/engine_types.rs is not what the engine's enums give; regenerate with: \
         CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib tests::header"
    );
}

#[test]
fn renumbering_a_committed_value_is_refused() {
    let committed = "pub enum CarcFigure {\n    Follower = 0,\n    Abbot = 7,\n}\n";
    let error = render(committed).unwrap_err();
    assert!(
        error.contains("CarcFigure::Abbot would change from 7 to 1"),
        "{error}"
    );
}

#[test]

fn numbers_follow_the_engine_order() {
    assert_eq!(crate::CarcPhase::from(Phase::Abbey) as u32, 0);
    assert_eq!(
        crate::CarcFigure::from(Figure::Barn) as u8,
        Figure::Barn as u8
    );
    for (i, k) in ActionKind::ALL.iter().enumerate() {
        assert_eq!(crate::CarcActionKind::from(*k) as usize, i);
    }
    assert_eq!(crate::CarcScoreKind::from(ScoreKind::Shrine) as u8, 12);
}
