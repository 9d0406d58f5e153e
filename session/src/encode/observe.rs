//! The observation writer: clears the buffers and runs the writer of every section of
//! the schema ([`super::schema::SECTIONS`]) through a [`Writer`].

use super::decision::with_table;
use super::schema::SECTIONS;
use super::{check_len, DecisionTable, EncodeError, EncoderSpec, WindowOrigin};
use carcassonne::game::Game;
use carcassonne::geometry::Pos;

/// Writes the observation of the current decision (no pending focus) for `player`.
/// See [`encode_observation_at`].
pub fn encode_observation(
    game: &Game,
    player: usize,
    spec: EncoderSpec,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    encode_observation_at(game, spec, None, player, planes, globals)
}

/// Writes the observation for `player` into `planes` (`u8 [C·W·W]`) and `globals`
/// (`f32 [G]`), with `focus` the tile picked by a pending `CELL` id, if any. Returns the
/// window origin. Buffers of the wrong length or a seat outside the game are refused
/// before anything is written.
pub fn encode_observation_at(
    game: &Game,
    spec: EncoderSpec,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    check_observation(game, spec, player, planes, globals)?;
    with_table(game, spec, |t| {
        encode_observation_with(game, t, focus, player, planes, globals)
    })
}

fn check_observation(
    game: &Game,
    spec: EncoderSpec,
    player: usize,
    planes: &[u8],
    globals: &[f32],
) -> Result<(), EncodeError> {
    check_len("planes", planes.len(), spec.planes_len())?;
    check_len("globals", globals.len(), spec.num_globals())?;
    let n = game.num_players();
    if player >= n {
        return Err(EncodeError::Player { player, players: n });
    }
    Ok(())
}

/// Writes the observation like [`encode_observation_at`], reading the legal actions and
/// the window of the current decision from `table` (which must have been refreshed for
/// this state of `game`).
pub fn encode_observation_with(
    game: &Game,
    table: &DecisionTable,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
) -> Result<WindowOrigin, EncodeError> {
    check_observation(game, table.spec, player, planes, globals)?;
    planes.fill(0);
    globals.fill(0.0);
    let window = table.spec.window as usize;
    let mut w = Writer {
        game,
        table,
        player,
        focus,
        ww: window * window,
        planes,
        globals,
    };
    for section in SECTIONS {
        (section.write)(&mut w);
    }
    Ok(table.frame.origin)
}

/// What a section's writer reads (the game, the decision, the observing player, the
/// pending focus) and the buffers it writes into, with helpers that place a value on a
/// board square or a relative seat. The buffers are zero before the first section
/// writes.
pub struct Writer<'a> {
    /// The game.
    pub game: &'a Game,
    /// The flat ids of the current decision.
    pub table: &'a DecisionTable,
    /// The observing player (relative seat 0).
    pub player: usize,
    /// The tile picked by a pending `CELL` id, if any.
    pub focus: Option<Pos>,
    /// Cells per plane, `W²`.
    ww: usize,
    planes: &'a mut [u8],
    globals: &'a mut [f32],
}

impl Writer<'_> {
    /// The window.
    #[inline]
    pub fn spec(&self) -> EncoderSpec {
        self.table.spec
    }

    /// The window origin of the decision.
    #[inline]
    pub fn origin(&self) -> WindowOrigin {
        self.table.frame.origin
    }

    /// The focus tile `SLOT` ids refer to: the pending focus, else the tile placed this
    /// turn while deploying.
    #[inline]
    pub fn focus_tile(&self) -> Option<Pos> {
        self.focus.or(self.table.frame.placed)
    }

    /// The relative seat of `seat` (0 for the observing player).
    #[inline]
    pub fn rel(&self, seat: usize) -> usize {
        let n = self.game.num_players();
        (seat + n - self.player) % n
    }

    /// The window cell `wy·W + wx` of board square `pos`, if it lies in the window.
    #[inline]
    pub fn cell(&self, pos: Pos) -> Option<usize> {
        self.table.frame.origin.cell_index(self.table.spec, pos)
    }

    /// Sets window cell `cell` of plane `plane` to `value`.
    #[inline]
    pub fn set(&mut self, plane: usize, cell: usize, value: u8) {
        self.planes[plane * self.ww + cell] = value;
    }

    /// Adds `value` to window cell `cell` of plane `plane` (saturating at 255).
    #[inline]
    pub fn add(&mut self, plane: usize, cell: usize, value: u8) {
        let v = &mut self.planes[plane * self.ww + cell];
        *v = v.saturating_add(value);
    }

    /// Sets plane `plane` to 1 on board square `pos`, if it lies in the window.
    #[inline]
    pub fn mark(&mut self, plane: usize, pos: Pos) {
        if let Some(c) = self.cell(pos) {
            self.set(plane, c, 1);
        }
    }

    /// Sets global `index` to `value`.
    #[inline]
    pub fn global(&mut self, index: usize, value: f32) {
        self.globals[index] = value;
    }

    /// Adds `value` to global `index`.
    #[inline]
    pub fn add_global(&mut self, index: usize, value: f32) {
        self.globals[index] += value;
    }

    /// Sets global `index` to 1 if `flag`, else leaves it 0.
    #[inline]
    pub fn flag(&mut self, index: usize, flag: bool) {
        self.globals[index] = f32::from(u8::from(flag));
    }
}
