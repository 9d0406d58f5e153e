//! The observation schema: every plane, global block and block of flat action ids,
//! declared once.
//!
//! Each part of the game declares its own rows in its own file ([`Section`]: the base
//! game in `base.rs`, each expansion in the file named after it) together with the code
//! that writes them. Everything else is derived from these declarations:
//!
//! * the indices: [`plane_index`], [`global_offset`], [`catalogue_block`] and
//!   [`id_offset`] are `const fn`s that find a row by name at compile time, so that a
//!   writer's constants cannot drift from the table;
//! * the tables of planes, globals and id blocks ([`Schema`], [`schema`]), which the
//!   presets ([`super::Layout`]), the documentation ([`super::docs`]) and the run-time
//!   introspection of Python and the C ABI read;
//! * which rows a configuration can use ([`Live`], per row and per entry of each index,
//!   [`Dim`]) and what the `compact` preset does with them ([`Compact`]);
//! * how a row turns with the board (from its indices: [`Dim::turn`]);
//! * the layout version [`LAYOUT_VERSION`], a hash of all of the above.
//!
//! # Order and flattening
//!
//! Planes are numbered section by section in the order of [`SECTIONS`], rows in the
//! order declared. Globals: first every block whose size is fixed, section by section,
//! then every block indexed by the tile catalogue (whose size depends on it), section by
//! section. Id blocks: section by section, then `PASS`, the last id.
//!
//! A row with several indices is flattened in row-major order: the last index varies
//! fastest. The 2-D global block `supply` (relative seat × figure) holds the supply of
//! figure `f` of relative seat `r` at `supply + 5·r + f`; `quarter-figures` (relative
//! seat × quarter) the figures of seat `r` in quarter `q` at `quarter-figures + 4·r + q`;
//! a plane group such as `figures` (relative seat × figure) names its planes
//! `figures.rel{r}.{figure}` in the same order.
//!
//! # Adding to the schema
//!
//! An expansion that adds planes, globals or ids declares a [`Section`] in its own file
//! and adds it to [`SECTIONS`]; its writer reads the game and writes its rows. Adding,
//! removing, renaming or reordering a row changes [`schema_fingerprint`]: the test
//! `encode_schema` then asks for the new [`LAYOUT_VERSION`]. A change in what a writer
//! writes without a change of the tables is caught by the golden observation traces
//! (`session/tests/data/observation-traces.json`); it raises [`REVISION`].

use super::observe::Writer;
use super::{Channel, EncoderSpec, BIDS, BRIDGE_VARIANTS, SLOT_COUNT};
use carcassonne::config::{Figure, GameConfig, MAX_PLAYERS};
use carcassonne::game::Phase;
use carcassonne::names::same_name;
use carcassonne::rules::bcb::BazaarChoice;
use carcassonne::rules::count::Quarter;
use carcassonne::rules::hills_sheep::{FlockChoice, SheepToken};
use carcassonne::tiles::{catalogue, FeatureKind, Symbols, Terrain, TileSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The layout version: [`schema_fingerprint`] of this build, as a constant (the C
/// header carries it as `CARC_LAYOUT_VERSION`). A test checks that it equals the
/// fingerprint, so that no change of the schema goes without a new version.
pub const LAYOUT_VERSION: u64 = 0x6619_7790_8506_5418;

/// Raised when what a writer writes changes while the tables stay the same (the golden
/// observation traces then differ); part of the fingerprint.
pub const REVISION: u32 = 2;

// ----- indices ---------------------------------------------------------------------------

/// One index of a row: what its entries stand for. A row's entries are the product of
/// its indices, flattened in row-major order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// The sides N, E, S, W of the square; a quarter turn of the board moves each to the
    /// next clockwise.
    Side,
    /// Rotations `rot0`..`rot3` (quarter turns clockwise); a quarter turn adds one.
    Rotation,
    /// Two axes of the square (north–south first), named by the row; a quarter turn
    /// swaps them.
    Axes(&'static str, &'static str),
    /// Relative seats `rel0`..`rel5` (0 is the observing player, 1 the next in turn
    /// order, ...); those past the number of players are padding.
    Seat,
    /// Figure kinds, in the order of `Figure::ALL`.
    Figure,
    /// Decision phases, in the order of `Phase::ALL`.
    Phase,
    /// Tile sets, in the order of the set keys (`TileSet::ALL`).
    Set,
    /// Quarters of the City of Carcassonne (castle, blacksmith, cathedral, market).
    Quarter,
    /// Kinds of the tile catalogue, in catalogue order (their number depends on it).
    TileKind,
    /// Rows `wy` of the window (`W` of them).
    WindowRow,
    /// Columns `wx` of the window (`W` of them).
    WindowColumn,
    /// Feature slots of a tile (see [`super::slot`]).
    Slot,
    /// Channels of a slot (see [`Channel`]).
    Channel,
    /// Corners of a tile: NW, NE, SE, SW.
    Corner,
    /// What enters or moves in the City of Carcassonne: a follower, the abbot, the mayor,
    /// the wagon, or the count.
    QuarterMover,
    /// The bridge of a placement that needs one: on the tile (NS, WE), or on the
    /// neighbour at side N, E, S, W.
    BridgeVariant,
    /// Places of the bazaar's offer, in draw order (one per seat).
    OfferPlace,
    /// Bids in points, 0 to 30.
    Bid,
    /// Buy or sell the outbid tile.
    Choice,
    /// Tokens of the sheep bag: one to four sheep, the wolf (HS1).
    Token,
    /// Grow or herd a flock (HS2).
    FlockChoice,
}

/// The length of `dims`' product when no index depends on the window or the catalogue.
const fn fixed_product(dims: &[Dim]) -> Option<usize> {
    let mut n = 1;
    let mut i = 0;
    while i < dims.len() {
        match dims[i].fixed_len() {
            Some(k) => n *= k,
            None => return None,
        }
        i += 1;
    }
    Some(n)
}

impl Dim {
    /// The number of entries when it does not depend on the window or the catalogue.
    pub const fn fixed_len(self) -> Option<usize> {
        Some(match self {
            Dim::Side | Dim::Rotation | Dim::Quarter | Dim::Corner => 4,
            Dim::Axes(..) | Dim::Choice | Dim::FlockChoice => 2,
            Dim::Token => SheepToken::ALL.len(),
            Dim::Seat | Dim::OfferPlace => MAX_PLAYERS,
            Dim::Figure => Figure::ALL.len(),
            Dim::Phase => Phase::ALL.len(),
            Dim::Set => TileSet::ALL.len(),
            Dim::Slot => SLOT_COUNT,
            Dim::Channel => Channel::ALL.len(),
            Dim::QuarterMover => super::ids::QUARTER_FIGURES.len() + 1,
            Dim::BridgeVariant => BRIDGE_VARIANTS,
            Dim::Bid => BIDS,
            Dim::TileKind | Dim::WindowRow | Dim::WindowColumn => return None,
        })
    }

    /// The number of entries for the window of `spec`.
    pub fn len(self, spec: EncoderSpec) -> usize {
        match self {
            Dim::TileKind => catalogue().len(),
            Dim::WindowRow | Dim::WindowColumn => spec.window as usize,
            d => d.fixed_len().expect("a fixed index"),
        }
    }

    /// What the index stands for, in a few words.
    pub const fn name(self) -> &'static str {
        match self {
            Dim::Side => "side",
            Dim::Rotation => "rotation",
            Dim::Axes(..) => "axis",
            Dim::Seat => "relative seat",
            Dim::Figure => "figure",
            Dim::Phase => "phase",
            Dim::Set => "set",
            Dim::Quarter => "quarter",
            Dim::TileKind => "tile kind",
            Dim::WindowRow => "window row",
            Dim::WindowColumn => "window column",
            Dim::Slot => "slot",
            Dim::Channel => "channel",
            Dim::Corner => "corner",
            Dim::QuarterMover => "figure or count",
            Dim::BridgeVariant => "bridge",
            Dim::OfferPlace => "offer place",
            Dim::Bid => "bid",
            Dim::Choice => "choice",
            Dim::Token => "token",
            Dim::FlockChoice => "flock choice",
        }
    }

    /// The variable the documentation's id formulas use for it (`rot`, `wy`, `slot`, ...).
    pub const fn var(self) -> &'static str {
        match self {
            Dim::Side => "side",
            Dim::Rotation => "rot",
            Dim::Axes(..) => "axis",
            Dim::Seat => "seat",
            Dim::Figure => "figure",
            Dim::Phase => "phase",
            Dim::Set => "set",
            Dim::Quarter => "quarter",
            Dim::TileKind => "kind",
            Dim::WindowRow => "wy",
            Dim::WindowColumn => "wx",
            Dim::Slot => "slot",
            Dim::Channel => "channel",
            Dim::Corner => "corner",
            Dim::QuarterMover => "mover",
            Dim::BridgeVariant => "variant",
            Dim::OfferPlace => "place",
            Dim::Bid => "bid",
            Dim::Choice => "choice",
            Dim::Token => "token",
            Dim::FlockChoice => "flock",
        }
    }

    /// The label of entry `i` (`N`, `rot1`, `rel2`, `wagon`, `BASE-D`, `cloister`, ...).
    pub fn label(self, i: usize) -> String {
        const SIDES: [&str; 4] = ["N", "E", "S", "W"];
        match self {
            Dim::Side => SIDES[i].into(),
            Dim::Rotation => format!("rot{i}"),
            Dim::Axes(a, b) => [a, b][i].into(),
            Dim::Seat => format!("rel{i}"),
            Dim::Figure => Figure::ALL[i].name().into(),
            Dim::Phase => Phase::ALL[i].name().into(),
            Dim::Set => TileSet::ALL[i].name().into(),
            Dim::Quarter => Quarter::ALL[i].name().into(),
            Dim::TileKind => catalogue()
                .kinds()
                .nth(i)
                .map_or_else(String::new, |k| k.id().into()),
            Dim::WindowRow | Dim::WindowColumn | Dim::Bid => i.to_string(),
            Dim::Slot => super::slot::name(i as u8),
            Dim::Channel => Channel::ALL[i].name().into(),
            Dim::Corner => ["NW", "NE", "SE", "SW"][i].into(),
            Dim::QuarterMover => match super::ids::QUARTER_FIGURES.get(i) {
                Some(f) => f.name().into(),
                None => "count".into(),
            },
            Dim::BridgeVariant => ["tile-NS", "tile-WE", "N", "E", "S", "W"][i].into(),
            Dim::OfferPlace => format!("place{i}"),
            Dim::Choice => BazaarChoice::ALL[i].name().into(),
            Dim::Token => SheepToken::ALL[i].name().into(),
            Dim::FlockChoice => FlockChoice::ALL[i].name().into(),
        }
    }

    /// The entry that entry `i` becomes after one clockwise quarter turn of the board
    /// (itself for an index that does not turn). Id blocks turn as
    /// [`super::rotate_action_id`] says, which this does not describe.
    pub const fn turn(self, i: usize) -> usize {
        match self {
            Dim::Side | Dim::Rotation => (i + 1) % 4,
            Dim::Axes(..) => i ^ 1,
            _ => i,
        }
    }

    /// Whether the index turns with the board.
    pub const fn turns(self) -> bool {
        matches!(self, Dim::Side | Dim::Rotation | Dim::Axes(..))
    }

    /// Whether entry `i` can be used in a game of the configuration `play` describes:
    /// seats in the game, figures, sets and tile kinds in play, the slots and channels
    /// that its figures and rules use, the phases of Hills & Sheep with that set (the
    /// phases of the sets before it are always kept, so that their layouts did not
    /// change); every entry of the other indices.
    pub fn live(self, i: usize, play: &InPlay) -> bool {
        match self {
            Dim::Seat => i < play.players,
            Dim::Phase => match Phase::ALL[i] {
                Phase::Flock | Phase::DrawToken => play.has(TileSet::HillsSheep),
                _ => true,
            },
            Dim::Figure => play.figures[i],
            Dim::Set => play.has(TileSet::ALL[i]),
            Dim::TileKind => play.kinds.get(i) == Some(&true),
            Dim::Slot => super::ids::slot_live(i as u8).holds(play),
            Dim::Channel => Channel::ALL[i].live().holds(play),
            _ => true,
        }
    }
}

// ----- when a row is live ------------------------------------------------------------------

/// When a row can be non-zero (planes, globals) or offered (ids) in a game of a
/// configuration: the `in-play` preset keeps a row only when it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Live {
    /// In every game.
    Always,
    /// When the set is in play.
    Set(TileSet),
    /// When the configuration gives the players this figure.
    Figure(Figure),
    /// When the configuration gives the players abbey tiles (AM1).
    Abbeys,
    /// When farmers are in play (rule `farmers`).
    Farmers,
    /// When some decision names a square with a `CELL` id: when any section's
    /// [`Section::names_squares`] holds.
    Cells,
    /// When a tile kind in play shows the symbol.
    Symbol(Symbols),
    /// When a tile kind in play has a side of this terrain.
    Terrain(Terrain),
    /// When a tile kind in play has a feature of this kind.
    Feature(FeatureKind),
    /// When a tile kind in play has pennants.
    Pennants,
    /// When any of these holds.
    Any(&'static [Live]),
    /// When all of these hold.
    All(&'static [Live]),
}

impl Live {
    /// Whether it holds for the configuration `play` describes.
    pub fn holds(self, play: &InPlay) -> bool {
        match self {
            Live::Always => true,
            Live::Set(s) => play.has(s),
            Live::Figure(f) => play.figures[f.index()],
            Live::Abbeys => play.abbeys,
            Live::Farmers => play.farmers,
            Live::Cells => SECTIONS.iter().any(|s| s.names_squares.holds(play)),
            Live::Symbol(s) => play.symbols & s.bits() == s.bits(),
            Live::Terrain(t) => play.terrains & (1 << t as u8) != 0,
            Live::Feature(k) => play.features & (1 << k as u8) != 0,
            Live::Pennants => play.pennants,
            Live::Any(list) => list.iter().any(|l| l.holds(play)),
            Live::All(list) => list.iter().all(|l| l.holds(play)),
        }
    }

    /// How the documentation says it (`with Princess & the Dragon`, ...); empty for
    /// [`Live::Always`].
    pub fn describe(self) -> String {
        match self {
            Live::Always => String::new(),
            Live::Set(s) => format!("set `{}`", s.name()),
            Live::Figure(f) => format!("figure `{}`", f.name()),
            Live::Abbeys => "abbey tiles".into(),
            Live::Farmers => "farmers".into(),
            Live::Cells => {
                let parts: Vec<String> = SECTIONS
                    .iter()
                    .map(|s| s.names_squares)
                    .filter(|l| *l != Live::Any(&[]))
                    .map(Live::describe)
                    .collect();
                format!("a decision names a square ({})", parts.join(", "))
            }
            Live::Symbol(s) => {
                let name = Symbols::ALL
                    .iter()
                    .find(|(_, f, _)| *f == s)
                    .map_or("?", |(n, _, _)| n);
                format!("symbol `{name}`")
            }
            Live::Terrain(t) => format!("{} sides", format!("{t:?}").to_lowercase()),
            Live::Feature(k) => format!("feature `{}`", k.name()),
            Live::Pennants => "pennants".into(),
            Live::Any(list) => list
                .iter()
                .map(|l| l.describe())
                .collect::<Vec<_>>()
                .join(" or "),
            Live::All(list) => list
                .iter()
                .map(|l| l.describe())
                .collect::<Vec<_>>()
                .join(" and "),
        }
    }
}

/// What the `compact` preset does with a row that the `in-play` preset keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Compact {
    /// Keeps it.
    Keep,
    /// Leaves it out: constant for a configuration, or raw board coordinates.
    Drop,
    /// Keeps it only when this holds.
    KeepIf(Live),
    /// A row indexed by relative seat first: keeps the observing player's entries
    /// (`own`) and the sum of every opponent's (`opponents`).
    SumOpponents,
}

/// How the observation writer fills a plane row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fill {
    /// The section's writer writes it.
    Writer,
    /// 1 on every tile that shows the symbol (written by the tile loop of the base
    /// section).
    Symbol(Symbols),
    /// Indexed by side: 1 where the side of the tile is of this terrain (written by the
    /// tile loop of the base section).
    SideTerrain(Terrain),
}

// ----- rows and sections -------------------------------------------------------------------

/// One declared row: a plane or a group of planes, a global block, or a block of flat
/// action ids.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// Name (`city`, `supply`, `tile`); the planes of a group are named
    /// `{name}.{label}.{label}`, one label per index.
    pub name: &'static str,
    /// The indices (none for a single plane, global or id).
    pub dims: &'static [Dim],
    /// What an entry holds (one sentence, the same for every entry).
    pub meaning: &'static str,
    /// When the row can be used.
    pub live: Live,
    /// What the `compact` preset does with it.
    pub compact: Compact,
    /// How a plane row is written.
    pub fill: Fill,
    /// Whether the row depends on the pending focus of a two-step decision (the only
    /// rows that differ between the two steps; the game does not change).
    pub follows_focus: bool,
}

impl Row {
    /// A row that is live in every game, kept by every preset and written by its
    /// section's writer.
    pub const fn new(name: &'static str, dims: &'static [Dim], meaning: &'static str) -> Row {
        Row {
            name,
            dims,
            meaning,
            live: Live::Always,
            compact: Compact::Keep,
            fill: Fill::Writer,
            follows_focus: false,
        }
    }

    /// A plane that is 1 on every tile showing `symbol`, live when a tile in play shows
    /// it.
    pub const fn symbol(name: &'static str, symbol: Symbols, meaning: &'static str) -> Row {
        Row {
            live: Live::Symbol(symbol),
            fill: Fill::Symbol(symbol),
            ..Row::new(name, &[], meaning)
        }
    }

    /// Planes by side, 1 where the side is `terrain`, live when a tile in play has such
    /// a side.
    pub const fn side_terrain(name: &'static str, terrain: Terrain, meaning: &'static str) -> Row {
        Row {
            live: Live::Terrain(terrain),
            fill: Fill::SideTerrain(terrain),
            ..Row::new(name, &[Dim::Side], meaning)
        }
    }

    /// The row, live only when `live` holds.
    pub const fn live(self, live: Live) -> Row {
        Row { live, ..self }
    }

    /// The row, with what the `compact` preset does with it.
    pub const fn compact(self, compact: Compact) -> Row {
        Row { compact, ..self }
    }

    /// The row, marked as depending on the pending focus.
    pub const fn follows_focus(self) -> Row {
        Row {
            follows_focus: true,
            ..self
        }
    }

    /// Its number of entries when no index depends on the window or the catalogue.
    pub const fn fixed_len(&self) -> Option<usize> {
        fixed_product(self.dims)
    }

    /// Its number of entries for the window of `spec`.
    pub fn len(&self, spec: EncoderSpec) -> usize {
        self.dims.iter().map(|d| d.len(spec)).product()
    }

    /// Whether it is indexed by the tile catalogue (its size depends on it).
    pub const fn by_catalogue(&self) -> bool {
        let mut i = 0;
        while i < self.dims.len() {
            if matches!(self.dims[i], Dim::TileKind) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// Whether its size depends on the window.
    pub const fn by_window(&self) -> bool {
        let mut i = 0;
        while i < self.dims.len() {
            if matches!(self.dims[i], Dim::WindowRow | Dim::WindowColumn) {
                return true;
            }
            i += 1;
        }
        false
    }
}

/// The rows one part of the game declares, and the code that writes them.
#[derive(Copy, Clone)]
pub struct Section {
    /// Its key: `base`, or the key of the set that brings it (`river` covers both
    /// rivers).
    pub key: &'static str,
    /// How the documentation titles it.
    pub title: &'static str,
    /// Its planes and plane groups, in order.
    pub planes: &'static [Row],
    /// Its global blocks, in order.
    pub globals: &'static [Row],
    /// Its blocks of flat action ids, in order.
    pub ids: &'static [Row],
    /// When a decision of this part of the game names a square with a `CELL` id (an
    /// abbey hole, a dragon step, the focus tile of a two-step decision).
    pub names_squares: Live,
    /// Writes the section's rows whose [`Fill`] is [`Fill::Writer`] (the buffers are
    /// zero when it starts).
    pub write: fn(&mut Writer<'_>),
}

impl std::fmt::Debug for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Section").field("key", &self.key).finish()
    }
}

/// Every section, in layout order. A new expansion adds its section here.
pub const SECTIONS: &[&Section] = &[
    &super::base::SECTION,
    &super::river::SECTION,
    &super::abbey_mayor::SECTION,
    &super::princess_dragon::SECTION,
    &super::count::SECTION,
    &super::king_robber::SECTION,
    &super::cult::SECTION,
    &super::bcb::SECTION,
    &super::tower::SECTION,
    &super::traders_builders::SECTION,
    &super::hills_sheep::SECTION,
];

/// The last block of ids: `PASS`.
pub const PASS: Row = Row::new(
    "pass",
    &[],
    "deploy nothing, decline the abbey, the princess, a wagon move, a move of the City, a castle, a raise or a capture (TW3), or discard a tile that fits only with a bridge (BR2)",
);

// ----- compile-time lookups --------------------------------------------------------------

/// What [`walk`] counts.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Walk {
    /// Planes: every plane row has a fixed size.
    Planes,
    /// Fixed-size global blocks, by size.
    FixedGlobals,
    /// Global blocks indexed by the catalogue, one each.
    CatalogueBlocks,
}

/// Walks the rows `what` counts, in layout order, at compile time: the start of the row
/// named `name` and `true`, or (with `name` `None`, or absent) the total and `false`.
const fn walk(what: Walk, name: Option<&str>) -> (usize, bool) {
    let mut at = 0;
    let mut s = 0;
    while s < SECTIONS.len() {
        let rows = match what {
            Walk::Planes => SECTIONS[s].planes,
            Walk::FixedGlobals | Walk::CatalogueBlocks => SECTIONS[s].globals,
        };
        let mut r = 0;
        while r < rows.len() {
            let size = match (what, rows[r].fixed_len()) {
                (Walk::Planes, None) => {
                    panic!("a plane row indexed by the window or the catalogue")
                }
                (Walk::Planes | Walk::FixedGlobals, Some(n)) => Some(n),
                (Walk::CatalogueBlocks, None) => Some(1),
                _ => None,
            };
            if let Some(n) = size {
                if let Some(name) = name {
                    if same_name(rows[r].name, name) {
                        return (at, true);
                    }
                }
                at += n;
            }
            r += 1;
        }
        s += 1;
    }
    (at, false)
}

/// The index of the first plane of the plane row `name` (compile-time lookup; an
/// unknown name fails the build).
pub const fn plane_index(name: &str) -> usize {
    match walk(Walk::Planes, Some(name)) {
        (i, true) => i,
        _ => panic!("no plane row of that name"),
    }
}

/// Number of planes `C`.
pub const PLANE_COUNT: usize = walk(Walk::Planes, None).0;

/// The first index of the fixed-size global block `name` (compile-time lookup; an
/// unknown name, or a block indexed by the catalogue, fails the build).
pub const fn global_offset(name: &str) -> usize {
    match walk(Walk::FixedGlobals, Some(name)) {
        (i, true) => i,
        _ => panic!("no fixed-size global block of that name"),
    }
}

/// Number of globals in fixed-size blocks (they come first).
pub const FIXED_GLOBALS: usize = walk(Walk::FixedGlobals, None).0;

/// The position `k` of the catalogue-indexed global block `name` among those blocks:
/// it starts at `FIXED_GLOBALS + k·K` for a catalogue of `K` kinds (compile-time
/// lookup).
pub const fn catalogue_block(name: &str) -> usize {
    match walk(Walk::CatalogueBlocks, Some(name)) {
        (k, true) => k,
        _ => panic!("no catalogue-indexed global block of that name"),
    }
}

/// The start of the `k`-th global block indexed by the catalogue ([`catalogue_block`]).
#[inline]
pub fn catalogue_offset(k: usize) -> usize {
    FIXED_GLOBALS + k * catalogue().len()
}

/// Number of global blocks indexed by the catalogue.
pub const CATALOGUE_BLOCKS: usize = walk(Walk::CatalogueBlocks, None).0;

/// Where a block of ids starts: `per_cell·W² + fixed`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdOffset {
    /// Multiple of `W²`.
    pub per_cell: u32,
    /// Constant part.
    pub fixed: u32,
}

impl IdOffset {
    /// The id for window side `w`.
    #[inline]
    pub const fn at(self, w: u32) -> u32 {
        self.per_cell * w * w + self.fixed
    }
}

/// The size of a block of ids as an [`IdOffset`]: window indices count `W` each (a
/// block has both or neither).
const fn id_size(row: &Row) -> IdOffset {
    let mut cells = 0;
    let mut product = 1;
    let mut i = 0;
    while i < row.dims.len() {
        match row.dims[i].fixed_len() {
            Some(n) => product *= n as u32,
            None => cells += 1,
        }
        i += 1;
    }
    match cells {
        0 => IdOffset {
            per_cell: 0,
            fixed: product,
        },
        2 => IdOffset {
            per_cell: product,
            fixed: 0,
        },
        _ => panic!("an id block has both window indices or neither"),
    }
}

/// The first id of the block `name` (compile-time lookup; `pass` is the last id).
pub const fn id_offset(name: &str) -> IdOffset {
    let mut at = IdOffset {
        per_cell: 0,
        fixed: 0,
    };
    let mut s = 0;
    while s < SECTIONS.len() {
        let rows = SECTIONS[s].ids;
        let mut r = 0;
        while r < rows.len() {
            if same_name(rows[r].name, name) {
                return at;
            }
            let size = id_size(&rows[r]);
            at.per_cell += size.per_cell;
            at.fixed += size.fixed;
            r += 1;
        }
        s += 1;
    }
    if same_name(PASS.name, name) {
        return at;
    }
    panic!("no id block of that name")
}

/// The plane that plane `p` becomes after one clockwise quarter turn of the board (from
/// the turning indices of its row).
pub const fn plane_after_turn(p: usize) -> usize {
    let mut first = 0;
    let mut s = 0;
    while s < SECTIONS.len() {
        let rows = SECTIONS[s].planes;
        let mut r = 0;
        while r < rows.len() {
            let dims = rows[r].dims;
            let n = match fixed_product(dims) {
                Some(n) => n,
                None => panic!("a plane row indexed by the window or the catalogue"),
            };
            if p < first + n {
                // Take the entry apart (last index fastest), turn each index, put it
                // back together.
                let mut rest = p - first;
                let mut stride = n;
                let mut to = 0;
                let mut d = 0;
                while d < dims.len() {
                    let len = match dims[d].fixed_len() {
                        Some(k) => k,
                        None => panic!("unreachable"),
                    };
                    stride /= len;
                    let i = rest / stride;
                    rest %= stride;
                    to += dims[d].turn(i) * stride;
                    d += 1;
                }
                return first + to;
            }
            first += n;
            r += 1;
        }
        s += 1;
    }
    p
}

// ----- what a configuration puts in play ---------------------------------------------------

/// What a configuration puts in play, as far as the encoding is concerned.
#[derive(Clone, Debug)]
pub struct InPlay {
    /// Number of players.
    pub players: usize,
    /// Sets in play.
    pub sets: Vec<TileSet>,
    /// Figures in play, by `Figure::index`.
    pub figures: [bool; Figure::ALL.len()],
    /// Abbey tiles in play.
    pub abbeys: bool,
    /// Farmers in play.
    pub farmers: bool,
    /// Catalogue kinds that can be on the board or in hand.
    pub kinds: Vec<bool>,
    /// Union of those kinds' symbol bits.
    pub symbols: u32,
    /// Union of `1 << terrain` of their sides.
    pub terrains: u8,
    /// Union of `1 << kind` of their features.
    pub features: u8,
    /// Whether one has pennants.
    pub pennants: bool,
}

impl InPlay {
    /// What `config` puts in play.
    pub fn of(config: &GameConfig) -> InPlay {
        let cat = catalogue();
        let mut kinds = vec![false; cat.len()];
        let start = config.start_tile().0;
        let (mut symbols, mut terrains, mut features, mut pennants) = (0u32, 0u8, 0u8, false);
        for kind in cat.kinds() {
            let def = kind.def();
            let in_deck = config.has(def.set) && config.edition.count(kind) > 0;
            let abbey = config.figures.abbey > 0 && def.symbols.contains(Symbols::ABBEY);
            if !(in_deck || abbey || kind == start) {
                continue;
            }
            kinds[kind.index()] = true;
            symbols |= def.symbols.bits();
            for f in &def.features {
                features |= 1 << f.kind as u8;
                pennants |= f.pennants > 0;
            }
            for t in def.edges.iter().flatten() {
                terrains |= 1 << *t as u8;
            }
        }
        InPlay {
            players: config.players as usize,
            sets: config.sets.clone(),
            figures: Figure::ALL.map(|f| config.figures.of(f) > 0),
            abbeys: config.figures.abbey > 0,
            farmers: config.rules.farmers,
            kinds,
            symbols,
            terrains,
            features,
            pennants,
        }
    }

    /// Whether `set` is in play.
    pub fn has(&self, set: TileSet) -> bool {
        self.sets.contains(&set)
    }
}

// ----- the tables, at run time -------------------------------------------------------------

/// One plane of the full encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneInfo {
    /// Index.
    pub index: usize,
    /// Name, e.g. `city.N`, `figures.rel1.wagon`.
    pub name: String,
    /// What a cell holds.
    pub meaning: &'static str,
    /// The row it belongs to.
    pub row: &'static Row,
    /// The section that declares the row.
    pub section: &'static str,
    /// Its entry in each index of the row.
    pub entry: Vec<usize>,
}

/// One block of the full encoding's globals or flat ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// First index (a global, or an id for the window of [`Schema::spec`]).
    pub start: usize,
    /// Number of entries.
    pub len: usize,
    /// Name.
    pub name: &'static str,
    /// What the entries hold.
    pub meaning: &'static str,
    /// The row.
    pub row: &'static Row,
    /// The section that declares the row.
    pub section: &'static str,
    /// Entries per index (row-major: the last index varies fastest).
    pub shape: Vec<usize>,
}

/// The tables of the full encoding for one window.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The window.
    pub spec: EncoderSpec,
    /// Every plane by index.
    pub planes: Vec<PlaneInfo>,
    /// Every global block in index order.
    pub globals: Vec<BlockInfo>,
    /// Every block of flat ids in id order (`pass` last).
    pub ids: Vec<BlockInfo>,
}

/// Every combination of entries of `shape`, last index fastest.
pub(crate) fn entries(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for &n in shape {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                (0..n).map(move |i| {
                    let mut e = prefix.clone();
                    e.push(i);
                    e
                })
            })
            .collect();
    }
    out
}

/// The name of the plane at `entry` of the plane row `row`.
pub(crate) fn plane_name(row: &Row, labels: impl IntoIterator<Item = String>) -> String {
    let mut name = row.name.to_string();
    for label in labels {
        name.push('.');
        name.push_str(&label);
    }
    name
}

impl Schema {
    /// The tables for the window of `spec`.
    pub fn new(spec: EncoderSpec) -> Schema {
        let mut planes = Vec::with_capacity(PLANE_COUNT);
        for s in SECTIONS {
            for row in s.planes {
                let shape: Vec<usize> = row.dims.iter().map(|d| d.len(spec)).collect();
                for entry in entries(&shape) {
                    let labels = row.dims.iter().zip(&entry).map(|(d, &i)| d.label(i));
                    planes.push(PlaneInfo {
                        index: planes.len(),
                        name: plane_name(row, labels),
                        meaning: row.meaning,
                        row,
                        section: s.key,
                        entry,
                    });
                }
            }
        }
        let mut globals = Vec::new();
        let mut start = 0;
        for by_catalogue in [false, true] {
            for s in SECTIONS {
                for row in s
                    .globals
                    .iter()
                    .filter(|r| r.by_catalogue() == by_catalogue)
                {
                    let shape: Vec<usize> = row.dims.iter().map(|d| d.len(spec)).collect();
                    let len = shape.iter().product();
                    globals.push(BlockInfo {
                        start,
                        len,
                        name: row.name,
                        meaning: row.meaning,
                        row,
                        section: s.key,
                        shape,
                    });
                    start += len;
                }
            }
        }
        let mut ids = Vec::new();
        let mut start = 0;
        let blocks = SECTIONS
            .iter()
            .flat_map(|s| s.ids.iter().map(move |r| (s.key, r)))
            .chain([("base", &PASS)]);
        for (section, row) in blocks {
            let shape: Vec<usize> = row.dims.iter().map(|d| d.len(spec)).collect();
            let len = shape.iter().product();
            ids.push(BlockInfo {
                start,
                len,
                name: row.name,
                meaning: row.meaning,
                row,
                section,
                shape,
            });
            start += len;
        }
        Schema {
            spec,
            planes,
            globals,
            ids,
        }
    }

    /// The global block named `name`.
    pub fn global(&self, name: &str) -> Option<&BlockInfo> {
        self.globals.iter().find(|b| b.name == name)
    }

    /// The id block named `name`.
    pub fn id_block(&self, name: &str) -> Option<&BlockInfo> {
        self.ids.iter().find(|b| b.name == name)
    }

    /// The plane named `name` (`city.N`, `occupied`).
    pub fn plane(&self, name: &str) -> Option<&PlaneInfo> {
        self.planes.iter().find(|p| p.name == name)
    }
}

/// The tables of the full encoding for the default window (global offsets and plane
/// indices do not depend on the window; id offsets do).
pub fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| Schema::new(EncoderSpec::default()))
}

// ----- the fingerprint -------------------------------------------------------------------

/// The canonical text the fingerprint hashes: [`REVISION`], every row of every section
/// (kind, name, indices with their labels, liveness, compact rule, fill, focus flag),
/// `PASS`, and the slot and channel names. Meanings are left out: rewording one
/// changes nothing a model sees.
pub fn canonical_text() -> String {
    let spec = EncoderSpec::default();
    let mut t = format!("revision {REVISION}\n");
    let dims = |dims: &[Dim]| {
        dims.iter()
            .map(|d| match d {
                Dim::WindowRow | Dim::WindowColumn => format!("{}[W]", d.name()),
                _ => {
                    let labels: Vec<String> = (0..d.len(spec)).map(|i| d.label(i)).collect();
                    format!("{}[{}]", d.name(), labels.join(","))
                }
            })
            .collect::<Vec<_>>()
            .join(" x ")
    };
    let mut row = |kind: &str, section: &str, r: &Row| {
        let _ = writeln!(
            t,
            "{kind} {section} {} ({}) live={:?} compact={:?} fill={:?} focus={}",
            r.name,
            dims(r.dims),
            r.live,
            r.compact,
            r.fill,
            r.follows_focus
        );
    };
    for s in SECTIONS {
        for r in s.planes {
            row("plane", s.key, r);
        }
        for r in s.globals {
            row("global", s.key, r);
        }
        for r in s.ids {
            row("ids", s.key, r);
        }
    }
    row("ids", "base", &PASS);
    for s in SECTIONS {
        let _ = writeln!(t, "cells {} {:?}", s.key, s.names_squares);
    }
    t
}

/// FNV-1a, 64 bits: a hash that stays the same on every platform and build
/// ([`carcassonne::hash::fnv1a`]).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    carcassonne::hash::fnv1a(bytes)
}

/// The hash of [`canonical_text`]: what [`LAYOUT_VERSION`] must equal.
pub fn schema_fingerprint() -> u64 {
    fnv1a(canonical_text().as_bytes())
}

/// [`LAYOUT_VERSION`] as 16 hexadecimal digits, as Python and the documentation show it.
pub fn layout_version_hex() -> String {
    format!("{LAYOUT_VERSION:016x}")
}
