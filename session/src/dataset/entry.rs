//! A game as the dataset stores it, and its rows in each table.

use super::schema::{rule_fields, table_schema, target_fields};
use crate::mcts::outcome_and_margin;
use crate::record::{self, RecordError, ReplayError};
use arrow_array::builder::{
    BooleanBuilder, Float32Builder, Int32Builder, StringBuilder, UInt16Builder, UInt32Builder,
    UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StringArray, StructArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field};
use carcassonne::{Action, Game};
use serde_json::Value;
use std::sync::Arc;

/// One searched step of a game: a row of the `decisions` table.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionRow {
    /// The deciding seat.
    pub player: u8,
    /// The index of the step's action among the players' actions of the game (the
    /// actions of the record's turns in order, then its `final_actions`; draws are not
    /// actions of a player). An abbey declined before a draw (AM1), which the record does
    /// not list (the draw implies it), has the index of the action that follows it.
    pub action: u32,
    /// The number of legal flat ids at the step.
    pub legal: u32,
    /// The flat id taken (`None` when the action taken has no id in the window).
    pub chosen: Option<u32>,
    /// The search's visit shares over the legal ids: `(flat id, share)`, ids in increasing
    /// order, zero shares left out; they sum to 1.
    pub targets: Vec<(u32, f32)>,
    /// The search's value of the decision for every seat, in `0..=1`.
    pub values: Vec<f32>,
    /// The deciding seat's outcome: 1 a win, `1/k` a win shared by `k`, 0 a loss.
    pub outcome: f32,
    /// The deciding seat's final score minus the best opponent's.
    pub margin: i32,
}

/// A finished game ready to be written: its record, who played each seat and its
/// searched decisions.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// The game's id, unique in a dataset.
    pub id: String,
    /// Who played each seat (`mcts:150`, `greedy`, ...; empty when unknown).
    pub seats: Vec<String>,
    /// The observation window of the decisions' flat ids (`None` without decisions).
    pub window: Option<u16>,
    /// The searched decisions, in order.
    pub decisions: Vec<DecisionRow>,
    game: Game,
    record: Value,
    /// The engine's own record of the game, when `record` came from elsewhere: its
    /// events are those of the replayed game.
    engine_record: Option<Value>,
}

impl GameEntry {
    /// The entry of a game record (no decisions). The record must have an `id`, replay
    /// exactly ([`record::replay`]) and be of a finished game.
    pub fn from_record(record: &Value, seats: Vec<String>) -> Result<GameEntry, ReplayError> {
        let id = record::record_id(record)
            .ok_or_else(|| RecordError {
                path: "id".into(),
                message: "missing (a dataset keys its games by id)".into(),
            })?
            .to_string();
        if let Err(m) = super::limits::check_game_id(&id) {
            return Err(ReplayError::Bad(RecordError {
                path: "id".into(),
                message: format!("{m} (a dataset keys its games by id)"),
            }));
        }
        let game = record::replay(record)?;
        if !game.is_terminal() {
            return Err(ReplayError::Bad(RecordError {
                path: "final_scores".into(),
                message: "the game is not finished; a dataset holds finished games".into(),
            }));
        }
        let engine_record = Some(record::to_value(&game, &id));
        Ok(GameEntry {
            id,
            seats,
            window: None,
            decisions: Vec::new(),
            game,
            record: record.clone(),
            engine_record,
        })
    }

    /// The entry of a finished game played here, with its searched decisions.
    pub fn from_game(
        game: Game,
        id: &str,
        seats: Vec<String>,
        window: Option<u16>,
        decisions: Vec<DecisionRow>,
    ) -> Result<GameEntry, RecordError> {
        let text = record::to_json(&game, id)?;
        let record: Value = serde_json::from_str(&text).map_err(|e| RecordError {
            path: String::new(),
            message: format!("the record written does not read back: {e}"),
        })?;
        Ok(GameEntry {
            id: id.to_string(),
            seats,
            window,
            decisions,
            game,
            record,
            engine_record: None,
        })
    }

    /// The replayed game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's record.
    pub fn record(&self) -> &Value {
        &self.record
    }

    /// The engine's record of the replayed game (the source of the `events` rows).
    fn engine_record(&self) -> &Value {
        self.engine_record.as_ref().unwrap_or(&self.record)
    }
}

/// The rank of each seat by `scores`: 1 for the most points, seats with equal scores
/// share a rank (B17), the next rank counting the seats before it.
pub fn ranks(scores: &[i32]) -> Vec<u8> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|t| *t > s).count() as u8)
        .collect()
}

/// The outcome and margin of every seat by the final `scores` (as self-play rows give
/// them).
pub fn seat_outcomes(scores: &[i32]) -> Vec<(f32, i32)> {
    (0..scores.len())
        .map(|p| {
            let (o, m) = outcome_and_margin(scores, p);
            (o as f32, m)
        })
        .collect()
}

/// A list column of `item` from its values and each row's length.
fn list(item: DataType, values: ArrayRef, lengths: &[usize]) -> ArrayRef {
    Arc::new(ListArray::new(
        Arc::new(Field::new("item", item, false)),
        OffsetBuffer::from_lengths(lengths.iter().copied()),
        values,
        None,
    ))
}

fn strings<'a>(items: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(items.map(Some).collect::<StringArray>())
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn batch(table: &str, columns: Vec<ArrayRef>) -> RecordBatch {
    let schema = table_schema(table).expect("a table of the dataset");
    RecordBatch::try_new(schema, columns).expect("columns of the table's schema")
}

/// The `games` rows of `entries`.
pub(crate) fn games_batch(entries: &[GameEntry]) -> RecordBatch {
    let mut players = UInt8Builder::new();
    let mut edition = StringBuilder::new();
    let mut seed = UInt64Builder::new();
    let mut turns = UInt32Builder::new();
    let mut actions = UInt32Builder::new();
    let mut decisions = UInt32Builder::new();
    let mut window = UInt16Builder::new();
    let (mut sets, mut set_len) = (Vec::new(), Vec::new());
    let (mut rule_names, mut rule_values, mut rule_len) = (Vec::new(), Vec::new(), Vec::new());
    let (mut seats, mut seat_len) = (Vec::new(), Vec::new());
    let (mut scores, mut ranks_all, mut score_len) = (Vec::new(), Vec::new(), Vec::new());
    for e in entries {
        let setup = &e.record["setup"];
        players.append_value(e.game.num_players() as u8);
        edition.append_value(text_of(&setup["edition"]));
        seed.append_value(e.game.config().seed);
        turns.append_value(e.game.turns().len() as u32);
        actions.append_value(e.game.history_actions().len() as u32);
        decisions.append_value(e.decisions.len() as u32);
        window.append_option(e.window);
        let names: Vec<String> = setup["sets"]
            .as_array()
            .map(|a| a.iter().map(text_of).collect())
            .unwrap_or_default();
        set_len.push(names.len());
        sets.extend(names);
        let rules = setup["rules"].as_object();
        rule_len.push(rules.map_or(0, |r| r.len()));
        for (k, v) in rules.into_iter().flatten() {
            rule_names.push(k.clone());
            rule_values.push(text_of(v));
        }
        seat_len.push(e.seats.len());
        seats.extend(e.seats.iter().cloned());
        let s = e.game.scores();
        score_len.push(s.len());
        scores.extend_from_slice(s);
        ranks_all.extend(ranks(s));
    }
    let rule_struct: ArrayRef = Arc::new(StructArray::new(
        rule_fields(),
        vec![
            strings(rule_names.iter().map(String::as_str)),
            strings(rule_values.iter().map(String::as_str)),
        ],
        None,
    ));
    let ids = strings(entries.iter().map(|e| e.id.as_str()));
    batch(
        "games",
        vec![
            ids,
            Arc::new(players.finish()),
            list(
                DataType::Utf8,
                strings(sets.iter().map(String::as_str)),
                &set_len,
            ),
            Arc::new(edition.finish()),
            list(DataType::Struct(rule_fields()), rule_struct, &rule_len),
            Arc::new(seed.finish()),
            list(
                DataType::Utf8,
                strings(seats.iter().map(String::as_str)),
                &seat_len,
            ),
            list(
                DataType::Int32,
                Arc::new(arrow_array::Int32Array::from(scores)),
                &score_len,
            ),
            list(
                DataType::UInt8,
                Arc::new(arrow_array::UInt8Array::from(ranks_all)),
                &score_len,
            ),
            Arc::new(turns.finish()),
            Arc::new(actions.finish()),
            Arc::new(decisions.finish()),
            Arc::new(window.finish()),
        ],
    )
}

/// The `turns` rows of `entries`.
pub(crate) fn turns_batch(entries: &[GameEntry]) -> RecordBatch {
    let mut id = StringBuilder::new();
    let mut turn = UInt32Builder::new();
    let mut player = UInt8Builder::new();
    let mut tile = StringBuilder::new();
    let (mut x, mut y) = (Int32Builder::new(), Int32Builder::new());
    let mut rot = UInt8Builder::new();
    let mut discarded = BooleanBuilder::new();
    let (mut scores, mut score_len) = (Vec::new(), Vec::new());
    for e in entries {
        let players = e.game.num_players();
        let history = e.game.history_actions();
        for (i, t) in e.game.turns().iter().enumerate() {
            id.append_value(&e.id);
            turn.append_value(i as u32);
            player.append_value(t.player);
            tile.append_option(t.draw.map(|k| k.id()));
            let placed = history[t.actions.0 as usize..t.actions.1 as usize]
                .iter()
                .find_map(|d| match d.action {
                    Action::PlaceTile { pos, rot, .. } => Some((pos, rot)),
                    _ => None,
                });
            x.append_option(placed.map(|(p, _)| p.x));
            y.append_option(placed.map(|(p, _)| p.y));
            rot.append_option(placed.map(|(_, r)| r.quarter_turns()));
            discarded.append_value(t.discarded);
            scores.extend_from_slice(&t.scores[..players]);
            score_len.push(players);
        }
    }
    batch(
        "turns",
        vec![
            Arc::new(id.finish()),
            Arc::new(turn.finish()),
            Arc::new(player.finish()),
            Arc::new(tile.finish()),
            Arc::new(x.finish()),
            Arc::new(y.finish()),
            Arc::new(rot.finish()),
            Arc::new(discarded.finish()),
            list(
                DataType::Int32,
                Arc::new(arrow_array::Int32Array::from(scores)),
                &score_len,
            ),
        ],
    )
}

/// The `events` rows of `entries`: the score events and figure returns of each turn
/// (`events` of a record's turn) and of the final scoring (`final_events`, turn null),
/// as the engine writes them for the replayed game (a record from elsewhere may have
/// none).
pub(crate) fn events_batch(entries: &[GameEntry]) -> RecordBatch {
    let mut id = StringBuilder::new();
    let mut turn = UInt32Builder::new();
    let mut player = UInt8Builder::new();
    let mut kind = StringBuilder::new();
    let mut points = Int32Builder::new();
    let mut figure = StringBuilder::new();
    let (mut x, mut y) = (Int32Builder::new(), Int32Builder::new());
    let mut feature = StringBuilder::new();
    for e in entries {
        let written = e.engine_record();
        let turns = written["turns"].as_array().map(Vec::as_slice);
        let per_turn = turns.unwrap_or_default().iter().enumerate().map(|(i, t)| {
            let events = t["events"].as_array().map(Vec::as_slice);
            (Some(i as u32), events.unwrap_or_default())
        });
        let finals = written["final_events"].as_array().map(Vec::as_slice);
        for (t, events) in per_turn.chain(std::iter::once((None, finals.unwrap_or_default()))) {
            for ev in events {
                id.append_value(&e.id);
                turn.append_option(t);
                player.append_value(ev["player"].as_u64().unwrap_or(0) as u8);
                match ev["returned"].as_str() {
                    Some(f) => {
                        kind.append_value("returned");
                        figure.append_value(f);
                    }
                    None => {
                        kind.append_value(ev["what"].as_str().unwrap_or(""));
                        figure.append_null();
                    }
                }
                points.append_value(ev["points"].as_i64().unwrap_or(0) as i32);
                let at = ev["at"].as_array();
                let coord = |k: usize| at.and_then(|a| a.get(k)).and_then(Value::as_i64);
                x.append_option(coord(0).map(|v| v as i32));
                y.append_option(coord(1).map(|v| v as i32));
                feature.append_option(at.and_then(|a| a.get(2)).and_then(Value::as_str));
            }
        }
    }
    batch(
        "events",
        vec![
            Arc::new(id.finish()),
            Arc::new(turn.finish()),
            Arc::new(player.finish()),
            Arc::new(kind.finish()),
            Arc::new(points.finish()),
            Arc::new(figure.finish()),
            Arc::new(x.finish()),
            Arc::new(y.finish()),
            Arc::new(feature.finish()),
        ],
    )
}

/// The `decisions` rows of `entries`.
pub(crate) fn decisions_batch(entries: &[GameEntry]) -> RecordBatch {
    let mut id = StringBuilder::new();
    let mut index = UInt32Builder::new();
    let mut action = UInt32Builder::new();
    let mut player = UInt8Builder::new();
    let mut legal = UInt32Builder::new();
    let mut chosen = UInt32Builder::new();
    let mut outcome = Float32Builder::new();
    let mut margin = Int32Builder::new();
    let (mut target_ids, mut shares, mut target_len) = (Vec::new(), Vec::new(), Vec::new());
    let (mut values, mut value_len) = (Vec::new(), Vec::new());
    for e in entries {
        for (i, d) in e.decisions.iter().enumerate() {
            id.append_value(&e.id);
            index.append_value(i as u32);
            action.append_value(d.action);
            player.append_value(d.player);
            legal.append_value(d.legal);
            chosen.append_option(d.chosen);
            outcome.append_value(d.outcome);
            margin.append_value(d.margin);
            target_len.push(d.targets.len());
            for &(t, s) in &d.targets {
                target_ids.push(t);
                shares.push(s);
            }
            value_len.push(d.values.len());
            values.extend_from_slice(&d.values);
        }
    }
    let targets: ArrayRef = Arc::new(StructArray::new(
        target_fields(),
        vec![
            Arc::new(arrow_array::UInt32Array::from(target_ids)),
            Arc::new(arrow_array::Float32Array::from(shares)),
        ],
        None,
    ));
    batch(
        "decisions",
        vec![
            Arc::new(id.finish()),
            Arc::new(index.finish()),
            Arc::new(action.finish()),
            Arc::new(player.finish()),
            Arc::new(legal.finish()),
            Arc::new(chosen.finish()),
            list(DataType::Struct(target_fields()), targets, &target_len),
            list(
                DataType::Float32,
                Arc::new(arrow_array::Float32Array::from(values)),
                &value_len,
            ),
            Arc::new(outcome.finish()),
            Arc::new(margin.finish()),
        ],
    )
}

/// The `records` rows of `entries`: each record as one line of JSON.
pub(crate) fn records_batch(entries: &[GameEntry]) -> RecordBatch {
    let texts: Vec<String> = entries.iter().map(|e| e.record.to_string()).collect();
    batch(
        "records",
        vec![
            strings(entries.iter().map(|e| e.id.as_str())),
            strings(texts.iter().map(String::as_str)),
        ],
    )
}

/// The rows of `entries` in table `table`.
pub(crate) fn table_batch(table: &str, entries: &[GameEntry]) -> RecordBatch {
    match table {
        "games" => games_batch(entries),
        "turns" => turns_batch(entries),
        "events" => events_batch(entries),
        "decisions" => decisions_batch(entries),
        _ => records_batch(entries),
    }
}
