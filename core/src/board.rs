//! The board: placed tiles on a grid of integer squares, and the frontier of empty squares
//! next to them from which legal placements (B4) are found.
//!
//! Lookups are array indexing into a square grid centred on the start tile. The grid starts
//! small (cheap to clone) and doubles when a tile lands near its edge, which happens a few
//! times in a game at most; it never grows beyond the number of tiles in the game, the
//! farthest a tile can lie from the start. Each square also knows its slot in the frontier,
//! so placing a tile updates the frontier without searching it.
//!
//! Each frontier square keeps what its neighbours require of a tile's sides (a
//! [`Requirement`], updated as tiles are placed around it); a [`FitTable`] per tile kind
//! answers which rotations fit a requirement in two lookups, so a drawn tile's placements
//! are one pass over the frontier.

use crate::geometry::{Pos, Rotation, Side};
use crate::tiles::{catalogue, Oriented, Terrain, TileDef, TileKind};
use std::fmt;
use std::sync::OnceLock;

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
    /// Whether putting this tile filled the surroundings of a tile (its own included):
    /// some tile got its eighth neighbour.
    filled_surroundings: bool,
    /// `kind`'s definition, kept here so that the hot paths read it without going
    /// through the catalogue.
    def: KindDef,
}

/// A tile kind's definition held by a placement: equal when it is the same definition,
/// shown by its catalogue id.
#[derive(Clone, Copy)]
struct KindDef(&'static TileDef);

impl PartialEq for KindDef {
    fn eq(&self, other: &KindDef) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for KindDef {}

impl fmt::Debug for KindDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.id)
    }
}

impl Placement {
    /// The definition of the tile (`kind.def()`).
    #[inline]
    pub fn def(&self) -> &'static TileDef {
        self.def.0
    }

    /// The tile in its rotation (`kind.def().oriented(rot)`).
    #[inline]
    pub fn oriented(&self) -> &'static Oriented {
        self.def.0.oriented(self.rot)
    }

    /// Whether putting this tile gave some tile (itself included) its eighth
    /// surrounding tile (B10: a cloister may have been completed).
    pub fn filled_surroundings(&self) -> bool {
        self.filled_surroundings
    }
}

/// An empty square next to a placed tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FrontierSquare {
    /// Where it lies.
    pub pos: Pos,
    /// What its neighbours require of a tile put there.
    pub required: Requirement,
    /// How many of its four orthogonal neighbours hold tiles (1 to 4): kept as tiles are
    /// placed, so that holes (AM1: four neighbours) are found without looking at the
    /// grid.
    pub neighbours: u8,
}

/// Placed tiles and the frontier.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    radius: i32,
    max_radius: i32,
    dim: i32,
    cells: Vec<u8>,
    /// Frontier slot + 1 of each square (0: not on the frontier).
    slots: Vec<u16>,
    placements: Vec<Placement>,
    frontier: Vec<FrontierSquare>,
    /// Smallest and largest coordinates of placed tiles (kept as tiles are placed).
    bounds: (Pos, Pos),
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            radius: self.radius,
            max_radius: self.max_radius,
            dim: self.dim,
            cells: self.cells.clone(),
            slots: self.slots.clone(),
            placements: self.placements.clone(),
            frontier: self.frontier.clone(),
            bounds: self.bounds,
        }
    }

    /// The copy in this board's memory: no allocation once its lists are large enough.
    fn clone_from(&mut self, source: &Board) {
        let Board {
            radius,
            max_radius,
            dim,
            cells,
            slots,
            placements,
            frontier,
            bounds,
        } = source;
        self.radius = *radius;
        self.max_radius = *max_radius;
        self.dim = *dim;
        self.cells.clone_from(cells);
        self.slots.clone_from(slots);
        self.placements.clone_from(placements);
        self.frontier.clone_from(frontier);
        self.bounds = *bounds;
    }
}

/// Marker in `cells` for an empty square.
const EMPTY: u8 = 0;

/// The placement index a cell holds (a cell holds the index plus 1), if any.
#[inline]
fn held_index(cell: u8) -> Option<usize> {
    match cell {
        EMPTY => None,
        i => Some(i as usize - 1),
    }
}

/// Half the side of the grid a board starts with.
const INITIAL_RADIUS: i32 = 12;

impl Board {
    /// An empty board for a game of at most `max_tiles` tiles.
    pub fn new(max_tiles: usize) -> Board {
        let mut board = Board::unallocated();
        board.clear_for(max_tiles);
        board
    }

    /// A board without a grid yet, for [`Board::clear_for`] to size.
    pub(crate) const fn unallocated() -> Board {
        Board {
            radius: 0,
            max_radius: 0,
            dim: 0,
            cells: Vec::new(),
            slots: Vec::new(),
            placements: Vec::new(),
            frontier: Vec::new(),
            bounds: (Pos::new(0, 0), Pos::new(0, 0)),
        }
    }

    /// Empties the board for a game of at most `max_tiles` tiles: the board
    /// [`Board::new`] makes, in this board's memory.
    pub fn clear_for(&mut self, max_tiles: usize) {
        let Board {
            radius,
            max_radius,
            dim,
            cells,
            slots,
            placements,
            frontier,
            bounds,
        } = self;
        *max_radius = max_tiles as i32 + 2;
        *radius = (*max_radius).min(INITIAL_RADIUS);
        *dim = 2 * *radius + 1;
        let area = (*dim * *dim) as usize;
        cells.clear();
        cells.resize(area, EMPTY);
        slots.clear();
        slots.resize(area, 0);
        placements.clear();
        placements.reserve_exact(max_tiles + 1);
        frontier.clear();
        frontier.reserve_exact(4 * max_tiles + 4);
        *bounds = (Pos::default(), Pos::default());
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
        held_index(self.cells[c])
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

    /// Empty squares orthogonally next to a placed tile, with what each requires of a
    /// tile put there.
    pub fn frontier(&self) -> &[FrontierSquare] {
        &self.frontier
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
        // In the lists' own memory: a board copied into a larger one's memory
        // (`clone_from`) or started again (`clear_for`) grows without allocating.
        self.cells.clear();
        self.cells.resize((dim * dim) as usize, EMPTY);
        self.slots.clear();
        self.slots.resize((dim * dim) as usize, 0);
        for i in 0..self.placements.len() {
            let c = self
                .cell(self.placements[i].pos)
                .expect("inside the grown grid");
            self.cells[c] = (i + 1) as u8;
        }
        for k in 0..self.frontier.len() {
            let c = self
                .cell(self.frontier[k].pos)
                .expect("inside the grown grid");
            self.slots[c] = (k + 1) as u16;
        }
    }

    /// The smallest and largest coordinates of placed tiles: `(min, max)` (both the
    /// origin while the board is empty).
    pub fn bounds(&self) -> (Pos, Pos) {
        self.bounds
    }

    /// The cells of the 8 squares around cell `c`, in [`Pos::surrounding`] order. The
    /// square of `c` must lie at least one square inside the grid's edge (every placed
    /// tile does: `place` grows the grid).
    #[inline]
    fn surrounding_cells(&self, c: usize) -> [usize; 8] {
        let dim = self.dim as usize;
        [
            c - dim - 1,
            c - dim,
            c - dim + 1,
            c - 1,
            c + 1,
            c + dim - 1,
            c + dim,
            c + dim + 1,
        ]
    }

    /// The placement indices of the tiles next to the tile at `pos`, by [`Side::ALL`]
    /// (`None` for an empty square). `pos` must hold a tile.
    pub fn neighbour_indices(&self, pos: Pos) -> [Option<usize>; 4] {
        let c = self.cell(pos).expect("a placed tile lies inside the grid");
        // The grid reaches at least one square beyond every placed tile (`place` grows
        // it): the neighbours' cells are offsets of `c`.
        let dim = self.dim as usize;
        [c - dim, c + 1, c + dim, c - 1].map(|n| held_index(self.cells[n]))
    }

    /// The tiles with all 8 surrounding squares filled (B10) among the tile at `pos`
    /// and the 8 squares around it, in the order `pos`, then [`Pos::surrounding`]: their
    /// placement indices, and how many there are. `pos` must hold a tile.
    pub fn surrounded_around(&self, pos: Pos) -> ([u8; 9], usize) {
        let mut found = ([0u8; 9], 0);
        let c = self.cell(pos).expect("a placed tile lies inside the grid");
        // The grid reaches at least one square beyond every placed tile (`place` grows
        // it): the neighbours' cells are offsets of `c`.
        let mut cells = [c; 9];
        cells[1..].copy_from_slice(&self.surrounding_cells(c));
        for n in cells {
            let i = self.cells[n];
            if i != EMPTY && self.placements[i as usize - 1].surrounded_by == 8 {
                found.0[found.1] = i - 1;
                found.1 += 1;
            }
        }
        found
    }

    /// Number of orthogonal neighbours of `pos` that hold tiles.
    pub fn orthogonal_neighbours(&self, pos: Pos) -> usize {
        Side::ALL
            .iter()
            .filter(|s| self.is_placed(pos.step(**s)))
            .count()
    }

    /// What an empty square requires of a tile's sides from its neighbours (a
    /// [`Requirement`]).
    pub fn requirement(&self, pos: Pos) -> Requirement {
        Side::ALL.iter().fold(0, |code, &side| {
            code | match self.at(pos.step(side)) {
                Some(n) => side_requirement(side, n.sides[side.opposite().index()]),
                None => 0,
            }
        })
    }

    /// Changes the terrain of side `side` of placement `index` (a bridge makes a field
    /// side a road side, BR2) and the requirement of the empty square it faces.
    pub fn set_side(&mut self, index: usize, side: Side, terrain: Terrain) {
        self.placements[index].sides[side.index()] = terrain;
        let facing = self.placements[index].pos.step(side);
        if let Some(c) = self.cell(facing) {
            if self.slots[c] != 0 {
                let k = self.slots[c] as usize - 1;
                self.frontier[k].required = self.requirement(facing);
            }
        }
    }

    /// Puts a tile on an empty square and updates the frontier and surround counts.
    /// Returns its placement index.
    pub fn place(&mut self, pos: Pos, kind: TileKind, rot: Rotation, node_base: u16) -> usize {
        self.place_beside(pos, kind, kind.def(), rot, node_base).0
    }

    /// [`Board::place`] of a tile whose definition `def` (`kind.def()`) the caller has at
    /// hand, also returning the placement indices of the tiles next to the new one, by
    /// [`Side::ALL`] (as [`Board::neighbour_indices`] would after it).
    pub fn place_beside(
        &mut self,
        pos: Pos,
        kind: TileKind,
        def: &'static TileDef,
        rot: Rotation,
        node_base: u16,
    ) -> (usize, [Option<usize>; 4]) {
        debug_assert!(std::ptr::eq(def, kind.def()));
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
        // The grid holds every square around `pos` (it grew above when `pos` lay near its
        // edge): the 3 × 3 squares around it are three rows of three cells.
        let dim = self.dim as usize;
        let row = |r: usize| -> [u8; 3] {
            let start = c + r * dim - dim - 1;
            self.cells[start..start + 3]
                .try_into()
                .expect("three cells")
        };
        let window = [row(0), row(1), row(2)];
        let mut surrounded_by = 0;
        let mut filled_surroundings = false;
        for (k, &i) in window.as_flattened().iter().enumerate() {
            if k != 4 && i != EMPTY {
                surrounded_by += 1;
                let neighbour = &mut self.placements[i as usize - 1];
                neighbour.surrounded_by += 1;
                filled_surroundings |= neighbour.surrounded_by == 8;
            }
        }
        filled_surroundings |= surrounded_by == 8;
        let sides = def.oriented(rot).sides;
        self.placements.push(Placement {
            pos,
            kind,
            rot,
            node_base,
            sides,
            surrounded_by,
            filled_surroundings,
            def: KindDef(def),
        });
        self.cells[c] = (index + 1) as u8;
        if self.slots[c] != 0 {
            let k = self.slots[c] as usize - 1;
            self.slots[c] = 0;
            self.frontier.swap_remove(k);
            if k < self.frontier.len() {
                let moved = self
                    .cell(self.frontier[k].pos)
                    .expect("frontier inside the grid");
                self.slots[moved] = (k + 1) as u16;
            }
        }
        // By side: the cell and what it holds.
        let beside = [
            (c - dim, window[0][1]),
            (c + 1, window[1][2]),
            (c + dim, window[2][1]),
            (c - 1, window[1][0]),
        ];
        // Every square next to `pos` can hold a tile when `pos` lies more than one square
        // inside the bounds: then only the squares of a tile on the edge are tested.
        let inside = pos.x.unsigned_abs() < self.max_radius as u32
            && pos.y.unsigned_abs() < self.max_radius as u32;
        for side in Side::ALL {
            let (nc, held) = beside[side.index()];
            if held != EMPTY {
                continue;
            }
            let n = pos.step(side);
            if !inside && !self.in_bounds(n) {
                continue;
            }
            // The new tile's side faces the neighbour's opposite side.
            let required = side_requirement(side.opposite(), sides[side.index()]);
            match self.slots[nc] {
                0 => {
                    self.frontier.push(FrontierSquare {
                        pos: n,
                        required,
                        neighbours: 1,
                    });
                    self.slots[nc] = self.frontier.len() as u16;
                }
                slot => {
                    let square = &mut self.frontier[slot as usize - 1];
                    square.required |= required;
                    square.neighbours += 1;
                }
            }
        }
        let neighbours = beside.map(|(_, held)| held_index(held));
        (index, neighbours)
    }
}

/// What an empty square requires of the sides of a tile put there, from its neighbours
/// (B4): 3 bits per side, in two bytes of two sides each — north (bits 0–2) and east
/// (3–5) in the low byte, south (8–10) and west (11–13) in the high byte, so that each
/// byte is looked up on its own ([`FitTable::fits`]); 0 where no tile faces the side or
/// the abbey does (it fits anything, AM1), else the terrain of the facing side plus 1.
pub type Requirement = u16;

/// The requirement that a neighbour's terrain `terrain` puts on side `side` of a square.
pub fn side_requirement(side: Side, terrain: Terrain) -> Requirement {
    const SHIFT: [u32; 4] = [0, 3, 8, 11];
    match terrain {
        Terrain::Abbey => 0,
        t => (t as Requirement + 1) << SHIFT[side.index()],
    }
}

/// A requirement in the form `(packed, mask)`, 4 bits per side as in
/// `Oriented::packed_sides`: a tile fits when `(packed_sides ^ packed) & mask == 0`.
#[inline]
pub fn packed_requirement(required: Requirement) -> (u16, u16) {
    let (low, high) = (
        PACKED_HALVES[(required & 63) as usize],
        PACKED_HALVES[(required >> 8 & 63) as usize],
    );
    (
        low.0 as u16 | (high.0 as u16) << 8,
        low.1 as u16 | (high.1 as u16) << 8,
    )
}

/// [`packed_requirement`] of each half of a requirement (two sides, 6 bits): the packed
/// terrains and the mask of the two sides, 4 bits each.
const PACKED_HALVES: [(u8, u8); 64] = {
    let mut halves = [(0u8, 0u8); 64];
    let mut code = 0;
    while code < 64 {
        let mut side = 0;
        while side < 2 {
            let terrain = (code >> (3 * side)) & 7;
            if terrain != 0 {
                halves[code].0 |= ((terrain - 1) << (4 * side)) as u8;
                halves[code].1 |= 0xF << (4 * side);
            }
            side += 1;
        }
        code += 1;
    }
    halves
};

/// Which rotations of one tile kind fit each [`Requirement`], a bit per rotation (bit
/// `r`: rotation `r`), looked up in two halves: north and east, south and west — one byte
/// of the requirement each. A half has an entry for every byte value, so that a lookup
/// needs neither a mask nor a bounds check; the entries of bytes no requirement has
/// (bits 6 and 7 set) stay 0.
#[derive(Clone, Debug)]
pub struct FitTable {
    halves: [[u8; 256]; 2],
}

impl FitTable {
    /// The table of a tile whose sides in rotation `r` are `packed_sides[r]` (as
    /// `Oriented::packed_sides`).
    pub fn new(packed_sides: [u16; 4]) -> FitTable {
        FitTable::by_side_rule(packed_sides, |required, terrain| required == terrain)
    }

    /// The table of the rotations of a tile whose sides in rotation `r` are
    /// `packed_sides[r]` (as `Oriented::packed_sides`) in which every side passes
    /// `accepts(required, terrain)`: `required` the terrain a neighbour requires of the
    /// side, `terrain` the tile's (both as [`crate::tiles::Terrain`] numbers). A side
    /// that nothing requires passes. [`FitTable::new`] accepts equal terrains; a rule
    /// that accepts more gives the rotations that an expansion may make fit (BR2).
    pub fn by_side_rule(packed_sides: [u16; 4], accepts: impl Fn(u16, u16) -> bool) -> FitTable {
        // Per side and per code of that side, the rotations that pass.
        let mut by_side = [[0u8; 8]; 4];
        for (side, codes) in by_side.iter_mut().enumerate() {
            codes[0] = 0xF;
            for (r, sides) in packed_sides.iter().enumerate() {
                let terrain = sides >> (4 * side) & 0xF;
                for (code, fits) in codes.iter_mut().enumerate().skip(1) {
                    if accepts(code as u16 - 1, terrain) {
                        *fits |= 1 << r;
                    }
                }
            }
        }
        let mut halves = [[0u8; 256]; 2];
        for (half, table) in halves.iter_mut().enumerate() {
            for (code, fits) in table[..64].iter_mut().enumerate() {
                *fits = by_side[2 * half][code & 7] & by_side[2 * half + 1][code >> 3];
            }
        }
        FitTable { halves }
    }

    /// The table of tile kind `kind` (made once for every kind of the catalogue).
    pub fn of(kind: TileKind) -> &'static FitTable {
        static TABLES: OnceLock<Vec<FitTable>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            catalogue()
                .kinds()
                .map(|k| FitTable::new(Rotation::ALL.map(|r| k.def().oriented(r).packed_sides)))
                .collect()
        });
        &tables[kind.index()]
    }

    /// The rotations that fit `required`, a bit per rotation.
    #[inline]
    pub fn fits(&self, required: Requirement) -> u8 {
        self.halves[0][required as u8 as usize] & self.halves[1][(required >> 8) as usize]
    }
}

#[cfg(test)]
#[path = "tests/unit/board.rs"]
mod tests;
