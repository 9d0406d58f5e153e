//! Strict JSON for every text input of the project (records, C ABI configurations):
//! duplicate keys are errors (the usual parsers keep the last one silently), nesting is
//! bounded, and values echoed in error messages are cut short and escaped: a message never
//! carries a control character from its input to a terminal ([`echo`], [`shown`]).
//!
//! The limits are constants with documented values:
//!
//! | limit | value | what it bounds |
//! |---|---|---|
//! | [`MAX_DEPTH`] | 32 | nesting of arrays and objects (a record uses 6) |
//! | [`MAX_ECHO_CHARS`] | 40 | characters of a value quoted in an error message |
//!
//! ```
//! use carcassonne_session::json::{parse_strict, MAX_DEPTH};
//! assert!(parse_strict(r#"{"a": [1, 2, {"b": null}]}"#).is_ok());
//! let e = parse_strict(r#"{"format": "chess", "format": "carcassonne-record"}"#).unwrap_err();
//! assert_eq!((e.path.as_str(), e.message.as_str()), ("format", "duplicate key"));
//! let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
//! assert!(parse_strict(&deep).unwrap_err().message.contains("nested deeper"));
//! ```

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

/// Deepest nesting of arrays and objects accepted (the record format uses 6 levels).
pub const MAX_DEPTH: usize = 32;

/// Most characters of a value (a tile id, a type name, a key) quoted in an error
/// message; a longer value is shown cut, with its length.
pub const MAX_ECHO_CHARS: usize = 40;

/// A JSON text that could not be read: where (a path such as `turns[3].actions`, empty
/// for the text as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Path of the bad value.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JsonError {}

/// A string quoted for an error message, cut after [`MAX_ECHO_CHARS`] characters.
///
/// ```
/// use carcassonne_session::json::echo;
/// assert_eq!(echo("BASE-A"), "\"BASE-A\"");
/// assert_eq!(echo(&"x".repeat(1000)).len() < 80, true);
/// ```
pub fn echo(s: &str) -> String {
    match s.char_indices().nth(MAX_ECHO_CHARS) {
        None => format!("{s:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &s[..cut], s.len()),
    }
}

/// A name from the input (a record's `id`, a file name) as a message shows it: as it
/// is when it is short and every character prints as itself, else through [`echo`]
/// (quoted, escaped, cut short). Control characters (an escape sequence that would retitle
/// or clear a terminal, a bell, a bidirectional override) thus never reach the output.
///
/// ```
/// use carcassonne_session::json::shown;
/// assert_eq!(shown("base-c2-2p-0006"), "base-c2-2p-0006");
/// assert_eq!(shown("\u{1b}]0;title\u{7}"), r#""\u{1b}]0;title\u{7}""#);
/// assert!(shown(&"x".repeat(1000)).len() < 80);
/// ```
pub fn shown(text: &str) -> Cow<'_, str> {
    let plain = text.chars().count() <= MAX_ECHO_CHARS
        && text.chars().all(|c| {
            let mut escaped = c.escape_debug();
            escaped.next() == Some(c) && escaped.next().is_none()
        });
    if plain {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(echo(text))
    }
}

/// `text` with every control character but the line feed and the tab written as an
/// escape (`\u{1b}`): the last guard of a program's output, after the parts that quote
/// input went through [`echo`] or [`shown`].
///
/// ```
/// use carcassonne_session::json::escape_controls;
/// assert_eq!(escape_controls("a\tb\nc\u{1b}[2J\u{9b}"), "a\tb\nc\\u{1b}[2J\\u{9b}");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A JSON value described for an error message: scalars as written (strings through
/// [`echo`]), arrays and objects by their kind and size, never whole.
///
/// ```
/// use carcassonne_session::json::describe;
/// assert_eq!(describe(&serde_json::json!(-7)), "-7");
/// assert_eq!(describe(&serde_json::json!([1, 2])), "an array of 2 values");
/// ```
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => echo(s),
        Value::Array(a) => format!("an array of {} values", a.len()),
        Value::Object(o) => format!("an object of {} keys", o.len()),
    }
}

/// Parses one JSON value (the whole text, whitespace around it allowed) and refuses
/// duplicate keys and nesting deeper than [`MAX_DEPTH`]; errors name the path.
pub fn parse_strict(text: &str) -> Result<Value, JsonError> {
    let failure = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let at = At {
        parent: None,
        seg: Seg::Root,
        depth: 0,
    };
    let seed = Strict {
        at,
        failure: &failure,
    };
    let result = seed.deserialize(&mut de).and_then(|v| de.end().map(|_| v));
    result.map_err(|e| {
        failure.into_inner().unwrap_or_else(|| JsonError {
            path: String::new(),
            message: format!("invalid JSON: {e}"),
        })
    })
}

/// One step of a path.
#[derive(Copy, Clone)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// Where a value lies: a chain of steps on the stack, made into a string only for an
/// error (so that reading costs nothing per value).
#[derive(Copy, Clone)]
struct At<'a> {
    parent: Option<&'a At<'a>>,
    seg: Seg<'a>,
    depth: usize,
}

impl At<'_> {
    fn path(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(a) = at {
            segs.push(a.seg);
            at = a.parent;
        }
        let mut out = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&echo_key(k));
                }
                Seg::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

/// A key as it appears in a path: plain when short and simple (letters, digits, `_`,
/// `-`), else quoted and cut like [`echo`].
///
/// ```
/// use carcassonne_session::json::echo_key;
/// assert_eq!(echo_key("players"), "players");
/// assert_eq!(echo_key("a.b"), "\"a.b\"");
/// ```
pub fn echo_key(k: &str) -> String {
    let plain = k.len() <= MAX_ECHO_CHARS
        && !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        k.to_string()
    } else {
        echo(k)
    }
}

struct Strict<'a, 'f> {
    at: At<'a>,
    failure: &'f RefCell<Option<JsonError>>,
}

impl Strict<'_, '_> {
    fn fail<E: serde::de::Error>(&self, path: String, message: impl Into<String>) -> E {
        let message = message.into();
        let e = E::custom(format!("{path}: {message}"));
        *self.failure.borrow_mut() = Some(JsonError { path, message });
        e
    }

    fn enter<E: serde::de::Error>(&self) -> Result<(), E> {
        if self.at.depth >= MAX_DEPTH {
            return Err(self.fail(
                self.at.path(),
                format!("nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| self.fail(self.at.path(), "not a finite number"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut out = Vec::new();
        loop {
            let child = At {
                parent: Some(&self.at),
                seg: Seg::Index(out.len()),
                depth: self.at.depth + 1,
            };
            let seed = Strict {
                at: child,
                failure: self.failure,
            };
            match seq.next_element_seed(seed)? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let child = At {
                parent: Some(&self.at),
                seg: Seg::Key(&key),
                depth: self.at.depth + 1,
            };
            if out.contains_key(&key) {
                return Err(self.fail(child.path(), "duplicate key"));
            }
            let seed = Strict {
                at: child,
                failure: self.failure,
            };
            let v = map.next_value_seed(seed)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
#[path = "tests/unit/json.rs"]
mod tests;
