//! Helpers shared by the session crate's test programs.

use carcassonne::{Figures, GameConfig, TileSet};

/// A configuration of `players` seats with `sets` and their default figures, `abbot`
/// abbots each, and `seed`.
pub fn config(players: u8, sets: &[TileSet], abbot: u8, seed: u64) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(sets);
    c.figures.abbot = abbot;
    c.seed = seed;
    c
}
