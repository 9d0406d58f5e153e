//! The built-in players, one definition each, used by every front end (the command line,
//! the C ABI and Python), so that a "greedy" opponent is the same player everywhere.
//!
//! * `random`: a uniformly random legal action.
//! * `greedy`: the legal action with the best immediate score difference
//!   ([`immediate_gain`]: own points gained minus the most points gained by an opponent,
//!   with the rest of the player's own turn settled by passing, and a bazaar bid counted
//!   as its cost; with the Tower, prisoners count as points: [`prisoner_values`]), ties
//!   broken at random.
//! * `heuristic`: greedy with a club player's rules for its ties ([`heuristic_key`]): a
//!   tile is placed where the rest of the turn is best (a follower on a good feature
//!   included), a follower goes on a city or a monastery before a road, on a field only
//!   late in the game, and the last follower is not spent on a road.
//! * `mcts:<budget>`: Monte Carlo tree search over the hidden draw order
//!   ([`crate::mcts`]), e.g. `mcts:2000` (iterations) or `mcts:100ms` (time per decision).
//! * `net`, `net:<path>`, `net:search=<budget>`, `net:<path>:search=<budget>`: a learned
//!   player ([`crate::net`]): the arg-max of the shipped policy-value network (made for
//!   the 2-player base game only) or of an ONNX file's, or a guided search
//!   ([`crate::guided`]) with that network as its evaluator, e.g. `net:search=50` (the
//!   shipped network) or `net:nets/mine.onnx:search=50`. The network is loaded when the
//!   spec is read (once per process and file); [`Bot::check`] refuses a configuration it
//!   was not made for.
//!
//! ```
//! use carcassonne::{Game, GameConfig, Rng};
//! use carcassonne_session::bots::Bot;
//! let mut game = Game::new(GameConfig::new(2)).unwrap();
//! let mut rng = Rng::new(7);
//! let mut legal = Vec::new();
//! while !game.is_terminal() {
//!     game.legal_actions_into(&mut legal);
//!     let bot = if game.to_play() == 0 { Bot::Greedy } else { Bot::Random };
//!     game.apply(bot.choose(&game, &legal, &mut rng)).unwrap();
//! }
//! ```

use crate::json::echo;
use crate::mcts::MctsConfig;
use crate::net::NetPlayer;
use crate::sets;
pub use crate::sets::tower::{prisoner_values, PRISONER_COST, PRISONER_COST_SHORT, PRISONER_WORTH};
use carcassonne::config::MAX_PLAYERS;
use carcassonne::tiles::FeatureKind;
use carcassonne::{Action, Game, GameConfig, Phase, Rng};
use std::fmt;

/// A built-in player. Plain data: a player is its settings, and [`Bot::choose`] keeps no
/// state between decisions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// Picks a legal action uniformly at random.
    Random,
    /// Picks the action with the best [`immediate_gain`]; ties are broken at random.
    Greedy,
    /// Picks the action with the best [`heuristic_key`]: greedy's gain, then a club
    /// player's preferences; remaining ties are broken at random.
    Heuristic,
    /// Monte Carlo tree search ([`crate::mcts`]).
    Mcts(MctsConfig),
    /// A learned player ([`crate::net`]): a network's arg-max, or a search it guides.
    Net(NetPlayer),
}

impl Bot {
    /// The kind of player: `random`, `greedy`, `heuristic`, `mcts` or `net` (the spec
    /// without settings;
    /// `to_string()` gives the whole spec).
    pub const fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
            Bot::Heuristic => "heuristic",
            Bot::Mcts(_) => "mcts",
            Bot::Net(_) => "net",
        }
    }

    /// Reads a bot spec: `random`, `greedy`, `heuristic`,
    /// `mcts[:<budget>][:<option>=<value>]...` (see [`MctsConfig::parse`]), or `net`,
    /// `net:search=<budget>`, `net:<path>`, `net:<path>:search=<budget>` (see
    /// [`NetPlayer::parse`]; the network
    /// is loaded now), exactly: no spaces around it or its fields, each option
    /// once. The message of an error says what was wrong.
    ///
    /// ```
    /// use carcassonne_session::bots::Bot;
    /// use carcassonne_session::mcts::{Budget, MctsConfig};
    /// assert_eq!(Bot::parse("greedy"), Ok(Bot::Greedy));
    /// assert_eq!(Bot::parse("mcts:500"), Ok(Bot::Mcts(MctsConfig::new(Budget::Iterations(500)))));
    /// assert_eq!(Bot::parse("mcts:100ms").unwrap().to_string(), "mcts:100ms");
    /// assert!(Bot::parse("mcts:lots").unwrap_err().contains("lots"));
    /// assert!(Bot::parse("greedy ").is_err());
    /// assert!(Bot::parse("mcts:500:threads=2:threads=4").unwrap_err().contains("twice"));
    /// ```
    pub fn parse(spec: &str) -> Result<Bot, String> {
        if spec.trim() != spec || spec.is_empty() {
            return Err(format!(
                "bot {}: expected a spec without surrounding spaces (known: {})",
                echo(spec),
                Bot::known_names()
            ));
        }
        match spec {
            "random" => return Ok(Bot::Random),
            "greedy" => return Ok(Bot::Greedy),
            "heuristic" => return Ok(Bot::Heuristic),
            _ => {}
        }
        if let Some(rest) = spec.strip_prefix("mcts") {
            if rest.is_empty() || rest.starts_with(':') {
                return MctsConfig::parse(rest)
                    .map(Bot::Mcts)
                    .map_err(|m| format!("bot {}: {m}", echo(spec)));
            }
        }
        if let Some(rest) = spec.strip_prefix("net") {
            if rest.is_empty() || rest.starts_with(':') {
                return NetPlayer::parse(rest)
                    .map(Bot::Net)
                    .map_err(|m| format!("bot {}: {m}", echo(spec)));
            }
        }
        Err(format!(
            "unknown bot {} (known: {})",
            echo(spec),
            Bot::known_names()
        ))
    }

    /// Reads a bot spec, `None` if it is not one (see [`Bot::parse`] for the reason).
    pub fn from_name(spec: &str) -> Option<Bot> {
        Bot::parse(spec).ok()
    }

    /// The known specs, for messages.
    pub fn known_names() -> String {
        "random, greedy, heuristic, mcts[:<iterations>|:<milliseconds>ms][:<option>=<value>...] \
         (options threads, c, deploy, margin, widen), net[:search=<budget>|:<path>[:search=<budget>]]"
            .to_string()
    }

    /// Refuses a game configuration this player cannot play: a learned player's network
    /// made for another one ([`crate::net::Network::check_config`]; the message names
    /// what differs). Every other player plays every configuration.
    pub fn check(self, config: &GameConfig) -> Result<(), String> {
        match self {
            Bot::Net(player) => player.check(config).map_err(|e| format!("bot {self}: {e}")),
            _ => Ok(()),
        }
    }

    /// Chooses one of `legal` (the legal actions of `game`, not empty). The MCTS player
    /// searches `game` itself (whose legal list is `legal`) and takes one draw of `rng`
    /// as its seed, as does a learned player's search.
    ///
    /// # Panics
    ///
    /// A learned player panics, naming what differs, in a game its network was not made
    /// for: check the configuration first with [`Bot::check`].
    pub fn choose(self, game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
        match self {
            Bot::Random => legal[rng.below(legal.len() as u32) as usize],
            Bot::Greedy => greedy_choice(game, legal, rng),
            Bot::Heuristic => best_by(legal, rng, |a| heuristic_key(game, a)),
            Bot::Mcts(config) => config.choose(game, rng),
            Bot::Net(player) => match player.choose_while(game, rng, &mut || true) {
                Ok(action) => action.expect("a search that is never stopped gives an action"),
                Err(e) => panic!("bot {self}: {e}"),
            },
        }
    }

    /// [`Bot::choose`] that can be stopped: an MCTS player asks `go_on` during its search
    /// ([`MctsConfig::search_while`]) and gives `None` once it says no, as does a learned
    /// player's search; the other players decide at once and never ask.
    ///
    /// # Panics
    ///
    /// As [`Bot::choose`], in a game a learned player's network was not made for.
    pub fn choose_while(
        self,
        game: &Game,
        legal: &[Action],
        rng: &mut Rng,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<Action> {
        match self {
            Bot::Mcts(config) => config.search_while(game, rng, go_on).map(|r| r.action),
            Bot::Net(player) => match player.choose_while(game, rng, go_on) {
                Ok(action) => action,
                Err(e) => panic!("bot {self}: {e}"),
            },
            _ => Some(self.choose(game, legal, rng)),
        }
    }
}

impl fmt::Display for Bot {
    /// The spec that [`Bot::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bot::Mcts(config) => config.fmt(f),
            Bot::Net(player) => player.fmt(f),
            _ => f.write_str(self.name()),
        }
    }
}

/// How good `action` is right now for the deciding player: the points he gains minus the
/// most points any opponent gains. The action is applied to a copy of the game and the
/// rest of the player's own turn is settled by passing where passing is allowed (deploy
/// nothing more, move no wagon), so that the features a placement completes are scored;
/// after a tower piece the best capture is taken ([`best_capture`]), or none.
/// A bid at a bazaar (BZ2) counts as the points it may cost: it is paid at a later
/// decision, if at all, so it would otherwise look free. With the Tower, prisoners count
/// as points ([`prisoner_values`]), so that a capture gains and a ransom is paid when a
/// follower is short. `i32::MIN` for an action that is not legal.
pub fn immediate_gain(game: &Game, action: Action) -> i32 {
    let me = game.to_play();
    let mut copy = game.clone();
    if copy.apply(action).is_err() {
        return i32::MIN;
    }
    settle_turn(&mut copy, me);
    let bid = match action {
        Action::BazaarSelect { bid, .. } | Action::BazaarBid { bid } => bid as i32,
        _ => 0,
    };
    margin_change(game, &copy, me) - bid
}

/// Settles the rest of `me`'s turn the cheapest way, so that what it completes is
/// scored: while `me` is the turn player and decides, it passes where passing is allowed
/// (deploys nothing more, moves no wagon) and takes the best capture after a tower piece
/// ([`best_capture`]), or none.
pub fn settle_turn(game: &mut Game, me: usize) {
    // A turn has few decisions; the bound only guards against a loop.
    for _ in 0..32 {
        let settling = !game.is_terminal()
            && game.turn_player() == me
            && game.to_play() == me
            && matches!(
                game.phase(),
                Phase::Deploy | Phase::WagonMove | Phase::Capture
            );
        let next = if game.phase() == Phase::Capture {
            best_capture(game)
        } else {
            Action::Pass
        };
        if !settling || game.apply(next).is_err() {
            break;
        }
    }
}

/// What `me` gained from `before` to `after` (points and what the sets in play count as
/// points, [`crate::sets`]: with the Tower the worth of prisoners, [`prisoner_values`])
/// minus the most any opponent gained.
fn margin_change(before: &Game, after: &Game, me: usize) -> i32 {
    let n = before.num_players();
    let worth = |game: &Game| {
        let mut points = [0i32; MAX_PLAYERS];
        points[..n].copy_from_slice(game.scores());
        for set in sets::in_play(game) {
            set.worth(game, &mut points);
        }
        points
    };
    let (b, a) = (worth(before), worth(after));
    let best_opponent = (0..n)
        .filter(|&p| p != me)
        .map(|p| a[p] - b[p])
        .max()
        .unwrap_or(0);
    a[me] - b[me] - best_opponent
}

/// After a tower piece (TW3): the capture that gains the deciding player most
/// ([`prisoner_values`]), or no capture when none gains.
pub fn best_capture(game: &Game) -> Action {
    let me = game.to_play();
    let mut best = (0, Action::CapturePass);
    for &action in game.legal() {
        if !matches!(action, Action::Capture { .. }) {
            continue;
        }
        let mut copy = game.clone();
        if copy.apply(action).is_ok() {
            let gain = margin_change(game, &copy, me);
            if gain > best.0 {
                best = (gain, action);
            }
        }
    }
    best.1
}

/// The action with the highest [`immediate_gain`]; ties broken uniformly by `rng`.
fn greedy_choice(game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
    best_by(legal, rng, |a| immediate_gain(game, a))
}

/// The action of `legal` with the highest `key`; ties broken uniformly by `rng`.
fn best_by<K: Ord>(legal: &[Action], rng: &mut Rng, key: impl Fn(Action) -> K) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    let mut best: Option<K> = None;
    let mut ties = 0u32;
    let mut pick = legal[0];
    for &action in legal {
        let k = key(action);
        if best.as_ref().is_none_or(|b| k > *b) {
            best = Some(k);
            ties = 1;
            pick = action;
        } else if best.as_ref() == Some(&k) {
            // Reservoir sampling: each tied action is kept with equal probability.
            ties += 1;
            if rng.below(ties) == 0 {
                pick = action;
            }
        }
    }
    pick
}

/// The tiles left in the pile under which a farmer is worth a follower to the
/// `heuristic` player: fields score only at the end, and a farmer placed early is a
/// follower lost for the whole game.
pub const LATE_GAME_TILES: u32 = 30;

/// How much the `heuristic` player likes `action` of the deciding player, compared
/// lexicographically: first greedy's [`immediate_gain`] (for a tile placement, the gain
/// of the best way to finish the turn: the placement followed by each deployment it
/// allows, or by passing), then [`deploy_preference`] of the deployment that goes with
/// it. So among placements that score alike it takes one where a follower can go on a
/// city or a monastery, and among deployments that score alike it prefers a follower on
/// a city or a monastery, then a road, to passing (greedy passes on such ties half of
/// the time or more, as a follower on an open feature scores nothing this turn).
pub fn heuristic_key(game: &Game, action: Action) -> (i32, i32) {
    let me = game.to_play();
    let own = (
        immediate_gain(game, action),
        deploy_preference(game, action),
    );
    if !matches!(action, Action::PlaceTile { .. } | Action::PlaceAbbey { .. }) {
        return own;
    }
    let mut after = game.clone();
    if after.apply(action).is_err() {
        return own;
    }
    if after.is_terminal() || after.to_play() != me || after.phase() != Phase::Deploy {
        return own;
    }
    // What the placement scored before the deployment (the opponents' share included).
    let n = game.num_players();
    let delta = |p: usize| after.scores()[p] - game.scores()[p];
    let placed = delta(me) - (0..n).filter(|&p| p != me).map(delta).max().unwrap_or(0);
    after
        .legal()
        .iter()
        .map(|&next| {
            (
                placed.saturating_add(immediate_gain(&after, next)),
                deploy_preference(&after, next),
            )
        })
        .max()
        .unwrap_or(own)
}

/// A club player's liking for a deployment that scores nothing yet (0 for passing and for
/// anything that is not a deployment): a follower on a city or a monastery 3, on a road 2
/// (-1 for the last follower in the supply, kept for a better chance), on a field 1 once
/// fewer than [`LATE_GAME_TILES`] tiles are left and -2 before; another figure or feature 1.
pub fn deploy_preference(game: &Game, action: Action) -> i32 {
    let Action::Deploy {
        figure,
        pos,
        feature,
    } = action
    else {
        return 0;
    };
    let me = game.to_play();
    let last = game.supply(me, figure) <= 1;
    match game.feature_kind_at(pos, feature) {
        Some(FeatureKind::City | FeatureKind::Monastery) => 3,
        Some(FeatureKind::Road) if last => -1,
        Some(FeatureKind::Road) => 2,
        Some(FeatureKind::Field) if game.tiles_left() < LATE_GAME_TILES => 1,
        Some(FeatureKind::Field) => -2,
        _ => 1,
    }
}

/// Reads a per-seat bot list: one spec for every seat, or one spec per seat,
/// comma-separated (`"greedy"`, `"random,greedy"`, `"mcts:2000,greedy"`).
pub fn parse_bots(text: &str, players: usize) -> Result<Vec<Bot>, String> {
    let bots = text
        .split(',')
        .map(|spec| Bot::parse(spec.trim()))
        .collect::<Result<Vec<_>, _>>()?;
    match bots.len() {
        1 => Ok(vec![bots[0]; players]),
        n if n == players => Ok(bots),
        n => Err(format!(
            "{n} bots for {players} players; give one bot for every seat, or one for all"
        )),
    }
}
