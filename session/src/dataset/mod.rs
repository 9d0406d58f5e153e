//! Games and self-play on disk as a dataset: a directory of Apache Parquet files with an
//! Arrow schema, read by pyarrow, polars, pandas and DuckDB without this crate.
//!
//! A dataset directory holds one folder per table (`games`, `turns`, `events`,
//! `decisions`, `records`), each with files `part-NNNNN.parquet`. A part is the same
//! games in every table: a writer collects games and writes them as one part
//! ([`DatasetWriter`]). Every file carries [`SCHEMA_VERSION`] under [`VERSION_KEY`] in
//! its Parquet key-value metadata, and its table's name under [`TABLE_KEY`]; a reader
//! refuses a file of another version. `docs/dataset.md` lists every column.
//!
//! Guarantees:
//!
//! * a file is written whole under a hidden temporary name (`.part-NNNNN.parquet.tmp`)
//!   and then renamed, so no reader ever sees half a file;
//! * a part's `games` file is renamed last: a part without it is the leftover of an
//!   interrupted write, and the next writer on the directory removes it, with every
//!   leftover temporary file;
//! * a writer opened on an existing dataset reads the game ids already there and never
//!   writes a game id twice ([`DatasetWriter::add`] says whether it kept the game);
//! * a reader names the file, and the row group where it applies, of every error, and
//!   with `skip_bad` goes on past a bad file or row group and reports what it skipped
//!   ([`read_table`]).
//!
//! Decisions are stored as the search saw them, not as observations: the flat ids of
//! the `decisions` table are the full layout's ids for the window of the game's
//! `window` column ([`crate::encode`]), so that a loader can replay the record and
//! encode any preset at load time.

mod batch;
mod entry;
mod limits;
mod load;
mod read;
mod schema;
mod selfplay;
mod write;

/// The Arrow arrays the tables are read as ([`read_table`]).
pub use arrow_array;
pub use batch::*;
pub use entry::*;
pub use limits::*;
pub use load::*;
pub use read::*;
pub use schema::*;
pub use selfplay::*;
pub use write::*;

use std::fmt;
use std::path::{Path, PathBuf};

/// The version of the dataset's schema written in every file's metadata.
pub const SCHEMA_VERSION: u32 = 1;
/// The Parquet key-value metadata key of the schema version.
pub const VERSION_KEY: &str = "carcassonne.dataset.version";
/// The Parquet key-value metadata key of the table's name.
pub const TABLE_KEY: &str = "carcassonne.dataset.table";
/// The tables of a dataset, each a folder of the dataset directory; `games` is written
/// last in each part.
pub const TABLES: [&str; 5] = ["decisions", "turns", "events", "records", "games"];

/// What went wrong with a dataset, naming where.
#[derive(Debug)]
pub struct DatasetError {
    /// The file (or directory) concerned.
    pub path: PathBuf,
    /// The row group, when the error is inside one.
    pub row_group: Option<usize>,
    /// What was wrong.
    pub message: String,
}

impl DatasetError {
    pub(crate) fn new(path: &Path, message: impl Into<String>) -> DatasetError {
        DatasetError {
            path: path.to_path_buf(),
            row_group: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(g) = self.row_group {
            write!(f, " row group {g}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DatasetError {}

/// The file name of part `n`.
pub fn part_name(n: u32) -> String {
    format!("part-{n:05}.parquet")
}

/// The part number of a file name `part-NNNNN.parquet`.
pub fn part_number(name: &str) -> Option<u32> {
    name.strip_prefix("part-")?
        .strip_suffix(".parquet")?
        .parse()
        .ok()
}
