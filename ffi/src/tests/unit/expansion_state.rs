//! Unit tests of `expansion_state`, included by `expansion_state.rs` so they see its
//! private items.

use super::*;
use crate::game::{carc_game_free, carc_game_new, carc_last_error};
use std::ffi::CStr;
use std::ptr::{null, null_mut};

fn text(ptr: *const c_char) -> String {
    assert!(!ptr.is_null());
    // SAFETY: NUL-terminated by the library, static.
    unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_string()
}

fn new_game(config: &str) -> *mut CarcGame {
    let config = CString::new(config).unwrap();
    let mut game = null_mut();
    assert_eq!(carc_game_new(config.as_ptr(), &mut game), CarcStatus::Ok);
    game
}

fn rows(game: *const CarcGame) -> Vec<CarcStateRow> {
    let mut n = 0;
    assert_eq!(
        carc_game_expansion_state(game, null_mut(), 0, &mut n),
        CarcStatus::Ok
    );
    let mut buf = vec![CarcStateRow::default(); n as usize];
    assert_eq!(
        carc_game_expansion_state(game, buf.as_mut_ptr(), n, &mut n),
        CarcStatus::Ok
    );
    buf
}

fn index(name: &str) -> u32 {
    let name = CString::new(name).unwrap();
    let mut i = u32::MAX;
    assert_eq!(
        carc_state_table_index(name.as_ptr(), &mut i),
        CarcStatus::Ok
    );
    i
}

fn thread_error() -> String {
    let mut buf = vec![0 as c_char; 512];
    let mut n = 0;
    assert_eq!(
        carc_last_error(buf.as_mut_ptr(), 512, &mut n),
        CarcStatus::Ok
    );
    text(buf.as_ptr())
}

#[test]
fn struct_sizes_have_no_hidden_padding() {
    let pointers = 3 * std::mem::size_of::<*const c_char>();
    assert_eq!(std::mem::size_of::<CarcStateTable>(), pointers + 8);
    assert_eq!(std::mem::size_of::<CarcStateColumn>(), pointers / 3 * 2 + 8);
    assert_eq!(std::mem::size_of::<CarcStateRow>(), 36);
}

/// Every table and column of the engine's schema, with its name, expansion, kind and
/// documentation; names find their indices.
#[test]
fn the_schema_through_the_abi() {
    let mut count = 0;
    assert_eq!(carc_state_table_count(&mut count), CarcStatus::Ok);
    assert_eq!(count as usize, state::tables().len());
    for (i, t) in state::tables().iter().enumerate() {
        let mut out = CarcStateTable {
            name: null(),
            expansion: null(),
            doc: null(),
            columns: 0,
            rows: 9,
            reserved8: 1,
            reserved16: 1,
        };
        assert_eq!(carc_state_table(i as u32, &mut out), CarcStatus::Ok);
        assert_eq!(text(out.name), t.name);
        assert_eq!(text(out.expansion), t.expansion);
        assert_eq!(text(out.doc), t.description());
        assert_eq!(
            (out.columns as usize, out.rows),
            (t.columns.len(), t.rows as u8)
        );
        assert_eq!((out.reserved8, out.reserved16), (0, 0));
        assert_eq!(index(t.name), i as u32);
        for (c, column) in t.columns.iter().enumerate() {
            let mut col = CarcStateColumn {
                name: null(),
                doc: null(),
                kind: 99,
                optional: 9,
                reserved16: 1,
                reserved32: 1,
            };
            assert_eq!(
                carc_state_column(i as u32, c as u32, &mut col),
                CarcStatus::Ok
            );
            assert_eq!(text(col.name), column.name);
            assert_eq!(text(col.doc), column.description());
            assert_eq!(
                (col.kind, col.optional),
                (column.kind as u8, u8::from(column.optional))
            );
            let name = CString::new(column.name).unwrap();
            let mut at = u32::MAX;
            assert_eq!(
                carc_state_column_index(i as u32, name.as_ptr(), &mut at),
                CarcStatus::Ok
            );
            assert_eq!(at, c as u32);
        }
    }
}

/// NULL pointers, unknown names and indices out of range are refused with a message
/// naming what was wrong; the output keeps its value.
#[test]
fn bad_arguments_are_refused() {
    assert_eq!(carc_state_table_count(null_mut()), CarcStatus::NullArgument);
    let mut i = 7u32;
    assert_eq!(
        carc_state_table_index(null(), &mut i),
        CarcStatus::NullArgument
    );
    let name = CString::new("catapults").unwrap();
    assert_eq!(
        carc_state_table_index(name.as_ptr(), &mut i),
        CarcStatus::InvalidArgument
    );
    assert_eq!(i, 7);
    assert!(
        thread_error().contains("\"catapults\" is not a table"),
        "{}",
        thread_error()
    );
    let tables = state::tables().len() as u32;
    let mut col = CarcStateColumn {
        name: null(),
        doc: null(),
        kind: 99,
        optional: 0,
        reserved16: 0,
        reserved32: 0,
    };
    assert_eq!(
        carc_state_column(tables, 0, &mut col),
        CarcStatus::InvalidArgument
    );
    assert!(thread_error().contains(&format!("table {tables}")));
    assert_eq!(
        carc_state_column(index("count"), 1, &mut col),
        CarcStatus::InvalidArgument
    );
    assert!(
        thread_error().contains("table count has columns 0..1"),
        "{}",
        thread_error()
    );
    assert_eq!(col.kind, 99);
    let owner = CString::new("holder").unwrap();
    assert_eq!(
        carc_state_column_index(index("castles"), owner.as_ptr(), &mut i),
        CarcStatus::InvalidArgument
    );
    let game = new_game(r#"{"players":2,"sets":["base","count"]}"#);
    let mut flag = 9u8;
    assert_eq!(
        carc_game_state_table_in_play(game, tables, &mut flag),
        CarcStatus::InvalidArgument
    );
    assert_eq!(flag, 9);
    assert_eq!(
        carc_game_expansion_state(game, null_mut(), 1, &mut i),
        CarcStatus::NullArgument
    );
    carc_game_free(game);
}

/// A base game has no table in play and no row. At the start of a game of the Count,
/// King & Robber Baron and Bridges, Castles & Bazaars with 3 players: the count in the
/// castle (CC1), both titles beside the board (KR1, KR2), 3 bridges and 3 castles per
/// seat (BR1, CA1), no bazaar tile held (BZ4); nothing else.
#[test]
fn rows_at_the_start_of_a_game() {
    let game = new_game(r#"{"players":2,"sets":["base"]}"#);
    assert!(rows(game).is_empty());
    let mut flag = 9u8;
    assert_eq!(
        carc_game_state_table_in_play(game, index("count"), &mut flag),
        CarcStatus::Ok
    );
    assert_eq!(flag, 0);
    carc_game_free(game);

    let game = new_game(
        r#"{"players":3,"sets":["base","count","king-and-robber","bridges-castles-and-bazaars"]}"#,
    );
    let got: Vec<(u32, Vec<i32>)> = rows(game)
        .iter()
        .map(|r| {
            let columns = state::tables()[r.table as usize].columns.len();
            (r.table, r.values[..columns].to_vec())
        })
        .collect();
    let a = CARC_STATE_ABSENT;
    let quarter_castle = CarcQuarter::Castle as i32;
    let mut expected = vec![
        (index("bridges_castles_supply"), vec![0, 3, 3]),
        (index("bridges_castles_supply"), vec![1, 3, 3]),
        (index("bridges_castles_supply"), vec![2, 3, 3]),
        (index("bazaar_tiles"), vec![0, a]),
        (index("bazaar_tiles"), vec![1, a]),
        (index("bazaar_tiles"), vec![2, a]),
        (index("count"), vec![quarter_castle]),
        (index("king"), vec![a, 0]),
        (index("robber_baron"), vec![a, 0]),
    ];
    expected.sort_by_key(|(t, _)| *t);
    assert_eq!(got, expected);
    assert_eq!(
        carc_game_state_table_in_play(game, index("castles"), &mut flag),
        CarcStatus::Ok
    );
    assert_eq!(flag, 1, "in play without rows");
    assert_eq!(
        carc_game_state_table_in_play(game, index("dragon"), &mut flag),
        CarcStatus::Ok
    );
    assert_eq!(flag, 0);
    carc_game_free(game);
}

/// Each kind of value in its C form: seats and integers as they are, flags 0 or 1, the
/// enums by their C numbers, tiles by kind index, nothing as `CARC_STATE_ABSENT`.
#[test]
fn cells_in_their_c_form() {
    use carcassonne_core::rules::bcb::Axis;
    use carcassonne_core::rules::count::Quarter;
    use carcassonne_core::{catalogue, Figure};
    let tile = catalogue().by_id("BASE-K").unwrap();
    for (value, c) in [
        (StateValue::Absent, i32::MIN),
        (StateValue::Seat(3), 3),
        (StateValue::Int(-7), -7),
        (StateValue::Flag(true), 1),
        (StateValue::Flag(false), 0),
        (StateValue::Feature(4), 4),
        (StateValue::Quarter(Quarter::Market), 3),
        (StateValue::Figure(Figure::Wagon), 3),
        (StateValue::Tile(tile), tile.index() as i32),
        (StateValue::Axis(Axis::WE), 1),
    ] {
        assert_eq!(cell(value), c, "{value:?}");
    }
}
