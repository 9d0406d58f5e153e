//! `carcassonne replay`: checks game records against the engine.
//!
//! Every record is replayed with its draws, optionally under other rule readings
//! (`--rule key=value`, set on top of each record's `setup.rules`). Divergences of records
//! that a list of known divergences names (by default `known-divergences.md` beside each
//! record file) are labelled with the list's reason and do not fail the command.

use crate::args::{self, OptSpec};
use crate::setup::{option_of, rule_options};
use crate::{emit, CliError, Outcome};
use carcassonne_session::record::{self, RecordReader, ReplayError};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Help text.
pub const HELP: &str = "\
carcassonne replay: check game records against the engine

usage: carcassonne replay FILE... [--rule key=value]... [--known LIST.md]

options:
  --rule key=value     replay under this rule reading, set on top of each record's
                       setup.rules (repeatable; keys and values as in `play --help`)
  --known LIST.md      the list of known divergences (default: known-divergences.md
                       beside each record file, when there is one); `--known none`
                       uses no list
  -h, --help           show this text

Each FILE holds JSON Lines (one record per line) or a single JSON record. Every record
is replayed with its draws: every action must be legal and every turn's scores and the
final scores must match. One line is printed for each record that diverges or cannot be
read (`ID: turn T ...: what differed`); a record that the list of known divergences
names (a line `- id: ID (reason)`) is printed as `ID: known divergence (reason): ...`.
The last line is `N reproduced, K known divergences, M diverged`.

Files are read one record at a time (memory is bounded by the largest record). A record
holds at most 4 MiB of JSON and 4096 turns. A file with no record, or that is not a
record file (its first record is not a JSON object of format carcassonne-record), is a
problem and stops at once.

Exit status: 0 when every record reproduced or diverged as listed, 1 when any other
diverged or was malformed or a file held no record, 2 for a bad command line or a file
that cannot be opened.
";

/// The outcome of checking one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Records the engine reproduced.
    pub reproduced: usize,
    /// Records that diverged as their entry in the list of known divergences says.
    pub known: usize,
    /// Records that diverged (unlisted) or could not be read.
    pub diverged: usize,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.reproduced += other.reproduced;
        self.known += other.known;
        self.diverged += other.diverged;
    }
}

/// Known divergences: record id → the reason given in the list.
pub type KnownDivergences = BTreeMap<String, String>;

/// Reads a list of known divergences: every line `- id: ID (reason)` (Markdown list
/// items); other lines are prose. An entry without a reason in parentheses is an error
/// that names its line, as is an id listed twice.
///
/// ```text
/// - id: river2-2p-0011 (R5, pig_herd: false)
/// ```
pub fn parse_known(name: &str, text: &str) -> Result<KnownDivergences, String> {
    let mut known = KnownDivergences::new();
    for (n, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("- id:") else {
            continue;
        };
        let rest = rest.trim();
        let (id, reason) = rest
            .split_once(char::is_whitespace)
            .map(|(id, r)| (id, r.trim()))
            .unwrap_or((rest, ""));
        let reason = reason
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .filter(|r| !r.trim().is_empty());
        let Some(reason) = reason.filter(|_| !id.is_empty()) else {
            return Err(format!(
                "{name}: line {}: expected `- id: ID (reason)`, found {line:?}",
                n + 1
            ));
        };
        if known
            .insert(id.to_string(), reason.trim().to_string())
            .is_some()
        {
            return Err(format!(
                "{name}: line {}: id {} listed twice",
                n + 1,
                record::shown_id(id)
            ));
        }
    }
    Ok(known)
}

/// Sets every rule of `rules` in the record's `setup.rules` (creating the object when the
/// record has none). A record whose `setup` or `setup.rules` is not an object is left as
/// it is: the replay then reports it as malformed.
pub fn override_rules(record: &mut Value, rules: &Map<String, Value>) {
    if rules.is_empty() {
        return;
    }
    let Some(setup) = record.get_mut("setup").and_then(Value::as_object_mut) else {
        return;
    };
    let target = setup
        .entry("rules")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(target) = target.as_object_mut() {
        for (k, v) in rules {
            target.insert(k.clone(), v.clone());
        }
    }
}

/// Checks every record of one file's `text` (see [`check_reader`]).
#[cfg(test)]
pub fn check_text(
    name: &str,
    text: &str,
    rules: &Map<String, Value>,
    known: &KnownDivergences,
    report: &mut impl FnMut(&str),
) -> Tally {
    check_reader(name, text.as_bytes(), rules, known, report)
}

/// Checks every record read from `input`, one at a time, with `rules` set on top of each
/// record's rules, writing a line for each problem; `known` labels expected divergences.
pub fn check_reader(
    name: &str,
    input: impl BufRead,
    rules: &Map<String, Value>,
    known: &KnownDivergences,
    report: &mut impl FnMut(&str),
) -> Tally {
    let mut tally = Tally::default();
    for (index, read) in RecordReader::new(input).enumerate() {
        let mut value = match read {
            Ok(r) => r.value,
            Err(e) => {
                tally.diverged += 1;
                report(&format!("{name}: {e}"));
                continue;
            }
        };
        override_rules(&mut value, rules);
        let raw_id = record::record_id(&value);
        let id = raw_id
            .map(record::shown_id)
            .unwrap_or_else(|| format!("{name} record {}", index + 1));
        match record::replay(&value) {
            Ok(_) => tally.reproduced += 1,
            Err(ReplayError::Diverged(d)) => match raw_id.and_then(|raw| known.get(raw)) {
                Some(reason) => {
                    tally.known += 1;
                    let reason = carcassonne_session::json::escape_controls(reason);
                    report(&format!("{id}: known divergence ({reason}): {d}"));
                }
                None => {
                    tally.diverged += 1;
                    report(&format!("{id}: {d}"));
                }
            },
            Err(ReplayError::Bad(e)) => {
                tally.diverged += 1;
                report(&format!("{id}: malformed record: {e}"));
            }
        }
    }
    tally
}

/// Where the list of known divergences for a record file is: `--known`, else
/// `known-divergences.md` beside the file when it exists.
fn known_list_for(path: &str, option: Option<&str>) -> Option<PathBuf> {
    match option {
        Some("none") => None,
        Some(list) => Some(PathBuf::from(list)),
        None => {
            let beside = Path::new(path)
                .parent()
                .unwrap_or(Path::new(""))
                .join("known-divergences.md");
            beside.is_file().then_some(beside)
        }
    }
}

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let parsed = args::parse(words, &[OptSpec::many("rule"), OptSpec::once("known")])?;
    if parsed.help {
        emit(HELP);
        return Ok(Outcome::Success);
    }
    if parsed.positionals.is_empty() {
        return Err(CliError::Usage("no record file given".into()));
    }
    let rules = rule_options(&parsed)?;
    // The engine checks rule names and values once, before any record is replayed.
    carcassonne::RuleSwitches::from_json(&Value::Object(rules.clone()), "rules")
        .map_err(|e| CliError::Usage(format!("{}: {}", option_of(&e.field), e.message)))?;
    let known_option = parsed.value("known");
    if known_option == Some("") {
        return Err(CliError::Usage("--known: empty file name".into()));
    }
    // Every file is opened before any is checked, so that a missing file stops the
    // command before it prints a partial result; each is then read as a stream.
    let mut lists: BTreeMap<PathBuf, KnownDivergences> = BTreeMap::new();
    let mut files = Vec::with_capacity(parsed.positionals.len());
    for path in &parsed.positionals {
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::Usage(format!("cannot read {path}: {e}")))?;
        let list = known_list_for(path, known_option);
        if let Some(list) = &list {
            if !lists.contains_key(list) {
                let shown = list.display().to_string();
                let text = record::read_text_file(list)
                    .map_err(|e| CliError::Usage(format!("--known: {e}")))?;
                let entries = parse_known(&shown, &text).map_err(CliError::Usage)?;
                lists.insert(list.clone(), entries);
            }
        }
        files.push((path, file, list));
    }
    let empty = KnownDivergences::new();
    let mut total = Tally::default();
    for (path, file, list) in files {
        let known = list.as_ref().and_then(|l| lists.get(l)).unwrap_or(&empty);
        let input = BufReader::with_capacity(1 << 16, file);
        let mut tally = check_reader(path, input, &rules, known, &mut |line| {
            emit(&format!("{line}\n"))
        });
        if tally == Tally::default() {
            emit(&format!("{path}: no record in the file\n"));
            tally.diverged = 1;
        }
        total.add(&tally);
    }
    emit(&format!(
        "{} reproduced, {} known divergences, {} diverged\n",
        total.reproduced, total.known, total.diverged
    ));
    Ok(if total.diverged > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    })
}

#[cfg(test)]
#[path = "tests/unit/replay.rs"]
mod tests;
