//! Reference games played by an independent engine (`tests/data/*.jsonl`, copied from the
//! project's golden set): every record must replay with every action legal, every
//! turn's scores and the final scores equal. Records listed by id in
//! `tests/data/known-divergences.md` are excluded, each with its argued rule id.

use carcassonne_session::record::{parse_records, record_id, replay};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// `(id, rule reading that reproduces it)` for every listed divergence.
fn known_divergences() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(data_dir().join("known-divergences.md"))
        .expect("known-divergences.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("- id: "))
        .map(|l| {
            let id = l.split_whitespace().next().unwrap_or("").to_string();
            let reading = l
                .split_once(", ")
                .map(|(_, r)| r.trim_end_matches(')').to_string())
                .unwrap_or_default();
            (id, reading)
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

/// Every excluded record diverges with the default rules and reproduces with the rule
/// reading its entry names, so an exclusion hides nothing else.
#[test]
fn known_divergences_differ_only_by_their_rule() {
    let excluded = known_divergences();
    assert!(!excluded.is_empty());
    let mut found = 0;
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        for r in parse_records(&std::fs::read_to_string(&path).unwrap()) {
            let mut r = r.unwrap();
            let id = record_id(&r).unwrap_or("?").to_string();
            let Some((_, reading)) = excluded.iter().find(|(x, _)| *x == id) else {
                continue;
            };
            found += 1;
            assert!(
                replay(&r).is_err(),
                "{id} is listed as divergent but reproduces"
            );
            let (key, value) = reading
                .split_once(": ")
                .expect("reading is `switch: value`");
            let value: serde_json::Value =
                serde_json::from_str(value).expect("reading value is JSON");
            r["setup"]["rules"][key] = value;
            if let Err(e) = replay(&r) {
                panic!("{id} does not reproduce with {reading}: {e}");
            }
        }
    }
    assert_eq!(found, excluded.len(), "every listed id names a record");
}
