//! The learned player from the command line: `carcassonne match --bots net,heuristic`
//! plays the shipped network, `net:FILE` a network file, and a configuration the network
//! was not made for is refused before any game, naming what differs.

mod common;

use common::{carcassonne, stderr, stdout};

#[test]
fn match_plays_the_shipped_network_against_heuristic() {
    let run = carcassonne(&["match", "--bots", "net,heuristic", "--games", "2"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(
        text.starts_with("match: 2 games of 2 players, sets base"),
        "{text}"
    );
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("net "))
        .unwrap_or_else(|| panic!("no row for net: {text}"))
        .split_whitespace()
        .collect();
    assert_eq!(row[1], "2", "net played both games: {text}");
}

#[test]
fn match_plays_a_network_file() {
    let path = std::env::temp_dir().join(format!("carc-cli-net-{}.onnx", std::process::id()));
    std::fs::write(&path, carcassonne_session::net::SHIPPED_BASE_2P).unwrap();
    let spec = format!("net:{}", path.display());
    let bots = format!("{spec},greedy");
    let run = carcassonne(&["match", "--bots", &bots, "--games", "1"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        stdout(&run)
            .lines()
            .any(|l| l.starts_with(&format!("{spec} "))),
        "{}",
        stdout(&run)
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn match_refuses_a_configuration_the_network_was_not_made_for() {
    let run = carcassonne(&["match", "--bots", "net,greedy,greedy", "--games", "1"]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    let message = stderr(&run);
    assert!(
        message.contains("bot net: players: the network was made for 2 players, this game has 3"),
        "{message}"
    );
    let run = carcassonne(&["match", "--bots", "net:/no/such.onnx,greedy"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("/no/such.onnx"), "{}", stderr(&run));
}

/// `play`, `play --human` and `bench` refuse the shipped network in a configuration it was
/// not made for before the game starts (exit 2, a usage error naming what differs), rather
/// than stopping at the network's first decision.
#[test]
fn play_and_bench_refuse_a_configuration_the_network_was_not_made_for() {
    let dir = std::env::temp_dir().join(format!("carc-net-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("game.json");
    let out = out.to_str().unwrap();
    let expected = "the network was made for 2 players, this game has 3";
    for args in [
        vec!["play", "--players", "3", "--bots", "net", "--out", out],
        vec![
            "play",
            "--players",
            "3",
            "--bots",
            "net",
            "--human",
            "0",
            "--out",
            out,
        ],
        vec!["bench", "--players", "3", "--bot", "net", "--games", "1"],
    ] {
        let run = carcassonne(&args);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(
            stderr(&run).contains(expected),
            "{args:?}: {}",
            stderr(&run)
        );
    }
    assert!(!std::path::Path::new(out).exists(), "no game was played");
    std::fs::remove_dir_all(&dir).unwrap();
}
