//! The board planes: indices and the table of names and meanings.

use carcassonne::config::{Figure, MAX_PLAYERS};
use std::sync::OnceLock;

/// Plane indices (see [`plane_table`] for names and meanings). Side-indexed groups are
/// ordered N, E, S, W; rotation-indexed groups by quarter turns.
pub mod plane {
    /// A tile lies here.
    pub const OCCUPIED: usize = 0;
    /// Offset by side: the side is city.
    pub const CITY: usize = 1;
    /// Offset by side: the side is road.
    pub const ROAD: usize = 5;
    /// Offset by side: the side is river.
    pub const RIVER: usize = 9;
    /// Offset by side: the city, road or river on this side continues to the next side
    /// clockwise on this tile.
    pub const LINK_NEXT: usize = 13;
    /// +0: the city, road or river on the north side continues to the south side; +1:
    /// east to west.
    pub const LINK_OPPOSITE: usize = 17;
    /// A monastery or abbey.
    pub const MONASTERY: usize = 19;
    /// A garden.
    pub const GARDEN: usize = 20;
    /// Pennants on the tile.
    pub const PENNANTS: usize = 21;
    /// The abbey tile.
    pub const ABBEY: usize = 22;
    /// A volcano.
    pub const VOLCANO: usize = 23;
    /// The dragon symbol.
    pub const DRAGON_SYMBOL: usize = 24;
    /// A magic portal.
    pub const MAGIC_PORTAL: usize = 25;
    /// A princess.
    pub const PRINCESS: usize = 26;
    /// A pig herd.
    pub const PIG_HERD: usize = 27;
    /// The most recently placed tile.
    pub const LAST_PLACED: usize = 28;
    /// The focus tile that `SLOT` ids refer to.
    pub const FOCUS: usize = 29;
    /// Offset by rotation: placing the tile in hand here turned so is legal.
    pub const LEGAL_PLACEMENT: usize = 30;
    /// The square's `CELL` id is offered.
    pub const CELL_TARGET: usize = 34;
    /// The dragon.
    pub const DRAGON: usize = 35;
    /// The fairy.
    pub const FAIRY: usize = 36;
    /// Visited by the dragon's current flight.
    pub const DRAGON_VISITED: usize = 37;
    /// Offset by 5·relative seat + figure kind: figures of that seat and kind on the tile.
    pub const FIGURES: usize = 38;
    /// Offset by side: strength of the observing player on the feature at the side's middle third.
    pub const SIDE_OWN: usize = 68;
    /// Offset by side: the highest strength of an opponent on that feature.
    pub const SIDE_BEST_OPPONENT: usize = 72;
    /// Offset by side: open edges of that feature (cities, roads, rivers).
    pub const SIDE_OPEN: usize = 76;
    /// Offset by side: points the feature would score now (cities, roads).
    pub const SIDE_VALUE: usize = 80;
    /// Strength of the observing player on the tile's monastery or garden.
    pub const CENTRE_OWN: usize = 84;
    /// Highest opponent strength on the tile's monastery or garden.
    pub const CENTRE_BEST_OPPONENT: usize = 85;
    /// Points the tile's monastery or garden would score now.
    pub const CENTRE_VALUE: usize = 86;
    /// Offset by axis (NS, WE): the tile carries a bridge along it (BR3).
    pub const BRIDGE: usize = 87;
    /// A castle of the observing player that has not scored lies on the tile (CA1).
    pub const CASTLE_OWN: usize = 89;
    /// An opponent's castle that has not scored lies on the tile.
    pub const CASTLE_OPPONENT: usize = 90;
    /// The tile has a shrine (CU1).
    pub const SHRINE: usize = 91;
    /// The tile shows a bazaar (BZ1).
    pub const BAZAAR: usize = 92;
    /// The square belongs to the City of Carcassonne (CC1).
    pub const CITY_OF_CARCASSONNE: usize = 93;
    /// Number of planes `C`.
    pub const COUNT: usize = 94;
}

/// One row of the plane table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneInfo {
    /// Index.
    pub index: usize,
    /// Name, e.g. `city.N`, `figures.rel1.wagon`.
    pub name: String,
    /// What a cell holds.
    pub meaning: &'static str,
}

const SIDE_NAMES: [&str; 4] = ["N", "E", "S", "W"];

/// The planes `{group}.N`, `{group}.E`, `{group}.S`, `{group}.W` of each group, in
/// that order, with the group's meaning.
fn per_side(groups: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    groups
        .iter()
        .flat_map(|&(group, meaning)| SIDE_NAMES.map(|s| (format!("{group}.{s}"), meaning)))
        .collect()
}

/// Every plane by index.
pub fn plane_table() -> &'static [PlaneInfo] {
    static TABLE: OnceLock<Vec<PlaneInfo>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(plane::COUNT);
        let mut push = |name: String, meaning: &'static str| {
            t.push(PlaneInfo {
                index: t.len(),
                name,
                meaning,
            })
        };
        push("occupied".into(), "1 if a tile lies on the square");
        for (name, meaning) in per_side(&[
            ("city", "1 if the side is city"),
            ("road", "1 if the side is road"),
            ("river", "1 if the side is river"),
            (
                "link-next",
                "1 if the city, road or river on this side continues to the next side clockwise on the tile",
            ),
        ]) {
            push(name, meaning);
        }
        push(
            "link-opposite.NS".into(),
            "1 if the city, road or river on the north side continues to the south side on the tile",
        );
        push(
            "link-opposite.EW".into(),
            "1 if the city, road or river on the east side continues to the west side on the tile",
        );
        push("monastery".into(), "1 if the tile has a monastery or is the abbey");
        push("garden".into(), "1 if the tile has a garden");
        push("pennants".into(), "number of pennants on the tile");
        push("abbey".into(), "1 if the tile is the abbey tile");
        push("volcano".into(), "1 if the tile shows a volcano");
        push("dragon-symbol".into(), "1 if the tile shows the dragon symbol");
        push("magic-portal".into(), "1 if the tile shows a magic portal");
        push("princess".into(), "1 if the tile shows a princess");
        push("pig-herd".into(), "1 if the tile shows a pig herd");
        push("last-placed".into(), "1 on the most recently placed tile");
        push(
            "focus".into(),
            "1 on the focus tile that SLOT ids refer to (the placed tile while deploying, or the tile picked by a CELL id)",
        );
        for r in 0..4 {
            push(
                format!("legal-placement.rot{r}"),
                "1 if placing the tile in hand here with this rotation is legal",
            );
        }
        push("cell-target".into(), "1 if the square's CELL id is offered by the mask");
        push("dragon".into(), "1 where the dragon stands");
        push("fairy".into(), "1 where the fairy stands");
        push("dragon-visited".into(), "1 on tiles visited by the dragon's current flight");
        for rel in 0..MAX_PLAYERS {
            for f in Figure::ALL {
                push(
                    format!("figures.rel{rel}.{}", f.name()),
                    "number of figures of this relative seat and kind on the tile",
                );
            }
        }
        for (name, meaning) in per_side(&[
            (
                "side-own",
                "strength of the observing player on the feature at the side's middle third (mayor: pennants)",
            ),
            (
                "side-best-opponent",
                "highest strength of an opponent on the feature at the side's middle third",
            ),
            (
                "side-open",
                "open edges of the city, road or river at the side's middle third (0 for fields)",
            ),
            (
                "side-value",
                "points the city or road at the side's middle third would score now (complete: B12, else B15)",
            ),
        ]) {
            push(name, meaning);
        }
        push(
            "centre-own".into(),
            "strength of the observing player on the tile's monastery or garden",
        );
        push(
            "centre-best-opponent".into(),
            "highest opponent strength on the tile's monastery or garden",
        );
        push(
            "centre-value".into(),
            "points the tile's monastery or garden would score now (9 when complete, else 1 + neighbours)",
        );
        push("bridge.NS".into(), "1 if the tile carries a bridge from north to south");
        push("bridge.WE".into(), "1 if the tile carries a bridge from west to east");
        push(
            "castle-own".into(),
            "1 on the two tiles of a castle of the observing player that has not scored yet",
        );
        push(
            "castle-opponent".into(),
            "1 on the two tiles of an opponent's castle that has not scored yet",
        );
        push("shrine".into(), "1 if the tile has a shrine");
        push("bazaar".into(), "1 if the tile shows a bazaar");
        push(
            "city-of-carcassonne".into(),
            "1 on the twelve squares of the City of Carcassonne",
        );
        t
    })
}
