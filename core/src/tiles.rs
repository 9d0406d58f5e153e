//! The tile catalogue: every tile of the supported sets with its edges, features,
//! pennants, symbols and per-edition counts.
//!
//! The data is the crate's own table `data/tiles.txt`, generated from the reference
//! catalogue `tiles.json` by `tools/gen_tile_table.py` and checked against it by the test
//! `catalogue_matches_reference`. Tile ids (`BASE-D`) and feature ids (`c1`, `r2`, `f3`,
//! `m1`, `g1`, `w1`) are the catalogue's.
//!
//! A tile side is split into three thirds numbered clockwise around the tile from its NW
//! corner (`N0 N1 N2 E0 E1 E2 S0 S1 S2 W0 W1 W2`); segment `side*3 + third` of a tile
//! belongs to exactly one feature. Rotating a tile clockwise by one quarter maps side N to
//! E and keeps the third.
//!
//! ```
//! use carcassonne::tiles::{catalogue, FeatureKind};
//! let d = catalogue().by_id("BASE-D").unwrap();
//! assert_eq!(d.def().features.len(), 4);
//! assert_eq!(d.def().feature_by_id("c1").map(|i| d.def().features[i].kind), Some(FeatureKind::City));
//! ```

use crate::geometry::{Rotation, Side};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// An index into the catalogue: one kind of tile (`BASE-D`, `PD-DRAGON-TUNNEL`, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileKind(pub(crate) u8);

impl TileKind {
    /// Position of this kind in the catalogue, `0..catalogue().len()`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind with catalogue index `i`, if there is one.
    pub fn from_index(i: usize) -> Option<TileKind> {
        (i < catalogue().tiles.len()).then_some(TileKind(i as u8))
    }

    /// The definition of this kind.
    pub fn def(self) -> &'static TileDef {
        &catalogue().tiles[self.0 as usize]
    }

    /// The catalogue id, e.g. `BASE-D`.
    pub fn id(self) -> &'static str {
        &self.def().id
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

crate::named_enum! {
    /// A tile set, by the `key` of `tiles.json`. A set brings its tiles and its rules.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum TileSet {
        /// The base game (`base`).
        Base = "base",
        /// The River (`river1`).
        River1 = "river1",
        /// River II (`river2`).
        River2 = "river2",
        /// The Princess & the Dragon (`princess-and-dragon`).
        PrincessDragon = "princess-and-dragon",
        /// Abbey & Mayor (`abbey-and-mayor`).
        AbbeyMayor = "abbey-and-mayor",
        /// The Count of Carcassonne (`count`).
        Count = "count",
        /// King & Robber Baron (`king-and-robber`).
        KingRobber = "king-and-robber",
        /// The Cult (`cult`).
        Cult = "cult",
        /// Bridges, Castles & Bazaars (`bridges-castles-and-bazaars`).
        BridgesCastlesBazaars = "bridges-castles-and-bazaars",
        /// Inns & Cathedrals (`inns-and-cathedrals`).
        InnsCathedrals = "inns-and-cathedrals",
        /// The Tower (`tower`).
        Tower = "tower",
        /// Traders & Builders (`traders-and-builders`).
        TradersBuilders = "traders-and-builders",
        /// Hills & Sheep (`hills-and-sheep`).
        HillsSheep = "hills-and-sheep",
    }
}

impl TileSet {
    /// The key used in `tiles.json` and in records (the set's name).
    pub const fn key(self) -> &'static str {
        self.name()
    }

    /// Parses a set key.
    pub fn from_key(key: &str) -> Option<TileSet> {
        TileSet::from_name(key)
    }

    /// Bit of this set in a set mask.
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// What one third of a tile side shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Terrain {
    /// Field.
    Field = 0,
    /// Road.
    Road = 1,
    /// City.
    City = 2,
    /// River.
    River = 3,
    /// The abbey tile: fits anything (AM1).
    Abbey = 4,
    /// The walled City of Carcassonne between the Count's squares (CC2): never on the
    /// outside of the block, no feature.
    Carcassonne = 5,
}

impl Terrain {
    fn from_code(c: char) -> Option<Terrain> {
        Some(match c {
            'f' => Terrain::Field,
            'r' => Terrain::Road,
            'c' => Terrain::City,
            'w' => Terrain::River,
            'a' => Terrain::Abbey,
            'k' => Terrain::Carcassonne,
            _ => return None,
        })
    }

    /// Whether a side of this terrain may touch a side of `other` (B4, R2, AM1).
    pub fn fits(self, other: Terrain) -> bool {
        self == other || self == Terrain::Abbey || other == Terrain::Abbey
    }
}

crate::named_enum! {
    /// The kind of a feature on a tile (named as the catalogue's feature types).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum FeatureKind {
        /// A city (knights).
        City(0) = "city",
        /// A road (thieves).
        Road(1) = "road",
        /// A field (farmers).
        Field(2) = "field",
        /// A monastery, or the abbey (monks).
        Monastery(3) = "monastery",
        /// A garden (abbot only, A1).
        Garden(4) = "garden",
        /// A river (no figure, R3).
        River(5) = "river",
        /// A shrine (the Cult, CU1): scores like a monastery; a follower on it is a
        /// heretic.
        Shrine(6) = "shrine",
        /// A tower foundation (the Tower, TW1): tower pieces are stacked on it and a
        /// follower may stand on top; it joins no other feature and never scores.
        Tower(7) = "tower",
    }
}

impl FeatureKind {
    /// Whether features of this kind join across tile sides (cities, roads, fields, rivers).
    pub const fn is_edge_feature(self) -> bool {
        matches!(
            self,
            FeatureKind::City | FeatureKind::Road | FeatureKind::Field | FeatureKind::River
        )
    }

    /// Whether this is a monastery, a shrine or a garden: complete when surrounded by 8
    /// tiles.
    pub const fn is_cloister(self) -> bool {
        matches!(
            self,
            FeatureKind::Monastery | FeatureKind::Shrine | FeatureKind::Garden
        )
    }

    /// Whether this is a monastery or a shrine (CU1: a shrine counts as a monastery
    /// everywhere but in the challenge, CU2–CU3).
    pub const fn is_monastery_like(self) -> bool {
        matches!(self, FeatureKind::Monastery | FeatureKind::Shrine)
    }
}

crate::named_enum! {
    /// A kind of trade goods (TB1): the token a city part carries.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[repr(u8)]
    pub enum Goods {
        /// Wine.
        Wine(0) = "wine",
        /// Grain.
        Grain(1) = "grain",
        /// Cloth.
        Cloth(2) = "cloth",
    }
}

/// Where a road that leaves its tile on one side ends on that tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RoadEnd {
    /// The road (or river) crosses the tile; no end here.
    Through,
    /// At a junction or crossing.
    Junction,
    /// At the monastery with this local feature index.
    Monastery(u8),
    /// At the gate of the city with this local feature index.
    CityGate(u8),
    /// At a river spring.
    Spring,
    /// In a lake.
    Lake,
    /// At a volcano.
    Volcano,
    /// A dead end (small house).
    DeadEnd,
    /// At a bazaar (Bridges, Castles & Bazaars).
    Bazaar,
    /// At the walls of the City of Carcassonne (the Count).
    Carcassonne,
    /// At a tower (the Tower).
    Tower,
}

/// Symbols printed on a tile (bit flags).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Symbols(u32);

/// Declares the symbols once: their flags, catalogue names and documentation.
macro_rules! symbols {
    ($($(#[doc = $doc:literal])* $flag:ident = $bit:literal as $name:literal,)+) => {
        impl Symbols {
            $($(#[doc = $doc])* pub const $flag: Symbols = Symbols(1 << $bit);)+

            /// Every symbol in bit order: its catalogue name, its flag and its
            /// documentation (the C ABI's `CARC_SYMBOL_*` constants repeat them).
            pub const ALL: [(&'static str, Symbols, &'static str); [$($name),+].len()] =
                [$(($name, Symbols::$flag, concat!($($doc, "\n"),*))),+];
        }
    };
}

symbols! {
    /// A monastery.
    MONASTERY = 0 as "monastery",
    /// A garden (Abbot).
    GARDEN = 1 as "garden",
    /// A river tile.
    RIVER = 2 as "river",
    /// A volcano (PD1).
    VOLCANO = 3 as "volcano",
    /// The dragon symbol (PD4).
    DRAGON = 4 as "dragon",
    /// A magic portal (PD12).
    MAGIC_PORTAL = 5 as "magic_portal",
    /// A princess (PD9).
    PRINCESS = 6 as "princess",
    /// A tunnel (PD18).
    TUNNEL = 7 as "tunnel",
    /// An inn (IC2).
    INN = 8 as "inn",
    /// A pig herd (R5).
    PIG_HERD = 9 as "pig_herd",
    /// A well (decoration of a junction).
    WELL = 10 as "well",
    /// The abbey tile (AM1).
    ABBEY = 11 as "abbey",
    /// A shrine (the Cult, CU1).
    SHRINE = 12 as "shrine",
    /// A bazaar (BZ1).
    BAZAAR = 13 as "bazaar",
    /// The four quarters of the City of Carcassonne (the Count, CC2).
    COUNT_QUARTERS = 14 as "count_quarters",
    /// A cathedral (IC3).
    CATHEDRAL = 15 as "cathedral",
    /// A tower foundation (TW1).
    TOWER = 16 as "tower",
    /// Trade goods on a city (TB1; which goods is the city part's).
    GOODS = 17 as "goods",
    /// A hill (HS3): a tile goes face down under it; followers on it break ties (HS4).
    HILL = 18 as "hill",
    /// A vineyard (HS5): 3 more points to each completed monastery around it.
    VINEYARD = 19 as "vineyard",
}

impl Symbols {
    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Symbols) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the set flags, in the catalogue's spelling.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Symbols::ALL
            .into_iter()
            .filter(move |(_, s, _)| self.contains(*s))
            .map(|(n, _, _)| n)
    }

    /// Raw bits.
    pub const fn bits(self) -> u32 {
        self.0
    }
}

/// One feature of a tile, in the tile's canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureDef {
    /// Catalogue id (`c1`, `r2`, `f3`, `m1`, `g1`, `w1`).
    pub id: String,
    /// Kind.
    pub kind: FeatureKind,
    /// Segments (bit `side*3 + third`, canonical frame).
    pub segments: u16,
    /// Pennants (cities).
    pub pennants: u8,
    /// Local indices of the cities this field borders on its tile (bit per index).
    pub adjacent_cities: u16,
    /// Where a road ends on this tile (roads and rivers).
    pub road_end: Option<RoadEnd>,
    /// The princess city of a princess tile (PD9).
    pub princess: bool,
    /// A road through a tunnel (PD18).
    pub tunnel: bool,
    /// A field enclosed inside the tile.
    pub inner: bool,
    /// A road with an inn.
    pub inn: bool,
    /// The field with the pig herd (R5).
    pub pig_herd: bool,
    /// A road with a well.
    pub well: bool,
    /// A city with a cathedral (IC3).
    pub cathedral: bool,
    /// The trade goods a city part carries, one token (TB1).
    pub goods: Option<Goods>,
    /// A city cap that may hold a castle (CA1): `false` for the six caps the catalogue
    /// marks `"castle_base": false`, whose art shows no semicircular cap.
    pub castle_base: bool,
}

impl FeatureDef {
    /// Canonical sides that this feature touches (bit per side index).
    pub fn side_mask(&self) -> u8 {
        let mut mask = 0;
        for side in 0..4 {
            let thirds = (self.segments >> (side * 3)) & 0b111;
            // A feature touches a side through any of its thirds: a road or river holds
            // the middle one, a city usually all three, but two cities may share a side
            // (HS-CORNER-AND-CAP-VINEYARD: one on thirds 0 and 1, the other on third 2).
            if thirds != 0 {
                mask |= 1 << side;
            }
        }
        mask
    }
}

impl FeatureDef {
    /// Corners of the tile that the feature covers (bit per [`crate::geometry::Corner`]
    /// index: NW, NE, SE, SW; canonical frame): both half-edges at the corner (e.g. `W2`
    /// and `N0` for NW) belong to it. Only fields and cities cover corners; a barn's
    /// corner (AM6) is one covered by a field.
    pub fn corners(&self) -> u8 {
        let mut mask = 0;
        for corner in crate::geometry::Corner::ALL {
            let covered = corner
                .half_edges()
                .iter()
                .all(|(side, third)| self.segments & (1 << (side.index() * 3 + third)) != 0);
            if covered {
                mask |= 1 << corner.index();
            }
        }
        mask
    }
}

/// A segment mask (bit `side*3 + third`) of a tile turned by `rot`, in the board frame:
/// each side moves `rot` quarter turns clockwise and keeps its thirds.
pub const fn rotate_segments(segments: u16, rot: Rotation) -> u16 {
    let r = rot.quarter_turns() as u32 * 3;
    ((segments << r) | (segments >> (12 - r))) & 0xFFF
}

/// A mask of one bit per side or per corner (N/NW lowest, clockwise) of a tile turned by
/// `rot`, in the board frame.
pub const fn rotate_quarters(mask: u8, rot: Rotation) -> u8 {
    let r = rot.quarter_turns() as u32;
    (((mask as u32) << r | (mask as u32) >> (4 - r)) & 0xF) as u8
}

/// A tile kind seen in one rotation, in the board frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oriented {
    /// Terrain of each board side (middle third decides: fff, frf, fwf, ccc).
    pub sides: [Terrain; 4],
    /// Local feature index of each board segment (`side*3 + third`), `NO_FEATURE` if none.
    pub segment_feature: [u8; 12],
    /// Board sides each local feature leaves the tile through (bit per side).
    pub feature_sides: Vec<u8>,
    /// Sides packed 4 bits each (N lowest), for fast fit checks.
    pub packed_sides: u16,
}

/// Marks a segment that belongs to no feature.
pub const NO_FEATURE: u8 = u8::MAX;

/// A tile kind of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileDef {
    /// Catalogue id (`BASE-D`).
    pub id: String,
    /// The set this tile belongs to.
    pub set: TileSet,
    /// Copies in editions C1, C2, C3.
    pub counts: [u8; 3],
    /// Whether the catalogue gives a C3 count (base and River only).
    pub has_c3_count: bool,
    /// Terrain of each canonical side.
    pub edges: [[Terrain; 3]; 4],
    /// Printed symbols.
    pub symbols: Symbols,
    /// Features in catalogue order; local feature index = position here.
    pub features: Vec<FeatureDef>,
    /// The tile in each rotation.
    pub oriented: [Oriented; 4],
    /// The local index of its monastery or shrine ([`FeatureKind::is_monastery_like`]),
    /// or [`NO_FEATURE`].
    pub cloister: u8,
    /// A bit per local feature that is no field: those that lose an open side where a
    /// neighbour meets them (roads, cities, rivers; B8, B9).
    pub no_field: u16,
}

impl TileDef {
    /// The local index of the feature with catalogue id `id`.
    pub fn feature_by_id(&self, id: &str) -> Option<usize> {
        self.features.iter().position(|f| f.id == id)
    }

    /// The tile seen in rotation `rot`.
    pub fn oriented(&self, rot: Rotation) -> &Oriented {
        &self.oriented[rot.quarter_turns() as usize]
    }

    /// Whether the tile shows `symbol`.
    pub fn has(&self, symbol: Symbols) -> bool {
        self.symbols.contains(symbol)
    }
}

/// Every tile kind of the supported sets.
#[derive(Debug)]
pub struct Catalogue {
    /// Tile kinds in table order; `TileKind(i)` is `tiles[i]`.
    pub tiles: Vec<TileDef>,
    by_id: HashMap<String, TileKind>,
}

impl Catalogue {
    /// The kind with catalogue id `id`.
    pub fn by_id(&self, id: &str) -> Option<TileKind> {
        self.by_id.get(id).copied()
    }

    /// Number of tile kinds.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the catalogue is empty (never).
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Every kind in table order.
    pub fn kinds(&self) -> impl Iterator<Item = TileKind> {
        (0..self.tiles.len()).map(|i| TileKind(i as u8))
    }
}

static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();

/// The catalogue, parsed from the crate's table on first use.
pub fn catalogue() -> &'static Catalogue {
    CATALOGUE.get_or_init(|| {
        parse_table(include_str!("../data/tiles.txt")).expect("the built-in tile table parses")
    })
}

fn parse_segment(s: &[u8]) -> Result<usize, String> {
    // A side letter and a third: `N0` ... `W2`.
    let bad = || format!("bad segment {:?}", String::from_utf8_lossy(s));
    match *s {
        [letter, third @ b'0'..=b'2'] => match Side::from_letter(letter as char) {
            Some(side) => Ok(side.index() * 3 + (third - b'0') as usize),
            None => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn parse_feature<'a>(
    line: &'a str,
    tile_id: &str,
) -> Result<(FeatureDef, Vec<&'a str>, Option<&'a str>), String> {
    let mut words = line.split_ascii_whitespace();
    let err = |what: &str| format!("tile {tile_id}: {what} in {line:?}");
    let id = words
        .next()
        .ok_or_else(|| err("missing feature id"))?
        .to_string();
    let kind = match words.next().ok_or_else(|| err("missing feature type"))? {
        "city" => FeatureKind::City,
        "road" => FeatureKind::Road,
        "field" => FeatureKind::Field,
        "monastery" | "abbey" => FeatureKind::Monastery,
        "garden" => FeatureKind::Garden,
        "river" => FeatureKind::River,
        "shrine" => FeatureKind::Shrine,
        "tower" => FeatureKind::Tower,
        other => return Err(err(&format!("unknown feature type {other:?}"))),
    };
    let mut segments = 0u16;
    let segs = words.next().ok_or_else(|| err("missing segments"))?;
    if segs != "-" {
        // Bytes: the table is read at every start, and a `char` search per comma costs
        // more than the rest of the parse.
        for s in segs.as_bytes().split(|&b| b == b',') {
            segments |= 1 << parse_segment(s).map_err(|e| err(&e))?;
        }
    }
    let mut def = FeatureDef {
        id,
        kind,
        segments,
        pennants: 0,
        adjacent_cities: 0,
        road_end: None,
        princess: false,
        tunnel: false,
        inner: false,
        inn: false,
        pig_herd: false,
        well: false,
        cathedral: false,
        goods: None,
        castle_base: true,
    };
    let mut cities = Vec::new();
    let mut end = None;
    for word in words {
        if let Some(n) = word.strip_prefix("pennants=") {
            def.pennants = n.parse().map_err(|_| err("bad pennants"))?;
        } else if let Some(list) = word.strip_prefix("cities=") {
            cities = list.split(',').filter(|c| !c.is_empty()).collect();
        } else if let Some(e) = word.strip_prefix("end=") {
            end = Some(e);
        } else if let Some(g) = word.strip_prefix("goods=") {
            def.goods = Some(Goods::from_name(g).ok_or_else(|| err("unknown goods"))?);
        } else {
            match word {
                "princess" => def.princess = true,
                "tunnel" => def.tunnel = true,
                "inner" => def.inner = true,
                "inn" => def.inn = true,
                "pig_herd" => def.pig_herd = true,
                "well" => def.well = true,
                "cathedral" => def.cathedral = true,
                "no_castle_base" => def.castle_base = false,
                other => return Err(err(&format!("unknown flag {other:?}"))),
            }
        }
    }
    Ok((def, cities, end))
}

/// The tile turned by `rot`; `canonical_features` gives the feature on each segment of
/// the unturned tile.
fn orient(
    edges: &[[Terrain; 3]; 4],
    features: &[FeatureDef],
    canonical_features: &[u8; 12],
    rot: Rotation,
) -> Oriented {
    let mut sides = [Terrain::Field; 4];
    let mut segment_feature = [NO_FEATURE; 12];
    for board_side in Side::ALL {
        let canon = rot.canonical_side(board_side);
        sides[board_side.index()] = edges[canon.index()][1];
        let (to, from) = (board_side.index() * 3, canon.index() * 3);
        segment_feature[to..to + 3].copy_from_slice(&canonical_features[from..from + 3]);
    }
    let r = rot.quarter_turns();
    let feature_sides = features
        .iter()
        .map(|f| {
            let m = f.side_mask();
            ((m << r) | (m >> (4 - r))) & 0xF
        })
        .collect();
    let packed_sides = sides
        .iter()
        .enumerate()
        .fold(0u16, |acc, (i, t)| acc | ((*t as u16) << (i * 4)));
    Oriented {
        sides,
        segment_feature,
        feature_sides,
        packed_sides,
    }
}

/// Parses the compact tile table (see `data/tiles.txt` for the format).
pub fn parse_table(text: &str) -> Result<Catalogue, String> {
    struct Pending<'a> {
        def: TileDef,
        links: Vec<(usize, Vec<&'a str>, Option<&'a str>)>,
    }
    fn finish(p: Pending) -> Result<TileDef, String> {
        let mut def = p.def;
        // Local features are bits of a `u16` (`no_field`, the joins of `Game::put_tile`).
        if def.features.len() > 16 {
            return Err(format!("tile {}: more than 16 features", def.id));
        }
        for (i, cities, end) in p.links {
            for c in cities {
                let j = def
                    .feature_by_id(c)
                    .ok_or_else(|| format!("tile {}: unknown city {c}", def.id))?;
                def.features[i].adjacent_cities |= 1 << j;
            }
            if let Some(e) = end {
                let road_end = match e {
                    "through" => RoadEnd::Through,
                    "junction" => RoadEnd::Junction,
                    "spring" => RoadEnd::Spring,
                    "lake" => RoadEnd::Lake,
                    "volcano" => RoadEnd::Volcano,
                    "deadend" => RoadEnd::DeadEnd,
                    "bazaar" => RoadEnd::Bazaar,
                    "carcassonne" => RoadEnd::Carcassonne,
                    "tower" => RoadEnd::Tower,
                    other => {
                        let j = def
                            .feature_by_id(other)
                            .ok_or_else(|| format!("tile {}: unknown road end {other}", def.id))?;
                        match def.features[j].kind {
                            FeatureKind::City => RoadEnd::CityGate(j as u8),
                            FeatureKind::Monastery | FeatureKind::Shrine => {
                                RoadEnd::Monastery(j as u8)
                            }
                            _ => return Err(format!("tile {}: road ends at {other}", def.id)),
                        }
                    }
                };
                def.features[i].road_end = Some(road_end);
            }
        }
        // The feature on each segment of the unturned tile, looked up once for the four
        // rotations.
        let mut segment_feature = [NO_FEATURE; 12];
        for (segment, slot) in segment_feature.iter_mut().enumerate() {
            if let Some(i) = def
                .features
                .iter()
                .position(|f| f.segments & 1 << segment != 0)
            {
                *slot = i as u8;
            }
        }
        def.oriented =
            Rotation::ALL.map(|r| orient(&def.edges, &def.features, &segment_feature, r));
        def.no_field = def
            .features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind != FeatureKind::Field)
            .fold(0, |mask, (i, _)| mask | 1 << i);
        def.cloister = def
            .features
            .iter()
            .position(|f| f.kind.is_monastery_like())
            .map_or(NO_FEATURE, |i| i as u8);
        Ok(def)
    }

    let mut tiles = Vec::with_capacity(256);
    let mut current: Option<Pending> = None;
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with(' ') {
            let p = current.as_mut().ok_or("feature line before any tile")?;
            let (f, cities, end) = parse_feature(line, &p.def.id)?;
            p.links.push((p.def.features.len(), cities, end));
            p.def.features.push(f);
            continue;
        }
        if let Some(p) = current.take() {
            tiles.push(finish(p)?);
        }
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.len() < 6 {
            return Err(format!("short tile line {line:?}"));
        }
        let id = words[0].to_string();
        let set = TileSet::from_key(words[1]).ok_or_else(|| format!("tile {id}: unknown set"))?;
        let count = |w: &str| {
            w.parse::<u8>()
                .map_err(|_| format!("tile {id}: bad count {w:?}"))
        };
        let has_c3_count = words[4] != "-";
        let counts = [
            count(words[2])?,
            count(words[3])?,
            if has_c3_count { count(words[4])? } else { 0 },
        ];
        let mut edges = [[Terrain::Field; 3]; 4];
        let bad_edges = || format!("tile {id}: bad edges {:?}", words[5]);
        let mut groups = words[5].as_bytes().split(|&b| b == b'.');
        for side in edges.iter_mut() {
            let group = groups
                .next()
                .filter(|g| g.len() == 3)
                .ok_or_else(bad_edges)?;
            for (third, &code) in side.iter_mut().zip(group) {
                *third = Terrain::from_code(code as char).ok_or_else(|| {
                    if code.is_ascii() {
                        format!("tile {id}: bad edge {}", code as char)
                    } else {
                        bad_edges()
                    }
                })?;
            }
        }
        if groups.next().is_some() {
            return Err(bad_edges());
        }
        let mut symbols = Symbols::default();
        for name in &words[6..] {
            let (_, s, _) = Symbols::ALL
                .iter()
                .find(|(n, _, _)| n == name)
                .ok_or_else(|| format!("tile {id}: unknown symbol {name}"))?;
            symbols.0 |= s.0;
        }
        let empty = Oriented {
            sides: [Terrain::Field; 4],
            segment_feature: [NO_FEATURE; 12],
            feature_sides: Vec::new(),
            packed_sides: 0,
        };
        current = Some(Pending {
            def: TileDef {
                id,
                set,
                counts,
                has_c3_count,
                edges,
                symbols,
                features: Vec::with_capacity(8),
                oriented: [empty.clone(), empty.clone(), empty.clone(), empty],
                cloister: NO_FEATURE,
                no_field: 0,
            },
            links: Vec::with_capacity(8),
        });
    }
    if let Some(p) = current.take() {
        tiles.push(finish(p)?);
    }
    if tiles.len() > 250 {
        return Err("too many tile kinds for a u8 index".into());
    }
    let by_id = tiles
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), TileKind(i as u8)))
        .collect();
    Ok(Catalogue { tiles, by_id })
}

#[cfg(test)]
#[path = "tests/unit/tiles.rs"]
mod tests;
