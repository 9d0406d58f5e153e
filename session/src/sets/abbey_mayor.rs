//! Abbey & Mayor (AM1–AM11): the abbey tiles still in hand.

use super::SetModule;
use carcassonne::game::Game;
use carcassonne::tiles::TileSet;

pub(crate) struct AbbeyMayor;

impl SetModule for AbbeyMayor {
    fn set(&self) -> TileSet {
        TileSet::AbbeyMayor
    }

    /// The abbey tile a seat still holds (AM1).
    fn in_hand(&self, game: &Game, seat: usize, parts: &mut Vec<String>) {
        parts.push(format!("{} abbey tile", game.abbeys_left(seat)));
    }
}
