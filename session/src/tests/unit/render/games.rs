//! Games for the unit tests of `render`'s modules.

use carcassonne::config::GameConfig;
use carcassonne::game::Game;
use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;

/// A game played with random legal moves until at most `leave` tiles are left to
/// draw (0: to its end; final scoring takes every figure off the board).
pub(super) fn played(mut config: GameConfig, seed: u64, leave: u32) -> Game {
    config.seed = seed;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut legal = Vec::new();
    while !game.is_terminal() && (leave == 0 || game.tiles_left() > leave) {
        game.legal_actions_into(&mut legal);
        let pick = legal[rng.below(legal.len() as u32) as usize];
        game.apply(pick).unwrap();
    }
    game
}

pub(super) fn every_set(players: u8) -> GameConfig {
    let mut config = GameConfig::new(players);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.figures.abbot = 1;
    config
}

/// A game of every set with both the dragon (PD1) and the fairy (PD15) on the board.
pub(super) fn with_dragon_and_fairy() -> Game {
    (0..40)
        .map(|seed| played(every_set(3), seed, 30))
        .find(|g| g.dragon().is_some() && g.fairy().is_some())
        .expect("a game with the dragon and the fairy on the board")
}

/// A finished game of every set with a castle (CA1) and a bridge (BR1) on the board.
pub(super) fn with_castle_and_bridge() -> Game {
    (1..40)
        .map(|seed| played(every_set(3), seed, 0))
        .find(|g| {
            g.castles().next().is_some() && (0..g.board().len()).any(|i| g.bridge_at(i).is_some())
        })
        .expect("a game with a castle and a bridge")
}

/// A game of the base game and the Tower, three players, in which some seat holds a
/// prisoner (TW3, TW4).
pub(super) fn with_prisoners() -> Game {
    let mut config = GameConfig::new(3);
    config.sets = vec![TileSet::Base, TileSet::Tower];
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    (0..40)
        .map(|seed| played(config.clone(), seed, 20))
        .find(|g| (0..3).any(|seat| g.prisoners_held(seat) > 0))
        .expect("a game with a prisoner")
}

/// The base game with Hills & Sheep, `players` seats.
pub(super) fn hills_and_sheep(players: u8) -> GameConfig {
    let mut config = GameConfig::new(players);
    config.sets = vec![TileSet::Base, TileSet::HillsSheep];
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config
}

/// A game of the base game and Hills & Sheep played until at most `leave` tiles are left
/// (0: to its end) with a shepherd on the board when it stops (HS1; at the end, as the
/// board stood before final scoring).
pub(super) fn with_shepherds(leave: u32) -> Game {
    (0..60)
        .map(|seed| played(hills_and_sheep(3), seed, leave))
        .find(|g| {
            g.figures_before_final_scoring()
                .iter()
                .any(|f| f.figure == carcassonne::config::Figure::Shepherd)
        })
        .expect("a game with a shepherd on the board")
}
