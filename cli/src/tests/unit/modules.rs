//! The command's modules depend on each other one way: no two of them name each other
//! (`crate::<module>`), so each can be read, and changed, knowing only those below it.

use std::collections::BTreeMap;
use std::path::Path;

/// The top-level modules (`src/<name>.rs`, `src/<name>/*.rs`) each module names.
fn uses() -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.extension().is_some_and(|e| e == "rs") {
            texts.insert(name, std::fs::read_to_string(&path).unwrap());
        } else if path.is_dir() && path.join("mod.rs").exists() {
            let mut all = String::new();
            for f in std::fs::read_dir(&path).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "rs") {
                    all += &std::fs::read_to_string(&f).unwrap();
                }
            }
            texts.insert(name, all);
        }
    }
    let names: Vec<String> = texts.keys().cloned().collect();
    texts
        .iter()
        .map(|(name, text)| {
            let named = names
                .iter()
                .filter(|other| *other != name && names_module(text, other))
                .cloned()
                .collect();
            (name.clone(), named)
        })
        .collect()
}

/// Whether `text` names the top-level module `module`: `crate::module` or
/// `crate::{.., module, ..}`.
fn names_module(text: &str, module: &str) -> bool {
    text.match_indices("crate::").any(|(i, _)| {
        let rest = &text[i + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(list) => list
                .split('}')
                .next()
                .unwrap()
                .split(',')
                .any(|item| item.trim().split("::").next() == Some(module)),
            None => {
                rest.starts_with(module)
                    && !rest[module.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            }
        }
    })
}

#[test]
fn no_two_modules_name_each_other() {
    let uses = uses();
    assert!(uses["table"].contains(&"choices".to_string()));
    let mut circles = Vec::new();
    for (a, named) in &uses {
        for b in named {
            if a < b && uses[b].contains(a) {
                circles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules that name each other: {circles:?}"
    );
}

#[test]
fn a_module_is_named_by_its_path_only() {
    assert!(names_module("use crate::table::Seat;", "table"));
    assert!(names_module("use crate::{choices, table};", "table"));
    assert!(names_module("crate::table::seat_name(1)", "table"));
    assert!(!names_module("use crate::tables::Seat;", "table"));
    assert!(!names_module("table::seat_name(1)", "table"));
}
