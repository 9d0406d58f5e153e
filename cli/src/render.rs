//! `carcassonne render`: replays a record and draws its board.

use crate::args::{self, OptSpec};
use crate::{emit, CliError, Outcome};
use carcassonne_session::record;
use carcassonne_session::render::{board_svg, board_text};
use std::fmt::Write as _;

/// Help text.
pub const HELP: &str = "\
carcassonne render: draw the board of a game record

usage: carcassonne render FILE [--svg OUT.svg] [--id ID]

options:
  --svg OUT.svg        also write the board as an SVG picture
  --id ID              the record to draw when FILE holds several (JSON Lines)
  -h, --help           show this text

Replays the record (every action is checked) and prints the board as text, followed by
the scores. Exit status: 0 on success, 1 when the record diverges or the SVG cannot be
written, 2 for a bad command line or an unreadable file.
";

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let parsed = args::parse(words, &[OptSpec::once("svg"), OptSpec::once("id")])?;
    if parsed.help {
        emit(HELP);
        return Ok(Outcome::Success);
    }
    let path = match parsed.positionals.as_slice() {
        [path] => path,
        [] => return Err(CliError::Usage("no record file given".into())),
        [_, extra, ..] => {
            return Err(CliError::Usage(format!(
                "unexpected argument {extra:?} (one record file at a time)"
            )))
        }
    };
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::Usage(format!("cannot read {path}: {e}")))?;
    // Read one record at a time: keep the one asked for (or the first), count the others.
    let wanted = parsed.value("id");
    let mut chosen = None;
    let mut count = 0;
    let mut first_ids = Vec::new();
    for read in record::RecordReader::new(std::io::BufReader::new(file)) {
        let value = read
            .map_err(|e| CliError::Usage(format!("{path}: {e}")))?
            .value;
        count += 1;
        if first_ids.len() < 3 {
            first_ids.push(record::record_id(&value).unwrap_or("?").to_string());
        }
        match wanted {
            Some(id) if record::record_id(&value) == Some(id) => {
                chosen = Some(value);
                break;
            }
            Some(_) => {}
            None if chosen.is_none() => chosen = Some(value),
            None => {}
        }
    }
    let chosen = match (wanted, chosen) {
        (Some(id), None) => {
            return Err(CliError::Usage(format!(
                "--id: {path} has no record with id {}",
                carcassonne_session::json::echo(id)
            )))
        }
        (_, None) => return Err(CliError::Usage(format!("{path} holds no record"))),
        (None, Some(_)) if count > 1 => {
            return Err(CliError::Usage(format!(
                "{path} holds {count} records; choose one with --id (first ids: {})",
                first_ids
                    .iter()
                    .map(|id| record::shown_id(id))
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        (_, Some(value)) => value,
    };
    let chosen = &chosen;
    let id = record::record_id(chosen)
        .unwrap_or(path.as_str())
        .to_string();
    let game = record::replay(chosen).map_err(|e| CliError::Failed(format!("{id}: {e}")))?;
    let mut out = board_text(&game);
    let scores: Vec<String> = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| format!("seat {seat}: {s}"))
        .collect();
    let state = if game.is_terminal() {
        "final scores"
    } else {
        "scores (game not finished)"
    };
    let _ = writeln!(out, "\n{id}: {state}: {}", scores.join(", "));
    if let Some(svg_path) = parsed.value("svg") {
        if svg_path.is_empty() {
            return Err(CliError::Usage("--svg: empty file name".into()));
        }
        std::fs::write(svg_path, board_svg(&game))
            .map_err(|e| CliError::Failed(format!("cannot write {svg_path}: {e}")))?;
        let _ = writeln!(out, "svg written to {svg_path}");
    }
    emit(&out);
    Ok(Outcome::Success)
}
