//! The generated parts of `docs/observations.md`: the sizes and layout version, the
//! blocks of flat ids, the planes, the globals, the rows that follow a pending focus,
//! and the sizes of the presets, all from the schema ([`mod@super::schema`]).
//!
//! Each generated part sits between two markers in the document:
//!
//! ```text
//! <!-- generated: planes -->
//! ...
//! <!-- end: planes -->
//! ```
//!
//! [`update`] rewrites them; the binary `gen-observation-docs` (in this crate) writes
//! the document, or with `--check` fails when it is out of date; the test
//! `session/tests/schema.rs` checks it too.

use super::schema::{
    id_offset, plane_after_turn, schema, Compact, Dim, Live, Row, Schema, SECTIONS,
};
use super::{layout_version_hex, EncoderSpec, Layout, Preset, LAYOUT_VERSION};
use carcassonne::config::{Figures, GameConfig};
use carcassonne::tiles::{catalogue, TileSet};
use std::fmt::Write as _;

/// The names of the generated parts, in the order they appear.
pub const PARTS: [&str; 6] = ["sizes", "ids", "planes", "globals", "focus", "presets"];

/// The text of the generated part `name` (one of [`PARTS`]).
pub fn part(name: &str) -> Option<String> {
    Some(match name {
        "sizes" => sizes(),
        "ids" => ids(),
        "planes" => planes(),
        "globals" => globals(),
        "focus" => focus(),
        "presets" => presets(),
        _ => return None,
    })
}

/// `doc` with every generated part rewritten; an error names a part whose markers are
/// missing or out of order.
pub fn update(doc: &str) -> Result<String, String> {
    let mut out = doc.to_string();
    for name in PARTS {
        let begin = format!("<!-- generated: {name} -->\n");
        let end = format!("<!-- end: {name} -->");
        let b = out
            .find(&begin)
            .ok_or_else(|| format!("the marker `{}` is missing", begin.trim_end()))?
            + begin.len();
        let e = out[b..]
            .find(&end)
            .ok_or_else(|| format!("the marker `{end}` is missing after its start"))?
            + b;
        let text = part(name).expect("a known part");
        out.replace_range(b..e, &text);
    }
    Ok(out)
}

fn sizes() -> String {
    let spec = EncoderSpec::default();
    let (c, g, a, w) = (
        spec.num_planes(),
        spec.num_globals(),
        spec.num_actions(),
        spec.window as usize,
    );
    format!(
        "With the default window `W = {w}`: `C = {c}` planes, `G = {g}` globals, `A = {a}` flat \
         action ids; an observation is `{c}·{w}·{w} = {}` bytes of planes plus `{g}·4 = {}` \
         bytes of globals. Tile kinds: {} (the catalogue's).\n\n\
         **Layout version `{}`** (16 hexadecimal digits; `{}` in decimal): a hash of \
         every table below (names, order, indices, when each row is in play, what each \
         preset does with it) and of the encoding's revision. Python gives it as the \
         hexadecimal string `carcassonne.LAYOUT_VERSION` and \
         `encoder_info()[\"layout_version\"]`, the C ABI as the number \
         `carc_layout_version()` and the header's `CARC_LAYOUT_VERSION` (`0x{}`, \
         printed in decimal by `printf(\"%\" PRIu64, ...)`). A model trained on one version \
         cannot read another's observations.\n",
        c * w * w,
        g * 4,
        catalogue().len(),
        layout_version_hex(),
        LAYOUT_VERSION,
        layout_version_hex()
    )
}

/// `k·W^p` in the documentation's notation.
fn term(k: usize, p: u32) -> String {
    let w = match p {
        0 => String::new(),
        1 => "W".into(),
        _ => format!("W{}", if p == 2 { "²" } else { "³" }),
    };
    match (k, p) {
        (_, 0) => k.to_string(),
        (1, _) => w,
        _ => format!("{k}·{w}"),
    }
}

/// The size of an index as a term: `W` for a window index, else its length.
fn dim_size(d: Dim) -> (usize, u32) {
    match d.fixed_len() {
        Some(n) => (n, 0),
        None => (1, 1),
    }
}

/// The formula of an entry's id inside a block: `rot·W² + wy·W + wx`.
fn entry_formula(dims: &[Dim]) -> String {
    let mut parts = Vec::new();
    for (i, d) in dims.iter().enumerate() {
        let (k, p) = dims[i + 1..]
            .iter()
            .map(|d| dim_size(*d))
            .fold((1, 0), |(k, p), (k2, p2)| (k * k2, p + p2));
        parts.push(match (k, p) {
            (1, 0) => d.var().to_string(),
            (1, _) => format!("{}·{}", d.var(), term(1, p)),
            (_, 0) => format!("{k}·{}", d.var()),
            _ => format!("{k}·{}·{}", d.var(), term(1, p)),
        });
    }
    parts.join(" + ")
}

fn live_text(live: Live) -> String {
    match live {
        Live::Always => "always".into(),
        l => l.describe(),
    }
}

fn compact_text(c: Compact) -> String {
    match c {
        Compact::Keep => String::new(),
        Compact::Drop => "left out".into(),
        Compact::KeepIf(l) => format!("kept when {}", l.describe()),
        Compact::SumOpponents => "own, and opponents summed".into(),
    }
}

/// The entries of the small indices of a row (`mover: follower, abbot, ...`).
fn entry_names(dims: &[Dim]) -> String {
    let spec = EncoderSpec::default();
    dims.iter()
        .filter(|d| {
            matches!(
                d,
                Dim::Side
                    | Dim::Rotation
                    | Dim::Axes(..)
                    | Dim::Figure
                    | Dim::Phase
                    | Dim::Set
                    | Dim::Quarter
                    | Dim::Corner
                    | Dim::QuarterMover
                    | Dim::BridgeVariant
                    | Dim::Choice
                    | Dim::Token
                    | Dim::FlockChoice
            )
        })
        .map(|d| {
            let labels: Vec<String> = (0..d.len(spec)).map(|i| d.label(i)).collect();
            format!("{}: {}", d.var(), labels.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn ids() -> String {
    let schema = Schema::new(EncoderSpec::default());
    let mut t = String::from(
        "| block | first id (`W = 32`) | ids | id of an entry | what it does | entries | in play |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for b in &schema.ids {
        let first = id_offset(b.name);
        let start = match (first.per_cell, first.fixed) {
            (0, f) => f.to_string(),
            (c, 0) => term(c as usize, 2),
            (c, f) => format!("{} + {f}", term(c as usize, 2)),
        };
        let (k, p) = b
            .row
            .dims
            .iter()
            .map(|d| dim_size(*d))
            .fold((1, 0), |(k, p), (k2, p2)| (k * k2, p + p2));
        let entry = entry_formula(b.row.dims);
        let id = match (start.as_str(), entry.is_empty()) {
            (s, true) => s.to_string(),
            ("0", false) => entry,
            (s, false) => format!("{s} + {entry}"),
        };
        let _ = writeln!(
            t,
            "| `{}` | {} | {} | `{id}` | {} | {} | {} |",
            b.name.to_uppercase(),
            if b.start == 0 {
                start.clone()
            } else {
                format!("{start} ({})", b.start)
            },
            term(k, p),
            b.meaning,
            entry_names(b.row.dims),
            live_text(b.row.live),
        );
    }
    t
}

fn planes() -> String {
    let schema = schema();
    let mut t = String::from(
        "| index | name | part | meaning | in play | `compact` | a quarter turn makes it |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for p in &schema.planes {
        let turned = plane_after_turn(p.index);
        let turns = if turned == p.index {
            String::new()
        } else {
            format!("`{}`", schema.planes[turned].name)
        };
        let _ = writeln!(
            t,
            "| {} | `{}` | {} | {} | {} | {} | {turns} |",
            p.index,
            p.name,
            p.section,
            p.meaning,
            live_text(p.row.live),
            compact_text(p.row.compact),
        );
    }
    t
}

fn shape_text(row: &Row, shape: &[usize]) -> String {
    if shape.is_empty() {
        return "1".into();
    }
    let sizes: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
    let names: Vec<&str> = row.dims.iter().map(|d| d.name()).collect();
    format!("{} ({})", sizes.join(" × "), names.join(" × "))
}

fn globals() -> String {
    let schema = schema();
    let mut t = String::from(
        "| index | name | shape | part | meaning | in play | `compact` |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for b in &schema.globals {
        let range = if b.len == 1 {
            b.start.to_string()
        } else {
            format!("{}..{}", b.start, b.start + b.len)
        };
        let mut meaning = b.meaning.to_string();
        let names = entry_names(b.row.dims);
        if !names.is_empty() {
            let _ = write!(meaning, " ({names})");
        }
        let _ = writeln!(
            t,
            "| {range} | `{}` | {} | {} | {meaning} | {} | {} |",
            b.name,
            shape_text(b.row, &b.shape),
            b.section,
            live_text(b.row.live),
            compact_text(b.row.compact),
        );
    }
    t
}

fn focus() -> String {
    let mut planes = Vec::new();
    let mut globals = Vec::new();
    for s in SECTIONS {
        planes.extend(s.planes.iter().filter(|r| r.follows_focus).map(|r| r.name));
        globals.extend(s.globals.iter().filter(|r| r.follows_focus).map(|r| r.name));
    }
    let list = |v: Vec<&str>| {
        v.iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Between the two steps of a two-step decision only these rows change: the plane{} {} \
         and the globals {}. Every other plane and global, the legal placements \
         (`legal-placement`) and the squares whose `CELL` id starts a legal action \
         (`cell-target`) included, is the same in both steps.\n",
        if planes.len() == 1 { "" } else { "s" },
        list(planes),
        list(globals)
    )
}

/// The configurations of the preset size table.
fn table_configs() -> Vec<(&'static str, GameConfig)> {
    use TileSet::*;
    let config = |players: u8, sets: &[TileSet], abbot: u8| {
        let mut c = GameConfig::new(players);
        c.sets = sets.to_vec();
        c.figures = Figures::default_for(sets);
        c.figures.abbot = abbot;
        c
    };
    let five = [Base, River1, River2, PrincessDragon, AbbeyMayor];
    vec![
        ("base, 2 players", config(2, &[Base], 0)),
        ("base, 4 players", config(4, &[Base], 0)),
        ("base + abbot, 2 players", config(2, &[Base], 1)),
        (
            "base + River I + II, 2 players",
            config(2, &[Base, River1, River2], 0),
        ),
        (
            "base + Princess & Dragon, 3 players",
            config(3, &[Base, PrincessDragon], 0),
        ),
        (
            "base + Abbey & Mayor, 2 players",
            config(2, &[Base, AbbeyMayor], 0),
        ),
        ("the five sets + abbot, 4 players", config(4, &five, 1)),
        ("every set + abbot, 6 players", config(6, &TileSet::ALL, 1)),
    ]
}

fn presets() -> String {
    let mut t = String::from(
        "| configuration | W | `full` | `in-play` | `compact` |\n|---|---|---|---|---|\n",
    );
    for (name, c) in table_configs() {
        for window in [32u16, 24] {
            let spec = EncoderSpec::new(window).expect("a valid window");
            let cells: Vec<String> = Preset::ALL
                .iter()
                .map(|p| {
                    let l = Layout::new(spec, *p, &c);
                    let bytes = l.planes_len() + 4 * l.num_globals() + l.num_actions();
                    format!(
                        "{} / {} / {} / {:.1}",
                        l.num_planes(),
                        l.num_globals(),
                        l.num_actions(),
                        bytes as f64 / 1024.0
                    )
                })
                .collect();
            let _ = writeln!(t, "| {name} | {window} | {} |", cells.join(" | "));
        }
    }
    t
}
