//! The base game's part of the observation schema: the tiles and their features, the
//! figures, the legal placements and the focus; the phase, seats, scores, supplies and
//! tiles; the `TILE`, `CELL` and `SLOT` ids. Its writer also fills, in its one loop over
//! the tiles, every section's planes of symbols and side terrains ([`Fill`]).

use super::observe::Writer;
use super::schema::{plane_index, Compact, Dim, Fill, Live, Row, Section, SECTIONS};
use super::stats::FeatureStats;
use carcassonne::config::Figure;
use carcassonne::features::NodeId;
use carcassonne::game::Phase;
use carcassonne::scoring::feature_value;
use carcassonne::tiles::{FeatureKind, Symbols, Terrain, TileSet, NO_FEATURE};
use std::sync::OnceLock;

/// The base game's rows.
pub const SECTION: Section = Section {
    key: "base",
    title: "Base game",
    planes: &[
        Row::new("occupied", &[], "1 if a tile lies on the square"),
        Row::side_terrain("city", Terrain::City, "1 if the side is city"),
        Row::side_terrain("road", Terrain::Road, "1 if the side is road"),
        Row::new(
            "link-next",
            &[Dim::Side],
            "1 if the city, road or river on this side continues to the next side clockwise on the tile",
        ),
        Row::new(
            "link-opposite",
            &[Dim::Axes("NS", "EW")],
            "1 if the city, road or river on the north (NS) or east (EW) side continues to the opposite side on the tile",
        ),
        Row::new("monastery", &[], "1 if the tile has a monastery or a shrine, or is the abbey")
            .live(Live::Any(&[Live::Feature(FeatureKind::Monastery), Live::Feature(FeatureKind::Shrine)])),
        Row::new("garden", &[], "1 if the tile has a garden").live(Live::Feature(FeatureKind::Garden)),
        Row::new("pennants", &[], "number of pennants on the tile").live(Live::Pennants),
        Row::new("last-placed", &[], "1 on the most recently placed tile"),
        Row::new(
            "focus",
            &[],
            "1 on the focus tile that SLOT ids refer to (the placed tile while deploying, or the square picked by a CELL id)",
        )
        .compact(Compact::KeepIf(Live::Cells))
        .follows_focus(),
        Row::new(
            "legal-placement",
            &[Dim::Rotation],
            "1 if placing the tile in hand here with this rotation and no bridge is legal (also while a focus is pending)",
        ),
        Row::new(
            "cell-target",
            &[],
            "1 if the square's CELL id starts a legal action of the decision (also while a focus is pending)",
        )
        .live(Live::Cells),
        Row::new(
            "figures",
            &[Dim::Seat, Dim::Figure],
            "number of figures of this relative seat and kind on the tile",
        )
        .compact(Compact::SumOpponents),
        Row::new(
            "side-own",
            &[Dim::Side],
            "strength of the observing player on the feature at the side's middle third (mayor: pennants)",
        ),
        Row::new(
            "side-best-opponent",
            &[Dim::Side],
            "highest strength of an opponent on the feature at the side's middle third",
        ),
        Row::new(
            "side-open",
            &[Dim::Side],
            "open edges of the city, road or river at the side's middle third (0 for fields)",
        ),
        Row::new(
            "side-value",
            &[Dim::Side],
            "points the city or road at the side's middle third would score now (complete: B12, else B15)",
        ),
        Row::new(
            "centre-own",
            &[],
            "strength of the observing player on the tile's monastery or garden",
        ),
        Row::new(
            "centre-best-opponent",
            &[],
            "highest opponent strength on the tile's monastery or garden",
        ),
        Row::new(
            "centre-value",
            &[],
            "points the tile's monastery or garden would score now (9 when complete, else 1 + neighbours)",
        ),
    ],
    globals: &[
        Row::new("phase", &[Dim::Phase], "one-hot of the decision's phase"),
        Row::new(
            "focus-pending",
            &[],
            "1 while a CELL id has picked a focus square and a SLOT or BRIDGE id must follow",
        )
        .live(Live::Cells)
        .follows_focus(),
        Row::new("is-to-play", &[], "1 if the observing player decides now"),
        Row::new("seat-present", &[Dim::Seat], "1 if the seat is in the game")
            .compact(Compact::Drop),
        Row::new("turn-player", &[Dim::Seat], "one-hot of the turn player (0 when the game is over)"),
        Row::new(
            "to-play",
            &[Dim::Seat],
            "one-hot of the deciding player (0 when terminal or at a chance node)",
        ),
        Row::new("score", &[Dim::Seat], "score / 100"),
        Row::new("score-lead", &[], "(own score - best opponent score) / 100"),
        Row::new("supply", &[Dim::Seat, Dim::Figure], "figures in supply"),
        Row::new("tiles-left", &[], "tiles left to draw / 100"),
        Row::new("sets", &[Dim::Set], "1 if the set is in play").compact(Compact::Drop),
        Row::new("farmers", &[], "1 if farmers are in play").compact(Compact::Drop),
        Row::new("focus-rotation", &[Dim::Rotation], "one-hot of the focus tile's rotation")
            .follows_focus(),
        Row::new("focus-in-window", &[], "1 if the focus tile lies inside the window")
            .compact(Compact::KeepIf(Live::Cells))
            .follows_focus(),
        Row::new("origin-x", &[], "board column of window column 0 (raw)").compact(Compact::Drop),
        Row::new("origin-y", &[], "board row of window row 0 (raw)").compact(Compact::Drop),
        Row::new(
            "tile-in-hand",
            &[Dim::TileKind],
            "one-hot of the tile in hand (PlaceTile only)",
        ),
        Row::new("focus-tile", &[Dim::TileKind], "one-hot of the focus tile's kind")
            .follows_focus(),
        Row::new("remaining", &[Dim::TileKind], "tiles of that kind left to draw"),
    ],
    ids: &[
        Row::new(
            "tile",
            &[Dim::Rotation, Dim::WindowRow, Dim::WindowColumn],
            "place the tile in hand on window cell (wx, wy) turned rot quarter turns clockwise",
        ),
        Row::new(
            "cell",
            &[Dim::WindowRow, Dim::WindowColumn],
            "a square of the window: an abbey hole, a dragon step, the focus tile of a two-step decision, or the square of a placement that needs a bridge",
        )
        .live(Live::Cells),
        Row::new(
            "slot",
            &[Dim::Slot, Dim::Channel],
            "a feature slot of the focus tile and what to do there",
        ),
    ],
    names_squares: Live::Figure(Figure::Abbot),
    write,
};

/// Indices of the base game's planes (see the schema, [`SECTION`]). Groups indexed by
/// side run N, E, S, W; by rotation, by quarter turns.
pub mod plane {
    use super::super::schema::{plane_index, PLANE_COUNT};
    /// A tile lies here.
    pub const OCCUPIED: usize = plane_index("occupied");
    /// Offset by side: the side is city.
    pub const CITY: usize = plane_index("city");
    /// Offset by side: the side is road.
    pub const ROAD: usize = plane_index("road");
    /// Offset by side: the feature on this side continues to the next side clockwise.
    pub const LINK_NEXT: usize = plane_index("link-next");
    /// +0: north continues to south; +1: east to west.
    pub const LINK_OPPOSITE: usize = plane_index("link-opposite");
    /// A monastery, a shrine or the abbey.
    pub const MONASTERY: usize = plane_index("monastery");
    /// A garden.
    pub const GARDEN: usize = plane_index("garden");
    /// Pennants on the tile.
    pub const PENNANTS: usize = plane_index("pennants");
    /// The most recently placed tile.
    pub const LAST_PLACED: usize = plane_index("last-placed");
    /// The focus tile that `SLOT` ids refer to.
    pub const FOCUS: usize = plane_index("focus");
    /// Offset by rotation: placing the tile in hand here turned so is legal.
    pub const LEGAL_PLACEMENT: usize = plane_index("legal-placement");
    /// The square's `CELL` id starts a legal action.
    pub const CELL_TARGET: usize = plane_index("cell-target");
    /// Offset by 5·relative seat + figure kind: figures of that seat and kind.
    pub const FIGURES: usize = plane_index("figures");
    /// Offset by side: the observing player's strength on the feature.
    pub const SIDE_OWN: usize = plane_index("side-own");
    /// Offset by side: the best opponent's strength on the feature.
    pub const SIDE_BEST_OPPONENT: usize = plane_index("side-best-opponent");
    /// Offset by side: open edges of the feature.
    pub const SIDE_OPEN: usize = plane_index("side-open");
    /// Offset by side: points the feature would score now.
    pub const SIDE_VALUE: usize = plane_index("side-value");
    /// The observing player's strength on the monastery or garden.
    pub const CENTRE_OWN: usize = plane_index("centre-own");
    /// The best opponent's strength on the monastery or garden.
    pub const CENTRE_BEST_OPPONENT: usize = plane_index("centre-best-opponent");
    /// Points the monastery or garden would score now.
    pub const CENTRE_VALUE: usize = plane_index("centre-value");
    /// Number of planes `C` (every section's).
    pub const COUNT: usize = PLANE_COUNT;
}

/// Offsets of the base game's globals (see the schema, [`SECTION`]). Blocks indexed by
/// the tile catalogue are functions.
pub mod global {
    use super::super::schema::{catalogue_block, catalogue_offset, global_offset};
    /// Offset by phase (in the order of `Phase::ALL`): one-hot.
    pub const PHASE: usize = global_offset("phase");
    /// 1 while a focus picked by a `CELL` id waits for its second id.
    pub const FOCUS_PENDING: usize = global_offset("focus-pending");
    /// 1 if the observing player decides now.
    pub const IS_TO_PLAY: usize = global_offset("is-to-play");
    /// Offset by relative seat: 1 if the seat is in the game.
    pub const SEAT_PRESENT: usize = global_offset("seat-present");
    /// Offset by relative seat: one-hot of the turn player.
    pub const TURN_PLAYER: usize = global_offset("turn-player");
    /// Offset by relative seat: one-hot of the deciding player.
    pub const TO_PLAY: usize = global_offset("to-play");
    /// Offset by relative seat: score / 100.
    pub const SCORE: usize = global_offset("score");
    /// (own score − best opponent score) / 100.
    pub const SCORE_LEAD: usize = global_offset("score-lead");
    /// Offset by 5·relative seat + figure kind: figures in supply.
    pub const SUPPLY: usize = global_offset("supply");
    /// Tiles left to draw / 100.
    pub const TILES_LEFT: usize = global_offset("tiles-left");
    /// Offset by set (in `TileSet::ALL` order): 1 if in play.
    pub const SETS: usize = global_offset("sets");
    /// 1 if farmers are in play.
    pub const FARMERS: usize = global_offset("farmers");
    /// Offset by rotation: one-hot of the focus tile's rotation.
    pub const FOCUS_ROTATION: usize = global_offset("focus-rotation");
    /// 1 if the focus tile lies inside the window.
    pub const FOCUS_IN_WINDOW: usize = global_offset("focus-in-window");
    /// Window origin x, raw.
    pub const ORIGIN_X: usize = global_offset("origin-x");
    /// Window origin y, raw.
    pub const ORIGIN_Y: usize = global_offset("origin-y");

    /// Offset by catalogue index: one-hot of the tile in hand.
    pub fn tile_in_hand() -> usize {
        catalogue_offset(catalogue_block("tile-in-hand"))
    }
    /// Offset by catalogue index: one-hot of the focus tile's kind.
    pub fn focus_tile() -> usize {
        catalogue_offset(catalogue_block("focus-tile"))
    }
    /// Offset by catalogue index: tiles of that kind left to draw.
    pub fn remaining() -> usize {
        catalogue_offset(catalogue_block("remaining"))
    }
}

/// The planes the tile loop fills for every section: by side terrain and by symbol.
struct TileFills {
    /// The first plane of the side-terrain group of each terrain (by `Terrain as u8`).
    sides: [Option<usize>; 6],
    /// Symbol planes.
    symbols: Vec<(Symbols, usize)>,
    /// Union of their symbol bits.
    symbol_bits: u32,
}

fn tile_fills() -> &'static TileFills {
    static FILLS: OnceLock<TileFills> = OnceLock::new();
    FILLS.get_or_init(|| {
        let mut f = TileFills {
            sides: [None; 6],
            symbols: Vec::new(),
            symbol_bits: 0,
        };
        for s in SECTIONS {
            for row in s.planes {
                match row.fill {
                    Fill::Writer => {}
                    Fill::SideTerrain(t) => f.sides[t as usize] = Some(plane_index(row.name)),
                    Fill::Symbol(sym) => {
                        f.symbols.push((sym, plane_index(row.name)));
                        f.symbol_bits |= sym.bits();
                    }
                }
            }
        }
        f
    })
}

fn phase_index(phase: Phase) -> usize {
    Phase::ALL
        .iter()
        .position(|p| *p == phase)
        .expect("every phase is listed")
}

use global::*;
use plane::*;

fn write(w: &mut Writer<'_>) {
    write_tiles(w);
    write_figures_and_decision(w);
    write_globals(w);
}

/// Every placed tile inside the window: occupation, sides, links, feature statistics,
/// centre features, and every section's side-terrain and symbol planes.
fn write_tiles(w: &mut Writer<'_>) {
    FeatureStats::with(w.game, w.player, |stats| write_tiles_with(w, stats));
}

fn write_tiles_with(w: &mut Writer<'_>, stats: &mut FeatureStats) {
    let game = w.game;
    let fills = tile_fills();
    let features = game.features();
    for placement in game.board().placements() {
        let Some(c) = w.cell(placement.pos) else {
            continue;
        };
        let def = placement.def();
        let oriented = def.oriented(placement.rot);
        w.set(OCCUPIED, c, 1);
        for s in 0..4 {
            if let Some(p) = fills.sides[placement.sides[s] as usize] {
                w.set(p + s, c, 1);
            }
            let here = oriented.segment_feature[s * 3 + 1];
            if here == NO_FEATURE {
                continue;
            }
            let kind = def.features[here as usize].kind;
            let linear = kind != FeatureKind::Field;
            if linear && oriented.segment_feature[((s + 1) % 4) * 3 + 1] == here {
                w.set(LINK_NEXT + s, c, 1);
            }
            if linear && s < 2 && oriented.segment_feature[(s + 2) * 3 + 1] == here {
                w.set(LINK_OPPOSITE + s, c, 1);
            }
            let root = stats.root(placement.node_base + here as NodeId);
            let (own, best) = stats.strengths(root);
            w.set(SIDE_OWN + s, c, own);
            w.set(SIDE_BEST_OPPONENT + s, c, best);
            if linear {
                let open = features.node(root).open.min(255) as u8;
                w.set(SIDE_OPEN + s, c, open);
                w.set(SIDE_VALUE + s, c, stats.value(game, root));
            }
        }
        let mut pennants = 0u8;
        let (mut c_own, mut c_best, mut c_value) = (0u8, 0u8, 0u8);
        for (i, f) in def.features.iter().enumerate() {
            pennants = pennants.saturating_add(f.pennants);
            if f.kind.is_cloister() {
                let p = if f.kind == FeatureKind::Garden {
                    GARDEN
                } else {
                    MONASTERY
                };
                w.set(p, c, 1);
                let root = stats.root(placement.node_base + i as NodeId);
                let (own, best) = stats.strengths(root);
                c_own = c_own.max(own);
                c_best = c_best.max(best);
                let around = placement.surrounded_by;
                let incomplete = (around < 8).then_some(around);
                let value = feature_value(f.kind, 0, 0, incomplete, game.rules());
                c_value = c_value.max(value.clamp(0, 255) as u8);
            }
        }
        w.set(PENNANTS, c, pennants);
        w.set(CENTRE_OWN, c, c_own);
        w.set(CENTRE_BEST_OPPONENT, c, c_best);
        w.set(CENTRE_VALUE, c, c_value);
        if def.symbols.bits() & fills.symbol_bits != 0 {
            for &(sym, p) in &fills.symbols {
                if def.has(sym) {
                    w.set(p, c, 1);
                }
            }
        }
    }
}

/// The last placed tile, the focus, the figures on the board, and the placements and
/// squares the decision offers.
fn write_figures_and_decision(w: &mut Writer<'_>) {
    let game = w.game;
    let board = game.board();
    if let Some(last) = board.placements().last() {
        w.mark(LAST_PLACED, last.pos);
    }
    if let Some(pos) = w.focus_tile() {
        w.mark(FOCUS, pos);
    }
    for f in game.board_figures() {
        let pos = board.placement(f.placement as usize).pos;
        if let Some(c) = w.cell(pos) {
            let p = FIGURES + w.rel(f.owner as usize) * Figure::ALL.len() + f.figure.index();
            w.add(p, c, 1);
        }
    }
    // The decision's placements and squares: the same in both steps of a two-step
    // decision (the game does not change between them).
    let table = w.table;
    for (rot, c) in table.offered_cells() {
        match rot {
            Some(rot) => w.set(LEGAL_PLACEMENT + rot.quarter_turns() as usize, c, 1),
            None => w.set(CELL_TARGET, c, 1),
        }
    }
}

fn write_globals(w: &mut Writer<'_>) {
    let game = w.game;
    let player = w.player;
    let phase = game.phase();
    w.global(PHASE + phase_index(phase), 1.0);
    w.flag(FOCUS_PENDING, w.focus.is_some());
    let deciding = phase != Phase::GameOver && !phase.is_chance();
    w.flag(IS_TO_PLAY, deciding && game.to_play() == player);
    let scores = game.scores();
    let mut best_other = i32::MIN;
    for (seat, &score) in scores.iter().enumerate() {
        let r = w.rel(seat);
        w.global(SEAT_PRESENT + r, 1.0);
        w.global(SCORE + r, score as f32 / 100.0);
        if seat != player {
            best_other = best_other.max(score);
        }
        for f in Figure::ALL {
            let at = SUPPLY + r * Figure::ALL.len() + f.index();
            w.global(at, game.supply(seat, f) as f32);
        }
    }
    w.global(SCORE_LEAD, (scores[player] - best_other) as f32 / 100.0);
    if phase != Phase::GameOver {
        w.global(TURN_PLAYER + w.rel(game.turn_player()), 1.0);
    }
    if deciding {
        w.global(TO_PLAY + w.rel(game.to_play()), 1.0);
    }
    w.global(TILES_LEFT, game.tiles_left() as f32 / 100.0);
    for (i, set) in TileSet::ALL.into_iter().enumerate() {
        w.flag(SETS + i, game.has_set(set));
    }
    w.flag(FARMERS, game.rules().farmers);
    if let Some(pos) = w.focus_tile() {
        if let Some(p) = game.board().at(pos) {
            w.global(FOCUS_ROTATION + p.rot.quarter_turns() as usize, 1.0);
            w.flag(FOCUS_IN_WINDOW, w.cell(p.pos).is_some());
            w.global(focus_tile() + p.kind.index(), 1.0);
        }
    }
    let origin = w.origin();
    w.global(ORIGIN_X, origin.x as f32);
    w.global(ORIGIN_Y, origin.y as f32);
    if let Some(t) = game.tile_in_hand() {
        w.global(tile_in_hand() + t.index(), 1.0);
    }
    let rem = remaining();
    for (i, &count) in game.remaining_tiles().iter().enumerate() {
        w.global(rem + i, count as f32);
    }
}
