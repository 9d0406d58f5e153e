//! Runs the built `carcassonne` binary as scripts do: its output formats and exit
//! statuses are the contract tested here.

mod common;

use common::{carcassonne, path_str, scratch, stderr, stdout};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

fn reference(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name)
}

/// The record `id` of the JSON Lines file `file`.
fn reference_record(file: &Path, id: &str) -> Value {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["id"] == id)
        .unwrap()
}

/// `carcassonne render FILE --id ID --turn N`.
fn render_at_turn(file: &Path, id: &str, n: usize) -> Output {
    carcassonne(&[
        "render",
        path_str(file),
        "--id",
        id,
        "--turn",
        &n.to_string(),
    ])
}

#[test]
fn play_writes_a_record_that_replay_reproduces() {
    let dir = scratch("play");
    let out = dir.join("game.json");
    // Three seats, seed 7, fixed bots; the record goes to `out`.
    let play = |out: &Path| {
        carcassonne(&[
            "play",
            "--players",
            "3",
            "--seed",
            "7",
            "--bots",
            "greedy,random,greedy",
            "--out",
            path_str(out),
        ])
    };
    let played = play(&out);
    assert!(played.status.success(), "{}", stderr(&played));
    let text = stdout(&played);
    assert!(text.contains("legend:"), "{text}");
    assert!(text.contains("final scores:"), "{text}");
    assert!(
        text.contains(&format!("record written to {}", out.display())),
        "{text}"
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(record["setup"]["players"], 3);
    assert_eq!(record["setup"]["seed"], 7);
    let bots = ["greedy", "random", "greedy"];
    for seat in 0..3 {
        let score = record["final_scores"][seat].to_string();
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("  seat {seat} {}", bots[seat])))
            .unwrap_or_else(|| panic!("no row for seat {seat}: {text}"));
        assert!(
            row.split_whitespace().any(|w| w == score),
            "seat {seat} score {score} not printed: {text}"
        );
    }

    let replayed = carcassonne(&["replay", path_str(&out)]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stdout(&replayed));
    assert_eq!(
        last_line(&stdout(&replayed)),
        "1 reproduced, 0 known divergences, 0 diverged"
    );

    // The same seed and bots play the same game.
    let again = dir.join("again.json");
    let played = play(&again);
    assert!(played.status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
}

/// `play` and `match` share their defaults: a 2-player base game without the abbot
/// (`play` between two greedy players), seed 0, edition C2.
#[test]
fn play_and_match_share_their_defaults() {
    let dir = scratch("default");
    let played = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .arg("play")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", stderr(&played));
    let text = stdout(&played);
    let head: Vec<&str> = text.lines().take(3).collect();
    let path = dir.join("game-record.json");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let setup = &record["setup"];
    assert_eq!(setup["players"], 2);
    assert_eq!(setup["sets"], serde_json::json!(["base"]));
    assert_eq!(setup["seed"], 0);
    assert_eq!(
        setup["figures"],
        serde_json::json!({"follower": 7, "abbot": 0, "mayor": 0, "wagon": 0, "barn": 0, "abbey": 0, "big-follower": 0, "builder": 0, "pig": 0, "shepherd": 0})
    );
    assert_eq!(
        head,
        [
            "game: 2 players, edition C2, abbot 0, seed 0",
            "sets: base",
            "bots: greedy,greedy"
        ]
    );
    let matched = carcassonne(&["match", "--bots", "greedy", "--games", "1"]);
    assert!(matched.status.success(), "{}", stderr(&matched));
    assert!(
        stdout(&matched)
            .starts_with("match: 1 games of 2 players, sets base, edition C2, abbot 0, seed 0;"),
        "{}",
        stdout(&matched)
    );
    // The help texts state the same defaults.
    for command in ["play", "match"] {
        let help = stdout(&carcassonne(&[command, "--help"]));
        for line in [
            "else 2)",
            "(default base):",
            "tile edition C1, C2 or C3 (default C2)",
            "whether each player has the abbot (default 0)",
        ] {
            assert!(
                help.contains(line),
                "{command} --help lacks {line:?}: {help}"
            );
        }
    }
    let replayed = carcassonne(&["replay", path_str(&path)]);
    assert_eq!(
        last_line(&stdout(&replayed)),
        "1 reproduced, 0 known divergences, 0 diverged"
    );
}

/// Every set and the abbot (A1): each player gets the figures of every set, and the
/// score table's columns add up to each seat's score (B17).
#[test]
fn play_with_every_set_explains_the_scores() {
    let dir = scratch("every-set");
    let out = dir.join("game.json");
    let sets = "base,river1,river2,princess-and-dragon,abbey-and-mayor,count,king-and-robber,cult,bridges-castles-and-bazaars,inns-and-cathedrals,traders-and-builders,tower,hills-and-sheep";
    let played = carcassonne(&[
        "play",
        "--players",
        "4",
        "--sets",
        sets,
        "--abbot",
        "1",
        "--bots",
        "random",
        "--out",
        path_str(&out),
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        record["setup"]["figures"],
        serde_json::json!({"follower": 7, "abbot": 1, "mayor": 1, "wagon": 1, "barn": 1, "abbey": 1, "big-follower": 1, "builder": 1, "pig": 1, "shepherd": 1})
    );
    let text = stdout(&played);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "final scores:")
        .skip(1)
        .collect();
    let header: Vec<&str> = table[0].split_whitespace().collect();
    assert_eq!(header.last(), Some(&"total"), "{text}");
    for seat in 0..4 {
        let row: Vec<&str> = table[1 + seat].split_whitespace().collect();
        assert_eq!(&row[..3], &["seat", &seat.to_string(), "random"], "{text}");
        let numbers: Vec<i64> = row[3..].iter().filter_map(|w| w.parse().ok()).collect();
        assert_eq!(numbers.len(), header.len(), "{text}");
        let (total, parts) = numbers.split_last().unwrap();
        assert_eq!(parts.iter().sum::<i64>(), *total, "seat {seat}: {text}");
        assert_eq!(*total, record["final_scores"][seat].as_i64().unwrap());
    }
    // Every column is explained below the table.
    for column in &header[..header.len() - 1] {
        assert!(
            table
                .iter()
                .any(|l| l.starts_with(&format!("  {column}: "))),
            "{column} is not explained: {text}"
        );
    }
}

#[test]
fn bench_ends_with_the_rates_line() {
    let run = carcassonne(&[
        "bench",
        "--players",
        "2",
        "--sets",
        "base,river1",
        "--seconds",
        "0.3",
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let words: Vec<&str> = last_line(&text).split(' ').collect();
    assert_eq!(words.len(), 4, "{text}");
    assert_eq!((words[0], words[2]), ("games/s:", "decisions/s:"), "{text}");
    let games: f64 = words[1].parse().unwrap();
    let decisions: f64 = words[3].parse().unwrap();
    assert!(games > 0.0 && decisions > games, "{text}");
    assert!(
        text.lines().count() >= 2,
        "a summary line comes first: {text}"
    );
}

/// R6: with River II (`river2_lakes: one-turn`, the default) the record holds one turn
/// in which the same player places both lakes, the city lake naming itself.
#[test]
fn play_with_river2_places_both_lakes_in_one_turn() {
    let dir = scratch("lakes");
    let out = dir.join("lakes.json");
    let run = carcassonne(&[
        "play",
        "--players",
        "3",
        "--sets",
        "base,river2",
        "--seed",
        "5",
        "--bots",
        "random",
        "--out",
        path_str(&out),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let turns = record["turns"].as_array().unwrap();
    let lake_turns: Vec<&serde_json::Value> = turns
        .iter()
        .filter(|t| t["draw"] == "RIV2-LAKE-VOLCANO")
        .collect();
    assert_eq!(lake_turns.len(), 1);
    let actions = lake_turns[0]["actions"].as_array().unwrap();
    assert_eq!(actions[0]["type"], "place_tile");
    assert_eq!(actions[1]["type"], "place_tile");
    assert_eq!(actions[1]["tile"], "RIV2-LAKE-CITY");
    assert!(turns.iter().all(|t| t["draw"] != "RIV2-LAKE-CITY"));
    let replay = carcassonne(&["replay", path_str(&out)]);
    assert_eq!(replay.status.code(), Some(0), "{}", stdout(&replay));
}

#[test]
fn replay_reproduces_the_reference_games() {
    let run = carcassonne(&["replay", path_str(&reference("base-c2.jsonl"))]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{text}");
    assert_eq!(text, "28 reproduced, 0 known divergences, 0 diverged\n");
}

#[test]
fn corrupted_records_are_reported_as_diverged() {
    let dir = scratch("corrupt");
    let original = std::fs::read_to_string(reference("base-c2.jsonl")).unwrap();
    let mut record: Value = serde_json::from_str(original.lines().next().unwrap()).unwrap();
    let id = record["id"].as_str().unwrap().to_string();
    // Raise seat 0's score after the first turn that scored anything; then a good
    // record, then a line that is not JSON.
    let turns = record["turns"].as_array_mut().unwrap();
    let t = turns
        .iter()
        .position(|t| t["scores"].as_array().unwrap().iter().any(|s| s != 0))
        .expect("a turn that scores");
    let s = turns[t]["scores"][0].as_i64().unwrap();
    turns[t]["scores"][0] = serde_json::json!(s + 5);
    let path = dir.join("corrupt.jsonl");
    std::fs::write(
        &path,
        format!(
            "{}\n{}\n{{\"format\": \"carcassonne-record\"\n",
            record,
            original.lines().nth(1).unwrap()
        ),
    )
    .unwrap();

    let run = carcassonne(&["replay", path_str(&path)]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with(&format!("{id}: turn {t}: expected scores")),
        "{text}"
    );
    assert!(lines[1].contains("line 3"), "{text}");
    assert_eq!(lines[2], "1 reproduced, 0 known divergences, 2 diverged");
}

/// Every reference game reproduces, or diverges as `known-divergences.md` (beside the
/// records) lists it, labelled with its reason; the command then succeeds.
#[test]
fn replay_labels_the_listed_divergences() {
    let data = reference("");
    let mut files: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jsonl"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    files.sort();
    let mut args = vec!["replay"];
    args.extend(files.iter().map(String::as_str));
    let run = carcassonne(&args);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{text}");
    let listed: Vec<String> = std::fs::read_to_string(data.join("known-divergences.md"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("- id: "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let labelled: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(": known divergence ("))
        .collect();
    assert_eq!(labelled.len(), listed.len(), "{text}");
    for line in &labelled {
        let id = line.split(':').next().unwrap();
        assert!(listed.iter().any(|l| l == id), "{line}");
    }
    let last = last_line(&text);
    assert!(
        last.contains(&format!(
            " reproduced, {} known divergences, 0 diverged",
            listed.len()
        )),
        "{last}"
    );
    // Besides the labels, only the summary line.
    assert_eq!(text.lines().count(), labelled.len() + 1, "{text}");
}

/// A record listed in a `known-divergences.md` beside it is labelled with the list's
/// reason; `--known none` reads no list, `--known FILE` another one.
#[test]
fn replay_reads_the_list_beside_the_records_or_the_one_given() {
    let dir = scratch("known");
    let original = std::fs::read_to_string(reference("base-c2.jsonl")).unwrap();
    let mut record: Value = serde_json::from_str(original.lines().next().unwrap()).unwrap();
    let id = record["id"].as_str().unwrap().to_string();
    let s = record["final_scores"][0].as_i64().unwrap();
    record["final_scores"][0] = serde_json::json!(s + 1);
    let records = dir.join("games.jsonl");
    std::fs::write(&records, format!("{record}\n")).unwrap();
    std::fs::write(
        dir.join("known-divergences.md"),
        format!("# Known\n\n- id: {id} (B15, a test reading)\n"),
    )
    .unwrap();
    let run = carcassonne(&["replay", path_str(&records)]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{text}");
    assert!(
        text.starts_with(&format!(
            "{id}: known divergence (B15, a test reading): final scores: expected"
        )),
        "{text}"
    );
    assert_eq!(
        last_line(&text),
        "0 reproduced, 1 known divergences, 0 diverged"
    );

    let run = carcassonne(&["replay", path_str(&records), "--known", "none"]);
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        last_line(&stdout(&run)),
        "0 reproduced, 0 known divergences, 1 diverged"
    );

    let other = dir.join("other.md");
    std::fs::write(&other, "- id: someone-else (R5)\n").unwrap();
    let run = carcassonne(&["replay", path_str(&records), "--known", path_str(&other)]);
    assert_eq!(run.status.code(), Some(1));
    let bad = dir.join("bad.md");
    std::fs::write(&bad, "- id: x\n").unwrap();
    let run = carcassonne(&["replay", path_str(&records), "--known", path_str(&bad)]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("line 1"), "{}", stderr(&run));
}

/// `--rule key=value` replays under another reading: a game whose players placed
/// farmers (B16) no longer replays with `farmers=false`, where fields take no followers.
#[test]
fn replay_rule_options_override_the_records_rules() {
    let dir = scratch("rule");
    let out = dir.join("game.json");
    let played = carcassonne(&[
        "play",
        "--players",
        "2",
        "--sets",
        "base",
        "--seed",
        "3",
        "--bots",
        "greedy,greedy",
        "--out",
        path_str(&out),
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains(r#""feature":"f"#) || text.contains(r#""feature": "f"#),
        "the greedy players place a farmer in this game"
    );
    let run = carcassonne(&["replay", path_str(&out), "--rule", "farmers=true"]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    let run = carcassonne(&["replay", path_str(&out), "--rule", "farmers=false"]);
    assert_eq!(run.status.code(), Some(1), "{}", stdout(&run));
    assert!(stdout(&run).contains("action"), "{}", stdout(&run));
    for (rule, option) in [
        ("colour=red", "--rule colour"),
        ("tiny_city=3", "--rule tiny_city"),
    ] {
        let run = carcassonne(&["replay", path_str(&out), "--rule", rule]);
        assert_eq!(run.status.code(), Some(2), "{rule}");
        assert!(stderr(&run).contains(option), "{rule}: {}", stderr(&run));
    }
}

#[test]
fn render_draws_a_record_and_writes_svg() {
    let dir = scratch("render");
    let svg = dir.join("board.svg");
    let run = carcassonne(&[
        "render",
        path_str(&reference("base-c2.jsonl")),
        "--id",
        "base-c2-2p-0006",
        "--svg",
        path_str(&svg),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(text.contains("legend:"), "{text}");
    assert!(
        text.contains("base-c2-2p-0006: final scores: seat 0:"),
        "{text}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg"));
    // One tile group per placed tile, as the text's tile count says.
    let tiles = picture.matches(r#"<g class="tile""#).count();
    let placed = text
        .lines()
        .find_map(|l| l.strip_prefix("tiles: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("a tiles line");
    assert_eq!(tiles, placed);

    // --quiet writes the picture and prints nothing.
    let quiet_svg = dir.join("quiet.svg");
    let quiet = carcassonne(&[
        "render",
        path_str(&reference("base-c2.jsonl")),
        "--id",
        "base-c2-2p-0006",
        "--svg",
        path_str(&quiet_svg),
        "--quiet",
    ]);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    assert_eq!((stdout(&quiet).as_str(), stderr(&quiet).as_str()), ("", ""));
    assert_eq!(std::fs::read_to_string(&quiet_svg).unwrap(), picture);

    // Several records and no --id: the command asks which one.
    let ambiguous = carcassonne(&["render", path_str(&reference("base-c2.jsonl"))]);
    assert_eq!(ambiguous.status.code(), Some(2));
    assert!(stderr(&ambiguous).contains("--id"));
}

/// `--turn N` draws the board after the record's first N turns: turn 0 is the start
/// tile alone (B2), and each turn places at most one tile (B3); `--html` writes the
/// replay page with one frame per turn.
#[test]
fn render_at_a_turn_and_as_an_html_replay() {
    let dir = scratch("render-turn");
    let file = reference("base-c2.jsonl");
    let id = "base-c2-2p-0006";
    let record = reference_record(&file, id);
    let turns = record["turns"].as_array().unwrap().len();
    let tiles_after = |n: usize| -> usize {
        let run = render_at_turn(&file, id, n);
        assert!(run.status.success(), "{}", stderr(&run));
        let text = stdout(&run);
        if n < turns {
            assert!(
                text.contains(&format!("{id}: scores after turn {n} of {turns}: seat 0:")),
                "{text}"
            );
        }
        text.lines()
            .find_map(|l| l.strip_prefix("tiles: "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a tiles line")
    };
    assert_eq!(tiles_after(0), 1);
    let mut previous = 1;
    for n in [1, 2, turns / 2, turns] {
        let tiles = tiles_after(n);
        assert!(
            tiles >= previous && tiles <= n + 1,
            "turn {n}: {tiles} tiles"
        );
        previous = tiles;
    }
    let too_far = carcassonne(&[
        "render",
        path_str(&file),
        "--id",
        id,
        "--turn",
        &(turns + 1).to_string(),
    ]);
    assert_eq!(too_far.status.code(), Some(2));
    assert!(stderr(&too_far).contains("--turn"), "{}", stderr(&too_far));

    let html = dir.join("replay.html");
    let run = carcassonne(&[
        "render",
        path_str(&file),
        "--id",
        id,
        "--html",
        path_str(&html),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stdout(&run).contains(&format!("html replay of {turns} turns written to")));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches(r#"<g class="frame""#).count(), turns + 1);
    assert!(page.contains(&format!(r#"data-turns="{turns}""#)));
}

/// A record with final moves out of the City of Carcassonne (CC6, `final_actions`) is
/// drawn after any turn and as an HTML replay: the record cut before its end keeps none of
/// what follows its last turn.
#[test]
fn render_a_record_with_final_actions() {
    let dir = scratch("render-final-actions");
    let file = reference("count.jsonl");
    let id = "count-5p-0014";
    let record = reference_record(&file, id);
    assert!(!record["final_actions"].as_array().unwrap().is_empty());
    let turns = record["turns"].as_array().unwrap().len();
    for n in [0, 1, turns - 1, turns] {
        let run = render_at_turn(&file, id, n);
        assert!(run.status.success(), "turn {n}: {}", stderr(&run));
    }
    let html = dir.join("replay.html");
    let run = carcassonne(&[
        "render",
        path_str(&file),
        "--id",
        id,
        "--html",
        path_str(&html),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches(r#"<g class="frame""#).count(), turns + 1);
}

#[test]
fn bad_command_lines_exit_2_naming_the_option() {
    let cases: [(&[&str], &str); 24] = [
        (&["play", "--players", "9"], "--players"),
        (&["play", "--players", "many"], "--players"),
        (&["play", "--sets", "base,moon"], "--sets"),
        (&["play", "--edition", "C7"], "--edition"),
        (&["play", "--rule", "fairy=nowhere"], "--rule fairy"),
        (&["play", "--abbot", "2"], "--abbot"),
        (&["play", "--bots", "random,clever"], "--bots"),
        (&["play", "--seed", "minus"], "--seed"),
        (&["play", "--colour", "red"], "--colour"),
        (&["bench", "--seconds", "0"], "--seconds"),
        (&["bench", "--players"], "--players"),
        (&["bench", "--games", "0"], "--games"),
        (&["bench", "--games", "2.5"], "--games"),
        (&["bench", "--games", "2", "--seconds", "1"], "--games"),
        (&["render", "--svg"], "--svg"),
        (&["render", "x.json", "--turn", "-1"], "--turn"),
        (&["replay", "x.jsonl", "--rule", "farmers"], "--rule"),
        (&["play", "--bots", "mcts:0"], "--bots"),
        (&["match", "--games", "4"], "--bots"),
        (&["match", "--bots", "mcts:soon,greedy"], "--bots"),
        (
            &["match", "--bots", "greedy,random,random", "--players", "2"],
            "--bots",
        ),
        (&["match", "--bots", "greedy", "--games", "0"], "--games"),
        (
            &["match", "--bots", "greedy", "--threads", "x"],
            "--threads",
        ),
        (&["bench", "--bot", "mcts:1:threads=99"], "--bot"),
    ];
    for (args, option) in cases {
        let run = carcassonne(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let message = stderr(&run);
        assert!(message.contains(option), "{args:?}: {message}");
        assert!(stdout(&run).is_empty(), "{args:?}");
    }
    let run = carcassonne(&["replay"]);
    assert_eq!(run.status.code(), Some(2));
    let run = carcassonne(&["replay", "/nonexistent/records.jsonl"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("/nonexistent/records.jsonl"));
    let run = carcassonne(&["shuffle"]);
    assert_eq!(run.status.code(), Some(2));
}

/// The help names `--version`, and `--version` prints the version.
#[test]
fn help_mentions_version() {
    let help = stdout(&carcassonne(&["--help"]));
    assert!(help.contains("carcassonne --version"), "{help}");
    for flag in ["--version", "-V"] {
        let run = carcassonne(&[flag]);
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(
            stdout(&run),
            format!("carcassonne {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn every_command_has_help() {
    for (command, option) in [
        ("play", "--bots"),
        ("match", "mcts:100ms"),
        ("replay", "reproduced"),
        ("bench", "--seconds"),
        ("render", "--svg"),
    ] {
        let run = carcassonne(&[command, "--help"]);
        assert_eq!(run.status.code(), Some(0), "{command}");
        let text = stdout(&run);
        assert!(
            text.starts_with(&format!("carcassonne {command}:")),
            "{text}"
        );
        assert!(text.contains(option), "{command}: {text}");
    }
    let run = carcassonne(&["--help"]);
    assert!(run.status.success());
    assert!(stdout(&run).contains("commands:"));
}

/// The help of `play` lists every tile set and every rule switch with its values (§9 of
/// docs/rules.md), in both ways of asking for it.
#[test]
fn play_help_lists_every_set_and_rule_switch() {
    for words in [&["play", "--help"][..], &["help", "play"][..]] {
        let run = carcassonne(words);
        assert_eq!(run.status.code(), Some(0));
        // Lists are wrapped: compare without the line breaks and indentation.
        let text: String = stdout(&run).split_whitespace().collect();
        for set in carcassonne::TileSet::ALL {
            assert!(
                text.contains(set.name()),
                "{words:?} lacks the set {}",
                set.name()
            );
        }
        for (key, values) in carcassonne::config::RuleSwitches::switches() {
            let listed = format!("{key}={}", values.join("|"));
            assert!(text.contains(&listed), "{words:?} lacks {listed}");
        }
        assert!(!text.contains('{'), "{words:?}: a placeholder is left");
    }
}

/// Every kind of bot the code accepts (`Bot::known_names`) is listed where the docs list
/// the bots a person plays against (docs/play.md, docs/cli.md) and in the help of `play`.
#[test]
fn the_docs_and_the_help_list_every_kind_of_bot() {
    let known = carcassonne_session::bots::Bot::known_names();
    let kinds: Vec<&str> = known
        .split(" (")
        .next()
        .unwrap()
        .split(", ")
        .map(|k| k.split('[').next().unwrap())
        .collect();
    assert!(
        kinds.len() >= 4 && kinds.contains(&"heuristic"),
        "{kinds:?}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for doc in ["docs/play.md", "docs/cli.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for kind in &kinds {
            assert!(
                text.contains(&format!("`{kind}`")) || text.contains(&format!("`{kind}:")),
                "{doc} does not list the bot {kind}"
            );
        }
    }
    let help: String = stdout(&carcassonne(&["play", "--help"]))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for kind in &kinds {
        assert!(
            help.contains(kind),
            "play --help does not list the bot {kind}"
        );
    }
}

#[test]
fn match_rotates_seats_and_reports_win_rates() {
    let run = carcassonne(&[
        "match",
        "--bots",
        "mcts:20,random",
        "--games",
        "4",
        "--seed",
        "3",
        "--threads",
        "2",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(
        text.starts_with("match: 4 games of 2 players, sets base"),
        "{text}"
    );
    let row = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}: {text}"))
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    // player, games, wins, win rate, interval low, "-", interval high, score, margin, ms
    let mcts = row("mcts:20 ");
    assert_eq!(mcts[1], "4");
    assert_eq!(
        mcts[2], "4.0",
        "MCTS wins every game against random: {text}"
    );
    assert_eq!(mcts[3], "100.0%");
    let random = row("random ");
    assert_eq!(random[2], "0.0");
    // Every player sat twice at each seat.
    assert!(
        text.contains("seat 0 100.0% (2)  seat 1 100.0% (2)"),
        "{text}"
    );
    // Standard error holds nothing but progress lines (one every 10 s when it is not a
    // terminal, none in the first second).
    for line in stderr(&run).lines() {
        assert!(
            line.starts_with("match: ") && line.contains("/4 games, "),
            "{}",
            stderr(&run)
        );
    }
}

#[test]
fn bench_plays_a_fixed_number_of_games() {
    let args = [
        "bench",
        "--players",
        "3",
        "--sets",
        "base,cult",
        "--games",
        "4",
        "--seed",
        "7",
    ];
    let run = carcassonne(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let summary = text.lines().next().unwrap();
    assert!(summary.starts_with("bench: 4 games, "), "{text}");
    // The same games, so the same decisions, on a second run.
    let again = stdout(&carcassonne(&args));
    let decisions = |t: &str| t.split(" decisions").next().unwrap().to_string();
    assert_eq!(decisions(&text), decisions(&again));
}

#[test]
fn bench_reports_search_speed_for_an_mcts_player() {
    let run = carcassonne(&["bench", "--bot", "mcts:10", "--seconds", "0.01"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = stdout(&run);
    let last = last_line(&text);
    let rate: f64 = last
        .strip_prefix("iterations/s: ")
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("last line {last:?}"));
    assert!(rate > 0.0);
    assert!(text.contains("player mcts:10"));
}

/// Files that hold no record, or are no record files at all, are problems (exit 1), and
/// fail at once: an empty file, `/dev/zero`, a line longer than any record, a JSON
/// array, a record of another format.
#[test]
fn files_without_records_fail_fast() {
    let dir = scratch("hostile-files");
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let long = dir.join("long.jsonl");
    std::fs::write(
        &long,
        format!("{{\"notes\":\"{}\"}}\n", "x".repeat(5 << 20)),
    )
    .unwrap();
    let array = dir.join("array.json");
    std::fs::write(&array, "[{\"format\":\"carcassonne-record\"}]\n").unwrap();
    let chess = dir.join("chess.jsonl");
    std::fs::write(&chess, "{\"format\":\"chess\"}\n".repeat(1000)).unwrap();
    let mut cases = vec![
        (path_str(&empty).to_string(), "no record in the file"),
        (path_str(&long).to_string(), "longer than 4194304 bytes"),
        (path_str(&array).to_string(), "a record is a JSON object"),
        (path_str(&chess).to_string(), "not a game record"),
    ];
    if Path::new("/dev/zero").exists() {
        cases.push(("/dev/zero".into(), "a record is a JSON object"));
    }
    for (path, message) in cases {
        let run = carcassonne(&["replay", &path]);
        let text = stdout(&run);
        assert_eq!(run.status.code(), Some(1), "{path}: {text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.len(),
            2,
            "{path}: one problem, then the tally: {text}"
        );
        assert!(lines[0].contains(message), "{path}: {text}");
        assert_eq!(
            lines[1], "0 reproduced, 0 known divergences, 1 diverged",
            "{path}"
        );
    }
}

/// Each bad record of a file is one problem naming the field; the others replay.
#[test]
fn malformed_records_name_the_field_and_the_others_replay() {
    let dir = scratch("hostile-records");
    let original = std::fs::read_to_string(reference("base-c2.jsonl")).unwrap();
    let good = original.lines().next().unwrap();
    let record: Value = serde_json::from_str(good).unwrap();
    let mut bad = Vec::new();
    let mut r = record.clone();
    r["final_scores"][0] = serde_json::json!(r["final_scores"][0].as_i64().unwrap() + (1 << 32));
    bad.push((r.to_string(), "final_scores[0]"));
    let mut r = record.clone();
    r["turns"][0]["discarded"] = serde_json::json!("yes");
    bad.push((r.to_string(), "turns[0].discarded"));
    let mut r = record.clone();
    r["turns"][0]["actions"][0]["player"] = serde_json::json!(-7);
    bad.push((r.to_string(), "turns[0].actions[0].player"));
    let mut r = record.clone();
    r["setup"]["playrs"] = serde_json::json!(3);
    bad.push((r.to_string(), "setup.playrs"));
    let mut r = record.clone();
    r["comment"] = serde_json::json!("hi");
    bad.push((r.to_string(), "comment: unknown key"));
    bad.push((
        good.replacen("{", "{\"format\":\"chess\",", 1),
        "format: duplicate key",
    ));
    let mut text = String::new();
    for (line, _) in &bad {
        text.push_str(good);
        text.push('\n');
        text.push_str(line);
        text.push('\n');
    }
    let path = dir.join("mixed.jsonl");
    std::fs::write(&path, text).unwrap();
    let run = carcassonne(&["replay", path_str(&path)]);
    let out = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), bad.len() + 1, "{out}");
    for (line, (_, field)) in lines.iter().zip(&bad) {
        assert!(line.contains(field), "{field}: {line}");
    }
    assert_eq!(
        *lines.last().unwrap(),
        format!(
            "{} reproduced, 0 known divergences, {} diverged",
            bad.len(),
            bad.len()
        )
    );
}

/// The paths (keys and array indices) of every string of `v`.
fn string_paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::String(_) => out.push(at.clone()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                at.push(i.to_string());
                string_paths(x, at, out);
                at.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                at.push(k.clone());
                string_paths(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// Whether `text` holds a control character other than a line feed or a tab (one a
/// terminal would obey: an escape sequence, a bell, a C1 control).
fn has_controls(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// Text from a record or a file name never reaches the terminal raw: a record `id` with
/// escape sequences (a window title, a screen clear, a C1 control) is quoted and escaped
/// by `replay` (a diverging record, a malformed one, a known divergence) and by `render`
/// (its scores line, its errors), and so is a file name; a command-line word that is not
/// UTF-8 is a usage error. A sweep puts the escape sequences in front of every string of
/// two reference records, one record each: `replay` reports them all without one.
#[test]
fn messages_escape_the_control_characters_of_records_and_file_names() {
    let dir = scratch("escapes");
    let hostile = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m";
    let good = std::fs::read_to_string(reference("base-c2.jsonl"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let mut record: Value = serde_json::from_str(&good).unwrap();
    record["id"] = Value::from(hostile);
    let mut diverging = record.clone();
    diverging["final_scores"][0] = Value::from(diverging["final_scores"][0].as_i64().unwrap() + 1);
    let mut malformed = record.clone();
    malformed["setup"]["edition"] = Value::from(format!("C2{hostile}"));
    let file = dir.join(format!("games{hostile}.jsonl"));
    std::fs::write(
        &file,
        format!("{record}\n{diverging}\n{malformed}\n{{\"format\": 1}}\n"),
    )
    .unwrap();
    let known = dir.join("known.md");
    std::fs::write(&known, format!("- id: {hostile} (B12, {hostile})\n")).unwrap();
    let escaped_id = format!("{hostile:?}");

    let run = carcassonne(&["replay", path_str(&file)]);
    let out = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{out:?}");
    assert!(!has_controls(&out), "{out:?}");
    assert_eq!(out.matches(&escaped_id).count(), 2, "{out:?}");
    let run = carcassonne(&["replay", path_str(&file), "--known", path_str(&known)]);
    let out = stdout(&run);
    assert!(!has_controls(&out), "{out:?}");
    assert!(
        out.contains(&format!(
            "{escaped_id}: known divergence (B12, \\u{{1b}}]0;owned"
        )),
        "{out:?}"
    );

    let single = dir.join("single.json");
    std::fs::write(&single, record.to_string()).unwrap();
    let run = carcassonne(&[
        "render",
        path_str(&single),
        "--svg",
        path_str(&dir.join("b.svg")),
    ]);
    let out = stdout(&run);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(!has_controls(&out), "{out:?}");
    assert!(
        out.contains(&format!("{escaped_id}: final scores: seat 0:")),
        "{out:?}"
    );
    let other_id = format!("other{hostile}");
    for args in [
        vec!["render", path_str(&file)],
        vec!["render", path_str(&single), "--id", &other_id],
        vec![
            "replay",
            path_str(&dir.join(format!("none{hostile}.jsonl"))),
        ],
        vec![hostile],
    ] {
        let run = carcassonne(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let err = stderr(&run);
        assert!(!has_controls(&err), "{args:?}: {err:?}");
        assert!(err.contains("\\u{1b}]0;owned\\u{7}"), "{args:?}: {err:?}");
    }

    // Every kind of string of a Royal Gift record and of a Count record with final moves,
    // and four unknown keys, prefixed with the escape sequences: one record each.
    let mut sweep = Vec::new();
    for (file, id) in [
        ("royal-gift.jsonl", "royal-gift-4p-0003"),
        ("count.jsonl", "count-5p-0014"),
    ] {
        let base = reference_record(&reference(file), id);
        let mut paths = Vec::new();
        string_paths(&base, &mut Vec::new(), &mut paths);
        // One path of each shape (array indices left out): every kind of string once.
        let mut shapes = std::collections::BTreeSet::new();
        paths.retain(|p| {
            let shape: Vec<&str> = p
                .iter()
                .map(|k| if k.parse::<usize>().is_ok() { "#" } else { k })
                .collect();
            p.as_slice() != ["format"] && shapes.insert(shape.join("."))
        });
        for path in &paths {
            let mut r = base.clone();
            let leaf = path.iter().fold(&mut r, |v, k| match k.parse::<usize>() {
                Ok(i) if v.is_array() => &mut v[i],
                _ => &mut v[k.as_str()],
            });
            *leaf = Value::from(format!("{hostile}{}", leaf.as_str().unwrap()));
            sweep.push(r);
        }
        for at in [&[][..], &["setup"], &["setup", "rules"], &["turns", "0"]] {
            let mut r = base.clone();
            let object = at.iter().fold(&mut r, |v, k| match k.parse::<usize>() {
                Ok(i) => &mut v[i],
                _ => &mut v[*k],
            });
            object[hostile] = Value::from(1);
            sweep.push(r);
        }
    }
    assert!(sweep.len() > 50, "{} records", sweep.len());
    let swept = dir.join("sweep.jsonl");
    let text: Vec<String> = sweep.iter().map(Value::to_string).collect();
    std::fs::write(&swept, text.join("\n")).unwrap();
    let run = carcassonne(&["replay", path_str(&swept)]);
    let out = stdout(&run);
    assert!(!has_controls(&out), "{out:?}");
    assert!(out.lines().count() > sweep.len() / 2, "{out}");

    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let run = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args([
                "replay".as_ref(),
                std::ffi::OsStr::from_bytes(b"\xff\x1b[2J.jsonl"),
            ])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2));
        let err = stderr(&run);
        assert!(err.contains("argument 2 is not UTF-8"), "{err:?}");
        assert!(!has_controls(&err), "{err:?}");
    }
}

/// A file read whole (`play --resume FILE`, `replay --known FILE`) is read with the limit
/// of a record, 4 MiB: `/dev/zero` is refused at once (exit 2) with a message that names
/// the file and the limit, as plain `replay` and `render` refuse it.
#[test]
fn files_read_whole_are_refused_past_the_record_limit() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let record = reference("base-c2.jsonl");
    let cases: [(&[&str], &str); 2] = [
        (&["play", "--resume", "/dev/zero"], "--resume: cannot read"),
        (
            &["replay", path_str(&record), "--known", "/dev/zero"],
            "--known: cannot read",
        ),
    ];
    for (args, start) in cases {
        let began = std::time::Instant::now();
        let run = carcassonne(args);
        let seconds = began.elapsed().as_secs_f64();
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(seconds < 10.0, "{args:?}: {seconds} s");
        assert!(err.contains(start), "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero: longer than 4194304 bytes"),
            "{args:?}: {err}"
        );
    }
}

/// A record file that starts with a UTF-8 byte-order mark (some editors write one) is read
/// as if it had none, by `replay`, `render` and `play --resume`.
#[test]
fn records_that_start_with_a_byte_order_mark_are_read() {
    let dir = scratch("byte-order-mark");
    let good = std::fs::read_to_string(reference("base-c2.jsonl")).unwrap();
    let good = good.lines().next().unwrap();
    let marked = dir.join("marked.jsonl");
    std::fs::write(&marked, format!("\u{feff}{good}\n")).unwrap();
    let run = carcassonne(&["replay", path_str(&marked)]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    assert_eq!(
        last_line(&stdout(&run)),
        "1 reproduced, 0 known divergences, 0 diverged"
    );
    let svg = dir.join("board.svg");
    let run = carcassonne(&["render", path_str(&marked), "--svg", path_str(&svg)]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // A game in progress, saved with a mark: `play --resume` goes on from it.
    let partial = dir.join("partial.json");
    let run = play_typing(
        &[
            "play",
            "--human",
            "0",
            "--seed",
            "3",
            "--out",
            path_str(&partial),
        ],
        "q\n",
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let saved = std::fs::read_to_string(&partial).unwrap();
    std::fs::write(&partial, format!("\u{feff}{saved}")).unwrap();
    let run = play_typing(
        &["play", "--resume", path_str(&partial), "--human", "0"],
        "q\n",
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
}

/// Runs `carcassonne` with `typed` on its standard input.
fn play_typing(args: &[&str], typed: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the carcassonne binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(typed.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `play --human` reads a typed line of at most 4096 bytes: `/dev/zero` on its standard
/// input stops the game at once (exit 1) with a message that names the limit, and the
/// record keeps the game.
#[test]
fn play_human_refuses_a_line_longer_than_4096_bytes() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let dir = scratch("typed-zeros");
    let out = dir.join("game.json");
    let began = std::time::Instant::now();
    let run = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(["play", "--human", "0", "--out", path_str(&out)])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    let seconds = began.elapsed().as_secs_f64();
    assert!(seconds < 10.0, "{seconds} s");
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("a line longer than 4096 bytes was typed"),
        "{}",
        stderr(&run)
    );
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("carcassonne-record"));
}

/// `play --human` without `--out` keeps an earlier game's `game-record.json` (the one the
/// last stop said to resume): the new game goes to `game-record-2.json`, and says so.
#[test]
fn a_new_terminal_game_keeps_the_earlier_record() {
    use std::io::Write;
    let dir = scratch("record-names");
    let run_in_dir = |seed: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["play", "--human", "0", "--seed", seed])
            .current_dir(&*dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"1\nq\n").unwrap();
        child.wait_with_output().unwrap()
    };
    let first = run_in_dir("1");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let kept = std::fs::read_to_string(dir.join("game-record.json")).unwrap();
    let second = run_in_dir("2");
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert!(
        stdout(&second).contains(
            "game-record.json holds an earlier game, kept as it is; this game is written to game-record-2.json"
        ),
        "{}",
        stdout(&second)
    );
    assert!(stdout(&second).contains("carcassonne play --resume game-record-2.json"));
    assert_eq!(
        std::fs::read_to_string(dir.join("game-record.json")).unwrap(),
        kept
    );
    assert!(std::fs::read_to_string(dir.join("game-record-2.json"))
        .unwrap()
        .contains("\"seed\":2"));
}
