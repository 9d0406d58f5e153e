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
    words_after(text, &["super::", "crate::vector::"])
}

/// The paths in `text` that begin with one of `prefixes`, a grouped import spelled out,
/// each cut after the word that follows its prefix.
fn words_after(text: &str, prefixes: &[&str]) -> Vec<String> {
    let mut words = Vec::new();
    for prefix in prefixes {
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

/// The kernel's scoring (B12–B16) names no set's rule: the River II pig herd (R5) and
/// the castles' field bonus (CA4) come from their sets' modules through the field hooks
/// (`field_bonus_per_city`, `field_extra_cities`, `field_extra_points`).
#[test]
fn the_kernel_scoring_names_no_pig_herd_nor_castles() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src/scoring.rs");
    let text = std::fs::read_to_string(&path).unwrap();
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    assert!(code.iter().any(|l| l.contains("fn score_field_farmers")));
    let named: Vec<&&str> = code
        .iter()
        .filter(|l| l.contains("pig") || l.contains("castles"))
        .collect();
    assert!(named.is_empty(), "{}: {named:?}", path.display());
}

/// The set modules of the rules crate (`core/src/rules/<set>.rs` or a folder): the
/// registry's files (`mod`, `registry`, `state`) are not sets.
fn set_modules() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src/rules");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|n| !["mod", "registry", "state"].contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

/// The sets that the code of `text` names (comments, doc examples included, left out): a
/// `TileSet` value other than the base game, or a path into a set's rules module
/// (`rules::<set>`, a grouped import read item by item).
fn sets_named(text: &str, modules: &[String]) -> Vec<String> {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let code = code.as_str();
    let mut named = Vec::new();
    for set in carcassonne::TileSet::ALL {
        let word = format!("TileSet::{set:?}");
        let whole = code.match_indices(&word).any(|(i, _)| {
            !code[i + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        });
        if set != carcassonne::TileSet::Base && whole {
            named.push(word);
        }
    }
    for word in words_after(code, &["rules::"]) {
        if modules.iter().any(|m| word == format!("rules::{m}")) && !named.contains(&word) {
            named.push(word);
        }
    }
    named
}

/// Every hand-written source file of the front-end crates (session, command line, C ABI,
/// Python), by its path from the workspace root, but the sets' own modules (a file named
/// after its set, as `session/src/sets/tower.rs` and `session/src/encode/tower.rs`),
/// the set registry `session/src/sets/mod.rs`, tests and generated files.
fn shared_files(modules: &[String]) -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = BTreeMap::new();
    let mut dirs: Vec<String> = ["session/src", "cli/src", "ffi/src", "python/src"]
        .map(String::from)
        .to_vec();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let rel = format!("{dir}/{name}");
            if path.is_dir() {
                if name != "tests" && rel != "session/src/sets" {
                    dirs.push(rel);
                }
                continue;
            }
            let stem = name.trim_end_matches(".rs");
            if !name.ends_with(".rs") || modules.iter().any(|m| m == stem) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let head: String = text.lines().take(8).collect::<Vec<_>>().join("\n");
            if !head.contains("Generated by") {
                files.insert(rel, text);
            }
        }
    }
    files
}

/// The files that docs/architecture.md lists as still naming sets: the lines of the
/// list after the marker `<!-- files that name a set -->`, each `* \`path\``
/// (indented or not).
fn documented_set_files() -> Vec<String> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let (_, after) = text
        .split_once("<!-- files that name a set -->")
        .expect("docs/architecture.md has the list of the files that name a set");
    after
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| l.starts_with("* `"))
        .map(|l| l["* `".len()..].split('`').next().unwrap().to_string())
        .collect()
}

/// Issue 51: a set's presentation lives in its own modules. The shared files of the front
/// ends that still name a set (a `TileSet` value, a set's rules module) are exactly the
/// ones docs/architecture.md lists: moving a set's code out of a shared file takes the
/// file off the list, and a shared file that begins naming a set fails here until the
/// document says so.
#[test]
fn the_shared_files_that_name_a_set_are_the_documented_ones() {
    let modules = set_modules();
    assert!(modules.contains(&"tower".to_string()), "{modules:?}");
    let files = shared_files(&modules);
    assert!(files.contains_key("session/src/render/text.rs"));
    assert!(!files.contains_key("session/src/sets/tower.rs"));
    assert!(!files.contains_key("session/src/encode/tower.rs"));
    let naming: Vec<String> = files
        .iter()
        .filter(|(_, text)| !sets_named(text, &modules).is_empty())
        .map(|(path, _)| path.clone())
        .collect();
    let mut documented = documented_set_files();
    documented.sort();
    let report: Vec<String> = naming
        .iter()
        .map(|p| format!("{p}: {:?}", sets_named(&files[p], &modules)))
        .collect();
    assert_eq!(
        documented,
        naming,
        "docs/architecture.md's list of the files that name a set against the code:\n{}",
        report.join("\n")
    );
}

#[test]
fn set_names_are_read_in_values_and_grouped_imports() {
    let modules = set_modules();
    let code = "use carcassonne::rules::{count::Quarter, state::Rows};\n\
                if game.has_set(TileSet::Tower) || set == TileSet::Base {}\n\
                let x = TileSet::TowerLike;\n\
                /// game.has_set(TileSet::Cult)";
    assert_eq!(
        sets_named(code, &modules),
        ["TileSet::Tower", "rules::count"]
    );
    assert!(sets_named("use carcassonne::rules::state::Rows;", &modules).is_empty());
}
