//! A batch of games stepped by flat ids in one call, writing into caller-provided
//! buffers, with automatic reset: the engine of Python's `VectorEnv` (the Python crate
//! only converts numpy arrays and arguments, and runs it with the interpreter released).
//!
//! Two modes. Self-play (no opponent): every decision of every seat is returned; the
//! observation is that of the player to play, rewards are per seat. Single agent (a
//! built-in [`Bot`] as opponent): one learning seat per game (fixed, or drawn per
//! episode), the other seats played natively by the built-in player; the observation is
//! the learner's, rewards are accumulated per seat since the learner's previous decision.
//! External opponents ([`BatchSettings::external`]): one learning seat per game as in
//! single-agent mode, but nobody plays the other seats here: a game where an opponent
//! decides shows that seat's observation and mask, and the caller steps it with the
//! opponent's id ([`Batch::step_active`] steps only the games it is given, so each
//! opponent can decide for all the games that wait on it at once); the final observation
//! of an episode is the learner's.
//!
//! Every env draws the seeds of its episodes from its own stream ([`episode_seed`]): env
//! `i` of a batch made with seed `s` plays episode `k` with seed `episode_seed(s, i, k)`,
//! so batches made with different seeds share no game and [`Batch::episode_seeds`] tells
//! the seed of each current game. A step that ends an episode sets `terminated` (game
//! over) or `truncated` (no legal move can be offered in the window, or, with
//! [`OutsidePolicy::Truncate`], some legal move lies outside it), writes the final
//! scores, the episode's returns and length, and the final observation if asked; the
//! observation written is then the first one of the next episode
//! ([`Autoreset::SameStep`]).
//!
//! Observations, masks and ids are those of an observation preset ([`Layout`]).
//!
//! A batch saves itself as JSON ([`Batch::state`], [`Batch::from_state`]): the settings,
//! and per game its record (which resumes the game exactly: generator, window, pending
//! focus), the built-in players' generator, the learner's seat, the episode counter of its
//! seed stream, the episode's statistics so far, the scores the next rewards count from,
//! and whether it waits for a reset. The copy continues identically.
//!
//! Work is split over threads by rows of games ([`Batch::threads`]); a caller can stop a
//! call part way ([`Interrupt`]: Ctrl-C in Python), which leaves the batch needing a
//! reset. The step allocates nothing once the games' buffers have grown.
//!
//! ```
//! use carcassonne::GameConfig;
//! use carcassonne_session::encode::{EncoderSpec, Layout, Preset, RewardMode};
//! use carcassonne_session::vector::{Batch, BatchSettings, NoInterrupt, StepBuffers};
//! use std::sync::Arc;
//! let config = GameConfig::new(2);
//! let spec = EncoderSpec::new(16).unwrap();
//! let layout = Arc::new(Layout::new(spec, Preset::Compact, &config));
//! let mut batch = Batch::new(BatchSettings::new(config, layout), 4, 1).unwrap();
//! let mut buffers = batch.buffers();
//! batch.reset(buffers.view(), &NoInterrupt).unwrap();
//! for _ in 0..10 {
//!     // The first offered id of each game.
//!     let a = batch.settings().layout.num_actions();
//!     let ids: Vec<i64> = buffers.mask.chunks(a)
//!         .map(|m| m.iter().position(|x| *x == 1).unwrap() as i64)
//!         .collect();
//!     let ids = batch.check_actions(&ids).unwrap();
//!     batch.step(&ids, buffers.view(), &NoInterrupt).unwrap();
//! }
//! ```

mod env;
mod run;
mod state;

use crate::bots::Bot;
use crate::encode::{EncoderSpec, Layout, RewardMode};
use carcassonne::{GameConfig, Rng};
use env::Env;
pub use run::{Interrupt, NoInterrupt, OwnedBuffers, StepBuffers};
pub use state::EXTERNAL;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

carcassonne::named_enum! {
    /// What to do with legal moves outside the window.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum OutsidePolicy {
        /// Not offered; the episode is truncated only if nothing can be offered.
        #[default]
        Mask = "mask",
        /// The episode is truncated as soon as a legal move lies outside.
        Truncate = "truncate",
    }
}

carcassonne::named_enum! {
    /// When a game whose episode ended starts the next one.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Autoreset {
        /// In the step that ends the episode: the observation written is the next
        /// episode's.
        #[default]
        SameStep = "same-step",
        /// In the next step (its action is ignored): the final observation is written
        /// first.
        NextStep = "next-step",
        /// Never: [`Batch::reset`] must be called.
        Disabled = "disabled",
    }
}

/// What to do with an action id the mask does not offer.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub enum IllegalPolicy {
    /// Refuse the step before any game is stepped ([`Batch::check_actions`]).
    #[default]
    Raise,
    /// Leave that game unchanged and give the acting seat this reward (finite).
    Penalize(f32),
    /// Play a uniformly random offered id instead.
    Random,
}

impl IllegalPolicy {
    /// The policy's name: `raise`, `penalize` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            IllegalPolicy::Raise => "raise",
            IllegalPolicy::Penalize(_) => "penalize",
            IllegalPolicy::Random => "random",
        }
    }

    /// The policy named `name`, with `penalty` for `penalize` (refused unless it is a
    /// finite float32: `1e39` is finite as an `f64` only).
    pub fn from_name(name: &str, penalty: f64) -> Result<IllegalPolicy, String> {
        match name {
            "raise" => Ok(IllegalPolicy::Raise),
            "random" => Ok(IllegalPolicy::Random),
            "penalize" => {
                let p = penalty as f32;
                if p.is_finite() {
                    Ok(IllegalPolicy::Penalize(p))
                } else {
                    Err("illegal_penalty: must be a finite number (as a float32 reward too)".into())
                }
            }
            other => Err(format!(
                "illegal_action: unknown policy {} (raise, penalize, random)",
                crate::json::echo(other)
            )),
        }
    }
}

// ----- seeds ---------------------------------------------------------------------------------

/// SplitMix64's output function: a bijection of `u64` that mixes every bit.
pub const fn mix(mut z: u64) -> u64 {
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

// ----- settings and errors -------------------------------------------------------------------

/// The settings shared by every game of a batch.
#[derive(Clone, Debug)]
pub struct BatchSettings {
    /// The games' configuration (its seed starts the seed streams).
    pub config: GameConfig,
    /// The observation preset of the observations, masks and ids (and its window).
    pub layout: Arc<Layout>,
    /// How rewards are computed.
    pub reward: RewardMode,
    /// The built-in player of the other seats (single-agent mode), or none (self-play).
    pub opponent: Option<Bot>,
    /// The other seats are played by the caller (see the module documentation); only
    /// without a built-in `opponent`.
    pub external: bool,
    /// The learner's seat, or `None` to draw it per episode (single-agent mode).
    pub learner_seat: Option<u8>,
    /// Moves outside the window.
    pub outside: OutsidePolicy,
    /// Ids the mask does not offer.
    pub illegal: IllegalPolicy,
    /// When an ended episode restarts.
    pub autoreset: Autoreset,
}

impl BatchSettings {
    /// Self-play of `config` through `layout`, with the defaults: `score` rewards, moves
    /// outside the window masked, illegal ids refused, reset in the same step.
    pub fn new(config: GameConfig, layout: Arc<Layout>) -> BatchSettings {
        BatchSettings {
            config,
            layout,
            reward: RewardMode::default(),
            opponent: None,
            external: false,
            learner_seat: Some(0),
            outside: OutsidePolicy::default(),
            illegal: IllegalPolicy::default(),
            autoreset: Autoreset::default(),
        }
    }

    /// The window.
    pub fn spec(&self) -> EncoderSpec {
        self.layout.spec()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.config.players as usize
    }

    /// Whether the games have a learning seat (built-in or external opponents).
    pub fn single_agent(&self) -> bool {
        self.opponent.is_some() || self.external
    }

    /// Refuses a learner seat that is not a seat of the configuration, and external
    /// opponents with a built-in one.
    fn check(&self) -> Result<(), BatchError> {
        if self.external && self.opponent.is_some() {
            return Err(BatchError::config(
                "opponents: external opponents and a built-in player at once",
            ));
        }
        if let Some(s) = self.learner_seat {
            if s >= self.config.players {
                return Err(BatchError::config(format!(
                    "learner_seat: {s}; seats are 0..{}",
                    self.config.players
                )));
            }
        }
        Ok(())
    }
}

/// What kind of failure a [`BatchError`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BatchErrorKind {
    /// A setting is invalid (the batch was not made).
    InvalidConfig,
    /// An argument of a call is invalid (a buffer's length, a seed list).
    InvalidArgument,
    /// A saved state is not one, or contradicts itself.
    InvalidRecord,
    /// An id the mask does not offer, under [`IllegalPolicy::Raise`].
    IllegalAction,
    /// The call needs a reset first (an episode is over without autoreset, or the last
    /// call was interrupted).
    NeedsReset,
}

/// Why a batch refused a call (nothing was stepped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchError {
    /// What kind of failure.
    pub kind: BatchErrorKind,
    /// What was wrong, naming the argument or field.
    pub message: String,
}

impl BatchError {
    fn new(kind: BatchErrorKind, message: impl Into<String>) -> BatchError {
        BatchError {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> BatchError {
        BatchError::new(BatchErrorKind::InvalidConfig, message)
    }

    pub(crate) fn argument(message: impl Into<String>) -> BatchError {
        BatchError::new(BatchErrorKind::InvalidArgument, message)
    }

    pub(crate) fn record(message: impl Into<String>) -> BatchError {
        BatchError::new(BatchErrorKind::InvalidRecord, message)
    }
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BatchError {}

// ----- memory --------------------------------------------------------------------------------

/// Estimated memory of one game of a batch besides its buffers: the engine's state
/// through a whole game (about 30 KB at the start, 45 KB after 60 decisions, measured
/// with two players and the base set), with room to spare: 128 KiB.
pub const ENGINE_BYTES_PER_ENV: usize = 128 << 10;

/// Most memory a batch may need, its buffers and those of the caller included (estimated
/// before anything is allocated): 8 GiB, and never more than the memory the system says
/// is available.
pub const MAX_BATCH_BYTES: usize = 8 << 30;

/// Most games of one batch: 1,048,576.
pub const MAX_NUM_ENVS: usize = 1 << 20;

/// Most threads of one batch.
pub const MAX_THREADS: usize = 256;

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
fn check_batch_memory(num_envs: usize, layout: &Layout, players: usize) -> Result<(), BatchError> {
    let per = bytes_per_env(layout, players);
    let need = per.saturating_mul(num_envs);
    let (limit, what) = match available_memory() {
        Some(avail) if avail < MAX_BATCH_BYTES => (avail, "the memory available"),
        _ => (MAX_BATCH_BYTES, "the limit of a batch"),
    };
    if need > limit {
        let mib = |b: usize| b >> 20;
        return Err(BatchError::config(format!(
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

// ----- the batch -----------------------------------------------------------------------------

/// A batch of games (see the module documentation).
#[derive(Debug)]
pub struct Batch {
    settings: Arc<BatchSettings>,
    threads: usize,
    envs: Vec<Env>,
    /// A step or reset stopped part way: only [`Batch::reset`] may follow.
    interrupted: bool,
}

impl Batch {
    /// `num_envs` games (1 to [`MAX_NUM_ENVS`]) of `settings`, stepped on `threads`
    /// threads (1 to [`MAX_THREADS`]); refused when its memory would exceed
    /// [`MAX_BATCH_BYTES`] or what the system has available. The games start with
    /// [`Batch::reset`].
    pub fn new(
        settings: BatchSettings,
        num_envs: usize,
        threads: usize,
    ) -> Result<Batch, BatchError> {
        if !(1..=MAX_NUM_ENVS).contains(&num_envs) {
            return Err(BatchError::config(format!(
                "num_envs: {num_envs}; 1 to {MAX_NUM_ENVS} games"
            )));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(BatchError::config(format!(
                "threads: {threads}; 1 to {MAX_THREADS}"
            )));
        }
        settings.check()?;
        check_batch_memory(num_envs, &settings.layout, settings.players())?;
        let base = settings.config.seed;
        let envs = (0..num_envs as u64)
            .map(|i| Env::new(&settings, stream_of(base, i)))
            .collect();
        Ok(Batch {
            settings: Arc::new(settings),
            threads,
            envs,
            interrupted: false,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &Arc<BatchSettings> {
        &self.settings
    }

    /// Number of games.
    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Threads a call runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the last call was interrupted (only [`Batch::reset`] may follow).
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Buffers for every output of a call, zeroed (see [`OwnedBuffers`]).
    pub fn buffers(&self) -> OwnedBuffers {
        OwnedBuffers::new(&self.settings, self.num_envs())
    }

    /// The game `index` plays with its pending focus (`None` past the last game).
    pub fn session(&self, index: usize) -> Option<&crate::session::Session> {
        self.envs.get(index).map(|e| &e.session)
    }

    /// The seed of each game's current episode.
    pub fn episode_seeds(&self) -> Vec<u64> {
        self.envs.iter().map(|e| e.seed).collect()
    }

    /// The learner's seat in each game (single-agent mode; 0 in self-play).
    pub fn learner_seats(&self) -> Vec<u8> {
        self.envs.iter().map(|e| e.learner).collect()
    }

    /// Restarts the seed streams as those of a batch made with seed `seed` (the next
    /// reset starts each game's episode 0).
    pub fn reseed(&mut self, seed: u64) {
        for (i, e) in self.envs.iter_mut().enumerate() {
            e.stream = stream_of(seed, i as u64);
            e.next_episode = 0;
            e.explicit_seed = None;
        }
    }

    /// Gives each game the seed of its next episode (later episodes follow a stream
    /// started from that seed); one seed per game.
    pub fn set_next_seeds(&mut self, seeds: &[u64]) -> Result<(), BatchError> {
        if seeds.len() != self.num_envs() {
            return Err(BatchError::argument(format!(
                "seeds: {} seeds for {} games",
                seeds.len(),
                self.num_envs()
            )));
        }
        for (e, &seed) in self.envs.iter_mut().zip(seeds) {
            e.stream = stream_of(seed, 0);
            e.next_episode = 0;
            e.explicit_seed = Some(seed);
        }
        Ok(())
    }

    /// Starts a new episode in every game and writes the first observations, masks and
    /// seats to play (`rewards`, `terminated`, `truncated` and the episode rows are not
    /// written). `stop` may interrupt it.
    pub fn reset(&mut self, out: StepBuffers<'_>, stop: &dyn Interrupt) -> Result<(), BatchError> {
        out.check(&self.settings, self.num_envs())?;
        let settings = self.settings.clone();
        let stopped = run::run(
            &mut self.envs,
            &settings,
            self.threads,
            out,
            stop,
            |env, _, mut out, go_on| {
                env.start_playable_episode(&settings, out.mask, go_on);
                env.write_observation(&settings, &mut out);
            },
        );
        self.interrupted = stopped;
        Ok(())
    }

    /// What checking and stepping the games refuse before reading any id: an `active`
    /// list that does not have one flag per game, and any call after an interrupted one.
    fn check_steppable(&self, active: Option<&[bool]>) -> Result<(), BatchError> {
        if let Some(active) = active {
            if active.len() != self.num_envs() {
                return Err(BatchError::argument(format!(
                    "active: shape [{}], expected [{}]",
                    active.len(),
                    self.num_envs()
                )));
            }
        }
        if self.interrupted {
            return Err(BatchError::new(
                BatchErrorKind::NeedsReset,
                "VectorEnv: the last step or reset was interrupted and left the games partly \
                 stepped; call reset()",
            ));
        }
        Ok(())
    }

    /// The ids of `actions` (one per game, as given: out of range, negative or not
    /// offered are judged here) as the engine steps them, checked before any game
    /// moves: after an interrupted call, or for an ended episode without autoreset, a
    /// reset is needed; an id the mask does not offer is refused under
    /// [`IllegalPolicy::Raise`].
    pub fn check_actions(&mut self, actions: &[i64]) -> Result<Vec<u32>, BatchError> {
        self.check_active_actions(actions, None)
    }

    /// [`Batch::check_actions`] for the games `active` marks (one flag per game; `None`
    /// for every game): the others' ids are not read.
    pub fn check_active_actions(
        &mut self,
        actions: &[i64],
        active: Option<&[bool]>,
    ) -> Result<Vec<u32>, BatchError> {
        self.check_steppable(active)?;
        if actions.len() != self.num_envs() {
            return Err(BatchError::argument(format!(
                "actions: shape [{}], expected [{}]",
                actions.len(),
                self.num_envs()
            )));
        }
        let a_max = self.settings.layout.num_actions() as i64;
        let mut ids = Vec::with_capacity(actions.len());
        for (i, &id) in actions.iter().enumerate() {
            if active.is_some_and(|a| !a[i]) {
                ids.push(u32::MAX);
                continue;
            }
            let env = &mut self.envs[i];
            if env.done {
                if self.settings.autoreset == Autoreset::Disabled {
                    return Err(BatchError::new(
                        BatchErrorKind::NeedsReset,
                        format!("env {i}: the episode is over; call reset()"),
                    ));
                }
                ids.push(0);
                continue;
            }
            let in_range = (0..a_max).contains(&id);
            if !(in_range && env.offers(id as u32)) && self.settings.illegal == IllegalPolicy::Raise
            {
                return Err(BatchError::new(
                    BatchErrorKind::IllegalAction,
                    format!("env {i}: action id {id} is not legal now"),
                ));
            }
            ids.push(if in_range { id as u32 } else { u32::MAX });
        }
        Ok(ids)
    }

    /// Steps every game with its id from `ids` ([`Batch::check_actions`]) and writes the
    /// results. For a game whose episode ends in this step the final scores, the
    /// episode's returns and length and (when both buffers are given) the final
    /// observation are written; the other rows of the final scores, returns and lengths
    /// are set to 0, those of the final observation left as they were. Refused after an
    /// interrupted call (reset first). `stop` may interrupt it.
    pub fn step(
        &mut self,
        ids: &[u32],
        out: StepBuffers<'_>,
        stop: &dyn Interrupt,
    ) -> Result<(), BatchError> {
        self.step_active(ids, None, out, stop)
    }

    /// [`Batch::step`] of the games `active` marks (one flag per game; `None` for every
    /// game): the others are not stepped and their rows of every buffer are left as they
    /// were. With external opponents, this is how the caller plays the opponents of the
    /// games that wait on one of them.
    pub fn step_active(
        &mut self,
        ids: &[u32],
        active: Option<&[bool]>,
        out: StepBuffers<'_>,
        stop: &dyn Interrupt,
    ) -> Result<(), BatchError> {
        self.check_steppable(active)?;
        if ids.len() != self.num_envs() {
            return Err(BatchError::argument(format!(
                "actions: {} ids for {} games",
                ids.len(),
                self.num_envs()
            )));
        }
        out.check(&self.settings, self.num_envs())?;
        let settings = self.settings.clone();
        let stopped = run::run(
            &mut self.envs,
            &settings,
            self.threads,
            out,
            stop,
            |env, i, out, go_on| {
                if active.is_none_or(|a| a[i]) {
                    env.step(&settings, ids[i], out, go_on)
                }
            },
        );
        self.interrupted = stopped;
        Ok(())
    }

    /// The id the built-in player `bot` would take now in each game (-1 where nothing is
    /// offered). With a pending focus, the second id of the player's action if it goes
    /// through that focus, else the first offered id. `seed` seeds the players'
    /// tie-breaks. `None` when `stop` interrupted it (the games are unchanged).
    pub fn builtin_actions(
        &mut self,
        bot: Bot,
        seed: u64,
        stop: &dyn Interrupt,
    ) -> Option<Vec<i64>> {
        self.builtin_actions_of(bot, seed, None, stop)
    }

    /// [`Batch::builtin_actions`] in the games `active` marks (one flag per game, -1 for
    /// the others; `None` for every game): a built-in member of a pool of external
    /// opponents decides for its games only. An `active` of another length is treated as
    /// marking no game.
    pub fn builtin_actions_of(
        &mut self,
        bot: Bot,
        seed: u64,
        active: Option<&[bool]>,
        stop: &dyn Interrupt,
    ) -> Option<Vec<i64>> {
        let mut mask = vec![0i8; self.settings.layout.num_actions()];
        let mut out = Vec::with_capacity(self.envs.len());
        let mut last = std::time::Instant::now();
        let mut go_on = || stop.poll(&mut last);
        for (i, env) in self.envs.iter_mut().enumerate() {
            if active.is_some_and(|a| a.get(i) != Some(&true)) {
                out.push(-1);
                continue;
            }
            let mut rng = Rng::new(mix(seed ^ mix(i as u64 + 1)));
            out.push(env.builtin_action(bot, &mut rng, &mut mask, &mut go_on)?);
        }
        Some(out)
    }

    /// The JSON of the batch (see the module documentation).
    pub fn state(&self) -> serde_json::Value {
        state::to_value(self)
    }

    /// A batch from its JSON ([`Batch::state`]). Anything that is not the state of a
    /// batch, or contradicts itself (a learner seat that is not a seat, a game of another
    /// setup, a game waiting for an opponent), is an
    /// [`BatchErrorKind::InvalidRecord`] error naming the field.
    pub fn from_state(v: &serde_json::Value) -> Result<Batch, BatchError> {
        state::from_value(v)
    }
}

/// How often [`Batch::builtin_actions`] and the calling thread of a step look for an
/// interruption.
pub const INTERRUPT_INTERVAL: Duration = Duration::from_millis(20);
