//! The rules of each expansion, each in its own module that owns its state, switched on
//! by the sets in the configuration (`GameConfig::sets`) and the figures in the supply.
//!
//! * [`abbot`]: the Abbot and gardens (A1–A3), active when players have an abbot.
//! * [`river`]: the River and River II: placement (R1–R4) and the lakes (R5, R6).
//! * [`princess_dragon`]: The Princess & the Dragon (PD1–PD23).
//! * [`abbey_mayor`]: Abbey & Mayor (AM1–AM11).
//! * [`count`]: the Count of Carcassonne (CC1–CC9).
//! * [`king_robber`]: King & Robber Baron (KR1–KR3).
//! * [`cult`]: the Cult (CU1–CU3).
//! * [`bcb`]: Bridges, Castles & Bazaars (BR1–BR3, CA1–CA4, BZ1–BZ4).
//! * [`inns_cathedrals`]: Inns & Cathedrals (IC1–IC4).
//! * [`tower`]: the Tower (TW1–TW7).
//! * [`traders_builders`]: Traders & Builders (TB1–TB6).
//! * [`hills_sheep`]: Hills & Sheep (HS1–HS6).
//!
//! [`state`] is the visible state of every expansion for clients: tables that each
//! expansion declares in its module (`state_tables!`) and writes (`write_state`).
//!
//! The base game's rules (B1–B17) are the turn pipeline in [`crate::game`] and the
//! scoring in [`crate::scoring`]. Each expansion is one line of the registry below
//! (`expansions!`): its state, a struct of its module with private fields, implements
//! the registry's `Expansion` trait, whose hooks are every place where the kernel calls
//! into an expansion: events (a turn starts, a tile is placed, a feature is scored,
//! ...), questions (may this tile lie here, what may this figure stand on, what does it
//! weigh in a majority), decisions the pipeline stops for (before the draw, after the
//! deployment, before and after scoring, at the end of the turn), the pile (tiles never
//! drawn, held back, set aside), the room reserved for a game, and the state hash. The
//! list generates the struct of the states and every hook's fan-out, called in list
//! order; dispatch is static. The kernel applies draws, placements and deployments;
//! every other decision is applied and listed by the module that owns it. Its rule
//! switches are declared in the module too and gathered in [`crate::config::RuleSwitches`].
//!
//! # Adding an expansion
//!
//! `docs/architecture.md` has the whole checklist (every file outside the module that a
//! new set touches) and the turn pipeline with the hooks of each step. In short:
//!
//! 1. Its tiles in `data/tiles.txt` (generated from the catalogue) and its set in
//!    [`crate::tiles::TileSet`]; its switches as enums in its module, each one line of
//!    `rule_switches!` in `config.rs`.
//! 2. A module here with its state struct, implementing `Expansion` (`in_play`, `new`,
//!    the hash probes of its state, and the hooks its rules need), and its line in
//!    `expansions!` below, at the place its decisions, legal actions and score events
//!    come in the turn. What clients draw of it: its tables (`state_tables!`,
//!    `STATE_TABLES`, `write_state`; see [`state`]).
//! 3. For a new decision: its [`crate::game::Phase`] and its [`crate::action::Action`]
//!    variants (entries of `action.rs`'s `actions!`), applied in its `Expansion::apply`.
//!    New values of the kernel's enums (phases, figures, score kinds, symbols) go at the
//!    end of their lists.
//! 4. The generated code of the front ends, regenerated: the C ABI's mirrored enums and
//!    the header (`CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib
//!    tests::header`), then the C# binding (`python3 tools/gen_csharp.py`) and the Python
//!    action classes (`python/tools/gen_actions.py`); tests fail until they are current.

#[macro_use]
mod registry;
pub mod state;

pub mod abbey_mayor;
pub mod abbot;
pub mod bcb;
pub mod count;
pub mod cult;
pub mod hills_sheep;
pub mod inns_cathedrals;
pub mod king_robber;
pub mod princess_dragon;
pub mod river;
pub mod tower;
pub mod traders_builders;

#[cfg(test)]
pub(crate) use registry::HashProbe;
pub(crate) use registry::{Expansion, FigureCounts, History, TurnEnd};

use crate::action::Action;
use crate::board::FitTable;
use crate::config::{ConfigError, Figure, GameConfig};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase};
use crate::geometry::{Pos, Rotation, Side};
use crate::rules::state::{ExpansionState, StateTable, StateWriter};
use crate::tiles::{FeatureKind, TileDef, TileKind, TileSet};

expansions! {
    /// The River and River II.
    river: river::River,
    /// The Princess & the Dragon.
    dragon: princess_dragon::PrincessDragon,
    /// The Abbot (no state).
    abbot: abbot::Abbot,
    /// Abbey & Mayor.
    abbey: abbey_mayor::AbbeyMayor,
    /// The Cult (no state).
    cult: cult::Cult,
    /// Bridges, Castles & Bazaars.
    bcb: bcb::Bcb,
    /// The Count of Carcassonne.
    count: count::Count,
    /// King & Robber Baron.
    king: king_robber::KingRobber,
    /// Inns & Cathedrals (no state).
    inns: inns_cathedrals::InnsCathedrals,
    /// The Tower.
    tower: tower::Tower,
    /// Traders & Builders.
    traders: traders_builders::TradersBuilders,
    /// Hills & Sheep.
    hills: hills_sheep::HillsSheep,
}

impl Game {
    /// What a follower-like `figure` standing on feature node `node` weighs in the
    /// majority on its feature (B13): 1, the city's pennants for a mayor (AM5), 2 for a
    /// big follower (IC1).
    pub fn figure_weight(&self, figure: Figure, node: NodeId) -> u32 {
        self.figure_strength(figure, self.features().root(node))
    }
}

#[cfg(test)]
#[path = "../tests/unit/rules.rs"]
mod tests;
