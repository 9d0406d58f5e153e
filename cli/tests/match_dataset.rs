//! `carcassonne match --first-game G --out DIR`: every game written into a dataset, its
//! players in the seats column, its record replaying to its final scores; the mean
//! scores printed are those of the games written; a match split into two ranges writes
//! the records of the whole match; a rerun plays and writes nothing again; bad options
//! are named.

mod common;

use carcassonne_session::dataset::arrow_array::cast::AsArray;
use carcassonne_session::dataset::arrow_array::types::Int32Type;
use carcassonne_session::dataset::arrow_array::{Array, RecordBatch};
use carcassonne_session::dataset::read_table;
use carcassonne_session::record;
use common::carcassonne;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A fresh directory for `test` under the system's temporary folder.
fn fresh_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "carcassonne-cli-match-{}-{test}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn strings(b: &RecordBatch, name: &str) -> Vec<String> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..c.len()).map(|i| c.value(i).to_string()).collect()
}

/// The records of a dataset by game id.
fn records(dir: &Path) -> BTreeMap<String, String> {
    let read = read_table(dir, "records", false).unwrap();
    read.batches
        .iter()
        .flat_map(|b| strings(b, "game_id").into_iter().zip(strings(b, "record")))
        .collect()
}

fn run_ok(args: &[&str]) -> String {
    let o = carcassonne(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn match_out_writes_every_game_and_ranges_make_the_whole_match() {
    let tmp = fresh_dir("out");
    let whole = tmp.join("whole");
    let w = whole.to_str().unwrap();
    let base = [
        "match",
        "--bots",
        "greedy,random",
        "--seed",
        "3",
        "--threads",
        "2",
    ];
    let out = run_ok(&[&base[..], &["--games", "4", "--out", w]].concat());
    assert!(out.contains("4 games written to"), "{out}");
    assert!(out.contains("0 already there"), "{out}");
    // Each game row: its seats, and its record replays to its final scores.
    let games = read_table(&whole, "games", false).unwrap();
    assert_eq!(games.rows(), 4);
    let recs = records(&whole);
    let mut greedy_scores = Vec::new();
    for b in &games.batches {
        let seats = b.column_by_name("seats").unwrap().as_list::<i32>();
        let finals = b.column_by_name("final_scores").unwrap().as_list::<i32>();
        for (i, id) in strings(b, "game_id").into_iter().enumerate() {
            assert!(id.starts_with("match-3-"), "{id}");
            let names = seats.value(i);
            let names = names.as_string::<i32>();
            let s: Vec<i32> = finals
                .value(i)
                .as_primitive::<Int32Type>()
                .values()
                .to_vec();
            let game = record::replay_json(&recs[&id]).unwrap();
            assert_eq!(game.scores(), &s[..], "{id}");
            let at = (0..2).find(|k| names.value(*k) == "greedy").unwrap();
            assert_eq!(names.value(1 - at), "random", "{id}");
            greedy_scores.push(s[at]);
        }
    }
    // The summary printed is of these games: greedy's mean score.
    let mean = greedy_scores.iter().sum::<i32>() as f64 / 4.0;
    let line = out.lines().find(|l| l.starts_with("greedy ")).unwrap();
    assert!(line.contains(&format!(" {mean:.1} ")), "{mean} in {line:?}");
    // Games 0..1 and 2..3 as two commands: the same records under the same ids.
    let split = tmp.join("split");
    let sp = split.to_str().unwrap();
    run_ok(&[&base[..], &["--games", "2", "--out", sp]].concat());
    let second = run_ok(
        &[
            &base[..],
            &["--games", "2", "--first-game", "2", "--out", sp],
        ]
        .concat(),
    );
    assert!(second.contains("games 2 to 3"), "{second}");
    assert_eq!(records(&split), recs);
    // The whole match again: nothing played, nothing written.
    let again = run_ok(
        &[
            &base[..],
            &["--games", "4", "--out", sp, "--part-games", "1"],
        ]
        .concat(),
    );
    assert!(again.contains("0 games written to"), "{again}");
    assert!(again.contains("4 already there"), "{again}");
    assert_eq!(read_table(&split, "games", false).unwrap().rows(), 4);
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn bad_match_options_are_named() {
    let tmp = fresh_dir("bad");
    let dir = tmp.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["--first-game", "-1"],
            "--first-game: expected a whole number from 0",
        ),
        (vec!["--first-game", "9007199254740993"], "--first-game"),
        (vec!["--part-games", "4"], "--part-games: only with --out"),
        (
            vec!["--out", dir, "--part-games", "0"],
            "--part-games: expected a whole number from 1",
        ),
    ] {
        let o = carcassonne(
            &[
                &["match", "--bots", "greedy,random", "--games", "1"][..],
                &args,
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(expected),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}
