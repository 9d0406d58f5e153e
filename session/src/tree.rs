//! The search tree of both tree searches: the playout search ([`crate::mcts`]) and the
//! guided search ([`crate::guided`]).
//!
//! The tree lives in two arrays, nodes and edges; a node's edges are a run of the edge
//! array, created when the node is expanded. A descent ([`Tree::descend`]) determinizes
//! nothing itself (the caller reseeds the game's draws) and walks from the root: at a
//! draw it samples a tile from the pile's counts ([`sample_draw`]), at a decision it asks
//! the search's [`Rule`] for an edge, and it stops at a finished game or at a node the
//! rule does not open (a new leaf). The edges it chose at decisions, each with the
//! deciding seat, are its path, whose rewards [`Tree::back_up`] adds.
//!
//! What differs between the searches is their [`Rule`], a type parameter (so the descent
//! of each search is compiled for it): which edge a decision takes (UCT with progressive
//! widening, PUCT with priors), when a leaf stops a descent, and whether the descent
//! counts its visits on the way down (the virtual visits of batched evaluation). What a
//! leaf is worth (a random playout, an evaluator's estimate) is the search's own code
//! after the descent.

use crate::mcts::{sample_draw, searched};
use carcassonne::config::MAX_PLAYERS;
use carcassonne::{Action, ChanceMode, Game, Rng};
use std::ops::Range;

/// No child yet.
const NONE: u32 = u32::MAX;

/// A state of the tree: a decision of one player or a draw.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Node {
    /// First of this node's edges in the edge array.
    pub first: u32,
    /// Number of edges (0 until expanded).
    pub len: u32,
    /// Edges tried at least once, for a rule that tries them in order.
    pub tried: u32,
    /// Times a descent passed through this node.
    pub visits: u32,
    /// Whether the edges exist.
    pub expanded: bool,
    /// A leaf waiting for an evaluator (batched evaluation).
    pub waiting: bool,
    /// The deciding seat (decision nodes).
    pub player: u8,
}

impl Node {
    const fn leaf(player: u8) -> Node {
        Node {
            first: 0,
            len: 0,
            tried: 0,
            visits: 0,
            expanded: false,
            waiting: false,
            player,
        }
    }

    /// The indices of the node's edges in the edge array.
    pub fn edges(&self) -> Range<usize> {
        self.first as usize..(self.first + self.len) as usize
    }
}

/// An action (or a draw) from a node, with what a rule keeps per edge (`P`: a prior, or
/// nothing).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Edge<P> {
    pub action: Action,
    /// The node it leads to ([`NONE`] until reached).
    pub child: u32,
    pub visits: u32,
    /// Sum of the rewards of the node's deciding seat.
    pub value: f64,
    pub prior: P,
}

impl<P> Edge<P> {
    /// A new edge.
    pub fn new(action: Action, prior: P) -> Edge<P> {
        Edge {
            action,
            child: NONE,
            visits: 0,
            value: 0.0,
            prior,
        }
    }
}

/// Where a descent stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At a finished game.
    Over,
    /// At a leaf the rule did not open: this node.
    Leaf(u32),
    /// At a leaf the rule refuses to reach twice (its virtual visits are still counted).
    Refused,
}

/// The part of a search that differs: how a decision node is entered and left.
pub(crate) trait Rule {
    /// What each edge keeps for the rule.
    type Prior: Copy;
    /// Whether a descent counts its visits on the way down: each edge it takes one visit
    /// at once (the back-up adds the reward only), and the nodes it passes are listed in
    /// [`Tree::counted`] so that a refused descent can take its visits back.
    const VIRTUAL_VISITS: bool;

    /// Node `n`, a decision not expanded yet, is reached: the stop there, or `None`
    /// after the rule expanded it (the descent goes on through it).
    fn open(&self, tree: &mut Tree<Self::Prior>, n: usize, game: &Game) -> Option<Stop>;

    /// The edge a descent takes from the expanded decision node `n` (whose visit is
    /// counted already).
    fn select(&self, tree: &mut Tree<Self::Prior>, n: usize) -> usize;
}

/// A search tree with its buffers.
pub(crate) struct Tree<P> {
    /// The game at the root, in explicit-chance mode.
    pub root_game: Game,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge<P>>,
    /// Edges chosen at decisions by the current descent, with the deciding seat.
    pub path: Vec<(u32, u8)>,
    /// Nodes whose visit the current descent counted ([`Rule::VIRTUAL_VISITS`] only).
    pub counted: Vec<u32>,
    pub rng: Rng,
    /// Each seat's summed reward over the back-ups so far.
    pub seat_sums: [f64; MAX_PLAYERS],
}

impl<P: Copy> Tree<P> {
    /// A tree of one unexpanded root, `game`'s decision (a copy in explicit-chance mode),
    /// searched from `seed`, with room for `nodes` nodes and `edges` edges.
    pub fn new(game: &Game, seed: u64, nodes: usize, edges: usize) -> Tree<P> {
        let mut root_game = game.clone();
        root_game.set_chance_mode(ChanceMode::Explicit);
        let mut tree = Tree {
            root_game,
            nodes: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(edges),
            path: Vec::with_capacity(256),
            counted: Vec::new(),
            rng: Rng::new(seed),
            seat_sums: [0.0; MAX_PLAYERS],
        };
        tree.nodes.push(Node::leaf(game.to_play() as u8));
        tree
    }

    /// The root's edges.
    pub fn root_edges(&self) -> &[Edge<P>] {
        &self.edges[self.nodes[0].edges()]
    }

    /// The child node of edge `e`, created (as a leaf of `game`'s deciding seat) if new.
    pub fn child_of(&mut self, e: usize, game: &Game) -> u32 {
        let child = self.edges[e].child;
        if child != NONE {
            return child;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::leaf(game.to_play() as u8));
        self.edges[e].child = id;
        id
    }

    /// Gives node `n` the edges `edges`, in their order.
    pub fn expand_with(&mut self, n: usize, edges: impl Iterator<Item = Edge<P>>) {
        let first = self.edges.len();
        self.edges.extend(edges);
        let node = &mut self.nodes[n];
        node.first = first as u32;
        node.len = (self.edges.len() - first) as u32;
        node.expanded = true;
        node.waiting = false;
    }

    /// Gives node `n` an edge (with `prior`) per legal action of `game` the search
    /// considers ([`searched`]), in a random order from the tree's generator when
    /// `shuffle` (so that untried actions are taken in a random order), else in the
    /// game's legal order.
    pub fn expand(&mut self, n: usize, game: &Game, prior: P, shuffle: bool) {
        let first = self.edges.len();
        let actions = game.legal().iter().filter(|a| searched(a));
        self.expand_with(n, actions.map(|&action| Edge::new(action, prior)));
        if shuffle {
            let len = self.edges.len() - first;
            for i in (1..len).rev() {
                let j = self.rng.below(i as u32 + 1) as usize;
                self.edges.swap(first + i, first + j);
            }
        }
    }

    /// One descent from the root through `game` (a copy of the root game with its draws
    /// reseeded), chosen by `rule`, with its path in [`Tree::path`]. A draw node gets an
    /// edge per tile the game may draw (in its legal order) and a tile sampled from the
    /// pile's counts ([`sample_draw`]).
    #[inline]
    pub fn descend<R: Rule<Prior = P>>(&mut self, rule: &R, game: &mut Game, prior: P) -> Stop {
        self.path.clear();
        if R::VIRTUAL_VISITS {
            self.counted.clear();
        }
        let mut node = 0u32;
        loop {
            if game.is_terminal() {
                return Stop::Over;
            }
            let n = node as usize;
            if game.phase().is_chance() {
                if !self.nodes[n].expanded {
                    self.expand(n, game, prior, false);
                }
                self.nodes[n].visits += 1;
                if R::VIRTUAL_VISITS {
                    self.counted.push(node);
                }
                let k = sample_draw(game, &mut self.rng);
                let e = self.nodes[n].first as usize + k;
                game.apply_unchecked(self.edges[e].action);
                node = self.child_of(e, game);
                continue;
            }
            if !self.nodes[n].expanded {
                if let Some(stop) = rule.open(self, n, game) {
                    return stop;
                }
            }
            self.nodes[n].visits += 1;
            if R::VIRTUAL_VISITS {
                self.counted.push(node);
            }
            let e = rule.select(self, n);
            if R::VIRTUAL_VISITS {
                self.edges[e].visits += 1;
            }
            self.path.push((e as u32, self.nodes[n].player));
            game.apply_unchecked(self.edges[e].action);
            node = self.child_of(e, game);
        }
    }

    /// Adds each seat's reward in `values` to the edges of the current descent's path
    /// (the deciding seat's) and to [`Tree::seat_sums`]; with `count` each edge also
    /// counts a visit (else it was counted on the way down).
    #[inline]
    pub fn back_up(&mut self, values: &[f64; MAX_PLAYERS], count: bool) {
        add_rewards(
            &mut self.edges,
            &mut self.seat_sums,
            &self.path,
            values,
            count,
        );
    }

    /// [`Tree::back_up`] along `path`, a descent's path kept from before.
    pub fn back_up_path(&mut self, path: &[(u32, u8)], values: &[f64; MAX_PLAYERS]) {
        add_rewards(&mut self.edges, &mut self.seat_sums, path, values, false);
    }

    /// Takes back the visits the current descent counted on the way down (a refused
    /// descent, [`Rule::VIRTUAL_VISITS`]).
    pub fn take_back(&mut self) {
        for &(e, _) in &self.path {
            self.edges[e as usize].visits -= 1;
        }
        for &c in &self.counted {
            self.nodes[c as usize].visits -= 1;
        }
    }
}

/// Adds `values` to `seat_sums` and each seat's reward to the edges of `path`, counting a
/// visit on each with `count`.
#[inline]
fn add_rewards<P>(
    edges: &mut [Edge<P>],
    seat_sums: &mut [f64; MAX_PLAYERS],
    path: &[(u32, u8)],
    values: &[f64; MAX_PLAYERS],
    count: bool,
) {
    for (sum, v) in seat_sums.iter_mut().zip(values) {
        *sum += v;
    }
    for &(e, player) in path {
        let edge = &mut edges[e as usize];
        if count {
            edge.visits += 1;
        }
        edge.value += values[player as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::GameConfig;

    /// A rule that expands every node in legal order and takes its first edge, with
    /// virtual visits: enough to watch the arena.
    struct First;

    impl Rule for First {
        type Prior = ();
        const VIRTUAL_VISITS: bool = true;
        fn open(&self, tree: &mut Tree<()>, n: usize, game: &Game) -> Option<Stop> {
            if tree.nodes[n].visits == 0 && n != 0 {
                tree.nodes[n].waiting = true;
                return Some(Stop::Leaf(n as u32));
            }
            tree.expand(n, game, (), false);
            None
        }
        fn select(&self, tree: &mut Tree<()>, n: usize) -> usize {
            tree.nodes[n].first as usize
        }
    }

    fn descent(tree: &mut Tree<()>, seed: u64) -> (Stop, Game) {
        let mut game = tree.root_game.clone();
        game.reseed_draws(seed);
        (tree.descend(&First, &mut game, ()), game)
    }

    #[test]
    fn child_of_creates_a_node_once_for_the_seat_to_play() {
        let game = Game::new(GameConfig::new(2)).unwrap();
        let mut tree: Tree<()> = Tree::new(&game, 1, 4, 4);
        tree.expand(0, &game, (), false);
        assert_eq!(tree.root_edges().len(), game.legal().len());
        let mut after = tree.root_game.clone();
        after.apply_unchecked(tree.edges[0].action);
        let child = tree.child_of(0, &after);
        assert_eq!(child, 1);
        assert_eq!(
            tree.child_of(0, &after),
            child,
            "a second call finds the child"
        );
        assert_eq!(tree.nodes.len(), 2);
        assert_eq!(usize::from(tree.nodes[1].player), after.to_play());
        assert!(!tree.nodes[1].expanded);
    }

    #[test]
    fn a_shuffled_expansion_holds_the_same_actions_as_the_legal_order() {
        let game = Game::new(GameConfig::new(2)).unwrap();
        let mut tree: Tree<()> = Tree::new(&game, 3, 4, 4);
        tree.expand(0, &game, (), true);
        let mut shuffled: Vec<String> = tree
            .root_edges()
            .iter()
            .map(|e| format!("{:?}", e.action))
            .collect();
        let in_order: Vec<String> = game.legal().iter().map(|a| format!("{a:?}")).collect();
        assert!(
            in_order.len() > 2,
            "the first decision offers several placements"
        );
        assert_ne!(shuffled, in_order, "seed 3 moves some edge");
        shuffled.sort();
        let mut sorted = in_order.clone();
        sorted.sort();
        assert_eq!(shuffled, sorted);
    }

    #[test]
    fn a_descent_counts_its_path_and_a_refused_one_takes_its_visits_back() {
        let game = Game::new(GameConfig::new(2)).unwrap();
        let mut tree: Tree<()> = Tree::new(&game, 5, 16, 16);
        let (stop, leaf_game) = descent(&mut tree, 9);
        let Stop::Leaf(leaf) = stop else {
            panic!("the first descent stops at a new leaf, not {stop:?}")
        };
        assert!(!leaf_game.is_terminal());
        // The path holds the decisions passed, each edge with one virtual visit.
        assert!(!tree.path.is_empty());
        for &(e, seat) in &tree.path {
            assert_eq!(tree.edges[e as usize].visits, 1);
            assert!(usize::from(seat) < 2);
        }
        let path = tree.path.clone();
        tree.back_up(&[0.25; MAX_PLAYERS], false);
        assert_eq!(
            tree.edges[path[0].0 as usize].visits, 1,
            "counted on the way down"
        );
        assert_eq!(tree.edges[path[0].0 as usize].value, 0.25);
        assert_eq!(tree.seat_sums[..2], [0.25, 0.25]);
        let root_visits = tree.nodes[0].visits;
        // The same leaf again: the rule refuses nothing here, so mark and take back.
        let (again, _) = descent(&mut tree, 9);
        assert_eq!(
            again,
            Stop::Leaf(leaf),
            "the same draws lead to the same leaf"
        );
        assert_eq!(tree.nodes[0].visits, root_visits + 1);
        tree.take_back();
        assert_eq!(tree.nodes[0].visits, root_visits);
        assert_eq!(tree.edges[path[0].0 as usize].visits, 1);
        // Every edge's child is a node of the arena, and every node's edges are in it.
        for edge in &tree.edges {
            assert!(edge.child == NONE || (edge.child as usize) < tree.nodes.len());
        }
        for node in &tree.nodes {
            assert!(node.edges().end <= tree.edges.len());
        }
    }
}
