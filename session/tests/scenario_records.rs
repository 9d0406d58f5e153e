//! Rule scenarios whose positions are also checked as game records: the River II lakes
//! (R6, with R5 and PD1/PD2) and the Tower's ransom before the abbey decision (TW5).
//! The positions are built with the rules engine's scenario helpers
//! (`core/tests/common`); the records are written and replayed with [`record`].

#[path = "../../core/tests/common/mod.rs"]
mod common;

use carcassonne::game::tile;
use carcassonne::{Action, Figure, Game, Phase, TileSet};
use carcassonne_session::record;
use common::*;

const FOLLOWER: Figure = Figure::Follower;

fn outcome_ids(game: &Game) -> Vec<&'static str> {
    game.chance_outcomes().iter().map(|(k, _)| k.id()).collect()
}

fn at(xy: Xy, r: u8) -> Action {
    Action::PlaceTile {
        pos: pos(xy),
        rot: rot(r),
        bridge: None,
    }
}

/// R6 `one-turn` (default): after the last river tile the next player draws the volcano
/// lake (the only tile that can be drawn), places it, and at once, in the same turn,
/// places the city lake (PlaceTile again, no draw); no figure on the volcano lake (PD1),
/// the deployment is on the city lake; one deployment step, one turn in the record.
/// With The Princess & the Dragon the dragon lands on the volcano lake (R5, PD2).
#[test]
fn r6_both_lakes_in_one_turn_by_one_player() {
    for with_dragon in [false, true] {
        let mut sets = vec![TileSet::Base, TileSet::River2];
        if with_dragon {
            sets.push(TileSet::PrincessDragon);
        }
        let mut game = start(config(2, &sets));
        lay(&mut game, &RIVER2[..9]);
        assert_eq!(
            outcome_ids(&game),
            vec!["RIV2-LAKE-VOLCANO"],
            "only the volcano lake"
        );
        let player = game.turn_player();
        // The turn in progress (its entry is open, waiting for the draw).
        let turn = game.turns().len() - 1;
        play(&mut game, "RIV2-LAKE-VOLCANO", (7, 2), 0);
        // Same player, same turn, the city lake in hand without a draw.
        assert_eq!(game.phase(), Phase::PlaceTile);
        assert_eq!(game.to_play(), player);
        assert_eq!(game.tile_in_hand(), Some(tile("RIV2-LAKE-CITY")));
        assert_eq!(game.turns().len(), turn + 1);
        assert_eq!(game.dragon(), with_dragon.then(|| pos((7, 2))));
        apply(&mut game, at((1, -2), 3));
        // PD1: nothing on the volcano lake; the city lake takes a figure.
        assert!(legal(&game)
            .iter()
            .all(|a| !matches!(a, Action::Deploy { pos: p, .. } if *p == pos((7, 2)))));
        let on_lake = deploy_action(&game, FOLLOWER, (1, -2), "c1");
        apply(&mut game, on_lake);
        assert_eq!(
            game.turns().len(),
            turn + 2,
            "both lakes in one turn, then the next"
        );
        assert_ne!(game.turn_player(), player, "the next player's turn");
        let pd_tiles = if with_dragon { 30 } else { 0 };
        assert_eq!(
            game.tiles_left(),
            72 + pd_tiles,
            "every river tile is placed"
        );
        let log = &game.turns()[turn];
        assert_eq!(log.draw, Some(tile("RIV2-LAKE-VOLCANO")));
        assert_eq!(log.second, Some(tile("RIV2-LAKE-CITY")));
        // The record holds both placements in that turn and replays.
        let text = record::to_json(&game, "r6").unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let actions = &v["turns"][turn]["actions"];
        assert_eq!(actions[0]["type"], "place_tile");
        assert_eq!(actions[1]["type"], "place_tile");
        assert_eq!(actions[1]["tile"], "RIV2-LAKE-CITY");
        assert_eq!(actions[2]["type"], "deploy");
        let back = record::replay_json(&text).unwrap();
        assert_eq!(back.state_hash(), game.state_hash());
    }
}

/// A River II board (`one-turn` lakes) whose south branch ends at (2, 3) and whose east
/// branch ends at (0, -1), north of the spring: there the city lake, entering from the
/// north, would turn its city south against the spring's field.
fn lake_city_fits_nowhere() -> Game {
    let mut game = start(config(2, &[TileSet::Base, TileSet::River2]));
    lay(
        &mut game,
        &[
            ("RIV2-FORK", (1, 0), 2),
            ("RIV2-CURVE-G", (2, 0), 1),
            ("RIV2-CITY-ROAD-BRIDGE", (2, -1), 1),
            ("RIV2-ROAD-BRIDGE-INN", (1, 1), 2),
            ("RIV2-CITY-CORNER-CURVE", (2, -2), 1),
            ("RIV2-CITY-BRIDGE", (1, 2), 0),
            ("RIV2-CURVE-PIGS", (1, 3), 1),
            ("RIV2-MONASTERY", (1, -2), 0),
            ("RIV2-ROADCURVE-RIVERCURVE", (0, -2), 3),
        ],
    );
    game
}

/// R6, B5: under `one-turn` the city lake that fits nowhere after the volcano lake is
/// discarded; the turn goes on (nothing may go on the volcano lake) and the discard is a
/// record entry of its own, the same player's, right after that turn.
#[test]
fn r6_city_lake_that_fits_nowhere_is_discarded_and_recorded() {
    let mut game = lake_city_fits_nowhere();
    let player = game.turn_player();
    let turn = game.turns().len() - 1;
    play(&mut game, "RIV2-LAKE-VOLCANO", (2, 3), 0);
    assert_ne!(game.phase(), Phase::PlaceTile, "no second placement");
    finish_turn(&mut game);
    assert_eq!(game.tiles_left(), 72, "no river tile left");
    assert_ne!(game.turn_player(), player, "the next player's turn");
    let log = &game.turns()[turn];
    assert_eq!(log.draw, Some(tile("RIV2-LAKE-VOLCANO")));
    assert_eq!(log.second, None, "no second tile placed");
    let discard = &game.turns()[turn + 1];
    assert_eq!(discard.player as usize, player);
    assert_eq!(discard.draw, Some(tile("RIV2-LAKE-CITY")));
    assert!(discard.discarded && discard.second_discard);
    assert_eq!(discard.actions.0, discard.actions.1, "no actions");
    assert_eq!(discard.scores, log.scores);
    // One more turn, so that a record without the discard goes on with another turn.
    draw(&mut game, "BASE-E");
    let first = legal(&game)[0];
    apply(&mut game, first);
    finish_turn(&mut game);

    // The record: a discard entry like any discard, and it replays.
    let text = record::to_json(&game, "r6-discard").unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entry = &v["turns"][turn + 1];
    assert_eq!(entry["player"], player);
    assert_eq!(entry["draw"], "RIV2-LAKE-CITY");
    assert_eq!(entry["discarded"], true);
    assert_eq!(entry["actions"], serde_json::json!([]));
    assert_eq!(entry["scores"], v["turns"][turn]["scores"]);
    let back = record::replay_json(&text).unwrap();
    assert_eq!(back.state_hash(), game.state_hash());
    assert_eq!(back.turns(), game.turns());

    // A record that leaves the discard out is refused, naming the lake and the rule.
    let mut omitted = v.clone();
    omitted["turns"].as_array_mut().unwrap().remove(turn + 1);
    let e = record::replay_json(&omitted.to_string())
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("RIV2-LAKE-CITY") && e.contains("R6") && e.contains("discarded"),
        "{e}"
    );
    // So is one whose discard entry names another player.
    let mut other = v.clone();
    other["turns"][turn + 1]["player"] = serde_json::json!(1 - player);
    let e = record::replay_json(&other.to_string())
        .expect_err("refused")
        .to_string();
    assert!(e.contains("RIV2-LAKE-CITY") && e.contains("R6"), "{e}");
}

/// R6: a record that discards the city lake although it fits is refused: the lake is
/// placed in the volcano lake's turn.
#[test]
fn r6_record_discarding_a_city_lake_that_fits_is_refused() {
    let mut game = start(config(2, &[TileSet::Base, TileSet::River2]));
    lay(&mut game, &RIVER2[..9]);
    let turn = game.turns().len() - 1;
    let player = game.turn_player();
    play(&mut game, "RIV2-LAKE-VOLCANO", (7, 2), 0);
    apply(&mut game, at((1, -2), 3));
    finish_turn(&mut game);
    let text = record::to_json(&game, "r6-fits").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The volcano lake's turn without the city lake, and a discard entry after it.
    let turns = v["turns"].as_array_mut().unwrap();
    let actions = turns[turn]["actions"].as_array_mut().unwrap();
    assert_eq!(actions[1]["tile"], "RIV2-LAKE-CITY");
    actions.truncate(1);
    let scores = turns[turn]["scores"].clone();
    turns.insert(
        turn + 1,
        serde_json::json!({"player": player, "draw": "RIV2-LAKE-CITY", "discarded": true,
            "actions": [], "scores": scores}),
    );
    let e = record::replay_json(&v.to_string())
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("RIV2-LAKE-CITY") && e.contains("R6") && e.contains("it fits"),
        "{e}"
    );
}

/// TW5 (§8 step 1): in random games of the Tower with Abbey & Mayor the ransom is offered
/// at the abbey decision whenever the turn player may pay one (a prisoner held by another,
/// 3 points, none paid this turn), and never in the end-of-game abbey round; a game whose
/// player pays before declining or placing his abbey is written and replayed to the same
/// decisions.
#[test]
fn tw5_ransom_before_the_abbey_decision_and_its_record() {
    let sets = [TileSet::Base, TileSet::Tower, TileSet::AbbeyMayor];
    let mut paid_before_abbey = 0;
    for seed in 0..60u64 {
        let mut c = config(2 + (seed % 3) as u8, &sets);
        c.seed = seed;
        let mut game = Game::new(c).unwrap();
        let mut rng = carcassonne::Rng::new(seed);
        let mut legal = Vec::new();
        let mut paid_here = false;
        while !game.is_terminal() {
            game.legal_actions_into(&mut legal);
            if game.phase() == Phase::Abbey {
                let player = game.turn_player();
                let may_pay = !game.in_end_round()
                    && !game.ransom_paid_this_turn()
                    && game.scores()[player] >= 3
                    && (0..game.num_players())
                        .any(|h| h != player && game.prisoners(h, player, FOLLOWER) > 0);
                let offered = legal.iter().any(|a| matches!(a, Action::PayRansom { .. }));
                if may_pay {
                    assert!(offered, "seed {seed}: no ransom at the abbey decision");
                }
                if game.in_end_round() {
                    assert!(!offered, "seed {seed}: a ransom in the end-of-game round");
                }
                if offered {
                    let pay = *legal
                        .iter()
                        .find(|a| matches!(a, Action::PayRansom { .. }))
                        .unwrap();
                    game.apply(pay).unwrap();
                    assert_eq!(game.phase(), Phase::Abbey, "the abbey decision stays");
                    assert!(legal_now_without_ransom(&game));
                    paid_here = true;
                    continue;
                }
            }
            let pick = legal[rng.below(legal.len() as u32) as usize];
            game.apply(pick).unwrap();
        }
        if paid_here {
            paid_before_abbey += 1;
            let text = record::to_json(&game, "tw5").unwrap();
            let back = record::replay_json(&text).unwrap();
            assert_eq!(back.state_hash(), game.state_hash(), "seed {seed}");
            assert_eq!(back.scores(), game.scores(), "seed {seed}");
            assert_eq!(
                back.history_actions(),
                game.history_actions(),
                "seed {seed}: the same decisions in the same order"
            );
        }
    }
    assert!(
        paid_before_abbey > 0,
        "some game pays a ransom before the abbey"
    );
}

/// No second ransom in the same turn.
fn legal_now_without_ransom(game: &Game) -> bool {
    legal(game)
        .iter()
        .all(|a| !matches!(a, Action::PayRansom { .. }))
}
