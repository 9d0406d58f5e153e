//! `carcassonne._core.VectorEnv`: a batch of games stepped by flat ids in one call with
//! the interpreter released, writing into caller-provided numpy arrays, with automatic
//! reset.
//!
//! Two modes. Self-play (`opponents=None`): every decision of every seat is returned;
//! the observation is that of the player to play, rewards are per seat. Single agent
//! (`opponents="random"` or `"greedy"`): one learning seat per game (fixed, or drawn
//! per episode), the other seats played natively by the built-in player; the
//! observation is the learner's, rewards are accumulated per seat since the learner's
//! previous decision.
//!
//! Every env draws the seeds of its episodes from its own stream ([`episode_seed`]):
//! env `i` of a batch made with seed `s` plays episode `k` with seed
//! `episode_seed(s, i, k)`, so batches made with different seeds share no game and
//! `episode_seeds()` tells the seed of each current game. A step that ends an episode
//! sets `terminated` (game over) or `truncated` (no legal move can be offered in the
//! window, or, with `outside_window="truncate"`, some legal move lies outside it),
//! writes the final scores, the episode's returns and length, and the final
//! observation if asked; the observation written is the first one of the next episode.
//!
//! Observations, masks and ids are those of an observation preset ([`Layout`]).
//!
//! A batch pickles (and deep-copies) as its state in JSON: the settings, and per game its
//! record (which resumes the game exactly: generator, window, pending focus), the built-in
//! players' generator, the learner's seat, the episode counter of its seed stream, the
//! episode's statistics so far, the scores the next
//! rewards count from, and whether it waits for a reset. The copy continues identically.

use crate::convert::{config_from_args, seed_from, slice_mut, writable, ConfigArgs, Int};
use crate::errors::{
    concurrent_use_error, illegal, invalid_argument, invalid_config, invalid_record, state_error,
};
use crate::game::{layout_from, reward_from, spec_from, PyGame};
use crate::signals::{SignalWatch, SIGNAL_CHECK_INTERVAL};
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{ChanceMode, Game, GameConfig, Rng};
use carcassonne_session::bots::Bot;
use carcassonne_session::encode::{self, EncoderSpec, Layout, MaskInfo, RewardMode};
use carcassonne_session::json::echo;
use carcassonne_session::record;
use carcassonne_session::session::Session;
use numpy::ndarray::Array1;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::Instant;

/// What to do with legal moves outside the window.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum OutsidePolicy {
    /// Not offered; the episode is truncated only if nothing can be offered.
    Mask,
    /// The episode is truncated as soon as a legal move lies outside.
    Truncate,
}

/// What to do with an action id the mask does not offer.
#[derive(Copy, Clone, Debug, PartialEq)]
enum IllegalPolicy {
    /// Raise `IllegalActionError` before any game is stepped.
    Raise,
    /// Leave that game unchanged and give the acting seat this reward.
    Penalize(f32),
    /// Play a uniformly random offered id instead.
    Random,
}

/// When a game whose episode ended starts the next one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Autoreset {
    /// In the step that ends the episode: the observation written is the next episode's.
    SameStep,
    /// In the next step (its action is ignored): the final observation is written first.
    NextStep,
    /// Never: `reset` must be called.
    Disabled,
}

/// SplitMix64's output function: a bijection of `u64` that mixes every bit.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64's increment.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The stream of env `env` of a batch made with seed `seed`.
pub const fn stream_of(seed: u64, env: u64) -> u64 {
    mix(mix(seed.wrapping_add(GAMMA)).wrapping_add(env.wrapping_mul(GAMMA) ^ 0x2545_f491_4f6c_dd1d))
}

/// The game seed of episode `episode` of env `env` of a batch made with seed `seed`:
/// element `episode` of a SplitMix64 sequence started at the env's stream, so streams
/// of different envs and different batch seeds do not overlap (up to 64-bit collisions).
pub const fn episode_seed(seed: u64, env: u64, episode: u64) -> u64 {
    seed_in_stream(stream_of(seed, env), episode)
}

/// Element `episode` of the SplitMix64 sequence started at `stream`.
const fn seed_in_stream(stream: u64, episode: u64) -> u64 {
    mix(stream.wrapping_add(episode.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// One game of the batch.
struct Slot {
    session: Session,
    rng: Rng,
    learner: u8,
    /// The env's seed stream and the index of the next episode in it.
    stream: u64,
    next_episode: u64,
    /// A seed given for the next episode (`reset(seeds=[...])`), used before the stream.
    explicit_seed: Option<u64>,
    /// Seed of the current game.
    seed: u64,
    /// Rewards per seat since the episode started, and steps taken.
    returns: [f32; MAX_PLAYERS],
    length: u32,
    /// Scores when the decision now offered was last offered (rewards are the change).
    scores_before: [i32; MAX_PLAYERS],
    info: MaskInfo,
    /// The episode ended and the game waits for its reset (next-step or no autoreset).
    done: bool,
}

/// The settings shared by every game of the batch.
#[derive(Clone)]
struct Settings {
    config: GameConfig,
    spec: EncoderSpec,
    layout: Arc<Layout>,
    reward: RewardMode,
    opponent: Option<Bot>,
    learner_seat: Option<u8>,
    outside: OutsidePolicy,
    illegal: IllegalPolicy,
    autoreset: Autoreset,
}

/// Where one game writes its step results.
struct Out<'a> {
    board: Option<&'a mut [u8]>,
    globals: Option<&'a mut [f32]>,
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    to_play: &'a mut i32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    final_scores: Option<&'a mut [i32]>,
    outside: Option<&'a mut u32>,
    /// The returns per seat and the length of an episode that ended in this step.
    episode_returns: Option<&'a mut [f32]>,
    episode_length: Option<&'a mut i32>,
    /// The final observation of an episode that ended in this step.
    final_board: Option<&'a mut [u8]>,
    final_globals: Option<&'a mut [f32]>,
}

impl Slot {
    fn new(settings: &Settings, stream: u64) -> Slot {
        let game = Game::new(settings.config.clone()).expect("validated configuration");
        Slot {
            session: Session::with_layout(game, settings.layout.clone()),
            rng: Rng::new(0),
            learner: 0,
            stream,
            next_episode: 0,
            explicit_seed: None,
            seed: 0,
            returns: [0.0; MAX_PLAYERS],
            length: 0,
            scores_before: [0; MAX_PLAYERS],
            info: MaskInfo::default(),
            done: false,
        }
    }

    fn players(&self) -> usize {
        self.session.game().num_players()
    }

    /// The seat whose observation is written: the learner, or the player to play.
    fn observer(&self, settings: &Settings) -> usize {
        if settings.opponent.is_some() {
            self.learner as usize
        } else {
            self.session.game().to_play()
        }
    }

    /// Starts the next episode: new game, learner seat, opponents up to the learner's
    /// first decision; `false` when `go_on` stopped an opponent's search (Ctrl-C).
    fn start_episode(&mut self, settings: &Settings, go_on: &mut dyn FnMut() -> bool) -> bool {
        let seed = match self.explicit_seed.take() {
            Some(s) => s,
            None => {
                let k = self.next_episode;
                self.next_episode += 1;
                seed_in_stream(self.stream, k)
            }
        };
        self.seed = seed;
        self.returns = [0.0; MAX_PLAYERS];
        self.length = 0;
        let mut config = settings.config.clone();
        config.seed = seed;
        let game = Game::new(config).expect("validated configuration");
        self.session.reset(game);
        self.rng = Rng::new(seed ^ 0x5851_f42d_4c95_7f2d);
        let n = self.players() as u32;
        self.learner = match settings.learner_seat {
            Some(s) => s,
            None => self.rng.below(n) as u8,
        };
        self.scores_before = [0; MAX_PLAYERS];
        self.done = false;
        self.play_opponents(settings, go_on)
    }

    /// Plays the built-in opponents until the learner decides or the game ends; `false`
    /// when `go_on` stopped a search (Ctrl-C), the game then partly played.
    fn play_opponents(&mut self, settings: &Settings, go_on: &mut dyn FnMut() -> bool) -> bool {
        let Some(opponent) = settings.opponent else {
            return true;
        };
        while !self.session.game().is_terminal()
            && self.session.game().to_play() != self.learner as usize
        {
            let (game, legal) = self.session.decision();
            let Some(a) = opponent.choose_while(game, legal, &mut self.rng, go_on) else {
                return false;
            };
            self.session
                .apply(a)
                .expect("built-in players pick legal actions");
        }
        true
    }

    /// Writes the mask of the decision now offered into `mask` and notes what it covers.
    fn write_mask(&mut self, mask: &mut [i8]) {
        self.info = self
            .session
            .legal_mask(mask)
            .expect("mask buffer sized by the spec");
    }

    /// Whether the decision now offered offers flat id `id`.
    fn offers(&mut self, id: u32) -> bool {
        self.session.decode(id).is_some()
    }

    /// Whether the decision now offered cannot be played under the policy.
    fn must_truncate(&self, settings: &Settings) -> bool {
        !self.session.game().is_terminal()
            && (self.info.offered == 0
                || (settings.outside == OutsidePolicy::Truncate && self.info.outside_window > 0))
    }

    /// Starts episodes until one offers a playable first decision (nearly always the
    /// first one).
    fn start_playable_episode(
        &mut self,
        settings: &Settings,
        mask: &mut [i8],
        go_on: &mut dyn FnMut() -> bool,
    ) {
        for _ in 0..64 {
            let started = self.start_episode(settings, go_on);
            self.write_mask(mask);
            if !started {
                return;
            }
            if !self.must_truncate(settings) {
                return;
            }
        }
    }

    /// Writes the observation, mask and seat of the decision now offered.
    fn write_observation(&mut self, settings: &Settings, out: &mut Out<'_>) {
        let seat = self.observer(settings);
        if let (Some(b), Some(g)) = (out.board.as_deref_mut(), out.globals.as_deref_mut()) {
            self.session
                .observe(seat, b, g)
                .expect("buffers sized by the spec");
        } else if out.board.is_some() || out.globals.is_some() {
            // One of the two buffers: encode into the given one, scratch for the other.
            let layout = &settings.layout;
            let mut b_scratch;
            let mut g_scratch;
            let b: &mut [u8] = match out.board.as_deref_mut() {
                Some(b) => b,
                None => {
                    b_scratch = vec![0u8; layout.planes_len()];
                    &mut b_scratch
                }
            };
            let g: &mut [f32] = match out.globals.as_deref_mut() {
                Some(g) => g,
                None => {
                    g_scratch = vec![0f32; layout.num_globals()];
                    &mut g_scratch
                }
            };
            self.session
                .observe(seat, b, g)
                .expect("buffers sized by the spec");
        }
        *out.to_play = seat as i32;
        if let Some(o) = out.outside.as_deref_mut() {
            *o = self.info.outside_window;
        }
    }

    /// Rewards per seat since `scores_before`.
    fn write_rewards(&mut self, settings: &Settings, rewards: &mut [f32]) {
        let n = self.players();
        let g = self.session.game();
        rewards.fill(0.0);
        encode::step_rewards(
            settings.reward,
            &self.scores_before[..n],
            g.scores(),
            g.is_terminal(),
            &mut rewards[..n],
        )
        .expect("reward slices sized by the game");
        self.scores_before[..n].copy_from_slice(g.scores());
        for (r, x) in self.returns.iter_mut().zip(rewards.iter()) {
            *r += *x;
        }
    }

    /// One step with flat id `id` (the opponents' searches ask `go_on`, see
    /// [`Slot::play_opponents`]).
    fn step(
        &mut self,
        settings: &Settings,
        id: u32,
        mut out: Out<'_>,
        go_on: &mut dyn FnMut() -> bool,
    ) {
        *out.terminated = false;
        *out.truncated = false;
        // The episode rows are zero unless the episode ends in this step.
        if let Some(f) = out.final_scores.as_deref_mut() {
            f.fill(0);
        }
        if let Some(r) = out.episode_returns.as_deref_mut() {
            r.fill(0.0);
        }
        if let Some(l) = out.episode_length.as_deref_mut() {
            *l = 0;
        }
        if self.done {
            // Next-step autoreset: this step only starts the next episode.
            out.rewards.fill(0.0);
            self.start_playable_episode(settings, out.mask, go_on);
            self.write_observation(settings, &mut out);
            return;
        }
        let offered = self.offers(id);
        let id = if offered {
            Some(id)
        } else {
            match settings.illegal {
                IllegalPolicy::Raise => unreachable!("ids are checked before stepping"),
                IllegalPolicy::Penalize(p) => {
                    out.rewards.fill(0.0);
                    let seat = self.session.game().to_play();
                    out.rewards[seat] = p;
                    self.returns[seat] += p;
                    self.length += 1;
                    self.write_mask(out.mask);
                    self.write_observation(settings, &mut out);
                    return;
                }
                IllegalPolicy::Random => {
                    // The mask of this decision, rebuilt in the output buffer (whatever
                    // the caller did with it) to pick a uniformly random offered id.
                    self.write_mask(out.mask);
                    let count = self.info.offered.max(1);
                    let k = self.rng.below(count) as usize;
                    out.mask
                        .iter()
                        .enumerate()
                        .filter(|(_, m)| **m == 1)
                        .nth(k)
                        .map(|(i, _)| i as u32)
                }
            }
        };
        if let Some(id) = id {
            self.session.step(id).expect("offered ids are legal");
        }
        self.length += 1;
        self.play_opponents(settings, go_on);
        self.write_rewards(settings, out.rewards);
        self.write_mask(out.mask);
        let terminated = self.session.game().is_terminal();
        let truncated = self.must_truncate(settings);
        if terminated || truncated {
            *out.terminated = terminated;
            *out.truncated = truncated;
            if let Some(f) = out.final_scores.as_deref_mut() {
                let n = self.players();
                f[..n].copy_from_slice(self.session.game().scores());
            }
            if let Some(r) = out.episode_returns.as_deref_mut() {
                let n = self.players();
                r.copy_from_slice(&self.returns[..n]);
            }
            if let Some(l) = out.episode_length.as_deref_mut() {
                *l = self.length as i32;
            }
            if let (Some(b), Some(g)) = (
                out.final_board.as_deref_mut(),
                out.final_globals.as_deref_mut(),
            ) {
                let seat = self.observer(settings);
                self.session
                    .observe(seat, b, g)
                    .expect("buffers sized by the layout");
            }
            if settings.autoreset == Autoreset::SameStep {
                self.start_playable_episode(settings, out.mask, go_on);
            } else {
                self.done = true;
                out.mask.fill(0);
            }
        }
        self.write_observation(settings, &mut out);
    }
}

/// A batch of games stepped natively.
///
/// One call at a time: a call made while another thread's call is running raises
/// `ConcurrentUseError` at once (the games are behind a lock that is never waited for).
#[pyclass(module = "carcassonne._core", name = "VectorEnv", frozen)]
pub struct VectorEnv {
    settings: Settings,
    threads: usize,
    num_envs: usize,
    state: Mutex<Batch>,
}

/// The games of a batch.
struct Batch {
    slots: Vec<Slot>,
    /// A step or reset stopped part way (Ctrl-C): only `reset` may follow.
    interrupted: bool,
}

/// Estimated memory of one game of a batch besides its buffers: the engine's state
/// through a whole game (about 30 KB at the start, 45 KB after 60 decisions, measured
/// with two players and the base set), with room to spare: 128 KiB.
pub const ENGINE_BYTES_PER_ENV: usize = 128 << 10;

/// Most memory a batch may need, its buffers and those of `carcassonne.VectorEnv`
/// included (estimated before anything is allocated): 8 GiB, and never more than the
/// memory the system says is available.
pub const MAX_BATCH_BYTES: usize = 8 << 30;

/// Most games of one batch: 1,048,576.
pub const MAX_NUM_ENVS: usize = 1 << 20;

/// Estimated bytes of one game of a batch: the engine's state, and one row of every
/// buffer of a step (observation, mask, rewards, flags, scores, actions).
fn bytes_per_env(layout: &Layout, players: usize) -> usize {
    ENGINE_BYTES_PER_ENV
        + layout.planes_len()
        + 4 * layout.num_globals()
        + layout.num_actions()
        + 4 * players * 2
        + 4
        + 2
        + 4
        + 8
}

/// Memory the system says is available (Linux `MemAvailable`), if known.
fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// Refuses a batch whose estimated memory exceeds [`MAX_BATCH_BYTES`] or the memory
/// available, before anything is allocated.
fn check_batch_memory(num_envs: usize, layout: &Layout, players: usize) -> PyResult<()> {
    let per = bytes_per_env(layout, players);
    let need = per.saturating_mul(num_envs);
    let (limit, what) = match available_memory() {
        Some(avail) if avail < MAX_BATCH_BYTES => (avail, "the memory available"),
        _ => (MAX_BATCH_BYTES, "the limit of a batch"),
    };
    if need > limit {
        let mib = |b: usize| b >> 20;
        return Err(invalid_config(format!(
            "num_envs: {num_envs} games need about {} MiB ({} KiB each with window {}); \
             {what} is {} MiB: at most {} games",
            mib(need),
            per >> 10,
            layout.window(),
            mib(limit),
            limit / per
        )));
    }
    Ok(())
}

/// The error of a call made while another thread's call on the same batch runs.
fn concurrent_use() -> PyErr {
    concurrent_use_error(
        "VectorEnv: another thread is using this VectorEnv (a call is running); \
         give each thread its own VectorEnv",
    )
}

/// Buffers of one call, borrowed as slices.
struct Buffers<'a> {
    board: Option<&'a mut [u8]>,
    globals: Option<&'a mut [f32]>,
    mask: &'a mut [i8],
    rewards: Option<&'a mut [f32]>,
    to_play: &'a mut [i32],
    terminated: Option<&'a mut [bool]>,
    truncated: Option<&'a mut [bool]>,
    final_scores: Option<&'a mut [i32]>,
    outside: Option<&'a mut [u32]>,
    episode_returns: Option<&'a mut [f32]>,
    episode_lengths: Option<&'a mut [i32]>,
    final_board: Option<&'a mut [u8]>,
    final_globals: Option<&'a mut [f32]>,
}

/// Splits the first `n` items off `rest` (the rows of one thread's games).
fn split_rows<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (now, later) = std::mem::take(rest).split_at_mut(n);
    *rest = later;
    now
}

/// [`split_rows`] of a buffer the call may not have been given.
fn split_rows_opt<'a, T>(rest: &mut Option<&'a mut [T]>, n: usize) -> Option<&'a mut [T]> {
    rest.as_mut().map(|r| split_rows(r, n))
}

/// Row `j` (of `width` items) of a buffer the call may not have been given.
fn row_opt<'b, T>(rows: &'b mut Option<&mut [T]>, j: usize, width: usize) -> Option<&'b mut [T]> {
    rows.as_deref_mut()
        .map(|x| &mut x[j * width..(j + 1) * width])
}

impl VectorEnv {
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    fn players(&self) -> usize {
        self.settings.config.players as usize
    }

    /// The games, for one call; `ConcurrentUseError` if another thread's call runs.
    fn batch(&self) -> PyResult<MutexGuard<'_, Batch>> {
        match self.state.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::WouldBlock) => Err(concurrent_use()),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        }
    }

    /// Runs `f(slot, index, out)` for every game of `slots`, on `threads` threads, with
    /// the interpreter released; Ctrl-C stops it (`watch`, checked every 20 ms by the
    /// calling thread; the other threads stop at their next game or search iteration:
    /// `f` gets the check to pass to the opponents' searches).
    fn run<F>(&self, slots: &mut [Slot], bufs: Buffers<'_>, watch: &SignalWatch, f: F)
    where
        F: Fn(&mut Slot, usize, Out<'_>, &Settings, &mut dyn FnMut() -> bool) + Sync,
    {
        let layout = &self.settings.layout;
        let p = self.players();
        let (pl, gl, al) = (
            layout.planes_len(),
            layout.num_globals(),
            layout.num_actions(),
        );
        let settings = &self.settings;
        let n = slots.len();
        let threads = self.threads.clamp(1, n.max(1));
        let caller = std::thread::current();
        let running = AtomicUsize::new(0);
        let running = &running;
        let per = n.div_ceil(threads);
        let Buffers {
            mut board,
            mut globals,
            mask,
            mut rewards,
            to_play,
            mut terminated,
            mut truncated,
            mut final_scores,
            mut outside,
            mut episode_returns,
            mut episode_lengths,
            mut final_board,
            mut final_globals,
        } = bufs;
        let mut scratch_rewards = vec![0f32; n * p];
        let mut scratch_term = vec![false; n];
        let mut scratch_trunc = vec![false; n];
        let rewards: &mut [f32] = rewards.take().unwrap_or(&mut scratch_rewards);
        let terminated: &mut [bool] = terminated.take().unwrap_or(&mut scratch_term);
        let truncated: &mut [bool] = truncated.take().unwrap_or(&mut scratch_trunc);
        std::thread::scope(|scope| {
            let mut slots = slots;
            let mut board = board.take();
            let mut globals = globals.take();
            let mut mask = mask;
            let mut rewards = rewards;
            let mut to_play = to_play;
            let mut terminated = terminated;
            let mut truncated = truncated;
            let mut final_scores = final_scores.take();
            let mut outside = outside.take();
            let mut episode_returns = episode_returns.take();
            let mut episode_lengths = episode_lengths.take();
            let mut final_board = final_board.take();
            let mut final_globals = final_globals.take();
            let mut start = 0;
            while start < n {
                let k = per.min(n - start);
                let s_now = split_rows(&mut slots, k);
                let b_now = split_rows_opt(&mut board, k * pl);
                let g_now = split_rows_opt(&mut globals, k * gl);
                let m_now = split_rows(&mut mask, k * al);
                let r_now = split_rows(&mut rewards, k * p);
                let t_now = split_rows(&mut to_play, k);
                let te_now = split_rows(&mut terminated, k);
                let tr_now = split_rows(&mut truncated, k);
                let f_now = split_rows_opt(&mut final_scores, k * p);
                let o_now = split_rows_opt(&mut outside, k);
                let er_now = split_rows_opt(&mut episode_returns, k * p);
                let el_now = split_rows_opt(&mut episode_lengths, k);
                let fb_now = split_rows_opt(&mut final_board, k * pl);
                let fg_now = split_rows_opt(&mut final_globals, k * gl);
                let f = &f;
                let base = start;
                let work = move |calling_thread: bool| {
                    let mut b_now = b_now;
                    let mut g_now = g_now;
                    let mut f_now = f_now;
                    let mut o_now = o_now;
                    let mut er_now = er_now;
                    let mut el_now = el_now;
                    let mut fb_now = fb_now;
                    let mut fg_now = fg_now;
                    let mut last = Instant::now();
                    let mut go_on = || {
                        if calling_thread {
                            watch.poll(&mut last)
                        } else {
                            !watch.stopped()
                        }
                    };
                    for (j, slot) in s_now.iter_mut().enumerate() {
                        if !go_on() {
                            break;
                        }
                        let out = Out {
                            board: row_opt(&mut b_now, j, pl),
                            globals: row_opt(&mut g_now, j, gl),
                            mask: &mut m_now[j * al..(j + 1) * al],
                            rewards: &mut r_now[j * p..(j + 1) * p],
                            to_play: &mut t_now[j],
                            terminated: &mut te_now[j],
                            truncated: &mut tr_now[j],
                            final_scores: row_opt(&mut f_now, j, p),
                            outside: o_now.as_deref_mut().map(|o| &mut o[j]),
                            episode_returns: row_opt(&mut er_now, j, p),
                            episode_length: el_now.as_deref_mut().map(|x| &mut x[j]),
                            final_board: row_opt(&mut fb_now, j, pl),
                            final_globals: row_opt(&mut fg_now, j, gl),
                        };
                        f(slot, base + j, out, settings, &mut go_on);
                    }
                };
                if start + k >= n {
                    work(true);
                } else {
                    running.fetch_add(1, Ordering::AcqRel);
                    let caller = caller.clone();
                    scope.spawn(move || {
                        work(false);
                        running.fetch_sub(1, Ordering::AcqRel);
                        caller.unpark();
                    });
                }
                start += k;
            }
            // Wait for the other threads, still looking for Ctrl-C.
            let mut last = Instant::now();
            while running.load(Ordering::Acquire) > 0 {
                std::thread::park_timeout(SIGNAL_CHECK_INTERVAL);
                watch.poll(&mut last);
            }
        });
    }
}

/// An error of a part of a pickled state (a window, a preset, a game) as an
/// `InvalidRecordError` naming `what` under `state`.
fn as_record_error(what: &str, e: PyErr) -> PyErr {
    let message = Python::attach(|py| e.value(py).to_string());
    match message.strip_prefix("state.") {
        Some(inner) => invalid_record(format!("state.{what}.{inner}")),
        None => invalid_record(format!("state.{what}: {message}")),
    }
}

/// The penalty of an illegal action as the float32 reward it becomes: `None` unless it
/// is finite there too (`1e39` is finite as a Python float, infinite as a float32).
fn penalty_of(penalty: f64) -> Option<f32> {
    let p = penalty as f32;
    p.is_finite().then_some(p)
}

/// A field of a pickled state, or an error naming it.
fn state_field<'a>(v: &'a Value, key: &str) -> PyResult<&'a Value> {
    v.get(key)
        .ok_or_else(|| invalid_record(format!("state: missing {key}")))
}

fn state_u64(v: &Value, key: &str) -> PyResult<u64> {
    state_field(v, key)?
        .as_u64()
        .ok_or_else(|| invalid_record(format!("state.{key}: expected an integer")))
}

fn state_str<'a>(v: &'a Value, key: &str) -> PyResult<&'a str> {
    state_field(v, key)?
        .as_str()
        .ok_or_else(|| invalid_record(format!("state.{key}: expected a string")))
}

/// A per-seat list of a pickled game's state (`MAX_PLAYERS` values, each read by `read`;
/// `what` names them in the error).
fn state_per_seat<T: Copy + Default>(
    v: &Value,
    key: &str,
    what: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> PyResult<[T; MAX_PLAYERS]> {
    let list = state_field(v, key)?
        .as_array()
        .filter(|a| a.len() == MAX_PLAYERS)
        .ok_or_else(|| invalid_record(format!("state.{key}: expected a list")))?;
    let mut out = [T::default(); MAX_PLAYERS];
    for (o, x) in out.iter_mut().zip(list) {
        *o = read(x).ok_or_else(|| invalid_record(format!("state.{key}: expected {what}")))?;
    }
    Ok(out)
}

impl Slot {
    /// The game's part of a pickled batch.
    fn state(&self) -> Value {
        json!({
            "record": self.session.record_value("vector-env"),
            "rng": self.rng.to_hex(),
            "learner": self.learner,
            "stream": self.stream,
            "next_episode": self.next_episode,
            "explicit_seed": self.explicit_seed,
            "seed": self.seed,
            "returns": self.returns.to_vec(),
            "length": self.length,
            "scores_before": self.scores_before.to_vec(),
            "done": self.done,
        })
    }

    /// A game of a batch from its pickled state.
    fn from_state(v: &Value, layout: &Arc<Layout>, config: &GameConfig) -> PyResult<Slot> {
        let record = state_field(v, "record")?;
        let loaded =
            record::load(record, None).map_err(|e| invalid_record(format!("state.record: {e}")))?;
        // The game is one of the batch's: the same setup but for its seed, and it draws
        // from its generator (sampled chance), as every game of a batch does.
        let game = &loaded.game;
        let setup = |c: &GameConfig| (c.players, c.edition, c.sets.clone(), c.rules, c.figures);
        if setup(game.config()) != setup(config) {
            return Err(invalid_record(
                "state.record: the game's setup is not the batch's (players, edition, sets, \
                 rules, figures)",
            ));
        }
        if game.chance_mode() != ChanceMode::Sampled {
            return Err(invalid_record(
                "state.record: the game draws in explicit-chance mode; a batch samples its \
                 draws",
            ));
        }
        let mut session = Session::resume(loaded, Some(layout.spec()))
            .map_err(|e| invalid_record(format!("state.record: {e}")))?;
        session
            .set_layout(layout.clone())
            .map_err(|_| invalid_record("state.window: not the layout's window"))?;
        let rng = Rng::from_hex(state_str(v, "rng")?)
            .map_err(|e| invalid_record(format!("state.rng: {e}")))?;
        let scores_before = state_per_seat(v, "scores_before", "integers", |s| {
            s.as_i64().and_then(|s| i32::try_from(s).ok())
        })?;
        let returns = state_per_seat(v, "returns", "numbers", |r| r.as_f64().map(|r| r as f32))?;
        let done = state_field(v, "done")?
            .as_bool()
            .ok_or_else(|| invalid_record("state.done: expected a bool"))?;
        let learner = u8::try_from(state_u64(v, "learner")?)
            .ok()
            .filter(|l| (*l as usize) < session.game().num_players())
            .ok_or_else(|| invalid_record("state.learner: not a seat"))?;
        let explicit_seed = match state_field(v, "explicit_seed")? {
            Value::Null => None,
            _ => Some(state_u64(v, "explicit_seed")?),
        };
        let length = u32::try_from(state_u64(v, "length")?)
            .map_err(|_| invalid_record("state.length: out of range"))?;
        let mut scratch = vec![0i8; layout.num_actions()];
        let info = session
            .legal_mask(&mut scratch)
            .expect("mask buffer sized by the layout");
        Ok(Slot {
            session,
            rng,
            learner,
            stream: state_u64(v, "stream")?,
            next_episode: state_u64(v, "next_episode")?,
            explicit_seed,
            seed: state_u64(v, "seed")?,
            returns,
            length,
            scores_before,
            info,
            done,
        })
    }
}

impl VectorEnv {
    /// The batch as JSON (see the module documentation); `ConcurrentUseError` while
    /// another thread's call runs.
    fn state(&self) -> PyResult<Value> {
        let batch = self.batch()?;
        let s = &self.settings;
        let (illegal, penalty) = match s.illegal {
            IllegalPolicy::Raise => ("raise", -1.0),
            IllegalPolicy::Penalize(p) => ("penalize", p),
            IllegalPolicy::Random => ("random", -1.0),
        };
        Ok(json!({
            "config": s.config.to_json(),
            "window": s.spec.window,
            "preset": s.layout.preset().name(),
            "reward": s.reward.name(),
            "opponent": s.opponent.map(|b| b.to_string()),
            "learner_seat": s.learner_seat,
            "outside_window": match s.outside {
                OutsidePolicy::Mask => "mask",
                OutsidePolicy::Truncate => "truncate",
            },
            "illegal_action": illegal,
            "illegal_penalty": penalty,
            "autoreset": match s.autoreset {
                Autoreset::SameStep => "same-step",
                Autoreset::NextStep => "next-step",
                Autoreset::Disabled => "disabled",
            },
            "threads": self.threads,
            "slots": batch.slots.iter().map(Slot::state).collect::<Vec<_>>(),
            "interrupted": batch.interrupted,
        }))
    }

    /// A batch from its state (see [`VectorEnv::state`]).
    fn from_state(v: &Value) -> PyResult<VectorEnv> {
        let config = GameConfig::from_json(state_field(v, "config")?)
            .map_err(|e| invalid_record(format!("state.config: {e}")))?;
        let window = i64::try_from(state_u64(v, "window")?).unwrap_or(i64::MAX);
        let spec = spec_from(window).map_err(|e| as_record_error("window", e))?;
        let layout = layout_from(spec, state_str(v, "preset")?, &config)
            .map_err(|e| as_record_error("preset", e))?;
        let opponent = match state_field(v, "opponent")? {
            Value::Null => None,
            o => Some(
                o.as_str()
                    .and_then(Bot::from_name)
                    .ok_or_else(|| invalid_record("state.opponent: unknown player"))?,
            ),
        };
        let learner_seat = match state_field(v, "learner_seat")? {
            Value::Null => None,
            s => Some(
                s.as_u64()
                    .and_then(|s| u8::try_from(s).ok())
                    .filter(|s| *s < config.players)
                    .ok_or_else(|| invalid_record("state.learner_seat: not a seat"))?,
            ),
        };
        let outside = match state_str(v, "outside_window")? {
            "mask" => OutsidePolicy::Mask,
            "truncate" => OutsidePolicy::Truncate,
            other => return Err(invalid_record(format!("state.outside_window: {other:?}"))),
        };
        let penalty = state_field(v, "illegal_penalty")?
            .as_f64()
            .ok_or_else(|| invalid_record("state.illegal_penalty: expected a number"))?;
        let illegal = match state_str(v, "illegal_action")? {
            "raise" => IllegalPolicy::Raise,
            "penalize" => IllegalPolicy::Penalize(penalty_of(penalty).ok_or_else(|| {
                invalid_record("state.illegal_penalty: not a finite 32-bit float")
            })?),
            "random" => IllegalPolicy::Random,
            other => return Err(invalid_record(format!("state.illegal_action: {other:?}"))),
        };
        let autoreset = match state_str(v, "autoreset")? {
            "same-step" => Autoreset::SameStep,
            "next-step" => Autoreset::NextStep,
            "disabled" => Autoreset::Disabled,
            other => return Err(invalid_record(format!("state.autoreset: {other:?}"))),
        };
        let slots = state_field(v, "slots")?
            .as_array()
            .filter(|a| !a.is_empty())
            .filter(|a| a.len() <= MAX_NUM_ENVS)
            .ok_or_else(|| {
                invalid_record(format!(
                    "state.slots: expected a list of 1 to {MAX_NUM_ENVS} games"
                ))
            })?
            .iter()
            .enumerate()
            .map(|(i, slot)| {
                Slot::from_state(slot, &layout, &config)
                    .map_err(|e| as_record_error(&format!("slots[{i}]"), e))
            })
            .collect::<PyResult<Vec<Slot>>>()?;
        let threads = usize::try_from(state_u64(v, "threads")?)
            .ok()
            .filter(|t| (1..=256).contains(t))
            .ok_or_else(|| invalid_record("state.threads: 1 to 256"))?;
        let interrupted = state_field(v, "interrupted")?
            .as_bool()
            .ok_or_else(|| invalid_record("state.interrupted: expected a bool"))?;
        for (i, slot) in slots.iter().enumerate() {
            if learner_seat.is_some_and(|s| s != slot.learner) {
                return Err(invalid_record(format!(
                    "state.slots[{i}].learner: {} is not the batch's learner seat",
                    slot.learner
                )));
            }
            // With opponents, a game between steps waits for its learner (the opponents
            // have played), unless its episode is over or the batch was interrupted.
            let game = slot.session.game();
            if opponent.is_some()
                && !interrupted
                && !slot.done
                && !game.is_terminal()
                && game.to_play() != slot.learner as usize
            {
                return Err(invalid_record(format!(
                    "state.slots[{i}]: seat {} is to play, not the learner (seat {}), and \
                     the opponents would have played",
                    game.to_play(),
                    slot.learner
                )));
            }
        }
        let num_envs = slots.len();
        Ok(VectorEnv {
            num_envs,
            state: Mutex::new(Batch { slots, interrupted }),
            settings: Settings {
                config,
                spec,
                layout,
                reward: reward_from(state_str(v, "reward")?)
                    .map_err(|e| as_record_error("reward", e))?,
                opponent,
                learner_seat,
                outside,
                illegal,
                autoreset,
            },
            threads,
        })
    }

    /// A batch from the text of its state (pickling). Anything that is not the state of
    /// a batch, or contradicts itself (a learner seat that is not a seat, a game of
    /// another setup, a game waiting for an opponent), is an `InvalidRecordError`.
    pub fn from_state_text(text: &str) -> PyResult<VectorEnv> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| invalid_record(format!("state: invalid JSON: {e}")))?;
        VectorEnv::from_state(&v)
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
        let learner_seat = learner_seat.map(|s| s.0);
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
        let reward = reward_from(reward)?;
        let opponent = match opponents {
            None => None,
            Some(name) => {
                Some(Bot::parse(name).map_err(|m| invalid_config(format!("opponents: {m}")))?)
            }
        };
        let learner_seat = match learner_seat {
            None => None,
            Some(s) if (0..config.players as i64).contains(&s) => Some(s as u8),
            Some(s) => {
                return Err(invalid_config(format!(
                    "learner_seat: {s}; seats are 0..{}",
                    config.players
                )))
            }
        };
        let outside = match outside_window {
            "mask" => OutsidePolicy::Mask,
            "truncate" => OutsidePolicy::Truncate,
            other => {
                return Err(invalid_config(format!(
                    "outside_window: unknown policy {} (mask, truncate)",
                    echo(other)
                )))
            }
        };
        let illegal_policy = match illegal_action {
            "raise" => IllegalPolicy::Raise,
            "penalize" if penalty_of(illegal_penalty).is_some() => {
                IllegalPolicy::Penalize(illegal_penalty as f32)
            }
            "penalize" => {
                return Err(invalid_config(
                    "illegal_penalty: must be a finite number (as a float32 reward too)",
                ))
            }
            "random" => IllegalPolicy::Random,
            other => {
                return Err(invalid_config(format!(
                    "illegal_action: unknown policy {} (raise, penalize, random)",
                    echo(other)
                )))
            }
        };
        let autoreset = match autoreset {
            "same-step" => Autoreset::SameStep,
            "next-step" => Autoreset::NextStep,
            "disabled" => Autoreset::Disabled,
            other => {
                return Err(invalid_config(format!(
                    "autoreset: unknown mode {} (same-step, next-step, disabled)",
                    echo(other)
                )))
            }
        };
        if !(1..=256).contains(&threads) {
            return Err(invalid_config(format!("threads: {threads}; 1 to 256")));
        }
        check_batch_memory(num_envs as usize, &layout, config.players as usize)?;
        let base = config.seed;
        let settings = Settings {
            config,
            spec,
            layout,
            reward,
            opponent,
            learner_seat,
            outside,
            illegal: illegal_policy,
            autoreset,
        };
        let slots = (0..num_envs as u64)
            .map(|i| Slot::new(&settings, stream_of(base, i)))
            .collect();
        Ok(VectorEnv {
            settings,
            threads: threads as usize,
            num_envs: num_envs as usize,
            state: Mutex::new(Batch {
                slots,
                interrupted: false,
            }),
        })
    }

    #[getter(num_envs)]
    fn get_num_envs(&self) -> usize {
        self.num_envs()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.players()
    }

    #[getter]
    fn window(&self) -> u16 {
        self.settings.spec.window
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
        let batch = self.batch()?;
        Ok(Array1::from_iter(batch.slots.iter().map(|s| s.seed)).into_pyarray(py))
    }

    /// The id the built-in player `kind` (`random`, `greedy`, `mcts:<budget>...`) would
    /// take now in each env (int64 [N]; -1 where nothing is offered). With a pending focus,
    /// the second id of the player's action if it goes through that focus, else the first
    /// offered id. `seed` seeds the players' tie-breaks. Runs with the interpreter
    /// released; Ctrl-C stops it within 20 ms, also during a search (`KeyboardInterrupt`,
    /// the games unchanged).
    #[pyo3(signature = (kind, seed=Int(0)), text_signature = "($self, kind, seed=0)")]
    fn builtin_actions<'py>(
        &self,
        py: Python<'py>,
        kind: &str,
        seed: Int,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let bot = Bot::from_name(kind).ok_or_else(|| {
            invalid_argument(format!(
                "kind: unknown built-in player {} (known: {})",
                echo(kind),
                Bot::known_names()
            ))
        })?;
        let mut batch = self.batch()?;
        let n_actions = self.settings.layout.num_actions();
        let slots = &mut batch.slots;
        let watch = SignalWatch::new();
        let out = py.detach(|| {
            let mut mask = vec![0i8; n_actions];
            let mut out = Vec::with_capacity(slots.len());
            let mut last = Instant::now();
            let mut go_on = || watch.poll(&mut last);
            for (i, slot) in slots.iter_mut().enumerate() {
                let g = slot.session.game();
                if slot.done || g.is_terminal() || g.phase() == carcassonne::Phase::Draw {
                    out.push(-1);
                    continue;
                }
                let mut rng = Rng::new(mix((seed.0 as u64) ^ mix(i as u64 + 1)));
                let (game, legal) = slot.session.decision();
                let Some(action) = bot.choose_while(game, legal, &mut rng, &mut go_on) else {
                    break;
                };
                let focus = slot.session.pending_focus();
                let path = if focus.is_some() {
                    // The path is computed without the focus: take the focus back for a look.
                    let mut probe = slot.session.clone();
                    probe.cancel_focus();
                    probe.flat_path(action)
                } else {
                    slot.session.flat_path(action)
                };
                let id = match (focus, path) {
                    (None, Some(p)) => Some(p.first),
                    (Some(_), Some(p)) => p.second.filter(|s| slot.session.decode(*s).is_some()),
                    _ => None,
                };
                let id = match id {
                    Some(id) => id as i64,
                    None => {
                        slot.session
                            .legal_mask(&mut mask)
                            .expect("mask sized by the layout");
                        mask.iter().position(|m| *m == 1).map_or(-1, |k| k as i64)
                    }
                };
                out.push(id);
            }
            out
        });
        watch.into_result()?;
        Ok(Array1::from_vec(out).into_pyarray(py))
    }

    /// Whether built-in opponents play the other seats.
    #[getter]
    fn single_agent(&self) -> bool {
        self.settings.opponent.is_some()
    }

    /// The learner's seat in each game (single-agent mode; 0 in self-play).
    fn learner_seats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let batch = self.batch()?;
        Ok(Array1::from_iter(batch.slots.iter().map(|s| s.learner as i32)).into_pyarray(py))
    }

    /// Pickling and deep copies: the batch is rebuilt from its state (see the module
    /// documentation) and continues identically.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py
            .import("carcassonne._core")?
            .getattr("_vector_env_from_state")?;
        Ok((restore, (self.state()?.to_string(),)))
    }

    /// A copy of game `index` (with its pending focus).
    fn game(&self, index: Int) -> PyResult<PyGame> {
        let index = index.0;
        let i = usize::try_from(index)
            .ok()
            .filter(|i| *i < self.num_envs())
            .ok_or_else(|| {
                invalid_argument(format!("index {index}: envs are 0..{}", self.num_envs()))
            })?;
        Ok(PyGame::from_session(self.batch()?.slots[i].session.clone()))
    }

    /// Starts a new episode in every game and writes the first observations. `seeds`:
    /// `None` keeps each game's seed stream, an int `s` restarts the streams as a batch
    /// made with seed `s`, a list gives each game the seed of its next game (later games
    /// follow a stream started from that seed).
    #[pyo3(signature = (action_mask, to_play, board=None, globals=None, seeds=None, outside_window=None))]
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
    ) -> PyResult<()> {
        let n = self.num_envs();
        let mut batch = self.batch()?;
        if let Some(s) = seeds {
            if !s.is_none() {
                if let Some(base) = seed_from(s) {
                    for (i, slot) in batch.slots.iter_mut().enumerate() {
                        slot.stream = stream_of(base, i as u64);
                        slot.next_episode = 0;
                        slot.explicit_seed = None;
                    }
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
                    if list.len() != n {
                        return Err(invalid_argument(format!(
                            "seeds: {} seeds for {n} games",
                            list.len()
                        )));
                    }
                    for (slot, seed) in batch.slots.iter_mut().zip(list) {
                        slot.stream = stream_of(seed, 0);
                        slot.next_episode = 0;
                        slot.explicit_seed = Some(seed);
                    }
                }
            }
        }
        let mut arrays = Arrays::borrow(
            &self.settings,
            n,
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
        let bufs = arrays.slices()?;
        let watch = SignalWatch::new();
        let slots = &mut batch.slots;
        py.detach(|| {
            self.run(slots, bufs, &watch, |slot, _, mut out, settings, go_on| {
                slot.start_playable_episode(settings, out.mask, go_on);
                slot.write_observation(settings, &mut out);
            })
        });
        batch.interrupted = watch.stopped();
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
    #[pyo3(signature = (actions, action_mask, rewards, to_play, terminated, truncated, board=None, globals=None, final_scores=None, outside_window=None, episode_returns=None, episode_lengths=None, final_board=None, final_globals=None))]
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
    ) -> PyResult<()> {
        let n = self.num_envs();
        let mut batch = self.batch()?;
        if batch.interrupted {
            return Err(state_error(
                "VectorEnv: the last step or reset was interrupted and left the games \
                 partly stepped; call reset()",
            ));
        }
        let ids: Vec<u32> = {
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
            let a_max = self.settings.layout.num_actions() as i64;
            let mut ids = Vec::with_capacity(n);
            for (i, &id) in view.iter().enumerate() {
                if batch.slots[i].done {
                    if self.settings.autoreset == Autoreset::Disabled {
                        return Err(state_error(format!(
                            "env {i}: the episode is over; call reset()"
                        )));
                    }
                    ids.push(0);
                    continue;
                }
                let legal = (0..a_max).contains(&id) && batch.slots[i].offers(id as u32);
                if !legal && self.settings.illegal == IllegalPolicy::Raise {
                    return Err(illegal(format!("env {i}: action id {id} is not legal now")));
                }
                ids.push(if (0..a_max).contains(&id) {
                    id as u32
                } else {
                    u32::MAX
                });
            }
            ids
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
        let bufs = arrays.slices()?;
        let ids = &ids;
        let watch = SignalWatch::new();
        let slots = &mut batch.slots;
        py.detach(|| {
            self.run(slots, bufs, &watch, |slot, i, out, settings, go_on| {
                slot.step(settings, ids[i], out, go_on);
            })
        });
        batch.interrupted = watch.stopped();
        watch.into_result()
    }
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
        settings: &Settings,
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

    fn slices(&mut self) -> PyResult<Buffers<'_>> {
        Ok(Buffers {
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
        })
    }
}
