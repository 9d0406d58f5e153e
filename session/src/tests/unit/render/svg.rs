//! Unit tests of `render::svg`, included by `svg.rs` so they see its private items.

use super::tile::{city_outline, segment_point, OutlineStep};
use super::*;
use crate::render::test_games::{
    every_set, played, with_castle_and_bridge, with_dragon_and_fairy, with_prisoners,
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
