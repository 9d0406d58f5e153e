//! # carcassonne-session
//!
//! Everything a front end needs on top of the rules kernel (crate [`carcassonne`]),
//! written against its public API only:
//!
//! * [`record`]: the game record format (save, load, replay, first divergence), read
//!   as a stream of records with bounded memory;
//! * [`json`]: strict JSON (duplicate keys refused, bounded nesting, short echoes);
//! * [`render`]: the board as text, as an SVG picture and as an animated HTML replay;
//! * [`encode`]: observation tensors, flat action ids, masks and rewards for learning;
//! * [`bots`]: the built-in players, one definition each for every front end, with
//!   [`mcts`], Monte Carlo tree search over the hidden draw order, and [`matches`](mod@matches), a
//!   match runner between them;
//! * [`net`]: learned players: a policy-value network exported as ONNX, run in Rust;
//! * [`options`]: the chance mode, observation window and preset beside a configuration,
//!   read and checked once for every front end;
//! * [`guided`]: a tree search whose leaves a network evaluates, and the visit shares
//!   over flat ids that a learner imitates;
//! * [`dataset`]: games and self-play on disk as Apache Parquet tables;
//! * [`selfplay`]: self-play games with tree search on several threads, as training rows;
//! * [`session`]: a game with its encoder settings and a per-decision cache, the type
//!   that the command line, the C ABI and Python wrap;
//! * [`vector`]: a batch of sessions stepped by flat ids on several threads, with
//!   automatic reset and rewards, the engine of Python's `VectorEnv`.
//!
//! The command line, the C ABI and the Python package all build on this crate.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bots;
pub mod dataset;
pub mod encode;
pub mod guided;
pub mod json;
pub mod matches;
pub mod mcts;
pub mod net;
pub mod options;
pub mod record;
pub mod render;
pub mod schemas;
pub mod selfplay;
pub mod session;
mod sets;
mod tree;
pub mod vector;
