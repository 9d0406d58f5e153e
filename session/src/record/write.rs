//! Writing a record: actions, events and the whole game with what resumes it.

use super::*;

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
            (_, FieldValue::Tile(t)) => json!(t.id()),
            (_, FieldValue::Bridge(None)) => continue,
            (_, bridge @ FieldValue::Bridge(Some(_))) => {
                let (x, y, axis, _) = bridge.bridge_parts().expect("a bridge");
                json!({"x": x, "y": y, "axis": axis})
            }
            (_, FieldValue::Bid(b)) => json!(b),
            (_, FieldValue::Seat(Seat(seat))) => json!(seat),
            (_, named) => json!(named.name().expect("the other values are named")),
        };
        o.insert(f.name.into(), v);
    }
    Value::Object(o)
}

/// One entry of `events` / `final_events`: a score, with the parts of the scored
/// feature, or a figure returned, with its cause.
pub(super) fn event_to_json(game: &Game, event: Event<'_>, scored: &mut ScoredParts<'_>) -> Value {
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
    // reaches the same point (its fairy point included). Not a turn of the end-of-game
    // abbey round (AM4), written with no actions: when a builder's extra turn (TB4) with
    // the pile empty declined its abbey, which leaves no entry, only that entry tells
    // the replay that the extra turn is over.
    let begun_only = game.turn_in_progress()
        && !game.in_end_round()
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
            let first = t.actions.0 as usize;
            let mut actions: Vec<Value> = game.history_actions()[first..actions_end]
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    let mut v = action_to_json(game, d.player, &d.action);
                    // The chance outcomes that followed the decision (HS1–HS3).
                    for m in sets::in_play(game) {
                        m.write_action_chance(game, first + k, &mut v);
                    }
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
pub(super) fn final_decisions(game: &Game) -> &[carcassonne::game::Decision] {
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
