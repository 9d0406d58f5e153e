//! The dataset (Parquet tables of games and self-play): what is written reads back with
//! the Arrow/Parquet reader, every record replays to the final scores of its game row
//! (B17: ranks by the most points, ties share), every decision's targets sum to 1 over
//! ids legal in the replayed game and its number of legal ids is the replayed game's;
//! part files are whole, a rerun never writes a game id twice, a corrupt file is named
//! and can be skipped, and another schema version is refused.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use carcassonne::{Game, GameConfig};
use carcassonne_session::dataset::{
    read_table, selfplay_hash, selfplay_id, table_schema, temporary_name, write_selfplay,
    DatasetWriter, GameEntry, SelfPlayWritten, SCHEMA_VERSION, TABLES, TABLE_KEY, VERSION_KEY,
};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::mcts::{Budget, MctsConfig};
use carcassonne_session::record;
use carcassonne_session::selfplay::{Searcher, SelfPlay};
use carcassonne_session::session::Session;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const WINDOW: u16 = 16;

/// A fresh directory under the target's temporary folder.
fn fresh_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("carcassonne-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(config: &GameConfig) -> SelfPlay<'static> {
    let layout = Arc::new(Layout::new(
        EncoderSpec::new(WINDOW).unwrap(),
        Preset::Compact,
        config,
    ));
    let mut run = SelfPlay::new(
        config.clone(),
        layout,
        Searcher::Playouts(MctsConfig::new(Budget::Iterations(6))),
    );
    run.seed = 11;
    run.threads = 2;
    run
}

/// Writes self-play games `0..games` of seed 11 into `dir`, `per_part` games a part.
fn write_games(dir: &Path, games: u64, per_part: usize) -> SelfPlayWritten {
    let config = GameConfig::new(2);
    let mut writer = DatasetWriter::open(dir).unwrap();
    writer.games_per_part = per_part;
    let seats = vec!["mcts:6".to_string(); 2];
    write_selfplay(&mut writer, &mut run(&config), games, &seats, &mut || true).unwrap()
}

/// The hash in the ids of [`write_games`]' games.
fn games_hash() -> String {
    selfplay_hash(
        &run(&GameConfig::new(2)),
        &["mcts:6".to_string(), "mcts:6".to_string()],
    )
}

fn strings(b: &RecordBatch, name: &str) -> Vec<String> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..c.len()).map(|i| c.value(i).to_string()).collect()
}

fn table(dir: &Path, name: &str) -> Vec<RecordBatch> {
    let read = read_table(dir, name, false).unwrap();
    assert!(read.skipped.is_empty());
    read.batches
}

fn game_ids(dir: &Path) -> Vec<String> {
    table(dir, "games")
        .iter()
        .flat_map(|b| strings(b, "game_id"))
        .collect()
}

#[test]
fn selfplay_games_read_back_and_replay() {
    let dir = fresh_dir("round-trip");
    let written = write_games(&dir, 3, 2);
    assert_eq!(written.written, 3);
    assert!(written.decisions > 100);
    // Two parts (2 games, then 1) in every table.
    for t in TABLES {
        let mut names: Vec<_> = std::fs::read_dir(dir.join(t))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["part-00000.parquet", "part-00001.parquet"], "{t}");
    }
    // Each game row: its final scores and ranks are those of its record replayed.
    let mut finals: HashMap<String, (Vec<i32>, u32, u32)> = HashMap::new();
    for b in table(&dir, "games") {
        let ids = strings(&b, "game_id");
        let scores = b.column_by_name("final_scores").unwrap().as_list::<i32>();
        let ranks = b.column_by_name("ranks").unwrap().as_list::<i32>();
        let seeds = b
            .column_by_name("seed")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let turns = b
            .column_by_name("turns")
            .unwrap()
            .as_primitive::<UInt32Type>();
        let decisions = b
            .column_by_name("decisions")
            .unwrap()
            .as_primitive::<UInt32Type>();
        for (i, id) in ids.iter().enumerate() {
            let s: Vec<i32> = scores
                .value(i)
                .as_primitive::<Int32Type>()
                .values()
                .to_vec();
            let r: Vec<u8> = ranks.value(i).as_primitive::<UInt8Type>().values().to_vec();
            // B17: the most points ranks first; a tie shares the rank.
            for p in 0..s.len() {
                let better = s.iter().filter(|t| **t > s[p]).count() as u8;
                assert_eq!(r[p], better + 1, "{id} seat {p}");
            }
            assert!(seeds.value(i) != 0);
            finals.insert(id.clone(), (s, turns.value(i), decisions.value(i)));
        }
    }
    assert_eq!(finals.len(), 3);
    let mut records: HashMap<String, String> = HashMap::new();
    for b in table(&dir, "records") {
        for (id, text) in strings(&b, "game_id")
            .into_iter()
            .zip(strings(&b, "record"))
        {
            let game = record::replay_json(&text).unwrap();
            assert!(game.is_terminal(), "{id}");
            assert_eq!(game.scores(), &finals[&id].0[..], "{id}");
            assert_eq!(game.turns().len() as u32, finals[&id].1, "{id}");
            records.insert(id, text);
        }
    }
    assert_eq!(records.len(), 3);
    // Every decision, checked against the game replayed from its record's setup.
    let mut by_game: HashMap<String, Vec<Decision>> = HashMap::new();
    for b in table(&dir, "decisions") {
        let ids = strings(&b, "game_id");
        let action = b
            .column_by_name("action")
            .unwrap()
            .as_primitive::<UInt32Type>();
        let player = b
            .column_by_name("player")
            .unwrap()
            .as_primitive::<UInt8Type>();
        let legal = b
            .column_by_name("legal")
            .unwrap()
            .as_primitive::<UInt32Type>();
        let chosen = b
            .column_by_name("chosen")
            .unwrap()
            .as_primitive::<UInt32Type>();
        let targets = b.column_by_name("targets").unwrap().as_list::<i32>();
        let values = b.column_by_name("values").unwrap().as_list::<i32>();
        for (i, id) in ids.into_iter().enumerate() {
            let t = targets.value(i);
            let t = t.as_struct();
            let tid = t.column(0).as_primitive::<UInt32Type>().values().to_vec();
            let share = t.column(1).as_primitive::<Float32Type>().values().to_vec();
            by_game.entry(id).or_default().push(Decision {
                action: action.value(i),
                player: player.value(i),
                legal: legal.value(i),
                chosen: chosen.is_valid(i).then(|| chosen.value(i)),
                targets: tid.into_iter().zip(share).collect(),
                values: values
                    .value(i)
                    .as_primitive::<Float32Type>()
                    .values()
                    .to_vec(),
            });
        }
    }
    for (id, text) in &records {
        let decisions = &by_game[id];
        assert_eq!(decisions.len() as u32, finals[id].2, "{id}");
        check_decisions(id, text, decisions);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

struct Decision {
    action: u32,
    player: u8,
    legal: u32,
    chosen: Option<u32>,
    targets: Vec<(u32, f32)>,
    values: Vec<f32>,
}

/// Replays the game of `text` from its setup (the self-play deal of its seed) and
/// checks each decision at its step: the deciding seat, the number of legal ids, the
/// targets summing to 1 over legal ids, the id taken.
fn check_decisions(id: &str, text: &str, decisions: &[Decision]) {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let config = record::config_from_setup(&value["setup"]).unwrap();
    let played = record::replay_json(text).unwrap();
    let mut history = played.history_actions().iter();
    let layout = Layout::full(EncoderSpec::new(WINDOW).unwrap());
    let mut session = Session::with_layout(Game::new(config).unwrap(), layout.clone());
    let mut mask = vec![0i8; layout.num_actions()];
    let mut next = decisions.iter().peekable();
    let mut index = 0u32;
    while !session.game().is_terminal() {
        if session.game().phase().is_chance() {
            let a = session.game().legal()[0];
            session.apply(a).unwrap();
            continue;
        }
        let action = history.next().unwrap().action;
        let path = session.flat_path(action);
        let mut step = 0;
        while next.peek().is_some_and(|d| d.action == index) {
            let d = next.next().unwrap();
            if step == 1 {
                session.step(path.unwrap().first).unwrap();
            }
            let info = session.legal_mask(&mut mask).unwrap();
            let ids: HashSet<u32> = (0..mask.len() as u32)
                .filter(|i| mask[*i as usize] != 0)
                .collect();
            assert_eq!(
                d.player as usize,
                session.game().to_play(),
                "{id} action {index}"
            );
            assert_eq!(d.legal as usize, ids.len(), "{id} action {index}");
            assert_eq!(info.offered as usize, ids.len(), "{id} action {index}");
            let total: f32 = d.targets.iter().map(|(_, s)| s).sum();
            assert!((total - 1.0).abs() < 1e-4, "{id} action {index}: {total}");
            for (t, s) in &d.targets {
                assert!(ids.contains(t), "{id} action {index}: target {t} not legal");
                assert!(*s > 0.0);
            }
            let expected = path.map(|p| {
                if step == 0 {
                    p.first
                } else {
                    p.second.unwrap()
                }
            });
            assert_eq!(d.chosen, expected, "{id} action {index}");
            assert_eq!(d.values.len(), 2);
            assert!(d.values.iter().all(|v| (0.0..=1.0).contains(v)));
            step += 1;
        }
        match (step, path) {
            (1, Some(p)) if p.second.is_some() => {
                session.step(p.first).unwrap();
                session.step(p.second.unwrap()).unwrap();
            }
            (2, Some(p)) => {
                session.step(p.second.unwrap()).unwrap();
            }
            _ => session.apply(action).unwrap(),
        }
        index += 1;
    }
    assert!(next.next().is_none(), "{id}: decisions after the end");
    assert_eq!(session.game().scores(), played.scores());
}

#[test]
fn a_rerun_goes_on_without_writing_a_game_id_twice() {
    let dir = fresh_dir("rerun");
    // A first run stopped after two games; leftovers of an interrupted part: a
    // temporary file and a part written in some tables but without its games file.
    assert_eq!(write_games(&dir, 2, 2).written, 2);
    let tmp = dir
        .join("decisions")
        .join(temporary_name("part-00001.parquet"));
    std::fs::write(&tmp, b"half a file").unwrap();
    let orphan = dir.join("turns").join("part-00001.parquet");
    std::fs::copy(dir.join("turns").join("part-00000.parquet"), &orphan).unwrap();
    // The rerun of four games plays the two missing ones only.
    let again = write_games(&dir, 4, 2);
    assert_eq!((again.written, again.present), (2, 2));
    assert!(!tmp.exists());
    let ids = game_ids(&dir);
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(unique.len(), 4);
    for g in 0..4 {
        assert!(unique.contains(&selfplay_id(11, g, &games_hash())));
    }
    // Every table holds each game's rows once: the orphan was removed, not read.
    let turn_games: HashSet<String> = table(&dir, "turns")
        .iter()
        .flat_map(|b| strings(b, "game_id"))
        .collect();
    assert_eq!(turn_games.len(), 4);
    let turn_rows: usize = table(&dir, "turns").iter().map(RecordBatch::num_rows).sum();
    let turns: u32 = table(&dir, "games")
        .iter()
        .map(|b| {
            b.column_by_name("turns")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .values()
                .iter()
                .sum::<u32>()
        })
        .sum();
    assert_eq!(turn_rows, turns as usize);
    // A third run finds everything there.
    let third = write_games(&dir, 4, 2);
    assert_eq!((third.written, third.present), (0, 4));
    assert_eq!(game_ids(&dir).len(), 4);
    // The same game added twice to one writer is kept once.
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let text = table(&dir, "records")[0]
        .column_by_name("record")
        .unwrap()
        .as_string::<i32>()
        .value(0)
        .to_string();
    let entry = GameEntry::from_record(&serde_json::from_str(&text).unwrap(), vec![]).unwrap();
    assert!(!writer.add(entry).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_ids_name_the_settings_so_other_settings_write_their_own_games() {
    let dir = fresh_dir("settings");
    let config = GameConfig::new(2);
    assert_eq!(write_games(&dir, 2, 2).written, 2);
    // Another budget, with the same seed, into the same directory: other games.
    let mut other = run(&config);
    other.searcher = Searcher::Playouts(MctsConfig::new(Budget::Iterations(7)));
    let seats7 = vec!["mcts:7".to_string(); 2];
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let done = write_selfplay(&mut writer, &mut other, 2, &seats7, &mut || true).unwrap();
    assert_eq!((done.written, done.present), (2, 0));
    // A rerun of either writes nothing.
    assert_eq!(write_games(&dir, 2, 2).present, 2);
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let again = write_selfplay(&mut writer, &mut other, 2, &seats7, &mut || true).unwrap();
    assert_eq!((again.written, again.present), (0, 2));
    let ids: HashSet<String> = game_ids(&dir).into_iter().collect();
    let hash7 = selfplay_hash(&other, &seats7);
    let want: HashSet<String> = (0..2)
        .flat_map(|g| {
            [
                selfplay_id(11, g, &games_hash()),
                selfplay_id(11, g, &hash7),
            ]
        })
        .collect();
    assert_eq!(ids, want);
    assert_eq!(game_ids(&dir).len(), 4);
    // The id's shape: selfplay-<seed>-<n>-<8 hex digits>.
    let id = selfplay_id(11, 1, &hash7);
    let hash = id.strip_prefix("selfplay-11-1-").unwrap();
    assert!(
        hash.len() == 8 && hash.chars().all(|c| c.is_ascii_hexdigit()),
        "{id}"
    );
    // What decides the games changes the hash; the threads and the seed do not.
    let seats6 = vec!["mcts:6".to_string(); 2];
    let base = selfplay_hash(&run(&config), &seats6);
    let mut changed = Vec::new();
    let mut r = run(&config);
    r.sample_moves += 1;
    changed.push(selfplay_hash(&r, &seats6));
    let mut r = run(&config);
    let mut mcts = MctsConfig::new(Budget::Iterations(6));
    mcts.exploration_centi += 10;
    r.searcher = Searcher::Playouts(mcts);
    changed.push(selfplay_hash(&r, &seats6));
    let wide = Arc::new(Layout::new(
        EncoderSpec::new(WINDOW + 2).unwrap(),
        Preset::Compact,
        &config,
    ));
    let mut r = run(&config);
    r.layout = wide;
    changed.push(selfplay_hash(&r, &seats6));
    changed.push(selfplay_hash(
        &run(&GameConfig::new(3)),
        &vec!["mcts:6".to_string(); 3],
    ));
    changed.push(selfplay_hash(
        &run(&config),
        &["net:a".to_string(), "net:a".to_string()],
    ));
    let distinct: HashSet<&String> = changed.iter().chain([&base]).collect();
    assert_eq!(distinct.len(), changed.len() + 1, "{changed:?}");
    let mut same = run(&config);
    same.threads = 1;
    same.seed = 99;
    same.config.seed = 5;
    assert_eq!(selfplay_hash(&same, &seats6), base);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_part_is_named_and_can_be_skipped() {
    let dir = fresh_dir("corrupt");
    write_games(&dir, 2, 1);
    let bad = dir.join("decisions").join("part-00001.parquet");
    let bytes = std::fs::read(&bad).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() / 2]).unwrap();
    let e = read_table(&dir, "decisions", false).unwrap_err();
    assert_eq!(e.path, bad);
    assert!(e.to_string().contains("part-00001.parquet"), "{e}");
    let read = read_table(&dir, "decisions", true).unwrap();
    assert_eq!(read.skipped.len(), 1);
    assert_eq!(read.skipped[0].path, bad);
    let ids: HashSet<String> = read
        .batches
        .iter()
        .flat_map(|b| strings(b, "game_id"))
        .collect();
    assert_eq!(ids, HashSet::from([selfplay_id(11, 0, &games_hash())]));
    // A corrupt page inside a row group: the error names the row group.
    let good = dir.join("records").join("part-00001.parquet");
    let mut bytes = std::fs::read(&good).unwrap();
    let half = bytes.len() / 2;
    for b in &mut bytes[4..half] {
        *b = 0xA5;
    }
    std::fs::write(&good, &bytes).unwrap();
    let e = read_table(&dir, "records", false).unwrap_err();
    assert_eq!((e.path.clone(), e.row_group), (good, Some(0)), "{e}");
    assert!(e.to_string().contains("row group 0"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn another_schema_version_is_refused() {
    use arrow_schema::Schema;
    use parquet::arrow::ArrowWriter;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = fresh_dir("version");
    write_games(&dir, 1, 1);
    let path = dir.join("games").join("part-00001.parquet");
    let good = table(&dir, "games").remove(0);
    // The version is in the file's key-value metadata, where every Parquet reader sees it.
    let written = SerializedFileReader::new(
        std::fs::File::open(dir.join("games").join("part-00000.parquet")).unwrap(),
    )
    .unwrap();
    let kv = written
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap();
    let get = |k: &str| kv.iter().find(|e| e.key == k).and_then(|e| e.value.clone());
    assert_eq!(get(VERSION_KEY), Some(SCHEMA_VERSION.to_string()));
    assert_eq!(get(TABLE_KEY).as_deref(), Some("games"));
    let mut meta = table_schema("games").unwrap().metadata().clone();
    meta.insert(VERSION_KEY.into(), (SCHEMA_VERSION + 1).to_string());
    let schema = Arc::new(Schema::new_with_metadata(
        good.schema().fields().clone(),
        meta,
    ));
    let batch = RecordBatch::try_new(schema.clone(), good.columns().to_vec()).unwrap();
    let mut w = ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let e = read_table(&dir, "games", false).unwrap_err();
    assert_eq!(e.path, path);
    assert!(
        e.message
            .contains(&format!("schema version \"{}\"", SCHEMA_VERSION + 1)),
        "{e}"
    );
    // A writer does not go on over a dataset it cannot read.
    assert!(DatasetWriter::open(&dir).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_record_that_is_not_finished_or_has_no_id_is_refused() {
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    let a = game.legal_actions()[0];
    game.apply(a).unwrap();
    let unfinished: serde_json::Value =
        serde_json::from_str(&record::to_json(&game, "u").unwrap()).unwrap();
    let e = GameEntry::from_record(&unfinished, vec![]).unwrap_err();
    assert!(e.to_string().contains("not finished"), "{e}");
    let mut no_id = unfinished.clone();
    no_id.as_object_mut().unwrap().remove("id");
    let e = GameEntry::from_record(&no_id, vec![]).unwrap_err();
    assert!(e.to_string().contains("id"), "{e}");
}
