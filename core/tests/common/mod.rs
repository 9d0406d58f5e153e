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
use carcassonne::rules::bcb::{Axis, Bridge};
use carcassonne::rules::count::QuarterStep;
use carcassonne::tiles::{FeatureKind, TileKind};
use carcassonne::{
    Action, ChanceMode, Figure, Figures, Game, GameConfig, Phase, Pos, Rotation, ScoreKind, TileSet,
};
use std::collections::{BTreeSet, HashMap, VecDeque};

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

/// A game of `players` players with the sets `sets` and `more` in explicit-chance mode
/// (an expansion's scenarios with the sets of its interactions).
pub fn start_with(players: u8, sets: &[TileSet], more: &[TileSet]) -> Game {
    let mut all = sets.to_vec();
    all.extend_from_slice(more);
    start(config(players, &all))
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

/// Whether `a` is a placement inside `zone` (with its bridge, if it carries one, BR2).
fn placement_in(a: &Action, zone: &dyn Fn(Pos) -> bool) -> bool {
    matches!(a, Action::PlaceTile { pos, bridge, .. }
        if zone(*pos) && bridge.is_none_or(|b| zone(b.at(*pos).pos)))
}

/// Chooses the next tile to draw: one that fits nowhere (it is discarded, B5) or the one
/// with the fewest placements inside `zone`, so that hard tiles go first. Kinds in `keep`
/// are drawn only when nothing else can be.
fn choose_draw(game: &Game, zone: &dyn Fn(Pos) -> bool, keep: &[TileKind]) -> Action {
    let outcomes = game.chance_outcomes();
    let only_kept = outcomes.iter().all(|(k, _)| keep.contains(k));
    let mut best: Option<(usize, Action)> = None;
    for (kind, _) in outcomes {
        if !only_kept && keep.contains(&kind) {
            continue;
        }
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
        if best.as_ref().is_none_or(|(b, _)| inside < *b) {
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
/// dragon steered inside the zone when it can be) and stops at the end of the game, at
/// the first decision of the end-of-game abbey round (AM4) or at the first final move out
/// of the City of Carcassonne (CC6).
pub fn play_out(game: &mut Game, zone: impl Fn(Pos) -> bool) {
    play_out_until(game, zone, &[], 0);
}

/// [`play_out`] that stops at the first draw from the pile once `stop_at` tiles or fewer
/// are left, and that draws the kinds in `keep` only when nothing else can be drawn (so
/// that they are still in the pile when it stops).
pub fn play_out_until(
    game: &mut Game,
    zone: impl Fn(Pos) -> bool,
    keep: &[TileKind],
    stop_at: u32,
) {
    loop {
        match game.phase() {
            Phase::GameOver => return,
            Phase::Abbey if game.tiles_left() == 0 => return,
            Phase::Abbey if game.tiles_left() <= stop_at => return,
            Phase::Abbey | Phase::WagonMove => apply(game, Action::Pass),
            Phase::Draw => {
                if game.tiles_left() <= stop_at && game.placed_this_turn().is_none() {
                    return;
                }
                let action = choose_draw(game, &zone, keep);
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
            Phase::LeaveQuarter
                if game.legal_actions().contains(&Action::QuarterPass {
                    step: QuarterStep::Final,
                }) =>
            {
                // The final moves out of the City of Carcassonne (CC6) are the test's.
                return;
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
            Phase::Castle | Phase::BazaarBid | Phase::Capture => {
                let pass = *game
                    .legal_actions()
                    .iter()
                    .find(|a| {
                        matches!(
                            a,
                            Action::CastlePass | Action::BazaarPass | Action::CapturePass
                        )
                    })
                    .expect("a pass is always offered");
                apply(game, pass);
            }
            Phase::BazaarSelect
            | Phase::BazaarBuyOrSell
            | Phase::ExchangePrisoner
            | Phase::Flock
            | Phase::DrawToken => {
                let first = game.legal_actions()[0];
                apply(game, first);
            }
        }
    }
}

/// Plays the game to its end with [`play_out`] inside `zone`, declining every abbey of the
/// end-of-game round and every final move out of the City of Carcassonne (CC6).
pub fn finish_game(game: &mut Game, zone: impl Fn(Pos) -> bool) {
    play_out(game, zone);
    loop {
        match game.phase() {
            Phase::Abbey => apply(game, Action::Pass),
            Phase::LeaveQuarter => apply(
                game,
                Action::QuarterPass {
                    step: QuarterStep::Final,
                },
            ),
            _ => break,
        }
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

/// A two-player game of `sets` (River II among them) for the layout [`RIVER2`], which
/// lays the city lake before the volcano lake (R6 `two-turns`), with the pig herd's
/// switch `pig_herd` (R5).
pub fn river2_game(sets: &[TileSet], pig_herd: bool) -> Game {
    let mut config = config(2, sets);
    config.rules = carcassonne::RuleSwitches {
        pig_herd,
        river2_lakes: carcassonne::config::RiverLakes::TwoTurns,
        ..carcassonne::RuleSwitches::default()
    };
    start(config)
}

/// The ids of the tiles the game may draw next (its chance outcomes, e.g. the lakes
/// left of a river, R1).
pub fn outcome_ids(game: &Game) -> Vec<&'static str> {
    game.chance_outcomes().iter().map(|(k, _)| k.id()).collect()
}

/// The placement of the tile in hand at `xy` turned by `r`, without a bridge.
pub fn at(xy: Xy, r: u8) -> Action {
    Action::PlaceTile {
        pos: pos(xy),
        rot: rot(r),
        bridge: None,
    }
}

/// Places the given tiles in order, deploying nothing.
#[track_caller]
pub fn lay(game: &mut Game, tiles: &[(&str, Xy, u8)]) {
    for (id, xy, r) in tiles {
        place(game, id, *xy, *r);
    }
}

/// Draws `id` and places it at `xy` turned by `r` with `bridge` (a bridge the placement
/// needs, BR2); the placement must be legal.
#[track_caller]
pub fn play_bridged(game: &mut Game, id: &str, xy: Xy, r: u8, bridge: Option<(Xy, Axis)>) {
    draw(game, id);
    apply(
        game,
        Action::PlaceTile {
            pos: pos(xy),
            rot: rot(r),
            bridge: bridge.map(|(b, axis)| {
                let bridge = Bridge { pos: pos(b), axis };
                bridge
                    .relative_to(pos(xy))
                    .expect("a bridge next to the tile")
            }),
        },
    );
}

// ----- a naive count of completed cities and roads (KR3) ----------------------------------

const DELTAS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Local feature of `kind` turned by `rot` holding third `third` of board side `side`.
fn feature_at(kind: TileKind, rot: Rotation, side: usize, third: usize) -> Option<usize> {
    let canonical = (side + 4 - rot.quarter_turns() as usize) % 4;
    let bit = 1u16 << (canonical * 3 + third);
    kind.def()
        .features
        .iter()
        .position(|f| f.segments & bit != 0)
}

/// A feature as the sorted list of its parts `(x, y, local feature index)`.
pub type FeatureParts = Vec<(i32, i32, usize)>;

/// The completed cities and roads on the board, counted from scratch: every city and road
/// made of catalogue segments joined across sides, complete when none of its parts has a
/// side facing an empty square (B8, B9). Shares nothing with the engine's feature
/// structure; ignores bridges and abbeys (the tests that use it have none). Each
/// feature is returned as the sorted list of its parts `(x, y, local)`.
pub fn naive_completed(game: &Game) -> (Vec<FeatureParts>, Vec<FeatureParts>) {
    let board: HashMap<(i32, i32), (TileKind, Rotation)> = game
        .board()
        .placements()
        .iter()
        .map(|p| ((p.pos.x, p.pos.y), (p.kind, p.rot)))
        .collect();
    let mut seen = BTreeSet::new();
    let (mut cities, mut roads) = (Vec::new(), Vec::new());
    let mut squares: Vec<_> = board.keys().copied().collect();
    squares.sort();
    for (x, y) in squares {
        let (kind, _) = board[&(x, y)];
        for (local, f) in kind.def().features.iter().enumerate() {
            if !matches!(f.kind, FeatureKind::City | FeatureKind::Road)
                || seen.contains(&(x, y, local))
            {
                continue;
            }
            let mut parts = BTreeSet::from([(x, y, local)]);
            let mut queue = VecDeque::from([(x, y, local)]);
            let mut open = false;
            while let Some((px, py, pl)) = queue.pop_front() {
                let (pk, pr) = board[&(px, py)];
                for (side, (dx, dy)) in DELTAS.iter().enumerate() {
                    for third in 0..3 {
                        if feature_at(pk, pr, side, third) != Some(pl) {
                            continue;
                        }
                        let n = (px + dx, py + dy);
                        let Some(&(nk, nr)) = board.get(&n) else {
                            open = true;
                            continue;
                        };
                        if let Some(other) = feature_at(nk, nr, (side + 2) % 4, 2 - third) {
                            if parts.insert((n.0, n.1, other)) {
                                queue.push_back((n.0, n.1, other));
                            }
                        }
                    }
                }
            }
            seen.extend(parts.iter().copied());
            if !open {
                let list: Vec<_> = parts.into_iter().collect();
                if f.kind == FeatureKind::City {
                    cities.push(list);
                } else {
                    roads.push(list);
                }
            }
        }
    }
    (cities, roads)
}

// ----- Traders & Builders ----------------------------------------------------------------------

/// The squares where [`last_tile_on_the_builders_road`] lays the pile: north of the start
/// tile's city, and beyond the row north of the start road, which stays free.
fn far_north(p: Pos) -> bool {
    (p.x == 0 && p.y == -1) || p.y <= -2
}

/// Plays the pile far north down to its 7 straight roads and 4 monasteries, then, from the
/// turn player A (the other is B): A's thief at (1, 0) and builder at (2, 0) on the start
/// road, monasteries at (0, 1), (2, 1), (0, 2), (1, 2) around the hole (1, 1), A's north–south
/// roads at (-1, 1) and (-1, 2) off his road, B's tiles at (3, 0) and (4, 0) on it (no
/// builder of his: no extra turn), and A's last tile of the pile at (5, 0), which adds to
/// his builder's road. Returns A.
pub fn last_tile_on_the_builders_road(game: &mut Game) -> usize {
    let kept = [tile("BASE-U"), tile("BASE-B")];
    play_out_until(game, far_north, &kept, 11);
    assert_eq!(game.tiles_left(), 11);
    let a = game.turn_player();
    place_follower(game, "BASE-U", (1, 0), 0, "r1"); // A
    place(game, "BASE-B", (0, 1), 0); // B
    place_deploy(game, "BASE-U", (2, 0), 0, Figure::Builder, "r1"); // A
    place(game, "BASE-B", (2, 1), 0); // B
    place(game, "BASE-B", (0, 2), 0); // A
    place(game, "BASE-B", (1, 2), 0); // B: (1, 1) is a hole
    place(game, "BASE-U", (-1, 1), 1); // A
    place(game, "BASE-U", (3, 0), 0); // B
    place(game, "BASE-U", (-1, 2), 1); // A
    place(game, "BASE-U", (4, 0), 0); // B
    assert_eq!(game.turn_player(), a);
    assert!(game.turns().iter().all(|t| !t.extra_turn));
    place(game, "BASE-U", (5, 0), 0); // A: the last tile
    assert_eq!(game.tiles_left(), 0);
    a
}
