//! `_core.selfplay`: self-play games with tree search on several threads
//! (`carcassonne_session::selfplay`), their training rows as numpy arrays or, with
//! `out`, written into a dataset (`carcassonne_session::dataset`) with the search's
//! targets.

use crate::convert::{arg_in_range, config_from_args, ConfigArgs, Int, Seed};
use crate::errors::{invalid_argument, invalid_config, state_error};
use crate::game::{layout_from, spec_from};
use crate::search::{budget_from, call_evaluator, SearchTuning};
use crate::signals::SignalWatch;
use carcassonne_session::bots::Bot;
use carcassonne_session::dataset::{
    check_seat_name, write_selfplay, DatasetWriter, SelfPlayWriteError,
};
use carcassonne_session::encode::Layout;
use carcassonne_session::guided::{
    FlatEstimates, FlatEvaluator, FlatLeaves, LeafEvaluator, SearchError,
};
use carcassonne_session::selfplay::{Searcher, SelfPlay};
use numpy::ndarray::{Array1, Array2, Array4};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Plays `games` self-play games in which every seat searches every decision with more
/// than one legal action, on `threads` threads with the interpreter released, and returns
/// their training rows (see `carcassonne.selfplay`): a dict of `board` uint8 [N, C, W, W],
/// `globals` float32 [N, G], `action_mask` int8 [N, A], `policy` float32 [N, A] (the
/// search's visit shares over the ids, summing to 1 over the mask), `player` int32 [N],
/// `search_value` float32 [N] (the search's value for the deciding seat), `outcome`
/// float32 [N] (1 a win, 1/k a win shared by k, 0 a loss), `margin` int32 [N] (final
/// score minus the best opponent's), `game` int32 [N], `seeds` uint64 [games], `scores`
/// int32 [games, P], `seconds`. Game `g` is dealt from
/// `episode_seed(seed, 0, first_game + g)`; the
/// rows do not depend on `threads`. `budget` is iterations per decision (or `"50ms"`);
/// the first `sample_moves` searched decisions of a game draw their action by visit
/// share. With `evaluator` (as for `Game.search`) the search is guided by it, in batches
/// of `batch` leaves; it is called from every thread, with the interpreter held for the
/// call. `c`, `margin`, `playout`, `standing` and `standing_end` tune the search as for
/// `Game.search` (the last three with an evaluator only). Ctrl-C stops the run within 20 ms
/// (`KeyboardInterrupt`); an exception of the evaluator is raised as it is.
///
/// With `out`, the games are written into the dataset directory `out` (created if
/// needed) instead, with the search's targets, a part every `part_games` games
/// (default 64; given without `out` it is an error), under
/// the ids `selfplay-<seed>-<n>`; games already there are not played again, Ctrl-C
/// leaves the parts written whole, and `{"written", "present", "decisions"}` is
/// returned. Each seat is named in the `seats` column by the playout search's spec
/// (`mcts:150`) or, with an evaluator, by `seat_name` (default `guided:<budget>`; 1 to
/// 256 bytes, no control character, e.g. `net:<sha256 of the weights file>`).
#[pyfunction]
#[pyo3(signature = (games, budget=None, seed=Seed(0), first_game=Int(0), threads=Int(1), players=None, sets=None, edition=None, rules=None, figures=None, window=Int(24), preset="compact", sample_moves=Int(30), evaluator=None, batch=Int(8), c=None, margin=None, playout=None, standing=None, standing_end=None, out=None, part_games=None, seat_name=None), text_signature = "(games, budget=150, seed=0, first_game=0, threads=1, players=None, sets=None, edition=None, rules=None, figures=None, window=24, preset='compact', sample_moves=30, evaluator=None, batch=8, c=None, margin=None, playout=None, standing=None, standing_end=None, out=None, part_games=None, seat_name=None)")]
#[allow(clippy::too_many_arguments)]
pub fn selfplay<'py>(
    py: Python<'py>,
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
    preset: &str,
    sample_moves: Int,
    evaluator: Option<Bound<'py, PyAny>>,
    batch: Int,
    c: Option<f64>,
    margin: Option<f64>,
    playout: Option<f64>,
    standing: Option<f64>,
    standing_end: Option<f64>,
    out: Option<PathBuf>,
    part_games: Option<Int>,
    seat_name: Option<String>,
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
    let layout = layout_from(spec_from(window.0)?, preset, &config)?;
    let games = arg_in_range("games", games, 0, i64::from(SelfPlay::MAX_GAMES))? as u32;
    let threads = arg_in_range("threads", threads, 0, SelfPlay::MAX_THREADS as i64)? as usize;
    if threads == 0 {
        return Err(invalid_argument(format!(
            "threads: 0; expected 1 to {}",
            SelfPlay::MAX_THREADS
        )));
    }
    let sample_moves = arg_in_range("sample_moves", sample_moves, 0, i64::from(u32::MAX))? as u32;
    let seed = seed.0;
    let first_game = u64::try_from(first_game.0)
        .map_err(|_| invalid_argument(format!("first_game: {} is negative", first_game.0)))?;
    let part_games = match (&out, part_games) {
        (None, Some(_)) => {
            return Err(invalid_argument(
                "part_games: only with out (the dataset directory)",
            ))
        }
        (_, Some(n)) => arg_in_range("part_games", n, 1, 1_000_000)? as usize,
        (_, None) => 64,
    };
    if let Some(name) = &seat_name {
        if out.is_none() || evaluator.is_none() {
            return Err(invalid_argument(
                "seat_name: only with out and an evaluator (a playout search is named by its spec, mcts:150)",
            ));
        }
        check_seat_name(name).map_err(|m| invalid_argument(format!("seat_name: {m}")))?;
    }
    let tuning = SearchTuning::parse(
        evaluator.as_ref(),
        c,
        margin,
        playout,
        standing,
        standing_end,
    )?;
    let guided = tuning.guided(budget, u32::try_from(batch.0).unwrap_or(0));
    if evaluator.is_some() {
        guided
            .check()
            .map_err(|e| invalid_argument(e.to_string()))?;
    }
    let shared: Option<Py<PyAny>> = evaluator.map(Bound::unbind);
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    let make = |_thread: usize| -> Box<dyn LeafEvaluator + '_> {
        let layout_ref: Arc<Layout> = layout.clone();
        let evaluator = shared.as_ref().expect("guided runs have an evaluator");
        let raised = &raised;
        Box::new(FlatEvaluator::new(
            layout.clone(),
            move |leaves: &FlatLeaves<'_>, est: &mut FlatEstimates<'_>| {
                Python::attach(|py| {
                    call_evaluator(py, evaluator.bind(py), &layout_ref, leaves, est)
                })
                .map_err(|e| {
                    let message = e.to_string();
                    let mut slot = raised.lock().unwrap_or_else(|p| p.into_inner());
                    slot.get_or_insert(e);
                    message
                })
            },
        ))
    };
    let searcher = match &shared {
        Some(_) => Searcher::Guided(guided, &make),
        None => Searcher::Playouts(tuning.playouts(budget)),
    };
    let seat = match (&searcher, seat_name) {
        (Searcher::Playouts(mcts), _) => Bot::Mcts(*mcts).to_string(),
        (Searcher::Guided(..), Some(name)) => name,
        (Searcher::Guided(..), None) => format!("guided:{budget}"),
    };
    let mut run = SelfPlay {
        config: config.clone(),
        layout: layout.clone(),
        searcher,
        games,
        threads,
        seed,
        first_game,
        sample_moves,
    };
    let watch = SignalWatch::new();
    if let Some(dir) = out {
        let seats = vec![seat; config.players as usize];
        let result = py.detach(|| {
            let mut writer = DatasetWriter::open(&dir).map_err(SelfPlayWriteError::Dataset)?;
            writer.games_per_part = part_games;
            let mut last = Instant::now();
            write_selfplay(&mut writer, &mut run, u64::from(games), &seats, &mut || {
                watch.poll(&mut last)
            })
        });
        watch.into_result()?;
        let done = match result {
            Ok(done) => done,
            Err(SelfPlayWriteError::Search(e)) => return Err(search_error(e, &raised)),
            Err(SelfPlayWriteError::Dataset(e)) => return Err(invalid_argument(e.to_string())),
            Err(e) => return Err(state_error(e.to_string())),
        };
        let d = PyDict::new(py);
        d.set_item("written", done.written)?;
        d.set_item("present", done.present)?;
        d.set_item("decisions", done.decisions)?;
        return Ok(d);
    }
    let started = Instant::now();
    let result = py.detach(|| {
        let mut last = Instant::now();
        run.run(&mut || watch.poll(&mut last))
    });
    let seconds = started.elapsed().as_secs_f64();
    watch.into_result()?;
    let rows = result.map_err(|e| search_error(e, &raised))?;
    let n = rows.len();
    let w = layout.window() as usize;
    let (c_planes, g, a) = (
        layout.num_planes(),
        layout.num_globals(),
        layout.num_actions(),
    );
    let p = config.players as usize;
    let out = PyDict::new(py);
    let board = Array4::from_shape_vec((n, c_planes, w, w), rows.planes).expect("planes");
    out.set_item("board", board.into_pyarray(py))?;
    let globals = Array2::from_shape_vec((n, g), rows.globals).expect("globals");
    out.set_item("globals", globals.into_pyarray(py))?;
    let masks = Array2::from_shape_vec((n, a), rows.masks).expect("masks");
    out.set_item("action_mask", masks.into_pyarray(py))?;
    let policies = Array2::from_shape_vec((n, a), rows.policies).expect("policies");
    out.set_item("policy", policies.into_pyarray(py))?;
    let player: Array1<i32> = rows.players.iter().map(|p| i32::from(*p)).collect();
    out.set_item("player", player.into_pyarray(py))?;
    out.set_item(
        "search_value",
        Array1::from_vec(rows.search_values).into_pyarray(py),
    )?;
    out.set_item("outcome", Array1::from_vec(rows.outcomes).into_pyarray(py))?;
    out.set_item("margin", Array1::from_vec(rows.margins).into_pyarray(py))?;
    let game: Array1<i32> = rows.game_index.iter().map(|g| *g as i32).collect();
    out.set_item("game", game.into_pyarray(py))?;
    out.set_item("seeds", Array1::from_vec(rows.seeds).into_pyarray(py))?;
    let mut scores = Array2::<i32>::zeros((rows.scores.len(), p));
    for (i, s) in rows.scores.iter().enumerate() {
        for (j, v) in s.iter().enumerate() {
            scores[[i, j]] = *v;
        }
    }
    out.set_item("scores", scores.into_pyarray(py))?;
    out.set_item("seconds", seconds)?;
    Ok(out)
}

/// The exception of a failed run: the evaluator's own exception when it raised one.
fn search_error(e: SearchError, raised: &Mutex<Option<PyErr>>) -> PyErr {
    match e {
        SearchError::Evaluator(m) => {
            match raised.lock().unwrap_or_else(|p| p.into_inner()).take() {
                Some(e) => e,
                None => invalid_argument(format!("evaluator: {m}")),
            }
        }
        SearchError::Settings(m) => invalid_config(m),
        e => state_error(e.to_string()),
    }
}
