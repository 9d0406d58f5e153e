//! The MCTS player: only legal actions in every set, reproducible from its seed, blind
//! to the real order of the pile, within its budget, and stronger than random play.

mod common;

use carcassonne::{ChanceMode, Game, GameConfig, Phase, Rng, TileSet};
use carcassonne_session::bots::{parse_bots, Bot};
use carcassonne_session::matches::{run_match, run_match_until, MatchSpec};
use carcassonne_session::mcts::{Budget, MctsConfig};
use common::config;
use std::time::Duration;

fn mcts(iterations: u32) -> MctsConfig {
    MctsConfig::new(Budget::Iterations(iterations))
}

/// A game some way in: `decisions` random decisions from the start.
fn midgame(config: GameConfig, decisions: usize) -> Game {
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..decisions {
        if game.is_terminal() {
            break;
        }
        let legal = game.legal();
        let a = legal[rng.below(legal.len() as u32) as usize];
        game.apply(a).unwrap();
    }
    game
}

/// Whole games with every set (each with the base game, then all together; a set added
/// to the engine is covered at once), one of them in
/// explicit-chance mode, where the player is also asked for draws: every action the
/// player chooses is legal where it is chosen (`apply` refuses anything else), including
/// the decisions of The Princess & the Dragon (PD5 dragon steps, PD9 princess, PD15
/// fairy) and Abbey & Mayor (AM1 abbeys, AM6 barns, AM11 wagon moves).
#[test]
fn only_legal_actions_in_every_set() {
    let mut cases: Vec<Vec<TileSet>> = TileSet::ALL
        .iter()
        .filter(|s| **s != TileSet::Base)
        .map(|s| vec![TileSet::Base, *s])
        .collect();
    assert!(cases.len() >= 4, "the River, River II, PD and A&M at least");
    cases.push(TileSet::ALL.to_vec());
    for (k, sets) in cases.iter().enumerate() {
        let players = 2 + (k % 3) as u8;
        let chance = if k == 3 {
            ChanceMode::Explicit
        } else {
            ChanceMode::Sampled
        };
        let mut game =
            Game::with_chance(config(players, sets, (k % 2) as u8, 40 + k as u64), chance).unwrap();
        // The MCTS player at seat 0 (and for the draws), random players elsewhere: the
        // searches cover every kind of decision of seat 0, their trees every kind of
        // decision of every seat.
        let mut rng = Rng::new(k as u64);
        let mut phases = std::collections::HashSet::new();
        while !game.is_terminal() {
            phases.insert(game.phase());
            let bot = if game.phase() == Phase::Draw || game.to_play() == 0 {
                Bot::Mcts(mcts(8))
            } else {
                Bot::Random
            };
            let action = bot.choose(&game, game.legal(), &mut rng);
            if let Err(e) = game.apply(action) {
                panic!("{sets:?}: the MCTS player chose {action}: {e}");
            }
        }
        assert!(phases.contains(&Phase::PlaceTile) && phases.contains(&Phase::Deploy));
        if chance == ChanceMode::Explicit {
            assert!(phases.contains(&Phase::Draw), "{sets:?}: no draw was asked");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let game = midgame(config(2, &[TileSet::Base], 0, 5), 20);
    for threads in [1, 3] {
        let mut c = mcts(150);
        c.threads = threads;
        let a = c.search(&game, &mut Rng::new(11));
        let b = c.search(&game, &mut Rng::new(11));
        assert_eq!(a.action, b.action);
        assert_eq!(a.root, b.root, "threads {threads}");
        assert_eq!(a.nodes, b.nodes);
        // Another seed explores differently.
        let other = c.search(&game, &mut Rng::new(12));
        assert_ne!(a.root, other.root);
    }
    // A whole match replays exactly.
    let spec = MatchSpec::new(
        config(2, &[TileSet::Base], 0, 9),
        vec![Bot::Mcts(mcts(10)), Bot::Greedy],
        2,
    );
    let one = run_match(&spec, &|_, _| {}).unwrap();
    let two = run_match(&spec, &|_, _| {}).unwrap();
    let scores = |r: &carcassonne_session::matches::MatchReport| {
        r.games.iter().map(|g| g.scores.clone()).collect::<Vec<_>>()
    };
    assert_eq!(scores(&one), scores(&two));
}

/// The order of the pile is hidden: two games equal in everything but the seed of
/// their future draws get the same search.
#[test]
fn the_search_does_not_see_the_order_of_the_pile() {
    let game = midgame(config(2, &[TileSet::Base], 0, 6), 15);
    let mut other = game.clone();
    other.reseed_draws(987_654_321);
    let c = mcts(200);
    let a = c.search(&game, &mut Rng::new(4));
    let b = c.search(&other, &mut Rng::new(4));
    assert_eq!(a.root, b.root);
    assert_eq!(a.action, b.action);
}

#[test]
fn an_iteration_budget_is_kept_exactly() {
    let game = midgame(config(2, &[TileSet::Base], 0, 7), 4);
    assert!(game.legal().len() > 1);
    for (iterations, threads, widen) in [(1, 1, 0), (97, 1, 0), (100, 3, 0), (5, 8, 0), (90, 1, 15)]
    {
        let mut c = mcts(iterations);
        c.threads = threads;
        c.widen_tenths = widen;
        let report = c.search(&game, &mut Rng::new(1));
        assert_eq!(
            report.iterations,
            u64::from(iterations),
            "threads {threads}"
        );
        // Every iteration starts with exactly one root action.
        let visits: u64 = report.root.iter().map(|s| s.visits).sum();
        assert_eq!(visits, u64::from(iterations));
        assert!(game.is_legal(report.action));
    }
    // Nothing to search: a single legal action (frequent along the River, R2) is
    // returned at once.
    let mut rng = Rng::new(5);
    let mut single = None;
    'games: for seed in 0..50 {
        let mut g = Game::new(config(2, &[TileSet::Base, TileSet::River1], 0, seed)).unwrap();
        while !g.is_terminal() {
            if g.legal().len() == 1 {
                single = Some(g);
                break 'games;
            }
            let legal = g.legal();
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply(a).unwrap();
        }
    }
    let single = single.expect("a decision with a single legal action");
    let report = mcts(50).search(&single, &mut Rng::new(1));
    assert_eq!(report.iterations, 0);
    assert_eq!(report.action, single.legal()[0]);
}

#[test]
fn a_time_budget_is_kept_loosely() {
    let game = midgame(config(2, &[TileSet::Base], 0, 8), 10);
    let c = MctsConfig::new(Budget::Millis(40));
    let report = c.search(&game, &mut Rng::new(2));
    assert!(report.iterations >= 1);
    assert!(
        report.elapsed >= Duration::from_millis(40),
        "{:?}",
        report.elapsed
    );
    // The deadline is checked after every iteration; one iteration is far below a second.
    assert!(
        report.elapsed < Duration::from_secs(3),
        "{:?}",
        report.elapsed
    );
}

#[test]
fn mcts_beats_random_in_a_small_match() {
    let spec = MatchSpec::new(
        config(2, &[TileSet::Base], 0, 21),
        vec![Bot::Mcts(mcts(40)), Bot::Random],
        4,
    );
    let report = run_match(&spec, &|_, _| {}).unwrap();
    let s = report.summaries();
    assert_eq!(s[0].games, 4);
    assert!(
        s[0].wins >= 4.0,
        "MCTS won {} of 4 against random",
        s[0].wins
    );
    assert!(s[0].mean_margin > 0.0);
}

#[test]
fn specs_read_back_and_mistakes_are_named() {
    for text in [
        "mcts",
        "mcts:1",
        "mcts:2000",
        "mcts:100ms",
        "mcts:300:threads=2",
        "mcts:300:c=1.25:deploy=80",
        "mcts:300:margin=0:widen=1.5",
    ] {
        let bot = Bot::parse(text).unwrap();
        assert_eq!(Bot::parse(&bot.to_string()), Ok(bot), "{text}");
    }
    assert_eq!(Bot::parse("mcts").unwrap().to_string(), "mcts:1000");
    let err = |t: &str| Bot::parse(t).unwrap_err();
    assert!(err("mcts:0").contains("budget \"0\""));
    assert!(err("mcts:0ms").contains("milliseconds"));
    assert!(err("mcts:fast").contains("fast"));
    assert!(err("mcts:10:threads=0").contains("threads"));
    assert!(err("mcts:10:c=-1").contains("c: expected"));
    assert!(err("mcts:10:deploy=101").contains("deploy"));
    assert!(err("mcts:10:margin=x").contains("margin"));
    assert!(err("mcts:10:widen=-2").contains("widen"));
    assert!(err("mcts:10:speed=3").contains("unknown option \"speed\""));
    assert!(err("mcts:10:threads").contains("name=value"));
    assert!(err("mctsx").contains("unknown bot"));
    assert_eq!(
        parse_bots("mcts:500,greedy", 2).unwrap(),
        vec![Bot::Mcts(mcts(500)), Bot::Greedy]
    );
}

#[test]
fn matches_rotate_seats_and_check_their_spec() {
    let spec = MatchSpec::new(
        config(3, &[TileSet::Base], 0, 1),
        vec![Bot::Greedy, Bot::Random, Bot::Random],
        6,
    );
    let report = run_match(&spec, &|_, _| {}).unwrap();
    // Each deal is played from every seat: seeds 1, 1, 1, 2, 2, 2.
    let seeds: Vec<u64> = report.games.iter().map(|g| g.seed).collect();
    assert_eq!(seeds, [1, 1, 1, 2, 2, 2]);
    for s in report.summaries() {
        assert!(s.per_seat.iter().all(|r| r.games == 2), "{s:?}");
        assert!(s.interval.0 <= s.win_rate && s.win_rate <= s.interval.1);
    }
    // Shares of the win add up to one game each.
    let wins: f64 = report.summaries().iter().map(|s| s.wins).sum();
    assert!((wins - 6.0).abs() < 1e-9);
    // A match stopped by its caller (asked before every decision) ends with an error
    // that says how far it went: here it stops once two games are over.
    let finished = std::sync::atomic::AtomicU32::new(0);
    let progress = |n: u32, _: &_| finished.store(n, std::sync::atomic::Ordering::Relaxed);
    let stopped = run_match_until(&spec, &progress, &mut || {
        finished.load(std::sync::atomic::Ordering::Relaxed) < 2
    });
    assert_eq!(
        stopped.unwrap_err(),
        "the match was stopped after 2 of 6 games"
    );
    let mut bad = spec.clone();
    bad.bots.pop();
    assert!(run_match(&bad, &|_, _| {}).unwrap_err().contains("bots"));
    bad = spec.clone();
    bad.games = 0;
    assert!(run_match(&bad, &|_, _| {}).unwrap_err().contains("games"));
}

/// The first bazaar decision of a random game with Bridges, Castles & Bazaars (BZ2).
fn at_a_bazaar(phase: Phase) -> Game {
    for seed in 0..200 {
        let mut game = Game::new(config(
            3,
            &[TileSet::Base, TileSet::BridgesCastlesBazaars],
            0,
            seed,
        ))
        .unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_terminal() {
            if game.phase() == phase {
                return game;
            }
            let legal = game.legal();
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply(a).unwrap();
        }
    }
    panic!("no {phase:?} decision in 200 games");
}

/// At a bazaar the search opens and raises by at most `MAX_SEARCHED_BID` points (BZ2),
/// though higher bids are legal, and the root report still lists every legal action.
#[test]
fn the_search_bids_within_its_bound() {
    use carcassonne::Action;
    use carcassonne_session::mcts::MAX_SEARCHED_BID;
    for phase in [Phase::BazaarSelect, Phase::BazaarBid] {
        let game = at_a_bazaar(phase);
        assert!(game.legal().iter().any(|a| matches!(
            a,
            Action::BazaarSelect { bid, .. } | Action::BazaarBid { bid } if *bid > MAX_SEARCHED_BID
        )));
        for seed in 0..4 {
            let report = mcts(300).search(&game, &mut Rng::new(seed));
            assert!(game.is_legal(report.action));
            if let Action::BazaarSelect { bid, .. } | Action::BazaarBid { bid } = report.action {
                assert!(bid <= MAX_SEARCHED_BID, "{phase:?}: bid {bid}");
            }
        }
    }
}

/// A search with the largest budget, on one thread or three, stops once its caller's
/// check says no: nothing is reported (the caller answers Ctrl-C), and a match stopped in
/// the middle of such a search ends with its error.
#[test]
fn a_search_stops_when_its_caller_says_so() {
    let game = Game::new(config(2, &[TileSet::Base], 0, 5)).unwrap();
    for threads in [1, 3] {
        let mut search = mcts(Budget::MAX_ITERATIONS);
        search.threads = threads;
        let mut asked = 0;
        let report = search.search_while(&game, &mut Rng::new(1), &mut || {
            asked += 1;
            asked < 20
        });
        assert_eq!((report, asked), (None, 20), "threads {threads}");
        // Asked only true: the same report as an ordinary search.
        let mut small = mcts(200);
        small.threads = threads;
        let report = small.search_while(&game, &mut Rng::new(1), &mut || true);
        assert_eq!(
            report.map(|r| r.action),
            Some(small.search(&game, &mut Rng::new(1)).action)
        );
    }
    let spec = MatchSpec::new(
        config(2, &[TileSet::Base], 0, 1),
        vec![Bot::Mcts(mcts(Budget::MAX_ITERATIONS)), Bot::Random],
        2,
    );
    let mut asked = 0;
    let stopped = run_match_until(&spec, &|_, _| {}, &mut || {
        asked += 1;
        asked < 50
    });
    assert_eq!(
        stopped.unwrap_err(),
        "the match was stopped after 0 of 2 games"
    );
}

/// `evaluate` reports the search's own root: the same visits and means as `search` from
/// the same seed, shares that are the visits over their total, the value as the
/// visit-weighted mean reward, and the search's action as its best.
#[test]
fn an_evaluation_is_the_root_of_the_search() {
    for (k, sets) in [vec![TileSet::Base], TileSet::ALL.to_vec()]
        .iter()
        .enumerate()
    {
        let game = midgame(config(2 + k as u8, sets, 1, 21), 9 + k);
        assert!(game.legal().len() > 1);
        for threads in [1, 2] {
            let mut c = mcts(240);
            c.threads = threads;
            let report = c.search(&game, &mut Rng::new(8));
            let eval = c.evaluate(&game, &mut Rng::new(8)).unwrap();
            assert_eq!(eval.player, game.to_play());
            assert_eq!(eval.iterations, 240);
            assert_eq!(eval.actions.len(), game.legal().len());
            let total: u64 = eval.actions.iter().map(|a| a.visits).sum();
            assert_eq!(total, 240, "every iteration starts with one root action");
            let mut weighted = 0.0;
            for ((a, r), legal) in eval.actions.iter().zip(&report.root).zip(game.legal()) {
                assert_eq!((a.action, a.visits), (r.action, r.visits));
                assert_eq!(a.action, *legal, "the legal order is kept");
                assert_eq!(a.share, a.visits as f64 / 240.0);
                match a.mean_reward {
                    Some(m) => {
                        assert_eq!(m, r.mean_reward);
                        weighted += m * a.visits as f64;
                    }
                    None => assert_eq!(a.visits, 0),
                }
            }
            assert!((eval.value - weighted / 240.0).abs() < 1e-12);
            assert!((0.0..=1.0).contains(&eval.value));
            assert_eq!(eval.best().action, report.action);
            let top = eval.top(3);
            assert_eq!(top[0].visits, eval.best().visits);
            assert!(top.windows(2).all(|w| w[0].visits >= w[1].visits));
        }
    }
}

/// A decision with a single legal action is still searched for its value (the search's
/// `choose` skips it); the game over and a draw in explicit chance are nobody's
/// decision.
#[test]
fn an_evaluation_covers_forced_decisions_only_of_players() {
    // The dragon's flight (PD5) often has one square to go to.
    let sets = [TileSet::Base, TileSet::PrincessDragon];
    let mut game = Game::new(config(2, &sets, 0, 31)).unwrap();
    let mut rng = Rng::new(2);
    let mut forced = None;
    while !game.is_terminal() {
        if game.legal().len() == 1 && forced.is_none() {
            forced = Some(game.clone());
        }
        let legal = game.legal();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    assert!(mcts(10).evaluate(&game, &mut Rng::new(1)).is_none());
    let forced = forced.expect("a decision with one legal action in a whole game");
    let eval = mcts(50).evaluate(&forced, &mut Rng::new(1)).unwrap();
    assert_eq!(eval.iterations, 50);
    assert_eq!(eval.actions.len(), 1);
    assert_eq!((eval.actions[0].visits, eval.actions[0].share), (50, 1.0));
    let explicit =
        Game::with_chance(config(2, &[TileSet::Base], 0, 4), ChanceMode::Explicit).unwrap();
    assert_eq!(explicit.phase(), Phase::Draw);
    assert!(mcts(10).evaluate(&explicit, &mut Rng::new(1)).is_none());
    // The free function is the default player's evaluation.
    let start = Game::new(config(2, &[TileSet::Base], 0, 4)).unwrap();
    let free = carcassonne_session::mcts::search(&start, Budget::Iterations(60), 9).unwrap();
    let method = mcts(60).evaluate(&start, &mut Rng::new(9)).unwrap();
    assert_eq!((&free.actions, free.value), (&method.actions, method.value));
}

/// The value is the deciding player's expected reward, `½ + ½·tanh(margin / 20)` over
/// the best opponent (B17: the most points wins): at the last placement of a game, with
/// final scoring next, it is close to that reward of the margin the game ends with.
#[test]
fn the_value_follows_the_score() {
    let mut clear = 0;
    for seed in 0..16 {
        let mut game = Game::new(config(2, &[TileSet::Base], 0, 50 + seed)).unwrap();
        let mut rng = Rng::new(seed);
        let mut eval = None;
        while !game.is_terminal() {
            if game.tiles_left() == 0 && game.phase() == Phase::PlaceTile && eval.is_none() {
                eval = mcts(300).evaluate(&game, &mut Rng::new(seed));
            }
            let bot = if game.to_play() == 0 {
                Bot::Greedy
            } else {
                Bot::Random
            };
            let a = bot.choose(&game, game.legal(), &mut rng);
            game.apply(a).unwrap();
        }
        let eval = eval.expect("a last placement");
        let me = eval.player;
        let margin = game.scores()[me] - game.scores()[1 - me];
        let reward = 0.5 + 0.5 * (f64::from(margin) / 20.0).tanh();
        assert!(
            (eval.value - reward).abs() < 0.15,
            "seed {seed}: margin {margin} (reward {reward}), value {}",
            eval.value
        );
        clear += usize::from(margin.abs() >= 20);
    }
    assert!(clear >= 3, "too few games with a clear margin: {clear}");
}
