//! The board as a self-contained SVG picture ([`board_svg`]), and the parts of it that
//! the HTML replay draws once per turn.

use super::{anchor_segment, centre_of, feature_label, segment_kind, Centre};
use carcassonne::board::Placement;
use carcassonne::config::Figure;
use carcassonne::game::{BoardFigure, Game};
use carcassonne::geometry::{Pos, Rotation};
use carcassonne::tiles::{FeatureKind, Oriented, RoadEnd, TileKind, NO_FEATURE};
use std::fmt::Write as _;

/// The colour of each seat's figures in the SVG picture: saturated colours, each far
/// from every terrain and symbol colour of the picture.
pub const PLAYER_COLOURS: [&str; 6] = [
    "#d62728", "#1f3fbf", "#f7e11a", "#222222", "#9b4dca", "#ff7f0e",
];

/// The English name of a seat's colour in the SVG picture.
pub const PLAYER_COLOUR_NAMES: [&str; 6] = ["red", "blue", "yellow", "black", "purple", "orange"];

/// Side of a tile square in the SVG, in user units.
const TILE: f64 = 60.0;
/// Room for the coordinate labels around the board.
const MARGIN: f64 = 28.0;
/// Height of the status line above the board.
const HEADER: f64 = 22.0;
/// Height of one score line under the board.
const SCORE_LINE: f64 = 18.0;
/// Width of one legend entry.
const LEGEND_ITEM: f64 = 136.0;
/// Height of one row of legend entries.
const LEGEND_ROW: f64 = 20.0;
/// The narrowest picture: three legend entries side by side.
const MIN_WIDTH: f64 = 2.0 * MARGIN + 3.0 * LEGEND_ITEM;

// Terrain and symbols are drawn in muted or light tones, seats in saturated ones: no
// seat colour is near any of these fills (a test measures the distances), so figures
// never blend into the ground, and no symbol has a figure's shape.
const FIELD_COLOUR: &str = "#9cc56a";
const CITY_COLOUR: &str = "#d2b48c";
const CITY_EDGE_COLOUR: &str = "#6e4b27";
const ROAD_COLOUR: &str = "#f6f2e4";
const ROAD_EDGE_COLOUR: &str = "#7d7466";
const RIVER_COLOUR: &str = "#a9def5";
const RIVER_EDGE_COLOUR: &str = "#5aa9cf";
const ABBEY_COLOUR: &str = "#e3d3b0";
const MONASTERY_COLOUR: &str = "#f3ead8";
const MONASTERY_EDGE_COLOUR: &str = "#5b3a1a";
const GARDEN_COLOUR: &str = "#3d7a35";
const PENNANT_COLOUR: &str = "#fffaf0";
const VOLCANO_COLOUR: &str = "#6b4a3a";
const PORTAL_COLOUR: &str = "#19a7a0";
const HIGHLIGHT_COLOUR: &str = "#ffffff";
const BRIDGE_EDGE_COLOUR: &str = "#5b3a1a";
const CASTLE_COLOUR: &str = "#9a9a9a";

/// Every fill that shows terrain or a tile symbol (for the palette test).
#[cfg(test)]
const TERRAIN_FILLS: [&str; 11] = [
    FIELD_COLOUR,
    CITY_COLOUR,
    ROAD_COLOUR,
    RIVER_COLOUR,
    RIVER_EDGE_COLOUR,
    ABBEY_COLOUR,
    MONASTERY_COLOUR,
    GARDEN_COLOUR,
    PENNANT_COLOUR,
    VOLCANO_COLOUR,
    PORTAL_COLOUR,
];

/// The colour of a seat's figures.
fn seat_colour(seat: usize) -> &'static str {
    PLAYER_COLOURS[seat % PLAYER_COLOURS.len()]
}

/// The colour of letters drawn on a seat's figures: white on dark colours, black on
/// light ones.
fn seat_ink(seat: usize) -> &'static str {
    match seat % PLAYER_COLOURS.len() {
        2 | 5 => "#000000",
        _ => "#ffffff",
    }
}

/// A seat as people read it: `seat 1 (blue)`.
fn seat_name(seat: usize) -> String {
    format!(
        "seat {seat} ({})",
        PLAYER_COLOUR_NAMES[seat % PLAYER_COLOUR_NAMES.len()]
    )
}

/// A number for SVG output: integers without a fraction, else one decimal (deterministic).
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// A point as `x y` for path data and `points` lists.
fn pt(p: (f64, f64)) -> String {
    format!("{} {}", num(p.0), num(p.1))
}

/// Text for SVG and HTML: `&`, `<`, `>` and `"` escaped.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Corner `i` of a tile square (0 = NW, clockwise), in tile coordinates.
fn square_corner(i: usize) -> (f64, f64) {
    match i & 3 {
        0 => (0.0, 0.0),
        1 => (TILE, 0.0),
        2 => (TILE, TILE),
        _ => (0.0, TILE),
    }
}

/// The point at `t` thirds along the tile's border, clockwise from the north-west corner
/// (`t` in 0..12; whole numbers are the ends of the segments).
fn border_point(t: f64) -> (f64, f64) {
    let t = t.rem_euclid(12.0);
    let side = ((t / 3.0).floor() as usize).min(3);
    let f = (t - side as f64 * 3.0) / 3.0;
    let (a, b) = (square_corner(side), square_corner(side + 1));
    (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
}

/// The two ends of segment `side * 3 + third` along the tile's border, clockwise.
fn segment_ends(segment: usize) -> ((f64, f64), (f64, f64)) {
    (
        border_point(segment as f64),
        border_point(segment as f64 + 1.0),
    )
}

/// The centroid of segment `segment`'s triangle (border third and tile centre).
fn segment_point(segment: usize) -> (f64, f64) {
    let (p, q) = segment_ends(segment);
    let c = TILE / 2.0;
    ((p.0 + q.0 + c) / 3.0, (p.1 + q.1 + c) / 3.0)
}

/// The middle of a side's border.
fn side_middle(side: usize) -> (f64, f64) {
    border_point(side as f64 * 3.0 + 1.5)
}

/// One step of an outline: a straight line or a quadratic curve (control, end).
#[derive(Copy, Clone, Debug, PartialEq)]
enum Step {
    Line((f64, f64)),
    Curve((f64, f64), (f64, f64)),
}

/// The outline of one city on a tile: its start and steps. The city's border thirds are
/// joined by curves that bow toward the tile's centre wherever the city leaves the
/// border; `None` when the feature covers no border third.
///
/// Separate cities of one tile are separate shapes: a curve between two border points
/// stays inside the wedges (border to centre) of the sides it bows over, so two cities
/// never overlap (a test samples the shapes of every catalogue tile).
fn city_outline(
    oriented: &Oriented,
    local: u8,
    kinds: impl Fn(u8) -> FeatureKind,
) -> Option<((f64, f64), Vec<Step>)> {
    let covered: [bool; 12] = std::array::from_fn(|s| oriented.segment_feature[s] == local);
    if !covered.iter().any(|&c| c) {
        return None;
    }
    if covered.iter().all(|&c| c) {
        let steps = (1..=4).map(|i| Step::Line(square_corner(i))).collect();
        return Some((square_corner(0), steps));
    }
    let runs: Vec<(usize, usize)> = (0..12)
        .filter(|&s| covered[s] && !covered[(s + 11) % 12])
        .map(|first| {
            let len = (0..12).take_while(|k| covered[(first + k) % 12]).count();
            (first, len)
        })
        .collect();
    let c = TILE / 2.0;
    let mut steps = Vec::with_capacity(16);
    for (i, &(first, len)) in runs.iter().enumerate() {
        for k in 1..=len {
            steps.push(Step::Line(border_point((first + k) as f64)));
        }
        let end = first + len;
        let next = runs[(i + 1) % runs.len()].0;
        let gap = (next + 12 - end % 12) % 12;
        // The curve's control point: the middle of the uncovered border, pulled to the
        // centre. A city across a corner keeps some of the corner's field (the curve
        // bows out) unless another city lies along that border: then the curve is the
        // diagonal, and the other city stays on its own side of it.
        let middle = end as f64 + gap as f64 / 2.0;
        let m = border_point(middle);
        let other_city = (end..end + gap).any(|s| {
            let f = oriented.segment_feature[s % 12];
            f != local && f != NO_FEATURE && kinds(f) == FeatureKind::City
        });
        let pull = if middle % 3.0 == 0.0 && !other_city {
            0.6
        } else {
            1.0
        };
        let control = (m.0 + (c - m.0) * pull, m.1 + (c - m.1) * pull);
        steps.push(Step::Curve(control, border_point(next as f64)));
    }
    Some((border_point(runs[0].0 as f64), steps))
}

/// The SVG paths of one city ([`city_outline`]): the closed area, and apart its inner
/// edges (the border itself is shared with the next tile, so only the curves are
/// outlined).
fn city_paths(kind: TileKind, oriented: &Oriented, local: u8) -> Option<(String, String)> {
    let (start, steps) = city_outline(oriented, local, |f| kind.def().features[f as usize].kind)?;
    let mut area = format!("M {}", pt(start));
    let mut edges = String::new();
    let mut at = start;
    for step in steps {
        match step {
            Step::Line(to) => {
                let _ = write!(area, " L {}", pt(to));
                at = to;
            }
            Step::Curve(control, to) => {
                let _ = write!(area, " Q {} {}", pt(control), pt(to));
                let _ = write!(edges, "M {} Q {} {} ", pt(at), pt(control), pt(to));
                at = to;
            }
        }
    }
    area.push_str(" Z");
    Some((area, edges.trim_end().to_string()))
}

/// Where a figure is drawn on its tile, in tile coordinates.
fn figure_point(kind: TileKind, rot: Rotation, figure: &BoardFigure) -> (f64, f64) {
    let c = TILE / 2.0;
    if let Some(corner) = figure.corner() {
        let inset = TILE * 0.14;
        let (x, y) = square_corner(corner.index());
        return (
            if x == 0.0 { inset } else { TILE - inset },
            if y == 0.0 { inset } else { TILE - inset },
        );
    }
    let def = kind.def();
    if figure.local as usize >= def.features.len() {
        // On the tile's bridge (BR3), just off the centre where the bridge runs.
        return (c + TILE * 0.12, c - TILE * 0.12);
    }
    let oriented = def.oriented(rot);
    match anchor_segment(oriented, figure.local) {
        Some(s) => segment_point(s),
        None => {
            // Features inside the tile: the monastery, garden or abbey at the centre,
            // enclosed fields spread diagonally by their order on the tile.
            let feature = &def.features[figure.local as usize];
            if feature.kind == FeatureKind::Field {
                let k = def.features[..figure.local as usize]
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Field && f.segments == 0)
                    .count() as f64;
                let d = if k == 0.0 { -TILE * 0.2 } else { TILE * 0.2 };
                (c - d, c + d)
            } else {
                (c, c)
            }
        }
    }
}

/// The outline of a follower (a meeple) of height about `2.2 * s`, standing on `(x, y)`.
fn meeple(x: f64, y: f64, s: f64) -> (String, (f64, f64), f64) {
    const BODY: [(f64, f64); 11] = [
        (-0.5, 0.6),
        (-0.17, 0.05),
        (-0.55, -0.1),
        (-0.48, -0.32),
        (0.48, -0.32),
        (0.55, -0.1),
        (0.17, 0.05),
        (0.5, 0.6),
        (0.12, 0.6),
        (0.0, 0.36),
        (-0.12, 0.6),
    ];
    let points: Vec<String> = BODY
        .iter()
        .map(|(u, v)| format!("{},{}", num(x + u * s * 2.0), num(y + v * s * 2.0)))
        .collect();
    (points.join(" "), (x, y - 1.1 * s), 0.44 * s)
}

/// One figure: a meeple in its owner's colour (abbot, mayor and wagon with their
/// initial), a barn as a square on its corner. `class` is `figure` on the board,
/// `swatch` in the legend and the score lines.
fn svg_figure(
    out: &mut String,
    class: &str,
    at: (f64, f64),
    seat: Option<usize>,
    figure: Figure,
    title: &str,
) {
    // No seat: the legend's white figure.
    let (colour, ink) = seat.map_or(("#ffffff", "#000000"), |s| (seat_colour(s), seat_ink(s)));
    let (x, y) = at;
    let s = TILE * 0.11;
    let _ = write!(
        out,
        r#"<g class="{class} {}"{}><title>{}</title>"#,
        figure.name(),
        seat.map_or(String::new(), |s| format!(r#" data-seat="{s}""#)),
        escape(title)
    );
    if !figure.is_follower_like() {
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{2}" height="{2}" fill="{colour}" stroke="#111111" stroke-width="1"/>"##,
            num(x - s),
            num(y - s),
            num(2.0 * s)
        );
    } else {
        let (body, head, r) = meeple(x, y, s);
        let _ = write!(
            out,
            r##"<polygon points="{body}" fill="{colour}" stroke="#111111" stroke-width="0.9" stroke-linejoin="round"/><circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#111111" stroke-width="0.9"/>"##,
            num(head.0),
            num(head.1),
            num(r)
        );
    }
    // Every figure but the follower carries the initial of its name.
    let initial = (figure != Figure::Follower)
        .then(|| figure.name().chars().next().map(|c| c.to_ascii_uppercase()))
        .flatten();
    if let Some(letter) = initial {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="7" font-weight="bold" fill="{ink}" text-anchor="middle">{letter}</text>"#,
            num(x),
            num(y + 3.0)
        );
    }
    out.push_str("</g>\n");
}

/// A river end (lake or spring): a pond, never round like a figure's head.
fn svg_pond(out: &mut String, centre: (f64, f64)) {
    let _ = writeln!(
        out,
        r#"<ellipse class="lake" cx="{}" cy="{}" rx="{}" ry="{}" fill="{RIVER_COLOUR}" stroke="{RIVER_EDGE_COLOUR}" stroke-width="1.5"/>"#,
        num(centre.0),
        num(centre.1),
        num(TILE * 0.2),
        num(TILE * 0.12)
    );
}

/// A pennant (B12): a small light shield with a dark edge.
fn svg_pennant(out: &mut String, at: (f64, f64)) {
    let (x, y) = at;
    let w = TILE * 0.075;
    let _ = writeln!(
        out,
        r#"<polygon class="pennant" points="{},{} {},{} {},{} {},{} {},{}" fill="{PENNANT_COLOUR}" stroke="{CITY_EDGE_COLOUR}" stroke-width="1"/>"#,
        num(x - w),
        num(y - w),
        num(x + w),
        num(y - w),
        num(x + w),
        num(y + w * 0.4),
        num(x),
        num(y + w * 1.5),
        num(x - w),
        num(y + w * 0.4)
    );
}

/// A monastery or abbey (a chapel) with its centre at `(c, c)` and size `s`.
fn svg_chapel(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r#"<polygon class="monastery" points="{},{} {},{} {},{} {},{} {},{}" fill="{MONASTERY_COLOUR}" stroke="{MONASTERY_EDGE_COLOUR}" stroke-width="1.5"/>"#,
        num(x - s / 2.0),
        num(y + s / 2.0),
        num(x - s / 2.0),
        num(y - s / 6.0),
        num(x),
        num(y - s / 1.6),
        num(x + s / 2.0),
        num(y - s / 6.0),
        num(x + s / 2.0),
        num(y + s / 2.0)
    );
}

/// A volcano (PD1) centred at `at`, size `s`.
fn svg_volcano(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<polygon class="volcano" points="{},{} {},{} {},{} {},{}" fill="{VOLCANO_COLOUR}" stroke="#f0d9c0" stroke-width="1"/>"##,
        num(x - s / 1.6),
        num(y + s / 2.0),
        num(x - s / 5.0),
        num(y - s / 2.0),
        num(x + s / 5.0),
        num(y - s / 2.0),
        num(x + s / 1.6),
        num(y + s / 2.0)
    );
}

/// A magic portal (PD17) centred at `at`, size `s`.
fn svg_portal(out: &mut String, at: (f64, f64), s: f64) {
    let _ = writeln!(
        out,
        r#"<rect class="portal" x="{}" y="{}" width="{2}" height="{2}" rx="{3}" fill="none" stroke="{PORTAL_COLOUR}" stroke-width="3"/>"#,
        num(at.0 - s / 2.0),
        num(at.1 - s / 2.0),
        num(s),
        num(s / 4.0)
    );
}

/// A garden (A1) centred at `at`, size `s`: a clover of three leaves.
fn svg_garden(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let r = s / 4.0;
    let _ = write!(out, r#"<g class="garden" fill="{GARDEN_COLOUR}">"#);
    for (dx, dy) in [(0.0, -r), (-r, r * 0.6), (r, r * 0.6)] {
        let _ = write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}"/>"#,
            num(x + dx),
            num(y + dy),
            num(r * 1.05)
        );
    }
    out.push_str("</g>\n");
}

/// One tile as an SVG group at its board square; `order` is its placement index.
pub(super) fn svg_tile(out: &mut String, placement: &Placement, order: usize, origin: (f64, f64)) {
    let (kind, rot, pos) = (placement.kind, placement.rot, placement.pos);
    let def = kind.def();
    let oriented = def.oriented(rot);
    let c = TILE / 2.0;
    let _ = writeln!(
        out,
        r#"<g class="tile" data-x="{}" data-y="{}" data-tile="{}" data-rot="{}" data-order="{order}" transform="translate({} {})">"#,
        pos.x,
        pos.y,
        def.id,
        rot.quarter_turns(),
        num(origin.0),
        num(origin.1)
    );
    let _ = writeln!(
        out,
        "<title>{} at {} turned {}</title>",
        def.id,
        pos,
        rot.quarter_turns()
    );
    let _ = writeln!(
        out,
        r#"<rect width="{0}" height="{0}" fill="{FIELD_COLOUR}"/>"#,
        num(TILE)
    );
    // Abbey walls: thirds that belong to no feature (AM1).
    for segment in 0..12 {
        if segment_kind(kind, oriented, segment).is_some() {
            continue;
        }
        let (p, q) = segment_ends(segment);
        let _ = writeln!(
            out,
            r#"<polygon points="{},{} {},{} {},{}" fill="{ABBEY_COLOUR}" stroke="{ABBEY_COLOUR}" stroke-width="0.5"/>"#,
            num(p.0),
            num(p.1),
            num(q.0),
            num(q.1),
            num(c),
            num(c)
        );
    }
    // Cities, each its own shape with its own outline.
    for (i, f) in def.features.iter().enumerate() {
        if f.kind != FeatureKind::City {
            continue;
        }
        if let Some((area, edges)) = city_paths(kind, oriented, i as u8) {
            let _ = writeln!(
                out,
                r#"<path class="city" data-feature="{}" d="{area}" fill="{CITY_COLOUR}"/>"#,
                escape(&f.id)
            );
            if !edges.is_empty() {
                let _ = writeln!(
                    out,
                    r#"<path class="city-edge" d="{edges}" fill="none" stroke="{CITY_EDGE_COLOUR}" stroke-width="1.6"/>"#
                );
            }
        }
    }
    // Rivers, then roads (bridges cross rivers): a through feature joining two sides is
    // a curve through the centre; any other part runs from its side to the centre.
    let rivers = def
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::River);
    let roads = def
        .features
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FeatureKind::Road);
    for (i, f) in rivers.chain(roads) {
        let (colour, width, edge) = match f.kind {
            FeatureKind::Road => (ROAD_COLOUR, TILE * 0.1, ROAD_EDGE_COLOUR),
            FeatureKind::River => (RIVER_COLOUR, TILE * 0.14, RIVER_EDGE_COLOUR),
            _ => continue,
        };
        let sides: Vec<usize> = (0..4)
            .filter(|s| oriented.feature_sides[i] & (1 << s) != 0)
            .collect();
        let mut d = String::new();
        if sides.len() == 2 {
            let (a, b) = (side_middle(sides[0]), side_middle(sides[1]));
            let _ = write!(d, "M {} Q {c} {c} {}", pt(a), pt(b), c = num(c));
        } else {
            for s in sides {
                let _ = write!(d, "M {} L {} ", pt(side_middle(s)), pt((c, c)));
            }
        }
        let d = d.trim_end();
        let _ = writeln!(
            out,
            r#"<path d="{d}" fill="none" stroke="{edge}" stroke-width="{}" stroke-linecap="butt"/>"#,
            num(width + 3.0)
        );
        let _ = writeln!(
            out,
            r#"<path class="{}" d="{d}" fill="none" stroke="{colour}" stroke-width="{}" stroke-linecap="butt"/>"#,
            f.kind.name(),
            num(width)
        );
        match f.road_end {
            Some(RoadEnd::Lake) | Some(RoadEnd::Spring) => svg_pond(out, (c, c)),
            Some(RoadEnd::Junction) | Some(RoadEnd::DeadEnd) => {
                let s = TILE * 0.12;
                let _ = writeln!(
                    out,
                    r#"<rect class="junction" x="{0}" y="{0}" width="{1}" height="{1}" fill="{ROAD_EDGE_COLOUR}"/>"#,
                    num(c - s / 2.0),
                    num(s)
                );
            }
            _ => {}
        }
    }
    // Pennants (B12): a shield on the city's anchor third, inside the city.
    for (i, f) in def.features.iter().enumerate() {
        if f.kind != FeatureKind::City || f.pennants == 0 {
            continue;
        }
        if let Some(s) = anchor_segment(oriented, i as u8) {
            let (p, q) = segment_ends(s);
            let at = ((p.0 + q.0) * 0.38 + c * 0.24, (p.1 + q.1) * 0.38 + c * 0.24);
            svg_pennant(out, at);
        }
    }
    // Centre symbols.
    let s = TILE * 0.28;
    match centre_of(kind, rot) {
        Centre::Monastery | Centre::Abbey => svg_chapel(out, (c, c), s),
        Centre::Garden => svg_garden(out, (c, c), s),
        Centre::Volcano => svg_volcano(out, (c, c), s),
        Centre::Portal => svg_portal(out, (c, c), s * 0.9),
        Centre::Feature(_) => {}
    }
    // A garden on a tile with another centre (it never shares one, but draw it if so).
    if def.features.iter().any(|f| f.kind == FeatureKind::Garden)
        && centre_of(kind, rot) != Centre::Garden
    {
        svg_garden(out, (c + s, c + s), s * 0.6);
    }
    let _ = writeln!(
        out,
        r##"<rect class="outline" width="{0}" height="{0}" fill="none" stroke="#00000055" stroke-width="1"/>"##,
        num(TILE)
    );
    out.push_str("</g>\n");
}

/// The entries of the legend, in order (the last one only in replays).
const LEGEND: [&str; 17] = [
    "field",
    "city",
    "road",
    "river",
    "abbey walls",
    "monastery, abbey",
    "garden",
    "pennant",
    "lake, spring",
    "volcano",
    "magic portal",
    "follower",
    "abbot, mayor, wagon",
    "barn",
    "dragon",
    "fairy",
    "tile of this turn",
];

/// The swatch of legend entry `index`, in a 16×16 box at `(x, y)`.
fn legend_swatch(out: &mut String, index: usize, x: f64, y: f64) {
    let (cx, cy) = (x + 8.0, y + 8.0);
    let square = |out: &mut String, fill: &str, stroke: &str| {
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="16" height="16" fill="{fill}" stroke="{stroke}" stroke-width="1"/>"#,
            num(x),
            num(y)
        );
    };
    let line = |out: &mut String, colour: &str, edge: &str, width: f64| {
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="16" height="16" fill="{FIELD_COLOUR}"/><path d="M {} {} H {}" stroke="{edge}" stroke-width="{}"/><path d="M {} {} H {}" stroke="{colour}" stroke-width="{}"/>"#,
            num(x),
            num(y),
            num(x),
            num(cy),
            num(x + 16.0),
            num(width + 2.0),
            num(x),
            num(cy),
            num(x + 16.0),
            num(width)
        );
    };
    match index {
        0 => square(out, FIELD_COLOUR, "#00000055"),
        1 => square(out, CITY_COLOUR, CITY_EDGE_COLOUR),
        2 => line(out, ROAD_COLOUR, ROAD_EDGE_COLOUR, 5.0),
        3 => line(out, RIVER_COLOUR, RIVER_EDGE_COLOUR, 7.0),
        4 => square(out, ABBEY_COLOUR, "#00000055"),
        5 => svg_chapel(out, (cx, cy + 1.0), 13.0),
        6 => svg_garden(out, (cx, cy), 14.0),
        7 => svg_pennant(out, (cx, cy - 2.0)),
        8 => svg_pond(out, (cx, cy)),
        9 => svg_volcano(out, (cx, cy), 14.0),
        10 => svg_portal(out, (cx, cy), 12.0),
        11 => svg_figure(
            out,
            "swatch",
            (cx, cy + 2.0),
            None,
            Figure::Follower,
            "a follower",
        ),
        12 => svg_figure(
            out,
            "swatch",
            (cx, cy + 2.0),
            None,
            Figure::Abbot,
            "an abbot (A), mayor (M) or wagon (W)",
        ),
        13 => svg_figure(out, "swatch", (cx, cy), None, Figure::Barn, "a barn"),
        14 => svg_dragon(out, "swatch dragon", (cx, cy), "the dragon"),
        15 => svg_fairy(out, "swatch fairy", (cx, cy), "the fairy"),
        _ => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="14" height="14" fill="{FIELD_COLOUR}" stroke="{HIGHLIGHT_COLOUR}" stroke-width="2.5" stroke-dasharray="4 2"/>"##,
                num(x + 1.0),
                num(y + 1.0)
            );
        }
    }
}

/// The dragon (PD1) at `at`.
fn svg_dragon(out: &mut String, class: &str, at: (f64, f64), title: &str) {
    let _ = writeln!(
        out,
        r##"<g class="{class}"><title>{}</title><circle cx="{}" cy="{}" r="{}" fill="#5a0f0f" stroke="#ffcc00" stroke-width="1.5"/><text x="{}" y="{}" font-size="10" font-weight="bold" fill="#ffcc00" text-anchor="middle">D</text></g>"##,
        escape(title),
        num(at.0),
        num(at.1),
        num(TILE * 0.14),
        num(at.0),
        num(at.1 + 3.5)
    );
}

/// The fairy (PD15) at `at`.
fn svg_fairy(out: &mut String, class: &str, at: (f64, f64), title: &str) {
    let _ = writeln!(
        out,
        r##"<g class="{class}"><title>{}</title><circle cx="{}" cy="{}" r="{}" fill="#ff8fd0" stroke="#7a1f5c" stroke-width="1"/><text x="{}" y="{}" font-size="8" font-weight="bold" fill="#7a1f5c" text-anchor="middle">F</text></g>"##,
        escape(title),
        num(at.0),
        num(at.1),
        num(TILE * 0.1),
        num(at.0),
        num(at.1 + 3.0)
    );
}

/// Where everything goes in a picture of a board with bounds `(min, max)`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Layout {
    min: Pos,
    max: Pos,
    width: f64,
    /// Top of the board's first row.
    top: f64,
    /// Top of the score lines.
    scores_top: f64,
    /// Top of the legend.
    legend_top: f64,
    height: f64,
    legend_columns: usize,
}

impl Layout {
    pub(super) fn new((min, max): (Pos, Pos), players: usize, replay: bool) -> Layout {
        let cols = (max.x - min.x + 1) as f64;
        let rows = (max.y - min.y + 1) as f64;
        let width = (MARGIN * 2.0 + cols * TILE).max(MIN_WIDTH);
        let top = HEADER + MARGIN;
        let scores_top = top + rows * TILE + MARGIN;
        let legend_top = scores_top + SCORE_LINE * players as f64 + 8.0;
        let legend_columns = (((width - 2.0 * MARGIN) / LEGEND_ITEM).floor() as usize).max(1);
        let entries = if replay {
            LEGEND.len()
        } else {
            LEGEND.len() - 1
        };
        let legend_rows = entries.div_ceil(legend_columns);
        Layout {
            min,
            max,
            width,
            top,
            scores_top,
            legend_top,
            height: legend_top + legend_rows as f64 * LEGEND_ROW + 8.0,
            legend_columns,
        }
    }

    /// The top-left corner of square `pos`.
    pub(super) fn origin(&self, pos: Pos) -> (f64, f64) {
        (
            MARGIN + (pos.x - self.min.x) as f64 * TILE,
            self.top + (pos.y - self.min.y) as f64 * TILE,
        )
    }
}

/// The opening of the picture, its background and coordinates.
pub(super) fn svg_open(out: &mut String, layout: &Layout, title: &str) {
    let (w, h) = (num(layout.width), num(layout.height));
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect class="background" width="{w}" height="{h}" fill="#f7f5ee"/>"##
    );
    let (min, max) = (layout.min, layout.max);
    let board_bottom = layout.top + (max.y - min.y + 1) as f64 * TILE;
    let board_right = MARGIN + (max.x - min.x + 1) as f64 * TILE;
    out.push_str("<g class=\"coordinates\" fill=\"#555555\" text-anchor=\"middle\">\n");
    for x in min.x..=max.x {
        let cx = layout.origin(Pos::new(x, min.y)).0 + TILE / 2.0;
        for y in [layout.top - 9.0, board_bottom + 18.0] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{x}</text>"#, num(cx), num(y));
        }
    }
    for y in min.y..=max.y {
        let cy = layout.origin(Pos::new(min.x, y)).1 + TILE / 2.0 + 4.0;
        for x in [MARGIN / 2.0, board_right + MARGIN / 2.0] {
            let _ = writeln!(out, r#"<text x="{}" y="{}">{y}</text>"#, num(x), num(cy));
        }
    }
    out.push_str("</g>\n");
}

/// The legend: every terrain, symbol and figure with its name.
pub(super) fn svg_legend(out: &mut String, layout: &Layout, replay: bool) {
    out.push_str("<g class=\"legend\">\n");
    let entries = if replay {
        LEGEND.len()
    } else {
        LEGEND.len() - 1
    };
    for (i, label) in LEGEND.iter().enumerate().take(entries) {
        let x = MARGIN + (i % layout.legend_columns) as f64 * LEGEND_ITEM;
        let y = layout.legend_top + (i / layout.legend_columns) as f64 * LEGEND_ROW;
        legend_swatch(out, i, x, y);
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222">{label}</text>"##,
            num(x + 22.0),
            num(y + 12.0)
        );
    }
    out.push_str("</g>\n");
}

/// The parts of a picture that change from turn to turn: the status line, the figures,
/// the dragon and the fairy, the scores (the winner marked), and a frame around the
/// tiles placed in the turn shown (`new_tiles`, placement indices).
pub(super) fn svg_state(
    out: &mut String,
    game: &Game,
    layout: &Layout,
    new_tiles: std::ops::Range<usize>,
) {
    let board = game.board();
    // Status line.
    let status = if game.is_terminal() {
        let winners = game.winners();
        let best = game.scores().iter().copied().max().unwrap_or(0);
        let who = match winners.as_slice() {
            [one] => format!("{} wins with {best} points", seat_name(*one)),
            many => format!(
                "{} tie with {best} points",
                many.iter()
                    .map(|&s| seat_name(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        format!(
            "Game over after {} turns: {who}. Figures as they stood before final scoring.",
            game.turns().len()
        )
    } else {
        let played = game.turns().len() - usize::from(game.turn_in_progress());
        format!(
            "After {played} turns: {} tiles placed, {} left to draw.",
            board.len(),
            game.tiles_left()
        )
    };
    let _ = writeln!(
        out,
        r##"<text class="status" x="{}" y="{}" font-size="12" font-weight="bold" fill="#222222">{}</text>"##,
        num(MARGIN),
        num(HEADER - 6.0),
        escape(&status)
    );
    for i in new_tiles {
        if i >= board.len() {
            break;
        }
        let (x, y) = layout.origin(board.placement(i).pos);
        let _ = writeln!(
            out,
            r#"<rect class="new-tile" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{HIGHLIGHT_COLOUR}" stroke-width="2.5" stroke-dasharray="6 3"/>"#,
            num(x + 1.5),
            num(y + 1.5),
            num(TILE - 3.0),
            num(TILE - 3.0)
        );
    }
    // Bridges (BR3) across their tiles, and castles (CA1) on their cities.
    for i in 0..board.len() {
        let Some(axis) = game.bridge_at(i) else {
            continue;
        };
        let (x, y) = layout.origin(board.placement(i).pos);
        let [a, b] = axis.sides();
        let (p, q) = (side_middle(a.index()), side_middle(b.index()));
        let d = format!("M {} L {}", pt((x + p.0, y + p.1)), pt((x + q.0, y + q.1)));
        let _ = writeln!(
            out,
            r#"<g class="bridge"><title>bridge {} at {}</title><path d="{d}" stroke="{BRIDGE_EDGE_COLOUR}" stroke-width="{}"/><path d="{d}" stroke="{ROAD_COLOUR}" stroke-width="{}" stroke-dasharray="3 2"/></g>"#,
            axis.name(),
            board.placement(i).pos,
            num(TILE * 0.2),
            num(TILE * 0.12)
        );
    }
    for (owner, (pos, local), scored) in game.castles() {
        let Some(i) = board.index_at(pos) else {
            continue;
        };
        let p = board.placement(i);
        let (x, y) = layout.origin(pos);
        let (cx, cy) = anchor_segment(p.kind.def().oriented(p.rot), local)
            .map_or((TILE / 2.0, TILE / 2.0), segment_point);
        let (cx, cy) = (x + (cx + TILE / 2.0) / 2.0, y + (cy + TILE / 2.0) / 2.0);
        let s = TILE * 0.1;
        let _ = writeln!(
            out,
            r#"<g class="castle"><title>castle of {}{}</title><path d="M {} L {} L {} L {} L {} L {} L {} L {} L {} Z" fill="{CASTLE_COLOUR}" stroke="{}" stroke-width="2"/></g>"#,
            seat_name(owner as usize),
            if scored { " (scored)" } else { "" },
            pt((cx - s, cy + s)),
            pt((cx - s, cy - s)),
            pt((cx - s / 2.0, cy - s)),
            pt((cx - s / 2.0, cy - s / 2.0)),
            pt((cx + s / 2.0, cy - s / 2.0)),
            pt((cx + s / 2.0, cy - s)),
            pt((cx + s, cy - s)),
            pt((cx + s, cy + s)),
            pt((cx - s, cy + s)),
            seat_colour(owner as usize)
        );
    }
    // Figures, in a fixed order so that the output does not depend on the figure list's
    // internal order. A finished game shows them as they stood before final scoring.
    let figures = game.figures_before_final_scoring();
    let mut order: Vec<usize> = (0..figures.len()).collect();
    order.sort_by_key(|&k| {
        let f = &figures[k];
        (f.placement, f.figure, f.local, f.owner)
    });
    let fairy = game.fairy();
    let mut fairy_point = None;
    for k in order {
        let f = &figures[k];
        let p = board.placement(f.placement as usize);
        let (ox, oy) = layout.origin(p.pos);
        let (fx, fy) = figure_point(p.kind, p.rot, f);
        let (x, y) = (ox + fx, oy + fy);
        let what = if let Some(corner) = f.corner() {
            format!("corner {}", corner.name())
        } else {
            feature_label(game, f.placement as usize, f.local)
                .1
                .to_string()
        };
        let title = format!(
            "{} {} at {} {}",
            seat_name(f.owner as usize),
            f.figure.name(),
            p.pos,
            what
        );
        svg_figure(
            out,
            "figure",
            (x, y),
            Some(f.owner as usize),
            f.figure,
            &title,
        );
        if let Some((fpos, Some((owner, local)))) = fairy {
            if fpos == p.pos && owner == f.owner && local == f.local && f.corner().is_none() {
                fairy_point = Some((x + TILE * 0.15, y - TILE * 0.15));
            }
        }
    }
    if let Some((pos, _)) = fairy {
        let (ox, oy) = layout.origin(pos);
        let at = fairy_point.unwrap_or((ox + TILE * 0.8, oy + TILE * 0.2));
        svg_fairy(out, "fairy", at, &format!("fairy at {pos}"));
    }
    if let Some(pos) = game.dragon() {
        let (ox, oy) = layout.origin(pos);
        svg_dragon(
            out,
            "dragon",
            (ox + TILE * 0.72, oy + TILE * 0.72),
            &format!("dragon at {pos}"),
        );
    }
    // Scores, the winner marked.
    let winners = game.winners();
    out.push_str("<g class=\"scores\">\n");
    for (seat, score) in game.scores().iter().enumerate() {
        let x = MARGIN;
        let base = layout.scores_top + SCORE_LINE * seat as f64 + 12.0;
        let won = winners.contains(&seat);
        let _ = write!(
            out,
            r#"<g class="score{}" data-seat="{seat}">"#,
            if won { " winner" } else { "" }
        );
        svg_figure(
            out,
            "swatch",
            (x + 6.0, base - 4.0),
            Some(seat),
            Figure::Follower,
            &seat_name(seat),
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" fill="#222222"{}>{}: {score}{}</text></g>"##,
            num(x + 16.0),
            num(base),
            if won { r#" font-weight="bold""# } else { "" },
            seat_name(seat),
            if won { " \u{2605} winner" } else { "" }
        );
    }
    out.push_str("</g>\n");
}

/// The board as a self-contained SVG picture.
///
/// A status line on top (the turn, or the final result with the winner). One
/// `<g class="tile">` per placed tile (with `data-x`, `data-y`, `data-tile`, `data-rot`,
/// `data-order`): fields green, each city its own shape with its own outline (two
/// cities on one tile stay visibly apart), roads and rivers across, monasteries,
/// gardens, volcanoes, magic portals, lakes and pennants marked. Each figure is one
/// element of class `figure` in its owner's colour ([`PLAYER_COLOURS`], chosen apart
/// from every terrain colour): a meeple (abbot, mayor and wagon with their initial) or
/// a barn's square on its corner. A finished game shows its figures as they stood at the
/// end of the last turn, before final scoring returned them. The dragon and the fairy
/// are marked `D` and `F`. Coordinates label the columns and rows; the scores are
/// written below (the winner marked `★ winner`), then a legend of every symbol.
///
/// ```
/// use carcassonne::{Game, GameConfig};
/// use carcassonne_session::render;
/// let game = Game::new(GameConfig::new(3)).unwrap();
/// let svg = render::board_svg(&game);
/// assert_eq!(svg.matches(r#"<g class="tile""#).count(), 1);
/// assert!(svg.contains(r#"data-tile="BASE-D""#));
/// assert!(svg.contains(r#"<g class="legend">"#));
/// ```
pub fn board_svg(game: &Game) -> String {
    let board = game.board();
    let layout = Layout::new(board.bounds(), game.num_players(), false);
    let (min, max) = (layout.min, layout.max);
    let mut out = String::with_capacity(8192 + board.len() * 2048);
    svg_open(
        &mut out,
        &layout,
        &format!(
            "Carcassonne board: {} tiles, x {}..{}, y {}..{}",
            board.len(),
            min.x,
            max.x,
            min.y,
            max.y
        ),
    );
    for (i, p) in board.placements().iter().enumerate() {
        svg_tile(&mut out, p, i, layout.origin(p.pos));
    }
    svg_state(&mut out, game, &layout, 0..0);
    svg_legend(&mut out, &layout, false);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
#[path = "../tests/unit/render/svg.rs"]
mod tests;
