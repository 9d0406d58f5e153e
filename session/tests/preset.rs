//! Observation presets (`carcassonne_session::encode::preset`): a layout's mask is the
//! full mask restricted to its ids and loses no legal id; its planes and globals are
//! the full ones it selects (the compact preset's summed opponents included); the
//! planes and globals the in-play preset leaves out stay zero in whole games of every
//! set; and ids and planes turn like the full ones.
mod common;

use carcassonne::config::{FairyRule, GameConfig, PrincessRule};
use carcassonne::rng::Rng;
use carcassonne::tiles::TileSet;
use carcassonne::Game;
use carcassonne_session::encode::*;
use carcassonne_session::session::Session;
use common::config;
use std::sync::Arc;

/// Configurations that reach every kind of decision between them, with and without
/// farmers and the abbot.
fn variety() -> Vec<GameConfig> {
    use TileSet::*;
    let five = [Base, River1, River2, PrincessDragon, AbbeyMayor];
    let mut no_farmers = config(3, &[Base], 0, 3);
    no_farmers.rules.farmers = false;
    let mut on_tile = config(3, &[Base, PrincessDragon], 1, 7);
    on_tile.rules.fairy = FairyRule::OnTile;
    on_tile.rules.princess = PrincessRule::Must;
    vec![
        config(2, &[Base], 0, 1),
        config(2, &[Base], 1, 2),
        no_farmers,
        config(3, &[Base, River1, River2], 0, 4),
        config(4, &[Base, PrincessDragon], 0, 5),
        on_tile,
        config(2, &[Base, AbbeyMayor], 1, 6),
        config(5, &five, 1, 8),
        config(4, &[Base, Count, KingRobber, Cult], 1, 9),
        config(3, &[Base, BridgesCastlesBazaars], 0, 11),
        config(4, &[Base, Tower], 0, 13),
        config(3, &[Base, Tower, AbbeyMayor], 1, 14),
        config(6, &TileSet::ALL, 1, 12),
    ]
}

/// A full-encoding session and a layout session of the same game, stepped together.
struct Pair {
    full: Session,
    view: Session,
    layout: Arc<Layout>,
}

impl Pair {
    fn new(config: &GameConfig, spec: EncoderSpec, preset: Preset) -> Pair {
        let layout = Arc::new(Layout::new(spec, preset, config));
        let game = Game::new(config.clone()).unwrap();
        Pair {
            full: Session::new(game.clone(), spec),
            view: Session::with_layout(game, layout.clone()),
            layout,
        }
    }
}

/// Plays random games through both sessions and checks, at every step, the mask, the
/// decoding of every offered id and the observations: of every seat with `all_seats`,
/// else of one seat per step in turn (every seat at the first steps); calls `each` with
/// the full observation of every seat checked.
fn play_checked(
    config: &GameConfig,
    preset: Preset,
    window: u16,
    seed: u64,
    all_seats: bool,
    mut each: impl FnMut(&Layout, &[u8], &[f32]),
) {
    let spec = EncoderSpec::new(window).unwrap();
    let mut pair = Pair::new(config, spec, preset);
    let l = pair.layout.clone();
    assert_eq!(pair.view.num_actions(), l.num_actions());
    let mut rng = Rng::new(seed);
    let mut full_mask = vec![0i8; spec.num_actions()];
    let mut mask = vec![0i8; l.num_actions()];
    let (mut fp, mut fg) = (vec![0u8; spec.planes_len()], vec![0f32; spec.num_globals()]);
    let (mut p, mut g) = (vec![0u8; l.planes_len()], vec![0f32; l.num_globals()]);
    let ww = window as usize * window as usize;
    let mut step = 0usize;
    while !pair.full.game().is_terminal() {
        step += 1;
        let full_info = pair.full.legal_mask(&mut full_mask).unwrap();
        let info = pair.view.legal_mask(&mut mask).unwrap();
        assert_eq!(
            info.outside_layout, 0,
            "{preset:?}: a legal id is missing from the layout"
        );
        assert_eq!(info.offered, full_info.offered);
        assert_eq!(info.legal, full_info.legal);
        for (c, m) in mask.iter().enumerate() {
            let f = l.to_full(c as u32).unwrap();
            assert_eq!(*m, full_mask[f as usize], "id {c} (full {f})");
            assert_eq!(l.to_compact(f), Some(c as u32));
        }
        let players = pair.full.game().num_players();
        for seat in (0..players).filter(|s| all_seats || step <= 3 || step % players == *s) {
            pair.full.observe(seat, &mut fp, &mut fg).unwrap();
            pair.view.observe(seat, &mut p, &mut g).unwrap();
            for (i, plane) in l.planes().iter().enumerate() {
                for cell in 0..ww {
                    let sum: u32 = plane.sources.iter().map(|s| fp[s * ww + cell] as u32).sum();
                    assert_eq!(
                        p[i * ww + cell] as u32,
                        sum.min(255),
                        "plane {}",
                        plane.name
                    );
                }
            }
            for block in l.global_blocks() {
                for (k, s) in block.sources.iter().enumerate() {
                    assert_eq!(g[block.start + k], fg[*s], "global {}", block.name);
                }
            }
            each(&l, &fp, &fg);
        }
        if info.offered == 0 {
            let first = pair.full.legal_actions()[0];
            pair.full.apply(first).unwrap();
            pair.view.apply(first).unwrap();
            continue;
        }
        let ids: Vec<u32> = (0..mask.len() as u32)
            .filter(|i| mask[*i as usize] == 1)
            .collect();
        let id = ids[rng.below(ids.len() as u32) as usize];
        let full_id = l.to_full(id).unwrap();
        assert_eq!(pair.view.decode(id), pair.full.decode(full_id));
        assert_eq!(pair.view.step(id), pair.full.step(full_id));
        assert_eq!(pair.view.game().state_hash(), pair.full.game().state_hash());
        if pair.view.pending_focus().is_none() && !pair.view.game().is_terminal() {
            // Both ids of every legal action map into the layout.
            for &a in pair.full.legal_actions().to_vec().iter() {
                let (Some(fpath), vpath) = (pair.full.flat_path(a), pair.view.flat_path(a)) else {
                    continue;
                };
                let vpath = vpath.expect("a legal action with full ids has layout ids");
                assert_eq!(l.to_full(vpath.first), Some(fpath.first));
                assert_eq!(vpath.second.map(|s| l.to_full(s).unwrap()), fpath.second);
            }
        }
    }
    let info = pair.view.legal_mask(&mut mask).unwrap();
    assert_eq!(info.offered, 0);
    assert!(mask.iter().all(|m| *m == 0));
}

#[test]
fn layouts_agree_with_the_full_encoding_in_random_games() {
    for (k, config) in variety().iter().enumerate() {
        for preset in Preset::ALL {
            for (window, seed) in [(32, 0), (11, 1)] {
                play_checked(
                    config,
                    preset,
                    window,
                    100 * k as u64 + seed,
                    false,
                    |_, _, _| {},
                );
            }
        }
    }
}

/// What the in-play preset leaves out is never set in whole games (several per
/// configuration): the selection follows from the sets, figures and seats alone.
#[test]
fn left_out_planes_and_globals_stay_zero() {
    for (k, config) in variety().iter().enumerate() {
        let spec = EncoderSpec::default();
        let layout = Layout::new(spec, Preset::InPlay, config);
        let kept_planes: Vec<usize> = layout.planes().iter().map(|p| p.sources[0]).collect();
        let kept_globals: Vec<usize> = layout
            .global_blocks()
            .iter()
            .flat_map(|b| b.sources.clone())
            .collect();
        let ww = spec.window as usize * spec.window as usize;
        for seed in 0..2 {
            let mut c = config.clone();
            c.seed = 77 * seed + k as u64;
            play_checked(&c, Preset::InPlay, 32, seed, true, |_, fp, fg| {
                for p in (0..plane::COUNT).filter(|p| !kept_planes.contains(p)) {
                    assert!(
                        fp[p * ww..(p + 1) * ww].iter().all(|v| *v == 0),
                        "config {k}: plane {} is set but left out",
                        plane_table()[p].name
                    );
                }
                for g in (0..spec.num_globals()).filter(|g| !kept_globals.contains(g)) {
                    assert_eq!(fg[g], 0.0, "config {k}: global {g} is set but left out");
                }
            });
        }
    }
}

#[test]
fn base_game_sizes_and_names() {
    let spec = EncoderSpec::default();
    let base = config(2, &[TileSet::Base], 0, 0);
    let full = Layout::new(spec, Preset::Full, &base);
    assert!(full.is_full());
    assert_eq!(full.num_planes(), plane::COUNT);
    assert_eq!(full.num_actions(), spec.num_actions());
    assert_eq!(full.num_globals(), spec.num_globals());
    let in_play = Layout::new(spec, Preset::InPlay, &base);
    let names: Vec<&str> = in_play.planes().iter().map(|p| p.name.as_str()).collect();
    for absent in [
        "river.N",
        "dragon",
        "fairy",
        "bridge.NS",
        "cell-target",
        "figures.rel2.follower",
        "figures.rel0.abbot",
    ] {
        assert!(!names.contains(&absent), "{absent} kept for the base game");
    }
    for present in [
        "city.N",
        "figures.rel0.follower",
        "figures.rel1.follower",
        "legal-placement.rot3",
    ] {
        assert!(
            names.contains(&present),
            "{present} left out of the base game"
        );
    }
    // TILE ids, the follower channel on 15 slots (no garden, whole-tile or bridge slot
    // in the base game), and PASS.
    assert_eq!(in_play.num_actions(), 4 * 32 * 32 + 15 + 1);
    let blocks: Vec<&str> = in_play.action_blocks().iter().map(|b| b.0).collect();
    assert_eq!(blocks, ["tile", "slot", "pass"]);
    let compact = Layout::new(spec, Preset::Compact, &base);
    let names: Vec<&str> = compact.planes().iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"figures.opponents.follower"));
    assert!(!names.contains(&"focus"));
    let globals: Vec<&str> = compact.global_blocks().iter().map(|b| b.name).collect();
    assert!(!globals.contains(&"origin-x") && !globals.contains(&"seat-present"));
    // Opponents summed: six players give two follower planes, not six.
    let six = Layout::new(spec, Preset::Compact, &config(6, &[TileSet::Base], 0, 0));
    assert_eq!(
        six.planes()
            .iter()
            .filter(|p| p.name.starts_with("figures."))
            .count(),
        2
    );
}

#[test]
fn layout_rotations_agree_with_full_rotations() {
    let spec = EncoderSpec::new(12).unwrap();
    let c = config(
        3,
        &[TileSet::Base, TileSet::PrincessDragon, TileSet::AbbeyMayor],
        1,
        3,
    );
    for preset in Preset::ALL {
        let l = Layout::new(spec, preset, &c);
        for id in 0..l.num_actions() as u32 {
            for q in 0..4 {
                let full = rotate_action_id(spec, l.to_full(id).unwrap(), q).unwrap();
                assert_eq!(
                    l.rotate_action_id(id, q),
                    l.to_compact(full),
                    "id {id}, {q} turns"
                );
            }
        }
        let mut game = Game::new(c.clone()).unwrap();
        for _ in 0..30 {
            let a = game.legal_actions()[0];
            game.apply(a).unwrap();
        }
        let mut full = Session::new(game.clone(), spec);
        let mut view = Session::with_layout(game, Arc::new(l.clone()));
        let (mut fp, mut fg) = (vec![0u8; spec.planes_len()], vec![0f32; spec.num_globals()]);
        let (mut p, mut g) = (vec![0u8; l.planes_len()], vec![0f32; l.num_globals()]);
        full.observe(0, &mut fp, &mut fg).unwrap();
        view.observe(0, &mut p, &mut g).unwrap();
        let mut frot = vec![0u8; fp.len()];
        let (mut rot, mut expect) = (vec![0u8; p.len()], vec![0u8; p.len()]);
        for q in 0..4 {
            rotate_planes(spec, &fp, &mut frot, q).unwrap();
            l.observation_from_full(&frot, &fg, &mut expect, &mut g)
                .unwrap();
            l.rotate_planes(&p, &mut rot, q).unwrap();
            assert_eq!(rot, expect, "{preset:?}, {q} turns");
        }
    }
}

#[test]
fn wrong_buffers_are_refused() {
    let spec = EncoderSpec::default();
    let c = config(2, &[TileSet::Base], 0, 0);
    let mut s = Session::with_layout(
        Game::new(c.clone()).unwrap(),
        Arc::new(Layout::new(spec, Preset::InPlay, &c)),
    );
    let mut full_mask = vec![0i8; spec.num_actions()];
    assert!(matches!(
        s.legal_mask(&mut full_mask),
        Err(EncodeError::BufferSize { buffer: "mask", .. })
    ));
    let mut p = vec![0u8; spec.planes_len()];
    let mut g = vec![0f32; s.num_globals()];
    assert!(matches!(
        s.observe(0, &mut p, &mut g),
        Err(EncodeError::BufferSize {
            buffer: "planes",
            ..
        })
    ));
    // An id past the layout's last is not offered.
    let a = s.num_actions() as u32;
    assert_eq!(s.step(a), Err(FlatError::NotOffered { id: a }));
}
