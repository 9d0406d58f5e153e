//! Unit tests of `action`, included by `action.rs` so they see its private items.

use super::*;
use crate::engine_types::CarcActionKind;
use carcassonne_core::geometry::Side;
use carcassonne_core::rules::bcb::{Axis, BazaarChoice, TileBridge, MAX_BID};
use carcassonne_core::rules::count::{Quarter, QuarterStep};
use carcassonne_core::rules::hills_sheep::{FlockChoice, SheepToken};
use carcassonne_core::Corner;
use carcassonne_core::{Game, GameConfig, Pos};

#[test]
fn action_struct_is_twenty_bytes_without_padding() {
    assert_eq!(std::mem::size_of::<CarcAction>(), 32);
    assert_eq!(std::mem::align_of::<CarcAction>(), 4);
    assert_eq!(std::mem::size_of::<CarcChanceOutcome>(), 16);
}

#[test]
fn every_kind_round_trips() {
    let tile = TileKind::from_index(3).unwrap();
    let pos = Pos::new(-2, 5);
    let actions = [
        Action::PlaceTile {
            pos,
            rot: Rotation::new(3).unwrap(),
            bridge: None,
        },
        Action::PlaceTile {
            pos,
            rot: Rotation::new(1).unwrap(),
            bridge: Some(TileBridge::Neighbour(Side::N)),
        },
        Action::PlaceAbbey { pos },
        Action::Deploy {
            figure: Figure::Mayor,
            pos,
            feature: 2,
        },
        Action::DeployBarn {
            pos,
            corner: Corner::SE,
        },
        Action::MoveFairy { pos, feature: None },
        Action::MoveFairy {
            pos,
            feature: Some(1),
        },
        Action::Princess { pos, feature: 0 },
        Action::ReturnAbbot { pos, feature: 4 },
        Action::Pass,
        Action::MoveDragon { pos },
        Action::MoveWagon { pos, feature: 3 },
        Action::Draw { tile },
        Action::LeaveQuarter {
            step: QuarterStep::Final,
            quarter: Quarter::Market,
            figure: Figure::Follower,
            pos,
            feature: 2,
        },
        Action::QuarterPass {
            step: QuarterStep::Count,
        },
        Action::DeployQuarter {
            figure: Figure::Mayor,
            quarter: Quarter::Castle,
        },
        Action::MoveCount {
            quarter: Quarter::Cathedral,
        },
        Action::PlaceBridge {
            pos,
            axis: Axis::WE,
        },
        Action::BuildCastle { pos, feature: 1 },
        Action::CastlePass,
        Action::BazaarSelect { tile, bid: 7 },
        Action::BazaarBid { bid: MAX_BID },
        Action::BazaarPass,
        Action::BazaarBuyOrSell {
            choice: BazaarChoice::Sell,
        },
    ];
    for a in actions {
        let c = CarcAction::from(a);
        assert_eq!(c.token, 0);
        assert_eq!(action_from_c(&c, 6), Ok(a), "{a}");
    }
}

/// The named fields of Hills & Sheep (HS1, HS2) travel by their numbers: every flock
/// choice (into `choice`) and every token of the bag (into `token`) comes back the same,
/// and a number past the list names the member and its C enum.
#[test]
fn every_flock_choice_and_token_round_trips() {
    let pos = Pos::new(1, -1);
    for (i, &choice) in FlockChoice::ALL.iter().enumerate() {
        let a = Action::Flock {
            pos,
            feature: 2,
            choice,
        };
        let c = CarcAction::from(a);
        assert_eq!(usize::from(c.choice), i);
        assert_eq!(action_from_c(&c, 2), Ok(a), "{a}");
    }
    for (i, &token) in SheepToken::ALL.iter().enumerate() {
        let a = Action::DrawToken { token };
        let c = CarcAction::from(a);
        assert_eq!(usize::from(c.token), i);
        assert_eq!(action_from_c(&c, 2), Ok(a), "{a}");
    }
    let past = SheepToken::ALL.len() as u8;
    let bad_token = CarcAction {
        kind: CarcActionKind::DrawToken as u8,
        token: past,
        ..CarcAction::default()
    };
    assert_eq!(
        action_from_c(&bad_token, 2).unwrap_err().message,
        format!(
            "action.token {past} is not a CarcSheepToken (0..={})",
            SheepToken::ALL.len() - 1
        )
    );
    let bad_choice = CarcAction {
        kind: CarcActionKind::Flock as u8,
        choice: 2,
        ..CarcAction::default()
    };
    assert_eq!(
        action_from_c(&bad_choice, 2).unwrap_err().message,
        "action.choice 2 is not a CarcFlockChoice (0..=1)"
    );
    let bad_axis = CarcAction {
        kind: CarcActionKind::PlaceTile as u8,
        has_bridge: 1,
        axis: 2,
        ..CarcAction::default()
    };
    assert_eq!(
        action_from_c(&bad_axis, 2).unwrap_err().message,
        "action.axis 2 is not a CarcAxis (0..=1)"
    );
}

#[test]
fn malformed_fields_are_named() {
    let bad_kind = CarcAction {
        kind: ActionKind::ALL.len() as u8,
        ..CarcAction::default()
    };
    assert!(action_from_c(&bad_kind, 6)
        .unwrap_err()
        .message
        .contains("action.kind"));
    let bad_rot = CarcAction {
        rot: 4,
        ..CarcAction::default()
    };
    let bad_quarter = CarcAction {
        kind: CarcActionKind::MoveCount as u8,
        quarter: 4,
        ..CarcAction::default()
    };
    assert!(action_from_c(&bad_quarter, 6)
        .unwrap_err()
        .message
        .contains("action.quarter"));
    let bad_step = CarcAction {
        kind: CarcActionKind::QuarterPass as u8,
        step: 9,
        ..CarcAction::default()
    };
    assert!(action_from_c(&bad_step, 6)
        .unwrap_err()
        .message
        .contains("action.step"));
    assert!(action_from_c(&bad_rot, 6)
        .unwrap_err()
        .message
        .contains("action.rot"));
    let bad_tile = CarcAction {
        kind: CarcActionKind::Draw as u8,
        tile: u16::MAX,
        ..CarcAction::default()
    };
    assert!(action_from_c(&bad_tile, 6)
        .unwrap_err()
        .message
        .contains("action.tile"));
}

/// A seat field (`prisoner_of` of `PAY_RANSOM`, TW5) outside the game is malformed, as
/// every other field out of range is: every kind with a seat field is checked, at each
/// player count.
#[test]
fn a_seat_outside_the_game_is_malformed() {
    let mut with_seat = 0;
    for &kind in ActionKind::ALL {
        if !kind.spec().fields.iter().any(|f| f.kind == FieldKind::Seat) {
            continue;
        }
        with_seat += 1;
        for players in 2..=6usize {
            for seat in [players as u8, 77, u8::MAX] {
                let c = CarcAction {
                    kind: kind as u8,
                    seat,
                    ..CarcAction::default()
                };
                let message = action_from_c(&c, players).unwrap_err().message;
                assert!(
                    message.contains(&format!(
                        "action.seat {seat} is not a seat of this game (0..={})",
                        players - 1
                    )),
                    "{kind:?}: {message}"
                );
            }
            let last = CarcAction {
                kind: kind as u8,
                seat: players as u8 - 1,
                ..CarcAction::default()
            };
            assert!(action_from_c(&last, players).is_ok(), "{kind:?}");
        }
    }
    assert_eq!(with_seat, 1, "PAY_RANSOM");
}

#[test]
fn legal_actions_convert_back_to_themselves() {
    let game = Game::new(GameConfig::new(3)).unwrap();
    for a in game.legal_actions() {
        assert_eq!(action_from_c(&CarcAction::from(a), 6), Ok(a));
    }
}

/// The header's comment on each field of `CarcAction` names every action kind that uses
/// the field (as the action schema declares it), so that a client written from the header
/// knows which fields each kind fills.
#[test]
fn header_comments_name_every_kind_of_each_field() {
    let header = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../include/carcassonne.h"
    ))
    .unwrap();
    let start = header.find("typedef struct CarcAction {").unwrap();
    let body = &header[start..start + header[start..].find("} CarcAction;").unwrap()];
    // The comment just above a field's declaration.
    let comment_of = |field: &str| -> String {
        let decl = body
            .lines()
            .position(|l| {
                let l = l.trim();
                l.ends_with(&format!(" {field};"))
            })
            .unwrap_or_else(|| panic!("no field {field}"));
        let lines: Vec<&str> = body.lines().collect();
        let open = (0..decl).rev().find(|&i| lines[i].contains("/**")).unwrap();
        lines[open..decl].join(" ")
    };
    let field_of = |kind: FieldKind| match kind {
        FieldKind::X => vec!["x"],
        FieldKind::Y => vec!["y"],
        FieldKind::Rot => vec!["rot"],
        FieldKind::Figure => vec!["figure"],
        FieldKind::Feature | FieldKind::OptFeature => vec!["feature"],
        FieldKind::Corner => vec!["corner"],
        FieldKind::Tile => vec!["tile"],
        FieldKind::Quarter => vec!["quarter"],
        FieldKind::Step => vec!["step"],
        FieldKind::OptBridge => vec!["has_bridge", "axis", "bridge_x", "bridge_y"],
        FieldKind::Axis => vec!["axis"],
        FieldKind::Bid => vec!["bid"],
        FieldKind::Choice | FieldKind::FlockChoice => vec!["choice"],
        FieldKind::Token => vec!["token"],
        FieldKind::Seat => vec!["seat"],
    };
    for &kind in ActionKind::ALL {
        let spec = kind.spec();
        let name = spec.name.to_uppercase();
        for f in spec.fields {
            for field in field_of(f.kind) {
                let comment = comment_of(field);
                // `y` is documented as "the same kinds as `x`".
                if field == "y" && comment.contains("same kinds as `x`") {
                    continue;
                }
                assert!(
                    comment.contains(&format!("`{name}`")),
                    "the comment on CarcAction.{field} does not name {name}: {comment}"
                );
            }
        }
    }
}
