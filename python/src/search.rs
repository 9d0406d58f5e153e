//! `Game.search`: the built-in tree search's view of a decision (visit shares of the legal
//! actions and of the flat ids, every seat's value), with random playouts or with a
//! Python evaluator (a network) at the leaves (`carcassonne_session::guided`).

use crate::convert::number;
use crate::errors::{invalid_argument, state_error};
use crate::signals::SignalWatch;
use carcassonne::Rng;
use carcassonne_session::encode::Layout;
use carcassonne_session::guided::{
    flat_policy, FlatEstimates, FlatEvaluator, FlatLeaves, GuidedSearch, SearchError,
};
use carcassonne_session::mcts::{parse_budget, Budget, Evaluation, MctsConfig};
use carcassonne_session::session::Session;
use numpy::ndarray::{Array2, Array4};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

/// A budget from Python: an int of iterations or a string (`"200"`, `"50ms"`).
pub fn budget_from(budget: &Bound<'_, PyAny>) -> PyResult<Budget> {
    if let Ok(n) = budget.extract::<i64>() {
        if budget.is_instance_of::<pyo3::types::PyBool>() {
            return Err(invalid_argument(
                "budget: a bool; expected iterations (200) or a time (\"50ms\")",
            ));
        }
        let n = u32::try_from(n)
            .ok()
            .filter(|n| (1..=Budget::MAX_ITERATIONS).contains(n))
            .ok_or_else(|| {
                invalid_argument(format!(
                    "budget: {n} iterations; expected 1 to {}",
                    Budget::MAX_ITERATIONS
                ))
            })?;
        return Ok(Budget::Iterations(n));
    }
    let text: String = budget.extract().map_err(|_| {
        invalid_argument("budget: expected iterations (an int, 200) or a time (\"50ms\")")
    })?;
    parse_budget(&text).map_err(invalid_argument)
}

/// The settings of `Game.search` besides the game.
pub struct SearchArgs<'py> {
    pub budget: Budget,
    pub seed: u64,
    pub evaluator: Option<Bound<'py, PyAny>>,
    pub batch: u32,
    pub tuning: SearchTuning,
}

/// The tuning both `Game.search` and `selfplay` take, checked once: the exploration
/// constant and the weights of the reward's margin, of a leaf's playout and of its
/// standings, each `None` when not given (the search's default).
#[derive(Clone, Copy, Debug)]
pub struct SearchTuning {
    c_centi: Option<u16>,
    margin_percent: Option<u8>,
    playout_percent: Option<u8>,
    standing_percent: Option<u8>,
    standing_end_percent: Option<u8>,
}

impl SearchTuning {
    /// Checks the Python arguments: `c` 0 to 10 (UCT or PUCT), `margin` (weight of the
    /// smooth score margin in the reward of a finished game), `playout` and `standing`
    /// (weights of a random playout and of the standings in each leaf's value) and
    /// `standing_end` (the standings' weight at the end of the game) 0 to 1. The last
    /// three belong to a guided search: refused without an `evaluator`, which must be
    /// callable.
    pub fn parse(
        evaluator: Option<&Bound<'_, PyAny>>,
        c: Option<f64>,
        margin: Option<f64>,
        playout: Option<f64>,
        standing: Option<f64>,
        standing_end: Option<f64>,
    ) -> PyResult<Self> {
        if evaluator.is_some_and(|e| !e.is_callable()) {
            return Err(invalid_argument(
                "evaluator: not callable; expected f(batch) -> (priors, values)",
            ));
        }
        let c_centi = match c {
            Some(c) if !(0.0..=10.0).contains(&c) => {
                return Err(invalid_argument(format!(
                    "c: {}; expected 0 to 10",
                    number(c)
                )))
            }
            c => c.map(|c| (c * 100.0).round() as u16),
        };
        let tuning = SearchTuning {
            c_centi,
            margin_percent: weight_percent("margin", margin)?,
            playout_percent: weight_percent("playout", playout)?,
            standing_percent: weight_percent("standing", standing)?,
            standing_end_percent: weight_percent("standing_end", standing_end)?,
        };
        if evaluator.is_none() {
            for (name, percent) in [
                ("playout", tuning.playout_percent),
                ("standing", tuning.standing_percent),
                ("standing_end", tuning.standing_end_percent),
            ] {
                if percent.is_some() {
                    return Err(invalid_argument(format!(
                        "{name}: a guided search's setting (give an evaluator); without one every leaf is played out"
                    )));
                }
            }
        }
        Ok(tuning)
    }

    /// The `mcts` player's search with random playouts, with this tuning.
    pub fn playouts(&self, budget: Budget) -> MctsConfig {
        let mut config = MctsConfig::new(budget);
        if let Some(centi) = self.c_centi {
            config.exploration_centi = centi;
        }
        if let Some(percent) = self.margin_percent {
            config.margin_percent = percent;
        }
        config
    }

    /// The guided search with `batch` leaves an evaluator call, with this tuning.
    pub fn guided(&self, budget: Budget, batch: u32) -> GuidedSearch {
        let mut settings = GuidedSearch::new(budget);
        settings.batch = batch;
        if let Some(centi) = self.c_centi {
            settings.c_puct_centi = centi;
        }
        if let Some(percent) = self.margin_percent {
            settings.margin_percent = percent;
        }
        if let Some(percent) = self.playout_percent {
            settings.playout_percent = percent;
        }
        if let Some(percent) = self.standing_percent {
            settings.standing_percent = percent;
        }
        settings.standing_end_percent = self.standing_end_percent;
        settings
    }
}

/// The weight `value` of argument `name` (0 to 1, or not given) as the searches'
/// percentage.
fn weight_percent(name: &str, value: Option<f64>) -> PyResult<Option<u8>> {
    match value {
        Some(w) if !(0.0..=1.0).contains(&w) => Err(invalid_argument(format!(
            "{name}: {}; expected a weight 0 to 1",
            number(w)
        ))),
        w => Ok(w.map(|w| (w * 100.0).round() as u8)),
    }
}

/// Calls the Python evaluator on a batch: a dict of `board` uint8 [k, C, W, W],
/// `globals` float32 [k, G] and `action_mask` int8 [k, A]; it returns `(priors,
/// values)`: priors [k, A], values [k] (the deciding seat's) or [k, P] (by seat relative
/// to the deciding one).
pub fn call_evaluator<'py>(
    py: Python<'py>,
    evaluator: &Bound<'py, PyAny>,
    layout: &Layout,
    leaves: &FlatLeaves<'_>,
    est: &mut FlatEstimates<'_>,
) -> PyResult<()> {
    let k = leaves.count;
    let w = layout.window() as usize;
    let (c, g, a) = (
        layout.num_planes(),
        layout.num_globals(),
        layout.num_actions(),
    );
    let players = est.values.len() / k.max(1);
    let batch = PyDict::new(py);
    let board = Array4::from_shape_vec((k, c, w, w), leaves.planes.to_vec())
        .expect("the planes of k leaves");
    batch.set_item("board", board.into_pyarray(py))?;
    let globals = Array2::from_shape_vec((k, g), leaves.globals.to_vec()).expect("globals");
    batch.set_item("globals", globals.into_pyarray(py))?;
    let masks = Array2::from_shape_vec((k, a), leaves.masks.to_vec()).expect("masks");
    batch.set_item("action_mask", masks.into_pyarray(py))?;
    let answer = evaluator.call1((batch,))?;
    let (priors, values): (Bound<'py, PyAny>, Bound<'py, PyAny>) =
        answer.extract().map_err(|_| {
            invalid_argument(format!(
                "evaluator: returned {}; expected a tuple (priors [k, A], values [k] or [k, P])",
                answer
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
    let numpy = py.import("numpy")?;
    let as_f32 = |x: &Bound<'py, PyAny>| numpy.call_method1("ascontiguousarray", (x, "float32"));
    let priors = as_f32(&priors)?;
    let priors: PyReadonlyArrayDyn<'_, f32> = priors
        .extract()
        .map_err(|_| invalid_argument("evaluator: the priors are not a numeric array"))?;
    if priors.shape() != [k, a] {
        return Err(invalid_argument(format!(
            "evaluator: priors of shape {:?}; expected [{k}, {a}] (leaves, flat ids)",
            priors.shape()
        )));
    }
    est.priors
        .copy_from_slice(priors.as_slice().expect("a contiguous array"));
    let values = as_f32(&values)?;
    let values: PyReadonlyArrayDyn<'_, f32> = values
        .extract()
        .map_err(|_| invalid_argument("evaluator: the values are not a numeric array"))?;
    let slice = values.as_slice().expect("a contiguous array");
    if values.shape() == [k] {
        for (row, v) in est.values.chunks_mut(players).zip(slice) {
            row[0] = *v;
        }
    } else if values.shape() == [k, players] {
        est.values.copy_from_slice(slice);
    } else {
        return Err(invalid_argument(format!(
            "evaluator: values of shape {:?}; expected [{k}] (the deciding seat's) or [{k}, {players}] (by seat relative to it)",
            values.shape()
        )));
    }
    Ok(())
}

/// Searches the decision of `session` and returns the dict of `Game.search`.
pub fn search<'py>(
    py: Python<'py>,
    session: &mut Session,
    args: SearchArgs<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = session.game().clone();
    let layout = session.current_layout();
    let eval: Evaluation = match &args.evaluator {
        None => {
            let config = args.tuning.playouts(args.budget);
            check_decision(&game)?;
            let watch = SignalWatch::new();
            let eval = py.detach(|| {
                let mut last = Instant::now();
                config.evaluate_while(&game, &mut Rng::new(args.seed), &mut || {
                    watch.poll(&mut last)
                })
            });
            watch.into_result()?;
            eval.ok_or_else(|| state_error("the search was stopped"))?
        }
        Some(evaluator) => {
            let settings = args.tuning.guided(args.budget, args.batch);
            let raised: RefCell<Option<PyErr>> = RefCell::new(None);
            let layout_ref: Arc<Layout> = layout.clone();
            let mut flat = FlatEvaluator::new(
                layout.clone(),
                |leaves: &FlatLeaves<'_>, est: &mut FlatEstimates<'_>| {
                    call_evaluator(py, evaluator, &layout_ref, leaves, est).map_err(|e| {
                        let message = e.to_string();
                        *raised.borrow_mut() = Some(e);
                        message
                    })
                },
            );
            let result = settings.evaluate(&game, args.seed, &mut flat);
            drop(flat);
            match result {
                Ok(eval) => eval,
                Err(SearchError::Evaluator(m)) => {
                    return Err(match raised.into_inner() {
                        Some(e) => e,
                        None => invalid_argument(format!("evaluator: {m}")),
                    })
                }
                Err(e @ (SearchError::GameOver | SearchError::ChanceNode)) => {
                    return Err(state_error(e.to_string()))
                }
                Err(e) => return Err(invalid_argument(e.to_string())),
            }
        }
    };
    let mut policy = vec![0f32; session.num_actions()];
    let covered =
        flat_policy(session, &eval, &mut policy).map_err(|e| invalid_argument(e.to_string()))?;
    let best = eval
        .actions
        .iter()
        .position(|a| a.action == eval.best().action)
        .unwrap_or(0);
    let out = PyDict::new(py);
    out.set_item(
        "shares",
        PyArray1::from_iter(py, eval.actions.iter().map(|a| a.share)),
    )?;
    out.set_item(
        "visits",
        PyArray1::from_iter(py, eval.actions.iter().map(|a| a.visits as i64)),
    )?;
    out.set_item(
        "mean_rewards",
        PyArray1::from_iter(
            py,
            eval.actions
                .iter()
                .map(|a| a.mean_reward.unwrap_or(f64::NAN)),
        ),
    )?;
    out.set_item("policy", policy.into_pyarray(py))?;
    out.set_item("policy_coverage", covered)?;
    out.set_item("values", PyArray1::from_vec(py, eval.values.clone()))?;
    out.set_item("value", eval.value)?;
    out.set_item("player", eval.player)?;
    out.set_item("iterations", eval.iterations)?;
    out.set_item("best", best)?;
    out.set_item("seconds", eval.elapsed.as_secs_f64())?;
    Ok(out)
}

/// Refuses a finished game and a game waiting for a draw, as the guided search does.
fn check_decision(game: &carcassonne::Game) -> PyResult<()> {
    match game.phase() {
        carcassonne::Phase::GameOver => Err(state_error(SearchError::GameOver.to_string())),
        phase if phase.is_chance() => Err(state_error(SearchError::ChanceNode.to_string())),
        _ => Ok(()),
    }
}
