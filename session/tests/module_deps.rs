//! The code depends one way. The rules engine (`core/`) depends on no crate of this
//! workspace, its tests included (the session crate is built on it, not the other way).
//! Within the vector env, `env` (one game) is below `run` (a call over the games),
//! `state` beside them; no chain of `super::<sibling>` or `crate::vector::<sibling>`
//! paths leads from a module back to itself.

use std::collections::BTreeMap;
use std::path::Path;

/// For each module file of `src/vector` (not `mod.rs`), the sibling modules it names.
fn sibling_uses() -> BTreeMap<String, Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/vector");
    let mut texts = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && stem != "mod" {
            texts.insert(stem, std::fs::read_to_string(&path).unwrap());
        }
    }
    let mut uses = BTreeMap::new();
    for (module, text) in &texts {
        let mut named: Vec<String> = texts
            .keys()
            .filter(|sibling| *sibling != module)
            .filter(|sibling| {
                let words = path_words(text);
                words.iter().any(|w| {
                    w == &format!("super::{sibling}") || w == &format!("crate::vector::{sibling}")
                })
            })
            .cloned()
            .collect();
        named.sort();
        uses.insert(module.clone(), named);
    }
    uses
}

/// The paths in `text`, a grouped import spelled out (`super::{env, run::X}` gives
/// `super::env` and `super::run::X`), each cut after its second segment's word.
fn path_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for prefix in ["super::", "crate::vector::"] {
        for (i, _) in text.match_indices(prefix) {
            let rest = &text[i + prefix.len()..];
            let items: Vec<&str> = match rest.strip_prefix('{') {
                Some(list) => list.split('}').next().unwrap().split(',').collect(),
                None => vec![rest],
            };
            for item in items {
                let head: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                words.push(format!("{prefix}{head}"));
            }
        }
    }
    words
}

/// A chain of modules from `from` back to `from`, if any.
fn circle(uses: &BTreeMap<String, Vec<String>>, from: &str) -> Option<Vec<String>> {
    let mut stack = vec![vec![from.to_string()]];
    while let Some(chain) = stack.pop() {
        for next in &uses[chain.last().unwrap()] {
            if next == from {
                let mut found = chain.clone();
                found.push(next.clone());
                return Some(found);
            }
            if !chain.contains(next) {
                let mut longer = chain.clone();
                longer.push(next.clone());
                stack.push(longer);
            }
        }
    }
    None
}

#[test]
fn vector_modules_name_each_other_one_way() {
    let uses = sibling_uses();
    assert_eq!(uses["run"], ["env"], "run drives the games of env");
    for module in uses.keys() {
        assert_eq!(circle(&uses, module), None, "modules in a circle");
    }
}

#[test]
fn grouped_imports_are_read_item_by_item() {
    let words = path_words("use super::{env::Env, run};\nuse super::state::X;");
    assert_eq!(words, ["super::env", "super::run", "super::state"]);
}

#[test]
fn the_rules_engine_depends_on_no_crate_of_the_workspace() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut section = String::new();
    let mut local = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
        } else if section.contains("dependencies") && line.contains("path") {
            local.push(format!("{section} {line}"));
        }
    }
    assert!(text.contains("[dependencies]"), "{}", manifest.display());
    assert_eq!(
        local,
        Vec::<String>::new(),
        "core depends on a workspace crate"
    );
}
