//! Conversions between Python values and the engine's types: configurations (through
//! the record format's `setup` object), structured actions (tuples), JSON values and
//! numpy buffers checked for dtype, shape and contiguity.

use crate::errors::{illegal, invalid_argument, invalid_config};
use carcassonne::action::{ActionKind, FieldKind, FieldValue, Seat};
use carcassonne::config::Figure;
use carcassonne::geometry::{Corner, Pos, Rotation};
use carcassonne::rules::state::{Rows, StateValue};
use carcassonne::{Action, Game, GameConfig};
use carcassonne_session::json::{echo, echo_key};
use numpy::{Element, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::Borrowed;
use serde_json::{Map, Number, Value};

/// An integer argument. Anything else (`True` and `False` included, although Python counts
/// them as integers), or an integer beyond 64 bits, is an `InvalidArgumentError` (a
/// `ValueError`), never an `OverflowError` or a panic.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Int(pub i64);

/// `v` when it lies in `min..=max`; otherwise `InvalidArgumentError` quoting the argument
/// `name`, the value and the range.
pub fn arg_in_range(name: &str, v: Int, min: i64, max: i64) -> PyResult<i64> {
    if v.0 < min || v.0 > max {
        return Err(invalid_argument(format!(
            "{name}: {}; expected {min} to {max}",
            v.0
        )));
    }
    Ok(v.0)
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if is_boolean(&obj) {
            return Err(invalid_argument(format!(
                "expected an integer, got {}",
                type_name(&obj)
            )));
        }
        if !obj.is_instance_of::<PyInt>() {
            // numpy integers and other objects with __index__ are accepted too.
            if let Ok(i) = obj.call_method0("__index__") {
                return Int::extract(i.as_borrowed());
            }
            return Err(invalid_argument(format!(
                "expected an integer, got {}",
                type_name(&obj)
            )));
        }
        obj.extract::<i64>().map(Int).map_err(|_| {
            let bits = obj
                .call_method0("bit_length")
                .and_then(|b| b.extract::<u64>())
                .unwrap_or(0);
            invalid_argument(format!(
                "an integer of {bits} bits does not fit in 64 bits (signed: -2**63 to 2**63-1)"
            ))
        })
    }
}

/// A seed argument: an integer 0 to 2^64 − 1, the seeds `Game(seed=...)` takes (numpy
/// integers and other objects with `__index__` too, not a bool). Anything else is an
/// `InvalidArgumentError` that names the seed and quotes at most 40 characters of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        if is_boolean(&obj) || !(obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")?) {
            return Err(invalid_argument(format!(
                "seed: expected an integer 0 to 2**64-1, got {}",
                type_name(&obj)
            )));
        }
        let index = obj.call_method0("__index__")?;
        if let Ok(seed) = index.extract::<u64>() {
            return Ok(Seed(seed));
        }
        let negative = index.lt(0i32)?;
        let bits = index
            .call_method0("bit_length")
            .and_then(|b| b.extract::<u64>())
            .unwrap_or(0);
        Err(invalid_argument(if negative {
            match index.extract::<i64>() {
                Ok(n) => format!("seed: {n} is negative; seeds are 0 to 2**64-1"),
                Err(_) => {
                    format!("seed: a negative integer of {bits} bits; seeds are 0 to 2**64-1")
                }
            }
        } else {
            format!("seed: an integer of {bits} bits; seeds are 0 to 2**64-1")
        }))
    }
}

/// A number from the input as a message quotes it: as Python would write it when that
/// is short, else in scientific notation (`1e308`, never 309 digits), so that it stays
/// within the 40 characters of a quoted value (`carcassonne_session::json::MAX_ECHO_CHARS`).
pub fn number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 24 {
        plain
    } else {
        format!("{x:e}")
    }
}

/// A seed: a non-negative integer below 2^64 (not a bool).
pub fn seed_from(obj: &Bound<'_, PyAny>) -> Option<u64> {
    if is_boolean(obj) {
        return None;
    }
    obj.extract::<u64>().ok()
}

/// Whether `obj` is a boolean: Python's `bool` (a subclass of `int`) or numpy's.
fn is_boolean(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyBool>()
        || obj.get_type().name().is_ok_and(|n| {
            let n = n.to_string_lossy();
            n == "bool_" || (n == "bool" && !obj.is_instance_of::<PyInt>())
        })
}

/// Deepest nesting of lists and dicts in a keyword argument read as JSON: 32, the limit
/// of every JSON input ([`carcassonne_session::json::MAX_DEPTH`]); a configuration uses 3.
pub const MAX_DEPTH: usize = carcassonne_session::json::MAX_DEPTH;

/// A Python value as JSON (`None`, bools, ints, floats, strings, lists, tuples and dicts
/// with string keys); anything else is an error naming `path`. Nesting deeper than
/// [`MAX_DEPTH`] and a list or dict that contains itself are errors (never a crash); the
/// path of an error is only written out when there is one.
pub fn to_json(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<Value> {
    let mut at = JsonPath {
        root: path,
        steps: Vec::new(),
        open: Vec::new(),
    };
    json_value(obj, &mut at)
}

/// One step of a path inside a keyword argument.
enum Step {
    Key(String),
    Index(usize),
}

/// Where the conversion is: the steps from the argument, and the containers being read
/// (to find a list or dict that contains itself).
struct JsonPath<'a> {
    root: &'a str,
    steps: Vec<Step>,
    open: Vec<usize>,
}

impl JsonPath<'_> {
    fn error(&self, message: impl std::fmt::Display) -> PyErr {
        let mut path = self.root.to_string();
        for step in &self.steps {
            match step {
                Step::Key(k) => {
                    path.push('.');
                    path.push_str(&echo_key(k));
                }
                Step::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        invalid_config(format!("{path}: {message}"))
    }

    /// Enters a list or dict: refused when too deep or already open.
    fn enter(&mut self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = obj.as_ptr() as usize;
        if self.open.contains(&id) {
            return Err(self.error("the value contains itself"));
        }
        if self.open.len() >= MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        self.open.push(id);
        Ok(())
    }
}

/// A type's name for a message, cut short.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| echo(&n.to_string_lossy()))
        .unwrap_or_else(|_| "?".into())
}

fn json_value(obj: &Bound<'_, PyAny>, at: &mut JsonPath<'_>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Value::Number(v.into()));
        }
        if let Ok(v) = obj.extract::<u64>() {
            return Ok(Value::Number(v.into()));
        }
        return Err(at.error("integer out of range (64 bits)"));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| at.error("not a finite number"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        at.enter(obj)?;
        let mut out = Vec::new();
        for (i, item) in obj.try_iter()?.enumerate() {
            at.steps.push(Step::Index(i));
            out.push(json_value(&item?, at)?);
            at.steps.pop();
        }
        at.open.pop();
        return Ok(Value::Array(out));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        at.enter(obj)?;
        let mut out = Map::new();
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| at.error(format!("keys must be strings, found {}", type_name(&k))))?;
            at.steps.push(Step::Key(key));
            let value = json_value(&v, at)?;
            let Some(Step::Key(key)) = at.steps.pop() else {
                unreachable!("the step pushed above")
            };
            out.insert(key, value);
        }
        at.open.pop();
        return Ok(Value::Object(out));
    }
    Err(at.error(format!("unsupported value of type {}", type_name(obj))))
}

/// A JSON value as a Python object.
pub fn from_json<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for item in a {
                list.append(from_json(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, item) in o {
                d.set_item(k, from_json(py, item)?)?;
            }
            d.into_any()
        }
    })
}

/// The keyword arguments of a game (or environment) configuration.
/// `players` and `seed` default to 2 and 0 when absent.
pub struct ConfigArgs<'a, 'py> {
    pub players: Option<&'a Bound<'py, PyAny>>,
    pub sets: Option<&'a Bound<'py, PyAny>>,
    pub edition: Option<&'a Bound<'py, PyAny>>,
    pub rules: Option<&'a Bound<'py, PyAny>>,
    pub figures: Option<&'a Bound<'py, PyAny>>,
    pub seed: Option<&'a Bound<'py, PyAny>>,
    pub start: Option<&'a Bound<'py, PyAny>>,
}

/// A validated configuration from keyword arguments, read as the record format's
/// `setup` object; errors name the field (`sets[1]: unknown or unsupported set "x"`).
pub fn config_from_args(args: ConfigArgs<'_, '_>) -> PyResult<GameConfig> {
    let mut setup = Map::new();
    let players = match args.players {
        Some(p) => to_json(p, "players")?,
        None => Value::from(2),
    };
    setup.insert("players".into(), players);
    let sets = match args.sets {
        Some(s) if !s.is_none() => {
            if s.is_instance_of::<PyString>() {
                return Err(invalid_config(
                    "sets: expected a list of set names, e.g. [\"base\", \"river1\"]",
                ));
            }
            to_json(s, "sets")?
        }
        _ => Value::Array(vec![Value::String("base".into())]),
    };
    setup.insert("sets".into(), sets);
    for (name, v) in [
        ("edition", args.edition),
        ("rules", args.rules),
        ("figures", args.figures),
        ("start", args.start),
    ] {
        if let Some(v) = v {
            if !v.is_none() {
                setup.insert(name.into(), to_json(v, name)?);
            }
        }
    }
    let seed = match args.seed {
        Some(s) => to_json(s, "seed")?,
        None => Value::from(0),
    };
    setup.insert("seed".into(), seed);
    GameConfig::from_json(&Value::Object(setup)).map_err(|e| invalid_config(e.to_string()))
}

/// A configuration as a Python dict (the record format's `setup` object).
pub fn config_to_py<'py>(py: Python<'py>, config: &GameConfig) -> PyResult<Bound<'py, PyAny>> {
    from_json(py, &config.to_json())
}

fn int_in(item: &Bound<'_, PyAny>, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    let v = item
        .extract::<Int>()
        .map_err(|_| illegal(format!("action field {what}: expected an integer")))?
        .0;
    if v < lo || v > hi {
        return Err(illegal(format!(
            "action field {what}: {v} is out of range {lo}..={hi}"
        )));
    }
    Ok(v)
}

fn coord(item: &Bound<'_, PyAny>, what: &str) -> PyResult<i32> {
    Ok(int_in(item, what, i32::MIN as i64, i32::MAX as i64)? as i32)
}

fn text(item: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    item.extract()
        .map_err(|_| illegal(format!("action field {what}: expected a string")))
}

/// A feature given as a local index or as a catalogue feature id (`"c1"`) of the tile
/// at `pos`.
fn feature(game: &Game, pos: Pos, item: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(id) = item.extract::<String>() {
        let index = game
            .board()
            .index_at(pos)
            .ok_or_else(|| illegal(format!("no tile at ({}, {})", pos.x, pos.y)))?;
        let tile = game.board().placement(index);
        return game.feature_named(index, &id).ok_or_else(|| {
            illegal(format!(
                "tile {} at ({}, {}) has no feature {}",
                tile.kind.id(),
                pos.x,
                pos.y,
                echo(&id)
            ))
        });
    }
    Ok(int_in(item, "feature", 0, 255)? as u8)
}

/// The value of the named kind `kind` that the string `item` names
/// ([`FieldKind::value_named`]); an unknown name is an error that lists the names.
fn named_value(item: &Bound<'_, PyAny>, kind: FieldKind) -> PyResult<FieldValue> {
    let what = kind.value_word().expect("a named kind");
    let n = text(item, what)?;
    kind.value_named(&n).ok_or_else(|| {
        let (_, names) = kind.value_names().expect("a named kind");
        illegal(format!("unknown {what} {} ({names})", echo(&n)))
    })
}

/// A structured action from its tuple form: the record type name, then the fields in
/// the order of the action schema (`carcassonne::action::SCHEMA`), e.g.
/// `("place_tile", x, y, rot)`, `("deploy", figure, x, y, feature)`,
/// `("deploy_barn", x, y, corner)`, `("move_fairy", x, y, feature | None)`, `("pass",)`,
/// `("draw", tile_id)`, `("place_tile", x, y, rot, (bx, by, "NS"))` (a placement with a
/// bridge). Features are local indices or catalogue ids (`"c1"`, `"bridge"`); a last
/// optional field may be left out.
pub fn action_from_py(game: &Game, obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = obj.cast::<PyList>() {
        l.iter().collect()
    } else {
        return Err(illegal(format!(
            "expected an action (a tuple such as (\"pass\",)), got {}",
            type_name(obj)
        )));
    };
    let name = match items.first() {
        Some(k) => text(k, "type")?,
        None => return Err(illegal("empty action tuple")),
    };
    let kind = ActionKind::from_name(&name)
        .ok_or_else(|| illegal(format!("unknown action type {}", echo(&name))))?;
    let fields = kind.spec().fields;
    let given = items.len() - 1;
    let optional_last = fields
        .last()
        .is_some_and(|f| matches!(f.kind, FieldKind::OptFeature | FieldKind::OptBridge));
    if given != fields.len() && !(optional_last && given + 1 == fields.len()) {
        return Err(illegal(format!(
            "action {} takes {} fields, got {given}",
            echo(&name),
            fields.len()
        )));
    }
    let mut values = Vec::with_capacity(fields.len());
    let mut pos = Pos::default();
    for (i, f) in fields.iter().enumerate() {
        let item = items.get(i + 1);
        let value = match (f.kind, item) {
            (FieldKind::OptFeature, None) => FieldValue::OptFeature(None),
            (FieldKind::OptFeature, Some(it)) if it.is_none() => FieldValue::OptFeature(None),
            (FieldKind::OptBridge, None) => FieldValue::Bridge(None),
            (FieldKind::OptBridge, Some(it)) if it.is_none() => FieldValue::Bridge(None),
            (_, None) => unreachable!("arity checked"),
            (FieldKind::X, Some(it)) => {
                pos.x = coord(it, f.name)?;
                FieldValue::Int(pos.x)
            }
            (FieldKind::Y, Some(it)) => {
                pos.y = coord(it, f.name)?;
                FieldValue::Int(pos.y)
            }
            (FieldKind::Rot, Some(it)) => FieldValue::Rot(
                Rotation::new(int_in(it, f.name, 0, 3)? as u8).expect("checked range"),
            ),
            (FieldKind::Figure, Some(it)) => {
                let n = text(it, f.name)?;
                FieldValue::Figure(
                    Figure::from_name(&n)
                        .ok_or_else(|| illegal(format!("unknown figure {}", echo(&n))))?,
                )
            }
            (FieldKind::Feature, Some(it)) => FieldValue::Feature(feature(game, pos, it)?),
            (FieldKind::OptFeature, Some(it)) => {
                FieldValue::OptFeature(Some(feature(game, pos, it)?))
            }
            (FieldKind::Tile, Some(it)) => {
                let id = text(it, f.name)?;
                FieldValue::Tile(
                    carcassonne::catalogue()
                        .by_id(&id)
                        .ok_or_else(|| illegal(format!("unknown tile id {}", echo(&id))))?,
                )
            }
            (FieldKind::OptBridge, Some(it)) => {
                let (bx, by, axis): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) = it
                    .extract()
                    .map_err(|_| illegal("bridge: expected (x, y, axis) or None".to_string()))?;
                let (x, y) = (coord(&bx, "bridge x")?, coord(&by, "bridge y")?);
                let axis = named_value(&axis, FieldKind::Axis)?;
                FieldValue::bridge(x, y, axis).expect("an axis")
            }
            (FieldKind::Bid, Some(it)) => {
                let max = FieldKind::Bid.int_max().expect("bids are bounded");
                FieldValue::Bid(int_in(it, f.name, 0, i64::from(max))? as u32)
            }
            (FieldKind::Seat, Some(it)) => {
                FieldValue::Seat(Seat(
                    int_in(it, f.name, 0, game.num_players() as i64 - 1)? as u8
                ))
            }
            (named, Some(it)) => named_value(it, named)?,
        };
        values.push(value);
    }
    Action::from_values(kind, &values).map_err(|e| illegal(format!("action field {e}")))
}

/// The tuple form of a structured action (see [`action_from_py`]): features as local
/// indices, an absent optional feature as `None`.
pub fn action_to_py<'py>(py: Python<'py>, action: Action) -> PyResult<Bound<'py, PyTuple>> {
    let mut items = vec![action.type_name().into_pyobject(py)?.into_any()];
    for value in action.values().as_slice() {
        items.push(match *value {
            FieldValue::Int(v) => v.into_pyobject(py)?.into_any(),
            FieldValue::Rot(r) => r.quarter_turns().into_pyobject(py)?.into_any(),
            FieldValue::Figure(f) => f.name().into_pyobject(py)?.into_any(),
            FieldValue::Feature(local) => local.into_pyobject(py)?.into_any(),
            FieldValue::OptFeature(f) => f.into_pyobject(py)?.into_any(),
            FieldValue::Tile(t) => t.id().into_pyobject(py)?.into_any(),
            FieldValue::Bridge(None) => py.None().into_bound(py),
            bridge @ FieldValue::Bridge(Some(_)) => {
                let (x, y, axis, _) = bridge.bridge_parts().expect("a bridge");
                (x, y, axis).into_pyobject(py)?.into_any()
            }
            FieldValue::Bid(b) => b.into_pyobject(py)?.into_any(),
            FieldValue::Seat(Seat(seat)) => seat.into_pyobject(py)?.into_any(),
            named => named
                .name()
                .expect("the other values are named")
                .into_pyobject(py)?
                .into_any(),
        });
    }
    PyTuple::new(py, items)
}

/// A cell of the expansions' state as Python: `None`, an `int`, a `bool`, or a name (a
/// quarter, figure, axis, tile id).
fn state_value(py: Python<'_>, value: StateValue) -> PyResult<Bound<'_, PyAny>> {
    Ok(match value {
        StateValue::Absent => py.None().into_bound(py),
        StateValue::Seat(seat) => seat.into_pyobject(py)?.into_any(),
        StateValue::Int(n) => n.into_pyobject(py)?.into_any(),
        StateValue::Flag(flag) => PyBool::new(py, flag).to_owned().into_any(),
        StateValue::Feature(local) => local.into_pyobject(py)?.into_any(),
        StateValue::Quarter(q) => q.name().into_pyobject(py)?.into_any(),
        StateValue::Figure(f) => f.name().into_pyobject(py)?.into_any(),
        StateValue::Tile(t) => t.id().into_pyobject(py)?.into_any(),
        StateValue::Axis(a) => a.name().into_pyobject(py)?.into_any(),
    })
}

/// The visible state of `game`'s expansions as a dict: per table in play, by name, its
/// row (a table of one row), its row or `None` (of at most one), or the list of its rows
/// (one per seat, or any number); each row a dict of column name to value.
pub fn expansion_state_to_py<'py>(py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyDict>> {
    let view = game.expansion_state();
    let out = PyDict::new(py);
    for (index, table) in view.tables() {
        let rows = PyList::empty(py);
        for row in view.rows().filter(|r| r.table_index == index) {
            let d = PyDict::new(py);
            for (column, value) in table.columns.iter().zip(row.values) {
                d.set_item(column.name, state_value(py, *value)?)?;
            }
            rows.append(d)?;
        }
        match table.rows {
            Rows::One | Rows::Optional => match rows.len() {
                0 => out.set_item(table.name, py.None())?,
                _ => out.set_item(table.name, rows.get_item(0)?)?,
            },
            Rows::PerSeat | Rows::Many => out.set_item(table.name, rows)?,
        }
    }
    Ok(out)
}

/// A writable, C-contiguous numpy array of element type `T` and shape `shape`, borrowed
/// for writing; errors name the argument.
pub fn writable<'py, T: Element>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    dtype: &str,
    shape: &[usize],
) -> PyResult<PyReadwriteArrayDyn<'py, T>> {
    let array = obj.cast::<PyArrayDyn<T>>().map_err(|_| {
        invalid_argument(format!("{name}: expected a numpy array of dtype {dtype}"))
    })?;
    if array.shape() != shape {
        return Err(invalid_argument(format!(
            "{name}: shape {:?}, expected {:?}",
            array.shape(),
            shape
        )));
    }
    if !array.is_c_contiguous() {
        return Err(invalid_argument(format!(
            "{name}: the array must be C-contiguous"
        )));
    }
    array
        .try_readwrite()
        .map_err(|e| invalid_argument(format!("{name}: not writable ({e})")))
}

/// The mutable slice of a borrowed array (checked contiguous by [`writable`]).
pub fn slice_mut<'a, T: Element>(
    array: &'a mut PyReadwriteArrayDyn<'_, T>,
    name: &str,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|e| invalid_argument(format!("{name}: {e}")))
}

/// The tile kind with catalogue id `tile_id` (`InvalidArgumentError` naming it, cut short,
/// if there is none).
pub fn tile_kind(tile_id: &str) -> PyResult<carcassonne::tiles::TileKind> {
    carcassonne::catalogue()
        .by_id(tile_id)
        .ok_or_else(|| invalid_argument(format!("unknown tile id {}", echo(tile_id))))
}

/// The geometry of tile `tile_id`'s features turned by `rot` (see
/// `carcassonne._core.tile_geometry`).
pub fn tile_geometry<'py>(
    py: Python<'py>,
    tile_id: &str,
    rot: i64,
) -> PyResult<Bound<'py, PyList>> {
    use carcassonne::tiles::{rotate_quarters, rotate_segments, RoadEnd};
    let kind = tile_kind(tile_id)?;
    let rot = u8::try_from(rot)
        .ok()
        .and_then(Rotation::new)
        .ok_or_else(|| invalid_argument(format!("rot: {rot} is not a rotation (0..=3)")))?;
    let def = kind.def();
    let sides = ["N", "E", "S", "W"];
    let list = PyList::empty(py);
    for f in &def.features {
        let segments = rotate_segments(f.segments, rot);
        let segment_names: Vec<String> = (0..12)
            .filter(|i| segments & (1 << i) != 0)
            .map(|i| format!("{}{}", sides[i / 3], i % 3))
            .collect();
        let side_mask = rotate_quarters(f.side_mask(), rot);
        let corner_mask = rotate_quarters(f.corners(), rot);
        let d = PyDict::new(py);
        d.set_item("id", &f.id)?;
        d.set_item("kind", f.kind.name())?;
        d.set_item("segments", segment_names)?;
        d.set_item(
            "sides",
            (0..4)
                .filter(|s| side_mask & (1 << s) != 0)
                .map(|s| sides[s])
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            "corners",
            Corner::ALL
                .iter()
                .filter(|c| corner_mask & (1 << c.index()) != 0)
                .map(|c| c.name())
                .collect::<Vec<_>>(),
        )?;
        d.set_item("pennants", f.pennants)?;
        d.set_item(
            "adjacent_cities",
            def.features
                .iter()
                .enumerate()
                .filter(|(i, _)| f.adjacent_cities & (1 << i) != 0)
                .map(|(_, c)| c.id.clone())
                .collect::<Vec<_>>(),
        )?;
        let flags: Vec<&str> = [
            (f.princess, "princess"),
            (f.tunnel, "tunnel"),
            (f.inner, "inner"),
            (f.inn, "inn"),
            (f.pig_herd, "pig_herd"),
            (f.well, "well"),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .map(|(_, n)| *n)
        .collect();
        d.set_item("flags", flags)?;
        let (end, end_feature) = match f.road_end {
            None => (None, None),
            Some(RoadEnd::Through) => (Some("through"), None),
            Some(RoadEnd::Junction) => (Some("junction"), None),
            Some(RoadEnd::Monastery(i)) => {
                (Some("monastery"), Some(def.features[i as usize].id.clone()))
            }
            Some(RoadEnd::CityGate(i)) => {
                (Some("city-gate"), Some(def.features[i as usize].id.clone()))
            }
            Some(RoadEnd::Spring) => (Some("spring"), None),
            Some(RoadEnd::Lake) => (Some("lake"), None),
            Some(RoadEnd::Volcano) => (Some("volcano"), None),
            Some(RoadEnd::DeadEnd) => (Some("dead-end"), None),
            Some(RoadEnd::Bazaar) => (Some("bazaar"), None),
            Some(RoadEnd::Carcassonne) => (Some("carcassonne"), None),
            Some(RoadEnd::Tower) => (Some("tower"), None),
        };
        d.set_item("road_end", end)?;
        d.set_item("road_end_feature", end_feature)?;
        list.append(d)?;
    }
    Ok(list)
}
