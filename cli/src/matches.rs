//! `carcassonne match`: many games between built-in players with the seats rotated, and
//! each player's win rate with its 95 % interval, mean score and margin
//! (`carcassonne_session::matches`); with `--out`, the games written into a dataset.

use crate::args::OptSpec;
use crate::progress::{self, Progress};
use crate::setup;
use crate::{emit, CliError, Outcome};
use carcassonne_session::bots::parse_bots;
use carcassonne_session::dataset::DatasetWriter;
use carcassonne_session::matches::{
    match_game_id, run_match, write_match, GameResult, MatchReport, MatchSpec, MatchWriteError,
};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

/// Help text.
pub const HELP: &str = "\
carcassonne match: play many games between built-in players and compare them

usage: carcassonne match --bots LIST [options]

options:
  --bots LIST          the players, comma-separated, one per seat (or one for every
                       seat): random, greedy, heuristic, or
                       mcts:<budget>[:<option>=<value>...]
                       with a budget of iterations (mcts:2000) or milliseconds per
                       decision (mcts:100ms) and the options
                         threads=N  root-parallel search threads (default 1)
                         c=X        UCT exploration constant (default 0.4)
                         deploy=P   percent of playout deployment steps that deploy
                                    rather than pass (default 100: uniform playouts)
                         margin=P   weight of the score margin in the reward against
                                    the bare win or loss, percent (default 100)
                         widen=W    progressive widening below the root (default 0: off)
  --games N            number of games (default 100)
  --first-game G       play games G .. G+N-1 of the match (default 0): a match split
                       into ranges plays the games of the whole match
  --threads T          games played at the same time, one thread each (default 1)
  --out DIR            write every game into the dataset DIR (created if needed;
                       docs/dataset.md), its id match-S-g-H (H: a hash of the players
                       and the setup); a game already in DIR is not played again
  --part-games N       --out: games per part file, 1 to 1000000 (default 256)
{players_line}
{setup}
  --seed S             seed of the first deal (default 0)
  -h, --help           show this text

Game g deals the tiles of seed S + g/N and seats the players rotated by g, so each deal
is played from every seat. Prints one line per player: games, wins (a win shared by k
players counts 1/k), win rate with its 95% Wilson interval, mean score, mean margin (own
score minus the best other score) and mean time per decision; then the win rate per
seat. `play` and `match` share their defaults. A match that lasts more than a second
shows its progress on standard error. With --out the summary covers the games played;
Ctrl-C then stops the match within a decision, writes the games finished, and the same
command again plays the others.
";

static STOP: AtomicBool = AtomicBool::new(false);

/// The most games accepted by `--games`.
const MAX_GAMES: u32 = MatchSpec::MAX_GAMES;

fn count(flag: &str, text: &str, max: u64) -> Result<u64, CliError> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--{flag}: expected a whole number from 1 to {max}, found {text:?}"
            ))
        })
}

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let options = [
        OptSpec::once("bots"),
        OptSpec::once("games"),
        OptSpec::once("threads"),
        OptSpec::once("first-game"),
        OptSpec::once("out"),
        OptSpec::once("part-games"),
    ];
    let Some(parsed) = setup::parse_setup_command(words, &options, HELP)? else {
        return Ok(Outcome::Success);
    };
    let bots_text = parsed.value("bots").ok_or_else(|| {
        CliError::Usage("--bots is required (e.g. --bots mcts:500,greedy)".into())
    })?;
    let defaults = setup::defaults_for(Some(bots_text));
    let config = setup::config_from_options(&parsed, &defaults)?;
    let bots = parse_bots(bots_text, config.players as usize)
        .map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    let games = match parsed.value("games") {
        Some(text) => count("games", text, u64::from(MAX_GAMES))? as u32,
        None => 100,
    };
    let threads = match parsed.value("threads") {
        Some(text) => count("threads", text, MatchSpec::MAX_THREADS as u64)? as usize,
        None => 1,
    };
    let first_game = match parsed.value("first-game") {
        Some(text) => text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|g| *g <= MatchSpec::MAX_FIRST_GAME)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--first-game: expected a whole number from 0 to {}, found {text:?}",
                    MatchSpec::MAX_FIRST_GAME
                ))
            })?,
        None => 0,
    };
    let part_games = match parsed.value("part-games") {
        Some(_) if parsed.value("out").is_none() => {
            return Err(CliError::Usage(
                "--part-games: only with --out (the dataset directory)".into(),
            ))
        }
        Some(text) => count("part-games", text, 1_000_000)? as usize,
        None => 256,
    };
    let description = setup::describe(&config);
    let spec = MatchSpec {
        config,
        bots,
        games,
        first_game,
        threads,
    };
    spec.validate().map_err(CliError::Usage)?;
    let mut writer = match parsed.value("out") {
        Some(dir) => {
            let mut w =
                DatasetWriter::open(Path::new(dir)).map_err(|e| CliError::Failed(e.to_string()))?;
            w.games_per_part = part_games;
            let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
            Some(w)
        }
        None => None,
    };
    // The games call back as they end; a thread of its own keeps the progress line
    // (and its clock) moving while long games are played.
    let to_play = match &writer {
        Some(w) => spec
            .game_indices()
            .filter(|g| !w.contains(&match_game_id(&spec, *g)))
            .count() as u32,
        None => games,
    };
    let finished = AtomicU32::new(0);
    let over = AtomicBool::new(false);
    let count_game = |done: u32, _: &GameResult| finished.store(done, Ordering::Relaxed);
    let report = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut line = Progress::stderr();
            while !over.load(Ordering::Relaxed) {
                line.update(|elapsed| {
                    let done = finished.load(Ordering::Relaxed);
                    let mut text = format!(
                        "match: {done}/{to_play} games, {}",
                        progress::seconds(elapsed)
                    );
                    if done > 0 {
                        let left = elapsed
                            .mul_f64(f64::from(to_play.saturating_sub(done)) / f64::from(done));
                        text.push_str(&format!(", about {} left", progress::seconds(left)));
                    }
                    text
                });
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let report = match writer.as_mut() {
            None => run_match(&spec, &count_game).map(|r| (r, None)),
            Some(w) => write_match(&spec, w, &count_game, &mut || !STOP.load(Ordering::Relaxed))
                .map(|d| (d.report, Some((d.written, d.present))))
                .map_err(|e| match e {
                    MatchWriteError::Stopped { written, .. } => format!(
                        "interrupted: {written} games written whole; the same command goes on \
                     with the others"
                    ),
                    e => e.to_string(),
                }),
        };
        over.store(true, Ordering::Relaxed);
        report
    })
    .map_err(CliError::Failed)?;
    let (report, written): (MatchReport, _) = report;
    let names: Vec<String> = spec.bots.iter().map(|b| b.to_string()).collect();
    let played = report.games.len();
    let range = if first_game > 0 {
        format!(
            " (games {first_game} to {})",
            first_game + u64::from(games) - 1
        )
    } else {
        String::new()
    };
    let mut text = format!(
        "match: {played} games{range} of {description}; players {}; {:.1} s on {threads} thread(s)\n",
        names.join(", "),
        report.elapsed.as_secs_f64(),
    );
    if let (Some((written, present)), Some(dir)) = (written, parsed.value("out")) {
        text += &format!("{written} games written to {dir}, {present} already there\n");
    }
    text += &report.to_text();
    emit(&text);
    Ok(Outcome::Success)
}
