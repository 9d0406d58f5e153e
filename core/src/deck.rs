//! The draw pile: tiles left per kind, drawn in stages (the River first: River II's fork,
//! then the river tiles, then the lakes, R1; then everything else), with dragon tiles
//! held back while the dragon is not on the board (PD3).

use crate::config::GameConfig;
use crate::rng::Rng;
use crate::tiles::{catalogue, FeatureKind, RoadEnd, Symbols, TileKind, TileSet};

/// Stages of the pile, drawn in order.
const STAGES: usize = 4;

/// Tiles left to draw.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    counts: Vec<u8>,
    stage_of: Vec<u8>,
    dragon: Vec<bool>,
    stage_totals: [u32; STAGES],
    /// Catalogue indices of the kinds in the pile at the start, in catalogue order.
    in_play: Vec<u8>,
    /// Whether any dragon tile is in the game (PD3 applies).
    any_dragon: bool,
}

/// The River stage of a kind: 0 River II's fork, 1 river tiles, 2 lakes, 3 the rest.
fn stage(kind: TileKind) -> u8 {
    let def = kind.def();
    if !def.has(Symbols::RIVER) {
        return 3;
    }
    let river = def.features.iter().find(|f| f.kind == FeatureKind::River);
    match river {
        Some(f) if f.road_end == Some(RoadEnd::Lake) => 2,
        Some(f) if f.side_mask().count_ones() == 3 => 0,
        _ => 1,
    }
}

impl Deck {
    /// The pile for a configuration: every tile of the sets in play in the edition's
    /// counts, less the start tile, and with River I and II together River II's spring
    /// only and no River I lake (R4).
    pub fn new(config: &GameConfig) -> Deck {
        let cat = catalogue();
        let mut counts = vec![0u8; cat.len()];
        for kind in cat.kinds() {
            if config.has(kind.def().set) {
                counts[kind.index()] = config.edition.count(kind);
            }
        }
        let (start, _) = config.start_tile();
        counts[start.index()] = counts[start.index()].saturating_sub(1);
        let by_id = |id: &str| cat.by_id(id).expect("river tile in catalogue").index();
        if config.has(TileSet::River1) && config.has(TileSet::River2) {
            counts[by_id("RIV1-SPRING")] = 0;
            counts[by_id("RIV1-LAKE")] = 0;
        }
        // A spring is only ever the start tile; abbey tiles are in the players' hands (AM1).
        for kind in cat.kinds() {
            if kind.def().has(Symbols::ABBEY) {
                counts[kind.index()] = 0;
            }
            let spring = kind
                .def()
                .features
                .iter()
                .any(|f| f.kind == FeatureKind::River && f.road_end == Some(RoadEnd::Spring));
            if spring {
                counts[kind.index()] = 0;
            }
        }
        let stage_of: Vec<u8> = cat.kinds().map(stage).collect();
        let dragon: Vec<bool> = cat
            .kinds()
            .map(|k| config.has(TileSet::PrincessDragon) && k.def().has(Symbols::DRAGON))
            .collect();
        let mut stage_totals = [0; STAGES];
        for (i, c) in counts.iter().enumerate() {
            stage_totals[stage_of[i] as usize] += *c as u32;
        }
        let in_play = (0..counts.len())
            .filter(|i| counts[*i] > 0)
            .map(|i| i as u8)
            .collect();
        let any_dragon = dragon.iter().any(|d| *d);
        Deck {
            counts,
            stage_of,
            dragon,
            stage_totals,
            in_play,
            any_dragon,
        }
    }

    /// Tiles left per kind (catalogue index).
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// Tiles left.
    pub fn total(&self) -> u32 {
        self.stage_totals.iter().sum()
    }

    fn current_stage(&self) -> Option<u8> {
        self.stage_totals
            .iter()
            .position(|t| *t > 0)
            .map(|s| s as u8)
    }

    /// Whether a kind may be drawn now: in the current stage, and not a dragon tile while
    /// the dragon is off the board unless nothing else is left in the stage (PD3).
    fn drawable(&self, i: usize, stage: u8, hold_dragons: bool) -> bool {
        self.counts[i] > 0 && self.stage_of[i] == stage && !(hold_dragons && self.dragon[i])
    }

    fn holds_dragons(&self, stage: u8, dragon_on_board: bool) -> bool {
        if dragon_on_board || !self.any_dragon {
            return false;
        }
        // Hold dragon tiles back only while something else can be drawn.
        self.in_play
            .iter()
            .any(|i| self.drawable(*i as usize, stage, true))
    }

    /// The kinds that may be drawn now with their probabilities.
    pub fn outcomes(&self, dragon_on_board: bool) -> Vec<(TileKind, f64)> {
        let Some(stage) = self.current_stage() else {
            return Vec::new();
        };
        let hold = self.holds_dragons(stage, dragon_on_board);
        let drawable = || {
            self.in_play
                .iter()
                .map(|i| *i as usize)
                .filter(move |i| self.drawable(*i, stage, hold))
        };
        let total: u32 = drawable().map(|i| self.counts[i] as u32).sum();
        drawable()
            .map(|i| (TileKind(i as u8), self.counts[i] as f64 / total as f64))
            .collect()
    }

    /// Draws a tile at random among those that may be drawn now. The pile must not be empty.
    pub fn draw(&mut self, rng: &mut Rng, dragon_on_board: bool) -> TileKind {
        let stage = self.current_stage().expect("draw from a non-empty pile");
        let hold = self.holds_dragons(stage, dragon_on_board);
        let total: u32 = if hold || stage != STAGES as u8 - 1 {
            self.in_play
                .iter()
                .map(|i| *i as usize)
                .filter(|i| self.drawable(*i, stage, hold))
                .map(|i| self.counts[i] as u32)
                .sum()
        } else {
            self.stage_totals[stage as usize]
        };
        let mut r = rng.below(total);
        for &i in &self.in_play {
            let i = i as usize;
            if self.drawable(i, stage, hold) {
                let c = self.counts[i] as u32;
                if r < c {
                    let kind = TileKind(i as u8);
                    self.take(kind);
                    return kind;
                }
                r -= c;
            }
        }
        unreachable!("the draw falls inside the total")
    }

    /// Removes one tile of `kind` from the pile.
    pub fn take(&mut self, kind: TileKind) {
        let i = kind.index();
        debug_assert!(self.counts[i] > 0);
        self.counts[i] -= 1;
        self.stage_totals[self.stage_of[i] as usize] -= 1;
    }
}
