//! Games that several unit tests start from.

use carcassonne::{Figures, Game, GameConfig, Phase, Rng, TileSet};

/// A two-player game of the base game with Bridges, Castles & Bazaars, played at random
/// from `seed` until a bazaar opens (BZ2); `None` when the game of this seed ends first.
pub(crate) fn random_game_at_a_bazaar(seed: u64) -> Option<Game> {
    let sets = [TileSet::Base, TileSet::BridgesCastlesBazaars];
    let mut config = GameConfig::new(2);
    config.sets = sets.to_vec();
    config.figures = Figures::default_for(&sets);
    config.seed = seed;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(seed);
    while !game.is_terminal() && game.phase() != Phase::BazaarSelect {
        let legal = game.legal();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    (!game.is_terminal()).then_some(game)
}
