//! The board as text and as SVG.
//!
//! Both views are drawn from the tile catalogue's segment data: every tile side has three
//! thirds (`N0 N1 N2 E0 ... W2`, clockwise from the north-west corner) and each third
//! belongs to one feature of the tile ([`Oriented::segment_feature`]), so what a tile
//! shows on each third is exactly what the rules join (B4).
//!
//! * [`board_text`]: a grid of 5×3 character blocks, one per placed tile, with the x
//!   coordinates above and below the grid, the y coordinates left and right of it, a
//!   legend and the list of figures. [`tile_block`] is the block of one tile.
//! * [`board_svg`]: a self-contained SVG picture sized to the board's bounds: one group
//!   per tile, figures as circles in their owner's colour, the dragon and the fairy.
//!
//! Output depends only on the game state, so the same game always renders the same bytes.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::render;
//! let game = Game::new(GameConfig::new(2)).unwrap();
//! let text = render::board_text(&game);
//! // The start tile BASE-D: a city on the north side, a road from west to east (B2).
//! assert!(text.contains(".###.\n"));
//! assert!(text.contains("0 ===== 0\n"));
//! let svg = render::board_svg(&game);
//! assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
//! ```

use carcassonne::config::Figure;
use carcassonne::game::{BoardFigure, Game};
use carcassonne::geometry::{Corner, Pos, Rotation, Side};
use carcassonne::tiles::{FeatureKind, Oriented, RoadEnd, Symbols, TileKind, NO_FEATURE};
use std::fmt::Write as _;

// ----- shared geometry ------------------------------------------------------------------

/// The segment (`side * 3 + third`) that best represents a feature on a tile in the
/// board frame: the middle third of the first side a city, road or river leaves through,
/// else the first third the feature covers. `None` for features without segments
/// (monasteries, gardens, the abbey, fields enclosed inside a tile).
///
/// ```
/// use carcassonne_session::render::anchor_segment;
/// use carcassonne::{catalogue, Rotation};
/// let d = catalogue().by_id("BASE-D").unwrap();
/// let city = d.def().feature_by_id("c1").unwrap() as u8;
/// // Unturned, BASE-D's city lies on the north side: its anchor is N1 (segment 1).
/// assert_eq!(anchor_segment(d.def().oriented(Rotation::default()), city), Some(1));
/// // A quarter turn clockwise moves it to the east side: E1 (segment 4).
/// assert_eq!(anchor_segment(d.def().oriented(Rotation::new(1).unwrap()), city), Some(4));
/// ```
pub fn anchor_segment(oriented: &Oriented, local: u8) -> Option<usize> {
    let middle = (0..4)
        .map(|side| side * 3 + 1)
        .find(|&s| oriented.segment_feature[s] == local);
    middle.or_else(|| oriented.segment_feature.iter().position(|&f| f == local))
}

/// The feature kind shown on one segment (`None`: the abbey's walls, which fit anything).
fn segment_kind(kind: TileKind, oriented: &Oriented, segment: usize) -> Option<FeatureKind> {
    match oriented.segment_feature[segment] {
        NO_FEATURE => None,
        f => Some(kind.def().features[f as usize].kind),
    }
}

/// What a tile shows at its centre.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Centre {
    Monastery,
    Abbey,
    Garden,
    Volcano,
    Portal,
    Feature(FeatureKind),
}

fn centre_of(kind: TileKind, rot: Rotation) -> Centre {
    let def = kind.def();
    let oriented = def.oriented(rot);
    if def.features.iter().any(|f| f.kind.is_monastery_like()) {
        return if def.has(Symbols::ABBEY) {
            Centre::Abbey
        } else {
            Centre::Monastery
        };
    }
    if def.features.iter().any(|f| f.kind == FeatureKind::Garden) {
        return Centre::Garden;
    }
    if def.has(Symbols::VOLCANO) {
        return Centre::Volcano;
    }
    if def.has(Symbols::MAGIC_PORTAL) {
        return Centre::Portal;
    }
    let sides_of = |i: usize| oriented.feature_sides[i].count_ones();
    let crosses = |wanted: FeatureKind| {
        let mut junction_ends = 0;
        for (i, f) in def.features.iter().enumerate() {
            if f.kind != wanted {
                continue;
            }
            if sides_of(i) >= 2 {
                return true;
            }
            if f.road_end == Some(RoadEnd::Junction) {
                junction_ends += 1;
            }
        }
        junction_ends >= 3
    };
    for wanted in [FeatureKind::Road, FeatureKind::River] {
        if crosses(wanted) {
            return Centre::Feature(wanted);
        }
    }
    let city_across = def
        .features
        .iter()
        .enumerate()
        .any(|(i, f)| f.kind == FeatureKind::City && sides_of(i) >= 2);
    if city_across {
        Centre::Feature(FeatureKind::City)
    } else {
        Centre::Feature(FeatureKind::Field)
    }
}

/// The colour of each seat's figures in the SVG picture.
pub const PLAYER_COLOURS: [&str; 6] = [
    "#d62728", "#1f4fd6", "#f2c318", "#222222", "#9b4dca", "#ff7f0e",
];

/// The English name of a seat's colour in the SVG picture.
pub const PLAYER_COLOUR_NAMES: [&str; 6] = ["red", "blue", "yellow", "black", "purple", "orange"];

// ----- text ---------------------------------------------------------------------------

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
    }
}

/// Glyph of an abbey wall (a side third that belongs to no feature, AM1).
const ABBEY_WALL: char = '+';

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
/// abbey wall). The middle line shows the west side's middle feature, the centre, and the
/// east side's middle feature; the centre is `M` (monastery), `A` (abbey), `G` (garden),
/// `V` (volcano), `P` (magic portal), or the road, river or city that crosses the tile,
/// else field.
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
    let oriented = kind.def().oriented(rot);
    let glyph =
        |segment: usize| segment_kind(kind, oriented, segment).map_or(ABBEY_WALL, feature_glyph);
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
        Centre::Garden => 'G',
        Centre::Volcano => 'V',
        Centre::Portal => 'P',
        Centre::Feature(k) => feature_glyph(k),
    };
    block
}

/// Text cells, in preference order, where a figure standing on local feature `local` of a
/// tile is drawn.
fn figure_cells(kind: TileKind, rot: Rotation, figure: &BoardFigure) -> Vec<(usize, usize)> {
    let mut cells = Vec::with_capacity(16);
    if figure.figure == Figure::Barn {
        cells.push(corner_cell(Corner::from_index(figure.local as usize)));
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
/// the dragon as `D`, the fairy as `F`, x coordinates above and below, y coordinates left
/// and right (x grows east, y grows south), then a legend and the list of figures.
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
    let board = game.board();
    let (min, max) = board.bounds();
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
    for f in game.board_figures() {
        let p = board.placement(f.placement as usize);
        mark(
            f.placement as usize,
            &figure_cells(p.kind, p.rot, f),
            seat_digit(f.owner),
        );
    }
    let marker_cells = [INNER_EAST, INNER_WEST, INNER_CENTRE];
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
    out.push('\n');
    out.push_str(&text_legend(game));
    out
}

/// The legend and the figure list below the text grid.
fn text_legend(game: &Game) -> String {
    let board = game.board();
    let mut out = String::new();
    out.push_str(
        "legend: # city  = road  . field  ~ river  + abbey wall  M monastery  A abbey  \
         G garden  V volcano  P magic portal\n",
    );
    out.push_str(
        "        0-5 a figure of that seat, on the part of its feature nearest the digit  \
         D dragon  F fairy\n",
    );
    let _ = writeln!(
        out,
        "tiles: {} placed, {} left to draw",
        board.len(),
        game.tiles_left()
    );
    let figures = game.board_figures();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by_key(|&k| {
        let f = &figures[k];
        let p = board.placement(f.placement as usize).pos;
        (f.owner, f.figure, p.y, p.x, f.local)
    });
    if order.is_empty() {
        out.push_str("figures: none on the board\n");
    } else {
        out.push_str("figures:\n");
    }
    for k in order {
        let f = &figures[k];
        let p = board.placement(f.placement as usize);
        let what = if f.figure == Figure::Barn {
            format!("corner {}", Corner::from_index(f.local as usize).name())
        } else {
            let feature = &p.kind.def().features[f.local as usize];
            format!("{} {}", feature.kind.name(), feature.id)
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
                    .at(pos)
                    .map(|p| p.kind.def().features[local as usize].id.as_str())
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
    out
}

// ----- SVG ----------------------------------------------------------------------------

/// Side of a tile square in the SVG, in user units.
const TILE: f64 = 60.0;
/// Room for the coordinate labels around the board.
const MARGIN: f64 = 28.0;
/// Height of one score line under the board.
const SCORE_LINE: f64 = 16.0;
/// Width the score lines need.
const SCORE_WIDTH: f64 = 170.0;

const FIELD_COLOUR: &str = "#8fbf5a";
const CITY_COLOUR: &str = "#c9955a";
const ROAD_COLOUR: &str = "#f6f2e4";
const ROAD_EDGE_COLOUR: &str = "#6b6256";
const RIVER_COLOUR: &str = "#3f87d6";
const ABBEY_COLOUR: &str = "#d8c39a";
const MONASTERY_COLOUR: &str = "#a8452f";
const GARDEN_COLOUR: &str = "#2f6f2a";
const PENNANT_COLOUR: &str = "#2255aa";

fn fill_of(kind: Option<FeatureKind>) -> &'static str {
    match kind {
        None => ABBEY_COLOUR,
        Some(FeatureKind::City) => CITY_COLOUR,
        // Roads and rivers are drawn as strokes over the field they cross.
        Some(_) => FIELD_COLOUR,
    }
}

/// A number for SVG output: integers without a fraction, else one decimal (deterministic).
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Corner `i` of a tile square (0 = NW, clockwise), in tile coordinates.
fn square_corner(i: usize) -> (f64, f64) {
    match i & 3 {
        0 => (0.0, 0.0),
        1 => (TILE, 0.0),
        2 => (TILE, TILE),
        _ => (0.0, TILE),
    }
}

/// The two ends of segment `side * 3 + third` along the tile's border, clockwise.
fn segment_ends(segment: usize) -> ((f64, f64), (f64, f64)) {
    let side = segment / 3;
    let third = (segment % 3) as f64;
    let (a, b) = (square_corner(side), square_corner(side + 1));
    let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    (at(third / 3.0), at((third + 1.0) / 3.0))
}

/// The centroid of segment `segment`'s triangle (border third and tile centre).
fn segment_point(segment: usize) -> (f64, f64) {
    let (p, q) = segment_ends(segment);
    let c = TILE / 2.0;
    ((p.0 + q.0 + c) / 3.0, (p.1 + q.1 + c) / 3.0)
}

/// The middle of a side's border.
fn side_middle(side: usize) -> (f64, f64) {
    let (p, q) = segment_ends(side * 3 + 1);
    ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)
}

/// Where a figure is drawn on its tile, in tile coordinates.
fn figure_point(kind: TileKind, rot: Rotation, figure: &BoardFigure) -> (f64, f64) {
    let c = TILE / 2.0;
    if figure.figure == Figure::Barn {
        let inset = TILE * 0.14;
        let (x, y) = square_corner(figure.local as usize);
        return (
            if x == 0.0 { inset } else { TILE - inset },
            if y == 0.0 { inset } else { TILE - inset },
        );
    }
    let def = kind.def();
    let oriented = def.oriented(rot);
    match anchor_segment(oriented, figure.local) {
        Some(s) => segment_point(s),
        None => {
            // Features inside the tile: the monastery, garden or abbey at the centre,
            // enclosed fields spread diagonally by their order on the tile.
            let feature = &def.features[figure.local as usize];
            if feature.kind == FeatureKind::Field {
                let k = def.features[..figure.local as usize]
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Field && f.segments == 0)
                    .count() as f64;
                let d = if k == 0.0 { -TILE * 0.2 } else { TILE * 0.2 };
                (c - d, c + d)
            } else {
                (c, c)
            }
        }
    }
}

/// One tile as an SVG group at its board square.
fn svg_tile(out: &mut String, kind: TileKind, rot: Rotation, pos: Pos, origin: (f64, f64)) {
    let def = kind.def();
    let oriented = def.oriented(rot);
    let c = TILE / 2.0;
    let _ = writeln!(
        out,
        r#"<g class="tile" data-x="{}" data-y="{}" data-tile="{}" data-rot="{}" transform="translate({} {})">"#,
        pos.x,
        pos.y,
        def.id,
        rot.quarter_turns(),
        num(origin.0),
        num(origin.1)
    );
    let _ = writeln!(
        out,
        "<title>{} at {} turned {}</title>",
        def.id,
        pos,
        rot.quarter_turns()
    );
    for segment in 0..12 {
        let (p, q) = segment_ends(segment);
        let fill = fill_of(segment_kind(kind, oriented, segment));
        let _ = writeln!(
            out,
            r#"<polygon points="{},{} {},{} {},{}" fill="{fill}" stroke="{fill}" stroke-width="0.5"/>"#,
            num(p.0),
            num(p.1),
            num(q.0),
            num(q.1),
            num(c),
            num(c)
        );
    }
    // Rivers, then roads (bridges cross rivers): a through feature joining two sides is
    // a curve through the centre; any other part runs from its side to the centre.
    let rivers = def
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::River);
    let roads = def
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::Road);
    for (i, f) in rivers.chain(roads) {
        let (colour, width, edge) = match f.kind {
            FeatureKind::Road => (ROAD_COLOUR, TILE * 0.1, Some(ROAD_EDGE_COLOUR)),
            FeatureKind::River => (RIVER_COLOUR, TILE * 0.14, None),
            _ => continue,
        };
        let sides: Vec<usize> = (0..4)
            .filter(|s| oriented.feature_sides[i] & (1 << s) != 0)
            .collect();
        let mut d = String::new();
        if sides.len() == 2 {
            let (a, b) = (side_middle(sides[0]), side_middle(sides[1]));
            let _ = write!(
                d,
                "M {} {} Q {} {} {} {}",
                num(a.0),
                num(a.1),
                num(c),
                num(c),
                num(b.0),
                num(b.1)
            );
        } else {
            for s in sides {
                let a = side_middle(s);
                let _ = write!(d, "M {} {} L {} {} ", num(a.0), num(a.1), num(c), num(c));
            }
        }
        let d = d.trim_end();
        if let Some(edge) = edge {
            let _ = writeln!(
                out,
                r#"<path d="{d}" fill="none" stroke="{edge}" stroke-width="{}" stroke-linecap="butt"/>"#,
                num(width + 3.0)
            );
        }
        let _ = writeln!(
            out,
            r#"<path class="{}" d="{d}" fill="none" stroke="{colour}" stroke-width="{}" stroke-linecap="butt"/>"#,
            f.kind.name(),
            num(width)
        );
        match f.road_end {
            Some(RoadEnd::Lake) | Some(RoadEnd::Spring) => {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{0}" cy="{0}" r="{1}" fill="{RIVER_COLOUR}"/>"#,
                    num(c),
                    num(TILE * 0.16)
                );
            }
            Some(RoadEnd::Junction) | Some(RoadEnd::DeadEnd) => {
                let s = TILE * 0.12;
                let _ = writeln!(
                    out,
                    r#"<rect x="{0}" y="{0}" width="{1}" height="{1}" fill="{ROAD_EDGE_COLOUR}"/>"#,
                    num(c - s / 2.0),
                    num(s)
                );
            }
            _ => {}
        }
    }
    // Pennants (B12): a small shield on the city's anchor third.
    for (i, f) in def.features.iter().enumerate() {
        if f.kind != FeatureKind::City || f.pennants == 0 {
            continue;
        }
        if let Some(s) = anchor_segment(oriented, i as u8) {
            let (p, q) = segment_ends(s);
            let (x, y) = ((p.0 + q.0) * 0.35 + c * 0.3, (p.1 + q.1) * 0.35 + c * 0.3);
            let w = TILE * 0.07;
            let _ = writeln!(
                out,
                r#"<polygon class="pennant" points="{},{} {},{} {},{} {},{}" fill="{PENNANT_COLOUR}"/>"#,
                num(x - w),
                num(y - w),
                num(x + w),
                num(y - w),
                num(x + w),
                num(y + w * 0.4),
                num(x),
                num(y + w * 1.4)
            );
        }
    }
    // Centre symbols.
    let s = TILE * 0.28;
    match centre_of(kind, rot) {
        Centre::Monastery | Centre::Abbey => {
            let _ = writeln!(
                out,
                r##"<polygon class="monastery" points="{},{} {},{} {},{} {},{} {},{}" fill="{MONASTERY_COLOUR}" stroke="#3a1a10" stroke-width="1"/>"##,
                num(c - s / 2.0),
                num(c + s / 2.0),
                num(c - s / 2.0),
                num(c - s / 6.0),
                num(c),
                num(c - s / 1.6),
                num(c + s / 2.0),
                num(c - s / 6.0),
                num(c + s / 2.0),
                num(c + s / 2.0)
            );
        }
        Centre::Garden => {
            let _ = writeln!(
                out,
                r#"<circle class="garden" cx="{0}" cy="{0}" r="{1}" fill="{GARDEN_COLOUR}"/>"#,
                num(c),
                num(s / 2.0)
            );
        }
        Centre::Volcano => {
            let _ = writeln!(
                out,
                r##"<polygon class="volcano" points="{},{} {},{} {},{}" fill="#7a2a12" stroke="#ff5a1f" stroke-width="1.5"/>"##,
                num(c - s / 1.6),
                num(c + s / 2.0),
                num(c),
                num(c - s / 1.6),
                num(c + s / 1.6),
                num(c + s / 2.0)
            );
        }
        Centre::Portal => {
            let _ = writeln!(
                out,
                r##"<circle class="portal" cx="{0}" cy="{0}" r="{1}" fill="none" stroke="#8a2be2" stroke-width="3"/>"##,
                num(c),
                num(s / 2.0)
            );
        }
        Centre::Feature(_) => {}
    }
    // A garden on a tile with another centre (it never shares one, but draw it if so).
    if def.features.iter().any(|f| f.kind == FeatureKind::Garden)
        && centre_of(kind, rot) != Centre::Garden
    {
        let _ = writeln!(
            out,
            r#"<circle class="garden" cx="{}" cy="{}" r="{}" fill="{GARDEN_COLOUR}"/>"#,
            num(c + s),
            num(c + s),
            num(s / 3.0)
        );
    }
    let _ = writeln!(
        out,
        r##"<rect class="outline" width="{0}" height="{0}" fill="none" stroke="#00000055" stroke-width="1"/>"##,
        num(TILE)
    );
    out.push_str("</g>\n");
}

/// The board as a self-contained SVG picture.
///
/// One `<g class="tile">` per placed tile (with `data-x`, `data-y`, `data-tile`,
/// `data-rot`), each third of a side filled by its feature's terrain (fields green,
/// cities brown, abbey walls beige), roads and rivers drawn across, monasteries, gardens,
/// volcanoes, magic portals and pennants marked. Each figure is one element of class
/// `figure` in its owner's colour ([`PLAYER_COLOURS`]; abbot, mayor and wagon carry
/// their initial, barns are squares on their corner). The dragon and the fairy are marked
/// `D` and `F`. Coordinates label the columns and rows; the scores are written below.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(3)).unwrap();
/// let svg = render::board_svg(&game);
/// assert_eq!(svg.matches(r#"<g class="tile""#).count(), 1);
/// assert!(svg.contains(r#"data-tile="BASE-D""#));
/// ```
pub fn board_svg(game: &Game) -> String {
    let board = game.board();
    let (min, max) = board.bounds();
    let cols = (max.x - min.x + 1) as f64;
    let rows = (max.y - min.y + 1) as f64;
    let width = (MARGIN * 2.0 + cols * TILE).max(MARGIN + SCORE_WIDTH);
    let height = MARGIN * 2.0 + rows * TILE + 4.0 + SCORE_LINE * game.num_players() as f64;
    let origin_of = |pos: Pos| {
        (
            MARGIN + (pos.x - min.x) as f64 * TILE,
            MARGIN + (pos.y - min.y) as f64 * TILE,
        )
    };
    let mut out = String::with_capacity(4096 + board.len() * 2048);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(
        out,
        "<title>Carcassonne board: {} tiles, x {}..{}, y {}..{}</title>",
        board.len(),
        min.x,
        max.x,
        min.y,
        max.y
    );
    let _ = writeln!(
        out,
        r##"<rect class="background" width="{}" height="{}" fill="#f7f5ee"/>"##,
        num(width),
        num(height)
    );
    out.push_str("<g class=\"coordinates\" fill=\"#555555\" text-anchor=\"middle\">\n");
    for x in min.x..=max.x {
        let cx = MARGIN + (x - min.x) as f64 * TILE + TILE / 2.0;
        for y in [MARGIN - 9.0, MARGIN + rows * TILE + 18.0] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{x}</text>"#, num(cx), num(y));
        }
    }
    for y in min.y..=max.y {
        let cy = MARGIN + (y - min.y) as f64 * TILE + TILE / 2.0 + 4.0;
        for x in [MARGIN / 2.0, MARGIN * 1.5 + cols * TILE] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{y}</text>"#, num(x), num(cy));
        }
    }
    out.push_str("</g>\n");
    for p in board.placements() {
        svg_tile(&mut out, p.kind, p.rot, p.pos, origin_of(p.pos));
    }

    // Figures, in a fixed order so that the output does not depend on the figure list's
    // internal order.
    let figures = game.board_figures();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by_key(|&k| {
        let f = &figures[k];
        (f.placement, f.figure, f.local, f.owner)
    });
    let fairy = game.fairy();
    let mut fairy_point = None;
    for k in order {
        let f = &figures[k];
        let p = board.placement(f.placement as usize);
        let (ox, oy) = origin_of(p.pos);
        let (fx, fy) = figure_point(p.kind, p.rot, f);
        let (x, y) = (ox + fx, oy + fy);
        let colour = PLAYER_COLOURS[f.owner as usize % PLAYER_COLOURS.len()];
        let what = if f.figure == Figure::Barn {
            format!("corner {}", Corner::from_index(f.local as usize).name())
        } else {
            p.kind.def().features[f.local as usize].id.clone()
        };
        let title = format!(
            "<title>seat {} {} at {} {}</title>",
            f.owner,
            f.figure.name(),
            p.pos,
            what
        );
        let r = TILE * 0.11;
        if f.figure == Figure::Barn {
            let _ = writeln!(
                out,
                r##"<rect class="figure barn" data-seat="{}" x="{}" y="{}" width="{}" height="{}" fill="{colour}" stroke="#ffffff" stroke-width="1.5">{title}</rect>"##,
                f.owner,
                num(x - r),
                num(y - r),
                num(2.0 * r),
                num(2.0 * r)
            );
        } else {
            let _ = writeln!(
                out,
                r##"<circle class="figure {}" data-seat="{}" cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#ffffff" stroke-width="1.5">{title}</circle>"##,
                f.figure.name(),
                f.owner,
                num(x),
                num(y),
                num(r)
            );
        }
        let initial = match f.figure {
            Figure::Follower => None,
            Figure::Abbot => Some('A'),
            Figure::Mayor => Some('M'),
            Figure::Wagon => Some('W'),
            Figure::Barn => Some('B'),
        };
        if let Some(letter) = initial {
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="8" font-weight="bold" fill="#ffffff" text-anchor="middle">{letter}</text>"##,
                num(x),
                num(y + 3.0)
            );
        }
        if let Some((fpos, Some((owner, local)))) = fairy {
            if fpos == p.pos && owner == f.owner && local == f.local && f.figure != Figure::Barn {
                fairy_point = Some((x + r * 1.3, y - r * 1.3));
            }
        }
    }
    if let Some((pos, _)) = fairy {
        let (ox, oy) = origin_of(pos);
        let (x, y) = fairy_point.unwrap_or((ox + TILE * 0.8, oy + TILE * 0.2));
        let _ = writeln!(
            out,
            r##"<g class="fairy"><title>fairy at {pos}</title><circle cx="{0}" cy="{1}" r="{2}" fill="#ff8fd0" stroke="#7a1f5c" stroke-width="1"/><text x="{0}" y="{3}" font-size="8" font-weight="bold" fill="#7a1f5c" text-anchor="middle">F</text></g>"##,
            num(x),
            num(y),
            num(TILE * 0.09),
            num(y + 3.0)
        );
    }
    if let Some(pos) = game.dragon() {
        let (ox, oy) = origin_of(pos);
        let (x, y) = (ox + TILE * 0.72, oy + TILE * 0.72);
        let _ = writeln!(
            out,
            r##"<g class="dragon"><title>dragon at {pos}</title><circle cx="{0}" cy="{1}" r="{2}" fill="#5a0f0f" stroke="#ffcc00" stroke-width="1.5"/><text x="{0}" y="{3}" font-size="10" font-weight="bold" fill="#ffcc00" text-anchor="middle">D</text></g>"##,
            num(x),
            num(y),
            num(TILE * 0.14),
            num(y + 3.5)
        );
    }

    // Scores.
    out.push_str("<g class=\"scores\">\n");
    for (seat, score) in game.scores().iter().enumerate() {
        let x = MARGIN;
        let base = MARGIN * 2.0 + rows * TILE + 6.0 + SCORE_LINE * seat as f64;
        let colour = PLAYER_COLOURS[seat % PLAYER_COLOURS.len()];
        let _ = writeln!(
            out,
            r##"<circle cx="{}" cy="{}" r="6" fill="{colour}" stroke="#333333" stroke-width="0.5"/><text x="{}" y="{}" fill="#222222">seat {seat} ({}): {score}</text>"##,
            num(x),
            num(base - 4.0),
            num(x + 10.0),
            num(base),
            PLAYER_COLOUR_NAMES[seat % PLAYER_COLOUR_NAMES.len()]
        );
    }
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
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
        config.sets = TileSet::ALL.into_iter().filter(|s| s.playable()).collect();
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
        let centre =
            |id: &str| tile_block(catalogue().by_id(id).unwrap(), Rotation::default())[1][2];
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
        let width = (MARGIN * 2.0 + (max.x - min.x + 1) as f64 * TILE).max(MARGIN + SCORE_WIDTH);
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

    #[test]
    fn numbers_are_written_compactly() {
        assert_eq!(num(20.0), "20");
        assert_eq!(num(16.666), "16.7");
        assert_eq!(num(-3.26), "-3.3");
    }
}
