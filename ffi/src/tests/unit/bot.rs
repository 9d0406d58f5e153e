//! Unit tests of `bot`, included by `bot.rs` so they see its private items.

use super::*;
use crate::action::carc_game_apply;
use crate::game::{carc_game_free, carc_game_new};
use crate::guard::thread_last_error;
use crate::state::carc_game_is_terminal;

fn new_bot(spec: &std::ffi::CStr, seed: u64) -> *mut CarcBot {
    let mut bot = std::ptr::null_mut();
    assert_eq!(carc_bot_new(spec.as_ptr(), seed, &mut bot), CarcStatus::Ok);
    bot
}

#[test]
fn a_bot_plays_a_whole_game_with_legal_actions() {
    let mut game = std::ptr::null_mut();
    let config = c"{\"players\":2,\"sets\":[\"base\",\"abbey-and-mayor\"],\"seed\":3}";
    assert_eq!(carc_game_new(config.as_ptr(), &mut game), CarcStatus::Ok);
    let bots = [new_bot(c"mcts:8", 1), new_bot(c"greedy", 2)];
    let mut over = 0u8;
    let mut turn = 0;
    while carc_game_is_terminal(game, &mut over) == CarcStatus::Ok && over == 0 {
        let mut action = CarcAction::default();
        assert_eq!(
            carc_bot_choose(bots[turn % 2], game, &mut action),
            CarcStatus::Ok
        );
        assert_eq!(carc_game_apply(game, &action), CarcStatus::Ok);
        turn += 1;
    }
    let mut action = CarcAction {
        x: 77,
        ..CarcAction::default()
    };
    assert_eq!(
        carc_bot_choose(bots[0], game, &mut action),
        CarcStatus::GameOver
    );
    assert_eq!(action.x, 77, "out is written only on success");
    assert!(thread_last_error().starts_with("carc_bot_choose: the game is over"));
    let mut buf = [0 as c_char; 16];
    let mut needed = 0;
    assert_eq!(
        carc_bot_spec(bots[0], buf.as_mut_ptr(), 16, &mut needed),
        CarcStatus::Ok
    );
    assert_eq!(needed, 7);
    for b in bots {
        carc_bot_free(b);
    }
    carc_game_free(game);
}

#[test]
fn bad_specs_and_null_arguments_are_refused() {
    let mut bot = std::ptr::dangling_mut::<CarcBot>();
    assert_eq!(
        carc_bot_new(c"mcts:many".as_ptr(), 0, &mut bot),
        CarcStatus::InvalidArgument
    );
    assert_eq!(bot, std::ptr::dangling_mut::<CarcBot>());
    assert!(thread_last_error().contains("\"many\""));
    assert_eq!(
        carc_bot_new(std::ptr::null(), 0, &mut bot),
        CarcStatus::NullArgument
    );
    let mut action = CarcAction::default();
    assert_eq!(
        carc_bot_choose(std::ptr::null_mut(), std::ptr::null(), &mut action),
        CarcStatus::NullArgument
    );
    let b = new_bot(c"random", 0);
    assert_eq!(
        carc_bot_choose(b, std::ptr::null(), &mut action),
        CarcStatus::NullArgument
    );
    assert!(thread_last_error().contains("game must not be NULL"));
    carc_bot_free(b);
    carc_bot_free(std::ptr::null_mut());
}

/// The learned player `net` in a game its network was not made for (3 players): the
/// choice is refused with an error naming what differs, nothing is written, and neither
/// the bot nor the game is poisoned (the same bot then plays the 2-player game it was made
/// for).
#[test]
fn a_learned_player_refuses_a_game_its_network_was_not_made_for() {
    let bot = new_bot(c"net", 1);
    let mut three = std::ptr::null_mut();
    let config = c"{\"players\":3,\"sets\":[\"base\"],\"seed\":1}";
    assert_eq!(carc_game_new(config.as_ptr(), &mut three), CarcStatus::Ok);
    let mut action = CarcAction {
        x: 77,
        ..CarcAction::default()
    };
    assert_eq!(
        carc_bot_choose(bot, three, &mut action),
        CarcStatus::InvalidArgument
    );
    assert_eq!(action.x, 77, "out is written only on success");
    let message = thread_last_error();
    assert!(
        message.contains("the network was made for 2 players, this game has 3"),
        "{message}"
    );
    let mut two = std::ptr::null_mut();
    let config = c"{\"players\":2,\"sets\":[\"base\"],\"seed\":1}";
    assert_eq!(carc_game_new(config.as_ptr(), &mut two), CarcStatus::Ok);
    assert_eq!(carc_bot_choose(bot, two, &mut action), CarcStatus::Ok);
    assert_eq!(carc_game_apply(two, &action), CarcStatus::Ok);
    carc_bot_free(bot);
    carc_game_free(three);
    carc_game_free(two);
}
