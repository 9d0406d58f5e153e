//! The rules of each expansion, each in its own module, switched on by the sets in the
//! configuration (`GameConfig::sets`) and the figures in the supply.
//!
//! * [`abbot`]: the Abbot and gardens (A1–A3), active when players have an abbot.
//! * [`river`]: the River and River II placement rules (R1–R5).
//! * [`princess_dragon`]: The Princess & the Dragon (PD1–PD23).
//! * [`abbey_mayor`]: Abbey & Mayor (AM1–AM11).
//!
//! The base game's rules (B1–B17) are the turn pipeline in [`crate::game`] and the
//! scoring in [`crate::scoring`].

pub mod abbey_mayor;
pub mod abbot;
pub mod princess_dragon;
pub mod river;
