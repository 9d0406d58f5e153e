//! Unit tests of `replay`, included by `replay.rs` so they see its private items.

use super::*;
use carcassonne::{Game, GameConfig};
use serde_json::json;

fn finished_record() -> Value {
    let mut game = Game::new(GameConfig::new(2)).unwrap();
    while !game.is_terminal() {
        let first = game.legal_actions()[0];
        game.apply(first).unwrap();
    }
    record::to_value(&game, "first-moves")
}

fn check(text: &str, rules: &Map<String, Value>, known: &KnownDivergences) -> (Tally, Vec<String>) {
    let mut lines = Vec::new();
    let tally = check_text("games.jsonl", text, rules, known, &mut |l| {
        lines.push(l.to_string())
    });
    (tally, lines)
}

#[test]
fn counts_reproduced_diverged_and_unreadable_records() {
    let good = finished_record();
    let mut bad = good.clone();
    let score = bad["final_scores"][0].as_i64().unwrap();
    bad["final_scores"][0] = json!(score + 1);
    let text = format!("{good}\n{bad}\n{{not json\n");
    let (tally, lines) = check(&text, &Map::new(), &KnownDivergences::new());
    assert_eq!(
        tally,
        Tally {
            reproduced: 1,
            known: 0,
            diverged: 2,
        }
    );
    assert!(
        lines[0].starts_with("first-moves: final scores"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("games.jsonl: line 3"), "{lines:?}");
}

#[test]
fn listed_divergences_are_labelled_with_their_reason() {
    let mut bad = finished_record();
    bad["id"] = json!("listed");
    let score = bad["final_scores"][1].as_i64().unwrap();
    bad["final_scores"][1] = json!(score + 2);
    let known = parse_known(
        "list.md",
        "# Known\nprose\n- id: listed (B16, farmers: false)\n- id: absent (X1)\n",
    )
    .unwrap();
    let (tally, lines) = check(&bad.to_string(), &Map::new(), &known);
    assert_eq!(
        tally,
        Tally {
            reproduced: 0,
            known: 1,
            diverged: 0,
        }
    );
    assert!(
        lines[0].starts_with("listed: known divergence (B16, farmers: false): final scores"),
        "{lines:?}"
    );
}

#[test]
fn known_lists_are_checked() {
    assert!(parse_known("l.md", "- id: a (R5)\n- id: a (R5)\n")
        .unwrap_err()
        .contains("line 2: id a listed twice"));
    assert!(parse_known("l.md", "- id: a\n")
        .unwrap_err()
        .contains("l.md: line 1"));
    assert!(parse_known("l.md", "- id: (R5)\n").is_err());
    assert_eq!(parse_known("l.md", "no entries\n").unwrap().len(), 0);
}

#[test]
fn rule_options_replace_the_record_reading() {
    // B16: with farmers switched off, fields score nothing at the end, so a record
    // of a game whose farmers scored diverges under `farmers=false`.
    let game_with_farmers = (0..40u64)
        .map(|seed| {
            let mut config = GameConfig::new(2);
            config.seed = seed;
            let mut game = Game::new(config).unwrap();
            let mut rng = carcassonne::Rng::new(seed);
            while !game.is_terminal() {
                let legal = game.legal_actions();
                game.apply(legal[rng.below(legal.len() as u32) as usize])
                    .unwrap();
            }
            game
        })
        .find(|g| {
            g.events()
                .iter()
                .any(|e| e.kind == carcassonne::ScoreKind::Farmers && e.points > 0)
        })
        .expect("a random game in which farmers score");
    let text = record::to_value(&game_with_farmers, "farmers").to_string();
    let known = KnownDivergences::new();
    assert_eq!(check(&text, &Map::new(), &known).0.reproduced, 1);
    let mut off = Map::new();
    off.insert("farmers".into(), Value::Bool(false));
    let (tally, lines) = check(&text, &off, &known);
    assert_eq!(tally.diverged, 1, "{lines:?}");
    // A record without a `rules` object gets one.
    let mut bare = json!({"setup": {"players": 2}});
    override_rules(&mut bare, &off);
    assert_eq!(bare["setup"]["rules"]["farmers"], json!(false));
}
