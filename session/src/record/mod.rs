//! Game records (format version 1): write a record for any game, load one, replay it and
//! report the first divergence.
//!
//! A record says how a game was set up, which tiles were drawn in which order, every
//! decision, and the scores after every turn. Replaying forces the record's draws
//! (explicit chance), applies every action, and compares every turn's scores and the
//! final scores. Bad input is an error that names the field (`turns[3].actions[1].x`)
//! and the value (cut short, [`json::echo`]), never a panic: duplicate keys, unknown keys
//! at every level, numbers out of range (never clamped or truncated) and values of the
//! wrong type are refused.
//!
//! Limits, with their values: a record holds at most [`MAX_RECORD_BYTES`] (4 MiB) of
//! JSON text and [`MAX_TURNS`] (4096) turns, nested at most [`json::MAX_DEPTH`] (32)
//! levels. [`RecordReader`] reads a file one record at a time, so memory is bounded by
//! the largest record, whatever the file's size; [`read_text_file`] reads a file of one
//! record with the same limit. A UTF-8 byte-order mark at the start of a record's text
//! is skipped.
//!
//! The engine also writes what a client needs beside the game: what each turn scored and
//! which figures returned (`events`, `final_events`), and what resumes the game exactly
//! (`resume`: the generator's state, the chance mode, the observation window and a
//! pending focus). [`load`] replays a record and restores that state, so a saved game in
//! sampled-chance mode goes on with the very draws the original would have made.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::record;
//! let mut game = Game::new(GameConfig::new(2)).unwrap();
//! while !game.is_terminal() {
//!     let a = game.legal_actions()[0];
//!     game.apply(a).unwrap();
//! }
//! let json = record::to_json(&game, "example").unwrap();
//! let replayed = record::replay_json(&json).unwrap();
//! assert_eq!(replayed.scores(), game.scores());
//! ```

use crate::encode::EncoderSpec;
use crate::sets;
use carcassonne::action::{Action, ActionKind, FieldKind, FieldValue, Seat};
use carcassonne::config::{Figure, GameConfig};
use carcassonne::game::{ChanceMode, Event, Game, Phase, ReturnCause, ScoreKind, ScoredParts};
use carcassonne::geometry::{Pos, Rotation};
use carcassonne::names::Named;
use carcassonne::tiles::{catalogue, TileKind};
use carcassonne::Rng;
use serde_json::{json, Map, Value};
use std::fmt;
use std::io::BufRead;

use crate::json::{self, describe, echo, parse_strict};

mod codec;
mod reader;
mod replay;
mod write;

pub use codec::*;
pub use reader::*;
pub use replay::*;
pub use write::*;

/// The `format` field of every record.
pub const FORMAT: &str = "carcassonne-record";
/// The supported record version.
pub const VERSION: u64 = 1;

/// Largest record accepted, in bytes of JSON text: 4 MiB (the record of a game with
/// every set is about 40 KB on one line).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// Most turns a record may list: 4096 (a game with every set has under 300).
pub const MAX_TURNS: usize = 4096;

// The keys of each object of a record. A key that is not listed is refused; adding an
// optional key to the format is one line here (and its reading in `replay`).

/// Keys of the record object.
const RECORD_KEYS: &[&str] = &[
    "format",
    "version",
    "id",
    "setup",
    "turns",
    "final_actions",
    "final_scores",
    "notes",
    // For clients: the final scoring's events, and what resumes the game exactly.
    "final_events",
    "resume",
];
/// Keys of a turn.
const TURN_KEYS: &[&str] = &[
    "player",
    "draw",
    "discarded",
    "actions",
    "scores",
    "events",
    // BZ1: the offer of a bazaar held at the end of the turn.
    "bazaar",
    // TB4: the second part of a turn, the builder's extra turn.
    "builder_bonus",
];
/// Keys of an event (informative: read for their keys only): a score (`points`, `what`,
/// `at`, `parts`) or a figure returned (`returned`, `at`, `cause`).
const EVENT_KEYS: &[&str] = &[
    "player",
    "points",
    "what",
    "at", // a score
    "parts",
    "returned",
    "cause", // for clients
    "goods",
    "count",     // TB1: goods taken
    "vineyards", // HS5: the vineyards around a completed monastery
];
/// Keys of an action besides `type`, `player` (who decides), the fields of its kind in
/// the action schema and the keys of the sets in play
/// ([`crate::sets::SetModule::record_action_keys`]): `(record type, keys)`.
const ACTION_EXTRA_KEYS: &[(&str, &[&str])] = &[
    // R6: the second tile placed in a turn names itself.
    ("place_tile", &["tile"]),
];

/// Keys of the `resume` object (what resumes a game exactly, for clients).
const RESUME_KEYS: &[&str] = &["rng", "chance", "window", "focus"];

/// What a record saves beside the game to resume it exactly (its `resume` object).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The state of the game's generator: the draws to come in sampled-chance mode.
    pub rng: Rng,
    /// How the game draws its tiles.
    pub chance: ChanceMode,
    /// The side of the observation window of the session that saved the game.
    pub window: Option<u16>,
    /// The focus tile picked by a flat `CELL` id, waiting for its `SLOT` id.
    pub focus: Option<Pos>,
}

impl Resume {
    /// What resumes `game` alone (no window, no focus).
    pub fn of(game: &Game) -> Resume {
        Resume {
            rng: game.rng().clone(),
            chance: game.chance_mode(),
            window: None,
            focus: None,
        }
    }

    /// The `resume` object.
    pub fn to_json(&self) -> Value {
        let mut v = json!({"rng": self.rng.to_hex(), "chance": chance_name(self.chance)});
        if let Some(w) = self.window {
            v["window"] = json!(w);
        }
        if let Some(p) = self.focus {
            v["focus"] = json!([p.x, p.y]);
        }
        v
    }

    /// Reads a `resume` object; errors name the field (`resume.rng`), unknown keys
    /// included.
    pub fn from_json(v: &Value) -> Result<Resume, RecordError> {
        let at = At::Top.key("resume");
        let o = as_object(v, &at)?;
        check_table(o, RESUME_KEYS, &at)?;
        let hex = as_str(field(o, "rng", &at)?, &at.key("rng"))?;
        let rng = Rng::from_hex(hex).map_err(|e| err("resume.rng", e))?;
        let chance = match o.get("chance") {
            None => ChanceMode::Sampled,
            Some(c) => {
                let name = as_str(c, &at.key("chance"))?;
                crate::options::chance_named(name).map_err(|e| err("resume.chance", e.message))?
            }
        };
        let window = match o.get("window") {
            None => None,
            Some(w) => {
                let range = EncoderSpec::MIN_WINDOW..=EncoderSpec::MAX_WINDOW;
                let side = w
                    .as_u64()
                    .and_then(|w| u16::try_from(w).ok())
                    .filter(|w| range.contains(w))
                    .ok_or_else(|| {
                        err(
                            "resume.window",
                            format!(
                                "{} is not a window side ({}..={})",
                                describe(w),
                                range.start(),
                                range.end()
                            ),
                        )
                    })?;
                Some(side)
            }
        };
        let focus = match o.get("focus") {
            None => None,
            Some(f) => {
                let xy = f.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
                    err(
                        "resume.focus",
                        format!("expected [x, y], found {}", describe(f)),
                    )
                })?;
                let coord = |i: usize| -> Result<i32, RecordError> {
                    let focus_at = at.key("focus");
                    let path = focus_at.index(i);
                    let n = as_int(&xy[i], &path)?;
                    i32::try_from(n)
                        .ok()
                        .filter(|n| (-10_000..=10_000).contains(n))
                        .ok_or_else(|| err(path, format!("{n} is out of range -10000..=10000")))
                };
                Some(Pos::new(coord(0)?, coord(1)?))
            }
        };
        Ok(Resume {
            rng,
            chance,
            window,
            focus,
        })
    }
}

/// The name of a chance mode in records and configurations.
pub fn chance_name(mode: ChanceMode) -> &'static str {
    match mode {
        ChanceMode::Sampled => "sampled",
        ChanceMode::Explicit => "explicit",
    }
}

/// The chance mode named `name` (`sampled`, `explicit`).
pub fn chance_from_name(name: &str) -> Option<ChanceMode> {
    match name {
        "sampled" => Some(ChanceMode::Sampled),
        "explicit" => Some(ChanceMode::Explicit),
        _ => None,
    }
}

/// A record loaded to be played on: the replayed game, its generator state and chance
/// mode restored, and the record's `resume` object (window and focus are the session's;
/// see [`crate::session::Session::resume`]).
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The game, ready to go on.
    pub game: Game,
    /// The record's `resume` object, if it has one.
    pub resume: Option<Resume>,
}

/// A record that could not be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// JSON path of the bad field (`setup.players`, `turns[4].actions[0].rot`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for RecordError {}

fn err(path: impl Into<String>, message: impl Into<String>) -> RecordError {
    RecordError {
        path: path.into(),
        message: message.into(),
    }
}

/// Where a replay first differed from the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Index of the record turn (0-based).
    pub turn: usize,
    /// Index of the action in that turn, if an action diverged.
    pub action: Option<usize>,
    /// What the record says.
    pub expected: String,
    /// What the engine did or allows.
    pub actual: String,
    /// For a score mismatch: the record's scores and the engine's.
    pub scores: Option<(Vec<i32>, Vec<i32>)>,
    /// For a divergence at a decision: what the engine was waiting for there.
    pub waiting: Option<Waiting>,
}

/// The decision a replayed game waited for where it diverged from its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The kind of decision.
    pub phase: Phase,
    /// The seat to decide.
    pub player: usize,
    /// The legal actions.
    pub legal: Vec<Action>,
}

/// Adds to a divergence the decision `game` waits for.
fn waiting_in(game: &Game, e: ReplayError) -> ReplayError {
    match e {
        ReplayError::Diverged(mut d) if !game.is_terminal() => {
            d.waiting = Some(Waiting {
                phase: game.phase(),
                player: game.to_play(),
                legal: game.legal().to_vec(),
            });
            ReplayError::Diverged(d)
        }
        other => other,
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Some(a) => write!(
                f,
                "turn {} action {}: expected {}; engine: {}",
                self.turn, a, self.expected, self.actual
            ),
            None if self.turn == usize::MAX => write!(
                f,
                "final scores: expected {}; engine: {}",
                self.expected, self.actual
            ),
            None => write!(
                f,
                "turn {}: expected {}; engine: {}",
                self.turn, self.expected, self.actual
            ),
        }
    }
}

/// Why a replay failed: the record is malformed, or the engine diverged from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The record could not be read.
    Bad(RecordError),
    /// The record was read, and the engine differs from it here.
    Diverged(Box<Divergence>),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Bad(e) => write!(f, "bad record: {e}"),
            ReplayError::Diverged(d) => write!(f, "diverged: {d}"),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<RecordError> for ReplayError {
    fn from(e: RecordError) -> ReplayError {
        ReplayError::Bad(e)
    }
}
