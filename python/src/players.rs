//! Built-in players: `random` (uniform over the legal actions) and `greedy` (the action
//! with the best immediate score difference, ties broken at random).

use carcassonne::config::MAX_PLAYERS;
use carcassonne::{Action, Game, Phase, Rng};

/// A built-in player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Uniform over the legal structured actions.
    Random,
    /// Maximises own points gained minus the most points gained by an opponent, looking
    /// one decision ahead; a tile placement is judged with the deployment step passed,
    /// so that features it completes count. Ties are broken at random.
    Greedy,
}

impl Builtin {
    /// Parses `random` or `greedy`.
    pub fn from_name(name: &str) -> Option<Builtin> {
        match name {
            "random" => Some(Builtin::Random),
            "greedy" => Some(Builtin::Greedy),
            _ => None,
        }
    }

    /// Picks one of `legal` (not empty) for the player to play in `game`.
    pub fn choose(self, game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
        match self {
            Builtin::Random => legal[rng.below(legal.len() as u32) as usize],
            Builtin::Greedy => greedy(game, legal, rng),
        }
    }
}

fn greedy(game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
    if legal.len() == 1 {
        return legal[0];
    }
    let me = game.to_play();
    let n = game.num_players();
    let mut before = [0i32; MAX_PLAYERS];
    before[..n].copy_from_slice(game.scores());
    let mut best = i32::MIN;
    let mut ties = 0u32;
    let mut pick = legal[0];
    for &a in legal {
        let mut g = game.clone();
        g.apply_unchecked(a);
        if matches!(a, Action::PlaceTile { .. }) && g.phase() == Phase::Deploy && g.to_play() == me
        {
            g.apply_unchecked(Action::Pass);
        }
        let s = g.scores();
        let own = s[me] - before[me];
        let opp = (0..n)
            .filter(|&p| p != me)
            .map(|p| s[p] - before[p])
            .max()
            .unwrap_or(0);
        let value = own - opp;
        if value > best {
            best = value;
            ties = 1;
            pick = a;
        } else if value == best {
            // Reservoir sampling: each tied action is kept with equal probability.
            ties += 1;
            if rng.below(ties) == 0 {
                pick = a;
            }
        }
    }
    pick
}
