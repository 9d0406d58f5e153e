//! Random call sequences through the C ABI (proptest): legal and illegal actions, flat
//! ids, NULL pointers, tiny and oversized buffers, mangled configurations and records.
//! Whatever the calls, no call panics (no `CARC_STATUS_PANIC`), every status is one of the
//! documented values, output parameters keep their sentinel values on failure, a refused
//! action leaves the state unchanged, and the handle stays usable. Coordinates reach the
//! ends of `int32_t`; hostile texts (duplicate keys, deep nesting, huge values) are
//! refused with short messages. Handles are misused too: a game used after it was freed
//! and freed twice, a bot passed as a game and a game as a bot, a pointer the library
//! never gave out — each answered with `CARC_STATUS_INVALID_HANDLE`.
//!
//! The number of sequences is 256, or `CARC_ABI_FUZZ_CASES` when set (e.g.
//! `CARC_ABI_FUZZ_CASES=20000 cargo test -p carcassonne-ffi --lib abi_fuzz`).

use crate::action::{
    carc_game_apply, carc_game_apply_draw, carc_game_chance_outcomes, carc_game_is_legal,
    carc_game_legal_actions,
};
use crate::bot::{carc_bot_choose, carc_bot_free, carc_bot_new};
use crate::expansion_state::{
    carc_game_expansion_state, carc_game_state_table_in_play, carc_state_column, carc_state_table,
    CarcStateColumn, CarcStateRow, CarcStateTable, CARC_STATE_ABSENT,
};
use crate::game::{
    carc_game_clone, carc_game_free, carc_game_from_record, carc_game_last_error, carc_game_new,
    carc_game_to_record, carc_last_error,
};
use crate::learn::{
    carc_game_action_to_flat, carc_game_apply_flat, carc_game_legal_mask,
    carc_game_observation_sizes, carc_game_observe,
};
use crate::render::{carc_game_render_svg, carc_game_render_text};
use crate::state::{
    carc_game_board_figures, carc_game_dragon, carc_game_fairy, carc_game_is_terminal,
    carc_game_placed_tiles, carc_game_remaining_tiles, carc_game_scores, carc_game_state_hash,
    carc_game_supply, carc_game_to_play,
};
use crate::tiles::{carc_tile_feature_id, carc_tile_kind_id};
use crate::{
    CarcAction, CarcBoardFigure, CarcChanceOutcome, CarcDragon, CarcFairy, CarcGame, CarcMaskInfo,
    CarcObservationSizes, CarcPlacedTile, CarcStatus, CarcSupply,
};
use carcassonne_core::action::ActionKind;
use proptest::prelude::*;
use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

const CONFIGS: [&str; 8] = [
    r#"{"players":2,"sets":["base"],"seed":1}"#,
    r#"{"players":3,"sets":["base","river1","river2"],"figures":{"abbot":1},"seed":2}"#,
    r#"{"players":4,"sets":["base","princess-and-dragon"],"seed":3}"#,
    r#"{"players":2,"sets":["base","princess-and-dragon"],"chance":"explicit","rules":{"fairy":"on-tile"},"seed":4}"#,
    r#"{"players":5,"sets":["base","abbey-and-mayor"],"window":7,"seed":5}"#,
    r#"{"players":6,"sets":["base","river1","river2","princess-and-dragon","abbey-and-mayor"],"chance":"explicit","seed":6}"#,
    r#"{"players":3,"sets":["base","bridges-castles-and-bazaars"],"seed":7}"#,
    r#"{"players":4,"sets":["base","river1","river2","princess-and-dragon","count","king-and-robber","cult","bridges-castles-and-bazaars"],"chance":"explicit","figures":{"abbot":1},"seed":8}"#,
];

/// One call with its arguments.
#[derive(Clone, Debug)]
enum Call {
    LegalActions {
        null_buf: bool,
        len: u32,
    },
    ApplyLegal {
        pick: u16,
    },
    ApplyRaw(CarcAction),
    IsLegal(CarcAction),
    ApplyFlatOffered {
        pick: u16,
    },
    ApplyFlatRaw {
        id: u32,
    },
    ActionToFlat {
        pick: u16,
    },
    Mask {
        len: u32,
        null_buf: bool,
        with_info: bool,
    },
    Observe {
        player: u32,
        planes_len: u32,
        globals_len: u32,
        null_buf: bool,
    },
    Scores {
        len: u32,
    },
    Supply {
        player: u32,
    },
    Queries,
    Board {
        len: u32,
    },
    Draw {
        pick: u16,
        raw: Option<u16>,
    },
    Record {
        len: u32,
    },
    MangledRecord {
        cut: u16,
        flip: u16,
    },
    Render {
        svg: bool,
        len: u32,
    },
    LastError {
        len: u32,
    },
    CloneSwap,
    NullEverything,
    MangledConfig {
        base: usize,
        cut: u16,
        junk: Vec<u8>,
    },
    HostileText {
        which: usize,
    },
    Catalogue {
        kind: u32,
        feature: u32,
    },
    /// The expansions' state: the rows into a buffer of `len` (or NULL), and the schema
    /// at a table and column index that may be out of range.
    ExpansionState {
        len: u32,
        null_buf: bool,
        table: u32,
        column: u32,
    },
    /// A stale, foreign or wrong-kind handle passed to one of a few calls.
    BadHandle {
        which: u8,
        call: u8,
    },
}

fn small_len() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..4, 4u32..64, Just(1 << 20)]
}

/// Sequences run by `random_call_sequences_never_crash`: 256, or `CARC_ABI_FUZZ_CASES`.
fn fuzz_cases() -> u32 {
    std::env::var("CARC_ABI_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// A coordinate: near the board mostly, else at or near the ends of `int32_t`.
fn coordinate() -> impl Strategy<Value = i32> {
    prop_oneof![
        6 => -4i32..5,
        1 => prop_oneof![
            Just(i32::MIN),
            Just(i32::MAX),
            Just(i32::MIN + 1),
            Just(i32::MAX - 1),
            Just(-10_001),
            Just(10_001),
            any::<i32>(),
        ],
    ]
}

/// Texts no configuration or record may be: each is refused with a short message.
fn hostile_texts() -> Vec<String> {
    let deep = "[".repeat(100_000);
    let nested = format!(
        r#"{{"players":2,"sets":["base"],"rules":{}1{}}}"#,
        "[".repeat(40),
        "]".repeat(40)
    );
    let long_id = "X".repeat(1 << 20);
    vec![
        r#"{"players":2,"players":3,"sets":["base"]}"#.to_string(),
        r#"{"players":2,"sets":["base"],"seed":1e400}"#.to_string(),
        r#"{"players":2,"sets":["base"],"seed":-1}"#.to_string(),
        r#"{"players":4294967298,"sets":["base"]}"#.to_string(),
        r#"{"players":2,"sets":["base"],"start":{"tile":"BASE-D","rot":-1}}"#.to_string(),
        format!(r#"{{"players":2,"sets":["base"],"start":{{"tile":"{long_id}"}}}}"#),
        format!(r#"{{"players":2,"sets":["base"],"chance":"{long_id}"}}"#),
        format!(r#"{{"players":2,"sets":["base"],"{long_id}":1}}"#),
        deep,
        nested,
        String::new(),
        "{".to_string(),
    ]
}

fn raw_action() -> impl Strategy<Value = CarcAction> {
    (
        (
            0u8..30,
            coordinate(),
            coordinate(),
            0u8..6,
            0u8..7,
            prop_oneof![0u8..6, Just(255u8), any::<u8>()],
            0u8..6,
            prop_oneof![0u16..100, any::<u16>()],
        ),
        (
            0u8..3,
            prop_oneof![0u16..40, any::<u16>()],
            coordinate(),
            coordinate(),
        ),
    )
        .prop_map(
            |((kind, x, y, rot, figure, feature, corner, tile), (flag, bid, bx, by))| CarcAction {
                kind,
                rot,
                figure,
                feature,
                corner,
                quarter: corner,
                tile,
                x,
                y,
                step: figure,
                axis: rot,
                choice: flag,
                has_bridge: flag,
                bid,
                seat: flag,
                token: flag,
                bridge_x: bx,
                bridge_y: by,
            },
        )
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        1 => (any::<bool>(), small_len()).prop_map(|(null_buf, len)| Call::LegalActions { null_buf, len }),
        8 => any::<u16>().prop_map(|pick| Call::ApplyLegal { pick }),
        1 => raw_action().prop_map(Call::ApplyRaw),
        1 => raw_action().prop_map(Call::IsLegal),
        4 => any::<u16>().prop_map(|pick| Call::ApplyFlatOffered { pick }),
        1 => prop_oneof![0u32..6000, any::<u32>()].prop_map(|id| Call::ApplyFlatRaw { id }),
        1 => any::<u16>().prop_map(|pick| Call::ActionToFlat { pick }),
        1 => (small_len(), any::<bool>(), any::<bool>())
            .prop_map(|(len, null_buf, with_info)| Call::Mask { len, null_buf, with_info }),
        1 => (0u32..8, small_len(), small_len(), any::<bool>()).prop_map(
            |(player, planes_len, globals_len, null_buf)| Call::Observe {
                player,
                planes_len,
                globals_len,
                null_buf
            }
        ),
        1 => small_len().prop_map(|len| Call::Scores { len }),
        1 => (0u32..8).prop_map(|player| Call::Supply { player }),
        1 => Just(Call::Queries),
        1 => small_len().prop_map(|len| Call::Board { len }),
        3 => (any::<u16>(), proptest::option::of(any::<u16>()))
            .prop_map(|(pick, raw)| Call::Draw { pick, raw }),
        1 => small_len().prop_map(|len| Call::Record { len }),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(cut, flip)| Call::MangledRecord { cut, flip }),
        1 => (any::<bool>(), small_len()).prop_map(|(svg, len)| Call::Render { svg, len }),
        1 => small_len().prop_map(|len| Call::LastError { len }),
        1 => Just(Call::CloneSwap),
        1 => Just(Call::NullEverything),
        1 => (0..CONFIGS.len(), any::<u16>(), proptest::collection::vec(any::<u8>(), 0..8))
            .prop_map(|(base, cut, junk)| Call::MangledConfig { base, cut, junk }),
        1 => (prop_oneof![0u32..300, any::<u32>()], 0u32..20)
            .prop_map(|(kind, feature)| Call::Catalogue { kind, feature }),
        1 => (0..hostile_texts().len()).prop_map(|which| Call::HostileText { which }),
        1 => (small_len(), any::<bool>(), prop_oneof![0u32..16, any::<u32>()], 0u32..10).prop_map(
            |(len, null_buf, table, column)| Call::ExpansionState { len, null_buf, table, column }
        ),
        1 => (0u8..3, 0u8..4).prop_map(|(which, call)| Call::BadHandle { which, call }),
    ]
}

/// Whether two actions are the same decision: kind and the fields that kind uses (the
/// header: "fields the kind does not use ... are ignored when passed in").
fn same_action(a: &CarcAction, b: &CarcAction) -> bool {
    let at = a.x == b.x && a.y == b.y;
    a.kind == b.kind
        && match a.kind {
            // A placement names its bridge, if it has one (BR2).
            0 => {
                at && a.rot == b.rot
                    && a.has_bridge == b.has_bridge
                    && (a.has_bridge != 1
                        || (a.axis == b.axis
                            && a.bridge_x == b.bridge_x
                            && a.bridge_y == b.bridge_y))
            }
            1 | 8 => at,
            2 => at && a.figure == b.figure && a.feature == b.feature,
            3 => at && a.corner == b.corner,
            4..=6 | 9 => at && a.feature == b.feature,
            7 | 17 | 20 => true,
            10 => a.tile == b.tile,
            11 => {
                at && a.step == b.step
                    && a.quarter == b.quarter
                    && a.figure == b.figure
                    && a.feature == b.feature
            }
            12 => a.step == b.step,
            13 => a.figure == b.figure && a.quarter == b.quarter,
            14 => a.quarter == b.quarter,
            15 => at && a.axis == b.axis,
            16 => at && a.feature == b.feature,
            18 => a.tile == b.tile && a.bid == b.bid,
            19 => a.bid == b.bid,
            21 => a.choice == b.choice,
            _ => false,
        }
}

/// Checks a status: a documented value, and never a panic.
fn ok_status(s: CarcStatus, what: &str) {
    assert_ne!(
        s,
        CarcStatus::Panic,
        "{what} panicked: {}",
        thread_message()
    );
    assert_ne!(s, CarcStatus::HandlePoisoned, "{what}: handle poisoned");
}

fn thread_message() -> String {
    let mut buf = vec![0 as c_char; 4096];
    let mut n = 0;
    carc_last_error(buf.as_mut_ptr(), 4096, &mut n);
    // SAFETY: NUL-terminated by the library (or all zeros).
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

fn hash(game: *const CarcGame) -> u64 {
    let mut h = 0;
    assert_eq!(carc_game_state_hash(game, &mut h), CarcStatus::Ok);
    h
}

fn legal(game: *const CarcGame) -> Vec<CarcAction> {
    let mut n = 0;
    assert_eq!(
        carc_game_legal_actions(game, null_mut(), 0, &mut n),
        CarcStatus::Ok
    );
    let mut v = vec![CarcAction::default(); n as usize];
    assert_eq!(
        carc_game_legal_actions(game, v.as_mut_ptr(), n, &mut n),
        CarcStatus::Ok
    );
    v
}

fn sizes(game: *const CarcGame) -> CarcObservationSizes {
    let mut s = CarcObservationSizes::default();
    assert_eq!(carc_game_observation_sizes(game, &mut s), CarcStatus::Ok);
    s
}

fn record_text(game: *const CarcGame) -> String {
    let mut n = 0;
    assert_eq!(
        carc_game_to_record(game, null(), null_mut(), 0, &mut n),
        CarcStatus::Ok
    );
    let mut buf = vec![0 as c_char; n as usize];
    assert_eq!(
        carc_game_to_record(game, null(), buf.as_mut_ptr(), n, &mut n),
        CarcStatus::Ok
    );
    // SAFETY: NUL-terminated by the library.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string()
}

/// A buffer of `len` elements filled with `fill`, or NULL.
fn buffer<T: Copy>(len: u32, null_buf: bool, fill: T) -> Vec<T> {
    if null_buf {
        Vec::new()
    } else {
        vec![fill; len.min(1 << 20) as usize]
    }
}

fn ptr_of<T>(v: &mut [T], null_buf: bool) -> *mut T {
    if null_buf {
        null_mut()
    } else {
        v.as_mut_ptr()
    }
}

fn run(game: &mut *mut CarcGame, call: &Call) {
    let g = *game;
    match call {
        Call::LegalActions { null_buf, len } => {
            let marker = CarcAction {
                kind: 200,
                ..CarcAction::default()
            };
            let mut buf = buffer(*len, *null_buf, marker);
            let mut n = u32::MAX;
            let len = if *null_buf { *len } else { buf.len() as u32 };
            let s = carc_game_legal_actions(g, ptr_of(&mut buf, *null_buf), len, &mut n);
            ok_status(s, "legal_actions");
            match s {
                CarcStatus::Ok if !*null_buf => {
                    assert!(buf[..n as usize]
                        .iter()
                        .all(|a| (a.kind as usize) < ActionKind::ALL.len()));
                }
                CarcStatus::Ok => assert_eq!(len, 0),
                CarcStatus::BufferTooSmall => {
                    assert!(n > len);
                    assert!(buf.iter().all(|a| a.kind == 200));
                }
                CarcStatus::NullArgument => assert!(*null_buf && len > 0 && n == u32::MAX),
                other => panic!("legal_actions: {other:?}"),
            }
        }
        Call::ApplyLegal { pick } => {
            let list = legal(g);
            if !list.is_empty() {
                let a = list[*pick as usize % list.len()];
                assert_eq!(
                    carc_game_apply(g, &a),
                    CarcStatus::Ok,
                    "{}",
                    thread_message()
                );
            }
        }
        Call::ApplyRaw(a) | Call::IsLegal(a) => {
            let before = hash(g);
            let listed = legal(g).iter().any(|l| same_action(l, a));
            let mut flag = 9u8;
            let s = carc_game_is_legal(g, a, &mut flag);
            ok_status(s, "is_legal");
            if s == CarcStatus::Ok {
                assert_eq!(flag == 1, listed);
            } else {
                assert_eq!(s, CarcStatus::InvalidArgument);
                assert_eq!(flag, 9);
            }
            if matches!(call, Call::ApplyRaw(_)) {
                let s = carc_game_apply(g, a);
                ok_status(s, "apply");
                if listed {
                    assert_eq!(s, CarcStatus::Ok);
                } else {
                    assert!(matches!(
                        s,
                        CarcStatus::IllegalAction
                            | CarcStatus::InvalidArgument
                            | CarcStatus::GameOver
                    ));
                    assert_eq!(hash(g), before, "a refused action changed the game");
                }
            }
        }
        Call::ApplyFlatOffered { pick } => {
            let s = sizes(g);
            let mut mask = vec![0i8; s.actions as usize];
            let mut n = 0;
            let st = carc_game_legal_mask(g, mask.as_mut_ptr(), s.actions, &mut n, null_mut());
            assert_eq!(st, CarcStatus::Ok);
            let offered: Vec<u32> = (0..s.actions).filter(|&i| mask[i as usize] == 1).collect();
            if !offered.is_empty() {
                let id = offered[*pick as usize % offered.len()];
                let mut done = 9u8;
                assert_eq!(
                    carc_game_apply_flat(g, id, &mut done),
                    CarcStatus::Ok,
                    "{}",
                    thread_message()
                );
                assert!(done <= 1);
            }
        }
        Call::ApplyFlatRaw { id } => {
            let before = hash(g);
            let s = carc_game_apply_flat(g, *id, null_mut());
            ok_status(s, "apply_flat");
            if s != CarcStatus::Ok {
                assert_eq!(hash(g), before);
            }
        }
        Call::ActionToFlat { pick } => {
            let list = legal(g);
            if !list.is_empty() {
                let a = list[*pick as usize % list.len()];
                let (mut first, mut second) = (7u32, 7u32);
                let s = carc_game_action_to_flat(g, &a, &mut first, &mut second);
                ok_status(s, "action_to_flat");
                match s {
                    CarcStatus::Ok => assert!(first < sizes(g).actions),
                    // A pending focus, a draw, or a square outside the window.
                    CarcStatus::InvalidArgument | CarcStatus::IllegalAction => {
                        assert_eq!((first, second), (7, 7))
                    }
                    other => panic!("action_to_flat: {other:?}"),
                }
            }
        }
        Call::Mask {
            len,
            null_buf,
            with_info,
        } => {
            let mut buf = buffer(*len, *null_buf, 5i8);
            let len = if *null_buf { *len } else { buf.len() as u32 };
            let mut info = CarcMaskInfo {
                legal: 77,
                ..CarcMaskInfo::default()
            };
            let info_ptr: *mut CarcMaskInfo = if *with_info { &mut info } else { null_mut() };
            let mut n = 0;
            let s = carc_game_legal_mask(g, ptr_of(&mut buf, *null_buf), len, &mut n, info_ptr);
            ok_status(s, "legal_mask");
            if s == CarcStatus::Ok && !*null_buf {
                assert!(buf[..n as usize].iter().all(|m| *m == 0 || *m == 1));
            } else {
                assert_eq!(info.legal, 77);
            }
        }
        Call::Observe {
            player,
            planes_len,
            globals_len,
            null_buf,
        } => {
            let mut planes = buffer(*planes_len, *null_buf, 0u8);
            let mut globals = buffer(*globals_len, *null_buf, 0f32);
            let (pl, gl) = if *null_buf {
                (*planes_len, *globals_len)
            } else {
                (planes.len() as u32, globals.len() as u32)
            };
            let (mut np, mut ng) = (0, 0);
            let s = carc_game_observe(
                g,
                *player,
                ptr_of(&mut planes, *null_buf),
                pl,
                &mut np,
                ptr_of(&mut globals, *null_buf),
                gl,
                &mut ng,
            );
            ok_status(s, "observe");
        }
        Call::Scores { len } => {
            let mut buf = vec![-1i32; (*len).min(64) as usize];
            let mut n = 0;
            let s = carc_game_scores(g, buf.as_mut_ptr(), buf.len() as u32, &mut n);
            ok_status(s, "scores");
            if s == CarcStatus::BufferTooSmall {
                assert!(buf.iter().all(|x| *x == -1));
            }
        }
        Call::Supply { player } => {
            let mut supply = CarcSupply {
                follower: 99,
                ..CarcSupply::default()
            };
            let s = carc_game_supply(g, *player, &mut supply);
            ok_status(s, "supply");
            if s == CarcStatus::Ok {
                assert!(supply.follower <= 7);
            } else {
                assert_eq!(supply.follower, 99);
            }
        }
        Call::Queries => {
            let mut t = 0u8;
            let mut p = 0u32;
            let mut d = CarcDragon::default();
            let mut f = CarcFairy::default();
            assert_eq!(carc_game_is_terminal(g, &mut t), CarcStatus::Ok);
            assert_eq!(carc_game_to_play(g, &mut p), CarcStatus::Ok);
            assert_eq!(carc_game_dragon(g, &mut d), CarcStatus::Ok);
            assert_eq!(carc_game_fairy(g, &mut f), CarcStatus::Ok);
            assert_eq!(t == 1, legal(g).is_empty());
        }
        Call::Board { len } => {
            let l = (*len).min(4096);
            let mut tiles = vec![CarcPlacedTile::default(); l as usize];
            let mut figures = vec![CarcBoardFigure::default(); l as usize];
            let mut remaining = vec![0u8; l as usize];
            let mut n = 0;
            ok_status(
                carc_game_placed_tiles(g, tiles.as_mut_ptr(), l, &mut n),
                "placed_tiles",
            );
            ok_status(
                carc_game_board_figures(g, figures.as_mut_ptr(), l, &mut n),
                "board_figures",
            );
            ok_status(
                carc_game_remaining_tiles(g, remaining.as_mut_ptr(), l, &mut n),
                "remaining_tiles",
            );
        }
        Call::Draw { pick, raw } => {
            let mut n = 0;
            assert_eq!(
                carc_game_chance_outcomes(g, null_mut(), 0, &mut n),
                CarcStatus::Ok
            );
            let mut outcomes = vec![CarcChanceOutcome::default(); n as usize];
            assert_eq!(
                carc_game_chance_outcomes(g, outcomes.as_mut_ptr(), n, &mut n),
                CarcStatus::Ok
            );
            let tile = match raw {
                Some(t) => u32::from(*t),
                None if n > 0 => u32::from(outcomes[*pick as usize % n as usize].tile),
                None => 0,
            };
            let s = carc_game_apply_draw(g, tile);
            ok_status(s, "apply_draw");
            if raw.is_none() && n > 0 {
                assert_eq!(s, CarcStatus::Ok);
            }
        }
        Call::Record { len } => {
            let mut buf = vec![1 as c_char; (*len).min(1 << 20) as usize];
            let mut n = 0;
            let id = c"fuzz";
            let s = carc_game_to_record(g, id.as_ptr(), buf.as_mut_ptr(), buf.len() as u32, &mut n);
            ok_status(s, "to_record");
            let mut terminal = 0u8;
            assert_eq!(carc_game_is_terminal(g, &mut terminal), CarcStatus::Ok);
            if s == CarcStatus::Ok {
                let mut loaded = null_mut();
                let s = carc_game_from_record(buf.as_ptr(), 1, &mut loaded);
                assert_eq!(s, CarcStatus::Ok, "{}", thread_message());
                let (mut a, mut b) = ([0i32; 6], [0i32; 6]);
                assert_eq!(
                    carc_game_scores(g, a.as_mut_ptr(), 6, &mut n),
                    CarcStatus::Ok
                );
                assert_eq!(
                    carc_game_scores(loaded, b.as_mut_ptr(), 6, &mut n),
                    CarcStatus::Ok
                );
                assert_eq!(a, b);
                carc_game_free(loaded);
            } else {
                assert!(buf.iter().all(|c| *c == 1));
            }
        }
        Call::MangledRecord { cut, flip } => {
            let mut bytes = record_text(g).into_bytes();
            let at = *flip as usize % bytes.len();
            bytes[at] = bytes[at].wrapping_add(1).max(1);
            bytes.truncate(bytes.len() - *cut as usize % bytes.len());
            let text = CString::new(bytes).unwrap();
            let mut loaded = 0x10 as *mut CarcGame;
            let s = carc_game_from_record(text.as_ptr(), 0, &mut loaded);
            ok_status(s, "from_record");
            if s == CarcStatus::Ok {
                carc_game_free(loaded);
            } else {
                assert!(matches!(
                    s,
                    CarcStatus::BadRecord
                        | CarcStatus::RecordMismatch
                        | CarcStatus::InvalidArgument
                ));
                assert_eq!(loaded, 0x10 as *mut CarcGame);
            }
        }
        Call::Render { svg, len } => {
            let mut buf = vec![1 as c_char; (*len).min(1 << 20) as usize];
            let mut n = 0;
            let s = if *svg {
                carc_game_render_svg(g, buf.as_mut_ptr(), buf.len() as u32, &mut n)
            } else {
                carc_game_render_text(g, buf.as_mut_ptr(), buf.len() as u32, &mut n)
            };
            ok_status(s, "render");
            if s == CarcStatus::Ok {
                assert_eq!(buf[n as usize - 1], 0);
            }
        }
        Call::LastError { len } => {
            let mut buf = vec![1 as c_char; (*len).min(4096) as usize];
            let mut n = 0;
            let s = carc_game_last_error(g, buf.as_mut_ptr(), buf.len() as u32, &mut n);
            assert!(matches!(s, CarcStatus::Ok | CarcStatus::BufferTooSmall));
        }
        Call::CloneSwap => {
            let mut copy = null_mut();
            assert_eq!(carc_game_clone(g, &mut copy), CarcStatus::Ok);
            assert_eq!(hash(copy), hash(g));
            carc_game_free(g);
            *game = copy;
        }
        Call::NullEverything => {
            let mut n = 0;
            assert_eq!(carc_game_apply(g, null()), CarcStatus::NullArgument);
            assert_eq!(
                carc_game_legal_actions(null(), null_mut(), 0, &mut n),
                CarcStatus::NullArgument
            );
            assert_eq!(
                carc_game_scores(g, null_mut(), 0, null_mut()),
                CarcStatus::NullArgument
            );
            assert_eq!(
                carc_game_observe(g, 0, null_mut(), 0, null_mut(), null_mut(), 0, null_mut()),
                CarcStatus::NullArgument
            );
            assert_eq!(carc_game_supply(g, 0, null_mut()), CarcStatus::NullArgument);
            assert_eq!(carc_game_clone(g, null_mut()), CarcStatus::NullArgument);
            carc_game_free(null_mut());
        }
        Call::MangledConfig { base, cut, junk } => {
            let mut bytes = CONFIGS[*base].as_bytes().to_vec();
            bytes.truncate(bytes.len() - *cut as usize % bytes.len());
            bytes.extend(junk.iter().map(|b| b.max(&1)));
            let text = CString::new(bytes).unwrap();
            let mut made = 0x10 as *mut CarcGame;
            let s = carc_game_new(text.as_ptr(), &mut made);
            ok_status(s, "new");
            if s == CarcStatus::Ok {
                carc_game_free(made);
            } else {
                assert!(matches!(
                    s,
                    CarcStatus::InvalidConfig | CarcStatus::InvalidArgument
                ));
                assert_eq!(made, 0x10 as *mut CarcGame);
            }
        }
        Call::HostileText { which } => {
            let text = CString::new(hostile_texts()[*which].clone()).unwrap();
            let mut made = 0x10 as *mut CarcGame;
            let s = carc_game_new(text.as_ptr(), &mut made);
            assert_eq!(s, CarcStatus::InvalidConfig, "text {which}");
            assert_eq!(made, 0x10 as *mut CarcGame);
            let message = thread_message();
            assert!(message.len() < 600, "text {which}: {} bytes", message.len());
            let s = carc_game_from_record(text.as_ptr(), 0, &mut made);
            assert_eq!(s, CarcStatus::BadRecord, "text {which}");
            assert_eq!(made, 0x10 as *mut CarcGame);
            assert!(thread_message().len() < 600, "text {which}");
        }
        Call::BadHandle { which, call } => {
            // A freed clone, a bot, or a pointer to the stack, where a game is expected.
            let mut local = [0u64; 8];
            let mut bot = null_mut();
            assert_eq!(
                carc_bot_new(c"random".as_ptr(), 1, &mut bot),
                CarcStatus::Ok
            );
            let bad: *mut CarcGame = match which {
                0 => {
                    let mut copy = null_mut();
                    assert_eq!(carc_game_clone(g, &mut copy), CarcStatus::Ok);
                    carc_game_free(copy);
                    copy
                }
                1 => bot.cast(),
                _ => local.as_mut_ptr().cast(),
            };
            let before = hash(g);
            let mut n = 7u32;
            let mut action = CarcAction::default();
            let s = match call {
                0 => carc_game_to_play(bad, &mut n),
                1 => carc_game_legal_actions(bad, null_mut(), 0, &mut n),
                2 => carc_game_apply(bad, &action),
                _ => carc_bot_choose(bot, bad, &mut action),
            };
            assert_eq!(s, CarcStatus::InvalidHandle, "{which} {call}");
            assert_eq!(n, 7, "nothing written");
            // A game passed as a bot, and freeing what is not a live game.
            assert_eq!(
                carc_bot_choose(g.cast(), g, &mut action),
                CarcStatus::InvalidHandle
            );
            carc_game_free(bad);
            assert!(thread_message().contains("is not a live game handle"));
            carc_bot_free(bot);
            carc_bot_free(bot);
            assert_eq!(hash(g), before, "the live game is untouched");
        }
        Call::ExpansionState {
            len,
            null_buf,
            table,
            column,
        } => {
            let marker = CarcStateRow {
                table: u32::MAX,
                ..CarcStateRow::default()
            };
            let mut buf = buffer(*len, *null_buf, marker);
            let mut n = u32::MAX;
            let len = if *null_buf { *len } else { buf.len() as u32 };
            let s = carc_game_expansion_state(g, ptr_of(&mut buf, *null_buf), len, &mut n);
            ok_status(s, "expansion_state");
            match s {
                CarcStatus::Ok if !*null_buf => {
                    for row in &buf[..n as usize] {
                        let mut t = CarcStateTable {
                            name: null(),
                            expansion: null(),
                            doc: null(),
                            columns: 0,
                            rows: 0,
                            reserved8: 0,
                            reserved16: 0,
                        };
                        assert_eq!(carc_state_table(row.table, &mut t), CarcStatus::Ok);
                        let mut in_play = 9;
                        assert_eq!(
                            carc_game_state_table_in_play(g, row.table, &mut in_play),
                            CarcStatus::Ok
                        );
                        assert_eq!(in_play, 1, "a row of a table in play");
                        let (used, rest) = row.values.split_at(t.columns as usize);
                        assert!(rest.iter().all(|v| *v == 0));
                        for (c, v) in used.iter().enumerate() {
                            let mut col = CarcStateColumn {
                                name: null(),
                                doc: null(),
                                kind: 0,
                                optional: 0,
                                reserved16: 0,
                                reserved32: 0,
                            };
                            assert_eq!(
                                carc_state_column(row.table, c as u32, &mut col),
                                CarcStatus::Ok
                            );
                            assert!(col.optional == 1 || *v != CARC_STATE_ABSENT);
                        }
                    }
                }
                CarcStatus::Ok => assert_eq!(len, 0),
                CarcStatus::BufferTooSmall => {
                    assert!(n > len);
                    assert!(buf.iter().all(|r| r.table == u32::MAX));
                }
                CarcStatus::NullArgument => assert!(*null_buf && len > 0 && n == u32::MAX),
                other => panic!("expansion_state: {other:?}"),
            }
            let mut out = 9u8;
            let s = carc_game_state_table_in_play(g, *table, &mut out);
            ok_status(s, "state_table_in_play");
            if s != CarcStatus::Ok {
                assert_eq!((s, out), (CarcStatus::InvalidArgument, 9));
            }
            let mut col = CarcStateColumn {
                name: null(),
                doc: null(),
                kind: 77,
                optional: 0,
                reserved16: 0,
                reserved32: 0,
            };
            let s = carc_state_column(*table, *column, &mut col);
            ok_status(s, "state_column");
            if s == CarcStatus::Ok {
                assert!(!col.name.is_null() && col.kind <= 9);
            } else {
                assert_eq!((s, col.kind), (CarcStatus::InvalidArgument, 77));
            }
        }
        Call::Catalogue { kind, feature } => {
            let mut id: *const c_char = null();
            ok_status(carc_tile_kind_id(*kind, &mut id), "tile_kind_id");
            ok_status(
                carc_tile_feature_id(*kind, *feature, &mut id),
                "tile_feature_id",
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzz_cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_call_sequences_never_crash(
        config in 0..CONFIGS.len(),
        calls in proptest::collection::vec(call(), 1..160),
    ) {
        let text = CString::new(CONFIGS[config]).unwrap();
        let mut game = null_mut();
        prop_assert_eq!(carc_game_new(text.as_ptr(), &mut game), CarcStatus::Ok);
        for c in &calls {
            run(&mut game, c);
        }
        // The handle is still healthy: the game can be played to its end.
        let mut guard = 0;
        loop {
            let mut t = 0u8;
            prop_assert_eq!(carc_game_is_terminal(game, &mut t), CarcStatus::Ok);
            if t == 1 || guard > 5000 {
                break;
            }
            guard += 1;
            let mut n = 0;
            prop_assert_eq!(carc_game_chance_outcomes(game, null_mut(), 0, &mut n), CarcStatus::Ok);
            if n > 0 {
                let mut o = vec![CarcChanceOutcome::default(); n as usize];
                prop_assert_eq!(carc_game_chance_outcomes(game, o.as_mut_ptr(), n, &mut n), CarcStatus::Ok);
                prop_assert_eq!(carc_game_apply_draw(game, u32::from(o[0].tile)), CarcStatus::Ok);
                continue;
            }
            let list = legal(game);
            prop_assert!(!list.is_empty());
            prop_assert_eq!(carc_game_apply(game, &list[list.len() / 2]), CarcStatus::Ok);
        }
        carc_game_free(game);
    }
}

/// The record of an unfinished game, written in the middle of a turn, loads back to a
/// game at the same point with the same scores.
#[test]
fn unfinished_game_record_loads_back() {
    let config = CString::new(CONFIGS[0]).unwrap();
    let mut game = null_mut();
    assert_eq!(carc_game_new(config.as_ptr(), &mut game), CarcStatus::Ok);
    let first = legal(game)[0];
    assert_eq!(carc_game_apply(game, &first), CarcStatus::Ok);
    let text = CString::new(record_text(game)).unwrap();
    let mut loaded = null_mut();
    let status = carc_game_from_record(text.as_ptr(), 1, &mut loaded);
    let message = thread_message();
    carc_game_free(game);
    carc_game_free(loaded);
    assert_eq!(status, CarcStatus::Ok, "{message}");
}
