//! The visible state of the expansions in play, for game clients: the count and the
//! figures in the quarters, bridges and castles on the board and in each supply, the
//! bazaar, the King and the Robber Baron, the dragon and the fairy, and whatever the next
//! sets declare.
//!
//! Each expansion declares its state as tables (the engine's `rules::state`): the
//! library's schema lists them (`carc_state_table_count`, `carc_state_table`,
//! `carc_state_column`; a table or column is found by name with `carc_state_table_index`
//! and `carc_state_column_index`), and `carc_game_expansion_state` writes the rows of
//! the tables of a game's expansions, each row a `CarcStateRow`: its table and one
//! `int32_t` per column, written as the column's `CarcStateKind` says (a seat, an
//! integer, 0 or 1, a square, a local feature index, a `CarcQuarter`, a `CarcFigure`, a
//! tile kind index, a `CarcAxis`; `CARC_STATE_ABSENT` for no value). A new expansion's
//! tables need no new function: a client that looks tables and columns up by name reads
//! them as it reads today's. `docs/expansion-state.md` lists every table.

use crate::engine_types::{CarcAxis, CarcFigure, CarcQuarter};
use crate::guard::{
    call, check_out, non_null, put, read_str, with_game, write_iter, write_out, CarcGame,
};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::rules::state::{self, StateTable, StateValue, MAX_COLUMNS};
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

/// The number of values of a `CarcStateRow`: most columns a state table has.
pub const CARC_STATE_MAX_COLUMNS: usize = 8;
const _: () = assert!(
    CARC_STATE_MAX_COLUMNS == MAX_COLUMNS,
    "the engine's MAX_COLUMNS"
);

/// The value of a cell that holds nothing (a column whose `optional` is 1: nobody holds
/// the King yet, no bazaar tile picked yet). No value of any kind is this number.
pub const CARC_STATE_ABSENT: i32 = i32::MIN;

/// One table of the expansions' state (32 bytes on 64-bit platforms, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CarcStateTable {
    /// Its name, unique among all tables (`count`, `castles`, `bazaar_offer`, ...).
    pub name: *const c_char,
    /// Its expansion: the set's name in configurations (`count`,
    /// `bridges-castles-and-bazaars`, ...).
    pub expansion: *const c_char,
    /// What a row says, with the rule ids (one line).
    pub doc: *const c_char,
    /// Its number of columns (at most `CARC_STATE_MAX_COLUMNS`).
    pub columns: u32,
    /// How many rows it has where its expansion is in play: a `CarcStateRows`.
    pub rows: u8,
    /// Always 0.
    pub reserved8: u8,
    /// Always 0.
    pub reserved16: u16,
}

/// One column of a table of the expansions' state (24 bytes on 64-bit platforms,
/// blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CarcStateColumn {
    /// Its name, unique in its table (`owner`, `x`, `y`, `quarter`, ...).
    pub name: *const c_char,
    /// What it holds (one line).
    pub doc: *const c_char,
    /// The kind of its values: a `CarcStateKind`.
    pub kind: u8,
    /// 1 when a value may be absent (`CARC_STATE_ABSENT`), else 0.
    pub optional: u8,
    /// Always 0.
    pub reserved16: u16,
    /// Always 0.
    pub reserved32: u32,
}

/// One row of a table of the expansions' state (36 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcStateRow {
    /// Its table (an index of `carc_state_table`).
    pub table: u32,
    /// One value per column of the table, in column order; those past its columns are 0.
    /// Each is written as its column's `CarcStateKind` says; `CARC_STATE_ABSENT` when
    /// absent.
    pub values: [i32; CARC_STATE_MAX_COLUMNS],
}

/// The C form of a cell: see `CarcStateKind`.
pub(crate) fn cell(value: StateValue) -> i32 {
    match value {
        StateValue::Absent => CARC_STATE_ABSENT,
        StateValue::Seat(seat) => i32::from(seat),
        StateValue::Int(n) => n,
        StateValue::Flag(flag) => i32::from(flag),
        StateValue::Feature(local) => i32::from(local),
        StateValue::Quarter(q) => CarcQuarter::from(q) as i32,
        StateValue::Figure(f) => CarcFigure::from(f) as i32,
        StateValue::Tile(t) => t.index() as i32,
        StateValue::Axis(a) => CarcAxis::from(a) as i32,
    }
}

/// NUL-terminated names and documentation of every table and column, built once.
struct TableNames {
    name: CString,
    expansion: CString,
    doc: CString,
    /// `(name, doc)` of each column.
    columns: Vec<(CString, CString)>,
}

fn names() -> &'static [TableNames] {
    static NAMES: OnceLock<Vec<TableNames>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let to_c = |s: &str| CString::new(s).unwrap_or_default();
        state::tables()
            .iter()
            .map(|t| TableNames {
                name: to_c(t.name),
                expansion: to_c(t.expansion),
                doc: to_c(&t.description()),
                columns: t
                    .columns
                    .iter()
                    .map(|c| (to_c(c.name), to_c(&c.description())))
                    .collect(),
            })
            .collect()
    })
}

/// Table `index` of the schema.
fn table(index: u32) -> Result<&'static StateTable, Failure> {
    let tables = state::tables();
    tables.get(index as usize).ok_or_else(|| {
        Failure::invalid(format!(
            "table {index}: the expansions' state has tables 0..{}",
            tables.len()
        ))
    })
}

/// Writes the number of tables of the expansions' state (of every expansion the library
/// knows, in play or not; table indices are `0..count`) to `*out`.
///
/// Ownership: `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_state_table_count(out: *mut u32) -> CarcStatus {
    call("carc_state_table_count", || {
        put(out, "out", state::tables().len() as u32)
    })
}

/// Writes table `index` of the expansions' state to `*out`: its name, expansion,
/// documentation, number of columns and of rows. An index outside
/// `0..carc_state_table_count` is `CARC_STATUS_INVALID_ARGUMENT`. Indices may differ
/// between versions of the library; names do not.
///
/// Ownership: `out` belongs to the caller; its strings belong to the library, are
/// NUL-terminated and live as long as the process.
#[no_mangle]
pub extern "C" fn carc_state_table(index: u32, out: *mut CarcStateTable) -> CarcStatus {
    call("carc_state_table", || {
        check_out(out, "out")?;
        let t = table(index)?;
        let n = &names()[index as usize];
        write_out(
            out,
            CarcStateTable {
                name: n.name.as_ptr(),
                expansion: n.expansion.as_ptr(),
                doc: n.doc.as_ptr(),
                columns: t.columns.len() as u32,
                rows: t.rows as u8,
                reserved8: 0,
                reserved16: 0,
            },
        );
        Ok(())
    })
}

/// Writes the index of the table named `name` (`"castles"`) to `*out`. An unknown name
/// is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `name` (NUL-terminated UTF-8) is read during the call; `out` belongs to
/// the caller.
#[no_mangle]
pub extern "C" fn carc_state_table_index(name: *const c_char, out: *mut u32) -> CarcStatus {
    call("carc_state_table_index", || {
        let name = non_null(name, "name")?;
        check_out(out, "out")?;
        let name = read_str(name, "name")?;
        let index = state::table_index(name).ok_or_else(|| {
            Failure::invalid(format!(
                "{} is not a table of the expansions' state",
                carcassonne_session::json::echo(name)
            ))
        })?;
        write_out(out, index as u32);
        Ok(())
    })
}

/// Writes column `column` of table `table` to `*out`: its name, documentation, kind and
/// whether it may be absent. A table or column out of range is
/// `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `out` belongs to the caller; its strings belong to the library, are
/// NUL-terminated and live as long as the process.
#[no_mangle]
pub extern "C" fn carc_state_column(
    table: u32,
    column: u32,
    out: *mut CarcStateColumn,
) -> CarcStatus {
    call("carc_state_column", || {
        check_out(out, "out")?;
        let t = self::table(table)?;
        let c = t.columns.get(column as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "column {column}: table {} has columns 0..{}",
                t.name,
                t.columns.len()
            ))
        })?;
        let (name, doc) = &names()[table as usize].columns[column as usize];
        write_out(
            out,
            CarcStateColumn {
                name: name.as_ptr(),
                doc: doc.as_ptr(),
                kind: c.kind as u8,
                optional: u8::from(c.optional),
                reserved16: 0,
                reserved32: 0,
            },
        );
        Ok(())
    })
}

/// Writes the index of the column named `name` of table `table` (`"owner"`) to `*out`.
/// A table out of range or an unknown name is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `name` (NUL-terminated UTF-8) is read during the call; `out` belongs to
/// the caller.
#[no_mangle]
pub extern "C" fn carc_state_column_index(
    table: u32,
    name: *const c_char,
    out: *mut u32,
) -> CarcStatus {
    call("carc_state_column_index", || {
        let name = non_null(name, "name")?;
        check_out(out, "out")?;
        let t = self::table(table)?;
        let name = read_str(name, "name")?;
        let index = t.column_index(name).ok_or_else(|| {
            Failure::invalid(format!(
                "{} is not a column of table {}",
                carcassonne_session::json::echo(name),
                t.name
            ))
        })?;
        write_out(out, index as u32);
        Ok(())
    })
}

/// Writes 1 to `*out` when table `table` is in play in the game (its expansion is), else
/// 0. A table out of range is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_state_table_in_play(
    game: *const CarcGame,
    table: u32,
    out: *mut u8,
) -> CarcStatus {
    with_game("carc_game_state_table_in_play", game, |h| {
        check_out(out, "out")?;
        let t = self::table(table)?;
        let in_play = h.game().expansion_state().in_play(t.name);
        write_out(out, u8::from(in_play));
        Ok(())
    })
}

/// Writes the rows of the tables in play (those of the game's expansions) into `buf`
/// (`len` rows); `needed` receives their number. A table's rows come together, tables
/// in index order; within a table, in the order its documentation gives. No rows in a
/// game without expansions.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_expansion_state(
    game: *const CarcGame,
    buf: *mut CarcStateRow,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_expansion_state", game, |h| {
        let view = h.game().expansion_state();
        let rows = view.rows().map(|r| {
            let mut row = CarcStateRow {
                table: r.table_index as u32,
                ..CarcStateRow::default()
            };
            for (out, value) in row.values.iter_mut().zip(r.values) {
                *out = cell(*value);
            }
            row
        });
        write_iter(rows, buf, len, needed, "the expansion state rows")
    })
}

#[cfg(test)]
#[path = "tests/unit/expansion_state.rs"]
mod tests;
