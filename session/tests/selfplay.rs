//! Self-play rows: each row is the observation and mask the encoder writes at that step of
//! the game (checked by replaying the game's actions), its policy sums to 1 over the mask
//! and covers the action played, its outcome is the deciding seat's by the final scores
//! (B17: the most points wins, a tie shares the win); the rows depend on the seed, not on
//! the threads; guided searches, stops and errors.

use carcassonne::{Game, GameConfig, TileSet};
use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
use carcassonne_session::guided::{GuidedSearch, LeafEstimate, LeafEvaluator, SearchError};
use carcassonne_session::mcts::{Budget, MctsConfig};
use carcassonne_session::selfplay::{Rows, Searcher, SelfPlay};
use carcassonne_session::session::Session;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn layout(config: &GameConfig, window: u16) -> Arc<Layout> {
    Arc::new(Layout::new(
        EncoderSpec::new(window).unwrap(),
        Preset::Compact,
        config,
    ))
}

fn playouts(iterations: u32) -> Searcher<'static> {
    Searcher::Playouts(MctsConfig::new(Budget::Iterations(iterations)))
}

/// Replays every game of `rows` and checks each row against the step it came from.
fn check_rows(config: &GameConfig, layout: &Arc<Layout>, rows: &Rows) {
    let (p_len, g_len, a_len) = (rows.planes_len, rows.num_globals, rows.num_actions);
    assert_eq!(rows.planes.len(), rows.len() * p_len);
    assert_eq!(rows.globals.len(), rows.len() * g_len);
    assert_eq!(rows.masks.len(), rows.len() * a_len);
    assert_eq!(rows.policies.len(), rows.len() * a_len);
    let mut k = 0;
    let mut planes = vec![0u8; p_len];
    let mut globals = vec![0f32; g_len];
    let mut mask = vec![0i8; a_len];
    for (g, actions) in rows.actions.iter().enumerate() {
        let mut c = config.clone();
        c.seed = rows.seeds[g];
        let mut session = Session::with_layout(Game::new(c).unwrap(), layout.clone());
        // The row of the step `session` is at, if the step gives one.
        let mut expect_row = |session: &mut Session, played: Option<u32>| {
            let info = session.legal_mask(&mut mask).unwrap();
            if info.offered == 0 {
                return;
            }
            let player = session.game().to_play();
            session.observe(player, &mut planes, &mut globals).unwrap();
            assert_eq!(rows.game_index[k] as usize, g);
            assert_eq!(rows.players[k] as usize, player, "row {k}");
            assert_eq!(
                &rows.planes[k * p_len..(k + 1) * p_len],
                &planes[..],
                "row {k}"
            );
            assert_eq!(
                &rows.globals[k * g_len..(k + 1) * g_len],
                &globals[..],
                "row {k}"
            );
            assert_eq!(
                &rows.masks[k * a_len..(k + 1) * a_len],
                &mask[..],
                "row {k}"
            );
            let policy = &rows.policies[k * a_len..(k + 1) * a_len];
            let total: f32 = policy.iter().sum();
            assert!(
                (total - 1.0).abs() < 1e-4,
                "row {k}: policy sums to {total}"
            );
            for (id, (p, m)) in policy.iter().zip(&mask).enumerate() {
                assert!(*p >= 0.0 && (*m == 1 || *p == 0.0), "row {k}, id {id}");
            }
            if let Some(id) = played {
                assert!(
                    policy[id as usize] > 0.0,
                    "row {k}: the played id had visits"
                );
            }
            let v = rows.search_values[k];
            assert!((0.0..=1.0).contains(&v));
            k += 1;
        };
        for &action in actions {
            let game = session.game();
            if game.is_terminal() {
                panic!("game {g}: actions after the end");
            }
            if game.legal().len() > 1 && game.phase() != carcassonne::Phase::Draw {
                match session.flat_path(action) {
                    Some(path) => {
                        expect_row(&mut session, Some(path.first));
                        if let Some(second) = path.second {
                            session.step(path.first).unwrap();
                            expect_row(&mut session, Some(second));
                            session.step(second).unwrap();
                        } else {
                            session.step(path.first).unwrap();
                        }
                    }
                    None => {
                        expect_row(&mut session, None);
                        session.apply(action).unwrap();
                    }
                }
            } else {
                session.apply(action).unwrap();
            }
        }
        let game = session.game();
        assert!(game.is_terminal(), "game {g} was played to its end");
        assert_eq!(game.scores(), &rows.scores[g][..]);
    }
    assert_eq!(k, rows.len(), "every row was matched");
    // Outcomes and margins from the final scores (B17).
    for k in 0..rows.len() {
        let scores = &rows.scores[rows.game_index[k] as usize];
        let p = rows.players[k] as usize;
        let best = *scores.iter().max().unwrap();
        let sharing = scores.iter().filter(|s| **s == best).count() as f32;
        let expected = if scores[p] == best {
            1.0 / sharing
        } else {
            0.0
        };
        assert_eq!(rows.outcomes[k], expected, "row {k}");
        let other = (0..scores.len())
            .filter(|q| *q != p)
            .map(|q| scores[q])
            .max()
            .unwrap();
        assert_eq!(rows.margins[k], scores[p] - other, "row {k}");
    }
}

#[test]
fn rows_are_the_steps_of_the_games_played() {
    let config = GameConfig::new(2);
    let layout = layout(&config, 24);
    let mut selfplay = SelfPlay::new(config.clone(), layout.clone(), playouts(12));
    selfplay.games = 2;
    selfplay.seed = 4;
    selfplay.sample_moves = 10;
    let rows = selfplay.run(&mut || true).unwrap();
    assert_eq!(rows.actions.len(), 2);
    assert!(rows.len() > 100, "{} rows", rows.len());
    check_rows(&config, &layout, &rows);
}

#[test]
fn two_step_decisions_give_a_row_per_step() {
    // The fairy (PD15) and the princess (PD9) take a CELL id, then a SLOT id.
    let mut config = GameConfig::new(3);
    config.sets.push(TileSet::PrincessDragon);
    let layout = layout(&config, 24);
    let mut selfplay = SelfPlay::new(config.clone(), layout.clone(), playouts(6));
    selfplay.seed = 2;
    let rows = selfplay.run(&mut || true).unwrap();
    check_rows(&config, &layout, &rows);
    let slot_base = layout
        .id_blocks()
        .iter()
        .find(|b| b.name == "slot")
        .unwrap()
        .start;
    let cell_base = layout
        .id_blocks()
        .iter()
        .find(|b| b.name == "cell")
        .unwrap()
        .start;
    let a = rows.num_actions;
    let second_steps = (0..rows.len())
        .filter(|k| {
            // A step that offers only SLOT ids after a step that offered a CELL id.
            let mask = &rows.masks[k * a..(k + 1) * a];
            k > &0
                && mask
                    .iter()
                    .enumerate()
                    .all(|(id, m)| *m == 0 || id >= slot_base)
                && rows.masks[(k - 1) * a..k * a]
                    .iter()
                    .enumerate()
                    .any(|(id, m)| *m == 1 && (cell_base..slot_base).contains(&id))
        })
        .count();
    assert!(second_steps > 0, "the game had no two-step decision played");
}

#[test]
fn the_rows_depend_on_the_seed_not_on_the_threads() {
    let config = GameConfig::new(2);
    let layout = layout(&config, 16);
    let run = |threads, seed| {
        let mut selfplay = SelfPlay::new(config.clone(), layout.clone(), playouts(4));
        selfplay.games = 3;
        selfplay.threads = threads;
        selfplay.seed = seed;
        selfplay.run(&mut || true).unwrap()
    };
    let one = run(1, 7);
    assert_eq!(one, run(2, 7));
    assert_eq!(one.game_index.first(), Some(&0));
    assert_eq!(one.game_index.last(), Some(&2));
    let other = run(1, 8);
    assert_ne!(one.seeds, other.seeds);
    assert_ne!(one.actions, other.actions);
}

/// An evaluator with uniform priors and an even game, counting the leaves it saw.
struct Counting<'a>(&'a AtomicUsize);

impl LeafEvaluator for Counting<'_> {
    fn evaluate(&mut self, games: &[Game], out: &mut [LeafEstimate]) -> Result<(), String> {
        self.0.fetch_add(games.len(), Ordering::Relaxed);
        for est in out.iter_mut() {
            est.priors.fill(1.0);
        }
        Ok(())
    }
}

#[test]
fn a_guided_search_plays_with_an_evaluator_per_thread() {
    let config = GameConfig::new(2);
    let layout = layout(&config, 16);
    let leaves = AtomicUsize::new(0);
    let made = AtomicUsize::new(0);
    let make = |_thread: usize| -> Box<dyn LeafEvaluator + '_> {
        made.fetch_add(1, Ordering::Relaxed);
        Box::new(Counting(&leaves))
    };
    let search = GuidedSearch {
        batch: 4,
        ..GuidedSearch::new(Budget::Iterations(8))
    };
    let mut selfplay = SelfPlay::new(
        config.clone(),
        layout.clone(),
        Searcher::Guided(search, &make),
    );
    selfplay.games = 2;
    selfplay.threads = 2;
    let rows = selfplay.run(&mut || true).unwrap();
    check_rows(&config, &layout, &rows);
    assert_eq!(made.load(Ordering::Relaxed), 2, "one evaluator per thread");
    // The root and at most 8 leaves per searched decision; every row's decision searched.
    let n = leaves.load(Ordering::Relaxed);
    assert!(
        n > rows.len() && n <= 9 * rows.len(),
        "{n} leaves for {} rows",
        rows.len()
    );
}

#[test]
fn stops_and_errors_end_the_run() {
    let config = GameConfig::new(2);
    let layout = layout(&config, 16);
    let mut selfplay = SelfPlay::new(config.clone(), layout.clone(), playouts(4));
    selfplay.games = 4;
    selfplay.threads = 2;
    let mut asked = 0;
    let stopped = selfplay.run(&mut || {
        asked += 1;
        asked < 20
    });
    assert_eq!(stopped, Err(SearchError::Stopped));
    selfplay.threads = 0;
    let threads = selfplay.run(&mut || true).unwrap_err().to_string();
    assert!(threads.contains("threads: 0"), "{threads}");
    let failing = |_: usize| -> Box<dyn LeafEvaluator> {
        Box::new(|_: &[Game], _: &mut [LeafEstimate]| -> Result<(), String> {
            Err("no network".to_string())
        })
    };
    let guided = SelfPlay {
        threads: 2,
        games: 3,
        ..SelfPlay::new(
            config,
            layout,
            Searcher::Guided(GuidedSearch::new(Budget::Iterations(4)), &failing),
        )
    };
    assert_eq!(
        guided.run(&mut || true),
        Err(SearchError::Evaluator("no network".into()))
    );
}
