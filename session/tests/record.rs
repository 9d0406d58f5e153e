//! The game record format (`docs/record-format.md`): records of unfinished games, saved
//! draws and declined abbeys, events, and the strict reader's errors and limits.

use carcassonne::action::Action;
use carcassonne::config::{Figure, GameConfig};
use carcassonne::game::{ChanceMode, Game, Phase};
use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;
use carcassonne_session::record::*;
use serde_json::{json, Value};

#[path = "../../core/tests/common/mod.rs"]
mod scenario;

/// A record written at any point of a game, finished or not, replays to the same
/// board, figures, scores and decision.
#[test]
fn records_of_unfinished_games_load_back() {
    let mut config = GameConfig::new(3);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.figures.abbot = 1;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(3);
    let mut legal = Vec::new();
    let mut checked = 0;
    while !game.is_terminal() {
        if rng.below(7) == 0 {
            let back = replay_json(&to_json(&game, "partial").unwrap()).unwrap();
            assert_eq!(back.scores(), game.scores());
            assert_eq!(back.board().placements(), game.board().placements());
            assert_eq!(back.board_figures().len(), game.board_figures().len());
            assert_eq!(back.phase(), game.phase());
            assert_eq!(back.to_play(), game.to_play());
            assert_eq!(back.legal_actions(), game.legal_actions());
            checked += 1;
        }
        game.legal_actions_into(&mut legal);
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    assert!(checked > 10);
    assert_eq!(
        replay_json(&to_json(&game, "done").unwrap())
            .unwrap()
            .scores(),
        game.scores()
    );
}

/// A sampled game saved at any point and loaded back continues with the same draws:
/// played on with the same choices, both games write the same record.
#[test]
fn a_saved_sampled_game_continues_with_the_same_draws() {
    let mut config = GameConfig::new(3);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.seed = 77;
    for stop in [0usize, 1, 17, 60, 150] {
        let mut game = Game::new(config.clone()).unwrap();
        let mut rng = Rng::new(5);
        let mut legal = Vec::new();
        for _ in 0..stop {
            if game.is_terminal() {
                break;
            }
            game.legal_actions_into(&mut legal);
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let saved = to_json(&game, "saved").unwrap();
        let loaded = load_json(&saved, None).unwrap();
        assert_eq!(
            loaded.resume.as_ref().map(|r| r.chance),
            Some(ChanceMode::Sampled)
        );
        let mut back = loaded.game;
        assert_eq!(back.chance_mode(), ChanceMode::Sampled);
        assert_eq!(back.rng(), game.rng());
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply(a).unwrap();
            back.apply(a).unwrap();
            assert_eq!(back.state_hash(), game.state_hash(), "stop {stop}");
        }
        assert_eq!(
            to_json(&back, "x").unwrap(),
            to_json(&game, "x").unwrap(),
            "stop {stop}"
        );
        // Without the generator state, the loaded game draws from `setup.seed`.
        let mut v: Value = serde_json::from_str(&saved).unwrap();
        v.as_object_mut().unwrap().remove("resume");
        let fresh = load(&v, None).unwrap();
        assert_eq!(fresh.game.rng(), &Rng::new(77));
        assert!(fresh.resume.is_none());
        // A chance mode asked for wins over the record's.
        let explicit = load_json(&saved, Some(ChanceMode::Explicit)).unwrap();
        assert_eq!(explicit.game.chance_mode(), ChanceMode::Explicit);
    }
}

/// AM1: an explicit-chance game saved after its player declined the abbey and before
/// the draw loads back waiting for that draw, not for the abbey decision.
#[test]
fn a_declined_abbey_before_the_draw_is_saved() {
    let mut config = GameConfig::new(2);
    config.sets = vec![TileSet::Base, TileSet::AbbeyMayor];
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    let mut checked = 0;
    for seed in 0..6 {
        config.seed = seed;
        let mut game = Game::with_chance(config.clone(), ChanceMode::Explicit).unwrap();
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        while !game.is_terminal() {
            if game.phase() == Phase::Abbey && !game.in_end_round() {
                let mut declined = game.clone();
                declined.apply(Action::Pass).unwrap();
                assert!(declined.abbey_declined_before_draw());
                let back = load_json(&to_json(&declined, "declined").unwrap(), None)
                    .unwrap()
                    .game;
                assert_eq!(back.phase(), Phase::Draw);
                assert_eq!(back.state_hash(), declined.state_hash());
                assert_eq!(back.legal_actions(), declined.legal_actions());
                checked += 1;
            }
            game.legal_actions_into(&mut legal);
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
            assert!(!game.abbey_declined_before_draw() || game.phase() == Phase::Draw);
        }
    }
    assert!(checked > 5, "{checked} abbey decisions");
}

/// TB4, AM4: with the pile empty a builder's extra turn comes only for the abbey; declined,
/// it leaves no entry (`docs/record-format.md`), and the record still replays: saved at the
/// next decision (the other player's abbey of the end-of-game round) and at the end.
#[test]
fn a_declined_abbey_of_an_extra_turn_leaves_no_entry() {
    let sets = [TileSet::Base, TileSet::TradersBuilders, TileSet::AbbeyMayor];
    let mut game = scenario::start(scenario::config(2, &sets));
    let a = scenario::last_tile_on_the_builders_road(&mut game);
    assert!(game.in_extra_turn() && game.phase() == Phase::Abbey);
    game.apply(Action::Pass).unwrap();
    assert!(game.in_end_round());
    assert_eq!(game.to_play(), 1 - a);
    let check = |game: &Game| {
        let record = to_value(game, "extra-turn");
        let turns = record["turns"].as_array().unwrap();
        assert!(turns.iter().all(|t| t.get("builder_bonus").is_none()));
        let back = replay_json(&record.to_string()).unwrap();
        assert_eq!(back.is_terminal(), game.is_terminal());
        assert_eq!(back.scores(), game.scores());
        assert_eq!(back.turns().len(), game.turns().len());
        if !game.is_terminal() {
            assert_eq!(
                (back.phase(), back.to_play()),
                (game.phase(), game.to_play())
            );
            assert_eq!(back.legal_actions(), game.legal_actions());
        }
    };
    check(&game);
    while !game.is_terminal() {
        game.apply(Action::Pass).unwrap();
        check(&game);
    }
}

/// The record's events add up to the score changes of every turn and of the final
/// scoring, and list the figures that returned.
#[test]
fn record_events_add_up_to_the_scores() {
    let mut config = GameConfig::new(4);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    for seed in 0..5 {
        config.seed = seed;
        let mut game = Game::new(config.clone()).unwrap();
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        let record = to_value(&game, "events");
        let sum = |events: Option<&Value>, into: &mut Vec<i64>| {
            let mut returned = 0;
            for e in events.and_then(Value::as_array).into_iter().flatten() {
                if let Some(points) = e.get("points") {
                    into[e["player"].as_u64().unwrap() as usize] += points.as_i64().unwrap();
                    let whole_game = [
                        "fairy.turn",
                        "king",
                        "robber-baron",
                        "bazaar-buy",
                        "bazaar-sell",
                        "ransompaid.payment",
                        "ransompaid.income",
                        "goods",
                    ];
                    assert!(
                        e["parts"].as_array().is_some()
                            || whole_game.contains(&e["what"].as_str().unwrap())
                    );
                } else {
                    assert!(Figure::from_name(e["returned"].as_str().unwrap()).is_some());
                    returned += 1;
                }
            }
            returned
        };
        let mut scores = vec![0i64; 4];
        let mut returned = 0;
        for t in record["turns"].as_array().unwrap() {
            returned += sum(t.get("events"), &mut scores);
            let expected: Vec<i64> = t["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_i64().unwrap())
                .collect();
            assert_eq!(scores, expected);
        }
        returned += sum(record.get("final_events"), &mut scores);
        let finals: Vec<i64> = game.scores().iter().map(|s| *s as i64).collect();
        assert_eq!(scores, finals);
        assert_eq!(returned, game.figure_returns().len());
    }
}

fn base_record() -> Value {
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    while !game.is_terminal() {
        let a = game.legal_actions()[0];
        game.apply(a).unwrap();
    }
    to_value(&game, "base")
}

fn bad(record: &Value) -> RecordError {
    match replay(record) {
        Err(ReplayError::Bad(e)) => e,
        other => panic!("expected a bad record, got {other:?}"),
    }
}

/// AM4: a record written during the end-of-game abbey round of an unfinished game
/// loads back at that point, not as a finished game with final scoring applied.
#[test]
fn unfinished_records_of_the_end_of_game_abbey_round_stay_unfinished() {
    let mut checked = 0;
    for seed in 0..4 {
        let mut config = GameConfig::new(3);
        config.sets = vec![TileSet::Base, TileSet::AbbeyMayor];
        config.figures = carcassonne::config::Figures::default_for(&config.sets);
        config.seed = seed;
        let mut game = Game::new(config).unwrap();
        while !(game.phase() == Phase::Abbey && game.tiles_left() == 0) {
            if game.is_terminal() {
                break; // nowhere to place an abbey at the end of this game
            }
            let a = if game.phase() == Phase::Abbey {
                Action::Pass
            } else {
                game.legal_actions()[0]
            };
            game.apply(a).unwrap();
        }
        if game.is_terminal() {
            continue;
        }
        checked += 1;
        assert!(game.in_end_round());
        let back = replay_json(&to_json(&game, "end-round").unwrap()).unwrap();
        assert!(!back.is_terminal(), "seed {seed}: reloaded as finished");
        assert_eq!(back.phase(), Phase::Abbey);
        assert_eq!(back.to_play(), game.to_play());
        assert_eq!(back.scores(), game.scores());
        assert_eq!(back.legal_actions(), game.legal_actions());
        // One declined abbey later, still the same point.
        game.apply(Action::Pass).unwrap();
        if !game.is_terminal() {
            let back = replay_json(&to_json(&game, "end-round").unwrap()).unwrap();
            assert_eq!(back.to_play(), game.to_play());
            assert_eq!(back.scores(), game.scores());
        }
    }
    assert!(checked >= 2);
}

/// Numbers are never truncated or clamped: scores beyond 32 bits, seats out of
/// range, negative rotations.
#[test]
fn numbers_out_of_range_are_refused() {
    let good = base_record();
    assert!(replay(&good).is_ok());
    let mut r = good.clone();
    r["final_scores"][0] = json!(good["final_scores"][0].as_i64().unwrap() + (1i64 << 32));
    assert_eq!(bad(&r).path, "final_scores[0]");
    let mut r = good.clone();
    r["turns"][0]["scores"][1] = json!(1i64 << 32);
    assert_eq!(bad(&r).path, "turns[0].scores[1]");
    for v in [json!(-1), json!(i64::MIN), json!(4), json!(1.0)] {
        let mut r = good.clone();
        r["turns"][0]["actions"][0]["rot"] = v.clone();
        assert_eq!(bad(&r).path, "turns[0].actions[0].rot", "{v}");
    }
    for v in [json!(-7), json!(1000), json!(2), json!("0")] {
        let mut r = good.clone();
        r["turns"][0]["actions"][0]["player"] = v.clone();
        let e = bad(&r);
        assert_eq!(e.path, "turns[0].actions[0].player", "{v}");
        assert!(e.message.contains(&v.to_string()), "{e}");
    }
    let mut r = good.clone();
    r["turns"][0]["player"] = json!(-7);
    assert_eq!(bad(&r).path, "turns[0].player");
}

/// Unknown keys are refused at every level, duplicate keys anywhere, values of the
/// wrong type everywhere.
#[test]
fn unknown_duplicate_and_mistyped_fields_are_refused() {
    let good = base_record();
    let cases: [(&[&str], &str); 5] = [
        (&[], "extra"),
        (&["setup"], "setup.playrs"),
        (&["turns", "0"], "turns[0].extra"),
        (&["turns", "0", "actions", "0"], "turns[0].actions[0].extra"),
        (&["turns", "1", "actions", "0"], "turns[1].actions[0].tiel"),
    ];
    for (at, path) in cases {
        let mut r = good.clone();
        let mut v = &mut r;
        for step in at {
            v = match step.parse::<usize>() {
                Ok(i) => &mut v[i],
                Err(_) => &mut v[*step],
            };
        }
        let key = path.rsplit('.').next().unwrap();
        v[key] = json!(1);
        assert_eq!(bad(&r).path, path);
    }
    let mut r = good.clone();
    r["turns"][0]["events"] = json!([{"player": 0, "points": 1, "what": "road", "bonus": 1}]);
    assert_eq!(bad(&r).path, "turns[0].events[0].bonus");
    let mut r = good.clone();
    r["turns"][0]["discarded"] = json!("yes");
    let e = bad(&r);
    assert_eq!(e.path, "turns[0].discarded");
    assert!(e.message.contains("\"yes\""), "{e}");
    for key in ["id", "notes"] {
        let mut r = good.clone();
        r[key] = json!(7);
        assert_eq!(bad(&r).path, key);
    }
    // The second tile of an R6 turn names itself: `tile` is a key of `place_tile`.
    let mut r = good.clone();
    r["turns"][0]["actions"][0]["tile"] = json!("BASE-A");
    assert!(matches!(replay(&r), Err(ReplayError::Diverged(_))));
    // The keys that Hills & Sheep records inside an action (HS1–HS3: `under_hill` of a
    // placement, `token` of a deploy) belong to games with that set: in a base game they
    // are unknown keys, named with the keys allowed.
    for (a, key, value) in [(0, "under_hill", "BASE-A"), (1, "token", "sheep-1")] {
        let mut r = good.clone();
        let action = &mut r["turns"][1]["actions"][a];
        assert_eq!(
            action["type"],
            ["place_tile", "deploy"][a],
            "the test's record: {action}"
        );
        action[key] = json!(value);
        let e = bad(&r);
        assert_eq!(e.path, format!("turns[1].actions[{a}].{key}"), "{e}");
        assert!(e.message.contains("unknown key"), "{e}");
    }
    // Duplicate keys, even with a first value that is refused.
    let text = good.to_string();
    let dup = text.replacen('{', r#"{"format":"chess","#, 1);
    match replay_json(&dup) {
        Err(ReplayError::Bad(e)) => assert_eq!(
            (e.path.as_str(), e.message.as_str()),
            ("format", "duplicate key")
        ),
        other => panic!("{other:?}"),
    }
    let dup = text.replacen(r#""rot":"#, r#""rot":0,"rot":"#, 1);
    match replay_json(&dup) {
        Err(ReplayError::Bad(e)) => assert!(e.path.ends_with(".rot"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// Limits: turns per record, record size, and values echoed in messages are cut.
#[test]
fn limits_are_enforced_and_echoes_are_short() {
    let good = base_record();
    let mut r = good.clone();
    let turn = r["turns"][0].clone();
    r["turns"] = Value::Array(vec![turn; MAX_TURNS + 1]);
    assert_eq!(bad(&r).path, "turns");
    let mut r = good.clone();
    let id = "X".repeat(1 << 20);
    r["turns"][0]["draw"] = json!(id);
    let e = bad(&r);
    assert_eq!(e.path, "turns[0].draw");
    assert!(e.to_string().len() < 200, "{} bytes", e.to_string().len());
    let mut r = good.clone();
    r["turns"][0]["actions"][0]["type"] = json!(id);
    assert!(bad(&r).to_string().len() < 200);
    let mut r = good.clone();
    r["turns"][0]["actions"][0]["x"] = json!(vec![0; 100_000]);
    assert!(bad(&r).to_string().len() < 200);
    // A name that is no value of its field is quoted cut short too.
    for (at, value) in [
        (
            "axis",
            json!({"type": "place_bridge", "x": 0, "y": 0, "axis": id}),
        ),
        (
            "choice",
            json!({"type": "bazaar_buy_or_sell", "player": 0, "choice": id}),
        ),
    ] {
        let mut r = good.clone();
        r["turns"][0]["actions"][0] = value;
        let e = bad(&r);
        assert!(e.path.ends_with(at), "{}", e.path);
        assert!(
            e.to_string().len() < 200,
            "{at}: {} bytes",
            e.to_string().len()
        );
    }
    let rng = format!("{}1", "0".repeat(63));
    for (at, value) in [
        ("chance", json!(id)),
        ("window", json!({"x": id})),
        ("focus", json!([id])),
    ] {
        let mut r = good.clone();
        r["resume"] = json!({"rng": rng});
        r["resume"][at] = value;
        let e = bad(&r);
        assert_eq!(e.path, format!("resume.{at}"));
        assert!(
            e.to_string().len() < 200,
            "{at}: {} bytes",
            e.to_string().len()
        );
    }
    let mut r = good.clone();
    r["notes"] = json!("n".repeat(MAX_RECORD_BYTES));
    match replay_json(&r.to_string()) {
        Err(ReplayError::Bad(e)) => assert!(e.message.contains("at most 4194304"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(replay_json(""), Err(ReplayError::Bad(_))));
}

/// A name that is no value of its field is refused with the field's path and the names
/// the record format allows (docs/record-format.md: quarters CC2, steps CC3/CC4/CC6, bridge
/// axes BR1, bazaar choices BZ3).
#[test]
fn unknown_names_list_the_allowed_ones() {
    let good = base_record();
    for (at, action, allowed) in [
        (
            "quarter",
            json!({"type": "move_count", "player": 0, "quarter": "tower"}),
            "(castle, blacksmith, cathedral, market)",
        ),
        (
            "step",
            json!({"type": "quarter_pass", "player": 0, "step": "later"}),
            "(before-scoring, deploy, final, count)",
        ),
        (
            "axis",
            json!({"type": "place_bridge", "x": 0, "y": 0, "axis": "NE"}),
            "(NS, WE)",
        ),
        (
            "choice",
            json!({"type": "bazaar_buy_or_sell", "player": 0, "choice": "keep"}),
            "(buy, sell)",
        ),
    ] {
        let mut r = good.clone();
        r["turns"][0]["actions"][0] = action;
        let e = bad(&r);
        assert!(e.path.ends_with(&format!(".{at}")), "{}", e.path);
        assert!(
            e.message.starts_with(&format!("unknown {at} ")) && e.message.ends_with(allowed),
            "{at}: {}",
            e.message
        );
    }
}

/// Files: JSON Lines go on after a bad line, a file that is no record file stops at
/// once, any input (endless, without newlines) is read with bounded memory.
#[test]
fn reader_streams_and_fails_fast() {
    let good = base_record().to_string();
    let text = format!("{good}\n\n{{not json\n{good}\n");
    let read: Vec<_> = RecordReader::new(text.as_bytes()).collect();
    assert_eq!(read.len(), 3);
    assert_eq!(read[0].as_ref().unwrap().line, 1);
    assert_eq!(read[1].as_ref().unwrap_err().path, "line 3");
    assert_eq!(read[2].as_ref().unwrap().line, 4);
    // A pretty-printed record.
    let pretty = serde_json::to_string_pretty(&base_record()).unwrap();
    let read: Vec<_> = RecordReader::new(pretty.as_bytes()).collect();
    assert_eq!(read.len(), 1);
    assert!(replay(&read[0].as_ref().unwrap().value).is_ok());
    // Endless inputs: zeros, a line that never ends, an object that never closes.
    for (name, input) in [
        (
            "zeros",
            Box::new(std::io::repeat(0)) as Box<dyn std::io::Read>,
        ),
        ("spaces", Box::new(std::io::repeat(b' '))),
        ("braces", Box::new(std::io::repeat(b'{'))),
        (
            "lines",
            Box::new(std::io::Read::chain(&b"{\n"[..], std::io::repeat(b'\n'))),
        ),
    ] {
        let reader = std::io::BufReader::new(input);
        let read: Vec<_> = RecordReader::new(reader).take(3).collect();
        assert_eq!(read.len(), 1, "{name}");
        assert!(read[0].is_err(), "{name}");
    }
    // Not records: another JSON value, another format, text.
    for text in [
        "[1, 2]\n",
        "{\"format\": \"chess\"}\n",
        "hello\n",
        "{oops\n",
    ] {
        let file = format!("{text}{good}\n");
        let read: Vec<_> = RecordReader::new(file.as_bytes()).collect();
        assert_eq!(read.len(), 1, "{text}");
        assert_eq!(read[0].as_ref().unwrap_err().path, "line 1", "{text}");
    }
    assert_eq!(RecordReader::new(&b""[..]).count(), 0);
    assert_eq!(RecordReader::new(&b"\n  \n"[..]).count(), 0);
}

/// Bad input names the field.
#[test]
fn errors_name_the_field() {
    let e = |text: &str| match replay_json(text) {
        Err(ReplayError::Bad(e)) => e.path,
        other => panic!("expected a bad record, got {other:?}"),
    };
    assert_eq!(e("{"), "");
    assert_eq!(e(r#"{"format":"x","version":1}"#), "format");
    let ok = r#"{"format":"carcassonne-record","version":1,"setup":{"players":2,"sets":["base"]},"turns":[]}"#;
    assert!(replay_json(ok).is_ok());
    assert_eq!(
        e(&ok.replace(r#""players":2"#, r#""players":9"#)),
        "setup.players"
    );
    assert_eq!(
        e(&ok.replace(r#"["base"]"#, r#"["base","moon"]"#)),
        "setup.sets[1]"
    );
    assert_eq!(
        e(&ok.replace(
            r#""turns":[]"#,
            r#""turns":[{"player":0,"draw":"NOPE","actions":[],"scores":[0,0]}]"#
        )),
        "turns[0].draw"
    );
    assert_eq!(
        e(&ok.replace(
            r#""turns":[]"#,
            r#""turns":[{"player":0,"draw":"BASE-A","actions":[{"type":"place_tile","x":0,"y":1,"rot":7}],"scores":[0,0]}]"#
        )),
        "turns[0].actions[0].rot"
    );
    assert_eq!(
        e(&ok.replace(r#""sets""#, r#""rules":{"fairy":"big"},"sets""#)),
        "setup.rules.fairy"
    );
    let rng = Rng::new(1).to_hex();
    let resume = |r: &str| ok.replace(r#""turns":[]"#, &format!(r#""turns":[],"resume":{r}"#));
    assert!(replay_json(&resume(&format!(r#"{{"rng":"{rng}"}}"#))).is_ok());
    for (bad, path) in [
        (r#"[]"#.to_string(), "resume"),
        (r#"{}"#.to_string(), "resume.rng"),
        (r#"{"rng":"00"}"#.to_string(), "resume.rng"),
        (
            format!(r#"{{"rng":"{rng}","chance":"dice"}}"#),
            "resume.chance",
        ),
        (format!(r#"{{"rng":"{rng}","window":2}}"#), "resume.window"),
        (format!(r#"{{"rng":"{rng}","focus":[1]}}"#), "resume.focus"),
        (
            format!(r#"{{"rng":"{rng}","focus":[1,"a"]}}"#),
            "resume.focus[1]",
        ),
        (format!(r#"{{"rng":"{rng}","seed":1}}"#), "resume.seed"),
    ] {
        assert_eq!(e(&resume(&bad)), path, "{bad}");
    }
}

/// The events of a record are for people, but they are checked for their form: a seat,
/// and a score of a known kind (the engine's or the reference engine's names) or a
/// figure returned with a known cause, at a place `[x, y]` or `[x, y, feature]`.
#[test]
fn events_name_a_seat_and_a_known_score_or_return() {
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    let mut rng = Rng::new(7);
    while !game.is_terminal() {
        let legal = game.legal_actions();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    let record = to_value(&game, "events");
    assert!(record["final_events"]
        .as_array()
        .is_some_and(|e| e.len() > 1));
    let at = "final_events[0]";
    for (key, value, path) in [
        ("player", json!(99), "player"),
        ("player", json!(-1), "player"),
        ("what", json!("jackpot"), "what"),
        ("points", json!("7"), "points"),
        ("at", json!([1, 2, 3]), "at"),
        ("returned", json!("dragon"), "returned"),
    ] {
        let mut r = record.clone();
        r["final_events"][0][key] = value;
        assert_eq!(bad(&r).path, format!("{at}.{path}"), "{key}");
    }
    let mut r = record.clone();
    r["final_events"][0] =
        json!({"player": 0, "returned": "follower", "at": [0, 0], "cause": "gravity"});
    assert_eq!(bad(&r).path, format!("{at}.cause"));
    // The reference engine's names are read as they are.
    let mut r = record.clone();
    r["final_events"][0]["what"] = json!("city.empty");
    assert!(replay(&r).is_ok());
}

/// The actions whose table in the format lists `player` (those that a player other than
/// the turn player may take) always carry it: one without it is refused, not read as the
/// turn player's.
#[test]
fn actions_that_name_their_player_must_carry_it() {
    let sets = [TileSet::Base, TileSet::BridgesCastlesBazaars];
    for seed in 0..50 {
        let mut config = GameConfig::new(3);
        config.sets = sets.to_vec();
        config.seed = seed;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_terminal() && !matches!(game.phase(), Phase::BazaarBid) {
            let legal = game.legal_actions();
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        if game.is_terminal() {
            continue;
        }
        game.apply(Action::BazaarPass).unwrap();
        let mut record = to_value(&game, "bid");
        let turns = record["turns"].as_array_mut().unwrap();
        let (t, turn) = turns.iter_mut().enumerate().last().unwrap();
        let actions = turn["actions"].as_array_mut().unwrap();
        let a = actions
            .iter()
            .rposition(|a| a["type"] == "bazaar_pass")
            .unwrap();
        actions[a].as_object_mut().unwrap().remove("player");
        let e = bad(&record);
        assert_eq!(e.path, format!("turns[{t}].actions[{a}].player"));
        assert!(e.message.contains("missing"), "{e}");
        return;
    }
    panic!("no bazaar bid in 50 games");
}

/// Nothing is saved that the reader refuses: a record that an `id` would make longer
/// than a record may be is refused when it is written, naming `id`.
#[test]
fn a_record_too_long_to_read_is_not_written() {
    let game = Game::new(GameConfig::new(2)).unwrap();
    let id = "x".repeat(5 << 20);
    let e = to_json(&game, &id).unwrap_err();
    assert_eq!(e.path, "id");
    assert!(e.message.contains(&MAX_RECORD_BYTES.to_string()), "{e}");
    // The longest id that fits is written, and read back.
    let fits = MAX_RECORD_BYTES - to_json(&game, "").unwrap().len();
    let text = to_json(&game, &"x".repeat(fits)).unwrap();
    assert_eq!(text.len(), MAX_RECORD_BYTES);
    assert!(replay_json(&text).is_ok());
    assert!(to_json(&game, &"x".repeat(fits + 1)).is_err());
}
