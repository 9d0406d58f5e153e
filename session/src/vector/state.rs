//! A batch saved as JSON and read back ([`super::Batch::state`],
//! [`super::Batch::from_state`]): what resumes every game exactly, checked on load so that
//! a state that contradicts itself is refused, naming the field.

use super::env::Env;
use super::{
    Autoreset, Batch, BatchError, BatchSettings, IllegalPolicy, OutsidePolicy, MAX_NUM_ENVS,
    MAX_THREADS,
};
use crate::bots::Bot;
use crate::encode::{Layout, PlaneSet, RewardMode};
use crate::options;
use crate::record;
use crate::session::Session;
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{ChanceMode, GameConfig, Rng};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// The `opponent` of a saved batch whose opponents are played by the caller.
pub const EXTERNAL: &str = "external";

/// A saved batch: every field required (a missing `null` is an error too), no other
/// field accepted.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    /// The configuration, read by [`GameConfig::from_json`].
    config: Value,
    window: i64,
    preset: String,
    reward: String,
    #[serde(deserialize_with = "Option::deserialize")]
    opponent: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    learner_seat: Option<u64>,
    outside_window: String,
    illegal_action: String,
    illegal_penalty: f64,
    autoreset: String,
    threads: u64,
    slots: Vec<SavedSlot>,
    interrupted: bool,
}

/// A game's part of a saved batch.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedSlot {
    /// The game's record, read by [`record::load`].
    record: Value,
    rng: String,
    learner: u64,
    stream: u64,
    next_episode: u64,
    #[serde(deserialize_with = "Option::deserialize")]
    explicit_seed: Option<u64>,
    seed: u64,
    returns: [f32; MAX_PLAYERS],
    length: u64,
    scores_before: [i32; MAX_PLAYERS],
    done: bool,
}

/// The batch as JSON.
pub(super) fn to_value(batch: &Batch) -> Value {
    let s = &batch.settings;
    let penalty = match s.illegal {
        IllegalPolicy::Penalize(p) => p,
        IllegalPolicy::Raise | IllegalPolicy::Random => -1.0,
    };
    let saved = Saved {
        config: s.config.to_json(),
        window: i64::from(s.spec().window),
        preset: s.layout.preset().name().into(),
        reward: s.reward.name().into(),
        opponent: if s.external {
            Some(EXTERNAL.to_string())
        } else {
            s.opponent.map(|b| b.to_string())
        },
        learner_seat: s.learner_seat.map(u64::from),
        outside_window: s.outside.name().into(),
        illegal_action: s.illegal.name().into(),
        illegal_penalty: f64::from(penalty),
        autoreset: s.autoreset.name().into(),
        threads: batch.threads as u64,
        slots: batch.envs.iter().map(env_state).collect(),
        interrupted: batch.interrupted,
    };
    serde_json::to_value(saved).expect("a saved batch is JSON")
}

/// A game's part of a saved batch.
fn env_state(env: &Env) -> SavedSlot {
    SavedSlot {
        record: env.session.record_value("vector-env"),
        rng: env.rng.to_hex(),
        learner: u64::from(env.learner),
        stream: env.stream,
        next_episode: env.next_episode,
        explicit_seed: env.explicit_seed,
        seed: env.seed,
        returns: env.returns,
        length: u64::from(env.length),
        scores_before: env.scores_before,
        done: env.done,
    }
}

/// `e` as an error of the part `what` of the state (`state.slots[3].record: ...`).
fn within(what: &str, e: BatchError) -> BatchError {
    match e.message.strip_prefix("state.") {
        Some(inner) => BatchError::record(format!("state.{what}.{inner}")),
        None => BatchError::record(format!("state.{what}: {}", e.message)),
    }
}

/// A game of a batch from its saved state.
fn env_from(v: SavedSlot, layout: &Arc<Layout>, config: &GameConfig) -> Result<Env, BatchError> {
    let loaded = record::load(&v.record, None)
        .map_err(|e| BatchError::record(format!("state.record: {e}")))?;
    // The game is one of the batch's: the same setup but for its seed, and it draws from
    // its generator (sampled chance), as every game of a batch does.
    let game = &loaded.game;
    let setup = |c: &GameConfig| (c.players, c.edition, c.sets.clone(), c.rules, c.figures);
    if setup(game.config()) != setup(config) {
        return Err(BatchError::record(
            "state.record: the game's setup is not the batch's (players, edition, sets, \
             rules, figures)",
        ));
    }
    if game.chance_mode() != ChanceMode::Sampled {
        return Err(BatchError::record(
            "state.record: the game draws in explicit-chance mode; a batch samples its draws",
        ));
    }
    let mut session = Session::resume(loaded, Some(layout.spec()))
        .map_err(|e| BatchError::record(format!("state.record: {e}")))?;
    session
        .set_layout(layout.clone())
        .map_err(|_| BatchError::record("state.window: not the layout's window"))?;
    let rng = Rng::from_hex(&v.rng).map_err(|e| BatchError::record(format!("state.rng: {e}")))?;
    let learner = u8::try_from(v.learner)
        .ok()
        .filter(|l| (*l as usize) < session.game().num_players())
        .ok_or_else(|| BatchError::record("state.learner: not a seat"))?;
    let length =
        u32::try_from(v.length).map_err(|_| BatchError::record("state.length: out of range"))?;
    let mut scratch = vec![0i8; layout.num_actions()];
    let info = session
        .legal_mask(&mut scratch)
        .expect("mask buffer sized by the layout");
    Ok(Env {
        session,
        rng,
        learner,
        stream: v.stream,
        next_episode: v.next_episode,
        explicit_seed: v.explicit_seed,
        seed: v.seed,
        returns: v.returns,
        length,
        scores_before: v.scores_before,
        info,
        done: v.done,
        board_row: 0,
        board_written: PlaneSet::ALL,
    })
}

/// A batch from its JSON.
pub(super) fn from_value(v: &Value) -> Result<Batch, BatchError> {
    let v: Saved = serde_path_to_error::deserialize(v).map_err(|e| {
        let inner = e.inner().to_string();
        if e.path().iter().next().is_none() {
            BatchError::record(format!("state: {inner}"))
        } else {
            BatchError::record(format!("state.{}: {inner}", e.path()))
        }
    })?;
    let config = GameConfig::from_json(&v.config)
        .map_err(|e| BatchError::record(format!("state.config: {e}")))?;
    let spec =
        options::window_of(v.window).map_err(|e| BatchError::record(format!("state.{e}")))?;
    let preset =
        options::preset_named(&v.preset).map_err(|e| BatchError::record(format!("state.{e}")))?;
    let layout = Arc::new(Layout::new(spec, preset, &config));
    let reward = RewardMode::from_name(&v.reward).ok_or_else(|| {
        BatchError::record(format!(
            "state.reward: unknown mode {} ({})",
            crate::json::echo(&v.reward),
            <RewardMode as carcassonne::names::Named>::names()
        ))
    })?;
    let external = v.opponent.as_deref() == Some(EXTERNAL);
    let opponent = match &v.opponent {
        None => None,
        _ if external => None,
        Some(o) => Some(
            Bot::from_name(o)
                .ok_or_else(|| BatchError::record("state.opponent: unknown player"))?,
        ),
    };
    let learner_seat = match v.learner_seat {
        None => None,
        Some(s) => Some(
            u8::try_from(s)
                .ok()
                .filter(|s| *s < config.players)
                .ok_or_else(|| BatchError::record("state.learner_seat: not a seat"))?,
        ),
    };
    let outside = OutsidePolicy::from_name(&v.outside_window).ok_or_else(|| {
        BatchError::record(format!("state.outside_window: {:?}", v.outside_window))
    })?;
    let illegal = match v.illegal_action.as_str() {
        "penalize" => IllegalPolicy::from_name("penalize", v.illegal_penalty)
            .map_err(|_| BatchError::record("state.illegal_penalty: not a finite 32-bit float"))?,
        other => IllegalPolicy::from_name(other, v.illegal_penalty)
            .map_err(|_| BatchError::record(format!("state.illegal_action: {other:?}")))?,
    };
    let autoreset = Autoreset::from_name(&v.autoreset)
        .ok_or_else(|| BatchError::record(format!("state.autoreset: {:?}", v.autoreset)))?;
    if v.slots.is_empty() || v.slots.len() > MAX_NUM_ENVS {
        return Err(BatchError::record(format!(
            "state.slots: expected a list of 1 to {MAX_NUM_ENVS} games"
        )));
    }
    let envs = v
        .slots
        .into_iter()
        .enumerate()
        .map(|(i, slot)| {
            env_from(slot, &layout, &config).map_err(|e| within(&format!("slots[{i}]"), e))
        })
        .collect::<Result<Vec<Env>, BatchError>>()?;
    let threads = usize::try_from(v.threads)
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .ok_or_else(|| BatchError::record(format!("state.threads: 1 to {MAX_THREADS}")))?;
    let interrupted = v.interrupted;
    for (i, env) in envs.iter().enumerate() {
        if learner_seat.is_some_and(|s| s != env.learner) {
            return Err(BatchError::record(format!(
                "state.slots[{i}].learner: {} is not the batch's learner seat",
                env.learner
            )));
        }
        // With opponents, a game between steps waits for its learner (the opponents have
        // played), unless its episode is over or the batch was interrupted.
        let game = env.session.game();
        if opponent.is_some()
            && !interrupted
            && !env.done
            && !game.is_terminal()
            && game.to_play() != env.learner as usize
        {
            return Err(BatchError::record(format!(
                "state.slots[{i}]: seat {} is to play, not the learner (seat {}), and the \
                 opponents would have played",
                game.to_play(),
                env.learner
            )));
        }
    }
    Ok(Batch {
        settings: Arc::new(BatchSettings {
            config,
            layout,
            reward,
            opponent,
            external,
            learner_seat,
            outside,
            illegal,
            autoreset,
        }),
        threads,
        envs,
        interrupted,
    })
}
