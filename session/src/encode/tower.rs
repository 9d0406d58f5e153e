//! The Tower in the observation schema: towers with their height and whether a figure
//! closes them (TW1, TW2), tower pieces and prisoners per seat (TW1, TW4), the turn's
//! ransom (TW5), and the `EXCHANGE` and `RANSOM` ids. A tower piece and a follower onto a
//! tower are `SLOT` ids on the tower slot (channels `tower-piece` and `follower`); a
//! capture is a `CELL` id, then a `SLOT` id whose channel is the captured figure's kind.

use super::observe::Writer;
use super::schema::{global_offset, plane_index, Dim, Live, Row, Section};
use carcassonne::config::Figure;
use carcassonne::tiles::{Symbols, TileSet};

const IN_PLAY: Live = Live::Set(TileSet::Tower);

/// The Tower's rows.
pub const SECTION: Section = Section {
    key: "tower",
    title: "The Tower",
    planes: &[
        Row::symbol(
            "tower",
            Symbols::TOWER,
            "1 if the tile has a tower foundation (TW1)",
        ),
        Row::new("tower-height", &[], "tower pieces on the tile's tower (TW1)").live(IN_PLAY),
        Row::new(
            "tower-closed",
            &[],
            "1 if a follower stands on top of the tile's tower, closing it (TW2)",
        )
        .live(IN_PLAY),
    ],
    globals: &[
        Row::new("tower-pieces", &[Dim::Seat], "tower pieces left (TW1)").live(IN_PLAY),
        Row::new(
            "prisoners-held",
            &[Dim::Seat],
            "prisoners the seat holds, of every owner (TW4)",
        )
        .live(IN_PLAY),
        Row::new(
            "own-prisoners",
            &[Dim::Seat, Dim::Figure],
            "the observing player's figures of that kind that the seat holds prisoner (TW4)",
        )
        .live(IN_PLAY),
        Row::new(
            "ransom-paid",
            &[],
            "1 if the turn player has paid a ransom this turn (TW5)",
        )
        .live(IN_PLAY),
    ],
    ids: &[
        Row::new(
            "exchange",
            &[Dim::Figure],
            "the kind of his figures the capturer gets back in a prisoner exchange (TW4)",
        )
        .live(IN_PLAY),
        Row::new(
            "ransom",
            &[Dim::Seat, Dim::Figure],
            "pay the ransom to the player at this seat, relative to the payer, for a prisoner of this kind (TW5)",
        )
        .live(IN_PLAY),
    ],
    // A tower piece or a follower onto a tower of another tile, and captures.
    names_squares: IN_PLAY,
    write,
};

const TOWER_HEIGHT: usize = plane_index("tower-height");
const TOWER_CLOSED: usize = plane_index("tower-closed");
const TOWER_PIECES: usize = global_offset("tower-pieces");
const PRISONERS_HELD: usize = global_offset("prisoners-held");
const OWN_PRISONERS: usize = global_offset("own-prisoners");
const RANSOM_PAID: usize = global_offset("ransom-paid");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    if !game.has_set(TileSet::Tower) {
        return;
    }
    for tower in game.towers() {
        if let Some(c) = w.cell(tower.pos) {
            w.set(TOWER_HEIGHT, c, tower.height);
            w.set(TOWER_CLOSED, c, u8::from(tower.top.is_some()));
        }
    }
    let player = w.player;
    for seat in 0..game.num_players() {
        let r = w.rel(seat);
        w.global(TOWER_PIECES + r, f32::from(game.tower_pieces_left(seat)));
        w.global(PRISONERS_HELD + r, game.prisoners_held(seat) as f32);
        for f in Figure::ALL {
            let held = game.prisoners(seat, player, f);
            w.global(
                OWN_PRISONERS + r * Figure::ALL.len() + f.index(),
                f32::from(held),
            );
        }
    }
    w.flag(RANSOM_PAID, game.ransom_paid_this_turn());
}
