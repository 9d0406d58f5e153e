//! The per-set getters kept for one release (`carc_game_dragon`, `carc_game_fairy`,
//! `carc_game_towers`, `carc_game_tower_pieces`, `carc_game_prisoners`) are marked
//! deprecated in the header and say what the state tables say, on positions where the
//! dragon is on the board and flying (PD2, PD5), the fairy stands by a follower (PD15),
//! towers stand (TW1, TW2) and prisoners are held (TW4).

use crate::action::{carc_game_apply, carc_game_legal_actions, CarcAction, CARC_NO_FEATURE};
use crate::engine_types::{CarcActionKind, CarcSupply};
use crate::expansion_state::{
    carc_game_expansion_state, carc_state_column_index, carc_state_table_index, CarcStateRow,
    CARC_STATE_ABSENT,
};
use crate::game::{carc_game_free, carc_game_new};
use crate::guard::CarcGame;
use crate::state::{
    carc_game_dragon, carc_game_fairy, carc_game_is_terminal, carc_game_prisoners,
    carc_game_tower_pieces, carc_game_towers, CarcDragon, CarcFairy, CarcTower, CARC_NO_TOP,
};
use crate::status::CarcStatus;
use std::ffi::CString;
use std::ptr::null_mut;

const OK: CarcStatus = CarcStatus::Ok;

/// A state table found by name: its rows among all rows, its columns by name.
struct Table {
    index: u32,
}

impl Table {
    fn named(name: &str) -> Table {
        let c = CString::new(name).unwrap();
        let mut index = u32::MAX;
        assert_eq!(carc_state_table_index(c.as_ptr(), &mut index), OK);
        Table { index }
    }

    fn rows<'a>(&self, rows: &'a [CarcStateRow]) -> Vec<&'a CarcStateRow> {
        rows.iter().filter(|r| r.table == self.index).collect()
    }

    fn get(&self, row: &CarcStateRow, column: &str) -> i32 {
        let c = CString::new(column).unwrap();
        let mut i = u32::MAX;
        assert_eq!(carc_state_column_index(self.index, c.as_ptr(), &mut i), OK);
        row.values[i as usize]
    }
}

fn state_rows(game: *const CarcGame) -> Vec<CarcStateRow> {
    let mut n = 0;
    assert_eq!(carc_game_expansion_state(game, null_mut(), 0, &mut n), OK);
    let mut buf = vec![CarcStateRow::default(); n as usize];
    assert_eq!(
        carc_game_expansion_state(game, buf.as_mut_ptr(), n, &mut n),
        OK
    );
    buf
}

fn legal(game: *const CarcGame) -> Vec<CarcAction> {
    let mut n = 0;
    assert_eq!(carc_game_legal_actions(game, null_mut(), 0, &mut n), OK);
    let mut v = vec![CarcAction::default(); n as usize];
    assert_eq!(carc_game_legal_actions(game, v.as_mut_ptr(), n, &mut n), OK);
    v
}

/// What was seen over a game: how many positions showed each piece.
#[derive(Default)]
struct Seen {
    dragon: u32,
    flight: u32,
    fairy_by_follower: u32,
    towers: u32,
    prisoners: u32,
}

/// Compares the five getters with the tables at the current position of `game`.
fn compare(game: *const CarcGame, players: u32, seen: &mut Seen) {
    let rows = state_rows(game);

    let table = Table::named("dragon");
    let mut dragon = CarcDragon::default();
    assert_eq!(carc_game_dragon(game, &mut dragon), OK);
    match table.rows(&rows)[..] {
        [] => assert_eq!(dragon, CarcDragon::default()),
        [row] => {
            seen.dragon += 1;
            assert_eq!(dragon.on_board, 1);
            assert_eq!(
                (dragon.x, dragon.y),
                (table.get(row, "x"), table.get(row, "y"))
            );
            let steps = table.get(row, "flight_steps");
            if steps == CARC_STATE_ABSENT {
                assert_eq!((dragon.in_flight, dragon.flight_steps), (0, 0));
            } else {
                seen.flight += 1;
                assert_eq!(
                    (dragon.in_flight, i32::from(dragon.flight_steps)),
                    (1, steps)
                );
            }
        }
        _ => panic!("the dragon table has at most one row"),
    }

    let table = Table::named("fairy");
    let mut fairy = CarcFairy::default();
    assert_eq!(carc_game_fairy(game, &mut fairy), OK);
    match table.rows(&rows)[..] {
        [] => assert_eq!((fairy.on_board, fairy.feature), (0, CARC_NO_FEATURE)),
        [row] => {
            assert_eq!(fairy.on_board, 1);
            assert_eq!(
                (fairy.x, fairy.y),
                (table.get(row, "x"), table.get(row, "y"))
            );
            let (owner, feature) = (table.get(row, "owner"), table.get(row, "feature"));
            if owner == CARC_STATE_ABSENT {
                assert_eq!((fairy.attached, fairy.feature), (0, CARC_NO_FEATURE));
            } else {
                seen.fairy_by_follower += 1;
                assert_eq!(fairy.attached, 1);
                assert_eq!(
                    (i32::from(fairy.owner), i32::from(fairy.feature)),
                    (owner, feature)
                );
            }
        }
        _ => panic!("the fairy table has at most one row"),
    }

    let table = Table::named("towers");
    let mut n = 0;
    assert_eq!(carc_game_towers(game, null_mut(), 0, &mut n), OK);
    let mut towers = vec![CarcTower::default(); n as usize];
    assert_eq!(carc_game_towers(game, towers.as_mut_ptr(), n, &mut n), OK);
    let expected: Vec<CarcTower> = table
        .rows(&rows)
        .into_iter()
        .map(|row| {
            let byte = |c: &str| match table.get(row, c) {
                CARC_STATE_ABSENT => CARC_NO_TOP,
                v => u8::try_from(v).unwrap(),
            };
            CarcTower {
                x: table.get(row, "x"),
                y: table.get(row, "y"),
                feature: byte("feature"),
                height: byte("height"),
                top_owner: byte("top_owner"),
                top_figure: byte("top_figure"),
            }
        })
        .collect();
    assert_eq!(towers, expected);
    seen.towers += u32::from(!towers.is_empty());

    let table = Table::named("tower_pieces");
    let pieces = table.rows(&rows);
    for seat in 0..players {
        let mut left = u32::MAX;
        assert_eq!(carc_game_tower_pieces(game, seat, &mut left), OK);
        let want = pieces
            .iter()
            .find(|r| table.get(r, "seat") == seat as i32)
            .map_or(0, |r| table.get(r, "pieces"));
        assert_eq!(left as i32, want, "seat {seat}");
    }

    let table = Table::named("prisoners");
    let held = table.rows(&rows);
    seen.prisoners += u32::from(!held.is_empty());
    for holder in 0..players {
        for owner in 0..players {
            let mut s = CarcSupply::default();
            assert_eq!(carc_game_prisoners(game, holder, owner, &mut s), OK);
            let count: i32 = held
                .iter()
                .filter(|r| {
                    table.get(r, "holder") == holder as i32 && table.get(r, "owner") == owner as i32
                })
                .map(|r| table.get(r, "count"))
                .sum();
            let total = [
                s.follower,
                s.big_follower,
                s.abbot,
                s.mayor,
                s.wagon,
                s.barn,
            ]
            .iter()
            .map(|&n| i32::from(n))
            .sum::<i32>();
            assert_eq!(total, count, "holder {holder}, owner {owner}");
        }
    }
}

/// Plays a game preferring the set's pieces (tower pieces, captures, fairy moves), and
/// compares the getters with the tables after every action.
fn play(config: &str, players: u32) -> Seen {
    let text = CString::new(config).unwrap();
    let mut game = null_mut();
    assert_eq!(carc_game_new(text.as_ptr(), &mut game), OK, "{config}");
    let mut seen = Seen::default();
    for _ in 0..3000 {
        compare(game, players, &mut seen);
        let mut terminal = 0;
        assert_eq!(carc_game_is_terminal(game, &mut terminal), OK);
        if terminal == 1 {
            break;
        }
        let actions = legal(game);
        let prefer = [
            CarcActionKind::Capture,
            CarcActionKind::PlaceTowerPiece,
            CarcActionKind::MoveFairy,
        ];
        let pick = prefer
            .iter()
            .find_map(|k| actions.iter().find(|a| a.kind == *k as u8))
            .copied()
            .unwrap_or(actions[actions.len() / 2]);
        assert_eq!(carc_game_apply(game, &pick), OK);
    }
    carc_game_free(game);
    seen
}

#[test]
fn the_dragon_and_the_fairy_getters_say_what_their_tables_say() {
    // PD2, PD5, PD15.
    let seen = play(
        r#"{"players": 3, "sets": ["base", "princess-and-dragon"], "seed": 11}"#,
        3,
    );
    assert!(seen.dragon > 0 && seen.flight > 0, "the dragon flew");
    assert!(seen.fairy_by_follower > 0, "the fairy stood by a follower");
}

#[test]
fn the_tower_getters_say_what_their_tables_say() {
    // TW1, TW2, TW4.
    let seen = play(r#"{"players": 3, "sets": ["base", "tower"], "seed": 5}"#, 3);
    assert!(seen.towers > 0, "towers stood");
    assert!(seen.prisoners > 0, "prisoners were held");
}

#[test]
fn the_header_marks_the_getters_deprecated() {
    let header = include_str!("../../../include/carcassonne.h");
    for name in ["dragon", "fairy", "towers", "tower_pieces", "prisoners"] {
        let declaration = format!("CarcStatus carc_game_{name}(");
        let at = header
            .find(&declaration)
            .unwrap_or_else(|| panic!("{declaration}"));
        let before = header[..at].trim_end();
        let attribute =
            format!("CARC_DEPRECATED(\"use carc_game_expansion_state and the table {name}\")");
        assert!(
            before.ends_with(&attribute),
            "carc_game_{name} is not marked deprecated"
        );
    }
}
