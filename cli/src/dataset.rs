//! `carcassonne dataset` (convert records into a dataset, describe a dataset) and
//! `carcassonne selfplay` (self-play games with the search's targets, into a dataset):
//! the Parquet tables of `carcassonne_session::dataset`.

use crate::args::{self, OptSpec};
use crate::setup::{config_from_options, parse_setup_command};
use crate::{emit, CliError, Outcome};
use carcassonne_session::bots::{parse_bots, Bot};
use carcassonne_session::dataset::{
    table_info, write_selfplay, Batch, DatasetWriter, GameEntry, LoadOptions, Loader,
    SelfPlayWriteError, TABLES,
};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::guided::SearchError;
use carcassonne_session::options;
use carcassonne_session::record::{self, RecordReader};
use carcassonne_session::selfplay::{Searcher, SelfPlay};
use std::io::BufReader;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Help text of `dataset`.
pub const HELP: &str = "\
carcassonne dataset: games as a dataset of Parquet tables (docs/dataset.md)

usage: carcassonne dataset convert FILE... DIR [--skip-bad] [--part-games N]
       carcassonne dataset info DIR
       carcassonne dataset bench DIR [--preset P] [--window W] [--threads T] [--rows N]
                                     [--batch B] [--shuffle-buffer S] [--no-shuffle]

convert   reads the game records of each FILE (JSON Lines, or one JSON record) and
          writes them into the dataset DIR (created if needed): the tables games,
          turns, events and records (records carry no search, so no decisions). Each
          record must have an id, replay exactly and be of a finished game. A record
          whose id is in DIR already is not written again.
info      prints each table's files, rows and bytes, and the bytes on disk per
          decision.
bench     streams N training rows (in whole batches) out of DIR with the loader
          (replaying each game and encoding its decisions; as many epochs as N
          needs) and prints the rows
          a second, the most rows held at once and the process's peak resident
          memory (VmHWM of /proc/self/status, where there is one).

options:
  --skip-bad           convert: report a record that cannot be read or does not replay
                       (file, line and why) and go on; without it such a record stops
                       the command before anything more is written
  --part-games N       convert: games per part file, 1 to 1000000 (default 256)
  --preset P           bench: full, in-play or compact (default full)
  --window W           bench: the observation window (default: the dataset's)
  --threads T          bench: loader threads, 1 to 64 (default 1)
  --rows N             bench: rows to stream, 1 to 10000000000 (default 100000)
  --batch B            bench: rows a batch, 1 to 65536 (default 256)
  --shuffle-buffer S   bench: rows of the shuffle buffer, 1 to 10000000 (default 4096)
  --no-shuffle         bench: rows in dataset order, without the shuffle buffer
  -h, --help           show this text

Exit status: 0 success, 1 a record was bad (skipped with --skip-bad) or DIR could not
be written or read, 2 a bad command line or a file that cannot be opened.
";

/// Help text of `selfplay`.
pub const SELFPLAY_HELP: &str = "\
carcassonne selfplay: self-play games with tree search, with the search's targets, into a
dataset of Parquet tables (docs/dataset.md)

usage: carcassonne selfplay --out DIR [options]

options:
  --out DIR            the dataset directory (created if needed; a run on a directory
                       that holds some of its games already plays only the others)
  --games N            games to play, 0 to 1000000 (default 1)
  --bots SPEC          the search of every seat: mcts:<iterations> and its options
                       (default mcts:150; one spec for all seats, or the same one per
                       seat; `carcassonne match --help` lists the options)
{players_line}
  --seed S             the run's seed: game n is dealt and searched from S and n only,
                       and its id is selfplay-S-n-H, H a hash of the settings
                       (default 0)
{setup}
  --threads T          threads, 1 to 64 (default 1): the games do not depend on it
  --window W           the window of the flat ids of the decisions (default 24)
  --sample-moves N     searched decisions per game whose action is drawn by visit
                       share; the later ones take the most visited (default 30)
  --part-games N       games per part file, 1 to 1000000 (default 64): a part is
                       played and then written whole; its games are held in memory
                       until then (about 5 MB a game of 2-player base at window 24)
  -h, --help           show this text

Ctrl-C stops the run within a decision; the parts written stay whole, and running the
same command again goes on with the games not written.
";

static STOP: AtomicBool = AtomicBool::new(false);

fn count(name: &str, text: Option<&str>, default: u64, max: u64) -> Result<u64, CliError> {
    let Some(text) = text else {
        return Ok(default);
    };
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--{name}: expected a whole number from 0 to {max}, found {text:?}"
            ))
        })
}

fn part_games(parsed: &args::Parsed, default: u64) -> Result<usize, CliError> {
    let n = count("part-games", parsed.value("part-games"), default, 1_000_000)?;
    if n == 0 {
        return Err(CliError::Usage(
            "--part-games: 0; expected 1 to 1000000".into(),
        ));
    }
    Ok(n as usize)
}

fn open_writer(dir: &Path, per_part: usize) -> Result<DatasetWriter, CliError> {
    let mut writer = DatasetWriter::open(dir).map_err(|e| CliError::Failed(e.to_string()))?;
    writer.games_per_part = per_part;
    Ok(writer)
}

/// `carcassonne dataset ...`.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let specs = [
        OptSpec::switch("skip-bad"),
        OptSpec::once("part-games"),
        OptSpec::once("preset"),
        OptSpec::once("window"),
        OptSpec::once("threads"),
        OptSpec::once("rows"),
        OptSpec::once("batch"),
        OptSpec::once("shuffle-buffer"),
        OptSpec::switch("no-shuffle"),
    ];
    let parsed = args::parse(words, &specs)?;
    if parsed.help {
        emit(HELP);
        return Ok(Outcome::Success);
    }
    let Some((sub, rest)) = parsed.positionals.split_first() else {
        return Err(CliError::Usage(format!(
            "dataset: a subcommand is needed (convert, info, bench)\n\n{HELP}"
        )));
    };
    match sub.as_str() {
        "convert" => convert(rest, parsed.flag("skip-bad"), part_games(&parsed, 256)?),
        "info" => match rest {
            [dir] => info(Path::new(dir)),
            _ => Err(CliError::Usage("dataset info: expected one DIR".into())),
        },
        "bench" => match rest {
            [dir] => bench(Path::new(dir), &parsed),
            _ => Err(CliError::Usage("dataset bench: expected one DIR".into())),
        },
        other => Err(CliError::Usage(format!(
            "dataset: unknown subcommand {other:?} (convert, info, bench)"
        ))),
    }
}

fn convert(paths: &[String], skip_bad: bool, per_part: usize) -> Result<Outcome, CliError> {
    let Some((dir, files)) = paths.split_last().filter(|(_, f)| !f.is_empty()) else {
        return Err(CliError::Usage(
            "dataset convert: expected FILE... DIR".into(),
        ));
    };
    // Every file opens before anything is written.
    let mut inputs = Vec::new();
    for f in files {
        let file = std::fs::File::open(f)
            .map_err(|e| CliError::Usage(format!("{f}: cannot open: {e}")))?;
        inputs.push((f, file));
    }
    let mut writer = open_writer(Path::new(dir), per_part)?;
    let (mut added, mut present, mut bad) = (0u64, 0u64, 0u64);
    for (name, file) in inputs {
        for read in RecordReader::new(BufReader::new(file)) {
            let entry = read
                .map_err(|e| (e.path.clone(), e.to_string()))
                .and_then(|raw| {
                    let at = format!("line {}", raw.line);
                    GameEntry::from_record(&raw.value, Vec::new()).map_err(|e| {
                        let id = record::record_id(&raw.value).map(record::shown_id);
                        let id = id.map_or(String::new(), |id| format!(" (id {id})"));
                        (at, format!("{e}{id}"))
                    })
                });
            match entry {
                Ok(entry) => {
                    if writer
                        .add(entry)
                        .map_err(|e| CliError::Failed(e.to_string()))?
                    {
                        added += 1;
                    } else {
                        present += 1;
                    }
                }
                Err((at, message)) => {
                    let message = if message.starts_with(&at) {
                        format!("{name}: {message}")
                    } else {
                        format!("{name}: {at}: {message}")
                    };
                    if !skip_bad {
                        writer
                            .flush()
                            .map_err(|e| CliError::Failed(e.to_string()))?;
                        return Err(CliError::Failed(format!(
                            "{message}\n(nothing after it was written; --skip-bad skips such records)"
                        )));
                    }
                    bad += 1;
                    emit(&format!("skipped: {message}\n"));
                }
            }
        }
    }
    writer
        .flush()
        .map_err(|e| CliError::Failed(e.to_string()))?;
    emit(&format!(
        "{added} games written, {present} already in {dir}, {bad} skipped\n"
    ));
    Ok(if bad > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    })
}

fn info(dir: &Path) -> Result<Outcome, CliError> {
    let mut text = format!(
        "{:<10} {:>6} {:>12} {:>14}\n",
        "table", "files", "rows", "bytes"
    );
    let (mut total, mut decisions) = (0u64, 0u64);
    for table in TABLES {
        let i = table_info(dir, table).map_err(|e| CliError::Failed(e.to_string()))?;
        text += &format!(
            "{table:<10} {:>6} {:>12} {:>14}\n",
            i.files, i.rows, i.bytes
        );
        total += i.bytes;
        if table == "decisions" {
            decisions = i.rows;
        }
    }
    text += &format!("{:<10} {:>6} {:>12} {total:>14}\n", "all", "", "");
    if decisions > 0 {
        text += &format!(
            "bytes per decision: {:.1}\n",
            total as f64 / decisions as f64
        );
    }
    emit(&text);
    Ok(Outcome::Success)
}

/// A whole number of option `name` from `min` to `max`.
fn ranged(
    parsed: &args::Parsed,
    name: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, CliError> {
    let n = count(name, parsed.value(name), default, max)?;
    if n < min {
        return Err(CliError::Usage(format!(
            "--{name}: {n}; expected {min} to {max}"
        )));
    }
    Ok(n)
}

/// The peak resident memory of this process in kB (`VmHWM` of `/proc/self/status`).
fn peak_resident_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `carcassonne dataset bench DIR ...`: the loader's throughput and memory.
fn bench(dir: &Path, parsed: &args::Parsed) -> Result<Outcome, CliError> {
    let preset_name = parsed.value("preset").unwrap_or("full");
    let preset =
        options::preset_named(preset_name).map_err(|e| CliError::Usage(format!("--{e}")))?;
    let window = match parsed.value("window") {
        None => None,
        Some(_) => Some(ranged(
            parsed,
            "window",
            0,
            u64::from(EncoderSpec::MIN_WINDOW),
            u64::from(EncoderSpec::MAX_WINDOW),
        )? as u16),
    };
    let threads = ranged(parsed, "threads", 1, 1, LoadOptions::MAX_THREADS as u64)? as usize;
    let rows = ranged(parsed, "rows", 100_000, 1, 10_000_000_000)?;
    let batch = ranged(parsed, "batch", 256, 1, 65_536)? as usize;
    let shuffle_buffer = ranged(
        parsed,
        "shuffle-buffer",
        LoadOptions::DEFAULT_SHUFFLE_BUFFER as u64,
        1,
        LoadOptions::MAX_SHUFFLE_BUFFER as u64,
    )? as usize;
    let failed = |e: carcassonne_session::dataset::DatasetError| CliError::Failed(e.to_string());
    // Open once to count the rows of an epoch, then again with enough epochs.
    let options = LoadOptions {
        preset,
        window,
        shuffle: !parsed.flag("no-shuffle"),
        seed: 0,
        threads,
        epochs: 1,
        shuffle_buffer,
        skip_bad: false,
        games: None,
    };
    let per_epoch = Loader::open(dir, options.clone())
        .map_err(failed)?
        .decisions();
    let epochs = rows
        .div_ceil(per_epoch.max(1))
        .clamp(1, u64::from(LoadOptions::MAX_EPOCHS)) as u32;
    let mut loader = Loader::open(dir, LoadOptions { epochs, ..options }).map_err(failed)?;
    let layout = loader.layout().clone();
    let mut arrays = Batch::new(&layout, batch);
    let start = std::time::Instant::now();
    let mut done = 0u64;
    while done < rows {
        let n = loader.fill(&mut arrays.as_mut(true)).map_err(failed)?;
        if n == 0 {
            break;
        }
        done += n as u64;
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut text = format!(
        "{done} rows ({} games, {per_epoch} rows an epoch, {epochs} epochs) of preset {preset_name} \
         at window {}, {threads} threads, batches of {batch}\n",
        loader.games(),
        layout.window(),
    );
    text += &format!(
        "{seconds:.2} s, {:.0} rows/s\n",
        done as f64 / seconds.max(1e-9)
    );
    text += &format!(
        "rows held at most: {} (bound {}), {} bytes a row\n",
        loader.peak_rows_held(),
        loader.max_rows_held(),
        loader.row_bytes()
    );
    if let Some(kb) = peak_resident_kb() {
        text += &format!(
            "peak resident memory (VmHWM): {:.1} MB\n",
            kb as f64 / 1024.0
        );
    }
    emit(&text);
    Ok(Outcome::Success)
}

/// `carcassonne selfplay ...`.
pub fn run_selfplay(words: &[String]) -> Result<Outcome, CliError> {
    let extra = [
        OptSpec::once("out"),
        OptSpec::once("games"),
        OptSpec::once("bots"),
        OptSpec::once("threads"),
        OptSpec::once("window"),
        OptSpec::once("sample-moves"),
        OptSpec::once("part-games"),
    ];
    let Some(parsed) = parse_setup_command(words, &extra, SELFPLAY_HELP)? else {
        return Ok(Outcome::Success);
    };
    let Some(out) = parsed.value("out") else {
        return Err(CliError::Usage(
            "--out: the dataset directory is needed".into(),
        ));
    };
    let bots_text = parsed.value("bots").unwrap_or("mcts:150");
    let defaults = crate::setup::defaults_for(Some(bots_text));
    let config = config_from_options(&parsed, &defaults)?;
    let bots = parse_bots(bots_text, config.players as usize)
        .map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    let mcts = match bots[0] {
        Bot::Mcts(m) if bots.iter().all(|b| *b == bots[0]) => m,
        _ => {
            return Err(CliError::Usage(format!(
                "--bots: self-play searches every seat alike: give one mcts spec \
                 (found {bots_text:?})"
            )))
        }
    };
    let games = count(
        "games",
        parsed.value("games"),
        1,
        u64::from(SelfPlay::MAX_GAMES),
    )?;
    let threads = count(
        "threads",
        parsed.value("threads"),
        1,
        SelfPlay::MAX_THREADS as u64,
    )?;
    if threads == 0 {
        return Err(CliError::Usage(format!(
            "--threads: 0; expected 1 to {}",
            SelfPlay::MAX_THREADS
        )));
    }
    let window = count("window", parsed.value("window"), 24, u64::from(u16::MAX))?;
    let spec =
        EncoderSpec::new(window as u16).map_err(|e| CliError::Usage(format!("--window: {e}")))?;
    let sample_moves = count(
        "sample-moves",
        parsed.value("sample-moves"),
        u64::from(SelfPlay::DEFAULT_SAMPLE_MOVES),
        u64::from(u32::MAX),
    )?;
    let per_part = part_games(&parsed, 64)?;
    let layout = Arc::new(Layout::new(spec, Preset::Compact, &config));
    let mut run = SelfPlay::new(config.clone(), layout, Searcher::Playouts(mcts));
    run.threads = threads as usize;
    run.seed = config.seed;
    run.sample_moves = sample_moves as u32;
    let mut writer = open_writer(Path::new(out), per_part)?;
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let seats: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    let result = write_selfplay(&mut writer, &mut run, games, &seats, &mut || {
        !STOP.load(Ordering::Relaxed)
    });
    let (parts, written) = writer.written();
    match result {
        Ok(done) => {
            emit(&format!(
                "{} games written ({} decisions) in {parts} parts, {} already in {out}\n",
                done.written, done.decisions, done.present
            ));
            Ok(Outcome::Success)
        }
        Err(SelfPlayWriteError::Search(SearchError::Stopped)) => Err(CliError::Failed(format!(
            "interrupted: {written} games written whole in {parts} parts; the same command \
             goes on with the others"
        ))),
        Err(e) => Err(CliError::Failed(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    fn usage(w: &[&str]) -> String {
        match run(&words(w)) {
            Err(CliError::Usage(m)) => m,
            Err(CliError::Failed(m)) => panic!("failed, not a usage error: {m}"),
            Ok(_) => panic!("accepted: {w:?}"),
        }
    }

    #[test]
    fn bench_options_out_of_range_are_named() {
        assert_eq!(
            usage(&["bench", "DIR", "--threads", "0"]),
            "--threads: 0; expected 1 to 64"
        );
        assert_eq!(
            usage(&["bench", "DIR", "--rows", "0"]),
            "--rows: 0; expected 1 to 10000000000"
        );
        assert!(usage(&["bench", "DIR", "--preset", "big"])
            .starts_with("--preset: unknown value \"big\" (allowed: \"full\""));
        assert!(usage(&["bench", "DIR", "--window", "2"]).starts_with("--window: 2;"));
        assert_eq!(usage(&["bench"]), "dataset bench: expected one DIR");
    }

    #[test]
    fn bench_streams_the_rows_of_a_small_dataset() {
        let dir =
            std::env::temp_dir().join(format!("carcassonne-cli-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config = carcassonne::GameConfig::new(2);
        let layout = Arc::new(Layout::new(
            EncoderSpec::new(12).unwrap(),
            Preset::Compact,
            &config,
        ));
        let mcts = carcassonne_session::mcts::MctsConfig::new(
            carcassonne_session::mcts::Budget::Iterations(4),
        );
        let mut run_ = SelfPlay::new(config, layout, Searcher::Playouts(mcts));
        let mut writer = DatasetWriter::open(&dir).unwrap();
        let seats = vec!["mcts:4".to_string(); 2];
        write_selfplay(&mut writer, &mut run_, 1, &seats, &mut || true).unwrap();
        let d = dir.to_string_lossy().to_string();
        let ok = run(&words(&[
            "bench",
            &d,
            "--rows",
            "300",
            "--batch",
            "32",
            "--threads",
            "2",
        ]));
        assert!(matches!(ok, Ok(Outcome::Success)));
        // Not a dataset: a failure naming the directory.
        let missing = dir.join("nothing");
        match run(&words(&["bench", &missing.to_string_lossy()])) {
            Err(CliError::Failed(m)) => assert!(m.contains("nothing"), "{m}"),
            _ => panic!("a missing dataset is a failure"),
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
