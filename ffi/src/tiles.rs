//! The tile catalogue: kind indices, catalogue ids and feature ids.

use crate::action::tile_kind;
use crate::guard::{call, check_out, put, read_str, write_out};
use crate::status::{CarcStatus, Failure};
use carcassonne_core::catalogue;
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
