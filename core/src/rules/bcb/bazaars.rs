//! Bazaars (BZ1–BZ4).
//!
//! * BZ1: after the turn of a player who placed a bazaar tile (not in a bazaar round), if
//!   the pile holds at least one tile per player, that many are drawn (PD3 applies) and
//!   laid out: the offer.
//! * BZ2: each auction, the selector (first the player after the bazaar player, then the
//!   next player without a tile clockwise after the last selector, possibly himself)
//!   picks a tile of the offer and opens with a bid of 0 or more; every other player
//!   without a tile, clockwise from him, bids once higher or passes.
//! * BZ3: nobody outbid him: the selector takes the tile and pays his bid. Otherwise he
//!   buys it (pays the highest bid to that bidder) or sells it (the bidder takes it and
//!   pays him). The last tile goes to the last player without one, for nothing. Scores
//!   may go negative.
//! * BZ4: from the player after the bazaar player, each player places his tile instead
//!   of drawing on his next turn; those placements start no bazaar, nor does the tile he
//!   draws in that turn when his bazaar tile fits nowhere and is discarded (B5). The game
//!   ends when the pile is empty and every bazaar tile is placed.
//!
//! Bids run from 0 to [`super::MAX_BID`] points.

use super::{BazaarChoice, MAX_BID};
use crate::action::Action;
use crate::config::MAX_PLAYERS;
use crate::game::{Game, Phase, ScoreKind};
use crate::rules::{History, TurnEnd};
use crate::tiles::{Symbols, TileKind};

/// The state of bazaars.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bazaar {
    /// Every tile laid out at a bazaar so far, in draw order, and the turn (index in
    /// the turn log) at whose end each was laid out.
    pub(crate) log: History<Vec<TileKind>>,
    pub(crate) log_turns: History<Vec<u32>>,
    /// The turns whose tile was a bazaar tile (BZ4), in order.
    pub(crate) tile_turns: History<Vec<u32>>,
    /// The offer of the bazaar under way, one place per tile drawn (`None`: taken).
    pub(crate) offer: [Option<TileKind>; MAX_PLAYERS],
    /// Tiles drawn for the offer so far.
    pub(crate) drawn: u8,
    /// The tile each seat got and has not placed yet.
    pub(crate) held: [Option<TileKind>; MAX_PLAYERS],
    /// The seat whose bazaar tile started the bazaar.
    pub(crate) bazaar_player: u8,
    /// The seat that picks the next tile.
    pub(crate) selector: u8,
    /// The picked tile, while its bidding runs.
    pub(crate) picked: Option<TileKind>,
    /// The current bid.
    pub(crate) bid: u32,
    /// Who made it, if not the selector.
    pub(crate) high: Option<u8>,
    /// Bidders asked so far in this auction (seats after the selector).
    pub(crate) asked: u8,
    /// A bazaar tile placed this turn starts a bazaar after the turn (after both parts
    /// of a turn with a builder's extra turn, TB4).
    pub(crate) pending: bool,
    /// A bazaar is under way (from its start to its last tile given).
    pub(crate) under_way: bool,
    /// The turn began with the turn player's bazaar tile (BZ4): no tile placed in it
    /// starts a bazaar, also one drawn after that tile was discarded (B5).
    pub(crate) bazaar_turn: bool,
}

impl Bazaar {
    /// No bazaar yet; room for `tiles` tiles laid out.
    pub(crate) fn with_capacity(tiles: usize) -> Bazaar {
        Bazaar {
            log: History(Vec::with_capacity(tiles)),
            log_turns: History(Vec::with_capacity(tiles)),
            tile_turns: History(Vec::with_capacity(tiles)),
            ..Bazaar::default()
        }
    }
}

impl Game {
    /// Every tile laid out at a bazaar so far, in draw order.
    pub fn bazaar_log(&self) -> &[TileKind] {
        &self.expansions.bcb.bazaar.log
    }

    /// The tiles laid out at the bazaar held at the end of turn `turn` (an index into
    /// [`Game::turns`]), in draw order; empty when none was (BZ1).
    pub fn bazaar_offer_of_turn(&self, turn: usize) -> &[TileKind] {
        let b = &self.expansions.bcb.bazaar;
        let turn = turn as u32;
        let start = b.log_turns.partition_point(|t| *t < turn);
        let end = b.log_turns.partition_point(|t| *t <= turn);
        &b.log[start..end]
    }

    /// Whether the tile of turn `turn` (an index into [`Game::turns`]) is the turn
    /// player's bazaar tile rather than one drawn from the pile (BZ4).
    pub fn tile_from_bazaar(&self, turn: usize) -> bool {
        u32::try_from(turn).is_ok_and(|t| {
            self.expansions
                .bcb
                .bazaar
                .tile_turns
                .binary_search(&t)
                .is_ok()
        })
    }

    /// The index of the turn in progress (or last) in the turn log.
    fn turn_index(&self) -> u32 {
        self.turns.len().saturating_sub(1) as u32
    }

    /// The offer of the bazaar under way, one place per tile laid out (`None`: taken),
    /// empty when no bazaar is held.
    pub fn bazaar_offer(&self) -> &[Option<TileKind>] {
        let b = &self.expansions.bcb.bazaar;
        &b.offer[..b.drawn as usize]
    }

    /// The tile `player` got at a bazaar and places on his next turn (BZ4).
    pub fn bazaar_tile_of(&self, player: usize) -> Option<TileKind> {
        self.expansions.bcb.bazaar.held[player]
    }

    /// The auction under way: the picked tile, the bid, who bid it (the selector when
    /// nobody outbid him) and the selector.
    pub fn bazaar_auction(&self) -> Option<(TileKind, u32, u8, u8)> {
        let b = &self.expansions.bcb.bazaar;
        b.picked
            .map(|t| (t, b.bid, b.high.unwrap_or(b.selector), b.selector))
    }

    /// Whether some player still holds a bazaar tile (the game does not end before it is
    /// placed, BZ4).
    #[inline]
    pub(crate) fn bazaar_tiles_held(&self) -> bool {
        self.expansions.bcb.bazaar.held.iter().any(Option::is_some)
    }

    /// BZ4: the turn player's bazaar tile, taken into his hand instead of drawing.
    #[inline]
    pub(crate) fn take_bazaar_tile(&mut self) -> Option<TileKind> {
        let tile = self.expansions.bcb.bazaar.held[self.turn_player as usize].take()?;
        let turn = self.turn_index();
        let b = &mut self.expansions.bcb.bazaar;
        b.bazaar_turn = true;
        b.tile_turns.push(turn);
        Some(tile)
    }

    /// BZ1, BZ4: the tile at placement `index` starts a bazaar after this turn if it shows
    /// a bazaar and was not placed in a bazaar round: not in a turn that began with a
    /// bazaar tile (the tile drawn to replace a discarded one included), nor while players
    /// still hold bazaar tiles.
    #[inline]
    pub(crate) fn bazaar_tile_placed(&mut self, index: u8) {
        if !self
            .board
            .placement(index as usize)
            .kind
            .def()
            .has(Symbols::BAZAAR)
        {
            return;
        }
        let in_round = self.expansions.bcb.bazaar.bazaar_turn || self.bazaar_tiles_held();
        if !in_round {
            self.expansions.bcb.bazaar.pending = true;
        }
    }

    /// BZ1–BZ3 at the end of the turn: a bazaar starts if one is due, draws its offer,
    /// then asks its auction decisions one at a time. Not before a builder's extra turn
    /// (TB4): the bazaar comes after the whole turn, also for a bazaar tile placed in its
    /// first part (§8 step 14).
    #[inline]
    pub(crate) fn bazaar_at_end_of_turn(&mut self) -> TurnEnd {
        if !self.expansions.bcb.bazaar.under_way {
            if self.expansions.bcb.bazaar.pending && self.extra_turn_follows() {
                return TurnEnd::Done;
            }
            if !self.bazaar_starts() {
                return TurnEnd::Done;
            }
            self.expansions.bcb.bazaar.under_way = true;
        }
        if self.bazaar_drawing() {
            return TurnEnd::Draw;
        }
        if self.next_bazaar_decision() {
            return TurnEnd::Decide;
        }
        self.expansions.bcb.bazaar.under_way = false;
        TurnEnd::Done
    }

    /// BZ1: whether a bazaar is held now (a bazaar tile was placed this turn and the pile
    /// holds a tile per player); starts it.
    fn bazaar_starts(&mut self) -> bool {
        let b = &mut self.expansions.bcb.bazaar;
        if !std::mem::take(&mut b.pending) || self.deck.total() < self.players as u32 {
            return false;
        }
        b.bazaar_player = self.turn_player;
        b.selector = (self.turn_player + 1) % self.players;
        b.drawn = 0;
        b.offer = [None; MAX_PLAYERS];
        b.picked = None;
        true
    }

    /// Whether the offer still misses tiles (one per player).
    fn bazaar_drawing(&self) -> bool {
        self.expansions.bcb.bazaar.drawn < self.players
    }

    /// A tile drawn for the offer (BZ1), if one is being drawn; whether it was.
    #[inline]
    pub(crate) fn bazaar_drawn(&mut self, tile: TileKind) -> bool {
        if !self.expansions.bcb.bazaar.under_way || !self.bazaar_drawing() {
            return false;
        }
        let turn = self.turn_index();
        let b = &mut self.expansions.bcb.bazaar;
        b.offer[b.drawn as usize] = Some(tile);
        b.drawn += 1;
        b.log.push(tile);
        b.log_turns.push(turn);
        true
    }

    /// `player` gets `tile` from the offer.
    fn bazaar_assign(&mut self, player: u8, tile: TileKind) {
        let b = &mut self.expansions.bcb.bazaar;
        b.held[player as usize] = Some(tile);
        if let Some(place) = b.offer.iter_mut().find(|t| **t == Some(tile)) {
            *place = None;
        }
        b.picked = None;
        b.high = None;
        b.bid = 0;
        b.asked = 0;
        // BZ2: the next selector is the next player without a tile clockwise after this
        // one, possibly himself.
        let players = self.players;
        let selector = b.selector;
        if let Some(next) = (1..=players)
            .map(|o| (selector + o) % players)
            .find(|p| b.held[*p as usize].is_none())
        {
            b.selector = next;
        }
    }

    /// BZ2, BZ3: asks for the next auction decision; `false` when the bazaar is over
    /// (every player has a tile). Takes the decisions that are no choice itself.
    fn next_bazaar_decision(&mut self) -> bool {
        loop {
            let b = &self.expansions.bcb.bazaar;
            let players = self.players;
            let without = (0..players)
                .filter(|p| b.held[*p as usize].is_none())
                .count();
            let Some(last_tile) = b.offer.iter().flatten().next().copied() else {
                self.expansions.bcb.bazaar.drawn = 0;
                return false;
            };
            if without == 0 {
                self.expansions.bcb.bazaar.drawn = 0;
                return false;
            }
            if without == 1 {
                // BZ3: the last tile goes to the last player without one, for nothing.
                let p = (0..players)
                    .find(|p| b.held[*p as usize].is_none())
                    .expect("one player without a tile");
                self.expansions.bcb.bazaar.selector = p;
                self.bazaar_assign(p, last_tile);
                continue;
            }
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            let Some(picked) = b.picked else {
                // The selector picks a tile and opens.
                let offer = b.offer;
                for (k, tile) in offer.iter().enumerate() {
                    let Some(tile) = *tile else { continue };
                    if offer[..k].contains(&Some(tile)) {
                        continue;
                    }
                    for bid in 0..=MAX_BID {
                        legal.push(Action::BazaarSelect { tile, bid });
                    }
                }
                self.to_play = b.selector;
                self.phase = Phase::BazaarSelect;
                self.legal = legal;
                return true;
            };
            // The others without a tile bid once each, clockwise from the selector.
            let (selector, bid) = (b.selector, b.bid);
            let bidder = (b.asked + 1..players)
                .map(|o| (o, (selector + o) % players))
                .find(|(_, p)| b.held[*p as usize].is_none());
            if let Some((offset, seat)) = bidder {
                self.expansions.bcb.bazaar.asked = offset;
                for raise in bid + 1..=MAX_BID {
                    legal.push(Action::BazaarBid { bid: raise });
                }
                legal.push(Action::BazaarPass);
                self.to_play = seat;
                self.phase = Phase::BazaarBid;
                self.legal = legal;
                return true;
            }
            if self.expansions.bcb.bazaar.high.is_none() {
                // Nobody outbid the selector: he takes the tile for his bid.
                self.legal = legal;
                if bid > 0 {
                    self.add_score(selector, -(bid as i32), ScoreKind::BazaarBuy, None, None);
                }
                self.bazaar_assign(selector, picked);
                continue;
            }
            legal.push(Action::BazaarBuyOrSell {
                choice: BazaarChoice::Buy,
            });
            legal.push(Action::BazaarBuyOrSell {
                choice: BazaarChoice::Sell,
            });
            self.to_play = selector;
            self.phase = Phase::BazaarBuyOrSell;
            self.legal = legal;
            return true;
        }
    }

    /// BZ2: the selector picks `tile` and opens with `bid`.
    pub(crate) fn bazaar_select(&mut self, tile: TileKind, bid: u32) {
        let b = &mut self.expansions.bcb.bazaar;
        b.picked = Some(tile);
        b.bid = bid;
        b.high = None;
        b.asked = 0;
    }

    /// BZ2: `player` raises to `bid` (a pass changes nothing).
    pub(crate) fn bazaar_raise(&mut self, player: u8, bid: u32) {
        let b = &mut self.expansions.bcb.bazaar;
        b.bid = bid;
        b.high = Some(player);
    }

    /// BZ3: the selector buys the tile (pays the highest bidder) or sells it (the highest
    /// bidder takes it and pays him).
    pub(crate) fn bazaar_buy_or_sell(&mut self, choice: BazaarChoice) {
        let b = &self.expansions.bcb.bazaar;
        let (selector, bidder, bid) = (b.selector, b.high.expect("an outbid tile"), b.bid as i32);
        let tile = b.picked.expect("a picked tile");
        let (taker, payee, kind) = match choice {
            BazaarChoice::Buy => (selector, bidder, ScoreKind::BazaarBuy),
            BazaarChoice::Sell => (bidder, selector, ScoreKind::BazaarSell),
        };
        self.add_score(payee, bid, kind, None, None);
        self.add_score(taker, -bid, kind, None, None);
        self.bazaar_assign(taker, tile);
    }
}
