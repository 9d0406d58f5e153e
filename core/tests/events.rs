//! The events a client animates: score events with the parts of the scored feature as it
//! was when it scored, and figures that left the board with the reason (B14, PD7, PD9,
//! A3, AM7, AM8, B15, B16), in the order they happened. Checked on rule scenarios and on
//! random games of every set.

mod common;

use carcassonne::config::{DragonMove, Figures};
use carcassonne::{
    Action, Corner, Event, Figure, FigureReturn, Game, GameConfig, Pos, ReturnCause, Rng,
    RuleSwitches, ScoreEvent, ScoreKind, TileSet,
};
use common::*;
use std::collections::HashSet;

const FOLLOWER: Figure = Figure::Follower;

/// The events of the last turn as `(score or return)` summaries.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Score(u8, i32, ScoreKind),
    Return(u8, Figure, Pos, u8, ReturnCause),
}

fn summary(e: Event<'_>) -> Seen {
    match e {
        Event::Score(s) => Seen::Score(s.player, s.points, s.kind),
        Event::FigureReturned(r) => Seen::Return(r.owner, r.figure, r.pos, r.local, r.cause),
    }
}

/// The turn before the current one (the current one has just begun).
fn previous_turn(game: &Game) -> Vec<Seen> {
    let t = game.turns().len() - 2;
    game.turn_events(t).map(summary).collect()
}

fn parts(game: &Game, e: &ScoreEvent) -> Vec<(Pos, u8)> {
    game.scored_parts()
        .parts(e.feature.expect("a scored feature"))
}

/// B12, B13, B14: the joined city of 3 tiles scores 6 for each tied player, then both
/// knights return; the event lists the city's three parts in placement order.
#[test]
fn b12_b14_city_scores_then_its_knights_return() {
    let mut game = base_game(2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place(&mut game, "BASE-U", (1, 0), 0);
    place_follower(&mut game, "BASE-E", (-1, 1), 1, "c1");
    place_follower(&mut game, "BASE-E", (1, 1), 3, "c1");
    place(&mut game, "BASE-G", (0, 1), 0);
    let c1 = |xy| (pos(xy), local(&game, xy, "c1"));
    assert_eq!(
        previous_turn(&game),
        vec![
            Seen::Score(0, 6, ScoreKind::City),
            Seen::Score(1, 6, ScoreKind::City),
            Seen::Return(
                0,
                FOLLOWER,
                c1((-1, 1)).0,
                c1((-1, 1)).1,
                ReturnCause::Scored
            ),
            Seen::Return(1, FOLLOWER, c1((1, 1)).0, c1((1, 1)).1, ReturnCause::Scored),
        ]
    );
    let city = &game.events()[0];
    assert_eq!(
        parts(&game, city),
        vec![c1((-1, 1)), c1((1, 1)), c1((0, 1))],
        "placement order: (-1, 1), (1, 1), (0, 1)"
    );
    assert_eq!(
        game.feature_kind_at(pos((0, 1)), c1((0, 1)).1),
        Some(carcassonne::tiles::FeatureKind::City)
    );
}

/// PD7: the dragon's meal is logged: the knight on the dragon's tile returns, eaten,
/// before the scoring (`before-scoring`), so the city scores for nobody.
#[test]
fn pd7_dragon_meal_is_logged() {
    let mut config = config(2, &[TileSet::Base, TileSet::PrincessDragon]);
    config.rules = RuleSwitches {
        dragon_move: DragonMove::BeforeScoring,
        ..RuleSwitches::default()
    };
    let mut game = start(config);
    place(&mut game, "PD-VOLCANO-FIELD", (0, 1), 0);
    place_follower(&mut game, "PD-DRAGON-CITYCAP-G", (0, -1), 2, "c1");
    let knight = local(&game, (0, -1), "c1");
    apply(&mut game, Action::MoveDragon { pos: pos((0, 0)) });
    apply(&mut game, Action::MoveDragon { pos: pos((0, -1)) });
    assert_eq!(
        previous_turn(&game),
        vec![Seen::Return(
            1,
            FOLLOWER,
            pos((0, -1)),
            knight,
            ReturnCause::Dragon
        )]
    );
    assert!(game.events().is_empty());
}

/// PD9: the knight removed with the princess is logged.
#[test]
fn pd9_princess_removal_is_logged() {
    let mut game = start(config(2, &[TileSet::Base, TileSet::PrincessDragon]));
    place_follower(&mut game, "BASE-F", (0, -1), 1, "c1");
    play(&mut game, "PD-PRINCESS-BIG-CORNER", (0, -2), 2);
    let knight = local(&game, (0, -1), "c1");
    apply(
        &mut game,
        Action::Princess {
            pos: pos((0, -1)),
            feature: knight,
        },
    );
    assert_eq!(
        previous_turn(&game),
        vec![Seen::Return(
            0,
            FOLLOWER,
            pos((0, -1)),
            knight,
            ReturnCause::Princess
        )]
    );
}

/// A3: the abbot taken back scores its monastery (one part), then returns.
#[test]
fn a3_abbot_taken_back_is_logged() {
    let mut config = config(2, &[TileSet::Base]);
    config.figures.abbot = 1;
    let mut game = start(config);
    place_deploy(&mut game, "BASE-B", (0, 1), 0, Figure::Abbot, "m1");
    place(&mut game, "BASE-U", (1, 0), 0);
    play(&mut game, "BASE-U", (-1, 0), 0);
    let m1 = local(&game, (0, 1), "m1");
    apply(
        &mut game,
        Action::ReturnAbbot {
            pos: pos((0, 1)),
            feature: m1,
        },
    );
    assert_eq!(
        previous_turn(&game),
        vec![
            Seen::Score(0, 4, ScoreKind::AbbotReturn),
            Seen::Return(0, Figure::Abbot, pos((0, 1)), m1, ReturnCause::AbbotTaken),
        ]
    );
    assert_eq!(parts(&game, &game.events()[0]), vec![(pos((0, 1)), m1)]);
}

/// AM7, AM8: the field scored when the barn was placed grows afterwards (another tile
/// joins it, AM8); its event still lists the parts it had when it scored.
#[test]
fn am7_am8_barn_field_parts_are_those_when_it_scored() {
    let mut game = start(config(2, &[TileSet::Base, TileSet::AbbeyMayor]));
    place_follower(&mut game, "BASE-U", (1, 0), 0, "f2");
    place(&mut game, "BASE-E", (0, 1), 2);
    place(&mut game, "BASE-U", (-1, 0), 0);
    place_follower(&mut game, "BASE-E", (0, 2), 0, "f1");
    place(&mut game, "BASE-B", (0, 3), 0);
    play(&mut game, "BASE-B", (1, 1), 0);
    apply(
        &mut game,
        Action::DeployBarn {
            pos: pos((1, 1)),
            corner: Corner::NW,
        },
    );
    let barn_event = game.events()[0];
    assert_eq!(barn_event.kind, ScoreKind::BarnPlaced);
    // The field's parts now, read from the live feature structure.
    let (at_pos, at_local) = barn_event.at.unwrap();
    let node = game.board().at(at_pos).unwrap().node_base + at_local as u16;
    let root = game.features().root(node);
    let mut then: Vec<(Pos, u8)> = game
        .features()
        .parts(root)
        .map(|id| {
            let n = game.features().node(id);
            (game.board().placement(n.placement as usize).pos, n.local)
        })
        .collect();
    then.sort_by_key(|(p, l)| (game.board().index_at(*p), *l));
    assert_eq!(parts(&game, &barn_event), then);
    assert!(previous_turn(&game).contains(&Seen::Return(
        0,
        FOLLOWER,
        pos((1, 0)),
        local(&game, (1, 0), "f2"),
        ReturnCause::Scored
    )));
    // Seat 0 extends the field; seat 1 joins its farmer's field to it (AM8).
    place(&mut game, "BASE-B", (-1, 1), 0);
    place(&mut game, "BASE-B", (1, 2), 0);
    assert_eq!(game.events()[1].kind, ScoreKind::BarnConnected);
    let grown = parts(&game, &game.events()[1]);
    assert!(grown.len() > then.len(), "the joined field is larger");
    assert!(then.iter().all(|p| grown.contains(p)));
    assert_eq!(
        parts(&game, &barn_event),
        then,
        "the barn's event is unchanged"
    );
}

/// B15, B16: the final scoring's events come after the last turn; the figures left on
/// the board return with the cause `final-scoring`.
#[test]
fn b15_b16_final_events_follow_the_last_turn() {
    let mut game = base_game(2);
    place_follower(&mut game, "BASE-U", (1, 0), 0, "r1");
    place_follower(&mut game, "BASE-E", (0, 1), 2, "f1");
    finish_game(&mut game, north_of_start);
    let finals: Vec<Seen> = game.final_events().map(summary).collect();
    let returns: Vec<&Seen> = finals
        .iter()
        .filter(|s| matches!(s, Seen::Return(..)))
        .collect();
    assert_eq!(returns.len(), 2);
    assert!(returns
        .iter()
        .all(|s| matches!(s, Seen::Return(_, _, _, _, ReturnCause::FinalScoring))));
    assert!(finals.contains(&Seen::Score(0, 2, ScoreKind::Incomplete)));
    let last = game.turns().last().unwrap();
    let added: i32 = game
        .final_events()
        .filter_map(|e| match e {
            Event::Score(s) => Some(s.points),
            _ => None,
        })
        .sum();
    assert_eq!(
        added,
        game.scores().iter().sum::<i32>() - last.scores[..2].iter().sum::<i32>()
    );
}

// ----- random games -----------------------------------------------------------------

/// Points of a scored feature recomputed from its parts and the catalogue (B12, B15):
/// `None` when the kind's value depends on more than the parts (fields, fairy).
fn value_from_parts(game: &Game, e: &ScoreEvent, parts: &[(Pos, u8)]) -> Option<i32> {
    let tiles = parts.iter().map(|(p, _)| *p).collect::<HashSet<_>>().len() as i32;
    // (A bridge, the part after a tile's own features, has no pennant.)
    let pennants: i32 = parts
        .iter()
        .map(|(p, l)| {
            let def = game.board().at(*p).unwrap().kind.def();
            def.features
                .get(*l as usize)
                .map_or(0, |f| f.pennants as i32)
        })
        .sum();
    let kind = game.feature_kind_at(parts[0].0, parts[0].1)?;
    use carcassonne::tiles::FeatureKind as K;
    // IC2, IC3: with Inns & Cathedrals, a road with an inn part and a city with a
    // cathedral part have values of their own.
    let any_part = |flag: fn(&carcassonne::tiles::FeatureDef) -> bool| {
        game.has_set(TileSet::InnsCathedrals)
            && parts.iter().any(|(p, l)| {
                let def = game.board().at(*p).unwrap().kind.def();
                def.features.get(*l as usize).is_some_and(flag)
            })
    };
    match (e.kind, kind) {
        (ScoreKind::Road, K::Road) if any_part(|f| f.inn) => Some(2 * tiles),
        (ScoreKind::City, K::City) if any_part(|f| f.cathedral) => Some(3 * (tiles + pennants)),
        (ScoreKind::Incomplete, K::Road) if any_part(|f| f.inn) => Some(0),
        (ScoreKind::Incomplete, K::City) if any_part(|f| f.cathedral) => Some(0),
        (ScoreKind::City, K::City) if tiles == 2 && game.rules().tiny_city == 2 => {
            Some(tiles + pennants)
        }
        (ScoreKind::City, K::City) => Some(2 * tiles + 2 * pennants),
        (ScoreKind::Road, K::Road) => Some(tiles),
        // HS5: 3 more per vineyard tile around a completed monastery.
        (ScoreKind::Monastery, K::Monastery) if game.has_set(TileSet::HillsSheep) => {
            let vineyards = parts[0]
                .0
                .surrounding()
                .iter()
                .filter(|q| {
                    game.board()
                        .at(**q)
                        .is_some_and(|t| t.kind.def().has(carcassonne::tiles::Symbols::VINEYARD))
                })
                .count() as i32;
            Some(9 + 3 * vineyards)
        }
        (ScoreKind::Monastery | ScoreKind::Garden, _) => Some(9),
        (ScoreKind::Incomplete, K::City) => Some(tiles + pennants),
        (ScoreKind::Incomplete, K::Road) => Some(tiles),
        _ => None,
    }
}

fn check_game(game: &Game, ctx: &str) {
    let players = game.num_players();
    // Per turn and at the end, the events add up to the score changes.
    let mut before = vec![0i32; players];
    for (t, log) in game.turns().iter().enumerate() {
        let mut sum = before.clone();
        for e in game.turn_events(t) {
            if let Event::Score(s) = e {
                sum[s.player as usize] += s.points;
            }
        }
        assert_eq!(sum, log.scores[..players], "{ctx}: turn {t}");
        before = log.scores[..players].to_vec();
    }
    for e in game.final_events() {
        if let Event::Score(s) = e {
            before[s.player as usize] += s.points;
        }
    }
    assert_eq!(before, game.scores(), "{ctx}: final scoring");
    assert_eq!(
        game.all_events().count(),
        game.events().len() + game.figure_returns().len()
    );
    // Every scored feature holds its `at` part, and its parts give its points.
    let mut scored = game.scored_parts();
    for e in game.events() {
        let Some(f) = e.feature else {
            // The fairy's turn point, the King and Robber Baron's many features, bazaar
            // payments, ransoms (TW5) and the goods majorities (TB2).
            assert!(
                matches!(
                    e.kind,
                    ScoreKind::FairyTurn
                        | ScoreKind::King
                        | ScoreKind::RobberBaron
                        | ScoreKind::BazaarBuy
                        | ScoreKind::BazaarSell
                        | ScoreKind::RansomPaid
                        | ScoreKind::RansomReceived
                        | ScoreKind::Goods
                ),
                "{ctx}: {e:?}"
            );
            continue;
        };
        let parts = scored.parts(f);
        assert!(parts.contains(&e.at.unwrap()), "{ctx}: {e:?}");
        if let Some(points) = value_from_parts(game, e, &parts) {
            assert_eq!(points, e.points, "{ctx}: {e:?} with parts {parts:?}");
        }
    }
    // Every figure put on the board (but barns) leaves it once: back to its owner, or
    // captured by a tower (TW3).
    let mut placed = vec![[0u32; Figure::ALL.len()]; players];
    for d in game.history_actions() {
        match d.action {
            Action::Deploy { figure, .. } | Action::LeaveQuarter { figure, .. } => {
                placed[d.player as usize][figure.index()] += 1
            }
            Action::MoveWagon { .. } => placed[d.player as usize][Figure::Wagon.index()] += 1,
            _ => {}
        }
    }
    let mut returned = vec![[0u32; Figure::ALL.len()]; players];
    for r in game.figure_returns() {
        let FigureReturn { owner, figure, .. } = *r;
        assert_ne!(figure, Figure::Barn, "{ctx}: a barn never leaves");
        returned[owner as usize][figure.index()] += 1;
    }
    assert_eq!(placed, returned, "{ctx}");
}

#[test]
fn random_games_events_add_up_and_parts_give_the_points() {
    let all = TileSet::ALL.to_vec();
    let configs: Vec<(Vec<TileSet>, u8, u8)> = vec![
        (vec![TileSet::Base], 2, 0),
        (vec![TileSet::Base], 4, 1),
        (vec![TileSet::Base, TileSet::PrincessDragon], 3, 0),
        (vec![TileSet::Base, TileSet::AbbeyMayor], 3, 1),
        (vec![TileSet::Base, TileSet::Tower], 4, 0),
        (vec![TileSet::Base, TileSet::TradersBuilders], 3, 0),
        (all, 5, 1),
    ];
    for (sets, players, abbot) in configs {
        for seed in 0..12 {
            let mut config = GameConfig::new(players);
            config.sets = sets.clone();
            config.figures = Figures::default_for(&sets);
            config.figures.abbot = abbot;
            config.seed = seed;
            if seed % 3 == 1 {
                config.rules.tiny_city = 2;
            }
            let mut game = Game::new(config).unwrap();
            let mut rng = Rng::new(seed + 100);
            let mut legal = Vec::new();
            while !game.is_terminal() {
                game.legal_actions_into(&mut legal);
                game.apply(legal[rng.below(legal.len() as u32) as usize])
                    .unwrap();
            }
            check_game(&game, &format!("{sets:?} {players}p seed {seed}"));
        }
    }
}
