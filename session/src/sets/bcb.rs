//! Bridges, Castles & Bazaars: bridges (BR1), castles (CA1) and a bazaar's auction (BZ2).

use super::SetModule;
use crate::render::anchor_segment;
use crate::render::pieces::{piece, Piece, PieceInfo, Presence};
use crate::render::summary::seat_name;
use crate::render::svg::symbols::swatch_square;
use crate::render::svg::tile::{segment_point, side_middle};
use crate::render::svg::{
    escape, num, pt, seat_colour, Layout, BRIDGE_EDGE_COLOUR, CASTLE_COLOUR, FIELD_COLOUR,
    ROAD_COLOUR, TILE,
};
use crate::render::text::wrapped;
use carcassonne::action::ActionKind;
use carcassonne::game::{Game, Phase};
use carcassonne::tiles::TileSet;
use std::fmt::Write as _;

pub(crate) struct BridgesCastlesBazaars;

impl SetModule for BridgesCastlesBazaars {
    fn set(&self) -> TileSet {
        TileSet::BridgesCastlesBazaars
    }

    fn action_words(&self) -> &'static [(ActionKind, &'static str)] {
        &[
            (ActionKind::PlaceBridge, "place a bridge"),
            (ActionKind::BuildCastle, "build a castle"),
            (ActionKind::CastlePass, "no castle"),
            (ActionKind::BazaarSelect, "take a bazaar tile to auction"),
            (ActionKind::BazaarBid, "raise the bid"),
            (ActionKind::BazaarPass, "do not raise"),
            (ActionKind::BazaarBuyOrSell, "buy or sell"),
        ]
    }

    fn phase_words(&self) -> &'static [(Phase, &'static str)] {
        &[
            (
                Phase::Castle,
                "build a castle on the city just completed, or pass",
            ),
            (
                Phase::BazaarSelect,
                "take a tile of the bazaar to auction and bid",
            ),
            (Phase::BazaarBid, "raise the bid, or pass"),
            (
                Phase::BazaarBuyOrSell,
                "buy the tile, or sell it to the highest bidder",
            ),
        ]
    }

    /// Bridges (BR1) and castles (CA1).
    fn legend(&self) -> &'static [PieceInfo] {
        const LEGEND: [PieceInfo; 2] = [
            piece(Piece::Bridge, "bridge", Some("H"), Presence::Always),
            piece(Piece::Castle, "castle", Some("C"), Presence::Always),
        ];
        &LEGEND
    }

    fn svg_swatch(&self, out: &mut String, piece: Piece, (x, y): (f64, f64)) {
        let (cx, cy) = (x + 8.0, y + 8.0);
        match piece {
            Piece::Bridge => {
                swatch_square(out, (x, y), FIELD_COLOUR, "#00000055");
                svg_bridge(out, (x, cy), (x + 16.0, cy), "a bridge");
            }
            _ => svg_castle(out, "swatch castle", (cx, cy), "#111111", "a castle"),
        }
    }

    /// The castles with their owners (CA1), the bridges (BR1) and the auction under way
    /// (BZ2).
    fn text_lines(&self, game: &Game, out: &mut String) {
        let board = game.board();
        let castles: Vec<String> = game
            .castles()
            .map(|(owner, (pos, local), scored)| {
                let name = board
                    .index_at(pos)
                    .map_or("?", |i| game.feature_name(i, local));
                let state = if scored { ", scored" } else { "" };
                format!("seat {owner} at {pos} on {name}{state}")
            })
            .collect();
        out.push_str(&wrapped("castles:", &castles));
        let bridges: Vec<String> = (0..board.len())
            .filter_map(|i| {
                game.bridge_at(i)
                    .map(|axis| format!("{} {}", board.placement(i).pos, axis.name()))
            })
            .collect();
        out.push_str(&wrapped("bridges:", &bridges));
        if let Some((tile, bid, bidder, selector)) = game.bazaar_auction() {
            let _ = writeln!(
                out,
                "bazaar: seat {selector} offers {}; the bid stands at {bid} by seat {bidder}",
                tile.id()
            );
        }
    }

    /// The bazaar's offer (BZ1) and an auction under way (BZ2).
    fn notes(&self, game: &Game, out: &mut Vec<String>) {
        let offer: Vec<&str> = game
            .bazaar_offer()
            .iter()
            .flatten()
            .map(|t| t.id())
            .collect();
        if !offer.is_empty() {
            out.push(format!("the bazaar offers {}", offer.join(", ")));
        }
        if let Some((tile, bid, bidder, selector)) = game.bazaar_auction() {
            out.push(format!(
                "auction of {} opened by {}: {} bids {bid}",
                tile.id(),
                seat_name(selector as usize),
                seat_name(bidder as usize)
            ));
        }
    }

    /// The bridges and castles a seat still holds (BR1, CA1).
    fn in_hand(&self, game: &Game, seat: usize, parts: &mut Vec<String>) {
        parts.push(format!("{} bridges", game.bridges_left(seat)));
        parts.push(format!("{} castles", game.castles_left(seat)));
    }

    /// Bridges (BR1) across their tiles, then castles (CA1) on their cities, outlined in
    /// their owner's colour.
    fn svg_board(&self, out: &mut String, game: &Game, layout: &Layout) {
        let board = game.board();
        for i in 0..board.len() {
            let Some(axis) = game.bridge_at(i) else {
                continue;
            };
            let pos = board.placement(i).pos;
            let (x, y) = layout.origin(pos);
            let [a, b] = axis.sides();
            let (p, q) = (side_middle(a.index()), side_middle(b.index()));
            svg_bridge(
                out,
                (x + p.0, y + p.1),
                (x + q.0, y + q.1),
                &format!("bridge {} at {pos}", axis.name()),
            );
        }
        for (owner, (pos, local), scored) in game.castles() {
            let Some(i) = board.index_at(pos) else {
                continue;
            };
            let p = board.placement(i);
            let (x, y) = layout.origin(pos);
            let (cx, cy) =
                anchor_segment(p.oriented(), local).map_or((TILE / 2.0, TILE / 2.0), segment_point);
            let at = (x + (cx + TILE / 2.0) / 2.0, y + (cy + TILE / 2.0) / 2.0);
            let title = format!(
                "castle of {}{}",
                seat_name(owner as usize),
                if scored { " (scored)" } else { "" }
            );
            svg_castle(out, "castle", at, seat_colour(owner as usize), &title);
        }
    }
}

/// A castle (CA1) centred at `at`: a grey keep with two towers, outlined in `stroke`.
fn svg_castle(out: &mut String, class: &str, at: (f64, f64), stroke: &str, title: &str) {
    let (cx, cy) = at;
    let s = TILE * 0.1;
    let _ = writeln!(
        out,
        r#"<g class="{class}"><title>{}</title><path d="M {} L {} L {} L {} L {} L {} L {} L {} L {} Z" fill="{CASTLE_COLOUR}" stroke="{stroke}" stroke-width="2"/></g>"#,
        escape(title),
        pt((cx - s, cy + s)),
        pt((cx - s, cy - s)),
        pt((cx - s / 2.0, cy - s)),
        pt((cx - s / 2.0, cy - s / 2.0)),
        pt((cx + s / 2.0, cy - s / 2.0)),
        pt((cx + s / 2.0, cy - s)),
        pt((cx + s, cy - s)),
        pt((cx + s, cy + s)),
        pt((cx - s, cy + s)),
    );
}

/// A bridge (BR1) from `from` to `to`: a road on a dark deck.
fn svg_bridge(out: &mut String, from: (f64, f64), to: (f64, f64), title: &str) {
    let d = format!("M {} L {}", pt(from), pt(to));
    let _ = writeln!(
        out,
        r#"<g class="bridge"><title>{}</title><path d="{d}" stroke="{BRIDGE_EDGE_COLOUR}" stroke-width="{}"/><path d="{d}" stroke="{ROAD_COLOUR}" stroke-width="{}" stroke-dasharray="3 2"/></g>"#,
        escape(title),
        num(TILE * 0.2),
        num(TILE * 0.12)
    );
}
