//! What a picture says beside the board: the status line and each seat's score with the
//! winners. The SVG picture writes it under the board, the HTML replay in a panel beside
//! it, once per turn; what a set shows beside a score or under the scores (titles,
//! prisoners, the sheep bag, the City of Carcassonne) its module draws
//! ([`crate::sets`]).

use carcassonne::game::Game;

/// The colour of each seat's figures in the pictures: saturated colours, each far from
/// every terrain and symbol colour of the pictures.
pub const PLAYER_COLOURS: [&str; 6] = [
    "#d62728", "#1f3fbf", "#f7e11a", "#222222", "#9b4dca", "#ff7f0e",
];

/// The English name of a seat's colour in the pictures.
pub const PLAYER_COLOUR_NAMES: [&str; 6] = ["red", "blue", "yellow", "black", "purple", "orange"];

/// A seat as people read it: `seat 1 (blue)`.
pub(crate) fn seat_name(seat: usize) -> String {
    format!(
        "seat {seat} ({})",
        PLAYER_COLOUR_NAMES[seat % PLAYER_COLOUR_NAMES.len()]
    )
}

/// One seat's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SeatLine {
    pub seat: usize,
    pub score: i32,
    /// Whether the game is over and this seat won (alone or tied).
    pub winner: bool,
}

/// The text around the board of one game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    pub status: String,
    pub seats: Vec<SeatLine>,
}

/// The summary of `game`.
pub(super) fn summary(game: &Game) -> Summary {
    let board = game.board();
    let winners = if game.is_terminal() {
        game.winners()
    } else {
        Vec::new()
    };
    let status = if game.is_terminal() {
        let best = game.scores().iter().copied().max().unwrap_or(0);
        let who = match winners.as_slice() {
            [one] => format!("{} wins with {best} points", seat_name(*one)),
            many => format!(
                "{} tie with {best} points",
                many.iter()
                    .map(|&s| seat_name(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        format!(
            "Game over after {} turns: {who}. Figures as they stood before final scoring.",
            game.turns().len()
        )
    } else {
        let played = game.turns().len() - usize::from(game.turn_in_progress());
        format!(
            "After {played} turns: {} tiles placed, {} left to draw.",
            board.len(),
            game.tiles_left()
        )
    };
    let seats = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, &score)| SeatLine {
            seat,
            score,
            winner: winners.contains(&seat),
        })
        .collect();
    Summary { status, seats }
}

/// What the sets in play keep beside the board, in words, one line each: each set's
/// notes in list order (the sets' modules, `session/src/sets`: the City of Carcassonne and the count, CC1,
/// CC3; the King and the Robber Baron, KR1, KR2; a bazaar under way, BZ1, BZ2), then
/// the pieces each seat still holds (abbey tiles, bridges, castles: AM1, BR1, CA1) on one
/// line. A player's notes in the terminal (`play --human`) and on the page of
/// `carcassonne serve`; the board picture shows the rest. Nothing for the base game.
///
/// ```
/// use carcassonne::{Game, GameConfig, TileSet};
/// use carcassonne_session::render;
/// assert!(render::notes(&Game::new(GameConfig::new(2)).unwrap()).is_empty());
/// let mut config = GameConfig::new(2);
/// config.sets.push(TileSet::KingRobber);
/// let notes = render::notes(&Game::new(config).unwrap());
/// assert_eq!(notes, ["the King: nobody; the Robber Baron: nobody"]);
/// ```
pub fn notes(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for set in crate::sets::in_play(game) {
        set.notes(game, &mut out);
    }
    let mut held = Vec::new();
    for seat in 0..game.num_players() {
        let mut parts = Vec::new();
        for set in crate::sets::in_play(game) {
            set.in_hand(game, seat, &mut parts);
        }
        if !parts.is_empty() {
            held.push(format!("{} {}", seat_name(seat), parts.join(", ")));
        }
    }
    if !held.is_empty() {
        out.push(format!("in hand: {}", held.join("; ")));
    }
    out
}
