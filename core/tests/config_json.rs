//! The configuration JSON schema (`GameConfig::from_json`): every field checked, errors
//! name the field by its path, unknown keys refused at every level, numbers never
//! clamped or truncated, and a written configuration reads back the same.

use carcassonne::config::{FairyRule, GameConfig};
use carcassonne::TileSet;
use serde_json::json;

fn field_of(v: serde_json::Value) -> String {
    match GameConfig::from_json(&v) {
        Ok(c) => panic!("accepted {v}: {c:?}"),
        Err(e) => e.field,
    }
}

#[test]
fn a_full_configuration_reads_and_writes_back() {
    let v = json!({
        "players": 4, "edition": "C1", "sets": ["base", "river1", "princess-and-dragon"],
        "rules": {"fairy": "on-tile", "farmers": false, "tiny_city": 2},
        "figures": {"abbot": 1}, "start": {"tile": "RIV1-SPRING", "rot": 2}, "seed": 77
    });
    let c = GameConfig::from_json(&v).unwrap();
    assert_eq!(c.players, 4);
    assert_eq!(
        c.sets,
        vec![TileSet::Base, TileSet::River1, TileSet::PrincessDragon]
    );
    assert_eq!(c.rules.fairy, FairyRule::OnTile);
    assert!(!c.rules.farmers);
    assert_eq!(c.figures.abbot, 1);
    assert_eq!(c.seed, 77);
    assert_eq!(GameConfig::from_json(&c.to_json()).unwrap(), c);
}

#[test]
fn errors_name_the_field() {
    let base = || json!({"players": 2, "sets": ["base"]});
    let with = |k: &str, v: serde_json::Value| {
        let mut o = base();
        o[k] = v;
        o
    };
    assert_eq!(field_of(json!([1, 2])), "config");
    assert_eq!(field_of(json!({"sets": ["base"]})), "players");
    assert_eq!(field_of(json!({"players": 2})), "sets");
    assert_eq!(field_of(with("players", json!(9))), "players");
    assert_eq!(field_of(with("sets", json!(["base", "moon"]))), "sets[1]");
    assert_eq!(field_of(with("sets", json!(["river1"]))), "sets");
    assert_eq!(field_of(with("edition", json!("C9"))), "edition");
    assert_eq!(
        field_of(with("rules", json!({"fairy": "big"}))),
        "rules.fairy"
    );
    assert_eq!(
        field_of(with("rules", json!({"farmers": "yes"}))),
        "rules.farmers"
    );
    assert_eq!(
        field_of(with("figures", json!({"abbot": 2}))),
        "figures.abbot"
    );
    assert_eq!(
        field_of(with("start", json!({"tile": "NOPE"}))),
        "start.tile"
    );
    assert_eq!(
        field_of(with("start", json!({"tile": "BASE-D", "rot": 4}))),
        "start.rot"
    );
}

/// Unknown keys are refused at every level: nothing is silently ignored.
#[test]
fn unknown_keys_are_refused_at_every_level() {
    assert_eq!(
        field_of(json!({"players": 2, "sets": ["base"], "playrs": 3})),
        "playrs"
    );
    assert_eq!(
        field_of(json!({"players": 2, "sets": ["base"], "rules": {"dragon": "x"}})),
        "rules.dragon"
    );
    assert_eq!(
        field_of(json!({"players": 2, "sets": ["base"], "figures": {"meeple": 1}})),
        "figures.meeple"
    );
    assert_eq!(
        field_of(json!({"players": 2, "sets": ["base"], "start": {"tile": "BASE-D", "x": 1}})),
        "start.x"
    );
}

/// Numbers out of range are errors, never clamped or truncated.
#[test]
fn numbers_are_never_clamped() {
    let cfg = |k: &str, v: serde_json::Value| {
        let mut o = json!({"players": 2, "sets": ["base"]});
        o[k] = v;
        o
    };
    assert_eq!(field_of(cfg("players", json!(1u64 << 40))), "players");
    assert_eq!(field_of(cfg("players", json!(2.5))), "players");
    assert_eq!(field_of(cfg("seed", json!(-1))), "seed");
    assert_eq!(
        field_of(cfg("figures", json!({"follower": 256}))),
        "figures.follower"
    );
    assert_eq!(
        field_of(cfg("start", json!({"tile": "BASE-D", "rot": -1}))),
        "start.rot"
    );
    assert_eq!(
        field_of(cfg("start", json!({"tile": "BASE-D", "rot": i64::MIN}))),
        "start.rot"
    );
}

/// The reference engine's fixed settings are accepted with their only implemented
/// value and refused otherwise.
#[test]
fn fixed_settings_have_one_value() {
    let rules = |r: serde_json::Value| json!({"players": 2, "sets": ["base"], "rules": r});
    assert!(GameConfig::from_json(&rules(json!({"king_robber_scoring": "end"}))).is_ok());
    assert!(GameConfig::from_json(&rules(json!({"bazaar_auction": true}))).is_ok());
    assert_eq!(
        field_of(rules(json!({"count_move": "by-count"}))),
        "rules.count_move"
    );
}

/// The keys of a `figures` object are the figure names, each once, and `abbey` (the
/// abbey tiles, AM1), in the order they joined (the abbey tiles before the big follower,
/// IC1); each key reads into its own count and writes back under its name.
#[test]
fn figure_keys_follow_the_figures() {
    use carcassonne::config::{Figure, Figures};
    let mut names: Vec<&str> = Figure::ALL.iter().map(|f| f.name()).collect();
    names.push("abbey");
    let mut keys = Figures::KEYS.to_vec();
    assert_eq!(
        keys[..6],
        ["follower", "abbot", "mayor", "wagon", "barn", "abbey"]
    );
    names.sort_unstable();
    keys.sort_unstable();
    assert_eq!(keys, names);
    for key in Figures::KEYS {
        let mut figures = json!({});
        figures[key] = json!(if key == "follower" { 3 } else { 1 });
        let config = GameConfig::from_json(&json!({
            "players": 2,
            "sets": ["base", "abbey-and-mayor", "inns-and-cathedrals", "traders-and-builders", "hills-and-sheep"],
            "figures": figures
        }))
        .unwrap_or_else(|e| panic!("{key}: {e}"));
        match Figure::from_name(key) {
            Some(figure) => {
                let expected = if figure == Figure::Follower { 3 } else { 1 };
                assert_eq!(config.figures.of(figure), expected, "{key}");
                assert_eq!(Figures::KEYS[Figures::FIGURE_KEYS[figure.index()]], key);
            }
            None => assert_eq!(config.figures.abbey, 1),
        }
        assert_eq!(
            config.figures.count(key),
            Some(figures[key].as_u64().unwrap() as u8)
        );
        assert_eq!(config.to_json()["figures"][key], figures[key], "{key}");
    }
}
