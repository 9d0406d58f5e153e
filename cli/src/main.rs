//! The `carcassonne` command: play games between built-in bots, run matches between
//! them, check game records, measure the engine's speed, and draw the board of a record.
//!
//! Exit status: 0 on success, 1 when a record diverged or an output could not be
//! written, 2 for a bad command line (the message names the option).

mod args;
mod bench;
mod choices;
mod dataset;
mod human;
mod matches;
mod play;
mod progress;
mod render;
mod replay;
mod serve;
mod setup;
mod table;
#[cfg(test)]
#[path = "tests/unit/games.rs"]
mod test_games;
#[cfg(test)]
#[path = "tests/unit/modules.rs"]
mod test_modules;

use carcassonne_session::json::escape_controls;
use std::fmt;
use std::io::Write as _;
use std::process::ExitCode;

/// Writes `text` to standard output. A closed output (`carcassonne replay ... | head`)
/// is not an error: the command goes on and its exit status still reports its result.
/// Control characters other than line feeds and tabs are written escaped: text from a
/// record or a file name never drives the terminal (messages quote such text through
/// `json::shown` already; this is the last guard).
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(escape_controls(text).as_bytes());
    let _ = out.flush();
}

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum CliError {
    /// A bad command line (exit status 2).
    Usage(String),
    /// A failure while running (exit status 1).
    Failed(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failed(m) => f.write_str(m),
        }
    }
}

/// What a subcommand reports when it finishes normally.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything went as asked (exit status 0).
    Success,
    /// The work was done and found a problem, e.g. a diverging record (exit status 1).
    Problems,
}

const USAGE: &str = "\
carcassonne: a Carcassonne rules engine on the command line

usage: carcassonne <command> [options]

commands:
  play     play a game between built-in bots and write its record
  match    play many games between built-in bots; win rates with 95% intervals
  replay   check game records against the engine
  bench    measure games and decisions per second with random play
  render   draw a game record: its board as text, an SVG picture or an HTML replay
  serve    play against the built-in bots in a browser (a local web server)
  selfplay self-play games with tree search and its targets, into a dataset
  dataset  convert records into a dataset of Parquet tables; describe a dataset
  help     show this text, or `carcassonne help <command>`

`carcassonne <command> --help` describes a command's options;
`carcassonne --version` (or -V) prints the version.
Exit status: 0 success, 1 a record diverged or a file could not be written,
2 a bad command line.
";

/// The help text of a subcommand.
fn help_of(command: &str) -> Option<&'static str> {
    match command {
        "play" => Some(play::HELP),
        "match" => Some(matches::HELP),
        "replay" => Some(replay::HELP),
        "bench" => Some(bench::HELP),
        "render" => Some(render::HELP),
        "serve" => Some(serve::HELP),
        "selfplay" => Some(dataset::SELFPLAY_HELP),
        "dataset" => Some(dataset::HELP),
        _ => None,
    }
}

fn run(words: &[String]) -> Result<Outcome, CliError> {
    let Some(command) = words.first() else {
        return Err(CliError::Usage(format!("a command is needed\n\n{USAGE}")));
    };
    let rest = &words[1..];
    match command.as_str() {
        "play" => play::run(rest),
        "match" => matches::run(rest),
        "replay" => replay::run(rest),
        "bench" => bench::run(rest),
        "render" => render::run(rest),
        "serve" => serve::run(rest),
        "selfplay" => dataset::run_selfplay(rest),
        "dataset" => dataset::run(rest),
        "help" | "--help" | "-h" => {
            match rest.first() {
                None => emit(USAGE),
                Some(c) => match help_of(c) {
                    Some(h) => emit(&setup::help_text(h)),
                    None => return Err(CliError::Usage(format!("unknown command {c:?}"))),
                },
            }
            Ok(Outcome::Success)
        }
        "--version" | "-V" => {
            emit(&format!("carcassonne {}\n", env!("CARGO_PKG_VERSION")));
            Ok(Outcome::Success)
        }
        other => Err(CliError::Usage(format!(
            "unknown command {other:?} (commands: play, match, replay, bench, render, serve, help)"
        ))),
    }
}

/// The command line's words; one that is not UTF-8 (a file name in another encoding) is a
/// usage error naming it, escaped.
fn words() -> Result<Vec<String>, CliError> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(i, word)| {
            word.into_string().map_err(|word| {
                CliError::Usage(format!(
                    "argument {} is not UTF-8 text: {:?}",
                    i + 1,
                    word.to_string_lossy()
                ))
            })
        })
        .collect()
}

fn main() -> ExitCode {
    let (words, result) = match words() {
        Ok(words) => {
            let result = run(&words);
            (words, result)
        }
        Err(e) => (Vec::new(), Err(e)),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Problems) => ExitCode::from(1),
        Err(e) => {
            let command = words
                .first()
                .filter(|c| help_of(c).is_some())
                .map(|c| format!("carcassonne {c}"))
                .unwrap_or_else(|| "carcassonne".to_string());
            eprintln!("{}", escape_controls(&format!("{command}: {e}")));
            match e {
                CliError::Usage(_) => {
                    if command != "carcassonne" {
                        eprintln!("(see `{command} --help`)");
                    }
                    ExitCode::from(2)
                }
                CliError::Failed(_) => ExitCode::from(1),
            }
        }
    }
}
