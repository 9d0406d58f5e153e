//! The engine's tile table (`core/data/tiles.txt`) against the reference catalogue
//! (`tests/data/tiles.json`, a copy of the project's `tiles.json`): every tile of the
//! supported sets with its edges, feature segments, pennants, field-to-city adjacency,
//! road ends, symbols, inns, cathedrals, trade goods, castle bases and per-edition
//! counts, and every set's totals.
//!
//! Only the sets the engine plays ([`TileSet::ALL`]) are compared: the catalogue's other
//! sets (Traders & Builders, Hills & Sheep) are left out of the table on purpose
//! (`tools/gen_tile_table.py`): the table holds one entry per catalogue tile of a played
//! set, and no other.

use carcassonne::tiles::{catalogue, FeatureKind, RoadEnd, Terrain};
use carcassonne::{ChanceMode, Edition, Game, GameConfig, TileSet};
use serde_json::Value;
use std::collections::BTreeSet;

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/tiles.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("tiles.json")).expect("valid JSON")
}

fn terrain_name(t: Terrain) -> &'static str {
    match t {
        Terrain::Field => "field",
        Terrain::Road => "road",
        Terrain::City => "city",
        Terrain::River => "river",
        Terrain::Abbey => "abbey",
        Terrain::Carcassonne => "carcassonne",
    }
}

fn segment_names(mask: u16) -> BTreeSet<String> {
    (0..12)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| format!("{}{}", ["N", "E", "S", "W"][i / 3], i % 3))
        .collect()
}

#[test]
fn catalogue_matches_reference() {
    let reference = reference();
    let supported: Vec<&str> = TileSet::ALL.iter().map(|s| s.key()).collect();
    let tiles: Vec<&Value> = reference["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| supported.contains(&t["set"].as_str().unwrap()))
        .collect();
    assert_eq!(
        tiles.len(),
        catalogue().len(),
        "one table entry per reference tile"
    );
    for t in tiles {
        let id = t["id"].as_str().unwrap();
        let kind = catalogue()
            .by_id(id)
            .unwrap_or_else(|| panic!("{id} missing from the table"));
        let def = kind.def();
        assert_eq!(def.set.key(), t["set"].as_str().unwrap(), "{id} set");
        for (e, edition) in ["C1", "C2", "C3"].iter().enumerate() {
            match t["counts"].get(edition) {
                Some(c) => assert_eq!(
                    def.counts[e] as u64,
                    c.as_u64().unwrap(),
                    "{id} count {edition}"
                ),
                // The Cult was printed once: the second edition plays its C1 tiles.
                None if e == 1 && def.set == TileSet::Cult => {
                    assert_eq!(def.counts[1], def.counts[0], "{id} C2 count")
                }
                None => assert!(e == 2 && !def.has_c3_count, "{id} has no {edition} count"),
            }
        }
        for (s, side) in ["N", "E", "S", "W"].iter().enumerate() {
            let expected: Vec<&str> = t["edges"][side]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let actual: Vec<&str> = def.edges[s].iter().map(|t| terrain_name(*t)).collect();
            assert_eq!(actual, expected, "{id} edge {side}");
        }
        // TB1: the table keeps one goods symbol; which goods is the city part's.
        let symbols: BTreeSet<&str> = t["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .map(|s| if s.starts_with("goods:") { "goods" } else { s })
            .collect();
        assert_eq!(
            def.symbols.names().collect::<BTreeSet<_>>(),
            symbols,
            "{id} symbols"
        );
        let features = t["features"].as_array().unwrap();
        assert_eq!(def.features.len(), features.len(), "{id} feature count");
        for (f, rf) in def.features.iter().zip(features) {
            let fid = rf["id"].as_str().unwrap();
            assert_eq!(f.id, fid, "{id} feature order");
            let ty = rf["type"].as_str().unwrap();
            let expected_kind = if ty == "abbey" { "monastery" } else { ty };
            assert_eq!(f.kind.name(), expected_kind, "{id}.{fid} type");
            let segs: BTreeSet<String> = rf
                .get("segments")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|v| v.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            assert_eq!(segment_names(f.segments), segs, "{id}.{fid} segments");
            assert_eq!(
                f.pennants as u64,
                rf.get("pennants").and_then(Value::as_u64).unwrap_or(0),
                "{id}.{fid} pennants"
            );
            if f.kind == FeatureKind::Field {
                let cities: BTreeSet<&str> = rf["adjacent_cities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                let actual: BTreeSet<&str> = (0..def.features.len())
                    .filter(|j| f.adjacent_cities & (1 << j) != 0)
                    .map(|j| def.features[j].id.as_str())
                    .collect();
                assert_eq!(actual, cities, "{id}.{fid} adjacent cities");
            }
            for flag in [
                "princess",
                "tunnel",
                "inner",
                "inn",
                "pig_herd",
                "well",
                "cathedral",
            ] {
                let expected = rf.get(flag).and_then(Value::as_bool).unwrap_or(false);
                let actual = match flag {
                    "princess" => f.princess,
                    "tunnel" => f.tunnel,
                    "inner" => f.inner,
                    "inn" => f.inn,
                    "pig_herd" => f.pig_herd,
                    "cathedral" => f.cathedral,
                    _ => f.well,
                };
                assert_eq!(actual, expected, "{id}.{fid} {flag}");
            }
            // TB1: the goods a city part carries.
            assert_eq!(
                f.goods.map(|g| g.name()),
                rf.get("goods").and_then(Value::as_str),
                "{id}.{fid} goods"
            );
            // CA1: `castle_base` is written only where it is false.
            let castle_base = rf.get("castle_base").and_then(Value::as_bool);
            assert_eq!(
                f.castle_base,
                castle_base != Some(false),
                "{id}.{fid} castle_base"
            );
            if let Some(end) = rf.get("end").and_then(Value::as_str) {
                let ok = match f.road_end {
                    Some(RoadEnd::Through) => {
                        end.starts_with("continuous") || end.starts_with("fork")
                    }
                    Some(RoadEnd::Junction) => end.contains("junction") || end.contains("crossing"),
                    Some(RoadEnd::Monastery(m)) => {
                        end.contains(&format!("({})", def.features[m as usize].id))
                    }
                    Some(RoadEnd::CityGate(c)) => {
                        end.contains(&format!("city {}", def.features[c as usize].id))
                    }
                    Some(RoadEnd::Spring) => end.contains("spring"),
                    Some(RoadEnd::Lake) => end.contains("lake"),
                    Some(RoadEnd::Volcano) => end.contains("volcano"),
                    Some(RoadEnd::DeadEnd) => end.contains("dead end") || end.contains("dead-ends"),
                    Some(RoadEnd::Bazaar) => end.contains("bazaar"),
                    Some(RoadEnd::Carcassonne) => end.contains("City of Carcassonne"),
                    Some(RoadEnd::Tower) => end.contains("at the tower"),
                    None => false,
                };
                assert!(ok, "{id}.{fid} road end {:?} vs {end:?}", f.road_end);
            }
        }
    }
}

#[test]
fn set_totals_match_reference() {
    let reference = reference();
    for set in reference["sets"].as_array().unwrap() {
        let key = set["key"].as_str().unwrap();
        let Some(ts) = TileSet::from_key(key) else {
            continue;
        };
        for (e, edition) in [Edition::C1, Edition::C2, Edition::C3].iter().enumerate() {
            let Some(total) = set["edition_totals"]
                .get(edition.name())
                .and_then(Value::as_u64)
            else {
                continue;
            };
            let sum: u64 = catalogue()
                .kinds()
                .filter(|k| k.def().set == ts)
                .map(|k| k.def().counts[e] as u64)
                .sum();
            // The abbey tiles are per player and not part of the printed totals.
            let abbeys: u64 = if ts == TileSet::AbbeyMayor { 6 } else { 0 };
            assert_eq!(sum - abbeys, total, "{key} {} total", edition.name());
        }
    }
}

/// B2, R1, R4: the pile holds every tile of the sets in play less the start tile; with
/// River I and II one spring (River II's) and no River I lake.
#[test]
fn pile_composition_per_sets() {
    let mut config = GameConfig::new(2);
    let game = Game::with_chance(config.clone(), ChanceMode::Explicit).unwrap();
    assert_eq!(
        game.tiles_left(),
        71,
        "B2: 72 base tiles, one of them the start tile"
    );
    assert_eq!(game.board().placement(0).kind.id(), "BASE-D");
    config.sets = vec![TileSet::Base, TileSet::River1, TileSet::River2];
    let game = Game::with_chance(config, ChanceMode::Explicit).unwrap();
    // 72 base (all four D in the pile) + River I's 12 less its spring and lake + River
    // II's 12 less its spring, which is the start tile: 72 + 10 + 11.
    assert_eq!(game.tiles_left(), 93);
    assert_eq!(game.board().placement(0).kind.id(), "RIV2-SPRING");
    let outcomes = game.chance_outcomes();
    assert_eq!(outcomes.len(), 1, "R1: River II's fork is drawn first");
    assert_eq!(outcomes[0].0.id(), "RIV2-FORK");
}

/// The sides a field of a turned tile touches are the same read from its side mask
/// (`Oriented::feature_sides`) and from the segments of its sides
/// (`Oriented::segment_feature`), for every field of every tile in every rotation: the
/// closed-field test of the shepherds (HS2) reads the mask.
#[test]
fn field_side_masks_match_the_segments() {
    let mut fields = 0;
    for kind in catalogue().kinds() {
        let def = kind.def();
        for rot in 0..4u8 {
            let o = def.oriented(carcassonne::Rotation::new(rot).unwrap());
            for (local, f) in def.features.iter().enumerate() {
                if f.kind != FeatureKind::Field {
                    continue;
                }
                fields += 1;
                let by_segments = (0..4).fold(0u8, |mask, side| {
                    let on = (0..3).any(|t| o.segment_feature[side * 3 + t] == local as u8);
                    mask | (u8::from(on) << side)
                });
                assert_eq!(
                    o.feature_sides[local], by_segments,
                    "{} turned {rot}, field {local}",
                    def.id
                );
            }
        }
    }
    assert!(fields > 1000, "{fields}");
}
