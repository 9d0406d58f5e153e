//! Rule-by-rule scenarios of Inns & Cathedrals (IC1–IC4 of `docs/rules.md`), with the base
//! game, and with River II, The Princess & the Dragon, Abbey & Mayor and Bridges, Castles
//! & Bazaars where a rule names them.
//!
//! The start tile `BASE-D` at (0, 0) has its city cap on the north side, its road from
//! west to east and field on the south side.

mod common;

use carcassonne::config::RiverLakes;
use carcassonne::{Action, Figure, Figures, Game, Pos, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const BIG: Figure = Figure::BigFollower;
const IC: [TileSet; 2] = [TileSet::Base, TileSet::InnsCathedrals];

fn ic_game(players: u8) -> Game {
    start(config(players, &IC))
}

/// The score events of `kind` for `player` from index `since` on (zero points included).
fn scored(game: &Game, since: usize, player: u8, kind: ScoreKind) -> Vec<i32> {
    events_since(game, since)
        .into_iter()
        .filter(|(p, _, k)| *p == player && *k == kind)
        .map(|(_, points, _)| points)
        .collect()
}

// ----- big follower (IC1) -------------------------------------------------------------------

/// IC1: with the set each player has one big follower; without it none. More than one,
/// or one without the set, is refused with the field named.
#[test]
fn ic1_one_big_follower_per_player_with_the_set() {
    let game = ic_game(3);
    for seat in 0..3 {
        assert_eq!(game.supply(seat, BIG), 1);
        assert_eq!(game.supply(seat, FOLLOWER), 7);
    }
    assert_eq!(base_game(2).supply(0, BIG), 0);

    let mut two = config(2, &IC);
    two.figures.big_follower = 2;
    let err = Game::new(two).expect_err("two big followers");
    assert!(err.to_string().contains("big-follower"), "{err}");

    let mut without = config(2, &[TileSet::Base]);
    without.figures = Figures {
        big_follower: 1,
        ..Figures::default_for(&[TileSet::Base])
    };
    let err = Game::new(without).expect_err("a big follower without the set");
    assert!(err.to_string().contains("inns-and-cathedrals"), "{err}");
}

/// IC1: the big follower goes wherever a follower goes: the road, the monastery and the
/// field of a monastery tile, the city of a cap; never onto an occupied feature.
#[test]
fn ic1_big_follower_stands_where_a_follower_does() {
    let mut game = ic_game(2);
    // Seat 0: a monastery whose road runs west into the start road.
    play(&mut game, "BASE-A", (1, 0), 1);
    for feature in ["r1", "m1", "f1"] {
        assert_legal(&game, deploy_action(&game, BIG, (1, 0), feature));
    }
    deploy(&mut game, BIG, (1, 0), "r1");
    assert_eq!(game.supply(0, BIG), 0);
    // Seat 1: a road continuing the start road west: occupied by the big follower.
    play(&mut game, "BASE-U", (-1, 0), 0);
    assert_not_legal(&game, deploy_action(&game, BIG, (-1, 0), "r1"));
    assert_legal(&game, deploy_action(&game, BIG, (-1, 0), "f1"));
    finish_turn(&mut game);
    // Seat 0 has no big follower left to deploy.
    play(&mut game, "BASE-E", (0, -1), 2);
    assert_not_legal(&game, deploy_action(&game, BIG, (0, -1), "f1"));
}

/// The start road flanked by roads at (−1, 0) and (1, 0); seat 0's `west` figure in a cap
/// facing east at (−1, 1), seat 1's `east` figure in a cap facing west at (1, 1); seat 0
/// joins them with `centre` at (0, 1). Returns the scores.
fn two_caps_joined(sets: &[TileSet], west: Figure, east: Figure, centre: &str) -> Vec<i32> {
    let mut game = start(config(2, sets));
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_deploy(&mut game, "BASE-E", (-1, 1), 1, west, "c1");
    place_deploy(&mut game, "BASE-E", (1, 1), 3, east, "c1");
    place(&mut game, centre, (0, 1), 0);
    game.scores().to_vec()
}

/// IC1, B13: the big follower counts as two followers. A city of 3 tiles without
/// pennants (6 points): the big follower beats a knight; knight against knight ties.
#[test]
fn ic1_big_follower_counts_two_in_the_majority() {
    assert_eq!(two_caps_joined(&IC, BIG, FOLLOWER, "BASE-G"), vec![6, 0]);
    assert_eq!(two_caps_joined(&IC, FOLLOWER, BIG, "BASE-G"), vec![0, 6]);
    assert_eq!(
        two_caps_joined(&IC, FOLLOWER, FOLLOWER, "BASE-G"),
        vec![6, 6]
    );
}

/// IC1, AM5: the big follower (2) against a mayor, whose strength is the city's pennants.
/// Seat 0's mayor in the pennant cap at (1, 1), seat 1's big follower in the cap at
/// (−1, 1), joined by `centre`: with the band of 2 pennants (BASE-F: 3 tiles and 2
/// pennants, 10) 2 against 2, both score; with the plain band (BASE-G: 1 pennant, 8) the
/// big follower wins.
#[test]
fn ic1_am5_big_follower_against_a_mayor() {
    let sets = [TileSet::Base, TileSet::AbbeyMayor, TileSet::InnsCathedrals];
    let scores = |centre: &str| {
        let mut game = start(config(2, &sets));
        place(&mut game, "BASE-U", (-1, 0), 0);
        place(&mut game, "BASE-U", (1, 0), 0);
        place_deploy(&mut game, "AM-CITY-3FIELDS", (1, 1), 0, Figure::Mayor, "c1");
        place_deploy(&mut game, "BASE-E", (-1, 1), 1, BIG, "c1");
        place(&mut game, centre, (0, 1), 0);
        assert_eq!(game.supply(1, BIG), 1, "the big follower returns");
        game.scores().to_vec()
    };
    assert_eq!(scores("BASE-F"), vec![10, 10]);
    assert_eq!(scores("BASE-G"), vec![0, 8]);
}

/// IC1, PD9: the princess may remove a big follower; it goes back to its owner.
#[test]
fn ic1_pd9_princess_removes_a_big_follower() {
    let sets = [
        TileSet::Base,
        TileSet::PrincessDragon,
        TileSet::InnsCathedrals,
    ];
    let mut game = start(config(2, &sets));
    place_deploy(&mut game, "BASE-F", (0, -1), 1, BIG, "c1"); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2); // seat 0
    let remove = Action::Princess {
        pos: pos((0, -1)),
        feature: local(&game, (0, -1), "c1"),
    };
    apply(&mut game, remove);
    assert_eq!(game.supply(0, BIG), 1, "the big follower went home");
    assert!(game.board_figures().is_empty());
}

// ----- inns (IC2) ---------------------------------------------------------------------------

/// Seat 0 closes the start road's west end with a monastery at (−1, 0); seat 1 puts a
/// thief on `east` at (1, 0), a road turning south; seat 0 ends it with a monastery at
/// (1, 1): a road of 4 tiles. Returns the score events of the last placement.
fn four_tile_road(sets: &[TileSet], east: &str) -> Vec<(u8, i32, ScoreKind)> {
    let mut game = start(config(2, sets));
    place(&mut game, "BASE-A", (-1, 0), 3);
    place_follower(&mut game, east, (1, 0), 0, "r1");
    let since = game.events().len();
    place(&mut game, "BASE-A", (1, 1), 2);
    points_since(&game, since)
}

/// IC2: a completed road with an inn scores 2 per tile (4 tiles: 8); without the set the
/// inn is a plain road (4), and a road without an inn scores 1 per tile with the set.
#[test]
fn ic2_completed_inn_road_scores_two_per_tile() {
    assert_eq!(
        four_tile_road(&IC, "IC-CURVE-INN"),
        vec![(1, 8, ScoreKind::Road)]
    );
    assert_eq!(four_tile_road(&IC, "BASE-V"), vec![(1, 4, ScoreKind::Road)]);
}

/// IC2: the inn of River II counts with the set (seed 000): the road across the bridge
/// with the inn at (6, 2), closed by monasteries north and south, 3 tiles: 6 with the set,
/// 3 without.
#[test]
fn ic2_river2_inn_counts_with_the_set() {
    for (sets, points) in [
        (
            vec![TileSet::Base, TileSet::River2, TileSet::InnsCathedrals],
            6,
        ),
        (vec![TileSet::Base, TileSet::River2], 3),
    ] {
        let mut config = config(2, &sets);
        config.rules.river2_lakes = RiverLakes::TwoTurns;
        let mut game = start(config);
        lay(&mut game, &RIVER2);
        let thief = game.turn_player() as u8;
        place_follower(&mut game, "BASE-A", (6, 3), 2, "r1");
        let since = game.events().len();
        place(&mut game, "BASE-A", (6, 1), 0);
        assert_eq!(
            points_since(&game, since),
            vec![(thief, points, ScoreKind::Road)],
            "{sets:?}"
        );
    }
}

/// IC2, IC3, B15: at the end of the game a road with an inn and a city with a cathedral
/// that are still open score 0. Seat 0's thief stands on the start road with the inn at
/// (1, 0) (3 tiles, closed in the west, open in the east), seat 1's knight in the
/// cathedral city north of the start (2 tiles, open); the rest of the pile goes west.
#[test]
fn ic2_ic3_open_inn_road_and_cathedral_city_score_nothing_at_the_end() {
    let mut game = ic_game(2);
    place_follower(&mut game, "IC-STRAIGHT-INN-G", (1, 0), 0, "r1"); // seat 0
    place_follower(&mut game, "IC-CATHEDRAL", (0, -1), 0, "c1"); // seat 1
    place(&mut game, "BASE-A", (-1, 0), 3); // seat 0: closes the road's west end
    let since = game.events().len();
    finish_game(&mut game, |p: Pos| p.x <= -2);
    assert_eq!(scored(&game, since, 0, ScoreKind::Incomplete), vec![0]);
    assert_eq!(scored(&game, since, 1, ScoreKind::Incomplete), vec![0]);
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, FOLLOWER), 7);
}

// ----- cathedrals (IC3) ---------------------------------------------------------------------

/// IC3: a completed city with a cathedral scores 3 per tile and 3 per pennant: the
/// cathedral north of the start, caps west and north, a pennant corner east closed by a
/// cap: 6 tiles and 1 pennant, 21 (without the cathedral's rule it would be 14).
#[test]
fn ic3_completed_cathedral_city_scores_three_per_tile_and_pennant() {
    let mut game = ic_game(2);
    place_follower(&mut game, "IC-CATHEDRAL", (0, -1), 0, "c1"); // seat 0
    place(&mut game, "BASE-E", (-1, -1), 1); // seat 1: cap facing east
    place(&mut game, "BASE-E", (0, -2), 2); // seat 0: cap facing south
    place(&mut game, "BASE-M", (1, -1), 0); // seat 1: pennant corner, city west and north
    assert!(game.events().is_empty());
    place(&mut game, "BASE-E", (1, -2), 2); // seat 0: closes the corner
    assert_eq!(game.events().len(), 1);
    assert_eq!(events_since(&game, 0), vec![(0, 21, ScoreKind::City)]);
}

// ----- values taken from a feature's score (IC4) --------------------------------------------

/// IC4, CA3: a castle's reward is the IC2 value of the road it scores. As in the castles'
/// scenario, seat 0's castle on the start city scores the start road of 5 tiles when it
/// is closed; with the inn at (1, 0) that road is worth 10 (and the other road of 3
/// completed with it, 3).
#[test]
fn ic4_ca3_castle_takes_the_inn_value() {
    let sets = [
        TileSet::Base,
        TileSet::BridgesCastlesBazaars,
        TileSet::InnsCathedrals,
    ];
    let mut game = start(config(2, &sets));
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place(&mut game, "IC-STRAIGHT-INN-G", (1, 0), 0); // seat 1
    place(&mut game, "BASE-W", (-1, -1), 2); // seat 0
    place(&mut game, "BASE-W", (1, -1), 2); // seat 1
    place_follower(&mut game, "BASE-D", (0, -1), 2, "c1"); // seat 0
    let castle = Action::BuildCastle {
        pos: pos((0, -1)),
        feature: local(&game, (0, -1), "c1"),
    };
    apply(&mut game, castle);
    place(&mut game, "BASE-V", (-2, -1), 3); // seat 1
    place(&mut game, "BASE-W", (2, 0), 0); // seat 0: closes the start road's east end
    let since = game.events().len();
    place(&mut game, "BASE-X", (-2, 0), 0); // seat 1: closes both roads
    assert_eq!(points_since(&game, since), vec![(0, 10, ScoreKind::Castle)]);
}

/// IC4, PD16c: the fairy's bonus stays 3 at the end on an inn road that scores 0.
#[test]
fn ic4_pd16c_fairy_bonus_on_an_open_inn_road() {
    let sets = [
        TileSet::Base,
        TileSet::PrincessDragon,
        TileSet::InnsCathedrals,
    ];
    let mut game = start(config(2, &sets));
    place_follower(&mut game, "IC-STRAIGHT-INN-G", (1, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    play(&mut game, "BASE-B", (1, 1), 0); // seat 0 moves the fairy to its thief
    let to_thief = Action::MoveFairy {
        pos: pos((1, 0)),
        feature: Some(local(&game, (1, 0), "r1")),
    };
    apply(&mut game, to_thief);
    let since = game.events().len();
    finish_game(&mut game, |p: Pos| p.y <= -1);
    assert_eq!(scored(&game, since, 0, ScoreKind::Incomplete), vec![0]);
    assert_eq!(scored(&game, since, 0, ScoreKind::FairyScored), vec![3]);
}
