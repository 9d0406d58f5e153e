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
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("cannot read {path}: {e}")))?;
    let records = record::parse_records(&text)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::Usage(format!("{path}: {e}")))?;
    let chosen = match parsed.value("id") {
        Some(id) => records
            .iter()
            .find(|r| record::record_id(r) == Some(id))
            .ok_or_else(|| CliError::Usage(format!("--id: {path} has no record with id {id:?}")))?,
        None => match records.as_slice() {
            [one] => one,
            [] => return Err(CliError::Usage(format!("{path} holds no record"))),
            many => {
                return Err(CliError::Usage(format!(
                    "{path} holds {} records; choose one with --id (first ids: {})",
                    many.len(),
                    many.iter()
                        .take(3)
                        .map(|r| record::record_id(r).unwrap_or("?"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        },
    };
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
