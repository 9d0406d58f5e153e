//! Built-in players: a bot handle made from a spec string (`"greedy"`, `"mcts:2000"`,
//! `"mcts:100ms"`, `"net"`) that chooses an action for a game handle. The players are the
//! ones of the command line and of Python (`carcassonne_session::bots`).

use crate::action::CarcAction;
use crate::guard::{
    call, catching, check_out, read_str, record_thread_error, with_game, write_out, write_text,
};
use crate::handles::{self, HandleKind};
use crate::status::{CarcStatus, Failure};
use crate::CarcGame;
use carcassonne_core::Rng;
use carcassonne_session::bots::Bot;
use std::cell::{Cell, RefCell};
use std::ffi::c_char;

/// A built-in player with its own random sequence, owned by the caller through an opaque
/// pointer.
///
/// Created by `carc_bot_new`, released by `carc_bot_free`. It keeps no state of any game:
/// one bot may choose for several games and seats. A handle may be moved between threads
/// but must not be used by two threads at the same time. Failures on a bot are reported
/// through `carc_last_error`; a panic inside a bot call poisons the bot (and the game
/// handle of the call).
pub struct CarcBot {
    bot: Bot,
    rng: RefCell<Rng>,
    poisoned: Cell<bool>,
}

/// Runs the body of an export that uses a bot handle: NULL and poison checks, panic
/// catching (a panic poisons the bot).
fn with_bot(
    function: &str,
    bot: *const CarcBot,
    body: impl FnOnce(&CarcBot) -> Result<(), Failure>,
) -> CarcStatus {
    if let Err(failure) = handles::check(bot, HandleKind::Bot, "bot") {
        return call(function, || Err(failure));
    }
    // SAFETY: a live bot handle (checked above) that, by the ABI contract, no other thread
    // uses now; only shared references are made.
    let handle = unsafe { &*bot };
    let poisoned = catching(|| handle.poisoned.get()).unwrap_or(true);
    if poisoned {
        return call(function, || {
            Err(Failure::new(
                CarcStatus::HandlePoisoned,
                "the bot handle was poisoned by an earlier internal error",
            ))
        });
    }
    let status = call(function, || body(handle));
    if status == CarcStatus::Panic {
        let _ = catching(|| handle.poisoned.set(true));
    }
    status
}

/// Creates a built-in player from its spec and writes its handle to `*out`.
///
/// `spec` is one of `"random"` (a uniformly random legal action), `"greedy"` (the action
/// with the best points this turn minus the most points an opponent gains, a bazaar bid
/// counted as its cost), `"heuristic"` (greedy with a club player's tie-breaks: a
/// follower on a city or monastery before a road, a farmer only late) or
/// `"mcts[:<budget>][:<option>=<value>]..."`: Monte Carlo tree search over the hidden
/// order of the pile with a budget of iterations (`"mcts:2000"`) or milliseconds per
/// decision (`"mcts:100ms"`) and the options `threads=N` (root-parallel search threads,
/// 1 to 64), `c=X` (exploration constant), `deploy=P`, `margin=P` and `widen=W` (see
/// `carcassonne match --help`), or a learned player: `"net"` (the network shipped inside
/// the library, made for the 2-player base game), `"net:<path>"` (an ONNX network file,
/// read and checked now: a file that cannot be read is refused, the message naming its
/// path), `"net:search=<budget>"` or `"net:<path>:search=<budget>"` (that network
/// guiding a search). `seed` seeds the bot's random sequence: the
/// same seed and the same calls give the same choices (with an iteration budget).
/// A spec that cannot be read returns `CARC_STATUS_INVALID_ARGUMENT`; the message
/// (`carc_last_error`) says what was wrong.
///
/// Ownership: `spec` (NUL-terminated UTF-8) is read during the call and stays the
/// caller's. On success the caller owns `*out` and must release it with `carc_bot_free`;
/// on failure `*out` is not written.
#[no_mangle]
pub extern "C" fn carc_bot_new(
    spec: *const c_char,
    seed: u64,
    out: *mut *mut CarcBot,
) -> CarcStatus {
    call("carc_bot_new", || {
        check_out(out, "out")?;
        let text = read_str(spec, "spec")?;
        let bot = Bot::parse(text).map_err(|m| Failure::invalid(format!("spec: {m}")))?;
        let handle = CarcBot {
            bot,
            rng: RefCell::new(Rng::new(seed)),
            poisoned: Cell::new(false),
        };
        let handle = Box::into_raw(Box::new(handle));
        handles::register(handle, HandleKind::Bot);
        write_out(out, handle);
        Ok(())
    })
}

/// Releases a bot handle. NULL is accepted and does nothing; poisoned handles are
/// released too. A pointer that is not a live bot handle (freed already, a game handle,
/// or never from the library) is not touched: nothing happens, and `carc_last_error`
/// says why.
///
/// Ownership: takes back ownership of `bot`, which must come from `carc_bot_new` and must
/// not be used afterwards.
#[no_mangle]
pub extern "C" fn carc_bot_free(bot: *mut CarcBot) {
    if bot.is_null() {
        return;
    }
    if let Err(failure) = handles::unregister(bot, HandleKind::Bot, "bot") {
        // Freed already, foreign, or a game: nothing is released.
        record_thread_error(&format!("carc_bot_free: {}", failure.message));
        return;
    }
    let _ = catching(|| {
        // SAFETY: a live handle created by `carc_bot_new`, just taken out of the table of
        // live handles, so released once.
        drop(unsafe { Box::from_raw(bot) });
    });
}

/// Chooses an action for the player who decides now in `game` and writes it to `*out`;
/// the game is not changed (apply the action with `carc_game_apply`). The action is one of
/// `carc_game_legal_actions`. When the game waits for a draw (explicit chance) the bot
/// samples a tile from the pile's counts. An MCTS bot searches for its budget (the call
/// takes that long); its search cannot see the order of the pile. A finished game
/// returns `CARC_STATUS_GAME_OVER`; a game a learned player's network was not made for
/// returns `CARC_STATUS_INVALID_ARGUMENT`, the message naming what differs.
///
/// Ownership: `bot` is borrowed for the call (its random sequence advances); `game` is
/// borrowed read-only; `out` belongs to the caller and is written only on success.
#[no_mangle]
pub extern "C" fn carc_bot_choose(
    bot: *mut CarcBot,
    game: *const CarcGame,
    out: *mut CarcAction,
) -> CarcStatus {
    with_bot("carc_bot_choose", bot, |b| {
        let status = with_game("carc_bot_choose", game, |h| {
            check_out(out, "out")?;
            let game = h.game();
            if game.is_terminal() {
                return Err(Failure::new(CarcStatus::GameOver, "the game is over"));
            }
            // A learned player refuses a game its network was not made for.
            b.bot.check(game.config()).map_err(Failure::invalid)?;
            let action = b.bot.choose(&game, game.legal(), &mut b.rng.borrow_mut());
            write_out(out, CarcAction::from(action));
            Ok(())
        });
        // A failure was recorded on the game handle and the thread; a panic poisoned the
        // game handle and poisons the bot too (`with_bot`).
        match status {
            CarcStatus::Ok => Ok(()),
            s => Err(Failure::new(
                s,
                strip_function(&crate::guard::thread_last_error()),
            )),
        }
    })
}

/// A message recorded by an inner call without its `function: ` prefix.
fn strip_function(message: &str) -> String {
    message
        .strip_prefix("carc_bot_choose: ")
        .unwrap_or(message)
        .to_string()
}

/// Writes the bot's spec (NUL-terminated, in the form `carc_bot_new` reads, with every
/// setting that differs from its default: `"mcts:2000"`, `"greedy"`) into `buf` (`len`
/// bytes); `needed` receives its size including the NUL.
///
/// Ownership: `bot` is borrowed; `buf` (may be NULL with `len == 0` to ask for the size)
/// and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is
/// written.
#[no_mangle]
pub extern "C" fn carc_bot_spec(
    bot: *const CarcBot,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_bot("carc_bot_spec", bot, |b| {
        write_text(&b.bot.to_string(), buf, len, needed, "the spec")
    })
}

#[cfg(test)]
#[path = "tests/unit/bot.rs"]
mod tests;
