//! The session layer's part of each expansion: one module per set, listed once in
//! [`SETS`], behind the trait [`SetModule`] whose hooks all default to nothing. The shared
//! machinery of an output (the text board, the SVG picture) asks every module of a set
//! in play, in list order ([`in_play`]), and names no set itself.
//!
//! A module gives, so far, the lines of its set's state under the text board
//! ([`SetModule::text_lines`]); its pieces in the SVG picture, on the board under the
//! figures ([`SetModule::svg_board`]), beside a figure ([`SetModule::svg_beside_figure`])
//! and over the figures ([`SetModule::svg_over_figures`]); and its part of the summary
//! beside the board, in the SVG picture and the HTML replay's panel: beside a seat's
//! score (titles, prisoners) and under the scores (the sheep bag, the City of
//! Carcassonne); and what the built-in players count as points of its state
//! ([`SetModule::worth`]); and what it keeps beside the board in a player's notes
//! ([`SetModule::notes`], [`SetModule::in_hand`]); the pieces of its state in the
//! legends with their swatches ([`SetModule::legend`], [`SetModule::svg_swatch`]); and
//! the chance outcomes it records inside an action ([`SetModule::record_action_keys`],
//! [`SetModule::write_action_chance`], [`SetModule::replay_action_chance`]); and its
//! action kinds and phases in words ([`SetModule::action_words`],
//! [`SetModule::phase_words`]). The rest of a set's presentation (its tile symbols) and
//! its flat action ids still live in the shared files that `docs/architecture.md` lists.

use crate::record::{At, ReplayError};
use crate::render::pieces::{Piece, PieceInfo};
use crate::render::svg::Layout;
use carcassonne::action::ActionKind;
use carcassonne::config::MAX_PLAYERS;
use carcassonne::game::{BoardFigure, Game, Phase};
use carcassonne::tiles::TileSet;
use serde_json::Value;

mod abbey_mayor;
mod bcb;
mod count;
mod hills_sheep;
mod king_robber;
mod princess_dragon;
pub(crate) mod tower;
mod traders_builders;

/// One expansion in the front ends. Every hook that takes a game is called only for a
/// game with the set in play ([`Game::has_set`]).
pub(crate) trait SetModule: Sync {
    /// The set.
    fn set(&self) -> TileSet;

    /// The pieces of the set's state in the legends (text, SVG, HTML replay) beside those
    /// of the tiles and figures, each shown in a game with the set in play when its
    /// presence holds ([`crate::render::pieces_of`]), in the legend order of [`Piece`].
    fn legend(&self) -> &'static [PieceInfo] {
        &[]
    }

    /// Draws the legend swatch of `piece`, one of the set's [`SetModule::legend`], in the
    /// 16×16 box whose top left is `at` (SVG).
    fn svg_swatch(&self, _out: &mut String, _piece: Piece, _at: (f64, f64)) {}

    /// The words of the set's action kinds (`move the count`), for people
    /// ([`crate::render::action_words`]).
    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[]
    }

    /// The words of the set's phases (`move the count, or pass`), for people
    /// ([`crate::render::phase_words`]).
    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[]
    }

    /// Appends the lines of the set's state under the text board
    /// ([`crate::render::board_text`]), each ended by a newline; nothing when there is
    /// nothing to say.
    fn text_lines(&self, _game: &Game, _out: &mut String) {}

    /// Draws the set's pieces that stand on the board (SVG), over the tiles and under
    /// the figures.
    fn svg_board(&self, _out: &mut String, _game: &Game, _layout: &Layout) {}

    /// Draws what the set shows beside `figure`, drawn at `at` (SVG).
    fn svg_beside_figure(
        &self,
        _out: &mut String,
        _game: &Game,
        _figure: &BoardFigure,
        _at: (f64, f64),
    ) {
    }

    /// Draws the set's pieces that stand over the figures (SVG).
    fn svg_over_figures(&self, _out: &mut String, _game: &Game, _layout: &Layout) {}

    /// Draws what the set shows beside seat `seat`'s score line, from `at` to the right
    /// (SVG); the width it took.
    fn svg_beside_score(
        &self,
        _out: &mut String,
        _game: &Game,
        _seat: usize,
        _at: (f64, f64),
    ) -> f64 {
        0.0
    }

    /// How many lines the set takes under the scores of a whole SVG picture.
    fn svg_lines_under_scores(&self, _game: &Game) -> usize {
        0
    }

    /// Draws the set's lines under the scores (SVG) from `at`, the top left of the first
    /// of its [`SetModule::svg_lines_under_scores`] lines.
    fn svg_under_scores(&self, _out: &mut String, _game: &Game, _at: (f64, f64)) {}

    /// Writes what the set shows beside seat `seat`'s score in the HTML replay's panel.
    fn html_beside_score(&self, _out: &mut String, _game: &Game, _seat: usize) {}

    /// Writes the set's part of the HTML replay's panel under the scores.
    fn html_under_scores(&self, _out: &mut String, _game: &Game) {}

    /// Appends what the set keeps beside the board, in words, one line each (a player's
    /// notes in the terminal and on the page of `carcassonne serve`:
    /// [`crate::render::notes`]).
    fn notes(&self, _game: &Game, _out: &mut Vec<String>) {}

    /// Appends what seat `seat` still holds of the set's pieces, in words (`3 bridges`),
    /// for the line of pieces in hand of [`crate::render::notes`].
    fn in_hand(&self, _game: &Game, _seat: usize, _parts: &mut Vec<String>) {}

    /// The keys the set adds to a recorded action, by record type (`("deploy",
    /// &["token"])`): an action of a record may hold them only in a game with the set in
    /// play.
    fn record_action_keys(&self) -> &'static [(&'static str, &'static [&'static str])] {
        &[]
    }

    /// Writes into the recorded action `action` of decision `index` of the game's history
    /// the chance outcomes that followed it, under the keys of
    /// [`SetModule::record_action_keys`].
    fn write_action_chance(&self, _game: &Game, _index: usize, _action: &mut Value) {}

    /// Replays the chance outcomes that the recorded action `action` (turn and action
    /// numbers `at`, path `path`) names, once its decision is applied: an outcome the
    /// game does not wait for, or cannot give, diverges.
    fn replay_action_chance(
        &self,
        _game: &mut Game,
        _action: &Value,
        _at: (usize, usize),
        _path: &At<'_>,
    ) -> Result<(), ReplayError> {
        Ok(())
    }

    /// Adds to each seat's `points` (by seat) what the built-in players count as points
    /// of the set's state beside the scores ([`crate::bots`]: the greedy and heuristic
    /// players' gain of an action).
    fn worth(&self, _game: &Game, _points: &mut [i32; MAX_PLAYERS]) {}
}

/// Every set with a module, in the order of [`TileSet`]: the order in which the outputs
/// ask them.
pub(crate) static SETS: [&dyn SetModule; 8] = [
    &princess_dragon::PrincessDragon,
    &abbey_mayor::AbbeyMayor,
    &count::Count,
    &king_robber::KingRobber,
    &bcb::BridgesCastlesBazaars,
    &tower::Tower,
    &traders_builders::TradersBuilders,
    &hills_sheep::HillsSheep,
];

/// The modules of the sets in play in `game`, in list order.
pub(crate) fn in_play(game: &Game) -> impl Iterator<Item = &'static dyn SetModule> + '_ {
    SETS.iter().copied().filter(|m| game.has_set(m.set()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list follows the order of `TileSet` and names each set once.
    #[test]
    fn sets_are_listed_once_in_tile_set_order() {
        let order: Vec<usize> = SETS
            .iter()
            .map(|m| TileSet::ALL.iter().position(|s| *s == m.set()).unwrap())
            .collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "SETS out of TileSet order or with a set twice: {order:?}"
        );
    }
}
