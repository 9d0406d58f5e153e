//! `_core.dataset_selfplay`: self-play games with tree search written into a dataset of
//! Parquet tables (`carcassonne_session::dataset`), with the search's targets.

use crate::convert::{arg_in_range, config_from_args, ConfigArgs, Int, Seed};
use crate::errors::{invalid_argument, invalid_config, state_error};
use crate::game::spec_from;
use crate::search::budget_from;
use crate::signals::SignalWatch;
use carcassonne_session::bots::Bot;
use carcassonne_session::dataset::{write_selfplay, DatasetWriter, SelfPlayWriteError};
use carcassonne_session::encode::{Layout, Preset};
use carcassonne_session::guided::SearchError;
use carcassonne_session::mcts::MctsConfig;
use carcassonne_session::selfplay::{Searcher, SelfPlay};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Plays self-play games `first_game..first_game + games` of `seed` with the playout search of `budget`
/// iterations per decision (or `"50ms"`) at every seat, on `threads` threads with the
/// interpreter released, and writes them into the dataset directory `out` (created if
/// needed), a part every `part_games` games; returns `{"written", "present",
/// "decisions"}`. Games already in `out` are not played again (docs/dataset.md). Ctrl-C
/// stops the run within 20 ms (`KeyboardInterrupt`); the parts written stay whole.
#[pyfunction]
#[pyo3(signature = (out, games, budget=None, seed=Seed(0), first_game=Int(0), threads=Int(1), players=None, sets=None, edition=None, rules=None, figures=None, window=Int(24), sample_moves=Int(30), part_games=Int(64)), text_signature = "(out, games, budget=150, seed=0, first_game=0, threads=1, players=None, sets=None, edition=None, rules=None, figures=None, window=24, sample_moves=30, part_games=64)")]
#[allow(clippy::too_many_arguments)]
pub fn dataset_selfplay<'py>(
    py: Python<'py>,
    out: PathBuf,
    games: Int,
    budget: Option<&Bound<'py, PyAny>>,
    seed: Seed,
    first_game: Int,
    threads: Int,
    players: Option<&Bound<'py, PyAny>>,
    sets: Option<&Bound<'py, PyAny>>,
    edition: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    figures: Option<&Bound<'py, PyAny>>,
    window: Int,
    sample_moves: Int,
    part_games: Int,
) -> PyResult<Bound<'py, PyDict>> {
    let default_budget = 150i64.into_pyobject(py)?.into_any();
    let budget = budget_from(budget.unwrap_or(&default_budget))?;
    let config = config_from_args(ConfigArgs {
        players,
        sets,
        edition,
        rules,
        figures,
        seed: None,
        start: None,
    })?;
    let games = arg_in_range("games", games, 0, i64::from(SelfPlay::MAX_GAMES))? as u64;
    let threads = arg_in_range("threads", threads, 1, SelfPlay::MAX_THREADS as i64)? as usize;
    let sample_moves = arg_in_range("sample_moves", sample_moves, 0, i64::from(u32::MAX))? as u32;
    let part_games = arg_in_range("part_games", part_games, 1, 1_000_000)? as usize;
    let first_game = arg_in_range("first_game", first_game, 0, i64::MAX)? as u64;
    let seed = seed.0;
    let layout = Arc::new(Layout::new(spec_from(window.0)?, Preset::Compact, &config));
    let mcts = MctsConfig::new(budget);
    let mut run = SelfPlay::new(config.clone(), layout, Searcher::Playouts(mcts));
    run.threads = threads;
    run.seed = seed;
    run.first_game = first_game;
    run.sample_moves = sample_moves;
    run.check().map_err(|e| invalid_config(e.to_string()))?;
    let seats = vec![Bot::Mcts(mcts).to_string(); config.players as usize];
    let watch = SignalWatch::new();
    let result = py.detach(|| {
        let mut writer = DatasetWriter::open(&out).map_err(SelfPlayWriteError::Dataset)?;
        writer.games_per_part = part_games;
        let mut last = Instant::now();
        write_selfplay(&mut writer, &mut run, games, &seats, &mut || {
            watch.poll(&mut last)
        })
    });
    watch.into_result()?;
    let done = match result {
        Ok(done) => done,
        Err(SelfPlayWriteError::Search(SearchError::Settings(m))) => return Err(invalid_config(m)),
        Err(SelfPlayWriteError::Dataset(e)) => return Err(invalid_argument(e.to_string())),
        Err(e) => return Err(state_error(e.to_string())),
    };
    let d = PyDict::new(py);
    d.set_item("written", done.written)?;
    d.set_item("present", done.present)?;
    d.set_item("decisions", done.decisions)?;
    Ok(d)
}
