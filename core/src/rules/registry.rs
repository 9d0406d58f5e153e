//! The expansion registry: the [`Expansion`] trait, whose hooks are every place where the
//! kernel (the turn pipeline in [`crate::game`], the pile in [`crate::deck`], the
//! scoring in [`crate::scoring`]) calls into the rules of an expansion, and the
//! [`expansions!`] list, one line per expansion, from which follow the struct of their
//! states (`Expansions`, a field of the game), every hook's fan-out (a method of
//! [`Game`] that calls the hook of each expansion in list order), the state hash and
//! the probes of the state-hash test.
//!
//! Every hook has a default that does nothing (or answers "no"), so an expansion
//! implements only the hooks its rules need. Dispatch is static: each fan-out is the
//! list's calls written out by the macro, the defaults inline to nothing, and a game of
//! the base set runs the same instructions as a kernel that knew no expansion.
//!
//! Hooks are associated functions that take the game, not the expansion's state: the
//! rules of an expansion read and change the kernel (board, features, figures, scores)
//! and their own state (`game.expansions.<field>`), and may ask other expansions
//! through their public queries. Each hook checks itself whether its expansion is in
//! play (`Game::has_set`, the figures in the supply).
//!
//! The order of the list is the order of the fan-outs, and it matters where they order
//! things: decisions asked one after another (castles CA1 before the moves out of the
//! City of Carcassonne CC4; wagons AM11 before entering the City CC3; the dragon's
//! flight PD4 before a bazaar BZ1), legal actions listed one after another (portal
//! PD12 before barns AM6; the fairy PD15, the abbot A3, then bridges BR1), and score
//! events at the end of a turn (challenges CU3, castles CA3, titles KR1) or of the game
//! (barns AM9 before titles KR3).

use crate::action::Action;
use crate::board::FitTable;
use crate::config::{ConfigError, Figure, Figures, GameConfig};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase};
use crate::geometry::{Pos, Rotation, Side};
use crate::rules::state::{StateTable, StateWriter};
use crate::tiles::{FeatureKind, TileDef, TileKind, TileSet};
use std::fmt;
use std::hash::Hash;

/// A figure count per key of [`Figures::KEYS`] (the figures, then the tiles held).
pub(crate) type FigureCounts = [u8; Figures::KEYS.len()];

/// What the end-of-turn hook ([`Expansion::at_end_of_turn`]) asks of the pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TurnEnd {
    /// A decision: the game waits for it.
    Decide,
    /// A tile from the pile for an expansion: sampled, or asked for as a chance outcome
    /// in explicit-chance mode; it goes to [`Expansion::drawn_at_end_of_turn`].
    Draw,
    /// Nothing (more) before the next turn.
    Done,
}

/// A change of one expansion's state alone, with the rule id of what it changes: the
/// state-hash test applies each to a game and expects another hash.
#[cfg(test)]
pub(crate) type HashProbe<T> = (&'static str, fn(&mut T));

/// One expansion: its state (the type that implements the trait, created with the game)
/// and its hooks. See the [module documentation](self) and `docs/architecture.md`.
///
/// The state is hashed whole by [`Game::state_hash`] (its derived `Hash`): what is a
/// record of the past rather than state that decides the future goes into a
/// [`History`], which the hash leaves out.
pub(crate) trait Expansion: Sized + Clone + fmt::Debug + Eq + Hash {
    /// Whether the expansion is in play in a game of `config` (its set is, or its
    /// figures are in the supply). The hooks below that take the game are called only
    /// in games where it is.
    fn in_play(config: &GameConfig) -> bool;

    /// The state at the start of a game of `config`, with room for `tiles` placements
    /// (reserved now: the hot path allocates nothing). `tiles` is 0 for an expansion
    /// that is not in play: its state is never used then, and should allocate nothing.
    fn new(config: &GameConfig, tiles: usize) -> Self;

    /// Changes of this state alone for the state-hash test (none for an expansion
    /// without state).
    #[cfg(test)]
    fn hash_probes() -> Vec<HashProbe<Self>>;

    /// The tables of the expansion's visible state for clients, declared with
    /// `state_tables!` in its module ([`crate::rules::state`]); none by default.
    const STATE_TABLES: &'static [StateTable] = &[];

    /// Writes the rows of its [`Expansion::STATE_TABLES`] with the module's `StateRows`
    /// (called only in games where it is in play).
    #[inline]
    fn write_state(_game: &Game, _out: &mut StateWriter<'_>) {}

    // ----- configuration and setup -------------------------------------------------

    /// Sets the default counts of the expansion's figures and tiles in hand for a game
    /// of `sets` (AM1, AM5, AM6, AM10).
    #[inline]
    fn default_figures(_sets: &[TileSet], _counts: &mut FigureCounts) {}

    /// Refuses a configuration that the expansion cannot play (its figures without its
    /// set, too many of them).
    #[inline]
    fn check_config(_config: &GameConfig) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Whether tiles of this catalogue kind never go into the pile: start tiles (a
    /// spring, R1; the City of Carcassonne, CC1) and tiles in the players' hands (the
    /// abbey, AM1). Asked once per kind.
    #[inline]
    fn never_drawn(_def: &TileDef) -> bool {
        false
    }

    /// Whether tiles of this catalogue kind are held back from the draws while
    /// [`Expansion::holds_back_tiles`] says so (dragon tiles, PD3). Asked once per kind.
    #[inline]
    fn held_back(_def: &TileDef) -> bool {
        false
    }

    /// Changes the counts of the pile of a game of `config` (catalogue index; R4: no
    /// River I lake with River II).
    #[inline]
    fn adjust_pile(_config: &GameConfig, _counts: &mut [u8]) {}

    /// A tile of the pile set aside, out of the draws, to be taken by the expansion
    /// (R6: the city lake, placed after the volcano lake).
    #[inline]
    fn set_aside(_config: &GameConfig) -> Option<TileKind> {
        None
    }

    /// Tiles placed in a game beside those of the pile and the start (abbeys, AM1):
    /// room for the board.
    #[inline]
    fn tiles_beside_pile(_config: &GameConfig) -> usize {
        0
    }

    /// Decisions and score events that the expansion adds beyond the few per tile of
    /// the kernel (bazaar auctions, BZ2, BZ3), given the pile's counts: room for the
    /// game's logs.
    #[inline]
    fn log_room(_config: &GameConfig, _pile: &[u8]) -> usize {
        0
    }

    // ----- queries of the kernel ---------------------------------------------------

    /// Whether the tiles of [`Expansion::held_back`] kinds are held back now (PD3:
    /// while the dragon is not on the board).
    #[inline]
    fn holds_back_tiles(_game: &Game) -> bool {
        false
    }

    /// Adds the tiles `player` holds to his counts (abbeys, AM1).
    #[inline]
    fn held(_game: &Game, _player: usize, _counts: &mut FigureCounts) {}

    /// Feature nodes of placement `index` beyond its catalogue features, numbered after
    /// them, that figures may stand on now (its bridge, BR3).
    #[inline]
    fn extra_features(_game: &Game, _index: usize) -> u8 {
        0
    }

    /// Whether features of the expansion may cross a side's middle third beside the
    /// tiles' own (bridges, BR3): tiles then join through [`Expansion::crossing_node`].
    #[inline]
    fn crosses_sides(_game: &Game) -> bool {
        false
    }

    /// The node that crosses the middle third of `side` of placement `index`, if any (a
    /// bridge, BR3).
    #[inline]
    fn crossing_node(_game: &Game, _index: usize, _side: Side) -> Option<NodeId> {
        None
    }

    /// Whether the expansion's follower-like `figure` may stand on a feature of `kind`
    /// in a game of `config` (A1, AM5, AM10); `false` for figures that are not the
    /// expansion's. Asked once per game, for every figure and kind.
    #[inline]
    fn figure_fits(_config: &GameConfig, _figure: Figure, _kind: FeatureKind) -> bool {
        false
    }

    /// What `figure` standing on the feature of `root` weighs in its majority (B13), if
    /// the expansion decides it (AM5: a mayor weighs the city's pennants).
    #[inline]
    fn figure_weight(_game: &Game, _figure: Figure, _root: NodeId) -> Option<u32> {
        None
    }

    /// The points of the city or road of `root`, of `tiles` distinct tiles, when it
    /// scores completed (`complete`) or at the end of the game, if the expansion decides
    /// them (IC2: an inn road, IC3: a cathedral city); `None` keeps the kernel's value
    /// (B12, B15).
    #[inline]
    fn feature_value(_game: &Game, _root: NodeId, _tiles: u32, _complete: bool) -> Option<i32> {
        None
    }

    /// Which of the players `tied` (a bit per seat, two or more, tied for the majority of
    /// the city, road or field of `root`) score it (HS4: those with a follower on a hill
    /// tile); `tied` keeps them all.
    #[inline]
    fn break_tie(_game: &Game, _root: NodeId, tied: u8) -> u8 {
        tied
    }

    /// Points per completed city (and castle) that `player` scores beyond the field's
    /// value when the field of `root` is scored for him (TB5: his pig).
    #[inline]
    fn field_bonus_per_city(_game: &Game, _root: NodeId, _player: u8) -> i32 {
        0
    }

    /// Whether no figure may be put on placement `index` (PD13b, PD1, R6, CC8).
    #[inline]
    fn figure_barred_on(_game: &Game, _index: usize) -> bool {
        false
    }

    /// Whether the completed city of `root` is a castle: no city any more, a city worth
    /// one more point to fields (CA1, CA4).
    #[inline]
    fn is_castle(_game: &Game, _root: NodeId) -> bool {
        false
    }

    /// Completed cities that the field of `root` counts beside those it touches (CC2:
    /// the City of Carcassonne counts as one).
    #[inline]
    fn field_extra_cities(_game: &Game, _root: NodeId) -> i32 {
        0
    }

    /// Points that every scoring of the field of `root` adds beyond its cities' (CA4: a
    /// castle, counted among the cities by [`Expansion::field_extra_cities`], is worth
    /// one point more).
    #[inline]
    fn field_extra_points(_game: &Game, _root: NodeId) -> i32 {
        0
    }

    /// The listed form of an expansion's action that names a feature by any of its
    /// parts (CC4, CA1); other actions unchanged.
    #[inline]
    fn normalize(_game: &Game, action: Action) -> Action {
        action
    }

    // ----- placement (B4, B5) ------------------------------------------------------

    /// Whether the expansion restricts placements of `tile` beyond the side match (a
    /// river tile, R2; a cloister with the Cult, CU2): placement lists of `tile` then ask
    /// its [`Expansion::placement_allowed_at`] and
    /// [`Expansion::placement_allowed_turned`]. Lists of tiles that no expansion
    /// restricts are computed without those checks.
    #[inline]
    fn placement_restricted(_game: &Game, _tile: TileKind) -> bool {
        false
    }

    /// Whether [`Expansion::placement_allowed_turned`] may answer no (the expansion
    /// restricts rotations, not only squares): placement lists ask it only of the
    /// expansions that say so.
    const RESTRICTS_ROTATIONS: bool = false;

    /// Whether `tile` may lie at `pos` beyond the side match, whatever its rotation
    /// (CU2).
    #[inline]
    fn placement_allowed_at(_game: &Game, _tile: TileKind, _pos: Pos) -> bool {
        true
    }

    /// Whether `tile` may lie at `pos` turned by `rot`, once allowed at `pos` (R2).
    #[inline]
    fn placement_allowed_turned(_game: &Game, _tile: TileKind, _pos: Pos, _rot: Rotation) -> bool {
        true
    }

    /// Whether a tile may now be placed where its sides do not all match, with a piece
    /// of the expansion (a bridge, BR2): placement lists then ask
    /// [`Expansion::misfit_may_fit`] and [`Expansion::misfit_placements`] of the
    /// expansion.
    #[inline]
    fn misfits_possible(_game: &Game) -> bool {
        false
    }

    /// A quick test, per square of a placement list, for an expansion that may make
    /// misfits fit: the table ([`FitTable::fits`]) of the rotations of `tile` that the
    /// expansion could make fit a square's requirement (BR2), those that fit by their
    /// sides included. Asked once per placement list of the expansion when its misfits
    /// are possible ([`Expansion::misfits_possible`]); a rotation listed where the
    /// expansion cannot make it fit now costs time only
    /// ([`Expansion::misfit_placements`] decides).
    #[inline]
    fn misfit_fit_table(_tile: TileKind) -> Option<&'static FitTable> {
        None
    }

    /// Pushes the placements of `tile` at frontier square `pos` turned by `rot`, which
    /// does not fit by its sides, that the expansion makes fit (BR2); `required` is the
    /// square's `(packed, mask)`.
    #[inline]
    fn misfit_placements(
        _game: &Game,
        _tile: TileKind,
        _pos: Pos,
        _rot: Rotation,
        _required: (u16, u16),
        _out: &mut Vec<Action>,
    ) {
    }

    /// Whether the tile in hand may be discarded instead of placed (BR2: every
    /// placement needs a bridge).
    #[inline]
    fn may_discard_tile(_game: &Game) -> bool {
        false
    }

    // ----- the turn (`docs/rules.md` §8) -------------------------------------------

    /// Resets the per-turn state: at the start of each turn, also of each turn of the
    /// end-of-game abbey round (AM4).
    #[inline]
    fn reset_turn(_game: &mut Game) {}

    /// A turn begins, after every expansion's [`Expansion::reset_turn`] (PD16b: the
    /// fairy's point).
    #[inline]
    fn on_turn_start(_game: &mut Game) {}

    /// The tile the turn player places instead of drawing, taken into his hand (BZ4).
    #[inline]
    fn tile_instead_of_draw(_game: &mut Game) -> Option<TileKind> {
        None
    }

    /// Whether players still hold tiles to place when the pile is empty (BZ4): the game
    /// does not end before they are placed.
    #[inline]
    fn tiles_held_to_place(_game: &Game) -> bool {
        false
    }

    /// Whether the turn player has a decision before drawing (AM1); the game then waits
    /// for it.
    #[inline]
    fn decision_before_draw(_game: &mut Game) -> bool {
        false
    }

    /// The turn's tile is about to be placed by `placement` (an [`Action::PlaceTile`]),
    /// before it is put (BR2: a bridge placed with it).
    #[inline]
    fn before_turn_tile(_game: &mut Game, _placement: Action) {}

    /// A tile was put at placement `index` (any tile: start tiles, abbeys, the turn's),
    /// its catalogue features added and not yet joined to its neighbours' (BR3: its
    /// bridge node).
    #[inline]
    fn on_tile_put(_game: &mut Game, _index: u8) {}

    /// The turn's tile (not an abbey) was placed at placement `index` and joined (R2,
    /// PD2, BZ1).
    #[inline]
    fn on_tile_placed(_game: &mut Game, _index: u8) {}

    /// Whether the expansion takes a tile from the pile right after the turn's tile was
    /// placed, while tiles are left (HS3: under a hill): sampled, or asked for as a chance
    /// outcome in explicit-chance mode; it goes to [`Expansion::drawn_after_placement`].
    #[inline]
    fn tile_after_placement(_game: &mut Game) -> bool {
        false
    }

    /// The tile drawn for [`Expansion::tile_after_placement`]; returns whether the
    /// expansion asked for it (HS3).
    #[inline]
    fn drawn_after_placement(_game: &mut Game, _tile: TileKind) -> bool {
        false
    }

    /// A tile that fits nowhere was discarded (B5, R6).
    #[inline]
    fn on_tile_discarded(_game: &mut Game, _tile: TileKind) {}

    /// A second tile that the turn player places right after the tile at placement
    /// `index`, in the same turn (R6).
    #[inline]
    fn second_tile_after(_game: &mut Game, _index: u8) -> Option<TileKind> {
        None
    }

    /// Deployment choices that replace all others when the expansion says so (PD9:
    /// the princess under `princess: must`); pushes them and returns whether they do.
    #[inline]
    fn exclusive_deploy_options(_game: &Game, _out: &mut Vec<Action>) -> bool {
        false
    }

    /// Deployments beside those on the placed tile's features (PD12: the magic portal;
    /// AM6: barns).
    #[inline]
    fn deploy_options(_game: &Game, _out: &mut Vec<Action>) {}

    /// Choices instead of deploying (PD15: the fairy; A3: the abbot back; BR1: a
    /// bridge).
    #[inline]
    fn instead_of_deploying(_game: &Game, _out: &mut Vec<Action>) {}

    /// Whether a decision or chance event follows the figure action before every other
    /// step after the deployment (HS1: the shepherd's token; HS2: the flock); asked again
    /// after each such decision until no expansion asks.
    #[inline]
    fn decision_after_figure_action(_game: &mut Game) -> bool {
        false
    }

    /// Whether a decision follows the deployment (PD4: the dragon's flight); the game
    /// then waits for it.
    #[inline]
    fn decision_after_deployment(_game: &mut Game) -> bool {
        false
    }

    /// A feature that the turn completed beside those of its tiles (BR1: a bridge laid
    /// on a neighbour between abbeys).
    #[inline]
    fn completed_beside_tiles(_game: &mut Game) -> Option<NodeId> {
        None
    }

    /// Whether a decision on the turn's completed features comes before they score
    /// (CA1, CC4); asked again after each such decision.
    #[inline]
    fn decision_before_scoring(_game: &mut Game) -> bool {
        false
    }

    /// The feature of `root` scored during play or, with `final_scoring`, at the end,
    /// before its figures return (PD16c).
    #[inline]
    fn on_feature_scored(_game: &mut Game, _root: NodeId, _final_scoring: bool) {}

    /// A figure left the board, for any reason (PD16).
    #[inline]
    fn on_figure_left(_game: &mut Game, _figure: &BoardFigure) {}

    /// A figure returned from a feature that scored during play (AM11).
    #[inline]
    fn on_figure_scored(_game: &mut Game, _figure: BoardFigure) {}

    /// The turn's completed features scored; the tile at placement `placed` was placed
    /// this turn (AM7, AM8: barn fields).
    #[inline]
    fn after_turn_scoring(_game: &mut Game, _placed: u8) {}

    /// The turn's scoring is done: `roots` were completed by the turn, `scored` of them
    /// held figures and scored (CU3, CA3, KR1, KR2).
    #[inline]
    fn on_turn_scored(_game: &mut Game, _roots: &[NodeId], _scored: &[NodeId]) {}

    /// Whether a decision follows the turn's scoring (AM11, CC3); asked again after
    /// each such decision.
    #[inline]
    fn decision_after_scoring(_game: &mut Game) -> bool {
        false
    }

    /// What the expansion asks at the end of the turn (PD4 `after-scoring`, BZ1–BZ3);
    /// asked again after each decision and draw until every expansion is done.
    #[inline]
    fn at_end_of_turn(_game: &mut Game) -> TurnEnd {
        TurnEnd::Done
    }

    /// The tile drawn for a [`TurnEnd::Draw`]; returns whether the expansion asked for
    /// it (BZ1).
    #[inline]
    fn drawn_at_end_of_turn(_game: &mut Game, _tile: TileKind) -> bool {
        false
    }

    /// Whether the turn player, whose turn ends, takes an extra turn at once (TB4: his
    /// builder); by default the next player's turn comes. Not asked at the end of an
    /// extra turn (it gives no other) nor in the end-of-game rounds. Asked also before
    /// the end of the turn (a bazaar waits for the whole turn, §8 step 14), so it
    /// changes nothing. An extra turn starts without [`Expansion::on_turn_start`] (what
    /// comes once per turn, PD16b, does not come again) but with
    /// [`Expansion::reset_turn`].
    #[inline]
    fn another_turn(_game: &Game) -> bool {
        false
    }

    // ----- decisions ---------------------------------------------------------------

    /// Applies `player`'s `action` if it is the expansion's decision (its actions, a
    /// pass in its phases): `Some(true)` when the pipeline moves on, `Some(false)` while
    /// the same decision continues (PD5: the flight's next step); `None` when it is not
    /// the expansion's.
    #[inline]
    fn apply(_game: &mut Game, _player: u8, _action: Action) -> Option<bool> {
        None
    }

    /// Completes the legal list of a decision of the expansion's `phase` (the steps that
    /// ask a decision may list it already); nothing for other phases.
    #[inline]
    fn complete_legal(_game: &mut Game, _phase: Phase) {}

    // ----- the end of the game -----------------------------------------------------

    /// The last tile was placed: the expansion's end-of-game rounds begin (AM4).
    #[inline]
    fn on_game_end(_game: &mut Game) {}

    /// Whether a turn of an end-of-game round is asked now (AM4); asked again until no
    /// expansion asks one.
    #[inline]
    fn end_round_decision(_game: &mut Game) -> bool {
        false
    }

    /// The end-of-game rounds are over: moves before final scoring begin (CC6).
    #[inline]
    fn before_final_moves(_game: &mut Game) {}

    /// Whether a move before final scoring is asked now (CC6); asked again until no
    /// expansion asks one.
    #[inline]
    fn final_move_decision(_game: &mut Game) -> bool {
        false
    }

    /// Final scoring, after incomplete features and farmers (AM9, KR3).
    #[inline]
    fn final_scoring(_game: &mut Game) {}
}

/// A record of what happened, kept in an expansion's state for the game's history (the
/// bazaars' offers, for records), not state that decides the future: equal for equal
/// records, left out of the state hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct History<T>(pub(crate) T);

impl<T> Hash for History<T> {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl<T> std::ops::Deref for History<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for History<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// Declares the expansions, once, in the order of their fan-outs: `field: Type,` per
/// expansion, `Type` its state implementing [`Expansion`] and `field` its name in
/// `Expansions`. Generates the struct `Expansions` and the fan-outs: functions of the
/// configuration, and methods of [`Game`] that the kernel calls.
macro_rules! expansions {
    ($($(#[doc = $doc:literal])* $field:ident: $ty:ty,)+) => {
        /// The state of every expansion, each owned by its module (see [`expansions!`]).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub(crate) struct Expansions {
            /// The expansions in play: a bit per [`Slot`].
            in_play: u32,
            $($(#[doc = $doc])* pub(crate) $field: $ty,)+
        }

        /// The place of each expansion in the list: its bit in `Expansions::in_play`.
        #[allow(non_camel_case_types)]
        #[derive(Copy, Clone, Debug)]
        #[repr(u8)]
        enum Slot {
            $($field,)+
        }

        impl Expansions {
            /// Every expansion's state at the start of a game of `config` (room for
            /// `tiles` placements).
            pub(crate) fn new(config: &GameConfig, tiles: usize) -> Expansions {
                let mut in_play = 0;
                $(if <$ty as Expansion>::in_play(config) {
                    in_play |= 1 << Slot::$field as u32;
                })+
                Expansions {
                    in_play,
                    $($field: <$ty as Expansion>::new(
                        config,
                        if in_play & (1 << Slot::$field as u32) != 0 { tiles } else { 0 },
                    ),)+
                }
            }

            /// Whether an expansion in play lets its follower-like `figure` stand on a
            /// feature of `kind` in a game of `config` ([`Expansion::figure_fits`]; the
            /// follower's own rule is the kernel's).
            pub(crate) fn figure_fits(&self, config: &GameConfig, figure: Figure, kind: FeatureKind) -> bool {
                false $(|| (self.in_play & (1 << Slot::$field as u32) != 0
                    && <$ty as Expansion>::figure_fits(config, figure, kind)))+
            }

            /// Every expansion's hash probes: (expansion, rule id, change).
            #[cfg(test)]
            #[allow(clippy::type_complexity)]
            pub(crate) fn hash_probes(
            ) -> Vec<(&'static str, &'static str, Box<dyn Fn(&mut Expansions)>)> {
                let mut probes: Vec<(&'static str, &'static str, Box<dyn Fn(&mut Expansions)>)> =
                    Vec::new();
                $(
                    for (rule, change) in <$ty as Expansion>::hash_probes() {
                        probes.push((
                            stringify!($field),
                            rule,
                            Box::new(move |e: &mut Expansions| change(&mut e.$field)),
                        ));
                    }
                )+
                probes
            }
        }

        /// The number of state tables of every expansion.
        const STATE_TABLE_COUNT: usize = 0 $(+ <$ty as Expansion>::STATE_TABLES.len())+;

        /// Every expansion's state tables ([`Expansion::STATE_TABLES`]), in list order.
        pub(crate) static STATE_TABLES: [StateTable; STATE_TABLE_COUNT] =
            crate::rules::state::concat_tables(&[$(<$ty as Expansion>::STATE_TABLES),+]);

        /// [`Expansion::default_figures`] of every expansion.
        pub(crate) fn default_figures(sets: &[TileSet], counts: &mut FigureCounts) {
            $(<$ty as Expansion>::default_figures(sets, counts);)+
        }

        /// [`Expansion::check_config`] of every expansion: the first error.
        pub(crate) fn check_config(config: &GameConfig) -> Result<(), ConfigError> {
            $(<$ty as Expansion>::check_config(config)?;)+
            Ok(())
        }

        /// [`Expansion::never_drawn`]: whether some expansion keeps the kind out of the
        /// pile.
        pub(crate) fn never_drawn(def: &TileDef) -> bool {
            false $(|| <$ty as Expansion>::never_drawn(def))+
        }

        /// [`Expansion::held_back`]: whether some expansion holds the kind back.
        pub(crate) fn held_back(def: &TileDef) -> bool {
            false $(|| <$ty as Expansion>::held_back(def))+
        }

        /// [`Expansion::adjust_pile`] of every expansion.
        pub(crate) fn adjust_pile(config: &GameConfig, counts: &mut [u8]) {
            $(<$ty as Expansion>::adjust_pile(config, counts);)+
        }

        /// [`Expansion::set_aside`]: the first tile an expansion sets aside.
        pub(crate) fn set_aside(config: &GameConfig) -> Option<TileKind> {
            $(if let Some(tile) = <$ty as Expansion>::set_aside(config) {
                return Some(tile);
            })+
            None
        }

        /// [`Expansion::tiles_beside_pile`] of every expansion, summed.
        pub(crate) fn tiles_beside_pile(config: &GameConfig) -> usize {
            0 $(+ <$ty as Expansion>::tiles_beside_pile(config))+
        }

        /// [`Expansion::log_room`] of every expansion, summed.
        pub(crate) fn log_room(config: &GameConfig, pile: &[u8]) -> usize {
            0 $(+ <$ty as Expansion>::log_room(config, pile))+
        }

        /// The fan-outs the kernel calls: each hook of every expansion in play, in list
        /// order.
        impl Game {
            /// Whether no expansion is in play (the base game alone). Every fan-out below
            /// that the kernel calls on each turn first asks this and returns its
            /// no-expansion answer: one test instead of one per expansion.
            #[inline(always)]
            fn no_expansion_in_play(&self) -> bool {
                self.expansions.in_play == 0
            }

            /// Whether the expansion of `slot` is in play.
            #[inline(always)]
            fn in_play(&self, slot: Slot) -> bool {
                self.expansions.in_play & (1 << slot as u32) != 0
            }

            /// [`Expansion::write_state`] of every expansion in play, its tables noted in
            /// play.
            pub(crate) fn write_state_rows(&self, out: &mut ExpansionState) {
                let mut first = 0;
                $(
                    let count = <$ty as Expansion>::STATE_TABLES.len() as u16;
                    if count > 0 && self.in_play(Slot::$field) {
                        <$ty as Expansion>::write_state(self, &mut StateWriter::new(out, first, count));
                    }
                    first += count;
                )+
                let _ = first;
            }

            /// [`Expansion::holds_back_tiles`]: whether some expansion holds back now.
            #[inline]
            pub(crate) fn holds_back_tiles(&self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::holds_back_tiles(self)))+
            }

            /// [`Expansion::held`] of every expansion.
            #[inline]
            pub(crate) fn held_tiles(&self, player: usize, counts: &mut FigureCounts) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::held(self, player, counts);
                })+
            }

            /// The features of placement `index` that figures may stand on: its
            /// catalogue features and [`Expansion::extra_features`].
            #[inline]
            pub(crate) fn tile_features(&self, index: usize) -> u8 {
                let own = self.board.placement(index).def().features.len() as u8;
                if self.no_expansion_in_play() {
                    return own;
                }
                own $(+ if self.in_play(Slot::$field) { <$ty as Expansion>::extra_features(self, index) } else { 0 })+
            }

            /// [`Expansion::crosses_sides`] of some expansion.
            #[inline]
            pub(crate) fn crosses_sides(&self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::crosses_sides(self)))+
            }

            /// [`Expansion::crossing_node`]: the first expansion's.
            #[inline]
            pub(crate) fn crossing_node(&self, index: usize, side: Side) -> Option<NodeId> {
                if self.no_expansion_in_play() {
                    return None;
                }
                $(if self.in_play(Slot::$field) {
                    if let Some(node) = <$ty as Expansion>::crossing_node(self, index, side) {
                        return Some(node);
                    }
                })+
                None
            }

            /// What a follower-like `figure` on the feature of `root` weighs in its
            /// majority (B13): 1, or what its expansion says ([`Expansion::figure_weight`]).
            #[inline]
            pub(crate) fn figure_strength(&self, figure: Figure, root: NodeId) -> u32 {
                if self.no_expansion_in_play() {
                    return 1;
                }
                $(if self.in_play(Slot::$field) {
                    if let Some(weight) = <$ty as Expansion>::figure_weight(self, figure, root) {
                        return weight;
                    }
                })+
                1
            }

            /// [`Expansion::feature_value`]: the first expansion's.
            #[inline]
            pub(crate) fn expansion_feature_value(&self, root: NodeId, tiles: u32, complete: bool) -> Option<i32> {
                if self.no_expansion_in_play() {
                    return None;
                }
                $(if self.in_play(Slot::$field) {
                    if let Some(value) = <$ty as Expansion>::feature_value(self, root, tiles, complete) {
                        return Some(value);
                    }
                })+
                None
            }

            /// [`Expansion::break_tie`] of every expansion, in turn.
            #[inline]
            pub(crate) fn break_tie(&self, root: NodeId, tied: u8) -> u8 {
                if self.no_expansion_in_play() {
                    return tied;
                }
                $(let tied = if self.in_play(Slot::$field) {
                    <$ty as Expansion>::break_tie(self, root, tied)
                } else {
                    tied
                };)+
                tied
            }

            /// [`Expansion::field_bonus_per_city`] of every expansion, summed.
            #[inline]
            pub(crate) fn field_bonus_per_city(&self, root: NodeId, player: u8) -> i32 {
                if self.no_expansion_in_play() {
                    return 0;
                }
                0 $(+ if self.in_play(Slot::$field) { <$ty as Expansion>::field_bonus_per_city(self, root, player) } else { 0 })+
            }

            /// [`Expansion::figure_barred_on`] of some expansion.
            #[inline]
            pub(crate) fn figure_barred_on(&self, index: usize) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::figure_barred_on(self, index)))+
            }

            /// [`Expansion::is_castle`] of some expansion.
            #[inline]
            pub(crate) fn is_castle(&self, root: NodeId) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::is_castle(self, root)))+
            }

            /// [`Expansion::field_extra_cities`] of every expansion, summed.
            #[inline]
            pub(crate) fn field_extra_cities(&self, root: NodeId) -> i32 {
                if self.no_expansion_in_play() {
                    return 0;
                }
                0 $(+ if self.in_play(Slot::$field) { <$ty as Expansion>::field_extra_cities(self, root) } else { 0 })+
            }

            /// [`Expansion::field_extra_points`] of every expansion, summed.
            #[inline]
            pub(crate) fn field_extra_points(&self, root: NodeId) -> i32 {
                if self.no_expansion_in_play() {
                    return 0;
                }
                0 $(+ if self.in_play(Slot::$field) { <$ty as Expansion>::field_extra_points(self, root) } else { 0 })+
            }

            /// [`Expansion::normalize`] of every expansion.
            pub(crate) fn normalize_expansion_action(&self, action: Action) -> Action {
                if self.no_expansion_in_play() {
                    return action;
                }
                $(let action = if self.in_play(Slot::$field) {
                    <$ty as Expansion>::normalize(self, action)
                } else {
                    action
                };)+
                action
            }

            /// The expansions that restrict placements of `tile`
            /// ([`Expansion::placement_restricted`]), a bit per slot: asked once per
            /// placement list, then passed to [`Game::placement_allowed_at`] and
            /// [`Game::placement_allowed_turned`].
            #[inline]
            pub(crate) fn placement_restricters(&self, tile: TileKind) -> u32 {
                if self.no_expansion_in_play() {
                    return 0;
                }
                let mut restricters = 0;
                $(if self.in_play(Slot::$field) && <$ty as Expansion>::placement_restricted(self, tile) {
                    restricters |= 1 << Slot::$field as u32;
                })+
                restricters
            }

            /// [`Expansion::placement_allowed_at`] of each of `restricters`.
            #[inline]
            pub(crate) fn placement_allowed_at(&self, restricters: u32, tile: TileKind, pos: Pos) -> bool {
                true $(&& (restricters & (1 << Slot::$field as u32) == 0
                    || <$ty as Expansion>::placement_allowed_at(self, tile, pos)))+
            }

            /// Those of `restricters` whose [`Expansion::placement_allowed_turned`] may
            /// answer no ([`Expansion::RESTRICTS_ROTATIONS`]).
            #[inline]
            pub(crate) fn rotation_restricters(restricters: u32) -> u32 {
                let mut restrict_rotations = 0;
                $(if <$ty as Expansion>::RESTRICTS_ROTATIONS {
                    restrict_rotations |= 1 << Slot::$field as u32;
                })+
                restricters & restrict_rotations
            }

            /// [`Expansion::placement_allowed_turned`] of each of `restricters`.
            #[inline]
            pub(crate) fn placement_allowed_turned(
                &self,
                restricters: u32,
                tile: TileKind,
                pos: Pos,
                rot: Rotation,
            ) -> bool {
                true $(&& (restricters & (1 << Slot::$field as u32) == 0
                    || <$ty as Expansion>::placement_allowed_turned(self, tile, pos, rot)))+
            }

            /// The expansions that may make misfits fit now
            /// ([`Expansion::misfits_possible`]), a bit per slot: asked once per
            /// placement list, then passed to [`Game::misfit_fit_table`] and
            /// [`Game::misfit_placements`].
            #[inline]
            pub(crate) fn misfit_makers(&self) -> u32 {
                if self.no_expansion_in_play() {
                    return 0;
                }
                let mut makers = 0;
                $(if self.in_play(Slot::$field) && <$ty as Expansion>::misfits_possible(self) {
                    makers |= 1 << Slot::$field as u32;
                })+
                makers
            }

            /// [`Expansion::misfit_fit_table`] of `tile` of the first of `makers` that
            /// has one (one expansion makes misfits fit: Bridges, Castles & Bazaars).
            #[inline]
            pub(crate) fn misfit_fit_table(makers: u32, tile: TileKind) -> Option<&'static FitTable> {
                $(if makers & (1 << Slot::$field as u32) != 0 {
                    if let Some(table) = <$ty as Expansion>::misfit_fit_table(tile) {
                        return Some(table);
                    }
                })+
                None
            }

            /// [`Expansion::misfit_placements`] of each of `makers`.
            #[inline]
            pub(crate) fn misfit_placements(
                &self,
                makers: u32,
                tile: TileKind,
                pos: Pos,
                rot: Rotation,
                required: (u16, u16),
                out: &mut Vec<Action>,
            ) {
                $(if makers & (1 << Slot::$field as u32) != 0 {
                    <$ty as Expansion>::misfit_placements(self, tile, pos, rot, required, out);
                })+
            }

            /// [`Expansion::may_discard_tile`] of some expansion.
            pub(crate) fn may_discard_tile(&self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::may_discard_tile(self)))+
            }

            /// A turn begins (before the tile is drawn): every expansion's per-turn
            /// state is reset, then [`Expansion::on_turn_start`].
            pub(crate) fn on_turn_start(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                self.reset_turn_state();
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_turn_start(self);
                })+
            }

            /// [`Expansion::reset_turn`] of every expansion.
            pub(crate) fn reset_turn_state(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::reset_turn(self);
                })+
            }

            /// [`Expansion::tile_instead_of_draw`]: the first expansion's.
            pub(crate) fn tile_instead_of_draw(&mut self) -> Option<TileKind> {
                if self.no_expansion_in_play() {
                    return None;
                }
                $(if self.in_play(Slot::$field) {
                    if let Some(tile) = <$ty as Expansion>::tile_instead_of_draw(self) {
                        return Some(tile);
                    }
                })+
                None
            }

            /// [`Expansion::tiles_held_to_place`] of some expansion.
            pub(crate) fn tiles_held_to_place(&self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::tiles_held_to_place(self)))+
            }

            /// [`Expansion::decision_before_draw`]: the first expansion that asks.
            pub(crate) fn decision_before_draw(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::decision_before_draw(self)))+
            }

            /// [`Expansion::before_turn_tile`] of every expansion.
            pub(crate) fn before_turn_tile(&mut self, placement: Action) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::before_turn_tile(self, placement);
                })+
            }

            /// [`Expansion::on_tile_put`] of every expansion.
            #[inline]
            pub(crate) fn on_tile_put(&mut self, index: u8) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_tile_put(self, index);
                })+
            }

            /// [`Expansion::on_tile_placed`] of every expansion.
            pub(crate) fn on_tile_placed(&mut self, index: u8) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_tile_placed(self, index);
                })+
            }

            /// [`Expansion::tile_after_placement`]: whether some expansion asks.
            pub(crate) fn tile_after_placement(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::tile_after_placement(self)))+
            }

            /// The tile drawn for [`Expansion::tile_after_placement`], to the expansion
            /// that asked for it.
            pub(crate) fn drawn_after_placement(&mut self, tile: TileKind) {
                let _taken = false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::drawn_after_placement(self, tile)))+;
                debug_assert!(_taken, "a tile drawn after the placement that no expansion asked for");
            }

            /// [`Expansion::on_tile_discarded`] of every expansion.
            pub(crate) fn on_tile_discarded(&mut self, tile: TileKind) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_tile_discarded(self, tile);
                })+
            }

            /// [`Expansion::second_tile_after`]: the first expansion's.
            pub(crate) fn second_tile_after(&mut self, index: u8) -> Option<TileKind> {
                if self.no_expansion_in_play() {
                    return None;
                }
                $(if self.in_play(Slot::$field) {
                    if let Some(tile) = <$ty as Expansion>::second_tile_after(self, index) {
                        return Some(tile);
                    }
                })+
                None
            }

            /// [`Expansion::exclusive_deploy_options`]: the first expansion's.
            pub(crate) fn exclusive_deploy_options(&self, out: &mut Vec<Action>) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::exclusive_deploy_options(self, out)))+
            }

            /// The expansions' choices beside a figure on the placed tile's features:
            /// every [`Expansion::deploy_options`], then every
            /// [`Expansion::instead_of_deploying`].
            pub(crate) fn deploy_options(&self, out: &mut Vec<Action>) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::deploy_options(self, out);
                })+
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::instead_of_deploying(self, out);
                })+
            }

            /// [`Expansion::decision_after_figure_action`]: the first expansion that asks.
            pub(crate) fn decision_after_figure_action(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::decision_after_figure_action(self)))+
            }

            /// [`Expansion::decision_after_deployment`]: the first expansion that asks.
            pub(crate) fn decision_after_deployment(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::decision_after_deployment(self)))+
            }

            /// [`Expansion::completed_beside_tiles`] of every expansion, noted among the
            /// turn's completed features ([`Game::note_completed`]).
            pub(crate) fn completed_beside_tiles(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if let Some(root) = self.in_play(Slot::$field).then(|| <$ty as Expansion>::completed_beside_tiles(self)).flatten() {
                    self.note_completed(root);
                })+
            }

            /// [`Expansion::decision_before_scoring`]: the first expansion that asks.
            pub(crate) fn decision_before_scoring(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::decision_before_scoring(self)))+
            }

            /// [`Expansion::on_feature_scored`] of every expansion.
            pub(crate) fn on_feature_scored(&mut self, root: NodeId, final_scoring: bool) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_feature_scored(self, root, final_scoring);
                })+
            }

            /// [`Expansion::on_figure_left`] of every expansion.
            pub(crate) fn on_figure_left(&mut self, figure: &BoardFigure) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_figure_left(self, figure);
                })+
            }

            /// [`Expansion::on_figure_scored`] of every expansion.
            pub(crate) fn on_figure_scored(&mut self, figure: BoardFigure) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_figure_scored(self, figure);
                })+
            }

            /// [`Expansion::after_turn_scoring`] of every expansion.
            pub(crate) fn after_turn_scoring(&mut self, placed: u8) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::after_turn_scoring(self, placed);
                })+
            }

            /// [`Expansion::on_turn_scored`] of every expansion: `scored` has a bit per
            /// index in [`Game::turn_completed`] of the features that scored.
            pub(crate) fn on_turn_scored(&mut self, scored: u64) {
                if self.no_expansion_in_play() {
                    return;
                }
                let roots = self.turn.completed;
                let roots = &roots[..self.turn.completed_len as usize];
                let mut scored_roots = [0; 48];
                let mut s = 0;
                for (k, &root) in roots.iter().enumerate() {
                    if scored & 1 << k != 0 {
                        scored_roots[s] = root;
                        s += 1;
                    }
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_turn_scored(self, roots, &scored_roots[..s]);
                })+
            }

            /// [`Expansion::decision_after_scoring`]: the first expansion that asks.
            pub(crate) fn decision_after_scoring(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::decision_after_scoring(self)))+
            }

            /// [`Expansion::at_end_of_turn`]: the first expansion that is not done.
            pub(crate) fn at_end_of_turn(&mut self) -> TurnEnd {
                if self.no_expansion_in_play() {
                    return TurnEnd::Done;
                }
                $(if self.in_play(Slot::$field) {
                    match <$ty as Expansion>::at_end_of_turn(self) {
                        TurnEnd::Done => {}
                        asked => return asked,
                    }
                })+
                TurnEnd::Done
            }

            /// The tile drawn for [`TurnEnd::Draw`], to the expansion that asked for it.
            pub(crate) fn drawn_at_end_of_turn(&mut self, tile: TileKind) {
                let _taken = false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::drawn_at_end_of_turn(self, tile)))+;
                debug_assert!(_taken, "a tile drawn at the end of the turn that no expansion asked for");
            }

            /// [`Expansion::another_turn`] of some expansion.
            pub(crate) fn another_turn(&self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::another_turn(self)))+
            }

            /// Applies a decision that an expansion owns ([`Expansion::apply`]); returns
            /// whether the pipeline moves on.
            pub(crate) fn apply_expansion_action(&mut self, player: u8, action: Action) -> bool {
                $(if let Some(moves_on) = self.in_play(Slot::$field).then(|| <$ty as Expansion>::apply(self, player, action)).flatten() {
                    return moves_on;
                })+
                true
            }

            /// [`Expansion::complete_legal`] of every expansion.
            pub(crate) fn complete_expansion_legal(&mut self, phase: Phase) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::complete_legal(self, phase);
                })+
            }

            /// [`Expansion::on_game_end`] of every expansion.
            pub(crate) fn on_game_end(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::on_game_end(self);
                })+
            }

            /// [`Expansion::end_round_decision`]: the first expansion that asks.
            pub(crate) fn end_round_decision(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::end_round_decision(self)))+
            }

            /// [`Expansion::before_final_moves`] of every expansion.
            pub(crate) fn before_final_moves(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::before_final_moves(self);
                })+
            }

            /// [`Expansion::final_move_decision`]: the first expansion that asks.
            pub(crate) fn final_move_decision(&mut self) -> bool {
                if self.no_expansion_in_play() {
                    return false;
                }
                false $(|| (self.in_play(Slot::$field) && <$ty as Expansion>::final_move_decision(self)))+
            }

            /// Final scoring of every expansion ([`Expansion::final_scoring`]), after
            /// incomplete features and farmers.
            pub(crate) fn final_scoring_extras(&mut self) {
                if self.no_expansion_in_play() {
                    return;
                }
                $(if self.in_play(Slot::$field) {
                    <$ty as Expansion>::final_scoring(self);
                })+
            }
        }
    };
}
