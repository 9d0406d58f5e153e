//! The guided search and its targets: visit shares that sum to 1 over the legal actions,
//! reproducible from the seed, within the budget, steered by the evaluator's priors,
//! backing up its values; clear errors for what cannot be searched and for an evaluator
//! that answers out of range; flat targets over the mask's ids.

use carcassonne::config::MAX_PLAYERS;
use carcassonne::{ChanceMode, Game, GameConfig, Phase, Rng};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::guided::{
    flat_policy, FlatEstimates, FlatEvaluator, FlatLeaves, GuidedSearch, LeafEstimate,
    LeafEvaluator, SearchError,
};
use carcassonne_session::mcts::{self, Budget, Evaluation};
use carcassonne_session::session::Session;
use std::sync::Arc;

/// A game `decisions` random decisions in (2 players, base game).
fn midgame(decisions: usize) -> Game {
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    let mut rng = Rng::new(11);
    for _ in 0..decisions {
        let legal = game.legal();
        let a = legal[rng.below(legal.len() as u32) as usize];
        game.apply(a).unwrap();
    }
    game
}

/// An evaluator with uniform priors and fixed values per seat, counting its calls and
/// the largest batch it saw.
struct Fixed {
    values: [f64; MAX_PLAYERS],
    calls: usize,
    leaves: usize,
    largest: usize,
}

impl Fixed {
    fn new(values: [f64; 2]) -> Fixed {
        let mut v = [0.5; MAX_PLAYERS];
        v[..2].copy_from_slice(&values);
        Fixed {
            values: v,
            calls: 0,
            leaves: 0,
            largest: 0,
        }
    }
}

impl LeafEvaluator for Fixed {
    fn evaluate(&mut self, games: &[Game], out: &mut [LeafEstimate]) -> Result<(), String> {
        self.calls += 1;
        self.leaves += games.len();
        self.largest = self.largest.max(games.len());
        for (game, est) in games.iter().zip(out.iter_mut()) {
            assert!(!game.is_terminal() && game.phase() != Phase::Draw);
            assert_eq!(est.priors.len(), game.legal().len());
            est.priors.fill(1.0);
            est.values = self.values;
        }
        Ok(())
    }
}

fn search(iterations: u32, batch: u32) -> GuidedSearch {
    GuidedSearch {
        batch,
        ..GuidedSearch::new(Budget::Iterations(iterations))
    }
}

fn share_sum(eval: &Evaluation) -> f64 {
    eval.actions.iter().map(|a| a.share).sum()
}

#[test]
fn shares_cover_the_legal_actions_and_the_budget_is_kept() {
    let game = midgame(6);
    let mut fixed = Fixed::new([0.7, 0.3]);
    let eval = search(200, 16).evaluate(&game, 5, &mut fixed).unwrap();
    assert_eq!(eval.iterations, 200);
    assert_eq!(eval.actions.len(), game.legal().len());
    for (a, legal) in eval.actions.iter().zip(game.legal()) {
        assert_eq!(a.action, *legal, "the report keeps the legal order");
    }
    assert!((share_sum(&eval) - 1.0).abs() < 1e-9);
    let visits: u64 = eval.actions.iter().map(|a| a.visits).sum();
    assert_eq!(visits, 200, "every iteration passes one root edge");
    // The root and one leaf per iteration that did not end the game, in batches of at
    // most 16: nothing finishes this early in a game.
    assert_eq!(fixed.leaves, 201);
    assert!(
        fixed.largest <= 16 && fixed.largest > 1,
        "{}",
        fixed.largest
    );
    assert!(
        fixed.calls > 200 / 16,
        "the root, then batches of at most 16"
    );
}

#[test]
fn the_values_backed_up_are_the_evaluators() {
    let game = midgame(4);
    let mut fixed = Fixed::new([0.8, 0.2]);
    let eval = search(100, 8).evaluate(&game, 1, &mut fixed).unwrap();
    assert!((eval.values[0] - 0.8).abs() < 1e-9, "{:?}", eval.values);
    assert!((eval.values[1] - 0.2).abs() < 1e-9, "{:?}", eval.values);
    assert_eq!(eval.value, eval.values[game.to_play()]);
}

#[test]
fn the_same_seed_gives_the_same_search() {
    let game = midgame(8);
    let run = |seed| {
        search(150, 8)
            .evaluate(&game, seed, &mut Fixed::new([0.5, 0.5]))
            .unwrap()
    };
    let (a, b) = (run(3), run(3));
    let visits = |e: &Evaluation| e.actions.iter().map(|a| a.visits).collect::<Vec<_>>();
    assert_eq!(visits(&a), visits(&b));
    assert_eq!(a.values, b.values);
}

#[test]
fn priors_steer_the_search() {
    // Every prior on the last legal action of every decision, an even game everywhere:
    // PUCT spends the visits on that action.
    let game = midgame(2);
    let mut last_only = |games: &[Game], out: &mut [LeafEstimate]| -> Result<(), String> {
        for est in out.iter_mut().take(games.len()) {
            let n = est.priors.len();
            est.priors[n - 1] = 1.0;
        }
        Ok(())
    };
    let eval = search(300, 4).evaluate(&game, 2, &mut last_only).unwrap();
    let last = eval.actions.last().unwrap();
    assert!(
        last.share > 0.9,
        "share of the favoured action: {}",
        last.share
    );
    assert_eq!(eval.best().action, *game.legal().last().unwrap());
}

#[test]
fn what_cannot_be_searched_is_refused_clearly() {
    let mut fixed = Fixed::new([0.5, 0.5]);
    let mut over = midgame(0);
    let mut rng = Rng::new(1);
    while !over.is_terminal() {
        let legal = over.legal();
        over.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    assert_eq!(
        search(10, 1).evaluate(&over, 0, &mut fixed),
        Err(SearchError::GameOver)
    );
    let mut explicit = Game::new(GameConfig::new(2)).unwrap();
    explicit.set_chance_mode(ChanceMode::Explicit);
    let draw = loop {
        if explicit.phase() == Phase::Draw {
            break explicit;
        }
        let a = explicit.legal()[0];
        explicit.apply(a).unwrap();
    };
    assert_eq!(
        search(10, 1).evaluate(&draw, 0, &mut fixed),
        Err(SearchError::ChanceNode)
    );
    let game = midgame(1);
    let zero = search(0, 1).evaluate(&game, 0, &mut fixed).unwrap_err();
    assert!(zero.to_string().contains("budget: 0 iterations"), "{zero}");
    let batch = search(10, 0).evaluate(&game, 0, &mut fixed).unwrap_err();
    assert!(batch.to_string().contains("batch: 0"), "{batch}");
    assert_eq!(fixed.calls, 0, "nothing was evaluated");
}

#[test]
fn an_evaluator_out_of_range_is_named() {
    let game = midgame(3);
    let run = |f: &mut dyn FnMut(&mut LeafEstimate)| {
        let mut evaluator = |games: &[Game], out: &mut [LeafEstimate]| -> Result<(), String> {
            for est in out.iter_mut().take(games.len()) {
                est.priors.fill(1.0);
                f(est);
            }
            Ok(())
        };
        search(10, 2)
            .evaluate(&game, 0, &mut evaluator)
            .unwrap_err()
            .to_string()
    };
    let nan = run(&mut |e| e.priors[1] = f32::NAN);
    assert!(nan.contains("leaf 0: prior 1 is NaN"), "{nan}");
    let negative = run(&mut |e| e.priors[0] = -1.0);
    assert!(negative.contains("prior 0 is -1"), "{negative}");
    let short = run(&mut |e| {
        e.priors.pop();
    });
    assert!(short.contains("priors for"), "{short}");
    let value = run(&mut |e| e.values[1] = 2.0);
    assert!(value.contains("the value of seat 1 is 2"), "{value}");
    let mut failing = |_: &[Game], _: &mut [LeafEstimate]| -> Result<(), String> {
        Err("the network is not loaded".into())
    };
    assert_eq!(
        search(10, 2).evaluate(&game, 0, &mut failing),
        Err(SearchError::Evaluator("the network is not loaded".into()))
    );
}

#[test]
fn the_playout_search_reports_every_seats_value() {
    // The margin reward of two players sums to 1 (½ ± ½·tanh of opposite margins).
    let game = midgame(10);
    let eval = mcts::search(&game, Budget::Iterations(120), 4).unwrap();
    assert_eq!(eval.values.len(), 2);
    assert!(
        (eval.values[0] + eval.values[1] - 1.0).abs() < 1e-9,
        "{:?}",
        eval.values
    );
    assert!((eval.values[game.to_play()] - eval.value).abs() < 1e-9);
}

fn compact(game: &Game, window: u16) -> Arc<Layout> {
    Arc::new(Layout::new(
        EncoderSpec::new(window).unwrap(),
        Preset::Compact,
        game.config(),
    ))
}

#[test]
fn flat_evaluators_read_observations_and_write_relative_values() {
    // Seat 1 decides: the value of relative seat 0 is seat 1's.
    let mut game = midgame(2);
    while game.to_play() != 1 {
        let a = game.legal()[0];
        game.apply(a).unwrap();
    }
    let layout = compact(&game, 16);
    let (a_len, p_len) = (layout.num_actions(), layout.planes_len());
    let mut session = Session::with_layout(game.clone(), layout.clone());
    let mut mask = vec![0i8; a_len];
    session.legal_mask(&mut mask).unwrap();
    let favourite = mask.iter().rposition(|m| *m == 1).unwrap();
    let mut seen = 0;
    let mut evaluator = FlatEvaluator::new(
        layout.clone(),
        |leaves: &FlatLeaves<'_>, est: &mut FlatEstimates<'_>| -> Result<(), String> {
            assert_eq!(leaves.planes.len(), leaves.count * p_len);
            assert_eq!(&leaves.masks[..a_len], &mask[..]);
            seen += leaves.count;
            est.priors[favourite] = 0.5;
            est.values[0] = 0.9;
            Ok(())
        },
    );
    let mut out = vec![LeafEstimate {
        priors: vec![0.0; game.legal().len()],
        values: [0.5; MAX_PLAYERS],
    }];
    evaluator
        .evaluate(std::slice::from_ref(&game), &mut out)
        .unwrap();
    assert_eq!(seen, 1);
    assert!((out[0].values[1] - 0.9).abs() < 1e-6);
    assert!(
        (out[0].values[0] - 0.1).abs() < 1e-6,
        "the other seat gets 1 - v"
    );
    let favoured = session.decode(favourite as u32).unwrap();
    for (a, p) in game.legal().iter().zip(&out[0].priors) {
        let expected = if carcassonne_session::encode::FlatDecision::Action(*a) == favoured {
            0.5
        } else {
            0.0
        };
        assert_eq!(*p, expected, "{a:?}");
    }
}

#[test]
fn flat_targets_sum_to_one_over_the_mask() {
    let game = midgame(5);
    let layout = compact(&game, 24);
    let mut session = Session::with_layout(game.clone(), layout.clone());
    let eval = mcts::search(&game, Budget::Iterations(200), 9).unwrap();
    let mut policy = vec![0f32; layout.num_actions()];
    let covered = flat_policy(&mut session, &eval, &mut policy).unwrap();
    assert_eq!(
        covered, 1.0,
        "the window holds every square of the decision"
    );
    let mut mask = vec![0i8; layout.num_actions()];
    session.legal_mask(&mut mask).unwrap();
    let total: f32 = policy.iter().sum();
    assert!((total - 1.0).abs() < 1e-5);
    for (id, (p, m)) in policy.iter().zip(&mask).enumerate() {
        assert!(*m == 1 || *p == 0.0, "id {id} is not offered but has {p}");
    }
    // Each id carries its action's share (one-step actions in the base game).
    for a in &eval.actions {
        let id = session.flat_path(a.action).unwrap().first as usize;
        assert!((f64::from(policy[id]) - a.share).abs() < 1e-6);
    }
    let short = flat_policy(&mut session, &eval, &mut policy[1..]).unwrap_err();
    assert!(short.to_string().contains("policy"), "{short}");
}

#[test]
fn a_network_guided_search_runs_through_the_flat_evaluator() {
    let game = midgame(7);
    let layout = compact(&game, 16);
    let mut calls = 0;
    let mut evaluator = FlatEvaluator::new(
        layout,
        |leaves: &FlatLeaves<'_>, est: &mut FlatEstimates<'_>| -> Result<(), String> {
            calls += 1;
            // The mask as the prior, an even game.
            for (p, m) in est.priors.iter_mut().zip(leaves.masks) {
                *p = f32::from(*m);
            }
            for v in est.values.chunks_mut(2) {
                v[0] = 0.5;
            }
            Ok(())
        },
    );
    let eval = search(64, 8).evaluate(&game, 3, &mut evaluator).unwrap();
    assert_eq!(eval.iterations, 64);
    assert!((share_sum(&eval) - 1.0).abs() < 1e-9);
    drop(evaluator);
    assert!(calls > 64 / 8, "the root, then batches of at most 8");
}

/// Searches `game` with `settings` (120 iterations, a mix in the leaves' values) and an
/// evaluator saying 0.9 for both seats; checks that the two seats' mean values sum to
/// `sum`, that the evaluator saw the root and every leaf, and that the shares sum to 1.
fn search_with_a_mix(game: &Game, settings: &GuidedSearch, sum: f64) -> Evaluation {
    let mut fixed = Fixed::new([0.9, 0.9]);
    let eval = settings.evaluate(game, 7, &mut fixed).unwrap();
    assert!(
        (eval.values[0] + eval.values[1] - sum).abs() < 1e-9,
        "{settings:?}: {:?}",
        eval.values
    );
    assert_eq!(fixed.leaves, 121, "the evaluator still sees every leaf");
    assert!((share_sum(&eval) - 1.0).abs() < 1e-9);
    eval
}

#[test]
fn a_playout_weighs_into_every_leafs_value() {
    // The evaluator says 0.9 for both seats (sum 1.8); a finished game's margin reward
    // of two players sums to 1 (½ ± ½·tanh of opposite margins). With playout weight w
    // every backed-up leaf, and so the mean, sums to (1 − w)·1.8 + w·1.
    let game = midgame(12);
    for (percent, sum) in [(0u8, 1.8), (50, 1.4), (100, 1.0)] {
        let settings = GuidedSearch {
            playout_percent: percent,
            margin_percent: 100,
            ..search(120, 8)
        };
        let eval = search_with_a_mix(&game, &settings, sum);
        let again = settings
            .evaluate(&game, 7, &mut Fixed::new([0.9, 0.9]))
            .unwrap();
        assert_eq!(again.values, eval.values, "the playouts follow the seed");
    }
    // With the outcome as the reward (B17: 1 a win, ½ each for a shared win, 0 a loss)
    // a playout-only leaf is worth 0, ½ or 1 to a seat.
    let outcome_only = GuidedSearch {
        playout_percent: 100,
        ..search(40, 1)
    };
    let eval = outcome_only
        .evaluate(&game, 2, &mut Fixed::new([0.9, 0.9]))
        .unwrap();
    let once: Vec<f64> = eval
        .actions
        .iter()
        .filter(|a| a.visits == 1)
        .map(|a| a.mean_reward.unwrap())
        .collect();
    assert!(!once.is_empty(), "40 iterations try some actions once");
    for r in once {
        assert!(r == 0.0 || r == 0.5 || r == 1.0, "{r}");
    }
    let err = refusal(
        &GuidedSearch {
            playout_percent: 101,
            ..search(10, 1)
        },
        &game,
    );
    assert!(err.contains("playout: 101"), "{err}");
}

/// The error `settings` are refused with, as text, before anything is evaluated.
fn refusal(settings: &GuidedSearch, game: &Game) -> String {
    settings
        .evaluate(game, 0, &mut Fixed::new([0.5, 0.5]))
        .unwrap_err()
        .to_string()
}

#[test]
fn the_standings_weigh_into_every_leafs_value() {
    // As with a playout: two seats' margin rewards sum to 1, the evaluator's to 1.8.
    let game = midgame(12);
    for (percent, sum) in [(50u8, 1.4), (100, 1.0)] {
        let settings = GuidedSearch {
            standing_percent: percent,
            margin_percent: 100,
            ..search(120, 8)
        };
        search_with_a_mix(&game, &settings, sum);
    }
    // One iteration: the leaf after the placement the search tried is the placing seat's
    // deployment; settled by passing, its standings (the points so far and the final
    // scoring of the board, B15, B16) are that leaf's whole value with weight 100 %.
    let mut placing = midgame(12);
    while placing.phase() != Phase::PlaceTile {
        let legal = placing.legal();
        placing.apply(legal[legal.len() - 1]).unwrap();
    }
    let me = placing.to_play();
    let one = GuidedSearch {
        standing_percent: 100,
        margin_percent: 100,
        ..search(1, 1)
    };
    let eval = one
        .evaluate(&placing, 3, &mut Fixed::new([0.9, 0.9]))
        .unwrap();
    let tried = eval.actions.iter().find(|a| a.visits == 1).unwrap();
    let mut settled = placing.clone();
    settled.apply(tried.action).unwrap();
    while settled.to_play() == me && settled.phase() == Phase::Deploy {
        settled.apply(carcassonne::Action::Pass).unwrap();
    }
    let standings = settled.scores_if_ended_now();
    let margin = f64::from(standings[me] - standings[1 - me]);
    let expected = 0.5 + 0.5 * (margin / 20.0).tanh();
    assert!(
        (tried.mean_reward.unwrap() - expected).abs() < 1e-9,
        "{:?} against {expected} (standings {standings:?})",
        tried.mean_reward
    );
    let err = refusal(
        &GuidedSearch {
            standing_percent: 101,
            ..search(10, 1)
        },
        &game,
    );
    assert!(err.contains("standing: 101"), "{err}");
}

#[test]
fn the_standings_weight_moves_with_the_tiles_placed() {
    // From 0 at the start of the game to 100 % at its end, the weight at a leaf is the
    // share p of the tiles placed there (board over board plus pile), so each leaf's two
    // values sum to (1 − p)·1.8 + p·1; the leaves of 120 iterations lie a few tiles past
    // the root, so the mean sum lies between those of the root's share and a few more.
    let game = midgame(40);
    let share = |extra: f64| {
        let placed = game.board().len() as f64 + extra;
        placed / (game.board().len() as f64 + f64::from(game.tiles_left()))
    };
    let settings = GuidedSearch {
        standing_percent: 0,
        standing_end_percent: Some(100),
        margin_percent: 100,
        ..search(120, 8)
    };
    let eval = settings
        .evaluate(&game, 7, &mut Fixed::new([0.9, 0.9]))
        .unwrap();
    let sum = eval.values[0] + eval.values[1];
    let (low, high) = (1.8 - 0.8 * share(4.0), 1.8 - 0.8 * share(0.0));
    assert!(low <= sum && sum <= high, "{sum} outside {low}..{high}");
    assert!(share(0.0) > 0.3, "the root is well into the game");
    // The same start and end weights are the constant weight.
    let constant = GuidedSearch {
        standing_percent: 50,
        margin_percent: 100,
        ..search(120, 8)
    };
    let same = GuidedSearch {
        standing_end_percent: Some(50),
        ..constant
    };
    let a = constant
        .evaluate(&game, 3, &mut Fixed::new([0.9, 0.9]))
        .unwrap();
    let b = same
        .evaluate(&game, 3, &mut Fixed::new([0.9, 0.9]))
        .unwrap();
    assert_eq!(a.values, b.values);
    let err = refusal(
        &GuidedSearch {
            standing_end_percent: Some(120),
            ..search(10, 1)
        },
        &game,
    );
    assert!(err.contains("standing_end: 120"), "{err}");
}
