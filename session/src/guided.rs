//! A tree search guided by a leaf evaluator (a policy-value network, say) instead of
//! random playouts, and the search targets a learner imitates: visit shares over the
//! flat action ids of a decision.
//!
//! [`GuidedSearch`] searches one decision as the built-in search does ([`crate::mcts`]):
//! every iteration determinizes the hidden order of the pile ([`Game::reseed_draws`]),
//! draws are chance nodes sampled by the copies left, and each seat's reward is backed
//! up. It differs where a network comes in:
//!
//! * a new decision node is not played out but **evaluated**: the [`LeafEvaluator`]
//!   gives a prior per legal action and each seat's expected reward in `0..=1`, which is
//!   backed up as the iteration's result (a finished game backs up its rewards); with
//!   [`GuidedSearch::standing_percent`] above 0 the standings if the game ended at
//!   the leaf are mixed in (each seat's score with the final scoring,
//!   [`Game::scores_if_ended_now`], as a reward), and with
//!   [`GuidedSearch::playout_percent`] above 0 the leaf is also played out once at
//!   random and that game's reward is mixed in (the playout search's estimate beside
//!   the network's);
//! * a decision selects by **PUCT**: the mean reward of the deciding seat plus
//!   `c·P·sqrt(N)/(1 + n)` (prior `P`, node visits `N`, edge visits `n`); an edge never
//!   tried counts the node's mean reward so far;
//! * leaves are evaluated in **batches**: an iteration that stops at a leaf waits while
//!   the next ones descend, each edge it passed counting one visit already (a virtual
//!   loss: the reward waits), so the next descents spread over other branches; up to
//!   [`GuidedSearch::batch`] leaves go to the evaluator in one call. A descent that
//!   reaches a leaf already waiting gathers nothing (its visits are taken back); a
//!   batch is sent when it is full or after twice its size in descents.
//!
//! The root is evaluated first (its priors; that call is not an iteration). The
//! iteration budget counts the descents that were backed up, so the evaluator sees
//! `iterations` leaves plus the root, in `ceil(iterations / batch)` calls or more.
//!
//! [`FlatEvaluator`] adapts a function on encoded observations (what a network reads:
//! board planes, globals and the legal-id mask of a batch, in an observation preset's
//! layout) to a [`LeafEvaluator`], and [`flat_policy`] turns an [`Evaluation`] into the
//! target of a policy head: each flat id's share of the visits.
//!
//! ```
//! use carcassonne::{Game, GameConfig};
//! use carcassonne_session::guided::{GuidedSearch, LeafEstimate};
//! use carcassonne_session::mcts::Budget;
//! let game = Game::new(GameConfig::new(2)).unwrap();
//! // An evaluator that knows nothing: uniform priors, an even game.
//! let mut uniform = |games: &[Game], out: &mut [LeafEstimate]| -> Result<(), String> {
//!     for (game, est) in games.iter().zip(out.iter_mut()) {
//!         est.priors.fill(1.0);
//!         est.values[..game.num_players()].fill(0.5);
//!     }
//!     Ok(())
//! };
//! let search = GuidedSearch::new(Budget::Iterations(64));
//! let eval = search.evaluate(&game, 1, &mut uniform).unwrap();
//! assert_eq!(eval.iterations, 64);
//! let total: f64 = eval.actions.iter().map(|a| a.share).sum();
//! assert!((total - 1.0).abs() < 1e-9);
//! ```

use crate::bots::settle_turn;
use crate::encode::{EncodeError, FlatDecision, Layout};
use crate::mcts::{
    play_out, rewards, rewards_of_scores, searched, ActionEvaluation, Budget, Evaluation,
    MctsConfig,
};
use crate::session::Session;
use crate::tree::{Edge, Rule, Stop, Tree};
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{Action, Game, Phase};
use std::fmt;
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a [`LeafEvaluator`] says of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafEstimate {
    /// A prior weight per legal action of the decision, in the game's legal order
    /// ([`Game::legal`]): finite and not negative; the search normalizes them (all zero:
    /// uniform). Sized by the search and filled with zeros before each call.
    pub priors: Vec<f32>,
    /// Each seat's expected reward, in `0..=1`, by seat (entries past the players are
    /// unused). Filled with ½ before each call.
    pub values: [f64; MAX_PLAYERS],
}

/// Evaluates the leaves of a [`GuidedSearch`] in batches: what a network does in place
/// of random playouts. A closure `FnMut(&[Game], &mut [LeafEstimate]) -> Result<(),
/// String>` is one.
pub trait LeafEvaluator {
    /// Writes an estimate for each of `games` (each a player's decision: not over, not
    /// waiting for a draw) into `out` (as many). An error stops the search with it.
    fn evaluate(&mut self, games: &[Game], out: &mut [LeafEstimate]) -> Result<(), String>;
}

impl<F> LeafEvaluator for F
where
    F: FnMut(&[Game], &mut [LeafEstimate]) -> Result<(), String>,
{
    fn evaluate(&mut self, games: &[Game], out: &mut [LeafEstimate]) -> Result<(), String> {
        self(games, out)
    }
}

/// Why a search gave no evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The game is over: there is no decision to search.
    GameOver,
    /// The game waits for a draw (explicit chance): a chance event, nobody's decision.
    ChanceNode,
    /// The settings are out of range (the message says which and why).
    Settings(String),
    /// The evaluator failed or answered out of range (the message says which leaf and
    /// what was wrong).
    Evaluator(String),
    /// The search was stopped from outside.
    Stopped,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::GameOver => write!(f, "the game is over: there is no decision to search"),
            SearchError::ChanceNode => write!(
                f,
                "the game waits for a draw (a chance event), not a player's decision"
            ),
            SearchError::Settings(m) => write!(f, "{m}"),
            SearchError::Evaluator(m) => write!(f, "evaluator: {m}"),
            SearchError::Stopped => write!(f, "the search was stopped"),
        }
    }
}

impl std::error::Error for SearchError {}

/// The settings of a guided search (plain data).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GuidedSearch {
    /// Iterations (backed-up descents) or time per decision.
    pub budget: Budget,
    /// The most leaves per evaluator call, 1 to [`GuidedSearch::MAX_BATCH`].
    pub batch: u32,
    /// The PUCT constant `c`, in hundredths (150 is `c = 1.5`).
    pub c_puct_centi: u16,
    /// Weight of the score margin in the reward of a game finished inside the tree,
    /// percent (the rest is the outcome: 1 a win, `1/k` a win shared by `k`, 0 a loss).
    /// The default 0 gives the outcome, the scale of a value trained on outcomes.
    pub margin_percent: u8,
    /// Weight of one random playout in a leaf's value, percent: each leaf the evaluator
    /// answers is also played to the end as the built-in search does ([`crate::mcts`],
    /// uniformly random moves), and its value for each seat becomes `(1 − w)·value +
    /// w·reward` (the reward weighs the margin by [`GuidedSearch::margin_percent`]).
    /// The default 0 trusts the evaluator alone.
    pub playout_percent: u8,
    /// Weight of the standings in a leaf's value, percent: the rest of the deciding
    /// seat's turn is settled by passing ([`settle_turn`]), each seat's score if the game
    /// ended then is read ([`Game::scores_if_ended_now`]: the points so far plus the
    /// final scoring of what is on the board), and its value for each seat becomes
    /// `(1 − w)·value + w·reward` of those scores (the reward weighs the margin by
    /// [`GuidedSearch::margin_percent`]). Mixed in before a playout
    /// ([`GuidedSearch::playout_percent`]). The default 0 trusts the evaluator alone.
    /// This is the weight at the start of the game; see
    /// [`GuidedSearch::standing_end_percent`].
    pub standing_percent: u8,
    /// Weight of the standings at the end of the game, percent, when it differs from
    /// [`GuidedSearch::standing_percent`]: the weight then moves linearly from the one to
    /// the other with the share of the tiles already placed at the leaf (the tiles on
    /// the board over those plus the tiles left), as the standings come to decide the
    /// outcome. `None` (the default) keeps the weight constant.
    pub standing_end_percent: Option<u8>,
}

impl GuidedSearch {
    /// The most leaves per evaluator call.
    pub const MAX_BATCH: u32 = 4096;
    /// The default leaves per evaluator call.
    pub const DEFAULT_BATCH: u32 = 8;
    /// The default PUCT constant, in hundredths.
    pub const DEFAULT_C_PUCT_CENTI: u16 = 150;

    /// A search with `budget`, batches of [`GuidedSearch::DEFAULT_BATCH`], `c = 1.5` and
    /// the outcome as the reward of a finished game.
    pub const fn new(budget: Budget) -> GuidedSearch {
        GuidedSearch {
            budget,
            batch: Self::DEFAULT_BATCH,
            c_puct_centi: Self::DEFAULT_C_PUCT_CENTI,
            margin_percent: 0,
            playout_percent: 0,
            standing_percent: 0,
            standing_end_percent: None,
        }
    }

    /// Checks the settings: a budget of at least 1 (and at most the limits of
    /// [`Budget`]), a batch of 1 to [`GuidedSearch::MAX_BATCH`], a margin, a playout and a
    /// standings weight of at most 100.
    pub fn check(&self) -> Result<(), SearchError> {
        let bad = |m: String| Err(SearchError::Settings(m));
        match self.budget {
            Budget::Iterations(n) if n == 0 || n > Budget::MAX_ITERATIONS => {
                return bad(format!(
                    "budget: {n} iterations; expected 1 to {}",
                    Budget::MAX_ITERATIONS
                ))
            }
            Budget::Millis(ms) if ms == 0 || ms > Budget::MAX_MILLIS => {
                return bad(format!(
                    "budget: {ms} ms; expected 1 to {}",
                    Budget::MAX_MILLIS
                ))
            }
            _ => {}
        }
        if self.batch == 0 || self.batch > Self::MAX_BATCH {
            return bad(format!(
                "batch: {}; expected 1 to {}",
                self.batch,
                Self::MAX_BATCH
            ));
        }
        for (name, percent) in [
            ("margin", self.margin_percent),
            ("playout", self.playout_percent),
            ("standing", self.standing_percent),
            ("standing_end", self.standing_end_percent.unwrap_or(0)),
        ] {
            if percent > 100 {
                return bad(format!("{name}: {percent}; expected a percentage 0 to 100"));
            }
        }
        Ok(())
    }

    /// Searches the decision of `game` from `seed`, evaluating leaves with `evaluator`:
    /// per legal action its visits and share, and every seat's mean reward over the
    /// iterations ([`Evaluation`]; its `value` is the deciding seat's).
    pub fn evaluate(
        &self,
        game: &Game,
        seed: u64,
        evaluator: &mut dyn LeafEvaluator,
    ) -> Result<Evaluation, SearchError> {
        self.evaluate_while(game, seed, evaluator, &mut || true)
    }

    /// [`GuidedSearch::evaluate`] that `go_on` can stop: it is asked after every
    /// evaluator call, and [`SearchError::Stopped`] is the result once it says no.
    pub fn evaluate_while(
        &self,
        game: &Game,
        seed: u64,
        evaluator: &mut dyn LeafEvaluator,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<Evaluation, SearchError> {
        self.check()?;
        match game.phase() {
            Phase::GameOver => return Err(SearchError::GameOver),
            phase if phase.is_chance() => return Err(SearchError::ChanceNode),
            _ => {}
        }
        let started = Instant::now();
        let mut tree = GuidedTree::new(self, game, seed);
        tree.evaluate_root(evaluator)?;
        let deadline = match self.budget {
            Budget::Millis(ms) => Some(started + Duration::from_millis(u64::from(ms))),
            Budget::Iterations(_) => None,
        };
        let limit = match self.budget {
            Budget::Iterations(n) => u64::from(n),
            Budget::Millis(_) => u64::MAX,
        };
        while tree.iterations < limit {
            if deadline.is_some_and(|d| tree.iterations > 0 && Instant::now() >= d) {
                break;
            }
            let room = (limit - tree.iterations).min(u64::from(self.batch)) as usize;
            tree.round(room, evaluator)?;
            if !go_on() {
                return Err(SearchError::Stopped);
            }
        }
        Ok(tree.report(game, started))
    }
}

/// The selection of the guided search: PUCT over the priors, each visit counted on the
/// way down (a virtual visit until the leaf's reward is known); a leaf stops every
/// descent, and one that waits for the evaluator refuses a second.
struct Puct {
    c: f64,
}

impl Rule for Puct {
    type Prior = f32;
    const VIRTUAL_VISITS: bool = true;

    fn open(&self, tree: &mut Tree<f32>, n: usize, _game: &Game) -> Option<Stop> {
        let node = &mut tree.nodes[n];
        if node.waiting {
            // Reached twice in one batch: the descent's visits are taken back.
            return Some(Stop::Refused);
        }
        node.waiting = true;
        Some(Stop::Leaf(n as u32))
    }

    /// PUCT at an expanded decision node.
    fn select(&self, tree: &mut Tree<f32>, n: usize) -> usize {
        let node = tree.nodes[n];
        let range = node.edges();
        let (sum, visits) = tree.edges[range.clone()]
            .iter()
            .fold((0.0, 0u32), |(s, v), e| (s + e.value, v + e.visits));
        let unvisited_q = if visits > 0 {
            sum / f64::from(visits)
        } else {
            0.5
        };
        let sqrt_n = f64::from(node.visits.max(1)).sqrt();
        let mut best = range.start;
        let mut best_score = f64::NEG_INFINITY;
        for e in range {
            let edge = &tree.edges[e];
            if !searched(&edge.action) {
                continue;
            }
            let q = if edge.visits > 0 {
                edge.value / f64::from(edge.visits)
            } else {
                unvisited_q
            };
            let score =
                q + self.c * f64::from(edge.prior) * sqrt_n / (1.0 + f64::from(edge.visits));
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        best
    }
}

/// A leaf waiting for the evaluator: its node and its descent's edges (a range of
/// [`GuidedTree::paths`]).
struct Waiting {
    node: u32,
    path: Range<usize>,
}

struct GuidedTree {
    tree: Tree<f32>,
    rule: Puct,
    margin: f64,
    /// Weight of a random playout in a leaf's value.
    playout: f64,
    /// Weight of the standings in a leaf's value at the start and at the end of the game.
    standing: f64,
    standing_end: f64,
    iterations: u64,
    /// The batch being gathered: leaf games (the first `used`; the others are memory
    /// for the next), their descents, the evaluator's answers.
    games: Vec<Game>,
    used: usize,
    waiting: Vec<Waiting>,
    /// The paths of the waiting descents, one after the other.
    paths: Vec<(u32, u8)>,
    estimates: Vec<LeafEstimate>,
    /// The game a descent plays, copied from the root into the memory of an earlier
    /// one's (`None` only while a descent runs).
    scratch: Option<Game>,
}

impl GuidedTree {
    fn new(settings: &GuidedSearch, game: &Game, seed: u64) -> GuidedTree {
        let tree = Tree::new(game, seed, 1 << 10, 1 << 12);
        GuidedTree {
            scratch: Some(tree.root_game.clone()),
            tree,
            rule: Puct {
                c: f64::from(settings.c_puct_centi) / 100.0,
            },
            margin: f64::from(settings.margin_percent) / 100.0,
            playout: f64::from(settings.playout_percent) / 100.0,
            standing: f64::from(settings.standing_percent) / 100.0,
            standing_end: f64::from(
                settings
                    .standing_end_percent
                    .unwrap_or(settings.standing_percent),
            ) / 100.0,
            iterations: 0,
            games: Vec::new(),
            used: 0,
            waiting: Vec::new(),
            paths: Vec::new(),
            estimates: Vec::new(),
        }
    }

    /// Empties the batch (its games' memory is kept).
    fn clear_batch(&mut self) {
        self.used = 0;
        self.waiting.clear();
        self.paths.clear();
    }

    /// Adds `game` to the batch, in the memory of an earlier batch's game if there is
    /// one; that memory (or a new copy of the root) becomes the scratch game.
    fn keep(&mut self, game: Game) {
        if self.used < self.games.len() {
            let old = std::mem::replace(&mut self.games[self.used], game);
            self.scratch = Some(old);
        } else {
            self.games.push(game);
            self.scratch = Some(self.tree.root_game.clone());
        }
        self.used += 1;
    }

    /// Evaluates the root and gives its edges (in the game's legal order) their priors.
    fn evaluate_root(&mut self, evaluator: &mut dyn LeafEvaluator) -> Result<(), SearchError> {
        self.clear_batch();
        let root = self
            .scratch
            .take()
            .expect("the scratch game, a copy of the root");
        self.keep(root);
        self.waiting.push(Waiting {
            node: 0,
            path: 0..0,
        });
        self.call(evaluator)?;
        self.expand_evaluated(0, 0);
        self.clear_batch();
        Ok(())
    }

    /// Asks the evaluator about the gathered leaves, checking what it answers.
    fn call(&mut self, evaluator: &mut dyn LeafEvaluator) -> Result<(), SearchError> {
        let n = self.used;
        let games = &self.games[..n];
        if self.estimates.len() < n {
            self.estimates.resize(
                n,
                LeafEstimate {
                    priors: Vec::new(),
                    values: [0.5; MAX_PLAYERS],
                },
            );
        }
        for (game, est) in games.iter().zip(self.estimates.iter_mut()) {
            est.priors.clear();
            est.priors.resize(game.legal().len(), 0.0);
            est.values = [0.5; MAX_PLAYERS];
        }
        evaluator
            .evaluate(games, &mut self.estimates[..n])
            .map_err(SearchError::Evaluator)?;
        for (i, (game, est)) in games.iter().zip(&mut self.estimates).enumerate() {
            let legal = game.legal().len();
            if est.priors.len() != legal {
                return Err(SearchError::Evaluator(format!(
                    "leaf {i}: {} priors for {legal} legal actions",
                    est.priors.len()
                )));
            }
            if let Some((k, p)) = est
                .priors
                .iter()
                .enumerate()
                .find(|(_, p)| !p.is_finite() || **p < 0.0)
            {
                return Err(SearchError::Evaluator(format!(
                    "leaf {i}: prior {k} is {p}; priors must be finite and not negative"
                )));
            }
            for (seat, v) in est.values[..game.num_players()].iter_mut().enumerate() {
                if !v.is_finite() || *v < -VALUE_SLACK || *v > 1.0 + VALUE_SLACK {
                    return Err(SearchError::Evaluator(format!(
                        "leaf {i}: the value of seat {seat} is {v}; values are expected rewards in 0..=1"
                    )));
                }
                *v = v.clamp(0.0, 1.0);
            }
        }
        Ok(())
    }

    /// Gives node `node` the edges of `self.games[k]`'s legal actions with the priors of
    /// `self.estimates[k]`, normalized over the actions the search considers.
    fn expand_evaluated(&mut self, node: u32, k: usize) {
        let game = &self.games[k];
        let priors = &self.estimates[k].priors;
        let total: f64 = game
            .legal()
            .iter()
            .zip(priors)
            .filter(|(a, _)| searched(a))
            .map(|(_, p)| f64::from(*p))
            .sum();
        let considered = game.legal().iter().filter(|a| searched(a)).count().max(1);
        let edges = game.legal().iter().zip(priors).map(|(&action, &p)| {
            let prior = if !searched(&action) {
                0.0
            } else if total > 0.0 {
                (f64::from(p) / total) as f32
            } else {
                1.0 / considered as f32
            };
            Edge::new(action, prior)
        });
        self.tree.expand_with(node as usize, edges);
    }

    /// Gathers up to `room` leaves, evaluates them and backs them up (a finished game
    /// reached on the way is backed up at once).
    fn round(&mut self, room: usize, evaluator: &mut dyn LeafEvaluator) -> Result<(), SearchError> {
        self.clear_batch();
        // A descent that meets a waiting leaf gathers nothing; the next may still find
        // another leaf, up to twice the room in descents.
        let (mut gathered, mut descents) = (0, 0);
        while gathered < room && descents < 2 * room {
            descents += 1;
            if self.descend() {
                gathered += 1;
            }
        }
        if self.used == 0 {
            return Ok(());
        }
        self.call(evaluator)?;
        for k in 0..self.used {
            let node = self.waiting[k].node;
            self.expand_evaluated(node, k);
            let mut values = self.estimates[k].values;
            if self.standing > 0.0 || self.standing_end > 0.0 {
                self.mix_standing(k, &mut values);
            }
            if self.playout > 0.0 {
                self.mix_playout(k, &mut values);
            }
            let path = self.waiting[k].path.clone();
            self.tree.back_up_path(&self.paths[path], &values);
            self.iterations += 1;
        }
        Ok(())
    }

    /// Mixes the standings of leaf `k`'s game if it ended now into its `values` (weight
    /// `self.standing` at the start of the game, `self.standing_end` at its end, linear
    /// in the share of the tiles placed): the rest of the deciding seat's turn settled by
    /// passing ([`settle_turn`]), then each seat's score with the final scoring
    /// ([`Game::into_scores_if_ended_now`], on that settled copy), as rewards.
    fn mix_standing(&mut self, k: usize, values: &mut [f64; MAX_PLAYERS]) {
        let mut game = self.games[k].clone();
        let turn_player = game.turn_player();
        settle_turn(&mut game, turn_player);
        let placed = game.board().len() as f64;
        let progress = placed / (placed + f64::from(game.tiles_left()));
        let w = self.standing + (self.standing_end - self.standing) * progress;
        let players = game.num_players();
        let reward = rewards_of_scores(&game.into_scores_if_ended_now(), self.margin);
        blend(values, &reward[..players], w);
    }

    /// Mixes a random playout of leaf `k`'s game into its `values` (weight
    /// `self.playout`). The leaf's game is played out in place: its node was expanded
    /// already, and the batch's games are dropped at the next round.
    fn mix_playout(&mut self, k: usize, values: &mut [f64; MAX_PLAYERS]) {
        let game = &mut self.games[k];
        play_out(game, &mut self.tree.rng, MctsConfig::DEFAULT_DEPLOY_PERCENT);
        let reward = rewards(game, self.margin);
        blend(values, &reward[..game.num_players()], self.playout);
    }

    /// One descent from the root: to a finished game (backed up now), to a new leaf
    /// (added to the batch), or to a leaf already waiting (its virtual visits taken
    /// back). Whether it was one of the first two.
    fn descend(&mut self) -> bool {
        let mut game = self
            .scratch
            .take()
            .expect("the scratch game between descents");
        game.clone_from(&self.tree.root_game);
        game.reseed_draws(self.tree.rng.next_u64());
        match self.tree.descend(&self.rule, &mut game, 0.0) {
            Stop::Over => {
                let r = rewards(&game, self.margin);
                self.tree.back_up(&r, false);
                self.iterations += 1;
                self.scratch = Some(game);
                true
            }
            Stop::Refused => {
                self.tree.take_back();
                self.scratch = Some(game);
                false
            }
            Stop::Leaf(node) => {
                let start = self.paths.len();
                self.paths.extend_from_slice(&self.tree.path);
                self.waiting.push(Waiting {
                    node,
                    path: start..self.paths.len(),
                });
                self.keep(game);
                true
            }
        }
    }

    fn report(&self, game: &Game, started: Instant) -> Evaluation {
        let edges = self.tree.root_edges();
        let visits: u64 = edges.iter().map(|e| u64::from(e.visits)).sum();
        let player = game.to_play();
        let mean = |sum: f64| {
            if self.iterations == 0 {
                0.5
            } else {
                sum / self.iterations as f64
            }
        };
        Evaluation {
            player,
            actions: edges
                .iter()
                .map(|e| ActionEvaluation {
                    action: e.action,
                    visits: u64::from(e.visits),
                    share: if visits == 0 {
                        0.0
                    } else {
                        f64::from(e.visits) / visits as f64
                    },
                    mean_reward: (e.visits > 0).then(|| e.value / f64::from(e.visits)),
                })
                .collect(),
            value: mean(self.tree.seat_sums[player]),
            values: (0..game.num_players())
                .map(|p| mean(self.tree.seat_sums[p]))
                .collect(),
            iterations: self.iterations,
            elapsed: started.elapsed(),
        }
    }
}

/// Mixes each seat's `reward` into its value in `values` with weight `w`:
/// `(1 − w)·value + w·reward`.
fn blend(values: &mut [f64; MAX_PLAYERS], reward: &[f64], w: f64) {
    for (v, r) in values.iter_mut().zip(reward) {
        *v = (1.0 - w) * *v + w * r;
    }
}

/// How far outside `0..=1` an evaluator's value may stray (rounding) before it is refused.
const VALUE_SLACK: f64 = 1e-4;

/// A batch of leaves as a network reads them ([`FlatEvaluator`]): each leaf's
/// observation for its deciding seat and its legal-id mask, in a layout's sizes, leaf
/// after leaf.
#[derive(Debug)]
pub struct FlatLeaves<'a> {
    /// Leaves in the batch.
    pub count: usize,
    /// Board planes, `u8 [count, C, W, W]`.
    pub planes: &'a [u8],
    /// Globals, `f32 [count, G]`.
    pub globals: &'a [f32],
    /// Legal-id masks, `i8 [count, A]` (1 = offered).
    pub masks: &'a [i8],
}

/// What the function of a [`FlatEvaluator`] writes for a batch.
#[derive(Debug)]
pub struct FlatEstimates<'a> {
    /// A prior weight per flat id, `f32 [count, A]`, filled with zeros: finite, not
    /// negative (a policy head's probabilities; ids the mask does not offer are ignored).
    pub priors: &'a mut [f32],
    /// Expected rewards in `0..=1` by seat *relative to the deciding seat* (0 is the
    /// deciding seat, 1 the next in turn order, as the observations number seats),
    /// `f32 [count, players]`, filled with NaN; a row whose entries past the first are
    /// still NaN gives the other seats `(1 - v) / (players - 1)` each (`v` the first).
    pub values: &'a mut [f32],
}

/// A [`LeafEvaluator`] over encoded observations: the leaves' observations and masks in
/// the sizes of `layout` go to a function that writes priors over the flat ids and
/// values ([`FlatLeaves`], [`FlatEstimates`]).
///
/// A legal action's prior is its first id's; a two-step action (a `CELL` id, then a
/// `SLOT` id) shares its first id's prior with the others of that cell in proportion to
/// the priors of their `SLOT` ids in the same row. A legal action with no id (a square
/// outside the window) gets the mean prior of those with one.
pub struct FlatEvaluator<F> {
    layout: Arc<Layout>,
    function: F,
    planes: Vec<u8>,
    globals: Vec<f32>,
    masks: Vec<i8>,
    priors: Vec<f32>,
    values: Vec<f32>,
    paths: Vec<Option<(u32, Option<u32>)>>,
}

impl<F> FlatEvaluator<F>
where
    F: FnMut(&FlatLeaves<'_>, &mut FlatEstimates<'_>) -> Result<(), String>,
{
    /// An evaluator speaking the ids, planes and globals of `layout`.
    pub fn new(layout: Arc<Layout>, function: F) -> FlatEvaluator<F> {
        FlatEvaluator {
            layout,
            function,
            planes: Vec::new(),
            globals: Vec::new(),
            masks: Vec::new(),
            priors: Vec::new(),
            values: Vec::new(),
            paths: Vec::new(),
        }
    }
}

impl<F> LeafEvaluator for FlatEvaluator<F>
where
    F: FnMut(&FlatLeaves<'_>, &mut FlatEstimates<'_>) -> Result<(), String>,
{
    fn evaluate(&mut self, games: &[Game], out: &mut [LeafEstimate]) -> Result<(), String> {
        let count = games.len();
        let (p_len, g_len, a_len) = (
            self.layout.planes_len(),
            self.layout.num_globals(),
            self.layout.num_actions(),
        );
        let players = games.first().map_or(1, Game::num_players);
        self.planes.resize(count * p_len, 0);
        self.globals.resize(count * g_len, 0.0);
        self.masks.resize(count * a_len, 0);
        self.priors.clear();
        self.priors.resize(count * a_len, 0.0);
        self.values.clear();
        self.values.resize(count * players, f32::NAN);
        let mut sessions = Vec::with_capacity(count);
        for (i, game) in games.iter().enumerate() {
            let mut session = Session::with_layout(game.clone(), self.layout.clone());
            let encode = |e: EncodeError| format!("leaf {i}: {e}");
            session
                .observe(
                    game.to_play(),
                    &mut self.planes[i * p_len..(i + 1) * p_len],
                    &mut self.globals[i * g_len..(i + 1) * g_len],
                )
                .map_err(encode)?;
            session
                .legal_mask(&mut self.masks[i * a_len..(i + 1) * a_len])
                .map_err(encode)?;
            sessions.push(session);
        }
        (self.function)(
            &FlatLeaves {
                count,
                planes: &self.planes,
                globals: &self.globals,
                masks: &self.masks,
            },
            &mut FlatEstimates {
                priors: &mut self.priors,
                values: &mut self.values,
            },
        )?;
        for (i, (session, est)) in sessions.iter_mut().zip(out.iter_mut()).enumerate() {
            let row = &self.priors[i * a_len..(i + 1) * a_len];
            if let Some((id, p)) = row
                .iter()
                .enumerate()
                .find(|(_, p)| !p.is_finite() || **p < 0.0)
            {
                return Err(format!(
                    "leaf {i}: the prior of id {id} is {p}; priors must be finite and not negative"
                ));
            }
            let legal: Vec<Action> = session.legal_actions().to_vec();
            self.paths.clear();
            self.paths.extend(
                legal
                    .iter()
                    .map(|&a| session.flat_path(a).map(|p| (p.first, p.second))),
            );
            action_priors(&self.paths, row, &mut est.priors);
            let rel = &self.values[i * players..(i + 1) * players];
            let first = rel[0];
            if !first.is_finite() {
                return Err(format!(
                    "leaf {i}: the value of the deciding seat is {first}; values are expected rewards in 0..=1"
                ));
            }
            let to_play = session.game().to_play();
            for (r, &v) in rel.iter().enumerate() {
                let v = if v.is_nan() && r > 0 {
                    (1.0 - first) / (players - 1) as f32
                } else {
                    v
                };
                est.values[(to_play + r) % players] = f64::from(v);
            }
        }
        Ok(())
    }
}

/// The prior of each legal action from the priors of a row of flat ids (see
/// [`FlatEvaluator`]): `paths` holds each action's first and second ids.
fn action_priors(paths: &[Option<(u32, Option<u32>)>], row: &[f32], out: &mut [f32]) {
    let mut with_id = (0.0f64, 0usize);
    for (k, path) in paths.iter().enumerate() {
        let Some((first, second)) = *path else {
            continue;
        };
        let p1 = row[first as usize];
        out[k] = match second {
            None => p1,
            Some(s) => {
                // The SLOT ids that follow the same CELL id share its prior.
                let (sum, n) = paths
                    .iter()
                    .filter_map(|p| match p {
                        Some((f, Some(s2))) if *f == first => Some(row[*s2 as usize]),
                        _ => None,
                    })
                    .fold((0.0f32, 0usize), |(t, n), p| (t + p, n + 1));
                if sum > 0.0 {
                    p1 * row[s as usize] / sum
                } else {
                    p1 / n.max(1) as f32
                }
            }
        };
        with_id.0 += f64::from(out[k]);
        with_id.1 += 1;
    }
    let mean = if with_id.1 > 0 {
        (with_id.0 / with_id.1 as f64) as f32
    } else {
        1.0
    };
    for (k, path) in paths.iter().enumerate() {
        if path.is_none() {
            out[k] = mean;
        }
    }
}

/// Writes the target of a policy head for the current step of `session` into `out`
/// (`f32 [A]` of the session's layout): each offered id's share of the visits of
/// `eval` (a search of the session's decision). With no focus pending an id gets the
/// shares of the actions it starts (a `CELL` id those of every action on its tile); with
/// a focus pending (after a `CELL` id) each `SLOT` id gets its action's share among the
/// actions on that tile. The shares are normalized over the ids offered, so they sum to 1
/// over the mask; shares of actions without an id (a square outside the window) are left
/// out. If no visit went to an offered id, every offered id gets an equal share. Returns
/// the fraction of the visits the ids cover (1 unless actions lay outside the window).
pub fn flat_policy(
    session: &mut Session,
    eval: &Evaluation,
    out: &mut [f32],
) -> Result<f64, EncodeError> {
    crate::encode::check_len("policy", out.len(), session.num_actions())?;
    out.fill(0.0);
    let focus = session.pending_focus();
    let focus_cell = |session: &mut Session, first: u32| match session.decode(first) {
        Some(FlatDecision::Focus(pos)) => Some(pos),
        _ => None,
    };
    let mut covered = 0.0f64;
    let mut total = 0.0f64;
    for a in &eval.actions {
        let Some(path) = session.flat_path(a.action) else {
            total += a.share;
            continue;
        };
        let id = match focus {
            None => Some(path.first),
            Some(pos) => match path.second {
                Some(second) if focus_cell(session, path.first) == Some(pos) => Some(second),
                _ => None,
            },
        };
        match (focus, id) {
            (_, Some(id)) => {
                out[id as usize] += a.share as f32;
                covered += a.share;
                total += a.share;
            }
            // Another tile's action while a focus is pending: not part of this step.
            (Some(_), None) => {}
            (None, None) => total += a.share,
        }
    }
    let mut mask = vec![0i8; session.num_actions()];
    session.legal_mask(&mut mask)?;
    let sum: f32 = out.iter().sum();
    if sum > 0.0 {
        out.iter_mut().for_each(|p| *p /= sum);
    } else {
        let offered = mask.iter().filter(|m| **m == 1).count().max(1) as f32;
        for (p, m) in out.iter_mut().zip(&mask) {
            *p = if *m == 1 { 1.0 / offered } else { 0.0 };
        }
    }
    Ok(if total > 0.0 { covered / total } else { 1.0 })
}
