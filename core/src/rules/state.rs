//! The visible state of the expansions, for clients: what a program needs beside the
//! board, the figures and the scores to draw an expansion's pieces and tell where its
//! game stands (the count and the figures in the quarters, bridges and castles, the
//! bazaar, the titles, the dragon and the fairy, ...).
//!
//! Each expansion declares its state, in its own module, as **tables**
//! ([`StateTable`]): a name unique among all expansions, a documentation, how many rows
//! it has ([`Rows`]: one, at most one, one per seat, any number) and typed columns
//! ([`StateColumn`]: a name, a [`ColumnKind`], whether a value may be absent). The
//! declaration (`state_tables!`) also generates the module's typed writer, one method
//! per table taking the columns' values, which the expansion's
//! `Expansion::write_state` hook calls. The registry (`expansions!`) gathers the tables
//! of every expansion, in its list order ([`tables`]), and [`Game::expansion_state`]
//! writes the rows of the tables of the expansions in play.
//!
//! The C ABI, the C# binding and the Python package read tables and rows through this
//! schema only, so a new expansion's tables need no code in them; only a new
//! [`ColumnKind`] does. `docs/expansion-state.md` lists every table, generated from the
//! schema and checked by a test.
//!
//! ```
//! use carcassonne::rules::count::Quarter;
//! use carcassonne::rules::state::{self, StateValue};
//! use carcassonne::{Game, GameConfig, TileSet};
//!
//! let mut config = GameConfig::new(2);
//! config.sets = vec![TileSet::Base, TileSet::Count, TileSet::KingRobber];
//! let game = Game::new(config).unwrap();
//! let view = game.expansion_state();
//! // CC3: the count starts in the castle quarter; KR1: nobody holds the King yet.
//! let count = view.row("count").unwrap();
//! assert_eq!(count.get("quarter"), Some(StateValue::Quarter(Quarter::Castle)));
//! assert_eq!(view.row("king").unwrap().get("holder"), Some(StateValue::Absent));
//! // Tables of expansions not in play are not there.
//! assert!(!view.in_play("castles"));
//! assert!(state::table_index("castles").is_some());
//! ```

use crate::config::Figure;
use crate::game::Game;
use crate::geometry::Pos;
use crate::names::same_name;
use crate::rules::bcb::Axis;
use crate::rules::count::Quarter;
use crate::tiles::TileKind;

/// Most columns a state table has.
pub const MAX_COLUMNS: usize = 8;

crate::named_enum! {
    /// What the values of a state column are. Front ends write each kind in one way
    /// (the C ABI as an `int32_t`, Python as an `int`, `bool` or name).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum ColumnKind {
        /// A seat, 0 to the number of players − 1.
        Seat(0) = "seat",
        /// An integer: a count of pieces, tiles or steps, points, a bid, a place.
        Int(1) = "int",
        /// Yes (1) or no (0).
        Flag(2) = "flag",
        /// A board column, growing east.
        X(3) = "x",
        /// A board row, growing south.
        Y(4) = "y",
        /// A feature of the tile at the row's square: its local index in the tile's
        /// catalogue list (the index after them is the tile's bridge).
        Feature(5) = "feature",
        /// A quarter of the City of Carcassonne (`castle`, `blacksmith`, `cathedral`,
        /// `market`).
        Quarter(6) = "quarter",
        /// A figure kind (`follower`, `abbot`, `mayor`, `wagon`, `barn`, `big-follower`).
        Figure(7) = "figure",
        /// A tile kind (its catalogue id).
        Tile(8) = "tile",
        /// The direction of a bridge (`NS`, `WE`).
        Axis(9) = "axis",
    }
}

crate::named_enum! {
    /// How many rows a state table has in a game where its expansion is in play.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Rows {
        /// Exactly one.
        One(0) = "one",
        /// None or one (the dragon is on the board or not).
        Optional(1) = "optional",
        /// One per seat, in seat order; the first column is the seat.
        PerSeat(2) = "per-seat",
        /// Any number.
        Many(3) = "many",
    }
}

/// One column of a state table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateColumn {
    /// Its name, unique in its table (record key, Python key, C lookup name).
    pub name: &'static str,
    /// What it holds, as written in the declaration (lines of a doc comment).
    pub doc: &'static str,
    /// The kind of its values.
    pub kind: ColumnKind,
    /// Whether a value may be absent ([`StateValue::Absent`]: nobody holds the King, no
    /// tile picked yet).
    pub optional: bool,
}

/// One table of an expansion's visible state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateTable {
    /// The expansion: the set's name in configurations and records (`count`,
    /// `bridges-castles-and-bazaars`, ...).
    pub expansion: &'static str,
    /// The table's name, unique among every expansion's tables.
    pub name: &'static str,
    /// What a row says, with the rule ids, as written in the declaration (lines of a doc
    /// comment).
    pub doc: &'static str,
    /// How many rows it has.
    pub rows: Rows,
    /// Its columns, in row order (at most [`MAX_COLUMNS`]).
    pub columns: &'static [StateColumn],
}

impl StateTable {
    /// The position of column `name`.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// The documentation as one line.
    pub fn description(&self) -> String {
        one_line(self.doc)
    }
}

impl StateColumn {
    /// The documentation as one line; for the columns of a square, which of its
    /// coordinates (`Its square (x).`).
    pub fn description(&self) -> String {
        let doc = one_line(self.doc);
        let coordinate = match self.kind {
            ColumnKind::X => "x",
            ColumnKind::Y => "y",
            _ => return doc,
        };
        format!("{} ({coordinate}).", doc.trim_end_matches('.'))
    }
}

/// `doc`'s words joined by single spaces.
fn one_line(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every table of every expansion, in the registry's order (`expansions!`), each
/// expansion's in its declaration order. The position of a table is its index in the
/// C ABI; it may change between versions of the library (names do not).
pub fn tables() -> &'static [StateTable] {
    &super::STATE_TABLES
}

/// The position of table `name` in [`tables`].
pub fn table_index(name: &str) -> Option<usize> {
    tables().iter().position(|t| t.name == name)
}

/// The value of one cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateValue {
    /// No value (an optional column).
    Absent,
    /// [`ColumnKind::Seat`].
    Seat(u8),
    /// [`ColumnKind::Int`], [`ColumnKind::X`], [`ColumnKind::Y`].
    Int(i32),
    /// [`ColumnKind::Flag`].
    Flag(bool),
    /// [`ColumnKind::Feature`].
    Feature(u8),
    /// [`ColumnKind::Quarter`].
    Quarter(Quarter),
    /// [`ColumnKind::Figure`].
    Figure(Figure),
    /// [`ColumnKind::Tile`].
    Tile(TileKind),
    /// [`ColumnKind::Axis`].
    Axis(Axis),
}

/// A seat, as a state column's value ([`ColumnKind::Seat`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seat(pub u8);

/// A feature of the row's tile by its local index, as a state column's value
/// ([`ColumnKind::Feature`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LocalFeature(pub u8);

/// The columns of one field of a table declaration: `(name, kind, optional)`, an empty
/// name standing for the field's name.
pub(crate) type ColumnSpecs = &'static [(&'static str, ColumnKind, bool)];

/// How a Rust type is written as state columns: one column, or two for a [`Pos`] (`x`
/// and `y`).
pub(crate) trait StateField {
    /// Its columns.
    const COLUMNS: ColumnSpecs;
    /// Appends its values.
    fn push(self, out: &mut StateWriter<'_>);
}

/// A type written as one column of `$kind`, and its `Option` (absent when `None`).
macro_rules! single_column {
    ($($ty:ty => $kind:ident, |$v:ident| $value:expr;)+) => {$(
        impl StateField for $ty {
            const COLUMNS: ColumnSpecs = &[("", ColumnKind::$kind, false)];
            fn push(self, out: &mut StateWriter<'_>) {
                let $v = self;
                out.push($value);
            }
        }

        impl StateField for Option<$ty> {
            const COLUMNS: ColumnSpecs = &[("", ColumnKind::$kind, true)];
            fn push(self, out: &mut StateWriter<'_>) {
                match self {
                    Some(v) => v.push(out),
                    None => out.push(StateValue::Absent),
                }
            }
        }
    )+};
}

single_column! {
    Seat => Seat, |s| StateValue::Seat(s.0);
    i32 => Int, |n| StateValue::Int(n);
    u32 => Int, |n| StateValue::Int(i32::try_from(n).unwrap_or(i32::MAX));
    u8 => Int, |n| StateValue::Int(i32::from(n));
    bool => Flag, |b| StateValue::Flag(b);
    LocalFeature => Feature, |f| StateValue::Feature(f.0);
    Quarter => Quarter, |q| StateValue::Quarter(q);
    Figure => Figure, |f| StateValue::Figure(f);
    TileKind => Tile, |t| StateValue::Tile(t);
    Axis => Axis, |a| StateValue::Axis(a);
}

/// A square: the columns `x` and `y`. A table has at most one, its field named `pos`.
impl StateField for Pos {
    const COLUMNS: ColumnSpecs = &[("x", ColumnKind::X, false), ("y", ColumnKind::Y, false)];
    fn push(self, out: &mut StateWriter<'_>) {
        out.push(StateValue::Int(self.x));
        out.push(StateValue::Int(self.y));
    }
}

/// One field of a table declaration: its name, its documentation and its columns.
pub(crate) type ColumnPart = (&'static str, &'static str, ColumnSpecs);

/// The number of columns of a table's fields.
pub(crate) const fn column_count(parts: &[ColumnPart]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        n += parts[i].2.len();
        i += 1;
    }
    assert!(
        n <= MAX_COLUMNS,
        "a state table has at most MAX_COLUMNS columns"
    );
    n
}

/// The columns of a table's fields, in order.
pub(crate) const fn columns<const N: usize>(parts: &[ColumnPart]) -> [StateColumn; N] {
    let mut out = [StateColumn {
        name: "",
        doc: "",
        kind: ColumnKind::Int,
        optional: false,
    }; N];
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        let (field, doc, specs) = parts[i];
        assert!(
            specs.len() == 1 || same_name(field, "pos"),
            "a square (x, y) in a state table is the field `pos`"
        );
        let mut j = 0;
        while j < specs.len() {
            let (name, kind, optional) = specs[j];
            out[n] = StateColumn {
                name: if name.is_empty() { field } else { name },
                doc,
                kind,
                optional,
            };
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The tables of every expansion, one slice after another.
pub(crate) const fn concat_tables<const N: usize>(parts: &[&[StateTable]]) -> [StateTable; N] {
    const EMPTY: StateTable = StateTable {
        expansion: "",
        name: "",
        doc: "",
        rows: Rows::Many,
        columns: &[],
    };
    let mut out = [EMPTY; N];
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "every table in its place");
    out
}

/// Declares the state tables of an expansion, in its module: the expansion's set name,
/// then per table its documentation, `name: Rows { field: Type, ... }` with a
/// documentation per field. A field's Rust type gives its columns ([`StateField`]): a
/// [`Seat`], a [`LocalFeature`], an integer, a `bool`, a [`Quarter`], a [`Figure`], a
/// [`TileKind`], an [`Axis`], an `Option` of one of those (absent when `None`), or a
/// [`Pos`] named `pos` (the columns `x` and `y`).
///
/// Generates `STATE_TABLES` (the expansion's `Expansion::STATE_TABLES`) and
/// `StateRows`, which writes rows: one method per table, named like it, taking its
/// fields in order.
macro_rules! state_tables {
    (
        expansion: $expansion:literal;
        $(
            $(#[doc = $doc:literal])*
            $table:ident: $rows:ident {
                $($(#[doc = $cdoc:literal])* $field:ident: $ty:ty),+ $(,)?
            }
        ),+ $(,)?
    ) => {
        /// The tables of this expansion's visible state ([`crate::rules::state`]).
        pub(crate) const STATE_TABLES: &[$crate::rules::state::StateTable] = &[$(
            $crate::rules::state::StateTable {
                expansion: $expansion,
                name: stringify!($table),
                doc: concat!($($doc, "\n"),*),
                rows: $crate::rules::state::Rows::$rows,
                columns: {
                    const PARTS: &[$crate::rules::state::ColumnPart] = &[$((
                        stringify!($field),
                        concat!($($cdoc, "\n"),*),
                        <$ty as $crate::rules::state::StateField>::COLUMNS,
                    )),+];
                    const COLUMNS: [
                        $crate::rules::state::StateColumn;
                        $crate::rules::state::column_count(PARTS)
                    ] = $crate::rules::state::columns(PARTS);
                    &COLUMNS
                },
            }
        ),+];

        /// Writes rows of this expansion's state tables: one method per table.
        pub(crate) struct StateRows<'w, 's>(pub(crate) &'w mut $crate::rules::state::StateWriter<'s>);

        impl StateRows<'_, '_> {
            $crate::rules::state::state_tables!(@rows 0u16; $($table { $($field: $ty),+ })+);
        }
    };
    (@rows $index:expr; $table:ident { $($field:ident: $ty:ty),+ } $($rest:tt)*) => {
        #[doc = concat!("Writes a row of `", stringify!($table), "`.")]
        pub(crate) fn $table(&mut self, $($field: $ty),+) {
            self.0.begin_row($index);
            $($crate::rules::state::StateField::push($field, self.0);)+
        }
        $crate::rules::state::state_tables!(@rows $index + 1; $($rest)*);
    };
    (@rows $index:expr;) => {};
}

pub(crate) use state_tables;

/// Where one row's cells begin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct RowStart {
    table: u16,
    start: u32,
}

/// The rows of the state tables of the expansions in play in a game
/// ([`Game::expansion_state`]): each table's rows together, tables in the order of
/// [`tables`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpansionState {
    /// The tables in play (positions in [`tables`]), in order.
    in_play: Vec<u16>,
    rows: Vec<RowStart>,
    cells: Vec<StateValue>,
}

/// One row of a state table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StateRow<'a> {
    /// The position of its table in [`tables`].
    pub table_index: usize,
    /// Its table.
    pub table: &'static StateTable,
    /// Its values, one per column.
    pub values: &'a [StateValue],
}

impl StateRow<'_> {
    /// The value of column `name`.
    pub fn get(&self, name: &str) -> Option<StateValue> {
        self.table.column_index(name).map(|i| self.values[i])
    }
}

impl ExpansionState {
    /// The tables in play (those of the expansions in play), in the order of [`tables`].
    pub fn tables(&self) -> impl Iterator<Item = (usize, &'static StateTable)> + '_ {
        self.in_play
            .iter()
            .map(|&i| (usize::from(i), &tables()[usize::from(i)]))
    }

    /// Whether table `name` is in play.
    pub fn in_play(&self, name: &str) -> bool {
        table_index(name).is_some_and(|i| self.in_play.contains(&(i as u16)))
    }

    /// Every row, each table's together, tables in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = StateRow<'_>> + '_ {
        (0..self.rows.len()).map(|r| self.row_at(r))
    }

    /// The rows of table `name` (none when it is not in play).
    pub fn rows_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = StateRow<'a>> + 'a {
        self.rows().filter(move |r| r.table.name == name)
    }

    /// The first row of table `name`: the row of a table of one row.
    pub fn row(&self, name: &str) -> Option<StateRow<'_>> {
        self.rows().find(|r| r.table.name == name)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    fn row_at(&self, r: usize) -> StateRow<'_> {
        let RowStart { table, start } = self.rows[r];
        let table_index = usize::from(table);
        let spec = &tables()[table_index];
        let start = start as usize;
        StateRow {
            table_index,
            table: spec,
            values: &self.cells[start..start + spec.columns.len()],
        }
    }

    fn clear(&mut self) {
        self.in_play.clear();
        self.rows.clear();
        self.cells.clear();
    }
}

/// Writes the rows of one expansion's tables into an [`ExpansionState`] (the
/// expansion's `StateRows` calls it).
pub(crate) struct StateWriter<'s> {
    state: &'s mut ExpansionState,
    /// The position of the expansion's first table in [`tables`].
    first: u16,
}

impl<'s> StateWriter<'s> {
    /// A writer for the `count` tables from position `first`, noted in play.
    pub(crate) fn new(state: &'s mut ExpansionState, first: u16, count: u16) -> StateWriter<'s> {
        state.in_play.extend(first..first + count);
        StateWriter { state, first }
    }

    /// Starts a row of the expansion's table `local` (its position among the
    /// expansion's tables).
    pub(crate) fn begin_row(&mut self, local: u16) {
        self.state.rows.push(RowStart {
            table: self.first + local,
            start: self.state.cells.len() as u32,
        });
    }

    fn push(&mut self, value: StateValue) {
        self.state.cells.push(value);
    }
}

impl Game {
    /// The visible state of the expansions in play: the rows of their state tables
    /// (see the [module documentation](crate::rules::state)).
    pub fn expansion_state(&self) -> ExpansionState {
        let mut state = ExpansionState::default();
        self.write_expansion_state(&mut state);
        state
    }

    /// [`Game::expansion_state`] into `out`, reusing its room.
    pub fn write_expansion_state(&self, out: &mut ExpansionState) {
        out.clear();
        self.write_state_rows(out);
        // Each table's rows together, in table order, whatever order they were written in.
        out.rows.sort_by_key(|r| r.table);
        debug_assert!(self.state_rows_counted(out), "{out:?}");
    }

    /// Whether each table in play has as many rows as its [`Rows`] says, and the rows of
    /// a table of one row per seat are in seat order.
    fn state_rows_counted(&self, state: &ExpansionState) -> bool {
        state.tables().all(|(index, table)| {
            let rows: Vec<StateRow<'_>> = state.rows().filter(|r| r.table_index == index).collect();
            match table.rows {
                Rows::One => rows.len() == 1,
                Rows::Optional => rows.len() <= 1,
                Rows::PerSeat => {
                    rows.len() == self.num_players()
                        && rows
                            .iter()
                            .enumerate()
                            .all(|(seat, r)| r.values[0] == StateValue::Seat(seat as u8))
                }
                Rows::Many => true,
            }
        })
    }
}
