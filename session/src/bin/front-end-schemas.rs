//! Prints the action kinds and the tables of the expansions' state as JSON
//! (`carcassonne_session::schemas::to_json`), the input of the Python code generators
//! (`python/tools/gen_actions.py --schema`, `python/tools/gen_state.py --schema`), which
//! `tools/generate.py` runs.
//!
//! `cargo run -p carcassonne-session --bin front-end-schemas`

fn main() {
    if std::env::args().len() > 1 {
        eprintln!("usage: front-end-schemas (no arguments; prints JSON to standard output)");
        std::process::exit(2);
    }
    println!("{}", carcassonne_session::schemas::to_json());
}
