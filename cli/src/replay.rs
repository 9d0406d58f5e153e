//! `carcassonne replay`: checks game records against the engine.

use crate::args;
use crate::{emit, CliError, Outcome};
use carcassonne_session::record::{self, RecordReader, ReplayError};
use std::io::{BufRead, BufReader};

/// Help text.
pub const HELP: &str = "\
carcassonne replay: check game records against the engine

usage: carcassonne replay FILE...

Each FILE holds JSON Lines (one record per line) or a single JSON record. Every record
is replayed with its draws: every action must be legal and every turn's scores and the
final scores must match. One line is printed for each record that diverges or cannot be
read (`ID: turn T ...: what differed`), then a last line `N reproduced, M diverged`.

Files are read one record at a time (memory is bounded by the largest record). A record
holds at most 4 MiB of JSON and 4096 turns. A file with no record, or that is not a
record file (its first record is not a JSON object of format carcassonne-record), is a
problem and stops at once.

Exit status: 0 when every record reproduced, 1 when any diverged or was malformed or a
file held no record, 2 for a bad command line or a file that cannot be opened.
";

/// The outcome of checking one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Records the engine reproduced.
    pub reproduced: usize,
    /// Records that diverged or could not be read.
    pub diverged: usize,
}

/// Checks every record of one file's `text`, writing a line for each problem.
#[cfg(test)]
pub fn check_text(name: &str, text: &str, report: &mut impl FnMut(&str)) -> Tally {
    check_reader(name, text.as_bytes(), report)
}

/// Checks every record read from `input`, one at a time, writing a line for each
/// problem.
pub fn check_reader(name: &str, input: impl BufRead, report: &mut impl FnMut(&str)) -> Tally {
    let mut tally = Tally::default();
    for (index, read) in RecordReader::new(input).enumerate() {
        let value = match read {
            Ok(r) => r.value,
            Err(e) => {
                tally.diverged += 1;
                report(&format!("{name}: {e}"));
                continue;
            }
        };
        let id = record::record_id(&value)
            .map(record::shown_id)
            .unwrap_or_else(|| format!("{name} record {}", index + 1));
        match record::replay(&value) {
            Ok(_) => tally.reproduced += 1,
            Err(ReplayError::Diverged(d)) => {
                tally.diverged += 1;
                report(&format!("{id}: {d}"));
            }
            Err(ReplayError::Bad(e)) => {
                tally.diverged += 1;
                report(&format!("{id}: malformed record: {e}"));
            }
        }
    }
    tally
}

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let parsed = args::parse(words, &[])?;
    if parsed.help {
        emit(HELP);
        return Ok(Outcome::Success);
    }
    if parsed.positionals.is_empty() {
        return Err(CliError::Usage("no record file given".into()));
    }
    // Every file is opened before any is checked, so that a missing file stops the
    // command before it prints a partial result; each is then read as a stream.
    let mut files = Vec::with_capacity(parsed.positionals.len());
    for path in &parsed.positionals {
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::Usage(format!("cannot read {path}: {e}")))?;
        files.push((path, file));
    }
    let mut total = Tally::default();
    for (path, file) in files {
        let input = BufReader::with_capacity(1 << 16, file);
        let mut tally = check_reader(path, input, &mut |line| emit(&format!("{line}\n")));
        if tally == Tally::default() {
            emit(&format!("{path}: no record in the file\n"));
            tally.diverged = 1;
        }
        total.reproduced += tally.reproduced;
        total.diverged += tally.diverged;
    }
    emit(&format!(
        "{} reproduced, {} diverged\n",
        total.reproduced, total.diverged
    ));
    Ok(if total.diverged > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Game, GameConfig};

    fn finished_record() -> serde_json::Value {
        let mut game = Game::new(GameConfig::new(2)).unwrap();
        while !game.is_terminal() {
            let first = game.legal_actions()[0];
            game.apply(first).unwrap();
        }
        record::to_value(&game, "first-moves")
    }

    #[test]
    fn counts_reproduced_diverged_and_unreadable_records() {
        let good = finished_record();
        let mut bad = good.clone();
        let score = bad["final_scores"][0].as_i64().unwrap();
        bad["final_scores"][0] = serde_json::json!(score + 1);
        let text = format!("{good}\n{bad}\n{{not json\n");
        let mut lines = Vec::new();
        let tally = check_text("games.jsonl", &text, &mut |l| lines.push(l.to_string()));
        assert_eq!(
            tally,
            Tally {
                reproduced: 1,
                diverged: 2
            }
        );
        assert!(
            lines[0].starts_with("first-moves: final scores"),
            "{lines:?}"
        );
        assert!(lines[1].starts_with("games.jsonl: line 3"), "{lines:?}");
    }
}
