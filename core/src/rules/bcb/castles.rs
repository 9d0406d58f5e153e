//! Castles (CA1–CA4).
//!
//! * CA1: when a city of exactly two tiles, each a city cap, is completed holding exactly
//!   one figure, that figure's owner may turn it into a castle (`build_castle`) instead of
//!   scoring it. Decided before the moves out of the City of Carcassonne and scoring, in
//!   turn order from the active player; a player with several candidates decides them
//!   one by one, and his pass ends his decisions this turn.
//! * CA2: a castle's neighbourhood is its two tiles and the two on each long side.
//! * CA3: in a later turn, the first feature completed with a tile in the neighbourhood
//!   (a cloister by its own tile), or another castle scoring with a tile there, gives the
//!   castle's owner that feature's value (the highest of several); his figure returns.
//!   Castles scoring so trigger castles around them in the same turn, in waves: the
//!   turn's features first, then the castles that scored in the wave before.
//! * CA4: a castle is no city; it separates fields; its figure is safe from the dragon;
//!   every field scoring counts it as a completed city worth one point more.

use crate::action::Action;
use crate::features::NodeId;
use crate::game::{Game, Phase, ReturnCause, ScoreKind};
use crate::geometry::Pos;
use crate::tiles::FeatureKind;

/// A castle on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Castle {
    /// Its owner (the owner of the figure on it).
    pub(crate) owner: u8,
    /// The root of the closed city it stands on (a completed city never joins anything
    /// again, so the root stays).
    pub(crate) root: NodeId,
    /// CA2: the neighbourhood, smallest and largest corner squares.
    pub(crate) area: (Pos, Pos),
    /// The turn it was built in (index into the turn log): it scores only in later turns.
    pub(crate) built: u32,
    /// The turn it scored in and its points (CA3); it scores no more.
    pub(crate) scored: Option<(u32, i32)>,
}

impl Castle {
    fn covers(&self, pos: Pos) -> bool {
        let (min, max) = self.area;
        (min.x..=max.x).contains(&pos.x) && (min.y..=max.y).contains(&pos.y)
    }
}

impl Game {
    /// CA4: the castles that the field of `root` touches (a part of the field beside a
    /// part of the castle's city).
    pub(crate) fn castles_beside_field(&self, root: NodeId) -> i32 {
        let castles = &self.expansions.bcb.castles;
        if castles.is_empty() {
            return 0;
        }
        let touches = |castle: NodeId| {
            self.features.parts(root).any(|id| {
                let node = self.features.node(id);
                let p = self.board.placement(node.placement as usize);
                let mut bits = p.def().features[node.local as usize].adjacent_cities;
                while bits != 0 {
                    let j = bits.trailing_zeros() as NodeId;
                    bits &= bits - 1;
                    if self.features.root(p.node_base + j) == castle {
                        return true;
                    }
                }
                false
            })
        };
        castles.iter().filter(|c| touches(c.root)).count() as i32
    }

    /// Whether the city of root `root` was turned into a castle (CA1).
    pub(crate) fn castle_on(&self, root: NodeId) -> bool {
        self.expansions.bcb.castles.iter().any(|c| c.root == root)
    }

    /// Castles `player` still has (CA1).
    pub fn castles_left(&self, player: usize) -> u8 {
        self.expansions.bcb.castles_left[player]
    }

    /// Every castle: its owner, a part of its city that names it, and whether it has
    /// scored (CA3).
    pub fn castles(&self) -> impl Iterator<Item = (u8, (Pos, u8), bool)> + '_ {
        self.expansions
            .bcb
            .castles
            .iter()
            .map(|c| (c.owner, self.node_name(c.root), c.scored.is_some()))
    }

    /// CA1: whether the completed city of `root` may become a castle, and for whom: two
    /// tiles, each holding one part of it that touches one side only and is a castle base
    /// in the catalogue, and exactly one figure, whose owner has a castle left.
    fn castle_candidate(&self, root: NodeId) -> Option<u8> {
        let node = self.features.node(root);
        if node.kind != FeatureKind::City || node.figures != 1 {
            return None;
        }
        let mut tiles = [u8::MAX; 2];
        let mut n = 0;
        for part in self.features.parts(root) {
            let part = self.features.node(part);
            let p = self.board.placement(part.placement as usize);
            let def = p.def();
            let sides = def.oriented(p.rot).feature_sides[part.local as usize];
            let base = def.features[part.local as usize].castle_base;
            if n == 2 || sides.count_ones() != 1 || !base || tiles.contains(&part.placement) {
                return None;
            }
            tiles[n] = part.placement;
            n += 1;
        }
        if n != 2 {
            return None;
        }
        let owner = self
            .figures
            .iter()
            .find(|f| {
                // A builder or pig beside the figure does not count (CA1).
                f.figure.is_follower_like() && self.features.root(f.node) == root
            })?
            .owner;
        (self.castles_left(owner as usize) > 0).then_some(owner)
    }

    /// The part of the city of `root` that names it in `build_castle`: its part on the
    /// tile placed this turn (the other part if the turn placed neither).
    fn castle_name(&self, root: NodeId) -> (Pos, u8) {
        let part = self
            .features
            .parts(root)
            .find(|id| {
                let on = self.features.node(*id).placement;
                self.placed_this_turn_indices().any(|p| p == on)
            })
            .unwrap_or(root);
        self.node_name(part)
    }

    /// CA1: asks the next player with a castle candidate among the turn's completed
    /// cities (turn order from the active player, from the player asked last); `false`
    /// when nobody is left to ask.
    #[inline]
    pub(crate) fn next_castle_decision(&mut self) -> bool {
        let mut legal = std::mem::take(&mut self.legal);
        while self.expansions.bcb.castle_next < self.players {
            let seat = (self.turn_player + self.expansions.bcb.castle_next) % self.players;
            legal.clear();
            for &root in self.turn_completed() {
                if self.castle_candidate(root) == Some(seat) {
                    let (pos, feature) = self.castle_name(root);
                    legal.push(Action::BuildCastle { pos, feature });
                }
            }
            if !legal.is_empty() {
                legal.push(Action::CastlePass);
                self.legal = legal;
                self.phase = Phase::Castle;
                self.to_play = seat;
                return true;
            }
            self.expansions.bcb.castle_next += 1;
        }
        self.legal = legal;
        false
    }

    /// The player asked declines his (remaining) castles this turn.
    pub(crate) fn castle_passed(&mut self) {
        self.expansions.bcb.castle_next += 1;
    }

    /// CA1: `player` turns the completed city at `(pos, feature)` into a castle: it is no
    /// longer among the turn's completed features (not scored, not completed for the King
    /// or the City of Carcassonne).
    pub(crate) fn build_castle(&mut self, player: u8, pos: Pos, feature: u8) {
        let index = self.board.index_at(pos).expect("a castle on a tile");
        let root = self
            .features
            .find(self.board.placement(index).node_base + feature as NodeId);
        let mut tiles = self.features.parts(root).map(|id| {
            self.board
                .placement(self.features.node(id).placement as usize)
                .pos
        });
        let (a, b) = (
            tiles.next().expect("two tiles"),
            tiles.next().expect("two tiles"),
        );
        let (min, max) = (
            Pos::new(a.x.min(b.x), a.y.min(b.y)),
            Pos::new(a.x.max(b.x), a.y.max(b.y)),
        );
        // CA2: the long sides run along the two tiles.
        let area = if min.x == max.x {
            (Pos::new(min.x - 1, min.y), Pos::new(max.x + 1, max.y))
        } else {
            (Pos::new(min.x, min.y - 1), Pos::new(max.x, max.y + 1))
        };
        self.expansions.bcb.castles_left[player as usize] -= 1;
        self.expansions.bcb.castles.push(Castle {
            owner: player,
            root,
            area,
            built: self.turns.len() as u32,
            scored: None,
        });
        let n = self.turn.completed_len as usize;
        if let Some(k) = self.turn.completed[..n].iter().position(|r| *r == root) {
            self.turn.completed.copy_within(k + 1..n, k);
            self.turn.completed_len -= 1;
        }
    }

    /// The listed form of a `BuildCastle` naming the city by any of its parts.
    #[inline]
    pub(crate) fn normalize_castle(&self, action: Action) -> Action {
        let Action::BuildCastle { pos, feature } = action else {
            return action;
        };
        let Some(p) = self.board.at(pos) else {
            return action;
        };
        if feature >= self.tile_features(self.board.index_at(pos).expect("a tile")) {
            return action;
        }
        let root = self.features.root(p.node_base + feature as NodeId);
        let (pos, feature) = self.castle_name(root);
        Action::BuildCastle { pos, feature }
    }

    /// Whether a figure standing on `node` is on a castle (safe from the dragon, CA4).
    pub(crate) fn on_castle(&self, node: NodeId) -> bool {
        !self.expansions.bcb.castles.is_empty() && self.castle_on(self.features.root(node))
    }

    /// Whether a part of the feature of `root` lies in `castle`'s neighbourhood (a cloister
    /// by its own tile, CA3).
    fn reaches(&self, castle: &Castle, root: NodeId) -> bool {
        let node = self.features.node(root);
        if node.kind.is_cloister() {
            return castle.covers(self.board.placement(node.placement as usize).pos);
        }
        self.features.parts(root).any(|id| {
            castle.covers(
                self.board
                    .placement(self.features.node(id).placement as usize)
                    .pos,
            )
        })
    }

    /// CA3: the castles built in earlier turns score the most valuable of the turn's
    /// completed features `roots` with a tile in their neighbourhood; then, wave after
    /// wave, the castles that scored in the previous wave trigger the castles around them
    /// (the most valuable if several do), until none is left. A castle scores at its first
    /// trigger: a feature counts before any castle it makes score, whatever the order in
    /// which the castles were built.
    #[inline]
    pub(crate) fn castles_score(&mut self, roots: &[NodeId]) {
        if self.expansions.bcb.castles.is_empty() {
            return;
        }
        let this_turn = self.turns.len() as u32;
        // At most 3 castles for each of 4 players, 2 for each of 6: one bit each.
        debug_assert!(self.expansions.bcb.castles.len() <= 32);
        // The castles that scored in the previous wave (none before the first).
        let mut previous = 0u32;
        let mut first_wave = true;
        loop {
            let mut this_wave = 0u32;
            for k in 0..self.expansions.bcb.castles.len() {
                let castle = self.expansions.bcb.castles[k];
                if castle.scored.is_some() || castle.built >= this_turn {
                    continue;
                }
                let mut best = None;
                if first_wave {
                    for &root in roots {
                        if self.reaches(&castle, root) {
                            best = best.max(Some(self.completed_value(root)));
                        }
                    }
                } else {
                    for (j, other) in self.expansions.bcb.castles.iter().enumerate() {
                        if previous & (1 << j) != 0 && self.reaches(&castle, other.root) {
                            best = best.max(other.scored.map(|(_, points)| points));
                        }
                    }
                }
                let Some(points) = best else {
                    continue;
                };
                self.expansions.bcb.castles[k].scored = Some((this_turn, points));
                this_wave |= 1 << k;
                let at = Some(self.node_name(castle.root));
                self.add_score(
                    castle.owner,
                    points,
                    ScoreKind::Castle,
                    at,
                    Some(castle.root),
                );
                self.on_feature_scored(castle.root, false);
                self.return_figures_of(castle.root, ReturnCause::Scored);
            }
            if this_wave == 0 {
                break;
            }
            previous = this_wave;
            first_wave = false;
        }
    }
}
