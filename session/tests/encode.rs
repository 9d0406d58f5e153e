//! Observation encoding, flat action ids and masks (`carcassonne_session::encode`): the
//! mask agrees with the legal list in random games of every set, whole games play
//! through flat ids, slots turn with the board, rotations compose, the window centres
//! the board, observations match the state, bad buffers are refused, rewards sum to the
//! final scores (the schema and its documentation: `schema.rs`).
use carcassonne::config::Figure;
use carcassonne::config::{FairyRule, Figures, GameConfig, PrincessRule, WagonMove};
use carcassonne::game::tile;
use carcassonne::geometry::{Pos, Rotation};
use carcassonne::rng::Rng;
use carcassonne::tiles::{catalogue, TileSet};
use carcassonne::{Action, Game, Phase};
use carcassonne_session::encode::*;
use carcassonne_session::session::Session;
use std::collections::HashSet;

fn config(players: u8, sets: &[TileSet], seed: u64) -> GameConfig {
    let mut c = GameConfig::new(players);
    c.sets = sets.to_vec();
    c.figures = Figures::default_for(sets);
    c.figures.abbot = 1;
    c.seed = seed;
    c
}

/// Configurations that reach every kind of decision between them.
fn variety() -> Vec<GameConfig> {
    use TileSet::*;
    let all = [Base, River1, River2, PrincessDragon, AbbeyMayor];
    let mut v = vec![
        config(2, &[Base], 1),
        config(3, &[Base, River1], 2),
        config(4, &[Base, PrincessDragon], 3),
        config(2, &[Base, AbbeyMayor], 4),
        config(5, &all, 5),
        config(2, &all, 6),
    ];
    let mut on_tile = config(3, &[Base, PrincessDragon], 7);
    on_tile.rules.fairy = FairyRule::OnTile;
    on_tile.rules.princess = PrincessRule::Must;
    v.push(on_tile);
    let mut c1 = config(3, &[Base, AbbeyMayor, River2], 8);
    c1.rules.wagon_move = WagonMove::C1;
    v.push(c1);
    v.push(config(4, &[Base, Count, KingRobber, Cult], 9));
    v.push(config(3, &[Base, BridgesCastlesBazaars], 11));
    v.push(config(5, &TileSet::ALL, 12));
    v.push(config(4, &[Base, Tower], 13));
    v.push(config(2, &[Base, Tower, PrincessDragon, AbbeyMayor], 14));
    v.push(config(3, &[Base, HillsSheep], 15));
    v.push(config(
        4,
        &[Base, HillsSheep, PrincessDragon, TradersBuilders],
        16,
    ));
    let mut open = config(3, &[Base, Count, River1, PrincessDragon, AbbeyMayor], 10);
    open.rules.count_landscape = carcassonne::config::CountLandscape::Open;
    open.rules.count_final = carcassonne::config::CountFinal::AnyQuarter;
    v.push(open);
    v
}

/// The board square an action needs to see in the window (`None`: none needed, as
/// for passes, barns and actions on the placed tile while deploying).
fn square_needed(game: &Game, action: Action) -> Option<Pos> {
    let placed = matches!(game.phase(), Phase::Deploy | Phase::Castle)
        .then(|| game.placed_this_turn())
        .flatten();
    let pos = match action {
        Action::PlaceTile { pos, .. }
        | Action::PlaceBridge { pos, .. }
        | Action::BuildCastle { pos, .. }
        | Action::PlaceAbbey { pos }
        | Action::MoveDragon { pos }
        | Action::Deploy { pos, .. }
        | Action::MoveFairy { pos, .. }
        | Action::Princess { pos, .. }
        | Action::ReturnAbbot { pos, .. }
        | Action::MoveWagon { pos, .. }
        | Action::LeaveQuarter { pos, .. }
        | Action::PlaceTowerPiece { pos }
        | Action::Capture { pos, .. } => pos,
        Action::Pass
        | Action::CapturePass
        | Action::ExchangePrisoner { .. }
        | Action::PayRansom { .. }
        | Action::DeployBarn { .. }
        | Action::Draw { .. }
        | Action::DrawToken { .. }
        | Action::Flock { .. }
        | Action::QuarterPass { .. }
        | Action::DeployQuarter { .. }
        | Action::MoveCount { .. }
        | Action::CastlePass
        | Action::BazaarSelect { .. }
        | Action::BazaarBid { .. }
        | Action::BazaarPass
        | Action::BazaarBuyOrSell { .. } => return None,
    };
    (Some(pos) != placed).then_some(pos)
}

/// Checks the mask of the current decision against the structured legal list:
/// every offered id (and every second id behind an offered `CELL`) decodes to a
/// distinct legal action whose path is those ids, nothing else is offered, and the
/// legal actions not reached are exactly those needing a square outside the window.
fn check_decision(game: &Game, spec: EncoderSpec, rng: &mut Rng) -> usize {
    let legal = game.legal_actions();
    let mut mask = vec![0i8; spec.num_actions()];
    let info = legal_mask(game, spec, &mut mask).unwrap();
    assert_eq!(info.legal as usize, legal.len());
    let origin = WindowOrigin::of(game, spec);
    let mut reached = HashSet::new();
    let mut offered = 0;
    for id in 0..spec.num_actions() as u32 {
        if mask[id as usize] == 0 {
            continue;
        }
        offered += 1;
        match decode_flat(game, spec, None, id).expect("offered id decodes") {
            FlatDecision::Action(a) => {
                assert!(legal.contains(&a), "{a} not legal");
                assert!(reached.insert(a), "{a} reached twice");
                let path = action_to_flat_path(game, spec, a).unwrap();
                assert_eq!(
                    path,
                    FlatPath {
                        first: id,
                        second: None
                    }
                );
                assert_eq!(flat_to_action(game, spec, id), Some(a));
            }
            FlatDecision::Focus(pos) => {
                assert!(matches!(
                    FlatAction::from_id(spec, id),
                    Some(FlatAction::Cell { .. })
                ));
                // A focus is a tile, or the empty square of a placement with a bridge.
                let placing = game.phase() == Phase::PlaceTile;
                assert_eq!(game.board().is_placed(pos), !placing);
                let mut second = vec![0i8; spec.num_actions()];
                let info2 = legal_mask_at(game, spec, Some(pos), &mut second).unwrap();
                assert!(info2.offered > 0, "a focus with nothing to do");
                for id2 in 0..spec.num_actions() as u32 {
                    if second[id2 as usize] == 0 {
                        continue;
                    }
                    let second = FlatAction::from_id(spec, id2);
                    if placing {
                        assert!(matches!(second, Some(FlatAction::Bridge { .. })));
                    } else {
                        assert!(matches!(second, Some(FlatAction::Slot { .. })));
                    }
                    let Some(FlatDecision::Action(a)) = decode_flat(game, spec, Some(pos), id2)
                    else {
                        panic!("second id {id2} does not complete an action");
                    };
                    assert!(legal.contains(&a));
                    assert!(reached.insert(a), "{a} reached twice");
                    let path = action_to_flat_path(game, spec, a).unwrap();
                    assert_eq!(
                        path,
                        FlatPath {
                            first: id,
                            second: Some(id2)
                        }
                    );
                }
            }
        }
    }
    assert_eq!(offered, info.offered as usize);
    let outside: Vec<_> = legal
        .iter()
        .filter(|a| square_needed(game, **a).is_some_and(|p| origin.cell(spec, p).is_none()))
        .collect();
    assert_eq!(outside.len(), info.outside_window as usize);
    assert_eq!(reached.len() + outside.len(), legal.len());
    // A sample of ids the mask leaves out decode to nothing.
    for _ in 0..20 {
        let id = rng.below(spec.num_actions() as u32);
        if mask[id as usize] == 0 {
            assert_eq!(decode_flat(game, spec, None, id), None);
        }
    }
    legal.len()
}

#[test]
fn mask_agrees_with_legal_list_in_random_games() {
    let mut kinds = HashSet::new();
    for (k, config) in variety().into_iter().enumerate() {
        // Small windows make legal moves fall outside; the default one too.
        for (window, seed) in [(32, 0), (32, 1), (32, 2), (9, 3)] {
            let spec = EncoderSpec::new(window).unwrap();
            let mut rng = Rng::new(100 * seed + k as u64);
            let mut config = config.clone();
            config.seed += 1000 * seed;
            let mut game = Game::new(config).unwrap();
            while !game.is_terminal() {
                check_decision(&game, spec, &mut rng);
                let legal = game.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                kinds.insert(a.type_name());
                game.apply(a).unwrap();
            }
            let mut mask = vec![1i8; spec.num_actions()];
            let info = legal_mask(&game, spec, &mut mask).unwrap();
            assert_eq!(info, MaskInfo::default());
            assert!(mask.iter().all(|m| *m == 0));
        }
    }
    for kind in [
        "place_tile",
        "place_abbey",
        "deploy",
        "deploy_barn",
        "move_fairy",
        "princess",
        "return_abbot",
        "pass",
        "move_dragon",
        "move_wagon",
        "place_tower_piece",
        "capture",
        "capture_pass",
        "pay_ransom",
    ] {
        assert!(kinds.contains(kind), "no {kind} decision was checked");
    }
}

#[test]
fn session_plays_whole_games_through_ids() {
    for (k, config) in variety().into_iter().enumerate() {
        let spec = EncoderSpec::default();
        let mut rng = Rng::new(7 + k as u64);
        let mut flat = Session::new(Game::new(config).unwrap(), spec);
        let mut mask = vec![0i8; spec.num_actions()];
        let mut two_step = 0;
        while !flat.game().is_terminal() {
            let info = flat.legal_mask(&mut mask).unwrap();
            if info.offered == 0 {
                // Everything lies outside the window: play on structurally.
                let first = flat.legal_actions()[0];
                flat.apply(first).unwrap();
                continue;
            }
            let ids: Vec<u32> = (0..mask.len() as u32)
                .filter(|i| mask[*i as usize] == 1)
                .collect();
            let id = ids[rng.below(ids.len() as u32) as usize];
            let before = flat.game().state_hash();
            match flat.step(id).unwrap() {
                FlatDecision::Focus(pos) => {
                    two_step += 1;
                    assert_eq!(flat.pending_focus(), Some(pos));
                    assert_eq!(flat.game().state_hash(), before, "a focus changes nothing");
                }
                FlatDecision::Action(_) => assert_eq!(flat.pending_focus(), None),
            }
            // An id the mask does not offer is refused and changes nothing.
            flat.legal_mask(&mut mask).unwrap();
            if flat.game().is_terminal() {
                break;
            }
            if let Some(bad) = (0..mask.len() as u32).find(|i| mask[*i as usize] == 0) {
                let focus = flat.pending_focus();
                assert_eq!(flat.step(bad), Err(FlatError::NotOffered { id: bad }));
                assert_eq!(flat.pending_focus(), focus);
            }
        }
        assert_eq!(flat.step(0), Err(FlatError::GameOver));
        if config_has_targets(k) {
            assert!(two_step > 0, "config {k}: no two-step decision taken");
        }
    }
}

/// Configurations of [`variety`] whose games reach portal, fairy or wagon targets.
fn config_has_targets(k: usize) -> bool {
    matches!(k, 2 | 4 | 5 | 6)
}

#[test]
fn slots_are_board_locations_that_turn_with_the_tile() {
    for kind in catalogue().kinds() {
        let def = kind.def();
        for rot in Rotation::ALL {
            let o = def.oriented(rot);
            let mut seen = HashSet::new();
            for local in 0..def.features.len() as u8 {
                let s = feature_slot(kind, rot, local)
                    .unwrap_or_else(|| panic!("{} feature {local} has no slot", kind.id()));
                assert!(seen.insert(s), "{}: slot {s} used twice", kind.id());
                assert_eq!(slot_feature(kind, rot, s), Some(local));
                // The slot names a place of the feature in the board frame.
                let segment = match s {
                    0..=3 => Some(s as usize * 3 + 1),
                    4..=11 => {
                        let k = (s - slot::HALF_EDGE) as usize;
                        Some((k / 2) * 3 + if k & 1 == 0 { 0 } else { 2 })
                    }
                    _ => None,
                };
                if let Some(seg) = segment {
                    assert_eq!(o.segment_feature[seg], local, "{} {s}", kind.id());
                }
                for q in 0..4u8 {
                    let turned = Rotation::new((rot.quarter_turns() + q) & 3).unwrap();
                    assert_eq!(feature_slot(kind, turned, local), Some(slot::rotate(s, q)));
                }
            }
        }
    }
}

fn mid_game(config: GameConfig, decisions: usize) -> Game {
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..decisions {
        if game.is_terminal() {
            break;
        }
        let legal = game.legal_actions();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    game
}

#[test]
fn four_quarter_turns_are_the_identity() {
    let spec = EncoderSpec::new(16).unwrap();
    let game = mid_game(config(3, &[TileSet::Base, TileSet::PrincessDragon], 11), 60);
    let mut planes = vec![0u8; spec.planes_len()];
    let mut globals = vec![0f32; spec.num_globals()];
    encode_observation(&game, 0, spec, &mut planes, &mut globals).unwrap();
    assert!(planes.iter().filter(|v| **v != 0).count() > 50);
    let mut a = planes.clone();
    let mut b = planes.clone();
    for _ in 0..4 {
        rotate_planes(spec, &a, &mut b, 1).unwrap();
        std::mem::swap(&mut a, &mut b);
    }
    assert_eq!(a, planes);
    rotate_planes(spec, &planes, &mut a, 1).unwrap();
    assert_ne!(a, planes, "a quarter turn moves something");
    rotate_planes(spec, &a, &mut b, 3).unwrap();
    assert_eq!(b, planes);
    rotate_planes(spec, &planes, &mut a, 4).unwrap();
    assert_eq!(a, planes);
    for id in 0..spec.num_actions() as u32 {
        let mut t = id;
        for _ in 0..4 {
            t = rotate_action_id(spec, t, 1).unwrap();
        }
        assert_eq!(t, id);
    }
    let mut mask = vec![0i8; spec.num_actions()];
    legal_mask(&game, spec, &mut mask).unwrap();
    let mut turned = vec![0i8; spec.num_actions()];
    rotate_mask(spec, &mask, &mut turned, 2).unwrap();
    let mut back = vec![0i8; spec.num_actions()];
    rotate_mask(spec, &turned, &mut back, 2).unwrap();
    assert_eq!(back, mask);
    assert_eq!(
        turned.iter().filter(|m| **m == 1).count(),
        mask.iter().filter(|m| **m == 1).count()
    );
}

#[test]
fn a_quarter_turn_moves_sides_and_cells_together() {
    // The start tile BASE-D (city north, road east-west) at the window centre.
    let spec = EncoderSpec::new(8).unwrap();
    let game = Game::new(GameConfig::new(2)).unwrap();
    let mut planes = vec![0u8; spec.planes_len()];
    let mut globals = vec![0f32; spec.num_globals()];
    let origin = encode_observation(&game, 0, spec, &mut planes, &mut globals).unwrap();
    let (cx, cy) = origin.cell(spec, Pos::new(0, 0)).unwrap();
    let at = |p: &[u8], plane: usize, x: usize, y: usize| p[plane * 64 + y * 8 + x];
    let (cx, cy) = (cx as usize, cy as usize);
    assert_eq!(at(&planes, plane::CITY, cx, cy), 1);
    assert_eq!(at(&planes, plane::ROAD + 1, cx, cy), 1);
    assert_eq!(at(&planes, plane::LINK_OPPOSITE + 1, cx, cy), 1);
    let mut turned = vec![0u8; spec.planes_len()];
    rotate_planes(spec, &planes, &mut turned, 1).unwrap();
    let (tx, ty) = (8 - 1 - cy, cx);
    // After a clockwise quarter turn the city faces east and the road runs north-south.
    assert_eq!(at(&turned, plane::CITY + 1, tx, ty), 1);
    assert_eq!(at(&turned, plane::CITY, tx, ty), 0);
    assert_eq!(at(&turned, plane::ROAD, tx, ty), 1);
    assert_eq!(at(&turned, plane::LINK_OPPOSITE, tx, ty), 1);
    assert_eq!(at(&turned, plane::OCCUPIED, tx, ty), 1);
}

#[test]
fn window_centres_the_board_with_one_ring() {
    for window in [8u16, 9, 32] {
        let spec = EncoderSpec::new(window).unwrap();
        for decisions in [0, 30, 120] {
            let game = mid_game(config(2, &[TileSet::Base], 5), decisions);
            let (min, max) = game.board().bounds();
            let o = WindowOrigin::of(&game, spec);
            let w = window as i32;
            // Squares of the window left of the ring and right of it differ by at most 1.
            let left = (min.x - 1) - o.x;
            let right = (o.x + w - 1) - (max.x + 1);
            let top = (min.y - 1) - o.y;
            let bottom = (o.y + w - 1) - (max.y + 1);
            assert!((left - right).abs() <= 1, "{left} {right}");
            assert!((top - bottom).abs() <= 1, "{top} {bottom}");
        }
    }
}

#[test]
fn observation_is_egocentric_and_matches_the_state() {
    let spec = EncoderSpec::default();
    // Seat 0 places BASE-D's twin east of the start and deploys on its road (B6).
    let mut c = GameConfig::new(3);
    c.seed = 9;
    let mut game = Game::with_chance(c, carcassonne::game::ChanceMode::Explicit).unwrap();
    game.apply(Action::Draw {
        tile: tile("BASE-D"),
    })
    .unwrap();
    let place = Action::PlaceTile {
        pos: Pos::new(1, 0),
        rot: Rotation::default(),
        bridge: None,
    };
    let mut planes = vec![0u8; spec.planes_len()];
    let mut globals = vec![0f32; spec.num_globals()];
    let origin = encode_observation(&game, 0, spec, &mut planes, &mut globals).unwrap();
    let ww = spec.planes_len() / plane::COUNT;
    let cell = |pos: Pos| origin.cell_index(spec, pos).unwrap();
    assert_eq!(
        planes[plane::LEGAL_PLACEMENT * ww + cell(Pos::new(1, 0))],
        1
    );
    let legal_cells: usize = (0..4)
        .map(|r| {
            planes[(plane::LEGAL_PLACEMENT + r) * ww..][..ww]
                .iter()
                .filter(|v| **v == 1)
                .count()
        })
        .sum();
    assert_eq!(legal_cells, game.legal_actions().len());
    assert_eq!(
        globals[global::tile_in_hand() + tile("BASE-D").index()],
        1.0
    );
    assert_eq!(globals[global::PHASE + 2], 1.0);
    game.apply(place).unwrap();
    let road = tile("BASE-D").def().feature_by_id("r1").unwrap() as u8;
    game.apply(Action::Deploy {
        figure: Figure::Follower,
        pos: Pos::new(1, 0),
        feature: road,
    })
    .unwrap();
    // Seat 1 now decides; seen from seat 1, seat 0 is relative seat 2.
    encode_observation(&game, 1, spec, &mut planes, &mut globals).unwrap();
    let origin = WindowOrigin::of(&game, spec);
    let c10 = origin.cell_index(spec, Pos::new(1, 0)).unwrap();
    let c00 = origin.cell_index(spec, Pos::new(0, 0)).unwrap();
    assert_eq!(planes[(plane::FIGURES + 2 * FIGURE_KINDS) * ww + c10], 1);
    assert_eq!(planes[plane::FIGURES * ww + c10], 0);
    // The road through both tiles: seat 0 has strength 1 on it, open at both ends.
    assert_eq!(planes[(plane::SIDE_BEST_OPPONENT + 3) * ww + c00], 1);
    assert_eq!(planes[(plane::SIDE_OWN + 3) * ww + c00], 0);
    assert_eq!(planes[(plane::SIDE_OPEN + 1) * ww + c10], 2);
    assert_eq!(planes[(plane::SIDE_VALUE + 1) * ww + c10], 2);
    // Both cities face north, unconnected: one tile and value 1 each (B15).
    assert_eq!(planes[plane::SIDE_VALUE * ww + c10], 1);
    assert_eq!(planes[plane::SIDE_OPEN * ww + c10], 1);
    assert_eq!(globals[global::SUPPLY + 2 * FIGURE_KINDS], 6.0);
    assert_eq!(globals[global::SUPPLY], 7.0);
    assert_eq!(globals[global::SEAT_PRESENT + 2], 1.0);
    assert_eq!(globals[global::SEAT_PRESENT + 3], 0.0);
    assert_eq!(
        globals[global::PHASE + 1],
        1.0,
        "explicit chance: waiting for a draw"
    );
    assert_eq!(globals[global::IS_TO_PLAY], 0.0);
    assert_eq!(planes[plane::LAST_PLACED * ww + c10], 1);
}

#[test]
fn bad_buffers_and_seats_are_refused() {
    let spec = EncoderSpec::default();
    let game = Game::new(GameConfig::new(2)).unwrap();
    let mut planes = vec![0u8; spec.planes_len()];
    let mut globals = vec![0f32; spec.num_globals()];
    let mut short = vec![0u8; 3];
    assert!(matches!(
        encode_observation(&game, 0, spec, &mut short, &mut globals),
        Err(EncodeError::BufferSize {
            buffer: "planes",
            ..
        })
    ));
    assert_eq!(
        encode_observation(&game, 2, spec, &mut planes, &mut globals),
        Err(EncodeError::Player {
            player: 2,
            players: 2
        })
    );
    let mut mask = vec![0i8; 10];
    assert!(legal_mask(&game, spec, &mut mask).is_err());
    assert_eq!(EncoderSpec::new(2).unwrap_err().field, "window");
    assert_eq!(flat_to_action(&game, spec, u32::MAX), None);
    assert_eq!(FlatAction::from_id(spec, spec.num_actions() as u32), None);
    assert_eq!(
        action_to_flat(
            &game,
            spec,
            Action::MoveDragon {
                pos: Pos::new(0, 1)
            }
        ),
        None
    );
}

#[test]
fn flat_ids_take_apart_and_back() {
    let spec = EncoderSpec::new(5).unwrap();
    assert_eq!(
        spec.num_actions(),
        4 * 25
            + 25
            + SLOT_COUNT * CHANNEL_COUNT
            + 4
            + QUARTER_IDS
            + BRIDGE_IDS
            + BAZAAR_IDS
            + BIDS
            + 2
            + FIGURE_KINDS
            + 6 * FIGURE_KINDS
            + 2
            + 1
    );
    for id in 0..spec.num_actions() as u32 {
        assert_eq!(FlatAction::from_id(spec, id).unwrap().id(spec), id);
    }
    assert_eq!(
        FlatAction::from_id(spec, spec.pass_id()),
        Some(FlatAction::Pass)
    );
}

#[test]
fn score_rewards_sum_to_the_final_scores() {
    let mut game = Game::new(config(3, &[TileSet::Base, TileSet::AbbeyMayor], 21)).unwrap();
    let mut rng = Rng::new(1);
    let mut returns = [[0f32; 3]; RewardMode::ALL.len()];
    let mut r = [0f32; 3];
    while !game.is_terminal() {
        let before = game.scores().to_vec();
        let legal = game.legal_actions();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
        for (m, mode) in RewardMode::ALL.into_iter().enumerate() {
            step_rewards(mode, &before, game.scores(), game.is_terminal(), &mut r).unwrap();
            for p in 0..3 {
                returns[m][p] += r[p];
            }
        }
    }
    let s = game.scores();
    for p in 0..3 {
        assert_eq!(returns[0][p], s[p] as f32);
        let others = (s.iter().sum::<i32>() - s[p]) as f32 / 2.0;
        assert!((returns[1][p] - (s[p] as f32 - others)).abs() < 1e-3);
    }
    let mut expected = [0f32; 3];
    outcome_values(s, &mut expected);
    assert_eq!(returns[2], expected);
    win_loss_values(s, &mut expected);
    assert_eq!(returns[3], expected);
    assert!(
        returns[1].iter().sum::<f32>().abs() < 1e-3,
        "score-diff is zero-sum"
    );
}

#[test]
fn outcome_is_rank_based_with_shared_ties() {
    let mut out = [0f32; 4];
    outcome_values(&[10, 5, 5, 0], &mut out);
    assert_eq!(out, [1.0, 0.0, 0.0, -1.0]);
    let mut two = [0f32; 2];
    outcome_values(&[3, 3], &mut two);
    assert_eq!(two, [0.0, 0.0]);
    outcome_values(&[1, 7], &mut two);
    assert_eq!(two, [-1.0, 1.0]);
    assert_eq!(
        RewardMode::from_name("score-diff"),
        Some(RewardMode::ScoreDiff)
    );
    assert!(step_rewards(RewardMode::Score, &[0], &[0, 0], false, &mut two).is_err());
}

#[test]
fn win_loss_is_one_for_a_win_and_shares_a_tied_win() {
    // B17: the highest score wins; tied players share the win.
    let mut three = [0f32; 3];
    win_loss_values(&[40, 52, 17], &mut three);
    assert_eq!(three, [-1.0, 1.0, -1.0]);
    let mut two = [0f32; 2];
    win_loss_values(&[30, 30], &mut two);
    assert_eq!(two, [0.0, 0.0]);
    let mut four = [0f32; 4];
    win_loss_values(&[9, 20, 20, 20], &mut four);
    let third = 2.0 / 3.0 - 1.0;
    assert_eq!(four, [-1.0, third, third, third]);
    // Nothing before the end.
    let mut r = [5f32; 2];
    step_rewards(RewardMode::WinLoss, &[0, 0], &[10, 0], false, &mut r).unwrap();
    assert_eq!(r, [0.0, 0.0]);
    step_rewards(RewardMode::WinLoss, &[10, 0], &[12, 3], true, &mut r).unwrap();
    assert_eq!(r, [1.0, -1.0]);
    assert_eq!(RewardMode::from_name("win-loss"), Some(RewardMode::WinLoss));
}

/// The session's cached decision (legal list, mask, observation, decoding) equals what
/// the free functions compute from scratch, at every step of random games of every set,
/// two-step decisions included.
#[test]
fn session_cache_agrees_with_a_fresh_computation() {
    for (k, config) in variety().into_iter().enumerate() {
        let spec = EncoderSpec::new(16).unwrap();
        let mut rng = Rng::new(100 + k as u64);
        let mut session = Session::new(Game::new(config).unwrap(), spec);
        let (mut m1, mut m2) = (vec![0i8; spec.num_actions()], vec![0i8; spec.num_actions()]);
        let (mut p1, mut p2) = (vec![0u8; spec.planes_len()], vec![0u8; spec.planes_len()]);
        let (mut g1, mut g2) = (
            vec![0f32; spec.num_globals()],
            vec![0f32; spec.num_globals()],
        );
        while !session.game().is_terminal() {
            let game = session.game().clone();
            let focus = session.pending_focus();
            assert_eq!(session.legal_actions(), game.legal_actions().as_slice());
            let info = session.legal_mask(&mut m1).unwrap();
            assert_eq!(info, legal_mask_at(&game, spec, focus, &mut m2).unwrap());
            assert_eq!(m1, m2);
            let seat = game.to_play();
            session.observe(seat, &mut p1, &mut g1).unwrap();
            encode_observation_at(&game, spec, focus, seat, &mut p2, &mut g2).unwrap();
            assert_eq!(p1, p2);
            assert_eq!(g1, g2);
            for id in (0..m1.len() as u32).filter(|i| m1[*i as usize] == 1) {
                assert_eq!(session.decode(id), decode_flat(&game, spec, focus, id));
            }
            if info.offered == 0 {
                let first = session.legal_actions()[0];
                session.apply(first).unwrap();
                continue;
            }
            let ids: Vec<u32> = (0..m1.len() as u32)
                .filter(|i| m1[*i as usize] == 1)
                .collect();
            session
                .step(ids[rng.below(ids.len() as u32) as usize])
                .unwrap();
        }
    }
}

/// Every follower-like figure has its deploying channel and its channel for leaving the
/// City of Carcassonne (CC4, CC6), named after it; the builder and the pig, which never
/// enter the City (TB6), a deploying channel only; a figure on a corner (the barn, AM6)
/// has neither (a `CORNER` id places it).
#[test]
fn channels_of_the_figures() {
    for figure in Figure::ALL {
        let deploying = Channel::deploying(figure);
        let leaving = Channel::leaving(figure);
        if figure.is_follower_like() {
            assert_eq!(deploying.map(Channel::name), Some(figure.name()));
            assert_eq!(
                leaving.map(Channel::name),
                Some(format!("leave-{}", figure.name()).as_str())
            );
        } else if figure.stands_on_feature() {
            assert_eq!(deploying.map(Channel::name), Some(figure.name()));
            assert_eq!(leaving, None, "{figure:?}");
        } else {
            assert_eq!((deploying, leaving), (None, None), "{figure:?}");
        }
    }
}
