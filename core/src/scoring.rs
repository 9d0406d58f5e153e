//! Scoring: completed features during play (B12–B14), the end of the game (B15, B16),
//! majorities with figure strengths (B13, AM5), and the walks over a feature's parts that
//! scoring needs (distinct tiles, adjacent completed cities).

use crate::config::MAX_PLAYERS;
use crate::features::NodeId;
use crate::game::{Game, ReturnCause, ScoreKind};
use crate::tiles::FeatureKind;

/// The points a city, road or cloister is worth (B12 when complete, B15 and A2 at the end
/// when not): `tiles` distinct tiles of a city or road, its `pennants`, and for an
/// incomplete feature `Some(n)` with `n` tiles around a cloister (`None`: complete).
/// Fields and rivers are worth nothing by themselves.
///
/// ```
/// use carcassonne::scoring::feature_value;
/// use carcassonne::tiles::FeatureKind;
/// use carcassonne::RuleSwitches;
/// let rules = RuleSwitches::default();
/// assert_eq!(feature_value(FeatureKind::City, 3, 1, None, &rules), 8);
/// assert_eq!(feature_value(FeatureKind::City, 3, 1, Some(0), &rules), 4);
/// assert_eq!(feature_value(FeatureKind::Monastery, 0, 0, Some(5), &rules), 6);
/// ```
pub fn feature_value(
    kind: FeatureKind,
    tiles: u32,
    pennants: u32,
    incomplete: Option<u8>,
    rules: &crate::config::RuleSwitches,
) -> i32 {
    let (tiles, pennants) = (tiles as i32, pennants as i32);
    match (kind, incomplete) {
        (FeatureKind::City, None) if tiles == 2 && rules.tiny_city == 2 => tiles + pennants,
        (FeatureKind::City, None) => 2 * tiles + 2 * pennants,
        (FeatureKind::City, Some(_)) => tiles + pennants,
        (FeatureKind::Road, _) => tiles,
        (k, None) if k.is_cloister() => 9,
        (k, Some(around)) if k.is_cloister() => 1 + around as i32,
        _ => 0,
    }
}

/// What a field touches, for its scoring (B16).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldCities {
    /// Completed cities, with those its expansions count
    /// ([`Game::field_extra_cities`]: the City of Carcassonne, CC2; castles, CA4).
    pub(crate) cities: i32,
    /// Points its expansions add to every scoring of the field beyond its cities'
    /// ([`Game::field_extra_points`]: CA4).
    pub(crate) extra_points: i32,
}

impl Game {
    /// A fresh mark for the scratch stamp array, which then has a stamp for every feature
    /// node and every placement (it grows with the board, within the room reserved at
    /// creation).
    pub(crate) fn next_mark(&mut self) -> u32 {
        let needed = self.features.len().max(self.board.len());
        if self.stamp.len() < needed {
            self.stamp.resize(needed, 0);
        }
        self.stamp_value = self.stamp_value.wrapping_add(1);
        if self.stamp_value == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.stamp_value = 1;
        }
        self.stamp_value
    }

    /// Strength of every player on the feature of `root` (B13): one per follower-like
    /// figure, or what its expansion says it weighs ([`Game::figure_strength`]).
    pub(crate) fn strengths(&mut self, root: NodeId) -> [u32; MAX_PLAYERS] {
        let mut s = [0u32; MAX_PLAYERS];
        // The root counts the follower-like figures on its feature: the walk over the
        // figure list stops at the last of them.
        let mut left = self.features.node(root).figures;
        for k in 0..self.figures.len() {
            if left == 0 {
                break;
            }
            let f = self.figures[k];
            if !f.figure.is_follower_like() || self.features.find(f.node) != root {
                continue;
            }
            left -= 1;
            s[f.owner as usize] += self.figure_strength(f.figure, root);
        }
        s
    }

    /// Gives `points` to every player with the highest strength above 0 (B13).
    pub(crate) fn award_majority(&mut self, root: NodeId, points: i32, kind: ScoreKind) {
        self.award_majority_per_city(root, points, 0, kind);
    }

    /// [`Game::award_majority`] for a field that counts `cities` completed cities:
    /// each player of the majority also scores his bonus per city
    /// ([`Game::field_bonus_per_city`]: R5, TB5).
    fn award_majority_per_city(&mut self, root: NodeId, points: i32, cities: i32, kind: ScoreKind) {
        let s = self.strengths(root);
        let best = *s.iter().max().unwrap_or(&0);
        if best == 0 {
            return;
        }
        let mut tied = 0u8;
        for p in 0..self.players {
            tied |= u8::from(s[p as usize] == best) << p;
        }
        if tied.count_ones() > 1 {
            // HS4: a tie may be broken by followers on hills.
            tied = self.break_tie(root, tied);
        }
        let at = Some(self.node_name(root));
        for p in 0..self.players {
            if tied & (1 << p) != 0 {
                let bonus = if cities > 0 {
                    cities * self.field_bonus_per_city(root, p)
                } else {
                    0
                };
                self.add_score(p, points + bonus, kind, at, Some(root));
            }
        }
    }

    /// Returns every follower-like figure on the feature of `root` (B14), telling the
    /// expansions of those of a feature scored during play.
    pub(crate) fn return_figures_of(&mut self, root: NodeId, cause: ReturnCause) {
        let mut k = 0;
        // The root counts the follower-like figures still on its feature (each return
        // takes one off): the walk stops when none is left.
        while k < self.figures.len() && self.features.node(root).figures > 0 {
            let f = self.figures[k];
            if f.figure.is_follower_like() && self.features.find(f.node) == root {
                self.return_figure(k, cause);
                if cause == ReturnCause::Scored {
                    self.on_figure_scored(f);
                }
            } else {
                k += 1;
            }
        }
    }

    /// Points of a completed feature (B12; IC2, IC3).
    pub(crate) fn completed_value(&mut self, root: NodeId) -> i32 {
        let node = self.features.node(root);
        let (kind, pennants) = (node.kind, node.pennants as u32);
        let tiles = match kind {
            FeatureKind::City | FeatureKind::Road => self.feature_tiles(root),
            // HS5: a completed monastery's vineyards (a shrine's too, CU1).
            FeatureKind::Monastery | FeatureKind::Shrine => 0,
            _ => return feature_value(kind, 0, pennants, None, &self.rules),
        };
        self.expansion_feature_value(root, tiles, true)
            .unwrap_or_else(|| feature_value(kind, tiles, pennants, None, &self.rules))
    }

    /// Points of an incomplete feature at the end of the game (B15, A2; IC2, IC3).
    pub(crate) fn incomplete_value(&mut self, root: NodeId) -> i32 {
        let node = self.features.node(root);
        let (kind, pennants, placement) = (node.kind, node.pennants as u32, node.placement);
        let around = self.board.placement(placement as usize).surrounded_by;
        let tiles = match kind {
            FeatureKind::City | FeatureKind::Road => self.feature_tiles(root),
            _ => return feature_value(kind, 0, pennants, Some(around), &self.rules),
        };
        self.expansion_feature_value(root, tiles, false)
            .unwrap_or_else(|| feature_value(kind, tiles, pennants, Some(around), &self.rules))
    }

    /// Scores a feature that this turn completed, if it holds figures (B12–B14, PD16c);
    /// whether it did.
    pub(crate) fn score_completed(&mut self, root: NodeId) -> bool {
        if self.features.node(root).figures == 0 {
            return false;
        }
        let points = self.completed_value(root);
        let kind = match self.features.node(root).kind {
            FeatureKind::City => ScoreKind::City,
            FeatureKind::Road => ScoreKind::Road,
            FeatureKind::Garden => ScoreKind::Garden,
            FeatureKind::Shrine => ScoreKind::Shrine,
            _ => ScoreKind::Monastery,
        };
        self.award_majority(root, points, kind);
        self.on_feature_scored(root, false);
        self.return_figures_of(root, ReturnCause::Scored);
        true
    }

    /// The completed cities that the field of `root` touches (B16; a city an expansion
    /// turned into something else is none, [`Game::is_castle`]), with what its
    /// expansions add.
    pub(crate) fn field_cities(&mut self, root: NodeId) -> FieldCities {
        let mark = self.next_mark();
        let mut cities = 0;
        let mut id = root;
        loop {
            let node = self.features.node(id);
            let p = self.board.placement(node.placement as usize);
            let def = p.def();
            let base = p.node_base;
            let f = &def.features[node.local as usize];
            let mut bits = f.adjacent_cities;
            while bits != 0 {
                let j = bits.trailing_zeros() as NodeId;
                bits &= bits - 1;
                let c = self.features.find(base + j);
                if self.stamp[c as usize] != mark {
                    self.stamp[c as usize] = mark;
                    if !self.is_castle(c) && self.is_complete(c) {
                        cities += 1;
                    }
                }
            }
            id = self.next_part(id);
            if id == root {
                break;
            }
        }
        // Cities an expansion counts for the field (CC2: the City of Carcassonne; CA4:
        // castles).
        cities += self.field_extra_cities(root);
        FieldCities {
            cities,
            extra_points: self.field_extra_points(root),
        }
    }

    /// Scores the field of `root` for its farmers at `per_city` points per completed
    /// city, with the points its expansions add to the field (CA4) and to a player per
    /// city (R5: the pig herd; TB5: his pig), and returns them (B16, AM7, AM8).
    pub(crate) fn score_field_farmers(&mut self, root: NodeId, per_city: i32, kind: ScoreKind) {
        let fc = self.field_cities(root);
        let points = fc.cities * per_city + fc.extra_points;
        self.award_majority_per_city(root, points, fc.cities, kind);
        let final_scoring = kind == ScoreKind::Farmers;
        self.on_feature_scored(root, final_scoring);
        self.return_figures_of(
            root,
            if final_scoring {
                ReturnCause::FinalScoring
            } else {
                ReturnCause::Scored
            },
        );
    }

    /// Notes the roots of every feature the turn's placements completed (before anyone
    /// acts on them: castles, moves out of the City of Carcassonne, scoring).
    pub(crate) fn collect_completed(&mut self) {
        self.turn.completed_len = 0;
        let mut placed_tiles = [0u8; 2];
        let mut placed_len = 0;
        for placed in self.placed_this_turn_indices() {
            placed_tiles[placed_len] = placed;
            placed_len += 1;
        }
        // A cloister is completed by its eighth neighbour: only when a placement of this
        // turn gave some tile its eighth are the tiles around them looked at.
        let filled = placed_tiles[..placed_len]
            .iter()
            .any(|&i| self.board.placement(i as usize).filled_surroundings());
        for &placed in &placed_tiles[..placed_len] {
            self.completed_by(placed, filled);
        }
        // Features completed beside the tiles (BR1: a bridge laid on a neighbour between
        // abbeys closes its road by itself).
        self.completed_beside_tiles();
    }

    /// Notes `root` among the features the turn completed, once.
    pub(crate) fn note_completed(&mut self, root: NodeId) {
        let turn = &mut self.turn;
        let n = turn.completed_len as usize;
        if !turn.completed[..n].contains(&root) && n < turn.completed.len() {
            turn.completed[n] = root;
            turn.completed_len += 1;
        }
    }

    /// The roots of the features the turn's placements completed (from the resolve step
    /// on; empty before).
    pub(crate) fn turn_completed(&self) -> &[NodeId] {
        &self.turn.completed[..self.turn.completed_len as usize]
    }

    /// Scores everything the turn's placements completed (B8–B14, AM3, AM8).
    pub(crate) fn score_turn(&mut self) {
        let mut placed_tiles = [0u8; 2];
        let mut placed_len = 0;
        for placed in self.placed_this_turn_indices() {
            placed_tiles[placed_len] = placed;
            placed_len += 1;
        }
        // Which of the completed features scored, a bit per index in the list (at most
        // 48 of them).
        let mut scored = 0u64;
        for k in 0..self.turn.completed_len as usize {
            if self.score_completed(self.turn.completed[k]) {
                scored |= 1 << k;
            }
        }
        for &placed in &placed_tiles[..placed_len] {
            self.after_turn_scoring(placed);
        }
        self.on_turn_scored(scored);
    }

    /// Notes (once each) the roots of the features that placing the tile `placed`
    /// completed: its cities and roads, those an abbey closes (AM3), and, if `filled`
    /// (some tile got its eighth neighbour this turn), the cloisters around it.
    fn completed_by(&mut self, placed: u8, filled: bool) {
        let p = self.board.placement(placed as usize).clone();
        let def = p.def();
        // Its cities and roads, its bridge included (BR3); its own fields are passed over
        // (`no_field`).
        let own = def.features.len();
        for i in 0..self.tile_features(placed as usize) {
            if (i as usize) < own && def.no_field & 1 << i == 0 {
                continue;
            }
            let r = self.features.find(p.node_base + i as NodeId);
            let node = self.features.node(r);
            if matches!(node.kind, FeatureKind::City | FeatureKind::Road) && node.open == 0 {
                self.note_completed(r);
            }
        }
        if def.has(crate::tiles::Symbols::ABBEY) {
            // AM3: the abbey closes its neighbours' roads, cities and bridges.
            for side in crate::geometry::Side::ALL {
                let Some(q) = self.board.index_at(p.pos.step(side)) else {
                    continue;
                };
                // Every third: a side may hold two cities (HS-CORNER-AND-CAP-VINEYARD).
                for third in 0..3 {
                    let Some(part) = self.segment_node(q, side.opposite(), third) else {
                        continue;
                    };
                    let r = self.features.find(part);
                    let node = self.features.node(r);
                    if matches!(node.kind, FeatureKind::City | FeatureKind::Road) && node.open == 0
                    {
                        self.note_completed(r);
                    }
                }
            }
        }
        if !filled {
            return;
        }
        let (surrounded, count) = self.board.surrounded_around(p.pos);
        for &q in &surrounded[..count] {
            let q = self.board.placement(q as usize);
            let (def, node_base) = (q.def(), q.node_base);
            for (i, f) in def.features.iter().enumerate() {
                if f.kind.is_cloister() {
                    self.note_completed(node_base + i as NodeId);
                }
            }
        }
    }

    /// End of game: incomplete features (B15), farmers (B16), barns (AM9).
    // Once per game: kept out of the turn pipeline it is called from.
    #[cold]
    #[inline(never)]
    pub(crate) fn final_scoring(&mut self) {
        if self.final_scored {
            return;
        }
        self.final_scored = true;
        self.figures_at_final_scoring.clear();
        self.figures_at_final_scoring
            .extend_from_slice(&self.figures);
        let mut k = 0;
        while k < self.figures.len() {
            let f = self.figures[k];
            if !f.figure.is_follower_like() {
                k += 1;
                continue;
            }
            let root = self.features.find(f.node);
            let kind = self.features.node(root).kind;
            if kind == FeatureKind::Field {
                if self.features.node(root).barns > 0 {
                    // AM9: farmers no longer score a barn's field.
                    self.return_figures_of(root, ReturnCause::FinalScoring);
                } else {
                    self.score_field_farmers(root, 3, ScoreKind::Farmers);
                }
            } else if kind == FeatureKind::Tower || self.is_complete(root) {
                // TW7: a figure on a tower scores nothing.
                self.return_figures_of(root, ReturnCause::FinalScoring);
            } else {
                let points = self.incomplete_value(root);
                self.award_majority(root, points, ScoreKind::Incomplete);
                self.on_feature_scored(root, true);
                self.return_figures_of(root, ReturnCause::FinalScoring);
            }
            // The figure list shrank; start over from the first remaining figure.
            k = 0;
            while k < self.figures.len() && !self.figures[k].figure.is_follower_like() {
                k += 1;
            }
        }
        self.final_scoring_extras();
    }
}
