//! The observation schema (`carcassonne_session::encode::schema`): the layout version
//! is the schema's fingerprint, `docs/observations.md` is generated from it, the
//! constants and tables agree, planes and globals turn as their indices say, 2-D blocks
//! are flattened row-major (as the documentation says), only the rows that follow the
//! focus change between the two steps of a two-step decision (the legal placements stay
//! while a bridge placement's square is picked, BR2), and the `PASS` that discards a
//! tile that fits only with a bridge (BR2) is the last id.
mod common;

use carcassonne::config::Figure;
use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;
use carcassonne::{Action, Game, Phase};
use carcassonne_session::encode::schema::{
    canonical_text, id_offset, plane_index, schema_fingerprint, Dim, Schema, PLANE_COUNT, SECTIONS,
};
use carcassonne_session::encode::*;
use carcassonne_session::session::Session;
use common::config;
use std::collections::HashSet;
use std::sync::Arc;

#[test]
fn layout_version_is_the_fingerprint_of_the_schema() {
    let fingerprint = schema_fingerprint();
    assert_eq!(
        fingerprint, LAYOUT_VERSION,
        "the observation schema changed: set LAYOUT_VERSION in session/src/encode/schema.rs to \
         {fingerprint:#018x}, then regenerate docs/observations.md (gen-observation-docs), the \
         C header and the golden observation traces"
    );
    assert_eq!(layout_version_hex(), format!("{LAYOUT_VERSION:016x}"));
    // The fingerprint covers the order of the rows, not only their names.
    let text = canonical_text();
    let city = text.find("plane base city ").unwrap();
    let road = text.find("plane base road ").unwrap();
    assert!(city < road);
}

#[test]
fn documentation_is_generated_from_the_schema() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/observations.md");
    let doc = std::fs::read_to_string(path).expect("docs/observations.md");
    let generated = docs::update(&doc).expect("every marker is present");
    if generated != doc {
        let line = doc
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        panic!(
            "docs/observations.md is out of date from line {line}: run \
             `cargo run -p carcassonne-session --bin gen-observation-docs`"
        );
    }
    // The version the document shows is this build's.
    assert!(doc.contains(&format!("**Layout version `{}`**", layout_version_hex())));
    // A document without a marker is refused, naming it.
    let err = docs::update("# nothing").unwrap_err();
    assert!(err.contains("generated: sizes"), "{err}");
}

#[test]
fn tables_list_every_index_once() {
    let s = schema();
    assert_eq!(s.planes.len(), PLANE_COUNT);
    let names: HashSet<_> = s.planes.iter().map(|p| p.name.clone()).collect();
    assert_eq!(names.len(), PLANE_COUNT, "plane names are unique");
    for (i, p) in s.planes.iter().enumerate() {
        assert_eq!(p.index, i);
    }
    let mut next = 0;
    for g in &s.globals {
        assert_eq!(g.start, next, "{} starts at {}", g.name, g.start);
        assert_eq!(g.len, g.shape.iter().product::<usize>());
        next += g.len;
    }
    assert_eq!(next, EncoderSpec::default().num_globals());
    let blocks: HashSet<_> = s.globals.iter().map(|g| g.name).collect();
    assert_eq!(
        blocks.len(),
        s.globals.len(),
        "global block names are unique"
    );
    // Catalogue-sized blocks come after every fixed-size block.
    let first_by_kind = s.globals.iter().position(|g| g.row.by_catalogue()).unwrap();
    assert!(s.globals[first_by_kind..]
        .iter()
        .all(|g| g.row.by_catalogue()));
    for window in [3u16, 9, 24, 32, 40] {
        let spec = EncoderSpec::new(window).unwrap();
        let t = Schema::new(spec);
        let mut next = 0;
        for b in &t.ids {
            assert_eq!(
                b.start, next,
                "W = {window}: {} starts at {}",
                b.name, b.start
            );
            next += b.len;
        }
        assert_eq!(next, spec.num_actions());
        assert_eq!(t.ids.last().unwrap().name, "pass");
    }
}

#[test]
fn constants_are_the_tables_indices() {
    let s = schema();
    let plane_start = |name: &str| {
        s.planes
            .iter()
            .find(|p| p.row.name == name)
            .map(|p| p.index)
            .unwrap()
    };
    for (constant, name) in [
        (plane::OCCUPIED, "occupied"),
        (plane::CITY, "city"),
        (plane::ROAD, "road"),
        (plane::LINK_OPPOSITE, "link-opposite"),
        (plane::LEGAL_PLACEMENT, "legal-placement"),
        (plane::FIGURES, "figures"),
        (plane::SIDE_VALUE, "side-value"),
        (plane::CENTRE_VALUE, "centre-value"),
    ] {
        assert_eq!(constant, plane_start(name), "{name}");
        assert_eq!(plane_index(name), constant);
    }
    assert_eq!(
        s.planes[plane::FIGURES + carcassonne::Figure::ALL.len() + 3].name,
        "figures.rel1.wagon"
    );
    assert_eq!(s.planes[plane::SIDE_VALUE + 3].name, "side-value.W");
    assert_eq!(
        s.plane("bridge.WE").unwrap().index,
        plane_index("bridge") + 1
    );
    for (constant, name) in [
        (global::PHASE, "phase"),
        (global::SUPPLY, "supply"),
        (global::SEAT_PRESENT, "seat-present"),
        (global::ORIGIN_Y, "origin-y"),
        (global::tile_in_hand(), "tile-in-hand"),
        (global::remaining(), "remaining"),
    ] {
        assert_eq!(constant, s.global(name).unwrap().start, "{name}");
    }
    for window in [3u16, 32, 40] {
        let spec = EncoderSpec::new(window).unwrap();
        let t = Schema::new(spec);
        let w = u32::from(window);
        for (base, name) in [
            (spec.cell_base(), "cell"),
            (spec.slot_base(), "slot"),
            (spec.corner_base(), "corner"),
            (spec.quarter_base(), "quarter"),
            (spec.bridge_base(), "bridge"),
            (spec.bazaar_base(), "bazaar"),
            (spec.bid_base(), "bid"),
            (spec.choice_base(), "choice"),
            (spec.pass_id(), "pass"),
        ] {
            assert_eq!(base as usize, t.id_block(name).unwrap().start, "{name}");
            assert_eq!(id_offset(name).at(w), base);
        }
    }
}

/// Every plane, global and id row turns as its indices say: four quarter turns are the
/// identity, a side moves clockwise, the two axes swap, rotations add one.
#[test]
fn planes_and_globals_turn_with_their_indices() {
    let s = schema();
    for p in 0..PLANE_COUNT {
        let mut q = p;
        for _ in 0..4 {
            q = plane_after_turn(q);
        }
        assert_eq!(q, p, "{}", s.planes[p].name);
    }
    let turned: HashSet<usize> = (0..PLANE_COUNT).map(plane_after_turn).collect();
    assert_eq!(turned.len(), PLANE_COUNT, "a quarter turn is a permutation");
    let name = |p: usize| s.planes[plane_after_turn(p)].name.clone();
    assert_eq!(name(s.plane("city.W").unwrap().index), "city.N");
    assert_eq!(name(s.plane("river.N").unwrap().index), "river.E");
    assert_eq!(name(s.plane("bridge.NS").unwrap().index), "bridge.WE");
    assert_eq!(
        name(s.plane("link-opposite.EW").unwrap().index),
        "link-opposite.NS"
    );
    assert_eq!(
        name(s.plane("legal-placement.rot3").unwrap().index),
        "legal-placement.rot0"
    );
    assert_eq!(
        name(s.plane("figures.rel2.mayor").unwrap().index),
        "figures.rel2.mayor"
    );
    let rot = s.global("focus-rotation").unwrap().start;
    assert_eq!(global_after_turn(rot + 3), rot);
    assert_eq!(global_after_turn(rot + 1), rot + 2);
    let supply = s.global("supply").unwrap().start;
    assert_eq!(global_after_turn(supply + 7), supply + 7);
    let spec = EncoderSpec::default();
    let mut g = vec![0f32; spec.num_globals()];
    g[rot] = 1.0;
    g[supply + 3] = 4.0;
    let mut out = vec![0f32; g.len()];
    rotate_globals(spec, &g, &mut out, 3).unwrap();
    assert_eq!((out[rot + 3], out[rot], out[supply + 3]), (1.0, 0.0, 4.0));
}

/// A client written from the documentation finds the supply of seat `r` and figure `f`
/// at `supply + 9·r + f` and the figures of seat `r` in quarter `q` at
/// `quarter-figures + 4·r + q` (CC3): checked against the game in Count games, from
/// every seat's point of view.
#[test]
fn two_dimensional_globals_are_row_major() {
    let s = schema();
    let supply = s.global("supply").unwrap();
    let quarters = s.global("quarter-figures").unwrap();
    assert_eq!(supply.shape, [6, 9]);
    assert_eq!(supply.row.dims, [Dim::Seat, Dim::Figure]);
    assert_eq!(quarters.shape, [6, 4]);
    let spec = EncoderSpec::new(16).unwrap();
    let mut found_quarter_figures = 0;
    for seed in 0..6 {
        let c = config(4, &[TileSet::Base, TileSet::Count], 1, seed);
        let mut game = Game::new(c).unwrap();
        let mut rng = Rng::new(seed);
        let mut planes = vec![0u8; spec.planes_len()];
        let mut globals = vec![0f32; spec.num_globals()];
        while !game.is_terminal() {
            let n = game.num_players();
            for player in 0..n {
                encode_observation(&game, player, spec, &mut planes, &mut globals).unwrap();
                for seat in 0..n {
                    let r = (seat + n - player) % n;
                    for f in Figure::ALL {
                        assert_eq!(
                            globals[supply.start + 9 * r + f.index()],
                            game.supply(seat, f) as f32
                        );
                    }
                    for q in 0..4 {
                        let in_quarter = game
                            .quarter_figures()
                            .iter()
                            .filter(|(quarter, owner, _)| {
                                *quarter as usize == q && *owner as usize == seat
                            })
                            .count();
                        found_quarter_figures += in_quarter;
                        assert_eq!(
                            globals[quarters.start + 4 * r + q],
                            in_quarter as f32,
                            "seat {seat} seen by {player}, quarter {q}"
                        );
                    }
                }
            }
            let legal = game.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply(a).unwrap();
        }
    }
    assert!(found_quarter_figures > 0, "some figure entered the City");
}

/// Configurations with two-step decisions of every kind.
fn two_step_configs() -> Vec<carcassonne::GameConfig> {
    use TileSet::*;
    vec![
        config(3, &[Base, BridgesCastlesBazaars], 1, 21),
        config(2, &[Base, BridgesCastlesBazaars], 0, 22),
        config(4, &[Base, PrincessDragon, AbbeyMayor], 1, 23),
        config(3, &[Base, Count, KingRobber, Cult], 1, 24),
        config(5, &TileSet::ALL, 1, 25),
    ]
}

/// The rows of the full encoding that follow the pending focus.
fn focus_rows() -> (Vec<usize>, Vec<usize>) {
    let s = schema();
    let planes = s
        .planes
        .iter()
        .filter(|p| p.row.follows_focus)
        .map(|p| p.index)
        .collect();
    let globals = s
        .globals
        .iter()
        .filter(|b| b.row.follows_focus)
        .flat_map(|b| b.start..b.start + b.len)
        .collect();
    (planes, globals)
}

/// Between the `CELL` id of a two-step decision and its second id the game is
/// unchanged, and so is every plane and global except those that follow the focus: in
/// particular a placement that fits only with a bridge (BR2) leaves the
/// `legal-placement` and `cell-target` planes as they were while its square is picked.
#[test]
fn only_focus_rows_change_between_the_two_steps() {
    let spec = EncoderSpec::new(20).unwrap();
    let ww = 20 * 20;
    let (focus_planes, focus_globals) = focus_rows();
    let mut bridge_placements = 0;
    let mut with_legal_placements = 0;
    for (k, c) in two_step_configs().into_iter().enumerate() {
        let mut session = Session::new(Game::new(c).unwrap(), spec);
        let mut rng = Rng::new(k as u64 + 40);
        let mut mask = vec![0i8; spec.num_actions()];
        let (mut p1, mut p2) = (vec![0u8; spec.planes_len()], vec![0u8; spec.planes_len()]);
        let (mut g1, mut g2) = (
            vec![0f32; spec.num_globals()],
            vec![0f32; spec.num_globals()],
        );
        while !session.game().is_terminal() {
            let info = session.legal_mask(&mut mask).unwrap();
            if info.offered == 0 {
                let a = session.legal_actions()[0];
                session.apply(a).unwrap();
                continue;
            }
            let ids: Vec<u32> = (0..mask.len() as u32)
                .filter(|i| mask[*i as usize] == 1)
                .collect();
            // Prefer CELL ids, so that many two-step decisions are seen.
            let cells: Vec<u32> = ids
                .iter()
                .copied()
                .filter(|id| {
                    matches!(
                        FlatAction::from_id(spec, *id),
                        Some(FlatAction::Cell { .. })
                    )
                })
                .collect();
            let pool = if !cells.is_empty() && rng.below(2) == 0 {
                &cells
            } else {
                &ids
            };
            let id = pool[rng.below(pool.len() as u32) as usize];
            let seat = session.game().to_play();
            let phase = session.game().phase();
            session.observe(seat, &mut p1, &mut g1).unwrap();
            let hash = session.game().state_hash();
            let decision = session.step(id).unwrap();
            if let FlatDecision::Focus(_) = decision {
                assert_eq!(
                    session.game().state_hash(),
                    hash,
                    "the game does not change"
                );
                session.observe(seat, &mut p2, &mut g2).unwrap();
                for p in (0..PLANE_COUNT).filter(|p| !focus_planes.contains(p)) {
                    assert!(
                        p1[p * ww..(p + 1) * ww] == p2[p * ww..(p + 1) * ww],
                        "plane {} changed with the focus",
                        schema().planes[p].name
                    );
                }
                for g in (0..g1.len()).filter(|g| !focus_globals.contains(g)) {
                    assert_eq!(g1[g], g2[g], "global {g} changed with the focus");
                }
                if phase == Phase::PlaceTile {
                    bridge_placements += 1;
                    let legal = plane::LEGAL_PLACEMENT * ww..(plane::LEGAL_PLACEMENT + 4) * ww;
                    if p1[legal].contains(&1) {
                        with_legal_placements += 1;
                    }
                }
                // The focus plane and global say a focus is pending.
                assert_eq!(g2[global::FOCUS_PENDING], 1.0);
                assert!(p2[plane::FOCUS * ww..(plane::FOCUS + 1) * ww].contains(&1));
            }
        }
    }
    assert!(
        bridge_placements > 0,
        "a bridge placement's square was picked"
    );
    assert!(
        with_legal_placements > 0,
        "a bridge placement was picked while placements without a bridge were legal"
    );
}

/// Plays Bridges, Castles & Bazaars games until the tile in hand fits only with a
/// bridge and may be discarded (BR2), and returns that game.
fn bridge_only_tile() -> Game {
    for seed in 0..400 {
        let c = config(2, &[TileSet::Base, TileSet::BridgesCastlesBazaars], 0, seed);
        let mut game = Game::new(c).unwrap();
        let mut rng = Rng::new(seed);
        while !game.is_terminal() {
            let legal = game.legal_actions();
            if game.phase() == Phase::PlaceTile && legal.contains(&Action::Pass) {
                return game;
            }
            let a = legal[rng.below(legal.len() as u32) as usize];
            game.apply(a).unwrap();
        }
    }
    panic!("no tile that fits only with a bridge in 400 games")
}

/// BR2: a tile that fits only with a bridge may be discarded; the discard is the `PASS`
/// id, the last id of the full encoding and of every preset's.
#[test]
fn pass_discards_a_tile_that_fits_only_with_a_bridge() {
    let game = bridge_only_tile();
    assert!(game.legal_actions().iter().all(|a| matches!(
        a,
        Action::Pass
            | Action::PlaceTile {
                bridge: Some(_),
                ..
            }
    )));
    for window in [32u16, 24] {
        let spec = EncoderSpec::new(window).unwrap();
        assert_eq!(
            action_to_flat(&game, spec, Action::Pass),
            Some(spec.pass_id())
        );
        assert_eq!(spec.pass_id() as usize, spec.num_actions() - 1);
        let w = u32::from(window);
        assert_eq!(spec.pass_id(), 5 * w * w + 716, "the documented id");
        let mut mask = vec![0i8; spec.num_actions()];
        legal_mask(&game, spec, &mut mask).unwrap();
        assert_eq!(mask[spec.pass_id() as usize], 1);
        assert_eq!(
            flat_to_action(&game, spec, spec.pass_id()),
            Some(Action::Pass)
        );
        for preset in Preset::ALL {
            let layout = Arc::new(Layout::new(spec, preset, game.config()));
            let mut session = Session::with_layout(game.clone(), layout.clone());
            let last = layout.num_actions() as u32 - 1;
            assert_eq!(session.flat_path(Action::Pass).map(|p| p.first), Some(last));
            session.step(last).unwrap();
            assert_ne!(session.game().tile_in_hand(), game.tile_in_hand());
        }
    }
}

/// What a preset keeps of a block is a row-major rectangle of the full block: the `SLOT`
/// block of a preset is its slots × its channels, `slot_k·channels + channel_k` past its
/// first id, and the labels name the full slot and channel.
#[test]
fn preset_blocks_are_rectangles_of_the_full_blocks() {
    use TileSet::*;
    let spec = EncoderSpec::new(16).unwrap();
    for c in [
        config(2, &[Base], 0, 1),
        config(3, &[Base, PrincessDragon], 1, 2),
        config(4, &[Base, Count, BridgesCastlesBazaars], 1, 3),
        config(6, &TileSet::ALL, 1, 4),
    ] {
        for preset in Preset::ALL {
            let layout = Layout::new(spec, preset, &c);
            let blocks = layout.id_blocks().iter().chain(layout.global_blocks());
            for b in blocks {
                let shape = b.shape();
                assert_eq!(
                    shape.iter().product::<usize>(),
                    b.sources.len(),
                    "{}",
                    b.name
                );
                assert_eq!(b.dims.len(), shape.len());
            }
            let slot = layout
                .id_blocks()
                .iter()
                .find(|b| b.name == "slot")
                .unwrap();
            let [slots, channels] = slot.shape()[..] else {
                panic!("two indices")
            };
            let (slot_labels, channel_labels) = (slot.labels(0), slot.labels(1));
            for (k_s, s_label) in slot_labels.iter().enumerate() {
                for (k_c, c_label) in channel_labels.iter().enumerate() {
                    let id = slot.start + k_s * channels + k_c;
                    let full = layout.to_full(id as u32).unwrap();
                    let Some(FlatAction::Slot { slot: s, channel }) =
                        FlatAction::from_id(spec, full)
                    else {
                        panic!("a SLOT id")
                    };
                    assert_eq!(&slot::name(s), s_label);
                    assert_eq!(channel.name(), c_label);
                }
            }
            if preset == Preset::Full {
                assert_eq!((slots, channels), (SLOT_COUNT, CHANNEL_COUNT));
            } else if c.sets == [Base] {
                // Base game: the side, field and cloister slots, the follower channel.
                assert_eq!(channel_labels, ["follower"]);
                assert!(slots < SLOT_COUNT);
            }
            let supply = layout
                .global_blocks()
                .iter()
                .find(|b| b.name == "supply")
                .unwrap();
            let players = c.players as usize;
            let figures = Figure::ALL.iter().filter(|f| c.figures.of(**f) > 0).count();
            if preset != Preset::Full {
                assert_eq!(supply.shape(), [players, figures]);
            }
        }
    }
}

/// Each section's rows are its own: no two sections declare a row of the same name
/// and kind, and every row of an expansion's section is in play only with its set
/// (a base-game configuration keeps none of them in the `in-play` preset).
#[test]
fn sections_own_their_rows() {
    let mut seen = HashSet::new();
    for s in SECTIONS {
        for (kind, rows) in [("plane", s.planes), ("global", s.globals), ("ids", s.ids)] {
            for r in rows {
                assert!(
                    seen.insert((kind, r.name)),
                    "{kind} {} declared twice",
                    r.name
                );
            }
        }
    }
    let base = config(2, &[TileSet::Base], 0, 0);
    let layout = Layout::new(EncoderSpec::default(), Preset::InPlay, &base);
    for s in SECTIONS.iter().filter(|s| s.key != "base") {
        for r in s.planes {
            assert!(
                !layout
                    .planes()
                    .iter()
                    .any(|p| p.name.split('.').next() == Some(r.name)),
                "{} kept in a base game",
                r.name
            );
        }
        for r in s.globals {
            assert!(
                !layout.global_blocks().iter().any(|b| b.name == r.name),
                "{} kept in a base game",
                r.name
            );
        }
    }
}
