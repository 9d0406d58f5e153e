//! The draw pile: tiles left per kind, drawn in stages (the River first: River II's fork,
//! then the river tiles, then the lakes, R1; then everything else), with the tiles that
//! an expansion holds back kept apart while it does (dragon tiles while the dragon is not
//! on the board, PD3).
//!
//! What goes into the pile is the expansions' to say, through the registry
//! ([`crate::rules`]): kinds never drawn (start tiles, tiles in hand), kinds held back,
//! counts changed by a combination of sets (R4), and a tile set aside for an expansion
//! to take (R6).
//!
//! Each stage is a list of the tiles it holds (held-back tiles of the last stage apart),
//! so a sampled draw is one random index into it; the counts per kind are kept beside it for
//! chance outcomes and observations. Every list stays sorted by catalogue index, so the
//! pile is a function of the counts alone, whatever the order of the draws that left
//! them: a game replayed from its record (draws named by kind) holds the very pile of the
//! game that wrote it, and with the saved generator state goes on with the same draws.

use crate::config::{Edition, GameConfig, RuleSwitches};
use crate::geometry::Rotation;
use crate::rng::Rng;
use crate::tiles::{catalogue, FeatureKind, RoadEnd, TileKind, TileSet};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Stages of the pile, drawn in order.
const STAGES: usize = 4;
/// The stage of everything that is not a River tile.
const LAST: usize = STAGES - 1;

/// What the pile needs to know of a kind, computed once from the catalogue.
#[derive(Copy, Clone, Debug)]
struct KindInfo {
    /// River stage: 0 River II's fork, 1 river tiles, 2 lakes, 3 the rest.
    stage: u8,
    /// Held back by an expansion (dragon tiles, PD3).
    held_back: bool,
    /// Never in the pile (an expansion's start tiles or tiles in hand).
    never_drawn: bool,
    /// Bit of the kind's set (`TileSet::bit`).
    set_bit: u16,
    /// Copies in editions C1, C2, C3 (`Edition::count`).
    counts: [u8; 3],
}

fn kind_info() -> &'static [KindInfo] {
    static INFO: OnceLock<Vec<KindInfo>> = OnceLock::new();
    INFO.get_or_init(|| {
        catalogue()
            .kinds()
            .map(|kind| {
                let def = kind.def();
                let river = def.features.iter().find(|f| f.kind == FeatureKind::River);
                let stage = match river {
                    None => LAST as u8,
                    Some(f) if f.road_end == Some(RoadEnd::Lake) => 2,
                    Some(f) if f.side_mask().count_ones() == 3 => 0,
                    Some(_) => 1,
                };
                KindInfo {
                    stage,
                    held_back: crate::rules::held_back(def),
                    never_drawn: crate::rules::never_drawn(def),
                    set_bit: def.set.bit(),
                    counts: [Edition::C1, Edition::C2, Edition::C3].map(|e| e.count(kind)),
                }
            })
            .collect()
    })
}

/// What the pile of a configuration depends on ([`Deck::new`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PileKey {
    sets: Vec<TileSet>,
    edition: Edition,
    rules: RuleSwitches,
    start: Option<(TileKind, Rotation)>,
}

impl PileKey {
    /// Whether the pile of `config` is the one of this key.
    fn matches(&self, config: &GameConfig) -> bool {
        let PileKey {
            sets,
            edition,
            rules,
            start,
        } = self;
        *sets == config.sets
            && *edition == config.edition
            && *rules == config.rules
            && *start == config.start
    }
}

/// Tiles left to draw.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Deck {
    counts: Vec<u8>,
    /// The tiles of each stage; the last stage without its held-back tiles.
    piles: [Vec<TileKind>; STAGES],
    /// Held-back tiles, drawn with the last stage when they are not held back.
    held_back: Vec<TileKind>,
    /// A tile kept out of the draws but still to be placed, set aside for an expansion
    /// (R6: the city lake, placed right after the volcano lake).
    held: Option<TileKind>,
    /// The catalogue indices of the kinds dealt into the pile: every count outside this
    /// range is 0 from the deal on (counts only go down), so the lists of drawable
    /// kinds look at these kinds only.
    dealt: std::ops::Range<usize>,
}

impl Clone for Deck {
    fn clone(&self) -> Deck {
        Deck {
            counts: self.counts.clone(),
            piles: self.piles.clone(),
            held_back: self.held_back.clone(),
            held: self.held,
            dealt: self.dealt.clone(),
        }
    }

    /// The copy in this deck's memory: no allocation once its lists are large enough.
    fn clone_from(&mut self, source: &Deck) {
        self.copy_from(source);
    }
}

impl Deck {
    /// The pile for a configuration: every tile of the sets in play in the edition's
    /// counts, less the start tile and as the expansions say (R4: with River I and II
    /// together, River II's spring only and no River I lake).
    ///
    /// The pile of the last configuration built on this thread is kept and copied for the
    /// next game of the same sets, edition, rules and start (what the pile depends on).
    pub fn new(config: &GameConfig) -> Deck {
        let mut deck = Deck::default();
        deck.refill(config);
        deck
    }

    /// Makes this deck the pile of a new game of `config` ([`Deck::new`]), in its own
    /// memory.
    pub fn refill(&mut self, config: &GameConfig) {
        thread_local! {
            static LAST: RefCell<Option<(PileKey, Deck)>> = const { RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if !matches!(last.as_ref(), Some((key, _)) if key.matches(config)) {
                let key = PileKey {
                    sets: config.sets.clone(),
                    edition: config.edition,
                    rules: config.rules,
                    start: config.start,
                };
                *last = Some((key, Deck::build(config)));
            }
            let (_, deck) = last.as_ref().expect("the pile of `config`, cached above");
            self.copy_from(deck);
        })
    }

    /// Makes this deck equal to `source`, in its own memory.
    fn copy_from(&mut self, source: &Deck) {
        let Deck {
            counts,
            piles,
            held_back,
            held,
            dealt,
        } = source;
        self.counts.clone_from(counts);
        for (pile, from) in self.piles.iter_mut().zip(piles) {
            pile.clone_from(from);
        }
        self.held_back.clone_from(held_back);
        self.held = *held;
        self.dealt = dealt.clone();
    }

    /// [`Deck::new`] built from the catalogue.
    fn build(config: &GameConfig) -> Deck {
        let cat = catalogue();
        let info = kind_info();
        let sets = config.sets.iter().fold(0u16, |acc, s| acc | s.bit());
        let edition = match config.edition {
            Edition::C1 => 0,
            Edition::C2 => 1,
            Edition::C3 => 2,
        };
        let mut counts: Vec<u8> = info
            .iter()
            .map(|k| {
                if sets & k.set_bit != 0 && !k.never_drawn {
                    k.counts[edition]
                } else {
                    0
                }
            })
            .collect();
        let (start, _) = config.start_tile();
        counts[start.index()] = counts[start.index()].saturating_sub(1);
        crate::rules::adjust_pile(config, &mut counts);
        let mut piles: [Vec<TileKind>; STAGES] = Default::default();
        let mut held_back = Vec::new();
        for (i, kind) in cat.kinds().enumerate() {
            let pile = if info[i].held_back {
                &mut held_back
            } else {
                &mut piles[info[i].stage as usize]
            };
            pile.extend(std::iter::repeat_n(kind, counts[i] as usize));
        }
        let mut held = None;
        if let Some(tile) = crate::rules::set_aside(config) {
            let pile = &mut piles[info[tile.index()].stage as usize];
            if let Some(k) = pile.iter().position(|t| *t == tile) {
                held = Some(pile.remove(k));
            }
        }
        let dealt = match counts.iter().position(|&c| c > 0) {
            Some(first) => first..counts.iter().rposition(|&c| c > 0).map_or(first, |l| l + 1),
            None => 0..0,
        };
        Deck {
            counts,
            piles,
            held_back,
            held,
            dealt,
        }
    }

    /// Takes the held tile (R6: the city lake after the volcano lake), if any.
    pub fn take_held(&mut self) -> Option<TileKind> {
        let tile = self.held.take()?;
        self.counts[tile.index()] -= 1;
        Some(tile)
    }

    /// Puts the held tile back among the draws of its stage (R6: the volcano lake fitted
    /// nowhere and was discarded, so the city lake is drawn like any river tile).
    pub fn release_held(&mut self) {
        if let Some(tile) = self.held.take() {
            let pile = &mut self.piles[kind_info()[tile.index()].stage as usize];
            let k = pile.partition_point(|t| *t < tile);
            pile.insert(k, tile);
        }
    }

    /// Tiles left per kind (catalogue index).
    pub fn counts(&self) -> &[u8] {
        &self.counts
    }

    /// Tiles left.
    pub fn total(&self) -> u32 {
        (self.piles.iter().map(Vec::len).sum::<usize>()
            + self.held_back.len()
            + usize::from(self.held.is_some())) as u32
    }

    /// Whether no tile is left (`total() == 0`), the last stage looked at first: it
    /// holds tiles until the last draws.
    pub fn is_empty(&self) -> bool {
        self.piles[LAST].is_empty()
            && self.held.is_none()
            && self.held_back.is_empty()
            && self.piles[..LAST].iter().all(Vec::is_empty)
    }

    fn current_stage(&self) -> Option<usize> {
        (0..LAST).find(|s| !self.piles[*s].is_empty()).or_else(|| {
            (!self.piles[LAST].is_empty() || !self.held_back.is_empty()).then_some(LAST)
        })
    }

    /// Whether the held-back tiles are held back now: an expansion holds them back
    /// (`hold_back`, PD3) and something else can be drawn.
    fn holds_back(&self, hold_back: bool) -> bool {
        hold_back && !self.piles[LAST].is_empty()
    }

    /// Tiles of kind `i` that a draw may give (the held tile is not drawn).
    fn drawable_count(&self, i: usize) -> u8 {
        self.counts[i] - u8::from(self.held.is_some_and(|h| h.index() == i))
    }

    /// Catalogue indices of the kinds that may be drawn now (river stages; held-back
    /// kinds while `hold_back`, PD3).
    fn drawable(&self, hold_back: bool) -> impl Iterator<Item = usize> + '_ {
        let stage = self.current_stage();
        let info = kind_info();
        let hold = stage == Some(LAST) && self.holds_back(hold_back);
        self.dealt.clone().filter(move |&i| {
            let k = info[i];
            self.drawable_count(i) > 0 && Some(k.stage as usize) == stage && !(hold && k.held_back)
        })
    }

    /// The kinds that may be drawn now with their probabilities (held-back kinds not
    /// while `hold_back`).
    pub fn outcomes(&self, hold_back: bool) -> Vec<(TileKind, f64)> {
        let total: u32 = self
            .drawable(hold_back)
            .map(|i| self.drawable_count(i) as u32)
            .sum();
        self.drawable(hold_back)
            .map(|i| {
                let p = self.drawable_count(i) as f64 / total as f64;
                (TileKind(i as u8), p)
            })
            .collect()
    }

    /// Pushes a `Draw` action for every kind that may be drawn now (no allocation once
    /// `out` has grown).
    pub fn drawable_into(&self, hold_back: bool, out: &mut Vec<crate::action::Action>) {
        out.extend(
            self.drawable(hold_back)
                .map(|i| crate::action::Action::Draw {
                    tile: TileKind(i as u8),
                }),
        );
    }

    /// Draws a tile at random among those that may be drawn now (held-back kinds not
    /// while `hold_back`). The pile must not be empty. Removing keeps the lists sorted
    /// (see the module documentation).
    pub fn draw(&mut self, rng: &mut Rng, hold_back: bool) -> TileKind {
        let stage = self.current_stage().expect("draw from a non-empty pile");
        let kind = if stage < LAST {
            let pile = &mut self.piles[stage];
            pile.remove(rng.below(pile.len() as u32) as usize)
        } else if self.holds_back(hold_back) {
            let pile = &mut self.piles[LAST];
            pile.remove(rng.below(pile.len() as u32) as usize)
        } else {
            let (rest, held_back) = (self.piles[LAST].len(), self.held_back.len());
            let r = rng.below((rest + held_back) as u32) as usize;
            if r < rest {
                self.piles[LAST].remove(r)
            } else {
                self.held_back.remove(r - rest)
            }
        };
        self.counts[kind.index()] -= 1;
        kind
    }

    /// Removes one tile of `kind` from the pile (a draw decided by the caller).
    pub fn take(&mut self, kind: TileKind) {
        let i = kind.index();
        debug_assert!(self.counts[i] > 0);
        self.counts[i] -= 1;
        let pile = self
            .piles
            .iter_mut()
            .chain(std::iter::once(&mut self.held_back))
            .find(|p| p.contains(&kind))
            .expect("a tile of a kind with a count is in a pile");
        let k = pile.iter().position(|t| *t == kind).expect("found above");
        pile.remove(k);
    }
}

#[cfg(test)]
#[path = "tests/unit/deck.rs"]
mod tests;
