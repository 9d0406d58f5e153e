//! The Count of Carcassonne (CC1–CC9), active with the `count` set.
//!
//! * CC1, CC9: the twelve squares of the City of Carcassonne are the start (with a river,
//!   its spring lies beside them, [`crate::config::GameConfig::start_tiles`]); the count
//!   starts in the castle quarter.
//! * CC2: the walled city is no feature; it counts as one completed city for every field
//!   with a part on the squares ([`crate::scoring`]) and for the King. Figures in its
//!   four quarters (castle, blacksmith, cathedral, market) are off the board: safe from
//!   the dragon and the princess.
//! * CC3: when the tile a player placed makes others score points for features and him
//!   none, he may put a figure from his supply into a quarter, then move the count to
//!   another quarter.
//! * CC4, CC5: before the turn's completed features score, each player from the left of
//!   the turn player (the turn player last) may move his figures, one at a time, from a
//!   quarter onto a feature of the quarter's kind about to score; never from the quarter
//!   where the count stands.
//! * CC6: after the last tile and the abbey round, players in turn move one figure out
//!   of the city or pass (and are out) until everyone has passed (`count_final`).
//! * CC7: followers anywhere; the mayor in the castle, the wagon anywhere but the market,
//!   the abbot in the cathedral; never a barn. The market only with farmers.
//! * CC8 (`count_landscape`): which squares no figure and no dragon may enter.
//!
//! A quarter move names its target feature by one of its parts; any part names the same
//! move ([`Game::normalize`] turns it into the listed one).

use crate::action::Action;
use crate::config::{Figure, GameConfig};
use crate::features::NodeId;
use crate::game::{BoardFigure, Game, Phase};
use crate::geometry::Pos;
use crate::rules::state::{Seat, StateWriter};
use crate::rules::Expansion;
use crate::tiles::{FeatureKind, Symbols, TileDef, TileSet};

crate::named_enum! {
    /// Which figures may leave the City of Carcassonne before final scoring (CC6).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum CountFinal {
        /// Only from the market, onto a field without a barn (default, second edition).
        #[default]
        MarketOnly = "market-only",
        /// From every quarter onto an incomplete feature of its kind (first edition).
        AnyQuarter = "any-quarter",
    }
}
crate::named_enum! {
    /// Which of the City of Carcassonne's twelve squares are closed to figures and the
    /// dragon (CC8).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum CountLandscape {
        /// All twelve (default).
        #[default]
        Closed = "closed",
        /// Only the two squares of the walled city (`COUNT-06`, `COUNT-07`); the landscape
        /// of the other ten is ordinary (the publisher's clarification, the reference
        /// engine's reading).
        Open = "open",
    }
}

crate::named_enum! {
    /// A quarter of the City of Carcassonne (CC2), with the kind of feature its figures
    /// may leave for.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
    #[repr(u8)]
    pub enum Quarter {
        /// Cities.
        #[default]
        Castle(0) = "castle",
        /// Roads.
        Blacksmith(1) = "blacksmith",
        /// Monasteries and shrines.
        Cathedral(2) = "cathedral",
        /// Fields.
        Market(3) = "market",
    }
}

crate::named_enum! {
    /// When a player acts on the City of Carcassonne (the `step` of records).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    #[repr(u8)]
    pub enum QuarterStep {
        /// Before the turn's completed features score (CC4).
        #[default]
        BeforeScoring(0) = "before-scoring",
        /// Putting a figure into a quarter (CC3).
        Deploy(1) = "deploy",
        /// Before final scoring (CC6).
        Final(2) = "final",
        /// Moving the count (CC3).
        Count(3) = "count",
    }
}

impl Quarter {
    /// The quarter whose figures may leave for features of `kind`.
    pub const fn of(kind: FeatureKind) -> Option<Quarter> {
        match kind {
            FeatureKind::City => Some(Quarter::Castle),
            FeatureKind::Road => Some(Quarter::Blacksmith),
            FeatureKind::Monastery | FeatureKind::Shrine => Some(Quarter::Cathedral),
            FeatureKind::Field => Some(Quarter::Market),
            FeatureKind::Garden | FeatureKind::River | FeatureKind::Tower => None,
        }
    }

    /// CC7: whether a figure of kind `figure` may stand in this quarter.
    pub const fn admits(self, figure: Figure) -> bool {
        match figure {
            Figure::Follower | Figure::BigFollower => true,
            Figure::Mayor => matches!(self, Quarter::Castle),
            Figure::Wagon => !matches!(self, Quarter::Market),
            Figure::Abbot => matches!(self, Quarter::Cathedral),
            // Builders, pigs (TB6) and shepherds (HS1) never enter the City.
            Figure::Barn | Figure::Builder | Figure::Pig | Figure::Shepherd => false,
        }
    }
}

/// The state of the Count of Carcassonne: the count, the figures in the quarters, and
/// where the rounds of moves out of the city stand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Count {
    /// The quarter where the count stands.
    count_at: Quarter,
    /// The figures in the quarters: (quarter, owner, figure).
    inside: Vec<(Quarter, u8, Figure)>,
    /// CC4: the seat asked now, as an offset from the turn player (1: the next seat, the
    /// number of players: the turn player himself).
    leave_round: u8,
    /// CC6: the offset from the seat after the last tile's player of the next seat to
    /// ask, and the seats that passed (bit per seat).
    final_next: u8,
    final_out: u8,
    /// CC3: how far the turn's entry into the City has gone.
    entry: CityEntry,
}

crate::rules::state::state_tables! {
    expansion: "count";
    /// Where the count stands (CC3): figures may not leave his quarter (CC5).
    count: One {
        /// The count's quarter.
        quarter: Quarter,
    },
    /// The figures in the quarters of the City of Carcassonne, in the order they went in
    /// (CC2, CC3).
    quarter_figures: Many {
        /// The quarter.
        quarter: Quarter,
        /// The figure's owner.
        owner: Seat,
        /// The figure.
        figure: Figure,
    },
}

/// CC3, once per turn after the scoring and the wagons: the turn player may put a figure
/// into the City, and then move the count.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
enum CityEntry {
    /// Not asked yet this turn.
    #[default]
    Open,
    /// A figure went in: the count's move is asked next.
    CountToMove,
    /// Asked (or nothing to ask) this turn.
    Done,
}

impl Expansion for Count {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::Count)
    }

    /// The count in the castle, the quarters empty.
    fn new(config: &GameConfig, tiles: usize) -> Count {
        let room = if tiles == 0 {
            0
        } else {
            config.players as usize * 12
        };
        Count {
            inside: Vec::with_capacity(room),
            ..Count::default()
        }
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<Count>> {
        vec![
            ("CC3", |c| {
                c.count_at = match c.count_at {
                    Quarter::Castle => Quarter::Market,
                    _ => Quarter::Castle,
                }
            }),
            ("CC2", |c| {
                c.inside.push((Quarter::Cathedral, 0, Figure::Follower))
            }),
            ("CC3", |c| {
                c.entry = match c.entry {
                    CityEntry::Open => CityEntry::Done,
                    _ => CityEntry::Open,
                }
            }),
            ("CC4", |c| c.leave_round += 1),
            ("CC6", |c| c.final_next += 1),
            ("CC6", |c| c.final_out ^= 1),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        let count = &game.expansions.count;
        rows.count(count.count_at);
        for &(quarter, owner, figure) in &count.inside {
            rows.quarter_figures(quarter, Seat(owner), figure);
        }
    }

    /// CC1: the City's squares are the start.
    fn never_drawn(def: &TileDef) -> bool {
        def.set == TileSet::Count
    }

    /// CC8.
    #[inline]
    fn figure_barred_on(game: &Game, index: usize) -> bool {
        game.count_bars(index)
    }

    /// CC2: the City counts as one completed city for a field with a part on its
    /// squares.
    #[inline]
    fn field_extra_cities(game: &Game, root: NodeId) -> i32 {
        i32::from(game.field_touches_the_city(root))
    }

    #[inline]
    fn normalize(game: &Game, action: Action) -> Action {
        match action {
            Action::LeaveQuarter { .. } => game.normalize_leave(action),
            _ => action,
        }
    }

    #[inline]
    fn reset_turn(game: &mut Game) {
        game.count_turn_start();
    }

    /// CC4.
    #[inline]
    fn decision_before_scoring(game: &mut Game) -> bool {
        game.next_leave_decision()
    }

    /// CC3.
    #[inline]
    fn decision_after_scoring(game: &mut Game) -> bool {
        game.next_city_entry_decision()
    }

    #[inline]
    fn apply(game: &mut Game, player: u8, action: Action) -> Option<bool> {
        match action {
            Action::LeaveQuarter { .. }
            | Action::QuarterPass { .. }
            | Action::DeployQuarter { .. }
            | Action::MoveCount { .. } => {
                game.apply_count(player, action);
                Some(true)
            }
            _ => None,
        }
    }

    /// CC6.
    #[inline]
    fn before_final_moves(game: &mut Game) {
        game.begin_final_moves();
    }

    /// CC6.
    #[inline]
    fn final_move_decision(game: &mut Game) -> bool {
        game.next_final_move()
    }
}

impl Game {
    /// Applies a decision of the Count of Carcassonne: a figure leaving a quarter (CC4,
    /// CC6), entering one or the count moved (CC3), or one of them declined.
    #[inline]
    fn apply_count(&mut self, player: u8, action: Action) {
        self.record(player, action);
        match action {
            Action::LeaveQuarter {
                quarter,
                figure,
                pos,
                feature,
                ..
            } => self.leave_quarter(player, quarter, figure, pos, feature),
            Action::QuarterPass { step } => match step {
                QuarterStep::BeforeScoring => self.leave_round_passed(),
                QuarterStep::Final => self.final_passed(player),
                QuarterStep::Deploy | QuarterStep::Count => {}
            },
            Action::DeployQuarter { figure, quarter } => {
                self.enter_quarter(figure, quarter);
                self.expansions.count.entry = CityEntry::CountToMove;
            }
            Action::MoveCount { quarter } => self.move_count(quarter),
            _ => unreachable!("not a Count decision"),
        }
    }

    fn count_on(&self) -> bool {
        self.has_set(TileSet::Count)
    }

    /// The quarter where the count stands (with the Count in play).
    pub fn count_quarter(&self) -> Option<Quarter> {
        self.count_on().then_some(self.expansions.count.count_at)
    }

    /// The figures in the quarters of the City of Carcassonne: (quarter, owner, figure).
    pub fn quarter_figures(&self) -> &[(Quarter, u8, Figure)] {
        &self.expansions.count.inside
    }

    /// Whether placement `index` is one of the twelve squares of the City (laid first).
    fn count_square(&self, index: usize) -> bool {
        self.count_on() && index < 12
    }

    /// CC8: whether no figure and no dragon may enter placement `index`: every square of
    /// the City (`closed`), or only the walled city's two (`open`).
    pub(crate) fn count_bars(&self, index: usize) -> bool {
        if !self.count_square(index) {
            return false;
        }
        match self.rules.count_landscape {
            CountLandscape::Closed => true,
            CountLandscape::Open => {
                let def = self.board.placement(index).def();
                def.features.is_empty() || def.has(Symbols::COUNT_QUARTERS)
            }
        }
    }

    /// CC2: whether the field of root `root` has a part on the City's squares (the City
    /// then counts as one completed city for it).
    #[inline]
    fn field_touches_the_city(&self, root: NodeId) -> bool {
        self.features
            .parts(root)
            .any(|id| self.count_square(self.features.node(id).placement as usize))
    }

    /// The part that names the feature of `root` in quarter moves: its first part on a
    /// square that figures may enter; `None` if it has none.
    fn canonical_part(&self, root: NodeId) -> Option<(Pos, u8)> {
        self.features
            .parts(root)
            .filter(|id| !self.figure_barred_on(self.features.node(*id).placement as usize))
            .min()
            .map(|id| self.node_name(id))
    }

    /// The listed form of a quarter move naming its target feature by any of its parts:
    /// the canonical part.
    #[inline]
    fn normalize_leave(&self, action: Action) -> Action {
        let Action::LeaveQuarter {
            step,
            quarter,
            figure,
            pos,
            feature,
        } = action
        else {
            return action;
        };
        let Some(p) = self.board.at(pos) else {
            return action;
        };
        if feature as usize >= p.def().features.len() {
            return action;
        }
        let root = self.features.root(p.node_base + feature as NodeId);
        match self.canonical_part(root) {
            Some((pos, feature)) => Action::LeaveQuarter {
                step,
                quarter,
                figure,
                pos,
                feature,
            },
            None => action,
        }
    }

    /// Pushes a `LeaveQuarter` action of `figure` from `quarter` onto the feature of
    /// `root`, if it has a part figures may enter.
    fn push_leave(
        &self,
        step: QuarterStep,
        quarter: Quarter,
        figure: Figure,
        root: NodeId,
        out: &mut Vec<Action>,
    ) {
        if let Some((pos, feature)) = self.canonical_part(root) {
            let action = Action::LeaveQuarter {
                step,
                quarter,
                figure,
                pos,
                feature,
            };
            if !out.contains(&action) {
                out.push(action);
            }
        }
    }

    /// The figures `seat` may take out of the City now: (quarter, figure), each once,
    /// never from the count's quarter (CC5).
    fn movable(&self, seat: u8) -> impl Iterator<Item = (Quarter, Figure)> + '_ {
        let c = &self.expansions.count;
        c.inside
            .iter()
            .enumerate()
            .filter(move |(i, (q, owner, f))| {
                *owner == seat
                    && *q != c.count_at
                    && !c.inside[..*i]
                        .iter()
                        .any(|(q2, o2, f2)| q2 == q && o2 == owner && f2 == f)
            })
            .map(|(_, (q, _, f))| (*q, *f))
    }

    /// Whether `figure` leaving `quarter` may stand on a feature of `kind` (CC4, CC7).
    fn leaves_for(quarter: Quarter, figure: Figure, kind: FeatureKind) -> bool {
        Quarter::of(kind) == Some(quarter)
            && match figure {
                Figure::Mayor => kind == FeatureKind::City,
                Figure::Abbot => kind.is_monastery_like(),
                _ => true,
            }
    }

    /// CC4: the moves of `seat` out of the City onto features about to score this turn:
    /// the completed ones, and the fields a barn scores (AM7, AM8).
    fn leave_actions(&self, seat: u8, out: &mut Vec<Action>) {
        for (quarter, figure) in self.movable(seat) {
            for &root in self.turn_completed() {
                let kind = self.features.node(root).kind;
                if Game::leaves_for(quarter, figure, kind) {
                    self.push_leave(QuarterStep::BeforeScoring, quarter, figure, root, out);
                }
            }
            if quarter == Quarter::Market {
                let mut fields = [NodeId::MAX; 8];
                for root in self.barn_scored_fields(&mut fields) {
                    self.push_leave(QuarterStep::BeforeScoring, quarter, figure, root, out);
                }
            }
        }
    }

    /// CC6: the moves of `seat` out of the City before final scoring: the market onto a
    /// field without a barn, and with `any-quarter` the other quarters onto incomplete
    /// features of their kind.
    fn final_actions(&self, seat: u8, out: &mut Vec<Action>) {
        for (quarter, figure) in self.movable(seat) {
            if quarter != Quarter::Market && self.rules.count_final == CountFinal::MarketOnly {
                continue;
            }
            for id in 0..self.features.len() as NodeId {
                if self.features.root(id) != id {
                    continue;
                }
                let node = self.features.node(id);
                let open = match node.kind {
                    FeatureKind::Field => node.barns == 0,
                    _ => !self.is_complete(id),
                };
                if open && Game::leaves_for(quarter, figure, node.kind) {
                    self.push_leave(QuarterStep::Final, quarter, figure, id, out);
                }
            }
        }
    }

    /// Takes `seat`'s `figure` out of `quarter` and stands it on `(pos, feature)`.
    fn leave_quarter(&mut self, seat: u8, quarter: Quarter, figure: Figure, pos: Pos, feature: u8) {
        let c = &mut self.expansions.count;
        let k = c
            .inside
            .iter()
            .position(|x| *x == (quarter, seat, figure))
            .expect("the figure is in the quarter");
        c.inside.remove(k);
        let index = self.board.index_at(pos).expect("a tile there") as u8;
        let node = self.board.placement(index as usize).node_base + feature as NodeId;
        let root = self.features.find(node);
        self.features.node_mut(root).figures += 1;
        self.figures.push(BoardFigure {
            owner: seat,
            figure,
            placement: index,
            local: feature,
            node,
        });
    }

    /// CC3, CC4: a new turn; nobody has been asked yet.
    #[inline]
    fn count_turn_start(&mut self) {
        self.expansions.count.leave_round = 1;
        self.expansions.count.entry = CityEntry::Open;
    }

    /// CC4: asks the next seat (from the left of the turn player, the turn player last)
    /// that can move a figure out of the City; `false` when everyone is done.
    #[inline]
    fn next_leave_decision(&mut self) -> bool {
        while self.expansions.count.leave_round <= self.players {
            let seat = (self.turn_player + self.expansions.count.leave_round) % self.players;
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            self.leave_actions(seat, &mut legal);
            if !legal.is_empty() {
                legal.push(Action::QuarterPass {
                    step: QuarterStep::BeforeScoring,
                });
                self.legal = legal;
                self.phase = Phase::LeaveQuarter;
                self.to_play = seat;
                return true;
            }
            self.legal = legal;
            self.expansions.count.leave_round += 1;
        }
        false
    }

    /// CC3, after the turn's scoring and wagon moves: asks the turn player whether he
    /// puts a figure into the City, if he may, and then, if he did, where the count goes;
    /// `false` when there is nothing (more) to ask this turn.
    #[inline]
    fn next_city_entry_decision(&mut self) -> bool {
        match self.expansions.count.entry {
            CityEntry::Open => {
                self.expansions.count.entry = CityEntry::Done;
                if !self.may_enter_city() {
                    return false;
                }
                self.ask_turn_player(
                    Phase::EnterQuarter,
                    Game::enter_actions,
                    QuarterStep::Deploy,
                );
                true
            }
            CityEntry::CountToMove => {
                self.expansions.count.entry = CityEntry::Done;
                self.ask_turn_player(Phase::MoveCount, Game::count_moves, QuarterStep::Count);
                true
            }
            CityEntry::Done => false,
        }
    }

    /// CC3: asks the turn player a decision of `phase` on the City: the actions `list`
    /// gives, or declining at `step`.
    fn ask_turn_player(
        &mut self,
        phase: Phase,
        list: fn(&Game, &mut Vec<Action>),
        step: QuarterStep,
    ) {
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        list(self, &mut legal);
        legal.push(Action::QuarterPass { step });
        self.legal = legal;
        self.phase = phase;
        self.to_play = self.turn_player;
    }

    /// CC4: the asked seat is done moving figures out this turn.
    fn leave_round_passed(&mut self) {
        self.expansions.count.leave_round += 1;
    }

    /// CC3: whether the turn player may put a figure into the City now: the turn made
    /// another player score for features and him not, and he has a figure the City takes.
    fn may_enter_city(&self) -> bool {
        let me = 1u8 << self.turn_player;
        let scorers = self.turn.feature_scorers;
        scorers & me == 0 && scorers != 0 && self.entries().next().is_some()
    }

    /// CC3, CC7: the (figure, quarter) pairs the turn player may put into the City.
    fn entries(&self) -> impl Iterator<Item = (Figure, Quarter)> + '_ {
        let seat = self.turn_player as usize;
        [
            Figure::Follower,
            Figure::Abbot,
            Figure::Mayor,
            Figure::Wagon,
            Figure::BigFollower,
        ]
        .into_iter()
        .filter(move |f| self.supply[seat][f.index()] > 0)
        .flat_map(|figure| Quarter::ALL.into_iter().map(move |q| (figure, q)))
        .filter(|(figure, q)| q.admits(*figure) && (*q != Quarter::Market || self.rules.farmers))
    }

    /// CC3: `DeployQuarter` actions of the turn player.
    fn enter_actions(&self, out: &mut Vec<Action>) {
        out.extend(
            self.entries()
                .map(|(figure, quarter)| Action::DeployQuarter { figure, quarter }),
        );
    }

    /// CC3: puts the turn player's `figure` from his supply into `quarter`.
    fn enter_quarter(&mut self, figure: Figure, quarter: Quarter) {
        let seat = self.turn_player;
        self.supply[seat as usize][figure.index()] -= 1;
        self.expansions.count.inside.push((quarter, seat, figure));
    }

    /// CC3: `MoveCount` actions: every other quarter.
    fn count_moves(&self, out: &mut Vec<Action>) {
        for quarter in Quarter::ALL {
            if quarter != self.expansions.count.count_at {
                out.push(Action::MoveCount { quarter });
            }
        }
    }

    /// CC3: moves the count.
    fn move_count(&mut self, quarter: Quarter) {
        self.expansions.count.count_at = quarter;
    }

    /// CC6: the final round starts with the seat after the one that placed the last tile.
    #[inline]
    fn begin_final_moves(&mut self) {
        let c = &mut self.expansions.count;
        c.final_next = 1;
        c.final_out = 0;
    }

    /// CC6: asks the next seat, in turn order, that has not passed and can move a figure
    /// out of the City; seats that cannot are out. `false` when everyone is out.
    #[inline]
    fn next_final_move(&mut self) -> bool {
        let all = (1u16 << self.players) - 1;
        while u16::from(self.expansions.count.final_out) != all {
            let seat = (self.end_from + self.expansions.count.final_next) % self.players;
            self.expansions.count.final_next = self.expansions.count.final_next % self.players + 1;
            if self.expansions.count.final_out & (1 << seat) != 0 {
                continue;
            }
            let mut legal = std::mem::take(&mut self.legal);
            legal.clear();
            self.final_actions(seat, &mut legal);
            if legal.is_empty() {
                self.legal = legal;
                self.expansions.count.final_out |= 1 << seat;
                continue;
            }
            legal.push(Action::QuarterPass {
                step: QuarterStep::Final,
            });
            self.legal = legal;
            self.phase = Phase::LeaveQuarter;
            self.to_play = seat;
            return true;
        }
        false
    }

    /// CC6: `seat` passed and is out of the final round.
    fn final_passed(&mut self, seat: u8) {
        self.expansions.count.final_out |= 1 << seat;
    }
}
