//! Plays random games and prints games per second; a quick way to profile the engine.
//! Usage: cargo run --release -p carcassonne --example random_playouts -- [games] [sets] [players] [abbot]
use carcassonne::{Game, GameConfig, Rng, TileSet};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let sets: Vec<TileSet> = args
        .get(2)
        .map(|s| {
            s.split(',')
                .map(|k| TileSet::from_key(k).expect("set key"))
                .collect()
        })
        .unwrap_or_else(|| vec![TileSet::Base]);
    let players: u8 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut config = GameConfig::new(players);
    config.figures = carcassonne::Figures::default_for(&sets);
    config.figures.abbot = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    config.sets = sets;
    let mut rng = Rng::new(42);
    let mut legal = Vec::with_capacity(512);
    let mut decisions = 0u64;
    let start = Instant::now();
    for g in 0..games {
        config.seed = g as u64;
        let mut game = Game::new(config.clone()).expect("valid config");
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply_unchecked(a);
            decisions += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{games} games in {s:.3} s: games/s: {:.0} decisions/s: {:.0}",
        games as f64 / s,
        decisions as f64 / s
    );
}
