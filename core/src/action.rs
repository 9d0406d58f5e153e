//! Structured actions: one per decision, in absolute board coordinates. They match the
//! record format's action types one to one (`game-record.md`).

use crate::config::Figure;
use crate::geometry::{Corner, Pos, Rotation};
use crate::tiles::TileKind;
use std::fmt;

/// One decision (or, in explicit-chance mode, the tile drawn).
///
/// A `feature` is the local index of a feature in its tile's catalogue list (the
/// catalogue ids `c1`, `r2`, ... name them; see [`crate::tiles::TileDef::features`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the drawn tile at `pos` turned by `rot` (B4).
    PlaceTile {
        /// Square.
        pos: Pos,
        /// Rotation.
        rot: Rotation,
    },
    /// Place the abbey tile into a hole instead of drawing (AM1, AM4).
    PlaceAbbey {
        /// Square.
        pos: Pos,
    },
    /// Put a figure from the supply on a feature (B6; a portal target may be another tile, PD12).
    Deploy {
        /// Figure kind (follower, abbot, mayor or wagon).
        figure: Figure,
        /// Tile.
        pos: Pos,
        /// Local feature index on that tile.
        feature: u8,
    },
    /// Put the barn on a corner of the placed tile (AM6).
    DeployBarn {
        /// The placed tile.
        pos: Pos,
        /// Corner, board frame.
        corner: Corner,
    },
    /// Move the fairy next to one of the player's figures (PD15); `feature` is `None`
    /// under the on-tile rule.
    MoveFairy {
        /// Tile.
        pos: Pos,
        /// Local feature index of the figure the fairy goes next to.
        feature: Option<u8>,
    },
    /// Remove the knight at `(pos, feature)` with the princess (PD9).
    Princess {
        /// Tile of the knight.
        pos: Pos,
        /// Its feature.
        feature: u8,
    },
    /// Take the abbot back from an incomplete monastery or garden and score it (A3).
    ReturnAbbot {
        /// Tile of the abbot.
        pos: Pos,
        /// Its feature.
        feature: u8,
    },
    /// Do nothing (deploy nothing, decline an abbey, princess or wagon move).
    Pass,
    /// One dragon step onto `pos` (PD5).
    MoveDragon {
        /// Target tile.
        pos: Pos,
    },
    /// Move a wagon after its feature scored (AM11).
    MoveWagon {
        /// Target tile.
        pos: Pos,
        /// Target feature on that tile.
        feature: u8,
    },
    /// The chance outcome: the tile drawn (explicit-chance mode).
    Draw {
        /// The tile.
        tile: TileKind,
    },
}

impl Action {
    /// The record format's `type` for this action.
    pub const fn type_name(&self) -> &'static str {
        match self {
            Action::PlaceTile { .. } => "place_tile",
            Action::PlaceAbbey { .. } => "place_abbey",
            Action::Deploy { .. } => "deploy",
            Action::DeployBarn { .. } => "deploy_barn",
            Action::MoveFairy { .. } => "move_fairy",
            Action::Princess { .. } => "princess",
            Action::ReturnAbbot { .. } => "return_abbot",
            Action::Pass => "pass",
            Action::MoveDragon { .. } => "move_dragon",
            Action::MoveWagon { .. } => "move_wagon",
            Action::Draw { .. } => "draw",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::PlaceTile { pos, rot } => write!(
                f,
                "PlaceTile(x={}, y={}, rot={})",
                pos.x,
                pos.y,
                rot.quarter_turns()
            ),
            Action::PlaceAbbey { pos } => write!(f, "PlaceAbbey(x={}, y={})", pos.x, pos.y),
            Action::Deploy {
                figure,
                pos,
                feature,
            } => {
                write!(
                    f,
                    "Deploy(figure={}, x={}, y={}, feature={})",
                    figure.name(),
                    pos.x,
                    pos.y,
                    feature
                )
            }
            Action::DeployBarn { pos, corner } => write!(
                f,
                "DeployBarn(x={}, y={}, corner={})",
                pos.x,
                pos.y,
                corner.name()
            ),
            Action::MoveFairy {
                pos,
                feature: Some(feat),
            } => write!(f, "MoveFairy(x={}, y={}, feature={})", pos.x, pos.y, feat),
            Action::MoveFairy { pos, feature: None } => {
                write!(f, "MoveFairy(x={}, y={})", pos.x, pos.y)
            }
            Action::Princess { pos, feature } => {
                write!(f, "Princess(x={}, y={}, feature={})", pos.x, pos.y, feature)
            }
            Action::ReturnAbbot { pos, feature } => write!(
                f,
                "ReturnAbbot(x={}, y={}, feature={})",
                pos.x, pos.y, feature
            ),
            Action::Pass => write!(f, "Pass"),
            Action::MoveDragon { pos } => write!(f, "MoveDragon(x={}, y={})", pos.x, pos.y),
            Action::MoveWagon { pos, feature } => write!(
                f,
                "MoveWagon(x={}, y={}, feature={})",
                pos.x, pos.y, feature
            ),
            Action::Draw { tile } => write!(f, "Draw(tile={})", tile.id()),
        }
    }
}
