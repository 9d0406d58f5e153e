//! The globals: offsets and the table of blocks.

use carcassonne::config::Figure;
use carcassonne::game::Phase;
use carcassonne::rules::count::Quarter;
use carcassonne::tiles::{catalogue, TileSet};
use std::sync::OnceLock;

/// Global offsets (see [`global_table`]). Blocks sized by the catalogue are functions.
pub mod global {
    use carcassonne::tiles::catalogue;

    /// Offset by phase (in the order of `Phase::ALL`): one-hot.
    pub const PHASE: usize = 0;
    /// 1 while a focus tile picked by a `CELL` id waits for its `SLOT` id.
    pub const FOCUS_PENDING: usize = PHASE + carcassonne::Phase::ALL.len();
    /// 1 if the observing player decides now.
    pub const IS_TO_PLAY: usize = FOCUS_PENDING + 1;
    /// Offset by relative seat: 1 if the seat is in the game.
    pub const SEAT_PRESENT: usize = IS_TO_PLAY + 1;
    /// Offset by relative seat: one-hot of the turn player.
    pub const TURN_PLAYER: usize = SEAT_PRESENT + 6;
    /// Offset by relative seat: one-hot of the deciding player.
    pub const TO_PLAY: usize = TURN_PLAYER + 6;
    /// Offset by relative seat: score / 100.
    pub const SCORE: usize = TO_PLAY + 6;
    /// (own score − best opponent score) / 100.
    pub const SCORE_LEAD: usize = SCORE + 6;
    /// Offset by 5·relative seat + figure kind: figures in supply.
    pub const SUPPLY: usize = SCORE_LEAD + 1;
    /// Offset by relative seat: abbey tiles held.
    pub const ABBEYS: usize = SUPPLY + 30;
    /// Tiles left to draw / 100.
    pub const TILES_LEFT: usize = ABBEYS + 6;
    /// 1 if the dragon is on the board.
    pub const DRAGON_ON_BOARD: usize = TILES_LEFT + 1;
    /// 1 if the fairy is on the board.
    pub const FAIRY_ON_BOARD: usize = DRAGON_ON_BOARD + 1;
    /// Dragon steps left in the current flight / 6 (0 outside a flight).
    pub const DRAGON_STEPS_LEFT: usize = FAIRY_ON_BOARD + 1;
    /// Offset by set (in `TileSet::ALL` order): 1 if in play.
    pub const SETS: usize = DRAGON_STEPS_LEFT + 1;
    /// 1 if farmers are in play.
    pub const FARMERS: usize = SETS + carcassonne::TileSet::ALL.len();
    /// Offset by rotation: one-hot of the focus tile's rotation.
    pub const FOCUS_ROTATION: usize = FARMERS + 1;
    /// 1 if the focus tile lies inside the window.
    pub const FOCUS_IN_WINDOW: usize = FOCUS_ROTATION + 4;
    /// Window origin x (board column of window column 0), raw.
    pub const ORIGIN_X: usize = FOCUS_IN_WINDOW + 1;
    /// Window origin y, raw.
    pub const ORIGIN_Y: usize = ORIGIN_X + 1;
    /// Offset by quarter (castle, blacksmith, cathedral, market): one-hot of the count's
    /// quarter (all 0 without the Count).
    pub const COUNT_QUARTER: usize = ORIGIN_Y + 1;
    /// Offset by 4·relative seat + quarter: that seat's figures in that quarter.
    pub const QUARTER_FIGURES: usize = COUNT_QUARTER + 4;
    /// Offset by relative seat: one-hot of the King's holder (KR1).
    pub const KING: usize = QUARTER_FIGURES + 24;
    /// Offset by relative seat: one-hot of the Robber Baron's holder (KR2).
    pub const ROBBER: usize = KING + 6;
    /// Offset by relative seat: bridges left (BR1).
    pub const BRIDGES_LEFT: usize = ROBBER + 6;
    /// Offset by relative seat: castles left (CA1).
    pub const CASTLES_LEFT: usize = BRIDGES_LEFT + 6;
    /// Offset by relative seat: 1 if the seat holds a bazaar tile to place (BZ4).
    pub const BAZAAR_HOLDS: usize = CASTLES_LEFT + 6;
    /// Offset by relative seat: one-hot of the bazaar's selector (BZ2).
    pub const BAZAAR_SELECTOR: usize = BAZAAR_HOLDS + 6;
    /// Offset by relative seat: one-hot of the highest bidder (the selector while nobody
    /// outbid him).
    pub const BAZAAR_BIDDER: usize = BAZAAR_SELECTOR + 6;
    /// The current bid, in points (raw).
    pub const BAZAAR_BID: usize = BAZAAR_BIDDER + 6;

    /// Offset by catalogue index: one-hot of the tile in hand.
    pub const fn tile_in_hand() -> usize {
        BAZAAR_BID + 1
    }
    /// Offset by catalogue index: one-hot of the focus tile's kind.
    pub fn focus_tile() -> usize {
        tile_in_hand() + catalogue().len()
    }
    /// Offset by catalogue index: tiles of that kind left to draw.
    pub fn remaining() -> usize {
        tile_in_hand() + 2 * catalogue().len()
    }
    /// Offset by catalogue index: tiles of that kind in the bazaar's offer (BZ1).
    pub fn bazaar_offer() -> usize {
        tile_in_hand() + 3 * catalogue().len()
    }
    /// Offset by catalogue index: one-hot of the picked bazaar tile (BZ2).
    pub fn bazaar_picked() -> usize {
        tile_in_hand() + 4 * catalogue().len()
    }
    /// Offset by catalogue index: one-hot of the bazaar tile the observing player holds.
    pub fn bazaar_own() -> usize {
        tile_in_hand() + 5 * catalogue().len()
    }
}

/// One block of the global table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalInfo {
    /// First index.
    pub start: usize,
    /// Number of entries.
    pub len: usize,
    /// Name.
    pub name: &'static str,
    /// What the entries hold.
    pub meaning: &'static str,
}

/// A meaning that lists an enum's names, built once: `before`, the names joined by
/// commas, `after`.
fn listed<const N: usize>(
    cell: &'static OnceLock<String>,
    before: &str,
    names: [&'static str; N],
    after: &str,
) -> &'static str {
    cell.get_or_init(|| format!("{before}{}{after}", names.join(", ")))
}

static PHASES: OnceLock<String> = OnceLock::new();
static FIGURES: OnceLock<String> = OnceLock::new();
static SETS: OnceLock<String> = OnceLock::new();
static QUARTERS: OnceLock<String> = OnceLock::new();

/// Every global block in index order.
pub fn global_table() -> Vec<GlobalInfo> {
    let k = catalogue().len();
    let rows: [(usize, usize, &'static str, &'static str); 36] = [
        (global::PHASE, Phase::ALL.len(), "phase", listed(&PHASES, "one-hot: ", Phase::ALL.map(Phase::name), "")),
        (global::FOCUS_PENDING, 1, "focus-pending", "1 while a CELL id has picked a focus tile and a SLOT id must follow"),
        (global::IS_TO_PLAY, 1, "is-to-play", "1 if the observing player decides now"),
        (global::SEAT_PRESENT, 6, "seat-present", "per relative seat: 1 if the seat is in the game"),
        (global::TURN_PLAYER, 6, "turn-player", "per relative seat: one-hot of the turn player"),
        (global::TO_PLAY, 6, "to-play", "per relative seat: one-hot of the deciding player (0 when terminal or at a chance node)"),
        (global::SCORE, 6, "score", "per relative seat: score / 100"),
        (global::SCORE_LEAD, 1, "score-lead", "(own score - best opponent score) / 100"),
        (global::SUPPLY, 30, "supply", listed(&FIGURES, "per relative seat x figure (", Figure::ALL.map(Figure::name), "): figures in supply")),
        (global::ABBEYS, 6, "abbeys", "per relative seat: abbey tiles held"),
        (global::TILES_LEFT, 1, "tiles-left", "tiles left to draw / 100"),
        (global::DRAGON_ON_BOARD, 1, "dragon-on-board", "1 if the dragon is on the board"),
        (global::FAIRY_ON_BOARD, 1, "fairy-on-board", "1 if the fairy is on the board"),
        (global::DRAGON_STEPS_LEFT, 1, "dragon-steps-left", "steps left in the current flight / 6 (0 outside a flight)"),
        (global::SETS, TileSet::ALL.len(), "sets", listed(&SETS, "per set, in the order of the set keys (", TileSet::ALL.map(TileSet::name), "): 1 if in play")),
        (global::FARMERS, 1, "farmers", "1 if farmers are in play"),
        (global::FOCUS_ROTATION, 4, "focus-rotation", "one-hot of the focus tile's rotation"),
        (global::FOCUS_IN_WINDOW, 1, "focus-in-window", "1 if the focus tile lies inside the window"),
        (global::ORIGIN_X, 1, "origin-x", "board column of window column 0 (raw)"),
        (global::ORIGIN_Y, 1, "origin-y", "board row of window row 0 (raw)"),
        (global::COUNT_QUARTER, 4, "count-quarter", listed(&QUARTERS, "one-hot of the count's quarter (", Quarter::ALL.map(Quarter::name), "); 0 without the Count")),
        (global::QUARTER_FIGURES, 24, "quarter-figures", "per relative seat x quarter: figures of that seat in that quarter of the City of Carcassonne"),
        (global::KING, 6, "king", "per relative seat: 1 if the seat holds the King (KR1)"),
        (global::ROBBER, 6, "robber-baron", "per relative seat: 1 if the seat holds the Robber Baron (KR2)"),
        (global::BRIDGES_LEFT, 6, "bridges-left", "per relative seat: bridges left (BR1)"),
        (global::CASTLES_LEFT, 6, "castles-left", "per relative seat: castles left (CA1)"),
        (global::BAZAAR_HOLDS, 6, "bazaar-holds", "per relative seat: 1 if the seat holds a bazaar tile to place (BZ4)"),
        (global::BAZAAR_SELECTOR, 6, "bazaar-selector", "per relative seat: one-hot of the player who picks at the bazaar (BZ2); 0 outside a bazaar"),
        (global::BAZAAR_BIDDER, 6, "bazaar-bidder", "per relative seat: one-hot of the highest bidder on the picked tile (the selector while nobody outbid him)"),
        (global::BAZAAR_BID, 1, "bazaar-bid", "the current bid on the picked tile, in points (raw)"),
        (global::tile_in_hand(), k, "tile-in-hand", "per catalogue tile kind: one-hot of the tile in hand (PlaceTile only)"),
        (global::focus_tile(), k, "focus-tile", "per catalogue tile kind: one-hot of the focus tile's kind"),
        (global::remaining(), k, "remaining", "per catalogue tile kind: tiles of that kind left to draw"),
        (global::bazaar_offer(), k, "bazaar-offer", "per catalogue tile kind: tiles of that kind in the bazaar's offer (BZ1)"),
        (global::bazaar_picked(), k, "bazaar-picked", "per catalogue tile kind: one-hot of the bazaar tile being auctioned (BZ2)"),
        (global::bazaar_own(), k, "bazaar-own", "per catalogue tile kind: one-hot of the bazaar tile the observing player holds (BZ4)"),
    ];
    rows.into_iter()
        .map(|(start, len, name, meaning)| GlobalInfo {
            start,
            len,
            name,
            meaning,
        })
        .collect()
}

pub(super) fn phase_index(phase: Phase) -> usize {
    Phase::ALL
        .iter()
        .position(|p| *p == phase)
        .expect("every phase is listed")
}
