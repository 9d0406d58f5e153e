//! Rule-by-rule scenarios of King & Robber Baron (KR1–KR3) and of the Cult (CU1–CU3) of
//! `docs/rules.md`, with the base game (and The Princess & the Dragon, the Count, Abbey &
//! Mayor or the abbot where a scenario needs them).

mod common;

use carcassonne::{Action, Figure, Game, Phase, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const KR: [TileSet; 2] = [TileSet::Base, TileSet::KingRobber];
const CULT: [TileSet; 2] = [TileSet::Base, TileSet::Cult];

fn kr_game() -> Game {
    start(config(2, &KR))
}

fn cult_game() -> Game {
    start(config(2, &CULT))
}

// ----- King & Robber Baron (KR1–KR3) ---------------------------------------------------------

/// KR1: the player who completes a city takes the King if the city is larger than every
/// city completed before, with or without a knight in it; a city of equal size does not
/// take it, a larger one takes it from its holder.
///
/// Seat 0 closes the start city (2 tiles): the first completed city takes the King. Seat
/// 1 completes another city of 2 tiles: the King stays. Seat 1 then completes a city of 3
/// tiles (cap, band, cap) east of the first: the King goes to seat 1. Nobody has a knight.
#[test]
fn kr1_the_king_goes_to_each_larger_completed_city() {
    let mut game = kr_game();
    assert_eq!(game.titles(), (None, None));
    place(&mut game, "BASE-E", (0, -1), 2); // seat 0: closes the start city
    assert_eq!(game.titles(), (Some(0), None));
    place(&mut game, "BASE-E", (0, 1), 2); // seat 1: a cap open southwards
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place(&mut game, "BASE-E", (0, 2), 0); // seat 1: a city of 2 tiles
    assert_eq!(
        game.titles(),
        (Some(0), None),
        "an equal city does not take it"
    );
    place(&mut game, "BASE-E", (1, -1), 1); // seat 0: a cap open eastwards
    place(&mut game, "BASE-G", (2, -1), 0); // seat 1: the band
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0
    place(&mut game, "BASE-D", (3, -1), 3); // seat 1: the closing cap, a city of 3 tiles
    assert_eq!(game.titles(), (Some(1), None));
    assert_eq!(
        game.scores(),
        &[0, 0],
        "the titles give no points during play"
    );
}

/// KR2: the same for roads, the tiles of a road counted once (B12). Seat 0 closes a loop
/// that passes the magic portal tile twice: 8 tile parts, 7 distinct tiles; he takes the
/// Robber Baron. Seat 1 then completes a straight road of 8 tiles through the start tile:
/// 8 is more than 7, so the Robber Baron goes to him (had the loop counted 8, it would
/// stay).
#[test]
fn kr2_the_robber_baron_goes_to_each_longer_completed_road() {
    let sets = [TileSet::Base, TileSet::PrincessDragon, TileSet::KingRobber];
    let mut game = start(config(2, &sets));
    // The loop of `scenarios_base::b12_road_passing_a_tile_twice_counts_it_once`.
    // BASE-V rotations: r3 east–south, r0 south–west, r1 west–north, r2 north–east.
    place(&mut game, "BASE-V", (0, 1), 3); // seat 0
    place(&mut game, "PD-PORTAL-TWO-CURVES", (0, 2), 0); // seat 1
    place(&mut game, "BASE-V", (1, 1), 0); // seat 0
    place(&mut game, "BASE-V", (1, 2), 1); // seat 1
    place(&mut game, "BASE-V", (-1, 2), 3); // seat 0
    place(&mut game, "BASE-V", (-1, 3), 2); // seat 1
    assert_eq!(game.titles(), (None, None));
    place(&mut game, "BASE-V", (0, 3), 1); // seat 0 closes the loop
    assert_eq!(game.titles(), (None, Some(0)));
    // The start road: straights from (−3, 0) to (2, 0), junctions at (3, 0) and (−4, 0).
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 1
    place(&mut game, "BASE-U", (-2, 0), 0); // seat 0
    place(&mut game, "BASE-U", (-3, 0), 0); // seat 1
    place(&mut game, "BASE-W", (3, 0), 0); // seat 0
    assert_eq!(game.titles(), (None, Some(0)));
    place(&mut game, "BASE-W", (-4, 0), 0); // seat 1: 8 tiles
    assert_eq!(game.titles(), (None, Some(1)));
    assert_eq!(game.scores(), &[0, 0]);
}

/// Scoring events as `(player, points)`.
type Payments = Vec<(u8, i32)>;

/// The final King and Robber Baron events: `(holder, points)` of each.
fn title_events(game: &Game) -> (Payments, Payments) {
    let of = |kind| {
        game.events()
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| (e.player, e.points))
            .collect()
    };
    (of(ScoreKind::King), of(ScoreKind::RobberBaron))
}

/// KR3: at the end the King's holder scores 1 point per completed city on the board,
/// occupied or not, the Robber Baron's holder 1 per completed road. The completed cities
/// and roads are counted here from scratch on the final board ([`naive_completed`]); with
/// the Count the City of Carcassonne is one more city (CC2).
#[test]
fn kr3_titles_score_every_completed_city_and_road_at_the_end() {
    for count in [false, true] {
        let sets: Vec<TileSet> = if count {
            vec![TileSet::Base, TileSet::KingRobber, TileSet::Count]
        } else {
            KR.to_vec()
        };
        let mut game = start(config(2, &sets));
        if !count {
            // Seat 0 closes the start city with a knight (it scores and stays completed).
            place_follower(&mut game, "BASE-E", (0, -1), 2, "c1");
        }
        finish_game(&mut game, |_| true);
        let (cities, roads) = naive_completed(&game);
        assert!(!cities.is_empty() && !roads.is_empty());
        let (king, robber) = game.titles();
        let (king, robber) = (
            king.expect("a city was completed") as u8,
            robber.expect("a road was completed") as u8,
        );
        let (king_events, robber_events) = title_events(&game);
        let city_of_carcassonne = i32::from(count);
        assert_eq!(
            king_events,
            vec![(king, cities.len() as i32 + city_of_carcassonne)],
            "count: {count}"
        );
        assert_eq!(robber_events, vec![(robber, roads.len() as i32)]);
    }
}

// ----- the Cult (CU1–CU3) --------------------------------------------------------------------

/// CU1: a shrine is completed and scored like a monastery: 9 points once its 8
/// neighbours lie, for the heretic's owner. An abbot may stand on it like on a
/// monastery.
#[test]
fn cu1_shrine_scores_like_a_monastery() {
    let mut config = config(2, &CULT);
    config.figures.abbot = 1;
    let mut game = start(config);
    play(&mut game, "CULT-SHRINE", (0, 1), 0); // seat 0
    assert_legal(&game, deploy_action(&game, Figure::Abbot, (0, 1), "m1"));
    deploy(&mut game, FOLLOWER, (0, 1), "m1");
    // No other cloister around it (CU2); city caps face away from it.
    lay(
        &mut game,
        &[
            ("BASE-U", (-1, 0), 0),
            ("BASE-U", (1, 0), 0),
            ("BASE-E", (-1, 1), 3),
            ("BASE-E", (1, 1), 1),
            ("BASE-E", (-1, 2), 3),
            ("BASE-E", (1, 2), 1),
        ],
    );
    assert_eq!(game.scores(), &[0, 0]);
    let since = game.events().len();
    place(&mut game, "BASE-E-G", (0, 2), 2); // the eighth neighbour
    assert_eq!(points_since(&game, since), vec![(0, 9, ScoreKind::Shrine)]);
    assert_eq!(game.supply(0, FOLLOWER), 7);
}

/// CU1, B15: an incomplete shrine scores at the end like a monastery: 1 + its neighbours.
/// Seat 1's heretic on a shrine at (0, 1) with 3 neighbours (the start tile and two road
/// tiles beside it): 4 points.
#[test]
fn cu1_incomplete_shrine_at_the_end() {
    let mut game = cult_game();
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place_follower(&mut game, "CULT-SHRINE", (0, 1), 0, "m1"); // seat 1
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    assert_eq!(
        points_since(&game, since),
        vec![(1, 4, ScoreKind::Incomplete)]
    );
}

/// The squares where `tile` may be placed now (any rotation, without a bridge).
fn squares_for(game: &mut Game, tile: &str) -> Vec<(i32, i32)> {
    draw(game, tile);
    let mut v: Vec<_> = legal(game)
        .iter()
        .filter_map(|a| match a {
            Action::PlaceTile { pos, .. } => Some((pos.x, pos.y)),
            _ => None,
        })
        .collect();
    v.dedup();
    v
}

/// CU2: after every placement a shrine has at most one monastery among its 8 neighbours
/// and a monastery at most one shrine.
///
/// Monasteries M1 at (0, 1) and M2 at (2, 1). A shrine fits at (1, 1) by its sides but
/// would have both as neighbours: illegal; at (0, 2) it has M1 only: legal. Then a
/// monastery may not go to (−1, 1), where the shrine would get a second monastery, and a
/// second shrine may not go to (−1, 1) either, where M1 would get a second shrine, while
/// (3, 1), next to M2 alone, takes it.
#[test]
fn cu2_one_rival_at_most() {
    let mut game = cult_game();
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1: M1
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0
    place(&mut game, "BASE-B", (2, 1), 0); // seat 1: M2

    let squares = squares_for(&mut game, "CULT-SHRINE"); // seat 0
    assert!(!squares.contains(&(1, 1)), "two monasteries around (1, 1)");
    assert!(squares.contains(&(0, 2)));
    apply_placement(&mut game, (0, 2), 0);

    let squares = squares_for(&mut game, "BASE-B"); // seat 1
    assert!(
        !squares.contains(&(-1, 1)),
        "the shrine at (0, 2) has a monastery already"
    );
    assert!(squares.contains(&(1, -1)));
    apply_placement(&mut game, (1, -1), 0);

    let squares = squares_for(&mut game, "CULT-SHRINE-CITYCAP"); // seat 0
    assert!(
        !squares.contains(&(-1, 1)),
        "M1 at (0, 1) has a shrine already"
    );
    assert!(squares.contains(&(3, 1)), "M2 has none");
    apply_placement(&mut game, (3, 1), 0);
}

/// CU1, CU2 with Abbey & Mayor: the abbey is a monastery, so it may not go into a hole
/// where a shrine would end up with two monasteries (AM1 offers holes, CU2 rules some
/// out).
///
/// The hole at (0, 1) touches the shrine at (1, 1), which has the monastery at (1, 2)
/// already: with the Cult no abbey decision comes (the only hole is ruled out). Without
/// the Cult, with a monastery at (1, 1) instead, the same hole is offered.
#[test]
fn cu2_an_abbey_is_a_monastery_for_the_shrines_around_it() {
    for cult in [true, false] {
        let mut sets = vec![TileSet::Base, TileSet::AbbeyMayor];
        if cult {
            sets.push(TileSet::Cult);
        }
        let mut game = start(config(2, &sets));
        let next_to_the_hole = if cult { "CULT-SHRINE" } else { "BASE-B" };
        lay(
            &mut game,
            &[
                ("BASE-U", (-1, 0), 0),
                ("BASE-U", (1, 0), 0),
                ("BASE-U", (-1, 1), 0),
                (next_to_the_hole, (1, 1), 0),
                ("BASE-B", (1, 2), 0),
                ("BASE-U", (0, 2), 1), // closes the hole at (0, 1)
            ],
        );
        let abbey_at_the_hole = Action::PlaceAbbey { pos: pos((0, 1)) };
        if cult {
            assert_eq!(game.phase(), Phase::Draw, "no hole takes the abbey");
            assert!(!legal(&game).contains(&abbey_at_the_hole));
        } else {
            assert_eq!(game.phase(), Phase::Abbey);
            assert_legal(&game, abbey_at_the_hole);
        }
    }
}

#[track_caller]
fn apply_placement(game: &mut Game, xy: Xy, r: u8) {
    apply(
        game,
        Action::PlaceTile {
            pos: pos(xy),
            rot: rot(r),
            bridge: None,
        },
    );
    finish_turn(game);
}

/// A cloister `first` at (0, 1) (seat 0's follower on it when `figure`) and its rival
/// `second` at (1, 1) with seat 1's follower; then the tiles around them, the last one a
/// cap at (1, 2) that completes `first` (and with `both`, `second` as well). Returns the
/// game and the score events of the last placement.
fn challenge(
    first: &str,
    second: &str,
    figure: bool,
    both: bool,
) -> (Game, Vec<(u8, i32, ScoreKind)>) {
    let mut game = cult_game();
    if figure {
        place_follower(&mut game, first, (0, 1), 0, "m1"); // seat 0
    } else {
        place(&mut game, first, (0, 1), 0);
    }
    place_follower(&mut game, second, (1, 1), 0, "m1"); // seat 1
    let mut around = vec![
        ("BASE-U", (-1, 0), 0),
        ("BASE-U", (1, 0), 0),
        ("BASE-E", (-1, 1), 3),
        ("BASE-E", (-1, 2), 3),
        ("BASE-E", (0, 2), 2),
    ];
    if both {
        around.extend([
            ("BASE-U", (2, 0), 0),
            ("BASE-E-G", (2, 1), 1),
            ("BASE-H", (2, 2), 1),
        ]);
    }
    lay(&mut game, &around);
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(on_board(&game, 1, FOLLOWER), 1);
    let since = game.events().len();
    place(&mut game, "BASE-E", (1, 2), 1);
    let events = sorted(points_since(&game, since));
    (game, events)
}

/// CU3: a completed monastery that scores sends the heretic of its incomplete rival
/// shrine home without points, and a completed shrine the monk of its rival monastery.
#[test]
fn cu3_completed_cloister_chases_its_rivals_figures() {
    for (first, second, kind) in [
        ("BASE-B", "CULT-SHRINE", ScoreKind::Monastery),
        ("CULT-SHRINE", "BASE-B", ScoreKind::Shrine),
    ] {
        let (game, events) = challenge(first, second, true, false);
        assert_eq!(events, vec![(0, 9, kind)], "{first} completed");
        assert_eq!(
            on_board(&game, 1, FOLLOWER),
            0,
            "the rival's figure returns"
        );
        assert_eq!(game.supply(1, FOLLOWER), 7);
        assert_eq!(game.scores(), &[9, 0]);
    }
}

/// CU3: a completed cloister without figures scores for nobody and removes nothing; two
/// rivals completed in the same turn both score (and the cap at (1, 2) closes a city of
/// 2 tiles without figures with the last of them).
#[test]
fn cu3_no_challenge_without_figures_or_when_both_complete() {
    let (game, events) = challenge("BASE-B", "CULT-SHRINE", false, false);
    assert_eq!(events, vec![]);
    assert_eq!(on_board(&game, 1, FOLLOWER), 1, "the heretic stays");

    let (game, events) = challenge("BASE-B", "CULT-SHRINE", true, true);
    assert_eq!(
        events,
        vec![(0, 9, ScoreKind::Monastery), (1, 9, ScoreKind::Shrine)]
    );
    assert_eq!(game.supply(1, FOLLOWER), 7);
}
