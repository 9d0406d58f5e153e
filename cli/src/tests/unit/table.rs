//! Unit tests of `table`, included by `table.rs` so they see its private items.

use super::*;
use carcassonne::{Figures, GameConfig, Phase, TileSet};
use carcassonne_session::mcts::{Budget, MctsConfig};

fn config(players: u8, sets: &[TileSet], seed: u64) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(sets);
    c.seed = seed;
    c
}

/// The bots of a table play as `play`'s bots do: the same generator, the same choices
/// (an MCTS bot's view is the search that chose), so a game between bots at a table is
/// the game `carcassonne play` plays.
#[test]
fn bots_at_a_table_play_as_the_bots_of_play() {
    let bots = [
        Bot::Mcts(MctsConfig::new(Budget::Iterations(12))),
        Bot::Greedy,
    ];
    let config = config(2, &[TileSet::Base, TileSet::PrincessDragon], 3);
    let mut table = Table::new(
        Game::new(config.clone()).unwrap(),
        bots.iter().map(|b| Seat::Bot(*b)).collect(),
        "t".into(),
    );
    let mut game = Game::new(config.clone()).unwrap();
    let mut rng = Rng::new(config.seed ^ BOT_SEED_MIX);
    let mut views = 0;
    while !game.is_terminal() {
        let action = bots[game.to_play()].choose(&game, game.legal(), &mut rng);
        let several = game.legal().len() > 1;
        game.apply(action).unwrap();
        let m = table.bot_move().expect("a bot decides");
        assert_eq!(m.action, action);
        if let Some(view) = &m.evaluation {
            assert_eq!(view.best().action, action);
            views += 1;
        }
        assert_eq!(m.evaluation.is_some(), m.seat == 0 && several);
    }
    assert!(table.game().is_terminal() && views > 0);
    assert_eq!(table.game().scores(), game.scores());
    assert!(table.bot_move().is_none());
    assert_eq!(table.human_to_play(), None);
}

/// A person's placement may be taken back while he chooses where to deploy (nothing
/// was revealed), not after the turn ended and the next tile was drawn (B3).
#[test]
fn a_decision_is_taken_back_until_a_tile_is_drawn() {
    let game = Game::new(config(2, &[TileSet::Base], 5)).unwrap();
    let mut table = Table::new(game, vec![Seat::Human, Seat::Bot(Bot::Random)], "t".into());
    assert_eq!(table.undo(), Err(UndoRefused::Nothing));
    assert_eq!(table.human_to_play(), Some(0));
    let start = table.game().state_hash();
    let placement = table.game().legal()[0];
    table.play(placement).unwrap();
    assert_eq!(table.game().phase(), Phase::Deploy);
    let v = table.version();
    assert_eq!(table.can_undo(), Ok(()));
    assert_eq!(table.undo(), Ok(0));
    assert_eq!(table.game().state_hash(), start);
    assert!(table.version() > v);
    assert_eq!(table.undo(), Err(UndoRefused::Nothing));
    // Place and deploy: the turn ends, the next tile is drawn.
    table.play(placement).unwrap();
    let pass = *table.game().legal().last().unwrap();
    assert_eq!(pass, Action::Pass);
    table.play(pass).unwrap();
    assert_eq!(table.undo(), Err(UndoRefused::TileDrawn));
    // The bot moves: still refused, and for the draw.
    while table.bot_move().is_some() {}
    assert_eq!(table.human_to_play(), Some(0));
    assert_eq!(table.undo(), Err(UndoRefused::TileDrawn));
    // A bot's seat is not a person's.
    assert_eq!(
        Table::new(
            Game::new(config(2, &[TileSet::Base], 5)).unwrap(),
            vec![Seat::Bot(Bot::Random), Seat::Human],
            "t".into()
        )
        .play(placement),
        Err(PlayError::NotYourTurn)
    );
}

/// At a bazaar (BZ2) the others bid right after a person, with no draw in between: once
/// a bot has bid, the person's bid stays.
#[test]
fn a_decision_stays_once_another_player_decided() {
    for seed in 0..300 {
        let Some(game) = crate::test_games::random_game_at_a_bazaar(seed) else {
            continue;
        };
        let me = game.to_play();
        let seats = (0..2)
            .map(|s| {
                if s == me {
                    Seat::Human
                } else {
                    Seat::Bot(Bot::Random)
                }
            })
            .collect();
        let mut table = Table::new(game, seats, "t".into());
        let select = table.game().legal()[0];
        table.play(select).unwrap();
        if table.bot_to_play().is_none()
            || table.game().turns().len() != table.undo[0].game.turns().len()
        {
            continue;
        }
        let moved = table.bot_move().unwrap();
        assert_ne!(moved.seat, me);
        if table.game().rng() == table.undo[0].game.rng() {
            assert_eq!(table.undo(), Err(UndoRefused::OthersMoved));
            return;
        }
    }
    panic!("no bazaar where a bot bid after a person");
}

/// The record of a table resumes the game exactly where it stands, and the events of a
/// move are its score events and figure returns, in words.
#[test]
fn the_record_resumes_and_moves_tell_their_events() {
    let sets = TileSet::ALL.to_vec();
    let game = Game::new(config(3, &sets, 9)).unwrap();
    let mut table = Table::new(
        game,
        vec![
            Seat::Bot(Bot::Greedy),
            Seat::Bot(Bot::Random),
            Seat::Bot(Bot::Greedy),
        ],
        "saved".into(),
    );
    let mut told = 0;
    for _ in 0..120 {
        let (scores, returns) = table.mark();
        let m = table.bot_move().unwrap();
        let new =
            table.game().events().len() - scores + table.game().figure_returns().len() - returns;
        assert_eq!(m.events.len(), new);
        told += new;
    }
    assert!(told > 0);
    let text = table.record().to_string();
    let loaded = record::load_json(&text, None).unwrap();
    assert_eq!(loaded.game.state_hash(), table.game().state_hash());
    assert_eq!(record::record_id(&table.record()), Some("saved"));
    let mut resumed = Table::new(loaded.game, table.seats().to_vec(), "saved".into());
    // Both go on with the same draws (the generator's state is in the record).
    let mut a = table.game().clone();
    let mut b = resumed.game().clone();
    while !a.is_terminal() {
        let first = a.legal()[0];
        a.apply(first).unwrap();
        b.apply(first).unwrap();
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert!(resumed.bot_move().is_some());
}

#[test]
fn events_and_supplies_read_as_words() {
    let game = Game::new(config(2, &[TileSet::Base, TileSet::AbbeyMayor], 1)).unwrap();
    assert_eq!(
        supply_text(&game, 0),
        "7 followers, 1 mayor, 1 wagon, 1 barn"
    );
    assert_eq!(seat_name(1), "seat 1 (blue)");
    assert_eq!(Seat::Human.to_string(), "human");
    assert_eq!(Seat::Bot(Bot::Greedy).to_string(), "greedy");
}

/// Without a bot at the table the decisions kept to be taken back stay few: only those
/// since the last tile drawn, at most MAX_UNDO; and can_undo does not copy them.
#[test]
fn the_undo_stack_stays_small_without_bots() {
    let game = Game::new(config(2, &[TileSet::Base], 1)).unwrap();
    let mut table = Table::new(game, vec![Seat::Human, Seat::Human], "t".into());
    let mut most = 0;
    let mut decisions = 0;
    while !table.game().is_terminal() && decisions < 60 {
        let action = table.choices()[0].action;
        table.play(action).unwrap();
        decisions += 1;
        most = most.max(table.undo.len());
        let _ = table.can_undo();
    }
    assert!(decisions >= 40, "{decisions}");
    assert!(most <= MAX_UNDO, "{most} decisions kept");
    assert!(most <= 4, "{most} decisions kept though tiles were drawn");
}
