//! Unit tests of `layout`, included by `layout.rs` so they see its private items.

use super::*;
use crate::learn::{carc_game_observation_sizes, CarcObservationSizes};

fn new(json: &str) -> *mut CarcGame {
    let text = CString::new(json).unwrap();
    let mut game: *mut CarcGame = std::ptr::null_mut();
    assert_eq!(
        crate::game::carc_game_new(text.as_ptr(), &mut game),
        CarcStatus::Ok
    );
    game
}

fn text(p: *const c_char) -> String {
    // SAFETY: a NUL-terminated string of the library.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
}

#[test]
fn struct_size_and_version() {
    assert_eq!(std::mem::size_of::<CarcLayoutBlock>(), 32);
    assert_eq!(
        CARC_LAYOUT_VERSION, LAYOUT_VERSION,
        "the header's macro is the schema's"
    );
    assert_eq!(carc_layout_version(), LAYOUT_VERSION);
}

/// The blocks of a compact game are its layout's; a 2-D global block reads row-major
/// with its labels; bad arguments are refused with a status.
#[test]
fn blocks_names_and_labels() {
    let game = new(r#"{"players":3,"sets":["base","count"],"window":16,"preset":"compact"}"#);
    let mut count = 0;
    assert_eq!(
        carc_game_layout_block_count(game, CarcLayoutPart::Globals as u32, &mut count),
        CarcStatus::Ok
    );
    let mut found = false;
    for i in 0..count {
        let mut b = std::mem::MaybeUninit::<CarcLayoutBlock>::uninit();
        assert_eq!(
            carc_game_layout_block(game, 0, i, b.as_mut_ptr()),
            CarcStatus::Ok
        );
        // SAFETY: written on success.
        let b = unsafe { b.assume_init() };
        if text(b.name) == "quarter-figures" {
            found = true;
            assert_eq!((b.rank, b.shape), (2, [3, 4, 1]));
            let mut label = std::ptr::null();
            assert_eq!(
                carc_game_layout_label(game, 0, i, 1, 2, &mut label),
                CarcStatus::Ok
            );
            assert_eq!(text(label), "cathedral");
            assert_eq!(
                carc_game_layout_index_name(game, 0, i, 0, &mut label),
                CarcStatus::Ok
            );
            assert_eq!(text(label), "relative seat");
            assert_eq!(
                carc_game_layout_label(game, 0, i, 0, 3, &mut label),
                CarcStatus::InvalidArgument,
                "three seats in a 3-player game"
            );
        }
    }
    assert!(found);
    let mut name = std::ptr::null();
    assert_eq!(carc_game_plane_name(game, 0, &mut name), CarcStatus::Ok);
    assert_eq!(text(name), "occupied");
    assert_eq!(
        carc_game_plane_name(game, 9999, &mut name),
        CarcStatus::InvalidArgument
    );
    assert_eq!(
        carc_game_layout_block_count(game, 7, &mut count),
        CarcStatus::InvalidArgument
    );
    assert_eq!(
        carc_game_layout_block_count(std::ptr::null(), 0, &mut count),
        CarcStatus::NullArgument
    );
    crate::game::carc_game_free(game);
}

/// The `slots` and `channels` of the sizes are the sides of the game's `SLOT` block:
/// 18 × 16 in the full encoding, those a preset keeps otherwise.
#[test]
fn slots_and_channels_follow_the_preset() {
    let sizes = |game| {
        let mut s = std::mem::MaybeUninit::<CarcObservationSizes>::uninit();
        assert_eq!(
            carc_game_observation_sizes(game, s.as_mut_ptr()),
            CarcStatus::Ok
        );
        // SAFETY: written on success.
        unsafe { s.assume_init() }
    };
    let full = new(r#"{"players":2,"sets":["base"]}"#);
    let s = sizes(full);
    assert_eq!((s.slots, s.channels), (19, 20));
    let compact = new(r#"{"players":2,"sets":["base"],"preset":"compact"}"#);
    let s = sizes(compact);
    assert_eq!(s.channels, 1, "the base game deploys followers only");
    let mut count = 0;
    carc_game_layout_block_count(compact, 1, &mut count);
    let slot = (0..count)
        .map(|i| {
            let mut b = std::mem::MaybeUninit::<CarcLayoutBlock>::uninit();
            carc_game_layout_block(compact, 1, i, b.as_mut_ptr());
            // SAFETY: written on success.
            (i, unsafe { b.assume_init() })
        })
        .find(|(_, b)| text(b.name) == "slot")
        .unwrap();
    assert_eq!(slot.1.shape[..2], [s.slots, s.channels]);
    let mut label = std::ptr::null();
    carc_game_layout_label(compact, 1, slot.0, 1, 0, &mut label);
    assert_eq!(text(label), "follower");
    crate::game::carc_game_free(full);
    crate::game::carc_game_free(compact);
}
