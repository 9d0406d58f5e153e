//! # carcassonne
//!
//! A rules engine for Carcassonne: the base game with farmers, the Abbot and gardens, the
//! River and River II, The Princess & the Dragon, and Abbey & Mayor, for 2 to 6 players.
//! Rule ids (`B12`, `PD5`, `AM7`, ...) refer to the project's rules reference.
//!
//! * [`tiles`]: the tile catalogue; [`geometry`]: positions, sides, rotations.
//! * [`config`]: players, edition, sets, rule switches, figures, seed.
//! * [`game`]: the state and its decision model (`legal_actions`, `apply`, chance).
//! * [`board`], [`features`], [`deck`], [`scoring`]: the machinery behind it.
//! * [`rules`]: each expansion's rules in its own module.
//! * [`hash`]: the FNV-1a hash behind state hashes, layout fingerprints and game ids.
//!
//! Records, rendering, observation encoding and the built-in players are built on this
//! crate's public API in the crate `carcassonne-session`.
//!
//! ```
//! use carcassonne::{Game, GameConfig, Rng};
//! let mut game = Game::new(GameConfig::new(2)).unwrap();
//! let mut rng = Rng::new(1);
//! let mut legal = Vec::new();
//! while !game.is_terminal() {
//!     game.legal_actions_into(&mut legal);
//!     let pick = legal[rng.below(legal.len() as u32) as usize];
//!     game.apply(pick).unwrap();
//! }
//! println!("final scores {:?}", game.scores());
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod action;
pub mod board;
pub mod config;
pub mod deck;
pub mod features;
pub mod game;
pub mod geometry;
pub mod hash;
pub mod names;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod tiles;

pub use action::Action;
pub use config::{ConfigError, Edition, Figure, Figures, GameConfig, RuleSwitches};
pub use game::{
    ActionError, ChanceMode, Event, FigureReturn, Game, Phase, ReturnCause, ScoreEvent, ScoreKind,
    ScoredFeature,
};
pub use geometry::{Corner, Pos, Rotation, Side};
pub use rng::Rng;
pub use tiles::{catalogue, TileKind, TileSet};
