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
//! the largest record, whatever the file's size.
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
use carcassonne::action::{Action, ActionKind, FieldKind, FieldValue, Seat};
use carcassonne::config::{Figure, GameConfig};
use carcassonne::game::{ChanceMode, Event, Game, Phase, ReturnCause, ScoreKind, ScoredParts};
use carcassonne::geometry::{Corner, Pos, Rotation};
use carcassonne::names::Named;
use carcassonne::rules::bcb::{Bridge, MAX_BID};
use carcassonne::tiles::{catalogue, TileKind};
use carcassonne::Rng;
use serde_json::{json, Map, Value};
use std::fmt;
use std::io::BufRead;

use crate::json::{self, describe, echo, parse_strict};

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
    "player", "points", "what", "at", // a score
    "parts", "returned", "cause", // for clients
    "goods", "count", // TB1: goods taken
];
/// Keys of an action besides `type`, `player` (who decides) and the fields of its kind
/// in the action schema: `(record type, keys)`.
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
        let o = as_object(v, "resume")?;
        check_table(o, RESUME_KEYS, "resume")?;
        let hex = as_str(field(o, "rng", "resume")?, "resume.rng")?;
        let rng = Rng::from_hex(hex).map_err(|e| err("resume.rng", e))?;
        let chance = match o.get("chance") {
            None => ChanceMode::Sampled,
            Some(c) => {
                let name = as_str(c, "resume.chance")?;
                chance_from_name(name).ok_or_else(|| {
                    err(
                        "resume.chance",
                        format!("unknown chance mode {} (sampled, explicit)", echo(name)),
                    )
                })?
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
                    let path = format!("resume.focus[{i}]");
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

// ----- reading helpers -----------------------------------------------------------------

fn field<'a>(obj: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a Value, RecordError> {
    obj.get(key)
        .ok_or_else(|| err(format!("{path}.{key}").trim_start_matches('.'), "missing"))
}

fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, RecordError> {
    v.as_object()
        .ok_or_else(|| err(path, format!("expected an object, found {}", describe(v))))
}

fn as_int(v: &Value, path: &str) -> Result<i64, RecordError> {
    v.as_i64()
        .ok_or_else(|| err(path, format!("expected an integer, found {}", describe(v))))
}

fn as_str<'a>(v: &'a Value, path: &str) -> Result<&'a str, RecordError> {
    v.as_str()
        .ok_or_else(|| err(path, format!("expected a string, found {}", describe(v))))
}

fn as_array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, RecordError> {
    v.as_array()
        .ok_or_else(|| err(path, format!("expected an array, found {}", describe(v))))
}

/// `path.key`, or `key` at the top level.
fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Refuses a key of `o` that `allowed` does not list.
fn check_keys(
    o: &Map<String, Value>,
    allowed: impl Fn(&str) -> bool,
    names: impl Fn() -> Vec<String>,
    path: &str,
) -> Result<(), RecordError> {
    match o.keys().find(|k| !allowed(k)) {
        None => Ok(()),
        Some(k) => Err(err(
            child(path, &json::echo_key(k)),
            format!("unknown key (allowed: {})", names().join(", ")),
        )),
    }
}

/// Refuses a key of `o` that is not in `keys`.
fn check_table(o: &Map<String, Value>, keys: &[&str], path: &str) -> Result<(), RecordError> {
    check_keys(
        o,
        |k| keys.contains(&k),
        || keys.iter().map(|k| k.to_string()).collect(),
        path,
    )
}

fn int_field(obj: &Map<String, Value>, key: &str, path: &str) -> Result<i64, RecordError> {
    as_int(field(obj, key, path)?, &format!("{path}.{key}"))
}

fn small_int(
    obj: &Map<String, Value>,
    key: &str,
    path: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, RecordError> {
    let v = int_field(obj, key, path)?;
    if !range.contains(&v) {
        return Err(err(
            format!("{path}.{key}"),
            format!("{v} is out of range {}..={}", range.start(), range.end()),
        ));
    }
    Ok(v)
}

fn tile_by_id(id: &str, path: &str) -> Result<TileKind, RecordError> {
    catalogue()
        .by_id(id)
        .ok_or_else(|| err(path, format!("unknown tile id {}", echo(id))))
}

/// Reads a `setup` object into a configuration (validated); errors name the field
/// under `setup` (`setup.rules.fairy`).
pub fn config_from_setup(setup: &Value) -> Result<GameConfig, RecordError> {
    GameConfig::from_json(setup).map_err(|e| {
        let e = e.under("setup");
        err(e.field, e.message)
    })
}

/// Reads one record action, resolving feature ids against the game's current board
/// (the tile in hand for the placement). Every field is read as the action schema
/// ([`carcassonne::action::SCHEMA`]) declares it.
fn action_from_json(
    game: &Game,
    v: &Value,
    path: &str,
) -> Result<(Action, Option<u8>), RecordError> {
    let o = as_object(v, path)?;
    let ty = as_str(field(o, "type", path)?, &format!("{path}.type"))?;
    let kind = ActionKind::from_name(ty).ok_or_else(|| {
        err(
            format!("{path}.type"),
            format!("unknown action type {}", echo(ty)),
        )
    })?;
    let spec = kind.spec();
    let extra: &[&str] = ACTION_EXTRA_KEYS
        .iter()
        .find(|(name, _)| *name == spec.name)
        .map_or(&[], |(_, keys)| keys);
    check_keys(
        o,
        |k| {
            k == "type"
                || k == "player"
                || spec.fields.iter().any(|f| f.name == k)
                || extra.contains(&k)
        },
        || {
            ["type", "player"]
                .into_iter()
                .chain(spec.fields.iter().map(|f| f.name))
                .chain(extra.iter().copied())
                .map(String::from)
                .collect()
        },
        path,
    )?;
    let mut values = Vec::with_capacity(spec.fields.len());
    let mut pos = Pos::default();
    for f in spec.fields {
        let p = format!("{path}.{}", f.name);
        let value = match f.kind {
            FieldKind::X => {
                pos.x = small_int(o, f.name, path, -10_000..=10_000)? as i32;
                FieldValue::Int(pos.x)
            }
            FieldKind::Y => {
                pos.y = small_int(o, f.name, path, -10_000..=10_000)? as i32;
                FieldValue::Int(pos.y)
            }
            FieldKind::Rot => FieldValue::Rot(
                Rotation::new(small_int(o, f.name, path, 0..=3)? as u8).expect("checked range"),
            ),
            FieldKind::Figure => {
                let name = as_str(field(o, f.name, path)?, &p)?;
                FieldValue::Figure(
                    Figure::from_name(name)
                        .filter(|f| f.stands_on_feature())
                        .ok_or_else(|| err(&p, format!("unknown figure {}", echo(name))))?,
                )
            }
            FieldKind::Feature => FieldValue::Feature(feature_at(game, pos, o, f.name, &p)?),
            FieldKind::OptFeature => FieldValue::OptFeature(if o.contains_key(f.name) {
                Some(feature_at(game, pos, o, f.name, &p)?)
            } else {
                None
            }),
            FieldKind::Corner => {
                let name = as_str(field(o, f.name, path)?, &p)?;
                FieldValue::Corner(
                    Corner::from_name(name)
                        .ok_or_else(|| err(&p, format!("unknown corner {}", echo(name))))?,
                )
            }
            FieldKind::Tile => {
                FieldValue::Tile(tile_by_id(as_str(field(o, f.name, path)?, &p)?, &p)?)
            }
            FieldKind::Quarter => FieldValue::Quarter(named_field(o, f.name, path, "quarter")?),
            FieldKind::Step => FieldValue::Step(named_field(o, f.name, path, "step")?),
            FieldKind::OptBridge => FieldValue::Bridge(match o.get(f.name) {
                None | Some(Value::Null) => None,
                Some(b) => {
                    let bo = as_object(b, &p)?;
                    Some(Bridge {
                        pos: Pos::new(
                            small_int(bo, "x", &p, -10_000..=10_000)? as i32,
                            small_int(bo, "y", &p, -10_000..=10_000)? as i32,
                        ),
                        axis: named_field(bo, "axis", &p, "axis")?,
                    })
                }
            }),
            FieldKind::Axis => FieldValue::Axis(named_field(o, f.name, path, "axis")?),
            FieldKind::Bid => {
                FieldValue::Bid(small_int(o, f.name, path, 0..=MAX_BID as i64)? as u32)
            }
            FieldKind::Choice => FieldValue::Choice(named_field(o, f.name, path, "choice")?),
            FieldKind::Seat => {
                FieldValue::Seat(Seat(
                    small_int(o, f.name, path, 0..=game.num_players() as i64 - 1)? as u8,
                ))
            }
        };
        values.push(value);
    }
    let action = Action::from_values(kind, &values)
        .map_err(|e| err(format!("{path}.{}", e.field), e.message))?;
    let player = match o.get("player") {
        // The kinds whose table in the format lists `player` always carry it (those
        // that a player other than the turn player may take).
        None if spec.names_player => {
            return Err(err(
                format!("{path}.player"),
                format!("missing (a {} action names who takes it)", spec.name),
            ))
        }
        Some(v) => {
            let p = format!("{path}.player");
            let n = as_int(v, &p)?;
            let seats = game.num_players() as i64;
            if !(0..seats).contains(&n) {
                return Err(err(
                    p,
                    format!("{n} is out of range 0..={} (the seats)", seats - 1),
                ));
            }
            Some(n as u8)
        }
        None => None,
    };
    Ok((action, player))
}

/// The bridge axis named by `key` (`NS` or `WE`).
/// The value of a named enum at `key`: an unknown name is an error that lists the names
/// (`unknown quarter "x" (castle, blacksmith, cathedral, market)`).
fn named_field<T: Named>(
    o: &Map<String, Value>,
    key: &str,
    path: &str,
    what: &str,
) -> Result<T, RecordError> {
    let p = format!("{path}.{key}");
    let name = as_str(field(o, key, path)?, &p)?;
    T::with_name(name).ok_or_else(|| {
        err(
            &p,
            format!("unknown {what} {} ({})", echo(name), T::names()),
        )
    })
}

/// The names an event's `what` may have: the engine's score kinds, and the names the
/// reference engine writes in its records (the reference games of `tests/data`, and those
/// of the sets the engine does not play yet).
const REFERENCE_EVENT_NAMES: &[&str] = &[
    "bazaar buy",
    "bazaar sell",
    "city.empty",
    "city.tiny",
    "garden.incomplete",
    "monastery.incomplete",
    "shrine.incomplete",
    "goods",
    "flock",
    "flock.wolf",
    "tower.exchange",
];

/// An entry of `events` or `final_events`, which a replay does not depend on but checks
/// for its form: a seat, and either a score (`points`, a known `what`) or a figure
/// returned (a figure name and a known `cause`), with places `[x, y]` (a tile) or
/// `[x, y, feature]`.
fn check_event(e: &Value, path: &str, players: usize) -> Result<(), RecordError> {
    let o = as_object(e, path)?;
    check_table(o, EVENT_KEYS, path)?;
    small_int(o, "player", path, 0..=players as i64 - 1)?;
    let place = |v: &Value, p: &str| -> Result<(), RecordError> {
        match v.as_array().map(Vec::as_slice) {
            Some([x, y]) if x.is_i64() && y.is_i64() => Ok(()),
            Some([x, y, feature]) if x.is_i64() && y.is_i64() && feature.is_string() => Ok(()),
            _ => Err(err(
                p,
                format!(
                    "expected a place [x, y] or [x, y, feature], found {}",
                    describe(v)
                ),
            )),
        }
    };
    if let Some(at) = o.get("at") {
        place(at, &format!("{path}.at"))?;
    }
    if let Some(Value::Array(returned)) = o.get("returned") {
        // A prisoner exchange (TW4): the figures that went back, `[[seat, figure], ...]`.
        for (i, pair) in returned.iter().enumerate() {
            let p = format!("{path}.returned[{i}]");
            match pair.as_array().map(Vec::as_slice) {
                Some([seat, figure])
                    if seat.as_u64().is_some_and(|s| s < players as u64)
                        && figure.as_str().and_then(Figure::with_name).is_some() => {}
                _ => {
                    return Err(err(
                        p,
                        format!("expected [seat, figure], found {}", describe(pair)),
                    ))
                }
            }
        }
    } else if o.contains_key("returned") {
        let figure = as_str(&o["returned"], &format!("{path}.returned"))?;
        if Figure::with_name(figure).is_none() {
            return Err(err(
                format!("{path}.returned"),
                format!("unknown figure {} ({})", echo(figure), Figure::names()),
            ));
        }
        let cause = as_str(field(o, "cause", path)?, &format!("{path}.cause"))?;
        if ReturnCause::with_name(cause).is_none() {
            return Err(err(
                format!("{path}.cause"),
                format!("unknown cause {} ({})", echo(cause), ReturnCause::names()),
            ));
        }
        return Ok(());
    }
    small_int(o, "points", path, i32::MIN as i64..=i32::MAX as i64)?;
    let what = as_str(field(o, "what", path)?, &format!("{path}.what"))?;
    if ScoreKind::with_name(what).is_none() && !REFERENCE_EVENT_NAMES.contains(&what) {
        return Err(err(
            format!("{path}.what"),
            format!(
                "unknown score {} ({}, {})",
                echo(what),
                ScoreKind::names(),
                REFERENCE_EVENT_NAMES.join(", ")
            ),
        ));
    }
    if let Some(parts) = o.get("parts") {
        let ppath = format!("{path}.parts");
        for (i, part) in as_array(parts, &ppath)?.iter().enumerate() {
            place(part, &format!("{ppath}[{i}]"))?;
        }
    }
    Ok(())
}

/// The record name of local feature `local` of the tile at `pos` (`bridge` for its
/// bridge, BR3), `#local` if there is no such tile.
fn feature_name(game: &Game, pos: Pos, local: u8) -> String {
    match game.board().index_at(pos) {
        Some(i) => game.feature_name(i, local).to_string(),
        None => format!("#{local}"),
    }
}

/// The local index of the feature named by `key` on the tile at `pos`.
fn feature_at(
    game: &Game,
    pos: Pos,
    o: &Map<String, Value>,
    key: &str,
    p: &str,
) -> Result<u8, RecordError> {
    let id = as_str(o.get(key).ok_or_else(|| err(p, "missing"))?, p)?;
    let index = game
        .board()
        .index_at(pos)
        .ok_or_else(|| err(p, format!("no tile at {pos} to hold feature {}", echo(id))))?;
    let tile = game.board().placement(index);
    game.feature_named(index, id).ok_or_else(|| {
        err(
            p,
            format!(
                "tile {} at {pos} has no feature {}",
                tile.kind.id(),
                echo(id)
            ),
        )
    })
}

/// The record form of an action taken by `player` in `game` (before or after it; only
/// the board's tiles are read, to name features). Every field is written as the action
/// schema declares it.
pub fn action_to_json(game: &Game, player: u8, action: &Action) -> Value {
    let spec = action.kind().spec();
    let mut o = Map::new();
    o.insert("type".into(), json!(spec.name));
    if spec.names_player {
        o.insert("player".into(), json!(player));
    }
    let mut pos = Pos::default();
    for (f, value) in spec.fields.iter().zip(action.values().as_slice()) {
        let v = match (f.kind, *value) {
            (FieldKind::X, FieldValue::Int(x)) => {
                pos.x = x;
                json!(x)
            }
            (FieldKind::Y, FieldValue::Int(y)) => {
                pos.y = y;
                json!(y)
            }
            (_, FieldValue::Int(n)) => json!(n),
            (_, FieldValue::Rot(r)) => json!(r.quarter_turns()),
            (_, FieldValue::Figure(fig)) => json!(fig.name()),
            (_, FieldValue::Feature(local)) | (_, FieldValue::OptFeature(Some(local))) => {
                json!(feature_name(game, pos, local))
            }
            (_, FieldValue::OptFeature(None)) => continue,
            (_, FieldValue::Corner(c)) => json!(c.name()),
            (_, FieldValue::Tile(t)) => json!(t.id()),
            (_, FieldValue::Quarter(q)) => json!(q.name()),
            (_, FieldValue::Step(s)) => json!(s.name()),
            (_, FieldValue::Bridge(None)) => continue,
            (_, FieldValue::Bridge(Some(b))) => {
                json!({"x": b.pos.x, "y": b.pos.y, "axis": b.axis.name()})
            }
            (_, FieldValue::Axis(a)) => json!(a.name()),
            (_, FieldValue::Bid(b)) => json!(b),
            (_, FieldValue::Choice(c)) => json!(c.name()),
            (_, FieldValue::Seat(Seat(seat))) => json!(seat),
        };
        o.insert(f.name.into(), v);
    }
    Value::Object(o)
}

/// One entry of `events` / `final_events`: a score, with the parts of the scored
/// feature, or a figure returned, with its cause.
fn event_to_json(game: &Game, event: Event<'_>, scored: &mut ScoredParts<'_>) -> Value {
    let place = |pos: Pos, local: u8| json!([pos.x, pos.y, feature_name(game, pos, local)]);
    match event {
        Event::Score(e) => {
            let mut v = json!({"player": e.player, "points": e.points, "what": e.kind.name()});
            if let Some((pos, local)) = e.at {
                v["at"] = place(pos, local);
            }
            if let Some(f) = e.feature {
                let parts: Vec<Value> = scored
                    .parts(f)
                    .into_iter()
                    .map(|(pos, local)| place(pos, local))
                    .collect();
                v["parts"] = json!(parts);
            }
            v
        }
        Event::FigureReturned(r) => json!({
            "player": r.owner,
            "returned": r.figure.name(),
            "at": place(r.pos, r.local),
            "cause": r.cause.name(),
        }),
    }
}

/// The record of a game (finished or not) as a JSON value, with the `resume` object of
/// the game alone ([`Resume::of`]).
pub fn to_value(game: &Game, id: &str) -> Value {
    to_value_with(game, id, &Resume::of(game))
}

/// The record of a game (finished or not) as a JSON value, with `resume` as its
/// `resume` object.
pub fn to_value_with(game: &Game, id: &str, resume: &Resume) -> Value {
    let players = game.num_players();
    let mut scored = game.scored_parts();
    let last = game.turns().len().saturating_sub(1);
    // A turn just begun, before its draw or abbey, is left out: replaying the record
    // reaches the same point (its fairy point included).
    let begun_only = game.turn_in_progress()
        && game.turns().last().is_some_and(|t| {
            t.draw.is_none() && t.actions.0 as usize == game.history_actions().len()
        });
    // Unless its player declined an abbey and the game waits for his draw (explicit
    // chance): the turn is then written with that decline, `draw: null` and a `pass`.
    let declined = begun_only && game.abbey_declined_before_draw();
    let turns: Vec<Value> = game
        .turns()
        .iter()
        .enumerate()
        .filter(|(i, _)| !(begun_only && !declined && *i == last))
        .map(|(i, t)| {
            // The turn in progress of an unfinished game: everything so far.
            let (actions_end, scores) = if i == last && game.turn_in_progress() {
                (game.history_actions().len(), game.scores().to_vec())
            } else {
                (t.actions.1 as usize, t.scores[..players].to_vec())
            };
            let mut placements = 0;
            let mut actions: Vec<Value> = game.history_actions()[t.actions.0 as usize..actions_end]
                .iter()
                .map(|d| {
                    let mut v = action_to_json(game, d.player, &d.action);
                    if let Action::PlaceTile { .. } = d.action {
                        placements += 1;
                        // R6: the second tile of a turn that places two names itself.
                        if let (2, Some(second)) = (placements, t.second) {
                            v["tile"] = json!(second.id());
                        }
                    }
                    v
                })
                .collect();
            if declined && i == last {
                actions.push(action_to_json(game, t.player, &Action::Pass));
            }
            let events: Vec<Value> = game
                .turn_events(i)
                .map(|e| event_to_json(game, e, &mut scored))
                .collect();
            let mut v = json!({
                "player": t.player,
                "draw": t.draw.map(|k| k.id()),
                "actions": actions,
                "scores": &scores[..players],
            });
            if t.discarded {
                v["discarded"] = json!(true);
            }
            if t.extra_turn {
                v["builder_bonus"] = json!(true);
            }
            let offer = game.bazaar_offer_of_turn(i);
            if !offer.is_empty() {
                v["bazaar"] = offer.iter().map(|k| k.id()).collect();
            }
            if !events.is_empty() {
                v["events"] = json!(events);
            }
            v
        })
        .collect();
    let mut record = json!({
        "format": FORMAT,
        "version": VERSION,
        "id": id,
        "setup": game.config().to_json(),
        "turns": turns,
        "notes": "written by the carcassonne engine",
    });
    let finals = final_decisions(game);
    if !finals.is_empty() {
        record["final_actions"] = finals
            .iter()
            .map(|d| action_to_json(game, d.player, &d.action))
            .collect();
    }
    let final_events: Vec<Value> = game
        .final_events()
        .map(|e| event_to_json(game, e, &mut scored))
        .collect();
    if !final_events.is_empty() {
        record["final_events"] = json!(final_events);
    }
    if game.is_terminal() {
        record["final_scores"] = json!(game.scores());
    }
    record["resume"] = resume.to_json();
    record
}

/// The decisions taken after the last turn, before final scoring (CC6): the record's
/// `final_actions`.
fn final_decisions(game: &Game) -> &[carcassonne::game::Decision] {
    if game.turn_in_progress() {
        return &[];
    }
    let start = game.turns().last().map_or(0, |t| t.actions.1 as usize);
    &game.history_actions()[start..]
}

/// The record of a game as one line of JSON. A record longer than [`MAX_RECORD_BYTES`]
/// (which only a long `id` makes: a game's record is about 40 KB) is refused with an
/// error naming `id`, as [`load`] would refuse it: nothing is written that cannot be
/// read back.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::record::{self, MAX_RECORD_BYTES};
/// let game = Game::new(GameConfig::new(2)).unwrap();
/// assert!(record::to_json(&game, "fine").is_ok());
/// let e = record::to_json(&game, &"x".repeat(MAX_RECORD_BYTES)).unwrap_err();
/// assert_eq!(e.path, "id");
/// ```
pub fn to_json(game: &Game, id: &str) -> Result<String, RecordError> {
    checked_size(to_value(game, id).to_string(), id)
}

/// `text`, the record written with `id`, if it is not longer than a record may be.
pub(crate) fn checked_size(text: String, id: &str) -> Result<String, RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(err(
            "id",
            format!(
                "the record would be {} bytes with this id of {} bytes; a record holds at \
                 most {MAX_RECORD_BYTES} bytes",
                text.len(),
                id.len()
            ),
        ));
    }
    Ok(text)
}

/// A score vector of `players` scores, each a 32-bit integer (never truncated).
fn scores_of(v: &Value, path: &str, players: usize) -> Result<Vec<i32>, RecordError> {
    let list = as_array(v, path)?;
    if list.len() != players {
        return Err(err(
            path,
            format!("{} scores for {players} players", list.len()),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let p = format!("{path}[{i}]");
            let n = as_int(s, &p)?;
            i32::try_from(n).map_err(|_| {
                err(
                    p,
                    format!("{n} is out of range {}..={}", i32::MIN, i32::MAX),
                )
            })
        })
        .collect()
}

/// The first `n` legal actions of `game`, for divergence messages.
fn legal_summary(game: &Game, n: usize) -> String {
    let legal = game.legal_actions();
    let mut shown: Vec<String> = legal.iter().take(n).map(|l| l.to_string()).collect();
    if legal.len() > n {
        shown.push("...".into());
    }
    shown.join(", ")
}

fn diverged(
    turn: usize,
    action: Option<usize>,
    expected: impl Into<String>,
    actual: impl Into<String>,
) -> ReplayError {
    ReplayError::Diverged(Box::new(Divergence {
        turn,
        action,
        expected: expected.into(),
        actual: actual.into(),
        scores: None,
        waiting: None,
    }))
}

/// A score mismatch after turn `turn` (`usize::MAX`: the final scores).
fn scores_diverged(turn: usize, expected: &[i32], engine: &[i32], detail: String) -> ReplayError {
    let what = if turn == usize::MAX { "" } else { "scores " };
    ReplayError::Diverged(Box::new(Divergence {
        turn,
        action: None,
        expected: format!("{what}{expected:?}"),
        actual: format!("{what}{engine:?}{detail}"),
        scores: Some((expected.to_vec(), engine.to_vec())),
        waiting: None,
    }))
}

/// Reads one record's JSON text strictly: at most [`MAX_RECORD_BYTES`], duplicate keys
/// refused, nesting bounded ([`json::parse_strict`]).
pub fn parse_record_text(text: &str) -> Result<Value, RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(err(
            "",
            format!(
                "the record is {} bytes long; at most {MAX_RECORD_BYTES} are accepted",
                text.len()
            ),
        ));
    }
    parse_strict(text).map_err(|e| err(e.path, e.message))
}

/// Replays a record given as JSON text (read by [`parse_record_text`]).
pub fn replay_json(text: &str) -> Result<Game, ReplayError> {
    replay(&parse_record_text(text)?)
}

/// Loads a record given as JSON text to play on (see [`load`]).
pub fn load_json(text: &str, chance: Option<ChanceMode>) -> Result<Loaded, ReplayError> {
    load(&parse_record_text(text)?, chance)
}

/// Replays a record ([`replay`]) and restores the state its `resume` object saved: the
/// game draws from then on with the generator of the game that wrote the record, so a
/// game in sampled-chance mode continues with the same draws. `chance` chooses the
/// chance mode; `None` keeps the record's (sampled when it has no `resume` object, the
/// generator then seeded with `setup.seed`).
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::record;
/// let mut game = Game::new(GameConfig::new(2)).unwrap();
/// for _ in 0..10 {
///     let a = game.legal_actions()[0];
///     game.apply(a).unwrap();
/// }
/// let text = record::to_json(&game, "saved").unwrap();
/// let mut loaded = record::load_json(&text, None).unwrap().game;
/// while !game.is_terminal() {
///     let a = game.legal_actions()[0];
///     game.apply(a).unwrap();
///     loaded.apply(a).unwrap();
///     assert_eq!(loaded.state_hash(), game.state_hash());
/// }
/// ```
pub fn load(record: &Value, chance: Option<ChanceMode>) -> Result<Loaded, ReplayError> {
    let (mut game, resume) = replay_with_resume(record)?;
    if let Some(r) = &resume {
        game.set_rng(r.rng.clone());
    }
    let mode = chance
        .or(resume.as_ref().map(|r| r.chance))
        .unwrap_or(ChanceMode::Sampled);
    game.set_chance_mode(mode);
    Ok(Loaded { game, resume })
}

/// The record's `id`, if it has one.
pub fn record_id(record: &Value) -> Option<&str> {
    record.get("id").and_then(Value::as_str)
}

/// A record's `id` for messages ([`json::shown`]): as it is, or quoted and escaped when
/// it is long or holds a character that does not print as itself (an escape sequence).
pub fn shown_id(id: &str) -> String {
    json::shown(id).into_owned()
}

/// The optional boolean `key` of a turn (`false` when absent).
fn flag(o: &Map<String, Value>, key: &str, path: &str) -> Result<bool, ReplayError> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(err(
            format!("{path}.{key}"),
            format!("expected true or false, found {}", describe(v)),
        )
        .into()),
    }
}

/// Replays a record: forces its draws, applies its actions, compares every turn's
/// scores and the final scores. Returns the replayed game, in explicit-chance mode (a
/// `resume` object is checked, not applied: see [`load`]).
pub fn replay(record: &Value) -> Result<Game, ReplayError> {
    replay_with_resume(record).map(|(game, _)| game)
}

fn replay_with_resume(record: &Value) -> Result<(Game, Option<Resume>), ReplayError> {
    let top = as_object(record, "")?;
    let format = as_str(field(top, "format", "")?, "format")?;
    if format != FORMAT {
        return Err(err(
            "format",
            format!("expected {FORMAT:?}, found {}", echo(format)),
        )
        .into());
    }
    check_table(top, RECORD_KEYS, "")?;
    for key in ["id", "notes"] {
        if let Some(v) = top.get(key) {
            as_str(v, key)?;
        }
    }
    let version = int_field(top, "version", "")?;
    if version != VERSION as i64 {
        return Err(err(
            "version",
            format!("version {version} is not supported (only {VERSION})"),
        )
        .into());
    }
    let config = config_from_setup(field(top, "setup", "")?)?;
    let resume = top.get("resume").map(Resume::from_json).transpose()?;
    let players = config.players as usize;
    let mut game = Game::with_chance(config, ChanceMode::Explicit).map_err(|e| {
        let e = e.under("setup");
        err(e.field, e.message)
    })?;
    let turns = as_array(field(top, "turns", "")?, "turns")?;
    if turns.len() > MAX_TURNS {
        return Err(err(
            "turns",
            format!("{} turns; a record holds at most {MAX_TURNS}", turns.len()),
        )
        .into());
    }
    let final_scores = match top.get("final_scores") {
        Some(fs) => Some(scores_of(fs, "final_scores", players)?),
        None => None,
    };
    if let Some(events) = top.get("final_events") {
        for (i, e) in as_array(events, "final_events")?.iter().enumerate() {
            check_event(e, &format!("final_events[{i}]"), players)?;
        }
    }
    for (t, turn) in turns.iter().enumerate() {
        let path = format!("turns[{t}]");
        let o = as_object(turn, &path)?;
        check_table(o, TURN_KEYS, &path)?;
        let player = small_int(o, "player", &path, 0..=players as i64 - 1)? as usize;
        let draw = match field(o, "draw", &path)? {
            Value::Null => None,
            v => Some(tile_by_id(
                as_str(v, &format!("{path}.draw"))?,
                &format!("{path}.draw"),
            )?),
        };
        let discarded = flag(o, "discarded", &path)?;
        let builder_bonus = flag(o, "builder_bonus", &path)?;
        let actions = as_array(field(o, "actions", &path)?, &format!("{path}.actions"))?;
        let scores = scores_of(
            field(o, "scores", &path)?,
            &format!("{path}.scores"),
            players,
        )?;
        if let Some(events) = o.get("events") {
            let epath = format!("{path}.events");
            for (i, e) in as_array(events, &epath)?.iter().enumerate() {
                check_event(e, &format!("{epath}[{i}]"), players)?;
            }
        }
        if game.is_terminal() {
            return Err(diverged(t, None, "another turn", "the game is over"));
        }
        let bazaar: Vec<TileKind> = match o.get("bazaar") {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .ok_or_else(|| err(format!("{path}.bazaar"), "expected an array of tile ids"))?
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    let p = format!("{path}.bazaar[{i}]");
                    tile_by_id(as_str(id, &p)?, &p)
                })
                .collect::<Result<_, _>>()?,
        };
        let mut offer = bazaar.iter();
        // BZ4: the tile the player got at a bazaar is in his hand without a draw (and is
        // already discarded when it fits nowhere, B5).
        let from_bazaar = game.tile_from_bazaar(t);
        if from_bazaar {
            let got = game.turns()[t].draw;
            if draw != got || game.turn_player() != player {
                return Err(diverged(
                    t,
                    None,
                    format!(
                        "player {player} draws {}",
                        draw.map_or("nothing (an abbey)", |k| k.id())
                    ),
                    format!(
                        "player {} places the bazaar tile {}",
                        game.turn_player(),
                        got.map_or("?", |k| k.id())
                    ),
                ));
            }
            check_discard(&mut game, t, discarded)?;
        } else if let Some(tile) = draw {
            if game.phase() == Phase::Abbey && game.to_play() == player && !game.in_end_round() {
                game.apply(Action::Pass)
                    .map_err(|e| diverged(t, None, "decline the abbey", e.to_string()))?;
            }
            if game.phase() != Phase::Draw || game.turn_player() != player {
                return Err(diverged(
                    t,
                    None,
                    format!("player {player} draws {}", tile.id()),
                    format!("waits for {:?} by player {}", game.phase(), game.to_play()),
                ));
            }
            game.apply(Action::Draw { tile }).map_err(|_| {
                diverged(
                    t,
                    None,
                    format!("draw {}", tile.id()),
                    "that tile cannot be drawn now (pile stage or PD3)",
                )
            })?;
            check_discard(&mut game, t, discarded)?;
        } else if game.phase() != Phase::Abbey || game.to_play() != player {
            return Err(diverged(
                t,
                None,
                format!("player {player} places an abbey"),
                format!("waits for {:?} by player {}", game.phase(), game.to_play()),
            ));
        }
        for (a, av) in actions.iter().enumerate() {
            let apath = format!("{path}.actions[{a}]");
            lay_out_bazaar(&mut game, t, &mut offer, false)?;
            let (action, decider) = action_from_json(&game, av, &apath)?;
            if let (Action::PlaceTile { .. }, Some(named)) = (action, av.get("tile")) {
                // R6: a second placement in the turn names the tile it places.
                let tpath = format!("{apath}.tile");
                let tile = tile_by_id(as_str(named, &tpath)?, &tpath)?;
                if game.tile_in_hand() != Some(tile) {
                    return Err(diverged(
                        t,
                        Some(a),
                        format!("place {} ({action})", tile.id()),
                        format!(
                            "the tile in hand is {}",
                            game.tile_in_hand().map_or("none", |k| k.id())
                        ),
                    ));
                }
            }
            let open = game.turns().len() == t + 1 && game.turn_in_progress();
            if action == Action::Pass && (!open || !game.is_legal(Action::Pass)) {
                // A forced decision the engine took by itself.
                continue;
            }
            if !open {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    "the turn is already over",
                ));
            }
            if let Some(d) = decider {
                if d as usize != game.to_play() {
                    return Err(waiting_in(
                        &game,
                        diverged(
                            t,
                            Some(a),
                            format!("player {d} decides {action}"),
                            format!("player {} decides", game.to_play()),
                        ),
                    ));
                }
            }
            if let Err(e) = game.apply(action) {
                return Err(waiting_in(
                    &game,
                    diverged(
                        t,
                        Some(a),
                        format!("{action}"),
                        format!("{e}; legal: [{}]", legal_summary(&game, 12)),
                    ),
                ));
            }
        }
        let unfinished = t + 1 == turns.len() && final_scores.is_none();
        // An unfinished game saved while its bazaar's offer was being drawn (explicit
        // chance) waits for the next of those draws.
        lay_out_bazaar(&mut game, t, &mut offer, unfinished)?;
        if offer.len() > 0 {
            return Err(diverged(
                t,
                None,
                format!("a bazaar with {} more tiles", offer.len()),
                "no more bazaar tiles are drawn",
            ));
        }
        if game.turn_in_progress() && game.turns().len() == t + 1 && unfinished {
            // The record of an unfinished game ends inside this turn.
            if game.scores() != scores.as_slice() {
                return Err(scores_diverged(t, &scores, game.scores(), String::new()));
            }
            return Ok((game, resume));
        }
        if game.turn_in_progress() && game.turns().len() == t + 1 {
            return Err(waiting_in(
                &game,
                diverged(
                    t,
                    None,
                    "the turn ends",
                    format!(
                        "waits for {:?} by player {}: [{}]",
                        game.phase(),
                        game.to_play(),
                        legal_summary(&game, 8)
                    ),
                ),
            ));
        }
        let extra_turn = game.turns()[t].extra_turn;
        if extra_turn != builder_bonus {
            let turn = |extra| {
                if extra {
                    "an extra turn (TB4)"
                } else {
                    "a turn of its own"
                }
            };
            return Err(diverged(t, None, turn(builder_bonus), turn(extra_turn)));
        }
        let actual = &game.turns()[t].scores[..players];
        if actual != scores.as_slice() {
            let events: Vec<String> = {
                let log = &game.turns()[t];
                game.events()[log.events.0 as usize..log.events.1 as usize]
                    .iter()
                    .map(|e| format!("p{}+{} {}", e.player, e.points, e.kind.name()))
                    .collect()
            };
            let detail = format!(" (events: {})", events.join(", "));
            return Err(scores_diverged(t, &scores, actual, detail));
        }
    }
    let finals = match top.get("final_actions") {
        Some(v) => Some(as_array(v, "final_actions")?),
        None => None,
    };
    if final_scores.is_some() || finals.is_some_and(|f| !f.is_empty()) {
        // Declines of an end-of-game abbey that the record does not list, when the
        // record goes on after the last turn (the record of an unfinished game stops
        // where it was written: AM4).
        while game.phase() == Phase::Abbey && game.in_end_round() {
            game.apply(Action::Pass)
                .map_err(|e| diverged(turns.len(), None, "the game ends", e.to_string()))?;
        }
    }
    if let Some(finals) = finals {
        // Divergences in final actions are reported after the last turn.
        let t = turns.len();
        for (a, av) in finals.iter().enumerate() {
            let apath = format!("final_actions[{a}]");
            let (action, decider) = action_from_json(&game, av, &apath)?;
            if game.is_terminal() {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    "the game is over",
                ));
            }
            if let Some(d) = decider {
                if d as usize != game.to_play() {
                    return Err(diverged(
                        t,
                        Some(a),
                        format!("player {d} decides {action}"),
                        format!("player {} decides", game.to_play()),
                    ));
                }
            }
            if let Err(e) = game.apply(action) {
                return Err(diverged(
                    t,
                    Some(a),
                    format!("{action}"),
                    format!("{e}; legal: [{}]", legal_summary(&game, 12)),
                ));
            }
        }
    }
    if let Some(expected) = final_scores {
        if !game.is_terminal() {
            return Err(diverged(
                usize::MAX,
                None,
                format!("final scores {expected:?}"),
                format!(
                    "the game goes on ({:?} by player {}, {} tiles left)",
                    game.phase(),
                    game.to_play(),
                    game.tiles_left()
                ),
            ));
        }
        if game.scores() != expected.as_slice() {
            return Err(scores_diverged(
                usize::MAX,
                &expected,
                game.scores(),
                String::new(),
            ));
        }
    }
    Ok((game, resume))
}

/// BZ1: while turn `t` waits for the tiles of a bazaar's offer, draws them from the
/// record's `bazaar` list; when the list runs out, stops there if `may_stop` (the end of
/// an unfinished game), else diverges.
fn lay_out_bazaar(
    game: &mut Game,
    t: usize,
    offer: &mut std::slice::Iter<'_, TileKind>,
    may_stop: bool,
) -> Result<(), ReplayError> {
    // (Not the turn's own draw after a declined abbey, AM1.)
    while game.phase() == Phase::Draw
        && game.turns().len() == t + 1
        && game.turn_in_progress()
        && !game.abbey_declined_before_draw()
    {
        let Some(&tile) = offer.next() else {
            if may_stop {
                return Ok(());
            }
            return Err(diverged(
                t,
                None,
                "no bazaar",
                "a bazaar is held: the record lists no tiles for its offer",
            ));
        };
        game.apply(Action::Draw { tile }).map_err(|_| {
            diverged(
                t,
                None,
                format!("lay out {} at the bazaar", tile.id()),
                "that tile cannot be drawn now",
            )
        })?;
    }
    Ok(())
}

/// Splits a file's text into records: JSON Lines, or a single JSON object (see
/// [`RecordReader`], which reads a file of any size with bounded memory).
pub fn parse_records(text: &str) -> Vec<Result<Value, RecordError>> {
    RecordReader::new(text.as_bytes())
        .map(|r| r.map(|r| r.value))
        .collect()
}

/// One record read by a [`RecordReader`]: the line it starts on (from 1) and its JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct RawRecord {
    /// The line of the file where the record starts.
    pub line: usize,
    /// The record's JSON value (read strictly, [`parse_record_text`]).
    pub value: Value,
}

/// Reads the records of a file one at a time: JSON Lines (one record per line, blank
/// lines skipped), or a single record written over several lines (when the first line
/// is not a whole JSON value). Memory is bounded by the largest record.
///
/// An error names the line (`line 3: invalid JSON: ...`). A bad line of JSON Lines is
/// reported and reading goes on with the next line. Reading stops after the error when
/// a line (or the one record) is longer than [`MAX_RECORD_BYTES`], when the file cannot
/// be read, and when the file's first record is not a game record at all (text that
/// does not start with `{`, invalid JSON, or another `format`), so that a file that is
/// not a record file fails at once: `/dev/zero` fails after its first byte.
///
/// ```
/// use carcassonne_session::record::RecordReader;
/// let text = "{\"format\":\"carcassonne-record\"}\n\n{oops\n";
/// let read: Vec<_> = RecordReader::new(text.as_bytes()).collect();
/// assert_eq!(read[0].as_ref().unwrap().line, 1);
/// assert_eq!(read[1].as_ref().unwrap_err().path, "line 3");
/// assert!(RecordReader::new(&b"\0\0\0"[..]).next().unwrap().is_err());
/// ```
pub struct RecordReader<R> {
    input: R,
    /// Lines consumed so far.
    line: usize,
    /// Records (and errors) yielded so far.
    yielded: usize,
    done: bool,
    buf: Vec<u8>,
}

/// How reading one line ended.
enum LineEnd {
    /// A whole line (or the last one, without its newline) is in the buffer.
    Line,
    /// The end of the input, nothing read.
    Eof,
    /// The line is longer than the limit (what was read is dropped).
    TooLong,
    /// The first record of the file does not start with `{`.
    NotObject(u8),
}

impl<R: BufRead> RecordReader<R> {
    /// A reader of the records in `input`.
    pub fn new(input: R) -> RecordReader<R> {
        RecordReader {
            input,
            line: 0,
            yielded: 0,
            done: false,
            buf: Vec::new(),
        }
    }

    /// Appends the next line to `buf` (without its newline), reading at most `limit`
    /// bytes in all into `buf`.
    fn read_line(&mut self, limit: usize, first: bool) -> std::io::Result<LineEnd> {
        let mut any = false;
        let mut check_start = first;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if any {
                    self.line += 1;
                    return Ok(LineEnd::Line);
                }
                return Ok(LineEnd::Eof);
            }
            any = true;
            let (chunk, newline) = match avail.iter().position(|b| *b == b'\n') {
                Some(i) => (&avail[..i], true),
                None => (avail, false),
            };
            if check_start {
                if let Some(&b) = chunk.iter().find(|b| !b.is_ascii_whitespace()) {
                    if b != b'{' {
                        return Ok(LineEnd::NotObject(b));
                    }
                    check_start = false;
                }
            }
            if self.buf.len() + chunk.len() > limit {
                return Ok(LineEnd::TooLong);
            }
            self.buf.extend_from_slice(chunk);
            let used = chunk.len() + usize::from(newline);
            self.input.consume(used);
            if newline {
                self.line += 1;
                return Ok(LineEnd::Line);
            }
        }
    }

    /// The error that ends the reading.
    fn fatal(
        &mut self,
        line: usize,
        message: impl Into<String>,
    ) -> Option<Result<RawRecord, RecordError>> {
        self.done = true;
        self.buf = Vec::new();
        Some(Err(err(format!("line {line}"), message)))
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Result<RawRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let first = self.yielded == 0;
        // The next non-blank line.
        let start = loop {
            self.buf.clear();
            let end = match self.read_line(MAX_RECORD_BYTES, first) {
                Ok(end) => end,
                Err(e) => return self.fatal(self.line + 1, format!("cannot read: {e}")),
            };
            let line = self.line + 1;
            match end {
                LineEnd::Eof => {
                    self.done = true;
                    return None;
                }
                LineEnd::TooLong => {
                    return self.fatal(
                        line,
                        format!("longer than {MAX_RECORD_BYTES} bytes, the largest record accepted"),
                    )
                }
                LineEnd::NotObject(b) => {
                    return self.fatal(
                        line,
                        format!(
                            "not a game record: a record is a JSON object, which starts with '{{', not {}",
                            echo(&String::from_utf8_lossy(&[b]))
                        ),
                    )
                }
                LineEnd::Line if self.buf.iter().all(u8::is_ascii_whitespace) => continue,
                LineEnd::Line => break self.line,
            }
        };
        self.yielded += 1;
        let mut parsed = parse_bytes(&self.buf);
        if first && parsed.is_err() && incomplete(&self.buf) {
            // The first line begins a value it does not finish: the file is one record
            // written over several lines.
            loop {
                self.buf.push(b'\n');
                let end = match self.read_line(MAX_RECORD_BYTES, false) {
                    Ok(end) => end,
                    Err(e) => return self.fatal(self.line + 1, format!("cannot read: {e}")),
                };
                match end {
                    LineEnd::Line | LineEnd::NotObject(_) => {}
                    LineEnd::Eof => break,
                    LineEnd::TooLong => {
                        return self.fatal(
                            start,
                            format!(
                            "a record longer than {MAX_RECORD_BYTES} bytes, the largest accepted"
                        ),
                        )
                    }
                }
            }
            parsed = parse_bytes(&self.buf);
            self.done = true;
        }
        let value = match parsed {
            Ok(v) => v,
            // Not JSON at all (a strictness error, with its path, is not fatal).
            Err(e) if first && e.path.is_empty() => {
                return self.fatal(start, format!("not a game record: {}", e.message));
            }
            Err(e) => {
                let at = if e.path.is_empty() {
                    format!("line {start}")
                } else {
                    format!("line {start}: {}", e.path)
                };
                return Some(Err(err(at, e.message)));
            }
        };
        if first && value.get("format").and_then(Value::as_str) != Some(FORMAT) {
            let found = value.get("format").map_or("no format".into(), describe);
            return self.fatal(
                start,
                format!("not a game record (format {found}, expected {FORMAT:?})"),
            );
        }
        Some(Ok(RawRecord { line: start, value }))
    }
}

/// One record's bytes read strictly.
fn parse_bytes(bytes: &[u8]) -> Result<Value, RecordError> {
    let text = std::str::from_utf8(bytes).map_err(|e| err("", format!("not UTF-8 text ({e})")))?;
    parse_record_text(text)
}

/// Whether `bytes` are the beginning of a JSON value that they do not finish.
fn incomplete(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err_and(|e| e.is_eof())
}

/// The tile in hand at turn `t` is discarded exactly when the record says so: a tile that
/// fits only with a bridge is discarded by the player (BR2, the `pass` offered then), one
/// that fits nowhere by the engine (B5).
fn check_discard(game: &mut Game, t: usize, discarded: bool) -> Result<(), ReplayError> {
    if discarded && game.phase() == Phase::PlaceTile && game.is_legal(Action::Pass) {
        // BR2: the player discarded a tile that fitted only with a bridge.
        game.apply(Action::Pass)
            .map_err(|e| diverged(t, None, "discard the tile", e.to_string()))?;
    }
    let engine_discarded = game.turns().get(t).is_some_and(|l| l.discarded);
    if discarded != engine_discarded {
        return Err(diverged(
            t,
            None,
            if discarded {
                "the tile is discarded"
            } else {
                "the tile is placed"
            },
            if engine_discarded {
                "it fits nowhere (B5)"
            } else {
                "it fits somewhere"
            },
        ));
    }
    Ok(())
}
