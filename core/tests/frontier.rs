//! The frontier the board keeps as tiles are placed, checked after every action of random
//! games with every set against the placed tiles: each square of the frontier is empty,
//! lies next to a tile and counts exactly the tiles on its four sides (the count that
//! finds holes for the abbey, AM1); every empty square next to a tile is on it.

use carcassonne::{Figures, Game, GameConfig, Rng, TileSet};
use std::collections::HashSet;

const DELTAS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

fn check_frontier(game: &Game) {
    let board = game.board();
    let placed: HashSet<(i32, i32)> = board
        .placements()
        .iter()
        .map(|p| (p.pos.x, p.pos.y))
        .collect();
    let mut listed = HashSet::new();
    for square in board.frontier() {
        let at = (square.pos.x, square.pos.y);
        assert!(!placed.contains(&at), "{at:?} holds a tile");
        let around = DELTAS
            .iter()
            .filter(|(dx, dy)| placed.contains(&(at.0 + dx, at.1 + dy)))
            .count();
        assert_eq!(square.neighbours as usize, around, "tiles around {at:?}");
        assert!(listed.insert(at), "{at:?} listed twice");
    }
    for &(x, y) in &placed {
        for (dx, dy) in DELTAS {
            let at = (x + dx, y + dy);
            let pos = carcassonne::Pos::new(at.0, at.1);
            if !placed.contains(&at) && board.in_bounds(pos) {
                assert!(listed.contains(&at), "{at:?} missing from the frontier");
            }
        }
    }
}

#[test]
fn frontier_counts_agree_with_the_placed_tiles() {
    let mut holes = 0;
    for seed in 0..8u64 {
        let mut config = GameConfig::new(2 + (seed % 5) as u8);
        config.sets = TileSet::ALL.to_vec();
        config.figures = Figures::default_for(&config.sets);
        config.figures.abbot = 1;
        config.seed = seed;
        let mut game = Game::new(config).expect("valid config");
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        while !game.is_terminal() {
            check_frontier(&game);
            holes += game
                .board()
                .frontier()
                .iter()
                .filter(|s| s.neighbours == 4)
                .count();
            game.legal_actions_into(&mut legal);
            let pick = legal[rng.below(legal.len() as u32) as usize];
            game.apply(pick).expect("a listed action applies");
        }
        check_frontier(&game);
    }
    // The games make holes: the count of four is exercised.
    assert!(holes > 0);
}
