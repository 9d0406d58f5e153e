//! # carcassonne-ffi: the C ABI of the carcassonne engine
//!
//! Built as `libcarcassonne.so` / `libcarcassonne.a`; the header is
//! `include/carcassonne.h`, generated from this crate by cbindgen and committed (a test
//! regenerates it and fails on any difference).
//!
//! ## Conventions
//!
//! * Opaque handles ([`CarcGame`]) are created by `carc_game_new`, `carc_game_clone`,
//!   `carc_game_from_record` and `carc_game_from_record_ex` and released by
//!   `carc_game_free` (which accepts NULL); bot handles ([`CarcBot`], the built-in players)
//!   by `carc_bot_new` and `carc_bot_free`. The library keeps a table of the live handles
//!   and checks every handle it is given: a freed handle (used again or freed twice), a
//!   pointer it never gave out, or a bot passed as a game is `CARC_STATUS_INVALID_HANDLE`
//!   (the free functions then do nothing and leave the message). Undefined: a freed
//!   handle whose address a new handle of the same kind reuses, and a handle freed by one
//!   thread while another uses it.
//! * Every function that can fail returns a [`CarcStatus`] with stable numbers;
//!   `carc_status_message` gives its static text, `carc_game_last_error` and
//!   `carc_last_error` the detailed message of a failure.
//! * Every pointer is checked for NULL; output parameters are written only on success
//!   (the one exception: a buffer's `needed` size is also written on
//!   `CARC_STATUS_BUFFER_TOO_SMALL`).
//! * Buffers are `(buf, len, needed)`: `len` counts elements (bytes for text, including
//!   the terminating NUL) and `needed` receives the count the result needs. A NULL `buf`
//!   with `len == 0` asks for the size only.
//! * No panic crosses the boundary: every export runs inside `catch_unwind`; a panic
//!   returns `CARC_STATUS_PANIC` and poisons the handle (`CARC_STATUS_HANDLE_POISONED`
//!   from then on, except for `carc_game_free`, `carc_game_last_error` and
//!   `carc_game_is_poisoned`). The panic's message, place and backtrace are in
//!   `carc_last_error`; nothing is printed on the host's standard error.
//! * Integer types are fixed-width; structs are `#[repr(C)]` plain data (blittable), laid
//!   out without hidden padding.
//! * Configurations and records cross the ABI as JSON text; actions as [`CarcAction`]
//!   structs and as flat ids.
//! * The enums that number an engine enum's values (phases, action kinds, figures, score
//!   kinds, ...), the supply struct and the symbol bits are generated from the engine's
//!   tables ([`engine_types`]); their numbers never change, new values come last.
//! * Every function documents who owns what. The library keeps no global state besides
//!   a per-thread error message, the table of live handles and its panic hook; distinct
//!   handles may be used from distinct threads.
#![deny(missing_docs)]
// The exports check every pointer themselves and document their contract; marking them
// `unsafe extern "C"` would change nothing for C callers.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod action;
pub mod bot;
pub mod engine_types;
pub mod events;
pub mod expansion_state;
pub mod game;
mod guard;
mod handles;
pub mod layout;
pub mod learn;
pub mod render;
pub mod search;
pub mod state;
pub mod status;
pub mod tiles;
pub mod version;

#[cfg(test)]
mod tests;

pub use action::{CarcAction, CarcChanceOutcome, CARC_NO_FEATURE};
pub use bot::CarcBot;
pub use engine_types::{
    CarcActionKind, CarcAxis, CarcBazaarChoice, CarcCorner, CarcFeatureKind, CarcFigure,
    CarcFlockChoice, CarcPhase, CarcQuarter, CarcQuarterStep, CarcReturnCause, CarcScoreKind,
    CarcSheepToken, CarcStateKind, CarcStateRows, CarcSupply,
};
pub use events::{CarcEvent, CarcEventKind, CarcFeaturePart, CARC_NO_TURN};
pub use expansion_state::{
    CarcStateColumn, CarcStateRow, CarcStateTable, CARC_STATE_ABSENT, CARC_STATE_MAX_COLUMNS,
};
pub use game::{CarcChance, CARC_DEFAULT_WINDOW};
pub use guard::CarcGame;
pub use layout::{CarcLayoutBlock, CarcLayoutPart, CARC_LAYOUT_VERSION};
pub use learn::{
    CarcFocus, CarcMaskInfo, CarcObservationSizes, CarcWindowOrigin, CARC_NO_ACTION_ID,
};
pub use search::CarcSearchInfo;
pub use state::{
    CarcBoardFigure, CarcDragon, CarcFairy, CarcPlacedTile, CarcTower, CARC_NO_PLAYER,
    CARC_NO_TILE, CARC_NO_TOP,
};
pub use status::CarcStatus;
pub use tiles::{CarcFeatureGeometry, CarcRoadEnd};
pub use version::{CARC_ABI_VERSION, CARC_VERSION_MAJOR, CARC_VERSION_MINOR, CARC_VERSION_PATCH};
