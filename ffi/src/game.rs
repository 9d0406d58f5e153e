//! Game handles: creation from a JSON configuration, cloning, freeing, records, and the
//! error messages of failed calls.

use crate::guard::{
    call, check_out, put, quietly, read_str, thread_last_error, with_game, write_out, write_text,
    CarcGame,
};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::config::{GameConfig, CONFIG_KEYS};
use carcassonne_core::{ChanceMode, Game};
use carcassonne_session::encode::EncoderSpec;
use carcassonne_session::json;
use carcassonne_session::record::{self, ReplayError};
use serde_json::{Map, Value};
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// How tile draws are decided (`chance` of a configuration; argument of
/// `carc_game_from_record`).
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CarcChance {
    /// The engine draws from its seeded generator.
    Sampled = 0,
    /// The caller applies the draws (`carc_game_chance_outcomes`, `carc_game_apply_draw`).
    Explicit = 1,
}

/// Default side of the observation window when a configuration does not give `window`.
pub const CARC_DEFAULT_WINDOW: u32 = 32;

/// Keys of a configuration object that belong to this API (the others are the engine's
/// configuration keys, `carcassonne::config::CONFIG_KEYS`).
const API_KEYS: [&str; 2] = ["chance", "window"];

/// A configuration read from JSON: the engine's, the chance mode and the window.
#[derive(Debug)]
pub(crate) struct ParsedConfig {
    pub config: GameConfig,
    pub chance: ChanceMode,
    pub spec: EncoderSpec,
}

fn bad_config(message: impl Into<String>) -> Failure {
    Failure::new(CarcStatus::InvalidConfig, message)
}

/// Reads a configuration: the record format's `setup` object plus `chance` and `window`.
/// Unknown keys, duplicate keys and nesting deeper than 32 levels are errors (nothing is
/// silently ignored); values quoted in messages are cut short.
pub(crate) fn parse_config(text: &str) -> Result<ParsedConfig, Failure> {
    let value: Value = json::parse_strict(text).map_err(|e| {
        if e.path.is_empty() {
            bad_config(format!("config is not valid JSON: {}", e.message))
        } else {
            bad_config(e.to_string())
        }
    })?;
    let Value::Object(map) = value else {
        return Err(bad_config("config: expected a JSON object"));
    };
    let allowed = || CONFIG_KEYS.iter().chain(&API_KEYS);
    if let Some(key) = map.keys().find(|k| !allowed().any(|a| a == k)) {
        let names: Vec<&str> = allowed().copied().collect();
        return Err(bad_config(format!(
            "{}: unknown configuration key (allowed: {})",
            json::echo_key(key),
            names.join(", ")
        )));
    }
    let chance = match map.get("chance") {
        None => ChanceMode::Sampled,
        Some(Value::String(s)) if s == "sampled" => ChanceMode::Sampled,
        Some(Value::String(s)) if s == "explicit" => ChanceMode::Explicit,
        Some(v) => {
            return Err(bad_config(format!(
                "chance: unknown value {} (allowed: \"sampled\", \"explicit\")",
                json::describe(v)
            )))
        }
    };
    let spec = match map.get("window") {
        None => EncoderSpec::default(),
        Some(v) => {
            let range = format!("{}..={}", EncoderSpec::MIN_WINDOW, EncoderSpec::MAX_WINDOW);
            let side = v
                .as_u64()
                .and_then(|w| u16::try_from(w).ok())
                .ok_or_else(|| {
                    bad_config(format!(
                        "window: {} is not an integer in {range}",
                        json::describe(v)
                    ))
                })?;
            EncoderSpec::new(side).map_err(|e| bad_config(e.to_string()))?
        }
    };
    let setup: Map<String, Value> = map
        .into_iter()
        .filter(|(k, _)| k != "chance" && k != "window")
        .collect();
    let config =
        GameConfig::from_json(&Value::Object(setup)).map_err(|e| bad_config(e.to_string()))?;
    Ok(ParsedConfig {
        config,
        chance,
        spec,
    })
}

/// Creates a game from a JSON configuration and writes its handle to `*out`.
///
/// The configuration is the record format's `setup` object plus two keys of this API:
/// `{"players": 3, "edition": "C2", "sets": ["base", "river1"], "rules": {...},
/// "figures": {"abbot": 1}, "seed": 7, "chance": "sampled", "window": 32}`. Only
/// `players` and `sets` are required; `chance` is `"sampled"` (default: the engine draws
/// with its seeded generator) or `"explicit"` (the caller applies draws); `window` is the
/// side of the observation window, 3 to 512 (default 32). Unknown keys, duplicate keys and
/// bad values return `CARC_STATUS_INVALID_CONFIG`; the message (`carc_last_error`) names
/// the field.
///
/// Ownership: `config_json` (NUL-terminated UTF-8) is read during the call and stays the
/// caller's. On success the caller owns `*out` and must release it with `carc_game_free`;
/// on failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_game_new(config_json: *const c_char, out: *mut *mut CarcGame) -> CarcStatus {
    call("carc_game_new", || {
        check_out(out, "out")?;
        let text = read_str(config_json, "config_json")?;
        let parsed = parse_config(text)?;
        let game = Game::with_chance(parsed.config, parsed.chance)
            .map_err(|e| bad_config(e.to_string()))?;
        write_out(out, CarcGame::new(game, parsed.spec).into_raw());
        Ok(())
    })
}

/// Releases a game handle. NULL is accepted and does nothing. Poisoned handles are
/// released too.
///
/// Ownership: takes back ownership of `game`, which must come from `carc_game_new`,
/// `carc_game_clone` or `carc_game_from_record` and must not be used afterwards.
#[no_mangle]
pub extern "C" fn carc_game_free(game: *mut CarcGame) {
    if game.is_null() {
        return;
    }
    // A panic while dropping must not cross the boundary; the memory is then leaked.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: a live handle created by `CarcGame::into_raw` (ABI contract), released once.
        drop(unsafe { Box::from_raw(game) });
    }));
}

/// Copies a game (the copy shares nothing with the original) and writes the new handle to
/// `*out`. The copy continues the same random sequence as the original.
///
/// Ownership: `game` is borrowed for the call. On success the caller owns `*out` and
/// must release it with `carc_game_free`; on failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_game_clone(game: *const CarcGame, out: *mut *mut CarcGame) -> CarcStatus {
    with_game("carc_game_clone", game, |h| {
        check_out(out, "out")?;
        write_out(out, h.duplicate().into_raw());
        Ok(())
    })
}

fn chance_from_u32(chance: u32) -> Result<ChanceMode, Failure> {
    match chance {
        0 => Ok(ChanceMode::Sampled),
        1 => Ok(ChanceMode::Explicit),
        n => Err(Failure::invalid(format!(
            "chance {n} is not a CarcChance (0 sampled, 1 explicit)"
        ))),
    }
}

/// Loads a game record (JSON, the project's record format): replays every draw and
/// action and checks every score it lists, then writes the handle of the resulting game
/// to `*out`. `chance` (a `CarcChance`) chooses how the loaded game draws from then on;
/// in sampled mode it draws from a generator seeded with the record's seed, so later
/// draws are not those of the game that wrote the record. The observation window is the
/// default (32).
///
/// Returns `CARC_STATUS_BAD_RECORD` when the record cannot be read (the message names
/// the field, e.g. `turns[3].actions[0].x`; unknown and duplicate keys, numbers out of
/// range, more than 4 MiB of JSON or 4096 turns are refused) and
/// `CARC_STATUS_RECORD_MISMATCH` when the engine does not reproduce it (an illegal
/// action, different scores).
///
/// Ownership: `record_json` (NUL-terminated UTF-8) is read during the call and stays the
/// caller's. On success the caller owns `*out` (release with `carc_game_free`); on
/// failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_game_from_record(
    record_json: *const c_char,
    chance: u32,
    out: *mut *mut CarcGame,
) -> CarcStatus {
    call("carc_game_from_record", || {
        check_out(out, "out")?;
        let text = read_str(record_json, "record_json")?;
        let mode = chance_from_u32(chance)?;
        let mut game = record::replay_json(text).map_err(|e| match e {
            ReplayError::Bad(e) => Failure::new(CarcStatus::BadRecord, e.to_string()),
            ReplayError::Diverged(d) => Failure::new(CarcStatus::RecordMismatch, d.to_string()),
        })?;
        game.set_chance_mode(mode);
        write_out(out, CarcGame::new(game, EncoderSpec::default()).into_raw());
        Ok(())
    })
}

/// Writes the game's record (JSON, one line, NUL-terminated) into `buf` (`len` bytes);
/// `needed` receives the size in bytes including the NUL. `id` is the record's `id`
/// (NUL-terminated UTF-8; NULL gives `"game"`). Works for finished and unfinished games;
/// `carc_game_from_record` loads either back (an unfinished one to the same point).
///
/// Ownership: `game` is borrowed; `id` is read during the call; `buf` (may be NULL with
/// `len == 0` to ask for the size) and `needed` belong to the caller. On
/// `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_to_record(
    game: *const CarcGame,
    id: *const c_char,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_to_record", game, |h| {
        let id = if id.is_null() {
            "game"
        } else {
            read_str(id, "id")?
        };
        crate::guard::check_buffer(buf, len, needed)?;
        let text = record::to_json(&h.game(), id);
        write_text(&text, buf, len, needed, "the record")
    })
}

/// Writes the detailed message of the last failed call made on `game` (NUL-terminated)
/// into `buf` (`len` bytes); `needed` receives its size including the NUL. The message is
/// empty when no call on the handle has failed. Works on poisoned handles (the message
/// then says what panicked) and never changes the recorded message itself.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the size)
/// and `needed` belong to the caller.
#[no_mangle]
pub extern "C" fn carc_game_last_error(
    game: *const CarcGame,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    quietly(|| {
        if game.is_null() {
            return Err(Failure::null("game"));
        }
        // SAFETY: non-NULL live handle (ABI contract).
        let message = unsafe { &*game }.last_error();
        write_text(&message, buf, len, needed, "the message")
    })
}

/// Writes the detailed message of the last failed call on the calling thread
/// (NUL-terminated) into `buf` (`len` bytes); `needed` receives its size including the
/// NUL. This is where calls without a handle (`carc_game_new`, `carc_game_from_record`)
/// leave their messages; calls on a handle leave theirs here too. Reading it changes
/// nothing.
///
/// Ownership: `buf` (may be NULL with `len == 0` to ask for the size) and `needed` belong
/// to the caller.
#[no_mangle]
pub extern "C" fn carc_last_error(buf: *mut c_char, len: u32, needed: *mut u32) -> CarcStatus {
    quietly(|| write_text(&thread_last_error(), buf, len, needed, "the message"))
}

/// Writes whether the handle was poisoned by a panic (1) or not (0) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_is_poisoned(game: *const CarcGame, out: *mut u8) -> CarcStatus {
    quietly(|| {
        if game.is_null() {
            return Err(Failure::null("game"));
        }
        // SAFETY: non-NULL live handle (ABI contract).
        let poisoned = unsafe { &*game }.is_poisoned();
        put(out, "out", u8::from(poisoned))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_keys_and_errors_name_the_field() {
        let ok = parse_config(r#"{"players":3,"sets":["base","river1"],"seed":7}"#).unwrap();
        assert_eq!(ok.config.players, 3);
        assert_eq!(ok.config.seed, 7);
        assert_eq!(ok.chance, ChanceMode::Sampled);
        assert_eq!(u32::from(ok.spec.window), CARC_DEFAULT_WINDOW);
        assert_eq!(
            u32::from(EncoderSpec::DEFAULT_WINDOW),
            CARC_DEFAULT_WINDOW,
            "the header's default window is the encoder's"
        );
        let explicit =
            parse_config(r#"{"players":2,"sets":["base"],"chance":"explicit","window":9}"#)
                .unwrap();
        assert_eq!(explicit.chance, ChanceMode::Explicit);
        assert_eq!(explicit.spec.window, 9);
        for (text, field) in [
            (r#"{"players":9,"sets":["base"]}"#, "players:"),
            (r#"{"players":2,"sets":["base"],"colour":1}"#, "colour:"),
            (
                r#"{"players":2,"sets":["base"],"chance":"dice"}"#,
                "chance:",
            ),
            (r#"{"players":2,"sets":["base"],"window":0}"#, "window:"),
            (r#"{"players":2,"sets":["base"],"window":70000}"#, "window:"),
            (r#"{"players":2,"sets":["base"],"window":"big"}"#, "window:"),
            (r#"{"players":2,"sets":["nope"]}"#, "sets[0]:"),
            (r#"{"players":2}"#, "sets:"),
            (
                r#"{"players":2,"sets":["base"],"rules":{"x":1}}"#,
                "rules.x:",
            ),
            (
                r#"{"players":2,"sets":["base"],"figures":{"abbot":2}}"#,
                "figures.abbot:",
            ),
            (r#"[1]"#, "config:"),
            (r#"{"players":"#, "not valid JSON"),
            (
                r#"{"players":2,"players":3,"sets":["base"]}"#,
                "players: duplicate key",
            ),
            (
                r#"{"players":2,"sets":["base"],"rules":{"farmers":true,"farmers":false}}"#,
                "rules.farmers: duplicate key",
            ),
        ] {
            let e = parse_config(text).unwrap_err();
            assert_eq!(e.status, CarcStatus::InvalidConfig, "{text}");
            assert!(
                e.message.starts_with(field) || e.message.contains(field),
                "{text}: {}",
                e.message
            );
        }
    }
}
