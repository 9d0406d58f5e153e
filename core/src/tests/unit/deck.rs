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

/// The kinds a draw may give are looked for among the kinds dealt only: through a whole
/// pile, they are the kinds of every catalogue index with a tile left to draw, of the
/// stage being drawn (R1) and not held back while the dragon is away (PD3).
#[test]
fn drawable_kinds_are_every_kind_with_a_tile_left() {
    let info = kind_info();
    for sets in [vec![TileSet::Base], TileSet::ALL.to_vec()] {
        let mut config = GameConfig::new(2);
        config.figures = Figures::default_for(&sets);
        config.sets = sets;
        let mut deck = Deck::new(&config);
        let mut rng = Rng::new(3);
        let mut k = 0;
        while deck.current_stage().is_some() {
            let hold_back = k <= 30;
            let stage = deck.current_stage();
            let hold = stage == Some(LAST) && deck.holds_back(hold_back);
            let expected: Vec<usize> = (0..deck.counts().len())
                .filter(|&i| {
                    deck.drawable_count(i) > 0
                        && Some(info[i].stage as usize) == stage
                        && !(hold && info[i].held_back)
                })
                .collect();
            assert!(!expected.is_empty(), "draw {k}");
            let listed: Vec<usize> = deck.drawable(hold_back).collect();
            assert_eq!(listed, expected, "draw {k}");
            deck.draw(&mut rng, hold_back);
            k += 1;
        }
    }
}
