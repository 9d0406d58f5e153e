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
use serde_json::{json, Value};
use std::sync::Arc;

/// The batch as JSON.
/// The `opponent` of a saved batch whose opponents are played by the caller.
pub const EXTERNAL: &str = "external";

pub(super) fn to_value(batch: &Batch) -> Value {
    let s = &batch.settings;
    let penalty = match s.illegal {
        IllegalPolicy::Penalize(p) => p,
        IllegalPolicy::Raise | IllegalPolicy::Random => -1.0,
    };
    json!({
        "config": s.config.to_json(),
        "window": s.spec().window,
        "preset": s.layout.preset().name(),
        "reward": s.reward.name(),
        "opponent": if s.external {
            Some(EXTERNAL.to_string())
        } else {
            s.opponent.map(|b| b.to_string())
        },
        "learner_seat": s.learner_seat,
        "outside_window": s.outside.name(),
        "illegal_action": s.illegal.name(),
        "illegal_penalty": penalty,
        "autoreset": s.autoreset.name(),
        "threads": batch.threads,
        "slots": batch.envs.iter().map(env_state).collect::<Vec<_>>(),
        "interrupted": batch.interrupted,
    })
}

/// A game's part of a saved batch.
fn env_state(env: &Env) -> Value {
    json!({
        "record": env.session.record_value("vector-env"),
        "rng": env.rng.to_hex(),
        "learner": env.learner,
        "stream": env.stream,
        "next_episode": env.next_episode,
        "explicit_seed": env.explicit_seed,
        "seed": env.seed,
        "returns": env.returns.to_vec(),
        "length": env.length,
        "scores_before": env.scores_before.to_vec(),
        "done": env.done,
    })
}

/// A field of a saved state, or an error naming it.
fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, BatchError> {
    v.get(key)
        .ok_or_else(|| BatchError::record(format!("state: missing {key}")))
}

fn get_u64(v: &Value, key: &str) -> Result<u64, BatchError> {
    field(v, key)?
        .as_u64()
        .ok_or_else(|| BatchError::record(format!("state.{key}: expected an integer")))
}

fn get_str<'a>(v: &'a Value, key: &str) -> Result<&'a str, BatchError> {
    field(v, key)?
        .as_str()
        .ok_or_else(|| BatchError::record(format!("state.{key}: expected a string")))
}

/// A per-seat list of a saved game's state (`MAX_PLAYERS` values, each read by `read`;
/// `what` names them in the error).
fn per_seat<T: Copy + Default>(
    v: &Value,
    key: &str,
    what: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<[T; MAX_PLAYERS], BatchError> {
    let list = field(v, key)?
        .as_array()
        .filter(|a| a.len() == MAX_PLAYERS)
        .ok_or_else(|| BatchError::record(format!("state.{key}: expected a list")))?;
    let mut out = [T::default(); MAX_PLAYERS];
    for (o, x) in out.iter_mut().zip(list) {
        *o = read(x).ok_or_else(|| BatchError::record(format!("state.{key}: expected {what}")))?;
    }
    Ok(out)
}

/// `e` as an error of the part `what` of the state (`state.slots[3].record: ...`).
fn within(what: &str, e: BatchError) -> BatchError {
    match e.message.strip_prefix("state.") {
        Some(inner) => BatchError::record(format!("state.{what}.{inner}")),
        None => BatchError::record(format!("state.{what}: {}", e.message)),
    }
}

/// A game of a batch from its saved state.
fn env_from(v: &Value, layout: &Arc<Layout>, config: &GameConfig) -> Result<Env, BatchError> {
    let record = field(v, "record")?;
    let loaded =
        record::load(record, None).map_err(|e| BatchError::record(format!("state.record: {e}")))?;
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
    let rng = Rng::from_hex(get_str(v, "rng")?)
        .map_err(|e| BatchError::record(format!("state.rng: {e}")))?;
    let scores_before = per_seat(v, "scores_before", "integers", |s| {
        s.as_i64().and_then(|s| i32::try_from(s).ok())
    })?;
    let returns = per_seat(v, "returns", "numbers", |r| r.as_f64().map(|r| r as f32))?;
    let done = field(v, "done")?
        .as_bool()
        .ok_or_else(|| BatchError::record("state.done: expected a bool"))?;
    let learner = u8::try_from(get_u64(v, "learner")?)
        .ok()
        .filter(|l| (*l as usize) < session.game().num_players())
        .ok_or_else(|| BatchError::record("state.learner: not a seat"))?;
    let explicit_seed = match field(v, "explicit_seed")? {
        Value::Null => None,
        _ => Some(get_u64(v, "explicit_seed")?),
    };
    let length = u32::try_from(get_u64(v, "length")?)
        .map_err(|_| BatchError::record("state.length: out of range"))?;
    let mut scratch = vec![0i8; layout.num_actions()];
    let info = session
        .legal_mask(&mut scratch)
        .expect("mask buffer sized by the layout");
    Ok(Env {
        session,
        rng,
        learner,
        stream: get_u64(v, "stream")?,
        next_episode: get_u64(v, "next_episode")?,
        explicit_seed,
        seed: get_u64(v, "seed")?,
        returns,
        length,
        scores_before,
        info,
        done,
        board_row: 0,
        board_written: PlaneSet::ALL,
    })
}

/// A batch from its JSON.
pub(super) fn from_value(v: &Value) -> Result<Batch, BatchError> {
    let config = GameConfig::from_json(field(v, "config")?)
        .map_err(|e| BatchError::record(format!("state.config: {e}")))?;
    let window = i64::try_from(get_u64(v, "window")?).unwrap_or(i64::MAX);
    let spec = options::window_of(window).map_err(|e| BatchError::record(format!("state.{e}")))?;
    let preset = options::preset_named(get_str(v, "preset")?)
        .map_err(|e| BatchError::record(format!("state.{e}")))?;
    let layout = Arc::new(Layout::new(spec, preset, &config));
    let reward = get_str(v, "reward")?;
    let reward = RewardMode::from_name(reward).ok_or_else(|| {
        BatchError::record(format!(
            "state.reward: unknown mode {} ({})",
            crate::json::echo(reward),
            <RewardMode as carcassonne::names::Named>::names()
        ))
    })?;
    let external = field(v, "opponent")?.as_str() == Some(EXTERNAL);
    let opponent = match field(v, "opponent")? {
        Value::Null => None,
        _ if external => None,
        o => Some(
            o.as_str()
                .and_then(Bot::from_name)
                .ok_or_else(|| BatchError::record("state.opponent: unknown player"))?,
        ),
    };
    let learner_seat = match field(v, "learner_seat")? {
        Value::Null => None,
        s => Some(
            s.as_u64()
                .and_then(|s| u8::try_from(s).ok())
                .filter(|s| *s < config.players)
                .ok_or_else(|| BatchError::record("state.learner_seat: not a seat"))?,
        ),
    };
    let outside = get_str(v, "outside_window")?;
    let outside = OutsidePolicy::from_name(outside)
        .ok_or_else(|| BatchError::record(format!("state.outside_window: {outside:?}")))?;
    let penalty = field(v, "illegal_penalty")?
        .as_f64()
        .ok_or_else(|| BatchError::record("state.illegal_penalty: expected a number"))?;
    let illegal = match get_str(v, "illegal_action")? {
        "penalize" => IllegalPolicy::from_name("penalize", penalty)
            .map_err(|_| BatchError::record("state.illegal_penalty: not a finite 32-bit float"))?,
        other => IllegalPolicy::from_name(other, penalty)
            .map_err(|_| BatchError::record(format!("state.illegal_action: {other:?}")))?,
    };
    let autoreset = get_str(v, "autoreset")?;
    let autoreset = Autoreset::from_name(autoreset)
        .ok_or_else(|| BatchError::record(format!("state.autoreset: {autoreset:?}")))?;
    let envs = field(v, "slots")?
        .as_array()
        .filter(|a| !a.is_empty())
        .filter(|a| a.len() <= MAX_NUM_ENVS)
        .ok_or_else(|| {
            BatchError::record(format!(
                "state.slots: expected a list of 1 to {MAX_NUM_ENVS} games"
            ))
        })?
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            env_from(slot, &layout, &config).map_err(|e| within(&format!("slots[{i}]"), e))
        })
        .collect::<Result<Vec<Env>, BatchError>>()?;
    let threads = usize::try_from(get_u64(v, "threads")?)
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .ok_or_else(|| BatchError::record(format!("state.threads: 1 to {MAX_THREADS}")))?;
    let interrupted = field(v, "interrupted")?
        .as_bool()
        .ok_or_else(|| BatchError::record("state.interrupted: expected a bool"))?;
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
