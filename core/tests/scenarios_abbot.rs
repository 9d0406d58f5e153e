//! Rule-by-rule scenarios of the Abbot and gardens (A1–A3 of `docs/rules.md`): base game,
//! edition C2 (gardens), one abbot per player.

mod common;

use carcassonne::{Figure, Game, Phase, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const ABBOT: Figure = Figure::Abbot;

/// Two players, base game C2, each with an abbot.
fn abbot_game() -> Game {
    let mut config = config(2, &[TileSet::Base]);
    config.figures.abbot = 1;
    start(config)
}

/// A1: the abbot goes only onto a monastery or a garden of the placed tile; followers
/// never go onto gardens.
#[test]
fn a1_abbot_only_on_monastery_or_garden_followers_refused_on_gardens() {
    let mut game = abbot_game();
    assert_eq!(game.supply(0, ABBOT), 1);
    // Seat 0: monastery BASE-B south of the start.
    play(&mut game, "BASE-B", (0, 1), 0);
    assert_legal(&game, deploy_action(&game, ABBOT, (0, 1), "m1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "m1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "f1"));
    assert_not_legal(&game, deploy_action(&game, ABBOT, (0, 1), "f1"));
    finish_turn(&mut game);
    // Seat 1: the garden cap BASE-E-G turned twice closes the start city.
    play(&mut game, "BASE-E-G", (0, -1), 2);
    assert_legal(&game, deploy_action(&game, ABBOT, (0, -1), "g1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, -1), "g1"));
    assert_not_legal(&game, deploy_action(&game, ABBOT, (0, -1), "c1"));
    assert_not_legal(&game, deploy_action(&game, ABBOT, (0, -1), "f1"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, -1), "c1"));
    finish_turn(&mut game);
    // Seat 0: a straight road has neither: no abbot deployment at all.
    play(&mut game, "BASE-U", (1, 0), 0);
    assert!(legal(&game)
        .iter()
        .all(|a| !matches!(a, carcassonne::Action::Deploy { figure: ABBOT, .. })));
}

/// A2: a garden is complete when its tile is surrounded by 8 tiles and scores 9 for the
/// abbot, who returns.
#[test]
fn a2_garden_surrounded_by_eight_scores_9() {
    let mut game = abbot_game();
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1

    // Seat 0: BASE-E-G turned twice (cap south, garden) at (0, 1), abbot on the garden.
    place_deploy(&mut game, "BASE-E-G", (0, 1), 2, ABBOT, "g1");
    assert_eq!(game.supply(0, ABBOT), 0);
    place(&mut game, "BASE-E", (-1, 1), 3); // seat 1, cap west
    place(&mut game, "BASE-E", (1, 1), 1); // seat 0, cap east
    place(&mut game, "BASE-E", (0, 2), 0); // seat 1, cap north closes the garden's city
    place(&mut game, "BASE-E", (-1, 2), 3); // seat 0
    assert_eq!(game.scores(), &[0, 0], "7 neighbours: not complete");
    let since = game.events().len();
    place(&mut game, "BASE-B", (1, 2), 0); // seat 1: the 8th neighbour
    assert_eq!(points_since(&game, since), vec![(0, 9, ScoreKind::Garden)]);
    assert_eq!(game.supply(0, ABBOT), 1);
}

/// A2, B15: at the end an incomplete garden and an incomplete monastery score 1 + 1 per
/// neighbouring tile for their abbots.
#[test]
fn a2_incomplete_garden_and_monastery_at_the_end() {
    let mut game = abbot_game();
    // Seat 0: garden curve BASE-V-G (road south and west) at (0, 1), abbot on the garden.
    place_deploy(&mut game, "BASE-V-G", (0, 1), 0, ABBOT, "g1");
    // Seat 1: monastery east of it, abbot.
    place_deploy(&mut game, "BASE-B", (1, 1), 0, ABBOT, "m1");
    // Seat 0: road going south below the garden; seat 1: road going west beside it.
    place(&mut game, "BASE-U", (0, 2), 1);
    place(&mut game, "BASE-U", (-1, 1), 0);
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    // Garden (0, 1): neighbours (0, 0), (-1, 1), (1, 1), (0, 2) → 1 + 4 = 5.
    // Monastery (1, 1): neighbours (0, 0), (0, 1), (0, 2) → 1 + 3 = 4.
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 5, ScoreKind::Incomplete), (1, 4, ScoreKind::Incomplete)]
    );
    assert_eq!(game.supply(0, ABBOT), 1);
    assert_eq!(game.supply(1, ABBOT), 1);
}

/// A3: instead of deploying, a player may take his abbot back from an incomplete
/// monastery; it scores 1 + its neighbours at once and no figure is deployed that turn.
#[test]
fn a3_abbot_taken_back_scores_like_the_end() {
    let mut game = abbot_game();
    // Seat 0: monastery at (0, 1), abbot.
    place_deploy(&mut game, "BASE-B", (0, 1), 0, ABBOT, "m1");
    // Seat 1: road east of the start; it may not take seat 0's abbot.
    play(&mut game, "BASE-U", (1, 0), 0);
    let take_back = carcassonne::Action::ReturnAbbot {
        pos: pos((0, 1)),
        feature: local(&game, (0, 1), "m1"),
    };
    assert_not_legal(&game, take_back);
    finish_turn(&mut game);
    // Seat 0: road west of the start, then takes the abbot back instead of deploying.
    play(&mut game, "BASE-U", (-1, 0), 0);
    assert_legal(&game, take_back);
    let since = game.events().len();
    apply(&mut game, take_back);
    // Neighbours of (0, 1): (-1, 0), (0, 0), (1, 0) → 1 + 3 = 4.
    assert_eq!(
        points_since(&game, since),
        vec![(0, 4, ScoreKind::AbbotReturn)]
    );
    assert_eq!(game.supply(0, ABBOT), 1);
    assert_eq!(game.supply(0, FOLLOWER), 7, "nothing else was deployed");
    assert!(figures_at(&game, (-1, 0)).is_empty());
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 1);
}

/// A3: the abbot is taken back from a garden the same way: 1 + its neighbours.
#[test]
fn a3_abbot_taken_back_from_a_garden() {
    let mut game = abbot_game();
    // Seat 0: garden curve at (0, 1), abbot on the garden; no follower may go there.
    play(&mut game, "BASE-V-G", (0, 1), 0);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "g1"));
    deploy(&mut game, ABBOT, (0, 1), "g1");
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0, keeps the abbot there
    place(&mut game, "BASE-U", (-1, 1), 0); // seat 1: the road west of the garden
                                            // Seat 0: a monastery below the garden, then the abbot back from the garden.
    play(&mut game, "BASE-A", (0, 2), 2);
    let take_back = carcassonne::Action::ReturnAbbot {
        pos: pos((0, 1)),
        feature: local(&game, (0, 1), "g1"),
    };
    let since = game.events().len();
    apply(&mut game, take_back);
    // Neighbours of (0, 1): (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 2) → 1 + 5 = 6.
    assert_eq!(
        points_since(&game, since),
        vec![(0, 6, ScoreKind::AbbotReturn)]
    );
    assert_eq!(game.supply(0, ABBOT), 1);
    assert!(
        figures_at(&game, (0, 2)).is_empty(),
        "nothing else deployed"
    );
}
