//! `carcassonne bench`: random games on one thread for a fixed time, reported as games
//! and decisions per second.

use crate::args::OptSpec;
use crate::setup::{self, SetupDefaults};
use crate::{emit, CliError, Outcome};
use carcassonne::{Game, Rng, TileSet};
use std::time::{Duration, Instant};

/// Help text.
pub const HELP: &str = "\
carcassonne bench: measure the engine with random play

usage: carcassonne bench [options]

options:
  --players P          number of players, 2 to 6 (default 2)
  --sets LIST          comma-separated tile sets, base required (default base)
  --seconds S          how long to play, in seconds (default 5)
  --abbot 0|1          whether each player has the abbot (default 0)
  --seed S             seed of the first game; game k uses S + k (default 0)
  --edition E          tile edition C1, C2 or C3 (default C2)
  --rule KEY=VALUE     a rule switch, repeatable (see `carcassonne play --help`)
  -h, --help           show this text

Plays complete games one after another on one thread, each decision a uniformly random
legal action, until the time is up (the last game is finished). Prints a summary line,
then a last line `games/s: G decisions/s: D`.
";

/// Seeds the move picker apart from the tile draws.
const PICK_SEED_MIX: u64 = 0xBE4C_0000_0000_0001;

/// Longest accepted run, in seconds (one day).
const MAX_SECONDS: f64 = 86_400.0;

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let Some(parsed) = setup::parse_setup_command(words, &[OptSpec::once("seconds")], HELP)? else {
        return Ok(Outcome::Success);
    };
    let seconds = match parsed.value("seconds") {
        None => 5.0,
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
    let defaults = SetupDefaults {
        players: 2,
        sets: vec![TileSet::Base],
        abbot: 0,
    };
    let mut config = setup::config_from_options(&parsed, &defaults)?;
    let description = setup::describe(&config);
    let first_seed = config.seed;
    let budget = Duration::from_secs_f64(seconds);
    let mut rng = Rng::new(first_seed ^ PICK_SEED_MIX);
    let mut legal = Vec::with_capacity(512);
    let mut games = 0u64;
    let mut decisions = 0u64;
    let start = Instant::now();
    loop {
        config.seed = first_seed.wrapping_add(games);
        let mut game = Game::new(config.clone()).map_err(|e| CliError::Usage(e.to_string()))?;
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            if legal.is_empty() {
                return Err(CliError::Failed(format!(
                    "the engine offers no action in phase {:?} (game seed {})",
                    game.phase(),
                    config.seed
                )));
            }
            let pick = legal[rng.below(legal.len() as u32) as usize];
            game.apply_unchecked(pick);
            decisions += 1;
        }
        games += 1;
        if start.elapsed() >= budget {
            break;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    emit(&format!(
        "bench: {games} games, {decisions} decisions ({:.1} per game) in {elapsed:.2} s on one thread; {description}\n\
         games/s: {:.1} decisions/s: {:.0}\n",
        decisions as f64 / games as f64,
        games as f64 / elapsed,
        decisions as f64 / elapsed
    ));
    Ok(Outcome::Success)
}
