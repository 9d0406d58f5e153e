//! Shared helpers for the scenario tests.
//!
//! Positions are built with the engine itself in explicit-chance mode: the test names the
//! tile drawn, where it goes and what is deployed, and every step must be legal. Features
//! are named by their catalogue ids (`c1`, `r2`, `f1`, `m1`, `g1`) on the tile at a square.
//!
//! Coordinates are `(x, y)` with `x` growing east and `y` growing south; the start tile
//! lies at `(0, 0)`. A rotation `r` turns the tile clockwise by `r` quarter turns.
//!
//! [`play_out`] finishes a game without touching the position under test: it draws and
//! places every remaining tile inside a zone of the board that the test keeps apart from
//! its own tiles, deploys nothing, and steers the dragon inside that zone.

#![allow(dead_code)]

use carcassonne::game::tile;
use carcassonne::{
    Action, ChanceMode, Figure, Figures, Game, GameConfig, Phase, Pos, Rotation, ScoreKind, TileSet,
};

/// A square as `(x, y)`.
pub type Xy = (i32, i32);

/// The board position of a square.
pub fn pos((x, y): Xy) -> Pos {
    Pos::new(x, y)
}

/// A rotation of `quarter_turns` clockwise quarter turns.
pub fn rot(quarter_turns: u8) -> Rotation {
    Rotation::new(quarter_turns).expect("rotation 0..=3")
}

/// A configuration with `players` players, the given sets, default rules and the default
/// figures for those sets.
pub fn config(players: u8, sets: &[TileSet]) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(sets);
    c
}

/// A new game in explicit-chance mode.
pub fn start(config: GameConfig) -> Game {
    Game::with_chance(config, ChanceMode::Explicit).expect("a valid configuration")
}

/// The base game for `players` players in explicit-chance mode.
pub fn base_game(players: u8) -> Game {
    start(config(players, &[TileSet::Base]))
}

/// Local index of the feature with catalogue id `id` on the tile at `xy`.
pub fn local(game: &Game, xy: Xy, id: &str) -> u8 {
    let placement = game
        .board()
        .at(pos(xy))
        .unwrap_or_else(|| panic!("no tile at {xy:?}"));
    placement
        .kind
        .def()
        .feature_by_id(id)
        .unwrap_or_else(|| panic!("tile {} at {xy:?} has no feature {id}", placement.kind))
        as u8
}

/// The legal actions now.
pub fn legal(game: &Game) -> Vec<Action> {
    game.legal_actions()
}

/// Applies an action that must be legal.
pub fn apply(game: &mut Game, action: Action) {
    if let Err(e) = game.apply(action) {
        panic!("{e}; legal now: {:?}", game.legal_actions());
    }
}

/// Asserts that `action` is among the legal actions.
#[track_caller]
pub fn assert_legal(game: &Game, action: Action) {
    let legal = game.legal_actions();
    assert!(
        legal.contains(&action),
        "{action} should be legal; legal: {legal:?}"
    );
}

/// Asserts that `action` is not among the legal actions, and that applying it is refused
/// with the game unchanged.
#[track_caller]
pub fn assert_not_legal(game: &Game, action: Action) {
    let legal = game.legal_actions();
    assert!(
        !legal.contains(&action),
        "{action} should not be legal; legal: {legal:?}"
    );
    let mut copy = game.clone();
    let before = copy.state_hash();
    assert!(copy.apply(action).is_err(), "{action} was accepted");
    assert_eq!(
        copy.state_hash(),
        before,
        "a refused action changed the state"
    );
}

/// Draws the tile `id` (explicit chance). A pending abbey decision is declined first.
#[track_caller]
pub fn draw(game: &mut Game, id: &str) {
    if game.phase() == Phase::Abbey {
        apply(game, Action::Pass);
    }
    assert_eq!(game.phase(), Phase::Draw, "the game should wait for a draw");
    apply(game, Action::Draw { tile: tile(id) });
}

/// Draws `id` and places it at `xy` turned by `r`; the placement must be legal. The game
/// then waits for the deployment (or has moved on if there was nothing to decide).
#[track_caller]
pub fn play(game: &mut Game, id: &str, xy: Xy, r: u8) {
    draw(game, id);
    assert_eq!(
        game.phase(),
        Phase::PlaceTile,
        "{id} should be placeable somewhere"
    );
    apply(
        game,
        Action::PlaceTile {
            pos: pos(xy),
            rot: rot(r),
            bridge: None,
        },
    );
}

/// Ends the deployment step by passing, if the game waits for it.
pub fn finish_turn(game: &mut Game) {
    if game.phase() == Phase::Deploy {
        apply(game, Action::Pass);
    }
}

/// Draws, places and deploys nothing.
#[track_caller]
pub fn place(game: &mut Game, id: &str, xy: Xy, r: u8) {
    play(game, id, xy, r);
    finish_turn(game);
}

/// The `Deploy` action of `figure` on feature `feature` of the tile at `xy`.
pub fn deploy_action(game: &Game, figure: Figure, xy: Xy, feature: &str) -> Action {
    Action::Deploy {
        figure,
        pos: pos(xy),
        feature: local(game, xy, feature),
    }
}

/// Deploys `figure` on feature `feature` of the tile at `xy`; it must be legal.
#[track_caller]
pub fn deploy(game: &mut Game, figure: Figure, xy: Xy, feature: &str) {
    let action = deploy_action(game, figure, xy, feature);
    apply(game, action);
}

/// Draws, places, and deploys `figure` on `feature` of the placed tile.
#[track_caller]
pub fn place_deploy(game: &mut Game, id: &str, xy: Xy, r: u8, figure: Figure, feature: &str) {
    play(game, id, xy, r);
    deploy(game, figure, xy, feature);
}

/// Draws, places, and deploys a follower on `feature` of the placed tile.
#[track_caller]
pub fn place_follower(game: &mut Game, id: &str, xy: Xy, r: u8, feature: &str) {
    place_deploy(game, id, xy, r, Figure::Follower, feature);
}

/// Score events from index `since` on, as `(player, points, kind)`.
pub fn events_since(game: &Game, since: usize) -> Vec<(u8, i32, ScoreKind)> {
    game.events()[since..]
        .iter()
        .map(|e| (e.player, e.points, e.kind))
        .collect()
}

/// Score events from index `since` on that gave points, as `(player, points, kind)`.
pub fn points_since(game: &Game, since: usize) -> Vec<(u8, i32, ScoreKind)> {
    events_since(game, since)
        .into_iter()
        .filter(|e| e.1 != 0)
        .collect()
}

/// `events` sorted by player, then points, then kind name (for comparisons where the
/// engine's order of simultaneous scorings does not matter).
pub fn sorted(mut events: Vec<(u8, i32, ScoreKind)>) -> Vec<(u8, i32, ScoreKind)> {
    events.sort_by_key(|e| (e.0, e.1, e.2.name()));
    events
}

/// The figures standing on the tile at `xy`: `(owner, figure, feature id)`, sorted.
pub fn figures_at(game: &Game, xy: Xy) -> Vec<(u8, Figure, String)> {
    let Some(index) = game.board().index_at(pos(xy)) else {
        return Vec::new();
    };
    let def = game.board().placement(index).kind.def();
    let mut v: Vec<_> = game
        .board_figures()
        .iter()
        .filter(|f| f.placement as usize == index)
        .map(|f| {
            let id = if f.figure == Figure::Barn {
                format!("corner{}", f.local)
            } else {
                def.features[f.local as usize].id.clone()
            };
            (f.owner, f.figure, id)
        })
        .collect();
    v.sort();
    v
}

/// Number of figures of `kind` that `player` has on the board.
pub fn on_board(game: &Game, player: u8, kind: Figure) -> usize {
    game.board_figures()
        .iter()
        .filter(|f| f.owner == player && f.figure == kind)
        .count()
}

/// The squares north of the start tile's row: the zone [`finish_game`] uses by default.
pub fn north_of_start(p: Pos) -> bool {
    p.y <= -1
}

/// Whether `a` is a placement inside `zone`.
fn placement_in(a: &Action, zone: &dyn Fn(Pos) -> bool) -> bool {
    matches!(a, Action::PlaceTile { pos, .. } if zone(*pos))
}

/// Chooses the next tile to draw: one that fits nowhere (it is discarded, B5) or the one
/// with the fewest placements inside `zone`, so that hard tiles go first.
fn choose_draw(game: &Game, zone: &dyn Fn(Pos) -> bool) -> Action {
    let mut best: Option<(usize, Action)> = None;
    for (kind, _) in game.chance_outcomes() {
        let action = Action::Draw { tile: kind };
        let mut trial = game.clone();
        apply(&mut trial, action);
        let inside = if trial.phase() == Phase::PlaceTile {
            let n = trial
                .legal_actions()
                .iter()
                .filter(|a| placement_in(a, zone))
                .count();
            if n == 0 {
                continue;
            }
            n
        } else {
            0 // discarded: it fits nowhere at all
        };
        if best.as_ref().map_or(true, |(b, _)| inside < *b) {
            best = Some((inside, action));
        }
    }
    best.map(|(_, a)| a).unwrap_or_else(|| {
        panic!(
            "no remaining tile fits inside the zone ({} left)",
            game.tiles_left()
        )
    })
}

/// Chooses a placement inside `zone`, preferring squares with more placed neighbours
/// (the board stays compact and its frontier flexible).
fn choose_placement(game: &Game, zone: &dyn Fn(Pos) -> bool) -> Action {
    let legal = game.legal_actions();
    legal
        .iter()
        .filter(|a| placement_in(a, zone))
        .max_by_key(|a| match a {
            Action::PlaceTile { pos, .. } => game.board().orthogonal_neighbours(*pos),
            _ => 0,
        })
        .copied()
        .unwrap_or_else(|| panic!("no placement inside the zone: {legal:?}"))
}

/// Plays every remaining tile inside `zone` (no deployment, no abbey, no wagon move, the
/// dragon steered inside the zone when it can be) and stops at the end of the game or at
/// the first decision of the end-of-game abbey round (AM4).
pub fn play_out(game: &mut Game, zone: impl Fn(Pos) -> bool) {
    loop {
        match game.phase() {
            Phase::GameOver => return,
            Phase::Abbey if game.tiles_left() == 0 => return,
            Phase::Abbey | Phase::WagonMove => apply(game, Action::Pass),
            Phase::Draw => {
                let action = choose_draw(game, &zone);
                apply(game, action);
            }
            Phase::PlaceTile => {
                let action = choose_placement(game, &zone);
                apply(game, action);
            }
            Phase::Deploy => {
                let legal = game.legal_actions();
                // Pass, unless the princess must be used (PD9 `must`).
                let action = if legal.contains(&Action::Pass) {
                    Action::Pass
                } else {
                    legal[0]
                };
                apply(game, action);
            }
            Phase::DragonFlight => {
                let legal = game.legal_actions();
                let action = legal
                    .iter()
                    .find(|a| matches!(a, Action::MoveDragon { pos } if zone(*pos)))
                    .copied()
                    .unwrap_or(legal[0]);
                apply(game, action);
            }
            Phase::LeaveQuarter | Phase::EnterQuarter | Phase::MoveCount => {
                // Decline every move of the City of Carcassonne.
                let pass = *game
                    .legal_actions()
                    .iter()
                    .find(|a| matches!(a, Action::QuarterPass { .. }))
                    .expect("a pass is always offered");
                apply(game, pass);
            }
            Phase::Castle | Phase::BazaarBid => {
                let pass = *game
                    .legal_actions()
                    .iter()
                    .find(|a| matches!(a, Action::CastlePass | Action::BazaarPass))
                    .expect("a pass is always offered");
                apply(game, pass);
            }
            Phase::BazaarSelect | Phase::BazaarBuyOrSell => {
                let first = game.legal_actions()[0];
                apply(game, first);
            }
        }
    }
}

/// Plays the game to its end with [`play_out`] inside `zone`, declining every abbey of the
/// end-of-game round.
pub fn finish_game(game: &mut Game, zone: impl Fn(Pos) -> bool) {
    play_out(game, zone);
    while game.phase() == Phase::Abbey {
        apply(game, Action::Pass);
    }
    assert!(game.is_terminal(), "the game should be over");
}

/// The whole River I (C2), east of its spring at (0, 0), in an order the pile allows
/// (the lake last, R1): a road bridge, a right bend, a left bend (never two bends the same
/// way in a row, R2), a straight, a right bend with a city, a left bend with a road, a
/// straight, the two city caps, the monastery and city bridges, the lake at (9, 2).
///
/// The road bridge at (1, 0) and the city-and-road bridge at (8, 2) cut both banks, so
/// between them the north bank and the south bank are two separate fields (R3).
pub const RIVER1: [(&str, Xy, u8); 11] = [
    ("RIV1-ROAD-BRIDGE", (1, 0), 1),
    ("RIV1-CURVE", (2, 0), 0),
    ("RIV1-CURVE-G", (2, 1), 2),
    ("RIV1-STRAIGHT", (3, 1), 0),
    ("RIV1-CITY-CORNER-CURVE", (4, 1), 1),
    ("RIV1-ROADCURVE-RIVERCURVE", (4, 2), 2),
    ("RIV1-STRAIGHT", (5, 2), 0),
    ("RIV1-TWO-CAPS", (6, 2), 0),
    ("RIV1-MONASTERY-ROAD-BRIDGE", (7, 2), 0),
    ("RIV1-CITY-ROAD-BRIDGE", (8, 2), 0),
    ("RIV1-LAKE", (9, 2), 0),
];

/// The whole River II (C2) from its spring at (0, 0): the fork at (1, 0) sends one branch
/// north (city bridge, then the lake with a city at (1, -2)) and one east (monastery,
/// pig-herd bend right, road bend left, city-and-road bridge, bend right, city bend left,
/// road bridge with inn, the volcano lake at (7, 2)). Lakes last (R1).
pub const RIVER2: [(&str, Xy, u8); 11] = [
    ("RIV2-FORK", (1, 0), 0),
    ("RIV2-CITY-BRIDGE", (1, -1), 0),
    ("RIV2-MONASTERY", (2, 0), 0),
    ("RIV2-CURVE-PIGS", (3, 0), 3),
    ("RIV2-ROADCURVE-RIVERCURVE", (3, 1), 2),
    ("RIV2-CITY-ROAD-BRIDGE", (4, 1), 0),
    ("RIV2-CURVE-G", (5, 1), 0),
    ("RIV2-CITY-CORNER-CURVE", (5, 2), 3),
    ("RIV2-ROAD-BRIDGE-INN", (6, 2), 1),
    ("RIV2-LAKE-CITY", (1, -2), 3),
    ("RIV2-LAKE-VOLCANO", (7, 2), 0),
];

/// Places the given tiles in order, deploying nothing.
#[track_caller]
pub fn lay(game: &mut Game, tiles: &[(&str, Xy, u8)]) {
    for (id, xy, r) in tiles {
        place(game, id, *xy, *r);
    }
}
