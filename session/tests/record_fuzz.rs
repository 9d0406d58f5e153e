//! A structured mutation fuzzer over the record loader: records written by the engine
//! and reference records are mutated as JSON trees (keys removed, added, duplicated;
//! values replaced by extreme numbers, wrong types, long strings, deep nesting; arrays
//! cut, repeated, shuffled) and as text (bytes flipped, cut, nesting added), then loaded
//! by `replay_json` and by the streaming `RecordReader`.
//!
//! Whatever the input: no panic, every error names where it is (a path or a line), no
//! message is longer than 1000 bytes, and a record that loads writes a record that
//! loads back to the same scores, phase and player to play.
//!
//! Cases: 2000 by default, at most 60 s; more on demand with `CARC_RECORD_FUZZ_CASES`,
//! `CARC_RECORD_FUZZ_SECONDS` and `CARC_RECORD_FUZZ_SEED`, e.g.
//! `CARC_RECORD_FUZZ_CASES=200000 CARC_RECORD_FUZZ_SECONDS=600 cargo test --release -p
//! carcassonne-session --test record_fuzz -- --nocapture`. A failing case is written to
//! the temporary directory and its file named in the failure.

use carcassonne::config::Figures;
use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;
use carcassonne::{catalogue, Game, GameConfig};
use carcassonne_session::record::{self, RecordReader, ReplayError};
use serde_json::{json, Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The seed corpus: finished and unfinished games of several set selections, played by
/// random legal moves, and the first reference record of some reference files.
fn corpus() -> Vec<Value> {
    let mut out = Vec::new();
    let selections: [&[TileSet]; 4] = [
        &[TileSet::Base],
        &[TileSet::Base, TileSet::River1, TileSet::River2],
        &[TileSet::Base, TileSet::PrincessDragon],
        &[TileSet::Base, TileSet::AbbeyMayor],
    ];
    for (i, sets) in selections.iter().enumerate() {
        let mut config = GameConfig::new(2 + i as u8);
        config.sets = sets.to_vec();
        config.figures = Figures::default_for(sets);
        config.seed = i as u64;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(i as u64 + 11);
        let mut legal = Vec::new();
        let mut step = 0;
        while !game.is_terminal() {
            if step == 40 {
                out.push(record::to_value(&game, "unfinished"));
            }
            game.legal_actions_into(&mut legal);
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
            step += 1;
        }
        out.push(record::to_value(&game, "finished"));
    }
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    for name in [
        "base-c2.jsonl",
        "pd.jsonl",
        "am.jsonl",
        "river1-river2.jsonl",
    ] {
        let text = std::fs::read_to_string(data.join(name)).unwrap();
        out.push(serde_json::from_str(text.lines().next().unwrap()).unwrap());
    }
    out
}

fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n.max(1) as u32) as usize
}

/// A value that a loader must handle: extreme numbers, wrong types, long or odd text.
fn hostile_value(rng: &mut Rng) -> Value {
    let tiles: Vec<&str> = catalogue().kinds().map(|k| k.id()).collect();
    match below(rng, 24) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(""),
        3 => json!(-1),
        4 => json!(0),
        5 => json!(1),
        6 => json!(i64::MIN),
        7 => json!(i64::MAX),
        8 => json!(u64::MAX),
        9 => json!(1i64 << 32),
        10 => json!(-(1i64 << 31) - 1),
        11 => json!(1e300),
        12 => json!(-0.5),
        13 => json!("x".repeat(1 + below(rng, 100_000))),
        14 => {
            let mut v = json!(1);
            for _ in 0..below(rng, 40) {
                v = json!([v]);
            }
            v
        }
        15 => json!([]),
        16 => json!({}),
        17 => json!(tiles[below(rng, tiles.len())]),
        18 => json!(rng.below(u32::MAX) as i64 - (1 << 31)),
        19 => json!(below(rng, 7) as i64 - 1),
        20 => json!(["NW", "NE", "SE", "SW", "N", "c1", "f2", "r1", "m1"][below(rng, 9)]),
        21 => json!(
            [
                "follower",
                "abbot",
                "mayor",
                "wagon",
                "barn",
                "pass",
                "place_tile"
            ][below(rng, 7)]
        ),
        22 => json!({"a": [1, {"b": null}]}),
        _ => json!("\u{0}\u{7f}é\u{1F600}"),
    }
}

/// A random place in the tree: the container and a key or index in it.
fn mutate_tree(v: &mut Value, rng: &mut Rng) {
    // Walk down a few levels at random (choosing the way first), then mutate there.
    let depth = below(rng, 6);
    let mut way: Vec<Result<String, usize>> = Vec::new();
    {
        let mut look = &*v;
        for _ in 0..depth {
            let (step, next) = match look {
                Value::Object(o) if !o.is_empty() => {
                    let (k, next) = o.iter().nth(below(rng, o.len())).unwrap();
                    (Ok(k.clone()), next)
                }
                Value::Array(a) if !a.is_empty() => {
                    let i = below(rng, a.len());
                    (Err(i), &a[i])
                }
                _ => break,
            };
            if !matches!(next, Value::Object(_) | Value::Array(_)) {
                break;
            }
            way.push(step);
            look = next;
        }
    }
    let mut cur = v;
    for step in &way {
        cur = match step {
            Ok(k) => &mut cur[k.as_str()],
            Err(i) => &mut cur[*i],
        };
    }
    match cur {
        Value::Object(o) => match below(rng, 5) {
            0 if !o.is_empty() => {
                let k = o.keys().nth(below(rng, o.len())).unwrap().clone();
                o.remove(&k);
            }
            1 => {
                let key = [
                    "extra",
                    "playrs",
                    "tiel",
                    "discarded",
                    "player",
                    "tile",
                    "events",
                ][below(rng, 7)];
                o.insert(key.into(), hostile_value(rng));
            }
            _ if !o.is_empty() => {
                let k = o.keys().nth(below(rng, o.len())).unwrap().clone();
                let old = o[&k].clone();
                o.insert(k, nudge(old, rng));
            }
            _ => {}
        },
        Value::Array(a) => match below(rng, 5) {
            0 if !a.is_empty() => {
                let n = below(rng, a.len());
                a.truncate(n);
            }
            1 if !a.is_empty() => {
                let i = below(rng, a.len());
                let copy = a[i].clone();
                a.insert(i, copy);
            }
            2 if a.len() > 1 => {
                let (i, j) = (below(rng, a.len()), below(rng, a.len()));
                a.swap(i, j);
            }
            _ if !a.is_empty() => {
                let i = below(rng, a.len());
                let old = a[i].clone();
                a[i] = nudge(old, rng);
            }
            _ => a.push(hostile_value(rng)),
        },
        other => *other = nudge(other.clone(), rng),
    }
}

/// A small change of a value (a number by one, a neighbouring tile), or a hostile one.
fn nudge(v: Value, rng: &mut Rng) -> Value {
    match (&v, below(rng, 3)) {
        (Value::Number(n), 0) => match n.as_i64() {
            Some(i) => json!(i.saturating_add(if rng.below(2) == 0 { 1 } else { -1 })),
            None => hostile_value(rng),
        },
        (Value::Bool(b), 0) => json!(!b),
        _ => hostile_value(rng),
    }
}

/// Mutations of the text itself.
fn mutate_text(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    match below(rng, 5) {
        0 => {
            let n = below(rng, bytes.len());
            bytes.truncate(n);
        }
        1 => {
            let i = below(rng, bytes.len());
            bytes[i] = rng.below(256) as u8;
        }
        2 => {
            // A duplicate key: the first key of an object repeated.
            if let Some(i) = text.find("{\"") {
                let end = text[i..].find(',').map(|e| i + e + 1);
                if let Some(end) = end {
                    let field = bytes[i + 1..end].to_vec();
                    bytes.splice(i + 1..i + 1, field);
                }
            }
        }
        3 => {
            let i = below(rng, bytes.len());
            let depth = below(rng, 200);
            let nest = vec![b'['; depth];
            bytes.splice(i..i, nest);
        }
        _ => {
            let i = below(rng, bytes.len());
            bytes.splice(i..i, *b"\n");
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Loads `text` both ways and checks the properties; `Err` describes a failure.
fn check(text: &str) -> Result<&'static str, String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| record::replay_json(text)))
        .map_err(|_| "replay_json panicked".to_string())?;
    let verdict = match &outcome {
        Ok(game) => {
            let again = record::replay_json(&record::to_json(game, "again").unwrap())
                .map_err(|e| format!("accepted, but its own record does not load: {e}"))?;
            if again.scores() != game.scores()
                || again.phase() != game.phase()
                || again.to_play() != game.to_play()
            {
                return Err("accepted, but its own record loads to another state".into());
            }
            "accepted"
        }
        Err(ReplayError::Bad(e)) => {
            if e.to_string().len() > 1000 {
                return Err(format!("message of {} bytes", e.to_string().len()));
            }
            "refused"
        }
        Err(ReplayError::Diverged(d)) => {
            if d.to_string().len() > 1000 {
                return Err(format!("divergence of {} bytes", d.to_string().len()));
            }
            "diverged"
        }
    };
    let read = catch_unwind(AssertUnwindSafe(|| {
        RecordReader::new(text.as_bytes())
            .map(|r| r.map(|r| r.value))
            .take(1000)
            .collect::<Vec<_>>()
    }))
    .map_err(|_| "RecordReader panicked".to_string())?;
    for r in &read {
        if let Err(e) = r {
            if !e.path.starts_with("line ") || e.to_string().len() > 1000 {
                return Err(format!("reader error without its line: {e}"));
            }
        }
    }
    Ok(verdict)
}

#[test]
fn mutated_records_never_crash_the_loader() {
    let cases: usize = env_or("CARC_RECORD_FUZZ_CASES", 2000);
    let seconds: u64 = env_or("CARC_RECORD_FUZZ_SECONDS", 60);
    let seed: u64 = env_or("CARC_RECORD_FUZZ_SEED", 1);
    let corpus = corpus();
    let texts: Vec<String> = corpus.iter().map(Value::to_string).collect();
    for t in &texts {
        check(t).unwrap();
    }
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let mut counts: Map<String, Value> = Map::new();
    let mut ran = 0;
    while ran < cases && start.elapsed() < Duration::from_secs(seconds) {
        let i = below(&mut rng, corpus.len());
        let text = if rng.below(4) == 0 {
            mutate_text(&texts[i], &mut rng)
        } else {
            let mut v = corpus[i].clone();
            for _ in 0..1 + below(&mut rng, 3) {
                mutate_tree(&mut v, &mut rng);
            }
            v.to_string()
        };
        match check(&text) {
            Ok(verdict) => {
                let n = counts.get(verdict).and_then(Value::as_u64).unwrap_or(0);
                counts.insert(verdict.into(), json!(n + 1));
            }
            Err(what) => {
                let path = std::env::temp_dir().join(format!("record-fuzz-{seed}-{ran}.json"));
                let _ = std::fs::write(&path, &text);
                panic!(
                    "case {ran} (seed {seed}): {what}; input in {}",
                    path.display()
                );
            }
        }
        ran += 1;
    }
    println!(
        "record fuzz: {ran} cases in {:.1} s (seed {seed}), {}, crashes 0",
        start.elapsed().as_secs_f64(),
        Value::Object(counts)
    );
    assert!(ran >= cases.min(100), "only {ran} cases ran");
}
