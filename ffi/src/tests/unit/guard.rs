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
