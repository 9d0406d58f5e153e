//! Matches between built-in players: many games with the seats rotated, summarised per
//! player (win rate with a 95 % interval, mean score, mean margin, time per decision)
//! and per seat. The command line's `carcassonne match` and Python's
//! `carcassonne.match` both run this.
//!
//! Game `g` deals the tiles of seed `seed + g / P` (`P` players) and seats player `i` at
//! seat `(i + g) mod P`, so every deal is played once from every seat: a player is not
//! favoured by its seat or by a lucky pile. A win shared by `k` players counts `1/k` for
//! each (B17).
//!
//! ```
//! use carcassonne::GameConfig;
//! use carcassonne_session::bots::Bot;
//! use carcassonne_session::matches::{run_match, MatchSpec};
//! let spec = MatchSpec::new(GameConfig::new(2), vec![Bot::Greedy, Bot::Random], 4);
//! let report = run_match(&spec, &|_, _| {}).unwrap();
//! assert_eq!(report.games.len(), 4);
//! let greedy = &report.summaries()[0];
//! assert_eq!(greedy.games, 4);
//! assert_eq!(greedy.per_seat.iter().map(|s| s.games).sum::<u32>(), 4);
//! ```

use crate::bots::Bot;
use carcassonne::{Game, GameConfig, Rng};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What to play.
#[derive(Clone, Debug)]
pub struct MatchSpec {
    /// The game: players, sets, rules; its `seed` is the seed of the first deal.
    pub config: GameConfig,
    /// The players, one per seat (`config.players` of them), rotated over the seats.
    pub bots: Vec<Bot>,
    /// Number of games.
    pub games: u32,
    /// Games played at the same time, each on its own thread (1: one after another).
    pub threads: usize,
}

impl MatchSpec {
    /// The largest number of games accepted.
    pub const MAX_GAMES: u32 = 10_000_000;
    /// The most threads accepted.
    pub const MAX_THREADS: usize = 256;

    /// `games` games of `config` between `bots` on one thread.
    pub fn new(config: GameConfig, bots: Vec<Bot>, games: u32) -> MatchSpec {
        MatchSpec {
            config,
            bots,
            games,
            threads: 1,
        }
    }

    /// Checks the spec; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        self.config.validate().map_err(|e| e.to_string())?;
        let players = self.config.players as usize;
        if self.bots.len() != players {
            return Err(format!(
                "bots: {} players for {players} seats; give one player per seat",
                self.bots.len()
            ));
        }
        if !(1..=Self::MAX_GAMES).contains(&self.games) {
            return Err(format!(
                "games: {} is not from 1 to {}",
                self.games,
                Self::MAX_GAMES
            ));
        }
        if !(1..=Self::MAX_THREADS).contains(&self.threads) {
            return Err(format!(
                "threads: {} is not from 1 to {}",
                self.threads,
                Self::MAX_THREADS
            ));
        }
        Ok(())
    }

    /// The player (index into `bots`) at `seat` in game `g`.
    pub fn bot_at(&self, g: u32, seat: usize) -> usize {
        let p = self.bots.len();
        (seat + p - (g as usize % p)) % p
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The tile seed of the game.
    pub seed: u64,
    /// The player (index into the spec's `bots`) at each seat.
    pub seating: Vec<usize>,
    /// Final score of each seat.
    pub scores: Vec<i32>,
    /// Decisions taken by each seat.
    pub decisions: Vec<u32>,
    /// Time each seat spent choosing.
    pub think: Vec<Duration>,
}

impl GameResult {
    /// The share of the win of `seat`: 1 for the sole best score, `1/k` when `k` seats
    /// tie for it (B17), 0 otherwise.
    pub fn win_share(&self, seat: usize) -> f64 {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        if self.scores[seat] != best {
            return 0.0;
        }
        1.0 / self.scores.iter().filter(|s| **s == best).count() as f64
    }

    /// Score of `seat` minus the best score of the other seats.
    pub fn margin(&self, seat: usize) -> i32 {
        let other = (0..self.scores.len())
            .filter(|s| *s != seat)
            .map(|s| self.scores[s])
            .max()
            .unwrap_or(0);
        self.scores[seat] - other
    }
}

/// Every game of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// What was played.
    pub spec: MatchSpec,
    /// The games, in order.
    pub games: Vec<GameResult>,
    /// Wall-clock time of the whole match.
    pub elapsed: Duration,
}

/// Games and wins of one player at one seat.
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct SeatRecord {
    /// Games played at this seat.
    pub games: u32,
    /// Wins (shared wins split).
    pub wins: f64,
}

/// One player's results over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// The player.
    pub bot: Bot,
    /// Games played.
    pub games: u32,
    /// Wins (a win shared by `k` players counts `1/k`).
    pub wins: f64,
    /// `wins / games`.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub interval: (f64, f64),
    /// Mean final score.
    pub mean_score: f64,
    /// Mean of (own score minus the best other score).
    pub mean_margin: f64,
    /// Mean time per decision, in milliseconds.
    pub ms_per_decision: f64,
    /// Results per seat.
    pub per_seat: Vec<SeatRecord>,
}

/// The 95 % Wilson score interval of a proportion `p` over `n` trials.
pub fn wilson_interval(p: f64, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(n);
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    // At p = 0 or 1 a bound equals p exactly; rounding must not leave p outside.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

impl MatchReport {
    /// One summary per player, in the spec's order.
    pub fn summaries(&self) -> Vec<PlayerSummary> {
        let p = self.spec.bots.len();
        (0..p)
            .map(|b| {
                let mut per_seat = vec![SeatRecord::default(); p];
                let (mut wins, mut score, mut margin) = (0.0, 0i64, 0i64);
                let (mut decisions, mut think) = (0u64, Duration::ZERO);
                for game in &self.games {
                    let seat = game
                        .seating
                        .iter()
                        .position(|x| *x == b)
                        .expect("every player has a seat");
                    let w = game.win_share(seat);
                    wins += w;
                    per_seat[seat].games += 1;
                    per_seat[seat].wins += w;
                    score += i64::from(game.scores[seat]);
                    margin += i64::from(game.margin(seat));
                    decisions += u64::from(game.decisions[seat]);
                    think += game.think[seat];
                }
                let games = self.games.len() as u32;
                let n = f64::from(games.max(1));
                let win_rate = wins / n;
                PlayerSummary {
                    bot: self.spec.bots[b],
                    games,
                    wins,
                    win_rate,
                    interval: wilson_interval(win_rate, games),
                    mean_score: score as f64 / n,
                    mean_margin: margin as f64 / n,
                    ms_per_decision: think.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
                    per_seat,
                }
            })
            .collect()
    }

    /// The summary as a text table: one line per player, then the win rate per seat.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let summaries = self.summaries();
        let width = summaries
            .iter()
            .map(|s| s.bot.to_string().len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            t,
            "{:<width$}  {:>6}  {:>7}  {:>8}  {:>15}  {:>10}  {:>11}  {:>11}",
            "player",
            "games",
            "wins",
            "win rate",
            "95% interval",
            "mean score",
            "mean margin",
            "ms/decision"
        );
        for s in &summaries {
            let _ = writeln!(
                t,
                "{:<width$}  {:>6}  {:>7.1}  {:>7.1}%  {:>6.1}% - {:>5.1}%  {:>10.1}  {:>+11.1}  {:>11.2}",
                s.bot.to_string(),
                s.games,
                s.wins,
                s.win_rate * 100.0,
                s.interval.0 * 100.0,
                s.interval.1 * 100.0,
                s.mean_score,
                s.mean_margin,
                s.ms_per_decision
            );
        }
        let _ = writeln!(t, "win rate per seat (games at that seat):");
        for s in &summaries {
            let seats: Vec<String> = s
                .per_seat
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let rate = if r.games > 0 {
                        r.wins / f64::from(r.games) * 100.0
                    } else {
                        0.0
                    };
                    format!("seat {i} {rate:.1}% ({})", r.games)
                })
                .collect();
            let _ = writeln!(t, "  {:<width$}  {}", s.bot.to_string(), seats.join("  "));
        }
        t
    }
}

/// Bot seeds are drawn apart from the tile seeds.
const BOT_SEED_MIX: u64 = 0x3A7C_4E5D_0000_0001;

/// Plays game `g` of the match.
pub fn play_game(spec: &MatchSpec, g: u32) -> GameResult {
    play_game_while(spec, g, &mut || true).expect("a game that is never stopped ends")
}

/// [`play_game`] that can be stopped: `go_on` is asked before every decision and during
/// every search ([`Bot::choose_while`]); `None` once it says no.
pub fn play_game_while(
    spec: &MatchSpec,
    g: u32,
    go_on: &mut dyn FnMut() -> bool,
) -> Option<GameResult> {
    let p = spec.bots.len();
    let mut config = spec.config.clone();
    let seed = spec.config.seed.wrapping_add(u64::from(g) / p as u64);
    config.seed = seed;
    let seating: Vec<usize> = (0..p).map(|seat| spec.bot_at(g, seat)).collect();
    let mut game = Game::new(config).expect("a validated configuration");
    let mut rng = Rng::new(
        (spec.config.seed ^ BOT_SEED_MIX).wrapping_add(u64::from(g).wrapping_mul(0x9E37_79B9)),
    );
    let mut decisions = vec![0u32; p];
    let mut think = vec![Duration::ZERO; p];
    while !game.is_terminal() {
        let seat = game.to_play();
        let bot = spec.bots[seating[seat]];
        let started = Instant::now();
        if !go_on() {
            return None;
        }
        let action = bot.choose_while(&game, game.legal(), &mut rng, go_on)?;
        think[seat] += started.elapsed();
        decisions[seat] += 1;
        game.apply(action)
            .unwrap_or_else(|e| panic!("the {bot} player chose an illegal action: {e}"));
    }
    Some(GameResult {
        seed,
        seating,
        scores: game.scores().to_vec(),
        decisions,
        think,
    })
}

/// Plays every game of `spec` (on `spec.threads` threads) and calls `progress` with the
/// number of games finished and the latest result after each game. The report lists
/// the games in order, whatever the threads: it does not depend on `threads` (except
/// for times, and for players with a time budget).
pub fn run_match(
    spec: &MatchSpec,
    progress: &(dyn Fn(u32, &GameResult) + Sync),
) -> Result<MatchReport, String> {
    run_match_until(spec, progress, &mut || true)
}

/// [`run_match`] that can be stopped: the calling thread plays games too and asks
/// `keep_going` before each of its decisions, during its searches and, once no game is
/// left for it, every millisecond until the other threads are done; once it answers
/// `false` every thread stops at its next decision or search iteration, and the match
/// ends with an error saying how many games were played. (Python uses it to answer
/// Ctrl-C: signal handlers run on the calling thread only.)
pub fn run_match_until(
    spec: &MatchSpec,
    progress: &(dyn Fn(u32, &GameResult) + Sync),
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<MatchReport, String> {
    spec.validate()?;
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done = Mutex::new((0u32, vec![None; spec.games as usize]));
    // Takes the next game and plays it; false when no game is left or the match stops.
    let play_next = |go_on: &mut dyn FnMut() -> bool| {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let g = next.fetch_add(1, Ordering::Relaxed);
        if g >= spec.games as usize {
            return false;
        }
        let Some(result) = play_game_while(spec, g as u32, go_on) else {
            return false;
        };
        let mut lock = done.lock().unwrap_or_else(|e| e.into_inner());
        lock.0 += 1;
        progress(lock.0, &result);
        lock.1[g] = Some(result);
        true
    };
    let mut caller_go_on = || {
        let go = !stop.load(Ordering::Relaxed) && keep_going();
        if !go {
            stop.store(true, Ordering::Relaxed);
        }
        go
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (1..spec.threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut go_on = || !stop.load(Ordering::Relaxed);
                    while play_next(&mut go_on) {}
                })
            })
            .collect();
        while caller_go_on() && play_next(&mut caller_go_on) {}
        // Still asking `keep_going` while the other threads finish their games.
        while !workers.iter().all(|w| w.is_finished()) {
            caller_go_on();
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    let (played, games) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    if played < spec.games {
        return Err(format!(
            "the match was stopped after {played} of {} games",
            spec.games
        ));
    }
    Ok(MatchReport {
        spec: spec.clone(),
        games: games
            .into_iter()
            .map(|g| g.expect("every game was played"))
            .collect(),
        elapsed: started.elapsed(),
    })
}
