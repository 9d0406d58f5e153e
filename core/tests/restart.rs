//! `Game::restart`: a game started again in the memory of another is the game
//! `Game::with_chance` makes of the same configuration and seed (B1 and every set's
//! setup: the pile, the start tiles, the supplies), whatever the other game had done:
//! finished, stopped half-way, or with a board grid grown past its first size.

use carcassonne::{Action, ChanceMode, Figures, Game, GameConfig, Rng, TileSet};

fn config(sets: &[TileSet], players: u8, abbot: u8, seed: u64) -> GameConfig {
    let mut config = GameConfig::new(players);
    config.sets = sets.to_vec();
    config.figures = Figures::default_for(sets);
    config.figures.abbot = abbot;
    config.seed = seed;
    config
}

/// Plays `game` with random legal actions from `rng` for at most `decisions` decisions
/// (explicit chance: the draw is a random offered tile too).
fn play(game: &mut Game, rng: &mut Rng, decisions: usize) {
    for _ in 0..decisions {
        if game.is_terminal() {
            return;
        }
        let legal = game.legal();
        game.apply_unchecked(legal[rng.below(legal.len() as u32) as usize]);
    }
}

/// Plays both games with the same random picks to the end, asserting at every decision
/// that they offer the same actions in the same order and have the same state.
fn assert_same_games(restarted: &mut Game, fresh: &mut Game, what: &str) {
    let mut rng = Rng::new(77);
    let mut step = 0;
    loop {
        assert_eq!(
            restarted.legal(),
            fresh.legal(),
            "{what}: legal actions at decision {step}"
        );
        assert_eq!(
            restarted.state_hash(),
            fresh.state_hash(),
            "{what}: state at decision {step}"
        );
        assert_eq!(
            restarted.phase(),
            fresh.phase(),
            "{what}: phase at decision {step}"
        );
        if fresh.is_terminal() {
            break;
        }
        let legal = fresh.legal();
        let pick: Action = legal[rng.below(legal.len() as u32) as usize];
        restarted.apply_unchecked(pick);
        fresh.apply_unchecked(pick);
        step += 1;
    }
    assert!(
        restarted.is_terminal(),
        "{what}: the restarted game goes on"
    );
    assert_eq!(
        restarted.scores(),
        fresh.scores(),
        "{what}: final scores (B17)"
    );
    assert_eq!(restarted.events(), fresh.events(), "{what}: score events");
    assert_eq!(restarted.turns(), fresh.turns(), "{what}: turn records");
    assert_eq!(
        restarted.history_actions(),
        fresh.history_actions(),
        "{what}: decisions recorded"
    );
}

/// Every set, alone and together, with 2 to 6 players: restarted after a finished game
/// and after one stopped after 40 decisions, the game is the new game of that seed.
#[test]
fn a_restarted_game_is_the_new_game_of_its_seed() {
    let all = TileSet::ALL.to_vec();
    let cases: Vec<(Vec<TileSet>, u8, u8)> = vec![
        (vec![TileSet::Base], 2, 0),
        (vec![TileSet::Base, TileSet::River1, TileSet::River2], 3, 1),
        (vec![TileSet::Base, TileSet::PrincessDragon], 2, 0),
        (vec![TileSet::Base, TileSet::AbbeyMayor], 4, 0),
        (
            vec![
                TileSet::Base,
                TileSet::Count,
                TileSet::KingRobber,
                TileSet::Cult,
            ],
            4,
            0,
        ),
        (vec![TileSet::Base, TileSet::BridgesCastlesBazaars], 4, 0),
        (vec![TileSet::Base, TileSet::HillsSheep], 3, 0),
        (all.clone(), 4, 1),
        (all, 6, 1),
    ];
    for (sets, players, abbot) in cases {
        for (stop_after, seed) in [(usize::MAX, 11u64), (40, 12)] {
            let mut game = Game::new(config(&sets, players, abbot, seed)).unwrap();
            play(&mut game, &mut Rng::new(seed), stop_after);
            game.restart(seed + 100);
            let mut fresh = Game::new(config(&sets, players, abbot, seed + 100)).unwrap();
            assert_eq!(game.config(), fresh.config(), "{sets:?}: the configuration");
            let what = format!("{sets:?}, {players} players, restarted after {stop_after}");
            assert_same_games(&mut game, &mut fresh, &what);
        }
    }
}

/// A board grid that grew (a tile reached its edge) starts at its first size again: the
/// restarted game of a long river game has the grid of a new one.
#[test]
fn a_grown_grid_starts_again_at_its_first_size() {
    let sets = [TileSet::Base, TileSet::River1, TileSet::River2];
    let grown = (0..40u64)
        .find_map(|seed| {
            let mut game = Game::new(config(&sets, 2, 0, seed)).unwrap();
            play(&mut game, &mut Rng::new(seed), usize::MAX);
            (game.board().grid_growths() > 0).then_some(game)
        })
        .expect("a river game whose board grid grows among 40 seeds");
    let mut game = grown;
    game.restart(5);
    let fresh = Game::new(config(&sets, 2, 0, 5)).unwrap();
    assert_eq!(game.board().grid_radius(), fresh.board().grid_radius());
    assert_eq!(game.board().grid_growths(), 0);
    let mut fresh = fresh;
    assert_same_games(&mut game, &mut fresh, "river game after a grown grid");
}

/// In explicit-chance mode the restarted game waits for the caller's draws too, and
/// offers the draws of the new game.
#[test]
fn explicit_chance_stays_explicit() {
    let sets = [TileSet::Base, TileSet::AbbeyMayor];
    let mut game = Game::with_chance(config(&sets, 2, 0, 3), ChanceMode::Explicit).unwrap();
    play(&mut game, &mut Rng::new(3), 60);
    game.restart(4);
    let mut fresh = Game::with_chance(config(&sets, 2, 0, 4), ChanceMode::Explicit).unwrap();
    assert!(matches!(game.legal()[0], Action::Draw { .. }));
    assert_same_games(&mut game, &mut fresh, "explicit chance");
}

/// A clone shares its configuration with the game it was cloned from: restarting the
/// clone leaves the other game, its seed included, as it was.
#[test]
fn restarting_a_clone_leaves_the_original_alone() {
    let original = Game::new(config(&[TileSet::Base], 2, 0, 21)).unwrap();
    let hash = original.state_hash();
    let mut clone = original.clone();
    clone.restart(22);
    assert_eq!(original.config().seed, 21);
    assert_eq!(original.state_hash(), hash);
    assert_eq!(clone.config().seed, 22);
    let fresh = Game::new(config(&[TileSet::Base], 2, 0, 22)).unwrap();
    assert_eq!(clone.state_hash(), fresh.state_hash());
}
