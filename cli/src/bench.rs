//! `carcassonne bench`: games on one thread for a fixed time (or a fixed number of
//! games), reported as games and decisions per second; random play by default, or a
//! built-in player's (an MCTS player's search speed is reported in iterations per
//! second).

use crate::args::OptSpec;
use crate::setup;
use crate::{emit, CliError, Outcome};
use carcassonne::{Game, Rng};
use carcassonne_session::bots::Bot;
use std::time::{Duration, Instant};

/// Help text.
pub const HELP: &str = "\
carcassonne bench: measure the engine with random play

usage: carcassonne bench [options]

options:
  --players P          number of players, 2 to 6 (default {players})
{setup}
  --seed S             seed of the first game; game k uses S + k (default 0)
  --seconds S          how long to play, in seconds (default 5)
  --games N            play exactly N games instead (the same games on every build,
                       for instruction counts: valgrind --tool=callgrind)
  --bot SPEC           the player of every seat (default random: a uniformly random
                       legal action); greedy, heuristic, or mcts:<budget>[:<option>=<value>...]
                       (see `carcassonne match --help`)
  -h, --help           show this text

Plays complete games one after another on one thread, each decision chosen by the
player, until the time is up (the last game is finished) or the N games are played.
Prints a summary line, then a last line `games/s: G decisions/s: D`, and for an MCTS
player a line
`iterations/s: I` (search iterations per second of search time, over every decision that
was searched).
";

/// Seeds the move picker apart from the tile draws.
const PICK_SEED_MIX: u64 = 0xBE4C_0000_0000_0001;

/// Longest accepted run, in seconds (one day).
const MAX_SECONDS: f64 = 86_400.0;

/// Most games accepted by `--games`.
const MAX_GAMES: u64 = 1_000_000_000;

/// When a run stops.
#[derive(Copy, Clone, Debug)]
enum Stop {
    /// After the first game that ends past this time.
    After(Duration),
    /// After this many games.
    Games(u64),
}

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let options = [
        OptSpec::once("seconds"),
        OptSpec::once("games"),
        OptSpec::once("bot"),
    ];
    let Some(parsed) = setup::parse_setup_command(words, &options, HELP)? else {
        return Ok(Outcome::Success);
    };
    let seconds = match parsed.value("seconds") {
        None => 5.0,
        Some(_) if parsed.value("games").is_some() => {
            return Err(CliError::Usage(
                "--games: give either --seconds or --games, not both".into(),
            ))
        }
        Some(text) => text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0 && *s <= MAX_SECONDS)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "--seconds: expected a number of seconds above 0 and at most {MAX_SECONDS}, found {text:?}"
                ))
            })?,
    };
    let stop = match parsed.value("games") {
        None => Stop::After(Duration::from_secs_f64(seconds)),
        Some(text) => Stop::Games(
            text.trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=MAX_GAMES).contains(n))
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "--games: expected a number of games from 1 to {MAX_GAMES}, found {text:?}"
                    ))
                })?,
        ),
    };
    let bot = match parsed.value("bot") {
        None => Bot::Random,
        Some(text) => Bot::parse(text).map_err(|m| CliError::Usage(format!("--bot: {m}")))?,
    };
    let mut config = setup::config_from_options(&parsed, &setup::DEFAULTS)?;
    bot.check(&config)
        .map_err(|m| CliError::Usage(format!("--bot: {m}")))?;
    let description = setup::describe(&config);
    let first_seed = config.seed;
    let mut rng = Rng::new(first_seed ^ PICK_SEED_MIX);
    let mut games = 0u64;
    let mut decisions = 0u64;
    let (mut iterations, mut searched, mut search_time) = (0u64, 0u64, Duration::ZERO);
    let start = Instant::now();
    // Each game after the first starts again in the memory of the last
    // (`Game::restart`), as the batched environments play theirs.
    let mut game = Game::new(config.clone()).map_err(|e| CliError::Usage(e.to_string()))?;
    loop {
        config.seed = first_seed.wrapping_add(games);
        if games > 0 {
            game.restart(config.seed);
        }
        while !game.is_terminal() {
            // The legal list is read where the game keeps it, not copied.
            let legal = game.legal();
            if legal.is_empty() {
                return Err(CliError::Failed(format!(
                    "the engine offers no action in phase {:?} (game seed {})",
                    game.phase(),
                    config.seed
                )));
            }
            let pick = match bot {
                Bot::Random => legal[rng.below(legal.len() as u32) as usize],
                Bot::Mcts(mcts) => {
                    let report = mcts.search(&game, &mut rng);
                    if report.iterations > 0 {
                        iterations += report.iterations;
                        searched += 1;
                        search_time += report.elapsed;
                    }
                    report.action
                }
                other => other.choose(&game, legal, &mut rng),
            };
            game.apply_unchecked(pick);
            decisions += 1;
        }
        games += 1;
        let done = match stop {
            Stop::After(budget) => start.elapsed() >= budget,
            Stop::Games(n) => games >= n,
        };
        if done {
            break;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let mut text = format!(
        "bench: {games} games, {decisions} decisions ({:.1} per game) in {elapsed:.2} s on one thread; {description}; player {bot}\n\
         games/s: {:.1} decisions/s: {:.0}\n",
        decisions as f64 / games as f64,
        games as f64 / elapsed,
        decisions as f64 / elapsed
    );
    if let Bot::Mcts(_) = bot {
        let secs = search_time.as_secs_f64();
        text.push_str(&format!(
            "{searched} searches, {iterations} iterations in {secs:.2} s of search, {:.1} ms per search\n\
             iterations/s: {:.0}\n",
            secs * 1000.0 / searched.max(1) as f64,
            iterations as f64 / secs.max(1e-9)
        ));
    }
    emit(&text);
    Ok(Outcome::Success)
}
