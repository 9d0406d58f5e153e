//! Unit tests of `choices`, included by `choices.rs` so they see its private items.

use super::*;
use carcassonne::{Figures, GameConfig, Rng, TileSet};

/// Every decision of random games with each set (and all together): `(game, choices)`.
fn decisions() -> Vec<(Game, Vec<Choice>)> {
    let mut out = Vec::new();
    let mut cases: Vec<Vec<TileSet>> = TileSet::ALL
        .iter()
        .filter(|s| **s != TileSet::Base)
        .map(|s| vec![TileSet::Base, *s])
        .collect();
    cases.push(TileSet::ALL.to_vec());
    for (k, sets) in cases.into_iter().enumerate() {
        let mut config = GameConfig::new(2 + (k % 3) as u8);
        config.figures = Figures::default_for(&sets);
        config.figures.abbot = 1;
        config.sets = sets;
        config.seed = 100 + k as u64;
        let mut game = Game::new(config).unwrap();
        let mut rng = Rng::new(k as u64);
        while !game.is_terminal() {
            out.push((game.clone(), choices(&game)));
            let legal = game.legal();
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
    }
    out
}

/// Every legal action of every set reads as words and is named by its own words: the
/// kind's name, the square's coordinates (or letter) and every field's first word, in
/// field order, pick
/// it out, or a few choices that only differ in fields without words (a placement with
/// and without a bridge, BR2). Each kind reads with its label, never an empty text.
#[test]
fn every_choice_reads_and_is_named_by_its_words() {
    let mut kinds = std::collections::HashSet::new();
    for (game, choices) in decisions() {
        let squares = square_letters(&game, &choices);
        let all: Vec<usize> = (0..choices.len()).collect();
        for (i, c) in choices.iter().enumerate() {
            kinds.insert(c.action.kind());
            assert_eq!(c.action, game.legal()[i], "choices keep the legal order");
            assert!(c.describe().starts_with(c.label()));
            assert!(!c.label().is_empty());
            let mut typed: Vec<String> = vec![c.action.kind().name().to_string()];
            if let Some(pos) = c.pos {
                typed.push(pos.x.to_string());
                typed.push(pos.y.to_string());
            }
            typed.extend(c.fields.iter().filter_map(|f| f.words.first().cloned()));
            let found = match_words(&choices, &all, &squares, &typed);
            assert!(
                found.contains(&i),
                "{} not named by {typed:?}",
                c.describe()
            );
            for &j in &found {
                let other = &choices[j];
                assert_eq!(other.action.kind(), c.action.kind());
                assert_eq!(other.pos, c.pos);
                assert!(
                    other.fields.len() != c.fields.len() || j == i,
                    "{typed:?} names both {} and {}",
                    c.describe(),
                    other.describe()
                );
            }
            // The letter of an empty square (where a tile goes, shown on the board)
            // stands for its coordinates; a placed tile's square has none.
            if let Some(pos) = c.pos {
                let Some((_, letter)) = squares.iter().find(|(p, _)| *p == pos) else {
                    assert!(
                        game.board().is_placed(pos),
                        "{} has no letter",
                        c.describe()
                    );
                    continue;
                };
                let mut by_letter = vec![typed[0].clone(), letter.to_ascii_lowercase()];
                by_letter.extend(typed[3..].iter().cloned());
                assert_eq!(match_words(&choices, &all, &squares, &by_letter), found);
            }
        }
    }
    // The games reached the decisions of the sets: placements, deployments, the dragon
    // (PD5), wagons (AM11), the City of Carcassonne (CC3), castles (CA1), bazaars (BZ2).
    for kind in [
        ActionKind::PlaceTile,
        ActionKind::Deploy,
        ActionKind::Pass,
        ActionKind::MoveDragon,
        ActionKind::MoveWagon,
        ActionKind::DeployQuarter,
        ActionKind::BazaarSelect,
        ActionKind::BazaarBid,
    ] {
        assert!(kinds.contains(&kind), "no {kind:?} decision in the games");
    }
}

/// Lines: one per choice, but the bids on one bazaar tile share one (BZ2), whose text
/// gives the range; every choice is on exactly one line.
#[test]
fn bids_share_a_line_and_every_choice_has_one() {
    let mut bid_lines = 0;
    for (_, choices) in decisions() {
        let lines = lines(&choices);
        let mut seen = vec![0; choices.len()];
        for line in &lines {
            for &i in &line.choices {
                seen[i] += 1;
            }
            if line.choices.len() > 1 {
                bid_lines += 1;
                let bids: Vec<u32> = line
                    .choices
                    .iter()
                    .map(|&i| choices[i].bid().unwrap())
                    .collect();
                let text = line_text(&choices, line);
                let range = format!(
                    "bid {} to {}",
                    bids.iter().min().unwrap(),
                    bids.iter().max().unwrap()
                );
                assert!(text.ends_with(&range), "{text}");
                let first = &choices[line.choices[0]];
                assert!(line
                    .choices
                    .iter()
                    .all(|&i| same_but_bid(first, &choices[i])));
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
    }
    assert!(bid_lines > 0, "no bazaar in the games");
}

#[test]
fn words_letters_and_matching() {
    assert_eq!(words(" (2, -1)  Turned\t1 "), ["2", "-1", "turned", "1"]);
    assert_eq!(words(""), Vec::<String>::new());
    assert_eq!(letters(0), "A");
    assert_eq!(letters(25), "Z");
    assert_eq!(letters(26), "AA");
    assert_eq!(letters(27), "AB");
    assert_eq!(letters(26 + 26 * 26), "AAA");
    // The first decision of a base game: the start tile is at (0, 0) (B2).
    let game = Game::new(GameConfig::new(2)).unwrap();
    let choices = choices(&game);
    let squares = square_letters(&game, &choices);
    let all: Vec<usize> = (0..choices.len()).collect();
    for c in &choices {
        let pos = c.pos.unwrap();
        assert!(!game.board().is_placed(pos));
        assert_eq!(
            pos.x.abs() + pos.y.abs(),
            1,
            "placements touch the start tile"
        );
    }
    let w = |s: &str| words(s);
    // Coordinates then rotation name one placement; the kind's words are optional.
    let first = &choices[0];
    let pos = first.pos.unwrap();
    let rot = first.rotation().unwrap().quarter_turns();
    let typed = format!("{} {} {rot}", pos.x, pos.y);
    assert_eq!(match_words(&choices, &all, &squares, &w(&typed)), [0]);
    let typed = format!("place {} {} {rot}", pos.x, pos.y);
    assert_eq!(match_words(&choices, &all, &squares, &w(&typed)), [0]);
    // Out of order, or a square nobody can use, names nothing.
    let typed = format!("{rot} {} {}", pos.x, pos.y);
    assert!(!match_words(&choices, &all, &squares, &w(&typed)).contains(&0) || rot as i32 == pos.x);
    assert!(match_words(&choices, &all, &squares, &w("7 7 0")).is_empty());
    assert!(match_words(&choices, &all, &squares, &w("pass")).is_empty());
    // Only coordinates: every rotation there.
    let at: Vec<usize> = (0..choices.len())
        .filter(|&i| choices[i].pos == Some(pos))
        .collect();
    let typed = format!("{} {}", pos.x, pos.y);
    assert_eq!(match_words(&choices, &all, &squares, &w(&typed)), at);
}
