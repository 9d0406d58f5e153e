//! Per-feature statistics the aggregate planes read (strengths, values), on the stack.

use carcassonne::config::MAX_PLAYERS;
use carcassonne::features::NodeId;
use carcassonne::game::Game;
use carcassonne::scoring::feature_value;
use carcassonne::tiles::FeatureKind;

/// Most feature nodes the statistics cover (a game has at most 255 tiles of at most 10
/// features; larger states leave the value planes at 0).
const MAX_NODES: usize = 2560;
/// Most distinct features with figures.
const MAX_OCCUPIED: usize = 96;

/// Per-feature data the aggregate planes need, on the stack.
pub(super) struct FeatureStats {
    /// Distinct tiles per root (cities and roads).
    tiles: [u8; MAX_NODES],
    /// Last tile counted per root.
    last: [u8; MAX_NODES],
    counted: bool,
    /// Roots with figures and the strength of every seat on them.
    occupied: [(NodeId, [u8; MAX_PLAYERS]); MAX_OCCUPIED],
    occupied_len: usize,
}

impl FeatureStats {
    pub(super) fn new(game: &Game) -> FeatureStats {
        let mut s = FeatureStats {
            tiles: [0; MAX_NODES],
            last: [u8::MAX; MAX_NODES],
            counted: false,
            occupied: [(0, [0; MAX_PLAYERS]); MAX_OCCUPIED],
            occupied_len: 0,
        };
        let features = game.features();
        let n = features.len();
        if n <= MAX_NODES {
            s.counted = true;
            for id in 0..n as NodeId {
                let node = features.node(id);
                if !matches!(node.kind, FeatureKind::City | FeatureKind::Road) {
                    continue;
                }
                let r = features.root(id) as usize;
                if s.last[r] != node.placement {
                    s.last[r] = node.placement;
                    s.tiles[r] = s.tiles[r].saturating_add(1);
                }
            }
        }
        for f in game.board_figures() {
            if !f.figure.is_follower_like() {
                continue;
            }
            let root = features.root(f.node);
            let strength = u8::try_from(game.figure_weight(f.figure, f.node)).unwrap_or(u8::MAX);
            let k = match s.occupied[..s.occupied_len]
                .iter()
                .position(|(r, _)| *r == root)
            {
                Some(k) => k,
                None if s.occupied_len < MAX_OCCUPIED => {
                    s.occupied[s.occupied_len] = (root, [0; MAX_PLAYERS]);
                    s.occupied_len += 1;
                    s.occupied_len - 1
                }
                None => continue,
            };
            let e = &mut s.occupied[k].1[f.owner as usize];
            *e = e.saturating_add(strength);
        }
        s
    }

    /// (own strength, best opponent strength) on the feature of `root`.
    pub(super) fn strengths(&self, root: NodeId, player: usize) -> (u8, u8) {
        match self.occupied[..self.occupied_len]
            .iter()
            .find(|(r, _)| *r == root)
        {
            Some((_, s)) => {
                let best = (0..MAX_PLAYERS)
                    .filter(|&p| p != player)
                    .map(|p| s[p])
                    .max()
                    .unwrap_or(0);
                (s[player], best)
            }
            None => (0, 0),
        }
    }

    /// Points a city or road would score now (B12 if complete, B15 otherwise).
    pub(super) fn value(&self, game: &Game, root: NodeId) -> u8 {
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
        v.clamp(0, 255) as u8
    }
}
