//! The tile catalogue: kind indices, catalogue ids and feature ids, and the geometry a
//! client draws tiles from: each feature's kind, segments (edge thirds), sides, corners,
//! pennants and flags, and each tile's symbols.

use crate::action::{tile_kind, CARC_NO_FEATURE};
use crate::engine_types::CarcFeatureKind;
use crate::guard::{call, check_out, non_null, put, read_str, write_out};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::catalogue;
use carcassonne_core::tiles::{rotate_quarters, rotate_segments, FeatureDef, RoadEnd};
use carcassonne_core::Rotation;
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

/// NUL-terminated ids of every tile kind and of each kind's features, built once.
struct Names {
    kinds: Vec<CString>,
    features: Vec<Vec<CString>>,
}

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        let to_c = |s: &str| CString::new(s).unwrap_or_default();
        Names {
            kinds: catalogue().tiles.iter().map(|t| to_c(&t.id)).collect(),
            features: catalogue()
                .tiles
                .iter()
                .map(|t| t.features.iter().map(|f| to_c(&f.id)).collect())
                .collect(),
        }
    })
}

/// Writes the number of tile kinds in the catalogue (tile kind indices are
/// `0..count`) to `*out`.
///
/// Ownership: `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_tile_kind_count(out: *mut u32) -> CarcStatus {
    call("carc_tile_kind_count", || {
        put(out, "out", catalogue().len() as u32)
    })
}

/// Writes a pointer to the catalogue id of tile kind `index` (e.g. `"BASE-D"`) to `*out`.
///
/// Ownership: the string belongs to the library, is NUL-terminated and lives as long as
/// the process; the caller must not free or modify it.
#[no_mangle]
pub extern "C" fn carc_tile_kind_id(index: u32, out: *mut *const c_char) -> CarcStatus {
    call("carc_tile_kind_id", || {
        check_out(out, "out")?;
        let kind = tile_kind(index, "index")?;
        write_out(out, names().kinds[kind.index()].as_ptr());
        Ok(())
    })
}

/// Writes the index of the tile kind with catalogue id `id` (e.g. `"BASE-D"`) to `*out`.
/// An unknown id is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `id` (NUL-terminated UTF-8) is read during the call; `out` belongs to the
/// caller.
#[no_mangle]
pub extern "C" fn carc_tile_kind_index(id: *const c_char, out: *mut u16) -> CarcStatus {
    call("carc_tile_kind_index", || {
        let id = non_null(id, "id")?;
        check_out(out, "out")?;
        let id = read_str(id, "id")?;
        let kind = catalogue().by_id(id).ok_or_else(|| {
            Failure::invalid(format!(
                "{} is not a tile id",
                carcassonne_session::json::echo(id)
            ))
        })?;
        write_out(out, kind.index() as u16);
        Ok(())
    })
}

/// Writes the number of features of tile kind `kind` (local feature indices are
/// `0..count`) to `*out`.
///
/// Ownership: `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_tile_feature_count(kind: u32, out: *mut u32) -> CarcStatus {
    call("carc_tile_feature_count", || {
        check_out(out, "out")?;
        let kind = tile_kind(kind, "kind")?;
        write_out(out, kind.def().features.len() as u32);
        Ok(())
    })
}

/// Writes a pointer to the catalogue id of local feature `feature` of tile kind `kind`
/// (e.g. `"c1"`, `"r2"`, `"f3"`, `"m1"`) to `*out`.
///
/// Ownership: the string belongs to the library, is NUL-terminated and lives as long as
/// the process; the caller must not free or modify it.
#[no_mangle]
pub extern "C" fn carc_tile_feature_id(
    kind: u32,
    feature: u32,
    out: *mut *const c_char,
) -> CarcStatus {
    call("carc_tile_feature_id", || {
        check_out(out, "out")?;
        let k = tile_kind(kind, "kind")?;
        let list = &names().features[k.index()];
        let id = list.get(feature as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "feature {feature} is not a feature of {} (0..{})",
                k.id(),
                list.len()
            ))
        })?;
        write_out(out, id.as_ptr());
        Ok(())
    })
}

/// Where a road or river that leaves its tile on one side ends on the tile
/// (`road_end` of a `CarcFeatureGeometry`). Stable numbers.
#[repr(u8)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CarcRoadEnd {
    /// Not a road or river.
    None = 0,
    /// It crosses the tile (two sides).
    Through = 1,
    /// At a junction or crossing.
    Junction = 2,
    /// At the monastery `road_end_feature`.
    Monastery = 3,
    /// At the gate of the city `road_end_feature`.
    CityGate = 4,
    /// At a river spring.
    Spring = 5,
    /// In a lake.
    Lake = 6,
    /// At a volcano.
    Volcano = 7,
    /// A dead end (a small house).
    DeadEnd = 8,
    /// At a bazaar.
    Bazaar = 9,
    /// At the walls of the City of Carcassonne (the Count).
    Carcassonne = 10,
    /// At a tower (the Tower).
    Tower = 11,
}

/// `flags` of a `CarcFeatureGeometry`: the princess city of a princess tile (PD9).
pub const CARC_FEATURE_PRINCESS: u8 = 1;
/// `flags`: a road through a tunnel.
pub const CARC_FEATURE_TUNNEL: u8 = 2;
/// `flags`: a field enclosed inside the tile (it touches no side).
pub const CARC_FEATURE_INNER: u8 = 4;
/// `flags`: a road with an inn.
pub const CARC_FEATURE_INN: u8 = 8;
/// `flags`: the field with the pig herd (R5).
pub const CARC_FEATURE_PIG_HERD: u8 = 16;
/// `flags`: a road with a well.
pub const CARC_FEATURE_WELL: u8 = 32;
/// `flags`: a city with a cathedral (IC3).
pub const CARC_FEATURE_CATHEDRAL: u8 = 64;

/// One feature of a tile kind as a client draws it (12 bytes, blittable). Masks are in
/// the board frame of the tile turned by the `rot` asked for (0: the catalogue's
/// canonical frame).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CarcFeatureGeometry {
    /// Edge thirds the feature covers: bit `side*3 + third`, sides N, E, S, W, thirds
    /// numbered clockwise around the tile from its north-west corner (`N0` is bit 0, `N1`
    /// bit 1, ..., `W2` bit 11). 0 for monasteries, gardens and inner fields.
    pub segments: u16,
    /// A field: the local indices of the cities it borders on the tile (bit per index).
    pub adjacent_cities: u16,
    /// A `CarcFeatureKind`.
    pub kind: u8,
    /// Pennants (cities).
    pub pennants: u8,
    /// Corners the feature covers, bit per `CarcCorner` (NW, NE, SE, SW): both edge thirds
    /// at the corner belong to it (a barn's corner, AM6, is one covered by a field).
    pub corners: u8,
    /// Sides the feature leaves the tile through, bit per side (N, E, S, W): a road or
    /// river by the middle third, a city by the whole side, a field by any third.
    pub sides: u8,
    /// `CARC_FEATURE_*` flags.
    pub flags: u8,
    /// Roads and rivers: a `CarcRoadEnd`.
    pub road_end: u8,
    /// The monastery or city the road ends at (`road_end` `MONASTERY` or `CITY_GATE`), else
    /// `CARC_NO_FEATURE`.
    pub road_end_feature: u8,
    /// Always 0.
    pub reserved: u8,
}

fn geometry(f: &FeatureDef, rot: Rotation) -> CarcFeatureGeometry {
    let (road_end, road_end_feature) = match f.road_end {
        None => (CarcRoadEnd::None, CARC_NO_FEATURE),
        Some(RoadEnd::Through) => (CarcRoadEnd::Through, CARC_NO_FEATURE),
        Some(RoadEnd::Junction) => (CarcRoadEnd::Junction, CARC_NO_FEATURE),
        Some(RoadEnd::Monastery(i)) => (CarcRoadEnd::Monastery, i),
        Some(RoadEnd::CityGate(i)) => (CarcRoadEnd::CityGate, i),
        Some(RoadEnd::Spring) => (CarcRoadEnd::Spring, CARC_NO_FEATURE),
        Some(RoadEnd::Lake) => (CarcRoadEnd::Lake, CARC_NO_FEATURE),
        Some(RoadEnd::Volcano) => (CarcRoadEnd::Volcano, CARC_NO_FEATURE),
        Some(RoadEnd::DeadEnd) => (CarcRoadEnd::DeadEnd, CARC_NO_FEATURE),
        Some(RoadEnd::Bazaar) => (CarcRoadEnd::Bazaar, CARC_NO_FEATURE),
        Some(RoadEnd::Carcassonne) => (CarcRoadEnd::Carcassonne, CARC_NO_FEATURE),
        Some(RoadEnd::Tower) => (CarcRoadEnd::Tower, CARC_NO_FEATURE),
    };
    let flags = [
        (f.princess, CARC_FEATURE_PRINCESS),
        (f.tunnel, CARC_FEATURE_TUNNEL),
        (f.inner, CARC_FEATURE_INNER),
        (f.inn, CARC_FEATURE_INN),
        (f.pig_herd, CARC_FEATURE_PIG_HERD),
        (f.well, CARC_FEATURE_WELL),
        (f.cathedral, CARC_FEATURE_CATHEDRAL),
    ]
    .iter()
    .filter(|(set, _)| *set)
    .fold(0, |acc, (_, bit)| acc | bit);
    CarcFeatureGeometry {
        segments: rotate_segments(f.segments, rot),
        adjacent_cities: f.adjacent_cities,
        kind: CarcFeatureKind::from(f.kind) as u8,
        pennants: f.pennants,
        corners: rotate_quarters(f.corners(), rot),
        sides: rotate_quarters(f.side_mask(), rot),
        flags,
        road_end: road_end as u8,
        road_end_feature,
        reserved: 0,
    }
}

/// Writes the geometry of local feature `feature` of tile kind `kind`, on the tile turned
/// by `rot` clockwise quarter turns (0..=3; 0 is the catalogue's frame), to `*out`. A
/// kind, feature or rotation out of range is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_tile_feature_geometry(
    kind: u32,
    feature: u32,
    rot: u32,
    out: *mut CarcFeatureGeometry,
) -> CarcStatus {
    call("carc_tile_feature_geometry", || {
        check_out(out, "out")?;
        let k = tile_kind(kind, "kind")?;
        let features = &k.def().features;
        let f = features.get(feature as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "feature {feature} is not a feature of {} (0..{})",
                k.id(),
                features.len()
            ))
        })?;
        let rot = u8::try_from(rot)
            .ok()
            .and_then(Rotation::new)
            .ok_or_else(|| Failure::invalid(format!("rot {rot} is not a rotation (0..=3)")))?;
        write_out(out, geometry(f, rot));
        Ok(())
    })
}

/// Writes the symbols printed on tile kind `kind` (`CARC_SYMBOL_*` bits) to `*out`.
///
/// Ownership: `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_tile_symbols(kind: u32, out: *mut u32) -> CarcStatus {
    call("carc_tile_symbols", || {
        check_out(out, "out")?;
        let k = tile_kind(kind, "kind")?;
        write_out(out, k.def().symbols.bits());
        Ok(())
    })
}

#[cfg(test)]
#[path = "tests/unit/tiles.rs"]
mod tests;
