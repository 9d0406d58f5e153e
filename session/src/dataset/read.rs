//! Reading a dataset's tables back, naming the file and row group of every error.

use super::limits::{check_batch, check_row_group};
use super::schema::table_schema;
use super::{part_number, DatasetError, SCHEMA_VERSION, TABLES, TABLE_KEY, VERSION_KEY};
use arrow_array::{Array, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use std::fs;
use std::path::{Path, PathBuf};

/// The part files of `table` in the dataset `dir`, by part number.
pub fn list_parts(dir: &Path, table: &str) -> Result<Vec<(u32, PathBuf)>, DatasetError> {
    if !TABLES.contains(&table) {
        return Err(DatasetError::new(
            dir,
            format!(
                "no table {table:?} in a dataset (tables: {})",
                TABLES.join(", ")
            ),
        ));
    }
    let d = dir.join(table);
    let listing = fs::read_dir(&d).map_err(|e| {
        DatasetError::new(
            &d,
            format!(
                "cannot list the {table} table ({e}); is {} a dataset?",
                dir.display()
            ),
        )
    })?;
    let mut parts = Vec::new();
    for item in listing {
        let item = item.map_err(|e| DatasetError::new(&d, format!("cannot list: {e}")))?;
        if let Some(n) = part_number(&item.file_name().to_string_lossy()) {
            parts.push((n, item.path()));
        }
    }
    parts.sort();
    Ok(parts)
}

/// A table read back: its batches, and what was skipped with `skip_bad`.
#[derive(Debug, Default)]
pub struct ReadTable {
    /// The batches read, file after file, row group after row group.
    pub batches: Vec<RecordBatch>,
    /// The files and row groups skipped, each with what was wrong.
    pub skipped: Vec<DatasetError>,
}

impl ReadTable {
    /// The number of rows read.
    pub fn rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }
}

/// Opens a part file of `table`: checks its schema version, table and columns.
fn open_part(path: &Path, table: &str) -> Result<(fs::File, ArrowReaderMetadata), DatasetError> {
    let file =
        fs::File::open(path).map_err(|e| DatasetError::new(path, format!("cannot open: {e}")))?;
    let meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new())
        .map_err(|e| DatasetError::new(path, format!("not a readable Parquet file: {e}")))?;
    let kv = meta.metadata().file_metadata().key_value_metadata();
    // The file's key-value metadata, else the Arrow schema's.
    let get = |key: &str| {
        kv.and_then(|kv| kv.iter().find(|e| e.key == key))
            .and_then(|e| e.value.clone())
            .or_else(|| meta.schema().metadata().get(key).cloned())
    };
    match get(VERSION_KEY) {
        None => {
            return Err(DatasetError::new(
                path,
                format!("not a dataset file: no {VERSION_KEY} in its metadata"),
            ))
        }
        Some(v) if v != SCHEMA_VERSION.to_string() => {
            return Err(DatasetError::new(
                path,
                format!("schema version {v:?}; this reader reads version {SCHEMA_VERSION} only"),
            ))
        }
        Some(_) => {}
    }
    if get(TABLE_KEY).as_deref() != Some(table) {
        return Err(DatasetError::new(
            path,
            format!(
                "a file of table {:?} in the {table} table",
                get(TABLE_KEY).unwrap_or_default()
            ),
        ));
    }
    let expected = table_schema(table).expect("a table of the dataset");
    if meta.schema().fields() != expected.fields() {
        return Err(DatasetError::new(
            path,
            format!(
                "its columns are not those of the {table} table of schema version {SCHEMA_VERSION}"
            ),
        ));
    }
    Ok((file, meta))
}

/// Reads one part file of `table`, a row group at a time, each checked against the
/// dataset's limits ([`check_row_group`], [`check_batch`]). An error names the file and
/// the row group; with `skip_bad` a bad file or row group is skipped and reported in
/// `out.skipped`.
pub fn read_part(
    path: &Path,
    table: &str,
    skip_bad: bool,
    out: &mut ReadTable,
) -> Result<(), DatasetError> {
    let (file, meta) = match open_part(path, table) {
        Ok(opened) => opened,
        Err(e) if skip_bad => {
            out.skipped.push(e);
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    for group in 0..meta.metadata().num_row_groups() {
        let read = || -> Result<Vec<RecordBatch>, String> {
            let input = file.try_clone().map_err(|e| e.to_string())?;
            let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(input, meta.clone())
                .with_row_groups(vec![group])
                .build()
                .map_err(|e| e.to_string())?;
            reader
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())
        };
        // The limits of docs/dataset.md: the footer's sizes before decoding, the values
        // after.
        let checked = check_row_group(path, meta.metadata(), group).and_then(|()| {
            let batches = read().map_err(|message| DatasetError {
                path: path.to_path_buf(),
                row_group: Some(group),
                message: format!("cannot read: {message}"),
            })?;
            for batch in &batches {
                check_batch(path, Some(group), table, batch)?;
            }
            Ok(batches)
        });
        match checked {
            Ok(batches) => out.batches.extend(batches),
            Err(e) if skip_bad => out.skipped.push(e),
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads every part of `table` in the dataset `dir` (see [`read_part`]).
pub fn read_table(dir: &Path, table: &str, skip_bad: bool) -> Result<ReadTable, DatasetError> {
    let mut out = ReadTable::default();
    for (_, path) in list_parts(dir, table)? {
        read_part(&path, table, skip_bad, &mut out)?;
    }
    Ok(out)
}

/// The values of the text column `column` of every row of `table`.
pub(crate) fn read_table_column_strings(
    dir: &Path,
    table: &str,
    column: &str,
) -> Result<Vec<String>, DatasetError> {
    let read = read_table(dir, table, false)?;
    let mut out = Vec::with_capacity(read.rows());
    for b in &read.batches {
        let col = b
            .column_by_name(column)
            .and_then(|c| c.as_any().downcast_ref::<StringArray>())
            .expect("a text column of the table's schema");
        out.extend((0..col.len()).map(|i| col.value(i).to_string()));
    }
    Ok(out)
}

/// The size of a table as its files' footers give it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableInfo {
    /// Part files.
    pub files: usize,
    /// Rows.
    pub rows: u64,
    /// Bytes on disk.
    pub bytes: u64,
}

/// The files, rows and bytes of `table` in the dataset `dir`, from the files' footers
/// (each file's version, table and columns checked as [`read_part`] checks them).
pub fn table_info(dir: &Path, table: &str) -> Result<TableInfo, DatasetError> {
    let mut info = TableInfo::default();
    for (_, path) in list_parts(dir, table)? {
        let (file, meta) = open_part(&path, table)?;
        info.files += 1;
        info.rows += meta.metadata().file_metadata().num_rows().max(0) as u64;
        info.bytes += file
            .metadata()
            .map_err(|e| DatasetError::new(&path, format!("cannot read its size: {e}")))?
            .len();
    }
    Ok(info)
}
