//! Unit tests of Traders & Builders' goods majorities, included by
//! `rules/traders_builders.rs`.

use super::*;
use crate::config::Figures;

/// TB2: 10 points to every player holding the most tokens of a kind (ties all score), none
/// for a kind nobody holds. Seats 0 and 1 tie on wine (2 each), seat 1 alone has grain,
/// seats 0 and 2 tie on cloth (1 each; seat 3 holds none).
#[test]
fn tb2_ten_for_the_most_of_each_kind() {
    let mut config = GameConfig::new(4);
    config.sets = vec![TileSet::Base, TileSet::TradersBuilders];
    config.figures = Figures::default_for(&config.sets);
    let mut game = Game::new(config).unwrap();
    game.expansions.traders.goods[0] = [2, 0, 1];
    game.expansions.traders.goods[1] = [2, 1, 0];
    game.expansions.traders.goods[2] = [1, 0, 1];
    let before = game.events().len();
    game.goods_majorities();
    let got: Vec<(u8, i32, ScoreKind)> = game.events()[before..]
        .iter()
        .map(|e| (e.player, e.points, e.kind))
        .collect();
    let goods = ScoreKind::Goods;
    assert_eq!(
        got,
        vec![
            (0, 10, goods),
            (1, 10, goods),
            (1, 10, goods),
            (0, 10, goods),
            (2, 10, goods)
        ]
    );
    assert_eq!(game.scores(), &[20, 20, 10, 0]);

    let mut none = game.clone();
    none.expansions.traders.goods = Default::default();
    let before = none.events().len();
    none.goods_majorities();
    assert_eq!(none.events().len(), before, "no tokens, no points");
}
