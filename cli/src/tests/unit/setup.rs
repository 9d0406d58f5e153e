//! Unit tests of `setup`, included by `setup.rs` so they see its private items.

use super::*;
use crate::args::parse;

fn config(line: &str) -> Result<GameConfig, String> {
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    let parsed = parse(&words, &SETUP_OPTIONS).map_err(|e| e.to_string())?;
    config_from_options(&parsed, &DEFAULTS).map_err(|e| e.to_string())
}

#[test]
fn defaults_give_the_base_game_for_two() {
    let c = config("").unwrap();
    assert_eq!(c.players, 2);
    assert_eq!(c.sets, [TileSet::Base]);
    assert_eq!(c.seed, 0);
    assert_eq!(c.edition, carcassonne::Edition::C2);
    let f = c.figures;
    assert_eq!(
        (f.follower, f.abbot, f.mayor, f.wagon, f.barn, f.abbey),
        (7, 0, 0, 0, 0, 0)
    );
}

#[test]
fn players_default_to_the_bots_listed() {
    assert_eq!(defaults_for(None).players, 2);
    assert_eq!(defaults_for(Some("greedy")).players, 2);
    assert_eq!(defaults_for(Some("greedy,random,mcts:50")).players, 3);
    assert_eq!(defaults_for(Some("a,b,c")).sets, DEFAULTS.sets);
}

#[test]
fn every_set_brings_its_figures() {
    let c = config("--players 4 --abbot 1 --sets base,river1,river2,princess-and-dragon,abbey-and-mayor,count,king-and-robber,cult,bridges-castles-and-bazaars,inns-and-cathedrals,tower,traders-and-builders,hills-and-sheep").unwrap();
    assert_eq!(c.sets, TileSet::ALL);
    let f = c.figures;
    assert_eq!(
        (
            f.follower,
            f.abbot,
            f.mayor,
            f.wagon,
            f.barn,
            f.abbey,
            f.big_follower,
            f.builder,
            f.pig,
            f.shepherd
        ),
        (7, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    );
}

#[test]
fn options_reach_the_config() {
    let c = config("--players 2 --sets base,river1 --edition C1 --seed 9 --abbot 0 --rule farmers=false --rule fairy=on-tile").unwrap();
    assert_eq!(c.players, 2);
    assert_eq!(c.sets, vec![TileSet::Base, TileSet::River1]);
    assert_eq!(c.edition, carcassonne::Edition::C1);
    assert_eq!(c.seed, 9);
    assert_eq!(c.figures.abbot, 0);
    assert_eq!(c.figures.mayor, 0);
    assert!(!c.rules.farmers);
}

#[test]
fn errors_name_the_option() {
    let cases = [
        ("--players 7", "--players"),
        ("--players two", "--players"),
        ("--sets base,moon", "--sets"),
        ("--sets river1", "--sets"),
        ("--sets base,,river1", "--sets"),
        ("--edition C4", "--edition"),
        ("--seed -3", "--seed"),
        ("--abbot 2", "--abbot"),
        ("--rule fairy=nowhere", "--rule fairy"),
        ("--rule colour=red", "--rule colour"),
        ("--rule farmers", "--rule"),
        ("--rule tiny_city=2 --rule tiny_city=4", "--rule tiny_city"),
    ];
    for (line, option) in cases {
        let e = config(line).unwrap_err();
        assert!(e.starts_with(option), "{line}: {e}");
    }
}
