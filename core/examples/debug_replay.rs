//! Replays one record of a JSON Lines file and prints the final scoring events.
//! Usage: cargo run -p carcassonne --example debug_replay -- FILE ID
use carcassonne::record::{parse_records, record_id, replay};
use carcassonne::Action;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("file");
    for r in parse_records(&text) {
        let mut r = r.expect("json");
        if record_id(&r) != Some(args[2].as_str()) {
            continue;
        }
        r.as_object_mut().unwrap().remove("final_scores");
        match replay(&r) {
            Ok(game) => {
                let last = game
                    .turns()
                    .last()
                    .map(|t| t.events.1 as usize)
                    .unwrap_or(0);
                for e in &game.events()[last..] {
                    println!("{:?}", e);
                }
                println!("final {:?}", game.scores());
                let _ = Action::Pass;
            }
            Err(e) => println!("{e}"),
        }
    }
}
