//! Per-feature statistics the aggregate planes read (roots, strengths, values), computed
//! once per observation into buffers each thread reuses.

use carcassonne::config::MAX_PLAYERS;
use carcassonne::features::NodeId;
use carcassonne::game::Game;
use carcassonne::scoring::feature_value;
use carcassonne::tiles::FeatureKind;
use std::cell::RefCell;

/// Most feature nodes whose tiles are counted (a game has at most 255 tiles of at most
/// 10 features; larger states leave the value planes' tile counts at 0).
const MAX_NODES: usize = 2560;
/// Most distinct features with figures.
const MAX_OCCUPIED: usize = 96;
/// No entry in `occupied` / no value computed yet.
const NONE: u8 = u8::MAX;
const NO_VALUE: u16 = u16::MAX;

/// Per-feature data the aggregate planes need: computed for one game state and one
/// observing player by [`FeatureStats::with`].
pub(super) struct FeatureStats {
    /// The root of every node.
    root: Vec<NodeId>,
    /// Distinct tiles per root (cities and roads).
    tiles: Vec<u8>,
    /// Last tile counted per root.
    last: Vec<u8>,
    counted: bool,
    /// Per root: its index in `occupied`, or [`NONE`].
    occupied_at: Vec<u8>,
    /// Roots with figures and the strength of every seat on them.
    occupied: Vec<(NodeId, [u8; MAX_PLAYERS])>,
    /// Per entry of `occupied`: (own strength, best opponent strength) of the player.
    strengths: Vec<(u8, u8)>,
    /// Per root: the value of [`FeatureStats::value`] once computed, or [`NO_VALUE`].
    values: Vec<u16>,
}

thread_local! {
    static STATS: RefCell<FeatureStats> = const { RefCell::new(FeatureStats::empty()) };
}

impl FeatureStats {
    const fn empty() -> FeatureStats {
        FeatureStats {
            root: Vec::new(),
            tiles: Vec::new(),
            last: Vec::new(),
            counted: false,
            occupied_at: Vec::new(),
            occupied: Vec::new(),
            strengths: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Runs `f` on the statistics of `game` seen by `player`, in this thread's buffers
    /// (nothing is allocated once they have grown to the largest game).
    pub(super) fn with<R>(game: &Game, player: usize, f: impl FnOnce(&mut FeatureStats) -> R) -> R {
        STATS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut stats) => {
                stats.fill(game, player);
                f(&mut stats)
            }
            Err(_) => {
                let mut stats = FeatureStats::empty();
                stats.fill(game, player);
                f(&mut stats)
            }
        })
    }

    fn fill(&mut self, game: &Game, player: usize) {
        let features = game.features();
        let n = features.len();
        self.root.clear();
        self.root
            .extend((0..n as NodeId).map(|id| features.root(id)));
        self.tiles.clear();
        self.tiles.resize(n, 0);
        self.last.clear();
        self.last.resize(n, u8::MAX);
        self.occupied_at.clear();
        self.occupied_at.resize(n, NONE);
        self.values.clear();
        self.values.resize(n, NO_VALUE);
        self.occupied.clear();
        self.strengths.clear();
        self.counted = n <= MAX_NODES;
        if self.counted {
            for id in 0..n {
                let node = features.node(id as NodeId);
                if !matches!(node.kind, FeatureKind::City | FeatureKind::Road) {
                    continue;
                }
                let r = self.root[id] as usize;
                if self.last[r] != node.placement {
                    self.last[r] = node.placement;
                    self.tiles[r] = self.tiles[r].saturating_add(1);
                }
            }
        }
        for f in game.board_figures() {
            if !f.figure.is_follower_like() {
                continue;
            }
            let root = self.root[f.node as usize];
            let strength = u8::try_from(game.figure_weight(f.figure, f.node)).unwrap_or(u8::MAX);
            let k = match self.occupied_at[root as usize] {
                NONE if self.occupied.len() < MAX_OCCUPIED => {
                    self.occupied_at[root as usize] = self.occupied.len() as u8;
                    self.occupied.push((root, [0; MAX_PLAYERS]));
                    self.occupied.len() - 1
                }
                NONE => continue,
                k => k as usize,
            };
            let e = &mut self.occupied[k].1[f.owner as usize];
            *e = e.saturating_add(strength);
        }
        for (_, s) in &self.occupied {
            let best = (0..MAX_PLAYERS)
                .filter(|&p| p != player)
                .map(|p| s[p])
                .max()
                .unwrap_or(0);
            self.strengths.push((s[player], best));
        }
    }

    /// The root of node `id`.
    #[inline]
    pub(super) fn root(&self, id: NodeId) -> NodeId {
        self.root[id as usize]
    }

    /// (own strength, best opponent strength) of the observing player on the feature of
    /// `root`.
    #[inline]
    pub(super) fn strengths(&self, root: NodeId) -> (u8, u8) {
        match self.occupied_at[root as usize] {
            NONE => (0, 0),
            k => self.strengths[k as usize],
        }
    }

    /// Points a city or road would score now (B12 if complete, B15 otherwise).
    pub(super) fn value(&mut self, game: &Game, root: NodeId) -> u8 {
        let cached = self.values[root as usize];
        if cached != NO_VALUE {
            return cached as u8;
        }
        let node = game.features().node(root);
        let tiles = if self.counted {
            self.tiles[root as usize] as i32
        } else {
            0
        };
        let incomplete = (node.open != 0).then_some(0);
        let v = feature_value(
            node.kind,
            tiles as u32,
            node.pennants as u32,
            incomplete,
            game.rules(),
        );
        let v = v.clamp(0, 255) as u8;
        self.values[root as usize] = u16::from(v);
        v
    }
}
