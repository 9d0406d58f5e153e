//! Structured actions: one per decision, in absolute board coordinates. They match the
//! record format's action types one to one (`docs/record-format.md`).
//!
//! Every action kind is declared once, here, by one entry of the `actions!` declaration:
//! its record type name, its documentation and its fields with their Rust types. The
//! entry makes its variant of [`Action`] and of [`ActionKind`], its [`KindSpec`] in
//! [`SCHEMA`] (the fields in order, each with a [`FieldKind`]: a `Pos` field is the
//! schema's `x` and `y`), and its part of the conversions [`Action::values`] /
//! [`Action::from_values`]. The record format, the C ABI and the Python package read and
//! write actions through the schema only, so a new kind needs no code in them. The
//! Python classes are generated from the schema (`python/tools/gen_actions.py`, checked
//! by a test); the C ABI's enum of kinds is generated from [`ActionKind`].
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
use crate::names::Named;
use crate::rules::bcb::{Axis, BazaarChoice, Bridge, TileBridge, MAX_BID};
use crate::rules::count::{Quarter, QuarterStep};
use crate::rules::hills_sheep::{FlockChoice, SheepToken};
use crate::tiles::TileKind;
use std::fmt;

macro_rules! actions {
    ($(
        $kind:ident = $name:literal, player: $player:literal, doc: $doc:literal
        $({ $($(#[$field_meta:meta])* $field:ident: $ty:ty),* $(,)? })?;
    )+) => {
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
            fields: {
                const PARTS: &[(&str, &[(&str, FieldKind)])] =
                    &[$($((stringify!($field), <$ty as ActionField>::SCHEMA)),*)?];
                const FIELDS: [FieldSpec; schema_len(PARTS)] = schema_fields(PARTS);
                &FIELDS
            },
        }),+];

        /// One decision (or, in explicit-chance mode, the tile drawn).
        ///
        /// A `feature` is the local index of a feature in its tile's catalogue list (the
        /// catalogue ids `c1`, `r2`, ... name them; see [`crate::tiles::TileDef::features`]).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Action {
            $(#[doc = $doc] $kind $({ $($(#[$field_meta])* $field: $ty),* })?),+
        }

        impl Action {
            /// The kind of this action.
            pub const fn kind(&self) -> ActionKind {
                match self {
                    $(Action::$kind { .. } => ActionKind::$kind),+
                }
            }

            /// The field values, in the order of the kind's schema.
            pub fn values(&self) -> Values {
                let mut writer = Writer::default();
                match *self {
                    $(Action::$kind $({ $($field),* })? => {
                        $($(ActionField::write($field, &mut writer);)*)?
                    })+
                }
                writer.values
            }

            /// The action of `kind` with these field values (in schema order); an error
            /// names the first field whose value has the wrong type.
            pub fn from_values(
                kind: ActionKind,
                values: &[FieldValue],
            ) -> Result<Action, FieldError> {
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
                #[allow(unused_mut, unused_variables)]
                let mut reader = Reader { spec, values, next: 0, pos: None };
                Ok(match kind {
                    $(ActionKind::$kind => Action::$kind $({
                        $($field: <$ty as ActionField>::read(&mut reader)?),*
                    })?),+
                })
            }
        }
    };
}

// Each kind is declared once: its record type name, whether records name the deciding
// player, its documentation, and its fields. A field's Rust type says how every codec
// writes it (`ActionField`): a `Pos` is the schema's `x` and `y`, a `u8` a feature, ...
actions! {
    PlaceTile = "place_tile", player: false,
        doc: "Place the drawn tile at `(x, y)` turned `rot` clockwise quarter turns (B4); `bridge` \
              is `(x, y, axis)` of the bridge a placement legal only with one brings (BR2, axis \
              `NS` or `WE`), else absent." {
            /// Square.
            pos: Pos,
            /// Rotation.
            rot: Rotation,
            /// The bridge placed with the tile (on it or on a neighbour), if it fits only so.
            bridge: Option<TileBridge>,
        };
    PlaceAbbey = "place_abbey", player: false,
        doc: "Place the abbey tile into the hole at `(x, y)` instead of drawing (AM1)." {
            /// Square.
            pos: Pos,
        };
    Deploy = "deploy", player: false,
        doc: "Put a `figure` (follower, abbot, mayor, wagon) from the supply on `feature` of the \
              tile at `(x, y)` (B6), or a follower on top of the tower `feature` of any tile (TW2)." {
            /// Figure kind.
            figure: Figure,
            /// Tile (through a magic portal, any tile with a free feature, PD12; a tower's
            /// tile, TW2).
            pos: Pos,
            /// Local feature index on that tile.
            feature: u8,
        };
    DeployBarn = "deploy_barn", player: false,
        doc: "Put the barn on `corner` (NW, NE, SE, SW) of the tile just placed (AM6)." {
            /// The placed tile.
            pos: Pos,
            /// Corner, board frame.
            corner: Corner,
        };
    MoveFairy = "move_fairy", player: false,
        doc: "Move the fairy next to the player's figure on `feature` at `(x, y)` (PD15); \
              `feature` is absent under the on-tile fairy rule." {
            /// Tile.
            pos: Pos,
            /// Local feature index of the figure the fairy goes next to.
            feature: Option<u8>,
        };
    Princess = "princess", player: false,
        doc: "Remove the knight on `feature` at `(x, y)` with the princess (PD9)." {
            /// Tile of the knight.
            pos: Pos,
            /// Its feature.
            feature: u8,
        };
    ReturnAbbot = "return_abbot", player: false,
        doc: "Take the abbot on `feature` at `(x, y)` back and score it (A3)." {
            /// Tile of the abbot.
            pos: Pos,
            /// Its feature.
            feature: u8,
        };
    Pass = "pass", player: false,
        doc: "Do nothing: deploy nothing, decline the abbey, the princess or a wagon move, or \
              discard a drawn tile that fits only with a bridge (BR2).";
    MoveDragon = "move_dragon", player: true,
        doc: "One step of the dragon onto the tile at `(x, y)` (PD5)." {
            /// Target tile.
            pos: Pos,
        };
    MoveWagon = "move_wagon", player: true,
        doc: "Move the wagon onto `feature` of the tile at `(x, y)` after scoring (AM11)." {
            /// Target tile.
            pos: Pos,
            /// Target feature on that tile.
            feature: u8,
        };
    Draw = "draw", player: false,
        doc: "The chance outcome: the tile drawn (explicit-chance mode)." {
            /// The tile.
            tile: TileKind,
        };
    LeaveQuarter = "leave_quarter", player: true,
        doc: "Move `figure` out of `quarter` of the City of Carcassonne onto `feature` of the tile \
              at `(x, y)` (any part of the feature names it); `step` is `before-scoring` (CC4) or \
              `final` (CC6)." {
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
        };
    QuarterPass = "quarter_pass", player: true,
        doc: "Decline a move of the City of Carcassonne: `step` `before-scoring` or `final` \
              (moving figures out, CC4, CC6), `deploy` (putting one in, CC3), `count` (moving the \
              count, CC3)." {
            /// Which move is declined.
            step: QuarterStep,
        };
    DeployQuarter = "deploy_quarter", player: true,
        doc: "Put `figure` from the supply into `quarter` of the City of Carcassonne (CC3)." {
            /// The figure.
            figure: Figure,
            /// The quarter.
            quarter: Quarter,
        };
    MoveCount = "move_count", player: true,
        doc: "Move the count to `quarter` (CC3)." {
            /// The quarter.
            quarter: Quarter,
        };
    PlaceBridge = "place_bridge", player: false,
        doc: "Put a bridge from the supply on the tile at `(x, y)` along `axis` (`NS` or `WE`) \
              after placing the tile (BR1)." {
            /// The tile that carries it.
            pos: Pos,
            /// Its direction.
            axis: Axis,
        };
    BuildCastle = "build_castle", player: true,
        doc: "Turn the two-tile city just completed at `feature` of the tile at `(x, y)` into a \
              castle instead of having it scored (CA1)." {
            /// A tile of the city.
            pos: Pos,
            /// The city on that tile.
            feature: u8,
        };
    CastlePass = "castle_pass", player: true,
        doc: "Decline to build a castle (CA1).";
    BazaarSelect = "bazaar_select", player: true,
        doc: "Pick `tile` of the bazaar's offer and open the bidding at `bid` points (BZ2)." {
            /// The tile.
            tile: TileKind,
            /// The opening bid, in points.
            bid: u32,
        };
    BazaarBid = "bazaar_bid", player: true,
        doc: "Raise the bid on the picked bazaar tile to `bid` points (BZ2)." {
            /// The new bid, in points.
            bid: u32,
        };
    BazaarPass = "bazaar_pass", player: true,
        doc: "Do not raise the bid (BZ2).";
    BazaarBuyOrSell = "bazaar_buy_or_sell", player: true,
        doc: "The selector buys the outbid tile or sells it to the highest bidder: `choice` `buy` \
              or `sell` (BZ3)." {
            /// Buy or sell.
            choice: BazaarChoice,
        };
    PlaceTowerPiece = "place_tower_piece", player: false,
        doc: "Put a tower piece from the supply on the tower of the tile at `(x, y)`, a foundation \
              or a tower without a figure on top, instead of deploying (TW2)." {
            /// The tower's tile (any tile of the board).
            pos: Pos,
        };
    Capture = "capture", player: true,
        doc: "Right after a tower piece, take the `figure` on `feature` of the tile at `(x, y)` \
              prisoner: a tile in the tower's row or column at most its height away (TW3); an own \
              figure goes back to the supply." {
            /// The captured figure's tile.
            pos: Pos,
            /// Its feature on that tile (`t1`: on top of a tower).
            feature: u8,
            /// Its kind (follower, big follower, abbot, mayor, wagon).
            figure: Figure,
        };
    CapturePass = "capture_pass", player: true,
        doc: "Decline to take a prisoner after a tower piece (TW3).";
    ExchangePrisoner = "exchange_prisoner", player: true,
        doc: "At a capture of a figure of a player who holds prisoners of the capturer of several \
              kinds, the capturer takes back his `figure` in the exchange (TW4)." {
            /// The kind of the capturer's figure he gets back.
            figure: Figure,
        };
    PayRansom = "pay_ransom", player: true,
        doc: "Pay 3 points to `prisoner_of` and take back one of the player's `figure`s that \
              `prisoner_of` holds prisoner: once per turn, before placing the tile or before the \
              figure action (TW5)." {
            /// The seat holding the prisoner.
            prisoner_of: Seat,
            /// The prisoner's kind.
            figure: Figure,
        };
    Flock = "flock", player: false,
        doc: "The turn player's tile extended the field of his shepherd on `feature` at `(x, y)`: \
              `choice` `grow` (a token is drawn from the bag) or `herd` (the field's flocks score) \
              (HS2)." {
            /// The shepherd's tile.
            pos: Pos,
            /// The shepherd's field on that tile.
            feature: u8,
            /// Grow or herd.
            choice: FlockChoice,
        };
    DrawToken = "draw_token", player: false,
        doc: "The chance outcome: the token drawn from the bag for a shepherd (HS1, HS2; \
              explicit-chance mode)." {
            /// The token.
            token: SheepToken,
        };
}

/// A seat (player) named by an action's field: `prisoner_of` of a ransom (TW5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

/// How a field is written by every codec.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// A board column (`x`), an integer.
    X,
    /// A board row (`y`), an integer.
    Y,
    /// A rotation, 0..=3 clockwise quarter turns.
    Rot,
    /// A figure kind by name (`follower`, `abbot`, `mayor`, `wagon`, ...).
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
    /// A seat, 0 to the number of players − 1.
    Seat,
    /// A shepherd's choice by name (`grow`, `herd`).
    FlockChoice,
    /// A token of the bag by name (`sheep-1` .. `sheep-4`, `wolf`).
    Token,
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
    /// [`FieldKind::Seat`].
    Seat(Seat),
    /// [`FieldKind::FlockChoice`].
    FlockChoice(FlockChoice),
    /// [`FieldKind::Token`].
    Token(SheepToken),
}

/// The number of `value` among `all` (its position).
fn number_of<T: Named + PartialEq>(value: T) -> usize {
    T::all()
        .iter()
        .position(|v| *v == value)
        .expect("a named value is in its list")
}

impl FieldKind {
    /// The word for a value of a kind whose values are names, as messages say it
    /// (`unknown quarter "x"`): `corner`, `quarter`, `step`, `axis`, `choice` (a bazaar's
    /// and a shepherd's), `token`; `None` for a kind whose values are not names of a
    /// closed list (coordinates, rotations, figures, features, tiles, bridges, bids,
    /// seats).
    ///
    /// Codecs read and write every named kind through [`FieldKind::value_named`],
    /// [`FieldKind::value_numbered`], [`FieldValue::name`] and [`FieldValue::number`], so
    /// that an expansion's new named field needs no code of theirs.
    pub const fn value_word(self) -> Option<&'static str> {
        match self {
            FieldKind::Corner => Some("corner"),
            FieldKind::Quarter => Some("quarter"),
            FieldKind::Step => Some("step"),
            FieldKind::Axis => Some("axis"),
            FieldKind::Choice | FieldKind::FlockChoice => Some("choice"),
            FieldKind::Token => Some("token"),
            _ => None,
        }
    }

    /// The value of a named kind called `name` (`None`: not one of its names, or a kind
    /// whose values are not names).
    pub fn value_named(self, name: &str) -> Option<FieldValue> {
        Some(match self {
            FieldKind::Corner => FieldValue::Corner(Corner::with_name(name)?),
            FieldKind::Quarter => FieldValue::Quarter(Quarter::with_name(name)?),
            FieldKind::Step => FieldValue::Step(QuarterStep::with_name(name)?),
            FieldKind::Axis => FieldValue::Axis(Axis::with_name(name)?),
            FieldKind::Choice => FieldValue::Choice(BazaarChoice::with_name(name)?),
            FieldKind::FlockChoice => FieldValue::FlockChoice(FlockChoice::with_name(name)?),
            FieldKind::Token => FieldValue::Token(SheepToken::with_name(name)?),
            _ => return None,
        })
    }

    /// The value of a named kind numbered `n`, its position in the kind's list (the
    /// value of the C enum, `CarcQuarter`, ...); `None` past the list or for a kind whose
    /// values are not names.
    pub fn value_numbered(self, n: usize) -> Option<FieldValue> {
        fn nth<T: Named>(n: usize) -> Option<T> {
            T::all().get(n).copied()
        }
        Some(match self {
            FieldKind::Corner => FieldValue::Corner(nth(n)?),
            FieldKind::Quarter => FieldValue::Quarter(nth(n)?),
            FieldKind::Step => FieldValue::Step(nth(n)?),
            FieldKind::Axis => FieldValue::Axis(nth(n)?),
            FieldKind::Choice => FieldValue::Choice(nth(n)?),
            FieldKind::FlockChoice => FieldValue::FlockChoice(nth(n)?),
            FieldKind::Token => FieldValue::Token(nth(n)?),
            _ => return None,
        })
    }

    /// How many values a named kind has, and their names in order joined by `, ` (for a
    /// message that lists them); `None` for a kind whose values are not names.
    pub fn value_names(self) -> Option<(usize, String)> {
        fn list<T: Named>() -> Option<(usize, String)> {
            Some((T::all().len(), T::names()))
        }
        match self {
            FieldKind::Corner => list::<Corner>(),
            FieldKind::Quarter => list::<Quarter>(),
            FieldKind::Step => list::<QuarterStep>(),
            FieldKind::Axis => list::<Axis>(),
            FieldKind::Choice => list::<BazaarChoice>(),
            FieldKind::FlockChoice => list::<FlockChoice>(),
            FieldKind::Token => list::<SheepToken>(),
            _ => None,
        }
    }

    /// The highest value of an integer kind whose bound does not depend on the game: a
    /// rotation's 3 quarter turns, a bid's [`crate::rules::bcb::MAX_BID`] points.
    pub const fn int_max(self) -> Option<u32> {
        match self {
            FieldKind::Rot => Some(3),
            FieldKind::Bid => Some(MAX_BID),
            _ => None,
        }
    }
}

impl FieldValue {
    /// The name of a value of a named kind ([`FieldKind::value_word`]).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            FieldValue::Corner(v) => v.name(),
            FieldValue::Quarter(v) => v.name(),
            FieldValue::Step(v) => v.name(),
            FieldValue::Axis(v) => v.name(),
            FieldValue::Choice(v) => v.name(),
            FieldValue::FlockChoice(v) => v.name(),
            FieldValue::Token(v) => v.name(),
            _ => return None,
        })
    }

    /// The number of a value of a named kind: its position in the kind's list
    /// ([`FieldKind::value_numbered`]).
    pub fn number(self) -> Option<usize> {
        Some(match self {
            FieldValue::Corner(v) => number_of(v),
            FieldValue::Quarter(v) => number_of(v),
            FieldValue::Step(v) => number_of(v),
            FieldValue::Axis(v) => number_of(v),
            FieldValue::Choice(v) => number_of(v),
            FieldValue::FlockChoice(v) => number_of(v),
            FieldValue::Token(v) => number_of(v),
            _ => return None,
        })
    }

    /// A bridge placed with a tile on the square `(x, y)` along `axis`, a value of
    /// [`FieldKind::Axis`] as the codecs read it (`None` for any other value).
    pub fn bridge(x: i32, y: i32, axis: FieldValue) -> Option<FieldValue> {
        let FieldValue::Axis(axis) = axis else {
            return None;
        };
        Some(FieldValue::Bridge(Some(Bridge {
            pos: Pos::new(x, y),
            axis,
        })))
    }

    /// The square and the axis (name, number) of a bridge placed with a tile.
    pub fn bridge_parts(self) -> Option<(i32, i32, &'static str, usize)> {
        match self {
            FieldValue::Bridge(Some(b)) => {
                Some((b.pos.x, b.pos.y, b.axis.name(), number_of(b.axis)))
            }
            _ => None,
        }
    }
}

/// Most fields an action kind has.
pub const MAX_FIELDS: usize = 6;

/// The field values of one action, in schema order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Values {
    len: u8,
    values: [FieldValue; MAX_FIELDS],
}

impl Default for Values {
    fn default() -> Values {
        Values {
            len: 0,
            values: [FieldValue::Int(0); MAX_FIELDS],
        }
    }
}

impl Values {
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

impl Action {
    /// The record format's `type` for this action.
    pub const fn type_name(&self) -> &'static str {
        self.kind().name()
    }
}

/// How a field of an [`Action`] is written as schema fields, by its Rust type.
trait ActionField: Sized {
    /// The schema fields it is written as, `(name, kind)`: an empty name is the Rust
    /// field's name.
    const SCHEMA: &'static [(&'static str, FieldKind)];
    /// Appends its values.
    fn write(self, writer: &mut Writer);
    /// Reads it from the next values.
    fn read(reader: &mut Reader) -> Result<Self, FieldError>;
}

/// The values of an action being written, and its `(x, y)` once written.
#[derive(Default)]
struct Writer {
    values: Values,
    pos: Option<Pos>,
}

impl Writer {
    fn push(&mut self, value: FieldValue) {
        self.values.values[self.values.len as usize] = value;
        self.values.len += 1;
    }
}

/// The values of an action being read: the next one, and the action's `(x, y)` once read.
struct Reader<'a> {
    spec: &'static KindSpec,
    values: &'a [FieldValue],
    next: usize,
    pos: Option<Pos>,
}

impl Reader<'_> {
    /// The next value, read by `accept`; a value it refuses is an error naming the field.
    fn take<T>(&mut self, accept: impl Fn(FieldValue) -> Option<T>) -> Result<T, FieldError> {
        let i = self.next;
        self.next += 1;
        accept(self.values[i]).ok_or_else(|| FieldError {
            field: self.spec.fields[i].name,
            message: format!(
                "expected a {:?} value, got {:?}",
                self.spec.fields[i].kind, self.values[i]
            ),
        })
    }
}

/// An [`ActionField`] written as one value: `FieldKind::$kind` in the schema,
/// `FieldValue::$kind` in the values.
macro_rules! single_value_fields {
    ($($ty:ty => $kind:ident;)+) => {$(
        impl ActionField for $ty {
            const SCHEMA: &'static [(&'static str, FieldKind)] = &[("", FieldKind::$kind)];
            fn write(self, writer: &mut Writer) {
                writer.push(FieldValue::$kind(self));
            }
            fn read(reader: &mut Reader) -> Result<Self, FieldError> {
                reader.take(|v| match v {
                    FieldValue::$kind(x) => Some(x),
                    _ => None,
                })
            }
        }
    )+};
}

single_value_fields! {
    Rotation => Rot;
    Figure => Figure;
    u8 => Feature;
    Option<u8> => OptFeature;
    Corner => Corner;
    TileKind => Tile;
    Quarter => Quarter;
    QuarterStep => Step;
    Axis => Axis;
    u32 => Bid;
    BazaarChoice => Choice;
    Seat => Seat;
    FlockChoice => FlockChoice;
    SheepToken => Token;
}

/// A position is the schema's `x` and `y`: the action's square, which the fields after
/// it (a bridge) are relative to.
impl ActionField for Pos {
    const SCHEMA: &'static [(&'static str, FieldKind)] =
        &[("x", FieldKind::X), ("y", FieldKind::Y)];
    fn write(self, writer: &mut Writer) {
        writer.push(FieldValue::Int(self.x));
        writer.push(FieldValue::Int(self.y));
        writer.pos = Some(self);
    }
    fn read(reader: &mut Reader) -> Result<Self, FieldError> {
        let int = |v| match v {
            FieldValue::Int(i) => Some(i),
            _ => None,
        };
        let pos = Pos::new(reader.take(int)?, reader.take(int)?);
        reader.pos = Some(pos);
        Ok(pos)
    }
}

/// A bridge brought by a placement: absolute in the schema, relative to the action's
/// square in the action.
impl ActionField for Option<TileBridge> {
    const SCHEMA: &'static [(&'static str, FieldKind)] = &[("", FieldKind::OptBridge)];
    fn write(self, writer: &mut Writer) {
        let pos = writer
            .pos
            .expect("a bridge field follows the action's x and y");
        writer.push(FieldValue::Bridge(self.map(|b| b.at(pos))));
    }
    fn read(reader: &mut Reader) -> Result<Self, FieldError> {
        let field = reader.spec.fields[reader.next].name;
        let bridge = reader.take(|v| match v {
            FieldValue::Bridge(b) => Some(b),
            _ => None,
        })?;
        let pos = reader
            .pos
            .expect("a bridge field follows the action's x and y");
        bridge
            .map(|b| {
                b.relative_to(pos).ok_or_else(|| FieldError {
                    field,
                    message: format!(
                        "the bridge at {} ({}) is neither on the tile nor on a neighbour \
                         across the side it runs through",
                        b.pos,
                        b.axis.name()
                    ),
                })
            })
            .transpose()
    }
}

/// How many schema fields `parts` (a Rust field's name and its [`ActionField::SCHEMA`])
/// make.
const fn schema_len(parts: &[(&str, &[(&str, FieldKind)])]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].1.len();
        i += 1;
    }
    n
}

/// The schema fields of `parts`, in order. A bridge must follow the action's `x` and `y`
/// (it is relative to them in the action), which compilation checks.
const fn schema_fields<const N: usize>(
    parts: &[(&'static str, &[(&'static str, FieldKind)])],
) -> [FieldSpec; N] {
    assert!(
        N <= MAX_FIELDS,
        "an action kind has more than MAX_FIELDS fields"
    );
    let mut fields = [FieldSpec {
        name: "",
        kind: FieldKind::X,
    }; N];
    let (mut n, mut i, mut has_pos) = (0, 0, false);
    while i < parts.len() {
        let (rust_name, schema) = parts[i];
        let mut j = 0;
        while j < schema.len() {
            let (name, kind) = schema[j];
            let name = if name.is_empty() { rust_name } else { name };
            assert!(
                !matches!(kind, FieldKind::OptBridge) || has_pos,
                "a bridge needs x and y before it"
            );
            has_pos |= matches!(kind, FieldKind::Y);
            fields[n] = FieldSpec { name, kind };
            n += 1;
            j += 1;
        }
        i += 1;
    }
    fields
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
            FieldValue::Seat(Seat(seat)) => write!(f, "{seat}"),
            FieldValue::FlockChoice(c) => f.write_str(c.name()),
            FieldValue::Token(t) => f.write_str(t.name()),
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
