//! Rule-by-rule scenarios of the River and River II (R1–R6 of `docs/rules.md`).
//!
//! The rivers are laid by hand with the layouts [`common::RIVER1`] and
//! [`common::RIVER2`]; each tile's sides are worked out in those layouts' comments.

mod common;

use carcassonne::config::RiverLakes;
use carcassonne::game::tile;
use carcassonne::tiles::Symbols;
use carcassonne::{Action, Figure, Game, Phase, Pos, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;

fn river1_game() -> Game {
    start(config(2, &[TileSet::Base, TileSet::River1]))
}

fn is_river(id: &str) -> bool {
    tile(id).def().has(Symbols::RIVER)
}

fn outcome_ids(game: &Game) -> Vec<&'static str> {
    game.chance_outcomes().iter().map(|(k, _)| k.id()).collect()
}

fn at(xy: Xy, r: u8) -> Action {
    Action::PlaceTile {
        pos: pos(xy),
        rot: rot(r),
        bridge: None,
    }
}

/// R1: the spring is the start tile; every river tile is drawn before any other, the lake
/// last; then the rest of the pile.
#[test]
fn r1_spring_starts_and_river_tiles_come_first_lake_last() {
    let mut game = river1_game();
    let start = &game.board().placements()[0];
    assert_eq!(start.kind, tile("RIV1-SPRING"));
    assert_eq!(start.pos, pos((0, 0)));
    // 72 base tiles + 11 river tiles (12 less the spring).
    assert_eq!(game.tiles_left(), 72 + 11);
    for (i, (id, xy, r)) in RIVER1.iter().enumerate() {
        let outcomes = outcome_ids(&game);
        if i < RIVER1.len() - 1 {
            assert!(outcomes.iter().all(|o| is_river(o)), "{outcomes:?}");
            assert!(!outcomes.contains(&"RIV1-LAKE"), "the lake comes last");
        } else {
            assert_eq!(outcomes, vec!["RIV1-LAKE"]);
        }
        place(&mut game, id, *xy, *r);
    }
    let outcomes = outcome_ids(&game);
    assert!(outcomes.iter().all(|o| !is_river(o)));
    assert!(outcomes.contains(&"BASE-D"));
    assert_eq!(game.tiles_left(), 72);
}

/// R1: with River II its fork is placed right after the spring.
#[test]
fn r1_river2_fork_right_after_the_spring() {
    let game = start(config(2, &[TileSet::Base, TileSet::River2]));
    assert_eq!(game.board().placements()[0].kind, tile("RIV2-SPRING"));
    assert_eq!(outcome_ids(&game), vec!["RIV2-FORK"]);
}

/// R2: river sides match only river sides, and a river tile must continue the river.
#[test]
fn r2_river_sides_match_only_river_and_continue_the_river() {
    let mut game = river1_game();
    draw(&mut game, "RIV1-STRAIGHT");
    // The spring's river leaves east: the straight goes to (1, 0) west–east (r0, r2);
    // turned north–south its west side would be field against the river.
    assert_legal(&game, at((1, 0), 0));
    assert_legal(&game, at((1, 0), 2));
    assert_not_legal(&game, at((1, 0), 1));
    // South of the spring all sides match (field against field) but the river would not
    // continue the spring's river.
    assert_not_legal(&game, at((0, 1), 0));
    let legal = legal(&game);
    assert!(legal
        .iter()
        .all(|a| matches!(a, Action::PlaceTile { pos: p, .. } if *p == pos((1, 0)))));
}

/// R2: no immediate U-turn: after a right bend the next bend may not turn right again.
#[test]
fn r2_no_u_turn() {
    let mut game = river1_game();
    lay(&mut game, &RIVER1[..2]); // road bridge, bend right (east to south) at (2, 0)
    draw(&mut game, "RIV1-CURVE-G");
    // At (2, 1) the river comes from the north. Rotation 2 bends left (to the east);
    // rotation 1 would bend right again (to the west), back against the river: refused,
    // though its sides fit (river north, fields elsewhere or empty neighbours).
    assert_legal(&game, at((2, 1), 2));
    assert_not_legal(&game, at((2, 1), 1));
    assert_eq!(legal(&game), vec![at((2, 1), 2)]);
}

/// R2, B5: the two branches of River II may not be joined. Both open ends of the fork's
/// branches face (3, -1): a straight there would join them; it fits by its sides but is
/// refused, so it fits nowhere and is discarded.
#[test]
fn r2_river2_branches_never_joined() {
    let mut game = start(config(2, &[TileSet::Base, TileSet::River2]));
    // Fork at (1, 0): branches north and east. North: city bridge at (1, -1), a bend
    // right (north to east) at (1, -2), the monastery straight east at (2, -2), a bend
    // right (east to south) at (3, -2). East: the road bridge straight east at (2, 0),
    // then a bend left (east to north) at (3, 0). No two consecutive bends the same way
    // on either branch, and the first tiles of both branches are straight (R2 at the
    // fork); both branches now head for (3, -1).
    lay(
        &mut game,
        &[
            ("RIV2-FORK", (1, 0), 0),
            ("RIV2-CITY-BRIDGE", (1, -1), 0),
            ("RIV2-ROAD-BRIDGE-INN", (2, 0), 1),
            ("RIV2-CITY-CORNER-CURVE", (1, -2), 0),
            ("RIV2-MONASTERY", (2, -2), 0),
            ("RIV2-CURVE-G", (3, -2), 0),
            ("RIV2-CURVE-PIGS", (3, 0), 0),
        ],
    );
    let player = game.turn_player();
    let board = game.board().len();
    draw(&mut game, "RIV2-CITY-ROAD-BRIDGE");
    assert_eq!(game.phase(), Phase::Draw, "discarded (B5)");
    assert_eq!(game.turn_player(), player);
    assert_eq!(game.board().len(), board);
    assert!(!game.board().is_placed(pos((3, -1))));
}

/// The spring at (0, 0) and the fork at (1, 0) with its branches east and south (R2's
/// example in `docs/rules.md`).
fn fork_east_and_south() -> Game {
    let mut game = start(config(2, &[TileSet::Base, TileSet::River2]));
    // The fork's river runs west, north and east; turned twice it runs east, south and
    // west, west meeting the spring.
    place(&mut game, "RIV2-FORK", (1, 0), 2);
    game
}

/// R2 at the fork, the rule's example: the path from the south branch through the fork
/// into the east branch turns right (north, then east), so the east branch's first tile
/// may not turn right (south); the path from the east branch into the south branch turns
/// left (west, then south), so the south branch's first tile may not turn left (east).
/// The south branch may not turn right (west) either: the river came from the west into
/// the fork and turned right there (the plain U-turn).
#[test]
fn r2_at_the_fork_no_u_through_the_fork() {
    let mut game = fork_east_and_south();
    // The curve's river runs south and west: at (2, 0) unturned it enters from the west
    // and leaves south (right), turned once it leaves north (left); at (1, 1) turned once
    // it enters from the north and leaves west (right), turned twice east (left).
    draw(&mut game, "RIV2-CURVE-G");
    assert_not_legal(&game, at((2, 0), 0));
    assert_legal(&game, at((2, 0), 1));
    assert_not_legal(&game, at((1, 1), 2));
    assert_not_legal(&game, at((1, 1), 1));
    assert_eq!(legal(&game), vec![at((2, 0), 1)]);
    // The other curves alike: the city corner curve runs east and south (turned twice
    // west and north: the east branch turning left; turned once south and west: turning
    // right), the pig curve north and west (unturned: turning left).
    let mut game = fork_east_and_south();
    draw(&mut game, "RIV2-CITY-CORNER-CURVE");
    assert_eq!(legal(&game), vec![at((2, 0), 2)]);
    let mut game = fork_east_and_south();
    draw(&mut game, "RIV2-CURVE-PIGS");
    assert_eq!(legal(&game), vec![at((2, 0), 0)]);
}

/// R2 at the fork: straights go on either branch, and the legal bend of the east branch
/// (left, north) is followed by the usual rules: the south branch's first tile may still
/// be straight, and the east branch may go on.
#[test]
fn r2_at_the_fork_straights_and_the_legal_bend() {
    let mut game = fork_east_and_south();
    // The monastery's river runs west–east: east of the fork unturned, south of it turned
    // once (north–south).
    draw(&mut game, "RIV2-MONASTERY");
    let mut placements = legal(&game);
    placements.sort_by_key(|a| format!("{a:?}"));
    let mut expected = vec![at((2, 0), 0), at((2, 0), 2), at((1, 1), 1), at((1, 1), 3)];
    expected.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(placements, expected);
    apply(&mut game, at((2, 0), 0));
    finish_turn(&mut game);
    // After a straight the east branch may bend either way again (its first tile is
    // placed); the south branch still may not bend.
    draw(&mut game, "RIV2-CURVE-G");
    assert_legal(&game, at((3, 0), 0));
    assert_legal(&game, at((3, 0), 1));
    assert_not_legal(&game, at((1, 1), 1));
    assert_not_legal(&game, at((1, 1), 2));
}

/// R3: followers go onto the other features of river tiles, never onto the river; the
/// river separates fields like a road.
#[test]
fn r3_followers_beside_the_river_and_fields_split_by_it() {
    let mut game = river1_game();
    // Seat 0: the road bridge at (1, 0): its road takes a thief, its river nothing.
    play(&mut game, "RIV1-ROAD-BRIDGE", (1, 0), 1);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "r1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "w1"));
    finish_turn(&mut game);
    lay(&mut game, &RIVER1[1..3]);
    // Seat 1: the straight at (3, 1), farmer on its north bank.
    place_follower(&mut game, "RIV1-STRAIGHT", (3, 1), 0, "f1");
    lay(&mut game, &RIVER1[4..7]);
    // Seat 1: the two caps at (6, 2). Its north-bank field f1 is the same field as the
    // farmer's (the bank runs along the bends); the south bank f2 is another field.
    play(&mut game, "RIV1-TWO-CAPS", (6, 2), 0);
    assert_eq!(game.turn_player(), 1);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (6, 2), "f1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (6, 2), "f2"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (6, 2), "c1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (6, 2), "c2"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (6, 2), "w1"));
}

/// R4: River I and River II together: River II's spring starts, the River I spring and
/// lake are out of the game, River II's fork comes first.
#[test]
fn r4_both_rivers_one_spring_no_river1_lake_fork_first() {
    let mut game = start(config(
        2,
        &[TileSet::Base, TileSet::River1, TileSet::River2],
    ));
    assert_eq!(game.board().placements()[0].kind, tile("RIV2-SPRING"));
    let left = |g: &Game, id: &str| g.remaining_tiles()[tile(id).index()];
    assert_eq!(left(&game, "RIV1-LAKE"), 0);
    assert_eq!(left(&game, "RIV1-SPRING"), 0);
    assert_eq!(left(&game, "RIV2-SPRING"), 0);
    assert_eq!(left(&game, "RIV2-LAKE-CITY"), 1);
    assert_eq!(left(&game, "RIV2-LAKE-VOLCANO"), 1);
    // 72 base + River I without spring and lake (10) + River II without spring (11).
    assert_eq!(game.tiles_left(), 72 + 10 + 11);
    assert_eq!(outcome_ids(&game), vec!["RIV2-FORK"]);
    place(&mut game, "RIV2-FORK", (1, 0), 0);
    let outcomes = outcome_ids(&game);
    assert!(outcomes.contains(&"RIV1-STRAIGHT") && outcomes.contains(&"RIV2-MONASTERY"));
    assert!(!outcomes.iter().any(|o| o.contains("LAKE")));
}

/// R5, PD2: River II's volcano lake brings the dragon when The Princess & the Dragon is in
/// play, and nobody may deploy on it (PD1); without that set it is an ordinary lake.
#[test]
fn r5_volcano_lake_brings_the_dragon_with_princess_and_dragon() {
    // The lakes as ordinary last river tiles (R6 `two-turns`), the city lake first: the
    // volcano lake is then a turn of its own.
    let two_turns = |sets: &[TileSet]| {
        let mut c = config(2, sets);
        c.rules.river2_lakes = RiverLakes::TwoTurns;
        c
    };
    let lake = pos((7, 2));
    let mut game = start(two_turns(&[TileSet::Base, TileSet::River2]));
    lay(&mut game, &RIVER2[..10]);
    play(&mut game, "RIV2-LAKE-VOLCANO", (7, 2), 0);
    assert_eq!(game.dragon(), None);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (7, 2), "f1"));

    let sets = [TileSet::Base, TileSet::River2, TileSet::PrincessDragon];
    let mut game = start(two_turns(&sets));
    lay(&mut game, &RIVER2[..10]);
    play(&mut game, "RIV2-LAKE-VOLCANO", (7, 2), 0);
    assert_eq!(game.dragon(), Some(lake));
    assert!(legal(&game)
        .iter()
        .all(|a| !matches!(a, Action::Deploy { pos: p, .. } if *p == lake)));
}

/// R5: the pig herd adds 1 per completed city to the farmers of its field: 4 per city
/// instead of 3. With the engine switch `pig_herd: false` it adds nothing.
#[test]
fn r5_pig_herd_adds_one_per_city() {
    for (pig_herd, per_city) in [(true, 4), (false, 3)] {
        let mut game = river2_game(&[TileSet::Base, TileSet::River2], pig_herd);
        // Seat 1 places the pig-herd bend (4th river tile) with a farmer on its big field.
        lay(&mut game, &RIVER2[..3]);
        place_follower(&mut game, "RIV2-CURVE-PIGS", (3, 0), 3, "f2");
        lay(&mut game, &RIVER2[4..]);
        // Three cities that the pig field touches, each closed by a cap:
        // * the city bridge's band at (1, -1): caps west (0, -1) and east (2, -1);
        // * the lake city at (1, -2), facing north: cap at (1, -3);
        // * the city-and-road bridge's city at (4, 1), facing north: cap at (4, 0).
        // The field runs from the pig bend north of the monastery, along the fork's
        // north-east corner and the bridge to the lake city, and through the road bend's
        // inner corner to the small field beside the (4, 1) city; the cap tiles' fields
        // join it too.
        place(&mut game, "BASE-E", (0, -1), 1);
        place(&mut game, "BASE-E", (2, -1), 3);
        place(&mut game, "BASE-E", (1, -3), 2);
        place(&mut game, "BASE-E", (4, 0), 2);
        assert_eq!(game.scores(), &[0, 0]);
        let since = game.events().len();
        // The rest of the pile goes east of the lake, beyond the road bridge that cuts
        // both of its banks off the pig field.
        finish_game(&mut game, |p: Pos| p.x >= 8);
        assert_eq!(
            points_since(&game, since),
            vec![(1, 3 * per_city, ScoreKind::Farmers)],
            "pig_herd {pig_herd}"
        );
    }
}

/// R6 `two-turns`: the two lakes are the last river tiles, drawn in either order by
/// successive players as ordinary turns; a figure may go on the volcano lake without
/// The Princess & the Dragon.
#[test]
fn r6_two_turns_lakes_are_ordinary_tiles() {
    let mut c = config(2, &[TileSet::Base, TileSet::River2]);
    c.rules.river2_lakes = RiverLakes::TwoTurns;
    let mut game = start(c);
    lay(&mut game, &RIVER2[..9]);
    let mut lakes = outcome_ids(&game);
    lakes.sort();
    assert_eq!(lakes, vec!["RIV2-LAKE-CITY", "RIV2-LAKE-VOLCANO"]);
    let first = game.turn_player();
    play(&mut game, "RIV2-LAKE-VOLCANO", (7, 2), 0);
    assert_eq!(game.phase(), Phase::Deploy);
    let farmer = deploy_action(&game, FOLLOWER, (7, 2), "f1");
    apply(&mut game, farmer);
    assert_ne!(game.turn_player(), first);
    assert_eq!(outcome_ids(&game), vec!["RIV2-LAKE-CITY"]);
    place(&mut game, "RIV2-LAKE-CITY", (1, -2), 3);
    assert_eq!(game.tiles_left(), 72);
}
