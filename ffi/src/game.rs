//! Game handles: creation from a JSON configuration, cloning, freeing, records, and the
//! error messages of failed calls.

use crate::guard::{
    call, catching, check_out, non_null, put, quietly, read_str, record_thread_error,
    thread_last_error, with_game, write_out, write_text, CarcGame,
};
use crate::handles::{self, HandleKind};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::{ChanceMode, Game};
use carcassonne_session::encode::{EncoderSpec, Layout};
use carcassonne_session::json;
use carcassonne_session::options::{Given, Options, OPTION_KEYS};
use carcassonne_session::record::{self, RecordError, ReplayError};
use carcassonne_session::session::Session;
use serde_json::Value;
use std::ffi::c_char;

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

/// Reads a configuration: the record format's `setup` object plus `chance`, `window`
/// and `preset` ([`Options::from_json`]).
/// Unknown keys, duplicate keys and nesting deeper than 32 levels are errors (nothing is
/// silently ignored); values quoted in messages are cut short.
pub(crate) fn parse_config(text: &str) -> Result<Options, Failure> {
    Options::from_json(text).map_err(|m| Failure::new(CarcStatus::InvalidConfig, m))
}

/// Creates a game from a JSON configuration and writes its handle to `*out`.
///
/// The configuration is the record format's `setup` object plus three keys of this API:
/// `{"players": 3, "edition": "C2", "sets": ["base", "river1"], "rules": {...},
/// "figures": {"abbot": 1}, "seed": 7, "chance": "sampled", "window": 32,
/// "preset": "full"}`. Only `players` and `sets` are required; `chance` is `"sampled"`
/// (default: the engine draws with its seeded generator) or `"explicit"` (the caller
/// applies draws); `window` is the side of the observation window, 3 to 512 (default
/// 32); `preset` is the observation preset, `"full"` (default), `"in-play"` or
/// `"compact"` (`docs/observations.md`: the planes, globals and flat ids of the game's
/// sets only). Unknown keys, duplicate keys and
/// bad values return `CARC_STATUS_INVALID_CONFIG`; the message (`carc_last_error`) names
/// the field.
///
/// Ownership: `config_json` (NUL-terminated UTF-8) is read during the call and stays the
/// caller's. On success the caller owns `*out` and must release it with `carc_game_free`;
/// on failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_game_new(config_json: *const c_char, out: *mut *mut CarcGame) -> CarcStatus {
    call("carc_game_new", || {
        let config_json = non_null(config_json, "config_json")?;
        check_out(out, "out")?;
        let text = read_str(config_json, "config_json")?;
        let parsed = parse_config(text)?;
        let layout = Layout::new(parsed.spec, parsed.preset, &parsed.config);
        let game = Game::with_chance(parsed.config, parsed.chance)
            .map_err(|e| Failure::new(CarcStatus::InvalidConfig, e.to_string()))?;
        let session = Session::with_layout(game, std::sync::Arc::new(layout));
        write_out(out, CarcGame::from_session(session).into_raw());
        Ok(())
    })
}

/// Releases a game handle. NULL is accepted and does nothing. Poisoned handles are
/// released too. A pointer that is not a live game handle (freed already, a bot handle,
/// or never from the library) is not touched: nothing happens, and `carc_last_error`
/// says why.
///
/// Ownership: takes back ownership of `game`, which must come from `carc_game_new`,
/// `carc_game_clone`, `carc_game_from_record` or `carc_game_from_record_ex` and must not
/// be used afterwards.
#[no_mangle]
pub extern "C" fn carc_game_free(game: *mut CarcGame) {
    if game.is_null() {
        return;
    }
    if let Err(failure) = handles::unregister(game, HandleKind::Game, "game") {
        // Freed already, foreign, or a bot: nothing is released.
        record_thread_error(&format!("carc_game_free: {}", failure.message));
        return;
    }
    // A panic while dropping must not cross the boundary; the memory is then leaked.
    let _ = catching(|| {
        // SAFETY: a live handle created by `CarcGame::into_raw`, just taken out of the
        // table of live handles, so released once.
        drop(unsafe { Box::from_raw(game) });
    });
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

fn replay_failure(e: ReplayError) -> Failure {
    match e {
        ReplayError::Bad(e) => Failure::new(CarcStatus::BadRecord, e.to_string()),
        ReplayError::Diverged(d) => Failure::new(CarcStatus::RecordMismatch, d.to_string()),
    }
}

fn bad_record(e: RecordError) -> Failure {
    Failure::new(CarcStatus::BadRecord, e.to_string())
}

/// Replays a record and restores its saved state (`record::load`, `Session::resume`).
fn load_record(text: &str, options: Given) -> Result<CarcGame, Failure> {
    let loaded = record::load_json(text, options.chance).map_err(replay_failure)?;
    let mut session = Session::resume(loaded, options.spec).map_err(bad_record)?;
    if let Some(preset) = options.preset {
        let layout = Layout::new(session.spec(), preset, session.game().config());
        session
            .set_layout(std::sync::Arc::new(layout))
            .expect("a layout made for the session's own window");
    }
    Ok(CarcGame::from_session(session))
}

/// Loads a game record (JSON, the project's record format): replays every draw and
/// action and checks every score it lists, then writes the handle of the resulting game
/// to `*out`. `chance` (a `CarcChance`) chooses how the loaded game draws from then on.
/// In sampled mode it continues with the generator state saved in the record's `resume`
/// object, so a record written by this library goes on with the draws the saved game
/// would have made (a record without `resume` draws from a generator seeded with
/// `setup.seed`). The observation window is the default (32); the saved pending focus is
/// restored only when the record was saved with that window. `carc_game_from_record_ex`
/// restores the saved window and chance mode too.
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
        let record_json = non_null(record_json, "record_json")?;
        check_out(out, "out")?;
        let mode = chance_from_u32(chance)?;
        let text = read_str(record_json, "record_json")?;
        let options = Given {
            chance: Some(mode),
            spec: Some(EncoderSpec::default()),
            preset: None,
        };
        let game = load_record(text, options)?;
        write_out(out, game.into_raw());
        Ok(())
    })
}

/// Reads the options of `carc_game_from_record_ex`, a JSON object of [`OPTION_KEYS`]:
/// `None` keeps what the record saved (or the default; records do not save the
/// observation preset: the full encoding by default); errors name the key.
fn load_options(text: &str) -> Result<Given, Failure> {
    let value: Value = json::parse_strict(text).map_err(|e| {
        if e.path.is_empty() {
            Failure::invalid(format!("options are not valid JSON: {}", e.message))
        } else {
            Failure::invalid(format!("options.{e}"))
        }
    })?;
    let Value::Object(map) = value else {
        return Err(Failure::invalid("options: expected a JSON object"));
    };
    if let Some(key) = map.keys().find(|k| !OPTION_KEYS.contains(&k.as_str())) {
        return Err(Failure::invalid(format!(
            "options.{}: unknown option (allowed: {})",
            json::echo_key(key),
            OPTION_KEYS.join(", ")
        )));
    }
    Given::read(&map).map_err(|e| Failure::invalid(format!("options.{e}")))
}

/// Loads a game record like `carc_game_from_record` and restores everything its `resume`
/// object saved: the generator state (a sampled game continues with the same draws), the
/// chance mode, the observation window and a pending focus (a `CELL` id taken, its
/// `SLOT` id not yet). `options_json` (NUL-terminated UTF-8, or NULL for none) may
/// override two of them and choose the observation preset: `{"chance": "sampled" |
/// "explicit", "window": 3..512, "preset": "full" | "in-play" | "compact"}`. Without an
/// override the record's value is used, else the defaults (sampled, 32); records do not
/// save the preset, which is `"full"` unless given (as in `carc_game_new`). The
/// pending focus is restored only with the record's own window.
///
/// Returns `CARC_STATUS_INVALID_ARGUMENT` for bad options (the message names the key),
/// `CARC_STATUS_BAD_RECORD` when the record cannot be read (a saved focus that no
/// decision offers included) and `CARC_STATUS_RECORD_MISMATCH` when the engine does not
/// reproduce it.
///
/// Ownership: `record_json` and `options_json` are read during the call and stay the
/// caller's. On success the caller owns `*out` (release with `carc_game_free`); on
/// failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_game_from_record_ex(
    record_json: *const c_char,
    options_json: *const c_char,
    out: *mut *mut CarcGame,
) -> CarcStatus {
    call("carc_game_from_record_ex", || {
        let record_json = non_null(record_json, "record_json")?;
        check_out(out, "out")?;
        let text = read_str(record_json, "record_json")?;
        let options = if options_json.is_null() {
            Given::default()
        } else {
            load_options(read_str(options_json, "options_json")?)?
        };
        let game = load_record(text, options)?;
        write_out(out, game.into_raw());
        Ok(())
    })
}

/// Writes the game's record (JSON, one line, NUL-terminated) into `buf` (`len` bytes);
/// `needed` receives the size in bytes including the NUL. `id` is the record's `id`
/// (NUL-terminated UTF-8; NULL gives `"game"`). Works for finished and unfinished games;
/// `carc_game_from_record` loads either back (an unfinished one to the same point), and
/// `carc_game_from_record_ex` resumes it exactly: the record's `resume` object holds the
/// generator state, the chance mode, the observation window and a pending focus. The
/// record's `events` and `final_events` list what scored and which figures returned.
///
/// An `id` that would make the record longer than 4 MiB, more than
/// `carc_game_from_record` reads, is refused with `CARC_STATUS_INVALID_ARGUMENT` (nothing
/// is written).
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
        crate::guard::check_buffer(buf, len, needed)?;
        let id = if id.is_null() {
            "game"
        } else {
            read_str(id, "id")?
        };
        let text = h
            .session()
            .record_json(id)
            .map_err(|e| Failure::invalid(e.to_string()))?;
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
        handles::check(game, HandleKind::Game, "game")?;
        // SAFETY: a live game handle (checked above).
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
        handles::check(game, HandleKind::Game, "game")?;
        // SAFETY: a live game handle (checked above).
        let poisoned = unsafe { &*game }.is_poisoned();
        put(out, "out", u8::from(poisoned))
    })
}

#[cfg(test)]
#[path = "tests/unit/game.rs"]
mod tests;
