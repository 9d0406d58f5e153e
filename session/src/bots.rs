//! Built-in players: `random` (a uniformly random legal action) and `greedy` (the legal
//! action that gains the most points this turn).

use carcassonne::{Action, Game, Phase, Rng};
use std::fmt;

/// A built-in player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bot {
    /// Picks a legal action uniformly at random.
    Random,
    /// Picks the action with the best immediate score gain; ties are broken at random.
    Greedy,
}

impl Bot {
    /// Every bot, for messages.
    pub const ALL: [Bot; 2] = [Bot::Random, Bot::Greedy];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
        }
    }

    /// Parses a bot name.
    pub fn from_name(name: &str) -> Option<Bot> {
        Bot::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Chooses one of `legal` (the legal actions of `game`, not empty).
    pub fn choose(self, game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
        match self {
            Bot::Random => legal[rng.below(legal.len() as u32) as usize],
            Bot::Greedy => greedy_choice(game, legal, rng),
        }
    }
}

impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Points the deciding player gains by `action`: the action is applied to a copy of the
/// game, the rest of the player's turn is settled by passing where passing is allowed
/// (deploy nothing more, move no wagon) so that the turn's scoring happens, and the
/// player's score is compared with the score before.
pub fn immediate_gain(game: &Game, action: Action) -> i32 {
    let me = game.to_play();
    let before = game.scores()[me];
    let mut copy = game.clone();
    if copy.apply(action).is_err() {
        return i32::MIN;
    }
    // A turn has few decisions; the bound only guards against a loop.
    for _ in 0..32 {
        let settling = !copy.is_terminal()
            && copy.turn_player() == me
            && copy.to_play() == me
            && matches!(copy.phase(), Phase::Deploy | Phase::WagonMove);
        if !settling || copy.apply(Action::Pass).is_err() {
            break;
        }
    }
    copy.scores()[me] - before
}

/// The action with the highest [`immediate_gain`]; ties broken by `rng`.
fn greedy_choice(game: &Game, legal: &[Action], rng: &mut Rng) -> Action {
    let mut best = i32::MIN;
    let mut ties: Vec<Action> = Vec::new();
    for &action in legal {
        let gain = immediate_gain(game, action);
        if gain > best {
            best = gain;
            ties.clear();
        }
        if gain == best {
            ties.push(action);
        }
    }
    ties[rng.below(ties.len() as u32) as usize]
}

/// Reads a `--bots` value: one name for every seat, or one name per seat.
pub fn parse_bots(text: &str, players: usize) -> Result<Vec<Bot>, String> {
    let known = || {
        Bot::ALL
            .iter()
            .map(|b| b.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let bots = text
        .split(',')
        .map(|name| {
            let name = name.trim();
            Bot::from_name(name).ok_or_else(|| format!("unknown bot {name:?} (known: {})", known()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match bots.len() {
        1 => Ok(vec![bots[0]; players]),
        n if n == players => Ok(bots),
        n => Err(format!(
            "{n} bots for {players} players; give one bot for every seat, or one for all"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{GameConfig, Pos};

    #[test]
    fn bots_list_is_per_seat_or_shared() {
        assert_eq!(parse_bots("greedy", 3).unwrap(), vec![Bot::Greedy; 3]);
        assert_eq!(
            parse_bots("random,greedy", 2).unwrap(),
            vec![Bot::Random, Bot::Greedy]
        );
        assert!(parse_bots("random,greedy", 3)
            .unwrap_err()
            .contains("2 bots for 3"));
        assert!(parse_bots("clever", 2).unwrap_err().contains("clever"));
    }

    #[test]
    fn greedy_takes_points_when_a_feature_completes() {
        // Seat 0 draws tiles until one can close the start tile's city (BASE-D, city on
        // its north side) with a tile whose city faces south (B8: a city closed by its
        // walls is complete; B12: a 2-tile city scores 4 with a knight on it).
        for seed in 0..200 {
            let mut config = GameConfig::new(2);
            config.seed = seed;
            let game = Game::new(config).unwrap();
            let legal = game.legal_actions();
            let north = legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::PlaceTile { pos, .. } if *pos == Pos::new(0, -1)));
            let Some(place) = north else { continue };
            let mut after = game.clone();
            after.apply(place).unwrap();
            let deploys = after.legal_actions();
            let gains: Vec<i32> = deploys.iter().map(|a| immediate_gain(&after, *a)).collect();
            if gains.iter().all(|g| *g == 0) {
                continue; // the tile north of the start did not close the city
            }
            let mut rng = Rng::new(1);
            let pick = Bot::Greedy.choose(&after, &deploys, &mut rng);
            let best = *gains.iter().max().unwrap();
            assert!(best >= 4, "seed {seed}: best gain {best}");
            assert_eq!(immediate_gain(&after, pick), best);
            return;
        }
        panic!("no seed closed the start city");
    }
}
