//! The Tower (TW1–TW7), active with the `tower` set.
//!
//! * TW1: every tile of the set has a tower foundation, its feature `t1` (kind
//!   [`FeatureKind::Tower`]), which joins no other feature. Each player has 10 / 9 / 7 / 6
//!   / 5 tower pieces with 2 / 3 / 4 / 5 / 6 players ([`tower_pieces`]); a tower's height
//!   is the number of pieces on it.
//! * TW2: instead of deploying on the placed tile, the player may put a tower piece on any
//!   foundation or open tower of the board (`place_tower_piece`), or a follower from his
//!   supply on top of any open tower of height at least 1 (`deploy` onto `t1`), which
//!   closes it. The follower belongs to no feature, never scores and stays until captured
//!   or eaten by the dragon; the tower is then open again. No follower onto a tower on
//!   the dragon's tile (PD13b, the `figure_barred_on` hook).
//! * TW3: right after a piece, the player may take prisoner one figure (follower, abbot,
//!   mayor, wagon; not a barn, nor a figure in a castle, CA4) standing on the tower's tile
//!   or on a tile of its row or column at most its height away, across empty squares and
//!   other towers (`capture`, or `capture_pass`). An own figure goes back to the supply.
//! * TW4: a prisoner stays with its capturer, out of its owner's supply. When a capture
//!   takes a figure of a player who holds prisoners of the capturer, both go back at once;
//!   if he holds several kinds, the capturer picks the kind he gets back
//!   (`exchange_prisoner`).
//! * TW5: once per turn, before placing his tile or before his figure action, the turn
//!   player may pay 3 points to a player who holds one of his figures and take it back
//!   (`pay_ransom`); only with at least 3 points. The chance before placing comes before
//!   the abbey decision too (§8 step 1), not in the end-of-game abbey round.
//! * TW6, TW7: the dragon eats figures on towers, the princess never removes them (a tower
//!   is no part of a city), the fairy protects nothing from a capture, a barn is never
//!   captured; figures on towers and prisoners score nothing at the end. These follow from
//!   the kernel's rules (a tower is a feature of its own kind).

use crate::action::{Action, Seat};
use crate::config::{Figure, GameConfig, MAX_PLAYERS};
use crate::features::NodeId;
use crate::game::{Game, Phase, ReturnCause, ScoreKind, TurnStep};
use crate::geometry::{Pos, Side};
use crate::rules::state::{LocalFeature, Seat as StateSeat, StateWriter};
use crate::rules::Expansion;
use crate::tiles::{catalogue, FeatureKind, Symbols, TileSet};

/// Tower pieces each player starts with (TW1): 10 / 9 / 7 / 6 / 5 with 2 / 3 / 4 / 5 / 6
/// players.
///
/// ```
/// use carcassonne::rules::tower::tower_pieces;
/// assert_eq!(tower_pieces(2), 10);
/// assert_eq!(tower_pieces(6), 5);
/// ```
pub const fn tower_pieces(players: u8) -> u8 {
    match players {
        0..=2 => 10,
        3 => 9,
        4 => 7,
        5 => 6,
        _ => 5,
    }
}

/// The ransom for a prisoner, in points (TW5).
pub const RANSOM: i32 = 3;

/// Figure kinds indexed by [`Figure::index`]: a count per kind.
type PerFigure = [u8; Figure::ALL.len()];

/// One tower foundation on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Site {
    /// Placement index of its tile.
    placement: u8,
    /// Local index of the foundation feature on that tile.
    local: u8,
    /// Pieces on it (TW1).
    height: u8,
}

/// The state of the Tower: the towers on the board, the pieces and prisoners each player
/// holds, and the turn's ransom and exchange.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Tower {
    /// Tower pieces in each seat's supply (TW1).
    pieces: [u8; MAX_PLAYERS],
    /// Every tower foundation on the board, in placement order.
    sites: Vec<Site>,
    /// `prisoners[holder][owner][figure]`: figures of `owner` that `holder` holds (TW4).
    prisoners: [[PerFigure; MAX_PLAYERS]; MAX_PLAYERS],
    /// Whether the turn player paid a ransom this turn (TW5: once per turn).
    ransom_paid: bool,
    /// A prisoner exchange waits for the capturer's pick: the seat whose figure was
    /// captured (TW4).
    exchange_with: Option<u8>,
}

crate::rules::state::state_tables! {
    expansion: "tower";
    /// Every tower foundation on the board, in placement order (TW1): its height and the
    /// figure on top, which closes it (TW2).
    towers: Many {
        /// The square of its tile.
        pos: Pos,
        /// Its foundation (`t1`) on that tile.
        feature: LocalFeature,
        /// Pieces on it.
        height: u8,
        /// The owner of the figure on top; absent while the tower is open.
        top_owner: Option<StateSeat>,
        /// The figure on top; absent while the tower is open.
        top_figure: Option<Figure>,
    },
    /// The tower pieces in each seat's supply (TW1).
    tower_pieces: PerSeat {
        /// The seat.
        seat: StateSeat,
        /// Pieces left.
        pieces: u8,
    },
    /// The prisoners (TW4): a row per holder, owner and kind of figure held, holders in
    /// seat order.
    prisoners: Many {
        /// The player who holds them.
        holder: StateSeat,
        /// The player whose figures they are.
        owner: StateSeat,
        /// Their kind.
        figure: Figure,
        /// How many of that kind.
        count: u8,
    },
    /// The turn's ransom (TW5: once per turn).
    ransom: One {
        /// Whether the turn player has paid a ransom this turn.
        paid_this_turn: bool,
    },
}

impl Expansion for Tower {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::Tower)
    }

    /// TW1: every seat's tower pieces; room for every foundation of the pile.
    fn new(config: &GameConfig, _: usize) -> Tower {
        let mut pieces = [0; MAX_PLAYERS];
        pieces[..config.players as usize].fill(tower_pieces(config.players));
        // Room for the sites only when the Tower is in play (counting its foundations
        // walks the whole catalogue).
        let foundations: usize = if Tower::in_play(config) {
            catalogue()
                .kinds()
                .filter(|k| k.def().has(Symbols::TOWER))
                .map(|k| config.edition.count(k) as usize)
                .sum()
        } else {
            0
        };
        Tower {
            pieces,
            sites: Vec::with_capacity(foundations),
            prisoners: [[[0; Figure::ALL.len()]; MAX_PLAYERS]; MAX_PLAYERS],
            ransom_paid: false,
            exchange_with: None,
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Tower>> {
        vec![
            ("TW1", |t| t.pieces[0] ^= 1),
            ("TW1", |t| {
                t.sites.push(Site {
                    placement: 0,
                    local: 0,
                    height: 1,
                })
            }),
            ("TW4", |t| t.prisoners[0][1][0] ^= 1),
            ("TW5", |t| t.ransom_paid ^= true),
            ("TW4", |t| {
                t.exchange_with = Some(t.exchange_with.map_or(0, |s| s + 1))
            }),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        for tower in game.towers() {
            let (owner, figure) = tower.top.unzip();
            rows.towers(
                tower.pos,
                LocalFeature(tower.feature),
                tower.height,
                owner.map(StateSeat),
                figure,
            );
        }
        let tower = &game.expansions.tower;
        for seat in 0..game.num_players() {
            rows.tower_pieces(StateSeat(seat as u8), tower.pieces[seat]);
        }
        for (holder, owners) in tower.prisoners.iter().enumerate() {
            for (owner, kinds) in owners.iter().enumerate() {
                for (&figure, &count) in Figure::ALL.iter().zip(kinds) {
                    if count > 0 {
                        rows.prisoners(
                            StateSeat(holder as u8),
                            StateSeat(owner as u8),
                            figure,
                            count,
                        );
                    }
                }
            }
        }
        rows.ransom(tower.ransom_paid);
    }

    /// TW1: a tile with a foundation adds a tower of height 0.
    #[inline]
    fn on_tile_put(game: &mut Game, index: u8) {
        game.add_tower_site(index);
    }

    #[inline]
    fn reset_turn(game: &mut Game) {
        // TW5: once for both parts of a turn with a builder's extra turn (TB4).
        if !game.extra_turn {
            game.expansions.tower.ransom_paid = false;
        }
        game.expansions.tower.exchange_with = None;
    }

    /// TW2: a follower on top of an open tower.
    #[inline]
    fn deploy_options(game: &Game, out: &mut Vec<Action>) {
        game.tower_deploys(out);
    }

    /// TW2: a tower piece.
    #[inline]
    fn instead_of_deploying(game: &Game, out: &mut Vec<Action>) {
        game.tower_piece_actions(out);
    }

    /// TW5: a ransom before placing the tile (before the abbey decision too, §8 step 1)
    /// or before the figure action.
    #[inline]
    fn complete_legal(game: &mut Game, phase: Phase) {
        let before_abbey = phase == Phase::Abbey && !game.in_end_round();
        if before_abbey || matches!(phase, Phase::PlaceTile | Phase::Deploy) {
            let mut legal = std::mem::take(&mut game.legal);
            game.ransom_actions(&mut legal);
            game.legal = legal;
        }
    }

    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::PlaceTowerPiece { .. }
            | Action::Capture { .. }
            | Action::CapturePass
            | Action::ExchangePrisoner { .. }
            | Action::PayRansom { .. } => Some(game.apply_tower(player, action)),
            _ => None,
        }
    }
}

/// Whether `figure` may stand on top of a tower (TW2): a follower or the big follower.
const fn tops_tower(figure: Figure) -> bool {
    matches!(figure, Figure::Follower | Figure::BigFollower)
}

/// Whether a tower may take `figure` prisoner (TW3): a follower, big follower, abbot,
/// mayor or wagon; never a barn.
const fn capturable(figure: Figure) -> bool {
    matches!(
        figure,
        Figure::Follower | Figure::BigFollower | Figure::Abbot | Figure::Mayor | Figure::Wagon
    )
}

/// One tower on the board, as clients see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TowerView {
    /// The square of its tile.
    pub pos: Pos,
    /// The local index of its foundation (`t1`) on that tile.
    pub feature: u8,
    /// Pieces on it (TW1).
    pub height: u8,
    /// The figure on top (owner, kind), which closes it (TW2).
    pub top: Option<(u8, Figure)>,
}

impl Game {
    /// Applies a decision of the Tower: a piece (TW2), a capture or its pass (TW3), the
    /// pick of an exchange (TW4), a ransom (TW5). Returns whether the pipeline moves on
    /// (`false` while the same player decides again: the capture after a piece, the
    /// exchange after a capture, the placement after a ransom).
    fn apply_tower(&mut self, player: u8, action: Action) -> bool {
        self.record(player, action);
        match action {
            Action::PlaceTowerPiece { pos } => {
                let site = self.raise_tower(player, pos);
                let mut legal = std::mem::take(&mut self.legal);
                legal.clear();
                self.capture_actions(site, &mut legal);
                let capture = !legal.is_empty();
                if capture {
                    legal.push(Action::CapturePass);
                }
                self.legal = legal;
                if capture {
                    self.phase = Phase::Capture;
                    self.to_play = player;
                    return false;
                }
                self.step = TurnStep::AfterDeployment;
            }
            Action::Capture {
                pos,
                feature,
                figure,
            } => {
                if self.capture(player, pos, feature, figure) {
                    self.phase = Phase::ExchangePrisoner;
                    self.to_play = player;
                    return false;
                }
                self.step = TurnStep::AfterDeployment;
            }
            Action::CapturePass => self.step = TurnStep::AfterDeployment,
            Action::ExchangePrisoner { figure } => {
                let with = self
                    .expansions
                    .tower
                    .exchange_with
                    .take()
                    .expect("an exchange");
                self.release_prisoner(with, player, figure);
                self.step = TurnStep::AfterDeployment;
            }
            Action::PayRansom {
                prisoner_of,
                figure,
            } => {
                self.pay_ransom(player, prisoner_of.0, figure);
                if matches!(self.phase, Phase::PlaceTile | Phase::Abbey) {
                    // The placements (or the abbey decision) stay as they were; no second
                    // ransom this turn.
                    self.legal
                        .retain(|a| !matches!(a, Action::PayRansom { .. }));
                    return false;
                }
                // The figure action, listed again with the figure back in the supply.
                self.step = TurnStep::Deploy;
            }
            _ => unreachable!("not a Tower decision"),
        }
        true
    }

    /// Tower pieces `seat` still has (TW1).
    pub fn tower_pieces_left(&self, seat: usize) -> u8 {
        self.expansions.tower.pieces[seat]
    }

    /// Every tower foundation on the board, in placement order, with its height and the
    /// figure on top (TW1, TW2).
    pub fn towers(&self) -> impl ExactSizeIterator<Item = TowerView> + '_ {
        self.expansions.tower.sites.iter().map(|s| TowerView {
            pos: self.board.placement(s.placement as usize).pos,
            feature: s.local,
            height: s.height,
            top: self
                .figure_at(s.placement, s.local)
                .map(|k| (self.figures[k].owner, self.figures[k].figure)),
        })
    }

    /// The figures of `owner` that `holder` holds prisoner, by kind (TW4).
    pub fn prisoners(&self, holder: usize, owner: usize, figure: Figure) -> u8 {
        self.expansions.tower.prisoners[holder][owner][figure.index()]
    }

    /// Prisoners `holder` holds, of every owner and kind (TW4).
    pub fn prisoners_held(&self, holder: usize) -> u32 {
        self.expansions.tower.prisoners[holder]
            .iter()
            .flatten()
            .map(|&n| n as u32)
            .sum()
    }

    /// Whether the turn player has paid a ransom this turn (TW5: once per turn).
    pub fn ransom_paid_this_turn(&self) -> bool {
        self.expansions.tower.ransom_paid
    }

    /// TW1: a tile put on the board with a tower foundation brings a tower of height 0.
    fn add_tower_site(&mut self, index: u8) {
        let def = self.board.placement(index as usize).def();
        if !def.has(Symbols::TOWER) {
            return;
        }
        if let Some(local) = def
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::Tower)
        {
            self.expansions.tower.sites.push(Site {
                placement: index,
                local: local as u8,
                height: 0,
            });
        }
    }

    /// Whether the tower of `site` has a figure on top (TW2).
    fn tower_closed(&self, site: &Site) -> bool {
        let node = self.board.placement(site.placement as usize).node_base + site.local as NodeId;
        self.features.node(self.features.root(node)).figures > 0
    }

    /// TW2: a follower from the supply on top of each open tower of height at least 1,
    /// on any tile where figures may be put (PD13b: not the dragon's).
    fn tower_deploys(&self, out: &mut Vec<Action>) {
        let player = self.turn_player as usize;
        let tops_from_supply =
            |figure: Figure| tops_tower(figure) && self.supply[player][figure.index()] > 0;
        if !Figure::ALL.into_iter().any(tops_from_supply) {
            return;
        }
        for site in &self.expansions.tower.sites {
            if site.height == 0
                || self.tower_closed(site)
                || self.figure_barred_on(site.placement as usize)
            {
                continue;
            }
            let pos = self.board.placement(site.placement as usize).pos;
            for figure in Figure::ALL {
                if tops_from_supply(figure) {
                    out.push(Action::Deploy {
                        figure,
                        pos,
                        feature: site.local,
                    });
                }
            }
        }
    }

    /// TW2: a tower piece onto each foundation or open tower, while the player has one.
    fn tower_piece_actions(&self, out: &mut Vec<Action>) {
        if self.expansions.tower.pieces[self.turn_player as usize] == 0 {
            return;
        }
        for site in &self.expansions.tower.sites {
            if !self.tower_closed(site) {
                let pos = self.board.placement(site.placement as usize).pos;
                out.push(Action::PlaceTowerPiece { pos });
            }
        }
    }

    /// TW2: `player` puts a piece on the tower at `pos`; returns its site.
    fn raise_tower(&mut self, player: u8, pos: Pos) -> Site {
        let placement = self.board.index_at(pos).expect("a tower on a tile") as u8;
        let tower = &mut self.expansions.tower;
        tower.pieces[player as usize] -= 1;
        let site = tower
            .sites
            .iter_mut()
            .find(|s| s.placement == placement)
            .expect("a tower foundation there");
        site.height += 1;
        *site
    }

    /// TW3: a `Capture` for each figure the tower of `site` reaches: on its tile or on a
    /// tile of its row or column at most its height away; followers (on features or
    /// towers), abbots, mayors and wagons, not in a castle (CA4). In board order (the
    /// squares' placement order, then the feature), each figure kind at a place once.
    fn capture_actions(&self, site: Site, out: &mut Vec<Action>) {
        let centre = self.board.placement(site.placement as usize).pos;
        let reach = site.height as i32;
        let start = out.len();
        for f in &self.figures {
            if !capturable(f.figure) || self.on_castle(f.node) {
                continue;
            }
            let pos = self.board.placement(f.placement as usize).pos;
            let (dx, dy) = (pos.x - centre.x, pos.y - centre.y);
            let in_reach = (dx == 0 && dy.abs() <= reach) || (dy == 0 && dx.abs() <= reach);
            let action = Action::Capture {
                pos,
                feature: f.local,
                figure: f.figure,
            };
            if in_reach && !out[start..].contains(&action) {
                out.push(action);
            }
        }
        let key = |a: &Action| match *a {
            Action::Capture {
                pos,
                feature,
                figure,
            } => (self.board.index_at(pos), feature, figure),
            _ => unreachable!("captures only"),
        };
        out[start..].sort_unstable_by_key(key);
    }

    /// TW3, TW4: `capturer` takes the `figure` at `(pos, feature)`. An own figure goes
    /// back to the supply; another player's becomes a prisoner, or is exchanged at once
    /// when its owner holds prisoners of the capturer. Returns whether the capturer must
    /// pick the kind he gets back (several kinds held).
    fn capture(&mut self, capturer: u8, pos: Pos, feature: u8, figure: Figure) -> bool {
        let placement = self.board.index_at(pos).expect("a figure on a tile") as u8;
        let k = self
            .figures
            .iter()
            .position(|f| f.placement == placement && f.local == feature && f.figure == figure)
            .expect("the captured figure");
        let owner = self.figures[k].owner;
        if owner == capturer {
            self.remove_figure(k, ReturnCause::Captured, true);
            return false;
        }
        let held = self.expansions.tower.prisoners[owner as usize][capturer as usize];
        let kinds = held.iter().filter(|&&n| n > 0).count();
        // TW4: with prisoners of the capturer held by the victim, the captured figure
        // goes straight back to its owner in the exchange.
        self.remove_figure(k, ReturnCause::Captured, kinds > 0);
        match kinds {
            0 => {
                self.expansions.tower.prisoners[capturer as usize][owner as usize]
                    [figure.index()] += 1;
                false
            }
            1 => {
                let back = Figure::ALL[held.iter().position(|&n| n > 0).expect("one kind")];
                self.release_prisoner(owner, capturer, back);
                false
            }
            _ => {
                self.expansions.tower.exchange_with = Some(owner);
                let mut legal = std::mem::take(&mut self.legal);
                legal.clear();
                for back in Figure::ALL {
                    if held[back.index()] > 0 {
                        legal.push(Action::ExchangePrisoner { figure: back });
                    }
                }
                self.legal = legal;
                true
            }
        }
    }

    /// A prisoner of `owner` that `holder` held goes back to `owner`'s supply (TW4, TW5).
    fn release_prisoner(&mut self, holder: u8, owner: u8, figure: Figure) {
        self.expansions.tower.prisoners[holder as usize][owner as usize][figure.index()] -= 1;
        self.supply[owner as usize][figure.index()] += 1;
    }

    /// TW5: a `PayRansom` for each kind of the turn player's figures that each other
    /// player holds, if he has at least 3 points and has not paid one this turn.
    fn ransom_actions(&self, out: &mut Vec<Action>) {
        let player = self.turn_player as usize;
        if self.expansions.tower.ransom_paid || self.scores[player] < RANSOM {
            return;
        }
        for holder in 0..self.players {
            if holder as usize == player {
                continue;
            }
            for figure in Figure::ALL {
                if self.expansions.tower.prisoners[holder as usize][player][figure.index()] > 0 {
                    out.push(Action::PayRansom {
                        prisoner_of: Seat(holder),
                        figure,
                    });
                }
            }
        }
    }

    /// TW5: `player` pays 3 points to `holder` and takes back one `figure` it held.
    fn pay_ransom(&mut self, player: u8, holder: u8, figure: Figure) {
        self.add_score(player, -RANSOM, ScoreKind::RansomPaid, None, None);
        self.add_score(holder, RANSOM, ScoreKind::RansomReceived, None, None);
        self.release_prisoner(holder, player, figure);
        self.expansions.tower.ransom_paid = true;
    }

    /// The squares a tower of `height` at `pos` reaches (TW3): its own and those of its
    /// row and column at most `height` away, in the order N, E, S, W, nearest first.
    pub fn tower_reach(pos: Pos, height: u8) -> impl Iterator<Item = Pos> {
        std::iter::once(pos).chain(Side::ALL.into_iter().flat_map(move |side| {
            (1..=height).scan(pos, move |at, _| {
                *at = at.step(side);
                Some(*at)
            })
        }))
    }
}
