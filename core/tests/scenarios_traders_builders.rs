//! Rule-by-rule scenarios of Traders & Builders (TB1–TB6 of `docs/rules.md`), with the
//! base game, and with River II, The Princess & the Dragon, Abbey & Mayor and Inns &
//! Cathedrals for the interaction rules of the seeds (PD1, PD7, PD8, PD9, PD12, PD15,
//! PD16b, R5, AM7, AM8), and with Bridges, Castles & Bazaars for the order of a turn
//! (`docs/rules.md` §8).
//!
//! The start tile `BASE-D` at (0, 0) has its city cap on the north side, its road from
//! west to east and field on the south side. `BASE-U` turned 0 continues a road west–east,
//! `BASE-B` is a monastery in a field.

mod common;

use carcassonne::config::VolcanoSpecials;
use carcassonne::game::{tile, ReturnCause};
use carcassonne::tiles::Goods;
use carcassonne::{Action, Corner, Figure, Figures, Game, Phase, Pos, ScoreKind, TileSet};
use common::*;

const FOLLOWER: Figure = Figure::Follower;
const BIG: Figure = Figure::BigFollower;
const BUILDER: Figure = Figure::Builder;
const PIG: Figure = Figure::Pig;
const TB: [TileSet; 2] = [TileSet::Base, TileSet::TradersBuilders];

fn tb_game(players: u8) -> Game {
    start(config(players, &TB))
}

/// A two-player game of the base game, Traders & Builders and `more`.
fn tb_game_with(more: &[TileSet]) -> Game {
    start_with(2, &TB, more)
}

/// Squares south of the start's row: where [`finish_game`] lays the rest of the pile in
/// the scenarios north of the start road.
fn south(p: Pos) -> bool {
    p.y >= 1
}

/// The score events of `kind` from index `since` on, as `(player, points)`.
fn scored(game: &Game, since: usize, kind: ScoreKind) -> Vec<(u8, i32)> {
    events_since(game, since)
        .into_iter()
        .filter(|(_, _, k)| *k == kind)
        .map(|(p, points, _)| (p, points))
        .collect()
}

/// Whether any legal action deploys a builder or a pig.
fn offers_builder_or_pig(game: &Game) -> bool {
    legal(game).iter().any(|a| {
        matches!(
            a,
            Action::Deploy {
                figure: Figure::Builder | Figure::Pig,
                ..
            }
        )
    })
}

// ----- goods (TB1, TB2) ----------------------------------------------------------------------

/// TB1: the player whose tile completes a city takes its goods, whether or not he has a
/// figure in it; the knight's owner scores the city and takes none.
#[test]
fn tb1_completing_player_takes_the_goods() {
    let mut game = tb_game(2);
    // Seat 0: a grain corner (west and south) on the start city, knight.
    place_follower(&mut game, "TB-CORNER-GRAIN", (0, -1), 3, "c1");
    // Seat 1: a cap facing east closes the city (3 tiles), no figure of his in it.
    let since = game.events().len();
    place(&mut game, "BASE-E", (-1, -1), 1);
    assert_eq!(scored(&game, since, ScoreKind::City), vec![(0, 6)]);
    assert_eq!(game.goods_held(1, Goods::Grain), 1);
    assert_eq!(game.goods_held(0, Goods::Grain), 0);
    for goods in [Goods::Wine, Goods::Cloth] {
        assert_eq!(game.goods_held(1, goods), 0);
    }
}

/// TB1: an incomplete city gives no goods, a city without goods none either.
#[test]
fn tb1_no_goods_before_completion() {
    let mut game = tb_game(2);
    place(&mut game, "TB-CORNER-GRAIN", (0, -1), 3); // seat 0: the city stays open
    place(&mut game, "BASE-E", (0, 1), 2); // seat 1: a city without goods, open
    for seat in 0..2 {
        assert_eq!(game.goods_held(seat, Goods::Grain), 0);
    }
}

/// TB2: at the end each kind of goods gives 10 to every player holding the most tokens of
/// it (at least one). Seat 1 took the grain of TB1's city; the rest of the pile is laid
/// south of the start, where its cities may give more goods: each kind's 10 points go to
/// exactly the players who hold the most of it.
#[test]
fn tb2_goods_majorities_at_the_end() {
    let mut game = tb_game(3);
    place_follower(&mut game, "TB-CORNER-GRAIN", (0, -1), 3, "c1"); // seat 0
    place(&mut game, "BASE-E", (-1, -1), 1); // seat 1 takes the grain
    assert_eq!(game.goods_held(1, Goods::Grain), 1);
    let since = game.events().len();
    finish_game(&mut game, south);
    let mut expected = Vec::new();
    for goods in Goods::ALL {
        let held: Vec<u8> = (0..3).map(|p| game.goods_held(p, goods)).collect();
        let most = *held.iter().max().unwrap();
        if most > 0 {
            expected.extend(
                (0..3u8)
                    .filter(|&p| held[p as usize] == most)
                    .map(|p| (p, 10)),
            );
        }
    }
    let mut got = scored(&game, since, ScoreKind::Goods);
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected);
}

// ----- the builder (TB3, TB4, TB6) -----------------------------------------------------------

/// Seat 0 has a thief on the road east of the start at (1, 0); seat 1 continues the road
/// west at (-1, 0); seat 0 continues it east at (2, 0) and puts his builder there; seat 1
/// places a monastery south of the start.
fn builder_position() -> Game {
    builder_position_in(tb_game(2))
}

/// [`builder_position`] in `game`, a new two-player game with Traders & Builders.
fn builder_position_in(mut game: Game) -> Game {
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
    play(&mut game, "BASE-U", (-1, 0), 0); // seat 1
                                           // TB3: no builder on a road without a follower of one's own; B7: no thief either.
    assert_not_legal(&game, deploy_action(&game, BUILDER, (-1, 0), "r1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (-1, 0), "r1"));
    finish_turn(&mut game);
    play(&mut game, "BASE-U", (2, 0), 0); // seat 0
    assert_legal(&game, deploy_action(&game, BUILDER, (2, 0), "r1"));
    // TB3 builds on roads and cities only; TB5: no pig without a farmer.
    assert_not_legal(&game, deploy_action(&game, BUILDER, (2, 0), "f1"));
    assert_not_legal(&game, deploy_action(&game, PIG, (2, 0), "f2"));
    deploy(&mut game, BUILDER, (2, 0), "r1");
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    game
}

/// TB3: the builder goes on a road of the placed tile that holds the player's follower;
/// not where only another player's follower stands; it leaves the supply and, counting
/// for no majority, does not occupy the road for others (TB6).
#[test]
fn tb3_builder_beside_own_follower() {
    let game = builder_position();
    assert_eq!(game.supply(0, BUILDER), 0);
    assert_eq!(on_board(&game, 0, BUILDER), 1);
    assert_eq!(game.supply(1, BUILDER), 1, "TB3: one builder per player");
    assert_eq!(Figures::default_for(&TB).builder, 1);
    assert_eq!(Figures::default_for(&[TileSet::Base]).builder, 0);
}

/// TB3: no builder on a road the placement completes, although the player's thief stands
/// on it until the scoring.
#[test]
fn tb3_no_builder_on_a_completed_road() {
    let mut game = tb_game(2);
    // Seat 0: the road ends east at a monastery (BASE-A turned 1), thief.
    place_follower(&mut game, "BASE-A", (1, 0), 1, "r1");
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
                                           // Seat 0: a monastery closes the west end: the road is complete.
    play(&mut game, "BASE-A", (-1, 0), 3);
    assert_not_legal(&game, deploy_action(&game, BUILDER, (-1, 0), "r1"));
}

/// TB3 (JCloisterZone's reading): a mayor, even without pennants, keeps a builder company
/// in its city; with Abbey & Mayor.
#[test]
fn tb3_builder_beside_a_mayor_without_pennants() {
    let mut game = tb_game_with(&[TileSet::AbbeyMayor]);
    // Seat 0: a grain corner on the start city (no pennant), mayor.
    place_deploy(
        &mut game,
        "TB-CORNER-GRAIN",
        (0, -1),
        3,
        Figure::Mayor,
        "c1",
    );
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
                                           // Seat 0: a band west of the corner; the city stays open to the west.
    play(&mut game, "TB-BAND-WINE", (-1, -1), 0);
    assert_legal(&game, deploy_action(&game, BUILDER, (-1, -1), "c1"));
}

/// TB4: a tile that adds to the road holding the player's builder (placed on an earlier
/// turn) gives him an extra turn at once (`builder_bonus` in records); the extra turn
/// gives no other, also when it adds to the road again.
#[test]
fn tb4_builder_gives_one_extra_turn() {
    let mut game = builder_position();
    // Seat 0 adds to the road at (3, 0).
    place(&mut game, "BASE-U", (3, 0), 0);
    assert_eq!(game.phase(), Phase::Draw);
    assert_eq!(game.turn_player(), 0, "the same player again");
    let turns = game.turns();
    assert!(turns[turns.len() - 1].extra_turn);
    assert!(!turns[turns.len() - 2].extra_turn);
    assert_eq!(turns[turns.len() - 2].player, 0);
    // The extra turn adds to the road again: no third part.
    place(&mut game, "BASE-U", (4, 0), 0);
    assert_eq!(game.turn_player(), 1);
    assert!(!game.turns().last().unwrap().extra_turn);
}

/// TB4: placing his builder gives no extra turn by itself; another player's tile that
/// adds to the builder's road gives none either.
#[test]
fn tb4_no_extra_turn_without_the_own_builder() {
    let mut game = builder_position();
    place(&mut game, "BASE-B", (1, 1), 0); // seat 0: not on the road
    assert_eq!(game.turn_player(), 1);
    place(&mut game, "BASE-U", (3, 0), 0); // seat 1 adds to seat 0's road
    assert_eq!(game.turn_player(), 0);
    assert!(game.turns().iter().all(|t| !t.extra_turn));
}

/// TB4, TB6: a tile that completes the builder's road still gives the extra turn; the
/// builder scores nothing and counts for no majority, and goes back with the road's
/// thief.
#[test]
fn tb4_tb6_completing_the_builders_road() {
    let mut game = tb_game(2);
    // Seat 0: the road ends east at a monastery, thief.
    place_follower(&mut game, "BASE-A", (1, 0), 1, "r1");
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place_deploy(&mut game, "BASE-U", (-1, 0), 0, BUILDER, "r1"); // seat 0
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
                                           // Seat 0 closes the west end: a road of 4 tiles.
    let since = game.events().len();
    let returns = game.figure_returns().len();
    play(&mut game, "BASE-A", (-2, 0), 3);
    finish_turn(&mut game);
    assert_eq!(points_since(&game, since), vec![(0, 4, ScoreKind::Road)]);
    assert_eq!(game.supply(0, BUILDER), 1);
    assert_eq!(game.supply(0, FOLLOWER), 7);
    let builder_back = game.figure_returns()[returns..]
        .iter()
        .find(|r| r.figure == BUILDER)
        .expect("the builder returned");
    assert_eq!(builder_back.cause, ReturnCause::Scored);
    assert_eq!(game.turn_player(), 0);
    assert!(game.turns().last().unwrap().extra_turn);
}

/// TB4: with the pile empty there is no extra turn: the last tile adds to the builder's
/// road and the game ends (without Abbey & Mayor nothing could be placed in it).
#[test]
fn tb4_no_extra_turn_with_the_pile_empty() {
    let mut game = tb_game(2);
    let a = last_tile_on_the_builders_road(&mut game);
    assert!(game.is_terminal());
    let last = game.turns().last().unwrap();
    assert_eq!(last.player as usize, a);
    assert!(!last.extra_turn);
    assert!(game.turns().iter().all(|t| !t.extra_turn));
}

/// TB4, AM1: with the pile empty the extra turn still comes for the abbey: the same player
/// places it in the hole (1, 1) in his extra turn; then the end-of-game abbey round (AM4)
/// begins with the other player.
#[test]
fn tb4_am1_extra_turn_with_the_pile_empty_places_the_abbey() {
    let mut game = tb_game_with(&[TileSet::AbbeyMayor]);
    let a = last_tile_on_the_builders_road(&mut game);
    assert_eq!((game.phase(), game.turn_player()), (Phase::Abbey, a));
    assert!(!game.in_end_round());
    assert!(game.in_extra_turn());
    let abbey = Action::PlaceAbbey { pos: pos((1, 1)) };
    assert_legal(&game, abbey);
    assert_legal(&game, Action::Pass);
    apply(&mut game, abbey);
    finish_turn(&mut game);
    assert_eq!(game.abbeys_left(a), 0);
    let last = game.turns().last().unwrap();
    assert_eq!(
        (last.player as usize, last.extra_turn, last.draw),
        (a, true, None)
    );
    // AM4: the abbey round, from the player after the one who placed the last tile.
    assert!(game.is_terminal() || (game.in_end_round() && game.to_play() == 1 - a));
}

/// TB4, AM4: an extra turn with the pile empty whose abbey is declined leaves no turn
/// (the record has no entry for it, `docs/record-format.md`); the abbey round then asks
/// the other player first and the player himself last.
#[test]
fn tb4_am4_declined_abbey_in_the_extra_turn_leaves_no_turn() {
    let mut game = tb_game_with(&[TileSet::AbbeyMayor]);
    let a = last_tile_on_the_builders_road(&mut game);
    let turns = game.turns().len();
    assert_eq!((game.phase(), game.turn_player()), (Phase::Abbey, a));
    apply(&mut game, Action::Pass);
    assert!(game.in_end_round());
    assert_eq!((game.phase(), game.to_play()), (Phase::Abbey, 1 - a));
    // The empty extra turn is gone; the turn in progress is the abbey round's.
    assert_eq!(game.turns().len(), turns);
    assert!(game.turns().iter().all(|t| !t.extra_turn));
    assert_eq!(game.turns().last().unwrap().player as usize, 1 - a);
    apply(&mut game, Action::Pass);
    assert_eq!((game.phase(), game.to_play()), (Phase::Abbey, a));
}

/// TB4 ("not an abbey"), AM1, AM3: an abbey that closes the builder's road gives no extra
/// turn, even when it completes the road. Seat 0's thief and builder stand on the start
/// road, closed in the west by a monastery's road; its east end at (3, 0) becomes a hole.
/// Seat 0's abbey there completes the road (4 tiles, 4 points to his thief); the builder
/// goes back with the thief (TB6) and seat 1's turn comes.
#[test]
fn tb4_am3_no_extra_turn_from_an_abbey() {
    let mut game = tb_game_with(&[TileSet::AbbeyMayor]);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
    place_deploy(&mut game, "BASE-U", (2, 0), 0, BUILDER, "r1"); // seat 0
    place(&mut game, "BASE-B", (2, 1), 0); // seat 1
    place(&mut game, "BASE-B", (3, 1), 0); // seat 0
    place(&mut game, "BASE-B", (4, 1), 0); // seat 1
    place(&mut game, "BASE-U", (4, 0), 0); // seat 0: not joined to his road yet
    place(&mut game, "BASE-U", (2, -1), 0); // seat 1
    place(&mut game, "BASE-U", (3, -1), 0); // seat 0: (3, 0) is a hole
    place(&mut game, "BASE-A", (-1, 0), 3); // seat 1 declines his abbey; closes the west end
    assert_eq!((game.phase(), game.turn_player()), (Phase::Abbey, 0));
    let since = game.events().len();
    let returns = game.figure_returns().len();
    apply(&mut game, Action::PlaceAbbey { pos: pos((3, 0)) });
    finish_turn(&mut game);
    assert_eq!(points_since(&game, since), vec![(0, 4, ScoreKind::Road)]);
    let back: Vec<_> = game.figure_returns()[returns..]
        .iter()
        .map(|r| (r.figure, r.cause))
        .collect();
    assert!(back.contains(&(BUILDER, ReturnCause::Scored)), "{back:?}");
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
    assert!(game.turns().iter().all(|t| !t.extra_turn));
}

// ----- the pig (TB5) -------------------------------------------------------------------------

/// TB5, B16: seat 0's farmer and pig share a field next to the completed start city: at
/// the end it scores 4 per city for him instead of 3. Seat 1 may put no pig there (no
/// farmer of his), nor a farmer (B7).
#[test]
fn tb5_pig_adds_a_point_per_city_to_its_farmers() {
    let mut game = tb_game(2);
    // Seat 0: a cap closes the start city; farmer on its field.
    place_follower(&mut game, "BASE-E", (0, -1), 2, "f1");
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
                                           // Seat 0: a monastery west of the cap joins the field: the pig.
    play(&mut game, "BASE-B", (-1, -1), 0);
    assert_legal(&game, deploy_action(&game, PIG, (-1, -1), "f1"));
    assert_not_legal(&game, deploy_action(&game, BUILDER, (-1, -1), "f1"));
    deploy(&mut game, PIG, (-1, -1), "f1");
    // Seat 1: a monastery east of the cap joins the field too.
    play(&mut game, "BASE-B", (1, -1), 0);
    assert_not_legal(&game, deploy_action(&game, PIG, (1, -1), "f1"));
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, -1), "f1"));
    finish_turn(&mut game);
    let since = game.events().len();
    finish_game(&mut game, south);
    assert_eq!(scored(&game, since, ScoreKind::Farmers), vec![(0, 4)]);
}

/// TB5 with R5 (seed 000): the pig herd and a pig in one field give 5 per city (with
/// `pig_herd: false`, 4: the pig alone). The field of River II's pig-herd bend touches 3
/// completed cities (the layout of the R5 scenario); seat 1's farmer and pig stand in it.
#[test]
fn tb5_r5_pig_herd_and_pig_give_five_per_city() {
    for (pig_herd, per_city) in [(true, 5), (false, 4)] {
        let sets = [TileSet::Base, TileSet::River2, TileSet::TradersBuilders];
        let mut game = river2_game(&sets, pig_herd);
        lay(&mut game, &RIVER2[..3]);
        place_follower(&mut game, "RIV2-CURVE-PIGS", (3, 0), 3, "f2"); // seat 1
        lay(&mut game, &RIVER2[4..5]);
        // Seat 1: the city-and-road bridge, whose small field west of its city joins the
        // pig field through the road bend's inner corner: his pig.
        let (id, xy, r) = RIVER2[5];
        place_deploy(&mut game, id, xy, r, PIG, "f4");
        lay(&mut game, &RIVER2[6..]);
        place(&mut game, "BASE-E", (0, -1), 1);
        place(&mut game, "BASE-E", (2, -1), 3);
        place(&mut game, "BASE-E", (1, -3), 2);
        place(&mut game, "BASE-E", (4, 0), 2);
        let since = game.events().len();
        finish_game(&mut game, |p: Pos| p.x >= 8);
        assert_eq!(
            scored(&game, since, ScoreKind::Farmers),
            vec![(1, 3 * per_city)],
            "pig_herd {pig_herd}"
        );
    }
}

/// The barn position of Abbey & Mayor's scenarios with a pig: seat 0's farmer on the field
/// south of the road at (1, 0), his pig at (-1, 0) in the same field; a city of two caps
/// at (0, 1)–(0, 2) borders it; seat 1's farmer lies in the field below that city.
fn barn_position_with_pig() -> Game {
    let mut game = tb_game_with(&[TileSet::AbbeyMayor]);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "f2"); // seat 0
    place(&mut game, "BASE-E", (0, 1), 2); // seat 1: cap facing south
    place_deploy(&mut game, "BASE-U", (-1, 0), 0, PIG, "f2"); // seat 0
    place_follower(&mut game, "BASE-E", (0, 2), 0, "f1"); // seat 1: cap facing north
    place(&mut game, "BASE-B", (0, 3), 0); // seat 0
    game
}

/// TB5 with AM7 (seed 000): a barn placed on the pig's field scores it at 4 per city for
/// the pig's owner instead of 3; his farmer and pig go back (TB6: the field scored).
#[test]
fn tb5_am7_barn_scores_four_per_city_with_a_pig() {
    let mut game = barn_position_with_pig();
    let since = game.events().len();
    play(&mut game, "BASE-B", (1, 1), 0); // seat 1
    apply(
        &mut game,
        Action::DeployBarn {
            pos: pos((1, 1)),
            corner: Corner::NW,
        },
    );
    assert_eq!(
        points_since(&game, since),
        vec![(0, 4, ScoreKind::BarnPlaced)]
    );
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.supply(0, PIG), 1);
}

/// In [`barn_position_with_pig`], seat 1 puts his barn on the north-west corner of a
/// monastery at (1, 1), which scores seat 0's field (AM7); seat 0 places a monastery at
/// (-1, 1).
fn barn_beside_the_pig(game: &mut Game) {
    play(game, "BASE-B", (1, 1), 0); // seat 1: barn
    apply(
        game,
        Action::DeployBarn {
            pos: pos((1, 1)),
            corner: Corner::NW,
        },
    );
    place(game, "BASE-B", (-1, 1), 0); // seat 0
}

/// TB5 with AM8: a field with a farmer and his pig that joins a barn's field scores 2 per
/// city for him instead of 1.
#[test]
fn tb5_am8_joined_barn_field_scores_two_per_city_with_a_pig() {
    let mut game = barn_position_with_pig();
    barn_beside_the_pig(&mut game);
    // Seat 1: a cap facing west, west of (0, 3), in his farmer's field below the city:
    // his pig.
    place_deploy(&mut game, "BASE-E", (-1, 3), 3, PIG, "f1");
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0
                                           // Seat 1: (1, 2) joins his field to the barn's.
    let since = game.events().len();
    place(&mut game, "BASE-B", (1, 2), 0);
    assert_eq!(
        points_since(&game, since),
        vec![(1, 2, ScoreKind::BarnConnected)]
    );
    assert_eq!(game.supply(1, PIG), 1);
    assert_eq!(game.supply(1, FOLLOWER), 7);
}

/// TB5, TB6 with AM8: the pig deployed in the very turn whose tile joins its farmer's field
/// to a barn's field (the pig is no follower: AM8's ban on deploying into a barn's field
/// does not hold it back) counts at once: 2 per city instead of 1; farmer and pig go back.
#[test]
fn tb5_am8_pig_deployed_as_the_field_joins_the_barn() {
    let mut game = barn_position_with_pig();
    barn_beside_the_pig(&mut game);
    place(&mut game, "BASE-E", (-1, 3), 3); // seat 1
    place(&mut game, "BASE-U", (2, 0), 0); // seat 0

    // Seat 1: (1, 2) joins the field of his farmer below the city to the barn's field.
    play(&mut game, "BASE-B", (1, 2), 0);
    assert_not_legal(&game, deploy_action(&game, FOLLOWER, (1, 2), "f1"));
    let since = game.events().len();
    let returns = game.figure_returns().len();
    deploy(&mut game, PIG, (1, 2), "f1");
    assert_eq!(
        points_since(&game, since),
        vec![(1, 2, ScoreKind::BarnConnected)]
    );
    assert_eq!(game.supply(1, PIG), 1);
    assert_eq!(game.supply(1, FOLLOWER), 7);
    let pig_back = game.figure_returns()[returns..]
        .iter()
        .find(|r| r.figure == PIG)
        .expect("the pig returned");
    assert_eq!(pig_back.cause, ReturnCause::Scored);
}

// ----- builders and pigs are no followers (TB6) -----------------------------------------------

/// TB6, PD12, PD13, PD15 (seed 000): with a magic portal neither the builder nor the pig
/// goes elsewhere; the fairy goes next to the follower, never next to the builder.
#[test]
fn tb6_no_portal_and_no_fairy_for_builders() {
    let mut game = tb_game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place_deploy(&mut game, "BASE-U", (2, 0), 0, BUILDER, "r1"); // seat 0
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
                                           // Seat 0: a portal cap closing the start city, its roads off the thief's road.
    play(&mut game, "PD-PORTAL-CITYCAP-CURVE-SW", (0, -1), 2);
    assert_legal(&game, deploy_action(&game, FOLLOWER, (1, 1), "f1"));
    assert!(!offers_builder_or_pig(&game), "{:?}", legal(&game));
    let fairy = |xy: Xy, feature: &str| Action::MoveFairy {
        pos: pos(xy),
        feature: Some(local(&game, xy, feature)),
    };
    assert_legal(&game, fairy((1, 0), "r1"));
    assert_not_legal(&game, fairy((2, 0), "r1"));
}

/// TB6, PD8, PD9 (seed 000): the princess removes a knight, normal or big, and the
/// builder beside him goes back with him; the princess never removes the builder.
#[test]
fn tb6_pd9_builder_goes_back_with_the_knight() {
    for knight in [FOLLOWER, BIG] {
        let mut game = tb_game_with(&[TileSet::PrincessDragon, TileSet::InnsCathedrals]);
        // Seat 0: a pennant band north of the start city, knight.
        place_deploy(&mut game, "BASE-F", (0, -1), 1, knight, "c1");
        place(&mut game, "BASE-U", (1, 0), 0); // seat 1
                                               // Seat 0: another band north: his builder.
        place_deploy(&mut game, "BASE-F", (0, -2), 1, BUILDER, "c1");
        // Seat 1: the princess corner joins the city.
        play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -3), 2);
        let princess = |xy: Xy| Action::Princess {
            pos: pos(xy),
            feature: local(&game, xy, "c1"),
        };
        let (builder, knight_there) = (princess((0, -2)), princess((0, -1)));
        assert_not_legal(&game, builder);
        apply(&mut game, knight_there);
        let full = if knight == BIG { 1 } else { 7 };
        assert_eq!(game.supply(0, knight), full, "the knight went back");
        assert_eq!(game.supply(0, BUILDER), 1, "{knight:?}");
        assert!(game.board_figures().is_empty());
        let back = game.figure_returns().last().unwrap();
        assert_eq!(
            (back.figure, back.cause),
            (BUILDER, ReturnCause::Unaccompanied)
        );
    }
}

/// TB6, PD7 (seed 003): the dragon eats the big follower, the pig, a follower and the
/// builder.
#[test]
fn tb6_pd7_dragon_eats_big_follower_builder_and_pig() {
    let mut game = tb_game_with(&[TileSet::PrincessDragon, TileSet::InnsCathedrals]);
    place_deploy(&mut game, "BASE-U", (1, 0), 0, BIG, "f2"); // seat 0: big farmer
    place(&mut game, "PD-VOLCANO-CURVE", (-1, 0), 2); // seat 1: the dragon lands
    place_deploy(&mut game, "BASE-U", (2, 0), 0, PIG, "f2"); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place_follower(&mut game, "BASE-U", (3, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
    place_deploy(&mut game, "BASE-U", (4, 0), 0, BUILDER, "r1"); // seat 0
    assert_eq!(game.board_figures().len(), 4);
    place(&mut game, "PD-DRAGON-STRAIGHT", (5, 0), 0); // seat 1
    for xy in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)] {
        apply(&mut game, Action::MoveDragon { pos: pos(xy) });
    }
    assert!(game.board_figures().is_empty());
    for figure in [BIG, PIG, BUILDER] {
        assert_eq!(game.supply(0, figure), 1, "{figure:?}");
    }
    assert_eq!(game.supply(0, FOLLOWER), 7);
}

/// TB4, PD16b (seed 003): the fairy's point comes once for both parts of a turn with an
/// extra turn.
#[test]
fn tb4_pd16b_fairy_point_once_in_a_double_turn() {
    let mut game = tb_game_with(&[TileSet::PrincessDragon]);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
    place(&mut game, "BASE-B", (0, 1), 0); // seat 1
    place_deploy(&mut game, "BASE-U", (2, 0), 0, BUILDER, "r1"); // seat 0
    place(&mut game, "BASE-B", (1, 1), 0); // seat 1
                                           // Seat 0: a monastery off the road; the fairy next to his thief.
    play(&mut game, "BASE-B", (-1, 1), 0);
    let fairy = Action::MoveFairy {
        pos: pos((1, 0)),
        feature: Some(local(&game, (1, 0), "r1")),
    };
    apply(&mut game, fairy);
    let since = game.events().len();
    place(&mut game, "BASE-B", (2, 1), 0); // seat 1
    place(&mut game, "BASE-U", (3, 0), 0); // seat 0: the builder's road
    assert!(game.turns().last().unwrap().extra_turn);
    place(&mut game, "BASE-U", (4, 0), 0); // seat 0's extra turn
    assert_eq!(game.turn_player(), 1);
    assert_eq!(scored(&game, since, ScoreKind::FairyTurn), vec![(0, 1)]);
}

/// PD1 with TB3 (switch `volcano_specials`): a builder goes on a volcano tile only when
/// the switch allows it; a follower never.
#[test]
fn pd1_volcano_specials_switch() {
    for (specials, builder) in [
        (VolcanoSpecials::Forbidden, false),
        (VolcanoSpecials::Allowed, true),
    ] {
        let mut config = config(
            2,
            &[
                TileSet::Base,
                TileSet::PrincessDragon,
                TileSet::TradersBuilders,
            ],
        );
        config.rules.volcano_specials = specials;
        let mut game = start(config);
        place_follower(&mut game, "BASE-U", (1, 0), 0, "r1"); // seat 0
        place(&mut game, "BASE-B", (0, 1), 0); // seat 1
        play(&mut game, "PD-VOLCANO-STRAIGHT", (2, 0), 0); // seat 0
        let road = local(&game, (2, 0), "r1");
        let on_volcano = |figure| Action::Deploy {
            figure,
            pos: pos((2, 0)),
            feature: road,
        };
        assert_eq!(game.is_legal(on_volcano(BUILDER)), builder, "{specials:?}");
        assert!(!game.is_legal(on_volcano(FOLLOWER)));
    }
}

/// TB3, TB5: at most one builder and one pig per player, and none without the set; the
/// error names the field.
#[test]
fn tb3_tb5_figures_checked() {
    let mut two = config(2, &TB);
    two.figures.pig = 2;
    let err = Game::new(two).expect_err("two pigs");
    assert!(err.to_string().contains("figures.pig"), "{err}");
    let mut without = config(2, &[TileSet::Base]);
    without.figures.builder = 1;
    let err = Game::new(without).expect_err("a builder without the set");
    assert!(err.to_string().contains("traders-and-builders"), "{err}");
}

// ----- the extra turn and the bazaar (§8) ------------------------------------------------------

/// §8 steps 13–14, TB4, BZ1, BZ2: when a builder's extra turn and a bazaar fall in the same
/// turn, the bazaar comes after the whole turn, whichever part placed the bazaar tile, and
/// once when both did. In [`builder_position_in`] seat 0 adds to his builder's road at
/// (3, 0) (the bazaar with two roads turned west–east, or a straight road), then in his
/// extra turn places a monastery at (1, 1) or continues the road with a bazaar at (4, 0)
/// (the one with an inn, a plain road without Inns & Cathedrals, when both parts show one).
/// Only then are two tiles (one per player) laid out, and seat 1 picks first.
#[test]
fn tb4_bz1_the_bazaar_waits_for_the_extra_turn() {
    let cases = [
        ("BCB-BAZAAR-2ROADS", ("BASE-B", (1, 1), 0)),
        ("BASE-U", ("BCB-BAZAAR-2ROADS", (4, 0), 1)),
        ("BCB-BAZAAR-2ROADS", ("BCB-BAZAAR-2ROADS-INN", (4, 0), 1)),
    ];
    for (first, (second, xy, r)) in cases {
        let case = format!("{first} then {second}");
        let game = tb_game_with(&[TileSet::BridgesCastlesBazaars]);
        let mut game = builder_position_in(game);
        let tiles = game.tiles_left();
        let r_first = if first == "BASE-U" { 0 } else { 1 };
        place(&mut game, first, (3, 0), r_first);
        // TB4: the extra turn comes at once, before any bazaar.
        assert_eq!(
            (game.phase(), game.turn_player()),
            (Phase::Draw, 0),
            "{case}"
        );
        assert!(game.turns().last().unwrap().extra_turn, "{case}");
        assert!(game.bazaar_offer().is_empty(), "{case}: no bazaar yet");
        assert_eq!(game.tiles_left(), tiles - 1, "{case}: no tile laid out");
        place(&mut game, second, xy, r);
        // BZ1: the bazaar after the whole turn: still seat 0's turn, one tile per player.
        assert_eq!(
            (game.phase(), game.turn_player()),
            (Phase::Draw, 0),
            "{case}"
        );
        assert!(game.placed_this_turn().is_some(), "{case}");
        for id in ["BASE-E", "BASE-K"] {
            apply(&mut game, Action::Draw { tile: tile(id) });
        }
        assert_eq!(game.tiles_left(), tiles - 4, "{case}");
        let offer = [Some(tile("BASE-E")), Some(tile("BASE-K"))];
        assert_eq!(game.bazaar_offer(), offer.as_slice(), "{case}");
        // The record's bazaar goes with the extra turn's entry.
        let last = game.turns().len() - 1;
        assert!(game.turns()[last].extra_turn, "{case}");
        assert_eq!(
            game.bazaar_offer_of_turn(last),
            &[tile("BASE-E"), tile("BASE-K")],
            "{case}"
        );
        assert!(game.bazaar_offer_of_turn(last - 1).is_empty(), "{case}");
        // BZ2: the player after the bazaar player picks first; one bazaar only.
        assert_eq!(
            (game.phase(), game.to_play()),
            (Phase::BazaarSelect, 1),
            "{case}"
        );
        assert_eq!(game.bazaar_log().len(), 2, "{case}");
    }
}
