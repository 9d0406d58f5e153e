//! Unit tests of `guard`, included by `guard.rs` so they see its private items.

use super::*;
use crate::game::{carc_game_free, carc_game_is_poisoned, carc_game_last_error, carc_game_new};
use crate::state::carc_game_num_players;

fn new_game() -> *mut CarcGame {
    let mut game = std::ptr::null_mut();
    let config = c"{\"players\":2,\"sets\":[\"base\"]}";
    assert_eq!(carc_game_new(config.as_ptr(), &mut game), CarcStatus::Ok);
    game
}

fn handle_message(game: *const CarcGame) -> String {
    let mut buf = vec![0 as c_char; 512];
    let mut needed = 0;
    assert_eq!(
        carc_game_last_error(game, buf.as_mut_ptr(), 512, &mut needed),
        CarcStatus::Ok
    );
    // SAFETY: the library wrote a NUL-terminated string into `buf`.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_panic_is_caught_and_poisons_the_handle() {
    let game = new_game();
    let status = with_game_mut("test_export", game, |_| panic!("boom"));
    assert_eq!(status, CarcStatus::Panic);
    let message = handle_message(game);
    assert!(
        message.contains("test_export") && message.contains("boom"),
        "{message}"
    );
    assert!(thread_last_error().contains("poisoned"));
    let mut poisoned = 0u8;
    assert_eq!(carc_game_is_poisoned(game, &mut poisoned), CarcStatus::Ok);
    assert_eq!(poisoned, 1);
    // Every later call on the handle is refused, and keeps the panic message.
    let mut players = 99u32;
    assert_eq!(
        carc_game_num_players(game, &mut players),
        CarcStatus::HandlePoisoned
    );
    assert_eq!(players, 99);
    assert!(handle_message(game).contains("boom"));
    carc_game_free(game);
}

#[test]
fn a_panic_without_a_handle_is_caught() {
    let status = call("test_call", || panic!("no handle"));
    assert_eq!(status, CarcStatus::Panic);
    assert!(thread_last_error().contains("no handle"));
}

#[test]
fn failures_record_the_message_on_handle_and_thread() {
    let game = new_game();
    let status = with_game("test_query", game, |_| {
        Err(Failure::invalid("seat 9 is not a seat"))
    });
    assert_eq!(status, CarcStatus::InvalidArgument);
    assert_eq!(handle_message(game), "test_query: seat 9 is not a seat");
    assert_eq!(thread_last_error(), "test_query: seat 9 is not a seat");
    carc_game_free(game);
}

#[test]
fn buffers_follow_the_size_query_convention() {
    let items = [1i32, 2, 3];
    let mut needed = 0u32;
    assert_eq!(
        write_array(&items, std::ptr::null_mut(), 0, &mut needed, "x"),
        Ok(())
    );
    assert_eq!(needed, 3);
    let mut short = [0i32; 2];
    let e = write_array(&items, short.as_mut_ptr(), 2, &mut needed, "x").unwrap_err();
    assert_eq!(e.status, CarcStatus::BufferTooSmall);
    assert_eq!(short, [0, 0]);
    let mut long = [0i32; 5];
    assert_eq!(
        write_array(&items, long.as_mut_ptr(), 5, &mut needed, "x"),
        Ok(())
    );
    assert_eq!(long, [1, 2, 3, 0, 0]);
    let e = write_array(&items, std::ptr::null_mut(), 1, &mut needed, "x").unwrap_err();
    assert_eq!(e.status, CarcStatus::NullArgument);
    let e = write_array(&items, long.as_mut_ptr(), 5, std::ptr::null_mut(), "x").unwrap_err();
    assert_eq!(e.status, CarcStatus::NullArgument);
    let mut text = [1 as c_char; 4];
    let e = write_text("abcd", text.as_mut_ptr(), 4, &mut needed, "t").unwrap_err();
    assert_eq!((e.status, needed), (CarcStatus::BufferTooSmall, 5));
    assert_eq!(
        write_text("abc", text.as_mut_ptr(), 4, &mut needed, "t"),
        Ok(())
    );
    assert_eq!(text, [97, 98, 99, 0]);
}

/// A handle the library does not hold live is answered with `INVALID_HANDLE` and a
/// message, never used: after `carc_game_free`, freed twice, a bot passed as a game, a
/// game passed as a bot, a pointer the library never gave out.
#[test]
fn freed_foreign_and_wrong_kind_handles_are_refused() {
    use crate::bot::{carc_bot_choose, carc_bot_free, carc_bot_new, CarcBot};
    let game = new_game();
    let mut bot: *mut CarcBot = std::ptr::null_mut();
    assert_eq!(
        carc_bot_new(c"random".as_ptr(), 1, &mut bot),
        CarcStatus::Ok
    );
    let mut players = 99u32;
    // A bot passed as a game, a game passed as a bot.
    assert_eq!(
        carc_game_num_players(bot.cast(), &mut players),
        CarcStatus::InvalidHandle
    );
    assert!(
        thread_last_error().contains("it is a bot handle"),
        "{}",
        thread_last_error()
    );
    let mut action = crate::action::CarcAction::default();
    assert_eq!(
        carc_bot_choose(game.cast(), game, &mut action),
        CarcStatus::InvalidHandle
    );
    assert!(thread_last_error().contains("it is a game handle"));
    // A pointer the library never gave out.
    let mut local = [0u64; 16];
    assert_eq!(
        carc_game_num_players(local.as_mut_ptr().cast(), &mut players),
        CarcStatus::InvalidHandle
    );
    // Freed: every use is refused, and freeing again does nothing.
    carc_game_free(game);
    assert_eq!(
        carc_game_num_players(game, &mut players),
        CarcStatus::InvalidHandle
    );
    assert!(
        thread_last_error().contains("game is not a live game handle: it was freed"),
        "{}",
        thread_last_error()
    );
    let mut poisoned = 9u8;
    assert_eq!(
        carc_game_is_poisoned(game, &mut poisoned),
        CarcStatus::InvalidHandle
    );
    assert_eq!((players, poisoned), (99, 9), "nothing written");
    carc_game_free(game);
    assert!(thread_last_error().starts_with("carc_game_free: game is not a live game handle"));
    carc_game_free(bot.cast());
    assert!(thread_last_error().contains("it is a bot handle"));
    carc_bot_free(bot);
    carc_bot_free(bot);
    assert!(thread_last_error().starts_with("carc_bot_free: bot is not a live bot handle"));
}

/// A panic inside a call leaves its message, its place and a backtrace in
/// `carc_last_error` (the handle keeps the message and place).
#[test]
fn a_panic_reports_its_place_and_backtrace() {
    let game = new_game();
    let status = with_game_mut("test_export", game, |_| panic!("lost {}", 7));
    assert_eq!(status, CarcStatus::Panic);
    let thread = thread_last_error();
    assert!(
        thread.starts_with("test_export: internal error: lost 7 (at "),
        "{thread}"
    );
    assert!(thread.contains("guard.rs:"), "{thread}");
    assert!(
        thread.contains("the handle is poisoned\nbacktrace:\n"),
        "{thread}"
    );
    assert!(handle_message(game).contains("lost 7 (at "));
    assert!(!handle_message(game).contains("backtrace"));
    carc_game_free(game);
}

/// Run in a child process by [`a_panic_prints_nothing_on_standard_error`]: panics inside
/// a call and prints the thread's message on standard output.
#[test]
#[ignore = "run in a child process by a_panic_prints_nothing_on_standard_error"]
fn child_panics_inside_a_call() {
    let status = call("test_call", || panic!("quietly"));
    assert_eq!(status, CarcStatus::Panic);
    println!("MESSAGE {}", thread_last_error().replace('\n', " | "));
}

/// A panic inside a call prints nothing on the host's standard error (the library's
/// panic hook keeps it for `carc_last_error`); a panic outside the library's calls still
/// goes to the hook that was there before.
#[test]
fn a_panic_prints_nothing_on_standard_error() {
    let run = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "guard::tests::child_panics_inside_a_call",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{out}\n{err}");
    assert!(
        out.contains("MESSAGE test_call: internal error: quietly (at "),
        "{out}"
    );
    assert!(out.contains("backtrace:"), "{out}");
    assert!(!err.contains("quietly"), "printed on standard error: {err}");
    assert!(out.contains("1 passed"), "{out}");
}
