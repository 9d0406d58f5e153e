//! Unit tests of `deck`, included by `deck.rs` so they see its private items.

use super::*;
use crate::config::Figures;
use crate::tiles::TileSet;

/// A pile that drew at random and one that was told the same draws by kind are the
/// same pile, so the same generator state gives both the same next draws.
#[test]
fn the_pile_depends_on_the_counts_only() {
    let mut config = GameConfig::new(3);
    config.sets = TileSet::ALL.to_vec();
    config.figures = Figures::default_for(&config.sets);
    for seed in 0..20 {
        let mut drawn = Deck::new(&config);
        let mut told = drawn.clone();
        let mut rng = Rng::new(seed);
        let mut k = 0;
        // The held city lake (R6) is never drawn; dragon tiles are held back for the
        // first 30 draws (PD3).
        while !drawn.outcomes(k <= 30).is_empty() {
            let hold_back = k <= 30;
            let tile = drawn.draw(&mut rng, hold_back);
            told.take(tile);
            assert_eq!(drawn, told, "seed {seed}, draw {k}");
            k += 1;
        }
    }
}
