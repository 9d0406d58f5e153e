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
//! | `EXCHANGE` | 5    | `… + figure`: the figure the capturer gets back in a prisoner exchange (TW4) |
//! | `RANSOM` | 6·5    | `… + 5·holder + figure`: buy back a prisoner from the holder (a seat relative to the payer, TW5) |
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
//! legal list ([`carcassonne::Game::legal_actions`]) stays the truth: the mask of every step offers
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
//! | `PlaceTowerPiece` (TW2) | `SLOT` tower (channel `tower-piece`) on the placed tile, or `CELL` then `SLOT` |
//! | `Deploy` onto a tower (TW2) | `SLOT` tower (channel follower), on the placed tile or after a `CELL` id |
//! | `Capture` (TW3)   | `CELL` then `SLOT` (the channel of the captured figure's kind); `capture_pass` is `PASS` |
//! | `ExchangePrisoner` (TW4), `PayRansom` (TW5) | `EXCHANGE`, `RANSOM` |
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
//! (layout `plane·W² + wy·W + wx`) and `globals` `f32 [G]`. Nothing is allocated per
//! call once a thread has encoded its first observation.
//!
//! # The schema
//!
//! Every plane, global block and block of flat ids is declared once, in the observation
//! schema ([`mod@schema`]): the base game's rows and writer in [`base`], each
//! expansion's in its own module ([`river`], [`abbey_mayor`], [`princess_dragon`],
//! [`count`], [`king_robber`], [`cult`], [`bcb`]). The indices ([`plane`], [`global`],
//! the first ids of [`EncoderSpec`]), the presets, the tables ([`schema()`]), the
//! documentation's tables ([`docs`]) and the layout version ([`LAYOUT_VERSION`]) are
//! derived from it.
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
//! ([`RewardMode`]: `score`, `score-diff`, `outcome`, `win-loss`); returns are sums of rewards.
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

pub mod abbey_mayor;
pub mod base;
pub mod bcb;
pub mod count;
pub mod cult;
mod decision;
pub mod docs;
pub mod hills_sheep;
mod ids;
pub mod king_robber;
mod observe;
pub mod preset;
pub mod princess_dragon;
mod rewards;
pub mod river;
mod rotate;
pub mod schema;
mod spec;
mod stats;
pub mod tower;
pub mod traders_builders;
mod window;

pub use base::{global, plane};
pub use decision::{
    action_to_flat, action_to_flat_path, decode_flat, flat_to_action, legal_mask, legal_mask_at,
    DecisionTable, FlatDecision, FlatError, FlatPath, MaskInfo,
};
pub use ids::{feature_slot, slot, slot_feature, slot_live, Channel, FlatAction};
pub use observe::{
    encode_observation, encode_observation_at, encode_observation_over, encode_observation_with,
    PlaneSet, Writer,
};
pub use preset::{Layout, LayoutBlock, LayoutPlane, Preset};
pub use rewards::{outcome_values, step_rewards, win_loss_values, RewardMode};
pub use rotate::{global_after_turn, rotate_action_id, rotate_globals, rotate_mask, rotate_planes};
pub use schema::{
    layout_version_hex, plane_after_turn, schema, BlockInfo, PlaneInfo, Schema, LAYOUT_VERSION,
};
pub(crate) use spec::check_len;
pub use spec::{
    EncodeError, EncoderSpec, BAZAAR_IDS, BIDS, BRIDGE_IDS, BRIDGE_VARIANTS, CHANNEL_COUNT,
    FIGURE_KINDS, QUARTER_IDS, SLOT_COUNT,
};
pub use window::WindowOrigin;

/// Every plane by index (the schema's, [`schema()`]).
pub fn plane_table() -> &'static [PlaneInfo] {
    &schema().planes
}

/// Every global block in index order (the schema's, [`schema()`]).
pub fn global_table() -> &'static [BlockInfo] {
    &schema().globals
}
