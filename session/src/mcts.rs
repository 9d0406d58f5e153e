//! Monte Carlo tree search for a game whose draw order is hidden: the built-in `mcts`
//! player.
//!
//! The order of the pile is unknown to every player, and it is the only hidden
//! information of the game; everything else is on the table. The search therefore
//! models each draw as a chance event whose outcomes are the tiles that may be drawn,
//! each as likely as its copies left in the pile (the information set of a player is the
//! public state). Every iteration *determinizes*: it takes a copy of the game, reseeds
//! the copy's draws ([`Game::reseed_draws`]) so that it cannot follow the real pile's
//! order, and then
//!
//! 1. **selects** down the tree: at a decision, the action with the best UCT score
//!    (mean reward of the deciding player plus `c·sqrt(ln N / n)`), untried actions first
//!    in a random order; at a draw, a tile sampled from the pile's counts (one child per
//!    tile kind), so the tree is an expectimax tree sampled by its probabilities;
//! 2. **expands** one new decision node;
//! 3. **plays out** the rest of the game with uniformly random legal actions (with
//!    [`MctsConfig::deploy_percent`] below 100, a deployment step passes with the rest
//!    of the probability), with sampled draws from the reseeded generator;
//! 4. **backs up** each player's reward, a smooth score margin over the best opponent,
//!    `½ + ½·tanh(margin / 20)` in `0..1`; [`MctsConfig::margin_percent`] below 100
//!    blends in the bare outcome (1 a win, `1/k` a win shared by `k`, 0 a loss).
//!
//! At a bazaar (BZ2) the search considers bids up to [`MAX_SEARCHED_BID`] points only,
//! and playouts open every auction at 0 and never raise: a bid is paid for certain while
//! the tile's worth is an average over the rest of the game, so with a few visits per
//! bid a random high bid would often look best (the root's other bids stay in its
//! report, unvisited).
//!
//! The defaults come from matches between settings (2-player base game, 500 iterations,
//! 80 games each, seats rotated): the margin reward won 79 % against the bare outcome,
//! and uniformly random playouts, `c = 0.4` and no widening did as well as or better than
//! the alternatives tried (passing half of the playout deployments, `c` from 0.25 to
//! 1.2, widening with `w = 2`, margin scales 10 and 40).
//!
//! The move played is the root action visited most often. [`MctsConfig::evaluate`] (and
//! [`search`], with the default settings) reports the whole root instead: each legal
//! action's share of the visits and the decision's value for the deciding player, what a
//! learner imitates and what the browser front end shows as the bot's view.
//!
//! The budget is a number of iterations (exact, reproducible from the seed) or a time in
//! milliseconds (checked after every iteration). With `threads > 1` every thread searches
//! its own tree from its own seed (root parallelism) and their root visit counts are
//! summed; an iteration budget is then shared out among the threads, so the result is
//! still reproducible.
//!
//! A search can be stopped from outside ([`MctsConfig::search_while`]): the calling thread
//! asks a function between iterations whether to go on (Python's Ctrl-C check), and the
//! search's other threads stop at their next iteration once it says no.
//!
//! Memory: the tree lives in two arrays (nodes and edges) that grow with the search;
//! a node's edges are created the second time the node is reached. An iteration
//! allocates nothing once the search has begun: it copies the root game into the memory
//! of the last iteration's game (`clone_from`), whose lists already hold a game played to
//! its end (see `session/tests/mcts_allocation.rs`: 84 allocations for a search of 300
//! iterations from the first decision, and as many for 1200).
//!
//! ```
//! use carcassonne::{Game, GameConfig, Rng};
//! use carcassonne_session::mcts::{Budget, MctsConfig};
//! let game = Game::new(GameConfig::new(2)).unwrap();
//! let config = MctsConfig::new(Budget::Iterations(200));
//! let report = config.search(&game, &mut Rng::new(1));
//! assert!(game.is_legal(report.action));
//! assert_eq!(report.iterations, 200);
//! ```

use crate::json::echo;
use crate::tree::{self, Edge, Node, Rule, Stop};
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{Action, ChanceMode, Game, Phase, Rng};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The highest bid the search considers at a bazaar (BZ2); higher bids are never chosen.
pub const MAX_SEARCHED_BID: u32 = 8;

/// Whether the search considers `action`: every action but bids above
/// [`MAX_SEARCHED_BID`].
pub(crate) fn searched(action: &Action) -> bool {
    match action {
        Action::BazaarSelect { bid, .. } | Action::BazaarBid { bid } => *bid <= MAX_SEARCHED_BID,
        _ => true,
    }
}

/// How long a search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Exactly this many iterations (summed over the threads).
    Iterations(u32),
    /// Until this many milliseconds have passed (checked after every iteration).
    Millis(u32),
}

impl Budget {
    /// The largest iteration budget accepted.
    pub const MAX_ITERATIONS: u32 = 100_000_000;
    /// The largest time budget accepted, in milliseconds (one hour).
    pub const MAX_MILLIS: u32 = 3_600_000;
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
        }
    }
}

/// The settings of an MCTS player. Plain data (`Copy`), so a player is a value.
///
/// Written as a spec string `mcts:<budget>[:<option>=<value>]...`, e.g. `mcts:2000`
/// (2000 iterations), `mcts:100ms` (a tenth of a second per decision),
/// `mcts:4000:threads=2:c=0.5` (see [`MctsConfig::parse`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MctsConfig {
    /// Iterations or time per decision.
    pub budget: Budget,
    /// Threads searching in parallel, each its own tree (root parallelism), 1 to 64.
    pub threads: u8,
    /// The UCT exploration constant `c`, in hundredths (40 is `c = 0.4`).
    pub exploration_centi: u16,
    /// How often a playout's deployment step takes one of the deployments rather than
    /// passing (percent; 100: every option alike).
    pub deploy_percent: u8,
    /// Weight of the score margin in the reward, percent (the rest is the win, 1, ½ for a
    /// shared win, or 0).
    pub margin_percent: u8,
    /// Progressive widening below the root, in tenths (0: off): after `n` visits a node
    /// considers its first `ceil(w·sqrt(n))` actions, in a random order.
    pub widen_tenths: u16,
}

impl MctsConfig {
    /// Default iterations when the spec gives no budget (`mcts`).
    pub const DEFAULT_ITERATIONS: u32 = 1000;
    /// Default exploration constant, in hundredths.
    pub const DEFAULT_EXPLORATION_CENTI: u16 = 40;
    /// Default chance of deploying in a playout, in percent.
    pub const DEFAULT_DEPLOY_PERCENT: u8 = 100;
    /// Default weight of the margin in the reward, in percent.
    pub const DEFAULT_MARGIN_PERCENT: u8 = 100;
    /// Default progressive widening, in tenths (0: off).
    pub const DEFAULT_WIDEN_TENTHS: u16 = 0;
    /// The most threads accepted.
    pub const MAX_THREADS: u8 = 64;

    /// A single-threaded player with the default settings and `budget`.
    pub const fn new(budget: Budget) -> MctsConfig {
        MctsConfig {
            budget,
            threads: 1,
            exploration_centi: Self::DEFAULT_EXPLORATION_CENTI,
            deploy_percent: Self::DEFAULT_DEPLOY_PERCENT,
            widen_tenths: Self::DEFAULT_WIDEN_TENTHS,
            margin_percent: Self::DEFAULT_MARGIN_PERCENT,
        }
    }

    /// The exploration constant `c`.
    pub fn exploration(&self) -> f64 {
        f64::from(self.exploration_centi) / 100.0
    }

    /// Reads the part of a spec after `mcts` (`""`, `":2000"`, `":100ms:threads=2"`).
    ///
    /// The first field is the budget: a number of iterations (`2000`, 1 to 100 000 000)
    /// or of milliseconds (`100ms`, 1 to 3 600 000). Then options `name=value`:
    /// `threads` (root-parallel search threads, 1 to 64, default 1), `c` (the
    /// exploration constant, 0 to 10, two decimals, default 0.4), `deploy` (percent of
    /// the playouts' deployment steps that deploy rather than pass, 0 to 100, default 100:
    /// uniform), `margin` (weight of the score margin in the reward against the bare
    /// outcome, percent, default 100) and `widen` (progressive widening below the root,
    /// 0 to 100, one decimal, default 0: off).
    ///
    /// ```
    /// use carcassonne_session::mcts::{Budget, MctsConfig};
    /// let c = MctsConfig::parse(":250ms:threads=2").unwrap();
    /// assert_eq!((c.budget, c.threads), (Budget::Millis(250), 2));
    /// assert!(MctsConfig::parse(":fast").unwrap_err().contains("fast"));
    /// ```
    pub fn parse(rest: &str) -> Result<MctsConfig, String> {
        let mut config = MctsConfig::new(Budget::Iterations(Self::DEFAULT_ITERATIONS));
        if rest.is_empty() {
            return Ok(config);
        }
        let Some(rest) = rest.strip_prefix(':') else {
            return Err(format!("expected ':' after mcts, found {}", echo(rest)));
        };
        let mut fields = rest.split(':');
        let budget = fields.next().unwrap_or("");
        config.budget = parse_budget(budget)?;
        let mut given: Vec<&str> = Vec::new();
        for field in fields {
            let Some((name, value)) = field.split_once('=') else {
                return Err(format!(
                    "option {}: expected name=value (threads, c, deploy, margin, widen)",
                    echo(field)
                ));
            };
            if given.contains(&name) {
                return Err(format!("option {} given twice", echo(name)));
            }
            given.push(name);
            match name {
                "threads" => {
                    config.threads = value
                        .parse::<u8>()
                        .ok()
                        .filter(|t| (1..=Self::MAX_THREADS).contains(t))
                        .ok_or_else(|| {
                            format!(
                                "threads: expected 1 to {}, found {}",
                                Self::MAX_THREADS,
                                echo(value)
                            )
                        })?;
                }
                "c" => {
                    let c = value
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && (0.0..=10.0).contains(c))
                        .ok_or_else(|| {
                            format!("c: expected a number from 0 to 10, found {}", echo(value))
                        })?;
                    config.exploration_centi = (c * 100.0).round() as u16;
                }
                "widen" => {
                    let w = value
                        .parse::<f64>()
                        .ok()
                        .filter(|w| w.is_finite() && (0.0..=100.0).contains(w))
                        .ok_or_else(|| {
                            format!(
                                "widen: expected a number from 0 (off) to 100, found {}",
                                echo(value)
                            )
                        })?;
                    config.widen_tenths = (w * 10.0).round() as u16;
                }
                "margin" => {
                    config.margin_percent = value
                        .parse::<u8>()
                        .ok()
                        .filter(|p| *p <= 100)
                        .ok_or_else(|| {
                            format!(
                                "margin: expected a percentage 0 to 100, found {}",
                                echo(value)
                            )
                        })?;
                }
                "deploy" => {
                    config.deploy_percent = value
                        .parse::<u8>()
                        .ok()
                        .filter(|p| *p <= 100)
                        .ok_or_else(|| {
                            format!(
                                "deploy: expected a percentage 0 to 100, found {}",
                                echo(value)
                            )
                        })?;
                }
                _ => {
                    return Err(format!(
                        "unknown option {} (known: threads, c, deploy, margin, widen)",
                        echo(name)
                    ))
                }
            }
        }
        Ok(config)
    }

    /// Chooses an action for the player to decide in `game` (not over): the root action
    /// visited most often. With a single legal action it is returned without a search;
    /// when the game waits for a draw (explicit chance), a tile is sampled from the
    /// pile's counts. `rng` gives the search its seed (one draw).
    pub fn choose(&self, game: &Game, rng: &mut Rng) -> Action {
        self.search(game, rng).action
    }

    /// Searches `game` (not over) and reports the chosen action with the search's
    /// figures. See [`MctsConfig::choose`].
    pub fn search(&self, game: &Game, rng: &mut Rng) -> SearchReport {
        self.search_while(game, rng, &mut || true)
            .expect("a search that is never stopped ends")
    }

    /// [`MctsConfig::search`] that can be stopped: `go_on` is asked on the calling thread
    /// after each of its iterations and, with `threads > 1`, every millisecond while it
    /// waits for the other threads; once it answers `false` every thread stops at its next
    /// iteration and the result is `None`. A search that is not stopped reports what
    /// [`MctsConfig::search`] reports (the same action from the same seed). `rng` gives
    /// its one draw either way.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig, Rng};
    /// use carcassonne_session::mcts::{Budget, MctsConfig};
    /// let game = Game::new(GameConfig::new(2)).unwrap();
    /// let config = MctsConfig::new(Budget::Iterations(100_000_000));
    /// let mut asked = 0;
    /// let stopped = config.search_while(&game, &mut Rng::new(1), &mut || {
    ///     asked += 1;
    ///     asked < 10
    /// });
    /// assert_eq!((stopped, asked), (None, 10));
    /// ```
    pub fn search_while(
        &self,
        game: &Game,
        rng: &mut Rng,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<SearchReport> {
        let started = Instant::now();
        let legal = game.legal();
        assert!(
            !legal.is_empty(),
            "MCTS asked to decide in a game that is over"
        );
        let seed = rng.next_u64();
        let mut report = SearchReport {
            action: legal[0],
            iterations: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            root: Vec::new(),
        };
        if game.phase().is_chance() {
            report.action = legal[sample_draw(game, &mut Rng::new(seed))];
            report.elapsed = started.elapsed();
            return Some(report);
        }
        if legal.len() == 1 {
            report.elapsed = started.elapsed();
            return Some(report);
        }
        let (root, iterations, nodes, _) = self.search_root(game, seed, started, go_on)?;
        report.root = root;
        report.iterations = iterations;
        report.nodes = nodes;
        // The most visited action; ties go to the better mean, then to the first listed.
        let best = report
            .root
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| {
                a.visits
                    .cmp(&b.visits)
                    .then(a.mean_reward.total_cmp(&b.mean_reward))
                    .then(j.cmp(i))
            })
            .map(|(i, _)| i)
            .unwrap_or(0);
        report.action = legal[best];
        report.elapsed = started.elapsed();
        Some(report)
    }

    /// Searches a decision of `game` and reports what the search thinks of it: the share
    /// of the root's visits each legal action got and the value of the decision for the
    /// deciding player ([`Evaluation`]). Unlike [`MctsConfig::search`], a decision with
    /// one legal action is searched too (its value is still wanted). `None` when the game
    /// is over or waits for a draw (explicit chance: a chance event, nobody's decision).
    /// `rng` gives the search its seed (one draw), so the same `rng` state gives the same
    /// evaluation as [`MctsConfig::search`], whose action is the most visited one here.
    ///
    /// ```
    /// use carcassonne::{Game, GameConfig, Rng};
    /// use carcassonne_session::mcts::{Budget, MctsConfig};
    /// let game = Game::new(GameConfig::new(2)).unwrap();
    /// let config = MctsConfig::new(Budget::Iterations(300));
    /// let eval = config.evaluate(&game, &mut Rng::new(5)).unwrap();
    /// assert_eq!(eval.actions.len(), game.legal().len());
    /// let total: f64 = eval.actions.iter().map(|a| a.share).sum();
    /// assert!((total - 1.0).abs() < 1e-9);
    /// assert!((0.0..=1.0).contains(&eval.value));
    /// assert_eq!(eval.best().action, config.search(&game, &mut Rng::new(5)).action);
    /// ```
    pub fn evaluate(&self, game: &Game, rng: &mut Rng) -> Option<Evaluation> {
        self.evaluate_while(game, rng, &mut || true)
    }

    /// [`MctsConfig::evaluate`] that can be stopped: `go_on` is asked as
    /// [`MctsConfig::search_while`] asks it, and a stopped search gives `None`.
    pub fn evaluate_while(
        &self,
        game: &Game,
        rng: &mut Rng,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<Evaluation> {
        if game.is_terminal() || game.phase().is_chance() {
            return None;
        }
        let started = Instant::now();
        let seed = rng.next_u64();
        let (root, iterations, _, seat_sums) = self.search_root(game, seed, started, go_on)?;
        let visits: u64 = root.iter().map(|r| r.visits).sum();
        let reward: f64 = root.iter().map(|r| r.mean_reward * r.visits as f64).sum();
        let actions = root
            .iter()
            .map(|r| ActionEvaluation {
                action: r.action,
                visits: r.visits,
                share: if visits == 0 {
                    0.0
                } else {
                    r.visits as f64 / visits as f64
                },
                mean_reward: (r.visits > 0).then_some(r.mean_reward),
            })
            .collect();
        Some(Evaluation {
            player: game.to_play(),
            actions,
            value: if visits == 0 {
                0.5
            } else {
                reward / visits as f64
            },
            values: (0..game.num_players())
                .map(|p| {
                    if iterations == 0 {
                        0.5
                    } else {
                        seat_sums[p] / iterations as f64
                    }
                })
                .collect(),
            iterations,
            elapsed: started.elapsed(),
        })
    }

    /// Runs the trees of a search of `game` (a decision, not over) from `seed`, started
    /// at `started`, asking `go_on` as [`MctsConfig::search_while`] does: every legal
    /// action with its summed root statistics, in the game's legal order, the iterations,
    /// the tree nodes and each seat's summed reward over the iterations; `None` if `go_on`
    /// stopped it.
    fn search_root(
        &self,
        game: &Game,
        seed: u64,
        started: Instant,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<(Vec<RootStat>, u64, u64, [f64; MAX_PLAYERS])> {
        let legal = game.legal();
        let deadline = match self.budget {
            Budget::Millis(ms) => Some(started + Duration::from_millis(u64::from(ms))),
            Budget::Iterations(_) => None,
        };
        let threads = u32::from(self.threads.max(1));
        let share = |t: u32| match self.budget {
            Budget::Iterations(n) => n / threads + u32::from(t < n % threads),
            Budget::Millis(_) => u32::MAX,
        };
        let thread_seed = |t: u32| seed ^ u64::from(t).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Set once `go_on` says no; the other threads look at it after every iteration.
        let stop = AtomicBool::new(false);
        let mut caller_go_on = || {
            let go = go_on();
            if !go {
                stop.store(true, Ordering::Relaxed);
            }
            go
        };
        let first = Tree::new(self, game, thread_seed(0));
        let results: Vec<TreeResult> = if threads == 1 {
            vec![first.run(share(0), deadline, &mut caller_go_on)]
        } else {
            std::thread::scope(|scope| {
                let stop = &stop;
                let handles: Vec<_> = (1..threads)
                    .map(|t| {
                        scope.spawn(move || {
                            Tree::new(self, game, thread_seed(t)).run(
                                share(t),
                                deadline,
                                &mut || !stop.load(Ordering::Relaxed),
                            )
                        })
                    })
                    .collect();
                // The calling thread searches the first tree, then waits for the others
                // still asking `go_on`.
                let mut results = vec![first.run(share(0), deadline, &mut caller_go_on)];
                while !handles.iter().all(|h| h.is_finished()) {
                    if !stop.load(Ordering::Relaxed) {
                        caller_go_on();
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                results.extend(
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("an MCTS thread panicked")),
                );
                results
            })
        };
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        // Sum the root statistics of every tree, in the game's legal order.
        let mut root: Vec<RootStat> = legal
            .iter()
            .map(|&action| RootStat {
                action,
                visits: 0,
                mean_reward: 0.0,
            })
            .collect();
        let mut value = vec![0.0f64; legal.len()];
        let (mut iterations, mut nodes) = (0u64, 0u64);
        let mut seat_sums = [0.0f64; MAX_PLAYERS];
        for r in &results {
            iterations += r.iterations;
            nodes += r.nodes;
            for (sum, v) in seat_sums.iter_mut().zip(&r.seat_sums) {
                *sum += v;
            }
            for (i, (visits, v)) in r.root.iter().enumerate() {
                root[i].visits += u64::from(*visits);
                value[i] += v;
            }
        }
        for (stat, v) in root.iter_mut().zip(&value) {
            if stat.visits > 0 {
                stat.mean_reward = v / stat.visits as f64;
            }
        }
        Some((root, iterations, nodes, seat_sums))
    }
}

impl fmt::Display for MctsConfig {
    /// The spec string: `mcts:<budget>` and every option that differs from its default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mcts:{}", self.budget)?;
        if self.threads != 1 {
            write!(f, ":threads={}", self.threads)?;
        }
        if self.exploration_centi != Self::DEFAULT_EXPLORATION_CENTI {
            write!(f, ":c={}", self.exploration())?;
        }
        if self.deploy_percent != Self::DEFAULT_DEPLOY_PERCENT {
            write!(f, ":deploy={}", self.deploy_percent)?;
        }
        if self.margin_percent != Self::DEFAULT_MARGIN_PERCENT {
            write!(f, ":margin={}", self.margin_percent)?;
        }
        if self.widen_tenths != Self::DEFAULT_WIDEN_TENTHS {
            write!(f, ":widen={}", f64::from(self.widen_tenths) / 10.0)?;
        }
        Ok(())
    }
}

/// Reads a budget as the spec strings write it: iterations (`"2000"`, 1 to
/// [`Budget::MAX_ITERATIONS`]) or milliseconds (`"100ms"`, 1 to [`Budget::MAX_MILLIS`]).
pub fn parse_budget(text: &str) -> Result<Budget, String> {
    let expected = "expected a number of iterations (mcts:2000) or milliseconds (mcts:100ms)";
    if let Some(ms) = text.strip_suffix("ms") {
        return ms
            .parse::<u32>()
            .ok()
            .filter(|m| (1..=Budget::MAX_MILLIS).contains(m))
            .map(Budget::Millis)
            .ok_or_else(|| {
                format!(
                    "budget {}: {expected}; milliseconds from 1 to {}",
                    echo(text),
                    Budget::MAX_MILLIS
                )
            });
    }
    text.parse::<u32>()
        .ok()
        .filter(|n| (1..=Budget::MAX_ITERATIONS).contains(n))
        .map(Budget::Iterations)
        .ok_or_else(|| {
            format!(
                "budget {}: {expected}; iterations from 1 to {}",
                echo(text),
                Budget::MAX_ITERATIONS
            )
        })
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// The action chosen.
    pub action: Action,
    /// Iterations run (over every thread; 0 when there was nothing to search).
    pub iterations: u64,
    /// Tree nodes created (over every thread).
    pub nodes: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// Every root action in the game's legal order with its statistics (empty when
    /// there was nothing to search).
    pub root: Vec<RootStat>,
}

/// What a search thinks of one decision ([`MctsConfig::evaluate`], [`search`]): the
/// visit shares of the root's actions (a policy: what a learner imitates) and the value
/// of the decision for the deciding player.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The deciding seat.
    pub player: usize,
    /// Every legal action of the decision, in the game's legal order ([`Game::legal`]).
    /// The shares sum to 1; actions the search does not consider (bids above
    /// [`MAX_SEARCHED_BID`]) have share 0.
    pub actions: Vec<ActionEvaluation>,
    /// The mean reward of the deciding player over every iteration, in `0..=1` (the
    /// reward of [the module docs](self): ½ is an even game).
    pub value: f64,
    /// Every seat's mean reward over every iteration, in `0..=1`, by seat (the deciding
    /// seat's is [`Evaluation::value`]); ½ each when nothing was searched.
    pub values: Vec<f64>,
    /// Iterations run.
    pub iterations: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl Evaluation {
    /// The action the MCTS player plays: the most visited, ties to the better mean reward,
    /// then to the first listed (as [`MctsConfig::search`] chooses).
    pub fn best(&self) -> &ActionEvaluation {
        self.actions
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| {
                a.visits
                    .cmp(&b.visits)
                    .then(
                        a.mean_reward
                            .unwrap_or(0.0)
                            .total_cmp(&b.mean_reward.unwrap_or(0.0)),
                    )
                    .then(j.cmp(i))
            })
            .map(|(_, a)| a)
            .expect("a decision has a legal action")
    }

    /// The `k` most visited actions, most visited first (ties in legal order).
    pub fn top(&self, k: usize) -> Vec<&ActionEvaluation> {
        let mut order: Vec<&ActionEvaluation> = self.actions.iter().collect();
        order.sort_by_key(|a| std::cmp::Reverse(a.visits));
        order.truncate(k);
        order
    }
}

/// One legal action in an [`Evaluation`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ActionEvaluation {
    /// The action.
    pub action: Action,
    /// Iterations that began with it.
    pub visits: u64,
    /// Its share of the root's visits, in `0..=1`.
    pub share: f64,
    /// Mean reward of the deciding player after it, in `0..=1`; `None` if never tried.
    pub mean_reward: Option<f64>,
}

/// Evaluates a decision of `game` with the default MCTS settings and `budget`, seeded
/// with `seed`: per legal action its visit share, and the decision's value for the
/// deciding player ([`MctsConfig::evaluate`]; `None` when the game is over or waits for a
/// draw).
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::mcts::{search, Budget};
/// let game = Game::new(GameConfig::new(2)).unwrap();
/// let eval = search(&game, Budget::Iterations(200), 1).unwrap();
/// assert_eq!(eval.iterations, 200);
/// assert!(game.is_legal(eval.best().action));
/// ```
pub fn search(game: &Game, budget: Budget, seed: u64) -> Option<Evaluation> {
    MctsConfig::new(budget).evaluate(game, &mut Rng::new(seed))
}

/// The statistics of one root action.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RootStat {
    /// The action.
    pub action: Action,
    /// Iterations that began with it.
    pub visits: u64,
    /// Mean reward of the deciding player after it, in `0..=1`.
    pub mean_reward: f64,
}

/// The index in `game.legal()` of a tile sampled from the pile's counts among the draws
/// the game offers now.
pub(crate) fn sample_draw(game: &Game, rng: &mut Rng) -> usize {
    let counts = game.remaining_tiles();
    let bag = game.sheep_bag();
    let weight = |a: &Action| match a {
        Action::Draw { tile } => u32::from(counts[tile.index()]),
        // HS1, HS2: a token of the sheep bag.
        Action::DrawToken { token } => u32::from(bag[*token as usize]),
        _ => 0,
    };
    let legal = game.legal();
    let total: u32 = legal.iter().map(weight).sum();
    if total == 0 {
        return rng.below(legal.len() as u32) as usize;
    }
    let mut r = rng.below(total);
    for (i, a) in legal.iter().enumerate() {
        let w = weight(a);
        if r < w {
            return i;
        }
        r -= w;
    }
    legal.len() - 1
}

/// The root statistics of one tree, and its size.
struct TreeResult {
    iterations: u64,
    nodes: u64,
    /// Visits and summed reward per root action, in the game's legal order.
    root: Vec<(u32, f64)>,
    /// Each seat's summed reward over the iterations.
    seat_sums: [f64; MAX_PLAYERS],
}

/// The selection of the playout search: UCT, untried edges first in a random order
/// (the root's in `root_order`, the others in their shuffled order, opened by
/// progressive widening below the root).
struct Uct {
    c: f64,
    /// Progressive widening factor below the root (0: off).
    widen: f64,
    /// A random order of the root's edges for their first tries.
    root_order: Vec<u32>,
}

impl Rule for Uct {
    type Prior = ();
    const VIRTUAL_VISITS: bool = false;

    /// A new leaf stops the descent (it is played out); its second visit expands it,
    /// its edges shuffled.
    #[inline]
    fn open(&self, tree: &mut tree::Tree<()>, n: usize, game: &Game) -> Option<Stop> {
        if tree.nodes[n].visits == 0 {
            tree.nodes[n].visits += 1;
            return Some(Stop::Leaf(n as u32));
        }
        tree.expand(n, game, (), true);
        None
    }

    #[inline]
    fn select(&self, tree: &mut tree::Tree<()>, n: usize) -> usize {
        if n == 0 {
            self.select_root(tree)
        } else {
            self.select_below(tree, n)
        }
    }
}

impl Uct {
    /// UCT at the root, whose edges keep the legal order: untried edges in `root_order`.
    fn select_root(&self, tree: &mut tree::Tree<()>) -> usize {
        let node = tree.nodes[0];
        if (node.tried as usize) < self.root_order.len() {
            tree.nodes[0].tried += 1;
            return (node.first + self.root_order[node.tried as usize]) as usize;
        }
        self.best_uct(tree, node)
    }

    /// UCT at a decision node: the next untried edge, else the best score.
    ///
    /// With progressive widening (`widen = k > 0`) only the first `ceil(k·sqrt(n))` edges
    /// (in their random order) are open after `n` visits of the node: a new one is tried
    /// when the count grows, and UCT chooses among the tried ones in between.
    fn select_below(&self, tree: &mut tree::Tree<()>, n: usize) -> usize {
        let node = tree.nodes[n];
        let open = if self.widen > 0.0 {
            ((self.widen * f64::from(node.visits).sqrt()).ceil() as u32).clamp(1, node.len)
        } else {
            node.len
        };
        if node.tried < open {
            tree.nodes[n].tried += 1;
            return (node.first + node.tried) as usize;
        }
        self.best_uct(
            tree,
            Node {
                len: node.tried,
                ..node
            },
        )
    }

    /// The edge of `node` (its first `len`) with the best UCT score.
    fn best_uct(&self, tree: &tree::Tree<()>, node: Node) -> usize {
        let log_n = f64::from(node.visits.max(1)).ln();
        let mut best = node.first as usize;
        let mut best_score = f64::NEG_INFINITY;
        for e in node.edges() {
            let edge = &tree.edges[e];
            if !searched(&edge.action) {
                continue;
            }
            let n = f64::from(edge.visits.max(1));
            let score = edge.value / n + self.c * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = e;
            }
        }
        best
    }
}

/// One tree of the playout search with its buffers.
struct Tree<'a> {
    config: &'a MctsConfig,
    tree: tree::Tree<()>,
    /// The game an iteration plays, copied from the root into the memory of the last
    /// iteration's (`None` only while an iteration runs).
    scratch: Option<Game>,
    /// Weight of the margin in the reward.
    margin: f64,
}

impl<'a> Tree<'a> {
    fn new(config: &'a MctsConfig, game: &Game, seed: u64) -> Tree<'a> {
        let mut tree = tree::Tree::new(game, seed, 1 << 12, 1 << 14);
        // The root's edges keep the game's legal order (the report lists them so).
        let legal = tree.root_game.legal().to_vec();
        tree.expand_with(0, legal.into_iter().map(|action| Edge::new(action, ())));
        Tree {
            config,
            scratch: Some(tree.root_game.clone()),
            tree,
            margin: f64::from(config.margin_percent) / 100.0,
        }
    }

    /// Runs `iterations` iterations, or until `deadline`, or until `go_on` (asked after
    /// every iteration) says no.
    fn run(
        mut self,
        iterations: u32,
        deadline: Option<Instant>,
        go_on: &mut dyn FnMut() -> bool,
    ) -> TreeResult {
        let mut done = 0u64;
        // The root's untried actions are taken in a random order too.
        let rule = Uct {
            c: self.config.exploration(),
            widen: f64::from(self.config.widen_tenths) / 10.0,
            root_order: self.shuffled_root_order(),
        };
        while done < u64::from(iterations) {
            if let Some(d) = deadline {
                if done > 0 && Instant::now() >= d {
                    break;
                }
            }
            self.iterate(&rule);
            done += 1;
            if !go_on() {
                break;
            }
        }
        TreeResult {
            iterations: done,
            nodes: self.tree.nodes.len() as u64,
            root: self
                .tree
                .root_edges()
                .iter()
                .map(|e| (e.visits, e.value))
                .collect(),
            seat_sums: self.tree.seat_sums,
        }
    }

    /// A random order of the root's edges for their first tries.
    fn shuffled_root_order(&mut self) -> Vec<u32> {
        let tree = &mut self.tree;
        let first = tree.nodes[0].first as usize;
        let mut order: Vec<u32> = (0..tree.nodes[0].len)
            .filter(|&i| searched(&tree.edges[first + i as usize].action))
            .collect();
        for i in (1..order.len()).rev() {
            let j = tree.rng.below(i as u32 + 1) as usize;
            order.swap(i, j);
        }
        order
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self, rule: &Uct) {
        let mut game = self
            .scratch
            .take()
            .expect("the scratch game between iterations");
        let tree = &mut self.tree;
        game.clone_from(&tree.root_game);
        game.reseed_draws(tree.rng.next_u64());
        tree.descend(rule, &mut game, ());
        play_out(&mut game, &mut tree.rng, self.config.deploy_percent);
        let rewards = rewards(&game, self.margin);
        tree.back_up(&rewards, true);
        self.scratch = Some(game);
    }
}

/// Plays `game` to its end with the default policy (uniformly random legal actions; a
/// deployment step deploys with `deploy_percent` % and passes otherwise; an auction opens
/// at 0 and nobody raises, BZ2) and draws sampled from its generator.
pub(crate) fn play_out(game: &mut Game, rng: &mut Rng, deploy_percent: u8) {
    game.set_chance_mode(ChanceMode::Sampled);
    let deploy = u32::from(deploy_percent);
    while !game.is_terminal() {
        let legal = game.legal();
        let action = if game.phase() == Phase::BazaarSelect {
            // A random tile of the offer, opened at 0 (the first bid of each tile).
            let opened_at_zero = |a: &&Action| matches!(a, Action::BazaarSelect { bid: 0, .. });
            let tiles = legal.iter().filter(opened_at_zero).count();
            let k = rng.below(tiles as u32) as usize;
            *legal
                .iter()
                .filter(opened_at_zero)
                .nth(k)
                .expect("a tile opened at 0")
        } else if game.phase() == Phase::BazaarBid {
            Action::BazaarPass
        } else if game.phase() == Phase::Deploy && deploy < 100 {
            // Pass is the last deployment option; deploy with the set probability.
            let pass = legal.len() - 1;
            if pass == 0 || rng.below(100) >= deploy {
                legal[pass]
            } else {
                legal[rng.below(pass as u32) as usize]
            }
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        game.apply_unchecked(action);
    }
}

/// Each player's reward for a finished game, in `0..=1`: the outcome (1 win, `1/k` a win
/// shared by `k`, 0 a loss) and, with weight `margin`, a smooth margin over the best
/// opponent.
pub(crate) fn rewards(game: &Game, margin_weight: f64) -> [f64; MAX_PLAYERS] {
    rewards_of_scores(game.scores(), margin_weight)
}

/// [`rewards`] of a game that ended with `scores`.
pub(crate) fn rewards_of_scores(scores: &[i32], margin_weight: f64) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for (p, o) in out.iter_mut().enumerate().take(scores.len()) {
        let (outcome, points) = outcome_and_margin(scores, p);
        let margin = 0.5 + 0.5 * (f64::from(points) / MARGIN_SCALE).tanh();
        *o = (1.0 - margin_weight) * outcome + margin_weight * margin;
    }
    out
}

/// Seat `p`'s outcome by the final `scores` (1 a win, `1/k` a win shared by `k`, 0 a
/// loss; B17) and its score minus the best opponent's.
pub(crate) fn outcome_and_margin(scores: &[i32], p: usize) -> (f64, i32) {
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|s| **s == best).count() as f64;
    let other = scores
        .iter()
        .enumerate()
        .filter(|(q, _)| *q != p)
        .map(|(_, s)| *s)
        .max()
        .unwrap_or(scores[p]);
    let outcome = if scores[p] == best {
        1.0 / winners
    } else {
        0.0
    };
    (outcome, scores[p] - other)
}

/// Points of margin at which the margin reward is `½ + ½·tanh(1)`.
const MARGIN_SCALE: f64 = 20.0;
