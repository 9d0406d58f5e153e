//! Rule-by-rule scenarios of the Tower (TW1–TW7 of `docs/rules.md`), with the base game,
//! and with the sets whose interactions the rules reference gives: The Princess & the
//! Dragon (the dragon, the princess, the fairy), Abbey & Mayor (abbot, mayor, wagon,
//! barn), Bridges, Castles & Bazaars (castles) and the Count (the City of Carcassonne).
//!
//! Most positions grow east of the start tile along its road: the tower `TOWER-4ROADS`
//! (roads on all four sides, each ending at the tower) or `TOWER-CITYCAP-STRAIGHT` (a city
//! cap north, a road west–east) at (1, 0), straights `BASE-U` further east.

mod common;

use carcassonne::action::Seat;
use carcassonne::rules::count::{Quarter, QuarterStep};
use carcassonne::rules::tower::{tower_pieces, TowerView};
use carcassonne::tiles::{catalogue, FeatureKind, Symbols};
use carcassonne::{Action, Corner, Figure, Figures, Game, Phase, ReturnCause, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const TOWER: [TileSet; 2] = [TileSet::Base, TileSet::Tower];

fn tower_game(players: u8) -> Game {
    start(config(players, &TOWER))
}

fn game_with(sets: &[TileSet]) -> Game {
    let mut all = vec![TileSet::Base, TileSet::Tower];
    all.extend_from_slice(sets);
    start(config(2, &all))
}

fn piece_action(xy: Xy) -> Action {
    Action::PlaceTowerPiece { pos: pos(xy) }
}

/// Puts a tower piece on the tower at `xy`; it must be legal.
#[track_caller]
fn piece(game: &mut Game, xy: Xy) {
    apply(game, piece_action(xy));
}

fn capture(game: &Game, xy: Xy, feature: &str, figure: Figure) -> Action {
    Action::Capture {
        pos: pos(xy),
        feature: local(game, xy, feature),
        figure,
    }
}

/// Takes the `figure` on `feature` of the tile at `xy` prisoner; it must be legal.
#[track_caller]
fn take(game: &mut Game, xy: Xy, feature: &str, figure: Figure) {
    let action = capture(game, xy, feature, figure);
    apply(game, action);
}

/// Puts a follower on top of the tower at `xy`; it must be legal.
#[track_caller]
fn climb(game: &mut Game, xy: Xy) {
    let action = onto_tower(game, xy);
    apply(game, action);
}

/// A follower onto the tower of the tile at `xy` (TW2).
fn onto_tower(game: &Game, xy: Xy) -> Action {
    deploy_action(game, FOLLOWER, xy, "t1")
}

fn tower_at(game: &Game, xy: Xy) -> TowerView {
    game.towers()
        .find(|t| t.pos == pos(xy))
        .unwrap_or_else(|| panic!("no tower at {xy:?}"))
}

fn ransom(holder: u8, figure: Figure) -> Action {
    Action::PayRansom {
        prisoner_of: Seat(holder),
        figure,
    }
}

/// The tower pieces and ransoms among the legal actions.
fn tower_choices(game: &Game) -> Vec<Action> {
    legal(game)
        .into_iter()
        .filter(|a| {
            matches!(a, Action::PlaceTowerPiece { .. } | Action::PayRansom { .. })
                || matches!(a, Action::Deploy { pos, feature, .. }
                    if game.feature_kind_at(*pos, *feature) == Some(FeatureKind::Tower))
        })
        .collect()
}

// ----- TW1: foundations and pieces ------------------------------------------------------

/// TW1: 10 / 9 / 7 / 6 / 5 pieces per player with 2 / 3 / 4 / 5 / 6 players, outside
/// `figures`; every tile of the set, and no other, has one foundation `t1` without
/// segments; a tile put on the board brings a tower of height 0.
#[test]
fn tw1_pieces_per_player_and_a_foundation_on_every_tower_tile() {
    for (players, pieces) in [(2, 10), (3, 9), (4, 7), (5, 6), (6, 5)] {
        assert_eq!(tower_pieces(players), pieces);
        let game = tower_game(players);
        for seat in 0..players as usize {
            assert_eq!(game.tower_pieces_left(seat), pieces, "{players} players");
        }
    }
    assert!(!Figures::KEYS.iter().any(|k| k.contains("tower")));
    let mut tower_tiles = 0;
    for kind in catalogue().kinds() {
        let def = kind.def();
        let foundations: Vec<_> = def
            .features
            .iter()
            .filter(|f| f.kind == FeatureKind::Tower)
            .collect();
        if def.set == TileSet::Tower {
            tower_tiles += 1;
            assert_eq!(foundations.len(), 1, "{}", def.id);
            assert_eq!(
                (foundations[0].id.as_str(), foundations[0].segments),
                ("t1", 0)
            );
            assert!(def.has(Symbols::TOWER), "{}", def.id);
        } else {
            assert!(foundations.is_empty(), "{}", def.id);
            assert!(!def.has(Symbols::TOWER), "{}", def.id);
        }
    }
    assert_eq!(tower_tiles, 19);

    let mut game = tower_game(2);
    assert_eq!(game.towers().count(), 0);
    place(&mut game, "TOWER-4ROADS", (1, 0), 0);
    let t = tower_at(&game, (1, 0));
    assert_eq!((t.height, t.top), (0, None));
    assert_eq!(t.feature, local(&game, (1, 0), "t1"));
}

// ----- TW2: pieces and followers on towers ---------------------------------------------

/// TW2: a piece goes on any foundation of the board, the placed tile's or another's; a
/// follower goes on top of a tower of height 1 or more, anywhere, and closes it: no piece
/// and no follower more. The follower belongs to no feature: a road completed through
/// the tower's tile scores without it, and it stays (seed 000: it stays to the end unless
/// the dragon eats it or a tower captures it).
#[test]
fn tw2_a_piece_anywhere_and_a_follower_that_closes_the_tower() {
    let mut game = tower_game(2);
    play(&mut game, "TOWER-4ROADS", (1, 0), 0); // seat 0
                                                // The placed tile's foundation takes a piece; nothing takes a follower yet.
    assert_eq!(tower_choices(&game), vec![piece_action((1, 0))]);
    apply(&mut game, Action::Pass);

    play(&mut game, "BASE-U", (2, 0), 0); // seat 1: a tower on another tile
    assert_eq!(tower_choices(&game), vec![piece_action((1, 0))]);
    piece(&mut game, (1, 0));
    // No figure is in reach: no capture, the turn is over.
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(tower_at(&game, (1, 0)).height, 1);
    assert_eq!(game.tower_pieces_left(1), 9);
    assert_eq!(game.tower_pieces_left(0), 10);

    play(&mut game, "BASE-U", (3, 0), 0); // seat 0
    assert_eq!(
        tower_choices(&game),
        vec![onto_tower(&game, (1, 0)), piece_action((1, 0))]
    );
    climb(&mut game, (1, 0));
    assert_eq!(tower_at(&game, (1, 0)).top, Some((0, FOLLOWER)));
    assert_eq!(game.supply(0, FOLLOWER), 6);

    play(&mut game, "BASE-U", (4, 0), 0); // seat 1: the tower is closed
    assert_eq!(tower_choices(&game), vec![]);
    deploy(&mut game, FOLLOWER, (4, 0), "r1");
    let since = game.events().len();
    place(&mut game, "BASE-W", (5, 0), 0); // seat 0: the road (1,0)..(5,0) is closed
    assert_eq!(points_since(&game, since), vec![(1, 5, ScoreKind::Road)]);
    assert_eq!(tower_at(&game, (1, 0)).top, Some((0, FOLLOWER)));
    assert_eq!(game.supply(0, FOLLOWER), 6);
}

/// TW2: only a follower goes on top of a tower: not the abbot, the mayor, the wagon (nor
/// the barn, which only goes on a corner of the placed tile).
#[test]
fn tw2_only_followers_on_top() {
    let mut config = config(2, &[TileSet::Base, TileSet::Tower, TileSet::AbbeyMayor]);
    config.figures.abbot = 1;
    let mut game = start(config);
    place(&mut game, "TOWER-4ROADS", (1, 0), 0); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    play(&mut game, "BASE-U", (3, 0), 0); // seat 0
    let onto: Vec<Figure> = legal(&game)
        .iter()
        .filter_map(|a| match *a {
            Action::Deploy {
                figure,
                pos: p,
                feature,
            } if p == pos((1, 0)) && feature == local(&game, (1, 0), "t1") => Some(figure),
            _ => None,
        })
        .collect();
    assert_eq!(onto, vec![FOLLOWER]);
    for figure in [Figure::Abbot, Figure::Mayor, Figure::Wagon] {
        assert_not_legal(&game, deploy_action(&game, figure, (1, 0), "t1"));
    }
}

/// TW2, TW3: a tower whose follower is captured is open again, for pieces and for a new
/// follower; a tower reaches as far as its height after the new piece.
#[test]
fn tw2_tw3_a_captured_top_opens_the_tower() {
    let mut game = tower_game(2);
    play(&mut game, "TOWER-4ROADS", (1, 0), 0); // seat 0
    piece(&mut game, (1, 0));
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    climb(&mut game, (1, 0));
    play(&mut game, "TOWER-3ROADS", (3, 0), 0); // seat 0: a second tower, two tiles away
    piece(&mut game, (3, 0));
    // Height 1 does not reach (1, 0).
    assert_eq!(game.phase(), Phase::Draw);
    place(&mut game, "BASE-U", (4, 0), 0); // seat 1
    play(&mut game, "BASE-U", (5, 0), 0); // seat 0
    piece(&mut game, (3, 0));
    assert_eq!(game.phase(), Phase::Capture);
    assert_eq!(
        legal(&game),
        vec![capture(&game, (1, 0), "t1", FOLLOWER), Action::CapturePass]
    );
    take(&mut game, (1, 0), "t1", FOLLOWER);
    assert_eq!(game.prisoners(0, 1, FOLLOWER), 1);
    assert_eq!(game.supply(1, FOLLOWER), 6);
    assert_eq!(tower_at(&game, (1, 0)).top, None);
    assert_eq!(
        game.figure_returns().last().map(|r| (r.owner, r.cause)),
        Some((1, ReturnCause::Captured))
    );

    play(&mut game, "BASE-U", (6, 0), 0); // seat 1
    assert_eq!(
        tower_choices(&game),
        vec![
            onto_tower(&game, (1, 0)),
            onto_tower(&game, (3, 0)),
            piece_action((1, 0)),
            piece_action((3, 0)),
        ]
    );
}

// ----- TW3: captures ----------------------------------------------------------------------

/// TW3: a tower of height h reaches its own tile and the tiles of its row and column at
/// most h away, across empty squares, never diagonally. Figures are listed in the order
/// their tiles were placed; an own figure goes back to the supply, another's is held.
#[test]
fn tw3_reach_is_the_row_and_column_up_to_the_height() {
    let mut game = tower_game(2);
    place(&mut game, "TOWER-4ROADS", (1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-U", (2, 0), 0, "r1"); // seat 1: one east
    place(&mut game, "BASE-U", (3, 0), 0); // seat 0
    place_follower(&mut game, "BASE-B", (0, 1), 0, "m1"); // seat 1: diagonal
    place(&mut game, "BASE-B", (0, 2), 0); // seat 0
    place_follower(&mut game, "BASE-U", (4, 0), 0, "f1"); // seat 1: three east
                                                          // Seat 0: two south, with the square between them empty.
    place_follower(&mut game, "BASE-B", (1, 2), 0, "m1");
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 1

    play(&mut game, "BASE-U", (-2, 0), 0); // seat 0
    piece(&mut game, (1, 0)); // height 1
    assert_eq!(
        legal(&game),
        vec![capture(&game, (2, 0), "r1", FOLLOWER), Action::CapturePass]
    );
    apply(&mut game, Action::CapturePass);
    assert_eq!(game.phase(), Phase::Draw);

    place(&mut game, "BASE-B", (0, 3), 0); // seat 1
    play(&mut game, "BASE-U", (-3, 0), 0); // seat 0
    piece(&mut game, (1, 0)); // height 2
    assert_eq!(
        legal(&game),
        vec![
            capture(&game, (2, 0), "r1", FOLLOWER),
            capture(&game, (1, 2), "m1", FOLLOWER),
            Action::CapturePass
        ]
    );
    take(&mut game, (1, 2), "m1", FOLLOWER);
    // The own monk is back in the supply; nobody holds a prisoner.
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.prisoners_held(0), 0);

    place(&mut game, "BASE-E", (0, -1), 2); // seat 1
    play(&mut game, "BASE-E", (-1, -1), 0); // seat 0
    piece(&mut game, (1, 0)); // height 3
    assert_eq!(
        legal(&game),
        vec![
            capture(&game, (2, 0), "r1", FOLLOWER),
            capture(&game, (4, 0), "f1", FOLLOWER),
            Action::CapturePass
        ]
    );
    take(&mut game, (4, 0), "f1", FOLLOWER);
    assert_eq!(game.prisoners(0, 1, FOLLOWER), 1);
    assert_eq!(game.prisoners_held(0), 1);
    // Seat 1 put three followers down; two stand, one is held: none came back.
    assert_eq!(game.supply(1, FOLLOWER), 4);
    assert_eq!(on_board(&game, 1, FOLLOWER), 2);
    assert_eq!(figures_at(&game, (0, 1)), vec![(1, FOLLOWER, "m1".into())]);
}

/// TW3 with Abbey & Mayor: the abbot, the mayor and the wagon are captured like
/// followers; a barn never is (seed 000), even on a tile the tower reaches.
#[test]
fn tw3_abbot_mayor_and_wagon_are_captured_never_a_barn() {
    let mut config = config(2, &[TileSet::Base, TileSet::Tower, TileSet::AbbeyMayor]);
    config.figures.abbot = 1;
    let mut game = start(config);
    place(&mut game, "TOWER-FIELD-G", (0, 1), 0); // seat 0: the tower
    place_deploy(&mut game, "BASE-N", (0, -1), 2, Figure::Mayor, "c1"); // seat 1
    place_deploy(&mut game, "BASE-B", (-1, 1), 0, Figure::Abbot, "m1"); // seat 0
    place_deploy(&mut game, "BASE-U", (0, 2), 0, Figure::Wagon, "r1"); // seat 1
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    play(&mut game, "BASE-B", (1, 1), 0); // seat 1: a barn where four fields meet
    apply(
        &mut game,
        Action::DeployBarn {
            pos: pos((1, 1)),
            corner: Corner::NW,
        },
    );
    assert_eq!(on_board(&game, 1, Figure::Barn), 1);

    play(&mut game, "BASE-U", (2, 0), 0); // seat 0
    piece(&mut game, (0, 1)); // height 1
    assert_eq!(
        legal(&game),
        vec![
            capture(&game, (-1, 1), "m1", Figure::Abbot),
            capture(&game, (0, 2), "r1", Figure::Wagon),
            Action::CapturePass
        ]
    );
    apply(&mut game, Action::CapturePass);
    place(&mut game, "BASE-U", (3, 0), 0); // seat 1
    play(&mut game, "BASE-U", (4, 0), 0); // seat 0
    piece(&mut game, (0, 1)); // height 2
    assert_eq!(
        legal(&game),
        vec![
            capture(&game, (0, -1), "c1", Figure::Mayor),
            capture(&game, (-1, 1), "m1", Figure::Abbot),
            capture(&game, (0, 2), "r1", Figure::Wagon),
            Action::CapturePass
        ]
    );
    take(&mut game, (0, -1), "c1", Figure::Mayor);
    assert_eq!(game.prisoners(0, 1, Figure::Mayor), 1);
    assert_eq!(game.supply(1, Figure::Mayor), 0);
    assert_eq!(on_board(&game, 1, Figure::Barn), 1);
}

/// TW3 with The Princess & the Dragon (seed 003): the fairy protects nothing; the
/// captured follower leaves the fairy unattached on its tile (PD16).
#[test]
fn tw3_the_fairy_protects_nothing() {
    let mut game = game_with(&[TileSet::PrincessDragon]);
    place(&mut game, "TOWER-CITYCAP-STRAIGHT", (1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-U", (2, 0), 0, "r1"); // seat 1
    place(&mut game, "BASE-U", (3, 0), 0); // seat 0
    play(&mut game, "BASE-U", (4, 0), 0); // seat 1
    let fairy = Action::MoveFairy {
        pos: pos((2, 0)),
        feature: Some(local(&game, (2, 0), "r1")),
    };
    apply(&mut game, fairy);
    assert_eq!(
        game.fairy(),
        Some((pos((2, 0)), Some((1, local(&game, (2, 0), "r1")))))
    );
    play(&mut game, "BASE-U", (5, 0), 0); // seat 0
    piece(&mut game, (1, 0));
    assert_eq!(
        legal(&game),
        vec![capture(&game, (2, 0), "r1", FOLLOWER), Action::CapturePass]
    );
    take(&mut game, (2, 0), "r1", FOLLOWER);
    assert_eq!(game.prisoners(0, 1, FOLLOWER), 1);
    assert_eq!(game.fairy(), Some((pos((2, 0)), None)));
}

/// TW3 with castles (CA4): a figure in a castle is not captured.
#[test]
fn tw3_a_figure_in_a_castle_is_safe() {
    let mut game = game_with(&[TileSet::BridgesCastlesBazaars]);
    // Seat 0 completes the two caps of (0, 0) and (0, -1) with his knight: a castle.
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1");
    assert_eq!(game.phase(), Phase::Castle);
    let castle = Action::BuildCastle {
        pos: pos((0, -1)),
        feature: local(&game, (0, -1), "c1"),
    };
    apply(&mut game, castle);
    assert_eq!(game.castles().count(), 1);
    // Seat 1: a tower north of the castle; a monk of seat 0 beyond it. The tower's first
    // piece reaches both.
    place(&mut game, "TOWER-FIELD-G", (0, -2), 0);
    place_follower(&mut game, "BASE-B", (0, -3), 0, "m1"); // seat 0
    play(&mut game, "BASE-U", (1, 0), 0); // seat 1
    piece(&mut game, (0, -2));
    assert_eq!(
        legal(&game),
        vec![capture(&game, (0, -3), "m1", FOLLOWER), Action::CapturePass]
    );
    apply(&mut game, Action::CapturePass);
    assert_eq!(figures_at(&game, (0, -1)), vec![(0, FOLLOWER, "c1".into())]);
}

/// TW3 with the Count (CC2): figures in the quarters of the City of Carcassonne stand on
/// no tile and are never captured, even by a tower whose row runs through the City.
#[test]
fn tw3_the_city_of_carcassonne_is_out_of_reach() {
    let mut game = game_with(&[TileSet::Count]);
    place_follower(&mut game, "BASE-U", (0, 2), 1, "r1"); // seat 0: the road south
    place(&mut game, "BASE-W", (0, 3), 2); // seat 1 closes it: seat 0 scores 3
    assert_eq!(game.scores(), &[3, 0]);
    assert_eq!(game.phase(), Phase::EnterQuarter);
    apply(
        &mut game,
        Action::DeployQuarter {
            figure: FOLLOWER,
            quarter: Quarter::Market,
        },
    );
    apply(
        &mut game,
        Action::QuarterPass {
            step: QuarterStep::Count,
        },
    );
    assert_eq!(game.quarter_figures(), &[(Quarter::Market, 1, FOLLOWER)]);
    // Seat 0: a tower south-east of the City, raised twice: its column runs through
    // COUNT-12 and COUNT-08.
    play(&mut game, "TOWER-FIELD-G", (1, 2), 0);
    piece(&mut game, (1, 2));
    assert_eq!(game.phase(), Phase::Draw);
    place(&mut game, "BASE-B", (2, 2), 0); // seat 1
    play(&mut game, "BASE-U", (1, 3), 0); // seat 0
    piece(&mut game, (1, 2));
    assert_eq!(game.phase(), Phase::Draw, "nothing to capture");
    assert_eq!(game.quarter_figures(), &[(Quarter::Market, 1, FOLLOWER)]);
    assert_eq!(game.supply(1, FOLLOWER), 6);
}

// ----- TW4: prisoners and exchanges -------------------------------------------------------

/// TW4: a prisoner is out of its owner's supply; when a capture takes a figure of a
/// player who holds a prisoner of the capturer (one kind), both go back at once, with no
/// decision.
#[test]
fn tw4_prisoners_are_exchanged_at_a_capture() {
    let mut game = tower_game(2);
    place_follower(&mut game, "TOWER-4ROADS", (1, 0), 0, "r2"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    take(&mut game, (1, 0), "r2", FOLLOWER);
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 1);
    assert_eq!(game.supply(0, FOLLOWER), 6);
    assert_eq!(game.held(0).follower, 6);

    place(&mut game, "BASE-U", (3, 0), 0); // seat 0
    place_follower(&mut game, "BASE-U", (1, -1), 1, "r1"); // seat 1: north of the tower
    play(&mut game, "BASE-U", (4, 0), 0); // seat 0
    piece(&mut game, (1, 0)); // height 2
    take(&mut game, (1, -1), "r1", FOLLOWER);
    // The exchange: no decision, both followers home.
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.prisoners_held(0) + game.prisoners_held(1), 0);
    assert_eq!((game.supply(0, FOLLOWER), game.supply(1, FOLLOWER)), (7, 7));
}

/// TW4: when the captured player holds prisoners of the capturer of several kinds, the
/// capturer picks the kind he gets back; the other stays a prisoner.
#[test]
fn tw4_the_capturer_picks_the_kind_exchanged() {
    let mut game = game_with(&[TileSet::AbbeyMayor]);
    place_follower(&mut game, "TOWER-4ROADS", (1, 0), 0, "r2"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    take(&mut game, (1, 0), "r2", FOLLOWER);
    place_deploy(&mut game, "BASE-U", (1, -1), 1, Figure::Wagon, "r1"); // seat 0
    play(&mut game, "BASE-U", (3, 0), 0); // seat 1
    piece(&mut game, (1, 0)); // height 2
    take(&mut game, (1, -1), "r1", Figure::Wagon);
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 1);
    assert_eq!(game.prisoners(1, 0, Figure::Wagon), 1);

    place(&mut game, "BASE-U", (4, 0), 0); // seat 0
    place_follower(&mut game, "BASE-U", (1, 1), 1, "r1"); // seat 1: south of the tower
    play(&mut game, "BASE-U", (5, 0), 0); // seat 0
    piece(&mut game, (1, 0)); // height 3
    take(&mut game, (1, 1), "r1", FOLLOWER);
    assert_eq!((game.phase(), game.to_play()), (Phase::ExchangePrisoner, 0));
    assert_eq!(
        legal(&game),
        vec![
            Action::ExchangePrisoner { figure: FOLLOWER },
            Action::ExchangePrisoner {
                figure: Figure::Wagon
            }
        ]
    );
    // Seat 1's follower is home already.
    assert_eq!(game.supply(1, FOLLOWER), 7);
    apply(
        &mut game,
        Action::ExchangePrisoner {
            figure: Figure::Wagon,
        },
    );
    assert_eq!(game.supply(0, Figure::Wagon), 1);
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 1);
    assert_eq!(game.prisoners(1, 0, Figure::Wagon), 0);
    assert_eq!(game.prisoners_held(0), 0);
    assert_eq!(game.phase(), Phase::Draw);
}

// ----- TW5: ransoms -----------------------------------------------------------------------

/// TW5: with at least 3 points the turn player may pay 3 to the holder of one of his
/// figures before placing his tile or before his figure action, once per turn.
#[test]
fn tw5_ransom_once_per_turn_with_three_points() {
    let mut game = tower_game(2);
    place_follower(&mut game, "TOWER-4ROADS", (1, 0), 0, "r2"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    take(&mut game, (1, 0), "r2", FOLLOWER);
    // Seat 0 has no points: no ransom.
    draw(&mut game, "BASE-E");
    assert!(tower_choices(&game).is_empty());
    apply(
        &mut game,
        Action::PlaceTile {
            pos: pos((0, -1)),
            rot: rot(2),
            bridge: None,
        },
    );
    deploy(&mut game, FOLLOWER, (0, -1), "c1"); // the two caps close: 4 points
    assert_eq!(game.scores(), &[4, 0]);
    place(&mut game, "BASE-U", (3, 0), 0); // seat 1
    place_follower(&mut game, "BASE-U", (1, -1), 1, "r1"); // seat 0
    play(&mut game, "BASE-U", (4, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    take(&mut game, (1, -1), "r1", FOLLOWER);
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 2);

    // Seat 0, 4 points: a ransom before placing.
    draw(&mut game, "BASE-U");
    assert_eq!(tower_choices(&game), vec![ransom(1, FOLLOWER)]);
    let before_placing = game.clone();
    let since = game.events().len();
    apply(&mut game, ransom(1, FOLLOWER));
    assert_eq!(game.phase(), Phase::PlaceTile);
    assert_eq!(game.scores(), &[1, 3]);
    assert_eq!(
        events_since(&game, since),
        vec![
            (0, -3, ScoreKind::RansomPaid),
            (1, 3, ScoreKind::RansomReceived)
        ]
    );
    assert_eq!(game.supply(0, FOLLOWER), 6);
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 1);
    assert!(game.ransom_paid_this_turn());
    // Once per turn: not again before placing, nor before the figure action.
    assert!(tower_choices(&game).is_empty());
    apply(
        &mut game,
        Action::PlaceTile {
            pos: pos((5, 0)),
            rot: rot(0),
            bridge: None,
        },
    );
    assert_eq!(game.phase(), Phase::Deploy);
    assert!(!tower_choices(&game)
        .iter()
        .any(|a| matches!(a, Action::PayRansom { .. })));
    apply(&mut game, Action::Pass);
    place(&mut game, "BASE-U", (6, 0), 0); // seat 1
                                           // Seat 0 has 1 point: no ransom although seat 1 still holds a follower of his.
    draw(&mut game, "BASE-U");
    assert!(!tower_choices(&game)
        .iter()
        .any(|a| matches!(a, Action::PayRansom { .. })));

    // Before the figure action instead: the follower is back for the deployment.
    let mut game = before_placing;
    apply(
        &mut game,
        Action::PlaceTile {
            pos: pos((5, 0)),
            rot: rot(0),
            bridge: None,
        },
    );
    assert_eq!(game.phase(), Phase::Deploy);
    assert_legal(&game, ransom(1, FOLLOWER));
    apply(&mut game, ransom(1, FOLLOWER));
    assert_eq!((game.phase(), game.scores()), (Phase::Deploy, &[1, 3][..]));
    assert_not_legal(&game, ransom(1, FOLLOWER));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (5, 0), "r1"));
}

// ----- TW6: the Princess & the Dragon ------------------------------------------------------

/// TW6 (seed 000): on a dragon-tile turn a capture after a piece comes before the
/// dragon's flight (PD4); a piece may be the figure action of a volcano turn (PD1).
#[test]
fn tw6_the_capture_comes_before_the_dragon_flies() {
    let mut game = game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "TOWER-CITYCAP-STRAIGHT", (1, 0), 0, "c1"); // seat 0
    play(&mut game, "PD-VOLCANO-STRAIGHT", (2, 0), 0); // seat 1
    assert_eq!(game.dragon(), Some(pos((2, 0))));
    assert_eq!(tower_choices(&game), vec![piece_action((1, 0))]);
    apply(&mut game, Action::Pass);
    play(&mut game, "PD-DRAGON-STRAIGHT", (3, 0), 0); // seat 0
    piece(&mut game, (1, 0));
    assert_eq!(game.phase(), Phase::Capture);
    apply(&mut game, Action::CapturePass);
    assert_eq!(game.phase(), Phase::DragonFlight);
}

/// TW6 (seed 000): the dragon eats both figures of a tile, the knight in its city and the
/// follower on its tower, which is open again; the princess never removes a follower from
/// a tower (a tower is no part of the city); PD13b: no follower onto a tower on the
/// dragon's tile, while a piece may go there.
#[test]
fn tw6_dragon_and_princess_with_a_tower() {
    let mut game = game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "TOWER-CITYCAP-STRAIGHT", (1, 0), 0, "c1"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    apply(&mut game, Action::CapturePass);
    place(&mut game, "BASE-U", (3, 0), 0); // seat 0
    play(&mut game, "BASE-U", (4, 0), 0); // seat 1
    climb(&mut game, (1, 0));
    assert_eq!(
        figures_at(&game, (1, 0)),
        vec![(0, FOLLOWER, "c1".into()), (1, FOLLOWER, "t1".into())]
    );

    // The princess joined to the tower tile's city offers its knight only.
    let mut princess = game.clone();
    play(&mut princess, "PD-PRINCESS-CITYCAP-3ROADS", (1, -1), 2); // seat 0
    let removals: Vec<Action> = legal(&princess)
        .into_iter()
        .filter(|a| matches!(a, Action::Princess { .. }))
        .collect();
    assert_eq!(
        removals,
        vec![Action::Princess {
            pos: pos((1, 0)),
            feature: local(&princess, (1, 0), "c1")
        }]
    );

    // The dragon: a volcano six tiles east, then a dragon tile beyond it.
    place(&mut game, "BASE-U", (5, 0), 0); // seat 0
    place(&mut game, "BASE-U", (6, 0), 0); // seat 1
    place(&mut game, "PD-VOLCANO-STRAIGHT", (7, 0), 0); // seat 0
    place(&mut game, "PD-DRAGON-STRAIGHT", (8, 0), 0); // seat 1
    for x in (1..=6).rev() {
        assert_eq!(game.phase(), Phase::DragonFlight);
        apply(&mut game, Action::MoveDragon { pos: pos((x, 0)) });
    }
    assert_eq!(game.dragon(), Some(pos((1, 0))));
    assert_eq!(figures_at(&game, (1, 0)), vec![]);
    let eaten: Vec<(u8, ReturnCause)> = game.figure_returns()[game.figure_returns().len() - 2..]
        .iter()
        .map(|r| (r.owner, r.cause))
        .collect();
    assert_eq!(
        sorted_returns(eaten),
        vec![(0, ReturnCause::Dragon), (1, ReturnCause::Dragon)]
    );
    assert_eq!((game.supply(0, FOLLOWER), game.supply(1, FOLLOWER)), (7, 7));
    let t = tower_at(&game, (1, 0));
    assert_eq!((t.height, t.top), (1, None));

    play(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    assert_eq!(tower_choices(&game), vec![piece_action((1, 0))]);
    assert_not_legal(&game, onto_tower(&game, (1, 0)));
}

fn sorted_returns(mut v: Vec<(u8, ReturnCause)>) -> Vec<(u8, ReturnCause)> {
    v.sort_by_key(|(owner, cause)| (*owner, cause.name()));
    v
}

// ----- TW7: the end of the game -----------------------------------------------------------

/// TW7: a follower on a tower and a prisoner score nothing at the end; the follower
/// stays on its tower to the end (seed 000) and comes home with final scoring.
#[test]
fn tw7_towers_and_prisoners_score_nothing_at_the_end() {
    let mut game = tower_game(2);
    place_follower(&mut game, "TOWER-4ROADS", (1, 0), 0, "r2"); // seat 0
    play(&mut game, "BASE-U", (2, 0), 0); // seat 1
    piece(&mut game, (1, 0));
    take(&mut game, (1, 0), "r2", FOLLOWER);
    place(&mut game, "BASE-U", (3, 0), 0); // seat 0
    play(&mut game, "BASE-U", (4, 0), 0); // seat 1
    climb(&mut game, (1, 0));
    finish_game(&mut game, north_of_start);
    assert!(game.is_terminal());
    let tower_local = local(&game, (1, 0), "t1");
    assert!(game
        .figures_before_final_scoring()
        .iter()
        .any(|f| f.owner == 1 && f.local == tower_local));
    assert!(game.board_figures().is_empty());
    let home = game
        .figure_returns()
        .iter()
        .find(|r| r.pos == pos((1, 0)) && r.local == tower_local)
        .expect("the follower on the tower came home");
    assert_eq!((home.owner, home.cause), (1, ReturnCause::FinalScoring));
    for e in game.final_events() {
        if let carcassonne::Event::Score(s) = e {
            assert_ne!(s.at, Some((pos((1, 0)), tower_local)), "{s:?}");
        }
    }
    // Seat 1 still holds seat 0's follower: out of seat 0's supply to the end.
    assert_eq!(game.prisoners(1, 0, FOLLOWER), 1);
    assert_eq!(game.supply(0, FOLLOWER), 6);
}
