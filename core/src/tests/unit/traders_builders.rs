//! Unit tests of Traders & Builders' goods majorities, included by
//! `rules/traders_builders.rs`.

use super::*;
use crate::config::Figures;
use crate::game::Phase;

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

/// Whether every builder and pig on the board has a figure of its owner that keeps it
/// there in its feature (TB3, TB5, TB6), recomputed from the figure list and the
/// features' roots alone.
fn every_special_accompanied(game: &Game) -> bool {
    let companions = |special: Figure| -> &'static [Figure] {
        match special {
            Figure::Builder => &[
                Figure::Follower,
                Figure::BigFollower,
                Figure::Mayor,
                Figure::Wagon,
            ],
            _ => &[Figure::Follower, Figure::BigFollower],
        }
    };
    game.figures
        .iter()
        .filter(|f| matches!(f.figure, Figure::Builder | Figure::Pig))
        .all(|s| {
            let root = game.features.root(s.node);
            game.figures.iter().any(|f| {
                f.owner == s.owner
                    && companions(s.figure).contains(&f.figure)
                    && game.features.root(f.node) == root
            })
        })
}

/// TB6: the check that returns unaccompanied builders and pigs is skipped while no
/// figure has left the board or come onto it since it last ran
/// (`Game::figures_changed`); after every decision of random games in several
/// configurations with Traders & Builders, a skipped check would have found nothing.
#[test]
fn tb6_skipped_check_finds_every_builder_and_pig_accompanied() {
    let configs: [(u8, &[TileSet], u8); 3] = [
        (2, &[TileSet::Base, TileSet::TradersBuilders], 0),
        (
            4,
            &[
                TileSet::Base,
                TileSet::PrincessDragon,
                TileSet::Tower,
                TileSet::TradersBuilders,
            ],
            0,
        ),
        (4, &TileSet::ALL, 1),
    ];
    let mut skipped = 0u32;
    let mut specials_seen = 0u32;
    for (players, sets, abbot) in configs {
        for seed in 0..12u64 {
            let mut config = GameConfig::new(players);
            config.sets = sets.to_vec();
            config.figures = Figures::default_for(&config.sets);
            config.figures.abbot = abbot;
            config.seed = seed;
            let mut game = Game::new(config).unwrap();
            let mut rng = crate::Rng::new(seed ^ 0x5EED);
            while !game.is_terminal() {
                let legal = game.legal();
                let pick = legal[rng.below(legal.len() as u32) as usize];
                game.apply(pick).unwrap();
                if !game.figures_changed {
                    skipped += 1;
                    assert!(
                        every_special_accompanied(&game),
                        "seed {seed}, {players} players: a builder or pig is alone while \
                         the check would be skipped"
                    );
                }
                specials_seen += game
                    .figures
                    .iter()
                    .filter(|f| matches!(f.figure, Figure::Builder | Figure::Pig))
                    .count() as u32;
            }
        }
    }
    assert!(skipped > 0, "the check was never skipped");
    assert!(specials_seen > 0, "no builder or pig was ever deployed");
}

/// TB3, TB5: the builder and pig deployments listed from the turn player's companions
/// found in one pass are those that asking each feature of the placed tile gives
/// ([`Game::accompanied`]), at every deployment decision of random 2-player games with
/// the Traders & Builders and the most followers a player may have (30, so that many of
/// them stand on the board).
#[test]
fn tb3_tb5_companions_in_one_pass_match_each_feature() {
    let mut config = GameConfig::new(2);
    config.sets = vec![TileSet::Base, TileSet::TradersBuilders];
    config.figures = Figures::default_for(&config.sets);
    config.figures.follower = crate::config::MAX_FOLLOWERS;
    let (mut checked, mut most) = (0, 0);
    for seed in 0..12 {
        config.seed = seed;
        let mut game = Game::new(config.clone()).unwrap();
        let mut rng = crate::Rng::new(seed);
        while !game.is_terminal() {
            if let (Phase::Deploy, Some(placed)) = (game.phase(), game.turn.placed) {
                let mut fast = Vec::new();
                game.builder_and_pig_deploys(&mut fast);
                let mut slow = Vec::new();
                let player = game.turn_player;
                let index = placed as usize;
                let p = game.board.placement(index);
                let supply = &game.supply[player as usize];
                for local in 0..game.tile_features(index) {
                    let root = game.features.root(p.node_base + local as NodeId);
                    let special = match game.features.node(root).kind {
                        FeatureKind::Road | FeatureKind::City
                            if supply[Figure::Builder.index()] > 0 =>
                        {
                            Figure::Builder
                        }
                        FeatureKind::Field if supply[Figure::Pig.index()] > 0 => Figure::Pig,
                        _ => continue,
                    };
                    if special == Figure::Builder && game.is_complete(root) {
                        continue;
                    }
                    if game.accompanied(player, special, root) && !game.figure_barred_on(index) {
                        slow.push(Action::Deploy {
                            figure: special,
                            pos: p.pos,
                            feature: local,
                        });
                    }
                }
                assert_eq!(fast, slow, "seed {seed}");
                checked += 1;
                let companions = game
                    .figures
                    .iter()
                    .filter(|f| f.owner == player && accompanies(Figure::Builder, f.figure))
                    .count();
                most = most.max(companions);
            }
            let legal = game.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply(a).unwrap();
        }
    }
    assert!(
        checked > 500 && most > 16 && most <= COMPANIONS,
        "{checked} decisions, at most {most} companions"
    );
}
