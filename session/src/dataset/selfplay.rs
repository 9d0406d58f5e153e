//! Self-play games ([`crate::selfplay`]) written into a dataset with the search's targets.

use super::entry::{DecisionRow, GameEntry};
use super::write::DatasetWriter;
use super::DatasetError;
use crate::guided::SearchError;
use crate::matches::short_hash;
use crate::record::RecordError;
use crate::selfplay::{Rows, Searcher, SelfPlay};
use carcassonne::Game;
use std::fmt;

/// Why writing self-play games stopped.
#[derive(Debug)]
pub enum SelfPlayWriteError {
    /// The self-play run failed or was stopped.
    Search(SearchError),
    /// The dataset could not be written.
    Dataset(DatasetError),
    /// A game's record could not be made.
    Record(RecordError),
}

impl fmt::Display for SelfPlayWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelfPlayWriteError::Search(e) => write!(f, "self-play: {e}"),
            SelfPlayWriteError::Dataset(e) => write!(f, "dataset: {e}"),
            SelfPlayWriteError::Record(e) => write!(f, "record: {e}"),
        }
    }
}

impl std::error::Error for SelfPlayWriteError {}

/// The short hash in the ids of a self-play run's games: 8 hexadecimal digits of the
/// FNV-1a hash (as [`crate::matches::match_hash`]) of what decides the games and their
/// rows but the seed: who plays each seat (`seats`, e.g. `mcts:150` or a network's
/// name), the setup as records write it (`GameConfig::to_json`) with the seed set to 0,
/// the window of the targets' flat ids, `sample_moves`, and the search's settings (the
/// playout search's spec, `mcts:<budget>` and its options; or the guided search's
/// budget, batch, `c`, margin, playout, standing and standing_end). The seed, the games,
/// the first game, the threads and the observation preset are left out: the games do
/// not depend on them (the seed is in the id itself). A guided search's network is
/// named by `seats` only.
pub fn selfplay_hash(run: &SelfPlay<'_>, seats: &[String]) -> String {
    let mut config = run.config.clone();
    config.seed = 0;
    let search = match &run.searcher {
        Searcher::Playouts(mcts) => mcts.to_string(),
        Searcher::Guided(g, _) => format!(
            "guided:{}:batch={}:c={}:margin={}:playout={}:standing={}:standing_end={}",
            g.budget,
            g.batch,
            g.c_puct_centi,
            g.margin_percent,
            g.playout_percent,
            g.standing_percent,
            g.standing_end_percent
                .map_or("-".to_string(), |p| p.to_string()),
        ),
    };
    short_hash(&format!(
        "{}\n{}\nwindow={}\nsample_moves={}\n{search}",
        seats.join(","),
        config.to_json(),
        run.layout.window(),
        run.sample_moves,
    ))
}

/// The id of self-play game number `n` of a run with seed `seed` and hash `hash`
/// ([`selfplay_hash`]): `selfplay-<seed>-<n>-<hash>`. Game `n` is dealt and searched
/// from the seed and `n` only ([`crate::selfplay`]), so the id names the game of the
/// settings the hash covers.
pub fn selfplay_id(seed: u64, n: u64, hash: &str) -> String {
    format!("selfplay-{seed}-{n}-{hash}")
}

/// What [`write_selfplay`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfPlayWritten {
    /// Games played and written.
    pub written: u64,
    /// Games skipped because the dataset had their id already.
    pub present: u64,
    /// Decisions written.
    pub decisions: u64,
}

/// Plays games `run.first_game .. run.first_game + games` of `run` (its `games` and
/// `first_game` are set chunk by chunk) and writes them into `writer`, a part per
/// [`DatasetWriter::games_per_part`] games, with ids [`selfplay_id`] of the run's
/// [`selfplay_hash`] (so games of other settings are other games). A chunk whose
/// games are all in the dataset already is not played, so a rerun after an
/// interruption plays only the chunks not written. `seats` names who played each seat
/// (`mcts:150`). `go_on` is asked between decisions, as [`SelfPlay::run`] asks it.
pub fn write_selfplay(
    writer: &mut DatasetWriter,
    run: &mut SelfPlay<'_>,
    games: u64,
    seats: &[String],
    go_on: &mut dyn FnMut() -> bool,
) -> Result<SelfPlayWritten, SelfPlayWriteError> {
    let start = run.first_game;
    let hash = selfplay_hash(run, seats);
    let chunk = writer.games_per_part.max(1) as u64;
    let mut done = SelfPlayWritten::default();
    let mut first = start;
    while first < start + games {
        let n = chunk.min(start + games - first);
        let missing = (first..first + n)
            .filter(|g| !writer.contains(&selfplay_id(run.seed, *g, &hash)))
            .count() as u64;
        done.present += n - missing;
        if missing > 0 {
            run.first_game = first;
            run.games = n as u32;
            let rows = run.run(go_on).map_err(SelfPlayWriteError::Search)?;
            for entry in selfplay_entries(run, &rows, seats)? {
                let d = entry.decisions.len() as u64;
                if writer.add(entry).map_err(SelfPlayWriteError::Dataset)? {
                    done.written += 1;
                    done.decisions += d;
                }
            }
            writer.flush().map_err(SelfPlayWriteError::Dataset)?;
        }
        first += n;
    }
    run.first_game = start;
    Ok(done)
}

/// The games of a self-play run's rows as dataset entries: each game replayed from its
/// actions for its record, each row a decision with its targets as full flat ids of the
/// layout's window (zero shares left out).
pub fn selfplay_entries(
    run: &SelfPlay<'_>,
    rows: &Rows,
    seats: &[String],
) -> Result<Vec<GameEntry>, SelfPlayWriteError> {
    let layout = &run.layout;
    let a = rows.num_actions;
    let players = run.config.players as usize;
    let full = |id: usize| layout.to_full(id as u32).expect("an id of the layout");
    let mut decisions: Vec<Vec<DecisionRow>> = vec![Vec::new(); rows.actions.len()];
    for k in 0..rows.len() {
        let policy = &rows.policies[k * a..(k + 1) * a];
        let mask = &rows.masks[k * a..(k + 1) * a];
        let targets = policy
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .map(|(i, s)| (full(i), *s))
            .collect();
        decisions[rows.game_index[k] as usize].push(DecisionRow {
            player: rows.players[k],
            action: rows.action_index[k],
            legal: mask.iter().filter(|m| **m != 0).count() as u32,
            chosen: rows.chosen[k].map(|id| full(id as usize)),
            targets,
            values: rows.seat_values[k * players..(k + 1) * players].to_vec(),
            outcome: rows.outcomes[k],
            margin: rows.margins[k],
        });
    }
    let hash = selfplay_hash(run, seats);
    let mut entries = Vec::with_capacity(rows.actions.len());
    for (g, (actions, decisions)) in rows.actions.iter().zip(decisions).enumerate() {
        let mut config = run.config.clone();
        config.seed = rows.seeds[g];
        let mut game = Game::new(config).map_err(|e| {
            SelfPlayWriteError::Search(SearchError::Settings(format!("config: {e}")))
        })?;
        // The index of each action among the players' actions (draws not counted; an
        // abbey declined before a draw, not recorded, takes the index of the next one).
        let mut player_index = Vec::with_capacity(actions.len());
        for &action in actions {
            player_index.push(game.history_actions().len() as u32);
            game.apply(action)
                .expect("a self-play game's actions replay");
        }
        let mut decisions = decisions;
        for d in &mut decisions {
            d.action = player_index[d.action as usize];
        }
        let id = selfplay_id(run.seed, run.first_game + g as u64, &hash);
        let entry =
            GameEntry::from_game(game, &id, seats.to_vec(), Some(layout.window()), decisions)
                .map_err(SelfPlayWriteError::Record)?;
        entries.push(entry);
    }
    Ok(entries)
}
