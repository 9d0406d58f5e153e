//! What the pictures show, declared once: every kind of piece (terrain, tile symbol,
//! figure, expansion marker) with its name in the legends, its glyph in the text view and
//! when a game has it. The text legend, the SVG legend and the HTML replay's legend list
//! the pieces of the game they draw, and only those ([`pieces_of`]).
//!
//! Adding an expansion's pictures: a [`Piece`] for each of its pieces, in legend order
//! (after the pieces of the sets before it). A tile's symbol, a feature or a figure goes
//! into [`PIECES`] with the [`Presence`] that tells when a game has it, the text view
//! drawing a tile's glyphs in `text.rs`, the SVG a tile's symbols in `svg/tile.rs` and
//! the legend swatch in `svg/symbols.rs` (`swatch`); a piece of the set's state beside
//! the tiles (the dragon, the count, the titles, bridges and castles, the sheep bag) is
//! declared by the set's module with its swatch, and shown whenever the set is in play.
//! The module also draws the rest of the set's state (lines under the text board, pieces
//! on the SVG board and in the summary beside it).

use crate::sets;
use carcassonne::config::Figure;
use carcassonne::game::Game;
use carcassonne::tiles::{catalogue, FeatureKind, RoadEnd, Symbols, TileKind};

/// A kind of thing a picture shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// Fields.
    Field,
    /// Cities.
    City,
    /// Roads.
    Road,
    /// Rivers (R1).
    River,
    /// The river's lakes and spring (R1, R4).
    RiverEnd,
    /// Pennants (B12).
    Pennant,
    /// Monasteries (B10).
    Monastery,
    /// Gardens (A1).
    Garden,
    /// The abbey tile (AM1).
    Abbey,
    /// The abbey's walls: its sides, which fit anything (AM1).
    AbbeyWall,
    /// Volcanoes (PD1).
    Volcano,
    /// Magic portals (PD12).
    MagicPortal,
    /// A player's follower.
    Follower,
    /// The abbot (A1).
    Abbot,
    /// The mayor (AM5).
    Mayor,
    /// The wagon (AM10).
    Wagon,
    /// The barn (AM6).
    Barn,
    /// The dragon (PD5).
    Dragon,
    /// The fairy (PD15).
    Fairy,
    /// The walled City of Carcassonne between the Count's squares (CC2).
    CityOfCarcassonne,
    /// The count, and the quarters of the City with their figures (CC2).
    Count,
    /// The King, held by the builder of the largest completed city (KR1).
    King,
    /// The Robber Baron, held by the builder of the longest completed road (KR2).
    RobberBaron,
    /// Shrines (CU1).
    Shrine,
    /// Bridges (BR1).
    Bridge,
    /// Castles (CA1).
    Castle,
    /// Bazaars (BZ1).
    Bazaar,
    /// The big follower (IC1).
    BigFollower,
    /// Inns on roads (IC2).
    Inn,
    /// Cathedrals in cities (IC3).
    Cathedral,
    /// Towers with their height (TW1); a follower on top closes one (TW2).
    Tower,
    /// The builder (TB3).
    Builder,
    /// The pig (TB5).
    Pig,
    /// Trade goods on cities: wine, grain, cloth (TB1).
    Goods,
    /// Hills (HS3, HS4).
    Hill,
    /// Vineyards (HS5).
    Vineyard,
    /// The shepherd (HS1).
    Shepherd,
    /// Sheep: a token with the number of sheep of a shepherd's flock beside him, or of a
    /// kind of token left in the bag (HS1, HS2).
    Sheep,
    /// The wolves left in the bag (HS1).
    Wolf,
    /// The tiles placed in the turn a replay shows.
    NewTile,
}

/// When a game has a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    /// In every game (a piece of a set module's legend: in every game with the
    /// set in play).
    Always,
    /// When a tile of the game has a feature of this kind.
    Feature(FeatureKind),
    /// When a tile of the game shows this symbol.
    Symbol(Symbols),
    /// When a tile of the game has a river that ends in a lake or a spring.
    RiverEnd,
    /// When a tile of the game has a city with a pennant.
    Pennant,
    /// When the players have this figure.
    Figure(Figure),
    /// When the players have abbey tiles.
    AbbeyTile,
    /// Only in the animated replay.
    Replay,
}

/// A piece with its legend entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceInfo {
    /// The piece.
    pub piece: Piece,
    /// Its name in the legends.
    pub name: &'static str,
    /// How the text view draws it (`None`: not on the text board; the lines under the
    /// board name it).
    pub glyph: Option<&'static str>,
    /// When a game has it.
    pub presence: Presence,
}

pub(crate) const fn piece(
    piece: Piece,
    name: &'static str,
    glyph: Option<&'static str>,
    presence: Presence,
) -> PieceInfo {
    PieceInfo {
        piece,
        name,
        glyph,
        presence,
    }
}

/// The pieces of the tiles and the figures, in legend order; the sets' modules declare
/// the pieces of their state ([`every_piece`] lists both).
pub const PIECES: [PieceInfo; 30] = [
    piece(Piece::Field, "field", Some("."), Presence::Always),
    piece(Piece::City, "city", Some("#"), Presence::Always),
    piece(Piece::Road, "road", Some("="), Presence::Always),
    piece(
        Piece::River,
        "river",
        Some("~"),
        Presence::Feature(FeatureKind::River),
    ),
    piece(Piece::RiverEnd, "lake, spring", None, Presence::RiverEnd),
    piece(Piece::Pennant, "pennant", None, Presence::Pennant),
    piece(
        Piece::Monastery,
        "monastery",
        Some("M"),
        Presence::Feature(FeatureKind::Monastery),
    ),
    piece(
        Piece::Garden,
        "garden",
        Some("G"),
        Presence::Feature(FeatureKind::Garden),
    ),
    piece(Piece::Abbey, "abbey", Some("A"), Presence::AbbeyTile),
    piece(
        Piece::AbbeyWall,
        "abbey walls",
        Some("+"),
        Presence::AbbeyTile,
    ),
    piece(
        Piece::Volcano,
        "volcano",
        Some("V"),
        Presence::Symbol(Symbols::VOLCANO),
    ),
    piece(
        Piece::MagicPortal,
        "magic portal",
        Some("P"),
        Presence::Symbol(Symbols::MAGIC_PORTAL),
    ),
    piece(
        Piece::Follower,
        "follower",
        Some("0-5"),
        Presence::Figure(Figure::Follower),
    ),
    piece(Piece::Abbot, "abbot", None, Presence::Figure(Figure::Abbot)),
    piece(Piece::Mayor, "mayor", None, Presence::Figure(Figure::Mayor)),
    piece(Piece::Wagon, "wagon", None, Presence::Figure(Figure::Wagon)),
    piece(Piece::Barn, "barn", None, Presence::Figure(Figure::Barn)),
    piece(
        Piece::Shrine,
        "shrine",
        Some("S"),
        Presence::Feature(FeatureKind::Shrine),
    ),
    piece(
        Piece::Bazaar,
        "bazaar",
        Some("$"),
        Presence::Symbol(Symbols::BAZAAR),
    ),
    piece(
        Piece::BigFollower,
        "big follower",
        None,
        Presence::Figure(Figure::BigFollower),
    ),
    piece(Piece::Inn, "inn", None, Presence::Symbol(Symbols::INN)),
    piece(
        Piece::Cathedral,
        "cathedral",
        None,
        Presence::Symbol(Symbols::CATHEDRAL),
    ),
    piece(
        Piece::Tower,
        "tower (its height)",
        None,
        Presence::Symbol(Symbols::TOWER),
    ),
    piece(
        Piece::Builder,
        "builder",
        None,
        Presence::Figure(Figure::Builder),
    ),
    piece(Piece::Pig, "pig", None, Presence::Figure(Figure::Pig)),
    piece(
        Piece::Goods,
        "goods (wine, grain, cloth)",
        None,
        Presence::Symbol(Symbols::GOODS),
    ),
    piece(Piece::Hill, "hill", None, Presence::Symbol(Symbols::HILL)),
    piece(
        Piece::Vineyard,
        "vineyard",
        None,
        Presence::Symbol(Symbols::VINEYARD),
    ),
    piece(
        Piece::Shepherd,
        "shepherd",
        None,
        Presence::Figure(Figure::Shepherd),
    ),
    piece(Piece::NewTile, "tile of this turn", None, Presence::Replay),
];

/// The tile kinds of a game: those on its board and those left to draw.
fn tiles_of(game: &Game) -> Vec<TileKind> {
    let mut seen = vec![false; catalogue().len()];
    for p in game.board().placements() {
        seen[p.kind.index()] = true;
    }
    for (i, &left) in game.remaining_tiles().iter().enumerate() {
        if left > 0 {
            if let Some(s) = seen.get_mut(i) {
                *s = true;
            }
        }
    }
    catalogue().kinds().filter(|k| seen[k.index()]).collect()
}

/// Whether `game` (drawn in a replay when `replay`) has a piece of this presence, its
/// tiles being `tiles`.
fn present(presence: Presence, game: &Game, tiles: &[TileKind], replay: bool) -> bool {
    match presence {
        Presence::Always => true,
        Presence::Feature(kind) => tiles
            .iter()
            .any(|t| t.def().features.iter().any(|f| f.kind == kind)),
        Presence::Symbol(symbol) => tiles.iter().any(|t| t.def().has(symbol)),
        Presence::RiverEnd => tiles.iter().any(|t| {
            t.def().features.iter().any(|f| {
                f.kind == FeatureKind::River
                    && matches!(f.road_end, Some(RoadEnd::Lake) | Some(RoadEnd::Spring))
            })
        }),
        Presence::Pennant => tiles
            .iter()
            .any(|t| t.def().features.iter().any(|f| f.pennants > 0)),
        Presence::Figure(figure) => game.config().figures.of(figure) > 0,
        Presence::AbbeyTile => {
            game.config().figures.abbey > 0 || tiles.iter().any(|t| t.def().has(Symbols::ABBEY))
        }
        Presence::Replay => replay,
    }
}

/// The pieces that `game` has, in legend order: what a picture of it (a replay's when
/// `replay`) can show.
///
/// ```
/// use carcassonne::{Game, GameConfig, TileSet};
/// use carcassonne_session::render::{pieces_of, Piece};
/// let mut config = GameConfig::new(2);
/// config.sets = vec![TileSet::Base, TileSet::River1];
/// let pieces: Vec<Piece> = pieces_of(&Game::new(config).unwrap(), false)
///     .iter()
///     .map(|p| p.piece)
///     .collect();
/// // A base + River game has rivers, and no volcano, dragon or castle.
/// assert!(pieces.contains(&Piece::River) && pieces.contains(&Piece::Follower));
/// assert!(!pieces.contains(&Piece::Volcano) && !pieces.contains(&Piece::Dragon));
/// assert!(!pieces.contains(&Piece::Castle) && !pieces.contains(&Piece::NewTile));
/// ```
pub fn pieces_of(game: &Game, replay: bool) -> Vec<&'static PieceInfo> {
    let tiles = tiles_of(game);
    let mut pieces: Vec<&'static PieceInfo> = PIECES
        .iter()
        .chain(sets::in_play(game).flat_map(|m| m.legend()))
        .filter(|p| present(p.presence, game, &tiles, replay))
        .collect();
    pieces.sort_by_key(|p| p.piece as u8);
    pieces
}

/// Every piece in legend order: those of [`PIECES`] and those that the sets' modules
/// declare for their state.
pub fn every_piece() -> Vec<&'static PieceInfo> {
    let mut pieces: Vec<&'static PieceInfo> = PIECES
        .iter()
        .chain(sets::SETS.iter().flat_map(|m| m.legend()))
        .collect();
    pieces.sort_by_key(|p| p.piece as u8);
    pieces
}

#[cfg(test)]
#[path = "../tests/unit/render/pieces.rs"]
mod tests;
