//! The shapes of the learning interface: window side, block sizes and the first id of
//! every block of flat action ids ([`EncoderSpec`]), and the error of a refused call.

use super::schema::{catalogue_offset, id_offset, IdOffset, CATALOGUE_BLOCKS, PLANE_COUNT};
use carcassonne::action::FieldKind;
use carcassonne::config::{ConfigError, Figure, MAX_PLAYERS};
use std::fmt;

/// Feature slots per tile (`S`): 4 sides, 8 field half-edges, 4 centre slots, the whole
/// tile, the bridge, the tower.
pub const SLOT_COUNT: usize = 19;
/// Channels per slot (`F`), see [`super::Channel`].
pub const CHANNEL_COUNT: usize = super::Channel::ALL.len();
/// Ids of the `QUARTER` block: 5 figures (follower, abbot, mayor, wagon, big follower) × 4
/// quarters, then 4 count moves.
pub const QUARTER_IDS: usize = 4 * (super::ids::QUARTER_FIGURES.len() + 1);
/// Bridge variants of a placement that needs one (BR2): on the tile itself (NS, WE), or
/// on the neighbour at side N, E, S, W (the neighbour's bridge runs across the side
/// it shares).
pub const BRIDGE_VARIANTS: usize = 6;
/// Ids of the `BRIDGE` block: 4 rotations × [`BRIDGE_VARIANTS`].
pub const BRIDGE_IDS: usize = 4 * BRIDGE_VARIANTS;
/// Bids offered at a bazaar: 0 to the highest bid of the action schema
/// ([`FieldKind::int_max`] of [`FieldKind::Bid`]).
pub const BIDS: usize = FieldKind::Bid.int_max().expect("bids are bounded") as usize + 1;
/// Ids of the `BAZAAR` block: a place of the offer (one per seat) × a bid.
pub const BAZAAR_IDS: usize = MAX_PLAYERS * BIDS;
/// Figure kinds in the observation (every [`Figure`], in its order).
pub const FIGURE_KINDS: usize = Figure::ALL.len();

/// Shapes of the learning interface: the window size `W`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EncoderSpec {
    /// Window side `W` in squares.
    pub window: u16,
}

impl Default for EncoderSpec {
    fn default() -> EncoderSpec {
        EncoderSpec {
            window: EncoderSpec::DEFAULT_WINDOW,
        }
    }
}

impl EncoderSpec {
    /// The default window side (see `docs/observations.md` for how it was chosen).
    pub const DEFAULT_WINDOW: u16 = 32;
    /// Smallest window side accepted.
    pub const MIN_WINDOW: u16 = 3;
    /// Largest window side accepted (a game never spans more squares).
    pub const MAX_WINDOW: u16 = 512;

    /// A spec with window side `window`; an error naming the field `window` if it is
    /// outside [`EncoderSpec::MIN_WINDOW`]..=[`EncoderSpec::MAX_WINDOW`].
    pub fn new(window: u16) -> Result<EncoderSpec, ConfigError> {
        if !(Self::MIN_WINDOW..=Self::MAX_WINDOW).contains(&window) {
            return Err(ConfigError {
                field: "window".into(),
                message: format!(
                    "{window}; the window side must be {} to {}",
                    Self::MIN_WINDOW,
                    Self::MAX_WINDOW
                ),
            });
        }
        Ok(EncoderSpec { window })
    }

    pub(super) fn w(self) -> usize {
        self.window as usize
    }

    /// Number of board planes `C`.
    pub const fn num_planes(self) -> usize {
        PLANE_COUNT
    }

    /// Length of the `planes` buffer: `C·W·W`.
    pub fn planes_len(self) -> usize {
        PLANE_COUNT * self.w() * self.w()
    }

    /// Number of globals `G` (depends on the number of tile kinds in the catalogue).
    pub fn num_globals(self) -> usize {
        catalogue_offset(CATALOGUE_BLOCKS)
    }

    /// Size `A` of the flat action space: the `PASS` id is the last.
    pub fn num_actions(self) -> usize {
        self.pass_id() as usize + 1
    }

    /// First id of the id block `name` ([`super::schema::id_offset`] at this window).
    #[inline]
    fn base(self, offset: IdOffset) -> u32 {
        offset.at(u32::from(self.window))
    }

    /// First id of the `TILE` block (always 0).
    pub const fn tile_base(self) -> u32 {
        id_offset("tile").fixed
    }

    /// First id of the `CELL` block.
    pub fn cell_base(self) -> u32 {
        self.base(const { id_offset("cell") })
    }

    /// First id of the `SLOT` block.
    pub fn slot_base(self) -> u32 {
        self.base(const { id_offset("slot") })
    }

    /// First id of the `CORNER` block.
    pub fn corner_base(self) -> u32 {
        self.base(const { id_offset("corner") })
    }

    /// First id of the `QUARTER` block: a figure into a quarter of the City of
    /// Carcassonne (`4·figure + quarter`, figures follower, abbot, mayor, wagon), then the
    /// count's moves (`16 + quarter`).
    pub fn quarter_base(self) -> u32 {
        self.base(const { id_offset("quarter") })
    }

    /// First id of the `BRIDGE` block (the second id of a placement with a bridge).
    pub fn bridge_base(self) -> u32 {
        self.base(const { id_offset("bridge") })
    }

    /// First id of the `BAZAAR` block (`BIDS·place + bid`).
    pub fn bazaar_base(self) -> u32 {
        self.base(const { id_offset("bazaar") })
    }

    /// First id of the `BID` block.
    pub fn bid_base(self) -> u32 {
        self.base(const { id_offset("bid") })
    }

    /// First id of the `CHOICE` block (buy, sell).
    pub fn choice_base(self) -> u32 {
        self.base(const { id_offset("choice") })
    }

    /// First id of the `EXCHANGE` block (the kind of figure the capturer gets back, TW4).
    pub fn exchange_base(self) -> u32 {
        self.base(const { id_offset("exchange") })
    }

    /// First id of the `RANSOM` block (`FIGURE_KINDS·holder + figure`, the holder a seat
    /// relative to the payer, TW5).
    pub fn ransom_base(self) -> u32 {
        self.base(const { id_offset("ransom") })
    }

    /// First id of the `FLOCK` block (grow, herd: HS2).
    pub fn flock_base(self) -> u32 {
        self.base(const { id_offset("flock") })
    }

    /// The `PASS` id (the last one).
    pub fn pass_id(self) -> u32 {
        self.base(const { id_offset("pass") })
    }
}

/// Why an encoding call was refused (nothing is written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// A buffer has the wrong length.
    BufferSize {
        /// Which buffer (`planes`, `globals`, `mask`).
        buffer: &'static str,
        /// The length needed.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The player is not a seat of the game.
    Player {
        /// The seat asked for.
        player: usize,
        /// Number of players.
        players: usize,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::BufferSize {
                buffer,
                expected,
                got,
            } => write!(f, "{buffer}: length {got}, expected {expected}"),
            EncodeError::Player { player, players } => {
                write!(f, "player {player}: the game has seats 0..{players}")
            }
        }
    }
}

impl std::error::Error for EncodeError {}

pub(crate) fn check_len(
    buffer: &'static str,
    got: usize,
    expected: usize,
) -> Result<(), EncodeError> {
    if got == expected {
        Ok(())
    } else {
        Err(EncodeError::BufferSize {
            buffer,
            expected,
            got,
        })
    }
}
