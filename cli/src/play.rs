//! `carcassonne play`: a complete game between built-in bots, its final board, where
//! each seat's points came from, and its record.

use crate::args::OptSpec;
use crate::progress::{self, Progress};
use crate::setup;
use crate::{emit, CliError, Outcome};
use carcassonne::{Game, Rng};
use carcassonne_session::bots::{parse_bots, Bot};
use carcassonne_session::encode::EncoderSpec;
use carcassonne_session::session::Session;
use carcassonne_session::{record, render};
use std::fmt::Write as _;

/// The bots of `play` when `--bots` is not given.
pub const DEFAULT_BOTS: &str = "greedy";

/// Help text.
pub const HELP: &str = "\
carcassonne play: play a complete game between built-in bots, or against them

usage: carcassonne play [options]

options:
{players_line}
{setup}
  --seed S             seed of the tile draws and of the bots (default 0)
  --bots LIST          random, greedy, heuristic, mcts:<budget> or net, one for all
                       seats or one per seat (default greedy); greedy takes the action
                       with the best points gained this turn minus the most points an
                       opponent gains (a bazaar bid counts as its cost); heuristic breaks
                       greedy's ties as a club player does (docs/bots.md);
                       mcts:2000 searches 2000 iterations per decision, mcts:100ms a
                       tenth of a second (`carcassonne match --help` lists its options);
                       net is the learned network of the 2-player base game (it wins
                       57 % of its games against mcts:150 and 24 % against mcts:500;
                       docs/bots.md), net:FILE.onnx a network of a file
  --out FILE           where to write the game record (default game-record.json; a new
                       game with --human that finds it there, an earlier game, writes
                       to game-record-2.json, -3, ... instead and says so)
  --human SEAT         a person plays this seat in the terminal (repeatable; seats from
                       0); --bots then names the bots of the other seats, one for all or
                       one per seat (default greedy). Type ? at the prompt for help
  --resume FILE        go on with the game of a record that `play --human` wrote (its
                       setup comes from the record; it is written back to FILE unless
                       --out is given)
  -h, --help           show this text

`play` and `match` share their defaults: `carcassonne play` is a 2-player base game
between two greedy players. Each player has 7 followers and the figures and tiles of the
sets in play (the record's `setup.figures` lists them). Prints the final board, where
each seat's points came from (one column per kind of scoring) and the record's path. A
game that lasts more than a second shows its progress on standard error.
";

/// Seeds the bots' generator from the game seed, apart from the tile draws.
const BOT_SEED_MIX: u64 = 0xB075_5EED_0000_0001;

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let options = [
        OptSpec::once("bots"),
        OptSpec::once("out"),
        OptSpec::many("human"),
        OptSpec::once("resume"),
    ];
    let Some(parsed) = setup::parse_setup_command(words, &options, HELP)? else {
        return Ok(Outcome::Success);
    };
    let bots_text = parsed.value("bots").unwrap_or(DEFAULT_BOTS);
    let defaults = setup::defaults_for(Some(bots_text));
    if parsed.values("human").next().is_some() || parsed.value("resume").is_some() {
        return crate::human::run(&parsed, &defaults, bots_text);
    }
    let config = setup::config_from_options(&parsed, &defaults)?;
    let players = config.players as usize;
    let bots: Vec<Bot> =
        parse_bots(bots_text, players).map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    for bot in &bots {
        bot.check(&config)
            .map_err(|m| CliError::Usage(format!("--bots: {m}")))?;
    }
    let out_path = parsed.value("out").unwrap_or("game-record.json");
    if out_path.is_empty() {
        return Err(CliError::Usage("--out: empty file name".into()));
    }

    let sets: Vec<&str> = config.sets.iter().map(|s| s.key()).collect();
    let header = format!(
        "game: {} players, edition {}, abbot {}, seed {}\nsets: {}\n",
        config.players,
        config.edition.name(),
        config.figures.abbot,
        config.seed,
        sets.join(",")
    );
    let id = format!("play-{}p-seed{}", config.players, config.seed);
    let mut rng = Rng::new(config.seed ^ BOT_SEED_MIX);
    let game = Game::new(config).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut session = Session::new(game, EncoderSpec::default());
    let mut decisions = 0u64;
    let mut progress = Progress::stderr();
    while !session.game().is_terminal() {
        let (game, legal) = session.decision();
        if legal.is_empty() {
            return Err(CliError::Failed(format!(
                "the engine offers no action in phase {:?} (turn {})",
                game.phase(),
                game.turns().len()
            )));
        }
        let seat = game.to_play();
        progress.update(|elapsed| {
            format!(
                "play: turn {}, {} tiles left, seat {seat} ({}) to play, {}",
                game.turns().len(),
                game.tiles_left(),
                bots[seat],
                progress::seconds(elapsed)
            )
        });
        let bot = bots[seat];
        let action = bot.choose(game, legal, &mut rng);
        session.apply(action).map_err(|e| {
            CliError::Failed(format!(
                "the {bot} bot chose an action the engine refused: {e}"
            ))
        })?;
        decisions += 1;
    }
    progress.finish();
    let game = session.into_game();

    let mut text = String::new();
    let names: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    text.push_str(&header);
    let _ = writeln!(text, "bots: {}\n", names.join(","));
    text.push_str(&render::board_text(&game));
    let _ = writeln!(
        text,
        "\n{} turns, {} decisions\nfinal scores:",
        game.turns().len(),
        decisions
    );
    text.push_str(&render::score_table(&game, &names));
    let mut json = record::to_json(&game, &id).map_err(|e| CliError::Failed(e.to_string()))?;
    json.push('\n');
    std::fs::write(out_path, json)
        .map_err(|e| CliError::Failed(format!("cannot write the record to {out_path}: {e}")))?;
    let _ = writeln!(text, "record written to {out_path}");
    emit(&text);
    Ok(Outcome::Success)
}
