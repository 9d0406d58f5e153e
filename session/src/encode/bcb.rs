//! Bridges, Castles & Bazaars in the observation schema: bridges on the board and in
//! each supply (BR1–BR3), castles (CA1), the bazaar's offer, auction and bought tiles
//! (BZ1–BZ4), and the `BRIDGE`, `BAZAAR`, `BID` and `CHOICE` ids.

use super::observe::Writer;
use super::schema::{
    catalogue_block, catalogue_offset, global_offset, plane_index, Dim, Live, Row, Section,
};
use carcassonne::features::NodeId;
use carcassonne::game::Phase;
use carcassonne::tiles::{Symbols, TileSet};

const IN_PLAY: Live = Live::Set(TileSet::BridgesCastlesBazaars);

/// Bridges, Castles & Bazaars' rows.
pub const SECTION: Section = Section {
    key: "bridges-castles-and-bazaars",
    title: "Bridges, Castles & Bazaars",
    planes: &[
        Row::new(
            "bridge",
            &[Dim::Axes("NS", "WE")],
            "1 if the tile carries a bridge from north to south (NS) or from west to east (WE) (BR3)",
        )
        .live(IN_PLAY),
        Row::new(
            "castle-own",
            &[],
            "1 on the two tiles of a castle of the observing player that has not scored yet (CA1)",
        )
        .live(IN_PLAY),
        Row::new(
            "castle-opponent",
            &[],
            "1 on the two tiles of an opponent's castle that has not scored yet",
        )
        .live(IN_PLAY),
        Row::symbol("bazaar", Symbols::BAZAAR, "1 if the tile shows a bazaar (BZ1)"),
    ],
    globals: &[
        Row::new("bridges-left", &[Dim::Seat], "bridges left (BR1)").live(IN_PLAY),
        Row::new("castles-left", &[Dim::Seat], "castles left (CA1)").live(IN_PLAY),
        Row::new(
            "bazaar-holds",
            &[Dim::Seat],
            "1 if the seat holds a bazaar tile to place (BZ4)",
        )
        .live(IN_PLAY),
        Row::new(
            "bazaar-selector",
            &[Dim::Seat],
            "one-hot of the player who picks at the bazaar (BZ2); 0 outside a bazaar",
        )
        .live(IN_PLAY),
        Row::new(
            "bazaar-bidder",
            &[Dim::Seat],
            "one-hot of the highest bidder on the picked tile (the selector while nobody outbid him)",
        )
        .live(IN_PLAY),
        Row::new("bazaar-bid", &[], "the current bid on the picked tile, in points (raw)")
            .live(IN_PLAY),
        Row::new(
            "bazaar-offer",
            &[Dim::TileKind],
            "tiles of that kind in the bazaar's offer (BZ1)",
        )
        .live(IN_PLAY),
        Row::new(
            "bazaar-picked",
            &[Dim::TileKind],
            "one-hot of the bazaar tile being auctioned (BZ2)",
        )
        .live(IN_PLAY),
        Row::new(
            "bazaar-own",
            &[Dim::TileKind],
            "one-hot of the bazaar tile the observing player holds (BZ4)",
        )
        .live(IN_PLAY),
    ],
    ids: &[
        Row::new(
            "bridge",
            &[Dim::Rotation, Dim::BridgeVariant],
            "after a CELL id, the placement there turned rot with its bridge (BR2): on the tile itself (NS, WE), or on the neighbour at side N, E, S, W",
        )
        .live(IN_PLAY),
        Row::new(
            "bazaar",
            &[Dim::OfferPlace, Dim::Bid],
            "pick the tile at this place of the bazaar's offer (draw order) and open with this bid (BZ2)",
        )
        .live(IN_PLAY),
        Row::new("bid", &[Dim::Bid], "raise to this bid (BZ2)").live(IN_PLAY),
        Row::new("choice", &[Dim::Choice], "buy or sell the outbid tile (BZ3)").live(IN_PLAY),
    ],
    // A placement that fits only with a bridge, and a bridge on a neighbour.
    names_squares: IN_PLAY,
    write,
};

const BRIDGE: usize = plane_index("bridge");
const CASTLE_OWN: usize = plane_index("castle-own");
const CASTLE_OPPONENT: usize = plane_index("castle-opponent");
const BRIDGES_LEFT: usize = global_offset("bridges-left");
const CASTLES_LEFT: usize = global_offset("castles-left");
const BAZAAR_HOLDS: usize = global_offset("bazaar-holds");
const BAZAAR_SELECTOR: usize = global_offset("bazaar-selector");
const BAZAAR_BIDDER: usize = global_offset("bazaar-bidder");
const BAZAAR_BID: usize = global_offset("bazaar-bid");
const BAZAAR_OFFER: usize = catalogue_block("bazaar-offer");
const BAZAAR_PICKED: usize = catalogue_block("bazaar-picked");
const BAZAAR_OWN: usize = catalogue_block("bazaar-own");

fn write(w: &mut Writer<'_>) {
    let game = w.game;
    if !game.has_set(TileSet::BridgesCastlesBazaars) {
        return;
    }
    let board = game.board();
    for (i, placement) in board.placements().iter().enumerate() {
        if let Some(axis) = game.bridge_at(i) {
            w.mark(BRIDGE + axis as usize, placement.pos);
        }
    }
    let features = game.features();
    for (owner, (pos, local), scored) in game.castles() {
        if scored {
            continue;
        }
        let p = if owner as usize == w.player {
            CASTLE_OWN
        } else {
            CASTLE_OPPONENT
        };
        let index = board.index_at(pos).expect("a castle on a tile");
        let root = features.root(board.placement(index).node_base + local as NodeId);
        for part in features.parts(root) {
            w.mark(
                p,
                board.placement(features.node(part).placement as usize).pos,
            );
        }
    }
    for seat in 0..game.num_players() {
        let r = w.rel(seat);
        w.global(BRIDGES_LEFT + r, game.bridges_left(seat) as f32);
        w.global(CASTLES_LEFT + r, game.castles_left(seat) as f32);
        if let Some(t) = game.bazaar_tile_of(seat) {
            w.global(BAZAAR_HOLDS + r, 1.0);
            if seat == w.player {
                w.global(catalogue_offset(BAZAAR_OWN) + t.index(), 1.0);
            }
        }
    }
    let offer = catalogue_offset(BAZAAR_OFFER);
    for t in game.bazaar_offer().iter().flatten() {
        w.add_global(offer + t.index(), 1.0);
    }
    if let Some((tile, bid, bidder, selector)) = game.bazaar_auction() {
        w.global(catalogue_offset(BAZAAR_PICKED) + tile.index(), 1.0);
        w.global(BAZAAR_BID, bid as f32);
        w.global(BAZAAR_BIDDER + w.rel(bidder as usize), 1.0);
        w.global(BAZAAR_SELECTOR + w.rel(selector as usize), 1.0);
    } else if matches!(game.phase(), Phase::BazaarSelect) {
        w.global(BAZAAR_SELECTOR + w.rel(game.to_play()), 1.0);
    }
}
