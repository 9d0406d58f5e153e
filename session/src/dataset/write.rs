//! Writing a dataset: parts written whole, a rerun that goes on where the last stopped.

use super::entry::{table_batch, GameEntry};
use super::limits::{check_entry, entry_bytes, ROW_GROUP_TARGET_BYTES};
use super::read::{list_parts, read_table_column_strings};
use super::{part_name, part_number, DatasetError, TABLES};
use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Writes games into a dataset directory, a part at a time.
///
/// [`DatasetWriter::open`] creates the directory (and its table folders) or opens an
/// existing dataset: it removes leftover temporary files and parts left without their
/// `games` file by an interrupted write, and reads the game ids already written.
/// [`DatasetWriter::add`] keeps a game unless its id is already in the dataset (or in
/// the part being collected); [`DatasetWriter::flush`] writes the games collected as
/// one part, each of its files under a temporary name, renamed once whole, the `games`
/// file last.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::dataset::{read_table, DatasetWriter, GameEntry};
/// let dir = std::env::temp_dir().join(format!("dataset-doc-{}", std::process::id()));
/// let mut game = Game::new(GameConfig::new(2)).unwrap();
/// while !game.is_terminal() {
///     let a = game.legal_actions()[0];
///     game.apply(a).unwrap();
/// }
/// let mut writer = DatasetWriter::open(&dir).unwrap();
/// let entry = GameEntry::from_game(game, "g0", vec![], None, vec![]).unwrap();
/// assert!(writer.add(entry.clone()).unwrap());
/// assert!(!writer.add(entry).unwrap()); // the same id again is not kept
/// writer.flush().unwrap();
/// let read = read_table(&dir, "games", false).unwrap();
/// assert_eq!(read.rows(), 1);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct DatasetWriter {
    dir: PathBuf,
    present: HashSet<String>,
    pending: Vec<GameEntry>,
    next_part: u32,
    /// Games per part: [`DatasetWriter::add`] writes a part once this many are
    /// collected (default [`DatasetWriter::DEFAULT_GAMES_PER_PART`]).
    pub games_per_part: usize,
    /// The size a row group is cut at: a new row group starts once its games' records
    /// and decisions reach it ([`entry_bytes`]; default [`ROW_GROUP_TARGET_BYTES`],
    /// 64 MiB, well under the readers' [`super::MAX_ROW_GROUP_BYTES`]).
    pub row_group_bytes: usize,
    parts_written: u32,
    games_written: u64,
}

/// The temporary name a part file is written under before its rename.
pub fn temporary_name(name: &str) -> String {
    format!(".{name}.tmp")
}

impl DatasetWriter {
    /// The default number of games in a part.
    pub const DEFAULT_GAMES_PER_PART: usize = 256;

    /// Opens (or creates) the dataset directory `dir` for writing.
    pub fn open(dir: &Path) -> Result<DatasetWriter, DatasetError> {
        for table in TABLES {
            let d = dir.join(table);
            fs::create_dir_all(&d)
                .map_err(|e| DatasetError::new(&d, format!("cannot create: {e}")))?;
        }
        // Leftovers of an interrupted write: temporary files, and parts whose `games`
        // file was never renamed into place.
        let committed: HashSet<u32> = list_parts(dir, "games")?.iter().map(|(n, _)| *n).collect();
        for table in TABLES {
            let d = dir.join(table);
            let listing =
                fs::read_dir(&d).map_err(|e| DatasetError::new(&d, format!("cannot list: {e}")))?;
            for item in listing {
                let item = item.map_err(|e| DatasetError::new(&d, format!("cannot list: {e}")))?;
                let name = item.file_name().to_string_lossy().into_owned();
                let leftover = (name.starts_with(".part-") && name.ends_with(".tmp"))
                    || part_number(&name).is_some_and(|n| !committed.contains(&n));
                if leftover {
                    let p = item.path();
                    fs::remove_file(&p)
                        .map_err(|e| DatasetError::new(&p, format!("cannot remove: {e}")))?;
                }
            }
        }
        let present: HashSet<String> = read_table_column_strings(dir, "games", "game_id")?
            .into_iter()
            .collect();
        let next_part = committed.iter().max().map_or(0, |n| n + 1);
        Ok(DatasetWriter {
            dir: dir.to_path_buf(),
            present,
            pending: Vec::new(),
            next_part,
            games_per_part: Self::DEFAULT_GAMES_PER_PART,
            row_group_bytes: ROW_GROUP_TARGET_BYTES,
            parts_written: 0,
            games_written: 0,
        })
    }

    /// Whether the dataset (or the part being collected) has a game `id`.
    pub fn contains(&self, id: &str) -> bool {
        self.present.contains(id)
    }

    /// The number of games in the dataset, those being collected included.
    pub fn games(&self) -> usize {
        self.present.len()
    }

    /// Parts and games this writer wrote.
    pub fn written(&self) -> (u32, u64) {
        (self.parts_written, self.games_written)
    }

    /// Collects `entry` unless a game with its id is already there (then `false`);
    /// writes a part once [`DatasetWriter::games_per_part`] games are collected. A game
    /// beyond the dataset's limits ([`check_entry`]) is an error naming it.
    pub fn add(&mut self, entry: GameEntry) -> Result<bool, DatasetError> {
        check_entry(&entry).map_err(|m| {
            let shown: String = entry.id.chars().take(64).collect();
            DatasetError::new(&self.dir, format!("game {shown:?}: {m}"))
        })?;
        if !self.present.insert(entry.id.clone()) {
            return Ok(false);
        }
        self.pending.push(entry);
        if self.pending.len() >= self.games_per_part.max(1) {
            self.flush()?;
        }
        Ok(true)
    }

    /// Writes the games collected as one part (nothing when there are none).
    pub fn flush(&mut self) -> Result<(), DatasetError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let name = part_name(self.next_part);
        // Row groups of games whose records and decisions reach the target size.
        let mut groups = Vec::new();
        let (mut start, mut bytes) = (0, 0);
        for (i, e) in self.pending.iter().enumerate() {
            bytes += entry_bytes(e);
            if bytes >= self.row_group_bytes || i + 1 == self.pending.len() {
                groups.push(&self.pending[start..=i]);
                (start, bytes) = (i + 1, 0);
            }
        }
        for table in TABLES {
            let batches: Vec<RecordBatch> = groups.iter().map(|g| table_batch(table, g)).collect();
            write_whole(&self.dir.join(table), &name, &batches)?;
        }
        self.next_part += 1;
        self.parts_written += 1;
        self.games_written += self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }
}

/// Writes `batches` as `dir/name`, a row group each (a batch of more than 64 Ki rows in
/// several): to a temporary file first, synced, then renamed.
fn write_whole(dir: &Path, name: &str, batches: &[RecordBatch]) -> Result<(), DatasetError> {
    let Some(batch) = batches.first() else {
        return Ok(());
    };
    let tmp = dir.join(temporary_name(name));
    let fail = |p: &Path, what: &str, e: &dyn std::fmt::Display| {
        let _ = fs::remove_file(&tmp);
        DatasetError::new(p, format!("{what}: {e}"))
    };
    let file = fs::File::create(&tmp).map_err(|e| fail(&tmp, "cannot create", &e))?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_size(64 * 1024)
        .set_key_value_metadata(Some(
            batch
                .schema()
                .metadata()
                .iter()
                .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                .collect(),
        ))
        .build();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props))
        .map_err(|e| fail(&tmp, "cannot write", &e))?;
    for batch in batches {
        writer
            .write(batch)
            .map_err(|e| fail(&tmp, "cannot write", &e))?;
        writer.flush().map_err(|e| fail(&tmp, "cannot write", &e))?;
    }
    let file = writer
        .into_inner()
        .map_err(|e| fail(&tmp, "cannot write", &e))?;
    file.sync_all()
        .map_err(|e| fail(&tmp, "cannot write", &e))?;
    let path = dir.join(name);
    fs::rename(&tmp, &path).map_err(|e| fail(&path, "cannot rename into place", &e))
}
