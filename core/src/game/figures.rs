//! Figures on the board and the features they stand on: which figures may be deployed
//! where (B6, B7), deploying, returning and removing them, and the completion of a
//! feature with its scoring entries (B8–B10, A2).

use super::*;

impl Game {
    // ----- deployment (B6, B7) -----------------------------------------------------------

    /// The follower-like figures that may stand on each kind of feature in a game of
    /// `config`, a bit per [`Figure::index`]: followers on cities, roads, monasteries,
    /// shrines and, with farmers, fields (B6, B16, CU1); the expansions' figures where
    /// their rules say ([`Expansions::figure_fits`]).
    pub(super) fn stands_on(
        config: &GameConfig,
        expansions: &Expansions,
    ) -> [u16; FeatureKind::ALL.len()] {
        FeatureKind::ALL.map(|kind| {
            let mut figures = 0;
            for figure in Figure::FOLLOWER_LIKE {
                let fits = match figure {
                    Figure::Follower => follower_fits(config, kind),
                    other => expansions.figure_fits(config, other, kind),
                };
                figures |= u16::from(fits) << figure.index();
            }
            figures
        })
    }

    /// The follower-like figures of which `player` has at least one in supply, a bit per
    /// [`Figure::index`].
    #[inline]
    pub(crate) fn follower_like_in_supply(&self, player: u8) -> u16 {
        let supply = &self.supply[player as usize];
        Figure::FOLLOWER_LIKE.iter().fold(0, |bits, figure| {
            bits | u16::from(supply[figure.index()] > 0) << figure.index()
        })
    }

    /// Pushes `Deploy` actions for every figure of `in_supply` (a bit per
    /// [`Figure::index`], [`Game::follower_like_in_supply`]) that may stand on local
    /// feature `local` of placement `index`, if the feature is free, in [`Figure::ALL`]
    /// order.
    #[inline]
    pub(crate) fn push_deploys_of(
        &self,
        in_supply: u16,
        index: usize,
        local: u8,
        require_incomplete: bool,
        out: &mut Vec<Action>,
    ) {
        if in_supply == 0 {
            return;
        }
        let p = self.board.placement(index);
        let node_id = p.node_base + local as NodeId;
        let root = self.features.root(node_id);
        let node = self.features.node(root);
        if node.figures > 0 {
            return;
        }
        if node.kind == FeatureKind::Field && node.barns > 0 {
            return; // AM8
        }
        let mut figures = in_supply & self.stands_on[node.kind as usize];
        if figures == 0 || require_incomplete && self.is_complete(root) {
            return;
        }
        while figures != 0 {
            let figure = Figure::ALL[figures.trailing_zeros() as usize];
            figures &= figures - 1;
            out.push(Action::Deploy {
                figure,
                pos: p.pos,
                feature: local,
            });
        }
    }

    pub(super) fn deploy_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let player = self.turn_player;
        let Some(placed) = self.turn.placed else {
            return;
        };
        if self.exclusive_deploy_options(out) {
            return;
        }
        let placed = placed as usize;
        // The supply is looked at once for the tile's features.
        let in_supply = self.follower_like_in_supply(player);
        if in_supply != 0 && !self.figure_barred_on(placed) {
            for local in 0..self.tile_features(placed) {
                self.push_deploys_of(in_supply, placed, local, false, out);
            }
        }
        self.deploy_options(out);
        out.push(Action::Pass);
    }

    /// Puts a figure from `player`'s supply on local feature `local` of placement `index`.
    pub(crate) fn deploy(&mut self, player: u8, figure: Figure, index: u8, local: u8) {
        let node = self.board.placement(index as usize).node_base + local as NodeId;
        let root = self.features.find(node);
        if figure.is_follower_like() {
            self.features.node_mut(root).figures += 1;
        }
        self.supply[player as usize][figure.index()] -= 1;
        self.figures_changed = true;
        self.figures.push(BoardFigure {
            owner: player,
            figure,
            placement: index,
            local,
            node,
        });
    }

    /// Returns the figure at `k` in the figure list to its owner's supply, and logs why.
    pub(crate) fn return_figure(&mut self, k: usize, cause: ReturnCause) -> BoardFigure {
        self.remove_figure(k, cause, true)
    }

    /// Takes the figure at `k` in the figure list off the board, into its owner's supply
    /// if `to_supply` (else it is held elsewhere: a prisoner, TW4), and logs why.
    pub(crate) fn remove_figure(
        &mut self,
        k: usize,
        cause: ReturnCause,
        to_supply: bool,
    ) -> BoardFigure {
        let f = self.figures.swap_remove(k);
        self.figures_changed = true;
        if f.figure.is_follower_like() {
            let root = self.features.find(f.node);
            self.features.node_mut(root).figures -= 1;
        }
        if to_supply {
            self.supply[f.owner as usize][f.figure.index()] += 1;
        }
        self.returns.push(FigureReturn {
            owner: f.owner,
            figure: f.figure,
            pos: self.board.placement(f.placement as usize).pos,
            local: f.local,
            cause,
            after: self.events.len() as u32,
        });
        self.on_figure_left(&f);
        f
    }

    /// Index in the figure list of the follower-like figure standing at
    /// `(placement, local)`.
    pub(crate) fn figure_at(&self, placement: u8, local: u8) -> Option<usize> {
        self.figures.iter().position(|f| {
            f.placement == placement && f.local == local && f.figure.is_follower_like()
        })
    }

    // ----- completion --------------------------------------------------------------------

    /// Whether the feature with root `root` is complete (B8–B10, A2).
    pub(crate) fn is_complete(&self, root: NodeId) -> bool {
        let node = self.features.node(root);
        match node.kind {
            FeatureKind::City | FeatureKind::Road | FeatureKind::River => node.open == 0,
            FeatureKind::Monastery | FeatureKind::Shrine | FeatureKind::Garden => {
                self.board.placement(node.placement as usize).surrounded_by == 8
            }
            // Fields never complete; a tower is no feature that scores (TW2).
            FeatureKind::Field | FeatureKind::Tower => false,
        }
    }

    /// Number of distinct tiles of the feature of `root` (B12: a tile counts once).
    pub(crate) fn feature_tiles(&mut self, root: NodeId) -> u32 {
        let mark = self.next_mark();
        let mut count = 0;
        for id in self.features.parts(root) {
            let t = self.features.node(id).placement as usize;
            if self.stamp[t] != mark {
                self.stamp[t] = mark;
                count += 1;
            }
        }
        count
    }

    pub(crate) fn next_part(&self, id: NodeId) -> NodeId {
        self.features.next(id)
    }

    /// Joins the features of `a` and `b` (see [`Features::union`]) and logs the join for
    /// [`Game::scored_parts`]; returns the root.
    pub(crate) fn join_features(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let (root, joined) = self.features.join(a, b);
        if joined {
            self.joins.push((a, b));
        }
        root
    }

    /// Adds points and logs the event; `feature` is a part of the scored feature.
    pub(crate) fn add_score(
        &mut self,
        player: u8,
        points: i32,
        kind: ScoreKind,
        at: Option<(Pos, u8)>,
        feature: Option<NodeId>,
    ) {
        self.scores[player as usize] += points;
        let joins = self.joins.len() as u32;
        if kind.is_feature_scoring() && points > 0 {
            self.turn.feature_scorers |= 1 << player;
        }
        self.events.push(ScoreEvent {
            player,
            points,
            kind,
            at,
            feature: feature.map(|node| ScoredFeature { node, joins }),
        });
    }

    /// The `(pos, local)` name of a feature node.
    pub(crate) fn node_name(&self, id: NodeId) -> (Pos, u8) {
        let n = self.features.node(id);
        (self.board.placement(n.placement as usize).pos, n.local)
    }
}
