//! What happened in a game, as clients show it: points scored ([`ScoreEvent`], why:
//! [`ScoreKind`]), figures that left the board ([`FigureReturn`], why: [`ReturnCause`]),
//! both merged in order ([`Events`]), and the parts of a feature as they were when it
//! scored ([`ScoredParts`]).

use super::Game;
use crate::config::Figure;
use crate::features::NodeId;
use crate::geometry::Pos;

crate::named_enum! {
    /// What a score event was for (named as in records' `events`).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub enum ScoreKind {
        /// A completed city (B12).
        City = "city",
        /// A completed road.
        Road = "road",
        /// A completed monastery or abbey.
        Monastery = "monastery",
        /// A completed garden (A2).
        Garden = "garden",
        /// A monastery or garden scored when the abbot is taken back (A3).
        AbbotReturn = "abbot-return",
        /// The fairy's start-of-turn point (PD16b).
        FairyTurn = "fairy.turn",
        /// The fairy's bonus when its follower's feature scores (PD16c).
        FairyScored = "fairy.completed",
        /// A field scored when a barn is placed (AM7).
        BarnPlaced = "field.barn-placed",
        /// A field scored when it joins a barn's field (AM8).
        BarnConnected = "field.barn-connected",
        /// End of game: an incomplete city, road, monastery or garden (B15).
        Incomplete = "incomplete",
        /// End of game: farmers (B16).
        Farmers = "farmers",
        /// End of game: a barn (AM9).
        Barn = "barn",
        /// A completed shrine (CU1).
        Shrine = "shrine",
        /// End of game: the King's completed cities (KR3).
        King = "king",
        /// End of game: the Robber Baron's completed roads (KR3).
        RobberBaron = "robber-baron",
        /// A castle scored the feature completed in its neighbourhood (CA3).
        Castle = "castle",
        /// Points paid or received for a bazaar tile the selector bought (BZ3).
        BazaarBuy = "bazaar-buy",
        /// Points paid or received for a bazaar tile the selector sold (BZ3).
        BazaarSell = "bazaar-sell",
        /// A ransom paid for a prisoner: −3 (TW5).
        RansomPaid = "ransompaid.payment",
        /// A ransom received for a prisoner: +3 (TW5).
        RansomReceived = "ransompaid.income",
        /// End of game: the most tokens of a kind of trade goods, 10 (TB2).
        Goods = "goods",
        /// A flock herded into the fold, or scored in a closed field: the sheep of every
        /// flock of the field, to each shepherd's owner (HS2).
        Flock = "flock",
    }
}

impl ScoreKind {
    /// Whether these are points for a feature during play (B12–B13, barns): the points
    /// that let the turn player into the City of Carcassonne when only others score them
    /// (CC3). Castles count (CA3); fairy points and bazaar payments do not.
    pub const fn is_feature_scoring(self) -> bool {
        matches!(
            self,
            ScoreKind::City
                | ScoreKind::Road
                | ScoreKind::Monastery
                | ScoreKind::Garden
                | ScoreKind::Shrine
                | ScoreKind::Castle
                | ScoreKind::BarnPlaced
                | ScoreKind::BarnConnected
        )
    }
}

/// Points scored by one player for one reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreEvent {
    /// Seat.
    pub player: u8,
    /// Points.
    pub points: i32,
    /// Why.
    pub kind: ScoreKind,
    /// A part of the scored feature: tile and local feature index.
    pub at: Option<(Pos, u8)>,
    /// The scored feature as it was when it scored (its parts: [`Game::scored_parts`]);
    /// `None` for the fairy's start-of-turn point. The fairy's bonus names the feature
    /// of the fairy's follower.
    pub feature: Option<ScoredFeature>,
}

/// A feature as it was at one moment of the game: one of its parts and the number of
/// joins of features made until then. Features only grow (a field scored for a barn may
/// join others later), so the parts of a scored feature are those joined to this part
/// by the first `joins` joins ([`Game::scored_parts`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoredFeature {
    /// A part of the feature.
    pub node: NodeId,
    /// Joins of features made before it scored.
    pub joins: u32,
}

crate::named_enum! {
    /// Why a figure left the board (named as in records' `events`).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub enum ReturnCause {
        /// Its feature was completed and scored during play (B14); a wagon may then move
        /// on (AM11).
        Scored = "scored",
        /// Final scoring: incomplete features (B15), farmers (B16), farmers of a barn's
        /// field (AM9), figures left on completed features.
        FinalScoring = "final-scoring",
        /// Removed with the princess (PD9).
        Princess = "princess",
        /// Eaten by the dragon (PD7).
        Dragon = "dragon",
        /// The abbot taken back (A3).
        AbbotTaken = "abbot-taken",
        /// On a monastery or shrine that lost a challenge (CU3).
        Challenged = "challenged",
        /// Taken prisoner by a tower (TW3): held by the capturer, or back in its owner's
        /// supply when the capturer took his own figure or the capture was exchanged
        /// (TW4).
        Captured = "captured",
        /// A builder or pig whose owner has no figure left beside it in its feature: its
        /// follower was removed, eaten or captured (TB6).
        Unaccompanied = "unaccompanied",
        /// A shepherd sent home by a wolf drawn from the bag (HS1, HS2).
        Wolf = "wolf",
    }
}

/// A figure that left the board: back to its owner's supply, or, captured by a tower
/// (TW3), held as a prisoner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FigureReturn {
    /// Owner's seat.
    pub owner: u8,
    /// Kind.
    pub figure: Figure,
    /// Square of the tile it stood on.
    pub pos: Pos,
    /// Local feature index on that tile.
    pub local: u8,
    /// Why it left.
    pub cause: ReturnCause,
    /// Number of score events ([`Game::events`]) logged before it: it came after those,
    /// and before the next one.
    pub after: u32,
}

/// One thing that happened, as a client shows it: points scored, or a figure returned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// Points for one player.
    Score(&'a ScoreEvent),
    /// A figure back in its owner's supply.
    FigureReturned(&'a FigureReturn),
}

/// The events of a stretch of the game in the order they happened (score events and
/// figure returns merged); see [`Game::turn_events`].
#[derive(Clone, Debug)]
pub struct Events<'a> {
    pub(super) scores: &'a [ScoreEvent],
    pub(super) returns: &'a [FigureReturn],
    /// Next score event and end (indices into `scores`).
    pub(super) e: (u32, u32),
    /// Next return and end (indices into `returns`).
    pub(super) r: (u32, u32),
}

impl<'a> Iterator for Events<'a> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        let return_first = self.r.0 < self.r.1
            && (self.e.0 >= self.e.1 || self.returns[self.r.0 as usize].after <= self.e.0);
        if return_first {
            self.r.0 += 1;
            Some(Event::FigureReturned(&self.returns[self.r.0 as usize - 1]))
        } else if self.e.0 < self.e.1 {
            self.e.0 += 1;
            Some(Event::Score(&self.scores[self.e.0 as usize - 1]))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.e.1 - self.e.0 + self.r.1 - self.r.0) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Events<'_> {}

/// Lists the parts of scored features as they were when they scored
/// ([`Game::scored_parts`]): it replays the game's joins of features in order, so
/// listing the features of a whole game in order costs one pass over its joins.
#[derive(Clone, Debug)]
pub struct ScoredParts<'a> {
    pub(super) game: &'a Game,
    pub(super) parent: Vec<NodeId>,
    pub(super) next: Vec<NodeId>,
    pub(super) applied: usize,
    pub(super) ids: Vec<NodeId>,
}

impl ScoredParts<'_> {
    fn find(&mut self, mut id: NodeId) -> NodeId {
        while self.parent[id as usize] != id {
            let grand = self.parent[self.parent[id as usize] as usize];
            self.parent[id as usize] = grand;
            id = grand;
        }
        id
    }

    pub(super) fn restart(&mut self) {
        let n = self.game.features.len();
        self.parent.clear();
        self.parent.extend(0..n as NodeId);
        self.next.clear();
        self.next.extend(0..n as NodeId);
        self.applied = 0;
    }

    /// Writes the parts of `feature` (tile square and local feature index, in the order
    /// of their tiles' placement) into `out` (cleared first). Cheapest when asked in the
    /// order the features scored.
    pub fn parts_into(&mut self, feature: ScoredFeature, out: &mut Vec<(Pos, u8)>) {
        out.clear();
        if feature.joins as usize > self.game.joins.len()
            || feature.node as usize >= self.game.features.len()
        {
            return;
        }
        if (feature.joins as usize) < self.applied {
            self.restart();
        }
        while self.applied < feature.joins as usize {
            let (a, b) = self.game.joins[self.applied];
            self.applied += 1;
            let (ra, rb) = (self.find(a), self.find(b));
            if ra != rb {
                self.parent[rb as usize] = ra;
                self.next.swap(ra as usize, rb as usize);
            }
        }
        // Nodes are numbered in placement order, each tile's in local order.
        self.ids.clear();
        let start = feature.node;
        let mut id = start;
        loop {
            self.ids.push(id);
            id = self.next[id as usize];
            if id == start {
                break;
            }
        }
        self.ids.sort_unstable();
        out.extend(self.ids.iter().map(|&id| {
            let n = self.game.features.node(id);
            (self.game.board.placement(n.placement as usize).pos, n.local)
        }));
    }

    /// The parts of `feature` (see [`ScoredParts::parts_into`]).
    pub fn parts(&mut self, feature: ScoredFeature) -> Vec<(Pos, u8)> {
        let mut out = Vec::new();
        self.parts_into(feature, &mut out);
        out
    }
}
