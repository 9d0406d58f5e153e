//! The observation writer: clears the buffers and runs the writer of every section of
//! the schema ([`super::schema::SECTIONS`]) through a [`Writer`].

use super::decision::with_table;
use super::schema::{PLANE_COUNT, SECTIONS};
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
    let mut unknown = PlaneSet::ALL;
    encode_observation_over(game, table, focus, player, planes, globals, &mut unknown)
}

/// Writes the observation like [`encode_observation_with`] into `planes` of which only
/// the planes in `written` may hold something (what this function wrote into the same
/// buffer last time, or [`PlaneSet::ALL`] when that is not known): those planes are
/// cleared, the others are taken to be zero and not touched, and `written` becomes the
/// set of planes written now. Rewriting one buffer step after step this way touches the
/// few planes a game sets instead of all of them (the full preset has 125), which is
/// what makes `VectorEnv`'s full observations cheap; it is exact only as long as nobody
/// else writes into the buffer between the calls.
pub fn encode_observation_over(
    game: &Game,
    table: &DecisionTable,
    focus: Option<Pos>,
    player: usize,
    planes: &mut [u8],
    globals: &mut [f32],
    written: &mut PlaneSet,
) -> Result<WindowOrigin, EncodeError> {
    check_observation(game, table.spec, player, planes, globals)?;
    let window = table.spec.window as usize;
    let ww = window * window;
    if *written == PlaneSet::ALL {
        planes.fill(0);
    } else {
        for plane in written.iter() {
            planes[plane * ww..(plane + 1) * ww].fill(0);
        }
    }
    globals.fill(0.0);
    let mut w = Writer {
        game,
        table,
        player,
        focus,
        ww,
        planes,
        globals,
        written: PlaneSet::EMPTY,
    };
    for section in SECTIONS {
        (section.write)(&mut w);
    }
    *written = w.written;
    Ok(table.frame.origin)
}

/// A set of observation planes (by index, below [`PLANE_COUNT`]): the planes an
/// observation buffer may hold something in (see [`encode_observation_over`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaneSet([u64; PLANE_WORDS]);

const PLANE_WORDS: usize = PLANE_COUNT.div_ceil(64);

impl PlaneSet {
    /// No plane.
    pub const EMPTY: PlaneSet = PlaneSet([0; PLANE_WORDS]);

    /// Every plane: a buffer whose contents are not known.
    pub const ALL: PlaneSet = {
        let mut words = [0u64; PLANE_WORDS];
        let mut p = 0;
        while p < PLANE_COUNT {
            words[p / 64] |= 1 << (p % 64);
            p += 1;
        }
        PlaneSet(words)
    };

    /// Adds plane `plane`.
    #[inline]
    pub fn insert(&mut self, plane: usize) {
        self.0[plane / 64] |= 1 << (plane % 64);
    }

    /// Whether plane `plane` is in the set.
    pub fn contains(&self, plane: usize) -> bool {
        plane < PLANE_COUNT && self.0[plane / 64] & (1 << (plane % 64)) != 0
    }

    /// The planes in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i * 64 + b
                })
            })
        })
    }
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
    /// The planes written so far.
    written: PlaneSet,
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
        self.written.insert(plane);
    }

    /// Adds `value` to window cell `cell` of plane `plane` (saturating at 255).
    #[inline]
    pub fn add(&mut self, plane: usize, cell: usize, value: u8) {
        let v = &mut self.planes[plane * self.ww + cell];
        *v = v.saturating_add(value);
        self.written.insert(plane);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_sets_list_their_planes_in_order() {
        let mut set = PlaneSet::EMPTY;
        for p in [PLANE_COUNT - 1, 0, 64, 63, 64] {
            set.insert(p);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 63, 64, PLANE_COUNT - 1]);
        assert!(set.contains(63) && !set.contains(1) && !set.contains(PLANE_COUNT));
        assert_eq!(PlaneSet::ALL.iter().count(), PLANE_COUNT);
        assert_eq!(PlaneSet::EMPTY.iter().count(), 0);
    }
}
