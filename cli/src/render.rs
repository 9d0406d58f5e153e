//! `carcassonne render`: replays a record and draws its board, at its end or after a
//! chosen turn, as text, as an SVG picture, or as an animated HTML replay.

use crate::args::{self, OptSpec};
use crate::{emit, CliError, Outcome};
use carcassonne::Game;
use carcassonne_session::record;
use carcassonne_session::render::{board_svg, board_text, replay_html};
use serde_json::Value;
use std::fmt::Write as _;

/// Help text.
pub const HELP: &str = "\
carcassonne render: draw the board of a game record

usage: carcassonne render FILE [--turn N] [--svg OUT.svg] [--html OUT.html] [--id ID]
                         [--quiet]

options:
  --turn N             draw the board after the record's first N turns (0: the start
                       tile only; default: the whole record)
  --svg OUT.svg        also write the board as an SVG picture
  --html OUT.html      also write an animated replay: one self-contained HTML page with
                       the board after every turn and a slider to choose the turn
  --id ID              the record to draw when FILE holds several (JSON Lines)
  --quiet              print nothing on standard output (with --svg or --html: write
                       the files only); errors still go to standard error
  -h, --help           show this text

Replays the record (every action is checked) and prints the board as text, followed by
the scores and the files written. A finished game is drawn with its figures as they stood at the end of the
last turn, before final scoring returned them. Exit status: 0 on success, 1 when the
record diverges or an output cannot be written, 2 for a bad command line or an
unreadable file.
";

/// The record's turns.
fn turns_of(record: &Value) -> usize {
    record
        .get("turns")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// What a record holds about the end of its game, besides its turns: the final moves
/// (CC6), the final scoring and how to resume the game after its last turn.
const END_OF_GAME_KEYS: [&str; 4] = ["final_actions", "final_scores", "final_events", "resume"];

/// The record cut after its first `n` turns, as the record of an unfinished game (without
/// what follows its last turn).
fn first_turns(record: &Value, n: usize) -> Value {
    let mut cut = record.clone();
    if let Some(top) = cut.as_object_mut() {
        if let Some(turns) = top.get_mut("turns").and_then(Value::as_array_mut) {
            if n < turns.len() {
                turns.truncate(n);
                for key in END_OF_GAME_KEYS {
                    top.remove(key);
                }
            }
        }
    }
    cut
}

/// The game after each of the record's turns: `[0]` the start, the last the whole record.
pub fn states_after_each_turn(record: &Value, id: &str) -> Result<Vec<Game>, CliError> {
    let turns = turns_of(record);
    (0..=turns)
        .map(|n| {
            record::replay(&first_turns(record, n))
                .map_err(|e| CliError::Failed(format!("{id}: after turn {n}: {e}")))
        })
        .collect()
}

fn write_file(option: &str, path: &str, text: &str) -> Result<(), CliError> {
    if path.is_empty() {
        return Err(CliError::Usage(format!("--{option}: empty file name")));
    }
    std::fs::write(path, text).map_err(|e| CliError::Failed(format!("cannot write {path}: {e}")))
}

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let parsed = args::parse(
        words,
        &[
            OptSpec::once("svg"),
            OptSpec::once("html"),
            OptSpec::once("id"),
            OptSpec::once("turn"),
            OptSpec::switch("quiet"),
        ],
    )?;
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
    for option in ["svg", "html"] {
        if parsed.value(option) == Some("") {
            return Err(CliError::Usage(format!("--{option}: empty file name")));
        }
    }
    let turn = match parsed.value("turn") {
        None => None,
        Some(text) => Some(text.trim().parse::<usize>().map_err(|_| {
            CliError::Usage(format!(
                "--turn: expected a whole number of turns (0 or more), found {text:?}"
            ))
        })?),
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
    // Quoted and escaped when it holds control characters (messages, the page's title).
    let id = record::shown_id(record::record_id(chosen).unwrap_or(path.as_str()));
    let turns = turns_of(chosen);
    if let Some(n) = turn {
        if n > turns {
            return Err(CliError::Usage(format!(
                "--turn: {id} has {turns} turns, so N is at most {turns}, found {n}"
            )));
        }
    }
    let shown = turn.unwrap_or(turns);
    let game = record::replay(&first_turns(chosen, shown))
        .map_err(|e| CliError::Failed(format!("{id}: {e}")))?;
    let mut out = board_text(&game);
    let scores: Vec<String> = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| format!("seat {seat}: {s}"))
        .collect();
    let state = if game.is_terminal() {
        "final scores".to_string()
    } else if shown < turns {
        format!("scores after turn {shown} of {turns}")
    } else {
        "scores (game not finished)".to_string()
    };
    let _ = writeln!(out, "\n{id}: {state}: {}", scores.join(", "));
    if let Some(svg_path) = parsed.value("svg") {
        write_file("svg", svg_path, &board_svg(&game))?;
        let _ = writeln!(out, "svg written to {svg_path}");
    }
    if let Some(html_path) = parsed.value("html") {
        let states = states_after_each_turn(chosen, &id)?;
        write_file("html", html_path, &replay_html(&id, &states))?;
        let _ = writeln!(
            out,
            "html replay of {} turns written to {html_path}",
            states.len() - 1
        );
    }
    if !parsed.flag("quiet") {
        emit(&out);
    }
    Ok(Outcome::Success)
}
