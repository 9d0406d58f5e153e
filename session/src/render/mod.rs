//! The board as text, as an SVG picture and as an animated HTML replay: one module per
//! output (`text.rs`, `svg/`, `html.rs`) over the tile geometry they share here, the
//! pieces every picture may show and its legend lists (`pieces.rs`, [`pieces_of`]), and
//! the summary beside the board (`summary.rs`: status and scores; what a set shows beside
//! them, and a player's notes ([`notes`]), come from the sets' modules in
//! `session/src/sets`).
//!
//! Both views are drawn from the tile catalogue's segment data: every tile side has three
//! thirds (`N0 N1 N2 E0 ... W2`, clockwise from the north-west corner) and each third
//! belongs to one feature of the tile ([`Oriented::segment_feature`]), so what a tile
//! shows on each third is exactly what the rules join (B4).
//!
//! * [`board_text`]: a grid of 5×3 character blocks, one per placed tile, with the x
//!   coordinates above and below the grid, the y coordinates left and right of it, a
//!   legend and the list of figures. [`tile_block`] is the block of one tile.
//!   For a player in a terminal: [`board_grid_text`] letters the empty squares a choice
//!   names, [`tile_block_marked`] the features of a tile.
//! * [`board_svg`]: a self-contained SVG picture sized to the board's bounds: one group
//!   per tile, each city its own outlined shape, figures as meeples in their owner's
//!   colour (never a terrain colour), the dragon and the fairy, the scores with the
//!   winner marked, and a legend.
//! * For a client that draws over the board (the page of `carcassonne serve`):
//!   [`board_svg_interactive`] (the board alone, with where each square lies),
//!   [`tile_svg`] (one tile), [`feature_spot`] and [`corner_spot`] (where a figure stands).
//! * [`replay_html`]: an animated replay, one self-contained HTML page with the board
//!   after every turn and a turn slider.
//!
//! A finished game is drawn with its figures as they stood at the end of its last turn,
//! before final scoring returned them ([`Game::figures_before_final_scoring`]).
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

mod html;
pub(crate) mod pieces;
pub(crate) mod summary;
pub(crate) mod svg;
pub(crate) mod text;

#[cfg(test)]
#[path = "../tests/unit/render/games.rs"]
mod test_games;
mod words;

pub use html::replay_html;
pub use pieces::{every_piece, pieces_of, Piece, PieceInfo, Presence, PIECES};
pub use summary::notes;
pub use summary::{PLAYER_COLOURS, PLAYER_COLOUR_NAMES};
pub use svg::{board_svg, board_svg_interactive, corner_spot, feature_spot, tile_svg, TILE_SIZE};
pub use text::{
    board_grid_text, board_text, feature_glyph, score_table, tile_block, tile_block_marked,
    TileBlock,
};
pub use words::{action_words, phase_words};

use carcassonne::game::Game;
use carcassonne::geometry::Rotation;
use carcassonne::tiles::{FeatureKind, Oriented, RoadEnd, Symbols, Terrain, TileKind, NO_FEATURE};

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

/// The kind and record name of local feature `local` of placement `index` (its bridge,
/// a road named `bridge`, after the catalogue's features; BR3).
fn feature_label(game: &Game, index: usize, local: u8) -> (FeatureKind, &str) {
    let def = game.board().placement(index).def();
    let kind = def
        .features
        .get(local as usize)
        .map_or(FeatureKind::Road, |f| f.kind);
    (kind, game.feature_name(index, local))
}

/// What one segment of a tile shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Look {
    /// A feature of this kind.
    Feature(FeatureKind),
    /// The abbey's walls, which fit anything (AM1).
    AbbeyWall,
    /// The walled City of Carcassonne (CC2).
    Walled,
}

/// The terrain of segment `segment` (board frame) of a tile turned by `rot`.
fn segment_terrain(kind: TileKind, rot: Rotation, segment: usize) -> Terrain {
    let side = (segment / 3 + 4 - rot.quarter_turns() as usize) % 4;
    kind.def().edges[side][segment % 3]
}

/// What segment `segment` (board frame) of a tile turned by `rot` shows.
fn segment_look(kind: TileKind, rot: Rotation, segment: usize) -> Look {
    match kind.def().oriented(rot).segment_feature[segment] {
        NO_FEATURE if segment_terrain(kind, rot, segment) == Terrain::Carcassonne => Look::Walled,
        NO_FEATURE => Look::AbbeyWall,
        f => Look::Feature(kind.def().features[f as usize].kind),
    }
}

/// What a tile shows at its centre.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Centre {
    Monastery,
    Abbey,
    Shrine,
    Garden,
    Volcano,
    Portal,
    Bazaar,
    /// The walled City of Carcassonne (CC2).
    Walled,
    Feature(FeatureKind),
}

fn centre_of(kind: TileKind, rot: Rotation) -> Centre {
    let def = kind.def();
    let oriented = def.oriented(rot);
    if def.cloister != NO_FEATURE {
        return if def.has(Symbols::ABBEY) {
            Centre::Abbey
        } else if def.features[def.cloister as usize].kind == FeatureKind::Shrine {
            Centre::Shrine
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
    if def.has(Symbols::BAZAAR) {
        return Centre::Bazaar;
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
    let walled = (0..12).any(|s| segment_terrain(kind, rot, s) == Terrain::Carcassonne);
    if city_across {
        Centre::Feature(FeatureKind::City)
    } else if walled {
        Centre::Walled
    } else {
        Centre::Feature(FeatureKind::Field)
    }
}
