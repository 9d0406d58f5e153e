//! Rule-by-rule scenarios of The Princess & the Dragon (PD1–PD23 of `docs/rules.md`), with the
//! base game, and with Abbey & Mayor and the abbot for the interaction rules.

mod common;

use carcassonne::config::{DragonMove, FairyRule, PrincessRule};
use carcassonne::game::tile;
use carcassonne::tiles::Symbols;
use carcassonne::{Action, Corner, Figure, Game, Phase, Pos, RuleSwitches, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const PD: [TileSet; 2] = [TileSet::Base, TileSet::PrincessDragon];

fn pd_game(players: u8) -> Game {
    start(config(players, &PD))
}

fn pd_game_with(rules: RuleSwitches) -> Game {
    let mut config = config(2, &PD);
    config.rules = rules;
    start(config)
}

/// Base, The Princess & the Dragon and Abbey & Mayor, two players with an abbot each.
fn pd_am_game() -> Game {
    let sets = [TileSet::Base, TileSet::PrincessDragon, TileSet::AbbeyMayor];
    let mut config = config(2, &sets);
    config.figures.abbot = 1;
    start(config)
}

fn step(xy: Xy) -> Action {
    Action::MoveDragon { pos: pos(xy) }
}

fn fairy_to(game: &Game, xy: Xy, feature: &str) -> Action {
    Action::MoveFairy {
        pos: pos(xy),
        feature: Some(local(game, xy, feature)),
    }
}

fn princess(game: &Game, xy: Xy, feature: &str) -> Action {
    Action::Princess {
        pos: pos(xy),
        feature: local(game, xy, feature),
    }
}

// ----- volcano and dragon tiles (PD1–PD4) --------------------------------------------------

/// PD1, PD2, PD17: a volcano brings the dragon at once, from wherever it is; nobody may
/// deploy on the volcano, but the fairy may be moved on that turn.
#[test]
fn pd1_pd2_pd17_volcano_brings_the_dragon_and_takes_no_figure() {
    let mut game = pd_game(2);
    assert_eq!(game.dragon(), None, "the dragon starts beside the board");
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0, thief
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 1

    // Seat 0: volcano south of the start.
    play(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0);
    assert_eq!(game.dragon(), Some(pos((0, 1))));
    assert_eq!(game.phase(), Phase::Deploy);
    let fairy = fairy_to(&game, (1, 0), "r1");
    assert_eq!(legal(&game), vec![fairy, Action::Pass]);
    apply(&mut game, fairy);
    assert_eq!(
        game.fairy(),
        Some((pos((1, 0)), Some((0, local(&game, (1, 0), "r1")))))
    );
    // Seat 1: a second volcano (a city cap closing the start city): the dragon moves there.
    play(&mut game, "PD-VOLCANO-CITYCAP", (0, -1), 2);
    assert_eq!(game.dragon(), Some(pos((0, -1))));
}

/// PD3: while no volcano lies on the board, dragon tiles are held back from the draw;
/// once the dragon is on the board they can be drawn.
#[test]
fn pd3_dragon_tiles_held_back_until_a_volcano() {
    let mut game = pd_game(2);
    let dragon_tiles = |g: &Game| {
        g.chance_outcomes()
            .iter()
            .filter(|(k, _)| k.def().has(Symbols::DRAGON))
            .count()
    };
    let p_start = |g: &Game| {
        g.chance_outcomes()
            .iter()
            .find(|(k, _)| *k == tile("BASE-D"))
            .map(|(_, p)| *p)
            .unwrap()
    };
    // 71 base + 30 expansion tiles; the 12 dragon tiles are held back: 89 drawable.
    assert_eq!(game.tiles_left(), 101);
    assert_eq!(dragon_tiles(&game), 0);
    assert!((p_start(&game) - 3.0 / 89.0).abs() < 1e-12);
    place(&mut game, "BASE-U", (1, 0), 0);
    assert_eq!(dragon_tiles(&game), 0);
    place(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0);
    // 11 kinds of dragon tile (12 tiles) are back; 99 tiles left, all drawable.
    assert_eq!(dragon_tiles(&game), 11);
    assert!((p_start(&game) - 3.0 / 99.0).abs() < 1e-12);
}

/// Volcano at (0, 1); seat 1 places a dragon cap at (0, -1) that closes the start city
/// (2 tiles) and puts a knight on it. The flight goes (0, 1) → (0, 0) → (0, -1) and then
/// is stuck (PD6). Returns the game at the first step.
fn knight_on_a_dragon_tile(dragon_move: DragonMove) -> Game {
    let mut game = pd_game_with(RuleSwitches {
        dragon_move,
        ..RuleSwitches::default()
    });
    place(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0);
    // PD4: a figure may be deployed on a dragon tile as usual.
    place_follower(&mut game, "PD-DRAGON-CITYCAP-G", (0, -1), 2, "c1");
    game
}

/// PD4 (`before-scoring`), PD5, PD6, PD7: the dragon flies after the deployment and
/// before the scoring. The placer makes the first step, the next player the second; the
/// knight on the completed city is eaten first, so the city scores for nobody. From
/// (0, -1) every neighbour is empty or visited: the flight ends after 2 steps.
#[test]
fn pd4_dragon_before_scoring_eats_first() {
    let mut game = knight_on_a_dragon_tile(DragonMove::BeforeScoring);
    assert_eq!(game.scores(), &[0, 0], "nothing scored yet");
    assert_eq!(game.phase(), Phase::DragonFlight);
    assert_eq!(game.to_play(), 1, "PD5: the placer steps first");
    assert_eq!(legal(&game), vec![step((0, 0))]);
    apply(&mut game, step((0, 0)));
    assert_eq!(game.to_play(), 0);
    apply(&mut game, step((0, -1)));
    assert_eq!(game.phase(), Phase::Draw, "PD6: stuck, the flight ends");
    assert_eq!(game.dragon(), Some(pos((0, -1))));
    assert_eq!(game.scores(), &[0, 0]);
    assert_eq!(game.supply(1, FOLLOWER), 7);
}

/// PD4 (`after-scoring`): the turn's scoring comes first (the 2-tile city scores 4 for
/// the knight, who returns), then the dragon flies and finds nothing to eat.
#[test]
fn pd4_dragon_after_scoring_flies_last() {
    let mut game = knight_on_a_dragon_tile(DragonMove::AfterScoring);
    assert_eq!(game.scores(), &[0, 4]);
    assert_eq!(game.supply(1, FOLLOWER), 7);
    assert_eq!(game.phase(), Phase::DragonFlight);
    assert_eq!(game.to_play(), 1);
    apply(&mut game, step((0, 0)));
    apply(&mut game, step((0, -1)));
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.scores(), &[0, 4]);
}

/// PD5, PD6, PD7: the rulebook's example with 4 players (A, B, C, D = seats 0–3). The
/// dragon starts on the volcano at the bottom right, (1, 1). A moves it up, B left, C down,
/// D left (right would re-enter the volcano, visited in this flight), A up, B up: 6 steps,
/// then the flight ends. The followers on the entered tiles return to their owners; the
/// one on a tile not entered stays.
#[test]
fn pd5_rulebook_flight_example_with_four_players() {
    let mut game = pd_game(4);
    place(&mut game, "BASE-U", (1, 0), 0); // A
    place(&mut game, "PD-VOLCANO-FIELD", (1, 1), 0); // B: the dragon lands at (1, 1)
    place_follower(&mut game, "BASE-U", (-1, 0), 0, "r1"); // C: thief
    place_follower(&mut game, "BASE-B", (0, 1), 0, "m1"); // D: monk
    place(&mut game, "BASE-E", (-1, 1), 2); // A
    place_follower(&mut game, "BASE-E", (-1, -1), 0, "c1"); // B: knight
    place(&mut game, "BASE-E", (0, -1), 2); // C
    place(&mut game, "BASE-U", (-2, 0), 0); // D

    // A: a dragon tile east of the board, with a farmer on its north field.
    place_follower(&mut game, "PD-DRAGON-STRAIGHT", (2, 0), 0, "f1");
    assert_eq!(game.phase(), Phase::DragonFlight);
    let path: [(usize, Xy); 6] = [
        (0, (1, 0)),   // A: up
        (1, (0, 0)),   // B: left
        (2, (0, 1)),   // C: down, onto D's monk
        (3, (-1, 1)),  // D: left
        (0, (-1, 0)),  // A: up, onto C's thief
        (1, (-1, -1)), // B: up, onto B's own knight
    ];
    for (i, (seat, xy)) in path.iter().enumerate() {
        assert_eq!(game.to_play(), *seat, "step {}", i + 1);
        if i == 3 {
            // D may not go right (the volcano was visited); (0, 2) holds no tile.
            assert_eq!(legal(&game), vec![step((-1, 1))]);
            assert_not_legal(&game, step((1, 1)));
        }
        apply(&mut game, step(*xy));
        let (steps, visited): (u8, Vec<_>) = (
            game.flight_steps().unwrap_or_default(),
            game.flight_visited().collect(),
        );
        if i < 5 {
            assert_eq!(steps as usize, i + 1);
            assert_eq!(
                visited.len(),
                i + 2,
                "start square and every entered square"
            );
        }
    }
    assert_ne!(game.phase(), Phase::DragonFlight, "6 steps at most");
    assert_eq!(game.dragon(), Some(pos((-1, -1))));
    for seat in 1..4 {
        assert_eq!(
            game.supply(seat, FOLLOWER),
            7,
            "seat {seat} got its follower back"
        );
    }
    assert_eq!(game.supply(0, FOLLOWER), 6);
    assert_eq!(
        figures_at(&game, (2, 0)).len(),
        1,
        "A's farmer was not entered"
    );
}

/// PD6, PD16a: the dragon never enters the fairy's tile; here its only other neighbour is
/// the new dragon tile, and from there it is stuck.
#[test]
fn pd6_dragon_never_onto_the_fairy_tile() {
    let mut game = pd_game(2);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0

    // Seat 1: volcano with a road end, its road joining from the west.
    place(&mut game, "PD-VOLCANO-ROAD", (2, 0), 1);
    // Seat 0: a monastery south of the start, and the fairy next to the thief instead of
    // a deployment.
    play(&mut game, "BASE-B", (0, 1), 0);
    let fairy = fairy_to(&game, (1, 0), "r1");
    apply(&mut game, fairy);
    // Seat 1: a dragon tile east of the volcano.
    place(&mut game, "PD-DRAGON-STRAIGHT", (3, 0), 1);
    assert_eq!(legal(&game), vec![step((3, 0))]);
    assert_not_legal(&game, step((1, 0)));
    apply(&mut game, step((3, 0)));
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(figures_at(&game, (1, 0)).len(), 1, "the thief is safe");
}

/// PD7, PD20: the dragon eats the abbot, the mayor, the wagon and followers, not the barn.
#[test]
fn pd7_pd20_dragon_eats_every_figure_but_the_barn() {
    use Figure::{Abbot, Barn, Mayor, Wagon};
    let mut game = pd_am_game();
    // Seat 0: monastery with a road east (BASE-A turned 3) west of the start, abbot.
    place_deploy(&mut game, "BASE-A", (-1, 0), 3, Abbot, "m1");
    // Seat 1: cap facing east south of the start, mayor.
    place_deploy(&mut game, "BASE-E", (0, 1), 1, Mayor, "c1");
    // Seat 0: straight road below, wagon.
    place_deploy(&mut game, "BASE-U", (0, 2), 0, Wagon, "r1");
    place(&mut game, "BASE-U", (1, 2), 0); // seat 1
    place(&mut game, "BASE-B", (1, 3), 0); // seat 0
    place(&mut game, "BASE-B", (1, 4), 0); // seat 1
    place(&mut game, "PD-VOLCANO-FIELD", (0, 4), 0); // seat 0: the dragon lands

    // Seat 1: (0, 3) completes a corner of four fields (SE): barn.
    play(&mut game, "BASE-B", (0, 3), 0);
    apply(
        &mut game,
        Action::DeployBarn {
            pos: pos((0, 3)),
            corner: Corner::SE,
        },
    );
    // Seat 0: cap facing north above the monastery, follower.
    place_follower(&mut game, "BASE-E", (-1, -1), 0, "c1");
    // Seat 1: a dragon tile east of the start.
    place(&mut game, "PD-DRAGON-STRAIGHT", (1, 0), 0);
    for xy in [(0, 3), (0, 2), (0, 1), (0, 0), (-1, 0), (-1, -1)] {
        apply(&mut game, step(xy));
    }
    assert_eq!(game.supply(0, Abbot), 1);
    assert_eq!(game.supply(0, Wagon), 1);
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, Mayor), 1);
    assert_eq!(game.supply(1, Barn), 0);
    assert_eq!(figures_at(&game, (0, 3)), vec![(1, Barn, "corner2".into())]);
    assert_eq!(game.board_figures().len(), 1);
}

// ----- princess (PD9–PD11) ------------------------------------------------------------------

/// Seat 0 puts a knight on the pennant band at (0, -1) (city north–south, joined to the
/// start city); then seat 1 places the princess corner at (0, -2), turned twice: its
/// princess city (south and east) joins the knight's city.
fn princess_position(rule: PrincessRule) -> Game {
    let mut game = pd_game_with(RuleSwitches {
        princess: rule,
        ..RuleSwitches::default()
    });
    place_follower(&mut game, "BASE-F", (0, -1), 1, "c1");
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2);
    game
}

/// PD9 (`may`), PD10: the player may remove a knight of the joined city (or deploy as
/// usual elsewhere on the tile); after removing one he deploys nothing this turn.
#[test]
fn pd9_pd10_princess_may_remove_a_knight_then_no_deployment() {
    let mut game = princess_position(PrincessRule::May);
    let remove = princess(&game, (0, -1), "c1");
    assert_legal(&game, remove);
    assert_legal(&game, Action::Pass);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, -2), "f1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, -2), "c1"));
    apply(&mut game, remove);
    assert_eq!(game.supply(0, FOLLOWER), 7, "the knight went home");
    assert_eq!(game.supply(1, FOLLOWER), 7, "PD10: nothing deployed");
    assert!(game.board_figures().is_empty());
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 0);
}

/// PD9 (`must`): when the princess city joins a city with knights, removing one is the
/// only choice.
#[test]
fn pd9_princess_must_remove() {
    let game = princess_position(PrincessRule::Must);
    assert_eq!(legal(&game), vec![princess(&game, (0, -1), "c1")]);
}

/// PD9: the knight removed may be the player's own.
#[test]
fn pd9_princess_may_remove_own_knight() {
    let mut game = pd_game(2);
    place_follower(&mut game, "BASE-F", (0, -1), 1, "c1"); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2); // seat 0
    assert_legal(&game, princess(&game, (0, -1), "c1"));
}

/// PD9: with Abbey & Mayor a mayor is a knight the princess may remove.
#[test]
fn pd9_princess_removes_a_mayor() {
    let mut game = pd_am_game();
    place_deploy(&mut game, "BASE-F", (0, -1), 1, Figure::Mayor, "c1");
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2);
    let remove = princess(&game, (0, -1), "c1");
    apply(&mut game, remove);
    assert_eq!(game.supply(0, Figure::Mayor), 1);
}

/// PD11: a princess tile that extends a city without knights is deployed on as usual.
#[test]
fn pd11_princess_on_a_city_without_knights() {
    let mut game = pd_game(2);
    place(&mut game, "BASE-F", (0, -1), 1);
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2);
    assert!(legal(&game)
        .iter()
        .all(|a| !matches!(a, Action::Princess { .. })));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, -2), "c1"));
}

// ----- magic portal (PD12–PD14, PD21) -----------------------------------------------------

/// PD12, PD13b, PD14: with a magic portal the follower may go onto the portal tile or onto
/// any unoccupied, incomplete feature of any tile — not onto a feature the placement
/// completes, not onto an occupied one, never onto the dragon's tile; once per turn.
#[test]
fn pd12_pd13b_pd14_magic_portal_targets() {
    let mut game = pd_game(2);
    // Seat 0: volcano cap closing the start city: the dragon stands at (0, -1).
    place(&mut game, "PD-VOLCANO-CITYCAP", (0, -1), 2);
    // Seat 1: road east of the start, thief.
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1");
    // Seat 0: cap facing south below the start.
    place(&mut game, "BASE-E", (0, 1), 2);
    // Seat 1: portal cap facing north at (0, 2) closes that city (2 tiles).
    play(&mut game, "PD-PORTAL-CITYCAP-CURVE-SW", (0, 2), 0);
    let d = |xy, f| deploy_action(&game, FOLLOWER, xy, f);
    // On the portal tile itself: as usual, even on the city it completes.
    assert_legal(&game, d((0, 2), "c1"));
    // Elsewhere: free, incomplete features of any tile, the start tile included.
    assert_legal(&game, d((0, 1), "f1"));
    assert_legal(&game, d((1, 0), "f1"));
    assert_legal(&game, d((0, 0), "f2"));
    // PD14: the city this placement completes, on its other tile.
    assert_not_legal(&game, d((0, 1), "c1"));
    // B7: the road holds the thief.
    assert_not_legal(&game, d((1, 0), "r1"));
    // PD13b: the dragon's tile, even its free field.
    assert_not_legal(&game, d((0, -1), "f1"));
    let portal_farmer = d((0, 1), "f1");
    apply(&mut game, portal_farmer);
    assert_eq!(figures_at(&game, (0, 1)), vec![(1, FOLLOWER, "f1".into())]);
    assert_eq!(game.phase(), Phase::Draw, "PD12: once per turn");
    assert_eq!(game.turn_player(), 0);
}

/// PD13, PD21: the abbot (onto a monastery), the mayor (onto a city) and the wagon may use
/// the portal; the barn may not (only the placed tile's corners).
#[test]
fn pd13_pd21_portal_for_abbot_mayor_wagon_not_barn() {
    use Figure::{Abbot, Mayor, Wagon};
    let mut game = pd_am_game();
    place(&mut game, "BASE-B", (0, 1), 0); // seat 0: free monastery
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1: free road
    place(&mut game, "BASE-F", (0, -1), 1); // seat 0: the start city grows north

    // Seat 1: (1, 1) makes the start's south-east corner a corner of four fields; no barn.
    play(&mut game, "BASE-B", (1, 1), 0);
    let barn_here = Action::DeployBarn {
        pos: pos((1, 1)),
        corner: Corner::NW,
    };
    assert_legal(&game, barn_here);
    finish_turn(&mut game);
    // Seat 0: portal junction west of the start.
    play(&mut game, "PD-PORTAL-JUNCTION", (-1, 0), 0);
    let legal = legal(&game);
    for action in [
        deploy_action(&game, Abbot, (0, 1), "m1"),
        deploy_action(&game, Wagon, (0, 1), "m1"),
        deploy_action(&game, Mayor, (0, -1), "c1"),
        deploy_action(&game, Mayor, (0, 0), "c1"),
        deploy_action(&game, Wagon, (1, 0), "r1"),
        deploy_action(&game, Wagon, (0, -1), "c1"),
    ] {
        assert!(legal.contains(&action), "{action} missing: {legal:?}");
    }
    for action in [
        deploy_action(&game, Mayor, (0, 1), "f1"),
        deploy_action(&game, Wagon, (1, 0), "f1"),
        deploy_action(&game, Abbot, (1, 0), "r1"),
    ] {
        assert!(!legal.contains(&action), "{action} offered");
    }
    // The placed junction has no corner of four fields, and the barn does not travel.
    assert!(!legal.iter().any(|a| matches!(a, Action::DeployBarn { .. })));
}

// ----- fairy (PD15–PD17, PD23) --------------------------------------------------------------

/// PD15, PD16b, PD16c, PD23 and the rulebook's example: red (seat 0) moved the fairy next
/// to its knight; blue (seat 1) completes the city worth 8 (3 tiles + 1 pennant); both
/// knights score 8 and red gets 3 more, 11. The fairy stays on its tile, unattached.
#[test]
fn pd16_fairy_rulebook_example_three_more_points() {
    let mut game = pd_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1"); // red, cap facing east
    place_follower(&mut game, "BASE-E", (1, 1), 3, "c1"); // blue, cap facing west

    // Red: a monastery, and the fairy next to its knight instead of a deployment. Only

    // red's own figures are offered (PD15).
    play(&mut game, "BASE-B", (-1, 2), 0);
    let to_red = fairy_to(&game, (-1, 1), "c1");
    assert_legal(&game, to_red);
    assert_not_legal(&game, fairy_to(&game, (1, 1), "c1"));
    apply(&mut game, to_red);
    assert!(
        figures_at(&game, (-1, 2)).is_empty(),
        "PD23: nothing deployed"
    );
    assert_eq!(game.supply(0, FOLLOWER), 6);
    assert_eq!(game.phase(), Phase::Draw);
    place(&mut game, "BASE-B", (1, 2), 0); // blue: no fairy point for blue
    assert_eq!(
        game.scores(),
        &[1, 0],
        "PD16b: red's point at the start of its turn"
    );
    place(&mut game, "BASE-U", (-2, 0), 0); // red
    let since = game.events().len();
    place(&mut game, "BASE-F", (0, 1), 0); // blue completes the city
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![
            (0, 3, ScoreKind::FairyScored),
            (0, 8, ScoreKind::City),
            (1, 8, ScoreKind::City),
        ]
    );
    assert_eq!(game.scores(), &[1 + 11, 8]);
    assert_eq!(
        game.fairy(),
        Some((pos((-1, 1)), None)),
        "it stays, unattached"
    );
    // Red's next turn: no point without a follower by the fairy.
    place(&mut game, "BASE-U", (-3, 0), 0);
    assert_eq!(game.scores(), &[12, 8]);
}

/// PD15 (`on-tile`), PD16b: the first-edition fairy stands on a tile where the player has
/// a figure and gives him 1 point at the start of his turns.
#[test]
fn pd15_fairy_on_tile() {
    let mut game = pd_game_with(RuleSwitches {
        fairy: FairyRule::OnTile,
        ..RuleSwitches::default()
    });
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 1
    play(&mut game, "BASE-B", (0, 1), 0); // seat 0
    let on_tile = Action::MoveFairy {
        pos: pos((1, 0)),
        feature: None,
    };
    assert_legal(&game, on_tile);
    assert_not_legal(&game, fairy_to(&game, (1, 0), "r1"));
    apply(&mut game, on_tile);
    assert_eq!(game.fairy(), Some((pos((1, 0)), None)));
    place(&mut game, "BASE-B", (0, 2), 0); // seat 1
    assert_eq!(game.scores(), &[1, 0]);
}

/// PD22: a volcano placed with Abbey & Mayor: the player may place his barn that turn
/// (here the volcano completes a corner of four fields), but no figure on the volcano.
#[test]
fn pd22_barn_on_a_volcano_turn() {
    let mut game = pd_am_game();
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    play(&mut game, "PD-VOLCANO-FIELD", (1, 1), 0); // seat 0
    let barn = Action::DeployBarn {
        pos: pos((1, 1)),
        corner: Corner::NW,
    };
    assert_eq!(legal(&game), vec![barn, Action::Pass]);
    apply(&mut game, barn);
    assert_eq!(game.supply(0, Figure::Barn), 0);
}

// ----- new tiles (PD18, PD19) ----------------------------------------------------------------

/// PD18: the tunnel's road is one road under the city, and its fields on either side of
/// the city are not split by that road. Turned once, its road runs west–east and its
/// west field `f2` touches both the start tile's field north of the road and the one
/// south of it: they become one field. The road of 5 tiles scores 5.
#[test]
fn pd18_tunnel_one_road_and_fields_not_split() {
    let mut game = pd_game(2);
    place(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0); // seat 0: dragon at (0, 1)
    place(&mut game, "BASE-E", (0, -1), 2); // seat 1: closes the start city

    // Seat 0: straight road west of the start; the road splits its fields (B16).
    play(&mut game, "BASE-U", (-1, 0), 0);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (-1, 0), "f2"));
    deploy(&mut game, FOLLOWER, (-1, 0), "f1");
    // Seat 1: the tunnel east of the start.
    play(&mut game, "PD-DRAGON-TUNNEL", (1, 0), 1);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f2"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f1"));
    deploy(&mut game, FOLLOWER, (1, 0), "r1");
    apply(&mut game, step((0, 0))); // seat 1
    apply(&mut game, step((0, -1))); // seat 0; then stuck
    assert_eq!(game.phase(), Phase::Draw);
    // Seat 0: a cap below the west road: its field is the farmer's field now.
    play(&mut game, "BASE-E", (-1, 1), 2);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (-1, 1), "f1"));
    finish_turn(&mut game);
    // Junctions close the road at both ends: (-2,0), (-1,0), (0,0), tunnel, (2,0).
    place(&mut game, "BASE-W", (2, 0), 0); // seat 1
    let since = game.events().len();
    place(&mut game, "BASE-W", (-2, 0), 0); // seat 0
    assert_eq!(points_since(&game, since), vec![(1, 5, ScoreKind::Road)]);
}

/// PD19: in the monastery-in-a-city tile the city and the monastery are separate features:
/// a monk may go there while the city holds another player's knight, and the monastery is
/// complete when surrounded by 8 tiles although the city is still open.
#[test]
fn pd19_monastery_in_a_city_is_separate() {
    let mut game = pd_game(2);
    place(&mut game, "PD-VOLCANO-CITYCAP", (0, -1), 2); // seat 0: dragon at (0, -1)
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 1
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1"); // seat 1: knight, cap east

    // Seat 0: turned twice the tile has city east, south and west, field north.
    play(&mut game, "PD-DRAGON-MONASTERY-IN-CITY", (0, 1), 2);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, 1), "c1"));
    deploy(&mut game, FOLLOWER, (0, 1), "m1");
    apply(&mut game, step((0, 0))); // seat 0
    apply(&mut game, step((1, 0))); // seat 1; then stuck
    assert_eq!(game.phase(), Phase::Draw);
    place(&mut game, "BASE-E", (1, 1), 3); // seat 1: cap west
    place(&mut game, "BASE-F", (0, 2), 1); // seat 0: band north–south, city open south
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 1
    let since = game.events().len();
    place(&mut game, "BASE-B", (1, 2), 0); // seat 0: the 8th neighbour
    assert_eq!(
        points_since(&game, since),
        vec![(0, 9, ScoreKind::Monastery)]
    );
    assert_eq!(on_board(&game, 1, FOLLOWER), 1, "the city is still open");
}

// ----- rule readings made explicit (PD1 after the dragon left, PD15 on-tile, PD16c) ------

/// PD1: no figure ever stands on a volcano tile but the dragon, also after the dragon has
/// left it for another volcano (PD2): a magic portal may not target the old volcano's
/// free field, while the other free fields stay targets.
#[test]
fn pd1_no_portal_deployment_onto_an_old_volcano() {
    let mut game = pd_game(2);
    // Seat 0: a volcano closes the start city from the north; the dragon lands there.
    place(&mut game, "PD-VOLCANO-CITYCAP", (0, -1), 2);
    // Seat 1: a second volcano east of the start, its road meeting the start's road; the
    // dragon moves on (PD2).
    place(&mut game, "PD-VOLCANO-ROAD", (1, 0), 1);
    assert_eq!(game.dragon(), Some(pos((1, 0))));
    // Seat 0: a portal west of the start (its roads meet the start's road).
    play(&mut game, "PD-PORTAL-CITYCAP-CURVE-SW", (-1, 0), 2);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (0, 0), "f2"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (0, -1), "f1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f1"));
}

/// PD1 with Abbey & Mayor: a wagon moving on after its city scored (AM11) may not go to
/// the free city of an old volcano on a neighbouring tile, while the other free features
/// around stay targets.
#[test]
fn pd1_no_wagon_move_onto_an_old_volcano() {
    let mut game = pd_am_game();
    // Seat 0: a road-and-city tile east of the start.
    place(&mut game, "BASE-D", (1, 0), 0);
    // Seat 1: a two-caps volcano north of it, one cap closing its city, the other facing
    // east, open; the dragon lands there.
    place(&mut game, "PD-VOLCANO-TWO-CAPS", (1, -1), 1);
    assert_eq!(game.dragon(), Some(pos((1, -1))));
    // Seat 0: a field volcano south of the start: the dragon leaves (1, -1) (PD2).
    place(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0);
    assert_eq!(game.dragon(), Some(pos((0, 1))));
    // Seat 1: a cap closing the start city, with the wagon: the city scores, the wagon
    // may move on.
    play(&mut game, "BASE-E", (0, -1), 2);
    let wagon = deploy_action(&game, Figure::Wagon, (0, -1), "c1");
    apply(&mut game, wagon);
    assert_eq!(game.phase(), Phase::WagonMove);
    let old_volcano_city = Action::MoveWagon {
        pos: pos((1, -1)),
        feature: local(&game, (1, -1), "c1"),
    };
    assert_not_legal(&game, old_volcano_city);
    assert_legal(
        &game,
        Action::MoveWagon {
            pos: pos((0, 0)),
            feature: local(&game, (0, 0), "r1"),
        },
    );
}

/// PD16c and the switch `fairy_final_bonus`: the fairy's follower on a road that is still
/// open at the end scores it (B15) and, with the switch on (default), the owner gets the
/// 3 bonus points too; with it off, only completed features scored during play give them.
#[test]
fn pd16c_fairy_bonus_at_final_scoring_by_switch() {
    for bonus in [true, false] {
        let mut game = pd_game_with(RuleSwitches {
            fairy_final_bonus: bonus,
            ..RuleSwitches::default()
        });
        // Seat 0: a thief on the road east of the start (open at both ends).
        place_follower(&mut game, "BASE-U", (1, 0), 0, "r1");
        place(&mut game, "BASE-B", (0, 1), 0); // seat 1
        play(&mut game, "BASE-B", (1, 1), 0); // seat 0 moves the fairy to its thief
        let to_thief = fairy_to(&game, (1, 0), "r1");
        apply(&mut game, to_thief);
        let since = game.events().len();
        // The rest of the pile north of the start, away from the road's open ends.
        finish_game(&mut game, |p: Pos| p.y <= -1);
        let road: Vec<_> = points_since(&game, since)
            .into_iter()
            .filter(|(p, _, k)| {
                *p == 0 && matches!(k, ScoreKind::FairyScored | ScoreKind::Incomplete)
            })
            .collect();
        // B15: the road of two tiles, open at both ends, scores 2.
        assert!(road.contains(&(0, 2, ScoreKind::Incomplete)), "{road:?}");
        assert_eq!(
            road.contains(&(0, 3, ScoreKind::FairyScored)),
            bonus,
            "fairy_final_bonus {bonus}: {road:?}"
        );
    }
}

/// PD15 (`on-tile`): the fairy belongs to the player who moved it. Seat 0 moves it onto a
/// tile where seat 0 has a thief and seat 1 a knight (through a portal): only seat 0 gets
/// the point at the start of his turns (PD16b); seat 1's city scores without a bonus, and
/// seat 0's road with one (PD16c).
#[test]
fn pd15_on_tile_fairy_belongs_to_the_player_who_moved_it() {
    let mut game = pd_game_with(RuleSwitches {
        fairy: FairyRule::OnTile,
        ..RuleSwitches::default()
    });
    // Seat 0: a road-and-city tile east of the start with a thief on its road.
    place_follower(&mut game, "BASE-D", (1, 0), 0, "r1");
    // Seat 1: a portal west of the start; its knight goes onto (1, 0)'s open city.
    play(&mut game, "PD-PORTAL-CITYCAP-CURVE-SW", (-1, 0), 2);
    let knight = deploy_action(&game, FOLLOWER, (1, 0), "c1");
    apply(&mut game, knight);
    // Seat 0: the fairy onto (1, 0), where both have a figure.
    play(&mut game, "BASE-B", (0, 1), 0);
    let on_tile = Action::MoveFairy {
        pos: pos((1, 0)),
        feature: None,
    };
    let since = game.events().len();
    apply(&mut game, on_tile);
    // Seat 1's turn begins: his knight stands on the fairy's tile, but he did not move
    // it: no point (PD16b).
    assert_eq!(game.turn_player(), 1);
    assert_eq!(points_since(&game, since), vec![]);
    // Seat 1 closes (1, 0)'s city with a cap from the north: his knight scores 4 and
    // there is no fairy bonus (PD16c, the fairy is seat 0's); then seat 0's turn begins
    // with his point (PD16b: his thief is on the fairy's tile).
    let since = game.events().len();
    place(&mut game, "BASE-E", (1, -1), 2);
    assert_eq!(
        points_since(&game, since),
        vec![(1, 4, ScoreKind::City), (0, 1, ScoreKind::FairyTurn)]
    );
    // The road runs from the portal's curve, which turns it north at (-1, 0), through
    // the start to (1, 0). Seat 0 ends it at a monastery east of (1, 0); seat 1 ends it at
    // a monastery north of (-1, 0): the road (5 tiles) scores for seat 0's thief, and the
    // fairy standing on the thief's tile gives seat 0 the bonus (PD16c).
    place(&mut game, "BASE-A", (2, 0), 1);
    let since = game.events().len();
    place(&mut game, "BASE-A", (-1, -1), 0);
    let points = points_since(&game, since);
    assert!(points.contains(&(0, 5, ScoreKind::Road)), "{points:?}");
    assert!(
        points.contains(&(0, 3, ScoreKind::FairyScored)),
        "{points:?}"
    );
    assert!(
        points.iter().all(|(p, _, _)| *p == 0),
        "nothing for seat 1: {points:?}"
    );
}
