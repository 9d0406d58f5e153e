//! What a picture says beside the board: the status line, each seat's score with the
//! winners, the titles held (KR1, KR2) and the prisoners held (TW4), the tokens left in
//! the sheep bag (HS1), and the quarters of the City of Carcassonne with their figures
//! and the count (CC2). The SVG picture writes it under the board, the HTML replay in a
//! panel beside it, once per turn.

use super::pieces::Piece;
use carcassonne::config::Figure;
use carcassonne::game::Game;
use carcassonne::rules::count::Quarter;
use carcassonne::rules::hills_sheep::SheepToken;
use carcassonne::tiles::TileSet;

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
    /// The titles it holds: [`Piece::King`], [`Piece::RobberBaron`].
    pub titles: Vec<Piece>,
    /// The other seats' figures it holds prisoner (TW4): (owner, figure, how many), by
    /// owner, then in the order of [`Figure::ALL`].
    pub prisoners: Vec<(usize, Figure, u8)>,
}

/// One quarter of the City of Carcassonne.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct QuarterLine {
    pub quarter: Quarter,
    /// The figures in it: (owner, figure), in the engine's order.
    pub figures: Vec<(u8, Figure)>,
    /// Whether the count stands in it.
    pub count: bool,
}

/// The text around the board of one game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    pub status: String,
    pub seats: Vec<SeatLine>,
    /// The quarters, with the Count in play; empty otherwise.
    pub city: Vec<QuarterLine>,
    /// The tokens left in the sheep bag by [`SheepToken`], with Hills & Sheep in play
    /// (HS1); a finished game's as they stood before final scoring put the flocks back.
    pub sheep_bag: Option<[u8; SheepToken::ALL.len()]>,
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
    let (king, robber) = game.titles();
    let seats = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, &score)| SeatLine {
            seat,
            score,
            winner: winners.contains(&seat),
            titles: [(king, Piece::King), (robber, Piece::RobberBaron)]
                .into_iter()
                .filter(|(holder, _)| *holder == Some(seat))
                .map(|(_, piece)| piece)
                .collect(),
            prisoners: prisoners_held(game, seat),
        })
        .collect();
    let city = match game.count_quarter() {
        None => Vec::new(),
        Some(count) => Quarter::ALL
            .into_iter()
            .map(|quarter| QuarterLine {
                quarter,
                figures: game
                    .quarter_figures()
                    .iter()
                    .filter(|(q, _, _)| *q == quarter)
                    .map(|&(_, owner, figure)| (owner, figure))
                    .collect(),
                count: quarter == count,
            })
            .collect(),
    };
    let sheep_bag = game
        .has_set(TileSet::HillsSheep)
        .then(|| game.sheep_bag_before_final_scoring());
    Summary {
        status,
        seats,
        city,
        sheep_bag,
    }
}

/// The figures of the other seats that `holder` holds prisoner (TW4), as
/// [`SeatLine::prisoners`]; none without the Tower.
fn prisoners_held(game: &Game, holder: usize) -> Vec<(usize, Figure, u8)> {
    if game.prisoners_held(holder) == 0 {
        return Vec::new();
    }
    (0..game.num_players())
        .flat_map(|owner| Figure::ALL.into_iter().map(move |figure| (owner, figure)))
        .filter_map(|(owner, figure)| {
            let n = game.prisoners(holder, owner, figure);
            (n > 0).then_some((owner, figure, n))
        })
        .collect()
}
