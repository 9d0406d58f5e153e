//! The board: placed tiles on a grid of integer squares, and the frontier of empty squares
//! next to them from which legal placements (B4) are found.
//!
//! The grid is sized from the number of tiles in the game (a tile can never lie farther
//! from the start than the number of tiles), so lookups are array indexing and nothing is
//! allocated while a game is played.

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
    dim: i32,
    cells: Vec<u8>,
    placements: Vec<Placement>,
    frontier: Vec<Pos>,
}

/// Marker in `cells` for an empty square.
const EMPTY: u8 = 0;

impl Board {
    /// An empty board for a game of at most `max_tiles` tiles.
    pub fn new(max_tiles: usize) -> Board {
        let radius = max_tiles as i32 + 2;
        let dim = 2 * radius + 1;
        Board {
            radius,
            dim,
            cells: vec![EMPTY; (dim * dim) as usize],
            placements: Vec::with_capacity(max_tiles + 1),
            frontier: Vec::with_capacity(4 * max_tiles + 4),
        }
    }

    fn cell(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (pos.x + self.radius, pos.y + self.radius);
        if x < 0 || y < 0 || x >= self.dim || y >= self.dim {
            None
        } else {
            Some((y * self.dim + x) as usize)
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

    /// Whether `pos` can hold a tile at all (inside the grid).
    pub fn in_bounds(&self, pos: Pos) -> bool {
        self.cell(pos).is_some()
    }

    /// The smallest and largest coordinates of placed tiles: `(min, max)`.
    pub fn bounds(&self) -> (Pos, Pos) {
        let mut min = Pos::new(i32::MAX, i32::MAX);
        let mut max = Pos::new(i32::MIN, i32::MIN);
        for p in &self.placements {
            min = Pos::new(min.x.min(p.pos.x), min.y.min(p.pos.y));
            max = Pos::new(max.x.max(p.pos.x), max.y.max(p.pos.y));
        }
        if self.placements.is_empty() {
            (Pos::default(), Pos::default())
        } else {
            (min, max)
        }
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

    /// Puts a tile on an empty square and updates the frontier and surround counts.
    /// Returns its placement index.
    pub fn place(&mut self, pos: Pos, kind: TileKind, rot: Rotation, node_base: u16) -> usize {
        let c = self.cell(pos).expect("placement inside the grid");
        debug_assert_eq!(self.cells[c], EMPTY);
        let index = self.placements.len();
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
        if let Some(k) = self.frontier.iter().position(|p| *p == pos) {
            self.frontier.swap_remove(k);
        }
        for side in Side::ALL {
            let n = pos.step(side);
            if self.is_placed(n) || !self.in_bounds(n) {
                continue;
            }
            // `n` was already on the frontier if another tile touches it.
            let others = Side::ALL
                .iter()
                .filter(|s| **s != side.opposite() && self.is_placed(n.step(**s)))
                .count();
            if others == 0 {
                self.frontier.push(n);
            }
        }
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::catalogue;

    #[test]
    fn frontier_follows_placements() {
        let d = catalogue().by_id("BASE-D").unwrap();
        let mut b = Board::new(10);
        b.place(Pos::new(0, 0), d, Rotation::default(), 0);
        assert_eq!(b.frontier().len(), 4);
        b.place(Pos::new(1, 0), d, Rotation::default(), 4);
        assert_eq!(b.frontier().len(), 6);
        assert!(!b.frontier().contains(&Pos::new(1, 0)));
        assert_eq!(b.at(Pos::new(0, 0)).unwrap().surrounded_by, 1);
        // BASE-D's east side is a road: a square east of it requires a road on its west.
        let (packed, mask) = b.requirements(Pos::new(2, 0));
        assert_eq!(mask, 0xF << 12);
        assert_eq!(packed, (Terrain::Road as u16) << 12);
    }
}
