//! Structured actions: one per decision, in absolute board coordinates. They match the
//! record format's action types one to one (`docs/record-format.md`).
//!
//! Every action kind is declared once, here: its variant of [`Action`], its entry in
//! [`SCHEMA`] (the record type name, its documentation and its fields in order, each
//! with a [`FieldKind`]), and its two conversions [`Action::values`] /
//! [`Action::from_values`]. The record format, the C ABI and the Python package read and
//! write actions through the schema only, so a new kind needs no code in them. The
//! Python classes are generated from the schema (`python/tools/gen_actions.py`, checked
//! by a test); the C ABI's test checks its enum of kinds against it.
//!
//! ```
//! use carcassonne::action::{Action, ActionKind, FieldValue};
//! use carcassonne::{Pos, Rotation};
//! let a = Action::PlaceTile { pos: Pos::new(1, 0), rot: Rotation::new(2).unwrap(), bridge: None };
//! let spec = a.kind().spec();
//! assert_eq!(spec.name, "place_tile");
//! let names: Vec<_> = spec.fields.iter().map(|f| f.name).collect();
//! assert_eq!(names, ["x", "y", "rot", "bridge"]);
//! let values = a.values();
//! assert_eq!(values.as_slice()[0], FieldValue::Int(1));
//! assert_eq!(Action::from_values(ActionKind::PlaceTile, values.as_slice()), Ok(a));
//! ```

use crate::config::Figure;
use crate::geometry::{Corner, Pos, Rotation};
use crate::rules::bcb::{Axis, BazaarChoice, Bridge, TileBridge};
use crate::rules::count::{Quarter, QuarterStep};
use crate::tiles::TileKind;
use std::fmt;

macro_rules! action_kinds {
    ($($kind:ident = $name:literal, player: $player:literal, doc: $doc:literal, fields: [$($field:literal: $fk:ident),* $(,)?];)+) => {
        /// The kind of an [`Action`], in a fixed order (the C ABI numbers kinds by it).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum ActionKind {
            $(#[doc = $doc] $kind),+
        }

        impl ActionKind {
            /// Every kind, in order.
            pub const ALL: &'static [ActionKind] = &[$(ActionKind::$kind),+];
        }

        /// The schema of every action kind, in [`ActionKind`] order.
        pub const SCHEMA: &[KindSpec] = &[$(KindSpec {
            kind: ActionKind::$kind,
            name: $name,
            names_player: $player,
            doc: $doc,
            fields: &[$(FieldSpec { name: $field, kind: FieldKind::$fk }),*],
        }),+];
    };
}

action_kinds! {
    PlaceTile = "place_tile", player: false,
        doc: "Place the drawn tile at `(x, y)` turned `rot` clockwise quarter turns (B4); `bridge` \
              is `(x, y, axis)` of the bridge a placement legal only with one brings (BR2, axis \
              `NS` or `WE`), else absent.",
        fields: ["x": X, "y": Y, "rot": Rot, "bridge": OptBridge];
    PlaceAbbey = "place_abbey", player: false,
        doc: "Place the abbey tile into the hole at `(x, y)` instead of drawing (AM1).",
        fields: ["x": X, "y": Y];
    Deploy = "deploy", player: false,
        doc: "Put a `figure` (follower, abbot, mayor, wagon) from the supply on `feature` of the \
              tile at `(x, y)` (B6).",
        fields: ["figure": Figure, "x": X, "y": Y, "feature": Feature];
    DeployBarn = "deploy_barn", player: false,
        doc: "Put the barn on `corner` (NW, NE, SE, SW) of the tile just placed (AM6).",
        fields: ["x": X, "y": Y, "corner": Corner];
    MoveFairy = "move_fairy", player: false,
        doc: "Move the fairy next to the player's figure on `feature` at `(x, y)` (PD15); \
              `feature` is absent under the on-tile fairy rule.",
        fields: ["x": X, "y": Y, "feature": OptFeature];
    Princess = "princess", player: false,
        doc: "Remove the knight on `feature` at `(x, y)` with the princess (PD9).",
        fields: ["x": X, "y": Y, "feature": Feature];
    ReturnAbbot = "return_abbot", player: false,
        doc: "Take the abbot on `feature` at `(x, y)` back and score it (A3).",
        fields: ["x": X, "y": Y, "feature": Feature];
    Pass = "pass", player: false,
        doc: "Do nothing: deploy nothing, decline the abbey, the princess or a wagon move, or \
              discard a drawn tile that fits only with a bridge (BR2).",
        fields: [];
    MoveDragon = "move_dragon", player: true,
        doc: "One step of the dragon onto the tile at `(x, y)` (PD5).",
        fields: ["x": X, "y": Y];
    MoveWagon = "move_wagon", player: true,
        doc: "Move the wagon onto `feature` of the tile at `(x, y)` after scoring (AM11).",
        fields: ["x": X, "y": Y, "feature": Feature];
    Draw = "draw", player: false,
        doc: "The chance outcome: the tile drawn (explicit-chance mode).",
        fields: ["tile": Tile];
    LeaveQuarter = "leave_quarter", player: true,
        doc: "Move `figure` out of `quarter` of the City of Carcassonne onto `feature` of the tile \
              at `(x, y)` (any part of the feature names it); `step` is `before-scoring` (CC4) or \
              `final` (CC6).",
        fields: ["step": Step, "quarter": Quarter, "figure": Figure, "x": X, "y": Y, "feature": Feature];
    QuarterPass = "quarter_pass", player: true,
        doc: "Decline a move of the City of Carcassonne: `step` `before-scoring` or `final` \
              (moving figures out, CC4, CC6), `deploy` (putting one in, CC3), `count` (moving the \
              count, CC3).",
        fields: ["step": Step];
    DeployQuarter = "deploy_quarter", player: true,
        doc: "Put `figure` from the supply into `quarter` of the City of Carcassonne (CC3).",
        fields: ["figure": Figure, "quarter": Quarter];
    MoveCount = "move_count", player: true,
        doc: "Move the count to `quarter` (CC3).",
        fields: ["quarter": Quarter];
    PlaceBridge = "place_bridge", player: false,
        doc: "Put a bridge from the supply on the tile at `(x, y)` along `axis` (`NS` or `WE`) \
              after placing the tile (BR1).",
        fields: ["x": X, "y": Y, "axis": Axis];
    BuildCastle = "build_castle", player: true,
        doc: "Turn the two-tile city just completed at `feature` of the tile at `(x, y)` into a \
              castle instead of having it scored (CA1).",
        fields: ["x": X, "y": Y, "feature": Feature];
    CastlePass = "castle_pass", player: true,
        doc: "Decline to build a castle (CA1).",
        fields: [];
    BazaarSelect = "bazaar_select", player: true,
        doc: "Pick `tile` of the bazaar's offer and open the bidding at `bid` points (BZ2).",
        fields: ["tile": Tile, "bid": Bid];
    BazaarBid = "bazaar_bid", player: true,
        doc: "Raise the bid on the picked bazaar tile to `bid` points (BZ2).",
        fields: ["bid": Bid];
    BazaarPass = "bazaar_pass", player: true,
        doc: "Do not raise the bid (BZ2).",
        fields: [];
    BazaarBuyOrSell = "bazaar_buy_or_sell", player: true,
        doc: "The selector buys the outbid tile or sells it to the highest bidder: `choice` `buy` \
              or `sell` (BZ3).",
        fields: ["choice": Choice];
}

/// How a field is written by every codec.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// A board column (`x`), an integer.
    X,
    /// A board row (`y`), an integer.
    Y,
    /// A rotation, 0..=3 clockwise quarter turns.
    Rot,
    /// A figure kind by name (`follower`, `abbot`, `mayor`, `wagon`).
    Figure,
    /// A feature of the tile at the action's `(x, y)`: its catalogue id in records, its
    /// local index elsewhere.
    Feature,
    /// As [`FieldKind::Feature`], or absent (the on-tile fairy).
    OptFeature,
    /// A barn corner by name (`NW`, `NE`, `SE`, `SW`).
    Corner,
    /// A tile kind by catalogue id.
    Tile,
    /// A quarter of the City of Carcassonne by name (`castle`, `blacksmith`,
    /// `cathedral`, `market`).
    Quarter,
    /// When a player acts on the City of Carcassonne (`before-scoring`, `deploy`,
    /// `final`, `count`).
    Step,
    /// A bridge placed with a tile, or none: `{x, y, axis}` in records.
    OptBridge,
    /// A bridge's direction by name (`NS`, `WE`).
    Axis,
    /// A bid in points, 0 to [`crate::rules::bcb::MAX_BID`].
    Bid,
    /// A bazaar decision by name (`buy`, `sell`).
    Choice,
}

/// One field of an action kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldSpec {
    /// The field's name (record key, C struct member, Python attribute).
    pub name: &'static str,
    /// What it holds.
    pub kind: FieldKind,
}

/// The schema of one action kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct KindSpec {
    /// The kind.
    pub kind: ActionKind,
    /// The record format's `type`.
    pub name: &'static str,
    /// Whether records name the deciding `player` (a player other than the turn player
    /// may take it).
    pub names_player: bool,
    /// What the action does, in the terms of its fields (the bindings' documentation of
    /// the kind is generated from it).
    pub doc: &'static str,
    /// The fields, in record and tuple order.
    pub fields: &'static [FieldSpec],
}

impl ActionKind {
    /// The schema of this kind.
    pub const fn spec(self) -> &'static KindSpec {
        &SCHEMA[self as usize]
    }

    /// The record format's `type` name.
    pub const fn name(self) -> &'static str {
        self.spec().name
    }

    /// The kind with record type `name`.
    pub fn from_name(name: &str) -> Option<ActionKind> {
        SCHEMA.iter().find(|s| s.name == name).map(|s| s.kind)
    }
}

/// The value of one action field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldValue {
    /// [`FieldKind::X`], [`FieldKind::Y`].
    Int(i32),
    /// [`FieldKind::Rot`].
    Rot(Rotation),
    /// [`FieldKind::Figure`].
    Figure(Figure),
    /// [`FieldKind::Feature`]: a local feature index.
    Feature(u8),
    /// [`FieldKind::OptFeature`].
    OptFeature(Option<u8>),
    /// [`FieldKind::Corner`].
    Corner(Corner),
    /// [`FieldKind::Tile`].
    Tile(TileKind),
    /// [`FieldKind::Quarter`].
    Quarter(Quarter),
    /// [`FieldKind::Step`].
    Step(QuarterStep),
    /// [`FieldKind::OptBridge`].
    Bridge(Option<Bridge>),
    /// [`FieldKind::Axis`].
    Axis(Axis),
    /// [`FieldKind::Bid`].
    Bid(u32),
    /// [`FieldKind::Choice`].
    Choice(BazaarChoice),
}

/// Most fields an action kind has.
pub const MAX_FIELDS: usize = 6;

/// The field values of one action, in schema order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Values {
    len: u8,
    values: [FieldValue; MAX_FIELDS],
}

impl Values {
    fn of(values: &[FieldValue]) -> Values {
        let mut v = Values {
            len: values.len() as u8,
            values: [FieldValue::Int(0); MAX_FIELDS],
        };
        v.values[..values.len()].copy_from_slice(values);
        v
    }

    /// The values, in schema order.
    pub fn as_slice(&self) -> &[FieldValue] {
        &self.values[..self.len as usize]
    }
}

/// Why field values do not make an action of a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field (schema name), or empty for the field count.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for FieldError {}

/// One decision (or, in explicit-chance mode, the tile drawn).
///
/// A `feature` is the local index of a feature in its tile's catalogue list (the
/// catalogue ids `c1`, `r2`, ... name them; see [`crate::tiles::TileDef::features`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place the tile in hand at `pos` turned by `rot` (B4), with the bridge it needs to
    /// fit there, if any (BR2).
    PlaceTile {
        /// Square.
        pos: Pos,
        /// Rotation.
        rot: Rotation,
        /// The bridge placed with the tile (on it or on a neighbour), if it fits only so.
        bridge: Option<TileBridge>,
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
    /// Do nothing (deploy nothing, decline an abbey, princess or wagon move), or discard a
    /// drawn tile that fits only with a bridge (BR2).
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
    /// Move a figure out of a quarter of the City of Carcassonne onto a feature, named by
    /// one of its parts (CC4 before the turn's scoring, CC6 before final scoring).
    LeaveQuarter {
        /// When (`before-scoring` or `final`).
        step: QuarterStep,
        /// The quarter it leaves.
        quarter: Quarter,
        /// The figure.
        figure: Figure,
        /// A tile of the target feature.
        pos: Pos,
        /// The feature on that tile.
        feature: u8,
    },
    /// Decline a move of the City of Carcassonne: moving figures out (CC4, CC6), putting
    /// one in (CC3) or moving the count (CC3).
    QuarterPass {
        /// Which move is declined.
        step: QuarterStep,
    },
    /// Put a figure from the supply into a quarter of the City (CC3).
    DeployQuarter {
        /// The figure.
        figure: Figure,
        /// The quarter.
        quarter: Quarter,
    },
    /// Move the count to another quarter (CC3).
    MoveCount {
        /// The quarter.
        quarter: Quarter,
    },
    /// Put a bridge on the placed tile or an orthogonal neighbour (BR1).
    PlaceBridge {
        /// The tile that carries it.
        pos: Pos,
        /// Its direction.
        axis: Axis,
    },
    /// Turn the just completed two-tile city at `(pos, feature)` (any part names it) into
    /// a castle instead of scoring it (CA1).
    BuildCastle {
        /// A tile of the city.
        pos: Pos,
        /// The city on that tile.
        feature: u8,
    },
    /// Decline to build a castle (CA1).
    CastlePass,
    /// Pick a tile of the bazaar's offer and open the bidding (BZ2).
    BazaarSelect {
        /// The tile.
        tile: TileKind,
        /// The opening bid, in points.
        bid: u32,
    },
    /// Raise the bid on the picked tile (BZ2).
    BazaarBid {
        /// The new bid, in points.
        bid: u32,
    },
    /// Do not raise (BZ2).
    BazaarPass,
    /// After being outbid: buy the tile or sell it to the highest bidder (BZ3).
    BazaarBuyOrSell {
        /// Buy or sell.
        choice: BazaarChoice,
    },
}

impl Action {
    /// The kind of this action.
    pub const fn kind(&self) -> ActionKind {
        match self {
            Action::PlaceTile { .. } => ActionKind::PlaceTile,
            Action::PlaceAbbey { .. } => ActionKind::PlaceAbbey,
            Action::Deploy { .. } => ActionKind::Deploy,
            Action::DeployBarn { .. } => ActionKind::DeployBarn,
            Action::MoveFairy { .. } => ActionKind::MoveFairy,
            Action::Princess { .. } => ActionKind::Princess,
            Action::ReturnAbbot { .. } => ActionKind::ReturnAbbot,
            Action::Pass => ActionKind::Pass,
            Action::MoveDragon { .. } => ActionKind::MoveDragon,
            Action::MoveWagon { .. } => ActionKind::MoveWagon,
            Action::Draw { .. } => ActionKind::Draw,
            Action::LeaveQuarter { .. } => ActionKind::LeaveQuarter,
            Action::QuarterPass { .. } => ActionKind::QuarterPass,
            Action::DeployQuarter { .. } => ActionKind::DeployQuarter,
            Action::MoveCount { .. } => ActionKind::MoveCount,
            Action::PlaceBridge { .. } => ActionKind::PlaceBridge,
            Action::BuildCastle { .. } => ActionKind::BuildCastle,
            Action::CastlePass => ActionKind::CastlePass,
            Action::BazaarSelect { .. } => ActionKind::BazaarSelect,
            Action::BazaarBid { .. } => ActionKind::BazaarBid,
            Action::BazaarPass => ActionKind::BazaarPass,
            Action::BazaarBuyOrSell { .. } => ActionKind::BazaarBuyOrSell,
        }
    }

    /// The record format's `type` for this action.
    pub const fn type_name(&self) -> &'static str {
        self.kind().name()
    }

    /// The field values, in the order of the kind's schema.
    pub fn values(&self) -> Values {
        use FieldValue::{Corner as C, Feature as F, Int, OptFeature as O, Rot as R, Tile as T};
        let xy = |p: Pos| [Int(p.x), Int(p.y)];
        match *self {
            Action::PlaceTile { pos, rot, bridge } => {
                let bridge = bridge.map(|b| b.at(pos));
                Values::of(&[Int(pos.x), Int(pos.y), R(rot), FieldValue::Bridge(bridge)])
            }
            Action::PlaceAbbey { pos } | Action::MoveDragon { pos } => Values::of(&xy(pos)),
            Action::Deploy {
                figure,
                pos,
                feature,
            } => Values::of(&[
                FieldValue::Figure(figure),
                Int(pos.x),
                Int(pos.y),
                F(feature),
            ]),
            Action::DeployBarn { pos, corner } => Values::of(&[Int(pos.x), Int(pos.y), C(corner)]),
            Action::MoveFairy { pos, feature } => Values::of(&[Int(pos.x), Int(pos.y), O(feature)]),
            Action::Princess { pos, feature }
            | Action::ReturnAbbot { pos, feature }
            | Action::MoveWagon { pos, feature } => {
                Values::of(&[Int(pos.x), Int(pos.y), F(feature)])
            }
            Action::Pass => Values::of(&[]),
            Action::Draw { tile } => Values::of(&[T(tile)]),
            Action::LeaveQuarter {
                step,
                quarter,
                figure,
                pos,
                feature,
            } => Values::of(&[
                FieldValue::Step(step),
                FieldValue::Quarter(quarter),
                FieldValue::Figure(figure),
                Int(pos.x),
                Int(pos.y),
                F(feature),
            ]),
            Action::QuarterPass { step } => Values::of(&[FieldValue::Step(step)]),
            Action::DeployQuarter { figure, quarter } => {
                Values::of(&[FieldValue::Figure(figure), FieldValue::Quarter(quarter)])
            }
            Action::MoveCount { quarter } => Values::of(&[FieldValue::Quarter(quarter)]),
            Action::PlaceBridge { pos, axis } => {
                Values::of(&[Int(pos.x), Int(pos.y), FieldValue::Axis(axis)])
            }
            Action::BuildCastle { pos, feature } => {
                Values::of(&[Int(pos.x), Int(pos.y), F(feature)])
            }
            Action::CastlePass | Action::BazaarPass => Values::of(&[]),
            Action::BazaarSelect { tile, bid } => Values::of(&[T(tile), FieldValue::Bid(bid)]),
            Action::BazaarBid { bid } => Values::of(&[FieldValue::Bid(bid)]),
            Action::BazaarBuyOrSell { choice } => Values::of(&[FieldValue::Choice(choice)]),
        }
    }

    /// The action of `kind` with these field values (in schema order); an error names
    /// the first field whose value has the wrong type.
    pub fn from_values(kind: ActionKind, values: &[FieldValue]) -> Result<Action, FieldError> {
        let spec = kind.spec();
        if values.len() != spec.fields.len() {
            return Err(FieldError {
                field: "",
                message: format!(
                    "{} takes {} fields, got {}",
                    spec.name,
                    spec.fields.len(),
                    values.len()
                ),
            });
        }
        let bad = |i: usize| FieldError {
            field: spec.fields[i].name,
            message: format!(
                "expected a {:?} value, got {:?}",
                spec.fields[i].kind, values[i]
            ),
        };
        let int = |i: usize| match values[i] {
            FieldValue::Int(v) => Ok(v),
            _ => Err(bad(i)),
        };
        let pos = |i: usize| Ok::<Pos, FieldError>(Pos::new(int(i)?, int(i + 1)?));
        let feature = |i: usize| match values[i] {
            FieldValue::Feature(f) => Ok(f),
            _ => Err(bad(i)),
        };
        let figure = |i: usize| match values[i] {
            FieldValue::Figure(f) => Ok(f),
            _ => Err(bad(i)),
        };
        let quarter = |i: usize| match values[i] {
            FieldValue::Quarter(q) => Ok(q),
            _ => Err(bad(i)),
        };
        let step = |i: usize| match values[i] {
            FieldValue::Step(s) => Ok(s),
            _ => Err(bad(i)),
        };
        let bid = |i: usize| match values[i] {
            FieldValue::Bid(b) => Ok(b),
            _ => Err(bad(i)),
        };
        Ok(match kind {
            ActionKind::PlaceTile => Action::PlaceTile {
                pos: pos(0)?,
                rot: match values[2] {
                    FieldValue::Rot(r) => r,
                    _ => return Err(bad(2)),
                },
                bridge: match values[3] {
                    FieldValue::Bridge(None) => None,
                    FieldValue::Bridge(Some(b)) => {
                        Some(b.relative_to(pos(0)?).ok_or_else(|| FieldError {
                            field: spec.fields[3].name,
                            message: format!(
                                "the bridge at {} ({}) is neither on the tile nor on a \
                                 neighbour across the side it runs through",
                                b.pos,
                                b.axis.name()
                            ),
                        })?)
                    }
                    _ => return Err(bad(3)),
                },
            },
            ActionKind::PlaceAbbey => Action::PlaceAbbey { pos: pos(0)? },
            ActionKind::Deploy => Action::Deploy {
                figure: figure(0)?,
                pos: pos(1)?,
                feature: feature(3)?,
            },
            ActionKind::DeployBarn => Action::DeployBarn {
                pos: pos(0)?,
                corner: match values[2] {
                    FieldValue::Corner(c) => c,
                    _ => return Err(bad(2)),
                },
            },
            ActionKind::MoveFairy => Action::MoveFairy {
                pos: pos(0)?,
                feature: match values[2] {
                    FieldValue::OptFeature(f) => f,
                    _ => return Err(bad(2)),
                },
            },
            ActionKind::Princess => Action::Princess {
                pos: pos(0)?,
                feature: feature(2)?,
            },
            ActionKind::ReturnAbbot => Action::ReturnAbbot {
                pos: pos(0)?,
                feature: feature(2)?,
            },
            ActionKind::Pass => Action::Pass,
            ActionKind::MoveDragon => Action::MoveDragon { pos: pos(0)? },
            ActionKind::MoveWagon => Action::MoveWagon {
                pos: pos(0)?,
                feature: feature(2)?,
            },
            ActionKind::Draw => Action::Draw {
                tile: match values[0] {
                    FieldValue::Tile(t) => t,
                    _ => return Err(bad(0)),
                },
            },
            ActionKind::LeaveQuarter => Action::LeaveQuarter {
                step: step(0)?,
                quarter: quarter(1)?,
                figure: figure(2)?,
                pos: pos(3)?,
                feature: feature(5)?,
            },
            ActionKind::QuarterPass => Action::QuarterPass { step: step(0)? },
            ActionKind::DeployQuarter => Action::DeployQuarter {
                figure: figure(0)?,
                quarter: quarter(1)?,
            },
            ActionKind::MoveCount => Action::MoveCount {
                quarter: quarter(0)?,
            },
            ActionKind::PlaceBridge => Action::PlaceBridge {
                pos: pos(0)?,
                axis: match values[2] {
                    FieldValue::Axis(a) => a,
                    _ => return Err(bad(2)),
                },
            },
            ActionKind::BuildCastle => Action::BuildCastle {
                pos: pos(0)?,
                feature: feature(2)?,
            },
            ActionKind::CastlePass => Action::CastlePass,
            ActionKind::BazaarSelect => Action::BazaarSelect {
                tile: match values[0] {
                    FieldValue::Tile(t) => t,
                    _ => return Err(bad(0)),
                },
                bid: bid(1)?,
            },
            ActionKind::BazaarBid => Action::BazaarBid { bid: bid(0)? },
            ActionKind::BazaarPass => Action::BazaarPass,
            ActionKind::BazaarBuyOrSell => Action::BazaarBuyOrSell {
                choice: match values[0] {
                    FieldValue::Choice(c) => c,
                    _ => return Err(bad(0)),
                },
            },
        })
    }
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FieldValue::Int(v) => write!(f, "{v}"),
            FieldValue::Rot(r) => write!(f, "{}", r.quarter_turns()),
            FieldValue::Figure(fig) => f.write_str(fig.name()),
            FieldValue::Feature(local) | FieldValue::OptFeature(Some(local)) => {
                write!(f, "{local}")
            }
            FieldValue::OptFeature(None) => f.write_str("none"),
            FieldValue::Corner(c) => f.write_str(c.name()),
            FieldValue::Tile(t) => f.write_str(t.id()),
            FieldValue::Quarter(q) => f.write_str(q.name()),
            FieldValue::Step(s) => f.write_str(s.name()),
            FieldValue::Bridge(None) => f.write_str("none"),
            FieldValue::Bridge(Some(b)) => {
                write!(f, "({}, {}, {})", b.pos.x, b.pos.y, b.axis.name())
            }
            FieldValue::Axis(a) => f.write_str(a.name()),
            FieldValue::Bid(b) => write!(f, "{b}"),
            FieldValue::Choice(c) => f.write_str(c.name()),
        }
    }
}

/// `Kind(field=value, ...)`, e.g. `PlaceTile(x=1, y=0, rot=2)`; an absent optional
/// field is left out.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        write!(f, "{kind:?}")?;
        let values = self.values();
        let shown = kind
            .spec()
            .fields
            .iter()
            .zip(values.as_slice())
            .filter(|(_, v)| !matches!(v, FieldValue::OptFeature(None) | FieldValue::Bridge(None)));
        for (i, (field, value)) in shown.enumerate() {
            let sep = if i == 0 { "(" } else { ", " };
            write!(f, "{sep}{}={value}", field.name)?;
        }
        if kind.spec().fields.is_empty() {
            Ok(())
        } else {
            f.write_str(")")
        }
    }
}
