//! Reading a record's JSON: typed field access with paths in errors, the setup's
//! configuration, actions and events checked against the format.

use super::*;

/// Where a value is in a record (`turns[4].actions[0].rot`), written out only when an
/// error names it: reading a valid record writes no path.
#[derive(Clone, Copy, Debug)]
pub(crate) enum At<'a> {
    /// The record's top level (an empty path).
    Top,
    /// A key of the object at a path.
    Key(&'a At<'a>, &'a str),
    /// An element of the array at a path.
    Index(&'a At<'a>, usize),
}

impl<'a> At<'a> {
    /// The path of `key` under this one.
    pub(crate) fn key(&'a self, key: &'a str) -> At<'a> {
        At::Key(self, key)
    }

    /// The path of element `i` under this one.
    pub(crate) fn index(&'a self, i: usize) -> At<'a> {
        At::Index(self, i)
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Top => Ok(()),
            At::Key(At::Top, key) => f.write_str(key),
            At::Key(parent, key) => write!(f, "{parent}.{key}"),
            At::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

impl From<At<'_>> for String {
    fn from(at: At<'_>) -> String {
        at.to_string()
    }
}

impl From<&At<'_>> for String {
    fn from(at: &At<'_>) -> String {
        at.to_string()
    }
}

pub(super) fn field<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    path: &At<'_>,
) -> Result<&'a Value, RecordError> {
    obj.get(key).ok_or_else(|| err(path.key(key), "missing"))
}

pub(crate) fn as_object<'a>(
    v: &'a Value,
    path: &At<'_>,
) -> Result<&'a Map<String, Value>, RecordError> {
    v.as_object()
        .ok_or_else(|| err(path, format!("expected an object, found {}", describe(v))))
}

pub(super) fn as_int(v: &Value, path: &At<'_>) -> Result<i64, RecordError> {
    v.as_i64()
        .ok_or_else(|| err(path, format!("expected an integer, found {}", describe(v))))
}

pub(crate) fn as_str<'a>(v: &'a Value, path: &At<'_>) -> Result<&'a str, RecordError> {
    v.as_str()
        .ok_or_else(|| err(path, format!("expected a string, found {}", describe(v))))
}

pub(super) fn as_array<'a>(v: &'a Value, path: &At<'_>) -> Result<&'a Vec<Value>, RecordError> {
    v.as_array()
        .ok_or_else(|| err(path, format!("expected an array, found {}", describe(v))))
}

/// Refuses a key of `o` that `allowed` does not list.
pub(super) fn check_keys(
    o: &Map<String, Value>,
    allowed: impl Fn(&str) -> bool,
    names: impl Fn() -> Vec<String>,
    path: &At<'_>,
) -> Result<(), RecordError> {
    match o.keys().find(|k| !allowed(k)) {
        None => Ok(()),
        Some(k) => Err(err(
            path.key(&json::echo_key(k)),
            format!("unknown key (allowed: {})", names().join(", ")),
        )),
    }
}

/// Refuses a key of `o` that is not in `keys`.
pub(super) fn check_table(
    o: &Map<String, Value>,
    keys: &[&str],
    path: &At<'_>,
) -> Result<(), RecordError> {
    check_keys(
        o,
        |k| keys.contains(&k),
        || keys.iter().map(|k| k.to_string()).collect(),
        path,
    )
}

pub(super) fn int_field(
    obj: &Map<String, Value>,
    key: &str,
    path: &At<'_>,
) -> Result<i64, RecordError> {
    let v = field(obj, key, path)?;
    // The path is made only for the error.
    match v.as_i64() {
        Some(n) => Ok(n),
        None => as_int(v, &path.key(key)),
    }
}

pub(super) fn small_int(
    obj: &Map<String, Value>,
    key: &str,
    path: &At<'_>,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, RecordError> {
    let v = int_field(obj, key, path)?;
    if !range.contains(&v) {
        return Err(err(
            path.key(key),
            format!("{v} is out of range {}..={}", range.start(), range.end()),
        ));
    }
    Ok(v)
}

pub(crate) fn tile_by_id(id: &str, path: &At<'_>) -> Result<TileKind, RecordError> {
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
pub(super) fn action_from_json(
    game: &Game,
    v: &Value,
    path: &At<'_>,
) -> Result<(Action, Option<u8>), RecordError> {
    let o = as_object(v, path)?;
    let ty = match field(o, "type", path)? {
        Value::String(ty) => ty.as_str(),
        v => as_str(v, &path.key("type"))?,
    };
    let kind = ActionKind::from_name(ty).ok_or_else(|| {
        err(
            path.key("type"),
            format!("unknown action type {}", echo(ty)),
        )
    })?;
    let spec = kind.spec();
    // The keys beside the fields: the shared ones and those of the sets in play.
    let extra = || {
        ACTION_EXTRA_KEYS
            .iter()
            .chain(sets::in_play(game).flat_map(|m| m.record_action_keys()))
            .filter(|(name, _)| *name == spec.name)
            .flat_map(|(_, keys)| keys.iter().copied())
    };
    check_keys(
        o,
        |k| {
            k == "type"
                || k == "player"
                || spec.fields.iter().any(|f| f.name == k)
                || extra().any(|e| e == k)
        },
        || {
            ["type", "player"]
                .into_iter()
                .chain(spec.fields.iter().map(|f| f.name))
                .chain(extra())
                .map(String::from)
                .collect()
        },
        path,
    )?;
    let mut values = Vec::with_capacity(spec.fields.len());
    let mut pos = Pos::default();
    for f in spec.fields {
        let p = path.key(f.name);
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
                        .ok_or_else(|| err(p, format!("unknown figure {}", echo(name))))?,
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
                FieldKind::Corner
                    .value_named(name)
                    .ok_or_else(|| err(p, format!("unknown corner {}", echo(name))))?
            }
            FieldKind::Tile => {
                FieldValue::Tile(tile_by_id(as_str(field(o, f.name, path)?, &p)?, &p)?)
            }
            FieldKind::OptBridge => match o.get(f.name) {
                None | Some(Value::Null) => FieldValue::Bridge(None),
                Some(b) => {
                    let bo = as_object(b, &p)?;
                    let x = small_int(bo, "x", &p, -10_000..=10_000)? as i32;
                    let y = small_int(bo, "y", &p, -10_000..=10_000)? as i32;
                    let axis = named_value(bo, "axis", &p, FieldKind::Axis)?;
                    FieldValue::bridge(x, y, axis).expect("an axis")
                }
            },
            FieldKind::Bid => {
                let max = FieldKind::Bid.int_max().expect("bids are bounded");
                FieldValue::Bid(small_int(o, f.name, path, 0..=i64::from(max))? as u32)
            }
            FieldKind::Seat => {
                FieldValue::Seat(Seat(
                    small_int(o, f.name, path, 0..=game.num_players() as i64 - 1)? as u8,
                ))
            }
            named => named_value(o, f.name, path, named)?,
        };
        values.push(value);
    }
    let action =
        Action::from_values(kind, &values).map_err(|e| err(path.key(e.field), e.message))?;
    let player = match o.get("player") {
        // The kinds whose table in the format lists `player` always carry it (those
        // that a player other than the turn player may take).
        None if spec.names_player => {
            return Err(err(
                path.key("player"),
                format!("missing (a {} action names who takes it)", spec.name),
            ))
        }
        Some(v) => {
            let p = path.key("player");
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

/// The value of the named kind `kind` that the string under `key` names
/// ([`FieldKind::value_named`]): an unknown name is an error that lists the names
/// (`unknown quarter "x" (castle, blacksmith, cathedral, market)`).
pub(crate) fn named_value(
    o: &Map<String, Value>,
    key: &str,
    path: &At<'_>,
    kind: FieldKind,
) -> Result<FieldValue, RecordError> {
    let p = path.key(key);
    let name = as_str(field(o, key, path)?, &p)?;
    kind.value_named(name).ok_or_else(|| {
        let (_, names) = kind.value_names().expect("a named kind");
        let word = kind.value_word().expect("a named kind");
        err(p, format!("unknown {word} {} ({names})", echo(name)))
    })
}

/// The names an event's `what` may have: the engine's score kinds, and the names the
/// reference engine writes in its records (the reference games of `tests/data`, and those
/// of the sets the engine does not play yet).
pub(super) const REFERENCE_EVENT_NAMES: &[&str] = &[
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
pub(super) fn check_event(e: &Value, path: &At<'_>, players: usize) -> Result<(), RecordError> {
    let o = as_object(e, path)?;
    check_table(o, EVENT_KEYS, path)?;
    small_int(o, "player", path, 0..=players as i64 - 1)?;
    // A place: `[x, y]` or `[x, y, feature]`; its path is made only for the error.
    let place = |v: &Value, p: At<'_>| -> Result<(), RecordError> {
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
        place(at, path.key("at"))?;
    }
    if let Some(Value::Array(returned)) = o.get("returned") {
        // A prisoner exchange (TW4): the figures that went back, `[[seat, figure], ...]`.
        let returned_at = path.key("returned");
        for (i, pair) in returned.iter().enumerate() {
            let p = returned_at.index(i);
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
        let figure = as_str(&o["returned"], &path.key("returned"))?;
        if Figure::with_name(figure).is_none() {
            return Err(err(
                path.key("returned"),
                format!("unknown figure {} ({})", echo(figure), Figure::names()),
            ));
        }
        let cause = as_str(field(o, "cause", path)?, &path.key("cause"))?;
        if ReturnCause::with_name(cause).is_none() {
            return Err(err(
                path.key("cause"),
                format!("unknown cause {} ({})", echo(cause), ReturnCause::names()),
            ));
        }
        return Ok(());
    }
    small_int(o, "points", path, i32::MIN as i64..=i32::MAX as i64)?;
    let what = match field(o, "what", path)? {
        Value::String(what) => what.as_str(),
        v => as_str(v, &path.key("what"))?,
    };
    if ScoreKind::with_name(what).is_none() && !REFERENCE_EVENT_NAMES.contains(&what) {
        return Err(err(
            path.key("what"),
            format!(
                "unknown score {} ({}, {})",
                echo(what),
                ScoreKind::names(),
                REFERENCE_EVENT_NAMES.join(", ")
            ),
        ));
    }
    if let Some(parts) = o.get("parts") {
        let parts = match parts {
            Value::Array(parts) => parts,
            v => as_array(v, &path.key("parts"))?,
        };
        let parts_at = path.key("parts");
        for (i, part) in parts.iter().enumerate() {
            place(part, parts_at.index(i))?;
        }
    }
    Ok(())
}

/// The record name of local feature `local` of the tile at `pos` (`bridge` for its
/// bridge, BR3), `#local` if there is no such tile.
pub(super) fn feature_name(game: &Game, pos: Pos, local: u8) -> String {
    match game.board().index_at(pos) {
        Some(i) => game.feature_name(i, local).to_string(),
        None => format!("#{local}"),
    }
}

/// The local index of the feature named by `key` on the tile at `pos`.
pub(super) fn feature_at(
    game: &Game,
    pos: Pos,
    o: &Map<String, Value>,
    key: &str,
    p: &At<'_>,
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
