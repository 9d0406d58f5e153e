//! The dataset's limits against hostile files: a record longer than 4 MiB, a games row
//! whose players, seats, scores, ranks or sets are out of range, a decision with more
//! targets than legal ids, a row group larger than a reader decodes: each an error
//! naming the file, the row group and the game, never a panic. Writers keep within the
//! limits: a game beyond them is refused with its id named, and row groups are cut by
//! size.

use arrow_array::builder::{ListBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt8Array};
use carcassonne::{Game, GameConfig};
use carcassonne_session::dataset::{
    check_row_group, read_part, read_table, table_schema, DatasetWriter, GameEntry, ReadTable,
    MAX_GAME_ID_BYTES, MAX_ROW_GROUP_ROWS,
};
use carcassonne_session::record::{self, MAX_RECORD_BYTES};
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "carcassonne-dataset-limits-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A finished game of `players` players (first legal action every time).
fn finished(players: u8) -> Game {
    let mut game = Game::new(GameConfig::new(players)).unwrap();
    while !game.is_terminal() {
        let a = game.legal_actions()[0];
        game.apply(a).unwrap();
    }
    game
}

/// Writes `batch` into `path` as one file (row groups of up to `rows` rows).
fn write_file(path: &Path, batch: &RecordBatch, rows: usize) {
    let props = WriterProperties::builder()
        .set_max_row_group_size(rows)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut w = ArrowWriter::try_new(file, batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// Reads `path` as table `table` with the dataset's reader, which checks every row group
/// and batch against the limits; with `skip_bad` the refused row group must be reported
/// as skipped with the same message.
fn read_and_check(path: &Path, table: &str) -> Result<(), String> {
    let mut out = ReadTable::default();
    let e = read_part(path, table, false, &mut out).map_err(|e| e.to_string());
    if let Err(message) = &e {
        let mut skipping = ReadTable::default();
        read_part(path, table, true, &mut skipping).unwrap();
        assert_eq!(skipping.skipped.len(), 1, "skip_bad reports the row group");
        assert_eq!(&skipping.skipped[0].to_string(), message);
    }
    e
}

/// Writes each batch of `cases` to `path` and expects the error of its row 0 (naming
/// `game`) to contain the text beside it.
fn refused(path: &Path, table: &str, game: &str, cases: Vec<(RecordBatch, &str)>) {
    for (batch, expected) in cases {
        write_file(path, &batch, 1024);
        let e = read_and_check(path, table).unwrap_err();
        let at = format!("hostile.parquet row group 0: row 0, {game}");
        assert!(e.contains(&at), "{at:?} in {e}");
        assert!(e.contains(expected), "{expected:?} in {e}");
    }
}

/// The games batch of a dataset with one honest game, `g0`.
fn games_batch(dir: &Path) -> RecordBatch {
    let mut writer = DatasetWriter::open(dir).unwrap();
    let entry = GameEntry::from_game(
        finished(2),
        "g0",
        vec!["a".into(), "b".into()],
        None,
        vec![],
    )
    .unwrap();
    writer.add(entry).unwrap();
    writer.flush().unwrap();
    let read = read_table(dir, "games", false).unwrap();
    let schema = table_schema("games").unwrap();
    RecordBatch::try_new(schema, read.batches[0].columns().to_vec()).unwrap()
}

/// `batch` with column `name` replaced by `column`.
fn with_column(batch: &RecordBatch, name: &str, column: ArrayRef) -> RecordBatch {
    let i = batch.schema().index_of(name).unwrap();
    let mut columns = batch.columns().to_vec();
    columns[i] = column;
    RecordBatch::try_new(batch.schema(), columns).unwrap()
}

fn string_lists(lists: &[&[&str]]) -> ArrayRef {
    let mut b = ListBuilder::new(StringBuilder::new()).with_field(Arc::new(
        arrow_schema::Field::new("item", arrow_schema::DataType::Utf8, false),
    ));
    for l in lists {
        for s in *l {
            b.values().append_value(s);
        }
        b.append(true);
    }
    Arc::new(b.finish())
}

#[test]
fn a_record_longer_than_4_mib_is_named_with_its_file_and_game() {
    let dir = fresh_dir("record");
    let long = "x".repeat(MAX_RECORD_BYTES + 1);
    let batch = RecordBatch::try_new(
        table_schema("records").unwrap(),
        vec![
            Arc::new(StringArray::from(vec!["fine", "huge"])),
            Arc::new(StringArray::from(vec!["{}", long.as_str()])),
        ],
    )
    .unwrap();
    let path = dir.join("part-00000.parquet");
    write_file(&path, &batch, 1024);
    let e = read_and_check(&path, "records").unwrap_err();
    assert!(e.contains("part-00000.parquet row group 0"), "{e}");
    assert!(e.contains("game \"huge\""), "{e}");
    assert!(
        e.contains(&format!(
            "{} bytes, longer than {MAX_RECORD_BYTES}",
            MAX_RECORD_BYTES + 1
        )),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_rows_out_of_range_are_named_with_their_game() {
    let dir = fresh_dir("games");
    let honest = games_batch(&dir);
    let path = dir.join("hostile.parquet");
    let long_set = "s".repeat(65);
    let cases: Vec<(RecordBatch, &str)> = vec![
        (
            with_column(&honest, "players", Arc::new(UInt8Array::from(vec![9]))),
            "players: 9; expected 1 to 6",
        ),
        (
            with_column(&honest, "players", Arc::new(UInt8Array::from(vec![0]))),
            "players: 0; expected 1 to 6",
        ),
        (
            with_column(&honest, "players", Arc::new(UInt8Array::from(vec![3]))),
            "seats: 2 names for 3 seats",
        ),
        (
            with_column(&honest, "seats", string_lists(&[&["a", "b", "c"]])),
            "seats: 3 names for 2 seats",
        ),
        (
            with_column(&honest, "sets", string_lists(&[&[long_set.as_str()]])),
            "sets[0]: 65 bytes; at most 64",
        ),
        (
            with_column(&honest, "sets", string_lists(&[&["base"; 65]])),
            "sets: 65 sets; at most 64",
        ),
        (
            with_column(
                &honest,
                "game_id",
                Arc::new(StringArray::from(vec!["g".repeat(MAX_GAME_ID_BYTES + 1)])),
            ),
            "game id: 257 bytes; expected 1 to 256",
        ),
        (
            with_column(
                &honest,
                "game_id",
                Arc::new(StringArray::from(vec!["a\u{7}b"])),
            ),
            "game id: the control character",
        ),
    ];
    refused(&path, "games", "game", cases);
    // Ranks out of 1..=players and a score per seat missing.
    let ranks = {
        let mut b =
            ListBuilder::new(arrow_array::builder::UInt8Builder::new()).with_field(Arc::new(
                arrow_schema::Field::new("item", arrow_schema::DataType::UInt8, false),
            ));
        b.values().append_value(0);
        b.values().append_value(1);
        b.append(true);
        Arc::new(b.finish()) as ArrayRef
    };
    write_file(&path, &with_column(&honest, "ranks", ranks), 1024);
    let e = read_and_check(&path, "games").unwrap_err();
    assert!(e.contains("game \"g0\": ranks: 0; expected 1 to 2"), "{e}");
    let scores = {
        let mut b =
            ListBuilder::new(arrow_array::builder::Int32Builder::new()).with_field(Arc::new(
                arrow_schema::Field::new("item", arrow_schema::DataType::Int32, false),
            ));
        b.values().append_value(10);
        b.append(true);
        Arc::new(b.finish()) as ArrayRef
    };
    write_file(&path, &with_column(&honest, "final_scores", scores), 1024);
    let e = read_and_check(&path, "games").unwrap_err();
    assert!(e.contains("final_scores: 1 values for 2 seats"), "{e}");
    // The honest row passes.
    write_file(&path, &honest, 1024);
    read_and_check(&path, "games").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_row_group_with_too_many_rows_is_refused_before_it_is_decoded() {
    let dir = fresh_dir("rows");
    let n = MAX_ROW_GROUP_ROWS as usize + 1;
    let ids: StringArray = std::iter::repeat_n(Some("g"), n).collect();
    let recs: StringArray = std::iter::repeat_n(Some("{}"), n).collect();
    let batch = RecordBatch::try_new(
        table_schema("records").unwrap(),
        vec![Arc::new(ids), Arc::new(recs)],
    )
    .unwrap();
    let path = dir.join("part-00000.parquet");
    write_file(&path, &batch, n);
    let file = std::fs::File::open(&path).unwrap();
    let meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
    let e = check_row_group(&path, meta.metadata(), 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("part-00000.parquet row group 0"), "{e}");
    assert!(
        e.contains(&format!(
            "{n} rows; a row group holds at most {MAX_ROW_GROUP_ROWS}"
        )),
        "{e}"
    );
    let e = check_row_group(&path, meta.metadata(), 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no such row group (the file has 1)"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn writers_refuse_games_beyond_the_limits_and_cut_row_groups_by_size() {
    let dir = fresh_dir("writer");
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let entry = |id: &str, seats: Vec<String>| {
        GameEntry::from_game(finished(2), id, seats, None, vec![]).unwrap()
    };
    let e = writer
        .add(entry("g1", vec!["a".into(); 3]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("game \"g1\": seats: 3 names for 2 seats"), "{e}");
    let e = writer
        .add(entry("g2", vec!["a".into(), "n".repeat(257)]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("seats[1]: 257 bytes; expected 1 to 256"), "{e}");
    let long_id = "i".repeat(MAX_GAME_ID_BYTES + 1);
    let e = writer.add(entry(&long_id, vec![])).unwrap_err().to_string();
    assert!(e.contains("game id: 257 bytes"), "{e}");
    // A converted record with an id beyond the limit is refused, naming the field.
    let mut rec = record::to_value(&finished(2), "r");
    rec["id"] = serde_json::json!(long_id);
    let e = GameEntry::from_record(&rec, vec![])
        .unwrap_err()
        .to_string();
    assert!(e.contains("id") && e.contains("257 bytes"), "{e}");
    // Row groups cut by size: at one byte, each game is a row group of its own, in
    // every table.
    writer.row_group_bytes = 1;
    for id in ["a", "b", "c"] {
        writer.add(entry(id, vec![])).unwrap();
    }
    writer.flush().unwrap();
    for table in ["games", "records", "turns"] {
        let path = dir.join(table).join("part-00000.parquet");
        let file = std::fs::File::open(&path).unwrap();
        let meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).unwrap();
        assert_eq!(meta.metadata().num_row_groups(), 3, "{table}");
        for g in 0..3 {
            check_row_group(&path, meta.metadata(), g).unwrap();
        }
    }
    assert_eq!(read_table(&dir, "games", false).unwrap().rows(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn decisions_out_of_range_are_named_with_their_game() {
    use carcassonne_session::dataset::DecisionRow;
    let dir = fresh_dir("decisions");
    let decision = DecisionRow {
        player: 0,
        action: 0,
        legal: 3,
        chosen: Some(1),
        targets: vec![(0, 0.5), (1, 0.5)],
        values: vec![0.5, 0.5],
        outcome: 1.0,
        margin: 4,
    };
    let mut writer = DatasetWriter::open(&dir).unwrap();
    let entry = GameEntry::from_game(finished(2), "d0", vec![], Some(16), vec![decision.clone()]);
    writer.add(entry.unwrap()).unwrap();
    // The writer refuses a decision of a seat the game lacks, or with more targets than
    // legal ids.
    let bad = DecisionRow {
        player: 2,
        ..decision.clone()
    };
    let e = writer
        .add(GameEntry::from_game(finished(2), "d1", vec![], Some(16), vec![bad]).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("game \"d1\": decisions[0].player: 2 of 2 seats"),
        "{e}"
    );
    writer.flush().unwrap();
    let read = read_table(&dir, "decisions", false).unwrap();
    let schema = table_schema("decisions").unwrap();
    let honest = RecordBatch::try_new(schema, read.batches[0].columns().to_vec()).unwrap();
    let path = dir.join("hostile.parquet");
    let cases: Vec<(RecordBatch, &str)> = vec![
        (
            with_column(
                &honest,
                "legal",
                Arc::new(arrow_array::UInt32Array::from(vec![1])),
            ),
            "targets: 2 targets over 1 legal ids",
        ),
        (
            with_column(&honest, "player", Arc::new(UInt8Array::from(vec![6]))),
            "player: 6; seats are 0 to 5",
        ),
        (
            with_column(
                &honest,
                "legal",
                Arc::new(arrow_array::UInt32Array::from(vec![u32::MAX])),
            ),
            "legal: 4294967295; at most 16777216",
        ),
    ];
    refused(&path, "decisions", "game \"d0\"", cases);
    write_file(&path, &honest, 1024);
    read_and_check(&path, "decisions").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
