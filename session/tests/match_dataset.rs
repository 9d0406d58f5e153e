//! Matches in ranges of games and written into a dataset: a match split into ranges
//! plays the games of the whole match (same deals, seating and scores) and writes the
//! same rows under the same ids; every record written replays to the scores the match
//! reported, with ranks by the most points, ties shared (B17); a rerun writes no game
//! twice; a stopped match leaves the games it finished written whole; the summaries of
//! ranges put together are the whole match's, and games that do not seat each player
//! once are refused.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use carcassonne::{GameConfig, TileSet};
use carcassonne_session::bots::Bot;
use carcassonne_session::dataset::{read_table, DatasetWriter, TABLES};
use carcassonne_session::matches::{
    match_game_id, match_hash, run_match, summary_text, try_summarize, write_match, MatchSpec,
    MatchWriteError,
};
use carcassonne_session::record;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "carcassonne-match-ds-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn spec(first_game: u64, games: u32) -> MatchSpec {
    let mut config = GameConfig::new(2);
    config.sets = vec![TileSet::Base];
    config.seed = 40;
    let mut spec = MatchSpec::new(config, vec![Bot::Greedy, Bot::Random], games);
    spec.first_game = first_game;
    spec.threads = 2;
    spec
}

fn write(
    dir: &Path,
    spec: &MatchSpec,
    per_part: usize,
) -> Result<carcassonne_session::matches::MatchWritten, MatchWriteError> {
    let mut writer = DatasetWriter::open(dir).unwrap();
    writer.games_per_part = per_part;
    write_match(spec, &mut writer, &|_, _| {}, &mut || true)
}

fn strings(b: &RecordBatch, name: &str) -> Vec<String> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..c.len()).map(|i| c.value(i).to_string()).collect()
}

/// Every row of every table, as single-row batches, by game id (rows of a game in
/// their order).
fn rows_by_id(dir: &Path) -> BTreeMap<(String, String), Vec<RecordBatch>> {
    let mut out: BTreeMap<(String, String), Vec<RecordBatch>> = BTreeMap::new();
    for table in TABLES {
        let read = read_table(dir, table, false).unwrap();
        assert!(read.skipped.is_empty());
        for b in read.batches {
            for (i, id) in strings(&b, "game_id").into_iter().enumerate() {
                out.entry((table.to_string(), id))
                    .or_default()
                    .push(b.slice(i, 1));
            }
        }
    }
    out
}

#[test]
fn a_match_written_to_a_dataset_replays_to_the_scores_it_reported() {
    let dir = fresh_dir("replay");
    let spec = spec(0, 4);
    let done = write(&dir, &spec, 3).unwrap();
    assert_eq!((done.written, done.present), (4, 0));
    let reported: HashMap<String, &carcassonne_session::matches::GameResult> = done
        .report
        .games
        .iter()
        .map(|r| (match_game_id(&spec, r.game), r))
        .collect();
    assert_eq!(reported.len(), 4);
    let games = read_table(&dir, "games", false).unwrap();
    assert_eq!(games.rows(), 4);
    let mut seen = 0;
    for b in &games.batches {
        let scores = b.column_by_name("final_scores").unwrap().as_list::<i32>();
        let ranks = b.column_by_name("ranks").unwrap().as_list::<i32>();
        let seats = b.column_by_name("seats").unwrap().as_list::<i32>();
        let seeds = b
            .column_by_name("seed")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let decisions = b.column_by_name("decisions").unwrap();
        for (i, id) in strings(b, "game_id").into_iter().enumerate() {
            let r = reported[&id];
            let g = r.game;
            assert_eq!(id, format!("match-40-{g}-{}", match_hash(&spec)));
            // Game g deals seed 40 + g / 2 and seats player i at seat (i + g) mod 2.
            assert_eq!(seeds.value(i), 40 + g / 2, "{id}");
            let names: Vec<String> = {
                let s = seats.value(i);
                let s = s.as_string::<i32>();
                (0..s.len()).map(|k| s.value(k).to_string()).collect()
            };
            let expected: Vec<&str> = if g.is_multiple_of(2) {
                vec!["greedy", "random"]
            } else {
                vec!["random", "greedy"]
            };
            assert_eq!(names, expected, "{id}");
            let s: Vec<i32> = scores
                .value(i)
                .as_primitive::<Int32Type>()
                .values()
                .to_vec();
            assert_eq!(s, r.scores, "{id}");
            // B17: the most points ranks first; a tie shares the rank.
            let rk: Vec<u8> = ranks.value(i).as_primitive::<UInt8Type>().values().to_vec();
            for p in 0..2 {
                let better = s.iter().filter(|t| **t > s[p]).count() as u8;
                assert_eq!(rk[p], better + 1, "{id} seat {p}");
            }
            // A built-in bot has no search targets: no decision rows.
            assert_eq!(
                decisions
                    .as_primitive::<arrow_array::types::UInt32Type>()
                    .value(i),
                0
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 4);
    let records = read_table(&dir, "records", false).unwrap();
    for b in &records.batches {
        for (id, text) in strings(b, "game_id").into_iter().zip(strings(b, "record")) {
            let game = record::replay_json(&text).unwrap();
            assert!(game.is_terminal(), "{id}");
            assert_eq!(game.scores(), &reported[&id].scores[..], "{id}");
        }
    }
    assert_eq!(read_table(&dir, "decisions", false).unwrap().rows(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_match_split_into_ranges_plays_and_writes_the_same_games() {
    let whole = run_match(&spec(0, 4), &|_, _| {}).unwrap();
    let dir_whole = fresh_dir("whole");
    write(&dir_whole, &spec(0, 4), 64).unwrap();
    for split in [1u32, 2] {
        let head = run_match(&spec(0, split), &|_, _| {}).unwrap();
        let tail = run_match(&spec(u64::from(split), 4 - split), &|_, _| {}).unwrap();
        let joined: Vec<_> = head.games.iter().chain(&tail.games).collect();
        assert_eq!(joined.len(), 4);
        for (a, b) in whole.games.iter().zip(joined) {
            assert_eq!(
                (a.game, a.seed, &a.seating, &a.scores, &a.decisions),
                (b.game, b.seed, &b.seating, &b.scores, &b.decisions),
                "game {} split at {split}",
                a.game
            );
        }
        let dir = fresh_dir(&format!("split-{split}"));
        let first = write(&dir, &spec(0, split), 64).unwrap();
        let second = write(&dir, &spec(u64::from(split), 4 - split), 64).unwrap();
        assert_eq!(first.written + second.written, 4);
        assert_eq!(rows_by_id(&dir), rows_by_id(&dir_whole), "split at {split}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::remove_dir_all(&dir_whole).unwrap();
}

#[test]
fn a_rerun_writes_no_game_twice_and_a_stopped_match_keeps_what_it_finished() {
    let dir = fresh_dir("rerun");
    let first = write(&dir, &spec(0, 2), 64).unwrap();
    assert_eq!((first.written, first.present), (2, 0));
    // The whole match again: games 0 and 1 are there, only 2..5 are played.
    let again = write(&dir, &spec(0, 5), 64).unwrap();
    assert_eq!((again.written, again.present), (3, 2));
    let played: Vec<u64> = again.report.games.iter().map(|r| r.game).collect();
    assert_eq!(played, [2, 3, 4]);
    let done = write(&dir, &spec(0, 5), 64).unwrap();
    assert_eq!((done.written, done.present), (0, 5));
    let mut ids: Vec<String> = read_table(&dir, "games", false)
        .unwrap()
        .batches
        .iter()
        .flat_map(|b| strings(b, "game_id"))
        .collect();
    ids.sort();
    let mut expected: Vec<String> = (0..5).map(|g| match_game_id(&spec(0, 5), g)).collect();
    expected.sort();
    assert_eq!(ids, expected);
    // Another pair of players is another match: other ids.
    let mut other = spec(0, 1);
    other.bots = vec![Bot::Random, Bot::Greedy];
    assert_ne!(match_hash(&other), match_hash(&spec(0, 1)));
    // Stopped once two games are over (one thread): both are written whole, and the
    // same match again plays only the others.
    let dir2 = fresh_dir("stopped");
    let mut one_thread = spec(0, 5);
    one_thread.threads = 1;
    let finished = AtomicU32::new(0);
    let progress = |n: u32, _: &_| finished.store(n, Ordering::Relaxed);
    let mut writer = DatasetWriter::open(&dir2).unwrap();
    let stopped = write_match(&one_thread, &mut writer, &progress, &mut || {
        finished.load(Ordering::Relaxed) < 2
    });
    match stopped {
        Err(MatchWriteError::Stopped { written, of }) => assert_eq!((written, of), (2, 5)),
        other => panic!("expected a stopped match, got {other:?}"),
    }
    assert_eq!(read_table(&dir2, "games", false).unwrap().rows(), 2);
    let rest = write(&dir2, &one_thread, 64).unwrap();
    assert_eq!((rest.written, rest.present), (3, 2));
    assert_eq!(rows_by_id(&dir2), rows_by_id(&dir));
    // Bad ranges are named.
    let mut bad = spec(MatchSpec::MAX_FIRST_GAME + 1, 1);
    assert!(run_match(&bad, &|_, _| {})
        .unwrap_err()
        .contains("first_game"));
    bad.first_game = 0;
    bad.games = 0;
    assert!(matches!(write(&dir2, &bad, 1), Err(MatchWriteError::Spec(m)) if m.contains("games")));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&dir2).unwrap();
}

#[test]
fn the_summaries_of_ranges_put_together_are_the_whole_matchs() {
    // B17: a win shared by k seats counts 1/k; the summaries are sums game by game, so
    // the games of ranges put together give the whole match's figures and table.
    let whole = run_match(&spec(0, 6), &|_, _| {}).unwrap();
    let mut games = run_match(&spec(0, 2), &|_, _| {}).unwrap().games;
    games.extend(run_match(&spec(2, 4), &|_, _| {}).unwrap().games);
    let bots = &whole.spec.bots;
    // Times differ from run to run: the whole match's own times are used.
    for (g, w) in games.iter_mut().zip(&whole.games) {
        assert_eq!(
            (g.game, g.seed, &g.seating, &g.scores, &g.decisions),
            (w.game, w.seed, &w.seating, &w.scores, &w.decisions)
        );
        g.think.clone_from(&w.think);
    }
    let merged = try_summarize(bots, &games).unwrap();
    assert_eq!(merged, whole.summaries());
    assert_eq!(summary_text(&merged), whole.to_text());
    // Games that do not seat each player once are refused, naming the field.
    let mut bad = games.clone();
    bad[3].seating = vec![0, 0];
    let e = try_summarize(bots, &bad).unwrap_err();
    assert!(
        e.starts_with("seating: game 3 (row 3) seats player 0 twice"),
        "{e}"
    );
    bad[3].seating = vec![0, 2];
    let e = try_summarize(bots, &bad).unwrap_err();
    assert!(
        e.starts_with("seating: game 3 (row 3) seats player 2 at seat 1"),
        "{e}"
    );
    let mut short = games.clone();
    short[1].scores.pop();
    let e = try_summarize(bots, &short).unwrap_err();
    assert!(
        e.starts_with("scores: game 1 (row 1) has 1 seats for 2 players"),
        "{e}"
    );
}
