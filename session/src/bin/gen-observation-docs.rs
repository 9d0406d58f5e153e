//! Writes the generated parts of `docs/observations.md` (the tables of planes, globals,
//! flat ids and presets, from the observation schema); with `--check`, writes nothing
//! and fails if the document is out of date.
//!
//! `cargo run -p carcassonne-session --bin gen-observation-docs [-- --check] [PATH]`
//! (PATH defaults to the workspace's `docs/observations.md`).

use carcassonne_session::encode::docs;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut check = false;
    let mut path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/observations.md").to_string();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--check" => check = true,
            "-h" | "--help" => {
                println!("usage: gen-observation-docs [--check] [PATH]");
                return ExitCode::SUCCESS;
            }
            a if a.starts_with('-') => {
                eprintln!("gen-observation-docs: unknown option {a}");
                return ExitCode::from(2);
            }
            a => path = a.to_string(),
        }
    }
    let doc = match std::fs::read_to_string(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("gen-observation-docs: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let updated = match docs::update(&doc) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("gen-observation-docs: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if updated == doc {
        return ExitCode::SUCCESS;
    }
    if check {
        eprintln!(
            "gen-observation-docs: {path} is out of date; run \
             `cargo run -p carcassonne-session --bin gen-observation-docs`"
        );
        return ExitCode::FAILURE;
    }
    match std::fs::write(&path, updated) {
        Ok(()) => {
            println!("wrote {path}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen-observation-docs: {path}: {e}");
            ExitCode::FAILURE
        }
    }
}
