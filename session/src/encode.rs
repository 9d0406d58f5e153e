//! Observation tensors, flat action ids and rewards for learning (`docs/interfaces.md` §3–§5, `docs/observations.md`).
//!
//! The board is seen through a `W × W` window ([`EncoderSpec::window`], default 32) whose
//! origin is recomputed at every decision so that the bounding box of the placed tiles,
//! plus one ring of empty squares, is centred ([`WindowOrigin::of`]). Window cell
//! `(wx, wy)` shows board square `(origin.x + wx, origin.y + wy)`.
//!
//! # Flat action ids
//!
//! | block    | size   | id                                      |
//! |----------|--------|-----------------------------------------|
//! | `TILE`   | 4·W²   | `rot·W² + wy·W + wx`                     |
//! | `CELL`   | W²     | `4·W² + wy·W + wx`                       |
//! | `SLOT`   | S·F    | `5·W² + slot·F + channel`                |
//! | `CORNER` | 4      | `5·W² + S·F + corner` (NW, NE, SE, SW)   |
//! | `QUARTER`| 20     | `… + 4·figure + quarter`, then `… + 16 + quarter` (count moves) |
//! | `BRIDGE` | 24     | `… + 6·rot + variant`: the bridge of a placement that needs one |
//! | `BAZAAR` | 6·31   | `… + 31·place + bid`: pick the tile at that place of the offer and open with `bid` |
//! | `BID`    | 31     | `… + bid`: raise to `bid`                 |
//! | `CHOICE` | 2      | `… + choice` (buy, sell)                 |
//! | `PASS`   | 1      | the last id                              |
//!
//! with `S` = [`SLOT_COUNT`] feature slots and `F` = [`CHANNEL_COUNT`] channels
//! ([`Channel`]). A slot is a location on a tile in the **board frame** ([`slot`]): the
//! four sides, the eight field half-edges and the centre features, so that a mask turns
//! with the board ([`rotate_action_id`]).
//!
//! The *focus tile* is the tile that `SLOT` ids refer to. During deployment it is the
//! tile just placed, so an ordinary deployment is one id. An action on another tile
//! (a magic-portal deployment, a fairy move, the princess, taking an abbot back, a wagon
//! move) takes two ids: a `CELL` id picks the focus tile, then a `SLOT` id picks the
//! feature and what to do there. Between the two the game is unchanged; [`crate::session::Session`]
//! keeps the pending focus, and the `*_at` functions take it as `focus`. The structured
//! legal list ([`Game::legal_actions`]) stays the truth: the mask of every step offers
//! exactly the ids that lead to legal actions, and every legal action whose squares lie
//! inside the window is reachable in exactly one way.
//!
//! | decision          | ids                                                         |
//! |-------------------|-------------------------------------------------------------|
//! | `PlaceTile`       | `TILE`                                                      |
//! | `PlaceAbbey`      | `CELL` (the hole); declining is `PASS`                      |
//! | `Deploy`          | `SLOT` on the placed tile, or `CELL` then `SLOT`; barn `CORNER`; `PASS` |
//! | `MoveDragon`      | `CELL`                                                      |
//! | `MoveWagon`       | `CELL` then `SLOT` (channel wagon); declining is `PASS`     |
//! | `PlaceTile` with a bridge (BR2) | `CELL` (the square), then `BRIDGE`           |
//! | `PlaceBridge` (BR1) | `SLOT` bridge on the placed tile (channel `bridge-ns`/`bridge-we`), or `CELL` then `SLOT` |
//! | `BuildCastle`     | `SLOT` (channel castle) on the placed tile; `castle_pass` is `PASS` |
//! | bazaar            | `BAZAAR`, `BID`, `CHOICE`; `bazaar_pass` is `PASS`          |
//! | `Draw` (chance)   | none: chance outcomes are not agent decisions; the mask is empty |
//!
//! Legal moves whose square lies outside the window are not offered; [`MaskInfo`] counts
//! them. If nothing at all can be offered ([`MaskInfo::offered`] is 0 while the game is
//! waiting for a player), the caller decides (the Python environments end the episode
//! as truncated).
//!
//! # Observations
//!
//! [`encode_observation`] writes, for one player (egocentric: relative seat 0 is that
//! player, 1 the next in turn order, ...; padded to 6 seats), `planes` `u8 [C, W, W]`
//! (layout `plane·W² + wy·W + wx`, table [`plane_table`], indices in [`plane`]) and
//! `globals` `f32 [G]` (table [`global_table`], offsets in [`global`]). Nothing is
//! allocated per call once a thread has encoded its first observation. The project's
//! `docs/observations.md` lists every plane and global; a test checks it against the
//! tables here.
//!
//! # Presets
//!
//! The full encoding has planes, globals and ids for every set. A [`Layout`]
//! ([`preset`]) keeps those that one configuration can use ([`Preset::InPlay`]) or a
//! smaller selection ([`Preset::Compact`]), with exact masks and maps between its ids
//! and the full ids.
//!
//! # Rewards
//!
//! [`step_rewards`] turns the scores before and after a step into a reward per player
//! ([`RewardMode`]: `score`, `score-diff`, `outcome`); returns are sums of rewards.
//!
//! ```
//! use carcassonne_session::encode::{self, EncoderSpec};
//! use carcassonne::{Game, GameConfig};
//! let game = Game::new(GameConfig::new(2)).unwrap();
//! let spec = EncoderSpec::default();
//! let mut planes = vec![0u8; spec.planes_len()];
//! let mut globals = vec![0f32; spec.num_globals()];
//! let mut mask = vec![0i8; spec.num_actions()];
//! let origin = encode::encode_observation(&game, 0, spec, &mut planes, &mut globals).unwrap();
//! let info = encode::legal_mask(&game, spec, &mut mask).unwrap();
//! assert_eq!(info.outside_window, 0);
//! let id = mask.iter().position(|m| *m == 1).unwrap() as u32;
//! let action = encode::flat_to_action(&game, spec, id).unwrap();
//! assert_eq!(encode::action_to_flat(&game, spec, action), Some(id));
//! assert_eq!(origin, encode::WindowOrigin::of(&game, spec));
//! ```

use carcassonne::action::Action;
use carcassonne::config::{ConfigError, Figure, MAX_PLAYERS};
use carcassonne::features::NodeId;
use carcassonne::game::{Game, Phase};
use carcassonne::geometry::{Corner, Pos, Rotation};
use carcassonne::rules::bcb::{Axis, BazaarChoice, TileBridge, MAX_BID};
use carcassonne::rules::count::Quarter;
use carcassonne::rules::princess_dragon::DRAGON_STEPS;
use carcassonne::scoring::feature_value;
use carcassonne::tiles::{catalogue, FeatureKind, Symbols, Terrain, TileKind, TileSet, NO_FEATURE};
use std::cell::RefCell;
use std::fmt;
use std::sync::OnceLock;

pub mod preset;
pub use preset::{Layout, Preset};

// ----- spec -----------------------------------------------------------------------------

/// Feature slots per tile (`S`): 4 sides, 8 field half-edges, 4 centre slots, the whole tile.
pub const SLOT_COUNT: usize = 18;
/// Channels per slot (`F`), see [`Channel`].
pub const CHANNEL_COUNT: usize = 14;
/// Ids of the `QUARTER` block: 4 figures × 4 quarters, then 4 count moves.
pub const QUARTER_IDS: usize = 20;
/// Bridge variants of a placement that needs one (BR2): on the tile itself (NS, WE), or
/// on the neighbour at side N, E, S, W (the neighbour's bridge runs across the side
/// it shares).
pub const BRIDGE_VARIANTS: usize = 6;
/// Ids of the `BRIDGE` block: 4 rotations × [`BRIDGE_VARIANTS`].
pub const BRIDGE_IDS: usize = 4 * BRIDGE_VARIANTS;
/// Bids offered at a bazaar: 0 to [`MAX_BID`].
pub const BIDS: usize = MAX_BID as usize + 1;
/// Ids of the `BAZAAR` block: a place of the offer (one per seat) × a bid.
pub const BAZAAR_IDS: usize = MAX_PLAYERS * BIDS;
/// Figure kinds in the observation (follower, abbot, mayor, wagon, barn).
pub const FIGURE_KINDS: usize = 5;

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

    fn w(self) -> usize {
        self.window as usize
    }

    /// Number of board planes `C`.
    pub const fn num_planes(self) -> usize {
        plane::COUNT
    }

    /// Length of the `planes` buffer: `C·W·W`.
    pub fn planes_len(self) -> usize {
        plane::COUNT * self.w() * self.w()
    }

    /// Number of globals `G` (depends on the number of tile kinds in the catalogue).
    pub fn num_globals(self) -> usize {
        global::tile_in_hand() + 6 * catalogue().len()
    }

    /// Size `A` of the flat action space: `4·W² + W² + S·F + 4 + 1`.
    pub fn num_actions(self) -> usize {
        self.pass_id() as usize + 1
    }

    /// First id of the `TILE` block (always 0).
    pub const fn tile_base(self) -> u32 {
        0
    }

    /// First id of the `CELL` block.
    pub fn cell_base(self) -> u32 {
        (4 * self.w() * self.w()) as u32
    }

    /// First id of the `SLOT` block.
    pub fn slot_base(self) -> u32 {
        (5 * self.w() * self.w()) as u32
    }

    /// First id of the `CORNER` block.
    pub fn corner_base(self) -> u32 {
        self.slot_base() + (SLOT_COUNT * CHANNEL_COUNT) as u32
    }

    /// First id of the `QUARTER` block: a figure into a quarter of the City of
    /// Carcassonne (`4·figure + quarter`, figures follower, abbot, mayor, wagon), then the
    /// count's moves (`16 + quarter`).
    pub fn quarter_base(self) -> u32 {
        self.corner_base() + 4
    }

    /// First id of the `BRIDGE` block (the second id of a placement with a bridge).
    pub fn bridge_base(self) -> u32 {
        self.quarter_base() + QUARTER_IDS as u32
    }

    /// First id of the `BAZAAR` block (`BIDS·place + bid`).
    pub fn bazaar_base(self) -> u32 {
        self.bridge_base() + BRIDGE_IDS as u32
    }

    /// First id of the `BID` block.
    pub fn bid_base(self) -> u32 {
        self.bazaar_base() + BAZAAR_IDS as u32
    }

    /// First id of the `CHOICE` block (buy, sell).
    pub fn choice_base(self) -> u32 {
        self.bid_base() + BIDS as u32
    }

    /// The `PASS` id (the last one).
    pub fn pass_id(self) -> u32 {
        self.choice_base() + 2
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

// ----- window ---------------------------------------------------------------------------

/// The board square shown in window cell `(0, 0)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct WindowOrigin {
    /// Board column of window column 0.
    pub x: i32,
    /// Board row of window row 0.
    pub y: i32,
}

impl WindowOrigin {
    /// The origin for the current state: the bounding box of the placed tiles grown by
    /// one square on every side is centred in the window (rounding towards smaller
    /// coordinates when it cannot be centred exactly).
    pub fn of(game: &Game, spec: EncoderSpec) -> WindowOrigin {
        let (min, max) = game.board().bounds();
        let w = spec.window as i32;
        // Twice the box centre is (min - 1) + (max + 1); twice the window centre is
        // 2·origin + w - 1.
        WindowOrigin {
            x: (min.x + max.x + 1 - w).div_euclid(2),
            y: (min.y + max.y + 1 - w).div_euclid(2),
        }
    }

    /// The window cell `(wx, wy)` of board square `pos`, if it is inside the window.
    #[inline]
    pub fn cell(self, spec: EncoderSpec, pos: Pos) -> Option<(u16, u16)> {
        let (dx, dy) = (pos.x - self.x, pos.y - self.y);
        let w = spec.window as i32;
        ((0..w).contains(&dx) && (0..w).contains(&dy)).then_some((dx as u16, dy as u16))
    }

    /// The board square of window cell `(wx, wy)`.
    pub fn pos(self, wx: u16, wy: u16) -> Pos {
        Pos::new(self.x + wx as i32, self.y + wy as i32)
    }

    /// The flat cell index `wy·W + wx` of board square `pos`, if it lies in the window.
    #[inline]
    pub fn cell_index(self, spec: EncoderSpec, pos: Pos) -> Option<usize> {
        self.cell(spec, pos)
            .map(|(x, y)| y as usize * spec.w() + x as usize)
    }
}

// ----- slots and channels ---------------------------------------------------------------

/// Feature slots: where on a tile, in the board frame.
///
/// * `0..4` [`slot::SIDE`] + side (N, E, S, W): the feature on the middle third of the side.
/// * `4..12` [`slot::HALF_EDGE`] + 2·side + h: the field on third 0 (h = 0) or third 2
///   (h = 1) of the side (thirds run clockwise around the tile from its NW corner).
/// * `12` [`slot::CLOISTER`]: a monastery or the abbey; `13` [`slot::GARDEN`];
///   `14`, `15` [`slot::INNER_FIELD`]: fields enclosed inside the tile, in catalogue order.
/// * `16` [`slot::WHOLE_TILE`]: the tile itself (the fairy under the `on-tile` rule).
/// * `17` [`slot::BRIDGE`]: the tile's bridge (BR3), or where one goes (BR1).
///
/// A feature's slot is the first of the side and half-edge slots that it covers, taken
/// in the tile's canonical orientation and then turned with the tile, so the slot of a
/// feature turns with the board.
pub mod slot {
    /// First side slot (N, E, S, W follow).
    pub const SIDE: u8 = 0;
    /// First half-edge slot.
    pub const HALF_EDGE: u8 = 4;
    /// Monastery or abbey.
    pub const CLOISTER: u8 = 12;
    /// Garden.
    pub const GARDEN: u8 = 13;
    /// First inner field.
    pub const INNER_FIELD: u8 = 14;
    /// The whole tile.
    pub const WHOLE_TILE: u8 = 16;
    /// The tile's bridge.
    pub const BRIDGE: u8 = 17;

    /// The slot after `quarter_turns` clockwise quarter turns of the board.
    pub const fn rotate(slot: u8, quarter_turns: u8) -> u8 {
        let q = quarter_turns & 3;
        if slot < HALF_EDGE {
            (slot + q) & 3
        } else if slot < CLOISTER {
            let k = slot - HALF_EDGE;
            HALF_EDGE + ((k / 2 + q) & 3) * 2 + (k & 1)
        } else {
            slot
        }
    }

    /// A short name: `N`, `E0`, `W2`, `cloister`, `inner1`, `tile`, ...
    pub fn name(slot: u8) -> String {
        const SIDES: [char; 4] = ['N', 'E', 'S', 'W'];
        match slot {
            0..=3 => SIDES[slot as usize].to_string(),
            4..=11 => {
                let k = slot - HALF_EDGE;
                format!(
                    "{}{}",
                    SIDES[(k / 2) as usize],
                    if k & 1 == 0 { 0 } else { 2 }
                )
            }
            CLOISTER => "cloister".into(),
            GARDEN => "garden".into(),
            14 | 15 => format!("inner{}", slot - INNER_FIELD + 1),
            WHOLE_TILE => "tile".into(),
            BRIDGE => "bridge".into(),
            _ => format!("slot{slot}"),
        }
    }
}

/// The slot of local feature `local` of `kind` turned by `rot` (see [`slot`]); the local
/// feature after the catalogue's is the tile's bridge (BR3).
pub fn feature_slot(kind: TileKind, rot: Rotation, local: u8) -> Option<u8> {
    let def = kind.def();
    if local as usize == def.features.len() {
        return Some(slot::BRIDGE);
    }
    let f = def.features.get(local as usize)?;
    if f.segments != 0 {
        let canonical = (0..4u8)
            .map(|s| (s, s as u16 * 3 + 1))
            .chain((0..4u8).flat_map(|s| {
                [
                    (slot::HALF_EDGE + 2 * s, s as u16 * 3),
                    (slot::HALF_EDGE + 2 * s + 1, s as u16 * 3 + 2),
                ]
            }))
            .find(|(_, bit)| f.segments & (1 << bit) != 0)
            .map(|(s, _)| s)?;
        return Some(slot::rotate(canonical, rot.quarter_turns()));
    }
    match f.kind {
        FeatureKind::Monastery | FeatureKind::Shrine => Some(slot::CLOISTER),
        FeatureKind::Garden => Some(slot::GARDEN),
        FeatureKind::Field => {
            let nth = def.features[..local as usize]
                .iter()
                .filter(|g| g.segments == 0 && g.kind == FeatureKind::Field)
                .count();
            (nth < 2).then_some(slot::INNER_FIELD + nth as u8)
        }
        _ => None,
    }
}

/// The local feature of `kind` turned by `rot` whose slot is `slot` (the bridge slot
/// names the local feature after the catalogue's).
pub fn slot_feature(kind: TileKind, rot: Rotation, slot: u8) -> Option<u8> {
    let n = kind.def().features.len() as u8;
    (0..=n).find(|&i| feature_slot(kind, rot, i) == Some(slot))
}

carcassonne::named_enum! {
    /// What a `SLOT` id does on the focus tile.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Channel {
        /// Deploy a follower.
        Follower(0) = "follower",
        /// Deploy the abbot.
        Abbot(1) = "abbot",
        /// Deploy the mayor.
        Mayor(2) = "mayor",
        /// Deploy the wagon, or move it there after scoring.
        Wagon(3) = "wagon",
        /// Move the fairy next to the figure on this feature (or onto the tile: whole-tile
        /// slot).
        Fairy(4) = "fairy",
        /// Remove the knight on this feature with the princess.
        Princess(5) = "princess",
        /// Take the abbot on this feature back.
        AbbotReturn(6) = "abbot-return",
        /// Move a follower out of the City of Carcassonne onto this feature (the quarter
        /// of the feature's kind, CC4, CC6).
        LeaveFollower(7) = "leave-follower",
        /// Move the abbot out of the cathedral onto this monastery or shrine.
        LeaveAbbot(8) = "leave-abbot",
        /// Move the mayor out of the castle onto this city.
        LeaveMayor(9) = "leave-mayor",
        /// Move the wagon out of the City onto this feature.
        LeaveWagon(10) = "leave-wagon",
        /// Turn this completed city into a castle (CA1).
        Castle(11) = "castle",
        /// Put a bridge from north to south on this tile (BR1; bridge slot).
        BridgeNS(12) = "bridge-ns",
        /// Put a bridge from west to east on this tile (BR1; bridge slot).
        BridgeWE(13) = "bridge-we",
    }
}

impl Channel {
    /// The channel that deploys `figure` (and moves a wagon there): the first channels
    /// follow the follower-like figures' order; `None` for a figure that stands on a
    /// corner (a `CORNER` id).
    pub fn deploying(figure: Figure) -> Option<Channel> {
        figure
            .is_follower_like()
            .then(|| Channel::ALL[Channel::Follower as usize + figure.index()])
    }

    /// The channel that moves `figure` out of the City of Carcassonne (the leaving
    /// channels, in the same order).
    pub fn leaving(figure: Figure) -> Option<Channel> {
        figure
            .is_follower_like()
            .then(|| Channel::ALL[Channel::LeaveFollower as usize + figure.index()])
    }

    /// The figure a deploying channel puts down or a leaving channel moves, and whether
    /// the channel is a leaving one; `None` for the other channels.
    fn figure(self) -> Option<(Figure, bool)> {
        Figure::ALL.into_iter().find_map(|f| {
            if Channel::deploying(f) == Some(self) {
                Some((f, false))
            } else if Channel::leaving(f) == Some(self) {
                Some((f, true))
            } else {
                None
            }
        })
    }
}

/// Position of a figure kind in the `QUARTER` block (the follower-like figures, in order).
fn quarter_figure(figure: Figure) -> Option<u32> {
    figure.is_follower_like().then_some(figure.index() as u32)
}

/// A flat id taken apart into its block and coordinates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlatAction {
    /// `TILE`: place the tile in hand on window cell `(wx, wy)` turned by `rot`.
    Tile {
        /// Rotation.
        rot: Rotation,
        /// Window column.
        wx: u16,
        /// Window row.
        wy: u16,
    },
    /// `CELL`: a square of the window (abbey hole, dragon step, focus tile).
    Cell {
        /// Window column.
        wx: u16,
        /// Window row.
        wy: u16,
    },
    /// `SLOT`: a feature slot of the focus tile and a channel.
    Slot {
        /// The slot (see [`slot`]).
        slot: u8,
        /// The channel.
        channel: Channel,
    },
    /// `CORNER`: a barn on this corner of the placed tile.
    Corner(Corner),
    /// `QUARTER`: put a figure into a quarter of the City of Carcassonne.
    EnterQuarter {
        /// The figure (follower, abbot, mayor or wagon).
        figure: Figure,
        /// The quarter.
        quarter: Quarter,
    },
    /// `QUARTER`: move the count to a quarter.
    MoveCount(Quarter),
    /// `BRIDGE`: after a `CELL` id picked the square, the placement turned by `rot` with
    /// its bridge: `variant` 0 and 1 on the tile itself (NS, WE), 2 + side on the
    /// neighbour at that side (N, E, S, W; across the side it shares).
    Bridge {
        /// The rotation of the placement.
        rot: Rotation,
        /// Which bridge.
        variant: u8,
    },
    /// `BAZAAR`: pick the tile at `place` of the offer and open with `bid`.
    BazaarSelect {
        /// Place in the offer (draw order).
        place: u8,
        /// Opening bid.
        bid: u32,
    },
    /// `BID`: raise to this bid.
    Bid(u32),
    /// `CHOICE`: buy or sell the outbid tile.
    Choice(BazaarChoice),
    /// `PASS`.
    Pass,
}

/// The `BRIDGE` variant of the bridge a placement carries.
fn bridge_variant(bridge: TileBridge) -> u8 {
    match bridge {
        TileBridge::OnTile(axis) => axis as u8,
        TileBridge::Neighbour(side) => 2 + side.index() as u8,
    }
}

impl FlatAction {
    /// The id of this flat action.
    pub fn id(self, spec: EncoderSpec) -> u32 {
        let w = spec.window as u32;
        match self {
            FlatAction::Tile { rot, wx, wy } => {
                rot.quarter_turns() as u32 * w * w + wy as u32 * w + wx as u32
            }
            FlatAction::Cell { wx, wy } => spec.cell_base() + wy as u32 * w + wx as u32,
            FlatAction::Slot { slot, channel } => {
                spec.slot_base() + slot as u32 * CHANNEL_COUNT as u32 + channel as u32
            }
            FlatAction::Corner(c) => spec.corner_base() + c.index() as u32,
            FlatAction::EnterQuarter { figure, quarter } => {
                spec.quarter_base() + 4 * quarter_figure(figure).unwrap_or(0) + quarter as u32
            }
            FlatAction::MoveCount(quarter) => spec.quarter_base() + 16 + quarter as u32,
            FlatAction::Bridge { rot, variant } => {
                spec.bridge_base()
                    + BRIDGE_VARIANTS as u32 * rot.quarter_turns() as u32
                    + variant as u32
            }
            FlatAction::BazaarSelect { place, bid } => {
                spec.bazaar_base() + BIDS as u32 * place as u32 + bid
            }
            FlatAction::Bid(bid) => spec.bid_base() + bid,
            FlatAction::Choice(c) => spec.choice_base() + c as u32,
            FlatAction::Pass => spec.pass_id(),
        }
    }

    /// The flat action of `id`; `None` if `id` is out of range.
    pub fn from_id(spec: EncoderSpec, id: u32) -> Option<FlatAction> {
        let w = spec.window as u32;
        let ww = w * w;
        Some(if id < spec.cell_base() {
            let rot = Rotation::new((id / ww) as u8)?;
            let c = id % ww;
            FlatAction::Tile {
                rot,
                wx: (c % w) as u16,
                wy: (c / w) as u16,
            }
        } else if id < spec.slot_base() {
            let c = id - spec.cell_base();
            FlatAction::Cell {
                wx: (c % w) as u16,
                wy: (c / w) as u16,
            }
        } else if id < spec.corner_base() {
            let k = id - spec.slot_base();
            FlatAction::Slot {
                slot: (k / CHANNEL_COUNT as u32) as u8,
                channel: Channel::ALL[(k % CHANNEL_COUNT as u32) as usize],
            }
        } else if id < spec.quarter_base() {
            FlatAction::Corner(Corner::from_index((id - spec.corner_base()) as usize))
        } else if id < spec.bridge_base() {
            let k = id - spec.quarter_base();
            if k < 16 {
                FlatAction::EnterQuarter {
                    figure: Figure::ALL[(k / 4) as usize],
                    quarter: Quarter::ALL[(k % 4) as usize],
                }
            } else {
                FlatAction::MoveCount(Quarter::ALL[(k - 16) as usize])
            }
        } else if id < spec.bazaar_base() {
            let k = id - spec.bridge_base();
            FlatAction::Bridge {
                rot: Rotation::new((k / BRIDGE_VARIANTS as u32) as u8)?,
                variant: (k % BRIDGE_VARIANTS as u32) as u8,
            }
        } else if id < spec.bid_base() {
            let k = id - spec.bazaar_base();
            FlatAction::BazaarSelect {
                place: (k / BIDS as u32) as u8,
                bid: k % BIDS as u32,
            }
        } else if id < spec.choice_base() {
            FlatAction::Bid(id - spec.bid_base())
        } else if id < spec.pass_id() {
            FlatAction::Choice(BazaarChoice::ALL[(id - spec.choice_base()) as usize])
        } else if id == spec.pass_id() {
            FlatAction::Pass
        } else {
            return None;
        })
    }
}

// ----- routes: structured action -> flat ids --------------------------------------------

/// How a structured action is reached through flat ids.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Route {
    /// One id.
    Direct(u32),
    /// A `CELL` id choosing the focus tile `focus`, then the `SLOT` id `slot`.
    Pointer { cell: u32, focus: Pos, slot: u32 },
    /// A square outside the window: not offered.
    Outside,
    /// Not an agent decision (a chance outcome).
    Unencodable,
}

/// What the routing needs about the current decision.
#[derive(Copy, Clone, Debug)]
struct Frame {
    spec: EncoderSpec,
    origin: WindowOrigin,
    /// The focus tile that `SLOT` ids reach directly (the placed tile while deploying).
    placed: Option<Pos>,
}

impl Frame {
    fn new(game: &Game, spec: EncoderSpec) -> Frame {
        let placed = match game.phase() {
            Phase::Deploy | Phase::Castle => game.placed_this_turn(),
            _ => None,
        };
        Frame {
            spec,
            origin: WindowOrigin::of(game, spec),
            placed,
        }
    }

    fn cell_id(&self, pos: Pos) -> Option<u32> {
        self.origin
            .cell_index(self.spec, pos)
            .map(|c| self.spec.cell_base() + c as u32)
    }

    fn route(&self, game: &Game, action: Action) -> Route {
        let spec = self.spec;
        match action {
            Action::PlaceTile { pos, rot, bridge } => match self.origin.cell_index(spec, pos) {
                Some(c) => {
                    let tile = (rot.quarter_turns() as usize * spec.w() * spec.w() + c) as u32;
                    // A placement with a bridge: the square's CELL id, then the BRIDGE
                    // id naming the rotation and the bridge.
                    match bridge.map(bridge_variant) {
                        None => Route::Direct(tile),
                        Some(variant) => Route::Pointer {
                            cell: spec.cell_base() + c as u32,
                            focus: pos,
                            slot: FlatAction::Bridge { rot, variant }.id(spec),
                        },
                    }
                }
                None => Route::Outside,
            },
            Action::PlaceAbbey { pos } | Action::MoveDragon { pos } => {
                self.cell_id(pos).map_or(Route::Outside, Route::Direct)
            }
            Action::Pass => Route::Direct(spec.pass_id()),
            Action::DeployBarn { corner, .. } => {
                Route::Direct(spec.corner_base() + corner.index() as u32)
            }
            Action::Deploy {
                figure,
                pos,
                feature,
            } => match Channel::deploying(figure) {
                Some(ch) => self.targeted(game, pos, Some(feature), ch),
                None => Route::Unencodable,
            },
            Action::MoveFairy { pos, feature } => self.targeted(game, pos, feature, Channel::Fairy),
            Action::Princess { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Princess)
            }
            Action::ReturnAbbot { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::AbbotReturn)
            }
            Action::MoveWagon { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Wagon)
            }
            Action::Draw { .. } => Route::Unencodable,
            Action::LeaveQuarter {
                figure,
                pos,
                feature,
                ..
            } => match Channel::leaving(figure) {
                Some(ch) => self.targeted(game, pos, Some(feature), ch),
                None => Route::Unencodable,
            },
            Action::QuarterPass { .. } => Route::Direct(spec.pass_id()),
            Action::DeployQuarter { figure, quarter } => match quarter_figure(figure) {
                Some(_) => Route::Direct(FlatAction::EnterQuarter { figure, quarter }.id(spec)),
                None => Route::Unencodable,
            },
            Action::MoveCount { quarter } => Route::Direct(FlatAction::MoveCount(quarter).id(spec)),
            Action::PlaceBridge { pos, axis } => {
                let ch = match axis {
                    Axis::NS => Channel::BridgeNS,
                    Axis::WE => Channel::BridgeWE,
                };
                match game.board().at(pos) {
                    Some(p) => {
                        let local = p.kind.def().features.len() as u8;
                        self.targeted(game, pos, Some(local), ch)
                    }
                    None => Route::Unencodable,
                }
            }
            Action::BuildCastle { pos, feature } => {
                self.targeted(game, pos, Some(feature), Channel::Castle)
            }
            Action::CastlePass | Action::BazaarPass => Route::Direct(spec.pass_id()),
            Action::BazaarSelect { tile, bid } => {
                match game.bazaar_offer().iter().position(|t| *t == Some(tile)) {
                    Some(place) => Route::Direct(
                        FlatAction::BazaarSelect {
                            place: place as u8,
                            bid,
                        }
                        .id(spec),
                    ),
                    None => Route::Unencodable,
                }
            }
            Action::BazaarBid { bid } => Route::Direct(FlatAction::Bid(bid).id(spec)),
            Action::BazaarBuyOrSell { choice } => {
                Route::Direct(FlatAction::Choice(choice).id(spec))
            }
        }
    }

    fn targeted(&self, game: &Game, pos: Pos, feature: Option<u8>, ch: Channel) -> Route {
        let Some(p) = game.board().at(pos) else {
            return Route::Unencodable;
        };
        let slot = match feature {
            Some(local) => match feature_slot(p.kind, p.rot, local) {
                Some(s) => s,
                None => return Route::Unencodable,
            },
            None => slot::WHOLE_TILE,
        };
        let slot_id = FlatAction::Slot { slot, channel: ch }.id(self.spec);
        if self.placed == Some(pos) {
            return Route::Direct(slot_id);
        }
        match self.cell_id(pos) {
            Some(cell) => Route::Pointer {
                cell,
                focus: pos,
                slot: slot_id,
            },
            None => Route::Outside,
        }
    }
}

/// What a mask covered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MaskInfo {
    /// Legal structured actions of the decision.
    pub legal: u32,
    /// Ids set in the mask.
    pub offered: u32,
    /// Legal structured actions not reachable because a square they need lies outside
    /// the window (each such action counts once).
    pub outside_window: u32,
    /// Ids of the full encoding offered but missing from the [`Layout`] the mask was
    /// written for (0 without a layout, and for a layout made for the game's own
    /// configuration).
    pub outside_layout: u32,
}

/// What a flat id does in the current step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlatDecision {
    /// The id completes this structured action.
    Action(Action),
    /// The id picks the focus tile at this square; a `SLOT` id follows.
    Focus(Pos),
}

/// The first and, for two-step actions, the second id of a structured action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FlatPath {
    /// The id to take now.
    pub first: u32,
    /// The `SLOT` id to take after `first` (a `CELL` id) when the action takes two steps.
    pub second: Option<u32>,
}

// ----- one decision, routed once ---------------------------------------------------------

/// The flat ids of every legal action of one decision, computed once: the mask, the
/// decoder and the observation of that decision all read it.
///
/// It holds the first-step id of each action of the game's legal list ([`Game::legal`],
/// same order) — an id → action table: decoding a first-step id is a search of one short
/// array that stays in cache — and, for the two-step actions, the focus tile and the
/// `SLOT` id that follows the `CELL` id. [`DecisionTable::refresh`] recomputes it for a
/// new decision (no allocation once its buffers have grown to the largest decision);
/// the free functions of this module build one on the fly, [`crate::session::Session`]
/// keeps one per game. Its methods take the game it was refreshed for.
#[derive(Clone, Debug)]
pub struct DecisionTable {
    spec: EncoderSpec,
    frame: Frame,
    /// The first-step id of each legal action (`TILE`, `CELL`, `SLOT` on the placed tile,
    /// `CORNER`, `PASS`), [`NO_ID`] if it has none (outside the window, a draw).
    first: Vec<u32>,
    /// The two-step actions: index in the legal list, focus tile, `SLOT` id.
    pointers: Vec<(u32, Pos, u32)>,
    /// Legal actions with a square outside the window.
    outside: u32,
}

/// Marks a legal action without a flat id in [`DecisionTable`].
const NO_ID: u32 = u32::MAX;

impl DecisionTable {
    /// An empty table for the window of `spec` (call [`DecisionTable::refresh`]).
    pub fn new(spec: EncoderSpec) -> DecisionTable {
        DecisionTable {
            spec,
            frame: Frame {
                spec,
                origin: WindowOrigin::default(),
                placed: None,
            },
            first: Vec::new(),
            pointers: Vec::new(),
            outside: 0,
        }
    }

    /// A table computed for the current decision of `game`.
    pub fn of(game: &Game, spec: EncoderSpec) -> DecisionTable {
        let mut table = DecisionTable::new(spec);
        table.refresh(game);
        table
    }

    /// Recomputes the table for the current decision of `game`.
    pub fn refresh(&mut self, game: &Game) {
        self.first.clear();
        self.pointers.clear();
        self.outside = 0;
        self.frame = Frame::new(game, self.spec);
        for (i, &action) in game.legal().iter().enumerate() {
            let id = match self.frame.route(game, action) {
                Route::Direct(id) => id,
                Route::Pointer { cell, focus, slot } => {
                    self.pointers.push((i as u32, focus, slot));
                    cell
                }
                Route::Outside => {
                    self.outside += 1;
                    NO_ID
                }
                Route::Unencodable => NO_ID,
            };
            self.first.push(id);
        }
    }

    /// The spec the ids refer to.
    pub fn spec(&self) -> EncoderSpec {
        self.spec
    }

    /// The window origin of the decision.
    pub fn origin(&self) -> WindowOrigin {
        self.frame.origin
    }

    /// Whether a `CELL` id of this decision picks the tile at `pos` as focus.
    pub fn offers_focus(&self, pos: Pos) -> bool {
        self.pointers.iter().any(|(_, f, _)| *f == pos)
    }

    /// Writes the mask of the current step into `mask` (`i8 [A]`, 1 = offered): with
    /// `focus` `None` the ids that start a legal action, with `focus` `Some(pos)` (a
    /// `CELL` id picked that tile) the `SLOT` ids that complete one there.
    pub fn mask(&self, focus: Option<Pos>, mask: &mut [i8]) -> Result<MaskInfo, EncodeError> {
        check_len("mask", mask.len(), self.spec.num_actions())?;
        mask.fill(0);
        let mut info = MaskInfo {
            legal: self.first.len() as u32,
            offered: 0,
            outside_window: self.outside,
            outside_layout: 0,
        };
        let mut offer = |id: u32| {
            let m = &mut mask[id as usize];
            if *m == 0 {
                *m = 1;
                info.offered += 1;
            }
        };
        match focus {
            None => self
                .first
                .iter()
                .filter(|id| **id != NO_ID)
                .for_each(|id| offer(*id)),
            Some(pos) => self
                .pointers
                .iter()
                .filter(|(_, f, _)| *f == pos)
                .for_each(|(_, _, slot)| offer(*slot)),
        }
        Ok(info)
    }

    /// What flat `id` does in the current step of `game` (with the pending `focus`, if
    /// any); `None` if the mask of this step does not offer it.
    pub fn decode(&self, game: &Game, focus: Option<Pos>, id: u32) -> Option<FlatDecision> {
        match focus {
            None => {
                if id == NO_ID {
                    return None;
                }
                let i = self.first.iter().position(|f| *f == id)?;
                match self.pointers.iter().find(|(k, _, _)| *k as usize == i) {
                    Some((_, focus, _)) => Some(FlatDecision::Focus(*focus)),
                    None => Some(FlatDecision::Action(game.legal()[i])),
                }
            }
            Some(pos) => self
                .pointers
                .iter()
                .find(|(_, f, slot)| *f == pos && *slot == id)
                .map(|(i, _, _)| FlatDecision::Action(game.legal()[*i as usize])),
        }
    }

    /// Both ids of a legal structured `action` of `game`; `None` if it is not legal, lies
    /// outside the window or is a chance outcome.
    pub fn path(&self, game: &Game, action: Action) -> Option<FlatPath> {
        let i = game.legal().iter().position(|a| *a == action)?;
        let first = self.first[i];
        if first == NO_ID {
            return None;
        }
        let second = self
            .pointers
            .iter()
            .find(|(k, _, _)| *k as usize == i)
            .map(|(_, _, slot)| *slot);
        Some(FlatPath { first, second })
    }

    /// The legal placements (rotation, window cell) and the window cells that a `CELL` id
    /// offers, for the observation planes.
    fn offered_cells(&self) -> impl Iterator<Item = (Option<Rotation>, usize)> + '_ {
        let spec = self.spec;
        let ww = spec.w() * spec.w();
        self.first.iter().filter_map(move |&id| {
            if id < spec.cell_base() {
                let rot = Rotation::new((id as usize / ww) as u8).expect("a TILE id");
                Some((Some(rot), id as usize % ww))
            } else if id < spec.slot_base() {
                Some((None, (id - spec.cell_base()) as usize))
            } else {
                None
            }
        })
    }
}

thread_local! {
    static TABLE: RefCell<Option<DecisionTable>> = const { RefCell::new(None) };
}

/// Runs `f` on the decision table of `game`, computed in a per-thread table (reused
/// while the spec stays the same, so the free functions allocate nothing per call).
fn with_table<R>(game: &Game, spec: EncoderSpec, f: impl FnOnce(&DecisionTable) -> R) -> R {
    TABLE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let table = match slot.as_mut() {
                Some(t) if t.spec == spec => t,
                _ => slot.insert(DecisionTable::new(spec)),
            };
            table.refresh(game);
            f(table)
        }
        Err(_) => f(&DecisionTable::of(game, spec)),
    })
}

/// Writes the legal-move mask of the current decision (no pending focus) into `mask`
/// (`i8 [A]`, 1 = legal). See [`legal_mask_at`].
pub fn legal_mask(
    game: &Game,
    spec: EncoderSpec,
    mask: &mut [i8],
) -> Result<MaskInfo, EncodeError> {
    legal_mask_at(game, spec, None, mask)
}

/// Writes the mask of the current step into `mask`: with `focus` `None`, the ids that
/// start a legal action; with `focus` `Some(pos)` (a `CELL` id picked that tile), the
/// `SLOT` ids that complete a legal action there. Empty when the game is over or waits
/// for a chance outcome.
pub fn legal_mask_at(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    mask: &mut [i8],
) -> Result<MaskInfo, EncodeError> {
    check_len("mask", mask.len(), spec.num_actions())?;
    with_table(game, spec, |t| t.mask(focus, mask))
}

/// The first flat id of a legal structured `action` in the current state (no pending
/// focus); `None` if it is not legal, lies outside the window or is a chance outcome.
/// Two-step actions give their `CELL` id; see [`action_to_flat_path`].
pub fn action_to_flat(game: &Game, spec: EncoderSpec, action: Action) -> Option<u32> {
    action_to_flat_path(game, spec, action).map(|p| p.first)
}

/// Both ids of a legal structured `action` (see [`FlatPath`]).
pub fn action_to_flat_path(game: &Game, spec: EncoderSpec, action: Action) -> Option<FlatPath> {
    with_table(game, spec, |t| t.path(game, action))
}

/// The structured action that flat `id` completes in one step in the current state (no
/// pending focus); `None` if the id is not legal now or only picks a focus tile.
pub fn flat_to_action(game: &Game, spec: EncoderSpec, id: u32) -> Option<Action> {
    match decode_flat(game, spec, None, id) {
        Some(FlatDecision::Action(a)) => Some(a),
        _ => None,
    }
}

/// What flat `id` does in the current step (with the pending `focus`, if any); `None` if
/// the mask of this step does not offer it.
pub fn decode_flat(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    id: u32,
) -> Option<FlatDecision> {
    if id as usize >= spec.num_actions() {
        return None;
    }
    with_table(game, spec, |t| t.decode(game, focus, id))
}

/// Why a flat id was refused (the game is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlatError {
    /// The game is over.
    GameOver,
    /// The game waits for a chance outcome, not a player decision.
    ChanceNode,
    /// The mask of this step does not offer the id.
    NotOffered {
        /// The refused id.
        id: u32,
    },
}

impl fmt::Display for FlatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlatError::GameOver => write!(f, "the game is over"),
            FlatError::ChanceNode => write!(f, "the game waits for a chance outcome"),
            FlatError::NotOffered { id } => write!(f, "action id {id} is not legal now"),
        }
    }
}

impl std::error::Error for FlatError {}

// ----- rotation for augmentation --------------------------------------------------------

/// Window cell `(wx, wy)` after `q` clockwise quarter turns about the window centre.
#[inline]
fn rotate_cell(w: usize, wx: usize, wy: usize, q: u8) -> (usize, usize) {
    match q & 3 {
        0 => (wx, wy),
        1 => (w - 1 - wy, wx),
        2 => (w - 1 - wx, w - 1 - wy),
        _ => (wy, w - 1 - wx),
    }
}

/// The plane that plane `p` becomes after one clockwise quarter turn of the board.
pub const fn plane_after_turn(p: usize) -> usize {
    use plane::*;
    let cyclic4 = [
        CITY,
        ROAD,
        RIVER,
        LINK_NEXT,
        LEGAL_PLACEMENT,
        SIDE_OWN,
        SIDE_BEST_OPPONENT,
        SIDE_OPEN,
        SIDE_VALUE,
    ];
    let mut i = 0;
    while i < cyclic4.len() {
        let base = cyclic4[i];
        if p >= base && p < base + 4 {
            return base + (p - base + 1) % 4;
        }
        i += 1;
    }
    if p >= LINK_OPPOSITE && p < LINK_OPPOSITE + 2 {
        return LINK_OPPOSITE + (p - LINK_OPPOSITE + 1) % 2;
    }
    if p >= BRIDGE && p < BRIDGE + 2 {
        return BRIDGE + (p - BRIDGE + 1) % 2;
    }
    p
}

/// Writes into `dst` the planes of `src` seen after `quarter_turns` clockwise quarter turns
/// of the board about the window centre: cells move, and planes tied to a side or a
/// rotation move with it ([`plane_after_turn`]). Globals do not change under rotation
/// except the window origin, which augmentation may ignore.
pub fn rotate_planes(
    spec: EncoderSpec,
    src: &[u8],
    dst: &mut [u8],
    quarter_turns: u8,
) -> Result<(), EncodeError> {
    check_len("planes", src.len(), spec.planes_len())?;
    check_len("rotated planes", dst.len(), spec.planes_len())?;
    let w = spec.w();
    let q = quarter_turns & 3;
    for p in 0..plane::COUNT {
        let mut to = p;
        for _ in 0..q {
            to = plane_after_turn(to);
        }
        let (s, d) = (p * w * w, to * w * w);
        for wy in 0..w {
            for wx in 0..w {
                let (rx, ry) = rotate_cell(w, wx, wy, q);
                dst[d + ry * w + rx] = src[s + wy * w + wx];
            }
        }
    }
    Ok(())
}

/// The id of the same move after `quarter_turns` clockwise quarter turns of the board
/// about the window centre; `None` if `id` is out of range.
pub fn rotate_action_id(spec: EncoderSpec, id: u32, quarter_turns: u8) -> Option<u32> {
    let q = quarter_turns & 3;
    let w = spec.w();
    let turned = match FlatAction::from_id(spec, id)? {
        FlatAction::Tile { rot, wx, wy } => {
            let (x, y) = rotate_cell(w, wx as usize, wy as usize, q);
            FlatAction::Tile {
                rot: Rotation::new((rot.quarter_turns() + q) & 3)?,
                wx: x as u16,
                wy: y as u16,
            }
        }
        FlatAction::Cell { wx, wy } => {
            let (x, y) = rotate_cell(w, wx as usize, wy as usize, q);
            FlatAction::Cell {
                wx: x as u16,
                wy: y as u16,
            }
        }
        FlatAction::Slot { slot: s, channel } => FlatAction::Slot {
            slot: slot::rotate(s, q),
            // A bridge's axis is in the board frame: an odd quarter turn swaps it.
            channel: match channel {
                Channel::BridgeNS if q & 1 == 1 => Channel::BridgeWE,
                Channel::BridgeWE if q & 1 == 1 => Channel::BridgeNS,
                c => c,
            },
        },
        FlatAction::Corner(c) => FlatAction::Corner(Corner::from_index(c.index() + q as usize)),
        FlatAction::Bridge { rot, variant } => FlatAction::Bridge {
            rot: Rotation::new((rot.quarter_turns() + q) & 3)?,
            variant: if variant < 2 {
                variant ^ (q & 1)
            } else {
                2 + (variant - 2 + q) % 4
            },
        },
        other @ (FlatAction::EnterQuarter { .. }
        | FlatAction::MoveCount(_)
        | FlatAction::BazaarSelect { .. }
        | FlatAction::Bid(_)
        | FlatAction::Choice(_)
        | FlatAction::Pass) => other,
    };
    Some(turned.id(spec))
}

/// Writes into `dst` the mask (or any per-action vector) `src` after `quarter_turns`
/// clockwise quarter turns of the board.
pub fn rotate_mask<T: Copy>(
    spec: EncoderSpec,
    src: &[T],
    dst: &mut [T],
    quarter_turns: u8,
) -> Result<(), EncodeError> {
    check_len("mask", src.len(), spec.num_actions())?;
    check_len("rotated mask", dst.len(), spec.num_actions())?;
    for (id, v) in src.iter().enumerate() {
        if let Some(to) = rotate_action_id(spec, id as u32, quarter_turns) {
            dst[to as usize] = *v;
        }
    }
    Ok(())
}

// ----- planes ---------------------------------------------------------------------------

/// Plane indices (see [`plane_table`] for names and meanings). Side-indexed groups are
/// ordered N, E, S, W; rotation-indexed groups by quarter turns.
pub mod plane {
    /// A tile lies here.
    pub const OCCUPIED: usize = 0;
    /// Offset by side: the side is city.
    pub const CITY: usize = 1;
    /// Offset by side: the side is road.
    pub const ROAD: usize = 5;
    /// Offset by side: the side is river.
    pub const RIVER: usize = 9;
    /// Offset by side: the city, road or river on this side continues to the next side
    /// clockwise on this tile.
    pub const LINK_NEXT: usize = 13;
    /// +0: the city, road or river on the north side continues to the south side; +1:
    /// east to west.
    pub const LINK_OPPOSITE: usize = 17;
    /// A monastery or abbey.
    pub const MONASTERY: usize = 19;
    /// A garden.
    pub const GARDEN: usize = 20;
    /// Pennants on the tile.
    pub const PENNANTS: usize = 21;
    /// The abbey tile.
    pub const ABBEY: usize = 22;
    /// A volcano.
    pub const VOLCANO: usize = 23;
    /// The dragon symbol.
    pub const DRAGON_SYMBOL: usize = 24;
    /// A magic portal.
    pub const MAGIC_PORTAL: usize = 25;
    /// A princess.
    pub const PRINCESS: usize = 26;
    /// A pig herd.
    pub const PIG_HERD: usize = 27;
    /// The most recently placed tile.
    pub const LAST_PLACED: usize = 28;
    /// The focus tile that `SLOT` ids refer to.
    pub const FOCUS: usize = 29;
    /// Offset by rotation: placing the tile in hand here turned so is legal.
    pub const LEGAL_PLACEMENT: usize = 30;
    /// The square's `CELL` id is offered.
    pub const CELL_TARGET: usize = 34;
    /// The dragon.
    pub const DRAGON: usize = 35;
    /// The fairy.
    pub const FAIRY: usize = 36;
    /// Visited by the dragon's current flight.
    pub const DRAGON_VISITED: usize = 37;
    /// Offset by 5·relative seat + figure kind: figures of that seat and kind on the tile.
    pub const FIGURES: usize = 38;
    /// Offset by side: strength of the observing player on the feature at the side's middle third.
    pub const SIDE_OWN: usize = 68;
    /// Offset by side: the highest strength of an opponent on that feature.
    pub const SIDE_BEST_OPPONENT: usize = 72;
    /// Offset by side: open edges of that feature (cities, roads, rivers).
    pub const SIDE_OPEN: usize = 76;
    /// Offset by side: points the feature would score now (cities, roads).
    pub const SIDE_VALUE: usize = 80;
    /// Strength of the observing player on the tile's monastery or garden.
    pub const CENTRE_OWN: usize = 84;
    /// Highest opponent strength on the tile's monastery or garden.
    pub const CENTRE_BEST_OPPONENT: usize = 85;
    /// Points the tile's monastery or garden would score now.
    pub const CENTRE_VALUE: usize = 86;
    /// Offset by axis (NS, WE): the tile carries a bridge along it (BR3).
    pub const BRIDGE: usize = 87;
    /// A castle of the observing player that has not scored lies on the tile (CA1).
    pub const CASTLE_OWN: usize = 89;
    /// An opponent's castle that has not scored lies on the tile.
    pub const CASTLE_OPPONENT: usize = 90;
    /// The tile has a shrine (CU1).
    pub const SHRINE: usize = 91;
    /// The tile shows a bazaar (BZ1).
    pub const BAZAAR: usize = 92;
    /// The square belongs to the City of Carcassonne (CC1).
    pub const CITY_OF_CARCASSONNE: usize = 93;
    /// Number of planes `C`.
    pub const COUNT: usize = 94;
}

/// One row of the plane table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneInfo {
    /// Index.
    pub index: usize,
    /// Name, e.g. `city.N`, `figures.rel1.wagon`.
    pub name: String,
    /// What a cell holds.
    pub meaning: &'static str,
}

const SIDE_NAMES: [&str; 4] = ["N", "E", "S", "W"];

/// The planes `{group}.N`, `{group}.E`, `{group}.S`, `{group}.W` of each group, in
/// that order, with the group's meaning.
fn per_side(groups: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    groups
        .iter()
        .flat_map(|&(group, meaning)| SIDE_NAMES.map(|s| (format!("{group}.{s}"), meaning)))
        .collect()
}

/// Every plane by index.
pub fn plane_table() -> &'static [PlaneInfo] {
    static TABLE: OnceLock<Vec<PlaneInfo>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(plane::COUNT);
        let mut push = |name: String, meaning: &'static str| {
            t.push(PlaneInfo {
                index: t.len(),
                name,
                meaning,
            })
        };
        push("occupied".into(), "1 if a tile lies on the square");
        for (name, meaning) in per_side(&[
            ("city", "1 if the side is city"),
            ("road", "1 if the side is road"),
            ("river", "1 if the side is river"),
            (
                "link-next",
                "1 if the city, road or river on this side continues to the next side clockwise on the tile",
            ),
        ]) {
            push(name, meaning);
        }
        push(
            "link-opposite.NS".into(),
            "1 if the city, road or river on the north side continues to the south side on the tile",
        );
        push(
            "link-opposite.EW".into(),
            "1 if the city, road or river on the east side continues to the west side on the tile",
        );
        push("monastery".into(), "1 if the tile has a monastery or is the abbey");
        push("garden".into(), "1 if the tile has a garden");
        push("pennants".into(), "number of pennants on the tile");
        push("abbey".into(), "1 if the tile is the abbey tile");
        push("volcano".into(), "1 if the tile shows a volcano");
        push("dragon-symbol".into(), "1 if the tile shows the dragon symbol");
        push("magic-portal".into(), "1 if the tile shows a magic portal");
        push("princess".into(), "1 if the tile shows a princess");
        push("pig-herd".into(), "1 if the tile shows a pig herd");
        push("last-placed".into(), "1 on the most recently placed tile");
        push(
            "focus".into(),
            "1 on the focus tile that SLOT ids refer to (the placed tile while deploying, or the tile picked by a CELL id)",
        );
        for r in 0..4 {
            push(
                format!("legal-placement.rot{r}"),
                "1 if placing the tile in hand here with this rotation is legal",
            );
        }
        push("cell-target".into(), "1 if the square's CELL id is offered by the mask");
        push("dragon".into(), "1 where the dragon stands");
        push("fairy".into(), "1 where the fairy stands");
        push("dragon-visited".into(), "1 on tiles visited by the dragon's current flight");
        for rel in 0..MAX_PLAYERS {
            for f in Figure::ALL {
                push(
                    format!("figures.rel{rel}.{}", f.name()),
                    "number of figures of this relative seat and kind on the tile",
                );
            }
        }
        for (name, meaning) in per_side(&[
            (
                "side-own",
                "strength of the observing player on the feature at the side's middle third (mayor: pennants)",
            ),
            (
                "side-best-opponent",
                "highest strength of an opponent on the feature at the side's middle third",
            ),
            (
                "side-open",
                "open edges of the city, road or river at the side's middle third (0 for fields)",
            ),
            (
                "side-value",
                "points the city or road at the side's middle third would score now (complete: B12, else B15)",
            ),
        ]) {
            push(name, meaning);
        }
        push(
            "centre-own".into(),
            "strength of the observing player on the tile's monastery or garden",
        );
        push(
            "centre-best-opponent".into(),
            "highest opponent strength on the tile's monastery or garden",
        );
        push(
            "centre-value".into(),
            "points the tile's monastery or garden would score now (9 when complete, else 1 + neighbours)",
        );
        push("bridge.NS".into(), "1 if the tile carries a bridge from north to south");
        push("bridge.WE".into(), "1 if the tile carries a bridge from west to east");
        push(
            "castle-own".into(),
            "1 on the two tiles of a castle of the observing player that has not scored yet",
        );
        push(
            "castle-opponent".into(),
            "1 on the two tiles of an opponent's castle that has not scored yet",
        );
        push("shrine".into(), "1 if the tile has a shrine");
        push("bazaar".into(), "1 if the tile shows a bazaar");
        push(
            "city-of-carcassonne".into(),
            "1 on the twelve squares of the City of Carcassonne",
        );
        t
    })
}

// ----- globals --------------------------------------------------------------------------

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

fn phase_index(phase: Phase) -> usize {
    Phase::ALL
        .iter()
        .position(|p| *p == phase)
        .expect("every phase is listed")
}

// ----- feature statistics -----------------------------------------------------------------

/// Most feature nodes the statistics cover (a game has at most 255 tiles of at most 10
/// features; larger states leave the value planes at 0).
const MAX_NODES: usize = 2560;
/// Most distinct features with figures.
const MAX_OCCUPIED: usize = 96;

/// Per-feature data the aggregate planes need, on the stack.
struct FeatureStats {
    /// Distinct tiles per root (cities and roads).
    tiles: [u8; MAX_NODES],
    /// Last tile counted per root.
    last: [u8; MAX_NODES],
    counted: bool,
    /// Roots with figures and the strength of every seat on them.
    occupied: [(NodeId, [u8; MAX_PLAYERS]); MAX_OCCUPIED],
    occupied_len: usize,
}

impl FeatureStats {
    fn new(game: &Game) -> FeatureStats {
        let mut s = FeatureStats {
            tiles: [0; MAX_NODES],
            last: [u8::MAX; MAX_NODES],
            counted: false,
            occupied: [(0, [0; MAX_PLAYERS]); MAX_OCCUPIED],
            occupied_len: 0,
        };
        let features = game.features();
        let n = features.len();
        if n <= MAX_NODES {
            s.counted = true;
            for id in 0..n as NodeId {
                let node = features.node(id);
                if !matches!(node.kind, FeatureKind::City | FeatureKind::Road) {
                    continue;
                }
                let r = features.root(id) as usize;
                if s.last[r] != node.placement {
                    s.last[r] = node.placement;
                    s.tiles[r] = s.tiles[r].saturating_add(1);
                }
            }
        }
        for f in game.board_figures() {
            if !f.figure.is_follower_like() {
                continue;
            }
            let root = features.root(f.node);
            let strength = u8::try_from(game.figure_weight(f.figure, f.node)).unwrap_or(u8::MAX);
            let k = match s.occupied[..s.occupied_len]
                .iter()
                .position(|(r, _)| *r == root)
            {
                Some(k) => k,
                None if s.occupied_len < MAX_OCCUPIED => {
                    s.occupied[s.occupied_len] = (root, [0; MAX_PLAYERS]);
                    s.occupied_len += 1;
                    s.occupied_len - 1
                }
                None => continue,
            };
            let e = &mut s.occupied[k].1[f.owner as usize];
            *e = e.saturating_add(strength);
        }
        s
    }

    /// (own strength, best opponent strength) on the feature of `root`.
    fn strengths(&self, root: NodeId, player: usize) -> (u8, u8) {
        match self.occupied[..self.occupied_len]
            .iter()
            .find(|(r, _)| *r == root)
        {
            Some((_, s)) => {
                let best = (0..MAX_PLAYERS)
                    .filter(|&p| p != player)
                    .map(|p| s[p])
                    .max()
                    .unwrap_or(0);
                (s[player], best)
            }
            None => (0, 0),
        }
    }

    /// Points a city or road would score now (B12 if complete, B15 otherwise).
    fn value(&self, game: &Game, root: NodeId) -> u8 {
        let node = game.features().node(root);
        let tiles = if self.counted {
            self.tiles[root as usize] as i32
        } else {
            0
        };
        let incomplete = (node.open != 0).then_some(0);
        let v = feature_value(
            node.kind,
            tiles as u32,
            node.pennants as u32,
            incomplete,
            game.rules(),
        );
        v.clamp(0, 255) as u8
    }
}

// ----- encoding -------------------------------------------------------------------------

/// Writes the observation of the current decision (no pending focus) for `player`.
/// See [`encode_observation_at`].
pub fn encode_observation(
    game: &Game,
    player: usize,
    spec: EncoderSpec,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    encode_observation_at(game, spec, None, player, planes, globals)
}

/// Writes the observation for `player` into `planes` (`u8 [C·W·W]`) and `globals`
/// (`f32 [G]`), with `focus` the tile picked by a pending `CELL` id, if any. Returns the
/// window origin. Buffers of the wrong length or a seat outside the game are refused
/// before anything is written.
pub fn encode_observation_at(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    check_observation(game, spec, player, planes, globals)?;
    with_table(game, spec, |t| {
        encode_observation_with(game, t, focus, player, planes, globals)
    })
}

fn check_observation(
    game: &Game,
    spec: EncoderSpec,
    player: usize,
    planes: &[u8],
    globals: &[f32],
) -> Result<(), EncodeError> {
    check_len("planes", planes.len(), spec.planes_len())?;
    check_len("globals", globals.len(), spec.num_globals())?;
    let n = game.num_players();
    if player >= n {
        return Err(EncodeError::Player { player, players: n });
    }
    Ok(())
}

/// Writes the observation like [`encode_observation_at`], reading the legal actions and
/// the window of the current decision from `table` (which must have been refreshed for
/// this state of `game`).
pub fn encode_observation_with(
    game: &Game,
    table: &DecisionTable,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    let spec = table.spec;
    check_observation(game, spec, player, planes, globals)?;
    let n = game.num_players();
    let frame = table.frame;
    let origin = frame.origin;
    let ww = spec.w() * spec.w();
    let focus_pos = focus.or(frame.placed);
    planes.fill(0);
    globals.fill(0.0);
    let rel = |seat: usize| (seat + n - player) % n;

    // Tiles.
    let stats = FeatureStats::new(game);
    let features = game.features();
    let board = game.board();
    let mut set = |p: usize, c: usize, v: u8| planes[p * ww + c] = v;
    for placement in board.placements() {
        let Some(c) = origin.cell_index(spec, placement.pos) else {
            continue;
        };
        let def = placement.kind.def();
        let oriented = def.oriented(placement.rot);
        set(plane::OCCUPIED, c, 1);
        for s in 0..4 {
            match placement.sides[s] {
                Terrain::City => set(plane::CITY + s, c, 1),
                Terrain::Road => set(plane::ROAD + s, c, 1),
                Terrain::River => set(plane::RIVER + s, c, 1),
                Terrain::Field | Terrain::Abbey | Terrain::Carcassonne => {}
            }
            let here = oriented.segment_feature[s * 3 + 1];
            if here == NO_FEATURE {
                continue;
            }
            let kind = def.features[here as usize].kind;
            let linear = kind != FeatureKind::Field;
            if linear && oriented.segment_feature[((s + 1) % 4) * 3 + 1] == here {
                set(plane::LINK_NEXT + s, c, 1);
            }
            if linear && s < 2 && oriented.segment_feature[(s + 2) * 3 + 1] == here {
                set(plane::LINK_OPPOSITE + s, c, 1);
            }
            let root = features.root(placement.node_base + here as NodeId);
            let (own, best) = stats.strengths(root, player);
            set(plane::SIDE_OWN + s, c, own);
            set(plane::SIDE_BEST_OPPONENT + s, c, best);
            if linear {
                let open = features.node(root).open.min(255) as u8;
                set(plane::SIDE_OPEN + s, c, open);
                set(plane::SIDE_VALUE + s, c, stats.value(game, root));
            }
        }
        let mut pennants = 0u8;
        let (mut c_own, mut c_best, mut c_value) = (0u8, 0u8, 0u8);
        for (i, f) in def.features.iter().enumerate() {
            pennants = pennants.saturating_add(f.pennants);
            if f.kind.is_cloister() {
                set(
                    if f.kind == FeatureKind::Garden {
                        plane::GARDEN
                    } else {
                        plane::MONASTERY
                    },
                    c,
                    1,
                );
                let root = features.root(placement.node_base + i as NodeId);
                let (own, best) = stats.strengths(root, player);
                c_own = c_own.max(own);
                c_best = c_best.max(best);
                let around = placement.surrounded_by;
                let incomplete = (around < 8).then_some(around);
                let value = feature_value(f.kind, 0, 0, incomplete, game.rules());
                c_value = c_value.max(value.clamp(0, 255) as u8);
            }
        }
        set(plane::PENNANTS, c, pennants);
        set(plane::CENTRE_OWN, c, c_own);
        set(plane::CENTRE_BEST_OPPONENT, c, c_best);
        set(plane::CENTRE_VALUE, c, c_value);
        for (sym, p) in [
            (Symbols::ABBEY, plane::ABBEY),
            (Symbols::VOLCANO, plane::VOLCANO),
            (Symbols::DRAGON, plane::DRAGON_SYMBOL),
            (Symbols::MAGIC_PORTAL, plane::MAGIC_PORTAL),
            (Symbols::PRINCESS, plane::PRINCESS),
            (Symbols::PIG_HERD, plane::PIG_HERD),
            (Symbols::SHRINE, plane::SHRINE),
            (Symbols::BAZAAR, plane::BAZAAR),
        ] {
            if def.has(sym) {
                set(p, c, 1);
            }
        }
    }
    for (i, placement) in board.placements().iter().enumerate() {
        let Some(c) = origin.cell_index(spec, placement.pos) else {
            continue;
        };
        if let Some(axis) = game.bridge_at(i) {
            set(plane::BRIDGE + axis as usize, c, 1);
        }
        if placement.kind.def().set == TileSet::Count {
            set(plane::CITY_OF_CARCASSONNE, c, 1);
        }
    }
    for (owner, (pos, local), scored) in game.castles() {
        if scored {
            continue;
        }
        let p = if owner as usize == player {
            plane::CASTLE_OWN
        } else {
            plane::CASTLE_OPPONENT
        };
        let index = board.index_at(pos).expect("a castle on a tile");
        let root = features.root(board.placement(index).node_base + local as NodeId);
        for part in features.parts(root) {
            let on = board.placement(features.node(part).placement as usize).pos;
            if let Some(c) = origin.cell_index(spec, on) {
                set(p, c, 1);
            }
        }
    }
    if let Some(last) = board.placements().last() {
        if let Some(c) = origin.cell_index(spec, last.pos) {
            set(plane::LAST_PLACED, c, 1);
        }
    }
    if let Some(c) = focus_pos.and_then(|p| origin.cell_index(spec, p)) {
        set(plane::FOCUS, c, 1);
    }
    for f in game.board_figures() {
        let pos = board.placement(f.placement as usize).pos;
        if let Some(c) = origin.cell_index(spec, pos) {
            let p = plane::FIGURES + rel(f.owner as usize) * FIGURE_KINDS + f.figure.index();
            planes[p * ww + c] = planes[p * ww + c].saturating_add(1);
        }
    }
    let mut set = |p: usize, c: usize, v: u8| planes[p * ww + c] = v;
    if let Some(c) = game.dragon().and_then(|p| origin.cell_index(spec, p)) {
        set(plane::DRAGON, c, 1);
    }
    if let Some(c) = game.fairy().and_then(|(p, _)| origin.cell_index(spec, p)) {
        set(plane::FAIRY, c, 1);
    }
    if game.phase() == Phase::DragonFlight {
        for pos in game.flight_visited() {
            if let Some(c) = origin.cell_index(spec, pos) {
                set(plane::DRAGON_VISITED, c, 1);
            }
        }
    }

    // Legal placements and offered cells (the first step of a decision only).
    if focus.is_none() {
        for (rot, c) in table.offered_cells() {
            match rot {
                Some(rot) => set(plane::LEGAL_PLACEMENT + rot.quarter_turns() as usize, c, 1),
                None => set(plane::CELL_TARGET, c, 1),
            }
        }
    }

    // Globals.
    let g = globals;
    let phase = game.phase();
    g[global::PHASE + phase_index(phase)] = 1.0;
    g[global::FOCUS_PENDING] = f32::from(u8::from(focus.is_some()));
    let deciding = !matches!(phase, Phase::GameOver | Phase::Draw);
    g[global::IS_TO_PLAY] = f32::from(u8::from(deciding && game.to_play() == player));
    let scores = game.scores();
    let mut best_other = i32::MIN;
    for (seat, &score) in scores.iter().enumerate() {
        let r = rel(seat);
        g[global::SEAT_PRESENT + r] = 1.0;
        g[global::SCORE + r] = score as f32 / 100.0;
        if seat != player {
            best_other = best_other.max(score);
        }
        for f in Figure::ALL {
            g[global::SUPPLY + r * FIGURE_KINDS + f.index()] = game.supply(seat, f) as f32;
        }
        g[global::ABBEYS + r] = game.abbeys_left(seat) as f32;
    }
    g[global::SCORE_LEAD] = (scores[player] - best_other) as f32 / 100.0;
    if phase != Phase::GameOver {
        g[global::TURN_PLAYER + rel(game.turn_player())] = 1.0;
    }
    if deciding {
        g[global::TO_PLAY + rel(game.to_play())] = 1.0;
    }
    g[global::TILES_LEFT] = game.tiles_left() as f32 / 100.0;
    g[global::DRAGON_ON_BOARD] = f32::from(u8::from(game.dragon().is_some()));
    g[global::FAIRY_ON_BOARD] = f32::from(u8::from(game.fairy().is_some()));
    if let Some(steps) = game.flight_steps() {
        g[global::DRAGON_STEPS_LEFT] =
            DRAGON_STEPS.saturating_sub(steps) as f32 / DRAGON_STEPS as f32;
    }
    for (i, set) in TileSet::ALL.into_iter().enumerate() {
        g[global::SETS + i] = f32::from(u8::from(game.has_set(set)));
    }
    g[global::FARMERS] = f32::from(u8::from(game.rules().farmers));
    if let Some(p) = focus_pos.and_then(|p| board.at(p)) {
        g[global::FOCUS_ROTATION + p.rot.quarter_turns() as usize] = 1.0;
        g[global::FOCUS_IN_WINDOW] = f32::from(u8::from(origin.cell(spec, p.pos).is_some()));
        g[global::focus_tile() + p.kind.index()] = 1.0;
    }
    g[global::ORIGIN_X] = origin.x as f32;
    g[global::ORIGIN_Y] = origin.y as f32;
    if let Some(q) = game.count_quarter() {
        g[global::COUNT_QUARTER + q as usize] = 1.0;
    }
    for &(q, owner, _) in game.quarter_figures() {
        g[global::QUARTER_FIGURES + 4 * rel(owner as usize) + q as usize] += 1.0;
    }
    let (king, robber) = game.titles();
    if let Some(p) = king {
        g[global::KING + rel(p)] = 1.0;
    }
    if let Some(p) = robber {
        g[global::ROBBER + rel(p)] = 1.0;
    }
    if let Some(t) = game.tile_in_hand() {
        g[global::tile_in_hand() + t.index()] = 1.0;
    }
    let rem = global::remaining();
    for (i, &count) in game.remaining_tiles().iter().enumerate() {
        g[rem + i] = count as f32;
    }
    if game.has_set(TileSet::BridgesCastlesBazaars) {
        for seat in 0..n {
            let r = rel(seat);
            g[global::BRIDGES_LEFT + r] = game.bridges_left(seat) as f32;
            g[global::CASTLES_LEFT + r] = game.castles_left(seat) as f32;
            if let Some(t) = game.bazaar_tile_of(seat) {
                g[global::BAZAAR_HOLDS + r] = 1.0;
                if seat == player {
                    g[global::bazaar_own() + t.index()] = 1.0;
                }
            }
        }
        for t in game.bazaar_offer().iter().flatten() {
            g[global::bazaar_offer() + t.index()] += 1.0;
        }
        if let Some((tile, bid, bidder, selector)) = game.bazaar_auction() {
            g[global::bazaar_picked() + tile.index()] = 1.0;
            g[global::BAZAAR_BID] = bid as f32;
            g[global::BAZAAR_BIDDER + rel(bidder as usize)] = 1.0;
            g[global::BAZAAR_SELECTOR + rel(selector as usize)] = 1.0;
        } else if matches!(game.phase(), Phase::BazaarSelect) {
            g[global::BAZAAR_SELECTOR + rel(game.to_play())] = 1.0;
        }
    }
    Ok(origin)
}

// ----- rewards ----------------------------------------------------------------------------

carcassonne::named_enum! {
    /// How rewards are computed (`docs/interfaces.md`, rewards).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum RewardMode {
        /// Points gained in the step (final scoring counts in the last step).
        #[default]
        Score = "score",
        /// Own points gained minus the mean of the opponents' points gained.
        ScoreDiff = "score-diff",
        /// At the end only: rank-based in [-1, 1] (first 1, last -1, ties share the mean
        /// of their ranks' values); 0 before the end.
        Outcome = "outcome",
    }
}

/// Writes the reward of every player for one step into `out[..players]`, from the scores
/// `before` and `after` the step and whether the game ended with it. Slices shorter than
/// the number of players `after.len()` are refused.
pub fn step_rewards(
    mode: RewardMode,
    before: &[i32],
    after: &[i32],
    terminal: bool,
    out: &mut [f32],
) -> Result<(), EncodeError> {
    let n = after.len();
    check_len("before", before.len(), n)?;
    if out.len() < n {
        return Err(EncodeError::BufferSize {
            buffer: "rewards",
            expected: n,
            got: out.len(),
        });
    }
    match mode {
        RewardMode::Score => {
            for p in 0..n {
                out[p] = (after[p] - before[p]) as f32;
            }
        }
        RewardMode::ScoreDiff => {
            let total: i32 = (0..n).map(|p| after[p] - before[p]).sum();
            for p in 0..n {
                let own = after[p] - before[p];
                let others = (total - own) as f32 / (n.max(2) - 1) as f32;
                out[p] = own as f32 - others;
            }
        }
        RewardMode::Outcome => {
            if terminal {
                outcome_values(after, &mut out[..n]);
            } else {
                out[..n].fill(0.0);
            }
        }
    }
    Ok(())
}

/// Rank-based outcome in [-1, 1] for final `scores`: the best gets 1, the worst -1,
/// linear in between; tied players share the mean of their ranks' values.
pub fn outcome_values(scores: &[i32], out: &mut [f32]) {
    let n = scores.len();
    if n < 2 {
        out.iter_mut().take(n).for_each(|o| *o = 0.0);
        return;
    }
    for p in 0..n {
        let better = scores.iter().filter(|&&s| s > scores[p]).count();
        let tied = scores.iter().filter(|&&s| s == scores[p]).count();
        // Ranks better..better+tied-1 (0 = first); value of rank r is 1 - 2r/(n-1).
        let mean_rank = better as f32 + (tied - 1) as f32 / 2.0;
        out[p] = 1.0 - 2.0 * mean_rank / (n - 1) as f32;
    }
}
