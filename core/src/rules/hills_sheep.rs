//! Hills & Sheep (HS1–HS6), active with the `hills-and-sheep` set.
//!
//! * HS1: as his figure action a player may put his shepherd (`deploy` with
//!   `figure: "shepherd"`) on a field of the placed tile that holds no shepherd; a token
//!   is drawn from the bag at once (a chance event: sampled from the game's generator, or
//!   given as [`Action::DrawToken`] in explicit-chance mode). A sheep token stays with the
//!   shepherd (his flock); a wolf goes back into the bag and the shepherd home.
//! * HS2: when the turn player's tile extends the field of his shepherd deployed on an
//!   earlier turn, he grows the flock (another token; a wolf sends every shepherd of the
//!   field home for nothing) or herds it (every shepherd owner of the field scores the
//!   sheep of all its flocks, the shepherds go home, the tokens back into the bag): the
//!   decision [`Phase::Flock`]. A field with shepherds that has no open side left is
//!   scored the same way at once; flocks on the board at the end score nothing. All of it
//!   is the shepherd step, right after the figure action (the kernel's
//!   `decision_after_figure_action`), before the dragon's flight.
//! * HS3: a hill placed while tiles are left takes a tile of the pile face down under it,
//!   out of the game (a chance event: the kernel's draw after the placement, an ordinary
//!   [`Phase::Draw`] in explicit-chance mode, told apart by
//!   [`Game::waits_for_tile_after_placement`]).
//! * HS4: players tied for a city, road or field score it only if they have a follower
//!   on a hill tile in it (switch `hill_tiebreak`: at least one, or the most); when none
//!   has, all tied players score.
//! * HS5: a completed monastery (the abbey, a shrine) scores 3 more per vineyard tile among
//!   its 8 neighbours.
//! * HS6: the dragon eats the shepherd (its sheep go back into the bag); after a princess
//!   removal or a fairy move no shepherd is placed (they are the figure action).
//!
//! The bag's tokens and the flocks are state (hashed); the tokens drawn and the tiles put
//! under hills are also kept for the game's record ([`Game::token_after`],
//! [`Game::under_hill_after`]).

use crate::action::Action;
use crate::config::{ConfigError, Figure, Figures, GameConfig, MAX_PLAYERS};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase, ReturnCause, ScoreKind};
use crate::geometry::{Pos, Side};
use crate::rules::state::{LocalFeature, Seat as StateSeat, StateWriter};
use crate::rules::{Expansion, FigureCounts, History};
use crate::tiles::{FeatureKind, Symbols, TileKind, TileSet};
use crate::ChanceMode;

crate::named_enum! {
    /// Who wins a tie for a city, road or field among players with followers on hill
    /// tiles in it (HS4).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum HillTiebreak {
        /// Every tied player with at least one follower on a hill tile in the feature
        /// (default; the reference engine's).
        #[default]
        AtLeastOneFollower = "at-least-one-follower",
        /// The tied players with the most followers on hill tiles in the feature.
        NumberOfFollowers = "number-of-followers",
    }
}

crate::named_enum! {
    /// The turn player's choice for the flock whose field his tile extended (HS2).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum FlockChoice {
        /// Draw a token: a sheep joins the flock, a wolf ends every flock of the field.
        Grow = "grow",
        /// Into the fold: every shepherd owner of the field scores its sheep.
        Herd = "herd",
    }
}

crate::named_enum! {
    /// A token of the bag (HS1): one to four sheep, or a wolf.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum SheepToken {
        /// One sheep.
        Sheep1 = "sheep-1",
        /// Two sheep.
        Sheep2 = "sheep-2",
        /// Three sheep.
        Sheep3 = "sheep-3",
        /// Four sheep.
        Sheep4 = "sheep-4",
        /// The wolf.
        Wolf = "wolf",
    }
}

impl SheepToken {
    /// The sheep it shows (0 for the wolf).
    pub const fn sheep(self) -> u32 {
        match self {
            SheepToken::Wolf => 0,
            t => t as u32 + 1,
        }
    }
}

crate::rules::state::state_tables! {
    expansion: "hills-and-sheep";
    /// Every shepherd on the board with his flock (HS1, HS2), in the order of the figures.
    flocks: Many {
        /// The shepherd's owner.
        seat: StateSeat,
        /// The square of the shepherd's tile.
        pos: Pos,
        /// His field on that tile.
        feature: LocalFeature,
        /// The sheep of his flock.
        sheep: u8,
        /// The sheep tokens of his flock.
        tokens: u8,
    },
    /// The tokens left in the bag, by kind (HS1).
    sheep_bag: One {
        /// Tokens of one sheep.
        sheep_1: u8,
        /// Tokens of two sheep.
        sheep_2: u8,
        /// Tokens of three sheep.
        sheep_3: u8,
        /// Tokens of four sheep.
        sheep_4: u8,
        /// Wolves.
        wolves: u8,
    },
}

/// The bag at the start of a game, by [`SheepToken`]: 4, 5, 5 and 2 tokens of one to four
/// sheep, and 2 wolves (HS1).
pub const BAG: [u8; SheepToken::ALL.len()] = [4, 5, 5, 2, 2];

/// The sheep tokens of one flock, by [`SheepToken`] (the wolf's count stays 0).
type Tokens = [u8; SheepToken::ALL.len()];

/// Whose token the shepherd step waits for (HS1, HS2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum TokenFor {
    /// The shepherd that seat just deployed.
    Deployed(u8),
    /// The flock that seat grows.
    Grown(u8),
}

/// Where the shepherd step of a turn stands.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
enum Step {
    /// Not begun: a shepherd deployed by the figure action draws its token first.
    #[default]
    Start,
    /// The flock decision of the turn player, if his tile extended his shepherd's field.
    Flock,
    /// Fields with shepherds and no open side score.
    Closed,
    /// Done for this turn (part).
    Done,
}

/// A chance outcome of the set, kept for the record after the decision it follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// The tile under the hill just placed (HS3).
    UnderHill(TileKind),
    /// The token drawn for a deployed shepherd or a grown flock (HS1, HS2).
    Token(SheepToken),
}

/// The state of Hills & Sheep: the bag, the flocks, the shepherd step of the turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HillsSheep {
    /// Tokens in the bag, by [`SheepToken`].
    bag: Tokens,
    /// The sheep tokens with each seat's shepherd (one shepherd per seat, HS1).
    flocks: [Tokens; MAX_PLAYERS],
    /// The shepherd step of the turn in progress.
    step: Step,
    /// A token to draw now.
    pending: Option<TokenFor>,
    /// The chance outcomes, each with the index of the decision it follows
    /// ([`Game::history_actions`]).
    outcomes: History<Vec<(u32, Outcome)>>,
    /// The flocks as they stood when final scoring sent the shepherds home (for the
    /// pictures of a finished game, [`Game::flock_before_final_scoring`]).
    final_flocks: History<[Tokens; MAX_PLAYERS]>,
}

impl Expansion for HillsSheep {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::HillsSheep)
    }

    fn new(_: &GameConfig, tiles: usize) -> HillsSheep {
        HillsSheep {
            bag: BAG,
            flocks: [[0; SheepToken::ALL.len()]; MAX_PLAYERS],
            step: Step::Start,
            pending: None,
            // At most a tile under a hill and a token per placement.
            outcomes: History(Vec::with_capacity(2 * tiles)),
            final_flocks: History([[0; SheepToken::ALL.len()]; MAX_PLAYERS]),
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<HillsSheep>> {
        vec![
            ("HS1", |h| h.bag[0] ^= 1),
            ("HS2", |h| h.flocks[0][1] ^= 1),
            ("HS2", |h| h.step = Step::Done),
            ("HS1", |h| h.pending = Some(TokenFor::Deployed(0))),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        for f in &game.figures {
            if f.figure == Figure::Shepherd {
                let flock = game.flock_of(f.owner as usize);
                rows.flocks(
                    StateSeat(f.owner),
                    game.board.placement(f.placement as usize).pos,
                    LocalFeature(f.local),
                    flock_sheep(&flock).min(u32::from(u8::MAX)) as u8,
                    flock.iter().sum(),
                );
            }
        }
        let [one, two, three, four, wolves] = game.expansions.hills.bag;
        rows.sheep_bag(one, two, three, four, wolves);
    }

    /// HS1: with the set, each player has one shepherd by default.
    fn default_figures(sets: &[TileSet], counts: &mut FigureCounts) {
        if sets.contains(&TileSet::HillsSheep) {
            counts[Figures::FIGURE_KEYS[Figure::Shepherd.index()]] = 1;
        }
    }

    /// HS1: at most one shepherd, and none without the set.
    fn check_config(config: &GameConfig) -> Result<(), ConfigError> {
        let n = config.figures.of(Figure::Shepherd);
        if n > 1 {
            return Err(ConfigError::new(
                "figures.shepherd",
                format!("{n}; at most 1 (HS1)"),
            ));
        }
        if n > 0 && !config.has(TileSet::HillsSheep) {
            return Err(ConfigError::new(
                "figures.shepherd",
                "needs the hills-and-sheep set",
            ));
        }
        Ok(())
    }

    #[inline]
    fn reset_turn(game: &mut Game) {
        game.expansions.hills.step = Step::Start;
    }

    /// HS3.
    #[inline]
    fn tile_after_placement(game: &mut Game) -> bool {
        game.turn.placed.is_some_and(|i| {
            game.board
                .placement(i as usize)
                .kind
                .def()
                .has(Symbols::HILL)
        })
    }

    /// HS3: the tile goes face down under the hill, out of the game.
    fn drawn_after_placement(game: &mut Game, tile: TileKind) -> bool {
        let decision = game.decisions.len().saturating_sub(1) as u32;
        game.expansions
            .hills
            .outcomes
            .push((decision, Outcome::UnderHill(tile)));
        true
    }

    /// HS1.
    #[inline]
    fn deploy_options(game: &Game, out: &mut Vec<Action>) {
        game.shepherd_deploys(out);
    }

    /// HS4.
    #[inline]
    fn break_tie(game: &Game, root: NodeId, tied: u8) -> u8 {
        game.hill_tiebreak(root, tied)
    }

    /// HS5.
    #[inline]
    fn feature_value(game: &Game, root: NodeId, _tiles: u32, complete: bool) -> Option<i32> {
        game.vineyard_value(root, complete)
    }

    /// HS1, HS2.
    fn decision_after_figure_action(game: &mut Game) -> bool {
        game.shepherd_step()
    }

    /// HS6: a shepherd's sheep go back into the bag whenever it leaves the board.
    fn on_figure_left(game: &mut Game, figure: &BoardFigure) {
        if figure.figure == Figure::Shepherd {
            let hills = &mut game.expansions.hills;
            let flock = std::mem::take(&mut hills.flocks[figure.owner as usize]);
            for (bag, n) in hills.bag.iter_mut().zip(flock) {
                *bag += n;
            }
        }
    }

    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::Flock { choice, .. } => {
                game.record(player, action);
                match choice {
                    FlockChoice::Grow => {
                        game.expansions.hills.pending = Some(TokenFor::Grown(player))
                    }
                    FlockChoice::Herd => {
                        if let Some(k) = game.shepherd_of(player) {
                            let root = game.features.root(game.figures[k].node);
                            game.score_flocks(root);
                        }
                    }
                }
                Some(true)
            }
            Action::DrawToken { token } => {
                game.token_drawn(token);
                Some(true)
            }
            _ => None,
        }
    }

    fn complete_legal(game: &mut Game, phase: Phase) {
        match phase {
            Phase::Flock => {
                game.legal.clear();
                if let Some(k) = game.shepherd_of(game.turn_player) {
                    let f = game.figures[k];
                    let pos = game.board.placement(f.placement as usize).pos;
                    for choice in FlockChoice::ALL {
                        game.legal.push(Action::Flock {
                            pos,
                            feature: f.local,
                            choice,
                        });
                    }
                }
            }
            Phase::DrawToken => {
                game.legal.clear();
                for token in SheepToken::ALL {
                    if game.expansions.hills.bag[token as usize] > 0 {
                        game.legal.push(Action::DrawToken { token });
                    }
                }
            }
            _ => {}
        }
    }

    /// HS2: flocks on the board at the end score nothing; the shepherds go home.
    fn final_scoring(game: &mut Game) {
        let hills = &mut game.expansions.hills;
        hills.final_flocks = History(hills.flocks);
        let mut k = 0;
        while k < game.figures.len() {
            if game.figures[k].figure == Figure::Shepherd {
                game.return_figure(k, ReturnCause::FinalScoring);
            } else {
                k += 1;
            }
        }
    }
}

impl Game {
    /// Tokens of each kind in the bag (HS1), by [`SheepToken`]; the full bag without the
    /// set.
    pub fn sheep_bag(&self) -> [u8; SheepToken::ALL.len()] {
        self.expansions.hills.bag
    }

    /// The sheep tokens with `player`'s shepherd (his flock, HS1), by [`SheepToken`].
    pub fn flock_of(&self, player: usize) -> [u8; SheepToken::ALL.len()] {
        self.expansions
            .hills
            .flocks
            .get(player)
            .copied()
            .unwrap_or_default()
    }

    /// The sheep of `player`'s flock (HS1).
    pub fn flock_sheep(&self, player: usize) -> u32 {
        flock_sheep(&self.flock_of(player))
    }

    /// The sheep tokens of `player`'s flock as it stood before final scoring sent the
    /// shepherds home and their sheep back into the bag (HS2), like
    /// [`Game::figures_before_final_scoring`]; before the end, [`Game::flock_of`].
    pub fn flock_before_final_scoring(&self, player: usize) -> [u8; SheepToken::ALL.len()] {
        if !self.final_scored {
            return self.flock_of(player);
        }
        self.expansions
            .hills
            .final_flocks
            .get(player)
            .copied()
            .unwrap_or_default()
    }

    /// The bag as it stood before final scoring put the flocks back into it (HS2); before
    /// the end, [`Game::sheep_bag`].
    pub fn sheep_bag_before_final_scoring(&self) -> [u8; SheepToken::ALL.len()] {
        let mut bag = self.sheep_bag();
        if self.final_scored {
            for flock in self.expansions.hills.final_flocks.iter() {
                for (left, n) in bag.iter_mut().zip(flock) {
                    *left = left.saturating_sub(*n);
                }
            }
        }
        bag
    }

    /// The tokens that may be drawn now with their probabilities, when the game waits
    /// for a token in explicit-chance mode ([`Phase::DrawToken`]); else empty.
    pub fn token_outcomes(&self) -> Vec<(SheepToken, f64)> {
        if self.phase != Phase::DrawToken {
            return Vec::new();
        }
        let bag = &self.expansions.hills.bag;
        let total: u32 = bag.iter().map(|&n| u32::from(n)).sum();
        SheepToken::ALL
            .into_iter()
            .filter(|t| bag[*t as usize] > 0)
            .map(|t| (t, f64::from(bag[t as usize]) / f64::from(total)))
            .collect()
    }

    /// The tile put under the hill placed by decision `decision` of
    /// [`Game::history_actions`], if it was a hill placement with tiles left (HS3).
    pub fn under_hill_after(&self, decision: usize) -> Option<TileKind> {
        self.outcome_after(decision).find_map(|o| match o {
            Outcome::UnderHill(tile) => Some(tile),
            Outcome::Token(_) => None,
        })
    }

    /// The token drawn right after decision `decision` of [`Game::history_actions`]: a
    /// shepherd's deployment or a grown flock (HS1, HS2).
    pub fn token_after(&self, decision: usize) -> Option<SheepToken> {
        self.outcome_after(decision).find_map(|o| match o {
            Outcome::Token(token) => Some(token),
            Outcome::UnderHill(_) => None,
        })
    }

    fn outcome_after(&self, decision: usize) -> impl Iterator<Item = Outcome> + '_ {
        let log = &self.expansions.hills.outcomes;
        let start = log.partition_point(|(d, _)| (*d as usize) < decision);
        log[start..]
            .iter()
            .take_while(move |(d, _)| *d as usize == decision)
            .map(|(_, o)| *o)
    }

    /// Index in the figure list of `player`'s shepherd on the board.
    fn shepherd_of(&self, player: u8) -> Option<usize> {
        self.figures
            .iter()
            .position(|f| f.owner == player && f.figure == Figure::Shepherd)
    }

    /// HS1: the shepherd onto each field of the placed tile that holds no shepherd; not
    /// through a portal nor onto a tile where no figure may go (PD13b, PD1, CC8).
    fn shepherd_deploys(&self, out: &mut Vec<Action>) {
        let Some(placed) = self.turn.placed else {
            return;
        };
        let player = self.turn_player;
        if self.supply[player as usize][Figure::Shepherd.index()] == 0 {
            return;
        }
        let index = placed as usize;
        if self.figure_barred_on(index) {
            return;
        }
        let p = self.board.placement(index);
        for local in 0..self.tile_features(index) {
            let root = self.features.root(p.node_base + local as NodeId);
            if self.features.node(root).kind != FeatureKind::Field {
                continue;
            }
            let taken = self
                .figures
                .iter()
                .any(|f| f.figure == Figure::Shepherd && self.features.root(f.node) == root);
            if !taken {
                out.push(Action::Deploy {
                    figure: Figure::Shepherd,
                    pos: p.pos,
                    feature: local,
                });
            }
        }
    }

    /// The shepherd step after the figure action (HS1, HS2): the token of a shepherd just
    /// deployed, the flock decision, then the closed fields. Whether the game waits (a
    /// decision, or a token in explicit-chance mode).
    fn shepherd_step(&mut self) -> bool {
        loop {
            if let Some(pending) = self.expansions.hills.pending {
                match self.chance {
                    ChanceMode::Explicit => {
                        self.phase = Phase::DrawToken;
                        self.to_play = self.turn_player;
                        return true;
                    }
                    ChanceMode::Sampled => {
                        let token = self.sample_token();
                        debug_assert!(self.expansions.hills.pending == Some(pending));
                        self.token_drawn(token);
                        continue;
                    }
                }
            }
            match self.expansions.hills.step {
                Step::Start => {
                    self.expansions.hills.step = Step::Flock;
                    if let Some(placed) = self.turn.placed {
                        // A shepherd on the tile placed this turn was deployed just now
                        // (none when all of the player's shepherds are in his supply).
                        let player = self.turn_player;
                        if self.shepherds_out(player as usize)
                            && self.figures.iter().any(|f| {
                                f.owner == player
                                    && f.figure == Figure::Shepherd
                                    && f.placement == placed
                            })
                        {
                            self.expansions.hills.pending = Some(TokenFor::Deployed(player));
                            // No flock decision in the turn of the deployment.
                            self.expansions.hills.step = Step::Closed;
                        }
                    }
                }
                Step::Flock => {
                    self.expansions.hills.step = Step::Closed;
                    if self.flock_extended() {
                        self.phase = Phase::Flock;
                        self.to_play = self.turn_player;
                        return true;
                    }
                }
                Step::Closed => {
                    self.expansions.hills.step = Step::Done;
                    self.score_closed_fields();
                }
                Step::Done => return false,
            }
        }
    }

    /// HS2: whether the turn player's shepherd stands in a field that a tile placed this
    /// turn extends.
    fn flock_extended(&self) -> bool {
        if !self.shepherds_out(self.turn_player as usize) {
            return false;
        }
        let Some(k) = self.shepherd_of(self.turn_player) else {
            return false;
        };
        let root = self.features.root(self.figures[k].node);
        for placed in self.placed_this_turn_indices() {
            let p = self.board.placement(placed as usize);
            let features = p.def().features.len() as NodeId;
            if (0..features).any(|local| self.features.root(p.node_base + local) == root) {
                return true;
            }
        }
        false
    }

    /// A token drawn from the bag at random (sampled-chance mode).
    fn sample_token(&mut self) -> SheepToken {
        let bag = self.expansions.hills.bag;
        let total: u32 = bag.iter().map(|&n| u32::from(n)).sum();
        let mut r = self.rng.below(total.max(1));
        for token in SheepToken::ALL {
            let n = u32::from(bag[token as usize]);
            if r < n {
                return token;
            }
            r -= n;
        }
        unreachable!("the bag holds 18 tokens, all of them in it or on the board")
    }

    /// `token` was drawn for the pending shepherd or flock (HS1, HS2).
    fn token_drawn(&mut self, token: SheepToken) {
        let Some(pending) = self.expansions.hills.pending.take() else {
            return;
        };
        let decision = self.decisions.len().saturating_sub(1) as u32;
        let hills = &mut self.expansions.hills;
        hills.outcomes.push((decision, Outcome::Token(token)));
        let (TokenFor::Deployed(player) | TokenFor::Grown(player)) = pending;
        if token != SheepToken::Wolf {
            hills.bag[token as usize] -= 1;
            hills.flocks[player as usize][token as usize] += 1;
            return;
        }
        // The wolf goes back into the bag at once.
        let Some(k) = self.shepherd_of(player) else {
            return;
        };
        match pending {
            // HS1: the shepherd just deployed goes home.
            TokenFor::Deployed(_) => {
                self.return_figure(k, ReturnCause::Wolf);
            }
            // HS2: every shepherd of the field goes home, the sheep back into the bag.
            TokenFor::Grown(_) => {
                let root = self.features.root(self.figures[k].node);
                let mut k = 0;
                while k < self.figures.len() {
                    let f = self.figures[k];
                    if f.figure == Figure::Shepherd && self.features.root(f.node) == root {
                        self.return_figure(k, ReturnCause::Wolf);
                    } else {
                        k += 1;
                    }
                }
            }
        }
    }

    /// HS2: every owner of a shepherd in the field of `root` scores the sheep of all
    /// its flocks; the shepherds go home and their tokens back into the bag.
    fn score_flocks(&mut self, root: NodeId) {
        // One shepherd per seat (HS1): at most one per seat in the field.
        let mut shepherds: [Option<BoardFigure>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        for f in &self.figures {
            if f.figure == Figure::Shepherd && self.features.root(f.node) == root {
                shepherds[f.owner as usize] = Some(*f);
            }
        }
        let sheep: u32 = shepherds
            .iter()
            .flatten()
            .map(|f| flock_sheep(&self.expansions.hills.flocks[f.owner as usize]))
            .sum();
        for f in shepherds.into_iter().flatten() {
            let at = (self.board.placement(f.placement as usize).pos, f.local);
            self.add_score(
                f.owner,
                sheep as i32,
                ScoreKind::Flock,
                Some(at),
                Some(root),
            );
        }
        let mut k = 0;
        while k < self.figures.len() {
            let f = self.figures[k];
            if f.figure == Figure::Shepherd && self.features.root(f.node) == root {
                self.return_figure(k, ReturnCause::Scored);
            } else {
                k += 1;
            }
        }
    }

    /// Whether some of seat `player`'s shepherds are not in his supply (on the board, or
    /// held in a tower, TW4).
    #[inline]
    fn shepherds_out(&self, player: usize) -> bool {
        self.supply[player][Figure::Shepherd.index()] < self.config.figures.shepherd
    }

    /// HS2: the fields with shepherds that have no open side left score at once.
    fn score_closed_fields(&mut self) {
        if !(0..self.num_players()).any(|p| self.shepherds_out(p)) {
            return;
        }
        let mut k = 0;
        while k < self.figures.len() {
            let f = self.figures[k];
            if f.figure == Figure::Shepherd {
                let root = self.features.root(f.node);
                if self.field_closed(root) {
                    self.score_flocks(root);
                    k = 0;
                    continue;
                }
            }
            k += 1;
        }
    }

    /// Whether no part of the field of `root` lies on a side without a neighbour (the
    /// sides of a part read from its side mask).
    fn field_closed(&self, root: NodeId) -> bool {
        self.features.parts(root).all(|id| {
            let node = self.features.node(id);
            let p = self.board.placement(node.placement as usize);
            let sides = p
                .oriented()
                .feature_sides
                .get(node.local as usize)
                .copied()
                .unwrap_or(0);
            Side::ALL.iter().all(|&side| {
                sides & (1 << side.index()) == 0 || self.board.index_at(p.pos.step(side)).is_some()
            })
        })
    }

    /// HS4: of the players `tied` for the feature of `root`, those with a follower on a
    /// hill tile in it (at least one, or the most, by `hill_tiebreak`); all of them when
    /// none has one.
    fn hill_tiebreak(&self, root: NodeId, tied: u8) -> u8 {
        let mut on_hills = [0u32; MAX_PLAYERS];
        for f in &self.figures {
            if f.figure.is_follower_like()
                && tied & (1 << f.owner) != 0
                && self.features.root(f.node) == root
                && self
                    .board
                    .placement(f.placement as usize)
                    .kind
                    .def()
                    .has(Symbols::HILL)
            {
                on_hills[f.owner as usize] += 1;
            }
        }
        let most = on_hills.iter().copied().max().unwrap_or(0);
        if most == 0 {
            return tied;
        }
        let mut winners = 0u8;
        for (seat, &n) in on_hills.iter().enumerate() {
            let wins = match self.rules.hill_tiebreak {
                HillTiebreak::AtLeastOneFollower => n > 0,
                HillTiebreak::NumberOfFollowers => n == most,
            };
            winners |= u8::from(wins) << seat;
        }
        winners
    }

    /// HS5: a completed monastery (the abbey and a shrine included, CU1) with vineyard
    /// tiles around it is worth 9 and 3 per vineyard; `None` otherwise (no vineyard, not a
    /// monastery, at the end of the game).
    fn vineyard_value(&self, root: NodeId, complete: bool) -> Option<i32> {
        let node = self.features.node(root);
        if !complete || !matches!(node.kind, FeatureKind::Monastery | FeatureKind::Shrine) {
            return None;
        }
        let pos = self.board.placement(node.placement as usize).pos;
        let vineyards = pos
            .surrounding()
            .iter()
            .filter(|&&q| {
                self.board
                    .at(q)
                    .is_some_and(|t| t.def().has(Symbols::VINEYARD))
            })
            .count() as i32;
        (vineyards > 0).then_some(9 + 3 * vineyards)
    }
}

/// The sheep of a flock's tokens.
fn flock_sheep(tokens: &Tokens) -> u32 {
    SheepToken::ALL
        .into_iter()
        .map(|t| t.sheep() * u32::from(tokens[t as usize]))
        .sum()
}
