//! The history of a game: one [`TurnLog`] per turn and every [`Decision`] taken, which
//! records, replays and the turn-by-turn views read.

use crate::action::Action;
use crate::config::MAX_PLAYERS;
use crate::tiles::TileKind;

/// One turn of the history (a discarded tile is a turn of its own, as in records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnLog {
    /// The turn player.
    pub player: u8,
    /// The tile drawn (`None`: an abbey turn).
    pub draw: Option<TileKind>,
    /// Whether the drawn tile was discarded (B5).
    pub discarded: bool,
    /// A second tile placed in the same turn, without a draw: the River II city lake
    /// after the volcano lake (R6, `river2_lakes: one-turn`).
    pub second: Option<TileKind>,
    /// Whether this entry is the discard of such a second tile that fitted nowhere (R6,
    /// B5): it follows the turn that placed the first tile, the same player's, and its
    /// tile (`draw`) was not drawn from the pile.
    pub second_discard: bool,
    /// Whether this is the second part of a turn, the same player's extra turn earned by
    /// his builder (TB4; `builder_bonus` in records).
    pub extra_turn: bool,
    /// Range of this turn's decisions in [`Game::history_actions`](super::Game::history_actions).
    pub actions: (u32, u32),
    /// Range of this turn's score events in [`Game::events`](super::Game::events).
    pub events: (u32, u32),
    /// Range of this turn's figure returns in [`Game::figure_returns`](super::Game::figure_returns).
    pub returns: (u32, u32),
    /// Scores after the turn.
    pub scores: [i32; MAX_PLAYERS],
}

/// A decision in the history: who took it and what it was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// Seat of the player who decided.
    pub player: u8,
    /// The action.
    pub action: Action,
}
