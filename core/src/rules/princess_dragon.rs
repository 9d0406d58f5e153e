//! The Princess & the Dragon (PD1–PD23), active with the `princess-and-dragon` set.
//!
//! * Volcano (PD1, PD2): the dragon lands on a volcano tile as soon as it is placed; no
//!   figure may be deployed on the dragon's tile (PD13b), the fairy may still move (PD17).
//! * Dragon tiles (PD3–PD8): held back from the pile until the dragon is on the board
//!   ([`crate::deck`]); after the deployment step (or after scoring and wagon moves, by
//!   `dragon_move`) the dragon flies 6 single steps, one per player from the turn player
//!   on, never twice onto a tile of the flight (its start included), never onto the
//!   fairy's tile, stopping when stuck; it eats every figure but barns on the tiles it enters.
//! * Princess (PD9–PD11): a princess tile joined to a city with knights lets the player
//!   remove one of them instead of deploying (`princess`: may / must).
//! * Magic portal (PD12–PD14): a follower, abbot, mayor or wagon may go to any free,
//!   incomplete feature of any tile instead of the placed one; never the dragon's tile.
//! * Fairy (PD15–PD17, PD23): moved instead of deploying, next to one of the player's
//!   figures (`fairy`: next-to-follower) or onto a tile where he has one (on-tile); 1
//!   point at the start of the owner's turn, 3 when that follower's feature scores
//!   (once per feature, majority or not, also at the end of the game); it keeps the
//!   dragon off its tile and stays there when its follower leaves.

use crate::action::Action;
use crate::config::{Figure, GameConfig};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase, ReturnCause, ScoreKind, TurnStep};
use crate::geometry::{Pos, Side};
use crate::rules::state::{LocalFeature, Seat, StateWriter};
use crate::rules::{Expansion, TurnEnd};
use crate::tiles::{Symbols, TileDef, TileSet};

crate::named_enum! {
    /// When the dragon flies on a dragon-tile turn (PD4).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum DragonMove {
        /// After deployment, before the turn's scoring (default).
        #[default]
        BeforeScoring = "before-scoring",
        /// After the turn's scoring and wagon moves.
        AfterScoring = "after-scoring",
    }
}
crate::named_enum! {
    /// Whether the princess removal is optional (PD9).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum PrincessRule {
        /// The player may remove a knight (default).
        #[default]
        May = "may",
        /// The player must remove a knight when one is there.
        Must = "must",
    }
}
crate::named_enum! {
    /// Where the fairy stands (PD15).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum FairyRule {
        /// Next to one follower, which it belongs to (default).
        #[default]
        NextToFollower = "next-to-follower",
        /// On a tile where the player has a follower (first edition).
        OnTile = "on-tile",
    }
}

/// Steps of a full flight (PD5).
pub const DRAGON_STEPS: u8 = 6;

crate::rules::state::state_tables! {
    expansion: "princess-and-dragon";
    /// The dragon, once a volcano brought it onto the board (PD2): its square, and the
    /// steps taken while it flies (PD5).
    dragon: Optional {
        /// Its square.
        pos: Pos,
        /// The steps of the flight under way (at most 6); absent between flights.
        flight_steps: Option<u8>,
    },
    /// The squares the flight under way has visited, its start first: it may not visit
    /// them again (PD6). No rows between flights.
    dragon_path: Many {
        /// A square.
        pos: Pos,
    },
    /// The fairy, once a player moved it (PD15).
    fairy: Optional {
        /// Its square.
        pos: Pos,
        /// The player who moved it there (under `fairy: on-tile` it stands for him).
        mover: Seat,
        /// The owner of the figure it stands next to (`fairy: next-to-follower`); absent
        /// when it stands by none.
        owner: Option<Seat>,
        /// That figure's feature on the fairy's tile; absent when it stands by none.
        feature: Option<LocalFeature>,
    },
}

/// Fairy position (PD15).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Fairy {
    /// Placement index of its tile.
    placement: u8,
    /// The figure it stands next to (owner, local feature) under `next-to-follower`;
    /// `None` when unattached or under `on-tile`.
    follower: Option<(u8, u8)>,
    /// The player who moved it there: under `on-tile` the fairy belongs to him (PD15).
    mover: u8,
}

/// The dragon's flight in progress.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
struct Flight {
    steps: u8,
    visited: [u8; 8],
    len: u8,
}

/// The state of The Princess & the Dragon: the dragon, the fairy and the flight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PrincessDragon {
    /// Placement index of the dragon's tile, once a volcano brought it (PD2).
    dragon: Option<u8>,
    fairy: Option<Fairy>,
    flight: Flight,
    /// The turn (index in the turn log) whose flight has started: one flight per turn.
    flown_in_turn: Option<usize>,
}

impl Expansion for PrincessDragon {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::PrincessDragon)
    }

    fn new(_: &GameConfig, _: usize) -> PrincessDragon {
        PrincessDragon::default()
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<PrincessDragon>> {
        vec![
            ("PD2", |d| d.dragon = Some(d.dragon.map_or(0, |i| i ^ 1))),
            ("PD15", |d| {
                d.fairy = Some(Fairy {
                    placement: d.fairy.map_or(0, |f| f.placement ^ 1),
                    follower: None,
                    mover: 0,
                })
            }),
            ("PD5", |d| d.flight.steps += 1),
            ("PD4", |d| {
                d.flown_in_turn = Some(d.flown_in_turn.map_or(0, |t| t + 1))
            }),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        if let Some(pos) = game.dragon() {
            rows.dragon(pos, game.flight_steps());
        }
        for pos in game.flight_visited() {
            rows.dragon_path(pos);
        }
        if let Some(fairy) = game.expansions.dragon.fairy {
            let pos = game.board.placement(fairy.placement as usize).pos;
            let (owner, feature) = match fairy.follower {
                Some((owner, local)) => (Some(Seat(owner)), Some(LocalFeature(local))),
                None => (None, None),
            };
            rows.fairy(pos, Seat(fairy.mover), owner, feature);
        }
    }

    /// PD3: dragon tiles wait for the dragon.
    fn held_back(def: &TileDef) -> bool {
        def.has(Symbols::DRAGON)
    }

    /// PD3: while the dragon is not on the board.
    #[inline]
    fn holds_back_tiles(game: &Game) -> bool {
        !game.dragon_on_board()
    }

    /// PD13b, PD1.
    #[inline]
    fn figure_barred_on(game: &Game, index: usize) -> bool {
        game.dragon_bars(index) || game.volcano_bars(index)
    }

    #[inline]
    fn on_turn_start(game: &mut Game) {
        game.fairy_turn_point();
    }

    #[inline]
    fn on_tile_placed(game: &mut Game, index: u8) {
        game.volcano_placed(index);
    }

    /// PD9.
    #[inline]
    fn exclusive_deploy_options(game: &Game, out: &mut Vec<Action>) -> bool {
        game.princess_actions(out)
    }

    /// PD12.
    #[inline]
    fn deploy_options(game: &Game, out: &mut Vec<Action>) {
        game.portal_deploys(out);
    }

    /// PD15.
    #[inline]
    fn instead_of_deploying(game: &Game, out: &mut Vec<Action>) {
        game.fairy_moves(out);
    }

    /// PD4: the dragon's flight, by default.
    #[inline]
    fn decision_after_deployment(game: &mut Game) -> bool {
        game.flight_starts(DragonMove::BeforeScoring)
    }

    /// PD4 under `dragon_move: after-scoring`.
    #[inline]
    fn at_end_of_turn(game: &mut Game) -> TurnEnd {
        if game.flight_starts(DragonMove::AfterScoring) {
            TurnEnd::Decide
        } else {
            TurnEnd::Done
        }
    }

    #[inline]
    fn on_feature_scored(game: &mut Game, root: NodeId, final_scoring: bool) {
        game.fairy_bonus(root, final_scoring);
    }

    #[inline]
    fn on_figure_left(game: &mut Game, figure: &BoardFigure) {
        game.fairy_figure_left(figure);
    }

    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::MoveFairy { .. } | Action::Princess { .. } | Action::MoveDragon { .. } => {
                Some(game.apply_princess_dragon(player, action))
            }
            _ => None,
        }
    }
}

impl Game {
    /// Applies a decision of The Princess & the Dragon: the fairy moved (PD15), a knight
    /// removed by the princess (PD9), one dragon step (PD5). Returns whether the pipeline
    /// moves on (`false` while the flight goes on).
    #[inline]
    fn apply_princess_dragon(&mut self, player: u8, action: Action) -> bool {
        self.record(player, action);
        match action {
            Action::MoveFairy { pos, feature } => {
                self.move_fairy(player, pos, feature);
                self.step = TurnStep::AfterDeployment;
            }
            Action::Princess { pos, feature } => {
                self.princess_remove(pos, feature);
                self.step = TurnStep::AfterDeployment;
            }
            Action::MoveDragon { pos } => {
                self.dragon_step(pos);
                if self.flight_continues() {
                    self.complete_legal();
                    return false;
                }
            }
            _ => unreachable!("not a Princess & Dragon decision"),
        }
        true
    }

    /// Whether the dragon is on the board (PD3: dragon tiles are drawn only then).
    pub(crate) fn dragon_on_board(&self) -> bool {
        self.expansions.dragon.dragon.is_some()
    }

    /// The dragon's square, if it is on the board.
    pub fn dragon(&self) -> Option<Pos> {
        self.expansions
            .dragon
            .dragon
            .map(|i| self.board.placement(i as usize).pos)
    }

    /// The fairy's square and the figure it stands by (owner, local feature), if it is
    /// on the board.
    pub fn fairy(&self) -> Option<(Pos, Option<(u8, u8)>)> {
        self.expansions
            .dragon
            .fairy
            .map(|f| (self.board.placement(f.placement as usize).pos, f.follower))
    }

    /// Dragon steps taken in the current flight, while the game waits for one (PD5).
    pub fn flight_steps(&self) -> Option<u8> {
        (self.phase == Phase::DragonFlight).then_some(self.expansions.dragon.flight.steps)
    }

    /// Squares the current flight has visited, its start included (PD6); empty when no
    /// flight is in progress.
    pub fn flight_visited(&self) -> impl Iterator<Item = Pos> + '_ {
        let flight = &self.expansions.dragon.flight;
        let n = if self.phase == Phase::DragonFlight {
            flight.len as usize
        } else {
            0
        };
        flight.visited[..n]
            .iter()
            .map(|i| self.board.placement(*i as usize).pos)
    }

    /// PD13b: no figure may be deployed on the dragon's tile.
    #[inline]
    pub(crate) fn dragon_bars(&self, index: usize) -> bool {
        self.expansions.dragon.dragon == Some(index as u8)
    }

    /// PD1: no figure but the dragon ever stands on a volcano tile (also after the dragon
    /// has left it).
    #[inline]
    pub(crate) fn volcano_bars(&self, index: usize) -> bool {
        self.board.placement(index).def().has(Symbols::VOLCANO)
    }

    /// PD2: a volcano tile just placed brings the dragon (also River II's volcano lake, R5).
    #[inline]
    fn volcano_placed(&mut self, index: u8) {
        if self
            .board
            .placement(index as usize)
            .kind
            .def()
            .has(Symbols::VOLCANO)
        {
            self.expansions.dragon.dragon = Some(index);
        }
    }

    /// PD16b: 1 point to the turn player at the start of his turn if the fairy stands by
    /// one of his followers (on-tile: on a tile with one of his followers).
    #[inline]
    fn fairy_turn_point(&mut self) {
        let Some(fairy) = self.expansions.dragon.fairy else {
            return;
        };
        let player = self.turn_player;
        let earns = match self.rules.fairy {
            FairyRule::NextToFollower => fairy.follower.is_some_and(|(owner, _)| owner == player),
            FairyRule::OnTile => {
                fairy.mover == player
                    && self.figures.iter().any(|f| {
                        f.owner == player
                            && f.placement == fairy.placement
                            && f.figure.is_follower_like()
                    })
            }
        };
        if earns {
            let at = fairy
                .follower
                .map(|(_, local)| (self.board.placement(fairy.placement as usize).pos, local));
            self.add_score(player, 1, ScoreKind::FairyTurn, at, None);
        }
    }

    /// PD16c: 3 points to the owner of the fairy's follower when the feature of `root`
    /// scores, whoever has the majority (once per feature); under `on-tile`, to the
    /// player who moved the fairy, for one of his own followers on its tile (PD15). At
    /// final scoring only with `fairy_final_bonus`.
    #[inline]
    fn fairy_bonus(&mut self, root: NodeId, final_scoring: bool) {
        let Some(fairy) = self.expansions.dragon.fairy else {
            return;
        };
        if final_scoring && !self.rules.fairy_final_bonus {
            return;
        }
        let mut winner = None;
        for f in &self.figures {
            if !f.figure.is_follower_like() || f.placement != fairy.placement {
                continue;
            }
            let matches = match self.rules.fairy {
                FairyRule::NextToFollower => fairy.follower == Some((f.owner, f.local)),
                FairyRule::OnTile => f.owner == fairy.mover,
            };
            if matches && self.features.root(f.node) == root {
                winner = Some((f.owner, f.local));
                break;
            }
        }
        if let Some((owner, local)) = winner {
            let pos = self.board.placement(fairy.placement as usize).pos;
            self.add_score(
                owner,
                3,
                ScoreKind::FairyScored,
                Some((pos, local)),
                Some(root),
            );
        }
    }

    /// A figure left the board: the fairy stays on its tile, unattached (PD16).
    #[inline]
    fn fairy_figure_left(&mut self, f: &BoardFigure) {
        if let Some(fairy) = &mut self.expansions.dragon.fairy {
            if fairy.placement == f.placement && fairy.follower == Some((f.owner, f.local)) {
                fairy.follower = None;
            }
        }
    }

    /// PD9: `Princess` actions for the knights (followers, mayors, wagons, anyone's) of the
    /// city that the placed princess tile's princess city belongs to. Returns whether
    /// they are the only choice (`princess: must`).
    #[inline]
    fn princess_actions(&self, out: &mut Vec<Action>) -> bool {
        self.princess_removals(out) && self.rules.princess == PrincessRule::Must
    }

    fn princess_removals(&self, out: &mut Vec<Action>) -> bool {
        if self.placed_abbey() {
            return false;
        }
        let Some(placed) = self.turn.placed else {
            return false;
        };
        let p = self.board.placement(placed as usize);
        let def = p.def();
        let Some(local) = def.features.iter().position(|f| f.princess) else {
            return false;
        };
        let root = self.features.root(p.node_base + local as NodeId);
        if self.features.node(root).figures == 0 {
            return false;
        }
        let before = out.len();
        for f in &self.figures {
            // Knights only: not a builder beside them (TB6).
            if f.figure.is_follower_like() && self.features.root(f.node) == root {
                let pos = self.board.placement(f.placement as usize).pos;
                out.push(Action::Princess {
                    pos,
                    feature: f.local,
                });
            }
        }
        out.len() > before
    }

    /// PD9: removes the knight at `(pos, feature)`; the turn's deployment is over (PD10).
    pub(crate) fn princess_remove(&mut self, pos: Pos, feature: u8) {
        let index = self.board.index_at(pos).expect("knight on a tile") as u8;
        let k = self.figure_at(index, feature).expect("a knight there");
        self.return_figure(k, ReturnCause::Princess);
    }

    /// PD12–PD14: deployments through the magic portal onto free, incomplete features of
    /// other tiles (the placed tile's own deployments are the usual ones).
    #[inline]
    fn portal_deploys(&self, out: &mut Vec<Action>) {
        let Some(placed) = self.turn.placed else {
            return;
        };
        if !self
            .board
            .placement(placed as usize)
            .kind
            .def()
            .has(Symbols::MAGIC_PORTAL)
        {
            return;
        }
        let in_supply = self.follower_like_in_supply(self.turn_player);
        if in_supply == 0 {
            return;
        }
        for i in 0..self.board.len() {
            if i == placed as usize {
                continue;
            }
            // A tile where no figure may go offers nothing: asked only of a tile that
            // would offer something.
            let start = out.len();
            for local in 0..self.tile_features(i) {
                self.push_deploys_of(in_supply, i, local, true, out);
            }
            if out.len() > start && self.figure_barred_on(i) {
                out.truncate(start);
            }
        }
    }

    /// PD15: `MoveFairy` actions: next to each of the turn player's figures (not the one
    /// it stands by), or, on-tile, onto each other tile with one of his figures.
    #[inline]
    fn fairy_moves(&self, out: &mut Vec<Action>) {
        let player = self.turn_player;
        let start = out.len();
        for f in &self.figures {
            // Next to followers only: not to a builder or a pig (TB6).
            if f.owner != player || !f.figure.is_follower_like() {
                continue;
            }
            let pos = self.board.placement(f.placement as usize).pos;
            match self.rules.fairy {
                FairyRule::NextToFollower => {
                    let here = self.expansions.dragon.fairy.is_some_and(|z| {
                        z.placement == f.placement && z.follower == Some((player, f.local))
                    });
                    if !here {
                        out.push(Action::MoveFairy {
                            pos,
                            feature: Some(f.local),
                        });
                    }
                }
                FairyRule::OnTile => {
                    let here = self
                        .expansions
                        .dragon
                        .fairy
                        .is_some_and(|z| z.placement == f.placement);
                    let action = Action::MoveFairy { pos, feature: None };
                    if !here && !out[start..].contains(&action) {
                        out.push(action);
                    }
                }
            }
        }
    }

    /// Moves the fairy (PD15).
    pub(crate) fn move_fairy(&mut self, player: u8, pos: Pos, feature: Option<u8>) {
        let placement = self.board.index_at(pos).expect("fairy onto a tile") as u8;
        self.expansions.dragon.fairy = Some(Fairy {
            placement,
            follower: feature.map(|local| (player, local)),
            mover: player,
        });
    }

    /// Whether a dragon flight is due now (PD4): a dragon tile was placed this turn, the
    /// dragon is on the board, and `when` is the configured moment.
    fn flight_due(&self, when: DragonMove) -> bool {
        if self.rules.dragon_move != when
            || !self.dragon_on_board()
            || self.expansions.dragon.flown_in_turn == Some(self.turns.len())
        {
            return false;
        }
        match self.turn.placed {
            Some(i) if !self.placed_abbey() => self
                .board
                .placement(i as usize)
                .kind
                .def()
                .has(Symbols::DRAGON),
            _ => false,
        }
    }

    /// Starts the flight if one is due at `when` (PD4); whether a step is now asked for.
    #[inline]
    fn flight_starts(&mut self, when: DragonMove) -> bool {
        if !self.flight_due(when) {
            return false;
        }
        self.start_flight();
        self.flight_continues()
    }

    /// Starts a flight from the dragon's square.
    fn start_flight(&mut self) {
        let start = self.expansions.dragon.dragon.expect("dragon on the board");
        self.expansions.dragon.flown_in_turn = Some(self.turns.len());
        let mut visited = [0u8; 8];
        visited[0] = start;
        self.expansions.dragon.flight = Flight {
            steps: 0,
            visited,
            len: 1,
        };
    }

    /// Asks for the next step if the flight goes on (PD5, PD6); else ends it.
    pub(crate) fn flight_continues(&mut self) -> bool {
        let steps = self.expansions.dragon.flight.steps;
        if steps < DRAGON_STEPS {
            let mut v = std::mem::take(&mut self.legal);
            v.clear();
            self.dragon_steps(&mut v);
            let any = !v.is_empty();
            self.legal = v;
            if any {
                self.phase = Phase::DragonFlight;
                self.to_play = (self.turn_player + steps) % self.players;
                return true;
            }
        }
        self.expansions.dragon.flight = Flight::default();
        false
    }

    /// `MoveDragon` actions: placed orthogonal neighbours not yet visited in this flight
    /// and not the fairy's tile (PD6), in N, E, S, W order.
    pub(crate) fn dragon_steps(&self, out: &mut Vec<Action>) {
        let d = &self.expansions.dragon;
        let Some(at) = d.dragon else { return };
        let pos = self.board.placement(at as usize).pos;
        let visited = &d.flight.visited[..d.flight.len as usize];
        for side in Side::ALL {
            let target = pos.step(side);
            let Some(i) = self.board.index_at(target) else {
                continue;
            };
            let i = i as u8;
            // PD6: never twice in a flight, never onto the fairy's tile, never onto a
            // closed square of the City of Carcassonne (CC8).
            if visited.contains(&i)
                || d.fairy.is_some_and(|f| f.placement == i)
                || self.count_bars(i as usize)
            {
                continue;
            }
            out.push(Action::MoveDragon { pos: target });
        }
    }

    /// One dragon step: every figure on the entered tile returns (PD7), but barns and
    /// figures on a castle (CA4).
    pub(crate) fn dragon_step(&mut self, pos: Pos) {
        let i = self.board.index_at(pos).expect("dragon onto a tile") as u8;
        self.expansions.dragon.dragon = Some(i);
        let f = &mut self.expansions.dragon.flight;
        f.visited[f.len as usize] = i;
        f.len += 1;
        f.steps += 1;
        let mut k = 0;
        while k < self.figures.len() {
            let fig = self.figures[k];
            if fig.placement == i && fig.figure != Figure::Barn && !self.on_castle(fig.node) {
                self.return_figure(k, ReturnCause::Dragon);
            } else {
                k += 1;
            }
        }
    }
}
