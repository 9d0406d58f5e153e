//! Rule-by-rule scenarios of the Count of Carcassonne (CC1–CC9 of `docs/rules.md`), with the
//! base game, and with The Princess & the Dragon, Abbey & Mayor and the River where a rule
//! names them.
//!
//! The City of Carcassonne lies at `x` = −2..1, `y` = −1..1 (CC1). Its outer sides, as the
//! catalogue draws them: roads leave `COUNT-01` (−2, −1) westwards, `COUNT-04` (1, −1)
//! northwards and `COUNT-11` (0, 1) southwards; city caps open on the south of `COUNT-09`
//! (−2, 1) and on the east of `COUNT-12` (1, 1); every other outer side is field. Its
//! landscape fields are three: north of the City (between the west and north roads),
//! east (between the north and south roads, touching the cap of `COUNT-12`) and
//! south-west (between the south and west roads, touching the cap of `COUNT-09`).
//!
//! The openings below put figures into the quarters by CC3: a road leaving the City
//! (`COUNT-11` southwards, `COUNT-01` westwards) with one player's thief is closed by a
//! T-junction of the other player, who scored nothing and may enter. Junctions keep the
//! fields on either side of a road apart.

mod common;

use carcassonne::config::{CountFinal, CountLandscape};
use carcassonne::rules::count::{Quarter, QuarterStep};
use carcassonne::tiles::Symbols;
use carcassonne::{Action, Corner, Figure, Game, Phase, Pos, RuleSwitches, ScoreKind, TileSet};
use common::*;
use std::collections::BTreeSet;

const FOLLOWER: Figure = Figure::Follower;
const COUNT: [TileSet; 2] = [TileSet::Base, TileSet::Count];

fn count_game(players: u8) -> Game {
    start(config(players, &COUNT))
}

fn count_game_with(players: u8, rules: RuleSwitches) -> Game {
    let mut config = config(players, &COUNT);
    config.rules = rules;
    start(config)
}

fn enter(figure: Figure, quarter: Quarter) -> Action {
    Action::DeployQuarter { figure, quarter }
}

fn count_to(quarter: Quarter) -> Action {
    Action::MoveCount { quarter }
}

fn quarter_pass(step: QuarterStep) -> Action {
    Action::QuarterPass { step }
}

fn leave(
    game: &Game,
    step: QuarterStep,
    quarter: Quarter,
    figure: Figure,
    xy: Xy,
    feature: &str,
) -> Action {
    Action::LeaveQuarter {
        step,
        quarter,
        figure,
        pos: pos(xy),
        feature: local(game, xy, feature),
    }
}

/// The legal actions as a set (for comparisons where the order does not matter).
fn legal_set(game: &Game) -> BTreeSet<String> {
    legal(game).iter().map(|a| format!("{a:?}")).collect()
}

fn set_of(actions: &[Action]) -> BTreeSet<String> {
    actions.iter().map(|a| format!("{a:?}")).collect()
}

/// The squares west of the City's east side: the zone the tests keep for themselves;
/// [`finish_game`] plays the rest of the pile east of it (`x` ≥ 2), where only the City's
/// east field and the cap of `COUNT-12` can be reached.
fn east(p: Pos) -> bool {
    p.x >= 2
}

/// The road leaving the City southwards: seat `thief` puts a thief on a straight at
/// (0, 2) in his turn.
fn south_road(game: &mut Game) {
    place_follower(game, "BASE-U", (0, 2), 1, "r1");
}

/// The junction that closes the south road at (0, 3): the road is `COUNT-11`, (0, 2) and
/// (0, 3), 3 points for the thief.
fn close_south_road(game: &mut Game) {
    place(game, "BASE-W", (0, 3), 2);
}

/// The road leaving the City westwards: a thief on a straight at (−3, −1).
fn west_road(game: &mut Game) {
    place_follower(game, "BASE-U", (-3, -1), 0, "r1");
}

/// The junction that closes the west road at (−4, −1): `COUNT-01`, (−3, −1), (−4, −1),
/// 3 points for the thief.
fn close_west_road(game: &mut Game) {
    place(game, "BASE-W", (-4, -1), 0);
}

/// The decision after a CC3 entry: put `figure` into `quarter`, then move the count to
/// `count` (or leave it).
#[track_caller]
fn enter_city(game: &mut Game, figure: Figure, quarter: Quarter, count: Option<Quarter>) {
    assert_eq!(game.phase(), Phase::EnterQuarter);
    apply(game, enter(figure, quarter));
    assert_eq!(game.phase(), Phase::MoveCount);
    match count {
        Some(q) => apply(game, count_to(q)),
        None => apply(game, quarter_pass(QuarterStep::Count)),
    }
}

// ----- the City (CC1, CC2, CC9) ------------------------------------------------------------

/// CC1: the twelve squares replace the start tile, in a block of 4 columns by 3 rows,
/// all at rotation 0, `COUNT-01`..`04` in the north row; they are never drawn; the count
/// starts in the castle quarter. B4 around the block: a city cap (`BASE-E`) fits against
/// the field sides in three rotations, against the two city caps in one, never against
/// the three roads: 29 placements, worked out side by side below.
#[test]
fn cc1_city_squares_replace_the_start_tile() {
    let mut game = count_game(2);
    assert_eq!(game.board().len(), 12);
    for n in 1..=12i32 {
        let xy = ((n - 1) % 4 - 2, (n - 1) / 4 - 1);
        let p = game.board().at(pos(xy)).expect("a square of the City");
        assert_eq!(p.kind.id(), format!("COUNT-{n:02}"), "at {xy:?}");
        assert_eq!(p.rot.quarter_turns(), 0);
    }
    assert_eq!(game.board().at(pos((0, 0))).unwrap().kind.id(), "COUNT-07");
    assert_eq!(
        game.board().at(pos((-2, -1))).unwrap().kind.id(),
        "COUNT-01"
    );
    assert_eq!(game.board().at(pos((1, 1))).unwrap().kind.id(), "COUNT-12");
    assert_eq!(game.count_quarter(), Some(Quarter::Castle));
    assert!(game.quarter_figures().is_empty());
    // Never drawn.
    assert!(game
        .chance_outcomes()
        .iter()
        .all(|(k, _)| k.def().set != TileSet::Count));

    draw(&mut game, "BASE-E");
    let placements: BTreeSet<(i32, i32, u8)> = legal(&game)
        .iter()
        .map(|a| match a {
            Action::PlaceTile {
                pos,
                rot,
                bridge: None,
            } => (pos.x, pos.y, rot.quarter_turns()),
            other => panic!("{other} while placing"),
        })
        .collect();
    // BASE-E: the city on the north side at rotation 0, east at 1, south at 2, west at 3.
    let mut expected = BTreeSet::new();
    let mut add = |x: i32, y: i32, rots: &[u8]| {
        for &r in rots {
            expected.insert((x, y, r));
        }
    };
    // North row: the squares' north sides are field (a road at COUNT-04).
    add(-2, -2, &[0, 1, 3]);
    add(-1, -2, &[0, 1, 3]);
    add(0, -2, &[0, 1, 3]);
    // West column: a road at COUNT-01, field at COUNT-05 and COUNT-09.
    add(-3, 0, &[0, 2, 3]);
    add(-3, 1, &[0, 2, 3]);
    // South row: city at COUNT-09, field at COUNT-10, road at COUNT-11, field at COUNT-12.
    add(-2, 2, &[0]);
    add(-1, 2, &[1, 2, 3]);
    add(1, 2, &[1, 2, 3]);
    // East column: field at COUNT-04 and COUNT-08, city at COUNT-12.
    add(2, -1, &[0, 1, 2]);
    add(2, 0, &[0, 1, 2]);
    add(2, 1, &[3]);
    assert_eq!(expected.len(), 29);
    assert_eq!(placements, expected);
}

/// CC2: the walled city is no city feature, but a field with a part on the squares counts
/// it as one completed city. Seat 0's farmer stands in the south-west field of the City
/// (joined at (−3, 0)); seat 1 closes the cap of `COUNT-09` with a cap of his own (a city
/// of 2 tiles, no figure: nobody scores). At the end the field touches 2 completed cities,
/// that one and the City: 2 × 3 = 6 points.
#[test]
fn cc2_the_city_is_one_completed_city_for_its_fields() {
    let mut game = count_game(2);
    place_follower(&mut game, "BASE-B", (-3, 0), 0, "f1"); // seat 0
    place(&mut game, "BASE-E", (-2, 2), 0); // seat 1
    assert_eq!(game.scores(), &[0, 0]);
    let since = game.events().len();
    finish_game(&mut game, east);
    assert_eq!(points_since(&game, since), vec![(0, 6, ScoreKind::Farmers)]);
    assert_eq!(game.scores(), &[6, 0]);
}

/// CC9: with the River the City is laid out first, then the river, then the rest. The
/// spring is a second start tile at (2, −1), rotation 0, against `COUNT-04`'s east side;
/// River I's tiles come first (its lake last), with River II its fork first.
#[test]
fn cc9_the_river_flows_from_beside_the_city() {
    let river1 = [TileSet::Base, TileSet::Count, TileSet::River1];
    let mut game = start(config(2, &river1));
    assert_eq!(game.board().len(), 13);
    let spring = game.board().at(pos((2, -1))).expect("the spring");
    assert_eq!(
        (spring.kind.id(), spring.rot.quarter_turns()),
        ("RIV1-SPRING", 0)
    );
    let outcomes = game.chance_outcomes();
    assert!(!outcomes.is_empty());
    for (kind, _) in &outcomes {
        assert!(kind.def().has(Symbols::RIVER), "{} drawn first", kind.id());
        assert_ne!(kind.id(), "RIV1-LAKE", "the lake comes last (R1)");
    }
    place(&mut game, "RIV1-STRAIGHT", (3, -1), 0);

    let river2 = [TileSet::Base, TileSet::Count, TileSet::River2];
    let mut game = start(config(2, &river2));
    let spring = game.board().at(pos((2, -1))).expect("the spring");
    assert_eq!(spring.kind.id(), "RIV2-SPRING");
    let outcomes: Vec<_> = game
        .chance_outcomes()
        .iter()
        .map(|(k, _)| k.id().to_string())
        .collect();
    assert_eq!(outcomes, vec!["RIV2-FORK"]);
    place(&mut game, "RIV2-FORK", (3, -1), 0);
}

// ----- into the City (CC3, CC7) --------------------------------------------------------------

/// CC3: seat 1 closes the road of seat 0's thief (3 points for seat 0 only) and scores
/// nothing himself: he may put a figure from his supply into any quarter (the market
/// with farmers), then move the count to another quarter. A turn in which he scores
/// himself as well gives no entry.
#[test]
fn cc3_enter_the_city_when_only_others_scored() {
    let mut game = count_game(2);
    south_road(&mut game); // seat 0
    close_south_road(&mut game); // seat 1
    assert_eq!(game.scores(), &[3, 0]);
    assert_eq!(game.phase(), Phase::EnterQuarter);
    assert_eq!(game.to_play(), 1);
    let mut expected: Vec<Action> = Quarter::ALL.map(|q| enter(FOLLOWER, q)).to_vec();
    expected.push(quarter_pass(QuarterStep::Deploy));
    assert_eq!(legal_set(&game), set_of(&expected));
    apply(&mut game, enter(FOLLOWER, Quarter::Market));
    assert_eq!(game.supply(1, FOLLOWER), 6);
    assert_eq!(game.quarter_figures(), &[(Quarter::Market, 1, FOLLOWER)]);
    // The count, in the castle, may go to any other quarter.
    assert_eq!(game.phase(), Phase::MoveCount);
    let expected = [
        count_to(Quarter::Blacksmith),
        count_to(Quarter::Cathedral),
        count_to(Quarter::Market),
        quarter_pass(QuarterStep::Count),
    ];
    assert_eq!(legal_set(&game), set_of(&expected));
    apply(&mut game, count_to(Quarter::Blacksmith));
    assert_eq!(game.count_quarter(), Some(Quarter::Blacksmith));
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));

    // Seat 0 has a thief on the west road, seat 1 one on a road that ends at a monastery
    // at (−4, −2); seat 1's curve at (−4, −1) joins them into one closed road of 4 tiles
    // (COUNT-01, (−3, −1), (−4, −1), (−4, −2)): both score 4, seat 1 included, so he may
    // not enter.
    west_road(&mut game); // seat 0
    place(&mut game, "BASE-B", (-3, -2), 0); // seat 1
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 0
    place_follower(&mut game, "BASE-A", (-4, -2), 0, "r1"); // seat 1
    place(&mut game, "BASE-B", (1, 2), 0); // seat 0
    let since = game.events().len();
    place(&mut game, "BASE-V", (-4, -1), 2); // seat 1: curve north–east
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 4, ScoreKind::Road), (1, 4, ScoreKind::Road)]
    );
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 0));
    assert_eq!(game.quarter_figures().len(), 1);
}

/// CC3: without farmers the market quarter is not used.
#[test]
fn cc3_no_market_without_farmers() {
    let mut game = count_game_with(
        2,
        RuleSwitches {
            farmers: false,
            ..RuleSwitches::default()
        },
    );
    south_road(&mut game);
    close_south_road(&mut game);
    assert_eq!(game.phase(), Phase::EnterQuarter);
    let expected = [
        enter(FOLLOWER, Quarter::Castle),
        enter(FOLLOWER, Quarter::Blacksmith),
        enter(FOLLOWER, Quarter::Cathedral),
        quarter_pass(QuarterStep::Deploy),
    ];
    assert_eq!(legal_set(&game), set_of(&expected));
}

/// CC7: followers may enter every quarter; the mayor only the castle, the wagon every
/// quarter but the market, the abbot only the cathedral; the barn never.
#[test]
fn cc7_which_figures_enter_which_quarters() {
    let sets = [TileSet::Base, TileSet::Count, TileSet::AbbeyMayor];
    let mut config = config(2, &sets);
    config.figures.abbot = 1;
    let mut game = start(config);
    south_road(&mut game);
    close_south_road(&mut game);
    assert_eq!(game.phase(), Phase::EnterQuarter);
    assert_eq!(game.supply(1, Figure::Barn), 1);
    let expected = [
        enter(FOLLOWER, Quarter::Castle),
        enter(FOLLOWER, Quarter::Blacksmith),
        enter(FOLLOWER, Quarter::Cathedral),
        enter(FOLLOWER, Quarter::Market),
        enter(Figure::Abbot, Quarter::Cathedral),
        enter(Figure::Mayor, Quarter::Castle),
        enter(Figure::Wagon, Quarter::Castle),
        enter(Figure::Wagon, Quarter::Blacksmith),
        enter(Figure::Wagon, Quarter::Cathedral),
        quarter_pass(QuarterStep::Deploy),
    ];
    assert_eq!(legal_set(&game), set_of(&expected));
    apply(&mut game, enter(Figure::Mayor, Quarter::Castle));
    assert_eq!(game.supply(1, Figure::Mayor), 0);
    assert_eq!(
        game.quarter_figures(),
        &[(Quarter::Castle, 1, Figure::Mayor)]
    );
}

// ----- out of the City (CC4, CC5) ------------------------------------------------------------

/// CC4: before a completed feature scores, every player from the one after the turn
/// player (the turn player last) may move figures from the matching quarter into it, one
/// at a time; they count for the majority and return after the scoring.
///
/// Three players: seat 2 and seat 1 each enter the castle quarter (the count goes to the
/// market). Seat 0 then closes the cap of `COUNT-09` with his knight (a city of 2 tiles,
/// 4 points): seat 1 is asked first and moves in, seat 2 is asked next and declines. Seat
/// 0 and seat 1 have one figure each: both score 4; seat 0, who scored, may not enter.
#[test]
fn cc4_figures_leave_the_city_for_a_feature_about_to_score() {
    let mut game = count_game(3);
    south_road(&mut game); // seat 0
    west_road(&mut game); // seat 1
    close_west_road(&mut game); // seat 2: 3 for seat 1
    enter_city(&mut game, FOLLOWER, Quarter::Castle, Some(Quarter::Market));
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 0
    close_south_road(&mut game); // seat 1: 3 for seat 0
    enter_city(&mut game, FOLLOWER, Quarter::Castle, None);
    place(&mut game, "BASE-B", (1, 2), 0); // seat 2
    assert_eq!(game.scores(), &[3, 3, 0]);

    let since = game.events().len();
    place_follower(&mut game, "BASE-E", (-2, 2), 0, "c1"); // seat 0
    let target = |g: &Game| {
        leave(
            g,
            QuarterStep::BeforeScoring,
            Quarter::Castle,
            FOLLOWER,
            (-2, 2),
            "c1",
        )
    };
    assert_eq!(game.phase(), Phase::LeaveQuarter);
    assert_eq!(game.to_play(), 1);
    let expected = [target(&game), quarter_pass(QuarterStep::BeforeScoring)];
    assert_eq!(legal_set(&game), set_of(&expected));
    let action = target(&game);
    apply(&mut game, action);
    // Seat 1 has nothing more in the City; seat 2 is asked.
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 2));
    assert_legal(&game, target(&game));
    apply(&mut game, quarter_pass(QuarterStep::BeforeScoring));
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 4, ScoreKind::City), (1, 4, ScoreKind::City)]
    );
    assert_eq!(game.scores(), &[7, 7, 0]);
    assert_eq!(
        game.supply(1, FOLLOWER),
        7,
        "back to the supply after scoring"
    );
    assert_eq!(game.supply(0, FOLLOWER), 7);
    assert_eq!(game.quarter_figures(), &[(Quarter::Castle, 2, FOLLOWER)]);
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
}

/// CC4 with Abbey & Mayor: the market leads only into a field that a barn scores this
/// turn: the field of a barn placed this turn (AM7), or a barn's field joined this turn to
/// a field holding farmers (AM8); not a barn's field that a tile merely extends.
///
/// Two players. Seat 1 enters the market (the count stays in the castle) and seat 0 puts
/// a farmer into the south-west field at (−3, 0). Four monasteries north of the City make
/// a 2×2 block in its north field, where seat 0 puts his barn (AM7): seat 1 may move his
/// market follower there, and declines. Seat 1's city cap at (0, −2) then extends the
/// barn's field, with no farmer: nobody is asked. Seat 0's monastery with road at (−3, −1)
/// ends the City's west road, joining the south-west field to the barn's: seat 1 moves in
/// and ties seat 0's farmer, 1 point each for the City, a completed city of the field (CC2).
#[test]
fn cc4_am7_am8_the_market_leads_only_into_a_field_a_barn_scores() {
    let sets = [TileSet::Base, TileSet::Count, TileSet::AbbeyMayor];
    let mut game = start(config(2, &sets));
    south_road(&mut game); // seat 0
    close_south_road(&mut game); // seat 1: 3 for seat 0
    enter_city(&mut game, FOLLOWER, Quarter::Market, None);
    place_follower(&mut game, "BASE-E", (-3, 0), 3, "f1"); // seat 0: the farmer
    place(&mut game, "BASE-B", (-2, -2), 0); // seat 1
    place(&mut game, "BASE-B", (-1, -2), 0); // seat 0
    place(&mut game, "BASE-B", (-2, -3), 0); // seat 1
    play(&mut game, "BASE-B", (-1, -3), 0); // seat 0
    apply(
        &mut game,
        Action::DeployBarn {
            pos: pos((-1, -3)),
            corner: Corner::SW,
        },
    );
    let into_barn_field = |g: &Game, xy: Xy| {
        leave(
            g,
            QuarterStep::BeforeScoring,
            Quarter::Market,
            FOLLOWER,
            xy,
            "f1",
        )
    };
    // The field is named by its first tile outside the City (any part of it is accepted).
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
    let expected = [
        into_barn_field(&game, (-2, -2)),
        quarter_pass(QuarterStep::BeforeScoring),
    ];
    assert_eq!(legal_set(&game), set_of(&expected));
    assert!(game.is_legal(into_barn_field(&game, (-1, -3))));
    apply(&mut game, quarter_pass(QuarterStep::BeforeScoring));
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));

    place(&mut game, "BASE-E", (0, -2), 0); // seat 1: extends the barn's field
    assert_eq!(
        (game.phase(), game.turn_player()),
        (Phase::Draw, 0),
        "no move out of the market: the field does not score"
    );
    assert_eq!(game.quarter_figures(), &[(Quarter::Market, 1, FOLLOWER)]);

    let since = game.events().len();
    play(&mut game, "BASE-A", (-3, -1), 3); // seat 0: joins the farmer's field
    finish_turn(&mut game);
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
    let action = into_barn_field(&game, (-3, -1));
    assert!(game.is_legal(action));
    apply(&mut game, action);
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![
            (0, 1, ScoreKind::BarnConnected),
            (1, 1, ScoreKind::BarnConnected)
        ]
    );
    assert!(game.quarter_figures().is_empty());
}

/// CC5: no figure leaves the quarter where the count stands. Seat 1 enters the castle
/// quarter and leaves the count there: when seat 0 completes a city he is not asked. Once
/// seat 0 has moved the count away, seat 1's figure may leave for the next city.
#[test]
fn cc5_no_figure_leaves_the_counts_quarter() {
    let mut game = count_game(2);
    south_road(&mut game); // seat 0
    close_south_road(&mut game); // seat 1: 3 for seat 0
    enter_city(&mut game, FOLLOWER, Quarter::Castle, None);
    assert_eq!(game.count_quarter(), Some(Quarter::Castle));

    place_follower(&mut game, "BASE-E", (-2, 2), 0, "c1"); // seat 0: 4
    assert_eq!((game.phase(), game.turn_player()), (Phase::Draw, 1));
    assert_eq!(game.scores(), &[7, 0]);
    assert!(!game
        .history_actions()
        .iter()
        .any(|d| matches!(d.action, Action::LeaveQuarter { .. })));

    west_road(&mut game); // seat 1
    close_west_road(&mut game); // seat 0: 3 for seat 1
    enter_city(
        &mut game,
        FOLLOWER,
        Quarter::Market,
        Some(Quarter::Cathedral),
    );
    place(&mut game, "BASE-B", (-1, 2), 0); // seat 1
                                            // Seat 0 closes the cap of COUNT-12 with his knight (2 tiles); seat 1 moves in.
    let since = game.events().len();
    place_follower(&mut game, "BASE-E", (2, 1), 3, "c1");
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
    let action = leave(
        &game,
        QuarterStep::BeforeScoring,
        Quarter::Castle,
        FOLLOWER,
        (2, 1),
        "c1",
    );
    apply(&mut game, action);
    assert_eq!(
        sorted(points_since(&game, since)),
        vec![(0, 4, ScoreKind::City), (1, 4, ScoreKind::City)]
    );
}

// ----- the end (CC6) -------------------------------------------------------------------------

/// The opening of the end-of-game scenarios (two players): seat 0 enters `q0` (the count
/// then goes to `c0`), seat 1 enters `q1` (the count then goes to `c1`); each scored 3
/// for the other's road. Then seat 0 closes the cap of `COUNT-09` without a figure (a
/// completed city next to the south-west field) and seat 1 puts a farmer into that field
/// at (−3, 0).
fn two_in_the_city(
    rules: RuleSwitches,
    q0: Quarter,
    c0: Option<Quarter>,
    q1: Quarter,
    c1: Option<Quarter>,
) -> Game {
    let mut game = count_game_with(2, rules);
    south_road(&mut game); // seat 0
    west_road(&mut game); // seat 1
    close_west_road(&mut game); // seat 0: 3 for seat 1
    enter_city(&mut game, FOLLOWER, q0, c0);
    close_south_road(&mut game); // seat 1: 3 for seat 0
    enter_city(&mut game, FOLLOWER, q1, c1);
    place(&mut game, "BASE-E", (-2, 2), 0); // seat 0
    if q1 == Quarter::Castle && c1 != Some(Quarter::Castle) {
        // CC4: the completed city is a target although nobody stands in it; seat 1
        // declines.
        assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
        let into_empty_city = leave(
            &game,
            QuarterStep::BeforeScoring,
            Quarter::Castle,
            FOLLOWER,
            (-2, 2),
            "c1",
        );
        assert_legal(&game, into_empty_city);
        apply(&mut game, quarter_pass(QuarterStep::BeforeScoring));
    }
    place_follower(&mut game, "BASE-B", (-3, 0), 0, "f1"); // seat 1
    assert_eq!(game.scores(), &[3, 3]);
    game
}

/// The seat that placed (or discarded) the last tile.
fn last_tile_player(game: &Game) -> usize {
    game.turns()
        .iter()
        .rev()
        .find(|t| t.draw.is_some())
        .expect("a last tile")
        .player as usize
}

/// CC6 (`market-only`): after the last tile the players, from the one after the player of
/// the last tile, take turns moving one figure out of the market onto a field without a
/// barn, or passing, which puts them out. Both players have a follower in the market.
/// The first one asked moves his onto the south-west field (where seat 1 has a farmer),
/// the other passes, and the first is not asked again (he has nothing left). The field
/// touches 2 completed cities (the cap of COUNT-09 and the City, CC2): 6 points for the
/// majority. The follower still in the City scores nothing.
#[test]
fn cc6_final_moves_from_the_market() {
    let mut game = two_in_the_city(
        RuleSwitches::default(),
        Quarter::Market,
        Some(Quarter::Blacksmith),
        Quarter::Market,
        None,
    );
    play_out(&mut game, east);
    assert_eq!(game.phase(), Phase::LeaveQuarter);
    let first = (last_tile_player(&game) + 1) % 2;
    let other = 1 - first;
    assert_eq!(game.to_play(), first);
    let into_field = |g: &Game| {
        leave(
            g,
            QuarterStep::Final,
            Quarter::Market,
            FOLLOWER,
            (-3, 0),
            "f1",
        )
    };
    assert!(game.is_legal(into_field(&game)));
    assert!(legal(&game).iter().all(|a| matches!(
        a,
        Action::LeaveQuarter {
            step: QuarterStep::Final,
            quarter: Quarter::Market,
            ..
        } | Action::QuarterPass {
            step: QuarterStep::Final
        }
    )));
    let action = into_field(&game);
    apply(&mut game, action);
    assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, other));
    assert!(game.is_legal(into_field(&game)));
    let since = game.events().len();
    apply(&mut game, quarter_pass(QuarterStep::Final));
    assert!(game.is_terminal(), "nobody is left to move");
    // Seat 1's farmer and the first player's follower: a tie if the first is seat 0,
    // two against none if he is seat 1.
    let expected = if first == 0 {
        vec![(0, 6, ScoreKind::Farmers), (1, 6, ScoreKind::Farmers)]
    } else {
        vec![(1, 6, ScoreKind::Farmers)]
    };
    assert_eq!(sorted(points_since(&game, since)), expected);
    let mut scores = vec![3, 3];
    for (p, points, _) in &expected {
        scores[*p as usize] += points;
    }
    assert_eq!(game.scores(), scores.as_slice());
}

/// CC6 and CC5 at the end: seat 0 has a follower in the blacksmith, where the count
/// stands; seat 1 one in the castle. With `market-only` neither may leave: nobody is asked
/// and the game ends. With `any-quarter` seat 1 may move into an incomplete city (his cap
/// at (−1, −2), 1 point at the end) but not into the completed one, and seat 0 is never
/// asked although incomplete roads lie on the board.
#[test]
fn cc5_cc6_final_moves_by_switch() {
    for count_final in [CountFinal::MarketOnly, CountFinal::AnyQuarter] {
        let rules = RuleSwitches {
            count_final,
            ..RuleSwitches::default()
        };
        let mut game = two_in_the_city(
            rules,
            Quarter::Blacksmith,
            Some(Quarter::Blacksmith),
            Quarter::Castle,
            None,
        );
        place(&mut game, "BASE-E", (-1, -2), 0); // seat 0: an open cap
        play_out(&mut game, east);
        if count_final == CountFinal::MarketOnly {
            assert!(game.is_terminal());
            // The farmer alone: 6.
            assert_eq!(game.scores(), &[3, 9]);
            continue;
        }
        assert_eq!((game.phase(), game.to_play()), (Phase::LeaveQuarter, 1));
        let to_open = leave(
            &game,
            QuarterStep::Final,
            Quarter::Castle,
            FOLLOWER,
            (-1, -2),
            "c1",
        );
        let to_closed = leave(
            &game,
            QuarterStep::Final,
            Quarter::Castle,
            FOLLOWER,
            (-2, 2),
            "c1",
        );
        assert!(game.is_legal(to_open));
        assert!(!game.is_legal(to_closed));
        assert!(legal(&game).iter().all(|a| !matches!(
            a,
            Action::LeaveQuarter {
                quarter: Quarter::Blacksmith,
                ..
            }
        )));
        apply(&mut game, to_open);
        assert!(game.is_terminal());
        // The farmer (6) and the cap of 1 tile (1).
        assert_eq!(game.scores(), &[3, 10]);
    }
}

// ----- the landscape (CC8) ---------------------------------------------------------------------

/// CC8 and PD6: with `closed` the dragon never enters a square of the City; with `open`
/// it may enter every square but `COUNT-06` and `COUNT-07`. The volcano lies at (−3, 0),
/// west of `COUNT-05`; a dragon tile at (−3, 1) starts the flight.
#[test]
fn cc8_dragon_and_the_squares_of_the_city() {
    let sets = [TileSet::Base, TileSet::Count, TileSet::PrincessDragon];
    for landscape in [CountLandscape::Closed, CountLandscape::Open] {
        let mut config = config(2, &sets);
        config.rules.count_landscape = landscape;
        let mut game = start(config);
        place(&mut game, "PD-VOLCANO-FIELD", (-3, 0), 0); // seat 0
        assert_eq!(game.dragon(), Some(pos((-3, 0))));
        place(&mut game, "PD-DRAGON-CURVE", (-3, 1), 0); // seat 1
        assert_eq!((game.phase(), game.to_play()), (Phase::DragonFlight, 1));
        let steps: BTreeSet<(i32, i32)> = legal(&game)
            .iter()
            .map(|a| match a {
                Action::MoveDragon { pos } => (pos.x, pos.y),
                other => panic!("{other} during the flight"),
            })
            .collect();
        match landscape {
            CountLandscape::Closed => assert_eq!(steps, BTreeSet::from([(-3, 1)])),
            CountLandscape::Open => {
                assert_eq!(steps, BTreeSet::from([(-3, 1), (-2, 0)]));
                apply(&mut game, Action::MoveDragon { pos: pos((-2, 0)) });
                // From COUNT-05: COUNT-01 and COUNT-09, not COUNT-06, not back.
                let steps: BTreeSet<(i32, i32)> = legal(&game)
                    .iter()
                    .map(|a| match a {
                        Action::MoveDragon { pos } => (pos.x, pos.y),
                        other => panic!("{other} during the flight"),
                    })
                    .collect();
                assert_eq!(steps, BTreeSet::from([(-2, -1), (-2, 1)]));
            }
        }
    }
}

/// CC8 and PD12: a magic portal may lead onto the landscape of the City's squares only
/// with `open`: the cap of `COUNT-09` is a target then, and no square is with `closed`.
#[test]
fn cc8_portal_and_the_squares_of_the_city() {
    let sets = [TileSet::Base, TileSet::Count, TileSet::PrincessDragon];
    for landscape in [CountLandscape::Closed, CountLandscape::Open] {
        let mut config = config(2, &sets);
        config.rules.count_landscape = landscape;
        let mut game = start(config);
        play(&mut game, "PD-PORTAL-JUNCTION", (0, 2), 2);
        assert_eq!(game.phase(), Phase::Deploy);
        let cap = deploy_action(&game, FOLLOWER, (-2, 1), "c1");
        let on_squares = legal(&game)
            .iter()
            .filter(|a| {
                matches!(a, Action::Deploy { pos, .. }
                    if (-2..=1).contains(&pos.x) && (-1..=1).contains(&pos.y))
            })
            .count();
        match landscape {
            CountLandscape::Closed => {
                assert_eq!(on_squares, 0);
                assert_not_legal(&game, cap);
            }
            CountLandscape::Open => {
                assert_legal(&game, cap);
                // Never on the walled city's two squares.
                assert!(!legal(&game)
                    .iter()
                    .any(|a| matches!(a, Action::Deploy { pos, .. }
                    if *pos == Pos::new(-1, 0) || *pos == Pos::new(0, 0))));
            }
        }
    }
}

// ----- with Abbey & Mayor: the end-of-game abbey round (AM4) ---------------------------------

/// AM4 with CC4 and CC3: an abbey placed in the end-of-game round completes features
/// (AM3) that go through the turn's steps like any tile's, so figures in the City are
/// offered to leave for them before they score (CC4), and a player whose abbey made only
/// others score may enter the City (CC3). The per-turn state of the Count (who has been
/// asked this turn) starts afresh in each such turn.
///
/// Seeded three-player games with random choices, except that a player keeps his abbey
/// for the end round and places it there whenever he can, and enters the City whenever
/// he may; across them, some end-round abbey completes a feature whose quarter holds
/// someone's figure.
#[test]
fn am4_end_round_abbeys_offer_the_city_moves_of_any_turn() {
    let mut rng = carcassonne::Rng::new(11);
    let mut leave_offers = 0;
    let mut end_round_turns = 0;
    for seed in 0..400 {
        let mut config = config(3, &[TileSet::Base, TileSet::AbbeyMayor, TileSet::Count]);
        config.seed = seed;
        let mut game = start(config);
        while !game.is_terminal() {
            let legal = legal(&game);
            let end_round = game.in_end_round();
            if end_round && game.phase() == Phase::LeaveQuarter {
                leave_offers += legal.iter().any(|a| {
                    matches!(
                        a,
                        Action::LeaveQuarter {
                            step: QuarterStep::BeforeScoring,
                            ..
                        }
                    )
                }) as usize;
            }
            let wanted = |a: &Action| {
                matches!(a, Action::DeployQuarter { .. })
                    || (end_round && matches!(a, Action::PlaceAbbey { .. }))
            };
            let action = match legal.iter().copied().find(wanted) {
                Some(a) => a,
                // The abbey is kept for the end round.
                None if game.phase() == Phase::Abbey => Action::Pass,
                None => legal[rng.below(legal.len() as u32) as usize],
            };
            end_round_turns += (end_round && matches!(action, Action::PlaceAbbey { .. })) as usize;
            apply(&mut game, action);
        }
    }
    assert!(end_round_turns > 50, "{end_round_turns} end-round abbeys");
    assert!(
        leave_offers > 0,
        "no figure was offered to leave the City in {end_round_turns} end-round abbey turns"
    );
}
