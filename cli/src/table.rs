//! A game at a table where people play against the built-in bots: who sits at each
//! seat, the bots' generator, the decisions that may be taken back, and the record. The
//! terminal (`play --human`) and the browser (`serve`) both play through it.
//!
//! **Taking back** ([`Table::undo`]): a person may take back his last decision as long
//! as nothing has been revealed since: no other player has decided after it, and no tile
//! has been drawn (the draw of the next turn, a bazaar's offer, BZ1). Taking back a
//! placement while choosing where to deploy is allowed; once the turn is over and the next
//! tile is known, it is not. Everything else about the game is public, so nothing else
//! could be learnt by trying a decision and taking it back.
//!
//! **Bots** choose with [`Bot::choose`]'s rules and one generator for the table, seeded
//! from the game's seed apart from the draws, so a game between the same seats and the
//! same decisions goes the same way again. An MCTS bot's choice comes with its view of
//! the decision ([`Evaluation`]: the visit share of each legal action), the same search
//! that chose.

pub use crate::choices::seat_name;
use crate::choices::{self, Choice};
use carcassonne::config::Figure;
use carcassonne::game::{FigureReturn, ScoreEvent};
use carcassonne::{Action, ActionError, Game, Rng};
use carcassonne_session::bots::Bot;
use carcassonne_session::mcts::Evaluation;
use carcassonne_session::record;
use serde_json::Value;
use std::fmt;

/// Seeds the bots' generator from the game seed, apart from the tile draws (as `play`).
pub const BOT_SEED_MIX: u64 = 0xB075_5EED_0000_0001;

/// The most decisions of people kept to be taken back, one after the other, in one
/// stretch of decisions with no tile drawn and no bot's decision between them.
pub const MAX_UNDO: usize = 16;

/// Who sits at a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, deciding through the front end.
    Human,
    /// A built-in player.
    Bot(Bot),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(bot) => bot.fmt(f),
        }
    }
}

/// The state before a person's decision, kept to take it back.
#[derive(Clone, Debug)]
struct Before {
    game: Game,
    seat: usize,
}

/// A bot's decision, as the front ends show it.
#[derive(Clone, Debug)]
pub struct BotMove {
    /// The seat that decided.
    pub seat: usize,
    /// The action (in words: [`Table::describe`]).
    pub action: Action,
    /// The search's view of the decision, for an MCTS bot that had more than one action
    /// to choose from.
    pub evaluation: Option<Evaluation>,
    /// What happened because of it, in words (points scored, figures returned).
    pub events: Vec<String>,
}

/// Why a decision could not be taken back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoRefused {
    /// No person has decided yet (or every decision was taken back).
    Nothing,
    /// A tile was drawn after the decision: taking it back would show the pile.
    TileDrawn,
    /// Another player decided after it.
    OthersMoved,
}

impl fmt::Display for UndoRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UndoRefused::Nothing => "there is no decision to take back",
            UndoRefused::TileDrawn => {
                "a tile has been drawn since your last decision: taking it back would show the pile"
            }
            UndoRefused::OthersMoved => "another player has decided since your last decision",
        })
    }
}

/// A game with its seats, the bots' generator and the decisions that may be taken back.
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    seats: Vec<Seat>,
    rng: Rng,
    /// The state before each person's decision since the last bot move (newest last).
    undo: Vec<Before>,
    /// Counts every change (a decision, a bot move, a taking back): a front end names the
    /// state it acts on by it, so that an action meant for an older state is refused.
    version: u64,
    /// The record's id.
    id: String,
}

impl Table {
    /// A table for `game` (new, or loaded from a record) with one seat per player.
    /// Panics if `seats` has not one entry per player.
    pub fn new(game: Game, seats: Vec<Seat>, id: String) -> Table {
        assert_eq!(seats.len(), game.num_players(), "one seat per player");
        let decisions = game.history_actions().len() as u64;
        // A resumed game's bots go on from a generator of their own for that point.
        let rng = Rng::new(
            game.config().seed ^ BOT_SEED_MIX ^ decisions.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        Table {
            game,
            seats,
            rng,
            undo: Vec::new(),
            version: 0,
            id,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Who sits at each seat.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The number of changes so far (see the field).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The seat of the person who decides now, if a person decides now.
    pub fn human_to_play(&self) -> Option<usize> {
        if self.game.is_terminal() {
            return None;
        }
        let seat = self.game.to_play();
        (self.seats[seat] == Seat::Human).then_some(seat)
    }

    /// The bot that decides now, if a bot decides now.
    pub fn bot_to_play(&self) -> Option<(usize, Bot)> {
        if self.game.is_terminal() {
            return None;
        }
        let seat = self.game.to_play();
        match self.seats[seat] {
            Seat::Bot(bot) => Some((seat, bot)),
            Seat::Human => None,
        }
    }

    /// The choices of the current decision.
    pub fn choices(&self) -> Vec<Choice> {
        choices::choices(&self.game)
    }

    /// An action of this game's past or present in words (the board only grows, so the
    /// features it names are still there).
    pub fn describe(&self, action: Action) -> String {
        Choice::of(&self.game, action).describe()
    }

    /// Lets the bot that decides now choose and applies its choice; `None` when no bot
    /// decides now.
    pub fn bot_move(&mut self) -> Option<BotMove> {
        let (seat, bot) = self.bot_to_play()?;
        let legal = self.game.legal();
        let mut evaluation = None;
        let action = match bot {
            Bot::Mcts(config) if legal.len() > 1 => {
                // The same draw of the generator and the same search as `Bot::choose`.
                let eval = config
                    .evaluate(&self.game, &mut self.rng)
                    .expect("a decision of a player");
                let action = eval.best().action;
                evaluation = Some(eval);
                action
            }
            _ => bot.choose(&self.game, legal, &mut self.rng),
        };
        let before = self.mark();
        self.game
            .apply(action)
            .expect("a bot chooses among the legal actions");
        // Only the newest decision of a person could be taken back, and now it cannot:
        // keep it to say why.
        let keep = self.undo.len().saturating_sub(1);
        self.undo.drain(..keep);
        self.version += 1;
        Some(BotMove {
            seat,
            action,
            evaluation,
            events: self.events_since(before),
        })
    }

    /// Applies a person's decision (the seat deciding now must be a person's) and
    /// returns what happened because of it, in words.
    pub fn play(&mut self, action: Action) -> Result<Vec<String>, PlayError> {
        let seat = self.human_to_play().ok_or(PlayError::NotYourTurn)?;
        let before = Before {
            game: self.game.clone(),
            seat,
        };
        let mark = self.mark();
        self.game.apply(action).map_err(PlayError::Illegal)?;
        // A decision taken before a tile was drawn, or before another player decided,
        // can never be taken back (only the newest could be, and it stays newest until
        // taken back): keep only the decisions of this stretch, and at most
        // [`MAX_UNDO`] of them.
        let drawn = |b: &Before| {
            b.game.rng() != before.game.rng() || b.game.turns().len() != before.game.turns().len()
        };
        if self.undo.last().is_some_and(|b| {
            drawn(b) || b.game.history_actions().len() + 1 != before.game.history_actions().len()
        }) {
            self.undo.clear();
        }
        if self.undo.len() >= MAX_UNDO {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.version += 1;
        Ok(self.events_since(mark))
    }

    /// Takes back the last decision of a person, if nothing has been revealed since (see
    /// the module docs); returns the seat whose decision it was.
    pub fn undo(&mut self) -> Result<usize, UndoRefused> {
        self.can_undo()?;
        let last = self.undo.pop().expect("checked above");
        self.game = last.game;
        self.version += 1;
        Ok(last.seat)
    }

    /// Whether [`Table::undo`] would take a decision back now.
    pub fn can_undo(&self) -> Result<(), UndoRefused> {
        let last = self.undo.last().ok_or(UndoRefused::Nothing)?;
        if self.game.rng() != last.game.rng() || self.game.turns().len() != last.game.turns().len()
        {
            return Err(UndoRefused::TileDrawn);
        }
        if self.game.history_actions().len() != last.game.history_actions().len() + 1 {
            return Err(UndoRefused::OthersMoved);
        }
        Ok(())
    }

    /// The game's record, with what resumes it exactly (its `resume` object).
    pub fn record(&self) -> Value {
        record::to_value(&self.game, &self.id)
    }

    /// Where the event lists stand now.
    fn mark(&self) -> (usize, usize) {
        (self.game.events().len(), self.game.figure_returns().len())
    }

    /// The score events and figure returns logged since `mark`, in words, in order.
    fn events_since(&self, (scores, returns): (usize, usize)) -> Vec<String> {
        let events = &self.game.events()[scores.min(self.game.events().len())..];
        let back = &self.game.figure_returns()[returns.min(self.game.figure_returns().len())..];
        let mut out = Vec::with_capacity(events.len() + back.len());
        let mut r = 0;
        for (k, e) in events.iter().enumerate() {
            while r < back.len() && back[r].after as usize <= scores + k {
                out.push(return_text(&back[r]));
                r += 1;
            }
            out.push(score_text(e));
        }
        out.extend(back[r..].iter().map(return_text));
        out
    }
}

/// Why a person's decision was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// A bot decides now, or the game is over.
    NotYourTurn,
    /// The action is not legal now.
    Illegal(ActionError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NotYourTurn => f.write_str("no person decides now"),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

/// A score event in words: `seat 1 (blue) scores 8: city at (2, -1)`.
pub fn score_text(e: &ScoreEvent) -> String {
    let at = e.at.map_or(String::new(), |(pos, _)| format!(" at {pos}"));
    format!(
        "{} scores {}: {}{at}",
        seat_name(e.player as usize),
        e.points,
        e.kind.name()
    )
}

/// A figure return in words: `seat 0 (red)'s follower back from (1, 0) (scored)`.
pub fn return_text(r: &FigureReturn) -> String {
    format!(
        "{}'s {} back from {} ({})",
        seat_name(r.owner as usize),
        r.figure.name(),
        r.pos,
        r.cause.name()
    )
}

/// The figures a seat holds, in words: `6 followers, 1 abbot`.
pub fn supply_text(game: &Game, seat: usize) -> String {
    let parts: Vec<String> = Figure::ALL
        .iter()
        .map(|&f| (f, game.supply(seat, f)))
        .filter(|(_, n)| *n > 0)
        .map(|(f, n)| format!("{n} {}{}", f.name(), if n == 1 { "" } else { "s" }))
        .collect();
    if parts.is_empty() {
        "no figures".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
#[path = "tests/unit/table.rs"]
mod tests;
