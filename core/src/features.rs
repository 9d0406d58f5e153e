//! Features as an incrementally merged structure: a union-find over the features of
//! placed tiles, each root holding what scoring needs (open sides, pennants, figure
//! count, barns), and a circular list of its parts for walks at scoring time.
//!
//! Every feature of every placed tile is one node; a tile's local feature `i` is node
//! `node_base + i`. Joining tiles unites nodes; a city or road is complete when its root
//! has no open side left (B8, B9).

use crate::tiles::FeatureKind;

/// Index of a feature node.
pub type NodeId = u16;

/// One feature part (and, at a root, the joined feature).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    parent: NodeId,
    next: NodeId,
    size: u16,
    /// Kind of the feature.
    pub kind: FeatureKind,
    /// Placement index of the tile this part lies on.
    pub placement: u8,
    /// Local feature index on that tile.
    pub local: u8,
    /// (root) Sides through which the feature leaves its tiles and that no tile closes.
    pub open: u16,
    /// (root) Pennants.
    pub pennants: u8,
    /// (root) Figures other than barns standing on the feature.
    pub figures: u8,
    /// (root) Barns in the field.
    pub barns: u8,
}

/// The union-find of all feature parts.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Features {
    nodes: Vec<Node>,
}

impl Clone for Features {
    fn clone(&self) -> Features {
        Features {
            nodes: self.nodes.clone(),
        }
    }

    /// The copy in this memory: no allocation once the list is large enough.
    fn clone_from(&mut self, source: &Features) {
        self.nodes.clone_from(&source.nodes);
    }
}

impl Features {
    /// Room for `capacity` nodes without reallocating.
    pub fn with_capacity(capacity: usize) -> Features {
        Features {
            nodes: Vec::with_capacity(capacity),
        }
    }

    /// Removes every node, keeping room for `capacity` (the features of a new game in
    /// this memory).
    pub fn clear_for(&mut self, capacity: usize) {
        self.nodes.clear();
        self.nodes.reserve_exact(capacity);
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a part; returns its id.
    pub fn add(
        &mut self,
        kind: FeatureKind,
        placement: u8,
        local: u8,
        open: u16,
        pennants: u8,
    ) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: id,
            next: id,
            size: 1,
            kind,
            placement,
            local,
            open,
            pennants,
            figures: 0,
            barns: 0,
        });
        id
    }

    /// Adds the parts of one tile, its local features in order (`(kind, open, pennants)`
    /// each, as [`Features::add`] with local indices 0, 1, ...); returns the id of the
    /// first. One reservation for the whole tile.
    pub fn add_tile(
        &mut self,
        placement: u8,
        parts: impl ExactSizeIterator<Item = (FeatureKind, u16, u8)>,
    ) -> NodeId {
        let base = self.nodes.len() as NodeId;
        self.nodes
            .extend(parts.enumerate().map(|(local, (kind, open, pennants))| {
                let id = base + local as NodeId;
                Node {
                    parent: id,
                    next: id,
                    size: 1,
                    kind,
                    placement,
                    local: local as u8,
                    open,
                    pennants,
                    figures: 0,
                    barns: 0,
                }
            }));
        base
    }

    /// The root of `id`'s feature (with path halving).
    #[inline]
    pub fn find(&mut self, mut id: NodeId) -> NodeId {
        while self.nodes[id as usize].parent != id {
            let grand = self.nodes[self.nodes[id as usize].parent as usize].parent;
            self.nodes[id as usize].parent = grand;
            id = grand;
        }
        id
    }

    /// The root of `id`'s feature without compressing paths.
    #[inline]
    pub fn root(&self, mut id: NodeId) -> NodeId {
        while self.nodes[id as usize].parent != id {
            id = self.nodes[id as usize].parent;
        }
        id
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The node `id`, mutable.
    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Joins the features of `a` and `b`; returns the new root. Open sides, pennants,
    /// figures and barns add up.
    pub fn union(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.join(a, b).0
    }

    /// Joins the features of `a` and `b` like [`Features::union`]; returns the root and
    /// whether they were two features before.
    pub fn join(&mut self, a: NodeId, b: NodeId) -> (NodeId, bool) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return (ra, false);
        }
        let (big, small) = if self.nodes[ra as usize].size >= self.nodes[rb as usize].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let s = self.nodes[small as usize].clone();
        let n = &mut self.nodes[big as usize];
        n.size += s.size;
        n.open += s.open;
        n.pennants += s.pennants;
        n.figures += s.figures;
        n.barns += s.barns;
        // Splice the two circular part lists.
        let big_next = n.next;
        n.next = s.next;
        self.nodes[small as usize].next = big_next;
        self.nodes[small as usize].parent = big;
        (big, true)
    }

    /// The next part in `id`'s circular part list.
    #[inline]
    pub fn next(&self, id: NodeId) -> NodeId {
        self.nodes[id as usize].next
    }

    /// Every part of the feature that `id` belongs to.
    pub fn parts(&self, id: NodeId) -> Parts<'_> {
        Parts {
            features: self,
            start: id,
            current: Some(id),
        }
    }
}

/// Iterator over the parts of one feature.
pub struct Parts<'a> {
    features: &'a Features,
    start: NodeId,
    current: Option<NodeId>,
}

impl Iterator for Parts<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.current?;
        let next = self.features.nodes[id as usize].next;
        self.current = (next != self.start).then_some(next);
        Some(id)
    }
}

#[cfg(test)]
#[path = "tests/unit/features.rs"]
mod tests;
