//! Unit tests of `render::html`, included by `html.rs` so they see its private items.

use super::*;
use crate::render::test_games::every_set;
use carcassonne::config::GameConfig;
use carcassonne::rng::Rng;

/// The replay page has one frame per state, each naming its tiles; tiles are drawn
/// once, from the last state.
#[test]
fn replay_pages_hold_every_turn() {
    let mut config = every_set(3);
    config.seed = 8;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(8);
    let mut states = vec![game.clone()];
    let mut legal = Vec::new();
    while !game.is_terminal() {
        game.legal_actions_into(&mut legal);
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
        let done = game.turns().len() - usize::from(game.turn_in_progress());
        if done == states.len() || game.is_terminal() {
            states.push(game.clone());
        }
    }
    let html = replay_html("a <test> game", &states);
    assert!(html.contains("<title>a &lt;test&gt; game</title>"));
    assert_eq!(
        html.matches(r#"<g class="tile""#).count(),
        game.board().len()
    );
    assert!(html.contains(&format!(r#"data-turns="{}""#, states.len() - 1)));
    for (k, state) in states.iter().enumerate() {
        assert!(
            html.contains(&format!(
                r#"<g class="frame" data-turn="{k}" data-tiles="{}">"#,
                state.board().len()
            )),
            "frame {k}"
        );
    }
    assert_eq!(html.matches("<script>").count(), 1);
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
}

/// TW4: the turn panel shows the prisoners beside their holder's score, one icon per
/// owner and kind.
#[test]
fn turn_panels_show_the_prisoners() {
    let game = crate::render::test_games::with_prisoners();
    let html = replay_html("prisoners", std::slice::from_ref(&game));
    let kinds: usize = (0..game.num_players())
        .map(|holder| {
            (0..game.num_players())
                .flat_map(|owner| Figure::ALL.map(|f| game.prisoners(holder, owner, f)))
                .filter(|&n| n > 0)
                .count()
        })
        .sum();
    let holders = (0..game.num_players())
        .filter(|&s| game.prisoners_held(s) > 0)
        .count();
    assert!(kinds > 0);
    assert_eq!(html.matches(r#"<span class="prisoners">"#).count(), holders);
}

/// HS1: with Hills & Sheep, each turn's panel shows the sheep bag, one entry per kind of
/// token (sheep of one to four, the wolf) with how many are left; the first turn's is the
/// full bag of 4, 5, 5, 2 and 2 wolves. Without the set, no bag.
#[test]
fn turn_panels_show_the_sheep_bag() {
    let game = Game::new(crate::render::test_games::hills_and_sheep(2)).unwrap();
    let later = crate::render::test_games::with_shepherds(20);
    let html = replay_html("bag", &[game]);
    assert_eq!(html.matches(r#"<p class="sheep-bag">"#).count(), 1);
    assert!(html.contains("<b>Sheep bag</b> (18 tokens):"));
    for (token, n) in ["sheep-1", "sheep-2", "sheep-3", "sheep-4", "wolf"]
        .into_iter()
        .zip([4, 5, 5, 2, 2])
    {
        let entry = format!(r#"<span class="bag-token" data-token="{token}">"#);
        let at = html.find(&entry).unwrap_or_else(|| panic!("{entry}"));
        let end = at + html[at..].find("</span>").unwrap();
        assert!(html[at..end].ends_with(&format!("×{n}")), "{token}");
    }
    let left: u32 = later.sheep_bag().iter().map(|&n| u32::from(n)).sum();
    assert!(left < 18, "a shepherd's token left the bag");
    let html = replay_html("bag", &[later]);
    assert!(html.contains(&format!("<b>Sheep bag</b> ({left} tokens):")));
    let plain = replay_html("plain", &[Game::new(GameConfig::new(2)).unwrap()]);
    assert!(!plain.contains(r#"<p class="sheep-bag">"#));
}
