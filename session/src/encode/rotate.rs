//! Augmentation: observations, ids and masks after quarter turns of the board.

use super::{check_len, plane, slot, Channel, EncodeError, EncoderSpec, FlatAction};
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

/// The plane that plane `p` becomes after one clockwise quarter turn of the board.
pub const fn plane_after_turn(p: usize) -> usize {
    use plane::*;
    let cyclic4 = [
        CITY,
        ROAD,
        RIVER,
        LINK_NEXT,
        LEGAL_PLACEMENT,
        SIDE_OWN,
        SIDE_BEST_OPPONENT,
        SIDE_OPEN,
        SIDE_VALUE,
    ];
    let mut i = 0;
    while i < cyclic4.len() {
        let base = cyclic4[i];
        if p >= base && p < base + 4 {
            return base + (p - base + 1) % 4;
        }
        i += 1;
    }
    if p >= LINK_OPPOSITE && p < LINK_OPPOSITE + 2 {
        return LINK_OPPOSITE + (p - LINK_OPPOSITE + 1) % 2;
    }
    if p >= BRIDGE && p < BRIDGE + 2 {
        return BRIDGE + (p - BRIDGE + 1) % 2;
    }
    p
}

/// Writes into `dst` the planes of `src` seen after `quarter_turns` clockwise quarter turns
/// of the board about the window centre: cells move, and planes tied to a side or a
/// rotation move with it ([`plane_after_turn`]). Globals do not change under rotation
/// except the window origin, which augmentation may ignore.
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
    for p in 0..plane::COUNT {
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
