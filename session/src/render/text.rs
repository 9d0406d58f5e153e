//! The board as text: [`board_text`], a grid of 5×3 character blocks ([`tile_block`]),
//! its legend and figure list, and [`score_table`], where each seat's points came from.

use super::pieces::pieces_of;
use super::pieces::Piece;
use super::{anchor_segment, centre_of, feature_label, segment_look, Centre, Look};
use carcassonne::game::{BoardFigure, Game, ScoreKind};
use carcassonne::geometry::{Corner, Pos, Rotation, Side};
use carcassonne::tiles::{FeatureKind, TileKind};
use std::fmt::Write as _;

/// Characters per tile block, across.
const BLOCK_W: usize = 5;
/// Lines per tile block.
const BLOCK_H: usize = 3;
/// Characters between two tile columns.
const GUTTER: usize = 1;

/// The character block of one tile: 3 lines of 5 characters.
pub type TileBlock = [[char; BLOCK_W]; BLOCK_H];

/// The glyph of a feature kind in the text view.
///
/// ```
/// use carcassonne_session::render::feature_glyph;
/// use carcassonne::tiles::FeatureKind;
/// assert_eq!(feature_glyph(FeatureKind::City), '#');
/// assert_eq!(feature_glyph(FeatureKind::Road), '=');
/// ```
pub const fn feature_glyph(kind: FeatureKind) -> char {
    match kind {
        FeatureKind::City => '#',
        FeatureKind::Road => '=',
        FeatureKind::Field => '.',
        FeatureKind::River => '~',
        FeatureKind::Monastery => 'M',
        FeatureKind::Garden => 'G',
        FeatureKind::Shrine => 'S',
        FeatureKind::Tower => 'T',
    }
}

/// Glyph of an abbey wall (a side third that belongs to no feature, AM1).
const ABBEY_WALL: char = '+';
/// Glyph of the walled City of Carcassonne (CC2).
const WALLED_CITY: char = ':';
/// Glyph of a bridge, at its tile's centre (BR1).
const BRIDGE: char = 'H';
/// Glyph of a castle, on its city (CA1).
const CASTLE: char = 'C';

/// The cell `(line, column)` of a tile block that shows segment `side * 3 + third`: the
/// twelve border cells of the block, clockwise from the north-west corner's north third.
const fn segment_cell(segment: usize) -> (usize, usize) {
    let third = segment % 3;
    match segment / 3 {
        0 => (0, 1 + third),
        1 => (third, 4),
        2 => (2, 3 - third),
        _ => (2 - third, 0),
    }
}

/// The block cell next to a corner (where a barn on that corner is drawn, AM6).
const fn corner_cell(corner: Corner) -> (usize, usize) {
    match corner {
        Corner::NW => (0, 0),
        Corner::NE => (0, 4),
        Corner::SE => (2, 4),
        Corner::SW => (2, 0),
    }
}

/// The inner cells of a block: west of the centre, centre, east of the centre.
const INNER_WEST: (usize, usize) = (1, 1);
const INNER_CENTRE: (usize, usize) = (1, 2);
const INNER_EAST: (usize, usize) = (1, 3);

/// The 5×3 block of a tile turned by `rot`, without figures.
///
/// The twelve border cells show the twelve side thirds (north line: `N0 N1 N2` between
/// the corners; east column: `E0 E1 E2` top to bottom; south line: `S2 S1 S0`; west
/// column: `W2 W1 W0`), each with the glyph of its feature ([`feature_glyph`], `+` for an
/// abbey wall, `:` for the walled City of Carcassonne). The middle line shows the west
/// side's middle feature, the centre, and the east side's middle feature; the centre is
/// `M` (monastery), `A` (abbey), `S` (shrine), `G` (garden), `V` (volcano), `P` (magic
/// portal), `$` (bazaar), or the road, river or city that crosses the tile, else the
/// walled city or field.
///
/// ```
/// use carcassonne_session::render::tile_block;
/// use carcassonne::{catalogue, Rotation};
/// let lines = |id: &str, rot: u8| -> Vec<String> {
///     let kind = catalogue().by_id(id).unwrap();
///     tile_block(kind, Rotation::new(rot).unwrap()).iter().map(|l| l.iter().collect()).collect()
/// };
/// // BASE-D: city north, road west to east.
/// assert_eq!(lines("BASE-D", 0), [".###.", "=====", "....."]);
/// // Turned a quarter clockwise: the city faces east, the road runs north to south.
/// assert_eq!(lines("BASE-D", 1), ["..=.#", "..=##", "..=.#"]);
/// // BASE-A: a monastery with a road leaving south.
/// assert_eq!(lines("BASE-A", 0), [".....", "..M..", "..=.."]);
/// ```
pub fn tile_block(kind: TileKind, rot: Rotation) -> TileBlock {
    let glyph = |segment: usize| match segment_look(kind, rot, segment) {
        Look::Feature(k) => feature_glyph(k),
        Look::AbbeyWall => ABBEY_WALL,
        Look::Walled => WALLED_CITY,
    };
    let mut block = [[' '; BLOCK_W]; BLOCK_H];
    for segment in 0..12 {
        let (line, col) = segment_cell(segment);
        block[line][col] = glyph(segment);
    }
    block[INNER_WEST.0][INNER_WEST.1] = glyph(Side::W.index() * 3 + 1);
    block[INNER_EAST.0][INNER_EAST.1] = glyph(Side::E.index() * 3 + 1);
    block[INNER_CENTRE.0][INNER_CENTRE.1] = match centre_of(kind, rot) {
        Centre::Monastery => 'M',
        Centre::Abbey => 'A',
        Centre::Shrine => 'S',
        Centre::Garden => 'G',
        Centre::Volcano => 'V',
        Centre::Portal => 'P',
        Centre::Bazaar => '$',
        Centre::Walled => WALLED_CITY,
        Centre::Feature(k) => feature_glyph(k),
    };
    block
}

/// The block of a tile ([`tile_block`]) with some of its features marked: each
/// `(local, mark)` writes `mark` on every cell that shows local feature `local` (its
/// side thirds; the centre for a feature on no side, such as a monastery). A player in a
/// terminal reads from it which feature of a tile a choice names.
///
/// ```
/// use carcassonne_session::render::tile_block_marked;
/// use carcassonne::{catalogue, Rotation};
/// let d = catalogue().by_id("BASE-D").unwrap();
/// let city = d.def().feature_by_id("c1").unwrap() as u8;
/// let block = tile_block_marked(d, Rotation::default(), &[(city, 'a')]);
/// let lines: Vec<String> = block.iter().map(|l| l.iter().collect()).collect();
/// assert_eq!(lines, [".aaa.", "=====", "....."]);
/// ```
pub fn tile_block_marked(kind: TileKind, rot: Rotation, marks: &[(u8, char)]) -> TileBlock {
    let mut block = tile_block(kind, rot);
    let oriented = kind.def().oriented(rot);
    for &(local, mark) in marks {
        let mut any = false;
        for segment in 0..12 {
            if oriented.segment_feature[segment] == local {
                let (line, col) = segment_cell(segment);
                block[line][col] = mark;
                any = true;
            }
        }
        for (side, cell) in [(Side::W, INNER_WEST), (Side::E, INNER_EAST)] {
            if oriented.segment_feature[side.index() * 3 + 1] == local {
                block[cell.0][cell.1] = mark;
            }
        }
        if !any {
            block[INNER_CENTRE.0][INNER_CENTRE.1] = mark;
        }
    }
    block
}

/// Text cells, in preference order, where a figure standing on local feature `local` of a
/// tile is drawn.
fn figure_cells(kind: TileKind, rot: Rotation, figure: &BoardFigure) -> Vec<(usize, usize)> {
    let mut cells = Vec::with_capacity(16);
    if let Some(corner) = figure.corner() {
        cells.push(corner_cell(corner));
    } else {
        let oriented = kind.def().oriented(rot);
        if let Some(s) = anchor_segment(oriented, figure.local) {
            cells.push(segment_cell(s));
        }
        cells.extend(
            (0..12)
                .filter(|&s| oriented.segment_feature[s] == figure.local)
                .map(segment_cell),
        );
    }
    cells.extend([INNER_WEST, INNER_EAST, INNER_CENTRE]);
    cells
}

/// The digit that marks a seat's figures in the text view.
fn seat_digit(seat: u8) -> char {
    char::from_digit(u32::from(seat), 10).unwrap_or('?')
}

/// The board as text: a grid with one 5×3 block per placed tile ([`tile_block`]), figures
/// drawn over their feature as their owner's seat digit (`0`–`5`, the seats of the record),
/// bridges as `H`, castles as `C`, the dragon as `D`, the fairy as `F`, x coordinates
/// above and below, y coordinates left and right (x grows east, y grows south), then a
/// legend of what the game has ([`pieces_of`]), the list of figures and the state of the
/// expansions in play (the City of Carcassonne's quarters, the King and the Robber Baron,
/// castles, bridges, a bazaar's auction). A finished game shows its figures as they stood
/// before final scoring returned them.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(2)).unwrap();
/// let text = render::board_text(&game);
/// let lines: Vec<&str> = text.lines().collect();
/// // Only the start tile lies at (0, 0): x label, the tile's three lines, x label.
/// assert_eq!(lines[0].trim(), "0");
/// assert_eq!(lines[1].trim(), ".###.");
/// assert_eq!(lines[2].trim(), "0 ===== 0");
/// assert_eq!(lines[3].trim(), ".....");
/// assert_eq!(lines[4].trim(), "0");
/// ```
pub fn board_text(game: &Game) -> String {
    let mut out = board_grid_text(game, &[]);
    out.push('\n');
    out.push_str(&text_legend(game));
    out
}

/// The grid of [`board_text`] without the legend, grown to take in every square of
/// `labels` and with each label (at most 5 characters) written on the middle line of its
/// square, if the square is empty: what a player in a terminal chooses among (the
/// squares where the tile in hand may go, lettered).
///
/// ```
/// use carcassonne::{Game, GameConfig, Pos};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(2)).unwrap();
/// let text = render::board_grid_text(&game, &[(Pos::new(1, 0), "A"), (Pos::new(0, 0), "B")]);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0].trim(), "0     1");
/// // The start tile is not empty: its label is not drawn.
/// assert_eq!(lines[2], "0 =====   A   0");
/// ```
pub fn board_grid_text(game: &Game, labels: &[(Pos, &str)]) -> String {
    let board = game.board();
    let (mut min, mut max) = board.bounds();
    for &(pos, _) in labels {
        min = Pos::new(min.x.min(pos.x), min.y.min(pos.y));
        max = Pos::new(max.x.max(pos.x), max.y.max(pos.y));
    }
    let cols = (max.x - min.x + 1) as usize;
    let rows = (max.y - min.y + 1) as usize;
    let pitch = BLOCK_W + GUTTER;
    let width = cols * pitch - GUTTER;
    let mut grid = vec![vec![' '; width]; rows * BLOCK_H];
    let mut blocks: Vec<TileBlock> = board
        .placements()
        .iter()
        .map(|p| tile_block(p.kind, p.rot))
        .collect();
    let mut taken = vec![[[false; BLOCK_W]; BLOCK_H]; blocks.len()];
    let mut mark = |index: usize, cells: &[(usize, usize)], c: char| {
        let cell = cells
            .iter()
            .find(|(l, k)| !taken[index][*l][*k])
            .or(cells.last());
        if let Some(&(l, k)) = cell {
            blocks[index][l][k] = c;
            taken[index][l][k] = true;
        }
    };
    for f in game.figures_before_final_scoring() {
        let p = board.placement(f.placement as usize);
        mark(
            f.placement as usize,
            &figure_cells(p.kind, p.rot, f),
            seat_digit(f.owner),
        );
    }
    let marker_cells = [INNER_EAST, INNER_WEST, INNER_CENTRE];
    for i in 0..board.len() {
        if game.bridge_at(i).is_some() {
            mark(i, &[INNER_CENTRE, INNER_WEST, INNER_EAST], BRIDGE);
        }
    }
    for (_, (pos, local), _) in game.castles() {
        if let Some(i) = board.index_at(pos) {
            let p = board.placement(i);
            let oriented = p.oriented();
            let mut cells: Vec<(usize, usize)> = anchor_segment(oriented, local)
                .map(segment_cell)
                .into_iter()
                .collect();
            cells.extend(marker_cells);
            mark(i, &cells, CASTLE);
        }
    }
    if let Some(pos) = game.dragon() {
        if let Some(i) = board.index_at(pos) {
            mark(i, &marker_cells, 'D');
        }
    }
    if let Some((pos, _)) = game.fairy() {
        if let Some(i) = board.index_at(pos) {
            mark(i, &marker_cells, 'F');
        }
    }
    for (p, block) in board.placements().iter().zip(&blocks) {
        let top = (p.pos.y - min.y) as usize * BLOCK_H;
        let left = (p.pos.x - min.x) as usize * pitch;
        for (l, line) in block.iter().enumerate() {
            grid[top + l][left..left + BLOCK_W].copy_from_slice(line);
        }
    }
    for &(pos, label) in labels {
        if board.is_placed(pos) {
            continue;
        }
        let top = (pos.y - min.y) as usize * BLOCK_H;
        let left = (pos.x - min.x) as usize * pitch;
        let text: Vec<char> = format!("{label:^BLOCK_W$}").chars().take(BLOCK_W).collect();
        grid[top + BLOCK_H / 2][left..left + text.len()].copy_from_slice(&text);
    }

    let label_w = (min.y..=max.y)
        .map(|y| y.to_string().len())
        .max()
        .unwrap_or(1);
    let mut x_labels = String::new();
    x_labels.push_str(&" ".repeat(label_w + 1));
    for (i, x) in (min.x..=max.x).enumerate() {
        let label = format!("{x:^BLOCK_W$}");
        x_labels.push_str(&label);
        if i + 1 < cols {
            x_labels.push_str(&" ".repeat(GUTTER));
        }
    }
    let x_labels = x_labels.trim_end().to_string();

    let mut out = String::new();
    out.push_str(&x_labels);
    out.push('\n');
    for (r, line) in grid.iter().enumerate() {
        let y = min.y + (r / BLOCK_H) as i32;
        let middle = r % BLOCK_H == BLOCK_H / 2;
        let cells: String = line.iter().collect();
        if middle {
            let _ = writeln!(out, "{y:>label_w$} {cells} {y}");
        } else {
            let _ = writeln!(out, "{:label_w$} {}", "", cells.trim_end());
        }
    }
    out.push_str(&x_labels);
    out.push('\n');
    out
}

/// The legend and the figure list below the text grid.
fn text_legend(game: &Game) -> String {
    let board = game.board();
    let mut out = String::new();
    out.push_str(&legend_lines(game));
    let _ = writeln!(
        out,
        "tiles: {} placed, {} left to draw",
        board.len(),
        game.tiles_left()
    );
    let figures = game.figures_before_final_scoring();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by_key(|&k| {
        let f = &figures[k];
        let p = board.placement(f.placement as usize).pos;
        (f.owner, f.figure, p.y, p.x, f.local)
    });
    let when = if game.is_terminal() {
        " (as they stood before final scoring)"
    } else {
        ""
    };
    if order.is_empty() {
        let _ = writeln!(out, "figures{when}: none on the board");
    } else {
        let _ = writeln!(out, "figures{when}:");
    }
    for k in order {
        let f = &figures[k];
        let p = board.placement(f.placement as usize);
        let what = if let Some(corner) = f.corner() {
            format!("corner {}", corner.name())
        } else {
            let (kind, id) = feature_label(game, f.placement as usize, f.local);
            format!("{} {id}", kind.name())
        };
        let _ = writeln!(
            out,
            "  seat {} {:<8} at {} on {} {}",
            f.owner,
            f.figure.name(),
            p.pos,
            p.kind.id(),
            what
        );
    }
    if let Some(pos) = game.dragon() {
        let _ = writeln!(out, "dragon: at {pos}");
    }
    if let Some((pos, follower)) = game.fairy() {
        match follower {
            Some((owner, local)) => {
                let feature = board
                    .index_at(pos)
                    .map(|i| game.feature_name(i, local))
                    .unwrap_or("?");
                let _ = writeln!(
                    out,
                    "fairy: at {pos}, next to seat {owner}'s figure on {feature}"
                );
            }
            None => {
                let _ = writeln!(out, "fairy: at {pos}");
            }
        }
    }
    out.push_str(&expansion_lines(game));
    out
}

/// Width of the legend's lines.
const LEGEND_WIDTH: usize = 96;

/// The legend: the glyph of every piece the game has ([`pieces_of`]) that the text board
/// shows, on lines of at most [`LEGEND_WIDTH`] columns.
fn legend_lines(game: &Game) -> String {
    let entries: Vec<String> = pieces_of(game, false)
        .iter()
        .filter_map(|p| match (p.glyph, p.piece) {
            (Some(g), Piece::Follower) => Some(format!(
                "{g} a figure of that seat, on the part of its feature nearest the digit"
            )),
            (Some(g), _) => Some(format!("{g} {}", p.name)),
            (None, _) => None,
        })
        .collect();
    let mut out = String::new();
    let mut line = String::from("legend:");
    for entry in entries {
        if line.len() + 2 + entry.len() > LEGEND_WIDTH && line.trim() != "legend:" {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat("legend:".len());
        }
        let first = line == "legend:" || line.trim().is_empty();
        line.push_str(if first { " " } else { "  " });
        line.push_str(&entry);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `items` after `label`, separated by `; `, on lines of at most [`LEGEND_WIDTH`] columns
/// (nothing when there is no item).
pub(crate) fn wrapped(label: &str, items: &[String]) -> String {
    let mut out = String::new();
    let mut line = label.to_string();
    for (i, item) in items.iter().enumerate() {
        let sep = if i == 0 { " " } else { "; " };
        if i > 0 && line.len() + sep.len() + item.len() > LEGEND_WIDTH {
            out.push_str(&line);
            out.push_str(";\n");
            line = format!("{} {item}", " ".repeat(label.len()));
        } else {
            line.push_str(sep);
            line.push_str(item);
        }
    }
    if !items.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The lines of the state of each set in play ([`crate::sets`]).
fn expansion_lines(game: &Game) -> String {
    let mut out = String::new();
    for set in crate::sets::in_play(game) {
        set.text_lines(game, &mut out);
    }
    out
}

/// The column of the score table ([`score_table`]) where points of `kind` are counted,
/// and what the column means.
const fn score_column(kind: ScoreKind) -> (&'static str, &'static str) {
    match kind {
        ScoreKind::City => ("city", "completed cities (B12)"),
        ScoreKind::Road => ("road", "completed roads (B12)"),
        ScoreKind::Monastery => ("monastery", "completed monasteries and abbeys (B12)"),
        ScoreKind::Garden => ("garden", "completed gardens (A2)"),
        ScoreKind::AbbotReturn => (
            "abbot",
            "monasteries and gardens scored when the abbot was taken back (A3)",
        ),
        ScoreKind::FairyTurn | ScoreKind::FairyScored => (
            "fairy",
            "the fairy: a point per turn, 3 when its follower's feature scores (PD16)",
        ),
        ScoreKind::BarnPlaced | ScoreKind::BarnConnected => (
            "barn-field",
            "fields scored when a barn was placed or joined (AM7, AM8)",
        ),
        ScoreKind::Shrine => ("shrine", "completed shrines (CU1)"),
        ScoreKind::Flock => (
            "flock",
            "flocks herded into the fold or scored in a closed field (HS2)",
        ),
        ScoreKind::Castle => (
            "castle",
            "castles: the feature completed next to them (CA3)",
        ),
        ScoreKind::BazaarBuy | ScoreKind::BazaarSell => (
            "bazaar",
            "points paid (-) and received for bazaar tiles (BZ3)",
        ),
        ScoreKind::RansomPaid | ScoreKind::RansomReceived => (
            "ransom",
            "ransoms paid (-) and received for prisoners (TW5)",
        ),
        ScoreKind::Incomplete => (
            "unfinished",
            "end: unfinished cities, roads, monasteries, gardens (B15)",
        ),
        ScoreKind::Farmers => (
            "farmers",
            "end: farmers, 3 per completed city next to their field (B16)",
        ),
        ScoreKind::Barn => (
            "barn",
            "end: barns, 4 per completed city next to their field (AM9)",
        ),
        ScoreKind::King => ("king", "end: the King, a point per completed city (KR3)"),
        ScoreKind::Goods => (
            "goods",
            "end: 10 for the most tokens of each kind of trade goods (TB2)",
        ),
        ScoreKind::RobberBaron => (
            "robber",
            "end: the Robber Baron, a point per completed road (KR3)",
        ),
    }
}

/// Where each seat's points came from: one row per seat (`names[seat]` after the seat
/// number, the winners marked), one column per kind of score that gave or took points
/// in this game ([`ScoreKind`]; kinds that always go together share a column), the
/// total, then one line per column saying what it counts. The columns of a row add up
/// to the seat's score.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let mut game = Game::new(GameConfig::new(2)).unwrap();
/// while !game.is_terminal() {
///     let first = game.legal_actions()[0];
///     game.apply(first).unwrap();
/// }
/// let table = render::score_table(&game, &["first".into(), "first".into()]);
/// // Seat 0's row: its points per column, then its total.
/// let row = table.lines().nth(1).unwrap();
/// assert!(row.starts_with("  seat 0 first"));
/// let points: Vec<i32> = row.split_whitespace().skip(3).filter_map(|w| w.parse().ok()).collect();
/// let (total, columns) = points.split_last().unwrap();
/// assert_eq!(columns.iter().sum::<i32>(), *total);
/// assert_eq!(*total, game.scores()[0]);
/// // Final scoring's incomplete features (B15) are one of the columns, explained below.
/// assert!(table.contains("  unfinished: end: unfinished cities"));
/// ```
pub fn score_table(game: &Game, names: &[String]) -> String {
    let players = game.num_players();
    let mut columns: Vec<(&str, &str, Vec<i32>)> = Vec::new();
    for e in game.events() {
        let (name, meaning) = score_column(e.kind);
        let at = match columns.iter().position(|c| c.0 == name) {
            Some(i) => i,
            None => {
                columns.push((name, meaning, vec![0; players]));
                columns.len() - 1
            }
        };
        if let Some(points) = columns[at].2.get_mut(e.player as usize) {
            *points += e.points;
        }
    }
    columns.retain(|c| c.2.iter().any(|&p| p != 0));
    // Columns in the order of the kinds' declaration: play first, the end last.
    columns.sort_by_key(|c| {
        ScoreKind::ALL
            .iter()
            .position(|&k| score_column(k).0 == c.0)
            .unwrap_or(usize::MAX)
    });
    let label = |seat: usize| match names.get(seat) {
        Some(name) => format!("seat {seat} {name}"),
        None => format!("seat {seat}"),
    };
    let label_w = (0..players).map(|s| label(s).len()).max().unwrap_or(0);
    let winners = game.winners();
    let mut out = String::new();
    let _ = write!(out, "  {:label_w$}", "");
    for (name, _, _) in &columns {
        let _ = write!(out, "  {name:>w$}", w = name.len().max(4));
    }
    out.push_str("  total\n");
    for seat in 0..players {
        let _ = write!(out, "  {:label_w$}", label(seat));
        for (name, _, points) in &columns {
            let _ = write!(out, "  {:>w$}", points[seat], w = name.len().max(4));
        }
        let total = game.scores().get(seat).copied().unwrap_or(0);
        let _ = write!(out, "  {total:>5}");
        if game.is_terminal() && winners.contains(&seat) {
            out.push_str("  winner");
        }
        out.push('\n');
    }
    for (name, meaning, _) in &columns {
        let _ = writeln!(out, "  {name}: {meaning}");
    }
    out
}

#[cfg(test)]
#[path = "../tests/unit/render/text.rs"]
mod tests;
