//! The turn pipeline (`docs/rules.md` §8): the automatic steps between decisions, drawing
//! and discarding, placing a tile and joining its features, and the placements a tile
//! has (B2–B5 and the sets' placement rules through the registry).

use super::*;

impl Game {
    /// Runs automatic steps until a decision is needed or the game ends, and computes
    /// the legal list of that decision.
    pub(crate) fn advance(&mut self) {
        self.run_steps();
        self.complete_legal();
    }

    /// The turn pipeline: automatic steps until a decision is needed or the game ends.
    pub(super) fn run_steps(&mut self) {
        loop {
            match self.step {
                TurnStep::Start => {
                    // An extra turn (TB4) with the pile empty is only given for an abbey.
                    if self.deck.is_empty() && !self.tiles_held_to_place() && !self.extra_turn {
                        self.begin_end_round();
                        continue;
                    }
                    self.open_turn(None);
                    if self.extra_turn {
                        // TB4: the turn goes on; what comes once per turn (PD16b) does not
                        // come again.
                        self.reset_turn_state();
                    } else {
                        self.on_turn_start();
                    }
                    if let Some(tile) = self.tile_instead_of_draw() {
                        self.start_drawn_tile(tile);
                        continue;
                    }
                    self.step = TurnStep::BeforeDraw;
                }
                TurnStep::BeforeDraw => {
                    if self.decision_before_draw() {
                        return;
                    }
                    self.step = TurnStep::Draw;
                }
                TurnStep::Draw => {
                    if self.deck.is_empty() {
                        // Every remaining tile was discarded (or an extra turn, TB4, did
                        // without its abbey): the turn ends empty.
                        self.discard_open_turn_if_empty();
                        self.extra_turn = false;
                        if self.tiles_held_to_place() {
                            // The others still place the tiles they hold.
                            self.turn_player = (self.turn_player + 1) % self.players;
                            self.step = TurnStep::Start;
                            continue;
                        }
                        self.begin_end_round();
                        continue;
                    }
                    match self.draw_from_pile() {
                        Some(tile) => self.start_drawn_tile(tile),
                        None => return,
                    }
                }
                TurnStep::Place => {
                    self.phase = Phase::PlaceTile;
                    self.to_play = self.turn_player;
                    return;
                }
                TurnStep::AfterPlace => {
                    if !self.deck.is_empty() && self.tile_after_placement() {
                        match self.draw_from_pile() {
                            Some(tile) => self.drawn_after_placement(tile),
                            None => return,
                        }
                    }
                    self.step = TurnStep::Deploy;
                }
                TurnStep::Deploy => {
                    let mut legal = std::mem::take(&mut self.legal);
                    self.deploy_actions(&mut legal);
                    let only_pass = matches!(legal.as_slice(), [Action::Pass]);
                    self.legal = legal;
                    if only_pass {
                        self.step = TurnStep::AfterDeployment;
                        continue;
                    }
                    self.phase = Phase::Deploy;
                    self.to_play = self.turn_player;
                    return;
                }
                TurnStep::AfterDeployment => {
                    // Asked again after each of its decisions and draws (HS1, HS2).
                    if self.decision_after_figure_action() {
                        return;
                    }
                    self.step = TurnStep::Resolve;
                    if self.decision_after_deployment() {
                        return;
                    }
                }
                TurnStep::Resolve => {
                    self.collect_completed();
                    self.step = TurnStep::BeforeScoring;
                }
                TurnStep::BeforeScoring => {
                    if self.decision_before_scoring() {
                        return;
                    }
                    self.step = TurnStep::Score;
                }
                TurnStep::Score => {
                    self.score_turn();
                    self.step = TurnStep::AfterScoring;
                }
                TurnStep::AfterScoring => {
                    if self.decision_after_scoring() {
                        return;
                    }
                    self.step = TurnStep::EndOfTurn;
                }
                TurnStep::EndOfTurn => match self.at_end_of_turn() {
                    TurnEnd::Decide => return,
                    TurnEnd::Draw => match self.draw_from_pile() {
                        Some(tile) => self.drawn_at_end_of_turn(tile),
                        None => return,
                    },
                    TurnEnd::Done => self.step = TurnStep::End,
                },
                TurnStep::End => {
                    self.close_turn();
                    if let Some(tile) = self.turn.second_discarded.take() {
                        self.log_second_discard(tile);
                    }
                    if self.ending {
                        self.step = TurnStep::EndRound;
                        continue;
                    }
                    // TB4: the same player again, once.
                    self.extra_turn = self.extra_turn_follows();
                    if self.extra_turn {
                        self.step = TurnStep::Start;
                        continue;
                    }
                    if self.deck.is_empty() && !self.tiles_held_to_place() {
                        self.begin_end_round();
                        continue;
                    }
                    self.turn_player = (self.turn_player + 1) % self.players;
                    self.to_play = self.turn_player;
                    self.step = TurnStep::Start;
                }
                TurnStep::EndRound => {
                    if self.end_round_decision() {
                        return;
                    }
                    self.before_final_moves();
                    self.step = TurnStep::FinalMoves;
                }
                TurnStep::FinalMoves => {
                    if self.final_move_decision() {
                        return;
                    }
                    self.final_scoring();
                    self.step = TurnStep::Over;
                }
                TurnStep::Over => {
                    self.phase = Phase::GameOver;
                    return;
                }
            }
        }
    }

    /// Whether the part of the turn now ending is followed by the turn player's extra turn
    /// (TB4): earned by this part, which is no extra turn itself, outside the end-of-game
    /// rounds. What comes after the whole turn (a bazaar, §8 step 14) waits for it.
    pub(crate) fn extra_turn_follows(&self) -> bool {
        !self.extra_turn && !self.ending && self.another_turn()
    }

    /// A tile from the pile, sampled now (PD3: dragon tiles only once the dragon is on the
    /// board); `None` in explicit-chance mode, where the game then waits for the draw.
    pub(super) fn draw_from_pile(&mut self) -> Option<TileKind> {
        match self.chance {
            ChanceMode::Explicit => {
                self.phase = Phase::Draw;
                None
            }
            ChanceMode::Sampled => {
                let hold_back = self.draw_holds_back();
                Some(self.deck.draw(&mut self.rng, hold_back))
            }
        }
    }

    /// Whether a draw now holds back the tiles an expansion holds back (PD3): not for the
    /// tile put face down under a hill (HS3), which nobody sees.
    pub(super) fn draw_holds_back(&self) -> bool {
        self.step != TurnStep::AfterPlace && self.holds_back_tiles()
    }

    /// Whether the game waits for the tile that goes under the hill just placed (HS3), a
    /// [`Phase::Draw`] in explicit-chance mode.
    pub fn waits_for_tile_after_placement(&self) -> bool {
        self.phase == Phase::Draw && self.step == TurnStep::AfterPlace
    }

    pub(crate) fn open_turn(&mut self, draw: Option<TileKind>) {
        let a = self.decisions.len() as u32;
        let e = self.events.len() as u32;
        let r = self.returns.len() as u32;
        self.turns.push(TurnLog {
            player: self.turn_player,
            draw,
            discarded: false,
            second: None,
            second_discard: false,
            extra_turn: self.extra_turn,
            actions: (a, a),
            events: (e, e),
            returns: (r, r),
            scores: self.scores,
        });
        self.turn_open = true;
        self.turn.reset();
    }

    pub(crate) fn close_turn(&mut self) {
        if let Some(t) = self.turns.last_mut() {
            t.actions.1 = self.decisions.len() as u32;
            t.events.1 = self.events.len() as u32;
            t.returns.1 = self.returns.len() as u32;
            t.scores = self.scores;
        }
        self.turn_open = false;
    }

    pub(super) fn discard_open_turn_if_empty(&mut self) {
        // An open turn that drew nothing (all tiles discarded before it) is dropped.
        if self.turn_open {
            if let Some(t) = self.turns.last() {
                if t.draw.is_none()
                    && t.actions.0 == self.decisions.len() as u32
                    && t.events.0 == self.events.len() as u32
                    && t.returns.0 == self.returns.len() as u32
                {
                    self.turns.pop();
                }
            }
            self.turn_open = false;
        }
    }

    /// A tile was drawn: set it in hand, or discard it when it fits nowhere (B5).
    pub(super) fn start_drawn_tile(&mut self, tile: TileKind) {
        if let Some(t) = self.turns.last_mut() {
            t.draw = Some(tile);
        }
        self.turn.drawn = Some(tile);
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        self.placements_into(tile, &mut legal);
        self.legal = legal;
        if !self.legal.is_empty() {
            self.step = TurnStep::Place;
            self.phase = Phase::PlaceTile;
            self.to_play = self.turn_player;
        } else {
            self.discard_drawn_tile(tile);
        }
    }

    /// B5: the tile in hand leaves the game; the same player draws again, in a new
    /// record entry.
    #[cold]
    #[inline(never)]
    pub(super) fn discard_drawn_tile(&mut self, tile: TileKind) {
        if let Some(t) = self.turns.last_mut() {
            t.discarded = true;
        }
        self.on_tile_discarded(tile);
        self.close_turn();
        self.open_turn(None);
        self.step = TurnStep::Draw;
    }

    /// The feature node on third `third` of side `side` of placement `index` (a bridge
    /// crossing that side on the middle third, BR3), if any.
    #[inline]
    pub(crate) fn segment_node(&self, index: usize, side: Side, third: usize) -> Option<NodeId> {
        if third == 1 {
            if let Some(node) = self.crossing_node(index, side) {
                return Some(node);
            }
        }
        let p = self.board.placement(index);
        let local = p.oriented().segment_feature[side.index() * 3 + third];
        (local != NO_FEATURE).then(|| p.node_base + local as NodeId)
    }

    /// Puts a tile on the board and joins its features with its neighbours' (the
    /// expansions add theirs before the join, [`Game::on_tile_put`]).
    pub(crate) fn put_tile(&mut self, kind: TileKind, pos: Pos, rot: Rotation) -> u8 {
        let def = kind.def();
        let node_base = self.features.len() as NodeId;
        let (index, neighbours) = self.board.place_beside(pos, kind, def, rot, node_base);
        let index = index as u8;
        let oriented = def.oriented(rot);
        let parts = def
            .features
            .iter()
            .zip(&oriented.feature_sides)
            .map(|(f, sides)| {
                let open = if matches!(
                    f.kind,
                    FeatureKind::City | FeatureKind::Road | FeatureKind::River
                ) {
                    sides.count_ones() as u16
                } else {
                    0
                };
                (f.kind, open, f.pennants)
            });
        self.features.add_tile(index, parts);
        self.on_tile_put(index);
        let abbey = def.has(Symbols::ABBEY);
        let crossings = self.crosses_sides();
        for side in Side::ALL {
            let Some(ni) = neighbours[side.index()] else {
                continue;
            };
            let n = self.board.placement(ni);
            let n_oriented = n.oriented();
            let n_base = n.node_base;
            let opp = side.opposite().index();
            if abbey {
                // AM3: the abbey closes the neighbour's roads, cities, rivers and bridges
                // on that side: each once, on whichever thirds (a side may hold two
                // cities, HS-CORNER-AND-CAP-VINEYARD).
                let mut seen = [None; 3];
                for (third, slot) in seen.iter_mut().enumerate() {
                    *slot = self.segment_node(ni, side.opposite(), third);
                }
                self.close_side_of(&seen);
                continue;
            }
            if !crossings {
                // The tiles' own features meet on each third (no bridge crosses a side).
                // Local features are bits here: `n_def`'s and `def`'s masks of features
                // that are no field pick those that lose the open side.
                let n_def = n.def();
                let (mut mine_met, mut theirs_met) = (0u16, 0u16);
                let mut last_pair = (NO_FEATURE, NO_FEATURE);
                for third in 0..3 {
                    let mine = oriented.segment_feature[side.index() * 3 + third];
                    let theirs = n_oriented.segment_feature[opp * 3 + (2 - third)];
                    if mine == NO_FEATURE || theirs == NO_FEATURE {
                        continue;
                    }
                    // A feature that spans several thirds on both tiles (a city side, a
                    // field side) is joined once: the same pair again would join nothing.
                    if last_pair != (mine, theirs) {
                        self.join_features(node_base + mine as NodeId, n_base + theirs as NodeId);
                        last_pair = (mine, theirs);
                    }
                    mine_met |= 1 << mine;
                    theirs_met |= 1 << theirs;
                }
                // Each road, city or river of either tile on this side loses one open
                // side, once however many thirds it holds (HS-CORNER-AND-CAP-VINEYARD has
                // two cities on one side).
                self.close_open_sides(node_base, mine_met & def.no_field);
                self.close_open_sides(n_base, theirs_met & n_def.no_field);
                continue;
            }
            let mut mine_seen = [None; 3];
            let mut theirs_seen = [None; 3];
            let mut last_pair = (NodeId::MAX, NodeId::MAX);
            for third in 0..3 {
                let (mine, theirs) = if third == 1 && crossings {
                    // The middle third: an expansion's feature across it (a bridge end,
                    // BR3), else the tiles' own.
                    match (
                        self.segment_node(index as usize, side, 1),
                        self.segment_node(ni, side.opposite(), 1),
                    ) {
                        (Some(a), Some(b)) => (a, b),
                        _ => continue,
                    }
                } else {
                    let mine = oriented.segment_feature[side.index() * 3 + third];
                    let theirs = n_oriented.segment_feature[opp * 3 + (2 - third)];
                    if mine == NO_FEATURE || theirs == NO_FEATURE {
                        continue;
                    }
                    (node_base + mine as NodeId, n_base + theirs as NodeId)
                };
                // A feature that spans several thirds on both tiles (a city side, a field
                // side) is joined once: the same pair again would join nothing.
                if last_pair != (mine, theirs) {
                    self.join_features(mine, theirs);
                    last_pair = (mine, theirs);
                }
                mine_seen[third] = Some(mine);
                theirs_seen[third] = Some(theirs);
            }
            // Each road, city or river of either tile on this side loses one open side,
            // once however many thirds it holds: a side is closed per feature, not per
            // middle third (HS-CORNER-AND-CAP-VINEYARD has two cities on one side).
            self.close_side_of(&mine_seen);
            self.close_side_of(&theirs_seen);
        }
        index
    }

    /// The local features `locals` (a bit per local index) of the tile whose first node
    /// is `node_base` lost an open side each.
    pub(super) fn close_open_sides(&mut self, node_base: NodeId, mut locals: u16) {
        while locals != 0 {
            let root = self
                .features
                .find(node_base + locals.trailing_zeros() as NodeId);
            self.features.node_mut(root).open -= 1;
            locals &= locals - 1;
        }
    }

    /// The features on the thirds of one side (`nodes`, by third; `None`: no feature)
    /// lost that open side: each road, city or river among them once.
    pub(super) fn close_side_of(&mut self, nodes: &[Option<NodeId>; 3]) {
        for (third, node) in nodes.iter().enumerate() {
            let Some(node) = *node else { continue };
            if self.features.node(node).kind == FeatureKind::Field
                || nodes[..third].contains(&Some(node))
            {
                continue;
            }
            let root = self.features.find(node);
            self.features.node_mut(root).open -= 1;
        }
    }

    pub(super) fn place_turn_tile(&mut self, tile: TileKind, pos: Pos, rot: Rotation) {
        let index = self.put_tile(tile, pos, rot);
        self.turn.placed = Some(index);
        self.on_tile_placed(index);
        self.step = TurnStep::AfterPlace;
        if let Some(next) = self.second_tile_after(index) {
            // R6: a second tile in the same turn, placed before the deployment step.
            self.turn.first_placed = Some(index);
            self.turn.drawn = Some(next);
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            self.placements_into(next, &mut legal);
            self.legal = legal;
            if !self.legal.is_empty() {
                self.step = TurnStep::Place;
                if let Some(t) = self.turns.last_mut() {
                    t.second = Some(next);
                }
            } else {
                // A second tile that fits nowhere is out of the game (B5); the turn goes
                // on, and its discard is logged after it.
                self.turn.second_discarded = Some(next);
                self.on_tile_discarded(next);
            }
        }
    }

    /// R6, B5: the second tile of the turn just closed fitted nowhere; it is logged as a
    /// discard entry of the same player right after that turn, with the scores after it.
    #[cold]
    #[inline(never)]
    pub(super) fn log_second_discard(&mut self, tile: TileKind) {
        let a = self.decisions.len() as u32;
        let e = self.events.len() as u32;
        let r = self.returns.len() as u32;
        self.turns.push(TurnLog {
            player: self.turn_player,
            draw: Some(tile),
            discarded: true,
            second: None,
            second_discard: true,
            extra_turn: self.extra_turn,
            actions: (a, a),
            events: (e, e),
            returns: (r, r),
            scores: self.scores,
        });
    }

    /// R6: whether the tile in hand is the second tile of the turn (the city lake after
    /// the volcano lake), placed without a draw.
    pub fn second_tile_in_hand(&self) -> bool {
        self.phase == Phase::PlaceTile && self.turn.first_placed.is_some()
    }

    /// The tiles placed this turn: the first of two (R6), then the last.
    pub(crate) fn placed_this_turn_indices(&self) -> impl Iterator<Item = u8> {
        self.turn.first_placed.into_iter().chain(self.turn.placed)
    }

    /// The pile is empty: the end-of-game rounds begin, from the seat after the one
    /// that placed (or discarded) the last tile (AM4).
    #[cold]
    #[inline(never)]
    pub(super) fn begin_end_round(&mut self) {
        self.end_from = self.turn_player;
        self.ending = true;
        self.on_game_end();
        self.step = TurnStep::EndRound;
    }

    /// Every legal placement of `tile` (B4, R2): squares in frontier order, rotations
    /// 0..3. A tile with no placement is discarded (B5).
    pub(crate) fn placements_into(&self, tile: TileKind, out: &mut Vec<Action>) {
        // The common case (no placement rule of an expansion, no misfit made to fit)
        // has its own loop, without the checks.
        let restricters = self.placement_restricters(tile);
        let makers = self.misfit_makers();
        if restricters != 0 || makers != 0 {
            self.checked_placements_into(tile, restricters, makers, out);
        } else {
            self.fitting_placements_into(tile, out);
        }
    }

    /// [`Game::placements_into`] when no expansion restricts or extends where `tile` may
    /// go: every rotation that fits the neighbours (B4).
    pub(super) fn fitting_placements_into(&self, tile: TileKind, out: &mut Vec<Action>) {
        let table = FitTable::of(tile);
        let frontier = self.board.frontier();
        out.reserve(4 * frontier.len());
        // Rotations that give the same sides (symmetric tiles) are still distinct actions.
        for square in frontier {
            let fits = table.fits(square.required);
            if fits == 0 {
                continue;
            }
            let pos = square.pos;
            // One jump by the mask of fitting rotations to pushes of constant rotations:
            // a test of each of its bits is as hard to predict as the next, and
            // mispredicted tests cost more time than their instructions.
            macro_rules! push {
                ($($r:literal),+) => {{
                    $(out.push(Action::PlaceTile {
                        pos,
                        rot: Rotation::ALL[$r],
                        bridge: None,
                    });)+
                }};
            }
            match fits & 0xF {
                1 => push!(0),
                2 => push!(1),
                3 => push!(0, 1),
                4 => push!(2),
                5 => push!(0, 2),
                6 => push!(1, 2),
                7 => push!(0, 1, 2),
                8 => push!(3),
                9 => push!(0, 3),
                10 => push!(1, 3),
                11 => push!(0, 1, 3),
                12 => push!(2, 3),
                13 => push!(0, 2, 3),
                14 => push!(1, 2, 3),
                15 => push!(0, 1, 2, 3),
                _ => {}
            }
        }
    }

    /// [`Game::placements_into`] with the placement checks of the expansions in
    /// `restricters` and the misfits that those in `makers` make fit.
    pub(super) fn checked_placements_into(
        &self,
        tile: TileKind,
        restricters: u32,
        makers: u32,
        out: &mut Vec<Action>,
    ) {
        let restricted = restricters != 0;
        // The expansions that may bar some rotations of a square they allow.
        let turned = Game::rotation_restricters(restricters);
        let table = FitTable::of(tile);
        let misfit_table = if makers != 0 {
            Game::misfit_fit_table(makers, tile)
        } else {
            None
        };
        out.reserve(4 * self.board.frontier().len());
        for &FrontierSquare { pos, required, .. } in self.board.frontier() {
            let mut fits = table.fits(required);
            // Where a rotation does not fit, an expansion may make it fit (BR2: with a
            // bridge, if every side that does not match is a road against a field or a
            // field against a road).
            let mut misfits = match misfit_table {
                Some(t) => t.fits(required) & !fits,
                None => 0,
            };
            if restricted
                && fits | misfits != 0
                && !self.placement_allowed_at(restricters, tile, pos)
            {
                continue;
            }
            while fits != 0 {
                let rot = Rotation::ALL[fits.trailing_zeros() as usize];
                fits &= fits - 1;
                if turned == 0 || self.placement_allowed_turned(turned, tile, pos, rot) {
                    out.push(Action::PlaceTile {
                        pos,
                        rot,
                        bridge: None,
                    });
                }
            }
            while misfits != 0 {
                let rot = Rotation::ALL[misfits.trailing_zeros() as usize];
                misfits &= misfits - 1;
                if turned == 0 || self.placement_allowed_turned(turned, tile, pos, rot) {
                    let required = packed_requirement(required);
                    self.misfit_placements(makers, tile, pos, rot, required, out);
                }
            }
        }
    }
}
