//! The board as a self-contained SVG picture ([`board_svg`]): the tiles (`tile.rs`), the
//! figures and symbols (`symbols.rs`), the expansions' state on the board and beside it
//! (drawn by each set's module, [`crate::sets`]), the summary under the board and the
//! legend of what the game has.
//! The HTML replay draws the same tiles and, per turn, the same board state.

pub(crate) mod symbols;
pub(crate) mod tile;

pub(crate) use symbols::swatch;
pub(crate) use tile::svg_tile;
pub use tile::{corner_spot, feature_spot};

use super::feature_label;
use super::pieces::{pieces_of, Piece, PieceInfo};
use super::summary::{seat_name, summary, Summary, PLAYER_COLOURS};
use crate::sets::{self, SetModule};
use carcassonne::config::Figure;
use carcassonne::game::Game;
use carcassonne::geometry::{Pos, Rotation};
use carcassonne::tiles::TileKind;
use std::fmt::Write as _;
use symbols::svg_figure;
use tile::figure_point;

/// Side of a tile square in the SVG, in user units.
pub(crate) const TILE: f64 = 60.0;
/// Side of a tile's square in the SVG pictures, in user units: a tile turned `rot` is
/// drawn from `(0, 0)` to `(TILE_SIZE, TILE_SIZE)` ([`tile_svg`]), x growing east and y
/// south.
pub const TILE_SIZE: f64 = TILE;
/// Room for the coordinate labels around the board.
pub(super) const MARGIN: f64 = 28.0;
/// Height of the status line above the board.
pub(super) const HEADER: f64 = 22.0;
/// Height of one score line under the board.
pub(crate) const SCORE_LINE: f64 = 18.0;
/// Width of one legend entry.
pub(super) const LEGEND_ITEM: f64 = 136.0;
/// Height of one row of legend entries.
pub(super) const LEGEND_ROW: f64 = 20.0;
/// The narrowest picture: three legend entries side by side.
pub(super) const MIN_WIDTH: f64 = 2.0 * MARGIN + 3.0 * LEGEND_ITEM;

// Terrain and symbols are drawn in muted or light tones, seats in saturated ones: no
// seat colour is near any of these fills (a test measures the distances), so figures
// never blend into the ground, and no symbol has a figure's shape.
pub(crate) const FIELD_COLOUR: &str = "#9cc56a";
pub(super) const CITY_COLOUR: &str = "#d2b48c";
pub(super) const CITY_EDGE_COLOUR: &str = "#6e4b27";
pub(crate) const ROAD_COLOUR: &str = "#f6f2e4";
pub(super) const ROAD_EDGE_COLOUR: &str = "#7d7466";
pub(super) const RIVER_COLOUR: &str = "#a9def5";
pub(super) const RIVER_EDGE_COLOUR: &str = "#5aa9cf";
pub(super) const ABBEY_COLOUR: &str = "#e3d3b0";
pub(super) const MONASTERY_COLOUR: &str = "#f3ead8";
pub(super) const MONASTERY_EDGE_COLOUR: &str = "#5b3a1a";
pub(super) const GARDEN_COLOUR: &str = "#3d7a35";
pub(super) const PENNANT_COLOUR: &str = "#fffaf0";
pub(super) const VOLCANO_COLOUR: &str = "#6b4a3a";
pub(super) const PORTAL_COLOUR: &str = "#19a7a0";
pub(super) const HIGHLIGHT_COLOUR: &str = "#ffffff";
pub(crate) const BRIDGE_EDGE_COLOUR: &str = "#5b3a1a";
pub(crate) const CASTLE_COLOUR: &str = "#9a9a9a";
pub(crate) const CARCASSONNE_COLOUR: &str = "#bdb5c9";
const SHRINE_COLOUR: &str = "#3b4a6b";
const BAZAAR_COLOUR: &str = "#8a6d3b";
const HILL_COLOUR: &str = "#a08a5c";
const GRAPE_COLOUR: &str = "#7a3b6e";
// The sheep bag's tokens (HS1): a white sheep, a slate-grey wolf; the shepherd's crook.
pub(crate) const SHEEP_COLOUR: &str = "#fdfdf6";
pub(crate) const WOLF_COLOUR: &str = "#5e6b78";
const CROOK_COLOUR: &str = "#5b3a1a";
// Pieces beside the board: the count (a neutral figure), the King and the Robber Baron.
pub(crate) const COUNT_COLOUR: &str = "#7f8c8d";
pub(crate) const KING_COLOUR: &str = "#c39b1e";
pub(crate) const ROBBER_COLOUR: &str = "#6d4c41";

/// Every fill that shows terrain or a tile symbol (for the palette test).
#[cfg(test)]
const TERRAIN_FILLS: [&str; 18] = [
    FIELD_COLOUR,
    CITY_COLOUR,
    ROAD_COLOUR,
    RIVER_COLOUR,
    RIVER_EDGE_COLOUR,
    ABBEY_COLOUR,
    MONASTERY_COLOUR,
    GARDEN_COLOUR,
    PENNANT_COLOUR,
    VOLCANO_COLOUR,
    PORTAL_COLOUR,
    CARCASSONNE_COLOUR,
    SHRINE_COLOUR,
    BAZAAR_COLOUR,
    HILL_COLOUR,
    GRAPE_COLOUR,
    SHEEP_COLOUR,
    WOLF_COLOUR,
];

/// The colour of a seat's figures.
pub(crate) fn seat_colour(seat: usize) -> &'static str {
    PLAYER_COLOURS[seat % PLAYER_COLOURS.len()]
}

/// The colour of letters drawn on a seat's figures: white on dark colours, black on
/// light ones.
fn seat_ink(seat: usize) -> &'static str {
    match seat % PLAYER_COLOURS.len() {
        2 | 5 => "#000000",
        _ => "#ffffff",
    }
}

/// A number for SVG output: integers without a fraction, else one decimal (deterministic).
pub(crate) fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// A point as `x y` for path data and `points` lists.
pub(crate) fn pt(p: (f64, f64)) -> String {
    format!("{} {}", num(p.0), num(p.1))
}

/// Text for SVG and HTML: `&`, `<`, `>` and `"` escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Where everything goes in a picture of a board with bounds `(min, max)`: the status
/// line, the board, then (in a whole picture) the score lines, the City of Carcassonne's
/// lines and the legend.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Layout {
    min: Pos,
    max: Pos,
    width: f64,
    /// Top of the board's first row.
    top: f64,
    /// Top of the score lines.
    scores_top: f64,
    /// Top of the lines of the sets in play under the scores ([`crate::sets`]).
    under_top: f64,
    /// Top of the legend.
    legend_top: f64,
    height: f64,
    legend_columns: usize,
}

impl Layout {
    /// A whole picture: `players` score lines, `under` lines of the sets in play under
    /// them, and a legend of `legend` entries under the board.
    fn picture((min, max): (Pos, Pos), players: usize, under: usize, legend: usize) -> Layout {
        let cols = (max.x - min.x + 1) as f64;
        let rows = (max.y - min.y + 1) as f64;
        let width = (MARGIN * 2.0 + cols * TILE).max(MIN_WIDTH);
        let top = HEADER + MARGIN;
        let scores_top = top + rows * TILE + MARGIN;
        let under_top = scores_top + SCORE_LINE * players as f64 + 4.0;
        let legend_top = under_top + SCORE_LINE * under as f64 + 8.0;
        let legend_columns = (((width - 2.0 * MARGIN) / LEGEND_ITEM).floor() as usize).max(1);
        let legend_rows = legend.div_ceil(legend_columns);
        Layout {
            min,
            max,
            width,
            top,
            scores_top,
            under_top,
            legend_top,
            height: legend_top + legend_rows as f64 * LEGEND_ROW + 8.0,
            legend_columns,
        }
    }

    /// The board alone with its coordinates (the HTML replay writes the rest beside it).
    pub(crate) fn board_only((min, max): (Pos, Pos)) -> Layout {
        let cols = (max.x - min.x + 1) as f64;
        let rows = (max.y - min.y + 1) as f64;
        let top = MARGIN;
        let height = top + rows * TILE + MARGIN;
        Layout {
            min,
            max,
            width: MARGIN * 2.0 + cols * TILE,
            top,
            scores_top: height,
            under_top: height,
            legend_top: height,
            height,
            legend_columns: 1,
        }
    }

    /// The top-left corner of square `pos`.
    pub(crate) fn origin(&self, pos: Pos) -> (f64, f64) {
        (
            MARGIN + (pos.x - self.min.x) as f64 * TILE,
            self.top + (pos.y - self.min.y) as f64 * TILE,
        )
    }
}

/// The opening of the picture, its background and coordinates.
pub(crate) fn svg_open(out: &mut String, layout: &Layout, title: &str) {
    let (w, h) = (num(layout.width), num(layout.height));
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11" data-min-x="{}" data-min-y="{}" data-left="{}" data-top="{}" data-tile="{}">"#,
        layout.min.x,
        layout.min.y,
        num(MARGIN),
        num(layout.top),
        num(TILE)
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect class="background" width="{w}" height="{h}" fill="#f7f5ee"/>"##
    );
    let (min, max) = (layout.min, layout.max);
    let board_bottom = layout.top + (max.y - min.y + 1) as f64 * TILE;
    let board_right = MARGIN + (max.x - min.x + 1) as f64 * TILE;
    out.push_str("<g class=\"coordinates\" fill=\"#555555\" text-anchor=\"middle\">\n");
    for x in min.x..=max.x {
        let cx = layout.origin(Pos::new(x, min.y)).0 + TILE / 2.0;
        for y in [layout.top - 9.0, board_bottom + 18.0] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{x}</text>"#, num(cx), num(y));
        }
    }
    for y in min.y..=max.y {
        let cy = layout.origin(Pos::new(min.x, y)).1 + TILE / 2.0 + 4.0;
        for x in [MARGIN / 2.0, board_right + MARGIN / 2.0] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{y}</text>"#, num(x), num(cy));
        }
    }
    out.push_str("</g>\n");
}

/// The legend: every piece the game has ([`pieces_of`]), a swatch and its name each.
fn svg_legend(out: &mut String, layout: &Layout, pieces: &[&PieceInfo]) {
    out.push_str("<g class=\"legend\">\n");
    for (i, piece) in pieces.iter().enumerate() {
        let x = MARGIN + (i % layout.legend_columns) as f64 * LEGEND_ITEM;
        let y = layout.legend_top + (i / layout.legend_columns) as f64 * LEGEND_ROW;
        swatch(out, piece.piece, x, y);
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222">{}</text>"##,
            num(x + 22.0),
            num(y + 12.0),
            escape(piece.name)
        );
    }
    out.push_str("</g>\n");
}

/// The board's state in a game: a frame around the tiles placed in the turn shown
/// (`new_tiles`, placement indices), then the pieces of each set in play on the board,
/// the figures with what a set shows beside each, and the pieces of each set over the
/// figures ([`crate::sets`]).
pub(crate) fn svg_board_state(
    out: &mut String,
    game: &Game,
    layout: &Layout,
    new_tiles: std::ops::Range<usize>,
) {
    let board = game.board();
    for i in new_tiles {
        if i >= board.len() {
            break;
        }
        let (x, y) = layout.origin(board.placement(i).pos);
        let _ = writeln!(
            out,
            r#"<rect class="new-tile" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{HIGHLIGHT_COLOUR}" stroke-width="2.5" stroke-dasharray="6 3"/>"#,
            num(x + 1.5),
            num(y + 1.5),
            num(TILE - 3.0),
            num(TILE - 3.0)
        );
    }
    for set in sets::in_play(game) {
        set.svg_board(out, game, layout);
    }
    // Figures, in a fixed order so that the output does not depend on the figure list's
    // internal order. A finished game shows them as they stood before final scoring.
    let figures = game.figures_before_final_scoring();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by_key(|&k| {
        let f = &figures[k];
        (f.placement, f.figure, f.local, f.owner)
    });
    let in_play: Vec<&dyn SetModule> = sets::in_play(game).collect();
    for k in order {
        let f = &figures[k];
        let p = board.placement(f.placement as usize);
        let (ox, oy) = layout.origin(p.pos);
        let (fx, fy) = figure_point(p.kind, p.rot, f);
        let (x, y) = (ox + fx, oy + fy);
        let what = if let Some(corner) = f.corner() {
            format!("corner {}", corner.name())
        } else {
            feature_label(game, f.placement as usize, f.local)
                .1
                .to_string()
        };
        let title = format!(
            "{} {} at {} {}",
            seat_name(f.owner as usize),
            f.figure.name(),
            p.pos,
            what
        );
        svg_figure(
            out,
            "figure",
            (x, y),
            Some(f.owner as usize),
            f.figure,
            &title,
        );
        for set in &in_play {
            set.svg_beside_figure(out, game, f, (x, y));
        }
    }
    for set in in_play {
        set.svg_over_figures(out, game, layout);
    }
}

/// An icon of the HTML replay's panel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Icon {
    /// A piece's legend swatch.
    Piece(Piece),
    /// A seat's figure, in the seat's colour.
    Seat(usize, Figure),
}

/// `icon` as a small inline SVG of 16×16 pixels.
pub(crate) fn icon(icon: Icon) -> String {
    icon_drawn(|out| match icon {
        Icon::Piece(piece) => swatch(out, piece, 0.0, 0.0),
        Icon::Seat(seat, figure) => {
            let y = if figure.is_follower_like() { 10.0 } else { 8.0 };
            svg_figure(
                out,
                "swatch",
                (8.0, y),
                Some(seat),
                figure,
                &seat_name(seat),
            );
        }
    })
}

/// What `draw` draws in a box of 16×16 units, as a small inline SVG of 16×16 pixels.
pub(crate) fn icon_drawn(draw: impl FnOnce(&mut String)) -> String {
    let mut out = String::from(r#"<svg class="icon" viewBox="0 0 16 16" width="16" height="16">"#);
    draw(&mut out);
    out.push_str("</svg>");
    out
}

/// `n` with the word for one or for several: `1 token`, `3 tokens`.
pub(crate) fn count(n: u32, one: &str, several: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { several })
}

/// The summary under the board ([`summary`]): the status line above the board, a line per
/// seat with its score (the winners marked `★ winner`), the titles it holds and the
/// prisoners it holds, and the City of Carcassonne's quarters.
fn svg_summary(out: &mut String, game: &Game, summary: &Summary, layout: &Layout) {
    let _ = writeln!(
        out,
        r##"<text class="status" x="{}" y="{}" font-size="12" font-weight="bold" fill="#222222">{}</text>"##,
        num(MARGIN),
        num(HEADER - 6.0),
        escape(&summary.status)
    );
    out.push_str("<g class=\"scores\">\n");
    for line in &summary.seats {
        let seat = line.seat;
        let x = MARGIN;
        let base = layout.scores_top + SCORE_LINE * seat as f64 + 12.0;
        let _ = write!(
            out,
            r#"<g class="score{}" data-seat="{seat}">"#,
            if line.winner { " winner" } else { "" }
        );
        svg_figure(
            out,
            "swatch",
            (x + 6.0, base - 4.0),
            Some(seat),
            Figure::Follower,
            &seat_name(seat),
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222"{}>{}: {}{}</text>"##,
            num(x + 16.0),
            num(base),
            if line.winner {
                r#" font-weight="bold""#
            } else {
                ""
            },
            seat_name(seat),
            line.score,
            if line.winner { " \u{2605} winner" } else { "" }
        );
        let mut beside = x + 220.0;
        for set in sets::in_play(game) {
            beside += set.svg_beside_score(out, game, seat, (beside, base - 4.0));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    let mut top = layout.under_top;
    for set in sets::in_play(game) {
        set.svg_under_scores(out, game, (MARGIN, top));
        top += SCORE_LINE * set.svg_lines_under_scores(game) as f64;
    }
}

/// The board as a self-contained SVG picture.
///
/// A status line on top (the turn, or the final result with the winner). One
/// `<g class="tile">` per placed tile (with `data-x`, `data-y`, `data-tile`, `data-rot`,
/// `data-order`): fields green, each city its own shape with its own outline (two
/// cities on one tile stay visibly apart), roads and rivers across, monasteries, shrines,
/// gardens, volcanoes, magic portals, bazaars, lakes, pennants, hills and vineyards
/// marked, the abbey's walls and the walled City of Carcassonne in their own colours.
/// Each figure is one element of class `figure` in its owner's colour
/// ([`PLAYER_COLOURS`], chosen apart from every terrain colour): a meeple (abbot, mayor
/// and wagon with their initial; the shepherd with a crook and, beside him, a sheep
/// with the number of sheep of his flock) or a barn's square on its corner. A finished game shows its figures as they stood at the
/// end of the last turn, before final scoring returned them. Bridges, castles (outlined
/// in their owner's colour), the count, the dragon (`D`) and the fairy (`F`) stand on
/// the board. Coordinates label the columns and rows; under the board, the scores (the
/// winner marked `★ winner`, the King and the Robber Baron and the prisoners of the
/// Tower beside their holders), the tokens left in the sheep bag, the
/// quarters of the City of Carcassonne with their figures, and a legend of every piece
/// the game has ([`pieces_of`](super::pieces_of)) and no other.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(3)).unwrap();
/// let svg = render::board_svg(&game);
/// assert_eq!(svg.matches(r#"<g class="tile""#).count(), 1);
/// assert!(svg.contains(r#"data-tile="BASE-D""#));
/// assert!(svg.contains(r#"<g class="legend">"#));
/// ```
pub fn board_svg(game: &Game) -> String {
    let board = game.board();
    let summary = summary(game);
    let pieces = pieces_of(game, false);
    let under = sets::in_play(game)
        .map(|set| set.svg_lines_under_scores(game))
        .sum();
    let layout = Layout::picture(board.bounds(), game.num_players(), under, pieces.len());
    let (min, max) = (layout.min, layout.max);
    let mut out = String::with_capacity(8192 + board.len() * 2048);
    svg_open(
        &mut out,
        &layout,
        &format!(
            "Carcassonne board: {} tiles, x {}..{}, y {}..{}",
            board.len(),
            min.x,
            max.x,
            min.y,
            max.y
        ),
    );
    for (i, p) in board.placements().iter().enumerate() {
        svg_tile(&mut out, p, i, layout.origin(p.pos));
    }
    svg_board_state(&mut out, game, &layout, 0..0);
    svg_summary(&mut out, game, &summary, &layout);
    svg_legend(&mut out, &layout, &pieces);
    out.push_str("</svg>\n");
    out
}

/// The board as an interactive client draws it (the page of `carcassonne serve`): the
/// tiles and what stands on them, as in [`board_svg`], without the status line, the
/// scores and the legend (the page shows them), grown to take in the squares of `extra`
/// (where the tile in hand may go) and with the tiles of `new_tiles` (placement indices:
/// the last move) framed.
///
/// The root element tells the client where each square is: the square
/// `(data-min-x, data-min-y)` has its top-left corner at `(data-left, data-top)`, and a
/// square is `data-tile` ([`TILE_SIZE`]) wide, so square `(x, y)` starts at
/// `(left + (x - min_x)·tile, top + (y - min_y)·tile)`; spots on a tile are given by
/// [`feature_spot`] and [`corner_spot`] in the square's own coordinates.
///
/// ```
/// use carcassonne::{Game, GameConfig, Pos};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(2)).unwrap();
/// let svg = render::board_svg_interactive(&game, &[Pos::new(-1, 0), Pos::new(0, 1)], 0..1);
/// assert!(svg.contains(r#"data-min-x="-1" data-min-y="0""#));
/// assert_eq!(svg.matches(r#"<g class="tile""#).count(), 1);
/// assert!(svg.contains(r#"class="new-tile""#));
/// assert!(!svg.contains(r#"class="legend""#) && !svg.contains(r#"class="scores""#));
/// ```
pub fn board_svg_interactive(
    game: &Game,
    extra: &[Pos],
    new_tiles: std::ops::Range<usize>,
) -> String {
    let board = game.board();
    let (mut min, mut max) = board.bounds();
    for pos in extra {
        min = Pos::new(min.x.min(pos.x), min.y.min(pos.y));
        max = Pos::new(max.x.max(pos.x), max.y.max(pos.y));
    }
    let layout = Layout::board_only((min, max));
    let mut out = String::with_capacity(8192 + board.len() * 2048);
    svg_open(
        &mut out,
        &layout,
        &format!("Carcassonne board: {} tiles", board.len()),
    );
    for (i, p) in board.placements().iter().enumerate() {
        svg_tile(&mut out, p, i, layout.origin(p.pos));
    }
    svg_board_state(&mut out, game, &layout, new_tiles);
    out.push_str("</svg>\n");
    out
}

/// One tile turned `rot` as a self-contained SVG picture, [`TILE_SIZE`] units square
/// (the tile in hand, the tiles left in the pile, a bazaar's offer).
///
/// ```
/// use carcassonne::{catalogue, Rotation};
/// use carcassonne_session::render::tile_svg;
/// let svg = tile_svg(catalogue().by_id("BASE-D").unwrap(), Rotation::new(1).unwrap());
/// assert!(svg.starts_with("<svg") && svg.contains(r#"data-tile="BASE-D" data-rot="1""#));
/// ```
pub fn tile_svg(kind: TileKind, rot: Rotation) -> String {
    let mut out = String::with_capacity(4096);
    let t = num(TILE);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{t}" height="{t}" viewBox="0 0 {t} {t}">"#
    );
    let _ = writeln!(
        out,
        r#"<g class="tile" data-tile="{}" data-rot="{}"><title>{} turned {}</title>"#,
        kind.id(),
        rot.quarter_turns(),
        kind.id(),
        rot.quarter_turns()
    );
    tile::svg_tile_art(&mut out, kind, rot);
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
#[path = "../../tests/unit/render/svg.rs"]
mod tests;
