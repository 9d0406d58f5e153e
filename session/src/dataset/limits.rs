//! The limits of a dataset's contents, checked by writers on what they write and
//! meant for readers on what they read (a file from elsewhere may be hostile): sizes
//! that bound memory, and values that must be in range before a row is used.
//!
//! * [`check_entry`]: a game before a writer keeps it ([`super::DatasetWriter::add`]);
//! * [`check_row_group`]: a row group's sizes as the file's footer declares them,
//!   before it is decoded;
//! * [`check_batch`]: every row of a decoded batch of a table; an error names the file,
//!   the row group and the game.
//!
//! `docs/dataset.md` lists the limits.

use super::entry::GameEntry;
use super::DatasetError;
use crate::record::MAX_RECORD_BYTES;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt8Type};
use arrow_array::{Array, ArrayRef, GenericListArray, RecordBatch, StringArray};
use carcassonne::config::MAX_PLAYERS;
use parquet::file::metadata::ParquetMetaData;
use std::path::Path;

/// The longest game id, in bytes.
pub const MAX_GAME_ID_BYTES: usize = 256;
/// The longest name of a seat's player (`mcts:150`, `net:<sha256>`), in bytes.
pub const MAX_SEAT_NAME_BYTES: usize = 256;
/// The longest short text of a row (a set, an edition, a rule's name or value, an
/// event's kind, figure or feature, a tile id), in bytes.
pub const MAX_NAME_BYTES: usize = 64;
/// The most tile sets of a game.
pub const MAX_SETS: usize = 64;
/// The most rule switches of a game.
pub const MAX_RULES: usize = 256;
/// The most legal flat ids of a decision (the full layout of the largest window is
/// smaller).
pub const MAX_LEGAL: u32 = 1 << 24;
/// The largest uncompressed size of a row group, as its footer declares it (256 MiB).
pub const MAX_ROW_GROUP_BYTES: i64 = 256 << 20;
/// The most rows of a row group.
pub const MAX_ROW_GROUP_ROWS: i64 = 1 << 20;
/// The uncompressed size a writer aims a row group at (64 MiB): it starts a new row
/// group once its games' records and decisions reach this size.
pub const ROW_GROUP_TARGET_BYTES: usize = 64 << 20;

/// Checks a seat's name: 1 to [`MAX_SEAT_NAME_BYTES`] bytes, no control character.
pub fn check_seat_name(name: &str) -> Result<(), String> {
    check_name(name, MAX_SEAT_NAME_BYTES)
}

/// Checks a game id: 1 to [`MAX_GAME_ID_BYTES`] bytes, no control character.
pub fn check_game_id(id: &str) -> Result<(), String> {
    check_name(id, MAX_GAME_ID_BYTES)
}

fn check_name(text: &str, max: usize) -> Result<(), String> {
    if text.is_empty() || text.len() > max {
        return Err(format!("{} bytes; expected 1 to {max}", text.len()));
    }
    match text.chars().find(|c| c.is_control()) {
        Some(c) => Err(format!("the control character {c:?} is not allowed")),
        None => Ok(()),
    }
}

/// Checks a game before it is written: its id, its seats (none, or one name per seat),
/// its record's size and its decisions' players, legal ids and targets. The message
/// names the field.
pub fn check_entry(entry: &GameEntry) -> Result<(), String> {
    check_game_id(&entry.id).map_err(|m| format!("game id: {m}"))?;
    let players = entry.game().num_players();
    if !entry.seats.is_empty() && entry.seats.len() != players {
        return Err(format!(
            "seats: {} names for {players} seats; give one per seat or none",
            entry.seats.len()
        ));
    }
    for (i, name) in entry.seats.iter().enumerate() {
        check_seat_name(name).map_err(|m| format!("seats[{i}]: {m}"))?;
    }
    let bytes = entry.record().to_string().len();
    if bytes > MAX_RECORD_BYTES {
        return Err(format!(
            "record: {bytes} bytes, longer than {MAX_RECORD_BYTES} (4 MiB)"
        ));
    }
    for (i, d) in entry.decisions.iter().enumerate() {
        if usize::from(d.player) >= players {
            return Err(format!(
                "decisions[{i}].player: {} of {players} seats",
                d.player
            ));
        }
        if d.legal > MAX_LEGAL || d.targets.len() > d.legal as usize {
            return Err(format!(
                "decisions[{i}]: {} targets over {} legal ids (at most {MAX_LEGAL})",
                d.targets.len(),
                d.legal
            ));
        }
        if d.values.len() != players {
            return Err(format!(
                "decisions[{i}].values: {} values for {players} seats",
                d.values.len()
            ));
        }
    }
    Ok(())
}

/// The size a writer counts for a game when it cuts row groups: its record's bytes and
/// its decisions' (see [`ROW_GROUP_TARGET_BYTES`]).
pub fn entry_bytes(entry: &GameEntry) -> usize {
    let decisions: usize = entry
        .decisions
        .iter()
        .map(|d| 32 + 8 * d.targets.len() + 4 * d.values.len())
        .sum();
    entry.record().to_string().len() + decisions
}

/// Checks row group `group` of a file's footer before it is decoded: at most
/// [`MAX_ROW_GROUP_ROWS`] rows and [`MAX_ROW_GROUP_BYTES`] uncompressed bytes, by the
/// row group's total and by the sum of its column chunks.
pub fn check_row_group(
    path: &Path,
    meta: &ParquetMetaData,
    group: usize,
) -> Result<(), DatasetError> {
    let fail = |message: String| DatasetError {
        path: path.to_path_buf(),
        row_group: Some(group),
        message,
    };
    if group >= meta.num_row_groups() {
        return Err(fail(format!(
            "no such row group (the file has {})",
            meta.num_row_groups()
        )));
    }
    let rg = meta.row_group(group);
    if !(0..=MAX_ROW_GROUP_ROWS).contains(&rg.num_rows()) {
        return Err(fail(format!(
            "{} rows; a row group holds at most {MAX_ROW_GROUP_ROWS}",
            rg.num_rows()
        )));
    }
    let columns = rg
        .columns()
        .iter()
        .try_fold(0i64, |sum, c| sum.checked_add(c.uncompressed_size().max(0)));
    for (what, bytes) in [
        ("in total", Some(rg.total_byte_size())),
        ("by its columns", columns),
    ] {
        match bytes {
            Some(b) if (0..=MAX_ROW_GROUP_BYTES).contains(&b) => {}
            Some(b) => {
                return Err(fail(format!(
                    "{b} bytes uncompressed {what}; a row group holds at most {MAX_ROW_GROUP_BYTES} (256 MiB)"
                )))
            }
            None => {
                return Err(fail(format!(
                    "its columns' sizes overflow; a row group holds at most {MAX_ROW_GROUP_BYTES} bytes"
                )))
            }
        }
    }
    Ok(())
}

/// A column of `batch` by name and type, or an error naming it.
fn column<'a, T: 'static>(batch: &'a RecordBatch, name: &str) -> Result<&'a T, String> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .ok_or_else(|| format!("no column {name:?} of the expected type"))
}

type List = GenericListArray<i32>;

/// The length of list `i` of `list` (0 when null).
fn list_len(list: &List, i: usize) -> usize {
    if list.is_null(i) {
        0
    } else {
        list.value_length(i).max(0) as usize
    }
}

fn text_ok(col: &StringArray, i: usize, max: usize) -> Result<(), String> {
    if col.is_valid(i) && col.value(i).len() > max {
        Err(format!("{} bytes; at most {max}", col.value(i).len()))
    } else {
        Ok(())
    }
}

fn strings_ok(list: &List, i: usize, max: usize) -> Result<(), String> {
    if list.is_null(i) {
        return Ok(());
    }
    let items: ArrayRef = list.value(i);
    let Some(s) = items.as_any().downcast_ref::<StringArray>() else {
        return Err("not a list of text".into());
    };
    (0..s.len()).try_for_each(|k| text_ok(s, k, max).map_err(|m| format!("[{k}]: {m}")))
}

/// Checks every row of `batch`, a batch of table `table` read from `path` (row group
/// `row_group`): game ids, short texts and lists within their limits, players and seat
/// numbers within [`MAX_PLAYERS`], lists of one value per seat as long as the game has
/// seats, ranks from 1 to the number of seats, records at most [`MAX_RECORD_BYTES`],
/// decisions' targets no more than their legal ids, shares and values in 0..=1. The
/// error names the file, the row group and the game (`game "g7": players: 9; expected
/// 1 to 6`).
pub fn check_batch(
    path: &Path,
    row_group: Option<usize>,
    table: &str,
    batch: &RecordBatch,
) -> Result<(), DatasetError> {
    let fail = |message: String| DatasetError {
        path: path.to_path_buf(),
        row_group,
        message,
    };
    let ids: &StringArray = column(batch, "game_id").map_err(fail)?;
    let rows = |check: &dyn Fn(usize) -> Result<(), String>| -> Result<(), DatasetError> {
        for i in 0..batch.num_rows() {
            let id = if ids.is_valid(i) { ids.value(i) } else { "" };
            let shown: String = id.chars().take(MAX_GAME_ID_BYTES).collect();
            check_game_id(id)
                .map_err(|m| format!("game id: {m}"))
                .and_then(|()| check(i))
                .map_err(|m| fail(format!("row {i}, game {shown:?}: {m}")))?;
        }
        Ok(())
    };
    let seat = |v: u8, what: &str| -> Result<(), String> {
        if usize::from(v) < MAX_PLAYERS {
            Ok(())
        } else {
            Err(format!("{what}: {v}; seats are 0 to {}", MAX_PLAYERS - 1))
        }
    };
    match table {
        "games" => {
            let b = batch;
            let players = column::<arrow_array::UInt8Array>(b, "players").map_err(fail)?;
            let edition = column::<StringArray>(b, "edition").map_err(fail)?;
            let sets = column::<List>(b, "sets").map_err(fail)?;
            let rules = column::<List>(b, "rules").map_err(fail)?;
            let seats = column::<List>(b, "seats").map_err(fail)?;
            let scores = column::<List>(b, "final_scores").map_err(fail)?;
            let ranks = column::<List>(b, "ranks").map_err(fail)?;
            let window = column::<arrow_array::UInt16Array>(b, "window").map_err(fail)?;
            rows(&|i| {
                let p = usize::from(players.value(i));
                if !(1..=MAX_PLAYERS).contains(&p) {
                    return Err(format!("players: {p}; expected 1 to {MAX_PLAYERS}"));
                }
                text_ok(edition, i, MAX_NAME_BYTES).map_err(|m| format!("edition: {m}"))?;
                if list_len(sets, i) > MAX_SETS {
                    return Err(format!(
                        "sets: {} sets; at most {MAX_SETS}",
                        list_len(sets, i)
                    ));
                }
                strings_ok(sets, i, MAX_NAME_BYTES).map_err(|m| format!("sets{m}"))?;
                if list_len(rules, i) > MAX_RULES {
                    return Err(format!(
                        "rules: {} rules; at most {MAX_RULES}",
                        list_len(rules, i)
                    ));
                }
                if rules.is_valid(i) {
                    let r = rules.value(i);
                    let r = r
                        .as_struct_opt()
                        .ok_or("rules: not a list of name and value")?;
                    for k in 0..r.num_columns() {
                        let texts = r
                            .column(k)
                            .as_string_opt::<i32>()
                            .ok_or("rules: not text")?;
                        for j in 0..texts.len() {
                            text_ok(texts, j, MAX_NAME_BYTES)
                                .map_err(|m| format!("rules[{j}]: {m}"))?;
                        }
                    }
                }
                let s = list_len(seats, i);
                if s != 0 && s != p {
                    return Err(format!("seats: {s} names for {p} seats"));
                }
                strings_ok(seats, i, MAX_SEAT_NAME_BYTES).map_err(|m| format!("seats{m}"))?;
                for (name, list) in [("final_scores", scores), ("ranks", ranks)] {
                    if list_len(list, i) != p {
                        return Err(format!(
                            "{name}: {} values for {p} seats",
                            list_len(list, i)
                        ));
                    }
                }
                if ranks.is_valid(i) {
                    let r = ranks.value(i);
                    let r = r
                        .as_primitive_opt::<UInt8Type>()
                        .ok_or("ranks: not uint8")?;
                    if let Some(bad) = r
                        .values()
                        .iter()
                        .find(|v| !(1..=p).contains(&usize::from(**v)))
                    {
                        return Err(format!("ranks: {bad}; expected 1 to {p}"));
                    }
                }
                if window.is_valid(i) {
                    let w = window.value(i);
                    let max = crate::encode::EncoderSpec::MAX_WINDOW;
                    if w == 0 || w > max {
                        return Err(format!("window: {w}; expected 1 to {max}"));
                    }
                }
                Ok(())
            })
        }
        "records" => {
            let records = column::<StringArray>(batch, "record").map_err(fail)?;
            rows(&|i| {
                let n = if records.is_valid(i) {
                    records.value(i).len()
                } else {
                    0
                };
                if n > MAX_RECORD_BYTES {
                    return Err(format!(
                        "record: {n} bytes, longer than {MAX_RECORD_BYTES} (4 MiB), the largest record read"
                    ));
                }
                Ok(())
            })
        }
        "turns" => {
            let player = column::<arrow_array::UInt8Array>(batch, "player").map_err(fail)?;
            let tile = column::<StringArray>(batch, "tile").map_err(fail)?;
            let scores = column::<List>(batch, "scores").map_err(fail)?;
            rows(&|i| {
                seat(player.value(i), "player")?;
                text_ok(tile, i, MAX_NAME_BYTES).map_err(|m| format!("tile: {m}"))?;
                let n = list_len(scores, i);
                if !(1..=MAX_PLAYERS).contains(&n) {
                    return Err(format!("scores: {n} values; expected 1 to {MAX_PLAYERS}"));
                }
                Ok(())
            })
        }
        "events" => {
            let player = column::<arrow_array::UInt8Array>(batch, "player").map_err(fail)?;
            let texts = ["kind", "figure", "feature"]
                .map(|name| column::<StringArray>(batch, name).map(|c| (name, c)));
            let texts: Vec<(&str, &StringArray)> =
                texts.into_iter().collect::<Result<_, _>>().map_err(fail)?;
            rows(&|i| {
                seat(player.value(i), "player")?;
                for (name, col) in &texts {
                    text_ok(col, i, MAX_NAME_BYTES).map_err(|m| format!("{name}: {m}"))?;
                }
                Ok(())
            })
        }
        "decisions" => {
            let player = column::<arrow_array::UInt8Array>(batch, "player").map_err(fail)?;
            let legal = column::<arrow_array::UInt32Array>(batch, "legal").map_err(fail)?;
            let targets = column::<List>(batch, "targets").map_err(fail)?;
            let values = column::<List>(batch, "values").map_err(fail)?;
            rows(&|i| {
                seat(player.value(i), "player")?;
                let l = legal.value(i);
                if l > MAX_LEGAL {
                    return Err(format!("legal: {l}; at most {MAX_LEGAL}"));
                }
                let t = list_len(targets, i);
                if t > l as usize {
                    return Err(format!("targets: {t} targets over {l} legal ids"));
                }
                if targets.is_valid(i) {
                    let v = targets.value(i);
                    let v = v
                        .as_struct_opt()
                        .ok_or("targets: not a list of id and share")?;
                    let shares = v
                        .column_by_name("share")
                        .and_then(|c| c.as_primitive_opt::<Float32Type>())
                        .ok_or("targets: no float32 share")?;
                    if let Some(s) = shares.values().iter().find(|s| !(0.0..=1.0).contains(*s)) {
                        return Err(format!("targets: share {s}; expected 0 to 1"));
                    }
                }
                let n = list_len(values, i);
                if n > MAX_PLAYERS {
                    return Err(format!("values: {n} values; at most {MAX_PLAYERS}"));
                }
                if values.is_valid(i) {
                    let v = values.value(i);
                    let v = v
                        .as_primitive_opt::<Float32Type>()
                        .ok_or("values: not float32")?;
                    if let Some(x) = v.values().iter().find(|x| !(0.0..=1.0).contains(*x)) {
                        return Err(format!("values: {x}; expected 0 to 1"));
                    }
                }
                Ok(())
            })
        }
        other => Err(fail(format!("no table {other:?} in a dataset"))),
    }
}
