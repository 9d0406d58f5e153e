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
mod history;

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

    // ----- the turn pipeline -----------------------------------------------------------

    /// Runs automatic steps until a decision is needed or the game ends, and computes
    /// the legal list of that decision.
    pub(crate) fn advance(&mut self) {
        self.run_steps();
        self.complete_legal();
    }

    /// The turn pipeline: automatic steps until a decision is needed or the game ends.
    fn run_steps(&mut self) {
        loop {
            match self.step {
                TurnStep::Start => {
                    // An extra turn (TB4) with the pile empty is only given for an abbey.
                    if self.deck.total() == 0 && !self.tiles_held_to_place() && !self.extra_turn {
                        self.begin_end_round();
                        continue;
                    }
                    self.open_turn(None);
                    if self.extra_turn {
                        // TB4: the turn goes on; what comes once per turn (PD16b) does not
                        // come again.
                        self.reset_turn_state();
                    } else {
                        self.on_turn_start();
                    }
                    if let Some(tile) = self.tile_instead_of_draw() {
                        self.start_drawn_tile(tile);
                        continue;
                    }
                    self.step = TurnStep::BeforeDraw;
                }
                TurnStep::BeforeDraw => {
                    if self.decision_before_draw() {
                        return;
                    }
                    self.step = TurnStep::Draw;
                }
                TurnStep::Draw => {
                    if self.deck.total() == 0 {
                        // Every remaining tile was discarded (or an extra turn, TB4, did
                        // without its abbey): the turn ends empty.
                        self.discard_open_turn_if_empty();
                        self.extra_turn = false;
                        if self.tiles_held_to_place() {
                            // The others still place the tiles they hold.
                            self.turn_player = (self.turn_player + 1) % self.players;
                            self.step = TurnStep::Start;
                            continue;
                        }
                        self.begin_end_round();
                        continue;
                    }
                    match self.draw_from_pile() {
                        Some(tile) => self.start_drawn_tile(tile),
                        None => return,
                    }
                }
                TurnStep::Place => {
                    self.phase = Phase::PlaceTile;
                    self.to_play = self.turn_player;
                    return;
                }
                TurnStep::AfterPlace => {
                    if self.deck.total() > 0 && self.tile_after_placement() {
                        match self.draw_from_pile() {
                            Some(tile) => self.drawn_after_placement(tile),
                            None => return,
                        }
                    }
                    self.step = TurnStep::Deploy;
                }
                TurnStep::Deploy => {
                    let mut legal = std::mem::take(&mut self.legal);
                    self.deploy_actions(&mut legal);
                    let only_pass = matches!(legal.as_slice(), [Action::Pass]);
                    self.legal = legal;
                    if only_pass {
                        self.step = TurnStep::AfterDeployment;
                        continue;
                    }
                    self.phase = Phase::Deploy;
                    self.to_play = self.turn_player;
                    return;
                }
                TurnStep::AfterDeployment => {
                    // Asked again after each of its decisions and draws (HS1, HS2).
                    if self.decision_after_figure_action() {
                        return;
                    }
                    self.step = TurnStep::Resolve;
                    if self.decision_after_deployment() {
                        return;
                    }
                }
                TurnStep::Resolve => {
                    self.collect_completed();
                    self.step = TurnStep::BeforeScoring;
                }
                TurnStep::BeforeScoring => {
                    if self.decision_before_scoring() {
                        return;
                    }
                    self.step = TurnStep::Score;
                }
                TurnStep::Score => {
                    self.score_turn();
                    self.step = TurnStep::AfterScoring;
                }
                TurnStep::AfterScoring => {
                    if self.decision_after_scoring() {
                        return;
                    }
                    self.step = TurnStep::EndOfTurn;
                }
                TurnStep::EndOfTurn => match self.at_end_of_turn() {
                    TurnEnd::Decide => return,
                    TurnEnd::Draw => match self.draw_from_pile() {
                        Some(tile) => self.drawn_at_end_of_turn(tile),
                        None => return,
                    },
                    TurnEnd::Done => self.step = TurnStep::End,
                },
                TurnStep::End => {
                    self.close_turn();
                    if let Some(tile) = self.turn.second_discarded.take() {
                        self.log_second_discard(tile);
                    }
                    if self.ending {
                        self.step = TurnStep::EndRound;
                        continue;
                    }
                    // TB4: the same player again, once.
                    self.extra_turn = self.extra_turn_follows();
                    if self.extra_turn {
                        self.step = TurnStep::Start;
                        continue;
                    }
                    if self.deck.total() == 0 && !self.tiles_held_to_place() {
                        self.begin_end_round();
                        continue;
                    }
                    self.turn_player = (self.turn_player + 1) % self.players;
                    self.to_play = self.turn_player;
                    self.step = TurnStep::Start;
                }
                TurnStep::EndRound => {
                    if self.end_round_decision() {
                        return;
                    }
                    self.before_final_moves();
                    self.step = TurnStep::FinalMoves;
                }
                TurnStep::FinalMoves => {
                    if self.final_move_decision() {
                        return;
                    }
                    self.final_scoring();
                    self.step = TurnStep::Over;
                }
                TurnStep::Over => {
                    self.phase = Phase::GameOver;
                    return;
                }
            }
        }
    }

    /// Whether the part of the turn now ending is followed by the turn player's extra turn
    /// (TB4): earned by this part, which is no extra turn itself, outside the end-of-game
    /// rounds. What comes after the whole turn (a bazaar, §8 step 14) waits for it.
    pub(crate) fn extra_turn_follows(&self) -> bool {
        !self.extra_turn && !self.ending && self.another_turn()
    }

    /// A tile from the pile, sampled now (PD3: dragon tiles only once the dragon is on the
    /// board); `None` in explicit-chance mode, where the game then waits for the draw.
    fn draw_from_pile(&mut self) -> Option<TileKind> {
        match self.chance {
            ChanceMode::Explicit => {
                self.phase = Phase::Draw;
                None
            }
            ChanceMode::Sampled => {
                let hold_back = self.draw_holds_back();
                Some(self.deck.draw(&mut self.rng, hold_back))
            }
        }
    }

    /// Whether a draw now holds back the tiles an expansion holds back (PD3): not for the
    /// tile put face down under a hill (HS3), which nobody sees.
    fn draw_holds_back(&self) -> bool {
        self.step != TurnStep::AfterPlace && self.holds_back_tiles()
    }

    /// Whether the game waits for the tile that goes under the hill just placed (HS3), a
    /// [`Phase::Draw`] in explicit-chance mode.
    pub fn waits_for_tile_after_placement(&self) -> bool {
        self.phase == Phase::Draw && self.step == TurnStep::AfterPlace
    }

    pub(crate) fn open_turn(&mut self, draw: Option<TileKind>) {
        let a = self.decisions.len() as u32;
        let e = self.events.len() as u32;
        let r = self.returns.len() as u32;
        self.turns.push(TurnLog {
            player: self.turn_player,
            draw,
            discarded: false,
            second: None,
            second_discard: false,
            extra_turn: self.extra_turn,
            actions: (a, a),
            events: (e, e),
            returns: (r, r),
            scores: self.scores,
        });
        self.turn_open = true;
        self.turn.reset();
    }

    pub(crate) fn close_turn(&mut self) {
        if let Some(t) = self.turns.last_mut() {
            t.actions.1 = self.decisions.len() as u32;
            t.events.1 = self.events.len() as u32;
            t.returns.1 = self.returns.len() as u32;
            t.scores = self.scores;
        }
        self.turn_open = false;
    }

    fn discard_open_turn_if_empty(&mut self) {
        // An open turn that drew nothing (all tiles discarded before it) is dropped.
        if self.turn_open {
            if let Some(t) = self.turns.last() {
                if t.draw.is_none()
                    && t.actions.0 == self.decisions.len() as u32
                    && t.events.0 == self.events.len() as u32
                    && t.returns.0 == self.returns.len() as u32
                {
                    self.turns.pop();
                }
            }
            self.turn_open = false;
        }
    }

    /// A tile was drawn: set it in hand, or discard it when it fits nowhere (B5).
    fn start_drawn_tile(&mut self, tile: TileKind) {
        if let Some(t) = self.turns.last_mut() {
            t.draw = Some(tile);
        }
        self.turn.drawn = Some(tile);
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        self.placements_into(tile, &mut legal);
        self.legal = legal;
        if !self.legal.is_empty() {
            self.step = TurnStep::Place;
            self.phase = Phase::PlaceTile;
            self.to_play = self.turn_player;
        } else {
            self.discard_drawn_tile(tile);
        }
    }

    /// B5: the tile in hand leaves the game; the same player draws again, in a new
    /// record entry.
    #[cold]
    #[inline(never)]
    fn discard_drawn_tile(&mut self, tile: TileKind) {
        if let Some(t) = self.turns.last_mut() {
            t.discarded = true;
        }
        self.on_tile_discarded(tile);
        self.close_turn();
        self.open_turn(None);
        self.step = TurnStep::Draw;
    }

    /// The feature node on third `third` of side `side` of placement `index` (a bridge
    /// crossing that side on the middle third, BR3), if any.
    #[inline]
    pub(crate) fn segment_node(&self, index: usize, side: Side, third: usize) -> Option<NodeId> {
        if third == 1 {
            if let Some(node) = self.crossing_node(index, side) {
                return Some(node);
            }
        }
        let p = self.board.placement(index);
        let local = p.oriented().segment_feature[side.index() * 3 + third];
        (local != NO_FEATURE).then(|| p.node_base + local as NodeId)
    }

    /// Puts a tile on the board and joins its features with its neighbours' (the
    /// expansions add theirs before the join, [`Game::on_tile_put`]).
    pub(crate) fn put_tile(&mut self, kind: TileKind, pos: Pos, rot: Rotation) -> u8 {
        let def = kind.def();
        let node_base = self.features.len() as NodeId;
        let (index, neighbours) = self.board.place_beside(pos, kind, def, rot, node_base);
        let index = index as u8;
        let oriented = def.oriented(rot);
        for (i, f) in def.features.iter().enumerate() {
            let open = if matches!(
                f.kind,
                FeatureKind::City | FeatureKind::Road | FeatureKind::River
            ) {
                oriented.feature_sides[i].count_ones() as u16
            } else {
                0
            };
            self.features.add(f.kind, index, i as u8, open, f.pennants);
        }
        self.on_tile_put(index);
        let abbey = def.has(Symbols::ABBEY);
        let crossings = self.crosses_sides();
        for side in Side::ALL {
            let Some(ni) = neighbours[side.index()] else {
                continue;
            };
            let n = self.board.placement(ni);
            let n_oriented = n.oriented();
            let n_base = n.node_base;
            let opp = side.opposite().index();
            if abbey {
                // AM3: the abbey closes the neighbour's roads, cities, rivers and bridges
                // on that side: each once, on whichever thirds (a side may hold two
                // cities, HS-CORNER-AND-CAP-VINEYARD).
                let mut seen = [None; 3];
                for (third, slot) in seen.iter_mut().enumerate() {
                    *slot = self.segment_node(ni, side.opposite(), third);
                }
                self.close_side_of(&seen);
                continue;
            }
            if !crossings {
                // The tiles' own features meet on each third (no bridge crosses a side).
                // Local features are bits here: `n_def`'s and `def`'s masks of features
                // that are no field pick those that lose the open side.
                let n_def = n.def();
                let (mut mine_met, mut theirs_met) = (0u16, 0u16);
                let mut last_pair = (NO_FEATURE, NO_FEATURE);
                for third in 0..3 {
                    let mine = oriented.segment_feature[side.index() * 3 + third];
                    let theirs = n_oriented.segment_feature[opp * 3 + (2 - third)];
                    if mine == NO_FEATURE || theirs == NO_FEATURE {
                        continue;
                    }
                    // A feature that spans several thirds on both tiles (a city side, a
                    // field side) is joined once: the same pair again would join nothing.
                    if last_pair != (mine, theirs) {
                        self.join_features(node_base + mine as NodeId, n_base + theirs as NodeId);
                        last_pair = (mine, theirs);
                    }
                    mine_met |= 1 << mine;
                    theirs_met |= 1 << theirs;
                }
                // Each road, city or river of either tile on this side loses one open
                // side, once however many thirds it holds (HS-CORNER-AND-CAP-VINEYARD has
                // two cities on one side).
                self.close_open_sides(node_base, mine_met & def.no_field);
                self.close_open_sides(n_base, theirs_met & n_def.no_field);
                continue;
            }
            let mut mine_seen = [None; 3];
            let mut theirs_seen = [None; 3];
            let mut last_pair = (NodeId::MAX, NodeId::MAX);
            for third in 0..3 {
                let (mine, theirs) = if third == 1 && crossings {
                    // The middle third: an expansion's feature across it (a bridge end,
                    // BR3), else the tiles' own.
                    match (
                        self.segment_node(index as usize, side, 1),
                        self.segment_node(ni, side.opposite(), 1),
                    ) {
                        (Some(a), Some(b)) => (a, b),
                        _ => continue,
                    }
                } else {
                    let mine = oriented.segment_feature[side.index() * 3 + third];
                    let theirs = n_oriented.segment_feature[opp * 3 + (2 - third)];
                    if mine == NO_FEATURE || theirs == NO_FEATURE {
                        continue;
                    }
                    (node_base + mine as NodeId, n_base + theirs as NodeId)
                };
                // A feature that spans several thirds on both tiles (a city side, a field
                // side) is joined once: the same pair again would join nothing.
                if last_pair != (mine, theirs) {
                    self.join_features(mine, theirs);
                    last_pair = (mine, theirs);
                }
                mine_seen[third] = Some(mine);
                theirs_seen[third] = Some(theirs);
            }
            // Each road, city or river of either tile on this side loses one open side,
            // once however many thirds it holds: a side is closed per feature, not per
            // middle third (HS-CORNER-AND-CAP-VINEYARD has two cities on one side).
            self.close_side_of(&mine_seen);
            self.close_side_of(&theirs_seen);
        }
        index
    }

    /// The local features `locals` (a bit per local index) of the tile whose first node
    /// is `node_base` lost an open side each.
    fn close_open_sides(&mut self, node_base: NodeId, mut locals: u16) {
        while locals != 0 {
            let root = self
                .features
                .find(node_base + locals.trailing_zeros() as NodeId);
            self.features.node_mut(root).open -= 1;
            locals &= locals - 1;
        }
    }

    /// The features on the thirds of one side (`nodes`, by third; `None`: no feature)
    /// lost that open side: each road, city or river among them once.
    fn close_side_of(&mut self, nodes: &[Option<NodeId>; 3]) {
        for (third, node) in nodes.iter().enumerate() {
            let Some(node) = *node else { continue };
            if self.features.node(node).kind == FeatureKind::Field
                || nodes[..third].contains(&Some(node))
            {
                continue;
            }
            let root = self.features.find(node);
            self.features.node_mut(root).open -= 1;
        }
    }

    fn place_turn_tile(&mut self, tile: TileKind, pos: Pos, rot: Rotation) {
        let index = self.put_tile(tile, pos, rot);
        self.turn.placed = Some(index);
        self.on_tile_placed(index);
        self.step = TurnStep::AfterPlace;
        if let Some(next) = self.second_tile_after(index) {
            // R6: a second tile in the same turn, placed before the deployment step.
            self.turn.first_placed = Some(index);
            self.turn.drawn = Some(next);
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            self.placements_into(next, &mut legal);
            self.legal = legal;
            if !self.legal.is_empty() {
                self.step = TurnStep::Place;
                if let Some(t) = self.turns.last_mut() {
                    t.second = Some(next);
                }
            } else {
                // A second tile that fits nowhere is out of the game (B5); the turn goes
                // on, and its discard is logged after it.
                self.turn.second_discarded = Some(next);
                self.on_tile_discarded(next);
            }
        }
    }

    /// R6, B5: the second tile of the turn just closed fitted nowhere; it is logged as a
    /// discard entry of the same player right after that turn, with the scores after it.
    #[cold]
    #[inline(never)]
    fn log_second_discard(&mut self, tile: TileKind) {
        let a = self.decisions.len() as u32;
        let e = self.events.len() as u32;
        let r = self.returns.len() as u32;
        self.turns.push(TurnLog {
            player: self.turn_player,
            draw: Some(tile),
            discarded: true,
            second: None,
            second_discard: true,
            extra_turn: self.extra_turn,
            actions: (a, a),
            events: (e, e),
            returns: (r, r),
            scores: self.scores,
        });
    }

    /// R6: whether the tile in hand is the second tile of the turn (the city lake after
    /// the volcano lake), placed without a draw.
    pub fn second_tile_in_hand(&self) -> bool {
        self.phase == Phase::PlaceTile && self.turn.first_placed.is_some()
    }

    /// The tiles placed this turn: the first of two (R6), then the last.
    pub(crate) fn placed_this_turn_indices(&self) -> impl Iterator<Item = u8> {
        self.turn.first_placed.into_iter().chain(self.turn.placed)
    }

    /// The pile is empty: the end-of-game rounds begin, from the seat after the one
    /// that placed (or discarded) the last tile (AM4).
    #[cold]
    #[inline(never)]
    fn begin_end_round(&mut self) {
        self.end_from = self.turn_player;
        self.ending = true;
        self.on_game_end();
        self.step = TurnStep::EndRound;
    }

    /// Every legal placement of `tile` (B4, R2): squares in frontier order, rotations
    /// 0..3. A tile with no placement is discarded (B5).
    pub(crate) fn placements_into(&self, tile: TileKind, out: &mut Vec<Action>) {
        // The common case (no placement rule of an expansion, no misfit made to fit)
        // has its own loop, without the checks.
        let restricters = self.placement_restricters(tile);
        let makers = self.misfit_makers();
        if restricters != 0 || makers != 0 {
            self.checked_placements_into(tile, restricters, makers, out);
        } else {
            self.fitting_placements_into(tile, out);
        }
    }

    /// [`Game::placements_into`] when no expansion restricts or extends where `tile` may
    /// go: every rotation that fits the neighbours (B4).
    fn fitting_placements_into(&self, tile: TileKind, out: &mut Vec<Action>) {
        let table = FitTable::of(tile);
        let frontier = self.board.frontier();
        out.reserve(4 * frontier.len());
        // Rotations that give the same sides (symmetric tiles) are still distinct actions.
        for square in frontier {
            let mut fits = table.fits(square.required);
            if fits == 0 {
                continue;
            }
            let pos = square.pos;
            loop {
                out.push(Action::PlaceTile {
                    pos,
                    rot: Rotation::from_low_bits(fits.trailing_zeros()),
                    bridge: None,
                });
                fits &= fits - 1;
                if fits == 0 {
                    break;
                }
            }
        }
    }

    /// [`Game::placements_into`] with the placement checks of the expansions in
    /// `restricters` and the misfits that those in `makers` make fit.
    fn checked_placements_into(
        &self,
        tile: TileKind,
        restricters: u32,
        makers: u32,
        out: &mut Vec<Action>,
    ) {
        let restricted = restricters != 0;
        // The expansions that may bar some rotations of a square they allow.
        let turned = Game::rotation_restricters(restricters);
        let table = FitTable::of(tile);
        let misfit_table = if makers != 0 {
            Game::misfit_fit_table(makers, tile)
        } else {
            None
        };
        out.reserve(4 * self.board.frontier().len());
        for &FrontierSquare { pos, required, .. } in self.board.frontier() {
            let mut fits = table.fits(required);
            // Where a rotation does not fit, an expansion may make it fit (BR2: with a
            // bridge, if every side that does not match is a road against a field or a
            // field against a road).
            let mut misfits = match misfit_table {
                Some(t) => t.fits(required) & !fits,
                None => 0,
            };
            if restricted
                && fits | misfits != 0
                && !self.placement_allowed_at(restricters, tile, pos)
            {
                continue;
            }
            while fits != 0 {
                let rot = Rotation::ALL[fits.trailing_zeros() as usize];
                fits &= fits - 1;
                if turned == 0 || self.placement_allowed_turned(turned, tile, pos, rot) {
                    out.push(Action::PlaceTile {
                        pos,
                        rot,
                        bridge: None,
                    });
                }
            }
            while misfits != 0 {
                let rot = Rotation::ALL[misfits.trailing_zeros() as usize];
                misfits &= misfits - 1;
                if turned == 0 || self.placement_allowed_turned(turned, tile, pos, rot) {
                    let required = packed_requirement(required);
                    self.misfit_placements(makers, tile, pos, rot, required, out);
                }
            }
        }
    }

    // ----- deployment (B6, B7) -----------------------------------------------------------

    /// The follower-like figures that may stand on each kind of feature in a game of
    /// `config`, a bit per [`Figure::index`]: followers on cities, roads, monasteries,
    /// shrines and, with farmers, fields (B6, B16, CU1); the expansions' figures where
    /// their rules say ([`Expansions::figure_fits`]).
    fn stands_on(config: &GameConfig, expansions: &Expansions) -> [u16; FeatureKind::ALL.len()] {
        FeatureKind::ALL.map(|kind| {
            let mut figures = 0;
            for figure in Figure::FOLLOWER_LIKE {
                let fits = match figure {
                    Figure::Follower => follower_fits(config, kind),
                    other => expansions.figure_fits(config, other, kind),
                };
                figures |= u16::from(fits) << figure.index();
            }
            figures
        })
    }

    /// The follower-like figures of which `player` has at least one in supply, a bit per
    /// [`Figure::index`].
    #[inline]
    pub(crate) fn follower_like_in_supply(&self, player: u8) -> u16 {
        let supply = &self.supply[player as usize];
        Figure::FOLLOWER_LIKE.iter().fold(0, |bits, figure| {
            bits | u16::from(supply[figure.index()] > 0) << figure.index()
        })
    }

    /// Pushes `Deploy` actions for every figure in `player`'s supply that may stand on
    /// local feature `local` of placement `index`, if the feature is free.
    pub(crate) fn push_deploys(
        &self,
        player: u8,
        index: usize,
        local: u8,
        require_incomplete: bool,
        out: &mut Vec<Action>,
    ) {
        let in_supply = self.follower_like_in_supply(player);
        self.push_deploys_of(in_supply, index, local, require_incomplete, out);
    }

    /// [`Game::push_deploys`] for the figures `in_supply` (a bit per [`Figure::index`],
    /// [`Game::follower_like_in_supply`]), in [`Figure::ALL`] order.
    #[inline]
    fn push_deploys_of(
        &self,
        in_supply: u16,
        index: usize,
        local: u8,
        require_incomplete: bool,
        out: &mut Vec<Action>,
    ) {
        if in_supply == 0 {
            return;
        }
        let p = self.board.placement(index);
        let node_id = p.node_base + local as NodeId;
        let root = self.features.root(node_id);
        let node = self.features.node(root);
        if node.figures > 0 {
            return;
        }
        if node.kind == FeatureKind::Field && node.barns > 0 {
            return; // AM8
        }
        let mut figures = in_supply & self.stands_on[node.kind as usize];
        if figures == 0 || require_incomplete && self.is_complete(root) {
            return;
        }
        while figures != 0 {
            let figure = Figure::ALL[figures.trailing_zeros() as usize];
            figures &= figures - 1;
            out.push(Action::Deploy {
                figure,
                pos: p.pos,
                feature: local,
            });
        }
    }

    fn deploy_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let player = self.turn_player;
        let Some(placed) = self.turn.placed else {
            return;
        };
        if self.exclusive_deploy_options(out) {
            return;
        }
        let placed = placed as usize;
        // The supply is looked at once for the tile's features.
        let in_supply = self.follower_like_in_supply(player);
        if in_supply != 0 && !self.figure_barred_on(placed) {
            for local in 0..self.tile_features(placed) {
                self.push_deploys_of(in_supply, placed, local, false, out);
            }
        }
        self.deploy_options(out);
        out.push(Action::Pass);
    }

    /// Puts a figure from `player`'s supply on local feature `local` of placement `index`.
    pub(crate) fn deploy(&mut self, player: u8, figure: Figure, index: u8, local: u8) {
        let node = self.board.placement(index as usize).node_base + local as NodeId;
        let root = self.features.find(node);
        if figure.is_follower_like() {
            self.features.node_mut(root).figures += 1;
        }
        self.supply[player as usize][figure.index()] -= 1;
        self.figures_changed = true;
        self.figures.push(BoardFigure {
            owner: player,
            figure,
            placement: index,
            local,
            node,
        });
    }

    /// Returns the figure at `k` in the figure list to its owner's supply, and logs why.
    pub(crate) fn return_figure(&mut self, k: usize, cause: ReturnCause) -> BoardFigure {
        self.remove_figure(k, cause, true)
    }

    /// Takes the figure at `k` in the figure list off the board, into its owner's supply
    /// if `to_supply` (else it is held elsewhere: a prisoner, TW4), and logs why.
    pub(crate) fn remove_figure(
        &mut self,
        k: usize,
        cause: ReturnCause,
        to_supply: bool,
    ) -> BoardFigure {
        let f = self.figures.swap_remove(k);
        self.figures_changed = true;
        if f.figure.is_follower_like() {
            let root = self.features.find(f.node);
            self.features.node_mut(root).figures -= 1;
        }
        if to_supply {
            self.supply[f.owner as usize][f.figure.index()] += 1;
        }
        self.returns.push(FigureReturn {
            owner: f.owner,
            figure: f.figure,
            pos: self.board.placement(f.placement as usize).pos,
            local: f.local,
            cause,
            after: self.events.len() as u32,
        });
        self.on_figure_left(&f);
        f
    }

    /// Index in the figure list of the follower-like figure standing at
    /// `(placement, local)`.
    pub(crate) fn figure_at(&self, placement: u8, local: u8) -> Option<usize> {
        self.figures.iter().position(|f| {
            f.placement == placement && f.local == local && f.figure.is_follower_like()
        })
    }

    // ----- completion --------------------------------------------------------------------

    /// Whether the feature with root `root` is complete (B8–B10, A2).
    pub(crate) fn is_complete(&self, root: NodeId) -> bool {
        let node = self.features.node(root);
        match node.kind {
            FeatureKind::City | FeatureKind::Road | FeatureKind::River => node.open == 0,
            FeatureKind::Monastery | FeatureKind::Shrine | FeatureKind::Garden => {
                self.board.placement(node.placement as usize).surrounded_by == 8
            }
            // Fields never complete; a tower is no feature that scores (TW2).
            FeatureKind::Field | FeatureKind::Tower => false,
        }
    }

    /// Number of distinct tiles of the feature of `root` (B12: a tile counts once).
    pub(crate) fn feature_tiles(&mut self, root: NodeId) -> u32 {
        let mark = self.next_mark();
        let mut count = 0;
        for id in self.features.parts(root) {
            let t = self.features.node(id).placement as usize;
            if self.stamp[t] != mark {
                self.stamp[t] = mark;
                count += 1;
            }
        }
        count
    }

    pub(crate) fn next_part(&self, id: NodeId) -> NodeId {
        self.features.next(id)
    }

    /// Joins the features of `a` and `b` (see [`Features::union`]) and logs the join for
    /// [`Game::scored_parts`]; returns the root.
    pub(crate) fn join_features(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let (root, joined) = self.features.join(a, b);
        if joined {
            self.joins.push((a, b));
        }
        root
    }

    /// Adds points and logs the event; `feature` is a part of the scored feature.
    pub(crate) fn add_score(
        &mut self,
        player: u8,
        points: i32,
        kind: ScoreKind,
        at: Option<(Pos, u8)>,
        feature: Option<NodeId>,
    ) {
        self.scores[player as usize] += points;
        let joins = self.joins.len() as u32;
        if kind.is_feature_scoring() && points > 0 {
            self.turn.feature_scorers |= 1 << player;
        }
        self.events.push(ScoreEvent {
            player,
            points,
            kind,
            at,
            feature: feature.map(|node| ScoredFeature { node, joins }),
        });
    }

    /// The `(pos, local)` name of a feature node.
    pub(crate) fn node_name(&self, id: NodeId) -> (Pos, u8) {
        let n = self.features.node(id);
        (self.board.placement(n.placement as usize).pos, n.local)
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
