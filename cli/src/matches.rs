//! `carcassonne match`: many games between built-in players with the seats rotated, and
//! each player's win rate with its 95 % interval, mean score and margin
//! (`carcassonne_session::matches`).

use crate::args::OptSpec;
use crate::progress::{self, Progress};
use crate::setup;
use crate::{emit, CliError, Outcome};
use carcassonne_session::bots::parse_bots;
use carcassonne_session::matches::{run_match, GameResult, MatchSpec};
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
  --threads T          games played at the same time, one thread each (default 1)
{players_line}
{setup}
  --seed S             seed of the first deal (default 0)
  -h, --help           show this text

Game g deals the tiles of seed S + g/N and seats the players rotated by g, so each deal
is played from every seat. Prints one line per player: games, wins (a win shared by k
players counts 1/k), win rate with its 95% Wilson interval, mean score, mean margin (own
score minus the best other score) and mean time per decision; then the win rate per
seat. `play` and `match` share their defaults. A match that lasts more than a second
shows its progress on standard error.
";

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
    let description = setup::describe(&config);
    let spec = MatchSpec {
        config,
        bots,
        games,
        threads,
    };
    spec.validate().map_err(CliError::Usage)?;
    // The games call back as they end; a thread of its own keeps the progress line
    // (and its clock) moving while long games are played.
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
                        "match: {done}/{games} games, {}",
                        progress::seconds(elapsed)
                    );
                    if done > 0 {
                        let left = elapsed.mul_f64(f64::from(games - done) / f64::from(done));
                        text.push_str(&format!(", about {} left", progress::seconds(left)));
                    }
                    text
                });
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let report = run_match(&spec, &count_game);
        over.store(true, Ordering::Relaxed);
        report
    })
    .map_err(CliError::Failed)?;
    let names: Vec<String> = spec.bots.iter().map(|b| b.to_string()).collect();
    emit(&format!(
        "match: {games} games of {description}; players {}; {:.1} s on {threads} thread(s)\n{}",
        names.join(", "),
        report.elapsed.as_secs_f64(),
        report.to_text()
    ));
    Ok(Outcome::Success)
}
