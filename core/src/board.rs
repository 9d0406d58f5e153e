//! The board: placed tiles on a grid of integer squares, and the frontier of empty squares
//! next to them from which legal placements (B4) are found.
//!
//! Lookups are array indexing into a square grid centred on the start tile. The grid starts
//! small (cheap to clone) and doubles when a tile lands near its edge, which happens a few
//! times in a game at most; it never grows beyond the number of tiles in the game, the
//! farthest a tile can lie from the start. Each square also knows its slot in the frontier,
//! so placing a tile updates the frontier without searching it.

use crate::geometry::{Pos, Rotation, Side};
use crate::tiles::{Terrain, TileKind};

/// One placed tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Where it lies.
    pub pos: Pos,
    /// Which tile.
    pub kind: TileKind,
    /// Its rotation.
    pub rot: Rotation,
    /// Index of its first feature node; local feature `i` is node `node_base + i`.
    pub node_base: u16,
    /// Terrain of each board side.
    pub sides: [Terrain; 4],
    /// Number of placed tiles among the 8 surrounding squares.
    pub surrounded_by: u8,
}

/// Placed tiles and the frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    radius: i32,
    max_radius: i32,
    dim: i32,
    cells: Vec<u8>,
    /// Frontier slot + 1 of each square (0: not on the frontier).
    slots: Vec<u16>,
    placements: Vec<Placement>,
    frontier: Vec<Pos>,
    /// Side requirements of each frontier square, `(packed, mask)` as in [`Board::requirements`].
    frontier_requirements: Vec<(u16, u16)>,
    /// Smallest and largest coordinates of placed tiles (kept as tiles are placed).
    bounds: (Pos, Pos),
}

/// Marker in `cells` for an empty square.
const EMPTY: u8 = 0;

/// Half the side of the grid a board starts with.
const INITIAL_RADIUS: i32 = 12;

impl Board {
    /// An empty board for a game of at most `max_tiles` tiles.
    pub fn new(max_tiles: usize) -> Board {
        let max_radius = max_tiles as i32 + 2;
        let radius = max_radius.min(INITIAL_RADIUS);
        let dim = 2 * radius + 1;
        Board {
            radius,
            max_radius,
            dim,
            cells: vec![EMPTY; (dim * dim) as usize],
            slots: vec![0; (dim * dim) as usize],
            placements: Vec::with_capacity(max_tiles + 1),
            frontier: Vec::with_capacity(4 * max_tiles + 4),
            frontier_requirements: Vec::with_capacity(4 * max_tiles + 4),
            bounds: (Pos::default(), Pos::default()),
        }
    }

    fn cell(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (
            pos.x as i64 + self.radius as i64,
            pos.y as i64 + self.radius as i64,
        );
        let dim = self.dim as i64;
        if x < 0 || y < 0 || x >= dim || y >= dim {
            None
        } else {
            Some((y * dim + x) as usize)
        }
    }

    /// Index of the tile at `pos`, if any.
    #[inline]
    pub fn index_at(&self, pos: Pos) -> Option<usize> {
        let c = self.cell(pos)?;
        match self.cells[c] {
            EMPTY => None,
            i => Some(i as usize - 1),
        }
    }

    /// The tile at `pos`, if any.
    pub fn at(&self, pos: Pos) -> Option<&Placement> {
        self.index_at(pos).map(|i| &self.placements[i])
    }

    /// Whether a tile lies at `pos`.
    #[inline]
    pub fn is_placed(&self, pos: Pos) -> bool {
        self.index_at(pos).is_some()
    }

    /// Every placed tile, in placement order.
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// The placed tile with index `i`.
    pub fn placement(&self, i: usize) -> &Placement {
        &self.placements[i]
    }

    /// Number of placed tiles.
    pub fn len(&self) -> usize {
        self.placements.len()
    }

    /// Whether no tile is placed.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }

    /// Empty squares orthogonally next to a placed tile.
    pub fn frontier(&self) -> &[Pos] {
        &self.frontier
    }

    /// The side requirements of each frontier square, in the order of [`Board::frontier`]:
    /// `(packed, mask)` as [`Board::requirements`] computes them.
    pub fn frontier_requirements(&self) -> &[(u16, u16)] {
        &self.frontier_requirements
    }

    /// Whether `pos` can ever hold a tile in this game (no farther from the start than the
    /// number of tiles).
    pub fn in_bounds(&self, pos: Pos) -> bool {
        pos.x.unsigned_abs() <= self.max_radius as u32
            && pos.y.unsigned_abs() <= self.max_radius as u32
    }

    /// Half the side of the grid currently allocated (it doubles when a tile reaches its
    /// edge).
    pub fn grid_radius(&self) -> i32 {
        self.radius
    }

    /// How many times the grid has doubled since the game began.
    pub fn grid_growths(&self) -> u32 {
        let mut r = self.radius.min(INITIAL_RADIUS);
        let mut n = 0;
        while r < self.radius {
            r *= 2;
            n += 1;
        }
        n
    }

    /// Rebuilds the grid with a radius that holds `pos` and its neighbours.
    fn grow_for(&mut self, pos: Pos) {
        let needed = pos.x.abs().max(pos.y.abs()) + 2;
        let mut radius = self.radius;
        while radius < needed {
            radius *= 2;
        }
        let radius = radius.min(self.max_radius + 1);
        let dim = 2 * radius + 1;
        self.radius = radius;
        self.dim = dim;
        self.cells = vec![EMPTY; (dim * dim) as usize];
        self.slots = vec![0; (dim * dim) as usize];
        for i in 0..self.placements.len() {
            let c = self
                .cell(self.placements[i].pos)
                .expect("inside the grown grid");
            self.cells[c] = (i + 1) as u8;
        }
        for k in 0..self.frontier.len() {
            let c = self.cell(self.frontier[k]).expect("inside the grown grid");
            self.slots[c] = (k + 1) as u16;
        }
    }

    /// The smallest and largest coordinates of placed tiles: `(min, max)` (both the
    /// origin while the board is empty).
    pub fn bounds(&self) -> (Pos, Pos) {
        self.bounds
    }

    /// Number of orthogonal neighbours of `pos` that hold tiles.
    pub fn orthogonal_neighbours(&self, pos: Pos) -> usize {
        Side::ALL
            .iter()
            .filter(|s| self.is_placed(pos.step(**s)))
            .count()
    }

    /// Required side terrains of an empty square from its neighbours: `(packed, mask)`,
    /// 4 bits per side as in `Oriented::packed_sides`. A tile fits the neighbours when
    /// `(packed_sides ^ packed) & mask == 0`.
    #[inline]
    pub fn requirements(&self, pos: Pos) -> (u16, u16) {
        let mut packed = 0u16;
        let mut mask = 0u16;
        for side in Side::ALL {
            if let Some(n) = self.at(pos.step(side)) {
                let t = n.sides[side.opposite().index()];
                if t != Terrain::Abbey {
                    packed |= (t as u16) << (side.index() * 4);
                    mask |= 0xF << (side.index() * 4);
                }
            }
        }
        (packed, mask)
    }

    /// Changes the terrain of side `side` of placement `index` (a bridge makes a field
    /// side a road side, BR2) and the requirement of the empty square it faces.
    pub fn set_side(&mut self, index: usize, side: Side, terrain: Terrain) {
        self.placements[index].sides[side.index()] = terrain;
        let facing = self.placements[index].pos.step(side);
        if let Some(c) = self.cell(facing) {
            if self.slots[c] != 0 {
                let k = self.slots[c] as usize - 1;
                self.frontier_requirements[k] = self.requirements(facing);
            }
        }
    }

    /// Puts a tile on an empty square and updates the frontier and surround counts.
    /// Returns its placement index.
    pub fn place(&mut self, pos: Pos, kind: TileKind, rot: Rotation, node_base: u16) -> usize {
        if pos.x.abs() + 1 >= self.radius || pos.y.abs() + 1 >= self.radius {
            self.grow_for(pos);
        }
        let c = self.cell(pos).expect("placement inside the grid");
        debug_assert_eq!(self.cells[c], EMPTY);
        let index = self.placements.len();
        self.bounds = if index == 0 {
            (pos, pos)
        } else {
            let (min, max) = self.bounds;
            (
                Pos::new(min.x.min(pos.x), min.y.min(pos.y)),
                Pos::new(max.x.max(pos.x), max.y.max(pos.y)),
            )
        };
        let mut surrounded_by = 0;
        for n in pos.surrounding() {
            if let Some(i) = self.index_at(n) {
                surrounded_by += 1;
                self.placements[i].surrounded_by += 1;
            }
        }
        self.placements.push(Placement {
            pos,
            kind,
            rot,
            node_base,
            sides: kind.def().oriented(rot).sides,
            surrounded_by,
        });
        self.cells[c] = (index + 1) as u8;
        if self.slots[c] != 0 {
            let k = self.slots[c] as usize - 1;
            self.slots[c] = 0;
            self.frontier.swap_remove(k);
            self.frontier_requirements.swap_remove(k);
            if k < self.frontier.len() {
                let moved = self
                    .cell(self.frontier[k])
                    .expect("frontier inside the grid");
                self.slots[moved] = (k + 1) as u16;
            }
        }
        let sides = self.placements[index].sides;
        for side in Side::ALL {
            let n = pos.step(side);
            if self.is_placed(n) || !self.in_bounds(n) {
                continue;
            }
            // The new tile's side faces the neighbour's opposite side.
            let facing = side.opposite().index() * 4;
            let terrain = sides[side.index()];
            let (packed, mask) = if terrain == Terrain::Abbey {
                (0, 0)
            } else {
                ((terrain as u16) << facing, 0xF << facing)
            };
            let nc = self.cell(n).expect("neighbour inside the grid");
            match self.slots[nc] {
                0 => {
                    self.frontier.push(n);
                    self.frontier_requirements.push((packed, mask));
                    self.slots[nc] = self.frontier.len() as u16;
                }
                slot => {
                    let r = &mut self.frontier_requirements[slot as usize - 1];
                    r.0 |= packed;
                    r.1 |= mask;
                }
            }
        }
        index
    }
}

#[cfg(test)]
#[path = "tests/unit/board.rs"]
mod tests;
