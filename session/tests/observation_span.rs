//! The planes and cells an observation reports as written (`PlaneSet`, returned through
//! `encode_observation_over`): every byte the encoder sets lies in a plane of the set
//! and in its span of cells, and rewriting one buffer decision after decision, clearing
//! only that span of those planes, gives the observation written into a zero buffer.
//! Random games of several configurations (every set among them) and windows, the
//! observation of every seat at every decision.

mod common;

use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;
use carcassonne::GameConfig;
use carcassonne::{Game, Phase};
use carcassonne_session::encode::{EncoderSpec, PlaneSet};
use carcassonne_session::session::Session;

fn configs() -> Vec<GameConfig> {
    use TileSet::*;
    vec![
        common::config(2, &[Base], 0, 1),
        common::config(4, &[Base, PrincessDragon, AbbeyMayor], 1, 2),
        common::config(3, &[Base, Tower, HillsSheep], 0, 3),
        common::config(3, &[Base, BridgesCastlesBazaars, Count, KingRobber], 1, 4),
        common::config(5, &TileSet::ALL, 1, 5),
        common::config(2, &TileSet::ALL, 1, 6),
    ]
}

/// Checks that the nonzero bytes of `planes` lie in `set`'s planes and cells.
fn inside(planes: &[u8], set: &PlaneSet, ww: usize, what: &str) {
    let cells = set.cells(ww);
    for (i, &b) in planes.iter().enumerate() {
        if b != 0 {
            let (plane, cell) = (i / ww, i % ww);
            assert!(
                set.contains(plane) && cells.contains(&cell),
                "{what}: plane {plane} cell {cell} holds {b} outside the set ({cells:?})"
            );
        }
    }
}

#[test]
fn written_planes_and_cells_hold_every_byte_and_rewriting_equals_a_fresh_encoding() {
    let mut observations = 0;
    for (k, config) in configs().into_iter().enumerate() {
        // A window smaller than the board cuts it; a large one leaves rings of zeros.
        for window in [7u16, 24] {
            let spec = EncoderSpec::new(window).expect("a window");
            let ww = usize::from(window) * usize::from(window);
            let players = usize::from(config.players);
            let mut session = Session::new(Game::new(config.clone()).expect("a game"), spec);
            let mut rng = Rng::new(100 + k as u64);
            // One buffer per seat, rewritten at every decision.
            let mut kept: Vec<(Vec<u8>, Vec<f32>, PlaneSet)> = (0..players)
                .map(|_| {
                    (
                        vec![0; spec.planes_len()],
                        vec![0.0; spec.num_globals()],
                        PlaneSet::EMPTY,
                    )
                })
                .collect();
            let mut fresh = vec![0u8; spec.planes_len()];
            let mut fresh_globals = vec![0f32; spec.num_globals()];
            while !session.game().is_terminal() {
                if session.game().phase() != Phase::GameOver && !session.game().phase().is_chance()
                {
                    for (player, (planes, globals, written)) in kept.iter_mut().enumerate() {
                        fresh.fill(0);
                        let mut set = PlaneSet::EMPTY;
                        session
                            .observe_over(player, &mut fresh, &mut fresh_globals, &mut set)
                            .expect("an observation");
                        let what = format!("config {k}, window {window}, seat {player}");
                        inside(&fresh, &set, ww, &what);
                        session
                            .observe_over(player, planes, globals, written)
                            .expect("an observation");
                        assert_eq!(*written, set, "{what}: the same set");
                        assert!(*planes == fresh, "{what}: rewritten planes differ");
                        assert_eq!(*globals, fresh_globals, "{what}: globals");
                        observations += 1;
                    }
                }
                let legal = session.legal_actions();
                let action = legal[rng.below(legal.len() as u32) as usize];
                session.apply(action).expect("a legal action");
            }
        }
    }
    assert!(observations > 1000, "{observations} observations checked");
}
