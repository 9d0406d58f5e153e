//! `carcassonne._core.VectorEnv`: the batch engine of the session crate
//! ([`carcassonne_session::vector`]: a batch of games stepped by flat ids, with automatic
//! reset, rewards and saved states) behind a Python class. This file converts: the
//! arguments and their errors, caller-provided numpy arrays borrowed as the engine's
//! buffers (checked for dtype, shape and contiguity), Ctrl-C as the engine's
//! [`Interrupt`], and pickling through the engine's JSON state. Every call runs the engine
//! with the interpreter released.

use crate::convert::{config_from_args, seed_from, slice_mut, writable, ConfigArgs, Int, Seed};
use crate::errors::{
    concurrent_use_error, illegal, invalid_argument, invalid_config, invalid_record, state_error,
};
use crate::game::{layout_from, reward_from, spec_from, PyGame};
use crate::signals::SignalWatch;
use carcassonne_session::bots::Bot;
use carcassonne_session::json::echo;
use carcassonne_session::vector::{
    Autoreset, Batch, BatchError, BatchErrorKind, BatchSettings, IllegalPolicy, OutsidePolicy,
    StepBuffers, EXTERNAL, MAX_NUM_ENVS, MAX_THREADS,
};
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

/// A batch of games stepped natively.
///
/// One call at a time: a call made while another thread's call is running raises
/// `ConcurrentUseError` at once (the games are behind a lock that is never waited for).
#[pyclass(module = "carcassonne._core", name = "VectorEnv", frozen)]
pub struct VectorEnv {
    settings: Arc<BatchSettings>,
    num_envs: usize,
    state: Mutex<Batch>,
}

/// The Python exception of an engine error: `InvalidConfigError`, `InvalidArgumentError`,
/// `InvalidRecordError`, `IllegalActionError`, or `StateError` for a batch that needs a
/// reset.
fn batch_error(e: BatchError) -> PyErr {
    match e.kind {
        BatchErrorKind::InvalidConfig => invalid_config(e.message),
        BatchErrorKind::InvalidArgument => invalid_argument(e.message),
        BatchErrorKind::InvalidRecord => invalid_record(e.message),
        BatchErrorKind::IllegalAction => illegal(e.message),
        BatchErrorKind::NeedsReset => state_error(e.message),
    }
}

/// The error of a call made while another thread's call on the same batch runs.
fn concurrent_use() -> PyErr {
    concurrent_use_error(
        "VectorEnv: another thread is using this VectorEnv (a call is running); \
         give each thread its own VectorEnv",
    )
}

impl VectorEnv {
    fn from_batch(batch: Batch) -> VectorEnv {
        VectorEnv {
            settings: batch.settings().clone(),
            num_envs: batch.num_envs(),
            state: Mutex::new(batch),
        }
    }

    /// The games, for one call; `ConcurrentUseError` if another thread's call runs.
    fn batch(&self) -> PyResult<MutexGuard<'_, Batch>> {
        match self.state.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::WouldBlock) => Err(concurrent_use()),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        }
    }

    /// The batch's saved state (see [`Batch::state`]); `ConcurrentUseError` while another
    /// thread's call runs.
    fn state(&self) -> PyResult<Value> {
        Ok(self.batch()?.state())
    }

    /// A batch from the text of its state (pickling). Anything that is not the state of
    /// a batch, or contradicts itself (a learner seat that is not a seat, a game of
    /// another setup, a game waiting for an opponent), is an `InvalidRecordError`.
    pub fn from_state_text(text: &str) -> PyResult<VectorEnv> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| invalid_record(format!("state: invalid JSON: {e}")))?;
        Batch::from_state(&v)
            .map(VectorEnv::from_batch)
            .map_err(batch_error)
    }
}

/// Borrowed writable arrays of one call (kept alive while slices are in use).
type Rw<'py, T> = numpy::PyReadwriteArrayDyn<'py, T>;

#[pymethods]
impl VectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, players=None, sets=None, edition=None, rules=None, figures=None, seed=None, window=Int(32), reward="score", opponents=None, learner_seat=Some(Int(0)), outside_window="mask", illegal_action="raise", illegal_penalty=-1.0, autoreset="same-step", threads=Int(1), preset="full"), text_signature = "(num_envs, players=None, sets=None, edition=None, rules=None, figures=None, seed=None, window=32, reward='score', opponents=None, learner_seat=0, outside_window='mask', illegal_action='raise', illegal_penalty=-1.0, autoreset='same-step', threads=1, preset='full')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: Int,
        players: Option<&Bound<'_, PyAny>>,
        sets: Option<&Bound<'_, PyAny>>,
        edition: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        figures: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        window: Int,
        reward: &str,
        opponents: Option<&str>,
        learner_seat: Option<Int>,
        outside_window: &str,
        illegal_action: &str,
        illegal_penalty: f64,
        autoreset: &str,
        threads: Int,
        preset: &str,
    ) -> PyResult<VectorEnv> {
        let (num_envs, window, threads) = (num_envs.0, window.0, threads.0);
        if !(1..=MAX_NUM_ENVS as i64).contains(&num_envs) {
            return Err(invalid_config(format!(
                "num_envs: {num_envs}; 1 to {MAX_NUM_ENVS} games"
            )));
        }
        let config = config_from_args(ConfigArgs {
            players,
            sets,
            edition,
            rules,
            figures,
            seed,
            start: None,
        })?;
        let spec = spec_from(window)?;
        let layout = layout_from(spec, preset, &config)?;
        let mut settings = BatchSettings::new(config, layout);
        settings.reward = reward_from(reward)?;
        settings.external = opponents == Some(EXTERNAL);
        settings.opponent = match opponents {
            None => None,
            Some(_) if settings.external => None,
            Some(name) => {
                let bot =
                    Bot::parse(name).map_err(|m| invalid_config(format!("opponents: {m}")))?;
                bot.check(&settings.config)
                    .map_err(|m| invalid_config(format!("opponents: {m}")))?;
                Some(bot)
            }
        };
        settings.learner_seat = match learner_seat.map(|s| s.0) {
            None => None,
            Some(s) => Some(u8::try_from(s).map_err(|_| {
                invalid_config(format!(
                    "learner_seat: {s}; seats are 0..{}",
                    settings.config.players
                ))
            })?),
        };
        settings.outside = OutsidePolicy::from_name(outside_window).ok_or_else(|| {
            invalid_config(format!(
                "outside_window: unknown policy {} (mask, truncate)",
                echo(outside_window)
            ))
        })?;
        settings.illegal =
            IllegalPolicy::from_name(illegal_action, illegal_penalty).map_err(invalid_config)?;
        settings.autoreset = Autoreset::from_name(autoreset).ok_or_else(|| {
            invalid_config(format!(
                "autoreset: unknown mode {} (same-step, next-step, disabled)",
                echo(autoreset)
            ))
        })?;
        if !(1..=MAX_THREADS as i64).contains(&threads) {
            return Err(invalid_config(format!(
                "threads: {threads}; 1 to {MAX_THREADS}"
            )));
        }
        let batch =
            Batch::new(settings, num_envs as usize, threads as usize).map_err(batch_error)?;
        Ok(VectorEnv::from_batch(batch))
    }

    #[getter(num_envs)]
    fn get_num_envs(&self) -> usize {
        self.num_envs
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.settings.players()
    }

    #[getter]
    fn window(&self) -> u16 {
        self.settings.spec().window
    }

    #[getter]
    fn num_planes(&self) -> usize {
        self.settings.layout.num_planes()
    }

    #[getter]
    fn num_globals(&self) -> usize {
        self.settings.layout.num_globals()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.settings.layout.num_actions()
    }

    /// The observation preset.
    #[getter]
    fn preset(&self) -> &'static str {
        self.settings.layout.preset().name()
    }

    /// Sizes and names of the observations and ids (as `carcassonne.encoder_info`).
    fn encoder_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        crate::game::info_dict(py, &self.settings.layout)
    }

    /// The seed of each env's current game (`Game(seed=...)` with the same
    /// configuration plays the same draws).
    fn episode_seeds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let seeds = self.batch()?.episode_seeds();
        Ok(Array1::from_vec(seeds).into_pyarray(py))
    }

    /// The id the built-in player `kind` (`random`, `greedy`, `heuristic`,
    /// `mcts:<budget>...`) would take now in each env (int64 [N]; -1 where nothing is
    /// offered, and in the games that `active`, a bool array [N], leaves out). With a pending focus,
    /// the second id of the player's action if it goes through that focus, else the first
    /// offered id. `seed` seeds the players' tie-breaks. Runs with the interpreter
    /// released; Ctrl-C stops it within 20 ms, also during a search (`KeyboardInterrupt`,
    /// the games unchanged).
    #[pyo3(signature = (kind, seed=Seed(0), active=None), text_signature = "($self, kind, seed=0, active=None)")]
    fn builtin_actions<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        seed: Seed,
        active: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let active = active_games(active, self.num_envs)?;
        let bot = Bot::from_name(kind).ok_or_else(|| {
            invalid_argument(format!(
                "kind: unknown built-in player {} (known: {})",
                echo(kind),
                Bot::known_names()
            ))
        })?;
        bot.check(&self.settings.config)
            .map_err(|m| invalid_argument(format!("kind: {m}")))?;
        let mut batch = self.batch()?;
        let watch = SignalWatch::new();
        let games: &mut Batch = &mut batch;
        let out = py.detach(|| games.builtin_actions_of(bot, seed.0, active.as_deref(), &watch));
        watch.into_result()?;
        let out = out.ok_or_else(|| state_error("VectorEnv.builtin_actions: interrupted"))?;
        Ok(Array1::from_vec(out).into_pyarray(py))
    }

    /// Whether the games have a learning seat (built-in or external opponents).
    #[getter]
    fn single_agent(&self) -> bool {
        self.settings.single_agent()
    }

    /// Whether the opponents' decisions are returned (`opponents="external"`).
    #[getter]
    fn external_opponents(&self) -> bool {
        self.settings.external
    }

    /// The learner's seat in each game (single-agent mode; 0 in self-play).
    fn learner_seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let seats = self.batch()?.learner_seats();
        Ok(Array1::from_iter(seats.into_iter().map(i32::from)).into_pyarray(py))
    }

    /// Pickling and deep copies: the batch is rebuilt from its state (see the session
    /// crate's `vector` module) and continues identically.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py
            .import("carcassonne._core")?
            .getattr("_vector_env_from_state")?;
        Ok((restore, (self.state()?.to_string(),)))
    }

    /// A copy of game `index` (with its pending focus).
    fn game(&self, index: Int) -> PyResult<PyGame> {
        let index = index.0;
        let batch = self.batch()?;
        let session = usize::try_from(index)
            .ok()
            .and_then(|i| batch.session(i))
            .ok_or_else(|| {
                invalid_argument(format!("index {index}: envs are 0..{}", self.num_envs))
            })?;
        Ok(PyGame::from_session(session.clone()))
    }

    /// Starts a new episode in every game and writes the first observations. `seeds`:
    /// `None` keeps each game's seed stream, an int `s` restarts the streams as a batch
    /// made with seed `s`, a list gives each game the seed of its next game (later games
    /// follow a stream started from that seed).
    #[pyo3(signature = (action_mask, to_play, board=None, globals=None, seeds=None, outside_window=None, board_kept=false))]
    #[allow(clippy::too_many_arguments)]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        action_mask: &Bound<'py, PyAny>,
        to_play: &Bound<'py, PyAny>,
        board: Option<&Bound<'py, PyAny>>,
        globals: Option<&Bound<'py, PyAny>>,
        seeds: Option<&Bound<'py, PyAny>>,
        outside_window: Option<&Bound<'py, PyAny>>,
        board_kept: bool,
    ) -> PyResult<()> {
        let mut batch = self.batch()?;
        if let Some(s) = seeds.filter(|s| !s.is_none()) {
            if let Some(base) = seed_from(s) {
                batch.reseed(base);
            } else {
                let list = s
                    .extract::<Vec<Bound<'py, PyAny>>>()
                    .ok()
                    .and_then(|l| l.iter().map(seed_from).collect::<Option<Vec<u64>>>())
                    .ok_or_else(|| {
                        invalid_argument(
                            "seeds: expected None, a non-negative int or a list of them",
                        )
                    })?;
                batch.set_next_seeds(&list).map_err(batch_error)?;
            }
        }
        let mut arrays = Arrays::borrow(
            &self.settings,
            self.num_envs,
            board,
            globals,
            action_mask,
            None,
            to_play,
            None,
            None,
            None,
            outside_window,
            [None; 4],
        )?;
        let bufs = arrays.slices(board_kept)?;
        let watch = SignalWatch::new();
        let games: &mut Batch = &mut batch;
        let done = py.detach(|| games.reset(bufs, &watch));
        done.map_err(batch_error)?;
        watch.into_result()
    }

    /// Steps every game with its flat id from `actions` (int64 [N]) and writes the
    /// results into the arrays (`board`, `globals` may be `None` to skip observations).
    ///
    /// For an env whose episode ends in this step: `final_scores` (int32 [N, P]),
    /// `episode_returns` (float32 [N, P], the rewards per seat summed over the episode),
    /// `episode_lengths` (int32 [N], the steps of the episode) and, when both are given,
    /// `final_board` and `final_globals` (the last observation of the episode, before the
    /// automatic reset) are written; the other rows of `final_scores`, `episode_returns`
    /// and `episode_lengths` are set to 0, those of `final_board` and `final_globals` are
    /// left as they were.
    ///
    /// `active` (bool [N]) steps only the games it marks: the others are not stepped and
    /// their rows of every array are left as they were (their actions are not read).
    ///
    /// `board_kept`: `board` holds what this env wrote into it in earlier calls and
    /// nobody has written into it since, so each game clears only the planes it set
    /// there last time (see `StepBuffers::board_kept`; the same for `reset`).
    #[pyo3(signature = (actions, action_mask, rewards, to_play, terminated, truncated, board=None, globals=None, final_scores=None, outside_window=None, episode_returns=None, episode_lengths=None, final_board=None, final_globals=None, active=None, board_kept=false))]
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        action_mask: &Bound<'py, PyAny>,
        rewards: &Bound<'py, PyAny>,
        to_play: &Bound<'py, PyAny>,
        terminated: &Bound<'py, PyAny>,
        truncated: &Bound<'py, PyAny>,
        board: Option<&Bound<'py, PyAny>>,
        globals: Option<&Bound<'py, PyAny>>,
        final_scores: Option<&Bound<'py, PyAny>>,
        outside_window: Option<&Bound<'py, PyAny>>,
        episode_returns: Option<&Bound<'py, PyAny>>,
        episode_lengths: Option<&Bound<'py, PyAny>>,
        final_board: Option<&Bound<'py, PyAny>>,
        final_globals: Option<&Bound<'py, PyAny>>,
        active: Option<&Bound<'py, PyAny>>,
        board_kept: bool,
    ) -> PyResult<()> {
        let n = self.num_envs;
        let active = active_games(active, n)?;
        let active = active.as_deref();
        let mut batch = self.batch()?;
        let ids = {
            let a = actions
                .cast::<numpy::PyArrayDyn<i64>>()
                .map_err(|_| invalid_argument("actions: expected a numpy array of dtype int64"))?;
            let ro = a.readonly();
            let view = ro.as_array();
            if view.shape() != [n] {
                return Err(invalid_argument(format!(
                    "actions: shape {:?}, expected [{n}]",
                    view.shape()
                )));
            }
            // Read in place when contiguous (the usual case), copied otherwise.
            match view.as_slice() {
                Some(ids) => batch.check_active_actions(ids, active),
                None => {
                    batch.check_active_actions(&view.iter().copied().collect::<Vec<i64>>(), active)
                }
            }
            .map_err(batch_error)?
        };
        let mut arrays = Arrays::borrow(
            &self.settings,
            n,
            board,
            globals,
            action_mask,
            Some(rewards),
            to_play,
            Some(terminated),
            Some(truncated),
            final_scores,
            outside_window,
            [episode_returns, episode_lengths, final_board, final_globals],
        )?;
        let bufs = arrays.slices(board_kept)?;
        let watch = SignalWatch::new();
        let games: &mut Batch = &mut batch;
        let done = py.detach(|| games.step_active(&ids, active, bufs, &watch));
        done.map_err(batch_error)?;
        watch.into_result()
    }
}

/// The games a call works on: `None` for every game, else a bool array [N] read into a
/// vector (`InvalidArgumentError` for another dtype or shape).
fn active_games(active: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Option<Vec<bool>>> {
    let Some(a) = active.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    let a = a
        .cast::<numpy::PyArrayDyn<bool>>()
        .map_err(|_| invalid_argument("active: expected a numpy array of dtype bool"))?;
    let ro = a.readonly();
    let view = ro.as_array();
    if view.shape() != [n] {
        return Err(invalid_argument(format!(
            "active: shape {:?}, expected [{n}]",
            view.shape()
        )));
    }
    Ok(Some(view.iter().copied().collect()))
}

/// The numpy arrays of one call, checked and borrowed for writing.
struct Arrays<'py> {
    board: Option<Rw<'py, u8>>,
    globals: Option<Rw<'py, f32>>,
    mask: Rw<'py, i8>,
    rewards: Option<Rw<'py, f32>>,
    to_play: Rw<'py, i32>,
    terminated: Option<Rw<'py, bool>>,
    truncated: Option<Rw<'py, bool>>,
    final_scores: Option<Rw<'py, i32>>,
    outside: Option<Rw<'py, u32>>,
    episode_returns: Option<Rw<'py, f32>>,
    episode_lengths: Option<Rw<'py, i32>>,
    final_board: Option<Rw<'py, u8>>,
    final_globals: Option<Rw<'py, f32>>,
}

fn given<'a, 'py>(o: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    o.filter(|x| !x.is_none())
}

impl<'py> Arrays<'py> {
    #[allow(clippy::too_many_arguments)]
    fn borrow(
        settings: &BatchSettings,
        n: usize,
        board: Option<&Bound<'py, PyAny>>,
        globals: Option<&Bound<'py, PyAny>>,
        mask: &Bound<'py, PyAny>,
        rewards: Option<&Bound<'py, PyAny>>,
        to_play: &Bound<'py, PyAny>,
        terminated: Option<&Bound<'py, PyAny>>,
        truncated: Option<&Bound<'py, PyAny>>,
        final_scores: Option<&Bound<'py, PyAny>>,
        outside: Option<&Bound<'py, PyAny>>,
        episode: [Option<&Bound<'py, PyAny>>; 4],
    ) -> PyResult<Arrays<'py>> {
        let layout = &settings.layout;
        let w = layout.window() as usize;
        let p = settings.config.players as usize;
        let (c, g, a) = (
            layout.num_planes(),
            layout.num_globals(),
            layout.num_actions(),
        );
        let [returns, lengths, final_board, final_globals] = episode;
        Ok(Arrays {
            board: given(board)
                .map(|b| writable(b, "board", "uint8", &[n, c, w, w]))
                .transpose()?,
            globals: given(globals)
                .map(|x| writable(x, "globals", "float32", &[n, g]))
                .transpose()?,
            mask: writable(mask, "action_mask", "int8", &[n, a])?,
            episode_returns: given(returns)
                .map(|x| writable(x, "episode_returns", "float32", &[n, p]))
                .transpose()?,
            episode_lengths: given(lengths)
                .map(|x| writable(x, "episode_lengths", "int32", &[n]))
                .transpose()?,
            final_board: given(final_board)
                .map(|x| writable(x, "final_board", "uint8", &[n, c, w, w]))
                .transpose()?,
            final_globals: given(final_globals)
                .map(|x| writable(x, "final_globals", "float32", &[n, g]))
                .transpose()?,
            rewards: given(rewards)
                .map(|r| writable(r, "rewards", "float32", &[n, p]))
                .transpose()?,
            to_play: writable(to_play, "to_play", "int32", &[n])?,
            terminated: given(terminated)
                .map(|t| writable(t, "terminated", "bool", &[n]))
                .transpose()?,
            truncated: given(truncated)
                .map(|t| writable(t, "truncated", "bool", &[n]))
                .transpose()?,
            final_scores: given(final_scores)
                .map(|f| writable(f, "final_scores", "int32", &[n, p]))
                .transpose()?,
            outside: given(outside)
                .map(|o| writable(o, "outside_window", "uint32", &[n]))
                .transpose()?,
        })
    }

    /// The arrays as the batch's buffers; `board_kept`: see [`StepBuffers::board_kept`].
    fn slices(&mut self, board_kept: bool) -> PyResult<StepBuffers<'_>> {
        Ok(StepBuffers {
            board: self
                .board
                .as_mut()
                .map(|b| slice_mut(b, "board"))
                .transpose()?,
            globals: self
                .globals
                .as_mut()
                .map(|g| slice_mut(g, "globals"))
                .transpose()?,
            mask: slice_mut(&mut self.mask, "action_mask")?,
            rewards: self
                .rewards
                .as_mut()
                .map(|r| slice_mut(r, "rewards"))
                .transpose()?,
            to_play: slice_mut(&mut self.to_play, "to_play")?,
            terminated: self
                .terminated
                .as_mut()
                .map(|t| slice_mut(t, "terminated"))
                .transpose()?,
            truncated: self
                .truncated
                .as_mut()
                .map(|t| slice_mut(t, "truncated"))
                .transpose()?,
            final_scores: self
                .final_scores
                .as_mut()
                .map(|f| slice_mut(f, "final_scores"))
                .transpose()?,
            outside: self
                .outside
                .as_mut()
                .map(|o| slice_mut(o, "outside_window"))
                .transpose()?,
            episode_returns: self
                .episode_returns
                .as_mut()
                .map(|x| slice_mut(x, "episode_returns"))
                .transpose()?,
            episode_lengths: self
                .episode_lengths
                .as_mut()
                .map(|x| slice_mut(x, "episode_lengths"))
                .transpose()?,
            final_board: self
                .final_board
                .as_mut()
                .map(|x| slice_mut(x, "final_board"))
                .transpose()?,
            final_globals: self
                .final_globals
                .as_mut()
                .map(|x| slice_mut(x, "final_globals"))
                .transpose()?,
            board_kept,
        })
    }
}
