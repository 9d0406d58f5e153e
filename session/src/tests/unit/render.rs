//! Unit tests of `render`, included by `render.rs` so they see its private items.

use super::*;
use carcassonne::config::GameConfig;
use carcassonne::rng::Rng;
use carcassonne::tiles::{catalogue, TileSet};

/// A game played with random legal moves until at most `leave` tiles are left to
/// draw (0: to its end; final scoring takes every figure off the board).
fn played(mut config: GameConfig, seed: u64, leave: u32) -> Game {
    config.seed = seed;
    let mut game = Game::new(config).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut legal = Vec::new();
    while !game.is_terminal() && (leave == 0 || game.tiles_left() > leave) {
        game.legal_actions_into(&mut legal);
        let pick = legal[rng.below(legal.len() as u32) as usize];
        game.apply(pick).unwrap();
    }
    game
}

fn every_set(players: u8) -> GameConfig {
    let mut config = GameConfig::new(players);
    config.sets = TileSet::ALL.to_vec();
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    config.figures.abbot = 1;
    config
}

/// The text lines of the block at board square `pos` in `board_text` output.
fn block_at(text: &str, game: &Game, pos: Pos) -> [String; 3] {
    let (min, max) = game.board().bounds();
    let label_w = (min.y..=max.y).map(|y| y.to_string().len()).max().unwrap();
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = 1 + (pos.y - min.y) as usize * BLOCK_H;
    let left = label_w + 1 + (pos.x - min.x) as usize * (BLOCK_W + GUTTER);
    std::array::from_fn(|l| {
        (left..left + BLOCK_W)
            .map(|k| lines[top + l].get(k).copied().unwrap_or(' '))
            .collect()
    })
}

#[test]
fn every_segment_has_its_own_border_cell() {
    let mut cells: Vec<_> = (0..12).map(segment_cell).collect();
    cells.sort_unstable();
    cells.dedup();
    assert_eq!(cells.len(), 12);
    // A corner cell (where a barn is drawn, AM6) shows one of the two thirds that
    // touch that corner (see `Corner::half_edges`).
    for corner in Corner::ALL {
        let touching = corner
            .half_edges()
            .map(|(side, third)| segment_cell(side.index() * 3 + third));
        assert!(touching.contains(&corner_cell(corner)), "{corner:?}");
    }
}

#[test]
fn blocks_rotate_with_their_tile() {
    // Turning a tile moves each side's glyphs to the next side clockwise (B4).
    for kind in catalogue().kinds() {
        let b0 = tile_block(kind, Rotation::default());
        let b1 = tile_block(kind, Rotation::new(1).unwrap());
        for segment in 0..12 {
            let (l0, k0) = segment_cell(segment);
            let (l1, k1) = segment_cell((segment + 3) % 12);
            assert_eq!(b0[l0][k0], b1[l1][k1], "{} segment {segment}", kind.id());
        }
    }
}

#[test]
fn centre_marks_cloisters_and_special_tiles() {
    let centre = |id: &str| tile_block(catalogue().by_id(id).unwrap(), Rotation::default())[1][2];
    assert_eq!(centre("BASE-B"), 'M');
    assert_eq!(centre("BASE-E-G"), 'G');
    assert_eq!(centre("AM-ABBEY"), 'A');
    assert_eq!(centre("PD-VOLCANO-FIELD"), 'V');
    assert_eq!(centre("PD-PORTAL-JUNCTION"), 'P');
    assert_eq!(centre("BASE-C"), '#');
    assert_eq!(centre("BASE-E"), '.');
    assert_eq!(centre("RIV1-STRAIGHT"), '~');
    // The abbey fits anything (AM1): its border shows walls, not terrain.
    let abbey = tile_block(catalogue().by_id("AM-ABBEY").unwrap(), Rotation::default());
    assert_eq!(abbey[0].iter().collect::<String>(), "+++++");
}

#[test]
fn text_has_one_block_per_tile_and_prints_coordinates() {
    let game = played(every_set(4), 11, 40);
    assert!(!game.board_figures().is_empty());
    let text = board_text(&game);
    let board = game.board();
    let (min, max) = board.bounds();
    let header: Vec<i32> = text
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(header, (min.x..=max.x).collect::<Vec<_>>());
    let mut marked = vec![false; board.len()];
    for f in game.board_figures() {
        marked[f.placement as usize] = true;
    }
    let special = [game.dragon(), game.fairy().map(|f| f.0)];
    let mut non_blank = 0;
    for y in min.y..=max.y {
        for x in min.x..=max.x {
            let pos = Pos::new(x, y);
            let block = block_at(&text, &game, pos);
            let blank = block.iter().all(|l| l.trim().is_empty());
            match board.index_at(pos) {
                None => assert!(blank, "empty square {pos} drawn: {block:?}"),
                Some(i) => {
                    non_blank += 1;
                    let p = board.placement(i);
                    if !marked[i] && !special.contains(&Some(pos)) {
                        let expected: [String; 3] =
                            tile_block(p.kind, p.rot).map(|l| l.iter().collect());
                        assert_eq!(block, expected, "{} at {pos}", p.kind.id());
                    }
                }
            }
        }
        // The y coordinate is printed on both sides of the tile row's middle line.
        let line = text
            .lines()
            .nth(2 + (y - min.y) as usize * BLOCK_H)
            .unwrap();
        assert!(line.trim_start().starts_with(&y.to_string()), "{line:?}");
        assert!(line.trim_end().ends_with(&y.to_string()), "{line:?}");
    }
    assert_eq!(non_blank, board.len());
}

#[test]
fn text_marks_every_figure_with_its_seat() {
    let game = played(every_set(3), 5, 50);
    assert!(!game.board_figures().is_empty());
    let text = board_text(&game);
    let board = game.board();
    for f in game.board_figures() {
        let p = board.placement(f.placement as usize);
        let block = block_at(&text, &game, p.pos);
        let digit = seat_digit(f.owner);
        assert!(
            block.iter().any(|l| l.contains(digit)),
            "seat {} {:?} at {} not drawn: {block:?}",
            f.owner,
            f.figure,
            p.pos
        );
    }
    let listed = text.lines().filter(|l| l.starts_with("  seat ")).count();
    assert_eq!(listed, game.board_figures().len());
    if let Some(pos) = game.dragon() {
        assert!(block_at(&text, &game, pos).iter().any(|l| l.contains('D')));
    }
}

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

#[test]
fn dragon_and_fairy_are_marked() {
    // PD1: the dragon enters on a volcano; PD15: the fairy moves next to a follower.
    let game = (0..40)
        .map(|seed| played(every_set(3), seed, 30))
        .find(|g| g.dragon().is_some() && g.fairy().is_some())
        .expect("a game with the dragon and the fairy on the board");
    let text = board_text(&game);
    let dragon = game.dragon().unwrap();
    let fairy = game.fairy().unwrap().0;
    assert!(block_at(&text, &game, dragon)
        .iter()
        .any(|l| l.contains('D')));
    assert!(block_at(&text, &game, fairy)
        .iter()
        .any(|l| l.contains('F')));
    assert!(text.contains(&format!("dragon: at {dragon}")));
    let svg = board_svg(&game);
    assert!(svg.contains(&format!("<title>dragon at {dragon}</title>")));
    assert!(svg.contains(&format!("<title>fairy at {fairy}</title>")));
}

#[test]
fn rendering_is_deterministic() {
    let a = played(every_set(2), 9, 20);
    let b = played(every_set(2), 9, 20);
    assert_eq!(board_svg(&a), board_svg(&b));
    assert_eq!(board_text(&a), board_text(&b));
    assert_eq!(board_svg(&a.clone()), board_svg(&a));
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
fn flatten(start: (f64, f64), steps: &[Step]) -> Vec<(f64, f64)> {
    let mut points = vec![start];
    for step in steps {
        match *step {
            Step::Line(to) => points.push(to),
            Step::Curve(c, to) => {
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
    // The legend names every symbol once.
    for label in &LEGEND[..LEGEND.len() - 1] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
}

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

#[test]
fn numbers_are_written_compactly() {
    assert_eq!(num(20.0), "20");
    assert_eq!(num(16.666), "16.7");
    assert_eq!(num(-3.26), "-3.3");
}
