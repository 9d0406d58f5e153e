//! Unit tests of `render::svg`, included by `svg.rs` so they see its private items.

use super::tile::{city_outline, segment_point, OutlineStep};
use super::*;
use crate::render::test_games::{
    every_set, played, with_castle_and_bridge, with_dragon_and_fairy, with_prisoners,
    with_shepherds,
};
use carcassonne::geometry::Rotation;
use carcassonne::tiles::{catalogue, FeatureKind, Symbols, TileSet, NO_FEATURE};

#[test]
fn svg_has_one_group_per_tile_and_one_mark_per_figure() {
    let game = played(every_set(4), 3, 30);
    assert!(!game.board_figures().is_empty());
    let svg = board_svg(&game);
    let board = game.board();
    assert_eq!(svg.matches(r#"<g class="tile""#).count(), board.len());
    for p in board.placements() {
        let attrs = format!(
            r#"data-x="{}" data-y="{}" data-tile="{}" data-rot="{}""#,
            p.pos.x,
            p.pos.y,
            p.kind.id(),
            p.rot.quarter_turns()
        );
        assert_eq!(svg.matches(&attrs).count(), 1, "{attrs}");
    }
    assert_eq!(
        svg.matches(r#"class="figure"#).count(),
        game.board_figures().len()
    );
    assert_eq!(
        svg.matches(r#"<g class="dragon">"#).count(),
        usize::from(game.dragon().is_some())
    );
    assert_eq!(
        svg.matches(r#"<g class="fairy">"#).count(),
        usize::from(game.fairy().is_some())
    );
    // Sized to the bounds: every column and row of the bounding box is one tile.
    let (min, max) = board.bounds();
    let width = (MARGIN * 2.0 + (max.x - min.x + 1) as f64 * TILE).max(MIN_WIDTH);
    assert!(svg.starts_with(&format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}""#,
        num(width)
    )));
    // Well formed at the level of its elements: every opened group is closed.
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    assert!(svg.trim_end().ends_with("</svg>"));
}

fn rgb(hex: &str) -> [f64; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as f64, ((v >> 8) & 255) as f64, (v & 255) as f64]
}

fn distance(a: &str, b: &str) -> f64 {
    let (a, b) = (rgb(a), rgb(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

#[test]
fn seat_colours_stand_apart_from_terrain_and_each_other() {
    for (seat, colour) in PLAYER_COLOURS.iter().enumerate() {
        for terrain in TERRAIN_FILLS {
            let d = distance(colour, terrain);
            assert!(
                d >= 80.0,
                "seat {seat} {colour} is only {d:.0} from terrain {terrain}"
            );
        }
        for other in &PLAYER_COLOURS[seat + 1..] {
            let d = distance(colour, other);
            assert!(d >= 80.0, "seats {colour} and {other}: {d:.0}");
        }
    }
}

/// The points of a city outline, its curves flattened.
fn flatten(start: (f64, f64), steps: &[OutlineStep]) -> Vec<(f64, f64)> {
    let mut points = vec![start];
    for step in steps {
        match *step {
            OutlineStep::Line(to) => points.push(to),
            OutlineStep::Curve(c, to) => {
                let from = *points.last().unwrap();
                for i in 1..=32 {
                    let t = i as f64 / 32.0;
                    let u = 1.0 - t;
                    points.push((
                        u * u * from.0 + 2.0 * u * t * c.0 + t * t * to.0,
                        u * u * from.1 + 2.0 * u * t * c.1 + t * t * to.1,
                    ));
                }
            }
        }
    }
    points
}

fn inside(polygon: &[(f64, f64)], p: (f64, f64)) -> bool {
    let mut inside = false;
    let n = polygon.len();
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) {
            inside = !inside;
        }
    }
    inside
}

/// Every city of every catalogue tile is a shape that holds the figure points of its
/// thirds; two cities of one tile never share a point of the tile (they are drawn as
/// separate shapes, each with its own outline).
#[test]
fn cities_of_one_tile_are_separate_shapes() {
    let mut tiles_with_several = 0;
    for kind in catalogue().kinds() {
        let def = kind.def();
        for rot in 0..4 {
            let oriented = def.oriented(Rotation::new(rot).unwrap());
            let mut shapes = Vec::new();
            for (i, f) in def.features.iter().enumerate() {
                if f.kind != FeatureKind::City {
                    continue;
                }
                let kinds = |f: u8| def.features[f as usize].kind;
                let Some((start, steps)) = city_outline(oriented, i as u8, kinds) else {
                    continue;
                };
                let polygon = flatten(start, &steps);
                for s in (0..12).filter(|&s| oriented.segment_feature[s] == i as u8) {
                    assert!(
                        inside(&polygon, segment_point(s)),
                        "{} rot {rot}: {} misses its third {s}",
                        kind.id(),
                        f.id
                    );
                }
                shapes.push((f.id.clone(), polygon));
            }
            if shapes.len() < 2 {
                continue;
            }
            tiles_with_several += 1;
            // Cities whose thirds alternate around the border (A B A B) cross: one
            // bridges the other (AM-CROSSED-CITIES), so their shapes must overlap.
            let mut order: Vec<u8> = Vec::new();
            for s in 0..12 {
                let f = oriented.segment_feature[s];
                if f != NO_FEATURE
                    && def.features[f as usize].kind == FeatureKind::City
                    && order.last() != Some(&f)
                {
                    order.push(f);
                }
            }
            while order.len() > 1 && order.first() == order.last() {
                order.pop();
            }
            if order.len() >= 4 {
                continue;
            }
            for y in 1..TILE as usize - 1 {
                for x in 1..TILE as usize - 1 {
                    let p = (x as f64 + 0.5, y as f64 + 0.5);
                    let holders: Vec<&str> = shapes
                        .iter()
                        .filter(|(_, poly)| inside(poly, p))
                        .map(|(id, _)| id.as_str())
                        .collect();
                    assert!(
                        holders.len() <= 1,
                        "{} rot {rot}: {holders:?} overlap at {p:?}",
                        kind.id()
                    );
                }
            }
        }
    }
    assert!(
        tiles_with_several > 0,
        "the catalogue has tiles with two cities"
    );
}

/// A finished game shows its figures as they stood before final scoring returned
/// them (B15), and marks the winner.
#[test]
fn finished_games_show_their_last_figures_and_winner() {
    let game = played(every_set(4), 21, 0);
    assert!(game.is_terminal());
    let before = game.figures_before_final_scoring();
    assert!(!before.is_empty(), "figures stood on the board at the end");
    // Final scoring returns every figure but barns (AM9 keeps them).
    for f in game.board_figures() {
        assert!(before.contains(f), "{f:?} appeared during final scoring");
    }
    let svg = board_svg(&game);
    assert_eq!(svg.matches(r#"<g class="figure "#).count(), before.len());
    let winners = game.winners();
    assert!(!winners.is_empty());
    assert_eq!(
        svg.matches(r#"<g class="score winner""#).count(),
        winners.len()
    );
    for seat in &winners {
        assert!(svg.contains(&format!(
            "{}: {} \u{2605} winner",
            seat_name(*seat),
            game.scores()[*seat]
        )));
    }
    assert!(svg.contains("Game over after"));
    // The legend names every piece of the game once, and the replay's piece not.
    let legend = &svg[svg.find(r#"<g class="legend">"#).unwrap()..];
    for piece in pieces_of(&game, false) {
        assert_eq!(
            legend.matches(&format!(">{}</text>", piece.name)).count(),
            1,
            "{}",
            piece.name
        );
    }
    assert!(!svg.contains(">tile of this turn</text>"));
}

#[test]
fn numbers_are_written_compactly() {
    assert_eq!(num(20.0), "20");
    assert_eq!(num(16.666), "16.7");
    assert_eq!(num(-3.26), "-3.3");
}

/// PD1, PD15: the dragon and the fairy are titled with their squares.
#[test]
fn dragon_and_fairy_are_marked() {
    let game = with_dragon_and_fairy();
    let svg = board_svg(&game);
    let dragon = game.dragon().unwrap();
    let fairy = game.fairy().unwrap().0;
    assert!(svg.contains(&format!("<title>dragon at {dragon}</title>")));
    assert!(svg.contains(&format!("<title>fairy at {fairy}</title>")));
}

#[test]
fn rendering_is_deterministic() {
    let a = played(every_set(2), 9, 20);
    let b = played(every_set(2), 9, 20);
    assert_eq!(board_svg(&a), board_svg(&b));
    assert_eq!(board_svg(&a.clone()), board_svg(&a));
}

/// A base + River game's legend lists what such a game has and nothing of the other sets
/// (no volcano, portal, dragon or fairy, PD1, PD12, PD15).
#[test]
fn the_legend_lists_the_games_pieces_only() {
    let mut config = carcassonne::config::GameConfig::new(2);
    config.sets = vec![TileSet::Base, TileSet::River1];
    let game = played(config, 3, 0);
    let svg = board_svg(&game);
    let legend = &svg[svg.find(r#"<g class="legend">"#).unwrap()..];
    for name in ["field", "city", "road", "river", "monastery", "follower"] {
        assert!(legend.contains(&format!(">{name}</text>")), "{name}");
    }
    for name in [
        "volcano",
        "magic portal",
        "dragon",
        "fairy",
        "abbot",
        "castle",
        "bridge",
        "City of Carcassonne",
    ] {
        assert!(!legend.contains(&format!(">{name}</text>")), "{name}");
    }
}

/// A game of the Royal Gift sets draws their pieces: the walled City of Carcassonne and
/// the count (CC2), shrines (CU1), bazaars (BZ1), castles (CA1) and bridges (BR1) where
/// the game has them, the King and the Robber Baron beside their holders' scores (KR1,
/// KR2), and the legend names every one of them.
#[test]
fn royal_gift_pieces_are_drawn_and_in_the_legend() {
    let game = with_castle_and_bridge();
    let picture = board_svg(&game);
    // The board and the summary, without the legend's swatches.
    let svg = &picture[..picture.find(r#"<g class="legend">"#).unwrap()];
    let legend = &picture[svg.len()..];
    let board = game.board();
    let has = |symbol: Symbols| board.placements().iter().any(|p| p.kind.def().has(symbol));
    assert!(has(Symbols::SHRINE) && has(Symbols::BAZAAR));
    let shrines = board
        .placements()
        .iter()
        .filter(|p| {
            p.kind
                .def()
                .features
                .iter()
                .any(|f| f.kind == FeatureKind::Shrine)
        })
        .count();
    assert_eq!(svg.matches(r#"<g class="shrine">"#).count(), shrines);
    let bazaars = board
        .placements()
        .iter()
        .filter(|p| p.kind.def().has(Symbols::BAZAAR))
        .count();
    assert_eq!(svg.matches(r#"<g class="bazaar">"#).count(), bazaars);
    assert_eq!(
        svg.matches(r#"<g class="castle">"#).count(),
        game.castles().count()
    );
    let bridges = (0..board.len())
        .filter(|&i| game.bridge_at(i).is_some())
        .count();
    assert_eq!(svg.matches(r#"<g class="bridge">"#).count(), bridges);
    assert!(svg.contains(&format!(r#"fill="{CARCASSONNE_COLOUR}""#)));
    // The count stands on the City and in its quarter's line under the scores.
    let quarter = game.count_quarter().unwrap();
    assert_eq!(
        svg.matches(&format!(
            "<title>the count, in the {} quarter</title>",
            quarter.name()
        ))
        .count(),
        2
    );
    assert_eq!(
        svg.matches(r#"class="quarter-figure "#).count(),
        game.quarter_figures().len()
    );
    let (king, robber) = game.titles();
    for (holder, class) in [(king, "king"), (robber, "robber-baron")] {
        let drawn = svg.matches(&format!(r#"<g class="{class}">"#)).count();
        assert_eq!(
            drawn,
            usize::from(holder.is_some()),
            "{class} beside its holder"
        );
    }
    for name in [
        "City of Carcassonne",
        "the count",
        "King",
        "Robber Baron",
        "shrine",
        "bridge",
        "castle",
        "bazaar",
    ] {
        assert!(legend.contains(&format!(">{name}</text>")), "{name}");
    }
}

/// TW4: beside each seat's score, the figures of other seats it holds prisoner, one mark
/// per owner and kind in the owner's colour, titled with the number, the owner and the
/// holder; a seat without prisoners has none.
#[test]
fn prisoners_are_drawn_beside_their_holders_score() {
    let game = with_prisoners();
    let svg = board_svg(&game);
    let scores = &svg[svg.find(r#"<g class="scores">"#).unwrap()..];
    let mut marks = 0;
    for holder in 0..game.num_players() {
        let line_start = scores
            .find(&format!(r#"data-seat="{holder}">"#))
            .expect("a score line per seat");
        let line = &scores[line_start..];
        let line = &line[..line.find("</g>\n</g>").map_or(line.len(), |e| e + 4)];
        let held = game.prisoners_held(holder);
        assert_eq!(
            line.contains(&format!(r#"<g class="prisoners" data-seat="{holder}">"#)),
            held > 0,
            "seat {holder}"
        );
        for owner in 0..game.num_players() {
            for figure in Figure::ALL {
                let n = game.prisoners(holder, owner, figure);
                let title = format!(
                    "<title>{n} {} of {} held prisoner by {}</title>",
                    figure.name(),
                    seat_name(owner),
                    seat_name(holder)
                );
                assert_eq!(svg.contains(&title), n > 0, "{title}");
                marks += usize::from(n > 0);
            }
        }
    }
    assert!(marks > 0);
    assert_eq!(svg.matches(r#"class="prisoner "#).count(), marks);
    // Without the Tower, no prisoner mark.
    let plain = board_svg(&played(carcassonne::config::GameConfig::new(2), 1, 30));
    assert!(!plain.contains(r#"class="prisoners""#));
}

/// The tiles placed of `game` that show `symbol`.
fn tiles_with(game: &Game, symbol: Symbols) -> usize {
    game.board()
        .placements()
        .iter()
        .filter(|p| p.kind.def().has(symbol))
        .count()
}

/// HS3, HS5: every placed tile with a hill shows one mound, every tile with a vineyard
/// one vineyard; HS1: every shepherd is a meeple with a crook (no letter, unlike the other
/// figures but the follower), with a sheep beside it carrying the number of sheep of its
/// flock, the sum of its tokens' sheep; the legend names all of them.
#[test]
fn hills_vineyards_and_shepherds_with_their_flocks_are_drawn() {
    let game = with_shepherds(20);
    let picture = board_svg(&game);
    let svg = &picture[..picture.find(r#"<g class="legend">"#).unwrap()];
    let legend = &picture[svg.len()..];
    let hills = tiles_with(&game, Symbols::HILL);
    let vineyards = tiles_with(&game, Symbols::VINEYARD);
    assert!(hills > 0, "a game of 50 tiles places a hill");
    assert_eq!(svg.matches(r#"<path class="hill""#).count(), hills);
    assert_eq!(svg.matches(r#"<g class="vineyard">"#).count(), vineyards);
    let shepherds: Vec<_> = game
        .board_figures()
        .iter()
        .filter(|f| f.figure == Figure::Shepherd)
        .collect();
    assert!(!shepherds.is_empty());
    let marks = svg.matches(r#"<g class="figure shepherd""#).count();
    assert_eq!(marks, shepherds.len());
    assert_eq!(svg.matches(r#"<path class="crook""#).count(), marks);
    assert_eq!(svg.matches(r#"<g class="flock">"#).count(), marks);
    for f in shepherds {
        let owner = f.owner as usize;
        let tokens = game.flock_of(owner);
        // HS1: tokens of one to four sheep, in the order of SheepToken; a wolf never
        // stays with a shepherd.
        assert_eq!(tokens[4], 0);
        let sheep: u32 = (0..4).map(|k| (k as u32 + 1) * u32::from(tokens[k])).sum();
        assert!(sheep > 0, "a shepherd on the board has a sheep");
        let title = format!("<title>flock of {}: {sheep} sheep on ", seat_name(owner));
        let at = svg.find(&title).unwrap_or_else(|| panic!("{title}"));
        // The number on the sheep is the flock's.
        let mark = &svg[at..at + svg[at..].find("</g>").unwrap()];
        assert!(mark.contains(&format!(">{sheep}</text>")), "{mark}");
    }
    for name in [
        "hill",
        "vineyard",
        "shepherd",
        "sheep (flock, bag)",
        "wolf (bag)",
    ] {
        assert!(legend.contains(&format!(">{name}</text>")), "{name}");
    }
    // Without the set, none of it.
    let plain = board_svg(&played(carcassonne::config::GameConfig::new(2), 1, 30));
    for mark in [
        r#"class="hill""#,
        r#"class="vineyard""#,
        "sheep-bag",
        "flock",
    ] {
        assert!(!plain.contains(mark), "{mark}");
    }
}

/// HS1: at the start the sheep bag holds 18 tokens: 4 of one sheep, 5 of two, 5 of three,
/// 2 of four and 2 wolves; the line under the scores shows each kind with its number.
#[test]
fn the_sheep_bag_starts_full() {
    let game = Game::new(crate::render::test_games::hills_and_sheep(2)).unwrap();
    let svg = board_svg(&game);
    let bag = &svg[svg
        .find(r#"<g class="sheep-bag">"#)
        .expect("the bag's line")..];
    assert!(bag.contains(">sheep bag (18 tokens)</text>"));
    for (n, what) in [
        (4, "tokens of 1 sheep"),
        (5, "tokens of 2 sheep"),
        (5, "tokens of 3 sheep"),
        (2, "tokens of 4 sheep"),
        (2, "wolves"),
    ] {
        assert!(
            bag.contains(&format!("<title>{n} {what} left in the bag</title>")),
            "{n} {what}"
        );
    }
    assert_eq!(bag.matches(r#"<g class="bag-token">"#).count(), 5);
}

/// HS1, HS2: a finished game shows its shepherds as they stood before final scoring (B15)
/// with their flocks, not the flocks final scoring put back into the bag; the bag shown
/// then holds the other tokens: with the flocks drawn, every kind adds up to the full
/// bag (4, 5, 5, 2 and 2 wolves).
#[test]
fn a_finished_game_shows_its_last_flocks_and_the_bag_without_them() {
    let game = with_shepherds(0);
    assert!(game.is_terminal());
    let svg = board_svg(&game);
    let full = [4u8, 5, 5, 2, 2];
    let mut in_flocks = [0u8; 5];
    let shepherds = game
        .figures_before_final_scoring()
        .iter()
        .filter(|f| f.figure == Figure::Shepherd);
    for f in shepherds {
        let tokens = game.flock_before_final_scoring(f.owner as usize);
        let sheep: u32 = (0..4).map(|k| (k as u32 + 1) * u32::from(tokens[k])).sum();
        assert!(sheep > 0, "a shepherd stood with a sheep");
        let title = format!(
            "<title>flock of {}: {sheep} sheep on ",
            seat_name(f.owner as usize)
        );
        assert!(svg.contains(&title), "{title}");
        for (sum, n) in in_flocks.iter_mut().zip(tokens) {
            *sum += n;
        }
    }
    for k in 0..5 {
        let left = full[k] - in_flocks[k];
        let what = match (k, left) {
            (4, 1) => "wolf".to_string(),
            (4, _) => "wolves".to_string(),
            (_, 1) => format!("token of {} sheep", k + 1),
            _ => format!("tokens of {} sheep", k + 1),
        };
        let title = format!("<title>{left} {what} left in the bag</title>");
        assert!(svg.contains(&title), "{title}");
    }
}

/// HS3, HS5: a hill or vineyard is drawn on a field third of its tile, in every rotation,
/// and never where a figure on one of the tile's features stands.
#[test]
fn hills_and_vineyards_stand_on_a_field_apart_from_the_figures() {
    let mut drawn = 0;
    for kind in catalogue().kinds() {
        let def = kind.def();
        if !(def.has(Symbols::HILL) || def.has(Symbols::VINEYARD)) {
            continue;
        }
        for r in 0..4 {
            let rot = Rotation::new(r).unwrap();
            let oriented = def.oriented(rot);
            let spot = tile::field_symbol_spot(kind, rot);
            let on_field = (0..12).any(|s| {
                let f = oriented.segment_feature[s];
                f != NO_FEATURE
                    && def.features[f as usize].kind == FeatureKind::Field
                    && segment_point(s) == spot
            });
            assert!(on_field, "{} turned {r}: {spot:?}", kind.id());
            for local in 0..def.features.len() as u8 {
                assert_ne!(feature_spot(kind, rot, local), spot, "{} {r}", kind.id());
            }
            drawn += 1;
        }
    }
    // The 17 tile kinds of Hills & Sheep but its two monasteries.
    assert_eq!(drawn, 4 * 15);
}
