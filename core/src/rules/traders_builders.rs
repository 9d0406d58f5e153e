//! Traders & Builders (TB1–TB6), active with the `traders-and-builders` set.
//!
//! * TB1: a city part with trade goods (wine, grain, cloth) carries one token; the player
//!   whose placement (tile or abbey) completes a city takes all its tokens, whether or
//!   not he has a figure in it. A city turned into a castle (CA1) is not completed.
//! * TB2: at the end, for each kind of goods, every player holding the most tokens of
//!   it (at least one) scores 10.
//! * TB3: as his figure action a player may put his builder (`deploy` with
//!   `figure: "builder"`) on an incomplete road or city of the placed tile that holds
//!   one of his followers, big followers, mayors or wagons.
//! * TB4: placing a tile (not an abbey) that adds to a road or city holding his builder
//!   gives the player one extra turn at once (the kernel's `another_turn` step), also
//!   when the tile completes it; an extra turn gives no other; with the pile empty only
//!   for an abbey. The fairy's point and the ransom come once for both parts.
//! * TB5: as his figure action a player may put his pig on a field of the placed tile
//!   that holds one of his farmers (follower or big follower); a field scored for him
//!   (B16, AM7, AM8) then gives him 1 more point per completed city (and castle); the
//!   pig herd's point (R5) comes on top. Not at the barns' final scoring (AM9).
//! * TB6: builders and pigs are no followers: they count in no majority, block no
//!   deployment (B7), take no portal (PD12), no fairy (PD15), no City of Carcassonne
//!   (CC7), no castle (CA1), and the dragon eats them (PD7). They go back to the supply
//!   when their feature scores and as soon as their owner has no figure of TB3's kinds
//!   (TB5's for a pig) left in the feature (princess, dragon, tower, scoring).
//!
//! The switch `volcano_specials` (PD1) says whether builders and pigs may go on a
//! volcano tile (`allowed`) or not (`forbidden`, the default).

use crate::action::Action;
use crate::config::{ConfigError, Figure, Figures, GameConfig, MAX_FOLLOWERS, MAX_PLAYERS};
use crate::features::NodeId;
use crate::game::{Game, ReturnCause, ScoreKind};
use crate::rules::state::{Seat, StateWriter};
use crate::rules::{Expansion, FigureCounts, TurnEnd};
use crate::tiles::{FeatureKind, Goods, Symbols, TileSet};

crate::named_enum! {
    /// Whether builders and pigs may go on a volcano tile (PD1 with TB3, TB5).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub enum VolcanoSpecials {
        /// Never, like every other figure (default; seed 000's list of interactions).
        #[default]
        Forbidden = "forbidden",
        /// Builders and pigs may go on the volcano tile just placed (seed 000's
        /// translation of the rulebook).
        Allowed = "allowed",
    }
}

crate::rules::state::state_tables! {
    expansion: "traders-and-builders";
    /// The goods tokens each seat holds (TB1), whose majorities score at the end (TB2).
    /// The builders and pigs are figures: on the board and in the supplies.
    goods: PerSeat {
        /// The seat.
        seat: Seat,
        /// Its wine tokens.
        wine: u8,
        /// Its grain tokens.
        grain: u8,
        /// Its cloth tokens.
        cloth: u8,
    },
}

/// The points for the most tokens of a kind of goods at the end of the game (TB2).
pub const GOODS_MAJORITY: i32 = 10;

/// The state of Traders & Builders: the goods each player holds and the extra turn a
/// builder earned this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct TradersBuilders {
    /// Goods tokens each seat holds, by [`Goods`] (TB1).
    goods: [[u8; Goods::ALL.len()]; MAX_PLAYERS],
    /// The turn's tile added to a road or city holding the turn player's builder (TB4).
    extra_turn_earned: bool,
}

impl Expansion for TradersBuilders {
    fn in_play(config: &GameConfig) -> bool {
        config.has(TileSet::TradersBuilders)
    }

    fn new(_: &GameConfig, _: usize) -> TradersBuilders {
        TradersBuilders::default()
    }

    #[cfg(test)]
    fn hash_probes() -> Vec<crate::rules::HashProbe<TradersBuilders>> {
        vec![
            ("TB1", |t| t.goods[0][0] ^= 1),
            ("TB4", |t| t.extra_turn_earned ^= true),
        ]
    }

    const STATE_TABLES: &'static [crate::rules::state::StateTable] = STATE_TABLES;

    fn write_state(game: &Game, out: &mut StateWriter<'_>) {
        let mut rows = StateRows(out);
        for seat in 0..game.num_players() {
            let [wine, grain, cloth] = game.expansions.traders.goods[seat];
            rows.goods(Seat(seat as u8), wine, grain, cloth);
        }
    }

    /// TB3, TB5: with the set, each player has one builder and one pig by default.
    fn default_figures(sets: &[TileSet], counts: &mut FigureCounts) {
        if sets.contains(&TileSet::TradersBuilders) {
            counts[Figures::FIGURE_KEYS[Figure::Builder.index()]] = 1;
            counts[Figures::FIGURE_KEYS[Figure::Pig.index()]] = 1;
        }
    }

    /// TB3, TB5: at most one builder and one pig, and none without the set.
    fn check_config(config: &GameConfig) -> Result<(), ConfigError> {
        for figure in [Figure::Builder, Figure::Pig] {
            let n = config.figures.of(figure);
            let field = || format!("figures.{}", figure.name());
            if n > 1 {
                return Err(ConfigError::new(
                    field(),
                    format!("{n}; at most 1 (TB3, TB5)"),
                ));
            }
            if n > 0 && !config.has(TileSet::TradersBuilders) {
                return Err(ConfigError::new(
                    field(),
                    "needs the traders-and-builders set",
                ));
            }
        }
        Ok(())
    }

    #[inline]
    fn reset_turn(game: &mut Game) {
        game.expansions.traders.extra_turn_earned = false;
    }

    /// TB4.
    #[inline]
    fn on_tile_placed(game: &mut Game, index: u8) {
        game.builder_extends(index);
    }

    /// TB3, TB5.
    #[inline]
    fn deploy_options(game: &Game, out: &mut Vec<Action>) {
        game.builder_and_pig_deploys(out);
    }

    /// TB5.
    #[inline]
    fn field_bonus_per_city(game: &Game, root: NodeId, player: u8) -> i32 {
        i32::from(game.has_pig_in(root, player))
    }

    /// TB6: builders and pigs whose followers left during the figure action or the
    /// dragon's flight go back before the turn scores.
    #[inline]
    fn decision_before_scoring(game: &mut Game) -> bool {
        game.return_unaccompanied(ReturnCause::Unaccompanied);
        false
    }

    /// TB1; TB6: builders and pigs of the features that scored go back (also of the
    /// fields a barn scored, AM7, AM8), after their followers.
    #[inline]
    fn on_turn_scored(game: &mut Game, roots: &[NodeId], _scored: &[NodeId]) {
        game.take_goods(roots);
        game.return_unaccompanied(ReturnCause::Scored);
    }

    /// TB6, after a dragon's flight at the end of the turn (PD4 `after-scoring`).
    #[inline]
    fn at_end_of_turn(game: &mut Game) -> TurnEnd {
        game.return_unaccompanied(ReturnCause::Unaccompanied);
        TurnEnd::Done
    }

    /// TB4.
    #[inline]
    fn another_turn(game: &Game) -> bool {
        game.extra_turn_due()
    }

    /// TB4: an extra turn earned when the pile ran out, with no abbey to place, is lost.
    #[inline]
    fn on_game_end(game: &mut Game) {
        game.expansions.traders.extra_turn_earned = false;
    }

    /// TB2; the builders and pigs leave the board with the other figures (B15).
    #[inline]
    fn final_scoring(game: &mut Game) {
        game.goods_majorities();
        game.return_builders_and_pigs();
    }
}

/// Most figures of one player that keep a builder company: his followers, and at most one
/// big follower (IC1), mayor and wagon (AM5, AM10).
const COMPANIONS: usize = MAX_FOLLOWERS as usize + 3;

/// Whether `figure` keeps a builder (TB3) or a pig (TB5) of the same owner in its
/// feature.
const fn accompanies(special: Figure, figure: Figure) -> bool {
    match special {
        Figure::Builder => matches!(
            figure,
            Figure::Follower | Figure::BigFollower | Figure::Mayor | Figure::Wagon
        ),
        Figure::Pig => matches!(figure, Figure::Follower | Figure::BigFollower),
        _ => false,
    }
}

impl Game {
    /// Whether the turn in progress is the turn player's extra turn, earned by his
    /// builder (TB4).
    pub fn in_extra_turn(&self) -> bool {
        self.extra_turn
    }

    /// Goods tokens of kind `goods` that `player` holds (TB1).
    pub fn goods_held(&self, player: usize, goods: Goods) -> u8 {
        if !self.has_set(TileSet::TradersBuilders) || player >= self.num_players() {
            return 0;
        }
        self.expansions.traders.goods[player][goods as usize]
    }

    /// Whether `owner` has a figure that keeps his `special` (builder or pig) on the
    /// feature of `root` (TB3, TB5).
    fn accompanied(&self, owner: u8, special: Figure, root: NodeId) -> bool {
        self.figures.iter().any(|f| {
            f.owner == owner && accompanies(special, f.figure) && self.features.root(f.node) == root
        })
    }

    /// TB5: whether `player`'s pig stands in the field of `root`.
    fn has_pig_in(&self, root: NodeId, player: u8) -> bool {
        self.figures.iter().any(|f| {
            f.owner == player && f.figure == Figure::Pig && self.features.root(f.node) == root
        })
    }

    /// TB3, TB5: the builder onto each incomplete road or city of the placed tile that
    /// holds one of the turn player's followers, big followers, mayors or wagons; the
    /// pig onto each field of it that holds one of his farmers. Never through a portal
    /// nor onto a tile where no figure may go (PD13b, CC8), nor a volcano tile unless
    /// `volcano_specials` allows it (PD1).
    fn builder_and_pig_deploys(&self, out: &mut Vec<Action>) {
        let Some(placed) = self.turn.placed else {
            return;
        };
        let player = self.turn_player;
        let supply = &self.supply[player as usize];
        let (builders, pigs) = (
            supply[Figure::Builder.index()] > 0,
            supply[Figure::Pig.index()] > 0,
        );
        if !builders && !pigs {
            return;
        }
        // The roots of the features holding the turn player's figures that keep a builder
        // company, each with whether the figure keeps a pig company too (a follower or a
        // big follower): one pass over the figures, not one a feature of the tile.
        let mut companions = [(0 as NodeId, false); COMPANIONS];
        let mut n = 0;
        for f in &self.figures {
            if f.owner == player && accompanies(Figure::Builder, f.figure) {
                let pig = accompanies(Figure::Pig, f.figure);
                companions[n] = (self.features.root(f.node), pig);
                n += 1;
            }
        }
        if n == 0 {
            return;
        }
        let accompanied = |special: Figure, root: NodeId| {
            let pig = special == Figure::Pig;
            companions[..n]
                .iter()
                .any(|&(r, keeps_pig)| r == root && (keeps_pig || !pig))
        };
        let index = placed as usize;
        let volcano = self.board.placement(index).def().has(Symbols::VOLCANO);
        let barred = if volcano && self.rules.volcano_specials == VolcanoSpecials::Allowed {
            // The dragon that came onto the volcano (PD2) bars followers only.
            false
        } else {
            self.figure_barred_on(index)
        };
        if barred {
            return;
        }
        let p = self.board.placement(index);
        for local in 0..self.tile_features(index) {
            let root = self.features.root(p.node_base + local as NodeId);
            let special = match self.features.node(root).kind {
                FeatureKind::Road | FeatureKind::City if builders => Figure::Builder,
                FeatureKind::Field if pigs => Figure::Pig,
                _ => continue,
            };
            if special == Figure::Builder && self.is_complete(root) {
                continue;
            }
            if accompanied(special, root) {
                out.push(Action::Deploy {
                    figure: special,
                    pos: p.pos,
                    feature: local,
                });
            }
        }
    }

    /// TB4: the tile just placed at `index` (not an abbey) adds to a road or city holding
    /// the turn player's builder; not in an extra turn.
    fn builder_extends(&mut self, index: u8) {
        if self.extra_turn || self.expansions.traders.extra_turn_earned {
            return;
        }
        let player = self.turn_player;
        let Some(builder) = self
            .figures
            .iter()
            .find(|f| f.owner == player && f.figure == Figure::Builder)
        else {
            return;
        };
        let root = self.features.root(builder.node);
        let p = self.board.placement(index as usize);
        let extends = (0..self.tile_features(index as usize))
            .any(|local| self.features.root(p.node_base + local as NodeId) == root);
        self.expansions.traders.extra_turn_earned = extends;
    }

    /// TB4: whether the turn player takes his extra turn when this part of his turn
    /// ends: earned this turn (the flag goes with the turn's state, reset when the next
    /// part or turn starts), and a tile to draw or his abbey to place.
    fn extra_turn_due(&self) -> bool {
        self.expansions.traders.extra_turn_earned
            && (self.deck.total() > 0
                || (self.has_set(TileSet::AbbeyMayor) && self.abbey_possible(self.turn_player)))
    }

    /// TB1: the turn player takes the goods of every city the turn completed (not a
    /// castle, CA1).
    fn take_goods(&mut self, roots: &[NodeId]) {
        let player = self.turn_player as usize;
        for &root in roots {
            let root = self.features.find(root);
            if self.features.node(root).kind != FeatureKind::City
                || !self.is_complete(root)
                || self.is_castle(root)
            {
                continue;
            }
            let mut id = root;
            loop {
                let part = self.features.node(id);
                let def = self.board.placement(part.placement as usize).def();
                // Parts beyond the catalogue's (a bridge, BR3) carry no goods.
                if let Some(goods) = def.features.get(part.local as usize).and_then(|f| f.goods) {
                    self.expansions.traders.goods[player][goods as usize] += 1;
                }
                id = self.next_part(id);
                if id == root {
                    break;
                }
            }
        }
    }

    /// TB6: every builder or pig whose owner has no figure of its companion kinds left
    /// in its feature goes back to the supply, for `cause`: `Scored` right after the
    /// turn's scoring took the followers back, `Unaccompanied` when they were removed.
    fn return_unaccompanied(&mut self, cause: ReturnCause) {
        // Every builder and pig was accompanied at the last check, and no figure has
        // left the board or come onto it since (`Game::figures_changed`).
        if !self.figures_changed {
            return;
        }
        let mut k = 0;
        while k < self.figures.len() {
            let f = self.figures[k];
            if matches!(f.figure, Figure::Builder | Figure::Pig) {
                let root = self.features.root(f.node);
                if !self.accompanied(f.owner, f.figure, root) {
                    self.return_figure(k, cause);
                    continue;
                }
            }
            k += 1;
        }
        // Returning builders and pigs takes no companion away: the rest stay accompanied.
        self.figures_changed = false;
    }

    /// The builders and pigs still on the board go back at final scoring.
    fn return_builders_and_pigs(&mut self) {
        let mut k = 0;
        while k < self.figures.len() {
            if matches!(self.figures[k].figure, Figure::Builder | Figure::Pig) {
                self.return_figure(k, ReturnCause::FinalScoring);
            } else {
                k += 1;
            }
        }
    }

    /// TB2: 10 points to every player with the most tokens of each kind (at least one).
    fn goods_majorities(&mut self) {
        let players = self.players as usize;
        for goods in Goods::ALL {
            let held = |p: usize| self.expansions.traders.goods[p][goods as usize];
            let most = (0..players).map(held).max().unwrap_or(0);
            if most == 0 {
                continue;
            }
            for p in 0..players {
                if self.expansions.traders.goods[p][goods as usize] == most {
                    self.add_score(p as u8, GOODS_MAJORITY, ScoreKind::Goods, None, None);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "../tests/unit/traders_builders.rs"]
mod tests;
