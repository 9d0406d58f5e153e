//! Rule-by-rule scenarios of the base game (B1–B17 of `docs/rules.md`).
//!
//! Every position is built with the engine in explicit-chance mode and every expected
//! value is worked out from the rule text in the comments. Board orientation: `x` grows
//! east, `y` grows south; the start tile `BASE-D` lies at (0, 0) with its city on the north
//! side, its road running west–east and field `f1` between road and city, `f2` south of
//! the road.

mod common;

use carcassonne::game::tile;
use carcassonne::{
    Action, ActionError, Figure, GameConfig, Phase, RuleSwitches, ScoreKind, TileSet,
};
use common::*;

const FOLLOWER: Figure = Figure::Follower;

// ----- setup (B1–B3) -----------------------------------------------------------------

/// B1: 2 to 6 players are accepted, each with 7 followers; 1 and 7 are refused with an
/// error naming the `players` field.
#[test]
fn b1_two_to_six_players_with_seven_followers() {
    for players in 2..=6u8 {
        let game = base_game(players);
        assert_eq!(game.num_players(), players as usize);
        for p in 0..players as usize {
            assert_eq!(game.supply(p, FOLLOWER), 7, "B1: seat {p} has 7 followers");
        }
    }
    for players in [0u8, 1, 7] {
        let err = carcassonne::Game::new(GameConfig::new(players)).unwrap_err();
        assert_eq!(err.field, "players");
    }
}

/// B2: the start tile `BASE-D` lies at (0, 0) in rotation 0 and the other 71 base tiles
/// (72 in the C2 table, less the start tile) form the pile; the draw is uniform over them.
#[test]
fn b2_start_tile_and_shuffled_pile() {
    let game = base_game(2);
    let placed = game.board().placements();
    assert_eq!(placed.len(), 1);
    assert_eq!(placed[0].pos, pos((0, 0)));
    assert_eq!(placed[0].kind, tile("BASE-D"));
    assert_eq!(placed[0].rot, rot(0));
    assert_eq!(game.tiles_left(), 71);
    let outcomes = game.chance_outcomes();
    let p = |id: &str| {
        outcomes
            .iter()
            .find(|(k, _)| *k == tile(id))
            .map(|(_, p)| *p)
            .unwrap_or(0.0)
    };
    // 4 copies of BASE-D, one of them on the board; 7 + 1 straight roads BASE-U(-G).
    assert!((p("BASE-D") - 3.0 / 71.0).abs() < 1e-12);
    assert!((p("BASE-U") - 7.0 / 71.0).abs() < 1e-12);
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
}

/// B3: seat 0 moves first and turns go clockwise (0, 1, 2, 0, ...).
#[test]
fn b3_seat_zero_first_then_clockwise() {
    let mut game = base_game(3);
    let mut seats = vec![game.turn_player()];
    // Three roads continuing the start road eastwards, then one more.
    for x in 1..=3 {
        place(&mut game, "BASE-U", (x, 0), 0);
        seats.push(game.turn_player());
    }
    assert_eq!(seats, vec![0, 1, 2, 0]);
}

// ----- placing tiles (B4, B5) ----------------------------------------------------------

/// B4: a tile must touch the board and every side it shares must match.
#[test]
fn b4_every_shared_side_must_match() {
    let mut game = base_game(2);
    // City cap BASE-E (city on its north side). Turned twice its city faces south and
    // meets the start tile's city: legal. Unturned, its field would face the city: not.
    draw(&mut game, "BASE-E");
    let at = |xy, r| Action::PlaceTile {
        pos: pos(xy),
        rot: rot(r),
        bridge: None,
    };
    assert_legal(&game, at((0, -1), 2));
    assert_not_legal(&game, at((0, -1), 0));
    // East of the start the west side must be road: BASE-E has no road side.
    for r in 0..4 {
        assert_not_legal(&game, at((1, 0), r));
    }
    // Not touching the board at all.
    assert_not_legal(&game, at((5, 5), 0));
    apply(&mut game, at((0, -1), 2));
    finish_turn(&mut game);
    // Second player: a straight road east of the start.
    place(&mut game, "BASE-U", (1, 0), 0);
    // (1, -1) now has two neighbours: the cap's east side (field) to the west and the
    // road tile's north side (field) to the south. BASE-E fits with its city north (r0)
    // or east (r1); with its city south (r2) or west (r3) one shared side is city against
    // field, even though the other shared side matches.
    draw(&mut game, "BASE-E");
    assert_legal(&game, at((1, -1), 0));
    assert_legal(&game, at((1, -1), 1));
    assert_not_legal(&game, at((1, -1), 2));
    assert_not_legal(&game, at((1, -1), 3));
}

/// B5: a drawn tile that fits nowhere is discarded (out of the game) and the same player
/// draws again.
#[test]
fn b5_unplaceable_tile_is_discarded_and_the_same_player_draws_again() {
    let mut game = base_game(2);
    // Close the start city with a cap: every open side of the board is now road or field.
    place(&mut game, "BASE-E", (0, -1), 2);
    // The all-city tile BASE-C needs city on every side it shares: it fits nowhere.
    assert_eq!(game.turn_player(), 1);
    let board_before = game.board().len();
    let left_before = game.tiles_left();
    let c_before = game.remaining_tiles()[tile("BASE-C").index()];
    apply(
        &mut game,
        Action::Draw {
            tile: tile("BASE-C"),
        },
    );
    assert_eq!(game.phase(), Phase::Draw, "B5: the same player draws again");
    assert_eq!(game.turn_player(), 1);
    assert_eq!(game.board().len(), board_before, "the tile is not placed");
    assert_eq!(game.tiles_left(), left_before - 1, "the tile left the game");
    assert_eq!(game.remaining_tiles()[tile("BASE-C").index()], c_before - 1);
    let last = game
        .turns()
        .iter()
        .rev()
        .find(|t| t.draw.is_some())
        .unwrap();
    assert!(last.discarded && last.draw == Some(tile("BASE-C")));
    // The next draw is an ordinary turn of the same player.
    play(&mut game, "BASE-U", (1, 0), 0);
    assert_eq!(game.turn_player(), 1);
}

/// B5: the game ends after the turn in which the last tile is placed: nothing is legal
/// afterwards and every action is refused.
#[test]
fn b5_game_ends_after_the_last_tile() {
    let mut game = base_game(2);
    play_out(&mut game, north_of_start);
    assert_eq!(game.tiles_left(), 0);
    assert!(game.is_terminal());
    assert_eq!(game.phase(), Phase::GameOver);
    assert!(game.legal_actions().is_empty());
    assert_eq!(game.apply(Action::Pass), Err(ActionError::GameOver));
    assert_eq!(
        game.board().len() + game.turns().iter().filter(|t| t.discarded).count(),
        72,
        "every tile was placed or discarded"
    );
}

// ----- deploying (B6, B7) ---------------------------------------------------------------

/// B6: a follower goes only onto the tile just placed, from the supply, at most one per
/// turn, on a road, city, monastery or field.
#[test]
fn b6_deploy_on_the_placed_tile_once_per_turn() {
    let mut game = base_game(2);
    play(&mut game, "BASE-U", (1, 0), 0);
    let deploys: Vec<_> = legal(&game)
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { .. }))
        .collect();
    // BASE-U has a road and two fields: three places for a follower, all on (1, 0).
    assert_eq!(deploys.len(), 3);
    assert!(deploys
        .iter()
        .all(|a| matches!(a, Action::Deploy { pos: p, .. } if *p == pos((1, 0)))));
    // Not onto the start tile's free city.
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, 0), "c1"));
    deploy(&mut game, FOLLOWER, (1, 0), "r1");
    assert_eq!(game.supply(0, FOLLOWER), 6);
    // One deployment only: the turn is over, the next player draws.
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 1);
    // A monastery takes a monk, a field a farmer.
    play(&mut game, "BASE-B", (0, 1), 0);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "m1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "f1"));
}

/// B6: only from the supply — a player without followers left has nothing to deploy and
/// the turn moves on by itself.
#[test]
fn b6_no_deployment_from_an_empty_supply() {
    let mut config = config(2, &[TileSet::Base]);
    config.figures.follower = 1;
    let mut game = start(config);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "f1");
    assert_eq!(game.supply(0, FOLLOWER), 0);
    place(&mut game, "BASE-U", (2, 0), 0);
    // Seat 0 places a tile with free features but has no follower: no decision is left.
    play(&mut game, "BASE-B", (0, 1), 0);
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 1);
}

/// B7, B9, B12, B13, B14: a feature that already holds a follower takes no other, but two
/// cities with one knight each can be joined; the joined city of 3 tiles (2 caps and a
/// band without pennant) is complete and scores 3 × 2 = 6 for each tied player, and both
/// knights return.
#[test]
fn b7_b13_joined_city_tie_scores_for_both() {
    let mut game = base_game(2);
    // Roads west and east of the start give the caps below them a neighbour.
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    // Seat 0: cap facing east at (-1, 1), knight. Seat 1: cap facing west at (1, 1), knight
    // (a different city, so it is free).
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
    place_follower(&mut game, "BASE-E", (1, 1), 3, "c1");
    // Seat 0: the band BASE-G between them joins both caps.
    let since = game.events().len();
    play(&mut game, "BASE-G", (0, 1), 0);
    // B7: the joined city holds two knights; no third one.
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "c1"));
    finish_turn(&mut game);
    assert_eq!(
        points_since(&game, since),
        vec![(0, 6, ScoreKind::City), (1, 6, ScoreKind::City)]
    );
    assert_eq!(game.scores(), &[6, 6]);
    // B14: both knights are back.
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, FOLLOWER), 7);
    assert!(game.board_figures().is_empty());
}

/// B13: the player with more followers in a completed feature scores it alone. A city of
/// 4 tiles without pennants (three caps around a three-sided centre) is worth 4 × 2 = 8;
/// seat 0 has two knights, seat 1 one, so seat 0 scores 8 and seat 1 nothing, although
/// seat 1 placed the completing tile.
#[test]
fn b13_majority_with_more_followers() {
    let mut game = base_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1"); // seat 0, cap facing east
    place_follower(&mut game, "BASE-E", (1, 1), 3, "c1"); // seat 1, cap facing west
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 0, monastery as a neighbour
    place(&mut game, "BASE-B", (1, 2), 0); // seat 1
    place_follower(&mut game, "BASE-E", (0, 2), 0, "c1"); // seat 0, cap facing north

    // Seat 1: BASE-R turned twice has city east, south and west and a field north.
    let since = game.events().len();
    place(&mut game, "BASE-R", (0, 1), 2);
    assert_eq!(points_since(&game, since), vec![(0, 8, ScoreKind::City)]);
    assert_eq!(game.scores(), &[8, 0]);
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, FOLLOWER), 7);
}

// ----- completion and scoring (B8–B12) --------------------------------------------------

/// B8, B12: a road closed at both ends by junctions is complete; 3 tiles score 3.
#[test]
fn b8_road_closed_by_two_junctions() {
    let mut game = base_game(2);
    // Seat 0: T-junction west of the start (its east arm `r1` joins the start road).
    place_follower(&mut game, "BASE-W", (-1, 0), 0, "r1");
    // Seat 1: T-junction east of the start; its west arm `r3` closes the road.
    let since = game.events().len();
    place(&mut game, "BASE-W", (1, 0), 0);
    assert_eq!(points_since(&game, since), vec![(0, 3, ScoreKind::Road)]);
    assert_eq!(game.supply(0, FOLLOWER), 7);
}

/// B8, B12: a road that forms a loop is complete; a loop of 4 curves scores 4.
#[test]
fn b8_road_loop_is_complete() {
    let mut game = base_game(2);
    // BASE-V is a curve joining its south and west sides. Rotations: r3 east–south,
    // r0 south–west, r2 north–east, r1 west–north. The four curves below the start form a
    // ring: (0,1) E–S, (1,1) S–W, (0,2) N–E, (1,2) N–W.
    place_follower(&mut game, "BASE-V", (0, 1), 3, "r1");
    place(&mut game, "BASE-V", (1, 1), 0);
    place(&mut game, "BASE-V", (0, 2), 2);
    let since = game.events().len();
    assert!(game.scores().iter().all(|s| *s == 0), "not complete yet");
    place(&mut game, "BASE-V", (1, 2), 1);
    assert_eq!(points_since(&game, since), vec![(0, 4, ScoreKind::Road)]);
}

/// B9, B12: a city closes when its walls have no gap; a city of exactly 2 tiles scores 4 (2 per tile); with `tiny_city: 2` the
/// legacy reading scores it 1 per tile, 2 in all.
#[test]
fn b9_b12_two_tile_city_scores_4_or_2_with_tiny_city() {
    for (tiny, expected) in [(4u8, 4), (2, 2)] {
        let mut config = config(2, &[TileSet::Base]);
        config.rules = RuleSwitches {
            tiny_city: tiny,
            ..RuleSwitches::default()
        };
        let mut game = start(config);
        // A cap facing south closes the start city: 2 tiles, no pennant.
        place_follower(&mut game, "BASE-E", (0, -1), 2, "c1");
        assert_eq!(game.scores(), &[expected, 0], "tiny_city {tiny}");
        assert_eq!(game.supply(0, FOLLOWER), 7);
    }
}

/// B12: a pennant adds 2 to a completed city: two caps and the pennant band BASE-F make a
/// city of 3 tiles and 1 pennant, 3 × 2 + 2 = 8 (also with `tiny_city: 2`, which only
/// concerns cities of 2 tiles).
#[test]
fn b12_pennant_adds_two() {
    for tiny in [4u8, 2] {
        let mut config = config(2, &[TileSet::Base]);
        config.rules.tiny_city = tiny;
        let mut game = start(config);
        place(&mut game, "BASE-U", (-1, 0), 0);
        place(&mut game, "BASE-U", (1, 0), 0);
        place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
        place(&mut game, "BASE-E", (1, 1), 3);
        place(&mut game, "BASE-F", (0, 1), 0);
        assert_eq!(game.scores(), &[8, 0], "tiny_city {tiny}");
    }
}

/// B8, B12: a road that passes the same tile twice counts that tile once. The magic
/// portal tile of The Princess & the Dragon carries two separate curves (north–west and
/// east–south); six BASE-V curves around it join both into one closed loop of 7 distinct
/// tiles and 8 tile parts: 7 points, not 8.
#[test]
fn b12_road_passing_a_tile_twice_counts_it_once() {
    let mut game = start(config(2, &[TileSet::Base, TileSet::PrincessDragon]));
    // BASE-V rotations: r3 east–south, r0 south–west, r1 west–north, r2 north–east.
    place_follower(&mut game, "BASE-V", (0, 1), 3, "r1"); // seat 0: east–south
    place(&mut game, "PD-PORTAL-TWO-CURVES", (0, 2), 0); // its curves N–W and E–S
    place(&mut game, "BASE-V", (1, 1), 0); // south–west
    place(&mut game, "BASE-V", (1, 2), 1); // west–north, into the portal's east side
    place(&mut game, "BASE-V", (-1, 2), 3); // east–south, from the portal's west side
    place(&mut game, "BASE-V", (-1, 3), 2); // north–east
    assert_eq!(
        game.scores(),
        &[0, 0],
        "the loop is still open below the portal"
    );
    let since = game.events().len();
    place(&mut game, "BASE-V", (0, 3), 1); // west–north, into the portal's south side
    assert_eq!(points_since(&game, since), vec![(0, 7, ScoreKind::Road)]);
}

/// B12: a tile that touches the same city twice counts once. Three corners and BASE-I
/// (two separate caps, north and west) close a ring: the city has 4 distinct tiles and
/// 5 tile parts; it scores 4 × 2 = 8, not 10.
#[test]
fn b12_tile_touching_the_city_twice_counts_once() {
    let mut game = base_game(2);
    // BASE-N: city on its north and west sides. r2 puts it east–south, r3 west–south,
    // r1 north–east.
    place_follower(&mut game, "BASE-N", (0, 1), 2, "c1");
    place(&mut game, "BASE-N", (1, 1), 3);
    place(&mut game, "BASE-N-G", (0, 2), 1);
    let since = game.events().len();
    // BASE-I unturned: cap `c1` north (joins (1, 1)) and cap `c2` west (joins (0, 2)).
    place(&mut game, "BASE-I", (1, 2), 0);
    assert_eq!(points_since(&game, since), vec![(0, 8, ScoreKind::City)]);
}

/// B10, B12: a monastery is complete when all 8 surrounding squares hold tiles and scores
/// 9; it does not score before the 8th neighbour.
#[test]
fn b10_monastery_surrounded_by_eight_scores_9() {
    let mut game = base_game(2);
    // Seat 0 puts a monk on BASE-B at (0, 1); its neighbours are (-1..1, 0..2).
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place_follower(&mut game, "BASE-B", (0, 1), 0, "m1"); // seat 0
    place(&mut game, "BASE-E", (-1, 1), 3); // cap facing west
    place(&mut game, "BASE-E", (1, 1), 1); // cap facing east
    place(&mut game, "BASE-E", (-1, 2), 3);
    place(&mut game, "BASE-E", (1, 2), 1);
    assert_eq!(game.scores(), &[0, 0], "7 neighbours: not complete");
    let since = game.events().len();
    // The 8th neighbour: a monastery with its road going south.
    place(&mut game, "BASE-A", (0, 2), 0);
    assert_eq!(
        points_since(&game, since),
        vec![(0, 9, ScoreKind::Monastery)]
    );
    assert_eq!(game.supply(0, FOLLOWER), 7);
}

// ----- end of the game (B15–B17) ----------------------------------------------------------

/// B15: at the end an incomplete city scores 1 per tile + 1 per pennant, an incomplete
/// road 1 per tile, an incomplete monastery 1 + 1 per neighbour.
#[test]
fn b15_incomplete_features_at_the_end() {
    let mut game = base_game(2);
    // All tiles of this position lie south of the start; the rest of the pile is played
    // north of it and never touches them.
    // Seat 0: pennant band BASE-F at (0, 1), knight.
    place_follower(&mut game, "BASE-F", (0, 1), 0, "c1");
    // Seat 1: monastery at (0, 2), monk.
    place_follower(&mut game, "BASE-B", (0, 2), 0, "m1");
    // Seat 0: corner BASE-N turned 3 (city west and south) extends the city eastwards.
    place(&mut game, "BASE-N", (1, 1), 3);
    // Seat 1: curve BASE-V (road south and west) west of the monastery, thief.
    place_follower(&mut game, "BASE-V", (-1, 2), 0, "r1");
    let before = game.scores().to_vec();
    assert_eq!(before, vec![0, 0]);
    // The same final scoring read ahead on a copy (the rest of the pile never touches
    // these tiles): 3 for seat 0, 4 + 1 for seat 1; the game itself is unchanged.
    let figures = game.board_figures().len();
    assert_eq!(game.scores_if_ended_now(), vec![3, 5]);
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(game.board_figures().len(), figures);
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    // City: 2 tiles + 1 pennant = 3 for seat 0. Monastery (0, 2): neighbours (0, 1),
    // (1, 1), (-1, 2) → 1 + 3 = 4 for seat 1. Road: 1 tile → 1 for seat 1.
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![
            (0, 3, ScoreKind::Incomplete),
            (1, 1, ScoreKind::Incomplete),
            (1, 4, ScoreKind::Incomplete),
        ]
    );
    assert_eq!(game.scores(), &[3, 5]);
    assert!(game.board_figures().is_empty(), "every figure went home");
}

/// Builds the farmers' position of the B16 tests, south of the start:
///
/// * (0, 1) BASE-H turned once: caps east and west, field `f1` between them (north and
///   south sides) — joined to the start tile's south field. Seat 0 farmer.
/// * (1, 1) BASE-E turned 3: cap west closes the east city (2 tiles). Seat 1 farmer on
///   its own field (north, east and south sides; it borders only the east city).
/// * (-1, 1) BASE-E turned once: cap east closes the west city (2 tiles). Seat 0 knight:
///   4 points at once.
/// * (0, 2) BASE-U: road west–east; its north field joins seat 0's field, its south field
///   is cut off by the road. Seat 1 farmer there.
fn farmers_position(rules: RuleSwitches) -> carcassonne::Game {
    let mut config = config(2, &[TileSet::Base]);
    config.rules = rules;
    let mut game = start(config);
    if !rules.farmers {
        return game;
    }
    place_follower(&mut game, "BASE-H", (0, 1), 1, "f1");
    place_follower(&mut game, "BASE-E", (1, 1), 3, "f1");
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
    assert_eq!(game.scores(), &[4, 0], "the west city of 2 tiles scored 4");
    play(&mut game, "BASE-U", (0, 2), 0);
    // The field north of the road holds seat 0's farmer; the one south of it is free.
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, 2), "f1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 2), "f2"));
    deploy(&mut game, FOLLOWER, (0, 2), "f2");
    game
}

/// B11, B16: fields are never complete and score only at the end; farmers score 3 per
/// completed city their field touches; a field next to two
/// completed cities gives 6, a city touching two fields scores in each, a field split by
/// a road is two fields, and a field without cities gives nothing.
#[test]
fn b16_farmers_score_completed_cities_of_their_field() {
    let mut game = farmers_position(RuleSwitches::default());
    // B11: both cities are complete, yet the farmers are still standing.
    assert_eq!(on_board(&game, 0, FOLLOWER), 1);
    assert_eq!(on_board(&game, 1, FOLLOWER), 2);
    // Read ahead on a copy, the farmers' points below (6 and 3) are already in it.
    assert_eq!(game.scores_if_ended_now(), vec![4 + 6, 3]);
    assert_eq!(game.scores(), &[4, 0]);
    // The same read on a copy the caller gives up.
    assert_eq!(game.clone().into_scores_if_ended_now(), vec![4 + 6, 3]);
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    // Seat 0's field touches the east and the west city: 2 × 3 = 6. Seat 1's field at
    // (1, 1) touches the east city: 3. Seat 1's field south of the road: no city, 0.
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 6, ScoreKind::Farmers), (1, 3, ScoreKind::Farmers)]
    );
    assert_eq!(game.scores(), &[4 + 6, 3]);
}

/// B16: with `farmers: false` no follower may go onto a field.
#[test]
fn b16_farmers_off_forbids_fields() {
    let rules = RuleSwitches {
        farmers: false,
        ..RuleSwitches::default()
    };
    let mut game = farmers_position(rules);
    // A straight road: its road takes a thief, its two fields take nobody.
    play(&mut game, "BASE-U", (1, 0), 0);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "r1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f2"));
    finish_turn(&mut game);
    // A cap with a free field offers only its city.
    play(&mut game, "BASE-E", (0, 1), 2);
    let deploys: Vec<_> = legal(&game)
        .into_iter()
        .filter(|a| matches!(a, Action::Deploy { .. }))
        .collect();
    assert_eq!(deploys, vec![deploy_action(&game, FOLLOWER, (0, 1), "c1")]);
}

/// B17: the final scores rank the players; tied players share the win. In the B7 position
/// both players score 6 for the joined city and nothing else: both end on 6.
#[test]
fn b17_tied_final_scores_share_the_win() {
    let mut game = base_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
    place_follower(&mut game, "BASE-E", (1, 1), 3, "c1");
    place(&mut game, "BASE-G", (0, 1), 0);
    assert!(
        game.winners().is_empty(),
        "no winner while the game goes on"
    );
    finish_game(&mut game, north_of_start);
    assert_eq!(game.scores(), &[6, 6]);
    assert_eq!(game.winners(), vec![0, 1]);
}
