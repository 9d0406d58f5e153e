//! Rule-by-rule scenarios of Hills & Sheep (HS1–HS6 of `docs/rules.md`), with the base
//! game, and with The Princess & the Dragon for the interactions of seed 003 (HS6). Every
//! chance event is given by the test (explicit-chance mode): the tiles drawn, the tile put
//! under a hill, the tokens drawn from the bag.
//!
//! The start tile `BASE-D` at (0, 0) has its city cap on the north side, its road from
//! west to east, a strip of field between them (`f1`) and the field south of the road
//! (`f2`). `BASE-E` turned 2 at (0, 1) is a city cap facing south whose field joins `f2`;
//! `BASE-U` turned 0 continues the road west–east with `f1` north and `f2` south of it.

mod common;

use carcassonne::config::HillTiebreak;
use carcassonne::game::tile;
use carcassonne::game::ReturnCause;
use carcassonne::rules::hills_sheep::{FlockChoice, SheepToken, BAG};
use carcassonne::{Action, Figure, Game, Phase, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const SHEPHERD: Figure = Figure::Shepherd;
const HS: [TileSet; 2] = [TileSet::Base, TileSet::HillsSheep];

fn hs_game(players: u8) -> Game {
    start(config(players, &HS))
}

/// A two-player game of the base game, Hills & Sheep and `more`.
fn hs_game_with(more: &[TileSet]) -> Game {
    start_with(2, &HS, more)
}

/// Gives the token drawn from the bag (the game must wait for one).
#[track_caller]
fn token(game: &mut Game, token: SheepToken) {
    assert_eq!(
        game.phase(),
        Phase::DrawToken,
        "the game should wait for a token"
    );
    apply(game, Action::DrawToken { token });
}

/// Gives the tile put under the hill just placed (the game must wait for it).
#[track_caller]
fn under_hill(game: &mut Game, id: &str) {
    assert!(
        game.waits_for_tile_after_placement(),
        "the game should wait for the tile under the hill ({:?})",
        game.phase()
    );
    apply(game, Action::Draw { tile: tile(id) });
}

/// The flock decision on the shepherd standing on `feature` at `xy`.
fn flock(game: &Game, xy: Xy, feature: &str, choice: FlockChoice) -> Action {
    Action::Flock {
        pos: pos(xy),
        feature: local(game, xy, feature),
        choice,
    }
}

/// Deploys `player`'s shepherd on `feature` of the placed tile at `xy` and gives its token.
#[track_caller]
fn shepherd(game: &mut Game, xy: Xy, feature: &str, t: SheepToken) {
    deploy(game, SHEPHERD, xy, feature);
    token(game, t);
}

fn scored(game: &Game, since: usize, kind: ScoreKind) -> Vec<(u8, i32)> {
    events_since(game, since)
        .into_iter()
        .filter(|(_, _, k)| *k == kind)
        .map(|(p, points, _)| (p, points))
        .collect()
}

/// The bag with `out` tokens taken out of it.
fn bag_without(out: &[SheepToken]) -> [u8; 5] {
    let mut bag = BAG;
    for t in out {
        bag[*t as usize] -= 1;
    }
    bag
}

// ----- the shepherd and the bag (HS1) -------------------------------------------------------

/// HS1: the shepherd goes on a field of the placed tile and a token is drawn at once, a
/// chance event with the bag's odds; a sheep stays with him as his flock.
#[test]
fn hs1_shepherd_draws_a_token_at_once() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2); // seat 0
    assert_legal(&game, deploy_action(&game, SHEPHERD, (0, 1), "f1"));
    deploy(&mut game, SHEPHERD, (0, 1), "f1");
    assert_eq!(game.phase(), Phase::DrawToken);
    let outcomes = game.token_outcomes();
    assert_eq!(outcomes.len(), 5);
    for (t, p) in outcomes {
        assert!(
            (p - f64::from(BAG[t as usize]) / 18.0).abs() < 1e-12,
            "{t:?}"
        );
    }
    token(&mut game, SheepToken::Sheep3);
    assert_eq!(game.flock_sheep(0), 3);
    assert_eq!(game.sheep_bag(), bag_without(&[SheepToken::Sheep3]));
    assert_eq!(game.supply(0, SHEPHERD), 0);
    assert_eq!(
        figures_at(&game, (0, 1)),
        vec![(0, SHEPHERD, "f1".to_string())]
    );
    // The turn is over: seat 1 draws.
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
}

/// HS1: no shepherd goes on a field that holds one; the shepherd is no farmer, so a
/// follower may still go on that field, and another field takes the second shepherd.
#[test]
fn hs1_one_shepherd_per_field_farmers_allowed() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2); // seat 0
    shepherd(&mut game, (0, 1), "f1", SheepToken::Sheep1);
    // Seat 1: its south field joins the shepherd's, its north field is the start's strip.
    play(&mut game, "BASE-U", (1, 0), 0);
    assert_not_legal(&game, deploy_action(&game, SHEPHERD, (1, 0), "f2"));
    assert_legal(&game, deploy_action(&game, FOLLOWER, (1, 0), "f2"));
    assert_legal(&game, deploy_action(&game, SHEPHERD, (1, 0), "f1"));
}

/// HS1: a wolf goes back into the bag and the shepherd home.
#[test]
fn hs1_wolf_sends_the_new_shepherd_home() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2);
    shepherd(&mut game, (0, 1), "f1", SheepToken::Wolf);
    assert_eq!(game.supply(0, SHEPHERD), 1);
    assert_eq!(game.sheep_bag(), BAG);
    assert_eq!(game.flock_sheep(0), 0);
    let back = game.figure_returns().last().unwrap();
    assert_eq!((back.figure, back.cause), (SHEPHERD, ReturnCause::Wolf));
}

// ----- flocks (HS2) ---------------------------------------------------------------------------

/// HS2: the turn player whose tile extends his shepherd's field grows the flock or herds
/// it after his figure action; a tile of another player asks nothing; herding scores the
/// sheep and empties the flock into the bag.
#[test]
fn hs2_grow_then_herd() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2); // seat 0
    shepherd(&mut game, (0, 1), "f1", SheepToken::Sheep2);
    // Seat 1 extends the field: nothing is asked of anybody.
    place(&mut game, "BASE-U", (1, 0), 0);
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));
    // Seat 0 extends it west of the start: after his figure action, the flock.
    place(&mut game, "BASE-U", (-1, 0), 0);
    assert_eq!(game.phase(), Phase::Flock);
    let grow = flock(&game, (0, 1), "f1", FlockChoice::Grow);
    let herd = flock(&game, (0, 1), "f1", FlockChoice::Herd);
    assert_eq!(legal(&game), vec![grow, herd]);
    apply(&mut game, grow);
    token(&mut game, SheepToken::Sheep4);
    assert_eq!(game.flock_sheep(0), 6);
    assert_eq!(game.scores(), [0, 0]);
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
    place(&mut game, "BASE-B", (-1, 1), 0); // seat 0 extends the field again
    let since = game.events().len();
    apply(&mut game, herd);
    assert_eq!(scored(&game, since, ScoreKind::Flock), vec![(0, 6)]);
    assert_eq!(game.supply(0, SHEPHERD), 1);
    assert_eq!(game.sheep_bag(), BAG);
}

/// HS2: a wolf drawn to grow a flock ends it for no points.
#[test]
fn hs2_wolf_ends_the_flock() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2);
    shepherd(&mut game, (0, 1), "f1", SheepToken::Sheep4);
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0 extends his field
    let grow = flock(&game, (0, 1), "f1", FlockChoice::Grow);
    apply(&mut game, grow);
    token(&mut game, SheepToken::Wolf);
    assert_eq!(game.scores(), [0, 0]);
    assert_eq!(game.supply(0, SHEPHERD), 1);
    assert_eq!(game.sheep_bag(), BAG);
}

/// HS2: two shepherds in one field (two fields joined): herding scores the sheep of both
/// flocks for each owner, and both shepherds go home.
#[test]
fn hs2_joined_fields_score_every_flock_for_every_owner() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2); // seat 0: the field south of the road
    shepherd(&mut game, (0, 1), "f1", SheepToken::Sheep1);
    play(&mut game, "BASE-U", (1, 0), 0); // seat 1: the strip north of the road
    shepherd(&mut game, (1, 0), "f1", SheepToken::Sheep4);
    // Seat 0: a road into a monastery joins both fields around its end.
    place(&mut game, "BASE-A", (-1, 0), 3);
    assert_eq!(game.phase(), Phase::Flock);
    let since = game.events().len();
    let herd = flock(&game, (0, 1), "f1", FlockChoice::Herd);
    apply(&mut game, herd);
    assert_eq!(
        sorted(events_since(&game, since)),
        vec![(0, 5, ScoreKind::Flock), (1, 5, ScoreKind::Flock)]
    );
    assert_eq!((game.supply(0, SHEPHERD), game.supply(1, SHEPHERD)), (1, 1));
    assert_eq!(game.sheep_bag(), BAG);
}

/// HS2: a field with a shepherd that has no open side left scores at once, here in the
/// turn the shepherd is put on it.
#[test]
fn hs2_closed_field_scores_at_once() {
    let mut game = hs_game(2);
    // Seat 0: two cities on the start's cap side, the field facing north.
    place(&mut game, "HS-CORNER-AND-CAP-VINEYARD", (0, -1), 2);
    // Seat 1: the same tile facing it closes the field between them.
    play(&mut game, "HS-CORNER-AND-CAP-VINEYARD", (0, -2), 0);
    let since = game.events().len();
    shepherd(&mut game, (0, -2), "f1", SheepToken::Sheep2);
    assert_eq!(scored(&game, since, ScoreKind::Flock), vec![(1, 2)]);
    assert_eq!(game.supply(1, SHEPHERD), 1);
    assert_eq!(game.sheep_bag(), BAG);
}

/// HS2: flocks still on the board at the end score nothing; the shepherd is no farmer.
#[test]
fn hs2_flocks_score_nothing_at_the_end() {
    let mut game = hs_game(2);
    play(&mut game, "BASE-E", (0, 1), 2);
    shepherd(&mut game, (0, 1), "f1", SheepToken::Sheep4);
    let since = game.events().len();
    // Every other tile north of the start: the shepherd's field is never extended.
    finish_game(&mut game, north_of_start);
    assert!(scored(&game, since, ScoreKind::Flock).is_empty());
    assert!(scored(&game, since, ScoreKind::Farmers)
        .iter()
        .all(|(p, _)| *p == 1));
    assert_eq!(game.supply(0, SHEPHERD), 1);
    // The four sheep went back into the bag; the flock as it stood before final scoring
    // is kept for the pictures, and the bag then lacked that token.
    assert_eq!(game.flock_sheep(0), 0);
    assert_eq!(game.sheep_bag(), bag_without(&[]));
    assert_eq!(game.flock_before_final_scoring(0), [0, 0, 0, 1, 0]);
    assert_eq!(game.flock_before_final_scoring(1), [0; 5]);
    assert_eq!(
        game.sheep_bag_before_final_scoring(),
        bag_without(&[SheepToken::Sheep4])
    );
}

/// A side split between two cities (`HS-CORNER-AND-CAP-VINEYARD`): a city placed against
/// it joins both, and each closes on that side; the city completes and scores.
#[test]
fn two_cities_on_one_side_both_close() {
    let mut game = hs_game(2);
    // Seat 0: both cities against the start's cap; knight on the one going east.
    place_follower(&mut game, "HS-CORNER-AND-CAP-VINEYARD", (0, -1), 2, "c1");
    place(&mut game, "BASE-E", (1, -1), 3); // seat 1: a cap facing west
    let since = game.events().len();
    place(&mut game, "BASE-E", (-1, -1), 1); // seat 0: a cap facing east
                                             // Start, the tile with two cities and the two caps: 4 tiles.
    assert_eq!(scored(&game, since, ScoreKind::City), vec![(0, 8)]);
}

// ----- hills (HS3) ----------------------------------------------------------------------------

/// HS3: a hill placed while tiles are left takes a tile of the pile under it, a chance
/// event: it is out of the game, and the record names it after the placement.
#[test]
fn hs3_a_tile_goes_under_the_hill() {
    let mut game = hs_game(2);
    play(&mut game, "HS-CORNER-HILL", (0, -1), 2);
    assert_eq!(game.phase(), Phase::Draw);
    let left = game.tiles_left();
    let before = game.remaining_tiles()[tile("BASE-B").index()];
    under_hill(&mut game, "BASE-B");
    assert_eq!(game.tiles_left(), left - 1);
    assert_eq!(game.remaining_tiles()[tile("BASE-B").index()], before - 1);
    let placement = game.history_actions().len() - 1;
    assert!(matches!(
        game.history_actions()[placement].action,
        Action::PlaceTile { .. }
    ));
    assert_eq!(game.under_hill_after(placement), Some(tile("BASE-B")));
    assert_eq!(game.phase(), Phase::Deploy);
}

/// HS3: in sampled play the engine takes the tile under the hill itself.
#[test]
fn hs3_sampled_tile_under_the_hill() {
    let mut game = hs_game(2);
    draw(&mut game, "HS-CORNER-HILL");
    game.set_chance_mode(carcassonne::ChanceMode::Sampled);
    let left = game.tiles_left();
    apply(
        &mut game,
        Action::PlaceTile {
            pos: pos((0, -1)),
            rot: rot(2),
            bridge: None,
        },
    );
    assert_eq!(game.tiles_left(), left - 1);
    let placement = game.history_actions().len() - 1;
    assert!(game.under_hill_after(placement).is_some());
}

/// HS3: a hill placed with the pile empty covers nothing.
#[test]
fn hs3_no_tile_under_the_last_hill() {
    let mut game = hs_game(2);
    let hill = tile("HS-CORNER-HILL");
    play_out_until(&mut game, |_| true, &[hill], 1);
    assert_eq!(game.tiles_left(), 1);
    assert_eq!(game.chance_outcomes(), vec![(hill, 1.0)]);
    apply(&mut game, Action::Draw { tile: hill });
    let first = legal(&game)[0];
    apply(&mut game, first);
    assert!(!game.waits_for_tile_after_placement());
    let placement = game
        .history_actions()
        .iter()
        .rposition(|d| matches!(d.action, Action::PlaceTile { .. }))
        .unwrap();
    assert_eq!(game.under_hill_after(placement), None);
}

// ----- the tie-break (HS4) ----------------------------------------------------------------------

/// The city of the HS4 scenarios: seat 0's knight on a pennant band north of the start,
/// seat 1's knight on `corner` (a corner city N+W: a hill tile or not) east of it, two
/// corners join them and a cap closes it: 6 tiles and a pennant, 14 points. Returns the
/// city's score events.
fn tied_city(corner: &str, hill_tiebreak: HillTiebreak) -> Vec<(u8, i32)> {
    let mut c = config(2, &HS);
    c.rules.hill_tiebreak = hill_tiebreak;
    let mut game = start(c);
    place_follower(&mut game, "BASE-F", (0, -1), 1, "c1"); // seat 0
    play(&mut game, corner, (1, -1), 1); // seat 1
    if game.phase() == Phase::Draw {
        under_hill(&mut game, "BASE-B");
    }
    deploy(&mut game, FOLLOWER, (1, -1), "c1");
    place(&mut game, "BASE-N", (0, -2), 2); // seat 0
    place(&mut game, "BASE-N", (1, -2), 3); // seat 1
    let since = game.events().len();
    place(&mut game, "BASE-E", (2, -1), 3); // seat 0 closes the city
    scored(&game, since, ScoreKind::City)
}

/// HS4: of the players tied for a feature, only those with a follower on a hill tile in it
/// score it; with either value of the switch one such follower against none wins.
#[test]
fn hs4_follower_on_a_hill_breaks_the_tie() {
    for rule in HillTiebreak::ALL {
        assert_eq!(tied_city("HS-CORNER-HILL", rule), vec![(1, 14)], "{rule:?}");
    }
}

/// HS4: when no tied player has a follower on a hill, all of them score (B13).
#[test]
fn hs4_no_hill_all_tied_players_score() {
    assert_eq!(
        tied_city("HS-CORNER-VINEYARD", HillTiebreak::default()),
        vec![(0, 14), (1, 14)]
    );
}

// ----- vineyards (HS5) -------------------------------------------------------------------------

/// HS5: a completed monastery scores 3 more per vineyard tile around it; an incomplete one
/// gets nothing for its vineyards at the end.
#[test]
fn hs5_vineyards_around_a_completed_monastery() {
    let mut game = hs_game(2);
    place_follower(&mut game, "BASE-B", (0, 1), 0, "m1"); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-B", (1, 1), 0, "m1"); // seat 1
    place(&mut game, "BASE-B", (-1, 1), 0); // seat 0
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 1
    place(&mut game, "HS-CITYCAP-VINEYARD", (0, 2), 2); // seat 0
    let since = game.events().len();
    place(&mut game, "HS-CITYCAP-VINEYARD", (1, 2), 2); // seat 1 surrounds (0, 1)
                                                        // 9 for the monastery, 3 for each of the two vineyards below it.
    assert_eq!(scored(&game, since, ScoreKind::Monastery), vec![(0, 15)]);
    let since = game.events().len();
    finish_game(&mut game, north_of_start);
    // Seat 1's monastery at (1, 1): 5 neighbours, two of them vineyards, no bonus.
    let at = game.events()[since..]
        .iter()
        .find(|e| e.kind == ScoreKind::Incomplete && e.at.is_some_and(|(p, _)| p == pos((1, 1))))
        .expect("the incomplete monastery scores");
    assert_eq!((at.player, at.points), (1, 6));
}

/// Seven of the eight neighbours of (0, 1), none of them a monastery: roads beside the
/// start tile, city caps (turned away from (0, 1), or towards it for a city band there,
/// `band`), a vineyard below; a second vineyard at (1, 2) completes (0, 1) later.
fn vineyards_around_0_1(game: &mut Game, band: bool) {
    place(game, "BASE-U", (1, 0), 0);
    place(game, "BASE-U", (-1, 0), 0);
    if !band {
        place(game, "BASE-E", (1, 1), 1); // city east
        place(game, "BASE-E", (-1, 1), 3); // city west
    } else {
        // Against the city band of a monastery in a city at (0, 1): cities facing it.
        place(game, "BASE-E", (1, 1), 3);
        place(game, "BASE-E", (-1, 1), 1);
    }
    place(game, "BASE-E", (-1, 2), 3);
    place(game, "HS-CITYCAP-VINEYARD", (0, 2), 2);
}

/// HS5, CU1: a completed shrine is a monastery here too: 9 and 3 for each vineyard.
#[test]
fn hs5_vineyards_around_a_completed_shrine() {
    let mut game = hs_game_with(&[TileSet::Cult]);
    place_follower(&mut game, "CULT-SHRINE", (0, 1), 0, "m1"); // seat 0
    vineyards_around_0_1(&mut game, false);
    let since = game.events().len();
    place(&mut game, "HS-CITYCAP-VINEYARD", (1, 2), 2); // seat 1 surrounds (0, 1)
    assert_eq!(scored(&game, since, ScoreKind::Shrine), vec![(0, 15)]);
}

/// HS5, AM2: the abbey is a monastery here too: its monk scores 9 and 3 per vineyard
/// once the abbey is surrounded.
#[test]
fn hs5_vineyards_around_a_completed_abbey() {
    let mut game = hs_game_with(&[TileSet::AbbeyMayor]);
    vineyards_around_0_1(&mut game, false);
    // Seat 0: (0, 1) has four neighbours; the abbey instead of a draw, with a monk.
    assert_eq!(game.turn_player(), 0);
    assert_eq!(game.phase(), Phase::Abbey);
    apply(&mut game, Action::PlaceAbbey { pos: pos((0, 1)) });
    deploy(&mut game, Figure::Follower, (0, 1), "m1");
    finish_turn(&mut game);
    let since = game.events().len();
    place(&mut game, "HS-CITYCAP-VINEYARD", (1, 2), 2); // seat 1 surrounds (0, 1)
    assert_eq!(scored(&game, since, ScoreKind::Monastery), vec![(0, 15)]);
}

/// HS5: the monastery inside a city band (Bridges, Castles & Bazaars) is a monastery like
/// any: 9 and 3 per vineyard.
#[test]
fn hs5_vineyards_around_a_completed_monastery_in_a_city() {
    let mut game = hs_game_with(&[TileSet::BridgesCastlesBazaars]);
    place_follower(&mut game, "BCB-MONASTERY-IN-CITYBAND", (0, 1), 0, "m1"); // seat 0
    vineyards_around_0_1(&mut game, true);
    let since = game.events().len();
    place(&mut game, "HS-CITYCAP-VINEYARD", (1, 2), 2); // seat 1 surrounds (0, 1)
    assert_eq!(scored(&game, since, ScoreKind::Monastery), vec![(0, 15)]);
}

// ----- with the Princess & the Dragon (HS6) -----------------------------------------------------

/// HS6 (seed 003), HS2: the flock decision comes before the dragon's flight; the dragon
/// eats the shepherd and his sheep go back into the bag.
#[test]
fn hs6_dragon_eats_the_shepherd_after_the_flock_step() {
    let mut game = hs_game_with(&[TileSet::PrincessDragon]);
    play(&mut game, "BASE-U", (1, 0), 0); // seat 0: his shepherd south of the road
    shepherd(&mut game, (1, 0), "f2", SheepToken::Sheep3);
    place(&mut game, "PD-VOLCANO-CURVE", (-1, 0), 2); // seat 1: the dragon lands
                                                      // Seat 0: a dragon tile extending his field: the flock first, then the flight.
    place(&mut game, "PD-DRAGON-STRAIGHT", (2, 0), 0);
    assert_eq!(game.phase(), Phase::Flock);
    let grow = flock(&game, (1, 0), "f2", FlockChoice::Grow);
    apply(&mut game, grow);
    token(&mut game, SheepToken::Sheep1);
    assert_eq!(game.flock_sheep(0), 4);
    assert_eq!(game.phase(), Phase::DragonFlight);
    apply(&mut game, Action::MoveDragon { pos: pos((0, 0)) });
    apply(&mut game, Action::MoveDragon { pos: pos((1, 0)) });
    assert_eq!(game.supply(0, SHEPHERD), 1);
    assert_eq!(game.sheep_bag(), BAG);
    assert_eq!(game.flock_sheep(0), 0);
    assert!(game
        .figure_returns()
        .iter()
        .any(|r| r.figure == SHEPHERD && r.cause == ReturnCause::Dragon));
}

/// HS6 (seed 003): after a princess removal no shepherd is placed: both are the figure
/// action.
#[test]
fn hs6_no_shepherd_after_the_princess() {
    let mut game = hs_game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "BASE-F", (0, -1), 1, "c1"); // seat 0: a knight
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place(&mut game, "BASE-F", (0, -2), 1); // seat 0
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -3), 2); // seat 1: the princess
    let princess = Action::Princess {
        pos: pos((0, -1)),
        feature: local(&game, (0, -1), "c1"),
    };
    let shepherd_there = deploy_action(&game, SHEPHERD, (0, -3), "f1");
    assert_legal(&game, princess);
    assert_legal(&game, shepherd_there);
    apply(&mut game, princess);
    assert_ne!(game.phase(), Phase::Deploy);
    assert_ne!(game.phase(), Phase::DrawToken);
    assert_eq!(game.supply(1, SHEPHERD), 1);
}

/// HS6 (seed 003): after a fairy move no shepherd is placed; the fairy never goes next to
/// a shepherd.
#[test]
fn hs6_fairy_and_shepherd() {
    let mut game = hs_game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0: a thief
    play(&mut game, "BASE-U", (-1, 0), 0); // seat 1: his shepherd
    shepherd(&mut game, (-1, 0), "f2", SheepToken::Sheep2);
    play(&mut game, "BASE-U", (2, 0), 0); // seat 0: the strip north of the road is free
    let fairy = |game: &Game, xy: Xy, feature: &str| Action::MoveFairy {
        pos: pos(xy),
        feature: Some(local(game, xy, feature)),
    };
    assert_legal(&game, fairy(&game, (1, 0), "r1"));
    assert_not_legal(&game, fairy(&game, (-1, 0), "f2"));
    assert_legal(&game, deploy_action(&game, SHEPHERD, (2, 0), "f1"));
    let to_thief = fairy(&game, (1, 0), "r1");
    apply(&mut game, to_thief);
    assert_ne!(game.phase(), Phase::Deploy);
    assert_eq!(game.supply(0, SHEPHERD), 1);
}

/// The road of the `number-of-followers` scenario, with Inns & Cathedrals: seat 0's big
/// follower on the hill tile (0, 1), seat 1's followers on the hill tiles (-1, 0) and
/// (1, 1), so both have strength 2 (B13, IC1); seven tiles once closed at (-1, 1). Returns
/// the road's score events.
fn tied_road(hill_tiebreak: HillTiebreak) -> Vec<(u8, i32)> {
    let mut c = config(
        2,
        &[TileSet::Base, TileSet::HillsSheep, TileSet::InnsCathedrals],
    );
    c.rules.hill_tiebreak = hill_tiebreak;
    let mut game = start(c);
    let hill = |game: &mut Game, id: &str, xy: Xy, r: u8, figure: Figure| {
        play(game, id, xy, r);
        under_hill(game, "BASE-B");
        deploy(game, figure, xy, "r1");
    };
    hill(
        &mut game,
        "HS-CITYCAP-ROAD-HILL",
        (0, 1),
        1,
        Figure::BigFollower,
    ); // seat 0
    hill(&mut game, "HS-CITYCAP-CURVE-SW-HILL", (-1, 0), 3, FOLLOWER); // seat 1
    place(&mut game, "BASE-E", (0, -1), 2); // seat 0
    hill(&mut game, "HS-CITYCAP-CURVE-ES-HILL", (1, 1), 3, FOLLOWER); // seat 1
    place(&mut game, "BASE-V", (1, 0), 0); // seat 0 joins seat 1's two roads
    place(&mut game, "BASE-A", (2, 1), 1); // seat 1 ends the road at a monastery
    let since = game.events().len();
    place(&mut game, "BASE-V", (-1, 1), 2); // seat 0 closes the road
    scored(&game, since, ScoreKind::Road)
}

/// HS4 with `number-of-followers`: figures on hill tiles count one each, so seat 1's two
/// followers on hills beat seat 0's big follower on one (a big follower is one figure,
/// not two, however strong). With `at-least-one-follower` both have one and both score.
#[test]
fn hs4_number_of_followers_counts_figures_one_each() {
    assert_eq!(tied_road(HillTiebreak::NumberOfFollowers), vec![(1, 7)]);
    assert_eq!(
        tied_road(HillTiebreak::AtLeastOneFollower),
        vec![(0, 7), (1, 7)]
    );
}
