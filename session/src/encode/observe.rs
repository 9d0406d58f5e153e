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
/// the planes in `written`, and in them only its cells ([`PlaneSet::cells`]), may hold
/// something (what this function wrote into the same buffer last time, or
/// [`PlaneSet::ALL`] when that is not known): those cells are cleared, the rest is taken
/// to be zero and not touched, and `written` becomes the set of planes and the span of
/// cells written now. Rewriting one buffer step after step this way touches the few
/// planes a game sets, and in them the rows of the window the board covers, instead of
/// all of them (the full preset has 125 planes), which is what makes `VectorEnv`'s full
/// observations cheap; it is exact only as long as nobody else writes into the buffer
/// between the calls.
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
        let cells = written.cells(ww);
        for plane in written.iter() {
            planes[plane * ww + cells.start..plane * ww + cells.end].fill(0);
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

/// A set of observation planes (by index, below [`PLANE_COUNT`]) and a span of cells
/// (window cells `wy·W + wx`, the same in every plane of the set): the planes an
/// observation buffer may hold something in, and where in them (see
/// [`encode_observation_over`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaneSet {
    planes: [u64; PLANE_WORDS],
    /// First cell that may hold something.
    lo: u32,
    /// One past the last cell that may hold something ([`u32::MAX`]: the plane's end).
    hi: u32,
}

const PLANE_WORDS: usize = PLANE_COUNT.div_ceil(64);

impl PlaneSet {
    /// No plane.
    pub const EMPTY: PlaneSet = PlaneSet {
        planes: [0; PLANE_WORDS],
        lo: u32::MAX,
        hi: 0,
    };

    /// Every plane, every cell: a buffer whose contents are not known.
    pub const ALL: PlaneSet = {
        let mut words = [0u64; PLANE_WORDS];
        let mut p = 0;
        while p < PLANE_COUNT {
            words[p / 64] |= 1 << (p % 64);
            p += 1;
        }
        PlaneSet {
            planes: words,
            lo: 0,
            hi: u32::MAX,
        }
    };

    /// Adds plane `plane`, every cell of it (the span of cells becomes the whole plane).
    #[inline]
    pub fn insert(&mut self, plane: usize) {
        self.planes[plane / 64] |= 1 << (plane % 64);
        self.lo = 0;
        self.hi = u32::MAX;
    }

    /// Adds plane `plane` and grows the span of cells to hold `cell` (a cell of the
    /// plane, below `W²`).
    #[inline]
    pub fn insert_cell(&mut self, plane: usize, cell: usize) {
        self.planes[plane / 64] |= 1 << (plane % 64);
        let cell = cell as u32;
        self.lo = self.lo.min(cell);
        self.hi = self.hi.max(cell + 1);
    }

    /// Whether plane `plane` is in the set.
    pub fn contains(&self, plane: usize) -> bool {
        plane < PLANE_COUNT && self.planes[plane / 64] & (1 << (plane % 64)) != 0
    }

    /// The cells of a plane of `ww` cells that may hold something, in every plane of
    /// the set (empty when the set is).
    pub fn cells(&self, ww: usize) -> std::ops::Range<usize> {
        let hi = (self.hi as usize).min(ww);
        (self.lo as usize).min(hi)..hi
    }

    /// The planes in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.planes.iter().enumerate().flat_map(|(i, &word)| {
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
        debug_assert!(cell < self.ww, "cell {cell} of a plane of {}", self.ww);
        self.planes[plane * self.ww + cell] = value;
        self.written.insert_cell(plane, cell);
    }

    /// Adds `value` to window cell `cell` of plane `plane` (saturating at 255).
    #[inline]
    pub fn add(&mut self, plane: usize, cell: usize, value: u8) {
        debug_assert!(cell < self.ww, "cell {cell} of a plane of {}", self.ww);
        let v = &mut self.planes[plane * self.ww + cell];
        *v = v.saturating_add(value);
        self.written.insert_cell(plane, cell);
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
