//! Game configurations from command-line options.
//!
//! The options are gathered into a record `setup` object and read by
//! [`GameConfig::from_json`], so the engine checks every field; its errors, which name
//! the setup field (`setup.rules.fairy`), are reported under the option that set it
//! (`--rule fairy`).

use crate::args::{OptSpec, Parsed};
use crate::CliError;
use carcassonne::{GameConfig, TileSet};
use serde_json::{json, Map, Value};

/// The options that describe a game.
pub const SETUP_OPTIONS: [OptSpec; 6] = [
    OptSpec::once("players"),
    OptSpec::once("sets"),
    OptSpec::once("edition"),
    OptSpec::once("seed"),
    OptSpec::many("rule"),
    OptSpec::once("abbot"),
];

/// Parses the words of a subcommand that takes the setup options, `extra` options and no
/// other arguments. `Ok(None)` when `--help` was asked for: `help` has then been printed.
pub fn parse_setup_command(
    words: &[String],
    extra: &[OptSpec],
    help: &str,
) -> Result<Option<Parsed>, CliError> {
    let mut specs = SETUP_OPTIONS.to_vec();
    specs.extend_from_slice(extra);
    let parsed = crate::args::parse(words, &specs)?;
    if parsed.help {
        crate::emit(&help_text(help));
        return Ok(None);
    }
    if let Some(extra) = parsed.positionals.first() {
        return Err(CliError::Usage(format!("unexpected argument {extra:?}")));
    }
    Ok(Some(parsed))
}

/// The game that `play`, `match` and `bench` set up for the options that are not given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupDefaults {
    /// `--players`.
    pub players: u8,
    /// `--sets`.
    pub sets: &'static [TileSet],
    /// `--abbot`.
    pub abbot: u8,
}

/// The one set of defaults of every command that sets up games: the base game for two
/// players without the abbot (edition C2 and seed 0 are the engine's own defaults).
/// `--players` defaults to the number of players listed by `--bots` when it lists more
/// than one ([`defaults_for`]).
pub const DEFAULTS: SetupDefaults = SetupDefaults {
    players: 2,
    sets: &[TileSet::Base],
    abbot: 0,
};

/// [`DEFAULTS`] for a command line whose `--bots` (or `--bot`) is `bots`: one player per
/// listed bot when it lists more than one.
pub fn defaults_for(bots: Option<&str>) -> SetupDefaults {
    let listed = bots.map_or(1, |text| text.split(',').count());
    SetupDefaults {
        players: if listed > 1 {
            u8::try_from(listed).unwrap_or(u8::MAX)
        } else {
            DEFAULTS.players
        },
        ..DEFAULTS
    }
}

/// The help line of `--players` of the commands with `--bots`: `{players_line}` in a
/// help text.
const PLAYERS_HELP: &str =
    "  --players N          number of players, 2 to 6 (default: one per player listed by
                       --bots when it lists more than one, else {players})";

/// The help lines of the setup options other than `--players` and `--seed` (whose
/// meanings differ from command to command), with their defaults: `{setup}` in a help
/// text.
const SETUP_HELP: &str =
    "  --sets LIST          comma-separated tile sets, base required (default {default_sets}):
                       {sets}
  --edition E          tile edition C1, C2 or C3 (default C2)
  --rule KEY=VALUE     a rule switch, repeatable: {rules}
  --abbot 0|1          whether each player has the abbot (default {abbot})";

/// Column where the description of an option starts in the help texts.
const HELP_INDENT: usize = 23;
/// Width of the help texts.
const HELP_WIDTH: usize = 88;

/// A help text with its lists filled in: `{players_line}` and `{setup}` become the
/// setup options' lines with [`DEFAULTS`], `{sets}` every tile set, `{rules}` every rule switch with its
/// values (from the engine's tables).
pub fn help_text(template: &str) -> String {
    let sets: Vec<String> = TileSet::ALL.iter().map(|s| s.name().to_string()).collect();
    let rules: Vec<String> = carcassonne::config::RuleSwitches::switches()
        .into_iter()
        .map(|(key, values)| format!("{key}={}", values.join("|")))
        .collect();
    let default_sets: Vec<&str> = DEFAULTS.sets.iter().map(|s| s.key()).collect();
    template
        .replace("{players_line}", PLAYERS_HELP)
        .replace("{setup}", SETUP_HELP)
        .replace("{players}", &DEFAULTS.players.to_string())
        .replace("{abbot}", &DEFAULTS.abbot.to_string())
        .replace("{default_sets}", &default_sets.join(","))
        .replace("{sets}", &wrap_list(&sets, ","))
        .replace("{rules}", &wrap_list(&rules, ", "))
}

/// `items` joined by `sep` on lines of [`HELP_WIDTH`] columns: the first continues a
/// line at [`HELP_INDENT`], the others are indented to it.
fn wrap_list(items: &[String], sep: &str) -> String {
    let mut out = String::new();
    let mut column = HELP_INDENT;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            if column + sep.len() + item.len() > HELP_WIDTH {
                out.push_str(sep.trim_end());
                out.push('\n');
                out.push_str(&" ".repeat(HELP_INDENT));
                column = HELP_INDENT;
            } else {
                out.push_str(sep);
                column += sep.len();
            }
        }
        out.push_str(item);
        column += item.len();
    }
    out
}

fn parse_int(flag: &str, text: &str) -> Result<i64, CliError> {
    text.trim()
        .parse::<i64>()
        .map_err(|_| CliError::Usage(format!("--{flag}: expected a whole number, found {text:?}")))
}

/// Builds the configuration from the setup options of `parsed`.
pub fn config_from_options(
    parsed: &Parsed,
    defaults: &SetupDefaults,
) -> Result<GameConfig, CliError> {
    let mut setup = Map::new();
    let players = match parsed.value("players") {
        Some(text) => parse_int("players", text)?,
        None => i64::from(defaults.players),
    };
    setup.insert("players".into(), json!(players));
    let sets: Vec<Value> = match parsed.value("sets") {
        Some(text) => {
            let mut sets = Vec::new();
            for name in text.split(',') {
                let name = name.trim();
                if name.is_empty() {
                    return Err(CliError::Usage(format!(
                        "--sets: empty set name in {text:?} (known sets: {})",
                        known_sets()
                    )));
                }
                sets.push(json!(name));
            }
            sets
        }
        None => defaults.sets.iter().map(|s| json!(s.key())).collect(),
    };
    setup.insert("sets".into(), Value::Array(sets));
    if let Some(edition) = parsed.value("edition") {
        setup.insert("edition".into(), json!(edition));
    }
    let rules = rule_options(parsed)?;
    if !rules.is_empty() {
        setup.insert("rules".into(), Value::Object(rules));
    }
    let abbot = match parsed.value("abbot") {
        Some(text) => parse_int("abbot", text)?,
        None => i64::from(defaults.abbot),
    };
    setup.insert("figures".into(), json!({ "abbot": abbot }));
    if let Some(text) = parsed.value("seed") {
        let seed = text.trim().parse::<u64>().map_err(|_| {
            CliError::Usage(format!(
                "--seed: expected a whole number from 0 to {}, found {text:?}",
                u64::MAX
            ))
        })?;
        setup.insert("seed".into(), json!(seed));
    }
    GameConfig::from_json(&Value::Object(setup))
        .map_err(|e| CliError::Usage(format!("{}: {}", option_of(&e.field), e.message)))
}

/// The `--rule key=value` options of `parsed` as a configuration's `rules` object
/// (`true` and `false` become booleans, other values strings). Only the form is checked
/// here; the engine checks names and values when it reads the object.
pub fn rule_options(parsed: &Parsed) -> Result<Map<String, Value>, CliError> {
    let mut rules = Map::new();
    for rule in parsed.values("rule") {
        let (key, value) = rule.split_once('=').ok_or_else(|| {
            CliError::Usage(format!("--rule: expected key=value, found {rule:?}"))
        })?;
        let key = key.trim();
        if key.is_empty() {
            return Err(CliError::Usage(format!(
                "--rule: missing rule name in {rule:?}"
            )));
        }
        let value = match value.trim() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            v => Value::String(v.to_string()),
        };
        if rules.insert(key.to_string(), value).is_some() {
            return Err(CliError::Usage(format!(
                "--rule {key}: given more than once"
            )));
        }
    }
    Ok(rules)
}

/// The option that sets a configuration field.
pub fn option_of(field: &str) -> String {
    if let Some(rule) = field.strip_prefix("rules.") {
        return format!("--rule {rule}");
    }
    let head = field.split(['.', '[']).next().unwrap_or(field);
    match head {
        "players" | "sets" | "edition" | "seed" => format!("--{head}"),
        "figures" if field == "figures.abbot" => "--abbot".into(),
        // Figures other than the abbot follow from --sets.
        "figures" => format!("--sets ({field})"),
        _ => field.to_string(),
    }
}

/// The `--sets` names, for messages.
pub fn known_sets() -> String {
    TileSet::ALL
        .iter()
        .map(|s| s.key())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A one-line description of a configuration.
pub fn describe(config: &GameConfig) -> String {
    let sets: Vec<&str> = config.sets.iter().map(|s| s.key()).collect();
    format!(
        "{} players, sets {}, edition {}, abbot {}, seed {}",
        config.players,
        sets.join(","),
        config.edition.name(),
        config.figures.abbot,
        config.seed
    )
}

#[cfg(test)]
#[path = "tests/unit/setup.rs"]
mod tests;
