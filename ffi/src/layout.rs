//! The observation layout at run time: the layout version, and for a game (its window
//! and observation preset) the name of every plane and the name, position, shape and
//! entry labels of every global block and every block of flat ids. The tables are those
//! of the project's `docs/observations.md`, generated from the same schema.
//!
//! A block with several indices is flattened row-major (the last index varies fastest):
//! entry `(i, j)` of a block of shape `[m, n]` is at `start + n·i + j`. Under a preset a
//! block keeps, for each index, some of its entries (in the full order); its shape and
//! labels are those it keeps.

use crate::guard::{check_out, with_game, write_out, CarcGame};
use crate::status::Failure;
use crate::CarcStatus;
use carcassonne_session::encode::{Layout, LayoutBlock, LAYOUT_VERSION};
use std::ffi::{c_char, CStr, CString};
use std::sync::Mutex;

/// The layout version this header was generated with (16 hexadecimal digits in the
/// documentation): a hash of the observation schema. Compare it with
/// `carc_layout_version()` to detect a library whose observations differ.
pub const CARC_LAYOUT_VERSION: u64 = 0x6619_7790_8506_5418;

/// Which blocks of a layout (argument of `carc_game_layout_block` and its companions).
#[repr(u32)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CarcLayoutPart {
    /// The global blocks (`float` globals of `carc_game_observe`).
    Globals = 0,
    /// The blocks of flat action ids.
    Ids = 1,
}

/// One global block or block of flat ids of a game's layout (32 bytes, blittable).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CarcLayoutBlock {
    /// Its name (`supply`, `tile-in-hand`, `slot`, `pass`, ...): NUL-terminated, owned by
    /// the library, valid for the life of the process.
    pub name: *const c_char,
    /// Its first global, or its first flat id.
    pub start: u32,
    /// Its number of entries (the product of `shape`).
    pub len: u32,
    /// Its number of indices, 0 to 3 (0: one entry).
    pub rank: u32,
    /// Entries per index, for the first `rank` indices (1 past them), flattened
    /// row-major: entry `(i, j)` of a 2-index block is at `start + shape[1]·i + j`.
    pub shape: [u32; 3],
}

/// A NUL-terminated copy of `text` that lives as long as the process. The names and
/// labels of layouts are a finite set (the schema's, a few hundred), each copied once and
/// kept in a list that stays reachable (no leak a checker reports).
fn interned(text: &str) -> *const c_char {
    static NAMES: Mutex<Vec<&'static CStr>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = names.iter().find(|c| c.to_bytes() == text.as_bytes()) {
        return c.as_ptr();
    }
    let c: &'static CStr = Box::leak(CString::new(text).unwrap_or_default().into_boxed_c_str());
    names.push(c);
    c.as_ptr()
}

/// The blocks of `part` of `layout`.
fn blocks(layout: &Layout, part: u32) -> Result<&[LayoutBlock], Failure> {
    match part {
        p if p == CarcLayoutPart::Globals as u32 => Ok(layout.global_blocks()),
        p if p == CarcLayoutPart::Ids as u32 => Ok(layout.id_blocks()),
        p => Err(Failure::invalid(format!(
            "part {p} is not a CarcLayoutPart (0 globals, 1 ids)"
        ))),
    }
}

/// Block `index` of `part` of `layout`.
fn block(layout: &Layout, part: u32, index: u32) -> Result<&LayoutBlock, Failure> {
    let list = blocks(layout, part)?;
    list.get(index as usize).ok_or_else(|| {
        Failure::invalid(format!(
            "block {index}: the layout has blocks 0..{}",
            list.len()
        ))
    })
}

/// The layout version of the library: a hash of the observation schema (every plane,
/// global block and block of ids, in order, with when each is in play and what each
/// preset keeps), equal to the `CARC_LAYOUT_VERSION` macro of the header it was built
/// with. Observations of two versions are not interchangeable.
///
/// Ownership: returns a plain value; nothing to release.
#[no_mangle]
pub extern "C" fn carc_layout_version() -> u64 {
    LAYOUT_VERSION
}

/// Writes a pointer to the name of plane `index` of the game's observations (`city.N`,
/// `figures.rel1.wagon`, `figures.opponents.follower` under `compact`) to `*out`. The
/// plane occupies bytes `index·W·W` to `(index + 1)·W·W` of the planes buffer, row
/// `wy` at `wy·W`. An index outside `0..C` is `CARC_STATUS_INVALID_ARGUMENT`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller; the string belongs to the
/// library, is NUL-terminated and lives as long as the process.
#[no_mangle]
pub extern "C" fn carc_game_plane_name(
    game: *const CarcGame,
    index: u32,
    out: *mut *const c_char,
) -> CarcStatus {
    with_game("carc_game_plane_name", game, |h| {
        check_out(out, "out")?;
        let layout = h.session().current_layout();
        let plane = layout.planes().get(index as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "plane {index}: the observation has planes 0..{}",
                layout.num_planes()
            ))
        })?;
        write_out(out, interned(&plane.name));
        Ok(())
    })
}

/// Writes the number of blocks of `part` (a `CarcLayoutPart`) of the game's layout to
/// `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller.
#[no_mangle]
pub extern "C" fn carc_game_layout_block_count(
    game: *const CarcGame,
    part: u32,
    out: *mut u32,
) -> CarcStatus {
    with_game("carc_game_layout_block_count", game, |h| {
        check_out(out, "out")?;
        let layout = h.session().current_layout();
        write_out(out, blocks(&layout, part)?.len() as u32);
        Ok(())
    })
}

/// Writes block `index` of `part` (a `CarcLayoutPart`) of the game's layout to `*out`:
/// its name, first global or id, length and shape. Blocks come in layout order, each
/// contiguous.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller; `out->name` belongs to the
/// library and lives as long as the process.
#[no_mangle]
pub extern "C" fn carc_game_layout_block(
    game: *const CarcGame,
    part: u32,
    index: u32,
    out: *mut CarcLayoutBlock,
) -> CarcStatus {
    with_game("carc_game_layout_block", game, |h| {
        check_out(out, "out")?;
        let layout = h.session().current_layout();
        let b = block(&layout, part, index)?;
        let dims = b.shape();
        let mut shape = [1u32; 3];
        for (s, d) in shape.iter_mut().zip(&dims) {
            *s = *d as u32;
        }
        write_out(
            out,
            CarcLayoutBlock {
                name: interned(b.name),
                start: b.start as u32,
                len: b.sources.len() as u32,
                rank: dims.len() as u32,
                shape,
            },
        );
        Ok(())
    })
}

/// Writes a pointer to what index `dim` of block `index` of `part` stands for
/// (`relative seat`, `figure`, `tile kind`, `window row`, `slot`, ...) to `*out`.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller; the string belongs to the
/// library and lives as long as the process.
#[no_mangle]
pub extern "C" fn carc_game_layout_index_name(
    game: *const CarcGame,
    part: u32,
    index: u32,
    dim: u32,
    out: *mut *const c_char,
) -> CarcStatus {
    with_game("carc_game_layout_index_name", game, |h| {
        check_out(out, "out")?;
        let layout = h.session().current_layout();
        let b = block(&layout, part, index)?;
        let d = b.dims.get(dim as usize).ok_or_else(|| bad_dim(b, dim))?;
        write_out(out, interned(d.name()));
        Ok(())
    })
}

/// Writes a pointer to the label of entry `entry` of index `dim` of block `index` of
/// `part` to `*out`: `rel1` (a relative seat), `wagon` (a figure), `BASE-D` (a tile
/// kind), `N` (a side), `cloister` (a slot), `bridge-ns` (a channel), `12` (a window row),
/// ... Under a preset the entries are those the block keeps.
///
/// Ownership: `game` is borrowed; `out` belongs to the caller; the string belongs to the
/// library and lives as long as the process.
#[no_mangle]
pub extern "C" fn carc_game_layout_label(
    game: *const CarcGame,
    part: u32,
    index: u32,
    dim: u32,
    entry: u32,
    out: *mut *const c_char,
) -> CarcStatus {
    with_game("carc_game_layout_label", game, |h| {
        check_out(out, "out")?;
        let layout = h.session().current_layout();
        let b = block(&layout, part, index)?;
        let kept = b.kept.get(dim as usize).ok_or_else(|| bad_dim(b, dim))?;
        let full = kept.get(entry as usize).ok_or_else(|| {
            Failure::invalid(format!(
                "entry {entry}: index {dim} of {} has entries 0..{}",
                b.name,
                kept.len()
            ))
        })?;
        write_out(out, interned(&b.dims[dim as usize].label(*full)));
        Ok(())
    })
}

fn bad_dim(b: &LayoutBlock, dim: u32) -> Failure {
    Failure::invalid(format!(
        "index {dim}: {} has indices 0..{}",
        b.name,
        b.dims.len()
    ))
}

#[cfg(test)]
#[path = "tests/unit/layout.rs"]
mod tests;
