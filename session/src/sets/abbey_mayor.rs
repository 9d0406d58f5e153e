//! Abbey & Mayor (AM1–AM11): the abbey tiles still in hand.

use super::SetModule;
use carcassonne::action::ActionKind;
use carcassonne::game::{Game, Phase};
use carcassonne::tiles::TileSet;

pub(crate) struct AbbeyMayor;

impl SetModule for AbbeyMayor {
    fn set(&self) -> TileSet {
        TileSet::AbbeyMayor
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (ActionKind::PlaceAbbey, "place the abbey"),
            (ActionKind::DeployBarn, "deploy the barn"),
            (ActionKind::MoveWagon, "move the wagon"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[
            (Phase::Abbey, "place the abbey, or pass and draw a tile"),
            (Phase::WagonMove, "move the wagon, or pass"),
        ]
    }

    /// The abbey tile a seat still holds (AM1).
    fn in_hand(&self, game: &Game, seat: usize, parts: &mut Vec<String>) {
        parts.push(format!("{} abbey tile", game.abbeys_left(seat)));
    }
}
