//! The symbols and figures of the SVG picture, each drawn by one function at a given
//! point and size, and the legend's swatch of every piece ([`swatch`]).

use super::*;
use crate::render::pieces::Piece;
use crate::sets;
use carcassonne::config::Figure;
use carcassonne::tiles::Goods;
use std::fmt::Write as _;

/// The outline of a follower (a meeple) of height about `2.2 * s`, standing on `(x, y)`.
pub(super) fn meeple(x: f64, y: f64, s: f64) -> (String, (f64, f64), f64) {
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
/// initial, the big follower with a 2), a shepherd as a meeple with a crook (HS1), a
/// barn as a square on its corner. `class` is `figure` on the board,
/// `swatch` in the legend and the score lines.
pub(crate) fn svg_figure(
    out: &mut String,
    class: &str,
    at: (f64, f64),
    seat: Option<usize>,
    figure: Figure,
    title: &str,
) {
    // No seat: the legend's white figure.
    let (colour, ink) = seat.map_or(("#ffffff", "#000000"), |s| (seat_colour(s), seat_ink(s)));
    let classes = format!("{class} {}", figure.name());
    let data = seat.map_or(String::new(), |s| format!(r#" data-seat="{s}""#));
    // Every figure but the follower carries the initial of its name; the big follower,
    // which counts as two followers (IC1), a 2; the builder a small b (B is the barn's).
    let initial = match figure {
        Figure::Follower => None,
        Figure::BigFollower => Some('2'),
        Figure::Builder => Some('b'),
        Figure::Shepherd => None,
        _ => figure.name().chars().next().map(|c| c.to_ascii_uppercase()),
    };
    let shape = if figure == Figure::Shepherd {
        Shape::Shepherd
    } else if figure.is_follower_like() {
        Shape::Meeple
    } else {
        Shape::Square
    };
    svg_piece(
        out,
        &classes,
        &data,
        at,
        shape,
        (colour, ink),
        initial,
        title,
    );
}

/// The outline of a figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A meeple standing on its point.
    Meeple,
    /// A square centred on its point (the barn).
    Square,
    /// A meeple with a shepherd's crook at its side (HS1).
    Shepherd,
}

/// A figure's shape in `colour` with `letter` in `ink` on it, as a group of classes
/// `classes` (with extra attributes `data`) titled `title`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn svg_piece(
    out: &mut String,
    classes: &str,
    data: &str,
    at: (f64, f64),
    shape: Shape,
    (colour, ink): (&str, &str),
    letter: Option<char>,
    title: &str,
) {
    let (x, y) = at;
    let s = TILE * 0.11;
    let _ = write!(
        out,
        r#"<g class="{classes}"{data}><title>{}</title>"#,
        escape(title)
    );
    match shape {
        Shape::Square => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="{2}" height="{2}" fill="{colour}" stroke="#111111" stroke-width="1"/>"##,
                num(x - s),
                num(y - s),
                num(2.0 * s)
            );
        }
        Shape::Meeple | Shape::Shepherd => {
            let (body, head, r) = meeple(x, y, s);
            let _ = write!(
                out,
                r##"<polygon points="{body}" fill="{colour}" stroke="#111111" stroke-width="0.9" stroke-linejoin="round"/><circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#111111" stroke-width="0.9"/>"##,
                num(head.0),
                num(head.1),
                num(r)
            );
            if shape == Shape::Shepherd {
                let staff = x + 1.45 * s;
                let _ = write!(
                    out,
                    r##"<path class="crook" d="M {} {} V {} Q {} {} {} {}" fill="none" stroke="{CROOK_COLOUR}" stroke-width="1.6" stroke-linecap="round"/>"##,
                    num(staff),
                    num(y + 1.2 * s),
                    num(y - 1.5 * s),
                    num(staff),
                    num(y - 2.3 * s),
                    num(staff - 0.7 * s),
                    num(y - 1.9 * s)
                );
            }
        }
    }
    if let Some(letter) = letter {
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
pub(super) fn svg_pond(out: &mut String, centre: (f64, f64)) {
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
pub(super) fn svg_pennant(out: &mut String, at: (f64, f64)) {
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

/// An inn (IC2): a small house with a red roof, centred at `at`, of width `s`.
pub(super) fn svg_inn(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<g class="inn"><rect x="{}" y="{}" width="{}" height="{}" fill="#f4e2b8" stroke="#3b2a14" stroke-width="1"/><polygon points="{},{} {},{} {},{}" fill="#b5452b" stroke="#3b2a14" stroke-width="1"/></g>"##,
        num(x - s / 2.0),
        num(y - s * 0.1),
        num(s),
        num(s * 0.55),
        num(x - s * 0.65),
        num(y - s * 0.1),
        num(x),
        num(y - s * 0.6),
        num(x + s * 0.65),
        num(y - s * 0.1)
    );
}

/// A token of trade goods (TB1), centred at `at`, of size `s`: a barrel of wine, a sack
/// of grain, a bale of cloth, told apart by their colours.
pub(super) fn svg_goods(out: &mut String, at: (f64, f64), s: f64, goods: Goods) {
    let (x, y) = at;
    let (fill, ink) = match goods {
        Goods::Wine => ("#8e2448", "#3a0d1c"),
        Goods::Grain => ("#e3b341", "#5a4210"),
        Goods::Cloth => ("#4a78c2", "#16294a"),
    };
    let _ = writeln!(
        out,
        r##"<g class="goods {}"><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}" stroke="{ink}" stroke-width="1"/></g>"##,
        goods.name(),
        num(x - s / 2.0),
        num(y - s / 2.0),
        num(s),
        num(s),
        num(s * 0.3),
    );
}

/// A cathedral (IC3): a nave with a spire and a cross, centred at `at`, of size `s`.
pub(super) fn svg_cathedral(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<g class="cathedral"><rect x="{}" y="{}" width="{}" height="{}" fill="#e9e4f2" stroke="#2c2540" stroke-width="1.2"/><polygon points="{},{} {},{} {},{}" fill="#6b5ca5" stroke="#2c2540" stroke-width="1.2"/><path d="M {} {} V {} M {} {} H {}" stroke="#2c2540" stroke-width="1.2"/></g>"##,
        num(x - s / 2.0),
        num(y - s * 0.05),
        num(s),
        num(s * 0.5),
        num(x - s * 0.3),
        num(y - s * 0.05),
        num(x),
        num(y - s * 0.55),
        num(x + s * 0.3),
        num(y - s * 0.05),
        num(x),
        num(y - s * 0.55),
        num(y - s * 0.8),
        num(x - s * 0.1),
        num(y - s * 0.7),
        num(x + s * 0.1)
    );
}

/// A monastery or abbey (a chapel) with its centre at `(c, c)` and size `s`.
pub(super) fn svg_chapel(out: &mut String, at: (f64, f64), s: f64) {
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
pub(super) fn svg_volcano(out: &mut String, at: (f64, f64), s: f64) {
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
pub(super) fn svg_portal(out: &mut String, at: (f64, f64), s: f64) {
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
pub(super) fn svg_garden(out: &mut String, at: (f64, f64), s: f64) {
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

/// A hill (HS3) centred at `at`, `s` wide: a grassy mound.
pub(super) fn svg_hill(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<path class="hill" d="M {} Q {} {} Z" fill="{HILL_COLOUR}" stroke="#4e4126" stroke-width="1"/>"##,
        pt((x - s / 2.0, y + s / 4.0)),
        pt((x, y - s * 0.75)),
        pt((x + s / 2.0, y + s / 4.0))
    );
}

/// A vineyard (HS5) centred at `at`, `s` wide: three stakes, each with a bunch of grapes.
pub(super) fn svg_vineyard(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = write!(out, r#"<g class="vineyard">"#);
    for k in [-1.0, 0.0, 1.0] {
        let vx = x + k * s / 3.0;
        let _ = write!(
            out,
            r##"<path d="M {} {} V {}" stroke="#5b3a1a" stroke-width="1.2"/><polygon points="{},{} {},{} {},{}" fill="{GRAPE_COLOUR}" stroke="#2e1029" stroke-width="0.6"/>"##,
            num(vx),
            num(y - s / 2.0),
            num(y + s / 2.0),
            num(vx - s / 7.0),
            num(y - s / 5.0),
            num(vx + s / 7.0),
            num(y - s / 5.0),
            num(vx),
            num(y + s / 4.0)
        );
    }
    out.push_str("</g>\n");
}

/// A shrine (CU1) centred at `at`, size `s`: a small dark temple, its roof a pediment.
pub(super) fn svg_shrine(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<g class="shrine"><polygon points="{},{} {},{} {},{}" fill="{SHRINE_COLOUR}" stroke="#f0f0f0" stroke-width="1"/><rect x="{}" y="{}" width="{}" height="{}" fill="{SHRINE_COLOUR}" stroke="#f0f0f0" stroke-width="1"/><path d="M {} {} V {} M {} {} V {}" stroke="#f0f0f0" stroke-width="1"/></g>"##,
        num(x - s / 1.8),
        num(y - s / 6.0),
        num(x),
        num(y - s / 1.6),
        num(x + s / 1.8),
        num(y - s / 6.0),
        num(x - s / 2.4),
        num(y - s / 6.0),
        num(s / 1.2),
        num(s / 1.5),
        num(x - s / 6.0),
        num(y - s / 6.0),
        num(y + s / 2.0),
        num(x + s / 6.0),
        num(y - s / 6.0),
        num(y + s / 2.0)
    );
}

/// A bazaar (BZ1) centred at `at`, size `s`: a market stall under a striped awning.
pub(super) fn svg_bazaar(out: &mut String, at: (f64, f64), s: f64) {
    let (x, y) = at;
    let _ = writeln!(
        out,
        r##"<g class="bazaar"><rect x="{}" y="{}" width="{}" height="{}" fill="#efe3c4" stroke="#3b2a14" stroke-width="1"/><rect x="{}" y="{}" width="{}" height="{}" fill="{BAZAAR_COLOUR}" stroke="#3b2a14" stroke-width="1"/><path d="M {} {} V {} M {} {} V {}" stroke="#fffaf0" stroke-width="1.5"/></g>"##,
        num(x - s / 2.5),
        num(y - s / 6.0),
        num(s / 1.25),
        num(s / 1.5),
        num(x - s / 2.0),
        num(y - s / 2.0),
        num(s),
        num(s / 3.0),
        num(x - s / 6.0),
        num(y - s / 2.0),
        num(y - s / 6.0),
        num(x + s / 6.0),
        num(y - s / 2.0),
        num(y - s / 6.0)
    );
}

/// A tower (TW1) centred at `at`: a grey square with its height.
pub(crate) fn svg_tower(out: &mut String, class: &str, at: (f64, f64), height: u8, title: &str) {
    let (cx, cy) = at;
    let s = 7.0;
    let _ = writeln!(
        out,
        r##"<g class="{class}"><title>{}</title><rect x="{}" y="{}" width="{}" height="{}" fill="{CASTLE_COLOUR}" stroke="#111111" stroke-width="1"/><text x="{}" y="{}" font-size="9" font-weight="bold" fill="#111111" text-anchor="middle">{height}</text></g>"##,
        escape(title),
        num(cx - s),
        num(cy - s),
        num(2.0 * s),
        num(2.0 * s),
        num(cx),
        num(cy + 3.0),
    );
}

/// A legend swatch's square of ground, `fill` outlined in `stroke`, the 16×16 box at `at`.
pub(crate) fn swatch_square(out: &mut String, at: (f64, f64), fill: &str, stroke: &str) {
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="16" height="16" fill="{fill}" stroke="{stroke}" stroke-width="1"/>"#,
        num(at.0),
        num(at.1)
    );
}

/// The legend's swatch of `piece` in the 16×16 box at `(x, y)`; a piece of a set's state
/// is drawn by the set's module ([`crate::sets::SetModule::svg_swatch`]).
pub(crate) fn swatch(out: &mut String, piece: Piece, x: f64, y: f64) {
    let (cx, cy) = (x + 8.0, y + 8.0);
    let square =
        |out: &mut String, fill: &str, stroke: &str| swatch_square(out, (x, y), fill, stroke);
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
    let figure = |out: &mut String, figure: Figure, title: &str| {
        let at = if figure.is_follower_like() {
            (cx, cy + 2.0)
        } else {
            (cx, cy)
        };
        svg_figure(out, "swatch", at, None, figure, title);
    };
    match piece {
        Piece::Field => square(out, FIELD_COLOUR, "#00000055"),
        Piece::City => square(out, CITY_COLOUR, CITY_EDGE_COLOUR),
        Piece::Road => line(out, ROAD_COLOUR, ROAD_EDGE_COLOUR, 5.0),
        Piece::River => line(out, RIVER_COLOUR, RIVER_EDGE_COLOUR, 7.0),
        Piece::RiverEnd => {
            let _ = write!(
                out,
                r#"<ellipse cx="{}" cy="{}" rx="7.5" ry="4.5" fill="{RIVER_COLOUR}" stroke="{RIVER_EDGE_COLOUR}" stroke-width="1.5"/>"#,
                num(cx),
                num(cy)
            );
        }
        Piece::Pennant => svg_pennant(out, (cx, cy - 2.0)),
        Piece::Monastery | Piece::Abbey => svg_chapel(out, (cx, cy + 1.0), 13.0),
        Piece::Garden => svg_garden(out, (cx, cy), 14.0),
        Piece::AbbeyWall => square(out, ABBEY_COLOUR, "#00000055"),
        Piece::Volcano => svg_volcano(out, (cx, cy), 14.0),
        Piece::MagicPortal => svg_portal(out, (cx, cy), 12.0),
        Piece::Follower => figure(out, Figure::Follower, "a follower"),
        Piece::Abbot => figure(out, Figure::Abbot, "the abbot"),
        Piece::Mayor => figure(out, Figure::Mayor, "the mayor"),
        Piece::Wagon => figure(out, Figure::Wagon, "the wagon"),
        Piece::Barn => figure(out, Figure::Barn, "a barn"),
        Piece::Shrine => svg_shrine(out, (cx, cy + 1.0), 13.0),
        Piece::Bazaar => svg_bazaar(out, (cx, cy), 14.0),
        Piece::BigFollower => figure(out, Figure::BigFollower, "a big follower"),
        Piece::Inn => svg_inn(out, (cx, cy + 2.0), 12.0),
        Piece::Cathedral => svg_cathedral(out, (cx, cy + 3.0), 14.0),
        Piece::Builder => figure(out, Figure::Builder, "a builder"),
        Piece::Pig => figure(out, Figure::Pig, "a pig"),
        Piece::Goods => svg_goods(out, (cx, cy), 12.0, Goods::Grain),
        Piece::Tower => svg_tower(out, "swatch tower", (cx, cy), 2, "a tower of height 2"),
        Piece::Hill => svg_hill(out, (cx, cy + 2.0), 16.0),
        Piece::Vineyard => svg_vineyard(out, (cx, cy), 14.0),
        Piece::Shepherd => svg_figure(
            out,
            "swatch",
            (cx - 2.0, cy + 2.0),
            None,
            Figure::Shepherd,
            "a shepherd",
        ),
        Piece::NewTile => {
            let _ = write!(
                out,
                r##"<rect x="{}" y="{}" width="14" height="14" fill="{FIELD_COLOUR}" stroke="{HIGHLIGHT_COLOUR}" stroke-width="2.5" stroke-dasharray="4 2"/>"##,
                num(x + 1.0),
                num(y + 1.0)
            );
        }
        piece => {
            if let Some(m) = sets::SETS
                .iter()
                .find(|m| m.legend().iter().any(|p| p.piece == piece))
            {
                m.svg_swatch(out, piece, (x, y));
            }
        }
    }
}
