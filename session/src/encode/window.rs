//! The window that shows the board: its origin is recomputed at every decision so that
//! the placed tiles, grown by one ring of squares, are centred ([`WindowOrigin`]).

use super::EncoderSpec;
use carcassonne::game::Game;
use carcassonne::geometry::Pos;

/// The board square shown in window cell `(0, 0)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct WindowOrigin {
    /// Board column of window column 0.
    pub x: i32,
    /// Board row of window row 0.
    pub y: i32,
}

impl WindowOrigin {
    /// The origin for the current state: the bounding box of the placed tiles grown by
    /// one square on every side is centred in the window (rounding towards smaller
    /// coordinates when it cannot be centred exactly).
    pub fn of(game: &Game, spec: EncoderSpec) -> WindowOrigin {
        let (min, max) = game.board().bounds();
        let w = spec.window as i32;
        // Twice the box centre is (min - 1) + (max + 1); twice the window centre is
        // 2·origin + w - 1.
        WindowOrigin {
            x: (min.x + max.x + 1 - w).div_euclid(2),
            y: (min.y + max.y + 1 - w).div_euclid(2),
        }
    }

    /// The window cell `(wx, wy)` of board square `pos`, if it is inside the window.
    #[inline]
    pub fn cell(self, spec: EncoderSpec, pos: Pos) -> Option<(u16, u16)> {
        let (dx, dy) = (pos.x - self.x, pos.y - self.y);
        let w = spec.window as i32;
        ((0..w).contains(&dx) && (0..w).contains(&dy)).then_some((dx as u16, dy as u16))
    }

    /// The board square of window cell `(wx, wy)`.
    pub fn pos(self, wx: u16, wy: u16) -> Pos {
        Pos::new(self.x + wx as i32, self.y + wy as i32)
    }

    /// The flat cell index `wy·W + wx` of board square `pos`, if it lies in the window.
    #[inline]
    pub fn cell_index(self, spec: EncoderSpec, pos: Pos) -> Option<usize> {
        self.cell(spec, pos)
            .map(|(x, y)| y as usize * spec.w() + x as usize)
    }
}
