//! Augmentation: observations, ids and masks after quarter turns of the board.

use super::schema::{plane_after_turn, schema, PLANE_COUNT};
use super::{check_len, slot, Channel, EncodeError, EncoderSpec, FlatAction};
use carcassonne::geometry::{Corner, Rotation};

/// Window cell `(wx, wy)` after `q` clockwise quarter turns about the window centre.
#[inline]
pub(super) fn rotate_cell(w: usize, wx: usize, wy: usize, q: u8) -> (usize, usize) {
    match q & 3 {
        0 => (wx, wy),
        1 => (w - 1 - wy, wx),
        2 => (w - 1 - wx, w - 1 - wy),
        _ => (wy, w - 1 - wx),
    }
}

/// Writes into `dst` the planes of `src` seen after `quarter_turns` clockwise quarter turns
/// of the board about the window centre: cells move, and planes tied to a side or a
/// rotation move with it ([`plane_after_turn`]). See [`rotate_globals`] for the globals.
pub fn rotate_planes(
    spec: EncoderSpec,
    src: &[u8],
    dst: &mut [u8],
    quarter_turns: u8,
) -> Result<(), EncodeError> {
    check_len("planes", src.len(), spec.planes_len())?;
    check_len("rotated planes", dst.len(), spec.planes_len())?;
    let w = spec.w();
    let q = quarter_turns & 3;
    for p in 0..PLANE_COUNT {
        let mut to = p;
        for _ in 0..q {
            to = plane_after_turn(to);
        }
        let (s, d) = (p * w * w, to * w * w);
        for wy in 0..w {
            for wx in 0..w {
                let (rx, ry) = rotate_cell(w, wx, wy, q);
                dst[d + ry * w + rx] = src[s + wy * w + wx];
            }
        }
    }
    Ok(())
}

/// The id of the same move after `quarter_turns` clockwise quarter turns of the board
/// about the window centre; `None` if `id` is out of range.
pub fn rotate_action_id(spec: EncoderSpec, id: u32, quarter_turns: u8) -> Option<u32> {
    let q = quarter_turns & 3;
    let w = spec.w();
    let turned = match FlatAction::from_id(spec, id)? {
        FlatAction::Tile { rot, wx, wy } => {
            let (x, y) = rotate_cell(w, wx as usize, wy as usize, q);
            FlatAction::Tile {
                rot: Rotation::new((rot.quarter_turns() + q) & 3)?,
                wx: x as u16,
                wy: y as u16,
            }
        }
        FlatAction::Cell { wx, wy } => {
            let (x, y) = rotate_cell(w, wx as usize, wy as usize, q);
            FlatAction::Cell {
                wx: x as u16,
                wy: y as u16,
            }
        }
        FlatAction::Slot { slot: s, channel } => FlatAction::Slot {
            slot: slot::rotate(s, q),
            // A bridge's axis is in the board frame: an odd quarter turn swaps it.
            channel: match channel {
                Channel::BridgeNS if q & 1 == 1 => Channel::BridgeWE,
                Channel::BridgeWE if q & 1 == 1 => Channel::BridgeNS,
                c => c,
            },
        },
        FlatAction::Corner(c) => FlatAction::Corner(Corner::from_index(c.index() + q as usize)),
        FlatAction::Bridge { rot, variant } => FlatAction::Bridge {
            rot: Rotation::new((rot.quarter_turns() + q) & 3)?,
            variant: if variant < 2 {
                variant ^ (q & 1)
            } else {
                2 + (variant - 2 + q) % 4
            },
        },
        other @ (FlatAction::EnterQuarter { .. }
        | FlatAction::MoveCount(_)
        | FlatAction::BazaarSelect { .. }
        | FlatAction::Bid(_)
        | FlatAction::Choice(_)
        | FlatAction::Exchange(_)
        | FlatAction::Ransom { .. }
        | FlatAction::Flock(_)
        | FlatAction::Pass) => other,
    };
    Some(turned.id(spec))
}

/// Writes into `dst` the mask (or any per-action vector) `src` after `quarter_turns`
/// clockwise quarter turns of the board.
pub fn rotate_mask<T: Copy>(
    spec: EncoderSpec,
    src: &[T],
    dst: &mut [T],
    quarter_turns: u8,
) -> Result<(), EncodeError> {
    check_len("mask", src.len(), spec.num_actions())?;
    check_len("rotated mask", dst.len(), spec.num_actions())?;
    for (id, v) in src.iter().enumerate() {
        if let Some(to) = rotate_action_id(spec, id as u32, quarter_turns) {
            dst[to as usize] = *v;
        }
    }
    Ok(())
}

/// The global that global `g` becomes after one clockwise quarter turn of the board:
/// entries of a block indexed by rotation (`focus-rotation`) move with it; every other
/// global stays.
pub fn global_after_turn(g: usize) -> usize {
    for block in &schema().globals {
        if (block.start..block.start + block.len).contains(&g) {
            let mut rest = g - block.start;
            let mut stride = block.len;
            let mut to = 0;
            for (dim, &len) in block.row.dims.iter().zip(&block.shape) {
                stride /= len;
                let i = rest / stride;
                rest %= stride;
                to += dim.turn(i) * stride;
            }
            return block.start + to;
        }
    }
    g
}

/// Writes into `dst` the globals of `src` seen after `quarter_turns` clockwise quarter
/// turns of the board ([`global_after_turn`]). The window origin (`origin-x`,
/// `origin-y`) keeps describing the unturned window.
pub fn rotate_globals(
    spec: EncoderSpec,
    src: &[f32],
    dst: &mut [f32],
    quarter_turns: u8,
) -> Result<(), EncodeError> {
    check_len("globals", src.len(), spec.num_globals())?;
    check_len("rotated globals", dst.len(), spec.num_globals())?;
    dst.copy_from_slice(src);
    let turning = schema()
        .globals
        .iter()
        .filter(|b| b.row.dims.iter().any(|d| d.turns()));
    for block in turning {
        for (g, v) in src.iter().enumerate().skip(block.start).take(block.len) {
            let mut to = g;
            for _ in 0..quarter_turns & 3 {
                to = global_after_turn(to);
            }
            dst[to] = *v;
        }
    }
    Ok(())
}
