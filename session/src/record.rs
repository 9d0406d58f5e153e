//! Game records (format version 1): write a record for any game, load one, replay it and
//! report the first divergence.
//!
//! A record says how a game was set up, which tiles were drawn in which order, every
//! decision, and the scores after every turn. Replaying forces the record's draws
//! (explicit chance), applies every action, and compares every turn's scores and the
//! final scores. Bad input is an error that names the field (`turns[3].actions[1].x`),
//! never a panic.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::record;
//! let mut game = Game::new(GameConfig::new(2)).unwrap();
//! while !game.is_terminal() {
//!     let a = game.legal_actions()[0];
//!     game.apply(a).unwrap();
//! }
//! let json = record::to_json(&game, "example");
//! let replayed = record::replay_json(&json).unwrap();
//! assert_eq!(replayed.scores(), game.scores());
//! ```

use carcassonne::action::{Action, ActionKind, FieldKind, FieldValue};
use carcassonne::config::{Figure, GameConfig};
use carcassonne::game::{ChanceMode, Game, Phase};
use carcassonne::geometry::{Corner, Pos, Rotation};
use carcassonne::rules::bcb::{Axis, BazaarChoice, Bridge, MAX_BID};
use carcassonne::rules::count::{Quarter, QuarterStep};
use carcassonne::tiles::{catalogue, TileKind};
use serde_json::{json, Map, Value};
use std::fmt;

/// The `format` field of every record.
pub const FORMAT: &str = "carcassonne-record";
/// The supported record version.
pub const VERSION: u64 = 1;

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
    v.as_object().ok_or_else(|| err(path, "expected an object"))
}

fn as_int(v: &Value, path: &str) -> Result<i64, RecordError> {
    v.as_i64()
        .ok_or_else(|| err(path, format!("expected an integer, found {v}")))
}

fn as_str<'a>(v: &'a Value, path: &str) -> Result<&'a str, RecordError> {
    v.as_str()
        .ok_or_else(|| err(path, format!("expected a string, found {v}")))
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
        .ok_or_else(|| err(path, format!("unknown tile id {id:?}")))
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
            format!("unknown action type {ty:?}"),
        )
    })?;
    let spec = kind.spec();
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
                        .filter(|f| *f != Figure::Barn)
                        .ok_or_else(|| err(&p, format!("unknown figure {name:?}")))?,
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
                        .ok_or_else(|| err(&p, format!("unknown corner {name:?}")))?,
                )
            }
            FieldKind::Tile => {
                FieldValue::Tile(tile_by_id(as_str(field(o, f.name, path)?, &p)?, &p)?)
            }
            FieldKind::Quarter => {
                let name = as_str(field(o, f.name, path)?, &p)?;
                FieldValue::Quarter(Quarter::from_name(name).ok_or_else(|| {
                    err(
                        &p,
                        format!("unknown quarter {name:?} (castle, blacksmith, cathedral, market)"),
                    )
                })?)
            }
            FieldKind::Step => {
                let name = as_str(field(o, f.name, path)?, &p)?;
                FieldValue::Step(QuarterStep::from_name(name).ok_or_else(|| {
                    err(
                        &p,
                        format!("unknown step {name:?} (before-scoring, deploy, final, count)"),
                    )
                })?)
            }
            FieldKind::OptBridge => FieldValue::Bridge(match o.get(f.name) {
                None | Some(Value::Null) => None,
                Some(b) => {
                    let bo = as_object(b, &p)?;
                    Some(Bridge {
                        pos: Pos::new(
                            small_int(bo, "x", &p, -10_000..=10_000)? as i32,
                            small_int(bo, "y", &p, -10_000..=10_000)? as i32,
                        ),
                        axis: axis_field(bo, "axis", &p)?,
                    })
                }
            }),
            FieldKind::Axis => FieldValue::Axis(axis_field(o, f.name, path)?),
            FieldKind::Bid => {
                FieldValue::Bid(small_int(o, f.name, path, 0..=MAX_BID as i64)? as u32)
            }
            FieldKind::Choice => {
                let name = as_str(field(o, f.name, path)?, &p)?;
                FieldValue::Choice(
                    BazaarChoice::from_name(name)
                        .ok_or_else(|| err(&p, format!("unknown choice {name:?} (buy, sell)")))?,
                )
            }
        };
        values.push(value);
    }
    let action = Action::from_values(kind, &values)
        .map_err(|e| err(format!("{path}.{}", e.field), e.message))?;
    let player = match o.get("player") {
        Some(v) => Some(as_int(v, &format!("{path}.player"))?.clamp(0, 255) as u8),
        None => None,
    };
    Ok((action, player))
}

/// The bridge axis named by `key` (`NS` or `WE`).
fn axis_field(o: &Map<String, Value>, key: &str, path: &str) -> Result<Axis, RecordError> {
    let p = format!("{path}.{key}");
    let name = as_str(field(o, key, path)?, &p)?;
    Axis::from_name(name).ok_or_else(|| err(&p, format!("unknown axis {name:?} (NS, WE)")))
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
        .ok_or_else(|| err(p, format!("no tile at {pos} to hold feature {id:?}")))?;
    let tile = game.board().placement(index);
    game.feature_named(index, id).ok_or_else(|| {
        err(
            p,
            format!("tile {} at {pos} has no feature {id:?}", tile.kind.id()),
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
        };
        o.insert(f.name.into(), v);
    }
    Value::Object(o)
}

/// The record of a game (finished or not) as a JSON value.
pub fn to_value(game: &Game, id: &str) -> Value {
    let players = game.num_players();
    let last = game.turns().len().saturating_sub(1);
    // A turn just begun, before its draw or abbey, is left out: replaying the record
    // reaches the same point (its fairy point included).
    let begun_only = game.turn_in_progress()
        && game.turns().last().is_some_and(|t| {
            t.draw.is_none() && t.actions.0 as usize == game.history_actions().len()
        });
    let turns: Vec<Value> = game
        .turns()
        .iter()
        .enumerate()
        .filter(|(i, _)| !(begun_only && *i == last))
        .map(|(i, t)| {
            // The turn in progress of an unfinished game: everything so far.
            let (actions_end, events_end, scores) = if i == last && game.turn_in_progress() {
                (
                    game.history_actions().len(),
                    game.events().len(),
                    game.scores().to_vec(),
                )
            } else {
                (
                    t.actions.1 as usize,
                    t.events.1 as usize,
                    t.scores[..players].to_vec(),
                )
            };
            let mut placements = 0;
            let actions: Vec<Value> = game.history_actions()[t.actions.0 as usize..actions_end]
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
            let events: Vec<Value> = game.events()[t.events.0 as usize..events_end]
                .iter()
                .map(|e| {
                    let mut v =
                        json!({"player": e.player, "points": e.points, "what": e.kind.name()});
                    if let Some((pos, local)) = e.at {
                        v["at"] = json!([pos.x, pos.y, feature_name(game, pos, local)]);
                    }
                    v
                })
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
            let offer = &game.bazaar_log()[t.bazaar.0 as usize..t.bazaar.1 as usize];
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
    if game.is_terminal() {
        record["final_scores"] = json!(game.scores());
    }
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

/// The record of a game as one line of JSON.
pub fn to_json(game: &Game, id: &str) -> String {
    to_value(game, id).to_string()
}

fn scores_of(v: &Value, path: &str) -> Result<Vec<i32>, RecordError> {
    v.as_array()
        .ok_or_else(|| err(path, "expected an array of scores"))?
        .iter()
        .enumerate()
        .map(|(i, s)| Ok(as_int(s, &format!("{path}[{i}]"))? as i32))
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

/// Replays a record given as JSON text.
pub fn replay_json(text: &str) -> Result<Game, ReplayError> {
    let v: Value = serde_json::from_str(text).map_err(|e| err("", format!("invalid JSON: {e}")))?;
    replay(&v)
}

/// The record's `id`, if it has one.
pub fn record_id(record: &Value) -> Option<&str> {
    record.get("id").and_then(Value::as_str)
}

/// Replays a record: forces its draws, applies its actions, compares every turn's
/// scores and the final scores. Returns the replayed game.
pub fn replay(record: &Value) -> Result<Game, ReplayError> {
    let top = as_object(record, "")?;
    let format = as_str(field(top, "format", "")?, "format")?;
    if format != FORMAT {
        return Err(err("format", format!("expected {FORMAT:?}, found {format:?}")).into());
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
    let players = config.players as usize;
    let mut game = Game::with_chance(config, ChanceMode::Explicit).map_err(|e| {
        let e = e.under("setup");
        err(e.field, e.message)
    })?;
    let turns = field(top, "turns", "")?
        .as_array()
        .ok_or_else(|| err("turns", "expected an array"))?;
    for (t, turn) in turns.iter().enumerate() {
        let path = format!("turns[{t}]");
        let o = as_object(turn, &path)?;
        let player = small_int(o, "player", &path, 0..=players as i64 - 1)? as usize;
        let draw = match field(o, "draw", &path)? {
            Value::Null => None,
            v => Some(tile_by_id(
                as_str(v, &format!("{path}.draw"))?,
                &format!("{path}.draw"),
            )?),
        };
        let discarded = o.get("discarded").and_then(Value::as_bool).unwrap_or(false);
        let actions = field(o, "actions", &path)?
            .as_array()
            .ok_or_else(|| err(format!("{path}.actions"), "expected an array"))?;
        let scores = scores_of(field(o, "scores", &path)?, &format!("{path}.scores"))?;
        if scores.len() != players {
            return Err(err(
                format!("{path}.scores"),
                format!("{} scores for {players} players", scores.len()),
            )
            .into());
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
        // BZ4: the tile the player got at a bazaar is in his hand without a draw.
        let from_bazaar = game
            .turns()
            .get(t)
            .is_some_and(|l| l.from_bazaar && game.turns().len() == t + 1);
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
            lay_out_bazaar(&mut game, t, &mut offer)?;
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
        lay_out_bazaar(&mut game, t, &mut offer)?;
        if offer.len() > 0 {
            return Err(diverged(
                t,
                None,
                format!("a bazaar with {} more tiles", offer.len()),
                "no more bazaar tiles are drawn",
            ));
        }
        let unfinished = t + 1 == turns.len() && !top.contains_key("final_scores");
        if game.turn_in_progress() && game.turns().len() == t + 1 && unfinished {
            // The record of an unfinished game ends inside this turn.
            if game.scores() != scores.as_slice() {
                return Err(scores_diverged(t, &scores, game.scores(), String::new()));
            }
            return Ok(game);
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
    // Declines of an end-of-game abbey that the record does not list.
    while game.phase() == Phase::Abbey && game.in_end_round() {
        game.apply(Action::Pass)
            .map_err(|e| diverged(turns.len(), None, "the game ends", e.to_string()))?;
    }
    if let Some(finals) = top.get("final_actions") {
        let finals = finals
            .as_array()
            .ok_or_else(|| err("final_actions", "expected an array"))?;
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
    if let Some(fs) = top.get("final_scores") {
        let expected = scores_of(fs, "final_scores")?;
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
    Ok(game)
}

/// BZ1: while turn `t` waits for the tiles of a bazaar's offer, draws them from the
/// record's `bazaar` list.
fn lay_out_bazaar(
    game: &mut Game,
    t: usize,
    offer: &mut std::slice::Iter<'_, TileKind>,
) -> Result<(), ReplayError> {
    while game.phase() == Phase::Draw && game.turns().len() == t + 1 && game.turn_in_progress() {
        let Some(&tile) = offer.next() else {
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

/// Splits a file's text into records: JSON Lines, or a single JSON object.
pub fn parse_records(text: &str) -> Vec<Result<Value, RecordError>> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            return vec![Ok(v)];
        }
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| err(format!("line {}", i + 1), format!("invalid JSON: {e}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::config::GameConfig;
    use carcassonne::rng::Rng;
    use carcassonne::tiles::TileSet;

    /// A record written at any point of a game, finished or not, replays to the same
    /// board, figures, scores and decision.
    #[test]
    fn records_of_unfinished_games_load_back() {
        let mut config = GameConfig::new(3);
        config.sets = TileSet::ALL.to_vec();
        config.figures = carcassonne::config::Figures::default_for(&config.sets);
        config.figures.abbot = 1;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(3);
        let mut legal = Vec::new();
        let mut checked = 0;
        while !game.is_terminal() {
            if rng.below(7) == 0 {
                let back = replay_json(&to_json(&game, "partial")).unwrap();
                assert_eq!(back.scores(), game.scores());
                assert_eq!(back.board().placements(), game.board().placements());
                assert_eq!(back.board_figures().len(), game.board_figures().len());
                assert_eq!(back.phase(), game.phase());
                assert_eq!(back.to_play(), game.to_play());
                assert_eq!(back.legal_actions(), game.legal_actions());
                checked += 1;
            }
            game.legal_actions_into(&mut legal);
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        assert!(checked > 10);
        assert_eq!(
            replay_json(&to_json(&game, "done")).unwrap().scores(),
            game.scores()
        );
    }

    /// Bad input names the field.
    #[test]
    fn errors_name_the_field() {
        let e = |text: &str| match replay_json(text) {
            Err(ReplayError::Bad(e)) => e.path,
            other => panic!("expected a bad record, got {other:?}"),
        };
        assert_eq!(e("{"), "");
        assert_eq!(e(r#"{"format":"x","version":1}"#), "format");
        let ok = r#"{"format":"carcassonne-record","version":1,"setup":{"players":2,"sets":["base"]},"turns":[]}"#;
        assert!(replay_json(ok).is_ok());
        assert_eq!(
            e(&ok.replace(r#""players":2"#, r#""players":9"#)),
            "setup.players"
        );
        assert_eq!(
            e(&ok.replace(r#"["base"]"#, r#"["base","moon"]"#)),
            "setup.sets[1]"
        );
        assert_eq!(
            e(&ok.replace(
                r#""turns":[]"#,
                r#""turns":[{"player":0,"draw":"NOPE","actions":[],"scores":[0,0]}]"#
            )),
            "turns[0].draw"
        );
        assert_eq!(
            e(&ok.replace(
                r#""turns":[]"#,
                r#""turns":[{"player":0,"draw":"BASE-A","actions":[{"type":"place_tile","x":0,"y":1,"rot":7}],"scores":[0,0]}]"#
            )),
            "turns[0].actions[0].rot"
        );
        assert_eq!(
            e(&ok.replace(r#""sets""#, r#""rules":{"fairy":"big"},"sets""#)),
            "setup.rules.fairy"
        );
    }
}
