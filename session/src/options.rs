//! The options of a game that every front end takes beside its configuration, read and
//! checked in one place: the chance mode, the observation window and the observation
//! preset ([`Options`]). The C ABI reads them with the configuration from one JSON
//! object ([`Options::from_json`], behind `carc_game_new`); Python reads each keyword
//! argument, and the command line each option, with the readers here ([`chance_named`],
//! [`window_of`], [`preset_named`]), so that a bad value gets the same message from
//! every front end, naming the field.
//!
//! ```
//! use carcassonne_session::options::{preset_named, Options};
//! let o = Options::from_json(r#"{"players": 2, "sets": ["base"], "window": 9}"#).unwrap();
//! assert_eq!((o.config.players, o.spec.window), (2, 9));
//! let e = Options::from_json(r#"{"players": 2, "sets": ["base"], "chance": "dice"}"#);
//! assert_eq!(
//!     e.unwrap_err(),
//!     r#"chance: unknown value "dice" (allowed: "sampled", "explicit")"#
//! );
//! assert!(preset_named("tiny").unwrap_err().to_string().starts_with("preset: unknown value"));
//! ```

use crate::encode::{EncoderSpec, Preset};
use crate::json;
use crate::record;
use carcassonne::config::{GameConfig, CONFIG_KEYS};
use carcassonne::ChanceMode;
use serde_json::{Map, Value};

/// The keys of an options object beside the configuration's ([`CONFIG_KEYS`]).
pub const OPTION_KEYS: [&str; 3] = ["chance", "window", "preset"];

/// A game's configuration and the options beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The configuration (the record format's `setup` object).
    pub config: GameConfig,
    /// How tile draws are decided (`chance`; default sampled).
    pub chance: ChanceMode,
    /// The observation window (`window`; default [`EncoderSpec::DEFAULT_WINDOW`]).
    pub spec: EncoderSpec,
    /// The observation preset (`preset`; default full).
    pub preset: Preset,
}

impl Options {
    /// Reads an object of the configuration's keys and [`OPTION_KEYS`]: strict JSON
    /// (duplicate keys and nesting deeper than [`json::MAX_DEPTH`] refused), every key
    /// known, every value checked. The message of an error names the field (or says the
    /// text is not JSON); values it quotes are cut short.
    pub fn from_json(text: &str) -> Result<Options, String> {
        let value = json::parse_strict(text).map_err(|e| {
            if e.path.is_empty() {
                format!("config is not valid JSON: {}", e.message)
            } else {
                e.to_string()
            }
        })?;
        Options::from_value(value)
    }

    /// [`Options::from_json`] of a value already parsed.
    pub fn from_value(value: Value) -> Result<Options, String> {
        let Value::Object(map) = value else {
            return Err("config: expected a JSON object".into());
        };
        let allowed = || CONFIG_KEYS.iter().chain(&OPTION_KEYS);
        if let Some(key) = map.keys().find(|k| !allowed().any(|a| a == k)) {
            let names: Vec<&str> = allowed().copied().collect();
            return Err(format!(
                "{}: unknown configuration key (allowed: {})",
                json::echo_key(key),
                names.join(", ")
            ));
        }
        let given = Given::read(&map)?;
        let setup: Map<String, Value> = map
            .into_iter()
            .filter(|(k, _)| !OPTION_KEYS.contains(&k.as_str()))
            .collect();
        let config = GameConfig::from_json(&Value::Object(setup)).map_err(|e| e.to_string())?;
        Ok(Options {
            config,
            chance: given.chance.unwrap_or(ChanceMode::Sampled),
            spec: given.spec.unwrap_or_default(),
            preset: given.preset.unwrap_or_default(),
        })
    }
}

/// The options an object gives ([`OPTION_KEYS`]), each `None` when absent: for a caller
/// whose defaults come from elsewhere (a record's saved chance mode and window).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Given {
    /// `chance`.
    pub chance: Option<ChanceMode>,
    /// `window`.
    pub spec: Option<EncoderSpec>,
    /// `preset`.
    pub preset: Option<Preset>,
}

impl Given {
    /// Reads the keys of [`OPTION_KEYS`] in `map` (other keys are the caller's to check);
    /// the message of an error names the field.
    pub fn read(map: &Map<String, Value>) -> Result<Given, String> {
        let chance = match map.get("chance") {
            None => None,
            Some(Value::String(s)) => Some(chance_named(s)?),
            Some(v) => return Err(format!("chance: {}", unknown(v, CHANCE_NAMES))),
        };
        let spec = match map.get("window") {
            None => None,
            Some(v) => match v.as_i64() {
                Some(w) => Some(window_of(w)?),
                None => return Err(format!("window: {}", not_a_window(&json::describe(v)))),
            },
        };
        let preset = match map.get("preset") {
            None => None,
            Some(Value::String(s)) => Some(preset_named(s)?),
            Some(v) => return Err(format!("preset: {}", unknown(v, &preset_names()))),
        };
        Ok(Given {
            chance,
            spec,
            preset,
        })
    }
}

/// A bad option: its field (`chance`, `window`, `preset`) and what was wrong; shown as
/// `field: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The field.
    pub field: &'static str,
    /// What was wrong with its value.
    pub message: String,
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for OptionError {}

impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.to_string()
    }
}

/// The chance modes' names.
const CHANCE_NAMES: &[&str] = &["sampled", "explicit"];

/// The presets' names.
fn preset_names() -> Vec<&'static str> {
    Preset::ALL.iter().map(|p| p.name()).collect()
}

/// `unknown value V (allowed: "a", "b")`.
fn unknown(v: &Value, allowed: &[&str]) -> String {
    let names: Vec<String> = allowed.iter().map(|n| format!("{n:?}")).collect();
    format!(
        "unknown value {} (allowed: {})",
        json::describe(v),
        names.join(", ")
    )
}

/// `V is not an integer in 3..=512`.
fn not_a_window(v: &str) -> String {
    format!(
        "{v} is not an integer in {}..={}",
        EncoderSpec::MIN_WINDOW,
        EncoderSpec::MAX_WINDOW
    )
}

/// The chance mode named `name` (`sampled`, `explicit`).
pub fn chance_named(name: &str) -> Result<ChanceMode, OptionError> {
    record::chance_from_name(name).ok_or_else(|| OptionError {
        field: "chance",
        message: unknown(&name.into(), CHANCE_NAMES),
    })
}

/// The observation window of side `window`.
pub fn window_of(window: i64) -> Result<EncoderSpec, OptionError> {
    u16::try_from(window)
        .ok()
        .and_then(|w| EncoderSpec::new(w).ok())
        .ok_or_else(|| OptionError {
            field: "window",
            message: not_a_window(&window.to_string()),
        })
}

/// The observation preset named `name` (`full`, `in-play`, `compact`).
pub fn preset_named(name: &str) -> Result<Preset, OptionError> {
    Preset::from_name(name).ok_or_else(|| OptionError {
        field: "preset",
        message: unknown(&name.into(), &preset_names()),
    })
}
