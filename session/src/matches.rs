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
//! A match plays its games `first_game .. first_game + games`; game `g` is the same
//! game (deal, seating, the bots' seeds) whatever the range it is played in, so a match
//! split into ranges, played anywhere, gives the games of the whole match.
//! [`write_match`] writes the games into a dataset ([`crate::dataset`]) under ids that
//! name the match ([`match_game_id`]), so that playing a range again writes no game
//! twice.
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
use crate::dataset::{DatasetError, DatasetWriter, GameEntry};
use carcassonne::{Game, GameConfig, Rng};
use std::fmt;
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
    /// The index of the first game: the match plays games `first_game .. first_game +
    /// games`, game `g` dealt and seated as game `g` of a match from 0.
    pub first_game: u64,
    /// Games played at the same time, each on its own thread (1: one after another).
    pub threads: usize,
}

impl MatchSpec {
    /// The largest number of games accepted.
    pub const MAX_GAMES: u32 = 10_000_000;
    /// The most threads accepted.
    pub const MAX_THREADS: usize = 256;
    /// The largest first game index accepted (2^53: exact in every language's numbers).
    pub const MAX_FIRST_GAME: u64 = 1 << 53;

    /// `games` games of `config` between `bots` on one thread.
    pub fn new(config: GameConfig, bots: Vec<Bot>, games: u32) -> MatchSpec {
        MatchSpec {
            config,
            bots,
            games,
            first_game: 0,
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
        for (i, bot) in self.bots.iter().enumerate() {
            bot.check(&self.config)
                .map_err(|m| format!("bots[{i}]: {m}"))?;
        }
        if !(1..=Self::MAX_GAMES).contains(&self.games) {
            return Err(format!(
                "games: {} is not from 1 to {}",
                self.games,
                Self::MAX_GAMES
            ));
        }
        if self.first_game > Self::MAX_FIRST_GAME {
            return Err(format!(
                "first_game: {} is more than {}",
                self.first_game,
                Self::MAX_FIRST_GAME
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

    /// The player (index into `bots`) at `seat` in game `g` (the game's index in the
    /// match, counted from 0 whatever `first_game`).
    pub fn bot_at(&self, g: u64, seat: usize) -> usize {
        let p = self.bots.len();
        (seat + p - (g % p as u64) as usize) % p
    }

    /// The indices of the match's games: `first_game .. first_game + games`.
    pub fn game_indices(&self) -> std::ops::Range<u64> {
        self.first_game..self.first_game + u64::from(self.games)
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's index in the match (from `first_game`).
    pub game: u64,
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
    /// The games played, in order of their index.
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
    /// One summary per player, in the spec's order ([`summarize`]).
    pub fn summaries(&self) -> Vec<PlayerSummary> {
        summarize(&self.spec.bots, &self.games)
    }

    /// The summary as a text table: one line per player, then the win rate per seat
    /// ([`summary_text`]).
    pub fn to_text(&self) -> String {
        summary_text(&self.summaries())
    }
}

/// Why [`summarize`] cannot summarise games; the message names the field.
fn check_games(players: usize, games: &[GameResult]) -> Result<(), String> {
    for (i, game) in games.iter().enumerate() {
        let g = game.game;
        for (field, len) in [
            ("seating", game.seating.len()),
            ("scores", game.scores.len()),
            ("decisions", game.decisions.len()),
            ("think", game.think.len()),
        ] {
            if len != players {
                return Err(format!(
                    "{field}: game {g} (row {i}) has {len} seats for {players} players"
                ));
            }
        }
        let mut seen = vec![false; players];
        for (seat, &b) in game.seating.iter().enumerate() {
            if b >= players {
                return Err(format!(
                    "seating: game {g} (row {i}) seats player {b} at seat {seat}; players are 0 to {}",
                    players - 1
                ));
            }
            if std::mem::replace(&mut seen[b], true) {
                return Err(format!(
                    "seating: game {g} (row {i}) seats player {b} twice"
                ));
            }
        }
    }
    Ok(())
}

/// One summary per player of `bots` (in that order) over `games`, whatever range of a
/// match they are: wins (a win shared by `k` seats counts `1/k`, B17), the win rate
/// with its 95 % Wilson interval, mean score and margin, time per decision, and the
/// games and wins at each seat. Summed game by game in the order given, so the games
/// of a match merged from ranges give the figures of the whole match. An error names
/// the field of a game whose seats do not match `bots` (a row of another length, a
/// player out of range or seated twice).
pub fn try_summarize(bots: &[Bot], games: &[GameResult]) -> Result<Vec<PlayerSummary>, String> {
    check_games(bots.len(), games)?;
    Ok(summarize(bots, games))
}

/// [`try_summarize`] of games known to seat every player of `bots` once (those
/// [`run_match`] plays); panics otherwise.
pub fn summarize(bots: &[Bot], games: &[GameResult]) -> Vec<PlayerSummary> {
    let p = bots.len();
    (0..p)
        .map(|b| {
            let mut per_seat = vec![SeatRecord::default(); p];
            let (mut wins, mut score, mut margin) = (0.0, 0i64, 0i64);
            let (mut decisions, mut think) = (0u64, Duration::ZERO);
            for game in games {
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
            let count = games.len() as u32;
            let n = f64::from(count.max(1));
            let win_rate = wins / n;
            PlayerSummary {
                bot: bots[b],
                games: count,
                wins,
                win_rate,
                interval: wilson_interval(win_rate, count),
                mean_score: score as f64 / n,
                mean_margin: margin as f64 / n,
                ms_per_decision: think.as_secs_f64() * 1000.0 / decisions.max(1) as f64,
                per_seat,
            }
        })
        .collect()
}

/// The summary table of `carcassonne match`: one line per player, then the win rate
/// per seat.
pub fn summary_text(summaries: &[PlayerSummary]) -> String {
    let mut t = String::new();
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
    for s in summaries {
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
    for s in summaries {
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

/// Bot seeds are drawn apart from the tile seeds.
const BOT_SEED_MIX: u64 = 0x3A7C_4E5D_0000_0001;

/// Plays game `g` of the match (its index counted from 0, whatever `first_game`).
pub fn play_game(spec: &MatchSpec, g: u64) -> GameResult {
    play_game_while(spec, g, &mut || true).expect("a game that is never stopped ends")
}

/// [`play_game`] that can be stopped: `go_on` is asked before every decision and during
/// every search ([`Bot::choose_while`]); `None` once it says no.
pub fn play_game_while(
    spec: &MatchSpec,
    g: u64,
    go_on: &mut dyn FnMut() -> bool,
) -> Option<GameResult> {
    play_whole_game(spec, g, go_on).map(|(result, _)| result)
}

/// [`play_game_while`] that also returns the finished game.
pub fn play_whole_game(
    spec: &MatchSpec,
    g: u64,
    go_on: &mut dyn FnMut() -> bool,
) -> Option<(GameResult, Game)> {
    let p = spec.bots.len();
    let mut config = spec.config.clone();
    let seed = spec.config.seed.wrapping_add(g / p as u64);
    config.seed = seed;
    let seating: Vec<usize> = (0..p).map(|seat| spec.bot_at(g, seat)).collect();
    let mut game = Game::new(config).expect("a validated configuration");
    let mut rng =
        Rng::new((spec.config.seed ^ BOT_SEED_MIX).wrapping_add(g.wrapping_mul(0x9E37_79B9)));
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
    let result = GameResult {
        game: g,
        seed,
        seating,
        scores: game.scores().to_vec(),
        decisions,
        think,
    };
    Some((result, game))
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
    let todo: Vec<u64> = spec.game_indices().collect();
    let played = run_games(spec, &todo, progress, keep_going, &|_, _| Ok(()));
    let count = played.results.len();
    if played.stopped {
        return Err(format!(
            "the match was stopped after {count} of {} games",
            spec.games
        ));
    }
    Ok(played.report(spec))
}

/// What [`run_games`] played.
struct Played {
    results: Vec<GameResult>,
    /// Whether the caller stopped the games (or the sink failed).
    stopped: bool,
    /// The first error of the sink.
    failed: Option<String>,
    elapsed: Duration,
}

impl Played {
    fn report(self, spec: &MatchSpec) -> MatchReport {
        MatchReport {
            spec: spec.clone(),
            games: self.results,
            elapsed: self.elapsed,
        }
    }
}

/// Plays the games `todo` of `spec` on `spec.threads` threads, gives each finished game
/// to `sink` (an error of the sink stops every thread), and returns the results of the
/// games finished, ordered by index.
fn run_games(
    spec: &MatchSpec,
    todo: &[u64],
    progress: &(dyn Fn(u32, &GameResult) + Sync),
    keep_going: &mut dyn FnMut() -> bool,
    sink: &(dyn Fn(&GameResult, Game) -> Result<(), String> + Sync),
) -> Played {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done = Mutex::new((0u32, Vec::with_capacity(todo.len()), None::<String>));
    // Takes the next game and plays it; false when no game is left or the match stops.
    let play_next = |go_on: &mut dyn FnMut() -> bool| {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(&g) = todo.get(k) else {
            return false;
        };
        let Some((result, game)) = play_whole_game(spec, g, go_on) else {
            return false;
        };
        let kept = sink(&result, game);
        let mut lock = done.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = kept {
            lock.2.get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
            return false;
        }
        lock.0 += 1;
        progress(lock.0, &result);
        lock.1.push(result);
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
    let (_, mut results, failed) = done.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r: &GameResult| r.game);
    Played {
        stopped: results.len() < todo.len(),
        results,
        failed,
        elapsed: started.elapsed(),
    }
}

/// The short hash in the game ids of a match: 8 hexadecimal digits of the FNV-1a hash
/// of the players' specs in seat order and the game's setup as records write it
/// (`GameConfig::to_json`) with the seed set to 0. The seed, the number of games, the
/// first game and the threads are left out: every range of one match shares it.
pub fn match_hash(spec: &MatchSpec) -> String {
    let mut config = spec.config.clone();
    config.seed = 0;
    let names: Vec<String> = spec.bots.iter().map(Bot::to_string).collect();
    short_hash(&format!("{}\n{}", names.join(","), config.to_json()))
}

/// 8 hexadecimal digits of the 64-bit FNV-1a hash of `text`, its two halves xored: the
/// hash in the ids of matches' and self-play runs' games.
pub(crate) fn short_hash(text: &str) -> String {
    let h = carcassonne::hash::fnv1a(text.as_bytes());
    format!("{:08x}", (h >> 32) ^ (h & 0xffff_ffff))
}

/// The dataset id of game `g` of the match `spec`: `match-<seed>-<g>-<hash>`, with the
/// match's seed (`config.seed`), the game's index and [`match_hash`]. The same game of
/// the same match has the same id whatever range it is played in.
pub fn match_game_id(spec: &MatchSpec, g: u64) -> String {
    format!("match-{}-{g}-{}", spec.config.seed, match_hash(spec))
}

/// Why [`write_match`] stopped.
#[derive(Debug)]
pub enum MatchWriteError {
    /// The spec is not valid; the message names the field.
    Spec(String),
    /// The caller stopped the match: the games finished were written.
    Stopped {
        /// Games written by this call.
        written: u64,
        /// Games this call had to play.
        of: u64,
    },
    /// The dataset could not be written (or read).
    Dataset(DatasetError),
    /// A game's record could not be made; the message names the game.
    Record(String),
}

impl fmt::Display for MatchWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchWriteError::Spec(m) => write!(f, "{m}"),
            MatchWriteError::Stopped { written, of } => write!(
                f,
                "the match was stopped after {written} of {of} games; they were written"
            ),
            MatchWriteError::Dataset(e) => write!(f, "dataset: {e}"),
            MatchWriteError::Record(m) => write!(f, "record: {m}"),
        }
    }
}

impl std::error::Error for MatchWriteError {}

/// What [`write_match`] did.
#[derive(Clone, Debug)]
pub struct MatchWritten {
    /// The games played (those not in the dataset before).
    pub report: MatchReport,
    /// Games written.
    pub written: u64,
    /// Games of the match already in the dataset, not played again.
    pub present: u64,
}

/// Plays the games of `spec` that `writer`'s dataset does not hold yet (by
/// [`match_game_id`]) and writes each into it, with who played each seat (the bot's
/// spec) in its `seats` column and no decisions (a built-in bot has no search targets
/// to store). Parts are written whole every [`DatasetWriter::games_per_part`] games and
/// once at the end; when `keep_going` stops the match (as for [`run_match_until`]) the
/// games finished are written as a last part before the error. The report covers the
/// games played by this call.
pub fn write_match(
    spec: &MatchSpec,
    writer: &mut DatasetWriter,
    progress: &(dyn Fn(u32, &GameResult) + Sync),
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<MatchWritten, MatchWriteError> {
    spec.validate().map_err(MatchWriteError::Spec)?;
    let todo: Vec<u64> = spec
        .game_indices()
        .filter(|g| !writer.contains(&match_game_id(spec, *g)))
        .collect();
    let present = u64::from(spec.games) - todo.len() as u64;
    let shared = Mutex::new((&mut *writer, None::<DatasetError>));
    let sink = |result: &GameResult, game: Game| {
        let id = match_game_id(spec, result.game);
        let seats = result
            .seating
            .iter()
            .map(|b| spec.bots[*b].to_string())
            .collect();
        let entry = GameEntry::from_game(game, &id, seats, None, Vec::new())
            .map_err(|e| format!("{id}: record: {e}"))?;
        let mut lock = shared.lock().unwrap_or_else(|e| e.into_inner());
        let (writer, error) = &mut *lock;
        match writer.add(entry) {
            Ok(_) => Ok(()),
            Err(e) => {
                let message = e.to_string();
                error.get_or_insert(e);
                Err(message)
            }
        }
    };
    let played = run_games(spec, &todo, progress, keep_going, &sink);
    let (writer, error) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = error {
        return Err(MatchWriteError::Dataset(e));
    }
    if let Some(m) = played.failed.clone() {
        return Err(MatchWriteError::Record(m));
    }
    writer.flush().map_err(MatchWriteError::Dataset)?;
    let written = played.results.len() as u64;
    if played.stopped {
        return Err(MatchWriteError::Stopped {
            written,
            of: todo.len() as u64,
        });
    }
    Ok(MatchWritten {
        report: played.report(spec),
        written,
        present,
    })
}

#[cfg(test)]
mod tests {
    /// The short hash is the published 64-bit FNV-1a of the text (IETF draft-eastlake-fnv:
    /// `foobar` hashes to 0x85944171_f73967e8), its two halves xored.
    #[test]
    fn short_hash_folds_the_published_fnv1a() {
        assert_eq!(
            super::short_hash("foobar"),
            format!("{:08x}", 0x8594_4171u64 ^ 0xf739_67e8)
        );
        assert_eq!(
            super::short_hash(""),
            format!("{:08x}", 0xcbf2_9ce4u64 ^ 0x8422_2325)
        );
    }
}
