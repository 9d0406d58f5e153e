//! Unit tests of the expansion registry, included by `rules/mod.rs`.

use super::*;
use crate::config::Figures;
use crate::rng::Rng;

/// A game with every set, played at random for `decisions` decisions.
fn game_with_every_set(decisions: usize, seed: u64) -> Game {
    let mut config = GameConfig::new(4);
    config.sets = TileSet::ALL.to_vec();
    config.figures = Figures::default_for(&config.sets);
    config.figures.abbot = 1;
    config.seed = seed;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..decisions {
        if game.is_terminal() {
            break;
        }
        let legal = game.legal();
        let pick = legal[rng.below(legal.len() as u32) as usize];
        game.apply_unchecked(pick);
    }
    game
}

/// Every expansion's state is in the state hash. Each probe changes one
/// expansion's state alone (who holds the King, KR1; a barn, AM7; the count's quarter,
/// CC3; the dragon, PD2; the fairy, PD15; castles, CA1; bridges, BR1; the bazaar,
/// BZ1–BZ4; the abbey supply, AM1; ...), at the start of a game and in the middle of
/// one, and the hash must change.
#[test]
fn every_expansion_state_changes_the_hash() {
    let probes = Expansions::hash_probes();
    let with_probes: Vec<&str> = probes.iter().map(|(name, _, _)| *name).collect();
    for name in ["river", "dragon", "abbey", "bcb", "count", "king"] {
        assert!(with_probes.contains(&name), "{name} has no hash probe");
    }
    for (decisions, seed) in [(0, 1), (120, 2), (400, 3)] {
        let game = game_with_every_set(decisions, seed);
        let hash = game.state_hash();
        for (name, rule, change) in &probes {
            let mut changed = game.clone();
            change(&mut changed.expansions);
            assert_ne!(
                changed.expansions, game.expansions,
                "{name} {rule}: the probe changes nothing"
            );
            assert_ne!(
                changed.state_hash(),
                hash,
                "{name} {rule}: a change of its state alone leaves the hash unchanged \
                 ({decisions} decisions into seed {seed})"
            );
        }
    }
}

/// What is history, not state, leaves the hash alone: the bazaars' log (BZ1) and the
/// turns that placed a bazaar tile (BZ4) are records of the past.
#[test]
fn history_is_not_hashed() {
    let game = game_with_every_set(60, 4);
    let mut changed = game.clone();
    changed.expansions.bcb.bazaar.log.push(TileKind(0));
    changed.expansions.bcb.bazaar.log_turns.push(0);
    changed.expansions.bcb.bazaar.tile_turns.push(0);
    assert_ne!(changed.expansions, game.expansions);
    assert_eq!(changed.state_hash(), game.state_hash());
}
