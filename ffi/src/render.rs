//! The board as text and as SVG (the engine's renderers, `carcassonne_session::render`).

use crate::guard::{check_buffer, with_game, write_text, CarcGame};
use crate::status::CarcStatus;
use carcassonne_session::render;
use std::ffi::c_char;

/// Writes the board as text (one block of characters per tile, figures marked, a
/// legend below; UTF-8, NUL-terminated) into `buf` (`len` bytes); `needed` receives the
/// size in bytes including the NUL.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the size)
/// and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is
/// written.
#[no_mangle]
pub extern "C" fn carc_game_render_text(
    game: *const CarcGame,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_render_text", game, |h| {
        check_buffer(buf, len, needed)?;
        write_text(&render::board_text(&h.game()), buf, len, needed, "the text")
    })
}

/// Writes the board as a self-contained SVG document (UTF-8, NUL-terminated) into `buf`
/// (`len` bytes); `needed` receives the size in bytes including the NUL.
///
/// Ownership: `game` is borrowed; `buf` (may be NULL with `len == 0` to ask for the size)
/// and `needed` belong to the caller. On `CARC_STATUS_BUFFER_TOO_SMALL` only `needed` is
/// written.
#[no_mangle]
pub extern "C" fn carc_game_render_svg(
    game: *const CarcGame,
    buf: *mut c_char,
    len: u32,
    needed: *mut u32,
) -> CarcStatus {
    with_game("carc_game_render_svg", game, |h| {
        check_buffer(buf, len, needed)?;
        write_text(&render::board_svg(&h.game()), buf, len, needed, "the SVG")
    })
}
