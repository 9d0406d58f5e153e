//! Self-play with tree search, for training a policy-value network: whole games in which
//! every seat searches every decision, and a training row per searched step.
//!
//! A row holds what the deciding seat saw and what the search taught: the observation as
//! the encoder writes it (board planes and globals in a layout, [`crate::encode`]), the
//! legal-id mask of the step, the search's visit shares over those ids (summing to 1 over
//! the mask, [`crate::guided::flat_policy`]), the search's value for the deciding seat and,
//! once the game is over, that seat's outcome (1 a win, `1/k` a win shared by `k`, 0 a
//! loss) and final score margin over the best opponent.
//!
//! Each decision with more than one legal action is searched ([`Searcher`]: the built-in
//! playout search or a [`GuidedSearch`] with a leaf evaluator); a decision with one legal
//! action is played without a search and gives no row. The first
//! [`SelfPlay::sample_moves`] searched decisions of a game take an action drawn in
//! proportion to its visits (so that games differ), the later ones the most visited
//! action. A two-step decision (a `CELL` id, then a `SLOT` id) gives a row per step: the
//! second row is seen with the focus picked by the first id, its target the shares among
//! the actions on that tile. Decisions whose actions all lie outside the window give no
//! row.
//!
//! Games run on [`SelfPlay::threads`] threads (`std::thread`), each taking the next game
//! to play; game `g` is dealt from seed [`episode_seed`]`(seed, 0, first_game + g)` and
//! searched from
//! its own generator, and the rows come out in game order, so the rows depend on the
//! settings and the seed only, not on the threads.
//!
//! ```
//! use carcassonne::GameConfig;
//! use carcassonne_session::encode::{EncoderSpec, Layout, Preset};
//! use carcassonne_session::mcts::{Budget, MctsConfig};
//! use carcassonne_session::selfplay::{SelfPlay, Searcher};
//! use std::sync::Arc;
//! let config = GameConfig::new(2);
//! let layout = Arc::new(Layout::new(EncoderSpec::new(16).unwrap(), Preset::Compact, &config));
//! let mut selfplay = SelfPlay::new(config, layout, Searcher::Playouts(MctsConfig::new(Budget::Iterations(8))));
//! selfplay.games = 1;
//! let rows = selfplay.run(&mut || true).unwrap();
//! assert!(rows.len() > 50);
//! let a = rows.num_actions;
//! let total: f32 = rows.policies[..a].iter().sum();
//! assert!((total - 1.0).abs() < 1e-5);
//! ```

use crate::encode::{FlatDecision, Layout};
use crate::guided::{flat_policy, GuidedSearch, LeafEvaluator, SearchError};
use crate::mcts::{outcome_and_margin, Evaluation, MctsConfig};
use crate::session::Session;
use crate::vector::episode_seed;
use carcassonne::{Action, Game, GameConfig, Rng};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// How each decision is searched.
pub enum Searcher<'a> {
    /// The built-in search with random playouts ([`MctsConfig::evaluate`]).
    Playouts(MctsConfig),
    /// A guided search; the function gives each thread its evaluator (called once per
    /// thread with the thread's number).
    Guided(
        GuidedSearch,
        &'a (dyn Fn(usize) -> Box<dyn LeafEvaluator + 'a> + Sync),
    ),
}

/// The settings of a self-play run.
pub struct SelfPlay<'a> {
    /// The games' configuration (its seed is replaced by each game's).
    pub config: GameConfig,
    /// The observation layout of the rows (window, preset).
    pub layout: Arc<Layout>,
    /// How decisions are searched.
    pub searcher: Searcher<'a>,
    /// Games to play.
    pub games: u32,
    /// Threads, 1 to [`SelfPlay::MAX_THREADS`].
    pub threads: usize,
    /// The seed of the run: game `g` is dealt from `episode_seed(seed, 0, first_game + g)`.
    pub seed: u64,
    /// The number of the run's first game in the seed's stream (a run of games `0..n`
    /// followed by one with `first_game = n` plays the games of one run of `2n`).
    pub first_game: u64,
    /// Searched decisions per game whose action is drawn by visit share (the rest take
    /// the most visited action).
    pub sample_moves: u32,
}

/// Training rows, row after row (`N` rows; sizes from the layout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    /// Length of a row of planes (`C·W·W`).
    pub planes_len: usize,
    /// Globals per row (`G`).
    pub num_globals: usize,
    /// Flat ids per row (`A`).
    pub num_actions: usize,
    /// Board planes, `u8 [N, C·W·W]`.
    pub planes: Vec<u8>,
    /// Globals, `f32 [N, G]`.
    pub globals: Vec<f32>,
    /// Legal-id masks, `i8 [N, A]`.
    pub masks: Vec<i8>,
    /// Visit shares over the ids, `f32 [N, A]`: 1 in total over the mask, 0 elsewhere.
    pub policies: Vec<f32>,
    /// The deciding seat of each row.
    pub players: Vec<u8>,
    /// The search's value of the decision for the deciding seat, in `0..=1`.
    pub search_values: Vec<f32>,
    /// The search's value of the decision for every seat, in `0..=1`, `f32 [N, P]` for
    /// `P` players (the deciding seat's is its `search_values` entry).
    pub seat_values: Vec<f32>,
    /// The id taken at each row's step (`None` when the action taken has no id in the
    /// window).
    pub chosen: Vec<Option<u32>>,
    /// The index of each row's action in its game's `actions`.
    pub action_index: Vec<u32>,
    /// The deciding seat's outcome: 1 a win, `1/k` a win shared by `k`, 0 a loss.
    pub outcomes: Vec<f32>,
    /// The deciding seat's final score minus the best opponent's.
    pub margins: Vec<i32>,
    /// The game of each row (its index in the run).
    pub game_index: Vec<u32>,
    /// Each game's actions, in order (draws included), to replay it.
    pub actions: Vec<Vec<Action>>,
    /// Each game's seed.
    pub seeds: Vec<u64>,
    /// Each game's final scores.
    pub scores: Vec<Vec<i32>>,
}

impl Rows {
    fn new(layout: &Layout) -> Rows {
        Rows {
            planes_len: layout.planes_len(),
            num_globals: layout.num_globals(),
            num_actions: layout.num_actions(),
            ..Rows::default()
        }
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// Appends `other`'s rows and games.
    fn extend(&mut self, mut other: Rows, game_offset: u32) {
        self.planes.append(&mut other.planes);
        self.globals.append(&mut other.globals);
        self.masks.append(&mut other.masks);
        self.policies.append(&mut other.policies);
        self.players.append(&mut other.players);
        self.search_values.append(&mut other.search_values);
        self.seat_values.append(&mut other.seat_values);
        self.chosen.append(&mut other.chosen);
        self.action_index.append(&mut other.action_index);
        self.outcomes.append(&mut other.outcomes);
        self.margins.append(&mut other.margins);
        self.game_index
            .extend(other.game_index.iter().map(|g| g + game_offset));
        self.actions.append(&mut other.actions);
        self.seeds.append(&mut other.seeds);
        self.scores.append(&mut other.scores);
    }
}

impl<'a> SelfPlay<'a> {
    /// The most threads.
    pub const MAX_THREADS: usize = 64;
    /// The most games per run.
    pub const MAX_GAMES: u32 = 1_000_000;
    /// The default number of decisions drawn by visit share.
    pub const DEFAULT_SAMPLE_MOVES: u32 = 30;

    /// One game on one thread, seed 0, [`SelfPlay::DEFAULT_SAMPLE_MOVES`].
    pub fn new(config: GameConfig, layout: Arc<Layout>, searcher: Searcher<'a>) -> SelfPlay<'a> {
        SelfPlay {
            config,
            layout,
            searcher,
            games: 1,
            threads: 1,
            seed: 0,
            first_game: 0,
            sample_moves: Self::DEFAULT_SAMPLE_MOVES,
        }
    }

    /// Checks the settings (threads, games, the guided search's, the layout's window).
    pub fn check(&self) -> Result<(), SearchError> {
        if self.threads == 0 || self.threads > Self::MAX_THREADS {
            return Err(SearchError::Settings(format!(
                "threads: {}; expected 1 to {}",
                self.threads,
                Self::MAX_THREADS
            )));
        }
        if self.games > Self::MAX_GAMES {
            return Err(SearchError::Settings(format!(
                "games: {}; expected 0 to {}",
                self.games,
                Self::MAX_GAMES
            )));
        }
        if let Searcher::Guided(search, _) = &self.searcher {
            search.check()?;
        }
        Game::new(self.config.clone())
            .map(|_| ())
            .map_err(|e| SearchError::Settings(format!("config: {e}")))
    }

    /// Plays the games and returns their rows in game order. `go_on` is asked on the
    /// calling thread between its decisions; once it says no, every thread stops after
    /// its current decision and the result is [`SearchError::Stopped`]. An evaluator's
    /// error stops every thread too and is the result.
    pub fn run(&self, go_on: &mut dyn FnMut() -> bool) -> Result<Rows, SearchError> {
        self.check()?;
        let next = AtomicU32::new(0);
        let stop = AtomicBool::new(false);
        let failure: Mutex<Option<SearchError>> = Mutex::new(None);
        let done: Mutex<Vec<(u32, Rows)>> = Mutex::new(Vec::new());
        let work = |thread: usize, go_on: &mut dyn FnMut() -> bool| {
            let mut evaluator = match &self.searcher {
                Searcher::Guided(_, make) => Some(make(thread)),
                Searcher::Playouts(_) => None,
            };
            loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= self.games || stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut keep_going = || !stop.load(Ordering::Relaxed) && go_on();
                match self.play(g, evaluator.as_deref_mut(), &mut keep_going) {
                    Ok(rows) => done.lock().expect("no thread panicked").push((g, rows)),
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        let mut f = failure.lock().expect("no thread panicked");
                        if f.is_none() || matches!(*f, Some(SearchError::Stopped)) {
                            *f = Some(e);
                        }
                        return;
                    }
                }
            }
        };
        if self.threads == 1 {
            work(0, go_on);
        } else {
            std::thread::scope(|scope| {
                let work = &work;
                let stop = &stop;
                let handles: Vec<_> = (1..self.threads)
                    .map(|t| scope.spawn(move || work(t, &mut || !stop.load(Ordering::Relaxed))))
                    .collect();
                work(0, go_on);
                // The calling thread keeps asking `go_on` while the others finish.
                while !handles.iter().all(|h| h.is_finished()) {
                    if !stop.load(Ordering::Relaxed) && !go_on() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                for h in handles {
                    h.join().expect("a self-play thread panicked");
                }
            });
        }
        if let Some(e) = failure.into_inner().expect("no thread panicked") {
            return Err(e);
        }
        if stop.load(Ordering::Relaxed) {
            return Err(SearchError::Stopped);
        }
        let mut games = done.into_inner().expect("no thread panicked");
        games.sort_by_key(|(g, _)| *g);
        let mut rows = Rows::new(&self.layout);
        for (g, game_rows) in games {
            rows.extend(game_rows, g);
        }
        Ok(rows)
    }

    /// Plays game `g` and returns its rows (their `game_index` 0, offset by the caller).
    fn play(
        &self,
        g: u32,
        mut evaluator: Option<&mut (dyn LeafEvaluator + 'a)>,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Result<Rows, SearchError> {
        let mut config = self.config.clone();
        config.seed = episode_seed(self.seed, 0, self.first_game + u64::from(g));
        let game = Game::new(config.clone()).map_err(|e| SearchError::Settings(e.to_string()))?;
        let mut session = Session::with_layout(game, self.layout.clone());
        let mut rng = Rng::new(config.seed ^ 0x5E1F_9A7E_D00D_F00D);
        let mut rows = Rows::new(&self.layout);
        let mut actions = Vec::new();
        let mut searched = 0u32;
        let mut mask = vec![0i8; self.layout.num_actions()];
        while !session.game().is_terminal() {
            if !go_on() {
                return Err(SearchError::Stopped);
            }
            let legal = session.legal_actions();
            if session.game().phase().is_chance() || legal.len() == 1 {
                let a = legal[0];
                actions.push(a);
                session.apply(a).expect("a legal action");
                continue;
            }
            let game = session.game().clone();
            let seed = rng.next_u64();
            let eval = match (&self.searcher, evaluator.as_deref_mut()) {
                (Searcher::Guided(search, _), Some(ev)) => search.evaluate(&game, seed, ev)?,
                (Searcher::Playouts(config), _) => config
                    .evaluate(&game, &mut Rng::new(seed))
                    .expect("a decision of a player is searched"),
                (Searcher::Guided(..), None) => unreachable!("each thread makes its evaluator"),
            };
            let action = if searched < self.sample_moves {
                sample_by_visits(&eval, &mut rng)
            } else {
                eval.best().action
            };
            searched += 1;
            let player = game.to_play() as u8;
            let path = session.flat_path(action);
            let step = Step {
                player,
                chosen: path.map(|p| p.first),
                action_index: actions.len() as u32,
            };
            self.add_row(&mut session, &eval, step, &mut mask, &mut rows);
            if let Some(path) = path {
                if let Some(second) = path.second {
                    let picked = session.step(path.first);
                    debug_assert!(matches!(picked, Ok(FlatDecision::Focus(_))));
                    let step = Step {
                        chosen: Some(second),
                        ..step
                    };
                    self.add_row(&mut session, &eval, step, &mut mask, &mut rows);
                    session.step(second).expect("the SLOT id of a legal action");
                } else {
                    session.step(path.first).expect("the id of a legal action");
                }
            } else {
                session.apply(action).expect("a legal action");
            }
            actions.push(action);
        }
        let scores = session.game().scores().to_vec();
        for k in 0..rows.players.len() {
            let (outcome, margin) = outcome_and_margin(&scores, usize::from(rows.players[k]));
            rows.outcomes.push(outcome as f32);
            rows.margins.push(margin);
        }
        rows.game_index = vec![0; rows.players.len()];
        rows.actions.push(actions);
        rows.seeds.push(config.seed);
        rows.scores.push(scores);
        Ok(rows)
    }

    /// Adds the row of the current step of `session` (nothing when no id is offered or
    /// no visit went to an offered id's action).
    fn add_row(
        &self,
        session: &mut Session,
        eval: &Evaluation,
        step: Step,
        mask: &mut [i8],
        rows: &mut Rows,
    ) {
        let player = step.player;
        let info = session
            .legal_mask(mask)
            .expect("a mask of the layout's size");
        if info.offered == 0 {
            return;
        }
        let a = rows.num_actions;
        let start = rows.policies.len();
        rows.policies.resize(start + a, 0.0);
        let covered = flat_policy(session, eval, &mut rows.policies[start..])
            .expect("a policy of the layout's size");
        if covered == 0.0 {
            rows.policies.truncate(start);
            return;
        }
        let (p0, g0) = (rows.planes.len(), rows.globals.len());
        rows.planes.resize(p0 + rows.planes_len, 0);
        rows.globals.resize(g0 + rows.num_globals, 0.0);
        session
            .observe(
                usize::from(player),
                &mut rows.planes[p0..],
                &mut rows.globals[g0..],
            )
            .expect("an observation of the layout's size");
        rows.masks.extend_from_slice(mask);
        rows.players.push(player);
        rows.search_values.push(eval.value as f32);
        rows.seat_values
            .extend(eval.values.iter().map(|&v| v as f32));
        rows.chosen.push(step.chosen);
        rows.action_index.push(step.action_index);
    }
}

/// The step a row is taken at: the deciding seat, the id it takes there and the index
/// of its action in the game's actions.
#[derive(Clone, Copy)]
struct Step {
    player: u8,
    chosen: Option<u32>,
    action_index: u32,
}

/// An action of `eval` drawn in proportion to its visits.
fn sample_by_visits(eval: &Evaluation, rng: &mut Rng) -> Action {
    let total: u64 = eval.actions.iter().map(|a| a.visits).sum();
    if total == 0 {
        return eval.best().action;
    }
    let mut r = rng.next_u64() % total;
    for a in &eval.actions {
        if r < a.visits {
            return a.action;
        }
        r -= a.visits;
    }
    eval.best().action
}
