//! The batch engine (`carcassonne_session::vector`): self-play and single-agent batches
//! play whole episodes with rewards that sum to the final scores, every game equals the
//! same game played alone through a `Session`, seeds follow their streams, the
//! autoreset modes, the illegal-id policies and the outside-window policy do what they
//! say, threads change nothing, a saved state continues identically and a contradictory
//! one is refused, an interrupted call needs a reset, and bad buffers and settings are
//! refused.
mod common;

use carcassonne::tiles::TileSet;
use carcassonne::{Game, GameConfig};
use carcassonne_session::bots::Bot;
use carcassonne_session::encode::{EncoderSpec, Layout, Preset, RewardMode};
use carcassonne_session::session::Session;
use carcassonne_session::vector::*;
use common::config;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

fn settings(c: GameConfig, window: u16, preset: Preset) -> BatchSettings {
    let spec = EncoderSpec::new(window).unwrap();
    let layout = Arc::new(Layout::new(spec, preset, &c));
    BatchSettings::new(c, layout)
}

/// The `pick`-th offered id of each game's mask (a deterministic choice).
fn offered_ids(batch: &Batch, bufs: &OwnedBuffers, pick: usize) -> Vec<i64> {
    let a = batch.settings().layout.num_actions();
    bufs.mask
        .chunks(a)
        .map(|m| {
            let ids: Vec<usize> = (0..a).filter(|i| m[*i] == 1).collect();
            if ids.is_empty() {
                0
            } else {
                ids[(pick * 7 + 3) % ids.len()] as i64
            }
        })
        .collect()
}

/// Steps `batch` `steps` times with offered ids; returns per env the finished
/// episodes' (final scores, returns, lengths).
type Episode = (Vec<i32>, Vec<f32>, i32);

fn play(batch: &mut Batch, bufs: &mut OwnedBuffers, steps: usize) -> Vec<Vec<Episode>> {
    let n = batch.num_envs();
    let p = batch.settings().players();
    let mut done = vec![Vec::new(); n];
    for k in 0..steps {
        let ids = offered_ids(batch, bufs, k);
        let ids = batch.check_actions(&ids).unwrap();
        batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
        for (i, d) in done.iter_mut().enumerate() {
            if bufs.terminated[i] || bufs.truncated[i] {
                d.push((
                    bufs.final_scores[i * p..(i + 1) * p].to_vec(),
                    bufs.episode_returns[i * p..(i + 1) * p].to_vec(),
                    bufs.episode_lengths[i],
                ));
            } else {
                assert_eq!(
                    bufs.episode_lengths[i], 0,
                    "episode rows are zero between ends"
                );
            }
        }
    }
    done
}

/// Score rewards of a self-play episode sum, per seat, to the final scores (B12 and
/// every other scoring rule: the engine's final scores), and the episode length counts
/// its steps.
#[test]
fn self_play_returns_sum_to_the_final_scores() {
    for c in [
        config(2, &[TileSet::Base], 0, 3),
        config(
            3,
            &[
                TileSet::Base,
                TileSet::PrincessDragon,
                TileSet::BridgesCastlesBazaars,
            ],
            1,
            4,
        ),
    ] {
        let mut batch = Batch::new(settings(c, 24, Preset::Full), 3, 1).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        let episodes = play(&mut batch, &mut bufs, 1500);
        assert!(
            episodes.iter().all(|e| !e.is_empty()),
            "every game played an episode"
        );
        for (scores, returns, length) in episodes.into_iter().flatten() {
            assert!(length > 0);
            for (s, r) in scores.iter().zip(&returns) {
                assert!(
                    (*s as f32 - r).abs() < 1e-3,
                    "scores {scores:?}, returns {returns:?}"
                );
            }
        }
    }
}

/// Each game of a batch is the game its seed plays alone: replaying the ids the batch
/// took through a lone `Session` gives the same masks and observations.
#[test]
fn every_game_is_the_game_its_seed_plays_alone() {
    let c = config(2, &[TileSet::Base, TileSet::AbbeyMayor], 1, 9);
    let s = settings(c.clone(), 20, Preset::Compact);
    let layout = s.layout.clone();
    let mut batch = Batch::new(s, 2, 1).unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    let seeds = batch.episode_seeds();
    assert_eq!(seeds, [episode_seed(9, 0, 0), episode_seed(9, 1, 0)]);
    let mut alone: Vec<Session> = seeds
        .iter()
        .map(|&seed| {
            let mut c = c.clone();
            c.seed = seed;
            Session::with_layout(Game::new(c).unwrap(), layout.clone())
        })
        .collect();
    let (a, pl, gl) = (
        layout.num_actions(),
        layout.planes_len(),
        layout.num_globals(),
    );
    let mut mask = vec![0i8; a];
    let (mut planes, mut globals) = (vec![0u8; pl], vec![0f32; gl]);
    for k in 0..60 {
        for (i, session) in alone.iter_mut().enumerate() {
            session.legal_mask(&mut mask).unwrap();
            assert_eq!(mask, bufs.mask[i * a..(i + 1) * a], "step {k}, env {i}");
            let seat = session.game().to_play();
            assert_eq!(bufs.to_play[i], seat as i32);
            session.observe(seat, &mut planes, &mut globals).unwrap();
            assert_eq!(planes, bufs.board[i * pl..(i + 1) * pl]);
            assert_eq!(globals, bufs.globals[i * gl..(i + 1) * gl]);
        }
        let ids = offered_ids(&batch, &bufs, k);
        for (session, id) in alone.iter_mut().zip(&ids) {
            session.step(*id as u32).unwrap();
        }
        let ids = batch.check_actions(&ids).unwrap();
        batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
        assert!(
            !bufs.terminated.iter().any(|t| *t),
            "a game ends later than step 60"
        );
    }
}

/// With an opponent, only the learner's decisions are returned (its seat to play), the
/// learner seat drawn per episode when not fixed.
#[test]
fn single_agent_returns_the_learners_decisions() {
    for learner in [Some(1), None] {
        let mut s = settings(config(3, &[TileSet::Base], 0, 5), 24, Preset::InPlay);
        s.opponent = Some(Bot::Greedy);
        s.learner_seat = learner;
        let mut batch = Batch::new(s, 4, 2).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        for k in 0..120 {
            let seats = batch.learner_seats();
            for (i, seat) in seats.iter().enumerate() {
                assert_eq!(bufs.to_play[i], *seat as i32);
                let game = batch.session(i).unwrap().game();
                assert!(game.is_terminal() || game.to_play() == *seat as usize);
                if let Some(l) = learner {
                    assert_eq!(*seat, l);
                }
            }
            let ids = batch.check_actions(&offered_ids(&batch, &bufs, k)).unwrap();
            batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
        }
    }
}

/// Threads split the games, nothing else: one thread and three give the same outputs.
#[test]
fn threads_change_nothing() {
    let c = config(2, &[TileSet::Base, TileSet::Count], 0, 11);
    let run = |threads| {
        let mut batch = Batch::new(settings(c.clone(), 16, Preset::Full), 5, threads).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        play(&mut batch, &mut bufs, 150);
        (
            bufs.mask,
            bufs.board,
            bufs.globals,
            bufs.rewards,
            batch.episode_seeds(),
        )
    };
    assert!(run(1) == run(3));
}

/// A board kept between calls (`StepBuffers::board_kept`) is rewritten only in the planes
/// that change: at every step, through episode ends and automatic resets, it equals the
/// board of a batch that clears every row in full; a row at another address (a buffer
/// full of garbage) is cleared in full all the same.
#[test]
fn a_kept_board_equals_a_board_written_in_full() {
    let c = config(3, &[TileSet::Base, TileSet::PrincessDragon], 0, 21);
    let make = || {
        let mut batch = Batch::new(settings(c.clone(), 16, Preset::Full), 3, 1).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        (batch, bufs)
    };
    let (mut kept, mut kept_bufs) = make();
    let (mut full, mut full_bufs) = make();
    let mut episodes_ended = 0;
    for k in 0..400 {
        let ids = offered_ids(&full, &full_bufs, k);
        let checked = full.check_actions(&ids).unwrap();
        full.step(&checked, full_bufs.view(), &NoInterrupt).unwrap();
        let checked = kept.check_actions(&ids).unwrap();
        let view = StepBuffers {
            board_kept: true,
            ..kept_bufs.view()
        };
        kept.step(&checked, view, &NoInterrupt).unwrap();
        assert!(kept_bufs.board == full_bufs.board, "step {k}");
        episodes_ended += full_bufs.terminated.iter().filter(|t| **t).count();
    }
    assert!(episodes_ended >= 3, "the run crosses automatic resets");
    // Another buffer, full of garbage: nothing of it survives the next step.
    let mut moved = vec![0xA5u8; kept_bufs.board.len()];
    let ids = offered_ids(&full, &full_bufs, 0);
    let checked = full.check_actions(&ids).unwrap();
    full.step(&checked, full_bufs.view(), &NoInterrupt).unwrap();
    let checked = kept.check_actions(&ids).unwrap();
    let view = StepBuffers {
        board: Some(&mut moved),
        board_kept: true,
        ..kept_bufs.view()
    };
    kept.step(&checked, view, &NoInterrupt).unwrap();
    assert!(moved == full_bufs.board);
}

/// Autoreset: same-step writes the next episode's first observation in the ending step;
/// next-step writes the final one and restarts in the next step (whose id is ignored);
/// disabled refuses to step an ended episode until reset.
#[test]
fn autoreset_modes() {
    let c = config(2, &[TileSet::Base], 0, 1);
    let episode_end = |mode: Autoreset| {
        let mut s = settings(c.clone(), 16, Preset::InPlay);
        s.autoreset = mode;
        let mut batch = Batch::new(s, 1, 1).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        for k in 0..2000 {
            let ids = batch.check_actions(&offered_ids(&batch, &bufs, k)).unwrap();
            batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
            if bufs.terminated[0] {
                return (batch, bufs);
            }
        }
        panic!("no episode ended");
    };
    let (batch, bufs) = episode_end(Autoreset::SameStep);
    assert!(
        !batch.session(0).unwrap().game().is_terminal(),
        "the next episode began"
    );
    assert!(bufs.mask.contains(&1));
    let (mut batch, mut bufs) = episode_end(Autoreset::NextStep);
    assert!(batch.session(0).unwrap().game().is_terminal());
    assert!(!bufs.mask.contains(&1), "nothing is offered at the end");
    let ids = batch.check_actions(&[12345]).unwrap();
    batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
    assert!(!batch.session(0).unwrap().game().is_terminal());
    assert_eq!(bufs.rewards, [0.0, 0.0]);
    assert_eq!(batch.episode_seeds(), [episode_seed(1, 0, 1)]);
    let (mut batch, mut bufs) = episode_end(Autoreset::Disabled);
    let e = batch.check_actions(&[0]).unwrap_err();
    assert_eq!(e.kind, BatchErrorKind::NeedsReset);
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    assert!(bufs.mask.contains(&1));
}

/// Illegal ids: `raise` refuses before any game moves, `penalize` leaves the game and
/// gives the penalty, `random` plays an offered id.
#[test]
fn illegal_id_policies() {
    let c = config(2, &[TileSet::Base], 0, 2);
    let make = |illegal| {
        let mut s = settings(c.clone(), 16, Preset::Full);
        s.illegal = illegal;
        let mut batch = Batch::new(s, 2, 1).unwrap();
        let mut bufs = batch.buffers();
        batch.reset(bufs.view(), &NoInterrupt).unwrap();
        (batch, bufs)
    };
    let not_offered =
        |bufs: &OwnedBuffers, a: usize| bufs.mask[..a].iter().position(|m| *m == 0).unwrap() as i64;
    let (mut batch, bufs) = make(IllegalPolicy::Raise);
    let a = batch.settings().layout.num_actions();
    let hash = batch.session(0).unwrap().game().state_hash();
    let e = batch
        .check_actions(&[not_offered(&bufs, a), 0])
        .unwrap_err();
    assert_eq!(e.kind, BatchErrorKind::IllegalAction);
    assert!(e.message.starts_with("env 0:"), "{e}");
    assert_eq!(
        batch.check_actions(&[-1, 0]).unwrap_err().kind,
        BatchErrorKind::IllegalAction
    );
    assert_eq!(batch.session(0).unwrap().game().state_hash(), hash);

    let (mut batch, mut bufs) = make(IllegalPolicy::Penalize(-2.5));
    let seat = bufs.to_play[0] as usize;
    let bad = not_offered(&bufs, a);
    let good = offered_ids(&batch, &bufs, 0)[1];
    let ids = batch.check_actions(&[bad, good]).unwrap();
    batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
    assert_eq!(batch.session(0).unwrap().game().state_hash(), hash);
    assert_eq!(bufs.rewards[seat], -2.5);

    let (mut batch, mut bufs) = make(IllegalPolicy::Random);
    let ids = batch.check_actions(&[i64::MAX, -7]).unwrap();
    batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
    assert_ne!(
        batch.session(0).unwrap().game().state_hash(),
        hash,
        "an offered id was played"
    );
    assert!(IllegalPolicy::from_name("penalize", 1e39).is_err());
    assert!(IllegalPolicy::from_name("forgive", 0.0).is_err());
}

/// With `truncate`, an episode ends (truncated) as soon as a legal move lies outside a
/// tiny window.
#[test]
fn outside_window_truncates() {
    let mut s = settings(config(2, &[TileSet::Base], 0, 3), 3, Preset::Full);
    s.outside = OutsidePolicy::Truncate;
    let mut batch = Batch::new(s, 2, 1).unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    let mut truncated = 0;
    for k in 0..100 {
        let ids = batch.check_actions(&offered_ids(&batch, &bufs, k)).unwrap();
        batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
        truncated += bufs.truncated.iter().filter(|t| **t).count();
        assert!(!bufs.terminated.iter().any(|t| *t));
    }
    assert!(truncated > 0);
}

/// A saved batch continues identically; states that contradict themselves are refused
/// naming the field.
#[test]
fn saved_batches_continue_identically() {
    let mut s = settings(
        config(3, &[TileSet::Base, TileSet::KingRobber], 0, 8),
        16,
        Preset::Compact,
    );
    s.opponent = Some(Bot::Random);
    s.learner_seat = None;
    s.reward = RewardMode::ScoreDiff;
    let mut batch = Batch::new(s, 3, 1).unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    play(&mut batch, &mut bufs, 37);
    let state = batch.state();
    let mut copy = Batch::from_state(&state).unwrap();
    assert_eq!(copy.state(), state);
    let mut copy_bufs = bufs.clone();
    let a = play(&mut batch, &mut bufs, 80);
    let b = play(&mut copy, &mut copy_bufs, 80);
    assert_eq!(a, b);
    assert!(bufs.board == copy_bufs.board && bufs.mask == copy_bufs.mask);

    let refused = |change: &dyn Fn(&mut serde_json::Value), field: &str| {
        let mut v = state.clone();
        change(&mut v);
        let Err(e) = Batch::from_state(&v) else {
            panic!("{field}: a contradictory state loaded")
        };
        assert_eq!(e.kind, BatchErrorKind::InvalidRecord);
        assert!(
            e.message.starts_with(&format!("state.{field}")),
            "{field}: {e}"
        );
    };
    refused(&|v| v["learner_seat"] = 9.into(), "learner_seat");
    refused(&|v| v["window"] = 1.into(), "window");
    refused(&|v| v["slots"] = serde_json::json!([]), "slots");
    refused(&|v| v["slots"][1]["learner"] = 7.into(), "slots[1].learner");
    refused(
        &|v| {
            v["illegal_action"] = "penalize".into();
            v["illegal_penalty"] = 1e39.into();
        },
        "illegal_penalty",
    );
    refused(&|v| v["threads"] = 0.into(), "threads");
    let six = Session::new(
        Game::new(GameConfig::new(6)).unwrap(),
        EncoderSpec::new(16).unwrap(),
    );
    refused(
        &|v| v["slots"][0]["record"] = six.record_value("x"),
        "slots[0].record",
    );
    let mut v = state.clone();
    v.as_object_mut().unwrap().remove("reward");
    assert_eq!(
        Batch::from_state(&v).unwrap_err().message,
        "state: missing field `reward`"
    );
    // Nothing is taken for granted nor passed over: a field that may be null must be
    // there, and a field the state does not have is refused, at the top and in a game.
    let mut v = state.clone();
    v.as_object_mut().unwrap().remove("opponent");
    assert_eq!(
        Batch::from_state(&v).unwrap_err().message,
        "state: missing field `opponent`"
    );
    let mut v = state.clone();
    v["colour"] = "red".into();
    let e = Batch::from_state(&v).unwrap_err().message;
    assert!(e.starts_with("state.colour: unknown field `colour`"), "{e}");
    let mut v = state.clone();
    v["slots"][1]["score"] = 3.into();
    let e = Batch::from_state(&v).unwrap_err().message;
    assert!(
        e.starts_with("state.slots[1].score: unknown field `score`"),
        "{e}"
    );
    let mut v = state.clone();
    v["slots"][0]["stream"] = "x".into();
    let e = Batch::from_state(&v).unwrap_err().message;
    assert!(e.starts_with("state.slots[0].stream: invalid type"), "{e}");
}

/// An interruption stops a call part way; the batch then refuses to step until reset.
#[test]
fn an_interrupted_call_needs_a_reset() {
    struct After(AtomicUsize);
    impl Interrupt for After {
        fn poll(&self, _: &mut Instant) -> bool {
            self.0.fetch_sub(1, Ordering::Relaxed) > 1
        }
        fn stopped(&self) -> bool {
            self.0.load(Ordering::Relaxed) == 0
        }
    }
    let mut batch = Batch::new(
        settings(config(2, &[TileSet::Base], 0, 4), 16, Preset::Full),
        6,
        1,
    )
    .unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    let ids = batch.check_actions(&offered_ids(&batch, &bufs, 0)).unwrap();
    batch
        .step(&ids, bufs.view(), &After(AtomicUsize::new(3)))
        .unwrap();
    assert!(batch.interrupted());
    assert_eq!(
        batch.check_actions(&[0; 6]).unwrap_err().kind,
        BatchErrorKind::NeedsReset
    );
    assert_eq!(
        batch
            .step(&ids, bufs.view(), &NoInterrupt)
            .unwrap_err()
            .kind,
        BatchErrorKind::NeedsReset
    );
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    assert!(!batch.interrupted());
    let ids = batch.check_actions(&offered_ids(&batch, &bufs, 1)).unwrap();
    batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
}

/// Bad settings, seeds and buffers are refused naming what is wrong; seeds restart the
/// streams.
#[test]
fn bad_arguments_are_refused() {
    let s = || settings(config(2, &[TileSet::Base], 0, 1), 16, Preset::Full);
    assert_eq!(
        Batch::new(s(), 0, 1).unwrap_err().kind,
        BatchErrorKind::InvalidConfig
    );
    assert!(Batch::new(s(), 2, 0)
        .unwrap_err()
        .message
        .starts_with("threads"));
    let huge = Batch::new(s(), MAX_NUM_ENVS, 1).unwrap_err();
    assert!(huge.message.starts_with("num_envs:"), "{huge}");
    let mut bad_seat = s();
    bad_seat.learner_seat = Some(2);
    assert!(Batch::new(bad_seat, 1, 1)
        .unwrap_err()
        .message
        .starts_with("learner_seat"));
    let mut batch = Batch::new(s(), 2, 1).unwrap();
    let mut bufs = batch.buffers();
    assert!(batch.set_next_seeds(&[1]).is_err());
    batch.set_next_seeds(&[7, 8]).unwrap();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    assert_eq!(batch.episode_seeds(), [7, 8]);
    batch.reseed(5);
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    assert_eq!(
        batch.episode_seeds(),
        [episode_seed(5, 0, 0), episode_seed(5, 1, 0)]
    );
    let mut view = bufs.view();
    view.to_play = &mut [];
    let e = batch.reset(view, &NoInterrupt).unwrap_err();
    assert_eq!(e.kind, BatchErrorKind::InvalidArgument);
    assert!(e.message.starts_with("to_play"), "{e}");
    assert!(batch
        .check_actions(&[0])
        .unwrap_err()
        .message
        .starts_with("actions"));
}

/// The built-in players' ids are offered ids (the second id of a two-step action after
/// its focus), and their seeds make them repeatable.
#[test]
fn builtin_actions_are_offered() {
    let c = config(
        3,
        &[TileSet::Base, TileSet::PrincessDragon, TileSet::AbbeyMayor],
        1,
        6,
    );
    let mut batch = Batch::new(settings(c, 20, Preset::InPlay), 3, 1).unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    let a = batch.settings().layout.num_actions();
    for _ in 0..80 {
        let ids = batch.builtin_actions(Bot::Greedy, 3, &NoInterrupt).unwrap();
        assert_eq!(
            ids,
            batch.builtin_actions(Bot::Greedy, 3, &NoInterrupt).unwrap()
        );
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(
                bufs.mask[i * a + *id as usize],
                1,
                "env {i}: id {id} offered"
            );
        }
        let ids = batch.check_actions(&ids).unwrap();
        batch.step(&ids, bufs.view(), &NoInterrupt).unwrap();
    }
}

/// External opponents: the batch shows each opponent's own decision (its seat to play,
/// its observation and mask), `step_active` steps only the games given and leaves the
/// rows of the others as they were, the learner's observation comes back once the
/// opponents have played, and an ended episode's final observation is the learner's.
#[test]
fn external_opponents_are_stepped_by_the_caller_game_by_game() {
    let c = config(2, &[TileSet::Base], 0, 5);
    let mut s = settings(c.clone(), 16, Preset::Compact);
    s.external = true;
    s.learner_seat = Some(1);
    s.autoreset = Autoreset::NextStep;
    let n = 3;
    let mut batch = Batch::new(s.clone(), n, 1).unwrap();
    let mut bufs = batch.buffers();
    batch.reset(bufs.view(), &NoInterrupt).unwrap();
    // Seat 0 opens: every game waits on its opponent, whose observation is shown.
    assert_eq!(bufs.to_play, vec![0; n]);
    let layout = s.layout.clone();
    let planes = layout.planes_len();
    let mut alone = Session::with_layout(
        Game::new({
            let mut c0 = c.clone();
            c0.seed = batch.episode_seeds()[0];
            c0
        })
        .unwrap(),
        layout.clone(),
    );
    let (mut b, mut g) = (vec![0u8; planes], vec![0f32; layout.num_globals()]);
    alone.observe(0, &mut b, &mut g).unwrap();
    assert_eq!(&bufs.board[..planes], &b[..]);
    // Step game 0 only: the rows of games 1 and 2 stay as they were.
    let before: Vec<Vec<u8>> = (1..n)
        .map(|i| bufs.board[i * planes..(i + 1) * planes].to_vec())
        .collect();
    let active = [true, false, false];
    let mut steps = 0;
    while bufs.to_play[0] == 0 && !bufs.terminated[0] {
        let ids = offered_ids(&batch, &bufs, steps);
        let ids = batch.check_active_actions(&ids, Some(&active)).unwrap();
        batch
            .step_active(&ids, Some(&active), bufs.view(), &NoInterrupt)
            .unwrap();
        steps += 1;
    }
    assert!(
        steps >= 2,
        "the opponent placed a tile and then deployed or passed"
    );
    assert_eq!(bufs.to_play[0], 1, "the learner decides in game 0");
    assert_eq!(&bufs.to_play[1..], &[0, 0]);
    for (i, row) in before.iter().enumerate() {
        let k = i + 1;
        assert_eq!(&bufs.board[k * planes..(k + 1) * planes], &row[..]);
    }
    // A wrong length of `active` is refused before anything moves.
    let ids = vec![0u32; n];
    assert!(batch
        .step_active(&ids, Some(&[true]), bufs.view(), &NoInterrupt)
        .is_err());
    // Play every seat to the end of game 0: the last observation is the learner's.
    let mut k = 0;
    while !bufs.terminated[0] && !bufs.truncated[0] {
        let ids = offered_ids(&batch, &bufs, k);
        let ids = batch.check_active_actions(&ids, Some(&active)).unwrap();
        batch
            .step_active(&ids, Some(&active), bufs.view(), &NoInterrupt)
            .unwrap();
        k += 1;
        assert!(k < 1000);
    }
    assert_eq!(
        bufs.to_play[0], 1,
        "the ended episode shows the learner's view"
    );
    assert!(bufs.mask[..layout.num_actions()].iter().all(|m| *m == 0));
    // A saved external batch comes back external.
    let copy = Batch::from_state(&batch.state()).unwrap();
    assert!(copy.settings().external && copy.settings().single_agent());
    // Not both kinds of opponents.
    let mut both = s.clone();
    both.opponent = Some(Bot::Random);
    assert!(Batch::new(both, 1, 1).is_err());
}
