//! Rule-by-rule scenarios of Bridges, Castles & Bazaars (BR1–BR3, CA1–CA4, BZ1–BZ4 of
//! `docs/rules.md`), with the base game, and with The Princess & the Dragon, King & Robber
//! Baron and the Count where a rule names them.
//!
//! The start tile `BASE-D` at (0, 0) has its city cap on the north side, its road from
//! west to east and field on the south side.

mod common;

use carcassonne::game::tile;
use carcassonne::rules::bcb::{Axis, BazaarChoice, Bridge};
use carcassonne::rules::count::{Quarter, QuarterStep};
use carcassonne::tiles::{Symbols, TileKind};
use carcassonne::{Action, Figure, Game, Phase, Pos, ScoreKind, TileSet};
use common::*;
use std::collections::BTreeSet;

const FOLLOWER: Figure = Figure::Follower;
const BCB: [TileSet; 2] = [TileSet::Base, TileSet::BridgesCastlesBazaars];

fn bcb_game(players: u8) -> Game {
    start(config(players, &BCB))
}

fn index(game: &Game, xy: Xy) -> usize {
    game.board().index_at(pos(xy)).expect("a tile there")
}

fn bridge_on(game: &Game, xy: Xy) -> Option<Axis> {
    game.bridge_at(index(game, xy))
}

/// The local feature index of the bridge of the tile at `xy` (BR3).
fn bridge_local(game: &Game, xy: Xy) -> u8 {
    game.feature_named(index(game, xy), "bridge")
        .expect("a bridge on the tile")
}

fn bridge_action(xy: Xy, axis: Axis) -> Action {
    Action::PlaceBridge { pos: pos(xy), axis }
}

fn bridge_actions(game: &Game) -> Vec<Action> {
    legal(game)
        .into_iter()
        .filter(|a| matches!(a, Action::PlaceBridge { .. }))
        .collect()
}

fn placement(xy: Xy, r: u8, bridge: Option<(Xy, Axis)>) -> Action {
    Action::PlaceTile {
        pos: pos(xy),
        rot: rot(r),
        bridge: bridge.map(|(b, axis)| {
            let bridge = Bridge { pos: pos(b), axis };
            bridge
                .relative_to(pos(xy))
                .expect("a bridge next to the tile")
        }),
    }
}

fn castle(game: &Game, xy: Xy, feature: &str) -> Action {
    Action::BuildCastle {
        pos: pos(xy),
        feature: local(game, xy, feature),
    }
}

/// Turns the city at `(xy, feature)` into a castle; it must be legal.
#[track_caller]
fn build_castle(game: &mut Game, xy: Xy, feature: &str) {
    let action = castle(game, xy, feature);
    apply(game, action);
}

/// The castles: owner, naming part, whether it scored.
fn castles(game: &Game) -> Vec<(u8, (i32, i32, u8), bool)> {
    game.castles()
        .map(|(owner, (p, local), scored)| (owner, (p.x, p.y, local), scored))
        .collect()
}

// ----- bridges (BR1–BR3) -----------------------------------------------------------------------

/// BR1: each player has 3 bridges with 2 to 4 players, 2 with 5 or 6 (and as many
/// castles, CA1).
#[test]
fn br1_ca1_bridges_and_castles_per_player() {
    for (players, each) in [(2, 3), (4, 3), (5, 2), (6, 2)] {
        let game = bcb_game(players);
        for p in 0..players as usize {
            assert_eq!(game.bridges_left(p), each, "{players} players");
            assert_eq!(game.castles_left(p), each, "{players} players");
        }
    }
}

/// BR1: after placing his tile a player may put one bridge on that tile or on an
/// orthogonal neighbour, across two opposite field sides whose ends face empty squares;
/// one per turn, from his supply.
///
/// * A monastery at (0, 1): its north side faces the start tile, so only west–east; the
///   start tile itself has a city and roads on its sides.
/// * A cap at (0, −1): only west–east on it.
/// * A monastery at (1, −1) whose west side faces the cap's field: only north–south on
///   it, and none on the cap, whose east end now faces a field.
/// * With his last bridge used, seat 0 is offered none.
#[test]
fn br1_one_bridge_on_field_sides_facing_empty_squares() {
    let mut game = bcb_game(2);
    play(&mut game, "BASE-B", (0, 1), 0); // seat 0
    assert_eq!(bridge_actions(&game), vec![bridge_action((0, 1), Axis::WE)]);
    apply(&mut game, bridge_action((0, 1), Axis::WE));
    assert_eq!(game.bridges_left(0), 2);
    assert_eq!(bridge_on(&game, (0, 1)), Some(Axis::WE));
    // One per turn; the deployment goes on, on the bridge of the placed tile too (BR3).
    assert_eq!(game.phase(), Phase::Deploy);
    assert_eq!(bridge_actions(&game), vec![]);
    let on_bridge = Action::Deploy {
        figure: FOLLOWER,
        pos: pos((0, 1)),
        feature: bridge_local(&game, (0, 1)),
    };
    assert_legal(&game, on_bridge);
    apply(&mut game, Action::Pass);

    play(&mut game, "BASE-E", (0, -1), 2); // seat 1: closes the start city
    assert_eq!(
        bridge_actions(&game),
        vec![bridge_action((0, -1), Axis::WE)]
    );
    finish_turn(&mut game);

    play(&mut game, "BASE-B", (1, -1), 0); // seat 0
    assert_eq!(
        bridge_actions(&game),
        vec![bridge_action((1, -1), Axis::NS)]
    );
    apply(&mut game, bridge_action((1, -1), Axis::NS));
    finish_turn(&mut game);
    assert_eq!(game.bridges_left(0), 1);

    place(&mut game, "BASE-B", (-1, -1), 0); // seat 1
                                             // Seat 0: on the placed tile and on its east neighbour, north–south.
    play(&mut game, "BASE-B", (-2, -1), 0);
    assert_eq!(
        bridge_actions(&game),
        vec![
            bridge_action((-2, -1), Axis::NS),
            bridge_action((-1, -1), Axis::NS)
        ]
    );
    apply(&mut game, bridge_action((-1, -1), Axis::NS));
    finish_turn(&mut game);
    assert_eq!(game.bridges_left(0), 0);
    place(&mut game, "BASE-V", (-1, 0), 2); // seat 1: north–east, under the bridge
    play(&mut game, "BASE-E", (-3, -1), 3); // seat 0: north–south would be free
    assert_eq!(bridge_actions(&game), vec![]);
    assert_eq!(game.bridges_left(1), 3);
}

/// A placement as `(x, y, rot, bridge)`, the bridge as `(x, y, axis)`.
type Placement = (i32, i32, u8, Option<(i32, i32, Axis)>);

/// The placements in the legal list.
fn placements(game: &Game) -> BTreeSet<Placement> {
    legal(game)
        .iter()
        .filter_map(|a| match a {
            Action::PlaceTile { pos, rot, bridge } => Some((
                pos.x,
                pos.y,
                rot.quarter_turns(),
                bridge.map(|b| {
                    let b = b.at(*pos);
                    (b.pos.x, b.pos.y, b.axis)
                }),
            )),
            _ => None,
        })
        .collect()
}

/// BR2, BR3: a monastery (field all round) fits east and west of the start tile only with
/// a bridge of its own from west to east, which meets the start road; south of it, it fits
/// without one. The bridge, taken from the supply with the tile, joins the start road; a
/// follower may stand on it; no other bridge that turn. A road of 4 tiles through the
/// bridge then scores 4: the bridged tile counts once.
#[test]
fn br2_br3_tile_that_fits_only_with_its_own_bridge() {
    let mut game = bcb_game(2);
    draw(&mut game, "BASE-B");
    let mut expected = BTreeSet::new();
    for r in 0..4 {
        expected.insert((1, 0, r, Some((1, 0, Axis::WE))));
        expected.insert((-1, 0, r, Some((-1, 0, Axis::WE))));
        expected.insert((0, 1, r, None));
    }
    assert_eq!(placements(&game), expected);
    assert!(
        !legal(&game).contains(&Action::Pass),
        "it fits without a bridge"
    );
    apply(&mut game, placement((1, 0), 0, Some(((1, 0), Axis::WE))));
    assert_eq!(game.bridges_left(0), 2);
    assert_eq!(bridge_on(&game, (1, 0)), Some(Axis::WE));
    assert_eq!(bridge_actions(&game), vec![], "one bridge per turn");
    let on_bridge = Action::Deploy {
        figure: FOLLOWER,
        pos: pos((1, 0)),
        feature: bridge_local(&game, (1, 0)),
    };
    apply(&mut game, on_bridge);

    place(&mut game, "BASE-W", (2, 0), 0); // seat 1: a junction east of the bridge
    assert_eq!(game.scores(), &[0, 0]);
    let since = game.events().len();
    place(&mut game, "BASE-W", (-1, 0), 0); // seat 0: the west end
                                            // (−1, 0), (0, 0), (1, 0) and (2, 0): 4.
    assert_eq!(points_since(&game, since), vec![(0, 4, ScoreKind::Road)]);
}

/// BR2, BR3: a straight road (west–east) fits east of a monastery at (0, 1) only with a
/// bridge on the monastery, whose field side its road meets; the bridge's other end faces
/// an empty square. No follower may go on the neighbour's bridge (it is not the placed
/// tile), and the new tile's two fields are one with the monastery's field under the
/// bridge, where seat 0 has a farmer: neither is free. The road (junction, bridge,
/// straight, junction) scores 4 for seat 1's thief.
#[test]
fn br2_br3_tile_that_fits_with_a_bridge_on_its_neighbour() {
    let mut game = bcb_game(2);
    place_follower(&mut game, "BASE-B", (0, 1), 0, "f1"); // seat 0
    draw(&mut game, "BASE-U"); // seat 1
    let p = placements(&game);
    for r in [0, 2] {
        assert!(p.contains(&(1, 1, r, Some((0, 1, Axis::WE)))));
        assert!(!p.contains(&(1, 1, r, None)));
        assert!(p.contains(&(-1, 1, r, Some((0, 1, Axis::WE)))));
    }
    for r in [1, 3] {
        assert!(p.contains(&(1, 1, r, None)), "north–south fits as it is");
    }
    apply(&mut game, placement((1, 1), 0, Some(((0, 1), Axis::WE))));
    assert_eq!(bridge_on(&game, (0, 1)), Some(Axis::WE));
    assert_eq!(game.bridges_left(1), 2);
    assert_eq!(bridge_actions(&game), vec![]);
    let on_neighbour_bridge = Action::Deploy {
        figure: FOLLOWER,
        pos: pos((0, 1)),
        feature: bridge_local(&game, (0, 1)),
    };
    assert_not_legal(&game, on_neighbour_bridge);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 1), "f1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 1), "f2"));
    deploy(&mut game, FOLLOWER, (1, 1), "r1");

    place(&mut game, "BASE-W", (2, 1), 0); // seat 0
    let since = game.events().len();
    place(&mut game, "BASE-W", (-1, 1), 0); // seat 1
    assert_eq!(points_since(&game, since), vec![(1, 4, ScoreKind::Road)]);
}

/// BR2: a placement names its bridge by square and axis in records and front ends (the
/// action schema's `bridge` field); every bridged placement offered survives the round
/// trip, and a bridge that is neither on the tile nor on the neighbour across the side it
/// runs through is refused with the field named.
#[test]
fn br2_bridged_placements_through_the_action_schema() {
    let mut game = bcb_game(2);
    place_follower(&mut game, "BASE-B", (0, 1), 0, "f1"); // seat 0
    draw(&mut game, "BASE-U"); // seat 1
    let bridged: Vec<Action> = legal(&game)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::PlaceTile {
                    bridge: Some(_),
                    ..
                }
            )
        })
        .collect();
    assert!(!bridged.is_empty());
    for a in &bridged {
        assert_eq!(
            Action::from_values(a.kind(), a.values().as_slice()).as_ref(),
            Ok(a)
        );
    }
    let values = |bridge: Bridge| {
        let mut v = placement((1, 1), 0, None).values().as_slice().to_vec();
        v[3] = carcassonne::action::FieldValue::Bridge(Some(bridge));
        v
    };
    let kind = placement((1, 1), 0, None).kind();
    let neighbour = Bridge {
        pos: pos((0, 1)),
        axis: Axis::WE,
    };
    assert_eq!(
        Action::from_values(kind, &values(neighbour)),
        Ok(placement((1, 1), 0, Some(((0, 1), Axis::WE))))
    );
    for wrong in [
        Bridge {
            pos: pos((0, 1)),
            axis: Axis::NS,
        },
        Bridge {
            pos: pos((-1, 1)),
            axis: Axis::WE,
        },
        Bridge {
            pos: pos((0, 0)),
            axis: Axis::WE,
        },
    ] {
        let err = Action::from_values(kind, &values(wrong)).expect_err("not this tile's bridge");
        assert_eq!(err.field, "bridge");
    }
    // Squares at the ends of the coordinate range are compared without overflow.
    let far = Bridge {
        pos: Pos::new(0, i32::MAX),
        axis: Axis::NS,
    };
    assert_eq!(far.relative_to(Pos::new(0, i32::MIN)), None);
    assert_eq!(
        far.relative_to(Pos::new(0, i32::MAX - 1)),
        Some(carcassonne::rules::bcb::TileBridge::Neighbour(
            carcassonne::Side::S
        ))
    );
}

/// BR1, BR2: a tile carries one bridge at most, and a bridge end may not face a field.
/// A monastery east of the start tile gets a bridge from west to east; its north and
/// south sides stay field and face empty squares, yet a road meeting its south side is
/// not offered (it would need a second bridge there), and no bridge goes on it after a
/// neighbour is placed. A monastery that would need a bridge whose far end faces a tile's
/// field does not fit at all.
#[test]
fn br1_br2_one_bridge_per_tile_and_no_end_on_a_field() {
    let mut game = bcb_game(2);
    play_bridged(&mut game, "BASE-B", (1, 0), 0, Some(((1, 0), Axis::WE))); // seat 0
    finish_turn(&mut game);
    draw(&mut game, "BASE-U"); // seat 1
    let p = placements(&game);
    assert!(!p.iter().any(|&(x, y, r, _)| (x, y) == (1, 1) && r % 2 == 1));
    assert!(p.contains(&(1, 1, 0, None)));
    apply(&mut game, placement((1, 1), 0, None));
    assert!(!bridge_actions(&game).iter().any(|a| matches!(a,
        Action::PlaceBridge { pos, .. } if *pos == Pos::new(1, 0))));
    finish_turn(&mut game);

    place(&mut game, "BASE-B", (1, -1), 0); // seat 0: north of the bridged tile
    place(&mut game, "BASE-E", (2, -1), 0); // seat 1: field on its south side
    place(&mut game, "BASE-E", (3, -1), 0); // seat 0
    place(&mut game, "BASE-E", (3, 0), 2); // seat 1: field on its west side
                                           // A monastery at (2, 0) meets the bridge's road on its west side; a bridge of its own
                                           // from west to east would end on the east at the cap's field: it does not fit.
    draw(&mut game, "BASE-B"); // seat 0
    assert!(!placements(&game)
        .iter()
        .any(|&(x, y, _, _)| (x, y) == (2, 0)));
}

/// BR2: a drawn tile that fits only with a bridge may be discarded instead (B5, as in
/// JCloisterZone): `pass` is offered then, and the same player draws again. A junction
/// south of the start tile leaves roads and cities on every open side, so a monastery fits
/// only with a bridge.
#[test]
fn br2_tile_fitting_only_with_a_bridge_may_be_discarded() {
    let mut game = bcb_game(2);
    place(&mut game, "BASE-W", (0, 1), 0); // seat 0
    let tiles = game.tiles_left();
    draw(&mut game, "BASE-B"); // seat 1
    assert!(legal(&game).iter().all(|a| matches!(
        a,
        Action::PlaceTile {
            bridge: Some(_),
            ..
        } | Action::Pass
    )));
    assert!(legal(&game).len() > 1);
    assert_legal(&game, Action::Pass);
    apply(&mut game, Action::Pass);
    let turns = game.turns();
    let discarded = &turns[turns.len() - 2];
    assert!(discarded.discarded);
    assert_eq!(discarded.draw, Some(tile("BASE-B")));
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
    assert_eq!(game.tiles_left(), tiles - 1);
    assert_eq!(game.bridges_left(1), 3);
    assert_eq!(game.board().len(), 2);
}

// ----- castles (CA1–CA4) -----------------------------------------------------------------------

/// CA1: a completed city of two caps holding exactly one figure may become a castle
/// instead of scoring, at the choice of the figure's owner, whoever placed the tile; a
/// city of 2 caps without a figure, or of 3 tiles, may not.
#[test]
fn ca1_castle_for_a_two_cap_city_with_one_figure() {
    let mut game = bcb_game(2);
    // Seat 0 closes the start city with his knight.
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1");
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 0));
    let build = castle(&game, (0, -1), "c1");
    assert_eq!(legal(&game), vec![build, Action::CastlePass]);
    apply(&mut game, build);
    assert_eq!(game.scores(), &[0, 0], "a castle is not scored");
    assert_eq!(game.castles_left(0), 2);
    assert_eq!(castles(&game), vec![(0, (0, -1, 0), false)]);
    assert_eq!(figures_at(&game, (0, -1)), vec![(0, FOLLOWER, "c1".into())]);

    // Seat 1's knight in a cap; seat 0 closes it: seat 1 decides, and declines.
    place_follower(&mut game, "BASE-E", (0, 1), 2, "c1"); // seat 1
    play(&mut game, "BASE-E", (0, 2), 0); // seat 0
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 1));
    assert_eq!(
        legal(&game),
        vec![castle(&game, (0, 2), "c1"), Action::CastlePass]
    );
    apply(&mut game, Action::CastlePass);
    assert_eq!(game.scores(), &[0, 4]);

    // A city of two caps without a figure: nobody is asked.
    place(&mut game, "BASE-E", (-1, 1), 3); // seat 1
    place(&mut game, "BASE-E-G", (-2, 1), 1); // seat 0
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
    // A city of three tiles with one knight (outside the castle's neighbourhood, CA2):
    // scored, no castle.
    place_follower(&mut game, "BASE-D", (1, 2), 1, "c1"); // seat 1
    place(&mut game, "BASE-G", (2, 2), 0); // seat 0
    place(&mut game, "BASE-D", (3, 2), 3); // seat 1
    assert_eq!(game.scores(), &[0, 10]);
    assert_eq!(castles(&game).len(), 1);
}

/// CA1: the eight caps whose art shows no semicircular cap hold no castle (`tiles.json`:
/// `"castle_base": false`; five of them are in the Royal Gift sets, one is of Inns &
/// Cathedrals, two of Hills & Sheep). Each closes the start tile's cap with seat 0's knight: a completed
/// city of two caps with one figure, which is scored (4, and 2 per pennant) without a
/// castle decision. The start tile's cap itself holds one (`BASE-E`, above).
#[test]
fn ca1_caps_without_castle_base_hold_no_castle() {
    let no_base: BTreeSet<&str> = carcassonne::catalogue()
        .kinds()
        .filter(|k| k.def().features.iter().any(|f| !f.castle_base))
        .map(|k| k.id())
        .collect();
    assert_eq!(
        no_base,
        BTreeSet::from([
            "AM-CAP-BRIDGE-OVER-BAND",
            "AM-CITY-3FIELDS",
            "BCB-CITY-3FIELDS-ROAD",
            "BCB-CITY-3FIELDS-ROAD-G",
            "HS-CITYCAP-VINEYARD",
            "HS-OPPOSITE-CAPS-VINEYARD",
            "IC-CITY-2FIELDS",
            "PD-PRINCESS-CAP-AND-CORNER",
        ])
    );
    let sets = [
        TileSet::Base,
        TileSet::PrincessDragon,
        TileSet::AbbeyMayor,
        TileSet::BridgesCastlesBazaars,
        TileSet::InnsCathedrals,
        TileSet::HillsSheep,
    ];
    for id in no_base {
        let def = tile(id).def();
        let mut config = config(2, &sets);
        if def.counts[1] == 0 {
            config.edition = carcassonne::Edition::C1; // a first-edition tile
        }
        let mut game = start(config);
        let c1 = &def.features[def.feature_by_id("c1").unwrap()];
        assert!(!c1.castle_base, "{id}");
        // Turn the cap to face south, onto the start tile's cap.
        let side = c1.side_mask().trailing_zeros() as u8;
        assert_eq!(c1.side_mask().count_ones(), 1, "{id}: a cap");
        play(&mut game, id, (0, -1), (2 + 4 - side) % 4);
        let since = game.events().len();
        deploy(&mut game, FOLLOWER, (0, -1), "c1");
        assert_ne!(game.phase(), Phase::Castle, "{id}");
        assert_eq!(
            points_since(&game, since),
            vec![(0, 4 + 2 * c1.pennants as i32, ScoreKind::City)],
            "{id}"
        );
        assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1), "{id}");
    }
}

/// CA1: castle decisions go in turn order from the turn player. Seat 1's cap at (0, 1)
/// and seat 0's cap at (2, 1) face a square that seat 1 fills with two caps back to back:
/// seat 1 is asked first (he declines: 4 points), then seat 0 (he builds).
#[test]
fn ca1_castle_decisions_in_turn_order() {
    let mut game = bcb_game(2);
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place_follower(&mut game, "BASE-E", (0, 1), 1, "c1"); // seat 1: city east
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0
    place(&mut game, "BASE-B", (-1, 1), 0); // seat 1
    place_follower(&mut game, "BASE-E", (2, 1), 3, "c1"); // seat 0: city west
    play(&mut game, "BASE-H", (1, 1), 1); // seat 1: caps west and east
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 1));
    let west = castle(&game, (1, 1), "c2");
    let east = castle(&game, (1, 1), "c1");
    assert_eq!(legal(&game), vec![west, Action::CastlePass]);
    apply(&mut game, Action::CastlePass);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 0));
    assert_eq!(legal(&game), vec![east, Action::CastlePass]);
    apply(&mut game, east);
    assert_eq!(game.scores(), &[0, 4]);
    assert_eq!(castles(&game), vec![(0, (1, 1, 0), false)]);
}

/// CA2, CA3: a castle on the start city, (0, −1) and (0, 0), covers columns −1..1 and rows
/// −1..0. It does not score the road its own tile completes in the turn it is built, nor a
/// city completed at (0, 1)–(0, 2) just outside; it scores the start road of 5 tiles
/// (completed together with a road of 3, both reaching the neighbourhood: the higher
/// value), without figures on it; the knight returns; later completions give nothing.
#[test]
fn ca2_ca3_castle_scores_the_next_feature_completed_nearby() {
    let mut game = bcb_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0); // seat 0
    place(&mut game, "BASE-U", (1, 0), 0); // seat 1
    place(&mut game, "BASE-W", (-1, -1), 2); // seat 0: junction, roads west, north, east
    place(&mut game, "BASE-W", (1, -1), 2); // seat 1
                                            // Seat 0: a cap with a road closes the start city and the road between the junctions.
    place_follower(&mut game, "BASE-D", (0, -1), 2, "c1");
    build_castle(&mut game, (0, -1), "c1");
    assert_eq!(game.scores(), &[0, 0]);
    assert!(
        game.events().is_empty(),
        "built this turn: it does not score yet"
    );

    place(&mut game, "BASE-E", (0, 1), 2); // seat 1
    place(&mut game, "BASE-E", (0, 2), 0); // seat 0: a city of 2 at rows 1–2
    assert!(game.events().is_empty());
    place(&mut game, "BASE-V", (-2, -1), 3); // seat 1: from the junction, east–south
    place(&mut game, "BASE-W", (2, 0), 0); // seat 0: closes the start road's east end
    assert!(game.events().is_empty());
    let since = game.events().len();
    // Seat 1: a crossroads at (−2, 0) closes the start road, 5 tiles, and the road from
    // the junction at (−1, −1) round to it, 3 tiles.
    place(&mut game, "BASE-X", (-2, 0), 0);
    assert_eq!(points_since(&game, since), vec![(0, 5, ScoreKind::Castle)]);
    assert_eq!(game.supply(0, FOLLOWER), 7, "the knight returns");
    assert_eq!(castles(&game), vec![(0, (0, -1, 0), true)]);

    let since = game.events().len();
    place(&mut game, "BASE-W", (1, -2), 0); // seat 0: closes the junction's north road
    assert_eq!(events_since(&game, since), vec![]);
}

/// The neighbourhood of two castles, A (seat 0) on the start city, columns −1..1, rows
/// −1..0, and B (seat 1) on two caps at (−1, −2) and (0, −2), columns −1..0, rows −3..−1,
/// which holds A's tile (0, −1). A monastery at (1, −1), next to A only, is completed by
/// a tile at (2, −2). With `road`, that tile also closes a road of 4 tiles that reaches
/// into B's neighbourhood only, at (0, −3). Returns the score events of that tile.
fn two_castles(road: bool) -> Vec<(u8, i32, ScoreKind)> {
    let mut game = bcb_game(2);
    place(&mut game, "BASE-U", (1, 0), 0); // seat 0
    place(&mut game, "BASE-W", (2, 0), 0); // seat 1
    place(&mut game, "BASE-B", (1, -1), 0); // seat 0: the monastery
    place(&mut game, "BASE-E", (2, -1), 1); // seat 1
    place(&mut game, "BASE-V", (1, -2), 2); // seat 0: a curve north–east
    if road {
        place(&mut game, "BASE-V", (1, -3), 0); // seat 1: south–west
    } else {
        place(&mut game, "BASE-U", (3, 0), 0);
    }
    // Castle A, built first.
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1"); // seat 0
    build_castle(&mut game, (0, -1), "c1");
    place_follower(&mut game, "BASE-E", (0, -2), 3, "c1"); // seat 1: city west
    if road {
        place(&mut game, "BASE-W", (0, -3), 2); // seat 0: the road's west end
    } else {
        place(&mut game, "BASE-U", (4, 0), 0);
    }
    play(&mut game, "BASE-E", (-1, -2), 1); // seat 1: castle B
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 1));
    build_castle(&mut game, (-1, -2), "c1");
    assert_eq!(castles(&game).len(), 2);
    assert!(game.events().is_empty());
    let since = game.events().len();
    place(&mut game, "BASE-W", (2, -2), 2); // seat 0: the monastery's eighth neighbour
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(1, FOLLOWER), 7);
    sorted(points_since(&game, since))
}

/// CA3: castles that score trigger the castles around them in the same turn. The
/// monastery (9) makes castle A score 9; B, which holds a tile of A, then scores 9 too.
#[test]
fn ca3_castles_trigger_castles_around_them() {
    assert_eq!(
        two_castles(false),
        vec![(0, 9, ScoreKind::Castle), (1, 9, ScoreKind::Castle)]
    );
}

/// CA3: a castle scores at its first trigger, in waves. The same tile completes the
/// monastery (9, next to A) and a road of 4 tiles (next to B): B scores the road's 4, as
/// A scores its 9 in the same wave, whatever the order in which the castles were built.
#[test]
fn ca3_a_castle_scores_at_its_first_trigger() {
    assert_eq!(
        two_castles(true),
        vec![(0, 9, ScoreKind::Castle), (1, 4, ScoreKind::Castle)]
    );
}

/// CA4: in every field scoring a castle next to the field counts as a completed city worth
/// one point more (4 for farmers). A castle that has not scored by the end scores 0.
#[test]
fn ca4_farmers_count_a_castle_as_a_city_worth_4() {
    let mut game = bcb_game(2);
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1"); // seat 0
    build_castle(&mut game, (0, -1), "c1");
    place_follower(&mut game, "BASE-B", (1, -1), 0, "f1"); // seat 1: farmer by the castle
    let since = game.events().len();
    finish_game(&mut game, |p| p.y >= 1);
    assert_eq!(points_since(&game, since), vec![(1, 4, ScoreKind::Farmers)]);
    assert_eq!(game.scores(), &[0, 4]);
    assert_eq!(castles(&game), vec![(0, (0, -1, 0), false)]);
}

/// CA4, PD7: the dragon does not take the figure on a castle; it takes the others.
#[test]
fn ca4_the_dragon_spares_a_castle() {
    let sets = [
        TileSet::Base,
        TileSet::PrincessDragon,
        TileSet::BridgesCastlesBazaars,
    ];
    let mut game = start(config(2, &sets));
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1"); // seat 0
    build_castle(&mut game, (0, -1), "c1");
    place(&mut game, "PD-VOLCANO-FIELD", (1, -1), 0); // seat 1
    assert_eq!(game.dragon(), Some(pos((1, -1))));
    place_follower(&mut game, "PD-DRAGON-CURVE", (-1, -1), 0, "r1"); // seat 0
    assert_eq!((game.phase(), game.to_play()), (Phase::DragonFlight, 0));
    assert_eq!(legal(&game), vec![Action::MoveDragon { pos: pos((0, -1)) }]);
    apply(&mut game, Action::MoveDragon { pos: pos((0, -1)) });
    assert_eq!(figures_at(&game, (0, -1)), vec![(0, FOLLOWER, "c1".into())]);
    assert_eq!(game.to_play(), 1);
    apply(&mut game, Action::MoveDragon { pos: pos((-1, -1)) });
    assert_eq!(figures_at(&game, (-1, -1)), vec![], "the thief is taken");
    assert_eq!(on_board(&game, 0, FOLLOWER), 1);
    assert_eq!(castles(&game), vec![(0, (0, -1, 0), false)]);
}

/// CA1, KR1, KR3: a castle is not a completed city. Seat 0 turns the start city into a
/// castle: nobody takes the King. Seat 0 then completes a city of 2 tiles: the first
/// completed city, it takes the King (had the castle counted, a city of equal size would
/// not). At the end the King scores every completed city but the castle, counted from
/// scratch on the final board.
#[test]
fn ca1_kr1_kr3_a_castle_is_no_completed_city() {
    let sets = [
        TileSet::Base,
        TileSet::KingRobber,
        TileSet::BridgesCastlesBazaars,
    ];
    let mut game = start(config(2, &sets));
    place_follower(&mut game, "BASE-E", (0, -1), 2, "c1"); // seat 0
    build_castle(&mut game, (0, -1), "c1");
    assert_eq!(game.titles(), (None, None));
    place(&mut game, "BASE-E", (0, 1), 2); // seat 1
    place(&mut game, "BASE-E", (0, 2), 0); // seat 0
    assert_eq!(game.titles().0, Some(0));

    finish_game(&mut game, |_| true);
    let (cities, _) = naive_completed(&game);
    let castle_parts: Vec<(i32, i32, usize)> = game
        .castles()
        .map(|(_, (p, local), _)| (p.x, p.y, local as usize))
        .collect();
    let not_castles = cities
        .iter()
        .filter(|c| !castle_parts.iter().any(|p| c.contains(p)))
        .count() as i32;
    assert_eq!(cities.len() as i32, not_castles + 1);
    let king = game.titles().0.expect("a holder") as u8;
    let events: Vec<(u8, i32)> = game
        .events()
        .iter()
        .filter(|e| e.kind == ScoreKind::King)
        .map(|e| (e.player, e.points))
        .collect();
    assert_eq!(events, vec![(king, not_castles)]);
}

/// CA1, CA3 and CC3: building a castle scores nothing, so the player whose tile completed
/// its city may not enter the City of Carcassonne; a castle's points are points for a
/// feature, so when the castle of seat 0 scores for seat 1's tile (seat 1 scoring
/// nothing), seat 1 may enter.
#[test]
fn ca1_ca3_cc3_castles_and_the_city_of_carcassonne() {
    let sets = [
        TileSet::Base,
        TileSet::Count,
        TileSet::BridgesCastlesBazaars,
    ];
    let mut game = start(config(2, &sets));
    // The City lies at x −2..1, y −1..1; its north side is field.
    place_follower(&mut game, "BASE-E", (-1, -2), 1, "c1"); // seat 0: city east
    play(&mut game, "BASE-E", (0, -2), 3); // seat 1: city west
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 0));
    build_castle(&mut game, (0, -2), "c1");
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));

    place(&mut game, "BASE-E", (0, -3), 1); // seat 0: row −3 is in the neighbourhood
    let since = game.events().len();
    place(&mut game, "BASE-E", (1, -3), 3); // seat 1: a city of 2 without figures
    assert_eq!(points_since(&game, since), vec![(0, 4, ScoreKind::Castle)]);
    assert_eq!((game.phase(), game.to_play()), (Phase::EnterQuarter, 1));
}

/// CA1 and CC4 (turn order, §8): castle decisions come before the moves out of the City.
/// Seat 1 has a follower in the castle quarter (the count in the market). Seat 1 closes
/// a city of two caps holding seat 0's knight: seat 0 decides first. If he builds, the
/// city is no longer about to score and seat 1 is not asked; if he declines, seat 1 may
/// move in and both score 4.
#[test]
fn ca1_cc4_castle_decided_before_moves_out_of_the_city() {
    let sets = [
        TileSet::Base,
        TileSet::Count,
        TileSet::BridgesCastlesBazaars,
    ];
    let mut game = start(config(2, &sets));
    place_follower(&mut game, "BASE-U", (0, 2), 1, "r1"); // seat 0
    place(&mut game, "BASE-W", (0, 3), 2); // seat 1: 3 for seat 0
    apply(
        &mut game,
        Action::DeployQuarter {
            figure: FOLLOWER,
            quarter: Quarter::Castle,
        },
    );
    apply(
        &mut game,
        Action::MoveCount {
            quarter: Quarter::Market,
        },
    );
    place_follower(&mut game, "BASE-E", (-1, -2), 1, "c1"); // seat 0
    play(&mut game, "BASE-E", (0, -2), 3); // seat 1
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::Castle, 0));

    let mut built = game.clone();
    build_castle(&mut built, (0, -2), "c1");
    assert_eq!((built.phase(), built.turn_player()), (Phase::Draw, 0));
    assert_eq!(built.scores(), &[3, 0]);

    apply(&mut game, Action::CastlePass);
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
    let into_city = Action::LeaveQuarter {
        step: QuarterStep::BeforeScoring,
        quarter: Quarter::Castle,
        figure: FOLLOWER,
        pos: pos((0, -2)),
        feature: local(&game, (0, -2), "c1"),
    };
    apply(&mut game, into_city);
    assert_eq!(game.scores(), &[7, 4]);
}

// ----- bazaars (BZ1–BZ4) -----------------------------------------------------------------------

fn select(id: &str, bid: u32) -> Action {
    Action::BazaarSelect {
        tile: tile(id),
        bid,
    }
}

fn bid(points: u32) -> Action {
    Action::BazaarBid { bid: points }
}

fn choose(choice: BazaarChoice) -> Action {
    Action::BazaarBuyOrSell { choice }
}

/// BZ1–BZ4 with four players. Seat 0 places a bazaar: after his turn one tile per player
/// is laid out from the pile. Then three auctions:
///
/// 1. seat 1 picks `BASE-K` at 2; seat 2 bids 3, seat 3 passes, seat 0 bids 5; seat 1
///    sells: seat 0 takes it and pays 5 to seat 1;
/// 2. the next selector without a tile, seat 2, picks `BASE-E` at 0; seat 3 bids 1 (seat
///    0 has a tile and is skipped), seat 1 passes; seat 2 buys: he pays 1 to seat 3;
/// 3. seat 3 picks `BASE-U` at 4; seat 1 passes: seat 3 takes it for his bid;
///
/// and the last tile, `BCB-BAZAAR-2ROADS`, goes to seat 1 for nothing. Scores may go
/// below 0. Then each places his tile instead of drawing, from seat 1 to seat 0; seat 1's
/// bazaar tile starts no bazaar; seat 1 then draws again.
#[test]
fn bz1_bz2_bz3_bz4_a_bazaar_with_four_players() {
    let mut game = bcb_game(4);
    place(&mut game, "BCB-BAZAAR", (0, 1), 0); // seat 0
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));
    assert!(game.placed_this_turn().is_some(), "still seat 0's turn");
    let before = game.tiles_left();
    for id in ["BASE-E", "BASE-K", "BCB-BAZAAR-2ROADS", "BASE-U"] {
        apply(&mut game, Action::Draw { tile: tile(id) });
    }
    assert_eq!(game.tiles_left(), before - 4);
    let offer: Vec<Option<TileKind>> = ["BASE-E", "BASE-K", "BCB-BAZAAR-2ROADS", "BASE-U"]
        .iter()
        .map(|id| Some(tile(id)))
        .collect();
    assert_eq!(game.bazaar_offer(), offer.as_slice());

    // Auction 1.
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarSelect, 1));
    assert_legal(&game, select("BASE-K", 0));
    assert_legal(&game, select("BASE-K", 30));
    assert_eq!(legal(&game).len(), 4 * 31);
    apply(&mut game, select("BASE-K", 2));
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBid, 2));
    assert_not_legal(&game, bid(2));
    assert_legal(&game, Action::BazaarPass);
    apply(&mut game, bid(3));
    assert_eq!(game.to_play(), 3);
    apply(&mut game, Action::BazaarPass);
    assert_eq!(game.to_play(), 0);
    apply(&mut game, bid(5));
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBuyOrSell, 1));
    assert_eq!(
        legal(&game),
        vec![choose(BazaarChoice::Buy), choose(BazaarChoice::Sell)]
    );
    let since = game.events().len();
    apply(&mut game, choose(BazaarChoice::Sell));
    assert_eq!(
        sorted(events_since(&game, since)),
        vec![
            (0, -5, ScoreKind::BazaarSell),
            (1, 5, ScoreKind::BazaarSell)
        ]
    );
    assert_eq!(game.bazaar_tile_of(0), Some(tile("BASE-K")));

    // Auction 2.
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarSelect, 2));
    assert_not_legal(&game, select("BASE-K", 0));
    apply(&mut game, select("BASE-E", 0));
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBid, 3));
    apply(&mut game, bid(1));
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBid, 1));
    apply(&mut game, Action::BazaarPass);
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBuyOrSell, 2));
    let since = game.events().len();
    apply(&mut game, choose(BazaarChoice::Buy));
    assert_eq!(
        sorted(events_since(&game, since)),
        vec![(2, -1, ScoreKind::BazaarBuy), (3, 1, ScoreKind::BazaarBuy)]
    );

    // Auction 3: nobody outbids seat 3.
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarSelect, 3));
    apply(&mut game, select("BASE-U", 4));
    assert_eq!((game.phase(), game.to_play()), (Phase::BazaarBid, 1));
    let since = game.events().len();
    apply(&mut game, Action::BazaarPass);
    assert_eq!(
        events_since(&game, since),
        vec![(3, -4, ScoreKind::BazaarBuy)]
    );
    assert_eq!(game.scores(), &[-5, 5, -1, -3]);
    // The last tile went to seat 1, whose turn has begun with it in hand.
    let held: Vec<_> = (0..4).map(|p| game.bazaar_tile_of(p)).collect();
    assert_eq!(
        held,
        vec![
            Some(tile("BASE-K")),
            None,
            Some(tile("BASE-E")),
            Some(tile("BASE-U"))
        ]
    );

    // BZ4: the tiles are placed instead of drawing, from seat 1 to seat 0.
    let tiles = game.tiles_left();
    for (seat, id, xy, r) in [
        (1, "BCB-BAZAAR-2ROADS", (0, 2), 1),
        (2, "BASE-E", (0, -1), 2),
        (3, "BASE-U", (1, 0), 0),
        (0, "BASE-K", (-1, 0), 2),
    ] {
        assert_eq!(
            (game.phase(), game.turn_player(), game.tile_in_hand()),
            (Phase::PlaceTile, seat, Some(tile(id)))
        );
        assert!(game.tile_from_bazaar(game.turns().len() - 1));
        apply(&mut game, placement(xy, r, None));
        finish_turn(&mut game);
    }
    assert_eq!(game.tiles_left(), tiles, "no tile drawn");
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
    assert!(game.bazaar_offer().is_empty());
}

/// The kinds of bazaar tile.
fn bazaar_kinds() -> Vec<TileKind> {
    carcassonne::catalogue()
        .kinds()
        .filter(|k| k.def().has(Symbols::BAZAAR))
        .collect()
}

/// Plays the pile east of x = 0 down to its 8 bazaar tiles (none drawn before, so no
/// bazaar was held), then on, bazaars included, to the first draw from a pile of `left`
/// tiles or fewer.
fn near_the_end(players: u8, left: u32) -> Game {
    let mut game = bcb_game(players);
    let zone = |p: Pos| p.x >= 1;
    play_out_until(&mut game, zone, &bazaar_kinds(), 8);
    assert_eq!(game.tiles_left(), 8);
    assert!(game
        .chance_outcomes()
        .iter()
        .all(|(k, _)| k.def().has(Symbols::BAZAAR)));
    play_out_until(&mut game, zone, &[], left);
    assert_eq!((game.phase(), game.tiles_left()), (Phase::Draw, left));
    game
}

/// Draws the first tile that may be drawn and places it at the first legal square east
/// of x = 0, deploying nothing; returns its kind.
fn draw_and_place(game: &mut Game) -> TileKind {
    let kind = game.chance_outcomes()[0].0;
    apply(game, Action::Draw { tile: kind });
    let place = legal(game)
        .into_iter()
        .find(|a| matches!(a, Action::PlaceTile { pos, bridge: None, .. } if pos.x >= 1))
        .expect("a placement");
    apply(game, place);
    finish_turn(game);
    kind
}

/// BZ4 (with BR2, B5): a tile drawn to replace a bazaar tile that was discarded starts no
/// bazaar, even in the turn of the last player to place his bazaar tile, when nobody
/// else holds one. Seat 0's city of bazaars north of the start tile and seat 1's junction
/// south of it leave roads and cities on every open side: seat 0's bazaar tile, a
/// monastery, fits only with a bridge, and he discards it. He then draws a bazaar tile
/// and places it: the turn ends without a bazaar and seat 1 draws from the pile.
#[test]
fn bz4_a_tile_replacing_a_discarded_bazaar_tile_starts_no_bazaar() {
    let mut game = bcb_game(2);
    place(&mut game, "BCB-CITY-BAZAAR", (0, -1), 0); // seat 0: a bazaar
    for id in ["BASE-W", "BASE-B"] {
        apply(&mut game, Action::Draw { tile: tile(id) });
    }
    apply(&mut game, select("BASE-W", 0)); // seat 1
    apply(&mut game, Action::BazaarPass); // seat 0 lets him have it
    assert_eq!(game.bazaar_tile_of(0), Some(tile("BASE-B")));

    assert_eq!(game.turn_player(), 1);
    assert!(game.tile_from_bazaar(game.turns().len() - 1));
    apply(&mut game, placement((0, 1), 0, None));
    finish_turn(&mut game);

    assert_eq!(
        (game.phase(), game.turn_player(), game.tile_in_hand()),
        (Phase::PlaceTile, 0, Some(tile("BASE-B")))
    );
    assert!(game.tile_from_bazaar(game.turns().len() - 1));
    assert_legal(&game, Action::Pass);
    apply(&mut game, Action::Pass); // BR2: discarded
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));
    assert!(
        game.bazaar_tile_of(0).is_none(),
        "nobody holds a bazaar tile"
    );
    let tiles = game.tiles_left();
    apply(
        &mut game,
        Action::Draw {
            tile: tile("BCB-BAZAAR-2ROADS"),
        },
    );
    apply(&mut game, placement((0, 2), 0, None));
    finish_turn(&mut game);
    assert_eq!(
        (game.phase(), game.turn_player()),
        (Phase::Draw, 1),
        "no bazaar: the next player draws"
    );
    assert!(game.bazaar_offer().is_empty());
    assert_eq!(game.tiles_left(), tiles - 1);
}

/// BZ1: a bazaar is held only if the pile still holds a tile per player. Two players, 2
/// bazaar tiles left: the one placed now leaves 1 in the pile, and no bazaar is held.
#[test]
fn bz1_no_bazaar_without_a_tile_per_player() {
    let mut game = near_the_end(2, 2);
    let seat = game.turn_player();
    let kind = draw_and_place(&mut game);
    assert!(kind.def().has(Symbols::BAZAAR));
    assert_eq!(game.tiles_left(), 1);
    assert_eq!(
        (game.phase(), game.turn_player()),
        (Phase::Draw, (seat + 1) % 2)
    );
    assert!(game.placed_this_turn().is_none(), "a new turn: no bazaar");
    assert!(game.bazaar_offer().is_empty());
}

/// BZ1, BZ4: three players, 4 bazaar tiles left: the one placed now leaves 3, one per
/// player, and the bazaar takes them all. The pile is empty, yet the game goes on until
/// every player has placed his bazaar tile, the bazaar player last.
#[test]
fn bz1_bz4_the_game_waits_for_the_bazaar_tiles() {
    let mut game = near_the_end(3, 4);
    let seat = game.turn_player();
    draw_and_place(&mut game);
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, seat));
    assert!(
        game.placed_this_turn().is_some(),
        "the offer, in the same turn"
    );
    while game.phase() == Phase::Draw {
        let kind = game.chance_outcomes()[0].0;
        apply(&mut game, Action::Draw { tile: kind });
    }
    assert_eq!(game.tiles_left(), 0);
    assert_eq!(game.bazaar_offer().len(), 3);
    while matches!(
        game.phase(),
        Phase::BazaarSelect | Phase::BazaarBid | Phase::BazaarBuyOrSell
    ) {
        let action = if game.phase() == Phase::BazaarBid {
            Action::BazaarPass
        } else {
            legal(&game)[0]
        };
        apply(&mut game, action);
    }
    assert!(!game.is_terminal());
    let next = (seat + 1) % 3;
    assert_eq!((game.phase(), game.turn_player()), (Phase::PlaceTile, next));
    finish_game(&mut game, |p| p.x >= 1);
    let turns = game.turns();
    let last: Vec<_> = (turns.len() - 3..turns.len())
        .map(|t| (turns[t].player as usize, game.tile_from_bazaar(t)))
        .collect();
    assert_eq!(
        last,
        vec![(next, true), ((seat + 2) % 3, true), (seat, true)]
    );
}

/// BZ1 with explicit chance: a game waiting for a tile of a bazaar's offer switches to
/// sampled draws like a game waiting for the turn's tile: the tile is drawn at once and
/// the game goes on (a search switches a copy's chance mode at any draw).
#[test]
fn bz1_switching_to_sampled_draws_at_a_bazaar_draw_too() {
    use carcassonne::game::ChanceMode;
    let mut rng = carcassonne::Rng::new(3);
    let mut bazaar_draws = 0;
    for seed in 0..40 {
        let mut config = config(3, &BCB);
        config.seed = seed;
        let mut game = Game::with_chance(config, ChanceMode::Explicit).unwrap();
        while !game.is_terminal() {
            if game.phase() == Phase::Draw {
                // A bazaar's draws come after the turn's tile is placed.
                let at_bazaar = game.placed_this_turn().is_some();
                if at_bazaar {
                    bazaar_draws += 1;
                    let mut sampled = game.clone();
                    sampled.set_chance_mode(ChanceMode::Sampled);
                    assert_ne!(sampled.phase(), Phase::Draw, "seed {seed}: still waiting");
                    assert!(!sampled.legal_actions().is_empty() || sampled.is_terminal());
                }
                let outcomes = game.chance_outcomes();
                let pick = rng.below(outcomes.len() as u32) as usize;
                apply(
                    &mut game,
                    Action::Draw {
                        tile: outcomes[pick].0,
                    },
                );
                continue;
            }
            let legal = legal(&game);
            let action = legal[rng.below(legal.len() as u32) as usize];
            apply(&mut game, action);
        }
    }
    assert!(bazaar_draws > 10, "{bazaar_draws} bazaar draws");
}
