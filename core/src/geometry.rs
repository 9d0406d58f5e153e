//! Board geometry: positions, sides, rotations and barn corners.
//!
//! The board frame has `x` growing east and `y` growing **south**; the start tile lies at
//! `(0, 0)`. A rotation is a number of clockwise quarter turns applied to a tile's
//! canonical orientation (`tiles.json`).

use std::fmt;

/// A square of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Pos {
    /// A position from its coordinates.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The orthogonal neighbour across `side`.
    pub const fn step(self, side: Side) -> Pos {
        let (dx, dy) = side.delta();
        Pos {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// The 8 surrounding squares (orthogonal and diagonal), row by row.
    pub fn surrounding(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x - 1, y - 1),
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x - 1, y),
            Pos::new(x + 1, y),
            Pos::new(x - 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x + 1, y + 1),
        ]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A side of a square, in the board frame (N = towards smaller `y`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// North (towards smaller `y`).
    N = 0,
    /// East.
    E = 1,
    /// South.
    S = 2,
    /// West.
    W = 3,
}

impl Side {
    /// The four sides in clockwise order from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i & 3` (0 = N, clockwise).
    pub const fn from_index(i: usize) -> Side {
        match i & 3 {
            0 => Side::N,
            1 => Side::E,
            2 => Side::S,
            _ => Side::W,
        }
    }

    /// Index 0..4, clockwise from north.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The facing side of the neighbour across this side.
    pub const fn opposite(self) -> Side {
        Side::from_index(self as usize + 2)
    }

    /// `(dx, dy)` of the neighbour across this side.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// This side after the tile is turned by `rot`.
    pub const fn rotated(self, rot: Rotation) -> Side {
        Side::from_index(self as usize + rot.0 as usize)
    }

    /// The letter used in the record format.
    pub const fn letter(self) -> char {
        match self {
            Side::N => 'N',
            Side::E => 'E',
            Side::S => 'S',
            Side::W => 'W',
        }
    }

    /// Parses `N`, `E`, `S` or `W`.
    pub fn from_letter(c: char) -> Option<Side> {
        match c {
            'N' => Some(Side::N),
            'E' => Some(Side::E),
            'S' => Some(Side::S),
            'W' => Some(Side::W),
            _ => None,
        }
    }
}

/// Clockwise quarter turns (0..=3) applied to a tile's canonical orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// The four rotations.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// A rotation from a number of quarter turns; `None` above 3.
    pub const fn new(quarter_turns: u8) -> Option<Rotation> {
        if quarter_turns < 4 {
            Some(Rotation(quarter_turns))
        } else {
            None
        }
    }

    /// Number of clockwise quarter turns, 0..=3.
    pub const fn quarter_turns(self) -> u8 {
        self.0
    }

    /// The canonical side that ends up on board side `board_side`.
    pub const fn canonical_side(self, board_side: Side) -> Side {
        Side::from_index(board_side as usize + 4 - self.0 as usize)
    }
}

crate::named_enum! {
    /// A corner of a square, in the board frame (barn corners, AM6), named as in records.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[repr(u8)]
    pub enum Corner {
        /// North-west.
        NW(0) = "NW",
        /// North-east.
        NE(1) = "NE",
        /// South-east.
        SE(2) = "SE",
        /// South-west.
        SW(3) = "SW",
    }
}

impl Corner {
    /// Index 0..4 clockwise from north-west.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The corner with index `i & 3`.
    pub const fn from_index(i: usize) -> Corner {
        match i & 3 {
            0 => Corner::NW,
            1 => Corner::NE,
            2 => Corner::SE,
            _ => Corner::SW,
        }
    }

    /// The four squares that meet at this corner of `pos`, each with the corner of that
    /// square that touches the meeting point.
    pub fn squares_around(self, pos: Pos) -> [(Pos, Corner); 4] {
        // Offsets of the square whose SE corner is the meeting point.
        let (ox, oy) = match self {
            Corner::NW => (-1, -1),
            Corner::NE => (0, -1),
            Corner::SE => (0, 0),
            Corner::SW => (-1, 0),
        };
        let base = Pos::new(pos.x + ox, pos.y + oy);
        [
            (base, Corner::SE),
            (Pos::new(base.x + 1, base.y), Corner::SW),
            (Pos::new(base.x + 1, base.y + 1), Corner::NW),
            (Pos::new(base.x, base.y + 1), Corner::NE),
        ]
    }

    /// The two field half-edges (side, third) of a square that touch this corner.
    /// Thirds are numbered clockwise around the square from its NW corner.
    pub const fn half_edges(self) -> [(Side, usize); 2] {
        match self {
            Corner::NW => [(Side::W, 2), (Side::N, 0)],
            Corner::NE => [(Side::N, 2), (Side::E, 0)],
            Corner::SE => [(Side::E, 2), (Side::S, 0)],
            Corner::SW => [(Side::S, 2), (Side::W, 0)],
        }
    }
}

#[cfg(test)]
#[path = "tests/unit/geometry.rs"]
mod tests;
