//! One tile of the SVG picture ([`svg_tile`]): its terrain drawn from the catalogue's
//! segments (fields, each city its own outlined shape, roads, rivers, the abbey's walls,
//! the walled City of Carcassonne) and its symbols (monastery, abbey, shrine, garden,
//! volcano, magic portal, bazaar, lakes, pennants, inns, cathedrals, hills, vineyards), and
//! where figures stand on it.

use super::symbols::{
    svg_bazaar, svg_cathedral, svg_chapel, svg_garden, svg_goods, svg_hill, svg_inn, svg_pennant,
    svg_pond, svg_portal, svg_shrine, svg_vineyard, svg_volcano,
};
use super::*;
use crate::render::{anchor_segment, centre_of, segment_look, Centre, Look};
use carcassonne::board::Placement;
use carcassonne::game::BoardFigure;
use carcassonne::geometry::{Corner, Rotation};
use carcassonne::tiles::{FeatureKind, Oriented, RoadEnd, Symbols, TileKind, NO_FEATURE};
use std::fmt::Write as _;

/// Corner `i` of a tile square (0 = NW, clockwise), in tile coordinates.
pub(super) fn square_corner(i: usize) -> (f64, f64) {
    match i & 3 {
        0 => (0.0, 0.0),
        1 => (TILE, 0.0),
        2 => (TILE, TILE),
        _ => (0.0, TILE),
    }
}

/// The point at `t` thirds along the tile's border, clockwise from the north-west corner
/// (`t` in 0..12; whole numbers are the ends of the segments).
pub(super) fn border_point(t: f64) -> (f64, f64) {
    let t = t.rem_euclid(12.0);
    let side = ((t / 3.0).floor() as usize).min(3);
    let f = (t - side as f64 * 3.0) / 3.0;
    let (a, b) = (square_corner(side), square_corner(side + 1));
    (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
}

/// The two ends of segment `side * 3 + third` along the tile's border, clockwise.
pub(super) fn segment_ends(segment: usize) -> ((f64, f64), (f64, f64)) {
    (
        border_point(segment as f64),
        border_point(segment as f64 + 1.0),
    )
}

/// The centroid of segment `segment`'s triangle (border third and tile centre).
pub(crate) fn segment_point(segment: usize) -> (f64, f64) {
    let (p, q) = segment_ends(segment);
    let c = TILE / 2.0;
    ((p.0 + q.0 + c) / 3.0, (p.1 + q.1 + c) / 3.0)
}

/// The middle of a side's border.
pub(crate) fn side_middle(side: usize) -> (f64, f64) {
    border_point(side as f64 * 3.0 + 1.5)
}

/// One step of an outline: a straight line or a quadratic curve (control, end).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) enum OutlineStep {
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
pub(super) fn city_outline(
    oriented: &Oriented,
    local: u8,
    kinds: impl Fn(u8) -> FeatureKind,
) -> Option<((f64, f64), Vec<OutlineStep>)> {
    let covered: [bool; 12] = std::array::from_fn(|s| oriented.segment_feature[s] == local);
    if !covered.iter().any(|&c| c) {
        return None;
    }
    if covered.iter().all(|&c| c) {
        let steps = (1..=4)
            .map(|i| OutlineStep::Line(square_corner(i)))
            .collect();
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
            steps.push(OutlineStep::Line(border_point((first + k) as f64)));
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
        steps.push(OutlineStep::Curve(control, border_point(next as f64)));
    }
    Some((border_point(runs[0].0 as f64), steps))
}

/// The SVG paths of one city ([`city_outline`]): the closed area, and apart its inner
/// edges (the border itself is shared with the next tile, so only the curves are
/// outlined).
pub(super) fn city_paths(
    kind: TileKind,
    oriented: &Oriented,
    local: u8,
) -> Option<(String, String)> {
    let (start, steps) = city_outline(oriented, local, |f| kind.def().features[f as usize].kind)?;
    let mut area = format!("M {}", pt(start));
    let mut edges = String::new();
    let mut at = start;
    for step in steps {
        match step {
            OutlineStep::Line(to) => {
                let _ = write!(area, " L {}", pt(to));
                at = to;
            }
            OutlineStep::Curve(control, to) => {
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
pub(crate) fn figure_point(kind: TileKind, rot: Rotation, figure: &BoardFigure) -> (f64, f64) {
    match figure.corner() {
        Some(corner) => corner_spot(corner),
        None => feature_spot(kind, rot, figure.local),
    }
}

/// Where a barn on `corner` of a tile is drawn (AM6), in the tile's square
/// ([`TILE_SIZE`]).
pub fn corner_spot(corner: Corner) -> (f64, f64) {
    let inset = TILE * 0.14;
    let (x, y) = square_corner(corner.index());
    (
        if x == 0.0 { inset } else { TILE - inset },
        if y == 0.0 { inset } else { TILE - inset },
    )
}

/// Where a figure on local feature `local` of a tile turned `rot` is drawn, in the
/// tile's square ([`TILE_SIZE`]): on the part of a city, road, river or field nearest
/// the middle of the first side it leaves through, at the centre for a monastery, garden
/// or abbey. A feature index past the tile's features is its bridge (BR3).
///
/// ```
/// use carcassonne_session::render::{feature_spot, TILE_SIZE};
/// use carcassonne::{catalogue, Rotation};
/// let a = catalogue().by_id("BASE-A").unwrap();
/// let monastery = a.def().feature_by_id("m1").unwrap() as u8;
/// assert_eq!(feature_spot(a, Rotation::default(), monastery), (TILE_SIZE / 2.0, TILE_SIZE / 2.0));
/// ```
pub fn feature_spot(kind: TileKind, rot: Rotation, local: u8) -> (f64, f64) {
    let c = TILE / 2.0;
    let def = kind.def();
    if local as usize >= def.features.len() {
        // On the tile's bridge (BR3), just off the centre where the bridge runs.
        return (c + TILE * 0.12, c - TILE * 0.12);
    }
    let oriented = def.oriented(rot);
    match anchor_segment(oriented, local) {
        Some(s) => segment_point(s),
        None => {
            // Features inside the tile: the monastery, garden or abbey at the centre,
            // enclosed fields spread diagonally by their order on the tile.
            let feature = &def.features[local as usize];
            if feature.kind == FeatureKind::Field {
                let k = def.features[..local as usize]
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

/// Where a tile's hill or vineyard (HS3, HS5) is drawn, in tile coordinates: on a field
/// third by a corner that is not where a figure on that field stands ([`feature_spot`]),
/// else on any field third, else below the centre.
pub(crate) fn field_symbol_spot(kind: TileKind, rot: Rotation) -> (f64, f64) {
    let def = kind.def();
    let oriented = def.oriented(rot);
    let field_third = |s: usize| {
        let f = oriented.segment_feature[s];
        f != NO_FEATURE && def.features[f as usize].kind == FeatureKind::Field
    };
    let corners = [0, 2, 3, 5, 6, 8, 9, 11];
    let free = corners.into_iter().find(|&s| {
        field_third(s) && anchor_segment(oriented, oriented.segment_feature[s]) != Some(s)
    });
    let any = || (0..12).find(|&s| field_third(s));
    free.or_else(any)
        .map_or((TILE / 2.0, TILE * 0.75), segment_point)
}

/// One tile as an SVG group at its board square; `order` is its placement index.
pub(crate) fn svg_tile(out: &mut String, placement: &Placement, order: usize, origin: (f64, f64)) {
    let (kind, rot, pos) = (placement.kind, placement.rot, placement.pos);
    let def = kind.def();
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
    svg_tile_art(out, kind, rot);
    out.push_str("</g>\n");
}

/// The drawing of a tile turned `rot` in a square from `(0, 0)` to `(TILE, TILE)`.
pub(super) fn svg_tile_art(out: &mut String, kind: TileKind, rot: Rotation) {
    let def = kind.def();
    let oriented = def.oriented(rot);
    let c = TILE / 2.0;
    let _ = writeln!(
        out,
        r#"<rect width="{0}" height="{0}" fill="{FIELD_COLOUR}"/>"#,
        num(TILE)
    );
    // Thirds that belong to no feature: the abbey's walls (AM1) and the walled City of
    // Carcassonne (CC2).
    for segment in 0..12 {
        let fill = match segment_look(kind, rot, segment) {
            Look::Feature(_) => continue,
            Look::AbbeyWall => ABBEY_COLOUR,
            Look::Walled => CARCASSONNE_COLOUR,
        };
        let (p, q) = segment_ends(segment);
        let _ = writeln!(
            out,
            r#"<polygon points="{},{} {},{} {},{}" fill="{fill}" stroke="{fill}" stroke-width="0.5"/>"#,
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
    // Inns (IC2): a house beside the road, on its anchor third; cathedrals (IC3): in the
    // middle of their city.
    for (i, f) in def.features.iter().enumerate() {
        if !(f.inn || f.cathedral) {
            continue;
        }
        if let Some(seg) = anchor_segment(oriented, i as u8) {
            let (p, q) = segment_ends(seg);
            if f.cathedral {
                svg_cathedral(out, (c, c), TILE * 0.3);
            } else {
                let at = ((p.0 + q.0) * 0.3 + c * 0.4, (p.1 + q.1) * 0.3 + c * 0.4);
                svg_inn(out, (at.0 + TILE * 0.1, at.1 - TILE * 0.06), TILE * 0.14);
            }
        }
    }
    // Trade goods (TB1): a token inside the city, near its anchor third.
    for (i, f) in def.features.iter().enumerate() {
        let Some(goods) = f.goods else {
            continue;
        };
        if let Some(seg) = anchor_segment(oriented, i as u8) {
            let (p, q) = segment_ends(seg);
            let at = ((p.0 + q.0) * 0.3 + c * 0.4, (p.1 + q.1) * 0.3 + c * 0.4);
            svg_goods(out, (at.0 - TILE * 0.1, at.1), TILE * 0.12, goods);
        }
    }
    // Centre symbols.
    let s = TILE * 0.28;
    match centre_of(kind, rot) {
        Centre::Monastery | Centre::Abbey => svg_chapel(out, (c, c), s),
        Centre::Shrine => svg_shrine(out, (c, c), s),
        Centre::Garden => svg_garden(out, (c, c), s),
        Centre::Volcano => svg_volcano(out, (c, c), s),
        Centre::Portal => svg_portal(out, (c, c), s * 0.9),
        Centre::Bazaar => svg_bazaar(out, (c, c), s * 1.1),
        Centre::Walled | Centre::Feature(_) => {}
    }
    // Hills (HS3) and vineyards (HS5): a mound, vines, on a field by a corner.
    if def.has(Symbols::HILL) {
        svg_hill(out, field_symbol_spot(kind, rot), TILE * 0.3);
    }
    if def.has(Symbols::VINEYARD) {
        svg_vineyard(out, field_symbol_spot(kind, rot), TILE * 0.26);
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
}
