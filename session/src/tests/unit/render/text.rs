//! Unit tests of `render::text`, included by `text.rs` so they see its private items.

use super::*;
use crate::render::test_games::{every_set, played, with_castle_and_bridge, with_dragon_and_fairy};
use carcassonne::geometry::Pos;
use carcassonne::geometry::Rotation;
use carcassonne::tiles::catalogue;

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
    // Squares with a mark of their own: the dragon, the fairy, bridges and castles.
    let mut special = vec![game.dragon(), game.fairy().map(|f| f.0)];
    special.extend(
        (0..board.len())
            .filter(|&i| game.bridge_at(i).is_some())
            .map(|i| Some(board.placement(i).pos)),
    );
    special.extend(game.castles().map(|(_, (pos, _), _)| Some(pos)));
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

/// PD1: the dragon is drawn as `D` on its tile; PD15: the fairy as `F`.
#[test]
fn dragon_and_fairy_are_marked() {
    let game = with_dragon_and_fairy();
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
}

#[test]
fn rendering_is_deterministic() {
    let a = played(every_set(2), 9, 20);
    let b = played(every_set(2), 9, 20);
    assert_eq!(board_text(&a), board_text(&b));
}

/// The Royal Gift sets in the text view: bridges `H` (BR1), castles `C` (CA1), shrines
/// `S` (CU1), bazaars `$` (BZ1) and the walled City of Carcassonne `:` (CC2) on the
/// board; under it the City's quarters, the King and the Robber Baron (KR1, KR2), the
/// castles and the bridges; a legend that names them, on lines of at most 96 columns.
#[test]
fn royal_gift_pieces_in_the_text_view() {
    let game = with_castle_and_bridge();
    let text = board_text(&game);
    let board = game.board();
    for i in 0..board.len() {
        if game.bridge_at(i).is_some() {
            let pos = board.placement(i).pos;
            assert!(
                block_at(&text, &game, pos).iter().any(|l| l.contains('H')),
                "bridge at {pos}"
            );
        }
    }
    for (_, (pos, _), _) in game.castles() {
        assert!(
            block_at(&text, &game, pos).iter().any(|l| l.contains('C')),
            "castle at {pos}"
        );
    }
    let centre = |id: &str| tile_block(catalogue().by_id(id).unwrap(), Rotation::default())[1][2];
    assert_eq!(centre("BCB-BAZAAR"), '$');
    assert_eq!(centre("COUNT-07"), ':');
    let shrine = catalogue()
        .kinds()
        .find(|k| {
            k.def()
                .features
                .iter()
                .any(|f| f.kind == carcassonne::tiles::FeatureKind::Shrine)
        })
        .unwrap();
    assert_eq!(tile_block(shrine, Rotation::default())[1][2], 'S');
    let quarter = game.count_quarter().unwrap();
    assert!(
        text.contains(&format!(
            "City of Carcassonne: the count in the {}",
            quarter.name()
        )),
        "{text}"
    );
    assert!(
        text.contains("King: ") && text.contains("; Robber Baron: "),
        "{text}"
    );
    assert!(
        text.contains("castles: seat ") && text.contains("bridges: "),
        "{text}"
    );
    let legend: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("legend:"))
        .take_while(|l| l.starts_with("legend:") || l.starts_with("       "))
        .collect();
    for glyph in [
        "H bridge",
        "C castle",
        "S shrine",
        "$ bazaar",
        ": City of Carcassonne",
    ] {
        assert!(
            legend.iter().any(|l| l.contains(glyph)),
            "{glyph}: {legend:?}"
        );
    }
    assert!(legend.iter().all(|l| l.len() <= 96), "{legend:?}");
}

/// A base game's legend names the base game's pieces only.
#[test]
fn a_base_game_legend_has_no_expansion_glyph() {
    let game = played(carcassonne::config::GameConfig::new(2), 2, 0);
    let text = board_text(&game);
    let legend = text.lines().find(|l| l.starts_with("legend:")).unwrap();
    assert!(
        legend.contains("# city") && legend.contains("M monastery"),
        "{legend}"
    );
    for glyph in [
        "~ river",
        "V volcano",
        "D dragon",
        "H bridge",
        "+ abbey walls",
    ] {
        assert!(!text.contains(glyph), "{glyph}");
    }
}

/// A player's notes come from the modules of the sets in play: at the start of a game of
/// the Count, Abbey & Mayor and Bridges, Castles & Bazaars, the count stands in the City
/// with nobody in it (CC1), and each seat holds its abbey tile (AM1) and its 3 bridges and
/// 3 castles (BR1, CA1), on one line; with those sets gone, no note.
#[test]
fn notes_come_from_the_sets_in_play() {
    use carcassonne::config::GameConfig;
    use carcassonne::TileSet;
    let mut config = GameConfig::new(2);
    config.sets.extend([
        TileSet::AbbeyMayor,
        TileSet::Count,
        TileSet::BridgesCastlesBazaars,
    ]);
    config.figures = carcassonne::config::Figures::default_for(&config.sets);
    let game = Game::new(config).unwrap();
    let notes = crate::render::notes(&game);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("the count stands in the ")
            && notes[0].ends_with("; no figure in the City of Carcassonne"),
        "{notes:?}"
    );
    assert_eq!(
        notes[1],
        "in hand: seat 0 (red) 1 abbey tile, 3 bridges, 3 castles; \
         seat 1 (blue) 1 abbey tile, 3 bridges, 3 castles"
    );
    assert!(crate::render::notes(&Game::new(GameConfig::new(2)).unwrap()).is_empty());
}
