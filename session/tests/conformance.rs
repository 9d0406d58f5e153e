//! Random-game conformance: thousands of seeded random games in many configurations,
//! with the engine's invariants checked after every decision (in the manner of
//! OpenSpiel's random simulation test).
//!
//! At every step of every game:
//! * a clone has the same `state_hash` and the same legal actions as the original;
//! * legal actions apply on a clone (all of them in the first games of each
//!   configuration, a sample elsewhere to keep the debug build fast);
//! * actions that are not legal (a tile far from the board, a feature that does not
//!   exist, a draw of a tile not in the pile, ...) are refused and leave the state
//!   unchanged;
//! * figures are conserved: supply + board = the configured number, per player and kind;
//! * scores never decrease;
//! * the dragon never stands on the fairy's tile; a flight never enters a tile twice and
//!   takes at most 6 steps;
//! * the game ends within a bound on the number of decisions;
//! * the board's figures change by the figures an action put on the board less the
//!   figures logged as returned.
//!
//! At the end, the game's record written by `record::to_json` replays with
//! `record::replay_json` to the same final scores and state; the score events of every
//! turn, and of the final scoring, add up to its score changes, in the game and in its
//! record; every figure put on the board but barns is logged as returned once. At a
//! random decision of each game (drawn from about two per tile, so from its whole
//! length), its record is saved and loaded (`record::load_json`); the
//! loaded game, given the same decisions, writes the same record at the end: a sampled
//! game continues with the same draws.
//!
//! About 2,200 games. Run with `cargo test -p carcassonne-session --test conformance` (about 20 s
//! in a debug build on two cores; `--release` is much faster).

use carcassonne::config::{
    BarnPlacement, CountFinal, CountLandscape, DragonMove, FairyRule, HillTiebreak, PrincessRule,
    RiverLakes, VolcanoSpecials, WagonMove,
};
use carcassonne::rules::bcb::MAX_BID;
use carcassonne::rules::tower::RANSOM;
use carcassonne::{
    Action, ChanceMode, Corner, Edition, Event, Figure, Figures, Game, GameConfig, Phase, Pos, Rng,
    RuleSwitches, TileKind, TileSet,
};
use carcassonne_session::record;
use serde_json::Value;

/// Games of an ordinary configuration.
const GAMES: u64 = 80;
/// Games of each combination of several switches, and of the larger sets.
const FEW_GAMES: u64 = 40;
/// Games per configuration in which every legal action is applied on a clone at every step.
const FULL_GAMES: u64 = 3;
/// Legal actions tried on clones at each step of the other games.
const SAMPLED: usize = 2;
/// Steps of a dragon flight (PD5).
const DRAGON_STEPS: u8 = 6;

/// One configuration to play.
struct Case {
    name: String,
    config: GameConfig,
    chance: ChanceMode,
    games: u64,
}

fn case(name: &str, players: u8, sets: &[TileSet], edit: impl FnOnce(&mut GameConfig)) -> Case {
    let mut config = GameConfig::new(players);
    config.sets = sets.to_vec();
    config.figures = Figures::default_for(sets);
    edit(&mut config);
    Case {
        name: format!("{name} ({players}p)"),
        config,
        chance: ChanceMode::Sampled,
        games: GAMES,
    }
}

/// The same case with the draws decided by the test (explicit chance), fewer games.
fn explicit(mut c: Case) -> Case {
    c.chance = ChanceMode::Explicit;
    c.name.push_str(" explicit chance");
    few(c)
}

/// The same case with fewer games.
fn few(mut c: Case) -> Case {
    c.games = FEW_GAMES;
    c
}

const BASE: &[TileSet] = &[TileSet::Base];
const PD: &[TileSet] = &[TileSet::Base, TileSet::PrincessDragon];
const AM: &[TileSet] = &[TileSet::Base, TileSet::AbbeyMayor];
/// Every set key (`TileSet::ALL`): a set added to the engine joins these cases.
const ALL: &[TileSet] = &TileSet::ALL;
/// Inns & Cathedrals on the base game.
const IC: &[TileSet] = &[TileSet::Base, TileSet::InnsCathedrals];
/// Traders & Builders on the base game.
const TB: &[TileSet] = &[TileSet::Base, TileSet::TradersBuilders];
/// Hills & Sheep on the base game.
const HS: &[TileSet] = &[TileSet::Base, TileSet::HillsSheep];
/// Hills & Sheep with the Princess & the Dragon and Traders & Builders (HS6).
const HS_PD_TB: &[TileSet] = &[
    TileSet::Base,
    TileSet::PrincessDragon,
    TileSet::TradersBuilders,
    TileSet::HillsSheep,
];
/// Bridges, Castles & Bazaars on the base game.
const BCB: &[TileSet] = &[TileSet::Base, TileSet::BridgesCastlesBazaars];
/// The Count, King & Robber and the Cult on the base game.
const CKC: &[TileSet] = &[
    TileSet::Base,
    TileSet::Count,
    TileSet::KingRobber,
    TileSet::Cult,
];

/// Actions that are never legal in any state of `game` (off the board, features that do
/// not exist, tiles that are not in the pile).
fn never_legal(game: &Game) -> Vec<Action> {
    let far = Pos::new(10_000, -10_000);
    let absent = carcassonne::catalogue()
        .kinds()
        .find(|k| game.remaining_tiles()[k.index()] == 0);
    let mut v = vec![
        Action::PlaceTile {
            pos: far,
            rot: carcassonne::Rotation::new(1).unwrap(),
            bridge: None,
        },
        Action::PlaceAbbey { pos: far },
        Action::Deploy {
            figure: Figure::Follower,
            pos: Pos::new(0, 0),
            feature: 200,
        },
        Action::Deploy {
            figure: Figure::Follower,
            pos: far,
            feature: 0,
        },
        Action::DeployBarn {
            pos: far,
            corner: Corner::NE,
        },
        Action::MoveFairy {
            pos: far,
            feature: Some(0),
        },
        Action::Princess {
            pos: far,
            feature: 0,
        },
        Action::ReturnAbbot {
            pos: far,
            feature: 0,
        },
        Action::MoveDragon { pos: far },
        Action::MoveWagon {
            pos: far,
            feature: 0,
        },
    ];
    if let Some(kind) = absent {
        v.push(Action::Draw { tile: kind });
    }
    v
}

/// Figures of each kind per seat: supply plus those on the board, in the City of
/// Carcassonne and held prisoner.
fn figure_totals(game: &Game) -> Vec<[u32; Figure::ALL.len()]> {
    let mut totals = vec![[0u32; Figure::ALL.len()]; game.num_players()];
    for (p, t) in totals.iter_mut().enumerate() {
        for f in Figure::ALL {
            t[f.index()] = game.supply(p, f) as u32;
        }
    }
    for f in game.board_figures() {
        totals[f.owner as usize][f.figure.index()] += 1;
    }
    // CC2: figures in the quarters of the City of Carcassonne.
    for &(_, owner, f) in game.quarter_figures() {
        totals[owner as usize][f.index()] += 1;
    }
    // TW4: figures held prisoner by another seat.
    let n = game.num_players();
    for (holder, owner) in (0..n).flat_map(|h| (0..n).map(move |o| (h, o))) {
        for f in Figure::ALL {
            totals[owner][f.index()] += u32::from(game.prisoners(holder, owner, f));
        }
    }
    totals
}

/// The invariants that hold in every state.
fn check_state(game: &Game, config: &GameConfig, ctx: &str) {
    let expected: [u32; Figure::ALL.len()] = Figure::ALL.map(|f| config.figures.of(f) as u32);
    for (p, t) in figure_totals(game).iter().enumerate() {
        assert_eq!(*t, expected, "{ctx}: figures of seat {p} not conserved");
    }
    for p in 0..game.num_players() {
        assert!(game.abbeys_left(p) <= config.figures.abbey, "{ctx}");
    }
    if let (Some(dragon), Some((fairy, by))) = (game.dragon(), game.fairy()) {
        // PD16a: the dragon never enters the fairy's tile. The fairy may join the dragon
        // only by a figure that the dragon spares: one on a castle that has not scored
        // (CA4), whose city's two tiles are the fairy's and a neighbour. Under `on-tile`
        // the fairy stands by no follower (PD15): any such castle lets it join.
        if dragon == fairy {
            let owner = by.map(|(owner, _)| owner);
            let near = |p: Pos| (p.x - fairy.x).abs() + (p.y - fairy.y).abs() <= 1;
            assert!(
                game.castles().any(|(o, (p, _), scored)| {
                    (owner.is_none() || owner == Some(o)) && !scored && near(p)
                }),
                "{ctx}: the dragon stands on the fairy's tile"
            );
        }
    }

    if let Some(steps) = game.flight_steps() {
        let visited: Vec<_> = game.flight_visited().collect();
        assert!(steps < DRAGON_STEPS, "{ctx}: a flight asks for a 7th step");
        assert_eq!(visited.len(), steps as usize + 1, "{ctx}");
        for (i, a) in visited.iter().enumerate() {
            assert!(
                !visited[..i].contains(a),
                "{ctx}: the flight entered {a} twice"
            );
        }
        assert_eq!(Some(*visited.last().unwrap()), game.dragon(), "{ctx}");
    }
    if game.is_terminal() {
        assert!(game.legal_actions().is_empty(), "{ctx}");
    }
}

/// Applies `action` on a clone: it must be accepted and leave a consistent state.
fn check_applies(game: &Game, action: Action, config: &GameConfig, ctx: &str) {
    if let (Action::MoveDragon { pos }, Some((fairy, _))) = (action, game.fairy()) {
        assert_ne!(
            pos, fairy,
            "{ctx}: the dragon may not enter the fairy's tile (PD16a)"
        );
    }
    let mut copy = game.clone();
    if let Err(e) = copy.apply(action) {
        panic!("{ctx}: listed action {action} refused: {e}");
    }
    check_state(&copy, config, ctx);
    check_scores(game.scores(), copy.scores(), action, ctx);
}

/// Scores never go down (B12-B16), but by a bazaar's payments (BZ3): a seat pays at most
/// the highest bid, at the decision that closes an auction; and by a ransom (TW5): 3.
fn check_scores(before: &[i32], after: &[i32], action: Action, ctx: &str) {
    let auction = matches!(
        action,
        Action::BazaarSelect { .. }
            | Action::BazaarBid { .. }
            | Action::BazaarPass
            | Action::BazaarBuyOrSell { .. }
    );
    let ransom = matches!(action, Action::PayRansom { .. });
    for (p, (a, b)) in before.iter().zip(after).enumerate() {
        let lowest = if auction {
            a - MAX_BID as i32
        } else if ransom {
            a - RANSOM
        } else {
            *a
        };
        assert!(
            *b >= lowest,
            "{ctx}: {action} lowered seat {p}'s score from {a} to {b}"
        );
    }
}

/// A clone has the same state and legal actions; every action of `never_legal` is
/// refused by the clone and leaves its state unchanged.
fn check_clone_and_refusals(game: &Game, legal: &[Action], ctx: &str) {
    let mut copy = game.clone();
    let hash = copy.state_hash();
    assert_eq!(hash, game.state_hash(), "{ctx}: clone differs");
    assert_eq!(
        copy.legal_actions(),
        legal,
        "{ctx}: clone's legal actions differ"
    );
    let refused = never_legal(game);
    for action in &refused {
        assert!(!legal.contains(action), "{ctx}: {action} is listed");
        assert!(
            copy.apply(*action).is_err(),
            "{ctx}: illegal {action} accepted"
        );
    }
    assert_eq!(
        copy.state_hash(),
        hash,
        "{ctx}: refusing {refused:?} changed the state"
    );
    assert_eq!(copy.legal_actions(), legal, "{ctx}");
}

/// Figures an action puts on the board (from the supply, or out of a quarter of the City
/// of Carcassonne, CC4, CC6).
fn figures_placed(action: Action) -> usize {
    match action {
        Action::Deploy { .. }
        | Action::DeployBarn { .. }
        | Action::MoveWagon { .. }
        | Action::LeaveQuarter { .. } => 1,
        _ => 0,
    }
}

/// The score events of every turn and of the final scoring add up to the score changes,
/// in the game and in its record; every figure put on the board but barns returned once.
fn check_events(game: &Game, record: &Value, ctx: &str) {
    let players = game.num_players();
    let add = |scores: &mut Vec<i32>, events: &mut dyn Iterator<Item = Event<'_>>| {
        for e in events {
            if let Event::Score(s) = e {
                scores[s.player as usize] += s.points;
            }
        }
    };
    let mut scores = vec![0; players];
    for (t, log) in game.turns().iter().enumerate() {
        add(&mut scores, &mut game.turn_events(t));
        assert_eq!(scores, log.scores[..players], "{ctx}: events of turn {t}");
    }
    add(&mut scores, &mut game.final_events());
    assert_eq!(scores, game.scores(), "{ctx}: events of the final scoring");
    let mut placed = vec![[0usize; Figure::ALL.len()]; players];
    for d in game.history_actions() {
        match d.action {
            Action::Deploy { figure, .. } | Action::LeaveQuarter { figure, .. } => {
                placed[d.player as usize][figure.index()] += 1;
            }
            Action::MoveWagon { .. } => placed[d.player as usize][Figure::Wagon.index()] += 1,
            _ => {}
        }
    }
    let mut returned = vec![[0usize; Figure::ALL.len()]; players];
    for r in game.figure_returns() {
        returned[r.owner as usize][r.figure.index()] += 1;
    }
    assert_eq!(placed, returned, "{ctx}: figures placed and returned");
    // The record's `events` and `final_events` say the same.
    let mut scores = vec![0i64; players];
    let mut returns = 0;
    let mut add_record = |events: Option<&Value>, scores: &mut Vec<i64>| {
        for e in events.and_then(Value::as_array).into_iter().flatten() {
            match e.get("points") {
                Some(p) => scores[e["player"].as_u64().unwrap() as usize] += p.as_i64().unwrap(),
                None => returns += 1,
            }
        }
    };
    for (t, turn) in record["turns"].as_array().unwrap().iter().enumerate() {
        add_record(turn.get("events"), &mut scores);
        let expected: Vec<i64> = turn["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_i64().unwrap())
            .collect();
        assert_eq!(scores, expected, "{ctx}: record events of turn {t}");
    }
    add_record(record.get("final_events"), &mut scores);
    let finals: Vec<i64> = game.scores().iter().map(|s| i64::from(*s)).collect();
    assert_eq!(scores, finals, "{ctx}: record's final events");
    assert_eq!(
        returns,
        game.figure_returns().len(),
        "{ctx}: record's returns"
    );
}

/// A draw chosen by the outcome probabilities (explicit chance).
fn sample_outcome(outcomes: &[(TileKind, f64)], rng: &mut Rng) -> Action {
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "outcome probabilities sum to {total}"
    );
    let mut r = rng.unit();
    for (kind, p) in outcomes {
        if r < *p {
            return Action::Draw { tile: *kind };
        }
        r -= p;
    }
    Action::Draw {
        tile: outcomes.last().unwrap().0,
    }
}

/// Plays one random game with every check; returns the number of decisions.
fn play_checked(case: &Case, seed: u64, full: bool) -> usize {
    let mut config = case.config.clone();
    config.seed = seed;
    let mut game = Game::with_chance(config.clone(), case.chance).expect("valid configuration");
    let mut rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    // Tiles, abbeys, and per tile at most: abbey decision, placement, deployment, 6 dragon
    // steps, one wagon move per player.
    let tiles = game.tiles_left() as usize + game.num_players() * config.figures.abbey as usize;
    let bound = (tiles + 1) * (3 + DRAGON_STEPS as usize + game.num_players()) + 16;
    let mut legal = Vec::new();
    let mut steps = 0;
    let mut last_scores = game.scores().to_vec();
    // Saved and loaded back at this step; then given the same decisions.
    // About two decisions per tile: the save point falls anywhere in the game.
    let save_at = rng.below(2 * tiles as u32 + 1) as usize;
    let mut resumed: Option<Game> = None;
    while !game.is_terminal() {
        if steps == save_at {
            let text = record::to_json(&game, "saved").unwrap();
            let loaded = record::load_json(&text, None).unwrap_or_else(|e| {
                panic!("{} seed {seed}: saved at step {steps}: {e}", case.name)
            });
            assert_eq!(
                loaded.game.state_hash(),
                game.state_hash(),
                "{} seed {seed}: loaded at step {steps} ({:?} by {}) differs",
                case.name,
                game.phase(),
                game.to_play()
            );
            resumed = Some(loaded.game);
        }
        let ctx = format!("{} seed {seed} step {steps}", case.name);
        check_state(&game, &config, &ctx);
        game.legal_actions_into(&mut legal);
        assert!(!legal.is_empty(), "{ctx}: no legal action");
        check_clone_and_refusals(&game, &legal, &ctx);
        if game.phase() == Phase::Draw {
            let outcomes = game.chance_outcomes();
            let draws: Vec<Action> = outcomes
                .iter()
                .map(|(k, _)| Action::Draw { tile: *k })
                .collect();
            assert_eq!(draws, legal, "{ctx}: draws are the chance outcomes");
        }
        if full {
            for a in &legal {
                check_applies(&game, *a, &config, &ctx);
            }
        } else {
            for _ in 0..SAMPLED.min(legal.len()) {
                let a = legal[rng.below(legal.len() as u32) as usize];
                check_applies(&game, a, &config, &ctx);
            }
        }
        let action = if game.phase() == Phase::Draw {
            sample_outcome(&game.chance_outcomes(), &mut rng)
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        let (figures, returns) = (game.board_figures().len(), game.figure_returns().len());
        game.apply(action)
            .unwrap_or_else(|e| panic!("{ctx}: {action} refused: {e}"));
        assert_eq!(
            game.board_figures().len() + (game.figure_returns().len() - returns),
            figures + figures_placed(action),
            "{ctx}: {action}: figures on the board and figures returned"
        );
        if let Some(r) = resumed.as_mut() {
            r.apply(action)
                .unwrap_or_else(|e| panic!("{ctx}: the resumed game refuses {action}: {e}"));
        }
        check_scores(&last_scores, game.scores(), action, &ctx);
        last_scores = game.scores().to_vec();
        steps += 1;
        assert!(
            steps <= bound,
            "{ctx}: the game runs past {bound} decisions"
        );
    }
    let ctx = format!("{} seed {seed} end", case.name);
    check_state(&game, &config, &ctx);
    assert_eq!(game.tiles_left(), 0, "{ctx}");
    assert!(game
        .board_figures()
        .iter()
        .all(|f| f.figure == Figure::Barn));
    let text = record::to_json(&game, &format!("conformance-{seed}")).unwrap();
    if let Some(r) = resumed {
        assert_eq!(
            record::to_json(&r, &format!("conformance-{seed}")).unwrap(),
            text,
            "{ctx}: the game saved at step {save_at} went on differently"
        );
    }
    check_events(&game, &serde_json::from_str(&text).unwrap(), &ctx);
    let replayed =
        record::replay_json(&text).unwrap_or_else(|e| panic!("{ctx}: record does not replay: {e}"));
    assert_eq!(replayed.scores(), game.scores(), "{ctx}: replayed scores");
    assert_eq!(
        replayed.state_hash(),
        game.state_hash(),
        "{ctx}: replayed state"
    );
    steps
}

fn run(cases: Vec<Case>) {
    for case in cases {
        case.config.validate().expect("valid configuration");
        let mut total = 0;
        for game in 0..case.games {
            total += play_checked(&case, 1000 + game, game < FULL_GAMES);
        }
        assert!(total > 0);
    }
}

#[test]
fn base_two_to_six_players() {
    let mut cases: Vec<Case> = (2..=6).map(|p| case("base", p, BASE, |_| {})).collect();
    cases.push(case("base, farmers off", 3, BASE, |c| {
        c.rules.farmers = false
    }));
    cases.push(case("base, tiny city 2", 3, BASE, |c| {
        c.rules.tiny_city = 2
    }));
    cases.push(explicit(case("base", 2, BASE, |_| {})));
    run(cases);
}

#[test]
fn base_with_abbot_c1_and_c2() {
    run(vec![
        case("base + abbot C2", 3, BASE, |c| c.figures.abbot = 1),
        case("base + abbot C1", 3, BASE, |c| {
            c.figures.abbot = 1;
            c.edition = Edition::C1;
        }),
    ]);
}

#[test]
fn rivers() {
    run(vec![
        case("river1", 3, &[TileSet::Base, TileSet::River1], |_| {}),
        case("river2", 3, &[TileSet::Base, TileSet::River2], |_| {}),
        case(
            "river1 + river2",
            4,
            &[TileSet::Base, TileSet::River1, TileSet::River2],
            |_| {},
        ),
        case(
            "river2, lakes in two turns",
            3,
            &[TileSet::Base, TileSet::River2],
            |c| c.rules.river2_lakes = RiverLakes::TwoTurns,
        ),
        explicit(case(
            "river2, lakes in one turn",
            2,
            &[TileSet::Base, TileSet::River2],
            |_| {},
        )),
    ]);
}

#[test]
fn princess_and_dragon_every_switch() {
    let mut cases = vec![
        case("pd", 2, PD, |_| {}),
        explicit(case("pd", 3, PD, |_| {})),
    ];
    cases.push(case("pd, no fairy bonus at the end", 3, PD, |c| {
        c.rules.fairy_final_bonus = false
    }));
    for dragon_move in DragonMove::ALL {
        for princess in PrincessRule::ALL {
            for fairy in FairyRule::ALL {
                let name = format!(
                    "pd {} {} {}",
                    dragon_move.name(),
                    princess.name(),
                    fairy.name()
                );
                cases.push(few(case(&name, 4, PD, |c| {
                    c.rules = RuleSwitches {
                        dragon_move,
                        princess,
                        fairy,
                        ..RuleSwitches::default()
                    }
                })));
            }
        }
    }
    run(cases);
}

#[test]
fn abbey_and_mayor_every_switch() {
    let mut cases = vec![explicit(case("am", 2, AM, |_| {}))];
    for barn_placement in BarnPlacement::ALL {
        for wagon_move in WagonMove::ALL {
            let name = format!("am {} {}", barn_placement.name(), wagon_move.name());
            cases.push(case(&name, 3, AM, |c| {
                c.rules = RuleSwitches {
                    barn_placement,
                    wagon_move,
                    ..RuleSwitches::default()
                }
            }));
        }
    }
    cases.push(case("am, farmers off", 2, AM, |c| c.rules.farmers = false));
    run(cases);
}

#[test]
fn count_king_and_cult_every_switch() {
    let mut cases = vec![
        case("count, king & cult", 2, CKC, |_| {}),
        explicit(case("count, king & cult", 3, CKC, |_| {})),
        case(
            "count with abbey & mayor",
            4,
            &[TileSet::Base, TileSet::Count, TileSet::AbbeyMayor],
            |c| c.figures.abbot = 1,
        ),
    ];
    for count_final in CountFinal::ALL {
        for count_landscape in CountLandscape::ALL {
            let name = format!("count {} {}", count_final.name(), count_landscape.name());
            cases.push(few(case(&name, 5, CKC, |c| {
                c.rules.count_final = count_final;
                c.rules.count_landscape = count_landscape;
            })));
        }
    }
    run(cases);
}

#[test]
fn bridges_castles_and_bazaars_two_to_six_players() {
    // Bazaars (BZ1-BZ4) with every table size; a save point may fall in an auction or
    // between the placements of the bought tiles.
    let mut cases: Vec<Case> = (2..=6).map(|p| few(case("bcb", p, BCB, |_| {}))).collect();
    cases.push(explicit(case("bcb", 3, BCB, |_| {})));
    run(cases);
}

#[test]
fn inns_and_cathedrals_two_to_six_players() {
    // Big followers (IC1), inns and cathedrals (IC2, IC3) with every table size.
    let mut cases: Vec<Case> = (2..=6).map(|p| few(case("ic", p, IC, |_| {}))).collect();
    cases.push(explicit(case("ic", 3, IC, |_| {})));
    run(cases);
}

#[test]
fn traders_and_builders_two_to_six_players() {
    // Goods (TB1, TB2), builders and their extra turns (TB3, TB4), pigs (TB5) with every
    // table size.
    let mut cases: Vec<Case> = (2..=6).map(|p| few(case("tb", p, TB, |_| {}))).collect();
    cases.push(explicit(case("tb", 3, TB, |_| {})));
    run(cases);
}

#[test]
fn hills_and_sheep_two_to_six_players() {
    // Shepherds and their tokens (HS1), flocks grown, herded and closed (HS2), hills with
    // a tile under them (HS3), tie-breaks (HS4), vineyards (HS5), with every table size;
    // the tokens and the tiles under hills drawn by the test in explicit-chance mode.
    let mut cases: Vec<Case> = (2..=6).map(|p| few(case("hs", p, HS, |_| {}))).collect();
    cases.push(explicit(case("hs", 3, HS, |_| {})));
    cases.push(few(case("hs, number-of-followers", 4, HS, |c| {
        c.rules.hill_tiebreak = HillTiebreak::NumberOfFollowers;
    })));
    cases.push(few(case("hs, pd, tb", 4, HS_PD_TB, |_| {})));
    cases.push(explicit(case("hs, pd, tb", 2, HS_PD_TB, |_| {})));
    run(cases);
}

#[test]
fn every_set_two_to_six_players() {
    let mut cases: Vec<Case> = (2..=6)
        .map(|p| few(case("all sets", p, ALL, |c| c.figures.abbot = 1)))
        .collect();
    cases.push(few(case(
        "all sets, every non-default switch",
        4,
        ALL,
        |c| {
            c.figures.abbot = 1;
            c.edition = Edition::C1;
            c.rules = RuleSwitches {
                farmers: true,
                tiny_city: 2,
                dragon_move: DragonMove::AfterScoring,
                princess: PrincessRule::Must,
                fairy: FairyRule::OnTile,
                barn_placement: BarnPlacement::Occupied,
                wagon_move: WagonMove::C1,
                pig_herd: false,
                river2_lakes: RiverLakes::TwoTurns,
                fairy_final_bonus: false,
                count_final: CountFinal::AnyQuarter,
                count_landscape: CountLandscape::Open,
                volcano_specials: VolcanoSpecials::Allowed,
                hill_tiebreak: HillTiebreak::NumberOfFollowers,
            }
        },
    )));
    cases.push(explicit(case("all sets", 3, ALL, |c| c.figures.abbot = 1)));
    run(cases);
}
