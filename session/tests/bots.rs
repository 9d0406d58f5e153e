//! The built-in players: bot lists per seat, and the greedy player taking the points a
//! completed feature gives (B9, B12).

use carcassonne::{Action, Game, GameConfig, Pos, Rng};
use carcassonne_session::bots::{immediate_gain, parse_bots, Bot};

#[test]
fn bots_list_is_per_seat_or_shared() {
    assert_eq!(parse_bots("greedy", 3).unwrap(), vec![Bot::Greedy; 3]);
    assert_eq!(
        parse_bots("random,greedy", 2).unwrap(),
        vec![Bot::Random, Bot::Greedy]
    );
    assert!(parse_bots("random,greedy", 3)
        .unwrap_err()
        .contains("2 bots for 3"));
    assert!(parse_bots("clever", 2).unwrap_err().contains("clever"));
}

#[test]
fn greedy_takes_points_when_a_feature_completes() {
    // Seat 0 draws tiles until one can close the start tile's city (BASE-D, city on
    // its north side) with a tile whose city faces south (B9: a city closed by its
    // walls is complete; B12: a 2-tile city scores 4 with a knight on it).
    for seed in 0..200 {
        let mut config = GameConfig::new(2);
        config.seed = seed;
        let game = Game::new(config).unwrap();
        let legal = game.legal_actions();
        let north = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::PlaceTile { pos, .. } if *pos == Pos::new(0, -1)));
        let Some(place) = north else { continue };
        let mut after = game.clone();
        after.apply(place).unwrap();
        let deploys = after.legal_actions();
        let gains: Vec<i32> = deploys.iter().map(|a| immediate_gain(&after, *a)).collect();
        if gains.iter().all(|g| *g == 0) {
            continue; // the tile north of the start did not close the city
        }
        let mut rng = Rng::new(1);
        let pick = Bot::Greedy.choose(&after, &deploys, &mut rng);
        let best = *gains.iter().max().unwrap();
        assert!(best >= 4, "seed {seed}: best gain {best}");
        assert_eq!(immediate_gain(&after, pick), best);
        return;
    }
    panic!("no seed closed the start city");
}

/// The greedy player beats the random one in most 2-player base games (a bot that
/// takes points when it can should win well over half of them).
#[test]
fn greedy_beats_random_in_most_games() {
    let mut wins = 0;
    let games = 40;
    for seed in 0..games {
        let mut config = GameConfig::new(2);
        config.seed = seed;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        let greedy_seat = (seed % 2) as usize;
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            let bot = if game.to_play() == greedy_seat {
                Bot::Greedy
            } else {
                Bot::Random
            };
            game.apply(bot.choose(&game, &legal, &mut rng)).unwrap();
        }
        let s = game.scores();
        if s[greedy_seat] > s[1 - greedy_seat] {
            wins += 1;
        }
    }
    assert!(wins >= games * 6 / 10, "greedy won {wins} of {games}");
}

/// A bazaar bid is paid later, if at all (BZ3); the greedy player counts it as its cost,
/// so it opens at 0 and does not raise (BZ2).
#[test]
fn greedy_opens_bazaars_at_zero_and_does_not_raise() {
    use carcassonne::{Phase, TileSet};
    let mut seen = [false; 2];
    for seed in 0..100 {
        let mut config = GameConfig::new(3);
        config.sets = vec![TileSet::Base, TileSet::BridgesCastlesBazaars];
        config.seed = seed;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        while !game.is_terminal() && seen != [true; 2] {
            game.legal_actions_into(&mut legal);
            let phase = game.phase();
            let action = Bot::Greedy.choose(&game, &legal, &mut rng);
            match (phase, action) {
                (Phase::BazaarSelect, Action::BazaarSelect { bid, .. }) => {
                    assert_eq!(bid, 0, "seed {seed}");
                    seen[0] = true;
                }
                (Phase::BazaarBid, a) => {
                    assert_eq!(a, Action::BazaarPass, "seed {seed}");
                    seen[1] = true;
                }
                (Phase::BazaarSelect, a) => panic!("seed {seed}: {a} at a bazaar selection"),
                _ => {}
            }
            game.apply(action).unwrap();
        }
        if seen == [true; 2] {
            return;
        }
    }
    panic!("no bazaar selection and bid met: {seen:?}");
}

#[test]
fn heuristic_parses_and_prints_its_spec() {
    assert_eq!(Bot::parse("heuristic"), Ok(Bot::Heuristic));
    assert_eq!(Bot::Heuristic.to_string(), "heuristic");
    assert_eq!(Bot::Heuristic.name(), "heuristic");
    assert!(Bot::known_names().contains("heuristic"));
}

/// A follower on a city or a monastery scores nothing this turn, no more than passing
/// (B6: deploying is optional); greedy takes either at random, the heuristic player takes
/// the follower on the city or monastery every time, and with a field only late (its
/// points come at the end, B16).
#[test]
fn heuristic_deploys_on_a_city_or_monastery_when_nothing_scores() {
    use carcassonne::tiles::FeatureKind;
    use carcassonne::Phase;
    let mut checked = 0;
    for seed in 0..60 {
        let mut config = GameConfig::new(2);
        config.seed = seed;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_terminal() && checked < 40 {
            let legal = game.legal_actions();
            if game.phase() == Phase::Deploy {
                let zero = legal.iter().all(|a| immediate_gain(&game, *a) == 0);
                let kind_of = |a: &Action| match *a {
                    Action::Deploy { pos, feature, .. } => game.feature_kind_at(pos, feature),
                    _ => None,
                };
                let good = legal.iter().any(|a| {
                    matches!(kind_of(a), Some(FeatureKind::City | FeatureKind::Monastery))
                });
                if zero && good {
                    for k in 0..4 {
                        let pick = Bot::Heuristic.choose(&game, &legal, &mut Rng::new(k));
                        assert!(
                            matches!(
                                kind_of(&pick),
                                Some(FeatureKind::City | FeatureKind::Monastery)
                            ),
                            "seed {seed}: {pick:?} rather than a follower on a city or monastery"
                        );
                    }
                    checked += 1;
                }
                if zero && game.tiles_left() >= 40 {
                    let pick = Bot::Heuristic.choose(&game, &legal, &mut rng);
                    assert_ne!(kind_of(&pick), Some(FeatureKind::Field), "an early farmer");
                }
            }
            let bot = if game.to_play() == 0 {
                Bot::Heuristic
            } else {
                Bot::Greedy
            };
            let a = bot.choose(&game, &legal, &mut rng);
            game.apply(a).unwrap();
        }
    }
    assert!(checked >= 20, "only {checked} deployments seen");
}

/// The heuristic player beats greedy in most 2-player base games, each deal played from
/// both seats (docs/bots.md measures it over 400 games).
#[test]
fn heuristic_beats_greedy_in_most_games() {
    let mut wins = 0;
    let deals = 15;
    for seed in 0..deals {
        for heuristic_seat in 0..2usize {
            let mut config = GameConfig::new(2);
            config.seed = seed;
            let mut game = Game::new(config).unwrap();
            let mut rng = Rng::new(seed);
            let mut legal = Vec::new();
            while !game.is_terminal() {
                game.legal_actions_into(&mut legal);
                let bot = if game.to_play() == heuristic_seat {
                    Bot::Heuristic
                } else {
                    Bot::Greedy
                };
                game.apply(bot.choose(&game, &legal, &mut rng)).unwrap();
            }
            let s = game.scores();
            if s[heuristic_seat] > s[1 - heuristic_seat] {
                wins += 1;
            }
        }
    }
    assert!(
        wins >= 2 * deals * 7 / 10,
        "heuristic won {wins} of {}",
        2 * deals
    );
}

/// The Tower's positions for the bots, built move by move in explicit-chance mode.
#[path = "../../core/tests/common/mod.rs"]
mod scenario;

/// Two players, the base game and the Tower, `followers` followers each. Seat 0 closes
/// the start city with a knight (4 points; the knight comes back), seat 1 puts a monastery
/// south of the start, seat 0 a follower on the road of a tower tile at (1, 0); seat 1
/// continues that road at (2, 0) and waits for his figure action.
fn tower_position(followers: u8) -> Game {
    use carcassonne::{Figure, TileSet};
    use scenario::*;
    let mut config = config(2, &[TileSet::Base, TileSet::Tower]);
    config.figures.follower = followers;
    let mut game = start(config);
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1"); // seat 0: 4 points
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place_follower(&mut game, "TOWER-4ROADS", (1, 0), 0, "r2"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    assert_eq!(game.scores(), &[4, 0]);
    assert_eq!(game.supply(0, Figure::Follower), followers - 1);
    game
}

/// The actions `bot` takes in `game` with eight tie-breaks.
fn choices(bot: Bot, game: &Game) -> Vec<Action> {
    let legal = game.legal_actions();
    (0..8)
        .map(|seed| bot.choose(game, &legal, &mut Rng::new(seed)))
        .collect()
}

/// The action `bot` takes in `game`, the same for every tie-break.
fn sure_choice(bot: Bot, game: &Game) -> Action {
    let all = choices(bot, game);
    assert!(all.iter().all(|a| *a == all[0]), "{bot}: {all:?}");
    all[0]
}

/// TW2, TW3, TW4: greedy and heuristic put a tower piece where it can capture and take the
/// opponent's follower prisoner (a prisoner is worth its ransom to its holder, and costs
/// its owner a figure), rather than deploy nothing of worth or capture nothing.
#[test]
fn greedy_and_heuristic_capture_an_opponents_follower() {
    for bot in [Bot::Greedy, Bot::Heuristic] {
        let mut game = tower_position(7);
        let piece = sure_choice(bot, &game);
        assert_eq!(
            piece,
            Action::PlaceTowerPiece {
                pos: Pos::new(1, 0)
            },
            "{bot}"
        );
        assert!(immediate_gain(&game, piece) > 0);
        game.apply(piece).unwrap();
        let take = sure_choice(bot, &game);
        assert!(
            matches!(take, Action::Capture { pos, figure: carcassonne::Figure::Follower, .. }
                if pos == Pos::new(1, 0)),
            "{bot}: {take:?}"
        );
        game.apply(take).unwrap();
        assert_eq!(game.prisoners(1, 0, carcassonne::Figure::Follower), 1);
    }
}

/// Seat 0's turn in `game` played by `bot` (tie-breaks from `seed`): whether seat 0 got
/// his follower back from seat 1 by a ransom in it.
fn ransom_paid_in_turn(bot: Bot, game: &Game, seed: u64) -> bool {
    let mut game = game.clone();
    let mut rng = Rng::new(seed);
    let held = game.prisoners(1, 0, carcassonne::Figure::Follower);
    while !game.is_terminal() && game.turn_player() == 0 {
        let legal = game.legal_actions();
        let action = bot.choose(&game, &legal, &mut rng);
        game.apply(action).unwrap();
    }
    game.prisoners(1, 0, carcassonne::Figure::Follower) < held
}

/// TW5: greedy and heuristic pay a ransom for their captured follower when they have the
/// points and no follower left in their supply (before placing the tile or before the
/// figure action), and not while they still have one.
#[test]
fn bots_pay_a_ransom_only_when_short_of_followers() {
    use scenario::*;
    let is_ransom = |a: &Action| matches!(a, Action::PayRansom { .. });
    let mut game = tower_position(2);
    apply(&mut game, Action::PlaceTowerPiece { pos: pos((1, 0)) });
    let take = *legal(&game)
        .iter()
        .find(|a| matches!(a, Action::Capture { .. }))
        .unwrap();
    apply(&mut game, take);
    // Seat 0: 4 points, one follower in the supply, one held by seat 1.
    draw(&mut game, "BASE-U");
    let ransom = *legal(&game).iter().find(|a| is_ransom(a)).unwrap();
    assert!(immediate_gain(&game, ransom) < 0);
    for bot in [Bot::Greedy, Bot::Heuristic] {
        for seed in 0..4 {
            assert!(!ransom_paid_in_turn(bot, &game, seed), "{bot}");
        }
    }
    // Its last follower goes into a field beyond the tower's reach (a tower piece could
    // otherwise take it back, TW3): none left in the supply.
    apply(
        &mut game,
        Action::PlaceTile {
            pos: pos((0, -2)),
            rot: rot(0),
            bridge: None,
        },
    );
    deploy(&mut game, carcassonne::Figure::Follower, (0, -2), "f1");
    place(&mut game, "BASE-U", (3, 0), 0); // seat 1
    draw(&mut game, "BASE-B"); // seat 0: a monastery that scores nothing anywhere
    let ransom = *legal(&game).iter().find(|a| is_ransom(a)).unwrap();
    assert!(immediate_gain(&game, ransom) > 0);
    assert_eq!(sure_choice(Bot::Greedy, &game), ransom);
    for bot in [Bot::Greedy, Bot::Heuristic] {
        for seed in 0..4 {
            assert!(ransom_paid_in_turn(bot, &game, seed), "{bot}");
        }
    }
}
