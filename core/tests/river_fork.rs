//! R2 at River II's fork, as a property of random games: 2 to 6 players, River II alone
//! and with River I, random legal decisions until the river is laid.

mod common;

use carcassonne::board::Placement;
use carcassonne::geometry::Side;
use carcassonne::tiles::{Symbols, Terrain};
use carcassonne::{Game, Phase, Pos, Rng, TileSet};
use common::*;

/// How many games per player count and set list.
const GAMES: u64 = 100;

/// The board sides of `p` that carry river.
fn river_sides(p: &Placement) -> Vec<Side> {
    Side::ALL
        .into_iter()
        .filter(|s| p.sides[s.index()] == Terrain::River)
        .collect()
}

/// Turn of travelling towards `heading` and leaving through `exit`: 0 straight, 1 right,
/// 2 back, 3 left.
fn turn(heading: Side, exit: Side) -> usize {
    (exit.index() + 4 - heading.index()) % 4
}

/// A U through the fork: the first tile of a branch bending the same way as the path from
/// the other branch through the fork into it (R2).
fn u_through_the_fork(game: &Game) -> Option<String> {
    let board = game.board();
    let (i, fork) = board
        .placements()
        .iter()
        .enumerate()
        .find(|(_, p)| river_sides(p).len() == 3)?;
    // The entry: the side towards the tile placed before the fork (the spring).
    let entry = river_sides(fork)
        .into_iter()
        .find(|s| board.index_at(fork.pos.step(*s)).is_some_and(|n| n < i))
        .expect("the fork continues the spring");
    let exits: Vec<Side> = river_sides(fork)
        .into_iter()
        .filter(|s| *s != entry)
        .collect();
    for (k, &exit) in exits.iter().enumerate() {
        let other = exits[1 - k];
        let Some(first) = board.at(fork.pos.step(exit)) else {
            continue;
        };
        let Some(&out) = river_sides(first).iter().find(|s| **s != exit.opposite()) else {
            continue; // a lake
        };
        let bend = turn(exit, out);
        let path = turn(other.opposite(), exit);
        if bend != 0 && bend == path {
            return Some(format!(
                "fork at {:?}: the branch {exit:?} bends {bend} at {:?}, as the path from \
                 the branch {other:?} through the fork",
                fork.pos, first.pos
            ));
        }
    }
    None
}

/// What the random games showed.
#[derive(Default)]
struct Tally {
    games: u64,
    /// U-turns through the fork (R2), with the game and the decision.
    fork_u: Vec<String>,
    /// River tiles discarded while the two branches' first tiles both point at the
    /// square between them: the dead river that a U through the fork makes.
    dead_at_fork: Vec<String>,
}

/// Whether two open river ends point at one square, and whether the tiles they leave are
/// both next to the fork.
fn meeting(game: &Game) -> Option<bool> {
    let board = game.board();
    let mut ends: Vec<(Pos, Pos)> = Vec::new();
    for p in board.placements() {
        for s in river_sides(p) {
            if !board.is_placed(p.pos.step(s)) {
                ends.push((p.pos.step(s), p.pos));
            }
        }
    }
    let fork = board
        .placements()
        .iter()
        .find(|p| river_sides(p).len() == 3)?
        .pos;
    let next_to_fork = |q: Pos| Side::ALL.iter().any(|s| fork.step(*s) == q);
    let mut met = None;
    for (i, a) in ends.iter().enumerate() {
        for b in &ends[i + 1..] {
            if a.0 == b.0 {
                let at_fork = next_to_fork(a.1) && next_to_fork(b.1);
                met = Some(met.unwrap_or(false) || at_fork);
            }
        }
    }
    met
}

/// Plays a random game of `sets` with `players` from `seed` until the first tile that is
/// no river tile is in hand, checking the river after every decision.
fn river_phase(sets: &[TileSet], players: u8, seed: u64, tally: &mut Tally) {
    let mut config = config(players, sets);
    config.seed = seed;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(seed);
    let mut legal = Vec::new();
    let label = format!("{sets:?}, {players} players, seed {seed}");
    tally.games += 1;
    while !game.is_terminal() {
        if game.phase() == Phase::PlaceTile
            && !game.tile_in_hand().unwrap().def().has(Symbols::RIVER)
        {
            break;
        }
        game.legal_actions_into(&mut legal);
        let pick = legal[rng.below(legal.len() as u32) as usize];
        let turns = game.turns().len();
        game.apply(pick).unwrap();
        if let Some(u) = u_through_the_fork(&game) {
            // Once per game.
            tally.fork_u.push(format!("{label}, after {pick}: {u}"));
            break;
        }
        let discarded: Vec<&str> = game.turns()[turns.saturating_sub(1)..]
            .iter()
            .filter(|t| t.discarded && t.draw.is_some_and(|k| k.def().has(Symbols::RIVER)))
            .map(|t| t.draw.unwrap().id())
            .collect();
        if discarded.is_empty() {
            continue;
        }
        // (Two ends meeting further from the fork, where a branch led round to the
        // other, make no U; R2 does not forbid that.)
        if meeting(&game) == Some(true) {
            tally
                .dead_at_fork
                .push(format!("{label}: {discarded:?} discarded"));
        }
    }
}

/// R2 at the fork, over random games of 2 to 6 players ([`GAMES`] per player count, River
/// II alone and with River I): after every decision no branch's first tile bends the same
/// way as the path from the other branch through the fork, and no river tile is ever
/// discarded because the first tiles of both branches point at the same square.
#[test]
fn r2_random_games_make_no_u_through_the_fork() {
    let mut tally = Tally::default();
    for sets in [
        &[TileSet::Base, TileSet::River2][..],
        &[TileSet::Base, TileSet::River1, TileSet::River2][..],
    ] {
        for players in 2..=6u8 {
            for seed in 0..GAMES {
                // Different draws for each player count.
                river_phase(sets, players, u64::from(players) * 1000 + seed, &mut tally);
            }
        }
    }
    assert_eq!(tally.games, 2 * 5 * GAMES);
    assert!(
        tally.fork_u.is_empty(),
        "{} games with a U through the fork: {:#?}",
        tally.fork_u.len(),
        tally.fork_u
    );
    assert!(
        tally.dead_at_fork.is_empty(),
        "{} river tiles discarded at a dead fork: {:#?}",
        tally.dead_at_fork.len(),
        tally.dead_at_fork
    );
}
