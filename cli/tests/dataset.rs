//! `carcassonne dataset convert`, `dataset info` and `selfplay`: the reference games
//! (tests/data/base-c2.jsonl, played elsewhere) convert into a dataset whose games rows
//! hold the records' own final scores, a rerun writes no game twice, a bad record is an
//! error naming its file and line (or skipped and reported with --skip-bad), and
//! self-play writes games whose decisions carry the search's targets.

mod common;

use carcassonne_session::dataset::arrow_array::cast::AsArray;
use carcassonne_session::dataset::arrow_array::types::{
    Float32Type, Int32Type, UInt32Type, UInt8Type,
};
use carcassonne_session::dataset::arrow_array::RecordBatch;
use carcassonne_session::dataset::read_table;
use carcassonne_session::record;
use common::{carcassonne, path_str as s, scratch, stderr, stdout};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/base-c2.jsonl")
}

fn batches(dir: &Path, table: &str) -> Vec<RecordBatch> {
    let read = read_table(dir, table, false).unwrap();
    assert!(read.skipped.is_empty());
    read.batches
}

/// game id → final scores, from the games table.
fn final_scores(dir: &Path) -> HashMap<String, Vec<i32>> {
    let mut out = HashMap::new();
    for b in batches(dir, "games") {
        let ids = b.column_by_name("game_id").unwrap().as_string::<i32>();
        let scores = b.column_by_name("final_scores").unwrap().as_list::<i32>();
        for i in 0..b.num_rows() {
            let v = scores
                .value(i)
                .as_primitive::<Int32Type>()
                .values()
                .to_vec();
            assert!(
                out.insert(ids.value(i).to_string(), v).is_none(),
                "id twice"
            );
        }
    }
    out
}

#[test]
fn convert_writes_the_reference_games_once() {
    let tmp = scratch("convert");
    let dir = tmp.0.join("ds");
    let run = carcassonne(&["dataset", "convert", s(&reference()), s(&dir)]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        stdout(&run),
        format!("28 games written, 0 already in {}, 0 skipped\n", s(&dir))
    );
    // Each game row holds the final scores its reference record states.
    let text = std::fs::read_to_string(reference()).unwrap();
    let expected: HashMap<String, Vec<i32>> = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let scores = v["final_scores"].as_array().unwrap().iter();
            let scores = scores.map(|x| x.as_i64().unwrap() as i32).collect();
            (v["id"].as_str().unwrap().to_string(), scores)
        })
        .collect();
    assert_eq!(final_scores(&dir), expected);
    // Each stored record replays to those scores; the turns table has a row per turn.
    let mut turns = 0;
    for b in batches(&dir, "records") {
        let ids = b.column_by_name("game_id").unwrap().as_string::<i32>();
        let texts = b.column_by_name("record").unwrap().as_string::<i32>();
        for i in 0..b.num_rows() {
            let game = record::replay_json(texts.value(i)).unwrap();
            assert_eq!(game.scores(), &expected[ids.value(i)][..]);
            turns += game.turns().len();
        }
    }
    let turn_rows: usize = batches(&dir, "turns")
        .iter()
        .map(RecordBatch::num_rows)
        .sum();
    assert_eq!(turn_rows, turns);
    // B15-B17: every point of a final score comes from a score event of the game.
    let mut points: HashMap<String, Vec<i32>> = HashMap::new();
    for b in batches(&dir, "events") {
        let ids = b.column_by_name("game_id").unwrap().as_string::<i32>();
        let player = b
            .column_by_name("player")
            .unwrap()
            .as_primitive::<UInt8Type>();
        let p = b
            .column_by_name("points")
            .unwrap()
            .as_primitive::<Int32Type>();
        for i in 0..b.num_rows() {
            let id = ids.value(i);
            let seats = points
                .entry(id.to_string())
                .or_insert(vec![0; expected[id].len()]);
            seats[player.value(i) as usize] += p.value(i);
        }
    }
    assert_eq!(points, expected);
    // Converting again writes nothing.
    let again = carcassonne(&["dataset", "convert", s(&reference()), s(&dir)]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        stdout(&again),
        format!("0 games written, 28 already in {}, 0 skipped\n", s(&dir))
    );
    assert_eq!(final_scores(&dir).len(), 28);
    let info = carcassonne(&["dataset", "info", s(&dir)]);
    assert_eq!(info.status.code(), Some(0));
    let games_line = stdout(&info)
        .lines()
        .find(|l| l.starts_with("games "))
        .unwrap()
        .to_string();
    assert_eq!(
        games_line.split_whitespace().nth(2),
        Some("28"),
        "{games_line}"
    );
}

#[test]
fn a_record_that_does_not_replay_is_named_or_skipped() {
    let tmp = scratch("bad");
    let text = std::fs::read_to_string(reference()).unwrap();
    let mut lines: Vec<String> = text.lines().take(3).map(str::to_string).collect();
    // Line 2: seat 0 gains 5 more points in the final scores than the game gives.
    let mut v: Value = serde_json::from_str(&lines[1]).unwrap();
    let bad_id = v["id"].as_str().unwrap().to_string();
    let s0 = v["final_scores"][0].as_i64().unwrap();
    v["final_scores"][0] = serde_json::json!(s0 + 5);
    lines[1] = v.to_string();
    lines.push("{\"format\": \"carcassonne-record\"".into());
    let file = tmp.0.join("some.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let dir = tmp.0.join("ds");
    let run = carcassonne(&["dataset", "convert", s(&file), s(&dir)]);
    assert_eq!(run.status.code(), Some(1));
    let e = stderr(&run);
    assert!(e.contains(&format!("{}: line 2: ", s(&file))), "{e}");
    assert!(e.contains(&bad_id), "{e}");
    // What came before the bad record is written whole.
    assert_eq!(final_scores(&dir).len(), 1);
    let skip = carcassonne(&["dataset", "convert", s(&file), s(&dir), "--skip-bad"]);
    assert_eq!(skip.status.code(), Some(1));
    let out = stdout(&skip);
    let reported: Vec<&str> = out.lines().filter(|l| l.starts_with("skipped: ")).collect();
    assert_eq!(reported.len(), 2, "{out}");
    assert!(reported[0].contains("line 2"), "{out}");
    assert!(reported[1].contains("line 4"), "{out}");
    assert!(
        out.ends_with(&format!(
            "1 games written, 1 already in {}, 2 skipped\n",
            s(&dir)
        )),
        "{out}"
    );
    assert_eq!(final_scores(&dir).len(), 2);
}

#[test]
fn selfplay_writes_decisions_and_goes_on_where_it_stopped() {
    let tmp = scratch("selfplay");
    let dir = tmp.0.join("ds");
    let args = |games: &'static str| {
        vec![
            "selfplay",
            "--games",
            games,
            "--bots",
            "mcts:8",
            "--seed",
            "3",
            "--threads",
            "2",
            "--window",
            "16",
            "--part-games",
            "1",
            "--out",
            s(&dir),
        ]
    };
    let run = carcassonne(&args("2"));
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stdout(&run).starts_with("2 games written ("),
        "{}",
        stdout(&run)
    );
    let again = carcassonne(&args("3"));
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stdout(&again).starts_with("1 games written ("),
        "{}",
        stdout(&again)
    );
    assert!(stdout(&again).ends_with(&format!("2 already in {}\n", s(&dir))));
    let scores = final_scores(&dir);
    let mut ids: Vec<&String> = scores.keys().collect();
    ids.sort();
    // selfplay-<seed>-<n>-<hash>, one hash for the run's settings (docs/dataset.md).
    let hash = ids[0].rsplit('-').next().unwrap().to_string();
    assert!(
        hash.len() == 8 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{ids:?}"
    );
    let want: Vec<String> = (0..3).map(|n| format!("selfplay-3-{n}-{hash}")).collect();
    assert_eq!(ids, want.iter().collect::<Vec<_>>());
    // Every decision's targets sum to 1 and the games count their decisions.
    let mut rows = 0u32;
    for b in batches(&dir, "decisions") {
        let targets = b.column_by_name("targets").unwrap().as_list::<i32>();
        for i in 0..b.num_rows() {
            let t = targets.value(i);
            let shares = t.as_struct().column(1).as_primitive::<Float32Type>();
            let total: f32 = shares.values().iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
        }
        rows += b.num_rows() as u32;
    }
    let counted: u32 = batches(&dir, "games")
        .iter()
        .map(|b| {
            let c = b
                .column_by_name("decisions")
                .unwrap()
                .as_primitive::<UInt32Type>();
            c.values().iter().sum::<u32>()
        })
        .sum();
    assert_eq!(rows, counted);
    assert!(rows > 100);
    let seats = batches(&dir, "games")[0]
        .column_by_name("seats")
        .unwrap()
        .as_list::<i32>()
        .value(0);
    assert_eq!(seats.as_string::<i32>().value(0), "mcts:8");
    let info = stdout(&carcassonne(&["dataset", "info", s(&dir)]));
    assert!(info.contains("bytes per decision: "), "{info}");
}

#[test]
fn selfplay_refuses_a_bot_that_does_not_search() {
    let tmp = scratch("refuse");
    let run = carcassonne(&[
        "selfplay",
        "--bots",
        "greedy",
        "--out",
        s(&tmp.0.join("ds")),
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--bots"), "{}", stderr(&run));
    let run = carcassonne(&["selfplay", "--games", "1"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--out"), "{}", stderr(&run));
}
