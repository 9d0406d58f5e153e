//! What happened, for a client to animate: every score event (who, how much, why, which
//! feature with its parts) and every figure that left the board (whose, which, from
//! where, why: scoring, the dragon, the princess, the abbot taken back, final scoring),
//! in the order they happened, numbered from the start of the game.
//!
//! A client keeps the number of events it has shown; after each call that changes the
//! game it asks for the events from that number on (`carc_game_events`).

use crate::action::CARC_NO_FEATURE;
use crate::engine_types::{CarcFeatureKind, CarcReturnCause, CarcScoreKind};
use crate::guard::{put, with_game, write_iter, CarcGame};
use crate::status::Failure;
use crate::CarcStatus;
use carcassonne_core::game::{Event, Game, ScoredParts};

/// What a `CarcEvent` reports (its `kind` field). Stable numbers.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CarcEventKind {
    /// `player` scored `points` (`score_kind` says why).
    Score = 0,
    /// A figure of `player` left the board for its supply (`cause` says why).
    FigureReturned = 1,
}

/// The `turn` of an event of the final scoring (after the last turn).
pub const CARC_NO_TURN: u32 = 0xFFFF_FFFF;

/// One event (28 bytes, blittable). Fields the kind does not use are 0, `feature` is
/// `CARC_NO_FEATURE` when the event names no place.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcEvent {
    /// The turn it happened in (index into the record's `turns`), or `CARC_NO_TURN` for
    /// the final scoring.
    pub turn: u32,
    /// `SCORE`: the points.
    pub points: i32,
    /// Square of the place (`has_place`): a part of the scored feature, or where the
    /// figure stood.
    pub x: i32,
    /// Square of the place, y (south).
    pub y: i32,
    /// `SCORE`: the number of parts of the scored feature (`carc_game_event_parts`), 0 for
    /// the fairy's start-of-turn point.
    pub parts: u32,
    /// A `CarcEventKind`.
    pub kind: u8,
    /// The player who scored, or the figure's owner.
    pub player: u8,
    /// `SCORE`: a `CarcScoreKind`.
    pub score_kind: u8,
    /// Local feature index of the place (`carc_tile_feature_id` names it), or
    /// `CARC_NO_FEATURE`.
    pub feature: u8,
    /// The `CarcFeatureKind` of that feature (0 without a place).
    pub feature_kind: u8,
    /// `FIGURE_RETURNED`: a `CarcFigure`.
    pub figure: u8,
    /// `FIGURE_RETURNED`: a `CarcReturnCause`.
    pub cause: u8,
    /// 1 when `x`, `y` and `feature` name a place.
    pub has_place: u8,
}

/// One part of a scored feature: a feature of one tile (12 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcFeaturePart {
    /// Square of the tile, x.
    pub x: i32,
    /// Square of the tile, y.
    pub y: i32,
    /// Local feature index on that tile.
    pub feature: u8,
    /// Its `CarcFeatureKind`.
    pub feature_kind: u8,
    /// Always 0.
    pub reserved: u16,
}

/// Every event of the game with its turn, in order: turn by turn, then the final
/// scoring.
fn events_of(game: &Game) -> impl Iterator<Item = (u32, Event<'_>)> + '_ {
    (0..game.turns().len())
        .flat_map(move |t| game.turn_events(t).map(move |e| (t as u32, e)))
        .chain(game.final_events().map(|e| (CARC_NO_TURN, e)))
}

fn to_c(game: &Game, scored: &mut ScoredParts<'_>, turn: u32, event: Event<'_>) -> CarcEvent {
    let mut c = CarcEvent {
        turn,
        feature: CARC_NO_FEATURE,
        ..CarcEvent::default()
    };
    let mut place = |pos: carcassonne_core::Pos, local: u8| {
        c.x = pos.x;
        c.y = pos.y;
        c.feature = local;
        c.feature_kind = game
            .feature_kind_at(pos, local)
            .map_or(0, |k| CarcFeatureKind::from(k) as u8);
        c.has_place = 1;
    };
    match event {
        Event::Score(e) => {
            if let Some((pos, local)) = e.at {
                place(pos, local);
            }
            c.kind = CarcEventKind::Score as u8;
            c.player = e.player;
            c.points = e.points;
            c.score_kind = CarcScoreKind::from(e.kind) as u8;
            if let Some(f) = e.feature {
                c.parts = scored.parts(f).len() as u32;
            }
        }
        Event::FigureReturned(r) => {
            place(r.pos, r.local);
            c.kind = CarcEventKind::FigureReturned as u8;
            c.player = r.owner;
            c.figure = r.figure as u8;
            c.cause = CarcReturnCause::from(r.cause) as u8;
        }
    }
    c
}

/// The number of events so far (score events and figures returned) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_event_count(game: *const CarcGame, out: *mut u32) -> CarcStatus {
    with_game("carc_game_event_count", game, |h| {
        let g = h.game();
        put(
            out,
            "out",
            (g.events().len() + g.figure_returns().len()) as u32,
        )
    })
}

fn check_index(index: u32, count: usize, what: &str) -> Result<(), Failure> {
    if index as usize > count {
        return Err(Failure::invalid(format!(
            "{what} {index} is past the {count} events of the game"
        )));
    }
    Ok(())
}

/// Writes the events numbered `first` and later, in the order they happened, into `buf`
/// (`len` elements); `needed` receives their number (the event count less `first`).
/// Events are numbered from 0 at the start of the game and keep their numbers: a
/// client passes the count it has already shown. `first` past the count is
/// `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_events(
    game: *const CarcGame,
    first: u32,
    buf: *mut CarcEvent,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_events", game, |h| {
        crate::guard::check_buffer(buf, len, needed)?;
        let g = h.game();
        let count = g.events().len() + g.figure_returns().len();
        check_index(first, count, "first")?;
        let mut scored = g.scored_parts();
        let list: Vec<CarcEvent> = events_of(&g)
            .skip(first as usize)
            .map(|(turn, e)| to_c(&g, &mut scored, turn, e))
            .collect();
        write_iter(list.into_iter(), buf, len, needed, "the events")
    })
}

/// Writes the parts of the feature that score event `index` was for, as it was when it
/// scored (every feature of every tile it covered, in the order the tiles were placed),
/// into `buf` (`len` elements); `needed` receives their number. The list is empty for a
/// figure returned and for the fairy's start-of-turn point. `index` not below the event
/// count is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the
/// count) and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only
/// `needed` is written.
#[no_mangle]
pub extern "C" fn carc_game_event_parts(
    game: *const CarcGame,
    index: u32,
    buf: *mut CarcFeaturePart,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_event_parts", game, |h| {
        crate::guard::check_buffer(buf, len, needed)?;
        let g = h.game();
        let count = g.events().len() + g.figure_returns().len();
        if index as usize >= count {
            return Err(Failure::invalid(format!(
                "index {index} is not an event of the game (0..{count})"
            )));
        }
        let (_, event) = events_of(&g)
            .nth(index as usize)
            .expect("every event is listed");
        let parts = match event {
            Event::Score(e) => e
                .feature
                .map_or_else(Vec::new, |f| g.scored_parts().parts(f)),
            Event::FigureReturned(_) => Vec::new(),
        };
        let list = parts.into_iter().map(|(pos, local)| CarcFeaturePart {
            x: pos.x,
            y: pos.y,
            feature: local,
            feature_kind: g
                .feature_kind_at(pos, local)
                .map_or(0, |k| CarcFeatureKind::from(k) as u8),
            reserved: 0,
        });
        write_iter(list, buf, len, needed, "the feature parts")
    })
}

#[cfg(test)]
#[path = "tests/unit/events.rs"]
mod tests;
