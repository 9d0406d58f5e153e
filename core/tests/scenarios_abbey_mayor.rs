//! Rule-by-rule scenarios of Abbey & Mayor (AM1–AM11 of `docs/rules.md`): base game with one
//! abbey tile, mayor, barn and wagon per player.

mod common;

use carcassonne::config::{BarnPlacement, WagonMove};
use carcassonne::{Action, Corner, Figure, Game, Phase, RuleSwitches, ScoreKind, TileSet};
use common::*;
use std::collections::BTreeSet;

const FOLLOWER: Figure = Figure::Follower;
const AM: [TileSet; 2] = [TileSet::Base, TileSet::AbbeyMayor];

fn am_game(players: u8) -> Game {
    start(config(players, &AM))
}

fn am_game_with(rules: RuleSwitches) -> Game {
    let mut config = config(2, &AM);
    config.rules = rules;
    start(config)
}

fn barn(xy: Xy, corner: Corner) -> Action {
    Action::DeployBarn {
        pos: pos(xy),
        corner,
    }
}

fn wagon_to(game: &Game, xy: Xy, feature: &str) -> Action {
    Action::MoveWagon {
        pos: pos(xy),
        feature: local(game, xy, feature),
    }
}

fn barn_actions(game: &Game) -> Vec<Action> {
    legal(game)
        .into_iter()
        .filter(|a| matches!(a, Action::DeployBarn { .. }))
        .collect()
}

// ----- abbey (AM1–AM4) -------------------------------------------------------------------

/// Lays the tiles around the hole (1, 1), deploying `figures` when given:
///
/// * (-1, 0) T-junction: its east arm starts the road through the start tile;
/// * (1, 0) curve west–south: the road turns south into the hole;
/// * (0, 1) cap facing east: its city opens onto the hole;
/// * (2, 0), (2, 1), (0, 2) monasteries and (1, 2) a cap facing south: fields towards
///   the hole.
///
/// With figures, seat 0 has a thief on the road and seat 1 a knight on the cap.
fn around_the_hole(game: &mut Game, figures: bool) {
    if figures {
        place_follower(game, "BASE-W", (-1, 0), 0, "r1");
    } else {
        place(game, "BASE-W", (-1, 0), 0);
    }
    place(game, "BASE-V", (1, 0), 0);
    place(game, "BASE-B", (2, 0), 0);
    if figures {
        place_follower(game, "BASE-E", (0, 1), 1, "c1");
    } else {
        place(game, "BASE-E", (0, 1), 1);
    }
    place(game, "BASE-B", (2, 1), 0);
    place(game, "BASE-B", (0, 2), 0);
    // No square has four neighbours yet: nobody is offered the abbey.
    assert_eq!(game.phase(), Phase::Draw);
    place(game, "BASE-E", (1, 2), 2);
}

/// AM1, AM2, AM3: instead of drawing, a player may put his abbey into a hole (a square
/// with four neighbours). It fits every side, closes the road and the city that end
/// there (the road of 3 tiles scores 3, the city of 1 tile 2; the abbey is not a tile of
/// either) and takes a monk, who scores 9 once the abbey is surrounded.
#[test]
fn am1_am2_am3_abbey_in_a_hole_closes_a_road_and_a_city() {
    let mut game = am_game(2);
    around_the_hole(&mut game, true);
    // Seat 1's turn: the only hole is (1, 1).
    assert_eq!(game.turn_player(), 1);
    assert_eq!(game.phase(), Phase::Abbey);
    let abbey = Action::PlaceAbbey { pos: pos((1, 1)) };
    assert_eq!(legal(&game), vec![abbey, Action::Pass]);
    let tiles_left = game.tiles_left();
    let since = game.events().len();
    apply(&mut game, abbey);
    assert_eq!(game.abbeys_left(1), 0);
    assert_eq!(game.tiles_left(), tiles_left, "the abbey replaces the draw");
    // AM2: a monk on the abbey.
    deploy(&mut game, FOLLOWER, (1, 1), "m1");
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 3, ScoreKind::Road), (1, 2, ScoreKind::City)]
    );
    // The 8th neighbour of the abbey: (2, 2).
    let since = game.events().len();
    place(&mut game, "BASE-B", (2, 2), 0);
    assert_eq!(
        points_since(&game, since),
        vec![(1, 9, ScoreKind::Monastery)]
    );
}

/// AM1, AM3, R3: an abbey fits next to river tiles; here it closes the road that crosses
/// the River I road bridge (2 tiles, to a monastery in the north).
#[test]
fn am1_abbey_next_to_the_river() {
    let sets = [TileSet::Base, TileSet::River1, TileSet::AbbeyMayor];
    let mut game = start(config(2, &sets));
    // Seat 0: a thief on the road of the river's road bridge at (1, 0).
    place_follower(&mut game, "RIV1-ROAD-BRIDGE", (1, 0), 1, "r1");
    lay(&mut game, &RIVER1[1..]);
    // North of the bridge, a monastery whose road ends the bridge's road.
    place(&mut game, "BASE-A", (1, -1), 0); // seat 1
    place(&mut game, "BASE-B", (0, 1), 0); // seat 0
    place(&mut game, "BASE-B", (2, 2), 0); // seat 1
    place(&mut game, "BASE-B", (1, 2), 0); // seat 0

    // (1, 1) has the bridge (road side), the river bend (field side), two monasteries.
    assert_eq!(game.phase(), Phase::Abbey);
    let since = game.events().len();
    apply(&mut game, Action::PlaceAbbey { pos: pos((1, 1)) });
    finish_turn(&mut game);
    assert_eq!(points_since(&game, since), vec![(0, 2, ScoreKind::Road)]);
}

/// AM4: after the last tile, each player who still has his abbey may place it, once,
/// clockwise from the player after the one who placed the last tile; then the game ends.
#[test]
fn am4_end_of_game_abbey_round() {
    let mut game = am_game(3);
    around_the_hole(&mut game, false);
    play_out(&mut game, north_of_start);
    assert_eq!(game.tiles_left(), 0);
    assert_eq!(game.phase(), Phase::Abbey);
    let last = game
        .turns()
        .iter()
        .rev()
        .find(|t| t.draw.is_some())
        .expect("a last tile")
        .player as usize;
    let abbey = Action::PlaceAbbey { pos: pos((1, 1)) };
    let first = (last + 1) % 3;
    let second = (last + 2) % 3;
    assert_eq!(game.to_play(), first);
    assert_legal(&game, abbey);
    apply(&mut game, Action::Pass);
    assert_eq!(game.phase(), Phase::Abbey);
    assert_eq!(game.to_play(), second);
    apply(&mut game, abbey);
    deploy(&mut game, FOLLOWER, (1, 1), "m1");
    // The seat that placed the last tile is asked last, if a hole is left for it.
    if game.phase() == Phase::Abbey {
        assert_eq!(game.to_play(), last);
        assert_not_legal(&game, abbey);
        apply(&mut game, Action::Pass);
    }
    assert!(game.is_terminal());
    // The abbey's monk at the end: 7 neighbours ((2, 2) is empty) → 1 + 7 = 8.
    let mut expected = [0; 3];
    expected[second] = 8;
    assert_eq!(game.scores(), &expected);
    assert_eq!(game.abbeys_left(second), 0);
    assert_eq!(game.abbeys_left(first), 1);
}

// ----- mayor (AM5) ---------------------------------------------------------------------------

/// AM5: the mayor goes only into a city; in a city without pennants his strength is 0 and
/// the completed city scores for nobody; he returns.
#[test]
fn am5_mayor_in_a_city_without_pennants_scores_for_nobody() {
    let mut game = am_game(2);
    play(&mut game, "BASE-E", (0, -1), 2);
    assert_legal(&game, deploy_action(&game, Figure::Mayor, (0, -1), "c1"));
    assert_not_legal(&game, deploy_action(&game, Figure::Mayor, (0, -1), "f1"));
    deploy(&mut game, Figure::Mayor, (0, -1), "c1");
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(game.supply(0, Figure::Mayor), 1);
}

/// Seat 0's mayor in the pennant cap at (1, 1), seat 1's knight in the cap at (-1, 1),
/// then seat 0 joins them with `centre` at (0, 1). Returns the scores.
fn mayor_against_knight(centre: &str) -> Vec<i32> {
    let mut game = am_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_deploy(&mut game, "AM-CITY-3FIELDS", (1, 1), 0, Figure::Mayor, "c1");
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
    place(&mut game, centre, (0, 1), 0);
    assert_eq!(game.supply(0, Figure::Mayor), 1, "the mayor returns");
    game.scores().to_vec()
}

/// AM5, B13: the mayor counts as many followers as the city has pennants. With the pennant
/// band in the middle the city has 3 tiles and 2 pennants (3 × 2 + 2 × 2 = 10): the mayor
/// (2) beats the knight (1). With the plain band it has 1 pennant (3 × 2 + 2 = 8): 1
/// against 1, both score.
#[test]
fn am5_mayor_strength_is_the_pennants() {
    assert_eq!(mayor_against_knight("BASE-F"), vec![10, 0]);
    assert_eq!(mayor_against_knight("BASE-G"), vec![8, 8]);
}

// ----- barn (AM6–AM9) -------------------------------------------------------------------------

/// AM6: the barn goes only on a corner of the placed tile where four tiles meet and all
/// four quarters are field.
#[test]
fn am6_barn_only_on_a_corner_of_four_fields() {
    let mut game = am_game(2);
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place(&mut game, "BASE-E", (0, -1), 2); // seat 1: closes the start city

    // Seat 0: (1, -1) meets the start tile at its north-east corner, which is city.
    play(&mut game, "BASE-B", (1, -1), 0);
    assert_eq!(barn_actions(&game), vec![]);
    finish_turn(&mut game);
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1

    // Seat 0: (1, 1) closes four field quarters around the start's south-east corner.
    play(&mut game, "BASE-B", (1, 1), 0);
    assert_eq!(barn_actions(&game), vec![barn((1, 1), Corner::NW)]);
}

/// The barn position, south of the start:
///
/// * seat 0 puts a farmer on the field south of the road at (1, 0);
/// * a city of 2 caps at (0, 1)–(0, 2) borders that field and, below, a field where seat 1
///   puts a farmer;
/// * seat 1 places (1, 1), which closes four field quarters at its north-west corner, and
///   puts its barn there: the field is scored at once (AM7).
fn barn_position(barn_placement: BarnPlacement) -> Game {
    let mut game = am_game_with(RuleSwitches {
        barn_placement,
        ..RuleSwitches::default()
    });
    place_follower(&mut game, "BASE-U", (1, 0), 0, "f2"); // seat 0
    place(&mut game, "BASE-E", (0, 1), 2); // seat 1: cap facing south
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-E", (0, 2), 0, "f1"); // seat 1: cap facing north
    place(&mut game, "BASE-B", (0, 3), 0); // seat 0
    play(&mut game, "BASE-B", (1, 1), 0); // seat 1
    apply(&mut game, barn((1, 1), Corner::NW));
    game
}

/// AM7: placing a barn scores its field at once for the farmers' majority: 3 per completed
/// city (1 city: 3 for seat 0, whose farmer returns; the barn stays). The barn's owner
/// need not have a farmer there.
#[test]
fn am7_barn_placed_scores_the_field_3_per_city() {
    let game = barn_position(BarnPlacement::NotOccupied);
    let events = game.events();
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].player, events[0].points, events[0].kind),
        (0, 3, ScoreKind::BarnPlaced)
    );
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, Figure::Barn), 0);
    assert_eq!(on_board(&game, 1, Figure::Barn), 1);
}

/// AM6 (`not-occupied`), AM8, AM9: no farmer and no second barn in a field with a barn; a
/// field with farmers that joins it is scored at once at 1 per city (seat 1: 1) and the
/// farmers return; at the end the barn scores 4 per completed city of its field (4).
#[test]
fn am8_am9_barn_field_joined_and_end_scoring() {
    let mut game = barn_position(BarnPlacement::NotOccupied);
    // Seat 0: (-1, 1) closes another corner of four fields of the same field.
    play(&mut game, "BASE-B", (-1, 1), 0);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (-1, 1), "f1"));
    assert_not_legal(&game, barn((-1, 1), Corner::NE));
    finish_turn(&mut game);
    // Seat 1: (1, 2) joins its farmer's field (below the city) to the barn's field.
    let since = game.events().len();
    place(&mut game, "BASE-B", (1, 2), 0);
    assert_eq!(
        points_since(&game, since),
        vec![(1, 1, ScoreKind::BarnConnected)]
    );
    assert_eq!(game.supply(1, FOLLOWER), 7);
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    assert_eq!(points_since(&game, since), vec![(1, 4, ScoreKind::Barn)]);
    assert_eq!(game.scores(), &[3, 1 + 4]);
    assert_eq!(on_board(&game, 1, Figure::Barn), 1, "the barn stays");
}

/// AM6 (`occupied`), AM9: a second barn may go into the field; at the end each barn scores
/// 4 per completed city in full.
#[test]
fn am6_am9_two_barns_in_one_field() {
    let mut game = barn_position(BarnPlacement::Occupied);
    play(&mut game, "BASE-B", (-1, 1), 0); // seat 0
    apply(&mut game, barn((-1, 1), Corner::NE));
    place(&mut game, "BASE-B", (1, 2), 0); // seat 1: joins, 1 point
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 4, ScoreKind::Barn), (1, 4, ScoreKind::Barn)]
    );
    assert_eq!(game.scores(), &[3 + 4, 1 + 4]);
}

// ----- wagon (AM10, AM11) -----------------------------------------------------------------------

/// AM10: the wagon goes onto a road, a city or a monastery, never a field.
#[test]
fn am10_wagon_on_road_city_monastery_not_field() {
    let mut game = am_game(2);
    play(&mut game, "BASE-A", (0, 1), 0);
    assert_legal(&game, deploy_action(&game, Figure::Wagon, (0, 1), "r1"));
    assert_legal(&game, deploy_action(&game, Figure::Wagon, (0, 1), "m1"));
    assert_not_legal(&game, deploy_action(&game, Figure::Wagon, (0, 1), "f1"));
    finish_turn(&mut game);
    play(&mut game, "BASE-E", (0, -1), 2);
    assert_legal(&game, deploy_action(&game, Figure::Wagon, (0, -1), "c1"));
}

/// Seat 0's wagon on the east arm of a T-junction west of the start; seat 1 closes the
/// road with a T-junction east of it: 3 tiles, 3 points for the wagon (AM11: it counts as
/// a follower). Returns the game at seat 0's wagon decision.
fn wagon_scored(wagon_move: WagonMove) -> Game {
    let mut game = am_game_with(RuleSwitches {
        wagon_move,
        ..RuleSwitches::default()
    });
    place_deploy(&mut game, "BASE-W", (-1, 0), 0, Figure::Wagon, "r1");
    place(&mut game, "BASE-W", (1, 0), 0);
    assert_eq!(game.scores(), &[3, 0]);
    assert_eq!(game.phase(), Phase::WagonMove);
    assert_eq!(game.to_play(), 0);
    game
}

fn action_set(actions: Vec<Action>) -> BTreeSet<String> {
    actions.into_iter().map(|a| a.to_string()).collect()
}

/// AM11 (`C2`): the wagon may move onto a free, incomplete road, city or monastery on its
/// own tile or one of the 8 surrounding tiles: the junction's other arms and the start
/// city — not the arms of the far junction two squares away, nor the road just scored.
#[test]
fn am11_wagon_moves_to_surrounding_tiles_under_c2() {
    let mut game = wagon_scored(WagonMove::C2);
    let expected = vec![
        wagon_to(&game, (-1, 0), "r2"),
        wagon_to(&game, (-1, 0), "r3"),
        wagon_to(&game, (0, 0), "c1"),
        Action::Pass,
    ];
    assert_eq!(action_set(legal(&game)), action_set(expected));
    let to_city = wagon_to(&game, (0, 0), "c1");
    apply(&mut game, to_city);
    assert_eq!(
        figures_at(&game, (0, 0)),
        vec![(0, Figure::Wagon, "c1".into())]
    );
    assert_eq!(game.supply(0, Figure::Wagon), 0);
    assert_eq!(game.phase(), Phase::Draw);
}

/// AM11 (`C1`): the wagon may move only onto features connected to the scored road: the
/// other arms of both junctions — not the start city, which the road only passes.
#[test]
fn am11_wagon_moves_to_connected_features_under_c1() {
    let game = wagon_scored(WagonMove::C1);
    let expected = vec![
        wagon_to(&game, (-1, 0), "r2"),
        wagon_to(&game, (-1, 0), "r3"),
        wagon_to(&game, (1, 0), "r1"),
        wagon_to(&game, (1, 0), "r2"),
        Action::Pass,
    ];
    assert_eq!(action_set(legal(&game)), action_set(expected));
}

/// AM11: two wagons on one scored road (a tie, 4 points each for 4 tiles) move in turn,
/// starting with the player who placed the tile (seat 1), then clockwise (seat 0); a
/// feature taken by the first is no longer free for the second.
#[test]
fn am11_two_wagons_move_from_the_placer_on() {
    use Figure::Wagon;
    let mut game = am_game(2);
    place_deploy(&mut game, "BASE-W", (-1, 0), 0, Wagon, "r1"); // seat 0: road east
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place(&mut game, "BASE-U", (-2, 0), 0); // seat 0

    // Seat 1: T-junction turned 3 (arms north, east, south) at (1, 1), wagon on the north arm.
    place_deploy(&mut game, "BASE-W", (1, 1), 3, Wagon, "r1");
    place(&mut game, "BASE-U", (-3, 0), 0); // seat 0

    // Seat 1: a curve west–south at (1, 0) joins both roads; the road of 4 tiles is closed.
    let since = game.events().len();
    place(&mut game, "BASE-V", (1, 0), 0);
    assert_eq!(
        points_since(&game, since),
        vec![(0, 4, ScoreKind::Road), (1, 4, ScoreKind::Road)]
    );
    assert_eq!(game.phase(), Phase::WagonMove);
    assert_eq!(game.to_play(), 1, "the placer's wagon moves first");
    let to_monastery = wagon_to(&game, (0, 1), "m1");
    assert_legal(&game, to_monastery);
    apply(&mut game, to_monastery);
    assert_eq!(game.phase(), Phase::WagonMove);
    assert_eq!(game.to_play(), 0);
    assert_not_legal(&game, to_monastery);
    assert_legal(&game, wagon_to(&game, (0, 0), "c1"));
    apply(&mut game, Action::Pass);
    assert_eq!(game.supply(0, Wagon), 1, "declined: back in the supply");
    assert_eq!(game.supply(1, Wagon), 0);
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 0);
}
