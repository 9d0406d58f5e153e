//! Abbey & Mayor (AM1–AM11), active with the `abbey-and-mayor` set and the figures of
//! the configuration (one abbey tile, mayor, barn and wagon per player by default).
//!
//! * Abbey (AM1–AM4): placed instead of drawing into a hole with four neighbours; fits
//!   any side, is a monastery, closes the roads and cities it touches (scored at once);
//!   after the last tile, an abbey round from the player after the one who placed it.
//! * Mayor (AM5): only in cities; strength = the city's pennants ([`crate::scoring`]).
//! * Barn (AM6–AM9): on a corner of the placed tile where four field quarters meet; its
//!   field is scored for the farmers at 3 per completed city in the scoring step (the
//!   pig herd adds 1), a field joined to a barn's field later at 1 per city, and at the
//!   end each barn scores 4 per completed city of its field. Never eaten by the dragon.
//! * Wagon (AM10, AM11): on a road, city or monastery; after its feature scores, its
//!   owner may move it onto a free incomplete road, city or monastery on the same or one
//!   of the 8 surrounding tiles (`wagon_move` C2) or connected to the scored feature
//!   (C1), in seat order from the turn player.

use crate::action::Action;
use crate::board::FrontierSquare;
use crate::config::{ConfigError, Figure, Figures, GameConfig, MAX_PLAYERS};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase, ScoreKind, TurnStep};
use crate::geometry::{Corner, Pos, Rotation, Side};
use crate::rules::{Expansion, FigureCounts};
use crate::tiles::{
    catalogue, FeatureKind, RoadEnd, Symbols, TileDef, TileKind, TileSet, NO_FEATURE,
};
use std::sync::OnceLock;

crate::named_enum! {
    /// Whether a barn may go into a field that already holds one (AM6).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum BarnPlacement {
        /// Not into a field with a barn (default).
        #[default]
        NotOccupied = "not-occupied",
        /// Also into a field with a barn.
        Occupied = "occupied",
    }
}
crate::named_enum! {
    /// Where a wagon may move after scoring (AM11).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum WagonMove {
        /// Same tile or one of the 8 surrounding tiles (default).
        #[default]
        C2 = "C2",
        /// A feature connected to the scored one.
        C1 = "C1",
    }
}

/// The state of Abbey & Mayor: abbey tiles in hand, the end-of-game abbey round, and
/// this turn's barn and wagons waiting to move.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct AbbeyMayor {
    /// Abbey tiles each seat still holds (AM1).
    abbeys: [u8; MAX_PLAYERS],
    /// End-of-game abbey round (AM4): next offset from the seat that placed the last
    /// tile, and seats left to ask.
    round: (u8, u8),
    /// A wagon waits to move: bit per seat (AM11).
    wagons: u8,
    /// Where each pending wagon stood: (placement, local feature), per seat.
    wagon_from: [(u8, u8); MAX_PLAYERS],
    /// Field node of the barn placed this turn (scored in the scoring step, AM7).
    barn: Option<NodeId>,
    /// The turn (index in the game's turn log) whose player declined to place his abbey
    /// before drawing (AM1).
    declined_in_turn: Option<usize>,
}

impl Expansion for AbbeyMayor {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::AbbeyMayor)
    }

    /// Every seat holds its abbey tiles.
    fn new(config: &GameConfig, _: usize) -> AbbeyMayor {
        let mut abbeys = [0; MAX_PLAYERS];
        abbeys[..config.players as usize].fill(config.figures.abbey);
        AbbeyMayor {
            abbeys,
            ..AbbeyMayor::default()
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<AbbeyMayor>> {
        vec![
            ("AM1", |a| a.abbeys[0] ^= 1),
            ("AM1", |a| {
                a.declined_in_turn = Some(a.declined_in_turn.map_or(0, |t| t + 1))
            }),
            ("AM4", |a| a.round.1 += 1),
            ("AM7", |a| a.barn = Some(a.barn.map_or(0, |n| n + 1))),
            ("AM11", |a| a.wagons ^= 1),
            ("AM11", |a| a.wagon_from[0].0 ^= 1),
        ]
    }

    /// AM1, AM5, AM6, AM10: with the set, each player has one mayor, wagon, barn and
    /// abbey tile by default.
    fn default_figures(sets: &[TileSet], counts: &mut FigureCounts) {
        if sets.contains(&TileSet::AbbeyMayor) {
            for figure in [Figure::Mayor, Figure::Wagon, Figure::Barn] {
                counts[Figures::FIGURE_KEYS[figure.index()]] = 1;
            }
            counts[Figures::ABBEY_KEY] = 1;
        }
    }

    /// The figures and abbey tiles of the set: at most one each, and none without the
    /// set.
    fn check_config(config: &GameConfig) -> Result<(), ConfigError> {
        let f = &config.figures;
        let am = config.sets.contains(&TileSet::AbbeyMayor);
        for (name, n) in [
            ("mayor", f.mayor),
            ("wagon", f.wagon),
            ("barn", f.barn),
            ("abbey", f.abbey),
        ] {
            if n > 1 {
                return Err(ConfigError::new(
                    format!("figures.{name}"),
                    format!("{n}; at most 1"),
                ));
            }
            if n > 0 && !am {
                return Err(ConfigError::new(
                    format!("figures.{name}"),
                    "needs the abbey-and-mayor set",
                ));
            }
        }
        Ok(())
    }

    /// AM1: abbeys are in the players' hands.
    fn never_drawn(def: &TileDef) -> bool {
        def.has(Symbols::ABBEY)
    }

    /// AM1: the abbey tiles.
    fn tiles_beside_pile(config: &GameConfig) -> usize {
        config.players as usize * config.figures.abbey as usize
    }

    /// The abbey tiles, after the figures.
    #[inline]
    fn held(game: &Game, player: usize, counts: &mut FigureCounts) {
        counts[Figures::ABBEY_KEY] = game.abbeys_left(player);
    }

    /// The mayor in a city (AM5), the wagon on a road, city or monastery-like feature
    /// (AM10); the barn is not deployed on a feature.
    #[inline]
    fn figure_fits(_: &GameConfig, figure: Figure, kind: FeatureKind) -> bool {
        match figure {
            Figure::Mayor => kind == FeatureKind::City,
            Figure::Wagon => {
                kind.is_monastery_like() || kind == FeatureKind::City || kind == FeatureKind::Road
            }
            _ => false,
        }
    }

    /// AM5: a mayor weighs as many followers as its city has pennants.
    #[inline]
    fn figure_weight(game: &Game, figure: Figure, root: NodeId) -> Option<u32> {
        (figure == Figure::Mayor).then(|| game.features.node(root).pennants as u32)
    }

    #[inline]
    fn reset_turn(game: &mut Game) {
        game.abbey_mayor_turn_start();
    }

    /// AM1.
    #[inline]
    fn decision_before_draw(game: &mut Game) -> bool {
        game.abbey_decision()
    }

    /// AM6.
    #[inline]
    fn deploy_options(game: &Game, out: &mut Vec<Action>) {
        game.barn_actions(out);
    }

    /// AM11: a wagon may move on.
    #[inline]
    fn on_figure_scored(game: &mut Game, figure: BoardFigure) {
        if figure.figure == Figure::Wagon {
            game.wagon_scored(figure);
        }
    }

    /// AM7, AM8.
    #[inline]
    fn after_turn_scoring(game: &mut Game, placed: u8) {
        game.barn_joins(placed);
    }

    /// AM11.
    #[inline]
    fn decision_after_scoring(game: &mut Game) -> bool {
        game.next_wagon_decision()
    }

    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::PlaceAbbey { .. } | Action::DeployBarn { .. } | Action::MoveWagon { .. } => {}
            Action::Pass if matches!(game.phase, Phase::Abbey | Phase::WagonMove) => {}
            _ => return None,
        }
        game.apply_abbey_mayor(player, action);
        Some(true)
    }

    #[inline]
    fn complete_legal(game: &mut Game, phase: Phase) {
        if matches!(phase, Phase::Abbey | Phase::WagonMove) {
            game.abbey_mayor_legal(phase);
        }
    }

    /// AM4.
    #[inline]
    fn on_game_end(game: &mut Game) {
        game.begin_abbey_round();
    }

    /// AM4.
    #[inline]
    fn end_round_decision(game: &mut Game) -> bool {
        game.next_end_round_turn()
    }

    /// AM9.
    #[inline]
    fn final_scoring(game: &mut Game) {
        game.barn_final_scoring();
    }
}

impl Game {
    /// Whether the turn player declined to place an abbey (AM1) and the game waits for his
    /// draw (explicit chance): the record of the game then ends with that decline, which
    /// a draw would otherwise imply.
    pub fn abbey_declined_before_draw(&self) -> bool {
        self.phase == Phase::Draw
            && self.expansions.abbey.declined_in_turn == Some(self.turns.len())
            && self.turn.drawn.is_none()
    }

    /// AM1: asks the turn player whether he places his abbey instead of drawing, if he
    /// may.
    #[inline]
    fn abbey_decision(&mut self) -> bool {
        if self.expansions.abbey.declined_in_turn != Some(self.turns.len())
            && self.abbey_possible(self.turn_player)
        {
            self.phase = Phase::Abbey;
            self.to_play = self.turn_player;
            return true;
        }
        false
    }

    /// The legal list of an abbey decision (the holes, then declining) or a wagon
    /// decision (its targets are listed by its step; declining is added here).
    #[inline]
    fn abbey_mayor_legal(&mut self, phase: Phase) {
        if phase == Phase::Abbey {
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            self.abbey_actions(&mut legal);
            self.legal = legal;
        }
        self.legal.push(Action::Pass);
    }

    /// Applies a decision of Abbey & Mayor: an abbey placed (AM1, AM4) or declined, a
    /// barn (AM6), a wagon move (AM11) or its refusal.
    fn apply_abbey_mayor(&mut self, player: u8, action: Action) {
        match action {
            Action::PlaceAbbey { pos } => {
                self.record(player, action);
                self.place_abbey(pos);
            }
            Action::Pass if self.phase == Phase::WagonMove => {
                self.record(player, action);
                self.wagon_declined(player);
            }
            Action::Pass if self.step == TurnStep::EndRound => {
                // Declining the end-of-game abbey is recorded as a pass.
                self.record(player, action);
                self.close_turn();
                self.step = TurnStep::EndRound;
            }
            Action::Pass => {
                // Declining the abbey before drawing is implied by the draw.
                self.expansions.abbey.declined_in_turn = Some(self.turns.len());
                self.step = TurnStep::Draw;
            }
            Action::DeployBarn { pos, corner } => {
                self.record(player, action);
                self.deploy_barn(player, pos, corner);
                self.step = TurnStep::AfterDeployment;
            }
            Action::MoveWagon { pos, feature } => {
                self.record(player, action);
                self.move_wagon(player, pos, feature);
            }
            _ => unreachable!("not an Abbey & Mayor decision"),
        }
    }

    fn am(&self) -> bool {
        self.has_set(TileSet::AbbeyMayor)
    }

    /// Whether the tile placed this turn is an abbey (AM1: no princess, barn or dragon
    /// flight comes with it).
    pub(crate) fn placed_abbey(&self) -> bool {
        self.turn.placed.is_some_and(|i| {
            self.board
                .placement(i as usize)
                .kind
                .def()
                .has(Symbols::ABBEY)
        })
    }

    /// Abbey tiles `player` still holds.
    pub fn abbeys_left(&self, player: usize) -> u8 {
        self.expansions.abbey.abbeys[player]
    }

    /// A new turn: no barn placed, no wagon waiting.
    #[inline]
    fn abbey_mayor_turn_start(&mut self) {
        let am = &mut self.expansions.abbey;
        am.wagons = 0;
        am.barn = None;
        am.declined_in_turn = None;
    }

    /// The abbey tile of the catalogue.
    fn abbey_tile() -> TileKind {
        static ABBEY: OnceLock<TileKind> = OnceLock::new();
        *ABBEY.get_or_init(|| {
            catalogue()
                .by_id("AM-ABBEY")
                .expect("abbey tile in catalogue")
        })
    }

    /// AM1: whether frontier square `square` is a hole (four orthogonal neighbours) where
    /// the abbey may lie by the placement rules of `restricters`, the expansions that
    /// restrict the abbey tile's placements (CU2: it is a monastery).
    #[inline]
    fn is_hole(&self, restricters: u32, square: &FrontierSquare) -> bool {
        square.neighbours == 4
            && (restricters == 0
                || self.placement_allowed_at(restricters, Game::abbey_tile(), square.pos))
    }

    /// AM1: whether `player` may place an abbey now (he holds one and a hole exists).
    pub(crate) fn abbey_possible(&self, player: u8) -> bool {
        if self.expansions.abbey.abbeys[player as usize] == 0 {
            return false;
        }
        let restricters = self.placement_restricters(Game::abbey_tile());
        self.board
            .frontier()
            .iter()
            .any(|square| self.is_hole(restricters, square))
    }

    /// `PlaceAbbey` actions: every hole, in frontier order.
    fn abbey_actions(&self, out: &mut Vec<Action>) {
        if !self.abbey_possible(self.to_play) {
            return;
        }
        let restricters = self.placement_restricters(Game::abbey_tile());
        for square in self.board.frontier() {
            if self.is_hole(restricters, square) {
                out.push(Action::PlaceAbbey { pos: square.pos });
            }
        }
    }

    /// AM1–AM3: places the turn player's abbey; deployment follows as usual.
    fn place_abbey(&mut self, pos: Pos) {
        let player = self.to_play as usize;
        self.expansions.abbey.abbeys[player] -= 1;
        let index = self.put_tile(Game::abbey_tile(), pos, Rotation::default());
        self.turn.placed = Some(index);
        self.turn.drawn = None;
        self.step = TurnStep::Deploy;
    }

    /// AM4: after the last tile, the abbey round starts with the seat after the one that
    /// placed it.
    #[inline]
    fn begin_abbey_round(&mut self) {
        self.expansions.abbey.round = (1, self.players);
    }

    /// Asks the next seat of the abbey round that can place an abbey; `false` when the
    /// round is over. No fairy point in these turns.
    #[inline]
    fn next_end_round_turn(&mut self) -> bool {
        while self.expansions.abbey.round.1 > 0 {
            let round = &mut self.expansions.abbey.round;
            let seat = (self.end_from + round.0) % self.players;
            round.0 += 1;
            round.1 -= 1;
            if self.abbey_possible(seat) {
                self.turn_player = seat;
                self.to_play = seat;
                self.open_turn(None);
                self.reset_turn_state();
                self.phase = Phase::Abbey;
                self.step = TurnStep::EndRound;
                return true;
            }
        }
        false
    }

    /// The field node at `corner` of placement `index`, if that quarter is field.
    fn corner_field(&self, index: usize, corner: Corner) -> Option<NodeId> {
        let p = self.board.placement(index);
        let seg = p.oriented().segment_feature;
        // Both half-edges at the corner must be the same field of the tile.
        let [(s0, t0), (s1, t1)] = corner.half_edges();
        let local = seg[s0.index() * 3 + t0];
        if local == NO_FEATURE || local != seg[s1.index() * 3 + t1] {
            return None;
        }
        (p.def().features[local as usize].kind == FeatureKind::Field)
            .then_some(p.node_base + local as NodeId)
    }

    /// AM6: `DeployBarn` actions on the corners of the placed tile.
    #[inline]
    fn barn_actions(&self, out: &mut Vec<Action>) {
        if !self.rules.farmers || self.placed_abbey() {
            return;
        }
        if self.supply[self.turn_player as usize][Figure::Barn.index()] == 0 {
            return;
        }
        let Some(placed) = self.turn.placed else {
            return;
        };
        let pos = self.board.placement(placed as usize).pos;
        for corner in Corner::ALL {
            let all_field = corner.squares_around(pos).iter().all(|(q, c)| {
                self.board
                    .index_at(*q)
                    .is_some_and(|i| self.corner_field(i, *c).is_some())
            });
            if !all_field {
                continue;
            }
            let node = self
                .corner_field(placed as usize, corner)
                .expect("field at the corner");
            let root = self.features.root(node);
            if self.features.node(root).barns > 0
                && self.rules.barn_placement == BarnPlacement::NotOccupied
            {
                continue;
            }
            out.push(Action::DeployBarn { pos, corner });
        }
    }

    /// Puts the turn player's barn on `corner` of the placed tile (AM6); its field is
    /// scored in the scoring step (AM7).
    fn deploy_barn(&mut self, player: u8, pos: Pos, corner: Corner) {
        let index = self.board.index_at(pos).expect("barn on the placed tile");
        let node = self
            .corner_field(index, corner)
            .expect("field at the corner");
        let root = self.features.find(node);
        self.features.node_mut(root).barns += 1;
        self.supply[player as usize][Figure::Barn.index()] -= 1;
        self.figures.push(BoardFigure {
            owner: player,
            figure: Figure::Barn,
            placement: index as u8,
            local: corner.index() as u8,
            node,
        });
        self.expansions.abbey.barn = Some(node);
    }

    /// Scoring step, after completed features: the field of a barn placed this turn
    /// (AM7, 3 per city), then fields of the placed tile that joined a barn's field and
    /// hold farmers (AM8, 1 per city).
    #[inline]
    fn barn_joins(&mut self, placed: u8) {
        let barn_root = self.expansions.abbey.barn.map(|n| self.features.find(n));
        if let Some(root) = barn_root {
            self.score_field_farmers(root, 3, ScoreKind::BarnPlaced);
        }
        let p = self.board.placement(placed as usize).clone();
        let mut done: [NodeId; 8] = [NodeId::MAX; 8];
        for (i, f) in p.def().features.iter().enumerate() {
            if f.kind != FeatureKind::Field {
                continue;
            }
            let root = self.features.find(p.node_base + i as NodeId);
            if Some(root) == barn_root || done.contains(&root) {
                continue;
            }
            if let Some(slot) = done.iter_mut().find(|d| **d == NodeId::MAX) {
                *slot = root;
            }
            let node = self.features.node(root);
            if node.barns > 0 && node.figures > 0 {
                self.score_field_farmers(root, 1, ScoreKind::BarnConnected);
            }
        }
    }

    /// The fields that a barn scores this turn, at most 8 distinct roots written into
    /// `out`: the field of the barn placed this turn (AM7), and the fields of the turn's
    /// tiles that hold a barn and farmers, which only a join made this turn brings
    /// together (AM8, farmers never enter a barn's field). A barn's field merely extended
    /// by a tile is not scored (the market's target, CC4).
    pub(crate) fn barn_scored_fields<'a>(
        &self,
        out: &'a mut [NodeId; 8],
    ) -> impl Iterator<Item = NodeId> + 'a {
        let mut n = 0;
        if self.am() {
            let mut push = |r: NodeId, out: &mut [NodeId; 8]| {
                if !out[..n].contains(&r) && n < out.len() {
                    out[n] = r;
                    n += 1;
                }
            };
            if let Some(b) = self.expansions.abbey.barn {
                push(self.features.root(b), out);
            }
            for placed in self.placed_this_turn_indices() {
                let p = self.board.placement(placed as usize);
                for (i, f) in p.def().features.iter().enumerate() {
                    let root = self.features.root(p.node_base + i as NodeId);
                    let node = self.features.node(root);
                    if f.kind == FeatureKind::Field && node.barns > 0 && node.figures > 0 {
                        push(root, out);
                    }
                }
            }
        }
        out[..n].iter().copied()
    }

    /// AM9: each barn scores 4 per completed city of its field.
    #[inline]
    fn barn_final_scoring(&mut self) {
        for k in 0..self.figures.len() {
            let f = self.figures[k];
            if f.figure != Figure::Barn {
                continue;
            }
            let root = self.features.find(f.node);
            let fc = self.field_cities(root);
            // With what expansions add to the field (CA4: a castle is worth one more).
            let points = 4 * fc.cities + fc.extra_points;
            if points > 0 {
                let at = Some(self.node_name(root));
                self.add_score(f.owner, points, ScoreKind::Barn, at, Some(root));
            }
        }
    }

    /// A wagon was returned by the scoring of its feature: it may move (AM11).
    #[inline]
    fn wagon_scored(&mut self, f: BoardFigure) {
        let am = &mut self.expansions.abbey;
        am.wagons |= 1 << f.owner;
        am.wagon_from[f.owner as usize] = (f.placement, f.local);
    }

    /// Asks the next wagon owner (seat order from the turn player) who has somewhere to
    /// go; wagons with nowhere to go stay in the supply. `false` when none is left.
    #[inline]
    fn next_wagon_decision(&mut self) -> bool {
        while self.expansions.abbey.wagons != 0 {
            let seat = (0..self.players)
                .map(|o| (self.turn_player + o) % self.players)
                .find(|s| self.expansions.abbey.wagons & (1 << s) != 0)
                .expect("a pending wagon");
            let mut v = std::mem::take(&mut self.legal);
            v.clear();
            self.wagon_targets(seat, &mut v);
            let any = !v.is_empty();
            self.legal = v;
            if any {
                self.phase = Phase::WagonMove;
                self.to_play = seat;
                return true;
            }
            self.expansions.abbey.wagons &= !(1 << seat);
        }
        false
    }

    fn push_wagon_target(&self, index: usize, local: u8, out: &mut Vec<Action>) {
        if self.figure_barred_on(index) {
            return;
        }
        let p = self.board.placement(index);
        let kind = self.features.node(p.node_base + local as NodeId).kind;
        if !(kind.is_monastery_like() || matches!(kind, FeatureKind::Road | FeatureKind::City)) {
            return;
        }
        let root = self.features.root(p.node_base + local as NodeId);
        if self.features.node(root).figures > 0 || self.is_complete(root) {
            return;
        }
        let action = Action::MoveWagon {
            pos: p.pos,
            feature: local,
        };
        if !out.contains(&action) {
            out.push(action);
        }
    }

    /// `MoveWagon` targets of `player`'s pending wagon (AM11).
    fn wagon_targets(&self, player: u8, out: &mut Vec<Action>) {
        if self.expansions.abbey.wagons & (1 << player) == 0 {
            return;
        }
        let (placement, local) = self.expansions.abbey.wagon_from[player as usize];
        let from = self.board.placement(placement as usize);
        match self.rules.wagon_move {
            WagonMove::C2 => {
                let mut squares = [from.pos; 9];
                squares[1..].copy_from_slice(&from.pos.surrounding());
                for pos in squares {
                    let Some(i) = self.board.index_at(pos) else {
                        continue;
                    };
                    for l in 0..self.tile_features(i) {
                        self.push_wagon_target(i, l, out);
                    }
                }
            }
            WagonMove::C1 => {
                let root = self.features.root(from.node_base + local as NodeId);
                for part in self.features.parts(root) {
                    let node = self.features.node(part);
                    let i = node.placement as usize;
                    let def = self.board.placement(i).def();
                    let me = node.local;
                    // A bridge part (BR3) links nothing on its tile.
                    let Some(here) = def.features.get(me as usize) else {
                        continue;
                    };
                    for (j, f) in def.features.iter().enumerate() {
                        let j8 = j as u8;
                        if j8 == me {
                            continue;
                        }
                        let linked = match (here.kind, here.road_end, f.kind, f.road_end) {
                            (FeatureKind::Road, Some(RoadEnd::CityGate(c)), _, _) if c == j8 => {
                                true
                            }
                            (FeatureKind::Road, Some(RoadEnd::Monastery(m)), _, _) if m == j8 => {
                                true
                            }
                            (
                                FeatureKind::Road,
                                Some(RoadEnd::Junction),
                                FeatureKind::Road,
                                Some(RoadEnd::Junction),
                            ) => true,
                            (
                                FeatureKind::City,
                                _,
                                FeatureKind::Road,
                                Some(RoadEnd::CityGate(c)),
                            ) => c == me,
                            (k, _, FeatureKind::Road, Some(RoadEnd::Monastery(m)))
                                if k.is_monastery_like() =>
                            {
                                m == me
                            }
                            _ => false,
                        };
                        if linked {
                            self.push_wagon_target(i, j8, out);
                        }
                    }
                    self.abbey_links(i, me, out);
                }
            }
        }
    }

    /// C1 link through an abbey's side: a road or city that an abbey closes is connected
    /// to the abbey's monastery (the abbey itself links to nothing).
    fn abbey_links(&self, index: usize, local: u8, out: &mut Vec<Action>) {
        let p = self.board.placement(index);
        let sides = p.oriented().feature_sides[local as usize];
        for side in Side::ALL {
            if sides & (1 << side.index()) == 0 {
                continue;
            }
            let Some(ni) = self.board.index_at(p.pos.step(side)) else {
                continue;
            };
            if self.board.placement(ni).def().has(Symbols::ABBEY) {
                self.push_wagon_target(ni, 0, out);
            }
        }
    }

    /// The owner declined to move his wagon: it stays in the supply.
    fn wagon_declined(&mut self, player: u8) {
        self.expansions.abbey.wagons &= !(1 << player);
    }

    /// Moves `player`'s wagon onto `(pos, feature)` (AM11).
    fn move_wagon(&mut self, player: u8, pos: Pos, feature: u8) {
        self.expansions.abbey.wagons &= !(1 << player);
        let index = self.board.index_at(pos).expect("wagon onto a tile") as u8;
        self.deploy(player, Figure::Wagon, index, feature);
    }
}
