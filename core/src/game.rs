//! The game state and its decision model: `legal_actions`, `apply`, chance, history.
//!
//! A game advances by decisions. At any point it is terminal, waiting for a decision of
//! one player ([`Game::to_play`]), or, in explicit-chance mode, waiting for the tile drawn.
//! Steps with no choice (nothing to deploy, a wagon with nowhere to go) are taken by the
//! engine itself. The turn order of `docs/rules.md` §8 is the engine's internal turn pipeline; each
//! expansion's rules live in their own module under `rules/` and are switched on by the
//! sets in the configuration.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! let mut game = Game::new(GameConfig::new(2)).unwrap();
//! let mut actions = Vec::new();
//! while !game.is_terminal() {
//!     game.legal_actions_into(&mut actions);
//!     game.apply(actions[0]).unwrap();
//! }
//! assert_eq!(game.scores().len(), 2);
//! ```

use crate::action::Action;
use crate::board::{packed_requirement, Board, FitTable, FrontierSquare};
use crate::config::{ConfigError, Figure, Figures, GameConfig, RuleSwitches, MAX_PLAYERS};
use crate::deck::Deck;
use crate::features::{Features, NodeId};
use crate::geometry::{Corner, Pos, Rotation, Side};
use crate::rng::Rng;
use crate::rules::{Expansions, TurnEnd};
use crate::tiles::{catalogue, FeatureKind, Symbols, TileKind, TileSet, NO_FEATURE};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

mod events;
mod figures;
mod history;
mod turn;

pub use events::{
    Event, Events, FigureReturn, ReturnCause, ScoreEvent, ScoreKind, ScoredFeature, ScoredParts,
};
pub use history::{Decision, TurnLog};

/// How tile draws are decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ChanceMode {
    /// The engine draws from its seeded generator (default).
    #[default]
    Sampled,
    /// The caller applies [`Action::Draw`] (see [`Game::chance_outcomes`]).
    Explicit,
}

crate::named_enum! {
    /// What kind of decision the game waits for.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub enum Phase {
        /// Place the abbey instead of drawing, or pass and draw (AM1), also the end-of-game
        /// abbey round (AM4).
        Abbey = "abbey",
        /// Explicit chance: the tile drawn.
        Draw = "draw",
        /// Place the drawn tile.
        PlaceTile = "place_tile",
        /// Deploy a figure, move the fairy, use the princess, take the abbot back, or pass.
        Deploy = "deploy",
        /// One step of the dragon's flight.
        DragonFlight = "dragon_flight",
        /// Move a wagon after scoring, or pass.
        WagonMove = "wagon_move",
        /// The game is over.
        GameOver = "game_over",
        /// Move a figure out of the City of Carcassonne onto a feature, or pass (CC4 before
        /// the turn's scoring, CC6 before final scoring).
        LeaveQuarter = "leave_quarter",
        /// Put a figure into a quarter of the City of Carcassonne, or pass (CC3).
        EnterQuarter = "enter_quarter",
        /// Move the count to another quarter, or pass (CC3).
        MoveCount = "move_count",
        /// Turn a just completed two-tile city into a castle, or pass (CA1).
        Castle = "castle",
        /// Pick a tile of the bazaar's offer and open the bidding (BZ2).
        BazaarSelect = "bazaar_select",
        /// Raise the bid on the picked bazaar tile, or pass (BZ2).
        BazaarBid = "bazaar_bid",
        /// Buy the outbid tile or sell it to the highest bidder (BZ3).
        BazaarBuyOrSell = "bazaar_buy_or_sell",
        /// Take a figure in reach of the tower just raised prisoner, or pass (TW3).
        Capture = "capture",
        /// Pick which of his figures the capturer gets back in a prisoner exchange (TW4).
        ExchangePrisoner = "exchange_prisoner",
        /// Grow the flock of the shepherd whose field the turn's tile extended, or herd it
        /// into the fold (HS2).
        Flock = "flock",
        /// Explicit chance: the token drawn from the bag for a shepherd (HS1, HS2).
        DrawToken = "draw_token",
    }
}

impl Phase {
    /// Whether the game waits for a chance outcome rather than a player's decision: a
    /// tile ([`Phase::Draw`]) or a token of the bag ([`Phase::DrawToken`]), applied by the
    /// caller only in explicit-chance mode.
    pub const fn is_chance(self) -> bool {
        matches!(self, Phase::Draw | Phase::DrawToken)
    }
}

/// Where the turn pipeline stands (`docs/rules.md` §8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TurnStep {
    Start,
    /// A decision before the draw (an abbey, AM1), if an expansion offers one.
    BeforeDraw,
    Draw,
    Place,
    /// A tile from the pile that an expansion takes after the placement (HS3: under a
    /// hill), if one asks.
    AfterPlace,
    Deploy,
    /// A decision after the deployment (the dragon's flight, PD4), if an expansion has one.
    AfterDeployment,
    /// The turn's completed features are known.
    Resolve,
    /// Decisions on completed features before they score (castles, CA1; figures leaving
    /// the City of Carcassonne, CC4), one at a time.
    BeforeScoring,
    Score,
    /// Decisions after the turn's scoring (wagon moves, AM11; entering the City of
    /// Carcassonne, CC3), one at a time.
    AfterScoring,
    /// Decisions and draws at the end of the turn (the dragon's flight under
    /// `dragon_move: after-scoring`, PD4; a bazaar, BZ1–BZ3), one at a time.
    EndOfTurn,
    End,
    EndRound,
    FinalMoves,
    Over,
}

/// A figure standing on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardFigure {
    /// Owner's seat.
    pub owner: u8,
    /// Kind.
    pub figure: Figure,
    /// Placement index of its tile.
    pub placement: u8,
    /// Local feature index (barns: the corner index).
    pub local: u8,
    /// Feature node it stands on (barns: the field at the corner).
    pub node: NodeId,
}

impl BoardFigure {
    /// The corner of its tile the figure stands on, for a figure that stands on a corner
    /// rather than on a feature (a barn, AM6).
    pub fn corner(&self) -> Option<Corner> {
        (!self.figure.stands_on_feature()).then(|| Corner::from_index(self.local as usize))
    }
}

/// Why an action was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The game is over.
    GameOver,
    /// The action is not among the legal actions now.
    Illegal {
        /// The refused action.
        action: Action,
        /// The decision the game waits for.
        phase: Phase,
    },
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::GameOver => write!(f, "the game is over"),
            ActionError::Illegal { action, phase } => {
                write!(
                    f,
                    "{action} is not legal now (the game waits for {phase:?})"
                )
            }
        }
    }
}

impl std::error::Error for ActionError {}

/// Per-turn state. The entries of `completed` past `completed_len` are left over from
/// earlier turns and mean nothing (so the type has no equality or hash of its own).
#[derive(Copy, Clone, Debug)]
pub(crate) struct TurnState {
    /// Placement index of the tile (or abbey) placed this turn (the last one when the
    /// turn places two, R6).
    pub placed: Option<u8>,
    /// Placement index of the first tile of a turn that places two (R6).
    pub first_placed: Option<u8>,
    /// Seats that scored points for features this turn (bit per seat; CC3).
    pub feature_scorers: u8,
    /// Roots of the features the turn's placements completed (known from the resolve
    /// step on).
    pub completed: [NodeId; 48],
    /// How many of `completed` are set.
    pub completed_len: u8,
    /// Tile drawn this turn.
    pub drawn: Option<TileKind>,
    /// A second tile of this turn that fitted nowhere (R6, B5): logged as a discard of
    /// its own when the turn ends.
    pub second_discarded: Option<TileKind>,
}

impl Default for TurnState {
    fn default() -> TurnState {
        TurnState {
            placed: None,
            first_placed: None,
            drawn: None,
            second_discarded: None,
            feature_scorers: 0,
            completed: [0; 48],
            completed_len: 0,
        }
    }
}

impl TurnState {
    /// The state at the start of a turn, `completed`'s stale entries kept.
    fn reset(&mut self) {
        self.placed = None;
        self.first_placed = None;
        self.drawn = None;
        self.second_discarded = None;
        self.feature_scorers = 0;
        self.completed_len = 0;
    }
}

/// A game in progress.
///
/// `clone_from` copies a game into another game's memory: once the target's lists are
/// as long as the source's, it allocates nothing (a search copies its root game so for
/// every iteration).
#[derive(Debug)]
pub struct Game {
    pub(crate) config: Arc<GameConfig>,
    pub(crate) rules: RuleSwitches,
    /// The follower-like figures that may stand on each kind of feature (a bit per
    /// [`Figure::index`], by [`FeatureKind`]): a fact of the configuration.
    pub(crate) stands_on: [u16; FeatureKind::ALL.len()],
    pub(crate) players: u8,
    pub(crate) sets: u16,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) figures: Vec<BoardFigure>,
    pub(crate) supply: [[u8; Figure::ALL.len()]; MAX_PLAYERS],
    pub(crate) scores: [i32; MAX_PLAYERS],
    pub(crate) deck: Deck,
    pub(crate) rng: Rng,
    pub(crate) chance: ChanceMode,
    pub(crate) phase: Phase,
    pub(crate) step: TurnStep,
    pub(crate) turn_player: u8,
    pub(crate) to_play: u8,
    pub(crate) turn: TurnState,
    /// Every expansion's state, each owned by its module under `rules/`.
    pub(crate) expansions: Expansions,
    /// The seat that placed (or discarded) the last tile.
    pub(crate) end_from: u8,
    /// The pile is empty: the game is in its end-of-game rounds (AM4).
    pub(crate) ending: bool,
    /// The turn in progress is the turn player's extra turn (TB4).
    pub(crate) extra_turn: bool,
    pub(crate) events: Vec<ScoreEvent>,
    /// Figures that left the board, in order.
    pub(crate) returns: Vec<FigureReturn>,
    /// Every join of two features, in order (for [`Game::scored_parts`]).
    pub(crate) joins: Vec<(NodeId, NodeId)>,
    pub(crate) turns: Vec<TurnLog>,
    pub(crate) decisions: Vec<Decision>,
    pub(crate) turn_open: bool,
    pub(crate) stamp: Vec<u32>,
    pub(crate) stamp_value: u32,
    /// The legal actions of the current decision, computed once when the game reaches
    /// it (empty when the game is over).
    pub(crate) legal: Vec<Action>,
    pub(crate) final_scored: bool,
    /// The figures on the board when final scoring began (empty before), kept for
    /// views of the finished board; sized at creation like `figures`.
    pub(crate) figures_at_final_scoring: Vec<BoardFigure>,
    /// Whether a figure left the board or was deployed since every builder and pig on it
    /// was last found accompanied (TB6, `rules/traders_builders.rs`). Only a figure
    /// leaving can take a builder's or pig's companions away (features only ever join),
    /// so while this is false that check has nothing to find.
    pub(crate) figures_changed: bool,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            config: self.config.clone(),
            rules: self.rules,
            stands_on: self.stands_on,
            players: self.players,
            sets: self.sets,
            board: self.board.clone(),
            features: self.features.clone(),
            figures: self.figures.clone(),
            supply: self.supply,
            scores: self.scores,
            deck: self.deck.clone(),
            rng: self.rng.clone(),
            chance: self.chance,
            phase: self.phase,
            step: self.step,
            turn_player: self.turn_player,
            to_play: self.to_play,
            turn: self.turn,
            expansions: self.expansions.clone(),
            end_from: self.end_from,
            ending: self.ending,
            extra_turn: self.extra_turn,
            events: self.events.clone(),
            returns: self.returns.clone(),
            joins: self.joins.clone(),
            turns: self.turns.clone(),
            decisions: self.decisions.clone(),
            turn_open: self.turn_open,
            stamp: self.stamp.clone(),
            stamp_value: self.stamp_value,
            legal: self.legal.clone(),
            final_scored: self.final_scored,
            figures_at_final_scoring: self.figures_at_final_scoring.clone(),
            figures_changed: self.figures_changed,
        }
    }

    /// Copies `source` into this game's memory (every list keeps its allocation when it
    /// is large enough), the same game [`Clone::clone`] would give.
    fn clone_from(&mut self, source: &Game) {
        let Game {
            config,
            rules,
            stands_on,
            players,
            sets,
            board,
            features,
            figures,
            supply,
            scores,
            deck,
            rng,
            chance,
            phase,
            step,
            turn_player,
            to_play,
            turn,
            expansions,
            end_from,
            ending,
            extra_turn,
            events,
            returns,
            joins,
            turns,
            decisions,
            turn_open,
            stamp,
            stamp_value,
            legal,
            final_scored,
            figures_at_final_scoring,
            figures_changed,
        } = source;
        self.config.clone_from(config);
        self.rules = *rules;
        self.stands_on = *stands_on;
        self.players = *players;
        self.sets = *sets;
        self.board.clone_from(board);
        self.features.clone_from(features);
        self.figures.clone_from(figures);
        self.supply = *supply;
        self.scores = *scores;
        self.deck.clone_from(deck);
        self.rng.clone_from(rng);
        self.chance = *chance;
        self.phase = *phase;
        self.step = *step;
        self.turn_player = *turn_player;
        self.to_play = *to_play;
        self.turn = *turn;
        self.expansions.clone_from(expansions);
        self.end_from = *end_from;
        self.ending = *ending;
        self.extra_turn = *extra_turn;
        self.events.clone_from(events);
        self.returns.clone_from(returns);
        self.joins.clone_from(joins);
        self.turns.clone_from(turns);
        self.decisions.clone_from(decisions);
        self.turn_open = *turn_open;
        self.stamp.clone_from(stamp);
        self.stamp_value = *stamp_value;
        self.legal.clone_from(legal);
        self.final_scored = *final_scored;
        self.figures_at_final_scoring
            .clone_from(figures_at_final_scoring);
        self.figures_changed = *figures_changed;
    }
}

/// The memory of a finished game, emptied for the next one ([`Game::restart`]): its
/// board, features, pile and lists.
struct Spare {
    board: Board,
    features: Features,
    figures: Vec<BoardFigure>,
    deck: Deck,
    events: Vec<ScoreEvent>,
    returns: Vec<FigureReturn>,
    joins: Vec<(NodeId, NodeId)>,
    turns: Vec<TurnLog>,
    decisions: Vec<Decision>,
    stamp: Vec<u32>,
    legal: Vec<Action>,
    figures_at_final_scoring: Vec<BoardFigure>,
}

impl Spare {
    /// No memory yet: a new game allocates its own.
    fn none() -> Spare {
        Spare {
            board: Board::unallocated(),
            features: Features::default(),
            figures: Vec::new(),
            deck: Deck::default(),
            events: Vec::new(),
            returns: Vec::new(),
            joins: Vec::new(),
            turns: Vec::new(),
            decisions: Vec::new(),
            stamp: Vec::new(),
            legal: Vec::new(),
            figures_at_final_scoring: Vec::new(),
        }
    }

    /// Takes the memory of `game`, whose lists are left empty.
    fn take_from(game: &mut Game) -> Spare {
        use std::mem::take;
        Spare {
            board: std::mem::replace(&mut game.board, Board::unallocated()),
            features: take(&mut game.features),
            figures: take(&mut game.figures),
            deck: take(&mut game.deck),
            events: take(&mut game.events),
            returns: take(&mut game.returns),
            joins: take(&mut game.joins),
            turns: take(&mut game.turns),
            decisions: take(&mut game.decisions),
            stamp: take(&mut game.stamp),
            legal: take(&mut game.legal),
            figures_at_final_scoring: take(&mut game.figures_at_final_scoring),
        }
    }
}

/// `list` emptied, with room for `capacity` items (allocated only if it had less).
fn emptied<T>(mut list: Vec<T>, capacity: usize) -> Vec<T> {
    list.clear();
    list.reserve_exact(capacity);
    list
}

impl Game {
    /// A new game in sampled-chance mode, started and advanced to its first decision.
    pub fn new(config: GameConfig) -> Result<Game, ConfigError> {
        Game::with_chance(config, ChanceMode::Sampled)
    }

    /// A new game with the given chance mode.
    pub fn with_chance(config: GameConfig, chance: ChanceMode) -> Result<Game, ConfigError> {
        config.validate()?;
        Ok(Game::build(Arc::new(config), chance, Spare::none()))
    }

    /// Starts this game again with seed `seed`: the game [`Game::with_chance`] makes of
    /// the same configuration (that seed) and chance mode, built in this game's memory.
    /// Playing many games one after another this way allocates almost nothing per game
    /// (the start tiles' list, and the state of expansions that keep lists); the
    /// batched environments and the benchmark do.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig};
    ///
    /// let mut config = GameConfig::new(2);
    /// config.seed = 7;
    /// let mut game = Game::new(config.clone()).unwrap();
    /// while !game.is_terminal() {
    ///     let first = game.legal()[0];
    ///     game.apply_unchecked(first);
    /// }
    /// game.restart(8);
    /// config.seed = 8;
    /// let fresh = Game::new(config).unwrap();
    /// assert_eq!(game.legal(), fresh.legal());
    /// assert_eq!(game.state_hash(), fresh.state_hash());
    /// ```
    pub fn restart(&mut self, seed: u64) {
        // The configuration is copied only when another game shares it (a clone).
        Arc::make_mut(&mut self.config).seed = seed;
        let config = Arc::clone(&self.config);
        let chance = self.chance;
        let spare = Spare::take_from(self);
        *self = Game::build(config, chance, spare);
    }

    /// A new game of the validated `config`, its lists in the memory of `spare`.
    fn build(config: Arc<GameConfig>, chance: ChanceMode, spare: Spare) -> Game {
        let Spare {
            mut board,
            mut features,
            figures,
            mut deck,
            events,
            returns,
            joins,
            turns,
            decisions,
            stamp,
            legal,
            figures_at_final_scoring,
        } = spare;
        deck.refill(&config);
        let start_tiles = config.start_tiles();
        let total_tiles =
            deck.total() as usize + start_tiles.len() + crate::rules::tiles_beside_pile(&config);
        let sets = config.sets.iter().fold(0u16, |acc, s| acc | s.bit());
        let mut supply = [[0u8; Figure::ALL.len()]; MAX_PLAYERS];
        for seat in supply.iter_mut().take(config.players as usize) {
            for f in Figure::ALL {
                seat[f.index()] = config.figures.of(f);
            }
        }
        // At most 9 catalogue features per tile, and one an expansion adds (a bridge, BR3).
        let max_nodes = total_tiles * 10;
        // Decisions and score events beyond a few per tile (bazaar auctions, BZ2, BZ3).
        let log_room = crate::rules::log_room(&config, deck.counts());
        board.clear_for(total_tiles);
        features.clear_for(max_nodes);
        let mut game = Game {
            rules: config.rules,
            stands_on: [0; FeatureKind::ALL.len()],
            players: config.players,
            sets,
            board,
            features,
            figures: emptied(figures, MAX_PLAYERS * 12),
            supply,
            scores: [0; MAX_PLAYERS],
            rng: Rng::new(config.seed),
            deck,
            chance,
            phase: Phase::PlaceTile,
            step: TurnStep::Start,
            turn_player: 0,
            to_play: 0,
            turn: TurnState::default(),
            expansions: Expansions::new(&config, total_tiles),
            end_from: 0,
            ending: false,
            extra_turn: false,
            events: emptied(events, total_tiles * 4 + log_room),
            returns: emptied(returns, total_tiles * 2),
            // A join makes two features one: at most one fewer than the nodes.
            joins: emptied(joins, max_nodes),
            turns: emptied(turns, total_tiles + 16),
            decisions: emptied(decisions, total_tiles * 4 + log_room),
            turn_open: false,
            // Zeroed as the board grows (`next_mark`).
            stamp: emptied(stamp, max_nodes.max(total_tiles)),
            stamp_value: 0,
            // The frontier of n tiles has at most 2n + 2 squares, 4 rotations each.
            legal: emptied(legal, 4 * (2 * total_tiles + 2)),
            final_scored: false,
            figures_at_final_scoring: emptied(figures_at_final_scoring, MAX_PLAYERS * 12),
            figures_changed: true,
            config,
        };
        game.stands_on = Game::stands_on(&game.config, &game.expansions);
        for (tile, pos, rot) in start_tiles {
            game.put_tile(tile, pos, rot);
        }
        game.advance();
        game
    }

    // ----- queries -------------------------------------------------------------------

    /// The configuration.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.players as usize
    }

    /// Whether `set` is in play.
    #[inline]
    pub fn has_set(&self, set: TileSet) -> bool {
        self.sets & set.bit() != 0
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// The decision the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat that decides now (meaningless when terminal or waiting for a draw).
    pub fn to_play(&self) -> usize {
        self.to_play as usize
    }

    /// The seat whose turn it is (differs from `to_play` during a dragon flight or a
    /// wagon move).
    pub fn turn_player(&self) -> usize {
        self.turn_player as usize
    }

    /// Scores per seat.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.players as usize]
    }

    /// Each seat's score if the game ended now: the points so far plus what the final
    /// scoring would add (B15 incomplete features, B16 farmers, and the sets' own
    /// end-of-game scoring), read from a copy; the game is unchanged. Points of the turn
    /// still in progress (features the tile just placed completes) are not in it: they
    /// are scored when the turn ends. Once the game is over, the final scores.
    pub fn scores_if_ended_now(&self) -> Vec<i32> {
        self.clone().into_scores_if_ended_now()
    }

    /// [`Game::scores_if_ended_now`] of a game the caller no longer needs: the final
    /// scoring runs on it, saving the copy.
    pub fn into_scores_if_ended_now(mut self) -> Vec<i32> {
        self.final_scoring();
        self.scores().to_vec()
    }

    /// The seats with the highest score once the game is over (B17: tied players share
    /// the win); empty while the game goes on.
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_terminal() {
            return Vec::new();
        }
        let best = self.scores().iter().copied().max().unwrap_or(0);
        (0..self.num_players())
            .filter(|p| self.scores[*p] == best)
            .collect()
    }

    /// Figures of `kind` in `player`'s supply.
    pub fn supply(&self, player: usize, kind: Figure) -> u8 {
        self.supply[player][kind.index()]
    }

    /// Everything `player` holds, by [`Figures::KEYS`]: the figures of its supply and the
    /// expansions' tiles not yet placed.
    pub fn held(&self, player: usize) -> Figures {
        let mut counts = [0; Figures::KEYS.len()];
        for f in Figure::ALL {
            counts[Figures::FIGURE_KEYS[f.index()]] = self.supply(player, f);
        }
        self.held_tiles(player, &mut counts);
        Figures::from_counts(counts)
    }

    /// The tile in hand (drawn, not yet placed).
    pub fn tile_in_hand(&self) -> Option<TileKind> {
        match self.phase {
            Phase::PlaceTile => self.turn.drawn,
            _ => None,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The feature structure.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Figures on the board.
    pub fn board_figures(&self) -> &[BoardFigure] {
        &self.figures
    }

    /// The figures as they stood when play ended, before final scoring returned them
    /// (B15): for a finished game, the figures of the end of its last turn; before the
    /// end, the same as [`Game::board_figures`].
    pub fn figures_before_final_scoring(&self) -> &[BoardFigure] {
        if self.final_scored {
            &self.figures_at_final_scoring
        } else {
            &self.figures
        }
    }

    /// The rule switches in force.
    pub fn rules(&self) -> &RuleSwitches {
        &self.rules
    }

    /// The square of the tile (or abbey) placed in the current turn, once it is placed.
    pub fn placed_this_turn(&self) -> Option<Pos> {
        self.turn
            .placed
            .map(|i| self.board.placement(i as usize).pos)
    }

    /// Whether a turn has begun and not yet ended (a record written now holds it as the
    /// last, unfinished turn).
    pub fn turn_in_progress(&self) -> bool {
        self.turn_open
    }

    /// Whether the game is in its end-of-game abbey round (AM4).
    pub fn in_end_round(&self) -> bool {
        self.ending
    }

    /// Tiles left to draw, per kind (index = catalogue index).
    pub fn remaining_tiles(&self) -> &[u8] {
        self.deck.counts()
    }

    /// Number of tiles left to draw.
    pub fn tiles_left(&self) -> u32 {
        self.deck.total()
    }

    /// Every score event so far.
    pub fn events(&self) -> &[ScoreEvent] {
        &self.events
    }

    /// Every figure that left the board so far, in order.
    pub fn figure_returns(&self) -> &[FigureReturn] {
        &self.returns
    }

    /// The end of turn `t`'s ranges: the current lengths for the turn in progress.
    fn turn_ends(&self, t: usize) -> (u32, u32) {
        let log = &self.turns[t];
        if t + 1 == self.turns.len() && self.turn_open {
            (self.events.len() as u32, self.returns.len() as u32)
        } else {
            (log.events.1, log.returns.1)
        }
    }

    /// The events of turn `t` ([`Game::turns`]) so far, in the order they happened:
    /// points scored and figures returned. Empty for a turn that does not exist.
    pub fn turn_events(&self, t: usize) -> Events<'_> {
        let (e, r) = match self.turns.get(t) {
            Some(log) => {
                let (e_end, r_end) = self.turn_ends(t);
                ((log.events.0, e_end), (log.returns.0, r_end))
            }
            None => ((0, 0), (0, 0)),
        };
        self.events_in(e, r)
    }

    /// The events of final scoring (after the last turn; B15, B16, AM9): empty until the
    /// game is over.
    pub fn final_events(&self) -> Events<'_> {
        if !self.final_scored {
            return self.events_in((0, 0), (0, 0));
        }
        let (e, r) = match self.turns.len() {
            0 => (0, 0),
            n => self.turn_ends(n - 1),
        };
        self.events_in(
            (e, self.events.len() as u32),
            (r, self.returns.len() as u32),
        )
    }

    /// Every event of the game so far, in the order they happened.
    pub fn all_events(&self) -> Events<'_> {
        self.events_in(
            (0, self.events.len() as u32),
            (0, self.returns.len() as u32),
        )
    }

    fn events_in(&self, e: (u32, u32), r: (u32, u32)) -> Events<'_> {
        Events {
            scores: &self.events,
            returns: &self.returns,
            e,
            r,
        }
    }

    /// Lists the parts of scored features ([`ScoreEvent::feature`]) as they were when
    /// they scored.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig};
    /// let mut game = Game::new(GameConfig::new(2)).unwrap();
    /// while !game.is_terminal() {
    ///     let a = game.legal_actions()[0];
    ///     game.apply(a).unwrap();
    /// }
    /// let mut parts = game.scored_parts();
    /// for e in game.events() {
    ///     if let (Some(f), Some(at)) = (e.feature, e.at) {
    ///         assert!(parts.parts(f).contains(&at));
    ///     }
    /// }
    /// ```
    pub fn scored_parts(&self) -> ScoredParts<'_> {
        let mut p = ScoredParts {
            game: self,
            parent: Vec::new(),
            next: Vec::new(),
            applied: 0,
            ids: Vec::new(),
        };
        p.restart();
        p
    }

    /// The kind of local feature `local` of the tile at `pos`, if there is one (the
    /// features an expansion adds come after the tile's own: a bridge, BR3, is a road).
    pub fn feature_kind_at(&self, pos: Pos, local: u8) -> Option<FeatureKind> {
        let i = self.board.index_at(pos)?;
        let p = self.board.placement(i);
        match p.def().features.get(local as usize) {
            Some(f) => Some(f.kind),
            None => (local < self.tile_features(i))
                .then(|| self.features.node(p.node_base + local as NodeId).kind),
        }
    }

    /// The generator the game draws its tiles from in sampled-chance mode (its state
    /// saves the future draws: [`Rng::to_hex`]).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// Replaces the generator: a game restored from its record continues with the saved
    /// state, and so with the draws of the game that was saved.
    pub fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }

    /// Completed turns (and the current one, when open).
    pub fn turns(&self) -> &[TurnLog] {
        &self.turns
    }

    /// Every decision taken so far, in order.
    pub fn history_actions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The chance mode.
    pub fn chance_mode(&self) -> ChanceMode {
        self.chance
    }

    /// Switches the chance mode (e.g. to explicit for a search that enumerates draws).
    /// A game waiting for a tile (the turn's or a bazaar's) draws it at once when it
    /// switches to sampled draws.
    pub fn set_chance_mode(&mut self, mode: ChanceMode) {
        self.chance = mode;
        if self.phase.is_chance() && mode == ChanceMode::Sampled {
            self.advance();
        }
    }

    /// Replaces the generator that samples the future draws (sampled-chance mode) by one
    /// seeded with `seed`; nothing else changes. A search uses it on copies of a game so
    /// that they draw other, equally likely tile orders than the game itself (the order
    /// of the pile is hidden from the players).
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig};
    /// // Plays every decision with its first legal action; returns the tiles drawn.
    /// fn draws(mut game: Game) -> Vec<String> {
    ///     while !game.is_terminal() {
    ///         let first = game.legal()[0];
    ///         game.apply_unchecked(first);
    ///     }
    ///     game.turns().iter().filter_map(|t| t.draw).map(|k| k.id().to_string()).collect()
    /// }
    /// let game = Game::new(GameConfig::new(2)).unwrap();
    /// let (mut a, mut b, mut c) = (game.clone(), game.clone(), game.clone());
    /// a.reseed_draws(1);
    /// b.reseed_draws(1);
    /// c.reseed_draws(2);
    /// assert_eq!(draws(a.clone()), draws(b));
    /// assert_ne!(draws(a), draws(c));
    /// ```
    pub fn reseed_draws(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Draw outcomes with their probabilities (count / remaining of the tiles that may be
    /// drawn now), when the game waits for a draw in explicit-chance mode; else empty.
    pub fn chance_outcomes(&self) -> Vec<(TileKind, f64)> {
        if self.phase != Phase::Draw {
            return Vec::new();
        }
        self.deck.outcomes(self.draw_holds_back())
    }

    // ----- decisions -------------------------------------------------------------------

    /// Every legal action now, in a deterministic order (empty when terminal).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Writes the legal actions into `out` (cleared first); no allocation once `out`
    /// has grown to the largest list.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    /// The legal actions of the current decision, in a deterministic order (empty when
    /// terminal). Computed once when the game reaches the decision.
    pub fn legal(&self) -> &[Action] {
        &self.legal
    }

    /// Whether `action` is legal now (an action naming a feature by any of its parts
    /// counts as the listed one, [`Game::normalize`]).
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal.contains(&self.normalize(action))
    }

    /// The listed form of an action that names a feature by any of its parts (a quarter
    /// move's target, CC4; a castle's city, CA1); other actions are unchanged.
    pub fn normalize(&self, action: Action) -> Action {
        self.normalize_expansion_action(action)
    }

    /// Applies a legal action; an illegal one is refused with an error and the game is
    /// unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.phase == Phase::GameOver {
            return Err(ActionError::GameOver);
        }
        let listed = self.normalize(action);
        if !self.legal.contains(&listed) {
            return Err(ActionError::Illegal {
                action,
                phase: self.phase,
            });
        }
        self.apply_unchecked(listed);
        Ok(())
    }

    /// Fills the legal list of the decision the game now waits for. The placement,
    /// deployment, dragon and wagon lists are already there (their steps compute them to
    /// know whether to ask at all).
    pub(crate) fn complete_legal(&mut self) {
        match self.phase {
            Phase::GameOver => self.legal.clear(),
            Phase::Draw => {
                let mut legal = std::mem::take(&mut self.legal);
                legal.clear();
                self.deck.drawable_into(self.draw_holds_back(), &mut legal);
                self.legal = legal;
            }
            Phase::PlaceTile => {
                if self.may_discard_tile() {
                    self.legal.push(Action::Pass);
                }
                // Choices beside the placement (TW5: a ransom).
                self.complete_expansion_legal(Phase::PlaceTile);
            }
            // Choices beside the figure action, once it is asked (TW5: a ransom).
            phase => self.complete_expansion_legal(phase),
        }
    }

    /// Applies an action known to be legal (taken from [`Game::legal_actions_into`] for
    /// this very state) without checking it. An illegal action here leaves the game in
    /// an unspecified (but memory-safe) state.
    pub fn apply_unchecked(&mut self, action: Action) {
        let player = self.to_play;
        match action {
            Action::Draw { tile } => {
                self.deck.take(tile);
                match self.step {
                    TurnStep::EndOfTurn => self.drawn_at_end_of_turn(tile),
                    TurnStep::AfterPlace => {
                        self.drawn_after_placement(tile);
                        self.step = TurnStep::Deploy;
                    }
                    _ => self.start_drawn_tile(tile),
                }
            }
            Action::PlaceTile { pos, rot, .. } => {
                self.record(player, action);
                let tile = self.turn.drawn.expect("a tile in hand");
                self.before_turn_tile(action);
                self.place_turn_tile(tile, pos, rot);
            }
            Action::Pass if matches!(self.phase, Phase::PlaceTile) => {
                // BR2: a tile that fits only with a bridge is discarded (B5); implied by
                // the turn's `discarded` mark, as a tile that fits nowhere.
                let tile = self.turn.drawn.expect("a tile in hand");
                self.discard_drawn_tile(tile);
            }
            Action::Pass if matches!(self.phase, Phase::Deploy) => {
                self.record(player, action);
                self.step = TurnStep::AfterDeployment;
            }
            Action::Deploy {
                figure,
                pos,
                feature,
            } => {
                self.record(player, action);
                let i = self.board.index_at(pos).expect("deploy on a tile") as u8;
                self.deploy(player, figure, i, feature);
                self.step = TurnStep::AfterDeployment;
            }
            _ => {
                if !self.apply_expansion_action(player, action) {
                    return;
                }
            }
        }
        self.advance();
    }

    /// Logs a decision of `player` (the game's record, [`Game::decisions`]).
    pub(crate) fn record(&mut self, player: u8, action: Action) {
        self.decisions.push(Decision { player, action });
    }

    /// 64-bit hash of the state that decides the future of the game: the board,
    /// figures, scores, supplies, pile, the decision asked and where the turn stands,
    /// and every expansion's state, each hashed whole (`docs/architecture.md`, the
    /// registry). The same on every platform; two games that differ only in their
    /// history (the order of earlier turns) may hash alike.
    pub fn state_hash(&self) -> u64 {
        let mut h = crate::hash::Fnv1a::default();
        for p in self.board.placements() {
            h.write(&[p.kind.index() as u8, p.rot.quarter_turns()]);
            h.write_i32(p.pos.x);
            h.write_i32(p.pos.y);
        }
        let mut figs: Vec<_> = self
            .figures
            .iter()
            .map(|f| (f.placement, f.local, f.owner, f.figure as u8))
            .collect();
        figs.sort_unstable();
        for f in figs {
            h.write(&[f.0, f.1, f.2, f.3]);
        }
        for s in self.scores() {
            h.write_i32(*s);
        }
        for p in 0..self.players as usize {
            h.write(&self.held(p).counts());
        }
        h.write(self.deck.counts());
        h.write(&[self.phase as u8, self.to_play, self.turn_player]);
        h.write(&[self.step as u8, u8::from(self.ending), self.end_from]);
        if self.extra_turn {
            h.write(&[1]);
        }
        let t = &self.turn;
        (t.placed, t.first_placed, t.feature_scorers, t.drawn).hash(&mut h);
        self.turn_completed().hash(&mut h);
        self.expansions.hash(&mut h);
        h.finish()
    }
}

/// The catalogue kind with id `id` (panics on an unknown id; for tests and examples).
pub fn tile(id: &str) -> TileKind {
    catalogue()
        .by_id(id)
        .unwrap_or_else(|| panic!("unknown tile id {id}"))
}

/// Whether a follower may stand on a feature of `kind` of the tile just placed in a game
/// of `config`: cities, roads, monasteries, shrines and, with farmers, fields (B6, B16,
/// CU1). A follower goes onto a tower only by the Tower's own deployment (TW2), never as
/// a feature of the placed tile. Figures that stand wherever a follower does (the big
/// follower, IC1) ask the same.
pub(crate) fn follower_fits(config: &GameConfig, kind: FeatureKind) -> bool {
    match kind {
        FeatureKind::City | FeatureKind::Road | FeatureKind::Monastery | FeatureKind::Shrine => {
            true
        }
        FeatureKind::Field => config.rules.farmers,
        FeatureKind::Garden | FeatureKind::River | FeatureKind::Tower => false,
    }
}
