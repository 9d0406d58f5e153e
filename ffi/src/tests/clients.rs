//! What a game client needs from the C ABI, and the contracts `docs/c-api.md` states:
//!
//! * exact save and resume: a record written by `carc_game_to_record` and loaded by
//!   `carc_game_from_record_ex` continues with the same draws, window and pending focus;
//! * events: every score and every figure returned, numbered for a cursor, adding up to
//!   the scores; the parts of each scored feature;
//! * tile geometry for every tile kind against the catalogue `tests/data/tiles.json`;
//! * the getters of the last placed tile, the pending focus (and its cancelling) and the
//!   window origin;
//! * the status precedence, the size-query convention, `CarcMaskInfo` at a draw and the
//!   `CarcAction` fields checked for `CARC_STATUS_INVALID_ARGUMENT`.

use crate::action::{
    carc_game_apply, carc_game_apply_draw, carc_game_chance_outcomes, carc_game_is_legal,
    carc_game_legal_actions,
};
use crate::engine_types::{
    CARC_SYMBOL_ABBEY, CARC_SYMBOL_BAZAAR, CARC_SYMBOL_CATHEDRAL, CARC_SYMBOL_COUNT_QUARTERS,
    CARC_SYMBOL_DRAGON, CARC_SYMBOL_GARDEN, CARC_SYMBOL_GOODS, CARC_SYMBOL_HILL, CARC_SYMBOL_INN,
    CARC_SYMBOL_MAGIC_PORTAL, CARC_SYMBOL_MONASTERY, CARC_SYMBOL_PIG_HERD, CARC_SYMBOL_PRINCESS,
    CARC_SYMBOL_RIVER, CARC_SYMBOL_SHRINE, CARC_SYMBOL_TOWER, CARC_SYMBOL_TUNNEL,
    CARC_SYMBOL_VINEYARD, CARC_SYMBOL_VOLCANO, CARC_SYMBOL_WELL,
};
use crate::events::{carc_game_event_count, carc_game_event_parts, carc_game_events};
use crate::game::{
    carc_game_free, carc_game_from_record, carc_game_from_record_ex, carc_game_last_error,
    carc_game_new, carc_game_to_record, carc_last_error,
};
use crate::guard::with_game_mut;
use crate::learn::{
    carc_game_action_to_flat, carc_game_apply_flat, carc_game_cancel_focus, carc_game_legal_mask,
    carc_game_num_actions, carc_game_observation_sizes, carc_game_observe, carc_game_pending_focus,
    carc_game_window_origin,
};
use crate::render::{carc_game_render_svg, carc_game_render_text};
use crate::state::{
    carc_game_board_figures, carc_game_is_terminal, carc_game_last_placed, carc_game_num_players,
    carc_game_phase, carc_game_placed_tiles, carc_game_prisoners, carc_game_remaining_tiles,
    carc_game_scores, carc_game_state_hash, carc_game_supply, carc_game_tile_in_hand,
    carc_game_tower_pieces, carc_game_towers, CarcTower,
};
use crate::tiles::{
    carc_tile_feature_count, carc_tile_feature_geometry, carc_tile_feature_id,
    carc_tile_kind_count, carc_tile_kind_index, carc_tile_symbols, CARC_FEATURE_CATHEDRAL,
    CARC_FEATURE_INN, CARC_FEATURE_INNER, CARC_FEATURE_PIG_HERD, CARC_FEATURE_PRINCESS,
    CARC_FEATURE_TUNNEL, CARC_FEATURE_WELL,
};
use crate::{
    CarcAction, CarcActionKind, CarcChanceOutcome, CarcEvent, CarcEventKind, CarcFeatureGeometry,
    CarcFeatureKind, CarcFeaturePart, CarcFocus, CarcGame, CarcMaskInfo, CarcObservationSizes,
    CarcPhase, CarcPlacedTile, CarcStatus, CarcSupply, CarcWindowOrigin, CARC_NO_FEATURE,
    CARC_NO_TURN,
};
use carcassonne_core::rules::bcb::MAX_BID;
use carcassonne_core::Rng;
use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

const OK: CarcStatus = CarcStatus::Ok;

fn new_game(config: &str) -> *mut CarcGame {
    let text = CString::new(config).unwrap();
    let mut game = null_mut();
    assert_eq!(carc_game_new(text.as_ptr(), &mut game), OK, "{config}");
    game
}

fn record_of(game: *const CarcGame) -> String {
    let mut n = 0;
    assert_eq!(carc_game_to_record(game, null(), null_mut(), 0, &mut n), OK);
    let mut buf = vec![0 as c_char; n as usize];
    assert_eq!(
        carc_game_to_record(game, null(), buf.as_mut_ptr(), n, &mut n),
        OK
    );
    // SAFETY: NUL-terminated by the library.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string()
}

fn load_ex(record: &str, options: Option<&str>) -> Result<*mut CarcGame, CarcStatus> {
    let record = CString::new(record).unwrap();
    let options = options.map(|o| CString::new(o).unwrap());
    let mut game = null_mut();
    let s = carc_game_from_record_ex(
        record.as_ptr(),
        options.as_ref().map_or(null(), |o| o.as_ptr()),
        &mut game,
    );
    if s == OK {
        Ok(game)
    } else {
        assert!(game.is_null(), "out written on failure");
        Err(s)
    }
}

fn hash(game: *const CarcGame) -> u64 {
    let mut h = 0;
    assert_eq!(carc_game_state_hash(game, &mut h), OK);
    h
}

fn terminal(game: *const CarcGame) -> bool {
    let mut t = 0;
    assert_eq!(carc_game_is_terminal(game, &mut t), OK);
    t == 1
}

fn phase(game: *const CarcGame) -> CarcPhase {
    let mut p = CarcPhase::GameOver;
    assert_eq!(carc_game_phase(game, &mut p), OK);
    p
}

fn sizes(game: *const CarcGame) -> CarcObservationSizes {
    let mut s = CarcObservationSizes::default();
    assert_eq!(carc_game_observation_sizes(game, &mut s), OK);
    s
}

fn mask(game: *const CarcGame) -> (Vec<i8>, CarcMaskInfo) {
    let n = sizes(game).actions;
    let mut m = vec![0i8; n as usize];
    let mut info = CarcMaskInfo::default();
    let mut needed = 0;
    assert_eq!(
        carc_game_legal_mask(game, m.as_mut_ptr(), n, &mut needed, &mut info),
        OK
    );
    (m, info)
}

fn observation(game: *const CarcGame, player: u32) -> (Vec<u8>, Vec<f32>) {
    let s = sizes(game);
    let mut planes = vec![0u8; s.planes_len as usize];
    let mut globals = vec![0f32; s.globals_len as usize];
    let (mut np, mut ng) = (0, 0);
    assert_eq!(
        carc_game_observe(
            game,
            player,
            planes.as_mut_ptr(),
            s.planes_len,
            &mut np,
            globals.as_mut_ptr(),
            s.globals_len,
            &mut ng
        ),
        OK
    );
    (planes, globals)
}

fn legal(game: *const CarcGame) -> Vec<CarcAction> {
    let mut n = 0;
    assert_eq!(carc_game_legal_actions(game, null_mut(), 0, &mut n), OK);
    let mut v = vec![CarcAction::default(); n as usize];
    assert_eq!(carc_game_legal_actions(game, v.as_mut_ptr(), n, &mut n), OK);
    v
}

fn focus(game: *const CarcGame) -> CarcFocus {
    let mut f = CarcFocus::default();
    assert_eq!(carc_game_pending_focus(game, &mut f), OK);
    f
}

fn events(game: *const CarcGame, first: u32) -> Vec<CarcEvent> {
    let mut n = 0;
    assert_eq!(carc_game_events(game, first, null_mut(), 0, &mut n), OK);
    let mut v = vec![CarcEvent::default(); n as usize];
    assert_eq!(carc_game_events(game, first, v.as_mut_ptr(), n, &mut n), OK);
    v
}

fn scores(game: *const CarcGame) -> Vec<i32> {
    let mut n = 0;
    let mut v = vec![0i32; 6];
    assert_eq!(carc_game_scores(game, v.as_mut_ptr(), 6, &mut n), OK);
    v.truncate(n as usize);
    v
}

/// Takes one step with flat ids: an offered id picked by `rng` (a `CELL` id leaves a
/// focus pending); explicit draws by their first outcome.
fn flat_step(game: *mut CarcGame, rng: &mut Rng) {
    if phase(game) == CarcPhase::Draw {
        let mut n = 0;
        let mut outcomes = [CarcChanceOutcome::default(); 128];
        assert_eq!(
            carc_game_chance_outcomes(game, outcomes.as_mut_ptr(), 128, &mut n),
            OK
        );
        assert_eq!(carc_game_apply_draw(game, outcomes[0].tile as u32), OK);
        return;
    }
    let (m, info) = mask(game);
    if info.offered == 0 {
        // Nothing in the window: a structured action.
        let l = legal(game);
        let a = l[rng.below(l.len() as u32) as usize];
        assert_eq!(carc_game_apply(game, &a), OK);
        return;
    }
    let offered: Vec<u32> = (0..m.len() as u32)
        .filter(|i| m[*i as usize] == 1)
        .collect();
    let id = offered[rng.below(offered.len() as u32) as usize];
    assert_eq!(carc_game_apply_flat(game, id, null_mut()), OK);
}

// ----- save and resume ----------------------------------------------------------------

/// A sampled game saved in the middle (a focus pending half of the times) and loaded
/// with `carc_game_from_record_ex` is the same game: hash, window, focus, mask and
/// observation; given the same ids it goes on with the same draws to the same record.
#[test]
fn a_saved_game_resumes_exactly() {
    let config = r#"{"players":3,"sets":["base","river1","princess-and-dragon","abbey-and-mayor"],"figures":{"abbot":1},"seed":21,"window":9}"#;
    for stop in [0, 5, 23, 48, 80] {
        let game = new_game(config);
        let mut rng = Rng::new(stop);
        for _ in 0..stop {
            flat_step(game, &mut rng);
        }
        // Take a CELL id if the decision offers one, so that a focus is pending.
        let (m, _) = mask(game);
        let s = sizes(game);
        let cell_base = 4 * s.window * s.window;
        if let Some(cell) =
            (cell_base..cell_base + s.window * s.window).find(|i| m[*i as usize] == 1)
        {
            let mut completed = 9;
            assert_eq!(carc_game_apply_flat(game, cell, &mut completed), OK);
            // A CELL id picks a focus, or completes an abbey or a dragon step.
            assert_eq!(focus(game).pending, 1 - completed);
        }
        let saved = record_of(game);
        let back = load_ex(&saved, None).unwrap();
        assert_eq!(hash(back), hash(game), "stop {stop}");
        assert_eq!(sizes(back), sizes(game), "the record's window");
        assert_eq!(focus(back), focus(game), "the pending focus");
        assert_eq!(mask(back), mask(game));
        assert_eq!(observation(back, 1), observation(game, 1));
        let mut a = Rng::new(stop + 1000);
        let mut b = a.clone();
        while !terminal(game) {
            flat_step(game, &mut a);
            flat_step(back, &mut b);
            assert_eq!(hash(back), hash(game), "stop {stop}: the draws differ");
        }
        assert!(terminal(back));
        assert_eq!(record_of(back), record_of(game));
        carc_game_free(back);
        carc_game_free(game);
    }
}

/// `carc_game_from_record` keeps its contract (the chance mode asked for, the default
/// window) and now restores the generator too; options of `carc_game_from_record_ex`
/// override the record's values and are checked.
#[test]
fn loading_options_and_the_old_loader() {
    let game = new_game(r#"{"players":2,"sets":["base"],"seed":5,"window":7}"#);
    let mut rng = Rng::new(3);
    for _ in 0..30 {
        flat_step(game, &mut rng);
    }
    let saved = CString::new(record_of(game)).unwrap();
    let mut old = null_mut();
    assert_eq!(carc_game_from_record(saved.as_ptr(), 0, &mut old), OK);
    assert_eq!(
        sizes(old).window,
        32,
        "the old loader keeps the default window"
    );
    assert_eq!(focus(old).pending, 0);
    // Same structured decisions: the same draws (same tile in hand every turn).
    let mut r = Rng::new(4);
    while !terminal(game) {
        let l = legal(game);
        let a = l[r.below(l.len() as u32) as usize];
        assert_eq!(carc_game_apply(game, &a), OK);
        assert_eq!(carc_game_apply(old, &a), OK);
        let (mut x, mut y) = (0, 1);
        assert_eq!(carc_game_tile_in_hand(game, &mut x), OK);
        assert_eq!(carc_game_tile_in_hand(old, &mut y), OK);
        assert_eq!(x, y);
    }
    carc_game_free(old);
    let text = saved.to_str().unwrap();
    let explicit = load_ex(text, Some(r#"{"chance":"explicit","window":5}"#)).unwrap();
    assert_eq!(sizes(explicit).window, 5);
    carc_game_free(explicit);
    for bad in [
        r#"{"colour":1}"#,
        r#"{"chance":"dice"}"#,
        r#"{"window":2}"#,
        r#"{"window":"big"}"#,
        r#"[]"#,
        r#"{"#,
    ] {
        assert_eq!(
            load_ex(text, Some(bad)),
            Err(CarcStatus::InvalidArgument),
            "{bad}"
        );
    }
    // A saved focus that no decision offers is a bad record, named.
    let mut v: Value = serde_json::from_str(text).unwrap();
    v["resume"]["focus"] = serde_json::json!([400, 400]);
    assert_eq!(load_ex(&v.to_string(), None), Err(CarcStatus::BadRecord));
    assert!(
        thread_error().contains("resume.focus"),
        "{}",
        thread_error()
    );
    carc_game_free(game);
}

fn thread_error() -> String {
    let mut buf = vec![0 as c_char; 1024];
    let mut n = 0;
    assert_eq!(carc_last_error(buf.as_mut_ptr(), 1024, &mut n), OK);
    // SAFETY: NUL-terminated by the library.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

// ----- events ---------------------------------------------------------------------------

/// A client's cursor over the events: numbers never change, the points add up to the
/// scores, the final scoring's events come last, every figure returns, scored features
/// list their parts (with the event's place among them).
#[test]
fn events_add_up_to_the_scores_and_keep_their_numbers() {
    for (seed, config) in [
        r#"{"players":2,"sets":["base"],"seed":1}"#,
        r#"{"players":4,"sets":["base","river1","river2","princess-and-dragon","abbey-and-mayor"],"figures":{"abbot":1},"seed":2}"#,
        r#"{"players":3,"sets":["base","princess-and-dragon"],"rules":{"fairy":"on-tile","dragon_move":"after-scoring"},"seed":3}"#,
    ]
    .iter()
    .enumerate()
    {
        let game = new_game(config);
        let mut rng = Rng::new(seed as u64);
        let mut seen: Vec<CarcEvent> = Vec::new();
        while !terminal(game) {
            let l = legal(game);
            assert_eq!(
                carc_game_apply(game, &l[rng.below(l.len() as u32) as usize]),
                OK
            );
            let new = events(game, seen.len() as u32);
            seen.extend(new);
            let mut count = 0;
            assert_eq!(carc_game_event_count(game, &mut count), OK);
            assert_eq!(count as usize, seen.len());
        }
        assert_eq!(events(game, 0), seen, "events keep their numbers");
        let mut sum = vec![0; scores(game).len()];
        let mut placed_figures = 0;
        for (i, e) in seen.iter().enumerate() {
            if e.turn == CARC_NO_TURN {
                assert!(seen[i..].iter().all(|x| x.turn == CARC_NO_TURN));
            }
            let mut n = 0;
            assert_eq!(
                carc_game_event_parts(game, i as u32, null_mut(), 0, &mut n),
                OK
            );
            assert_eq!(n, e.parts);
            match e.kind {
                k if k == CarcEventKind::Score as u8 => {
                    sum[e.player as usize] += e.points;
                    let mut parts = vec![CarcFeaturePart::default(); n as usize];
                    assert_eq!(
                        carc_game_event_parts(game, i as u32, parts.as_mut_ptr(), n, &mut n),
                        OK
                    );
                    if e.parts > 0 {
                        assert_eq!(e.has_place, 1);
                        assert!(parts
                            .iter()
                            .any(|p| (p.x, p.y, p.feature) == (e.x, e.y, e.feature)));
                        assert!(parts.iter().all(|p| p.feature_kind == parts[0].feature_kind));
                    }
                }
                k if k == CarcEventKind::FigureReturned as u8 => {
                    assert_eq!(e.parts, 0);
                    assert_eq!(e.has_place, 1);
                    assert!(e.figure < 4, "never a barn");
                    assert!(e.cause <= 4);
                    placed_figures += 1;
                }
                k => panic!("event kind {k}"),
            }
        }
        assert_eq!(sum, scores(game), "{config}");
        assert!(placed_figures > 0);
        let mut n = 0;
        assert_eq!(
            carc_game_events(game, seen.len() as u32, null_mut(), 0, &mut n),
            OK
        );
        assert_eq!(n, 0);
        assert_eq!(
            carc_game_events(game, seen.len() as u32 + 1, null_mut(), 0, &mut n),
            CarcStatus::InvalidArgument
        );
        assert_eq!(
            carc_game_event_parts(game, seen.len() as u32, null_mut(), 0, &mut n),
            CarcStatus::InvalidArgument
        );
        carc_game_free(game);
    }
}

// ----- geometry -----------------------------------------------------------------------

fn catalogue_json() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/tiles.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `N0`.. `W2` of a segment mask.
fn segment_names(mask: u16) -> BTreeSet<String> {
    (0..12)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| format!("{}{}", ["N", "E", "S", "W"][i / 3], i % 3))
        .collect()
}

/// A segment name turned by `rot` quarter turns clockwise (the side moves, the third
/// stays: the catalogue's notation).
fn turned(name: &str, rot: usize) -> String {
    let sides = ["N", "E", "S", "W"];
    let side = sides.iter().position(|s| name.starts_with(s)).unwrap();
    format!("{}{}", sides[(side + rot) % 4], &name[1..])
}

/// The geometry of every feature of every tile kind, in all four rotations, is the
/// catalogue's: kind, segments, pennants, adjacent cities, flags, sides, corners; and
/// each tile's symbols.
#[test]
fn geometry_of_every_tile_kind_matches_the_catalogue() {
    let catalogue = catalogue_json();
    let sets: Vec<&str> = carcassonne_core::TileSet::ALL
        .iter()
        .map(|s| s.key())
        .collect();
    let mut kinds = 0;
    assert_eq!(carc_tile_kind_count(&mut kinds), OK);
    let mut checked = 0u32;
    for t in catalogue["tiles"].as_array().unwrap() {
        if !sets.contains(&t["set"].as_str().unwrap()) {
            continue;
        }
        let id = t["id"].as_str().unwrap();
        let mut kind = 0u16;
        let cid = CString::new(id).unwrap();
        assert_eq!(carc_tile_kind_index(cid.as_ptr(), &mut kind), OK, "{id}");
        let kind = u32::from(kind);
        let symbol_names = [
            ("monastery", CARC_SYMBOL_MONASTERY),
            ("garden", CARC_SYMBOL_GARDEN),
            ("river", CARC_SYMBOL_RIVER),
            ("volcano", CARC_SYMBOL_VOLCANO),
            ("dragon", CARC_SYMBOL_DRAGON),
            ("magic_portal", CARC_SYMBOL_MAGIC_PORTAL),
            ("princess", CARC_SYMBOL_PRINCESS),
            ("tunnel", CARC_SYMBOL_TUNNEL),
            ("inn", CARC_SYMBOL_INN),
            ("pig_herd", CARC_SYMBOL_PIG_HERD),
            ("well", CARC_SYMBOL_WELL),
            ("abbey", CARC_SYMBOL_ABBEY),
            ("shrine", CARC_SYMBOL_SHRINE),
            ("bazaar", CARC_SYMBOL_BAZAAR),
            ("count_quarters", CARC_SYMBOL_COUNT_QUARTERS),
            ("cathedral", CARC_SYMBOL_CATHEDRAL),
            ("tower", CARC_SYMBOL_TOWER),
            ("hill", CARC_SYMBOL_HILL),
            ("vineyard", CARC_SYMBOL_VINEYARD),
            // TB1: one goods symbol; which goods is the city part's.
            ("goods:wine", CARC_SYMBOL_GOODS),
            ("goods:grain", CARC_SYMBOL_GOODS),
            ("goods:cloth", CARC_SYMBOL_GOODS),
        ];
        let expected_symbols = t["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                symbol_names
                    .iter()
                    .find(|(n, _)| *n == s.as_str().unwrap())
                    .unwrap_or_else(|| panic!("{id}: symbol {s}"))
                    .1
            })
            .fold(0, |a, b| a | b);
        let mut symbols = 0;
        assert_eq!(carc_tile_symbols(kind, &mut symbols), OK);
        assert_eq!(symbols, expected_symbols, "{id} symbols");
        let features = t["features"].as_array().unwrap();
        let mut count = 0;
        assert_eq!(carc_tile_feature_count(kind, &mut count), OK);
        assert_eq!(count as usize, features.len(), "{id}");
        let ids: Vec<&str> = features.iter().map(|f| f["id"].as_str().unwrap()).collect();
        for (i, f) in features.iter().enumerate() {
            let ctx = format!("{id} {}", ids[i]);
            let mut name = null();
            assert_eq!(carc_tile_feature_id(kind, i as u32, &mut name), OK);
            // SAFETY: a static NUL-terminated string of the library.
            assert_eq!(unsafe { CStr::from_ptr(name) }.to_str().unwrap(), ids[i]);
            let segments: BTreeSet<String> = f
                .get("segments")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            let ty = f["type"].as_str().unwrap();
            let kind_expected = match ty {
                "city" => CarcFeatureKind::City,
                "road" => CarcFeatureKind::Road,
                "field" => CarcFeatureKind::Field,
                "monastery" | "abbey" => CarcFeatureKind::Monastery,
                "garden" => CarcFeatureKind::Garden,
                "river" => CarcFeatureKind::River,
                "shrine" => CarcFeatureKind::Shrine,
                "tower" => CarcFeatureKind::Tower,
                other => panic!("{ctx}: type {other}"),
            };
            let flag = |key: &str, bit: u8| {
                if f.get(key).and_then(Value::as_bool) == Some(true) {
                    bit
                } else {
                    0
                }
            };
            let flags = flag("princess", CARC_FEATURE_PRINCESS)
                | flag("tunnel", CARC_FEATURE_TUNNEL)
                | flag("inner", CARC_FEATURE_INNER)
                | flag("inn", CARC_FEATURE_INN)
                | flag("pig_herd", CARC_FEATURE_PIG_HERD)
                | flag("well", CARC_FEATURE_WELL)
                | flag("cathedral", CARC_FEATURE_CATHEDRAL);
            let adjacent = f
                .get("adjacent_cities")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|c| 1u16 << ids.iter().position(|x| *x == c.as_str().unwrap()).unwrap())
                .fold(0, |a, b| a | b);
            let pennants = f.get("pennants").and_then(Value::as_u64).unwrap_or(0);
            for rot in 0..4usize {
                let mut g = CarcFeatureGeometry::default();
                assert_eq!(
                    carc_tile_feature_geometry(kind, i as u32, rot as u32, &mut g),
                    OK
                );
                let names: BTreeSet<String> = segments.iter().map(|s| turned(s, rot)).collect();
                assert_eq!(segment_names(g.segments), names, "{ctx} rot {rot}");
                assert_eq!(g.kind, kind_expected as u8, "{ctx}");
                assert_eq!(u64::from(g.pennants), pennants, "{ctx}");
                assert_eq!(g.adjacent_cities, adjacent, "{ctx}");
                assert_eq!(g.flags, flags, "{ctx}");
                // Corners: both edge thirds at the corner; sides: a feature touches a side
                // through any of its thirds (a road or river holds the middle one; two
                // cities may share a side, HS-CORNER-AND-CAP-VINEYARD).
                let has = |n: String| names.contains(&n);
                let corners = [("W2", "N0"), ("N2", "E0"), ("E2", "S0"), ("S2", "W0")]
                    .iter()
                    .enumerate()
                    .filter(|(_, (a, b))| has(a.to_string()) && has(b.to_string()))
                    .fold(0u8, |acc, (c, _)| acc | 1 << c);
                assert_eq!(g.corners, corners, "{ctx} rot {rot}");
                let sides = (0..4)
                    .filter(|s| {
                        let side = ["N", "E", "S", "W"][*s];
                        (0..3).any(|k| has(format!("{side}{k}")))
                    })
                    .fold(0u8, |acc, s| acc | 1 << s);
                assert_eq!(g.sides, sides, "{ctx} rot {rot}");
                let is_path = matches!(ty, "road" | "river");
                assert_eq!(g.road_end != 0, is_path, "{ctx}");
                if let Some(open) = f.get("open_sides").and_then(Value::as_array) {
                    assert_eq!(open.len() >= 2, g.road_end == 1, "{ctx}: through");
                }
            }
            checked += 1;
        }
    }
    let total: u32 = (0..kinds)
        .map(|k| {
            let mut n = 0;
            assert_eq!(carc_tile_feature_count(k, &mut n), OK);
            n
        })
        .sum();
    assert_eq!(checked, total, "every feature of every tile kind");
    let mut g = CarcFeatureGeometry::default();
    assert_eq!(
        carc_tile_feature_geometry(0, 0, 4, &mut g),
        CarcStatus::InvalidArgument
    );
    assert_eq!(
        carc_tile_feature_geometry(kinds, 0, 0, &mut g),
        CarcStatus::InvalidArgument
    );
    assert_eq!(
        carc_tile_feature_geometry(0, 99, 0, &mut g),
        CarcStatus::InvalidArgument
    );
}

// ----- getters ----------------------------------------------------------------------------

/// The last placed tile is the last of the board list; a pending focus is reported and
/// cancelled (the mask offers the first ids again); the window origin is the board
/// square of window cell (0, 0).
#[test]
fn last_placed_focus_and_window_origin() {
    let game = new_game(
        r#"{"players":2,"sets":["base","princess-and-dragon","abbey-and-mayor"],"seed":8,"window":11}"#,
    );
    let mut rng = Rng::new(8);
    let mut cancelled_some = false;
    for _ in 0..200 {
        if terminal(game) {
            break;
        }
        let mut n = 0;
        assert_eq!(carc_game_placed_tiles(game, null_mut(), 0, &mut n), OK);
        let mut tiles = vec![CarcPlacedTile::default(); n as usize];
        assert_eq!(
            carc_game_placed_tiles(game, tiles.as_mut_ptr(), n, &mut n),
            OK
        );
        let mut last = CarcPlacedTile::default();
        assert_eq!(carc_game_last_placed(game, &mut last), OK);
        assert_eq!(Some(&last), tiles.last());
        let mut origin = CarcWindowOrigin::default();
        assert_eq!(carc_game_window_origin(game, &mut origin), OK);
        // The window centres the board's bounding box grown by one square.
        let (min_x, max_x) = (
            tiles.iter().map(|t| t.x).min().unwrap(),
            tiles.iter().map(|t| t.x).max().unwrap(),
        );
        let (min_y, max_y) = (
            tiles.iter().map(|t| t.y).min().unwrap(),
            tiles.iter().map(|t| t.y).max().unwrap(),
        );
        assert_eq!(origin.x, (min_x + max_x + 1 - 11).div_euclid(2));
        assert_eq!(origin.y, (min_y + max_y + 1 - 11).div_euclid(2));
        let (m, info) = mask(game);
        let cell_base = 4 * 11 * 11;
        // A CELL id that picks a focus (others complete an abbey or a dragon step).
        let pick = (cell_base..cell_base + 121).find(|i| m[*i as usize] == 1);
        let mut completed = 1;
        if let Some(cell) = pick {
            assert_eq!(carc_game_apply_flat(game, cell, &mut completed), OK);
        }
        if let (Some(cell), 0) = (pick, completed) {
            let f = focus(game);
            assert_eq!(f.pending, 1);
            let c = cell - cell_base;
            assert_eq!(
                (f.x, f.y),
                (origin.x + (c % 11) as i32, origin.y + (c / 11) as i32)
            );
            let mut cancelled = 9;
            assert_eq!(carc_game_cancel_focus(game, &mut cancelled), OK);
            assert_eq!(cancelled, 1);
            assert_eq!(focus(game), CarcFocus::default());
            assert_eq!(mask(game), (m, info), "the first ids are offered again");
            assert_eq!(carc_game_cancel_focus(game, &mut cancelled), OK);
            assert_eq!(cancelled, 0);
            assert_eq!(carc_game_cancel_focus(game, null_mut()), OK);
            cancelled_some = true;
        } else if pick.is_some() {
            continue;
        }
        flat_step(game, &mut rng);
    }
    assert!(cancelled_some);
    carc_game_free(game);
}

// ----- documented contracts -------------------------------------------------------------

/// A game played to its end with the first legal action.
fn finished_game() -> *mut CarcGame {
    let game = new_game(r#"{"players":2,"sets":["base"],"seed":2}"#);
    while !terminal(game) {
        let a = legal(game)[0];
        assert_eq!(carc_game_apply(game, &a), OK);
    }
    game
}

/// The precedence of `docs/c-api.md`: the handle, pointer arguments in parameter order,
/// argument values, contents, the game's state, the buffer's size.
#[test]
fn status_precedence() {
    use CarcStatus::*;
    let game = finished_game();
    let mut n = 0u32;
    let far = CarcAction {
        kind: CarcActionKind::PlaceTile as u8,
        x: 500,
        ..CarcAction::default()
    };
    let malformed = CarcAction {
        kind: 200,
        ..CarcAction::default()
    };
    // 1. The handle before anything else.
    assert_eq!(carc_game_supply(null(), 99, null_mut()), NullArgument);
    // 2. A NULL pointer before a bad value, the state or the size.
    assert_eq!(carc_game_supply(game, 99, null_mut()), NullArgument);
    assert_eq!(carc_game_apply(game, null()), NullArgument);
    assert_eq!(
        carc_game_events(game, 9999, null_mut(), 5, &mut n),
        NullArgument
    );
    assert_eq!(
        carc_game_events(game, 9999, null_mut(), 0, null_mut()),
        NullArgument
    );
    assert_eq!(
        carc_tile_feature_geometry(9999, 0, 9, null_mut()),
        NullArgument
    );
    let mut out = null_mut();
    assert_eq!(carc_game_new(null(), null_mut()), NullArgument);
    assert_eq!(
        carc_game_from_record_ex(null(), c"{\"x\":1}".as_ptr(), &mut out),
        NullArgument
    );
    // Pointers in parameter order: a misaligned action before a NULL output, a NULL
    // action before a misaligned output.
    let mut raw = [0u32; 8];
    let bytes = raw.as_mut_ptr().cast::<u8>();
    // SAFETY: one byte into a live buffer of 32 bytes, room for a CarcAction.
    let misaligned = unsafe { bytes.add(1) };
    let (mut first, mut second) = (0u32, 0u32);
    assert_eq!(
        carc_game_action_to_flat(game, misaligned.cast(), null_mut(), &mut second),
        InvalidArgument
    );
    assert_eq!(
        carc_game_action_to_flat(game, null(), misaligned.cast(), &mut second),
        NullArgument
    );
    // 3. A bad value before the state (game over) or the buffer's size.
    assert_eq!(carc_game_apply(game, &malformed), InvalidArgument);
    assert_eq!(carc_game_apply_draw(game, 9999), InvalidArgument);
    assert_eq!(
        carc_game_apply_flat(game, u32::MAX, null_mut()),
        InvalidArgument
    );
    let mut tiny = [CarcEvent::default(); 1];
    assert_eq!(
        carc_game_events(game, 9999, tiny.as_mut_ptr(), 1, &mut n),
        InvalidArgument
    );
    let (mut p1, mut g1) = ([0u8; 1], [0f32; 1]);
    assert_eq!(
        carc_game_observe(
            game,
            7,
            p1.as_mut_ptr(),
            1,
            &mut n,
            g1.as_mut_ptr(),
            1,
            &mut n
        ),
        InvalidArgument
    );
    // Option values before the record's contents.
    assert_eq!(
        carc_game_from_record_ex(c"{".as_ptr(), c"{\"x\":1}".as_ptr(), &mut out),
        InvalidArgument
    );
    assert_eq!(
        carc_game_from_record_ex(c"{".as_ptr(), null(), &mut out),
        BadRecord
    );
    assert!(out.is_null());
    // 4. The state: an action after the end is GAME_OVER, not ILLEGAL_ACTION.
    assert_eq!(carc_game_apply(game, &far), GameOver);
    assert_eq!(carc_game_apply_flat(game, 0, null_mut()), GameOver);
    assert_eq!(carc_game_apply_draw(game, 0), GameOver);
    // A query has no GAME_OVER: the action is not legal.
    assert_eq!(
        carc_game_action_to_flat(game, &far, &mut first, &mut second),
        IllegalAction
    );
    // A poisoned handle before any argument.
    let poisoned = new_game(r#"{"players":2,"sets":["base"]}"#);
    assert_eq!(with_game_mut("test", poisoned, |_| panic!("poison")), Panic);
    assert_eq!(carc_game_num_players(poisoned, null_mut()), HandlePoisoned);
    assert_eq!(
        carc_game_events(poisoned, 9999, null_mut(), 3, null_mut()),
        HandlePoisoned
    );
    carc_game_free(poisoned);
    carc_game_free(game);
}

/// The size query `(NULL, 0)` returns `CARC_STATUS_OK` and writes the size, for every
/// function with a buffer; a short buffer gets `CARC_STATUS_BUFFER_TOO_SMALL` and the
/// same size; a NULL buffer with a length, or a NULL `needed`, is `NULL_ARGUMENT`.
#[test]
fn size_query_convention() {
    use CarcStatus::*;
    let game = new_game(r#"{"players":2,"sets":["base"],"chance":"explicit","seed":4}"#);
    let mut rng = Rng::new(1);
    // A game waiting for a draw, with events and figures.
    let mut count = 0;
    while count == 0 || phase(game) != CarcPhase::Draw {
        flat_step(game, &mut rng);
        assert_eq!(carc_game_event_count(game, &mut count), OK);
    }
    type Call<'a> = Box<dyn Fn(bool, u32, *mut u32) -> CarcStatus + 'a>;
    /// A call with a buffer of `len` elements (NULL when the flag says so).
    fn with<T: Default + Clone, F>(f: F) -> impl Fn(bool, u32, *mut u32) -> CarcStatus
    where
        F: Fn(*mut T, u32, *mut u32) -> CarcStatus,
    {
        move |null_buf, len, needed| {
            let mut v = vec![T::default(); len.max(1) as usize];
            let ptr = if null_buf { null_mut() } else { v.as_mut_ptr() };
            f(ptr, len, needed)
        }
    }
    let g = game as *const CarcGame;
    let calls: Vec<(&str, Call)> = vec![
        (
            "legal_actions",
            Box::new(with(|b, l, n| carc_game_legal_actions(g, b, l, n))),
        ),
        (
            "chance_outcomes",
            Box::new(with(|b, l, n| carc_game_chance_outcomes(g, b, l, n))),
        ),
        (
            "scores",
            Box::new(with(|b, l, n| carc_game_scores(g, b, l, n))),
        ),
        (
            "remaining_tiles",
            Box::new(with(|b, l, n| carc_game_remaining_tiles(g, b, l, n))),
        ),
        (
            "placed_tiles",
            Box::new(with(|b, l, n| carc_game_placed_tiles(g, b, l, n))),
        ),
        (
            "board_figures",
            Box::new(with(|b, l, n| carc_game_board_figures(g, b, l, n))),
        ),
        (
            "events",
            Box::new(with(|b, l, n| carc_game_events(g, 0, b, l, n))),
        ),
        (
            "event_parts",
            Box::new(with(|b, l, n| carc_game_event_parts(g, 0, b, l, n))),
        ),
        (
            "to_record",
            Box::new(with(|b, l, n| carc_game_to_record(g, null(), b, l, n))),
        ),
        (
            "render_text",
            Box::new(with(|b, l, n| carc_game_render_text(g, b, l, n))),
        ),
        (
            "render_svg",
            Box::new(with(|b, l, n| carc_game_render_svg(g, b, l, n))),
        ),
        (
            "legal_mask",
            Box::new(with(|b, l, n| carc_game_legal_mask(g, b, l, n, null_mut()))),
        ),
        (
            "last_error",
            Box::new(with(|b, l, n| carc_game_last_error(g, b, l, n))),
        ),
        (
            "carc_last_error",
            Box::new(with(|b, l, n| carc_last_error(b, l, n))),
        ),
        (
            "observe",
            Box::new(|null_buf, len, needed| {
                let (mut p, mut gl) = (
                    vec![0u8; len.max(1) as usize],
                    vec![0f32; len.max(1) as usize],
                );
                let (pp, gp) = if null_buf {
                    (null_mut(), null_mut())
                } else {
                    (p.as_mut_ptr(), gl.as_mut_ptr())
                };
                let mut other = 0;
                carc_game_observe(g, 0, pp, len, needed, gp, len, &mut other)
            }),
        ),
    ];
    // Something for the messages to hold.
    assert_eq!(
        carc_game_supply(g, 9, &mut CarcSupply::default()),
        InvalidArgument
    );
    for (name, call) in &calls {
        let mut needed = u32::MAX;
        assert_eq!(call(true, 0, &mut needed), OK, "{name}: size query");
        assert_ne!(needed, u32::MAX, "{name}: size written");
        if needed > 0 {
            let mut again = u32::MAX;
            assert_eq!(
                call(false, needed - 1, &mut again),
                BufferTooSmall,
                "{name}"
            );
            assert_eq!(again, needed, "{name}: the size with BUFFER_TOO_SMALL");
            assert_eq!(call(false, needed, &mut again), OK, "{name}");
        }
        assert_eq!(
            call(true, 1, &mut needed),
            NullArgument,
            "{name}: NULL with a length"
        );
        assert_eq!(
            call(false, 4, null_mut()),
            NullArgument,
            "{name}: NULL needed"
        );
    }
    carc_game_free(game);
}

/// `CarcMaskInfo` at a draw: `legal` counts the draws (the legal structured actions,
/// `DRAW` actions), `offered` and `outside_window` are 0 and the mask is all zeros; after
/// the end all three are 0.
#[test]
fn mask_info_at_a_draw_and_at_the_end() {
    let game = new_game(
        r#"{"players":2,"sets":["base","princess-and-dragon"],"chance":"explicit","seed":6}"#,
    );
    assert_eq!(phase(game), CarcPhase::Draw);
    let (m, info) = mask(game);
    let draws = legal(game);
    assert!(draws.iter().all(|a| a.kind == CarcActionKind::Draw as u8));
    let mut outcomes = 0;
    assert_eq!(
        carc_game_chance_outcomes(game, null_mut(), 0, &mut outcomes),
        OK
    );
    assert_eq!(info.legal as usize, draws.len());
    assert_eq!(info.legal, outcomes);
    assert_eq!((info.offered, info.outside_window), (0, 0));
    assert!(m.iter().all(|x| *x == 0));
    carc_game_free(game);
    let done = finished_game();
    let (m, info) = mask(done);
    assert_eq!(info, CarcMaskInfo::default());
    assert!(m.iter().all(|x| *x == 0));
    let mut a = 0;
    assert_eq!(carc_game_num_actions(done, &mut a), OK);
    assert_eq!(m.len(), a as usize);
    carc_game_free(done);
}

/// The `CarcAction` fields checked for `CARC_STATUS_INVALID_ARGUMENT`: `kind` always; of
/// the other fields only those the kind uses, and only for values no action can have
/// (`docs/c-api.md`). Positions and features take any value (a wrong one is merely not
/// legal); the fields the kind does not use are ignored.
#[test]
fn action_fields_checked_for_invalid_argument() {
    use CarcActionKind as K;
    use CarcStatus::InvalidArgument;
    let game = new_game(r#"{"players":2,"sets":["base"],"seed":3}"#);
    let is_legal = |a: CarcAction| -> Result<u8, CarcStatus> {
        let mut out = 7;
        match carc_game_is_legal(game, &a, &mut out) {
            CarcStatus::Ok => Ok(out),
            s => Err(s),
        }
    };
    let action = |kind: K| CarcAction {
        kind: kind as u8,
        feature: CARC_NO_FEATURE,
        ..CarcAction::default()
    };
    let too_high = MAX_BID as u16 + 1;
    let invalid = [
        (
            CarcAction {
                kind: u8::MAX,
                ..action(K::Pass)
            },
            "kind",
        ),
        (
            CarcAction {
                rot: 4,
                ..action(K::PlaceTile)
            },
            "rot",
        ),
        (
            CarcAction {
                has_bridge: 2,
                ..action(K::PlaceTile)
            },
            "has_bridge",
        ),
        (
            CarcAction {
                has_bridge: 1,
                axis: 2,
                ..action(K::PlaceTile)
            },
            "axis",
        ),
        (
            CarcAction {
                axis: 2,
                ..action(K::PlaceBridge)
            },
            "axis",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::Deploy)
            },
            "figure",
        ),
        (
            CarcAction {
                corner: 4,
                ..action(K::DeployBarn)
            },
            "corner",
        ),
        (
            CarcAction {
                tile: 9999,
                ..action(K::Draw)
            },
            "tile",
        ),
        (
            CarcAction {
                quarter: 4,
                ..action(K::DeployQuarter)
            },
            "quarter",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::DeployQuarter)
            },
            "figure",
        ),
        (
            CarcAction {
                quarter: 4,
                ..action(K::MoveCount)
            },
            "quarter",
        ),
        (
            CarcAction {
                step: 4,
                ..action(K::QuarterPass)
            },
            "step",
        ),
        (
            CarcAction {
                step: 4,
                ..action(K::LeaveQuarter)
            },
            "step",
        ),
        (
            CarcAction {
                quarter: 4,
                ..action(K::LeaveQuarter)
            },
            "quarter",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::LeaveQuarter)
            },
            "figure",
        ),
        (
            CarcAction {
                bid: too_high,
                ..action(K::BazaarSelect)
            },
            "bid",
        ),
        (
            CarcAction {
                tile: 9999,
                ..action(K::BazaarSelect)
            },
            "tile",
        ),
        (
            CarcAction {
                bid: too_high,
                ..action(K::BazaarBid)
            },
            "bid",
        ),
        (
            CarcAction {
                choice: 2,
                ..action(K::BazaarBuyOrSell)
            },
            "choice",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::Capture)
            },
            "figure",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::ExchangePrisoner)
            },
            "figure",
        ),
        (
            CarcAction {
                figure: carcassonne_core::Figure::ALL.len() as u8,
                ..action(K::PayRansom)
            },
            "figure",
        ),
        // TW5: `prisoner_of` names a seat of the game (this one has seats 0 and 1).
        (
            CarcAction {
                seat: 2,
                ..action(K::PayRansom)
            },
            "seat",
        ),
        (
            CarcAction {
                seat: 77,
                ..action(K::PayRansom)
            },
            "seat",
        ),
        (
            CarcAction {
                choice: 2,
                ..action(K::Flock)
            },
            "choice",
        ),
        (
            CarcAction {
                token: 77,
                ..action(K::DrawToken)
            },
            "token",
        ),
    ];
    for (a, field) in invalid {
        assert_eq!(is_legal(a), Err(InvalidArgument), "{field}");
        assert!(
            thread_error().contains(&format!("action.{field}")),
            "{}",
            thread_error()
        );
    }
    // Unused fields are ignored; positions and features are never invalid.
    let ignored = [
        CarcAction {
            rot: 9,
            figure: 9,
            corner: 9,
            tile: 9999,
            token: 77,
            quarter: 9,
            step: 9,
            axis: 9,
            choice: 9,
            has_bridge: 9,
            bid: u16::MAX,
            x: i32::MIN,
            y: i32::MAX,
            ..action(K::Pass)
        },
        CarcAction {
            rot: 9,
            ..action(K::Deploy)
        },
        CarcAction {
            feature: 200,
            figure: 4,
            ..action(K::Deploy)
        },
        CarcAction {
            x: i32::MAX,
            ..action(K::PlaceTile)
        },
        CarcAction {
            axis: 9,
            bridge_x: i32::MIN,
            ..action(K::PlaceTile)
        },
        CarcAction {
            quarter: 3,
            step: 3,
            ..action(K::LeaveQuarter)
        },
    ];
    for a in ignored {
        assert_eq!(is_legal(a), Ok(0), "{a:?}: not legal, not malformed");
    }
    let first = legal(game)[0];
    let sloppy = CarcAction {
        token: 5,
        figure: 9,
        quarter: 9,
        step: 9,
        choice: 9,
        bid: u16::MAX,
        ..first
    };
    assert_eq!(is_legal(sloppy), Ok(1));
    carc_game_free(game);
}

/// The Tower's state through the C ABI (TW1, TW2, TW4): every tower foundation placed
/// is listed with its height, the pieces put leave the players' supplies, and the
/// prisoners a seat holds are the figures missing from their owners' supplies and the
/// board.
#[test]
fn towers_pieces_and_prisoners_through_the_c_abi() {
    let game = new_game(r#"{"players": 3, "sets": ["base", "tower"], "seed": 5}"#);
    let mut pieces_put = 0u32;
    let mut steps = 0;
    loop {
        let mut terminal = 0;
        assert_eq!(carc_game_is_terminal(game, &mut terminal), OK);
        if terminal == 1 || steps > 2000 {
            break;
        }
        steps += 1;
        let actions = legal(game);
        // A tower piece whenever one is offered, every capture, else the first action.
        let pick = actions
            .iter()
            .find(|a| a.kind == CarcActionKind::PlaceTowerPiece as u8)
            .or_else(|| {
                actions
                    .iter()
                    .find(|a| a.kind == CarcActionKind::Capture as u8)
            })
            .copied()
            .unwrap_or(actions[0]);
        if pick.kind == CarcActionKind::PlaceTowerPiece as u8 {
            pieces_put += 1;
        }
        assert_eq!(carc_game_apply(game, &pick), OK);
    }
    let mut n = 0;
    assert_eq!(carc_game_towers(game, null_mut(), 0, &mut n), OK);
    let mut towers = vec![CarcTower::default(); n as usize];
    assert_eq!(carc_game_towers(game, towers.as_mut_ptr(), n, &mut n), OK);
    // Every foundation of the 18 tower tiles that were placed (some may be discarded).
    assert!(towers.len() > 10 && towers.len() <= 18, "{}", towers.len());
    let height: u32 = towers.iter().map(|t| u32::from(t.height)).sum();
    assert_eq!(height, pieces_put, "every piece put is on a tower");
    let mut left = 0;
    for seat in 0..3 {
        let mut p = 0;
        assert_eq!(carc_game_tower_pieces(game, seat, &mut p), OK);
        left += p;
    }
    // TW1: 9 pieces each with 3 players.
    assert_eq!(left + pieces_put, 27);
    let mut p = 0;
    assert_eq!(
        carc_game_tower_pieces(game, 3, &mut p),
        CarcStatus::InvalidArgument
    );
    // Prisoners: whatever is neither in the supply nor on the board at the end (final
    // scoring returned every figure on the board).
    for owner in 0..3u32 {
        let mut supply = CarcSupply::default();
        assert_eq!(carc_game_supply(game, owner, &mut supply), OK);
        let mut held = 0;
        for holder in 0..3u32 {
            let mut s = CarcSupply::default();
            assert_eq!(carc_game_prisoners(game, holder, owner, &mut s), OK);
            if holder == owner {
                assert_eq!(s, CarcSupply::default(), "nobody holds his own figures");
            }
            held += u32::from(s.follower);
        }
        assert_eq!(u32::from(supply.follower) + held, 7, "seat {owner}");
    }
    carc_game_free(game);
}
