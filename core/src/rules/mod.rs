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
//!
//! The base game's rules (B1–B17) are the turn pipeline in [`crate::game`] and the
//! scoring in [`crate::scoring`]. An expansion's state is a struct of its module with
//! private fields (`Expansions` holds one of each); the pipeline calls into the
//! expansions only through the hooks below: events (a turn starts, a tile is placed, a
//! feature is scored, ...), questions (may this tile lie here, what may this figure
//! stand on, what does it weigh in a majority) and decisions the pipeline stops for
//! (before the draw, after the deployment, before and after scoring, at the end of the
//! turn, where an expansion may also ask for tiles from the pile: `TurnEnd`). The
//! kernel applies draws, placements and deployments; every other
//! decision is applied and listed by the module that owns it
//! (`Game::apply_expansion_action`, `Game::complete_expansion_legal`). Its rule
//! switches are declared in the module too and gathered in [`crate::config::Rules`].
//!
//! # Adding an expansion
//!
//! 1. Its tiles in `data/tiles.txt` (generated from the catalogue) and its set in
//!    [`crate::tiles::TileSet`]; its switches as enums in its module, each one line of
//!    `rule_switches!` in `config.rs` (the struct [`crate::config::Rules`], the `rules`
//!    object and the command line's help follow from it).
//! 2. A module here with its state struct (a field of `Expansions`) and its rules as
//!    methods; it reads and changes the kernel (board, features, figures, scores)
//!    through the game and its own state only.
//! 3. Its calls in the hooks below, and, for a new decision, a [`crate::game::Phase`],
//!    its [`crate::action::Action`] variants (each one entry of `action.rs`'s `actions!`:
//!    the record type name, the documentation and the typed fields, from which the
//!    schema, the conversions and, through `python/tools/gen_actions.py`, the Python
//!    classes follow), its arm in
//!    `Game::apply_expansion_action` and, if the pipeline must stop for it, a hook at the
//!    step where it is asked. New values of the kernel's enums (phases, figures, score
//!    kinds, symbols) go at the end of their lists.
//! 4. The generated code of the front ends, regenerated: the C ABI's mirrored enums and
//!    the header (`CARC_BLESS_HEADER=1 cargo test -p carcassonne-ffi --lib
//!    tests::header`), then the C# binding (`python3 tools/gen_csharp.py`) and the Python
//!    action classes (`python/tools/gen_actions.py`); tests fail until they are current.

pub mod abbey_mayor;
pub mod abbot;
pub mod bcb;
pub mod count;
pub mod cult;
pub mod king_robber;
pub mod princess_dragon;
pub mod river;

use crate::action::Action;
use crate::config::{DragonMove, Figure, GameConfig};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase};
use crate::geometry::{Pos, Rotation};
use crate::tiles::{FeatureKind, TileKind};

/// The state of every expansion, each owned by its module.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Expansions {
    pub(crate) river: river::River,
    pub(crate) dragon: princess_dragon::PrincessDragon,
    pub(crate) abbey: abbey_mayor::AbbeyMayor,
    pub(crate) king: king_robber::KingRobber,
    pub(crate) count: count::Count,
    pub(crate) bcb: bcb::Bcb,
}

impl Expansions {
    /// Every expansion's state at the start of a game of `config` (room for `tiles`
    /// placements).
    pub(crate) fn new(config: &GameConfig, tiles: usize) -> Expansions {
        Expansions {
            river: river::River::with_capacity(tiles),
            dragon: princess_dragon::PrincessDragon::default(),
            abbey: abbey_mayor::AbbeyMayor::new(config),
            king: king_robber::KingRobber::default(),
            count: count::Count::new(config.players),
            bcb: bcb::Bcb::new(config, tiles),
        }
    }
}

/// What the end-of-turn hook ([`Game::at_end_of_turn`]) asks of the pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TurnEnd {
    /// A decision: the game waits for it.
    Decide,
    /// A tile from the pile for an expansion: sampled, or asked for as a chance outcome
    /// in explicit-chance mode; it goes to [`Game::drawn_at_end_of_turn`].
    Draw,
    /// Nothing (more) before the next turn.
    Done,
}

/// The hooks: where the turn pipeline and the scoring call into the expansions.
impl Game {
    /// Applies a decision that an expansion owns: its actions, and a pass in one of its
    /// phases (the kernel applies draws, placements and deployments). Returns whether the
    /// pipeline moves on; `false` while the same decision continues (a dragon flight's
    /// next step, PD5).
    pub(crate) fn apply_expansion_action(&mut self, player: u8, action: Action) -> bool {
        match action {
            Action::PlaceAbbey { .. } | Action::DeployBarn { .. } | Action::MoveWagon { .. } => {
                self.apply_abbey_mayor(player, action)
            }
            Action::Pass if matches!(self.phase, Phase::Abbey | Phase::WagonMove) => {
                self.apply_abbey_mayor(player, action)
            }
            Action::MoveFairy { .. } | Action::Princess { .. } | Action::MoveDragon { .. } => {
                return self.apply_princess_dragon(player, action);
            }
            Action::ReturnAbbot { .. } => self.apply_abbot(player, action),
            Action::LeaveQuarter { .. }
            | Action::QuarterPass { .. }
            | Action::DeployQuarter { .. }
            | Action::MoveCount { .. } => self.apply_count(player, action),
            Action::PlaceBridge { .. }
            | Action::BuildCastle { .. }
            | Action::CastlePass
            | Action::BazaarSelect { .. }
            | Action::BazaarBid { .. }
            | Action::BazaarPass
            | Action::BazaarBuyOrSell { .. } => self.apply_bcb(player, action),
            Action::Draw { .. }
            | Action::PlaceTile { .. }
            | Action::Deploy { .. }
            | Action::Pass => {}
        }
        true
    }

    /// Whether an expansion's follower-like `figure` may stand on a feature of `kind`
    /// (the follower's own test is the kernel's, [`Game::figure_fits`]).
    pub(crate) fn expansion_figure_fits(&self, figure: Figure, kind: FeatureKind) -> bool {
        match figure {
            Figure::Abbot => kind.is_cloister(),
            Figure::Mayor | Figure::Wagon | Figure::Barn => abbey_mayor::figure_fits(figure, kind),
            Figure::Follower => false,
        }
    }

    /// What a follower-like `figure` standing on feature node `node` weighs in the
    /// majority on its feature (B13): 1, or the city's pennants for a mayor (AM5).
    pub fn figure_weight(&self, figure: Figure, node: NodeId) -> u32 {
        self.figure_strength(figure, self.features().root(node))
    }

    /// [`Game::figure_weight`] on the feature of `root`.
    #[inline]
    pub(crate) fn figure_strength(&self, figure: Figure, root: NodeId) -> u32 {
        match figure {
            Figure::Mayor => self.mayor_strength(root),
            _ => 1,
        }
    }

    /// The tile the turn player places instead of drawing, taken into his hand: his
    /// bazaar tile (BZ4).
    pub(crate) fn tile_instead_of_draw(&mut self) -> Option<crate::tiles::TileKind> {
        self.take_bazaar_tile()
    }

    /// Whether players still hold tiles to place when the pile is empty (bazaar tiles,
    /// BZ4): the game does not end before they are placed.
    pub(crate) fn tiles_held_to_place(&self) -> bool {
        self.bazaar_tiles_held()
    }

    /// Whether the turn player has a decision before drawing (the abbey, AM1); the
    /// game then waits for it.
    pub(crate) fn decision_before_draw(&mut self) -> bool {
        self.abbey_decision()
    }

    /// Whether a decision follows the deployment: the dragon's flight (PD4, by default);
    /// the game then waits for it.
    pub(crate) fn decision_after_deployment(&mut self) -> bool {
        self.flight_starts(DragonMove::BeforeScoring)
    }

    /// Whether a decision on the turn's completed features comes before they score:
    /// castles (CA1), then figures leaving the City of Carcassonne (CC4); the game then
    /// waits for it. Called again after each such decision.
    pub(crate) fn decision_before_scoring(&mut self) -> bool {
        self.next_castle_decision() || self.next_leave_decision()
    }

    /// What ends the turn: the dragon's flight under `dragon_move: after-scoring` (PD4),
    /// then a bazaar (BZ1–BZ3): its offer drawn tile by tile, then its auctions. Called
    /// again after each decision and each draw until it says [`TurnEnd::Done`].
    pub(crate) fn at_end_of_turn(&mut self) -> TurnEnd {
        if self.flight_starts(DragonMove::AfterScoring) {
            return TurnEnd::Decide;
        }
        self.bazaar_at_end_of_turn()
    }

    /// The tile drawn for [`TurnEnd::Draw`] (a bazaar's offer, BZ1).
    pub(crate) fn drawn_at_end_of_turn(&mut self, tile: crate::tiles::TileKind) {
        self.bazaar_drawn(tile);
    }

    /// Whether a decision follows the turn's scoring: wagon moves (AM11), then a figure
    /// into the City of Carcassonne and the count's move (CC3); the game then waits for
    /// it. Called again after each such decision.
    pub(crate) fn decision_after_scoring(&mut self) -> bool {
        self.next_wagon_decision() || self.next_city_entry_decision()
    }

    /// Completes the legal list of a decision of an expansion's `phase` (see
    /// [`Game::complete_legal`]).
    pub(crate) fn complete_expansion_legal(&mut self, phase: Phase) {
        if matches!(phase, Phase::Abbey | Phase::WagonMove) {
            self.abbey_mayor_legal(phase);
        }
    }

    /// A turn begins (before the tile is drawn): per-turn state reset, the fairy's point
    /// (PD16b).
    pub(crate) fn on_turn_start(&mut self) {
        self.reset_turn_state();
        self.fairy_turn_point();
    }

    /// Every expansion's per-turn state is reset: at the start of a turn, and at each turn
    /// of the end-of-game abbey round (AM4), whose abbey completes features that then go
    /// through the turn's steps like any tile's (castles CA1, leaving the City CC4,
    /// wagons AM11, entering the City CC3).
    pub(crate) fn reset_turn_state(&mut self) {
        self.abbey_mayor_turn_start();
        self.count_turn_start();
        self.bcb_turn_start();
    }

    /// Whether placements of `tile` are checked by [`Game::placement_allowed_at`] and [`Game::placement_allowed_turned`] beyond the
    /// side match (a river tile, a cloister with the Cult).
    pub(crate) fn placement_restricted(&self, tile: TileKind) -> bool {
        tile.def().has(crate::tiles::Symbols::RIVER) || self.cult_restricts(tile)
    }

    /// Whether `tile` may lie at `pos` beyond the side match (B4), whatever its rotation:
    /// no shrine or monastery with two rivals (CU2).
    pub(crate) fn placement_allowed_at(&self, tile: TileKind, pos: Pos) -> bool {
        self.cult_allows(tile, pos)
    }

    /// Whether `tile` may lie at `pos` turned by `rot`, once [`Game::placement_allowed_at`]
    /// holds: the river's course (R2).
    pub(crate) fn placement_allowed_turned(&self, tile: TileKind, pos: Pos, rot: Rotation) -> bool {
        self.river_allows(tile, pos, rot)
    }

    /// The turn's tile (not an abbey) was placed at placement `index`.
    pub(crate) fn on_tile_placed(&mut self, index: u8) {
        self.river_placed(index);
        self.volcano_placed(index);
        self.bazaar_tile_placed(index);
    }

    /// A tile that fits nowhere was discarded (B5).
    pub(crate) fn on_tile_discarded(&mut self, tile: TileKind) {
        self.river_tile_discarded(tile);
    }

    /// A second tile that the turn player places right after the tile at placement
    /// `index`, in the same turn (R6: the city lake after the volcano lake).
    pub(crate) fn second_tile_after(&mut self, index: u8) -> Option<TileKind> {
        self.lake_after(index)
    }

    /// Whether no figure may be put on placement `index`: the dragon's tile (PD13b), a
    /// volcano tile (PD1, R6), a closed square of the City of Carcassonne (CC8).
    pub(crate) fn figure_barred_on(&self, index: usize) -> bool {
        self.dragon_bars(index)
            || self.volcano_bars(index)
            || self.volcano_lake_bars(index)
            || self.count_bars(index)
    }

    /// Deployment choices that replace all others when present (the princess under
    /// `princess: must`, PD9); whether they do.
    pub(crate) fn exclusive_deploy_options(&self, out: &mut Vec<Action>) -> bool {
        self.princess_actions(out)
    }

    /// The expansions' choices beside a figure on the placed tile: portal targets
    /// (PD12), barns (AM6), fairy moves (PD15), abbot retrievals (A3), a bridge (BR1).
    pub(crate) fn deploy_options(&self, out: &mut Vec<Action>) {
        self.portal_deploys(out);
        self.barn_actions(out);
        self.fairy_moves(out);
        self.abbot_returns(out);
        self.bridge_actions(out);
    }

    /// A figure left the board (returned to its supply by any rule).
    pub(crate) fn on_figure_left(&mut self, figure: &BoardFigure) {
        self.fairy_figure_left(figure);
    }

    /// A feature of root `root` was scored during play or, with `final_scoring`, at the
    /// end (before its figures return): the fairy's bonus (PD16c).
    pub(crate) fn on_feature_scored(&mut self, root: NodeId, final_scoring: bool) {
        self.fairy_bonus(root, final_scoring);
    }

    /// A figure returned from a feature that scored during play: a wagon may move on
    /// (AM11).
    pub(crate) fn on_figure_scored(&mut self, figure: BoardFigure) {
        if figure.figure == crate::config::Figure::Wagon {
            self.wagon_scored(figure);
        }
    }

    /// After the completed features of the turn scored: barn fields (AM7, AM8) of the
    /// tile at placement `placed`.
    pub(crate) fn after_turn_scoring(&mut self, placed: u8) {
        self.barn_joins(placed);
    }

    /// The turn's scoring is done: `roots` were completed by the turn, `scored` of them
    /// held figures and scored. Shrine challenges (CU3), castles (CA3), then the King and
    /// the Robber Baron (KR1, KR2).
    pub(crate) fn on_turn_scored(&mut self, roots: &[NodeId], scored: &[NodeId]) {
        self.resolve_challenges(roots, scored);
        self.castles_score(roots);
        self.award_titles(roots);
    }

    /// Whether the city of root `root` was turned into a castle (CA1: no city any more).
    pub(crate) fn is_castle(&self, root: NodeId) -> bool {
        !self.ext.bcb.castles.is_empty() && self.castle_on(root)
    }

    /// The last tile was placed: the expansions' end-of-game rounds begin (AM4).
    pub(crate) fn on_game_end(&mut self) {
        self.begin_abbey_round();
    }

    /// Final scoring, after incomplete features and farmers: barns (AM9), the King and
    /// the Robber Baron (KR3).
    pub(crate) fn final_scoring_extras(&mut self) {
        self.barn_final_scoring();
        self.title_final_scoring();
    }
}
