//! An independent, deliberately naive model of the board checked against the engine at
//! every decision of random games. It shares nothing with the engine's incremental
//! machinery (frontier, side requirements, union-find): it reads only the catalogue's
//! canonical edges and segments and the list of placed tiles, and recomputes from scratch
//!
//! * every legal tile placement (B4): every empty square next to a tile, every rotation,
//!   each shared side of the same terrain (the abbey fits anything, AM1);
//! * every follower deployment on the placed tile (B6, B7): features found by a
//!   breadth-first walk over matching segments; free when no figure stands on any part;
//!   fields only with farmers (B16), gardens never (A1);
//! * completion of every city and road (B8, B9): no part has a side facing an empty square.
//!
//! River tiles follow extra rules (R2) that this model does not restate, so the games here
//! use the sets without the River.

use carcassonne::tiles::{FeatureKind, Terrain, TileKind};
use carcassonne::{Action, Figure, Figures, Game, GameConfig, Phase, Rng, Rotation, TileSet};
use std::collections::{BTreeSet, HashMap, VecDeque};

const DELTAS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The naive board: square -> (tile, rotation).
fn squares(game: &Game) -> HashMap<(i32, i32), (TileKind, Rotation)> {
    game.board()
        .placements()
        .iter()
        .map(|p| ((p.pos.x, p.pos.y), (p.kind, p.rot)))
        .collect()
}

/// Canonical side shown on board side `side` by a tile turned by `rot`.
fn canonical(side: usize, rot: Rotation) -> usize {
    (side + 4 - rot.quarter_turns() as usize) % 4
}

/// Terrain of the middle third of board side `side`.
fn side_terrain(kind: TileKind, rot: Rotation, side: usize) -> Terrain {
    kind.def().edges[canonical(side, rot)][1]
}

/// Local feature holding third `third` of board side `side`, if any.
fn feature_at(kind: TileKind, rot: Rotation, side: usize, third: usize) -> Option<usize> {
    let bit = 1u16 << (canonical(side, rot) * 3 + third);
    kind.def()
        .features
        .iter()
        .position(|f| f.segments & bit != 0)
}

fn placements(game: &Game, tile: TileKind) -> BTreeSet<(i32, i32, u8)> {
    let board = squares(game);
    let mut candidates = BTreeSet::new();
    for &(x, y) in board.keys() {
        for (dx, dy) in DELTAS {
            if !board.contains_key(&(x + dx, y + dy)) {
                candidates.insert((x + dx, y + dy));
            }
        }
    }
    let mut legal = BTreeSet::new();
    for (x, y) in candidates {
        for rot in Rotation::ALL {
            let fits =
                (0..4).all(
                    |side| match board.get(&(x + DELTAS[side].0, y + DELTAS[side].1)) {
                        None => true,
                        Some(&(n, nrot)) => {
                            let (mine, theirs) = (
                                side_terrain(tile, rot, side),
                                side_terrain(n, nrot, (side + 2) % 4),
                            );
                            mine == theirs || mine == Terrain::Abbey || theirs == Terrain::Abbey
                        }
                    },
                );
            if fits {
                legal.insert((x, y, rot.quarter_turns()));
            }
        }
    }
    legal
}

/// Every part `(x, y, local)` of the feature of `start`, by a walk over matching segments.
fn component(
    board: &HashMap<(i32, i32), (TileKind, Rotation)>,
    start: (i32, i32, usize),
) -> BTreeSet<(i32, i32, usize)> {
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some((x, y, local)) = queue.pop_front() {
        let (kind, rot) = board[&(x, y)];
        for (side, (dx, dy)) in DELTAS.iter().enumerate() {
            for third in 0..3 {
                if feature_at(kind, rot, side, third) != Some(local) {
                    continue;
                }
                let n = (x + dx, y + dy);
                let Some(&(nk, nrot)) = board.get(&n) else {
                    continue;
                };
                if let Some(other) = feature_at(nk, nrot, (side + 2) % 4, 2 - third) {
                    if seen.insert((n.0, n.1, other)) {
                        queue.push_back((n.0, n.1, other));
                    }
                }
            }
        }
    }
    seen
}

/// Whether the feature made of `parts` has a side facing an empty square.
fn has_open_side(
    board: &HashMap<(i32, i32), (TileKind, Rotation)>,
    parts: &BTreeSet<(i32, i32, usize)>,
) -> bool {
    parts.iter().any(|&(x, y, local)| {
        let (kind, rot) = board[&(x, y)];
        (0..4).any(|side| {
            feature_at(kind, rot, side, 1) == Some(local)
                && !board.contains_key(&(x + DELTAS[side].0, y + DELTAS[side].1))
        })
    })
}

fn follower_targets(game: &Game, farmers: bool) -> BTreeSet<(i32, i32, u8)> {
    let board = squares(game);
    let placed = game.board().placements().last().expect("a placed tile");
    let (x, y) = (placed.pos.x, placed.pos.y);
    let occupied: BTreeSet<(i32, i32, usize)> = game
        .board_figures()
        .iter()
        .map(|f| {
            let p = game.board().placement(f.placement as usize).pos;
            (p.x, p.y, f.local as usize)
        })
        .collect();
    let mut targets = BTreeSet::new();
    for (local, f) in placed.kind.def().features.iter().enumerate() {
        let allowed = match f.kind {
            FeatureKind::City
            | FeatureKind::Road
            | FeatureKind::Monastery
            | FeatureKind::Shrine => true,
            FeatureKind::Field => farmers,
            FeatureKind::Garden | FeatureKind::River | FeatureKind::Tower => false,
        };
        if allowed && component(&board, (x, y, local)).is_disjoint(&occupied) {
            targets.insert((x, y, local as u8));
        }
    }
    targets
}

fn check_completion(game: &Game) {
    let board = squares(game);
    let features = game.features();
    for p in game.board().placements() {
        for (local, f) in p.kind.def().features.iter().enumerate() {
            if !matches!(f.kind, FeatureKind::City | FeatureKind::Road) {
                continue;
            }
            let parts = component(&board, (p.pos.x, p.pos.y, local));
            let root = features.root(p.node_base + local as u16);
            assert_eq!(
                features.node(root).open == 0,
                !has_open_side(&board, &parts),
                "B8/B9: completion of {} {} at {}",
                p.kind.id(),
                f.id,
                p.pos
            );
        }
    }
}

fn play(config: GameConfig, seed: u64) -> usize {
    let farmers = config.rules.farmers;
    let base_only = config.sets == [TileSet::Base] && config.figures.abbot == 0;
    let mut game = Game::new(config).expect("valid config");
    let mut rng = Rng::new(seed);
    let mut legal = Vec::new();
    let mut checks = 0;
    while !game.is_terminal() {
        game.legal_actions_into(&mut legal);
        match game.phase() {
            Phase::PlaceTile => {
                let tile = game.tile_in_hand().expect("a tile in hand");
                let engine: BTreeSet<_> = legal
                    .iter()
                    .map(|a| match a {
                        Action::PlaceTile {
                            pos,
                            rot,
                            bridge: None,
                        } => (pos.x, pos.y, rot.quarter_turns()),
                        other => panic!("{other} while placing"),
                    })
                    .collect();
                assert_eq!(engine.len(), legal.len(), "no placement listed twice");
                assert_eq!(
                    engine,
                    placements(&game, tile),
                    "B4: placements of {}",
                    tile.id()
                );
                checks += 1;
            }
            Phase::Deploy if base_only => {
                let engine: BTreeSet<_> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Deploy {
                            figure: Figure::Follower,
                            pos,
                            feature,
                        } => Some((pos.x, pos.y, *feature)),
                        _ => None,
                    })
                    .collect();
                assert_eq!(
                    engine,
                    follower_targets(&game, farmers),
                    "B6/B7: follower targets"
                );
                checks += 1;
            }
            _ => {}
        }
        let pick = legal[rng.below(legal.len() as u32) as usize];
        game.apply(pick).expect("a listed action applies");
        if game.phase() != Phase::GameOver {
            check_completion(&game);
        }
    }
    checks
}

fn config(players: u8, sets: &[TileSet]) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(sets);
    c
}

#[test]
fn base_game_matches_the_naive_model() {
    let mut checks = 0;
    for seed in 0..12 {
        let mut c = config(2 + (seed % 5) as u8, &[TileSet::Base]);
        c.seed = seed;
        c.rules.farmers = seed % 3 != 0;
        checks += play(c, seed);
    }
    assert!(checks > 1000, "{checks} decisions checked");
}

#[test]
fn expansions_without_river_match_the_naive_model() {
    let sets = [TileSet::Base, TileSet::PrincessDragon, TileSet::AbbeyMayor];
    let mut checks = 0;
    for seed in 0..8 {
        let mut c = config(2 + (seed % 5) as u8, &sets);
        c.seed = 100 + seed;
        c.figures.abbot = 1;
        checks += play(c, seed);
    }
    assert!(checks > 500, "{checks} decisions checked");
}
