//! `carcassonne play`: a complete game between built-in bots, its final board and
//! scores, and its record.

use crate::args::OptSpec;
use crate::setup::{self, SetupDefaults};
use crate::{emit, CliError, Outcome};
use carcassonne::{Game, Rng};
use carcassonne_session::bots::{parse_bots, Bot};
use carcassonne_session::encode::EncoderSpec;
use carcassonne_session::session::Session;
use carcassonne_session::{record, render};
use std::fmt::Write as _;

/// Help text.
pub const HELP: &str = "\
carcassonne play: play a complete game between built-in bots

usage: carcassonne play [options]

options:
  --players N          number of players, 2 to 6 (default 4)
  --sets LIST          comma-separated tile sets, base required (default: every set:
                       {sets})
  --edition E          tile edition C1, C2 or C3 (default C2)
  --seed S             seed of the tile draws and of the bots (default 0)
  --rule KEY=VALUE     a rule switch, repeatable: {rules}
  --abbot 0|1          whether each player has the abbot (default 1)
  --bots LIST          random, greedy or mcts:<budget>, one for all seats or one per
                       seat (default random); greedy takes the action with the best
                       points gained this turn minus the most points an opponent gains
                       (a bazaar bid counts as its cost);
                       mcts:2000 searches 2000 iterations per decision, mcts:100ms a
                       tenth of a second (`carcassonne match --help` lists its options)
  --out FILE           where to write the game record (default game-record.json)
  -h, --help           show this text

Each player has 7 followers and the figures and tiles of the sets in play (the record's
`setup.figures` lists them). Prints the final board, the scores and the record's path.
";

/// Seeds the bots' generator from the game seed, apart from the tile draws.
const BOT_SEED_MIX: u64 = 0xB075_5EED_0000_0001;

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let options = [OptSpec::once("bots"), OptSpec::once("out")];
    let Some(parsed) = setup::parse_setup_command(words, &options, HELP)? else {
        return Ok(Outcome::Success);
    };
    let defaults = SetupDefaults {
        players: 4,
        sets: setup::all_sets(),
        abbot: 1,
    };
    let config = setup::config_from_options(&parsed, &defaults)?;
    let players = config.players as usize;
    let bots = match parsed.value("bots") {
        Some(text) => {
            parse_bots(text, players).map_err(|m| CliError::Usage(format!("--bots: {m}")))?
        }
        None => vec![Bot::Random; players],
    };
    let out_path = parsed.value("out").unwrap_or("game-record.json");
    if out_path.is_empty() {
        return Err(CliError::Usage("--out: empty file name".into()));
    }

    let description = setup::describe(&config);
    let id = format!("play-{}p-seed{}", config.players, config.seed);
    let mut rng = Rng::new(config.seed ^ BOT_SEED_MIX);
    let game = Game::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut session = Session::new(game, EncoderSpec::default());
    let mut decisions = 0u64;
    while !session.game().is_terminal() {
        let (game, legal) = session.decision();
        if legal.is_empty() {
            return Err(CliError::Failed(format!(
                "the engine offers no action in phase {:?} (turn {})",
                game.phase(),
                game.turns().len()
            )));
        }
        let bot = bots[game.to_play()];
        let action = bot.choose(game, legal, &mut rng);
        session.apply(action).map_err(|e| {
            CliError::Failed(format!(
                "the {bot} bot chose an action the engine refused: {e}"
            ))
        })?;
        decisions += 1;
    }
    let game = session.into_game();

    let mut text = String::new();
    let names: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    let _ = writeln!(text, "game: {description}; bots {}", names.join(","));
    text.push('\n');
    text.push_str(&render::board_text(&game));
    let _ = writeln!(
        text,
        "\n{} turns, {} decisions\nfinal scores:",
        game.turns().len(),
        decisions
    );
    let best = game.scores().iter().copied().max().unwrap_or(0);
    for (seat, score) in game.scores().iter().enumerate() {
        let mark = if *score == best { "  (winner)" } else { "" };
        let _ = writeln!(text, "  seat {seat} ({}): {score}{mark}", bots[seat]);
    }
    let mut json = record::to_json(&game, &id);
    json.push('\n');
    std::fs::write(out_path, json)
        .map_err(|e| CliError::Failed(format!("cannot write the record to {out_path}: {e}")))?;
    let _ = writeln!(text, "record written to {out_path}");
    emit(&text);
    Ok(Outcome::Success)
}
