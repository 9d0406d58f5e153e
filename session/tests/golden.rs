//! Reference games played by an independent engine (`tests/data/*.jsonl`, copied from the
//! project's golden set): every record must replay with every action legal, every
//! turn's scores and the final scores equal. Records listed by id in
//! `tests/data/known-divergences.md` are excluded, each with its argued rule id and the
//! kind of its first divergence, which a separate test checks.

use carcassonne::action::Action;
use carcassonne::catalogue;
use carcassonne::config::Figure;
use carcassonne::rules::count::Quarter;
use carcassonne::tiles::Symbols;
use carcassonne::{Phase, Pos};
use carcassonne_session::record::{parse_records, record_id, replay, ReplayError};
use serde_json::Value;
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// `(id, kind of its first divergence)` for every listed divergence.
fn known_divergences() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(data_dir().join("known-divergences.md"))
        .expect("known-divergences.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("- id: "))
        .map(|l| {
            let id = l.split_whitespace().next().unwrap_or("").to_string();
            let kind = l
                .split_once(", ")
                .map(|(_, r)| r.trim_end_matches(')').to_string())
                .unwrap_or_default();
            (id, kind)
        })
        .collect()
}

fn replay_file(name: &str, expected_records: usize) {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("golden file present");
    let excluded = known_divergences();
    let records = parse_records(&text);
    assert_eq!(records.len(), expected_records, "{name}: record count");
    let mut failures = Vec::new();
    let mut reproduced = 0;
    for r in records {
        let r = r.expect("golden record is valid JSON");
        let id = record_id(&r).unwrap_or("?").to_string();
        if excluded.iter().any(|(x, _)| *x == id) {
            continue;
        }
        match replay(&r) {
            Ok(_) => reproduced += 1,
            Err(e) => failures.push(format!("{id}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {reproduced} reproduced, {} diverged:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn base_c2() {
    replay_file("base-c2.jsonl", 28);
}
#[test]
fn base_c2_abbot() {
    replay_file("base-c2-abbot.jsonl", 28);
}
#[test]
fn base_c1() {
    replay_file("base-c1.jsonl", 28);
}
#[test]
fn base_c2_no_farmers() {
    replay_file("base-c2-no-farmers.jsonl", 14);
}
#[test]
fn base_c2_tiny_city_2() {
    replay_file("base-c2-tiny-city-2.jsonl", 14);
}
#[test]
fn river1() {
    replay_file("river1.jsonl", 28);
}
#[test]
fn river2() {
    replay_file("river2.jsonl", 28);
}
#[test]
fn river1_river2() {
    replay_file("river1-river2.jsonl", 28);
}
#[test]
fn princess_dragon() {
    replay_file("pd.jsonl", 28);
}
#[test]
fn princess_dragon_after_scoring() {
    replay_file("pd-dragon-after-scoring.jsonl", 21);
}
#[test]
fn princess_dragon_princess_must() {
    replay_file("pd-princess-must.jsonl", 21);
}
#[test]
fn princess_dragon_fairy_on_tile() {
    replay_file("pd-fairy-on-tile.jsonl", 21);
}
#[test]
fn abbey_mayor() {
    replay_file("am.jsonl", 28);
}
#[test]
fn abbey_mayor_wagon_c1() {
    replay_file("am-wagon-c1.jsonl", 21);
}
#[test]
fn abbey_mayor_barn_occupied() {
    replay_file("am-barn-occupied.jsonl", 21);
}
#[test]
fn every_seeded_set() {
    replay_file("all.jsonl", 28);
}
#[test]
fn king_and_robber() {
    replay_file("king-and-robber.jsonl", 28);
}
#[test]
fn cult() {
    replay_file("cult.jsonl", 28);
}
#[test]
fn count() {
    replay_file("count.jsonl", 28);
}
#[test]
fn bridges_castles_and_bazaars() {
    replay_file("bcb.jsonl", 28);
}
#[test]
fn royal_gift() {
    replay_file("royal-gift.jsonl", 28);
}
#[test]
fn inns_and_cathedrals() {
    replay_file("ic.jsonl", 28);
}
#[test]
fn tower() {
    replay_file("tower.jsonl", 28);
}
#[test]
fn traders_and_builders() {
    replay_file("tb.jsonl", 28);
}
#[test]
fn inns_traders_tower() {
    replay_file("ic-tb-tower.jsonl", 28);
}
#[test]
fn seed_interactions() {
    replay_file("seed-interactions.jsonl", 28);
}
#[test]
fn hills_and_sheep() {
    replay_file("hs.jsonl", 28);
}
#[test]
fn hills_and_sheep_with_princess_dragon_and_traders_builders() {
    replay_file("hs-pd-tb.jsonl", 28);
}

/// Where the dragon stands before turn `turn` action `action` of a record: on the last
/// volcano tile placed (PD2) or where its last step took it (PD5).
fn dragon_at(record: &Value, turn: usize, action: usize) -> Option<(Option<i64>, Option<i64>)> {
    let mut dragon = None;
    for (ti, t) in record["turns"]
        .as_array()?
        .iter()
        .enumerate()
        .take(turn + 1)
    {
        for (ai, a) in t["actions"].as_array()?.iter().enumerate() {
            if (ti, ai) == (turn, action) {
                return dragon;
            }
            let square = (a["x"].as_i64(), a["y"].as_i64());
            match a["type"].as_str() {
                Some("place_tile") => {
                    let id = a.get("tile").unwrap_or(&t["draw"]).as_str()?;
                    if catalogue().by_id(id)?.def().has(Symbols::VOLCANO) {
                        dragon = Some(square);
                    }
                }
                Some("move_dragon") => dragon = Some(square),
                _ => {}
            }
        }
    }
    dragon
}

/// The tile id placed at `(x, y)` before turn `turn` action `action` of a record.
fn tile_at(record: &Value, turn: usize, action: usize, x: i64, y: i64) -> Option<String> {
    let mut found = None;
    let start_tiles = record["setup"]["start"]["tiles"].as_array().cloned();
    if (x, y) == (0, 0) {
        found = record["setup"]["start"]["tile"].as_str().map(String::from);
    }
    for t in start_tiles.iter().flatten() {
        if t["x"].as_i64() == Some(x) && t["y"].as_i64() == Some(y) {
            found = t["tile"].as_str().map(String::from);
        }
    }
    for (ti, t) in record["turns"]
        .as_array()?
        .iter()
        .enumerate()
        .take(turn + 1)
    {
        for (ai, a) in t["actions"].as_array()?.iter().enumerate() {
            if ti == turn && ai >= action {
                break;
            }
            let placed = a["type"] == "place_tile" || a["type"] == "place_abbey";
            if placed && a["x"].as_i64() == Some(x) && a["y"].as_i64() == Some(y) {
                let id = a["tile"]
                    .as_str()
                    .or(t["draw"].as_str())
                    .unwrap_or("AM-ABBEY");
                found = Some(id.to_string());
            }
        }
    }
    found
}

/// The square of the tile placed in turn `turn` of a record.
fn placed_square(record: &Value, turn: usize) -> Option<Pos> {
    let a = record["turns"][turn]["actions"]
        .as_array()?
        .iter()
        .find(|a| a["type"] == "place_tile")?;
    Some(Pos::new(a["x"].as_i64()? as i32, a["y"].as_i64()? as i32))
}

/// Every excluded record diverges, and its first divergence is of the kind its entry
/// names, so an exclusion hides nothing else.
#[test]
fn known_divergences_are_what_their_rule_says() {
    let excluded = known_divergences();
    let mut found = 0;
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        for r in parse_records(&std::fs::read_to_string(&path).unwrap()) {
            let r = r.unwrap();
            let id = record_id(&r).unwrap_or("?").to_string();
            let Some((_, kind)) = excluded.iter().find(|(x, _)| *x == id) else {
                continue;
            };
            found += 1;
            let d = match replay(&r) {
                Err(ReplayError::Diverged(d)) => d,
                other => panic!("{id} is listed as divergent but replays to {other:?}"),
            };
            match kind.as_str() {
                "refused: a figure onto a volcano tile" => {
                    // PD1: the refused action puts a figure on a volcano tile.
                    let a = d
                        .action
                        .unwrap_or_else(|| panic!("{id}: {d} is no refusal"));
                    let action = &r["turns"][d.turn]["actions"][a];
                    let (x, y) = (action["x"].as_i64().unwrap(), action["y"].as_i64().unwrap());
                    let tile = tile_at(&r, d.turn, a, x, y).expect("a tile there");
                    let kind = catalogue().by_id(&tile).expect("catalogue tile");
                    assert!(
                        kind.def().has(Symbols::VOLCANO),
                        "{id}: {d} targets {tile}, no volcano"
                    );
                }
                "scores: fairy points" => {
                    // PD15: only fairy points (1 at a turn's start, 3 as a bonus) differ.
                    assert_eq!(r["setup"]["rules"]["fairy"], "on-tile", "{id}");
                    let (expected, engine) = d
                        .scores
                        .clone()
                        .unwrap_or_else(|| panic!("{id}: {d} is no score mismatch"));
                    let diffs: Vec<i32> =
                        expected.iter().zip(&engine).map(|(e, g)| e - g).collect();
                    assert!(
                        diffs.iter().all(|x| [0, 1, 3].contains(x))
                            && diffs.iter().any(|x| *x != 0),
                        "{id}: score differences {diffs:?} are not fairy points"
                    );
                }
                "asks: a bridge on a neighbouring tile" => {
                    // BR1: the engine offers only bridges on a neighbour of the placed tile
                    // (and passing); the reference engine offers none there.
                    let w = d.waiting.as_ref().unwrap_or_else(|| panic!("{id}: {d}"));
                    assert_eq!(w.phase, Phase::Deploy, "{id}: {d}");
                    let placed = placed_square(&r, d.turn);
                    assert!(
                        w.legal.iter().all(|a| match a {
                            Action::PlaceBridge { pos, .. } => Some(*pos) != placed,
                            other => *other == Action::Pass,
                        }) && w.legal.len() > 1,
                        "{id}: {d}"
                    );
                }
                "asks: the abbot into the cathedral" => {
                    // CC7: the only way into the City is the abbot into the cathedral.
                    let w = d.waiting.as_ref().unwrap_or_else(|| panic!("{id}: {d}"));
                    assert_eq!(w.phase, Phase::EnterQuarter, "{id}: {d}");
                    assert!(
                        w.legal.iter().all(|a| matches!(
                            a,
                            Action::DeployQuarter {
                                figure: Figure::Abbot,
                                quarter: Quarter::Cathedral
                            } | Action::QuarterPass { .. }
                        )) && w.legal.len() > 1,
                        "{id}: {d}"
                    );
                }
                "refused: a follower onto a tower on the dragon's tile" => {
                    // PD13b: the refused action puts a follower onto a tower (`t1`) on the
                    // tile where the dragon stands.
                    let a = d
                        .action
                        .unwrap_or_else(|| panic!("{id}: {d} is no refusal"));
                    let action = &r["turns"][d.turn]["actions"][a];
                    assert_eq!(action["type"], "deploy", "{id}: {d}");
                    assert_eq!(action["feature"], "t1", "{id}: {d}");
                    let target = (action["x"].as_i64(), action["y"].as_i64());
                    assert_eq!(dragon_at(&r, d.turn, a), Some(target), "{id}: {d}");
                }
                other => panic!("{id}: unknown divergence kind {other:?}"),
            }
        }
    }
    assert_eq!(found, excluded.len(), "every listed id names a record");
}
