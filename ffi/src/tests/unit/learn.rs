//! Unit tests of `learn`, included by `learn.rs` so they see its private items.

use super::*;

#[test]
fn struct_sizes() {
    assert_eq!(std::mem::size_of::<CarcObservationSizes>(), 28);
    assert_eq!(std::mem::size_of::<CarcMaskInfo>(), 12);
    assert_eq!(std::mem::size_of::<CarcFocus>(), 12);
    assert_eq!(std::mem::size_of::<CarcWindowOrigin>(), 8);
}

/// A game made with `"preset": "compact"` reports the preset's sizes and plays a
/// whole game through its ids.
#[test]
fn a_preset_game_plays_through_its_ids() {
    let new = |json: &str| {
        let text = std::ffi::CString::new(json).unwrap();
        let mut game: *mut CarcGame = std::ptr::null_mut();
        assert_eq!(
            crate::game::carc_game_new(text.as_ptr(), &mut game),
            CarcStatus::Ok
        );
        game
    };
    let sizes = |game: *const CarcGame| {
        let mut s = std::mem::MaybeUninit::<CarcObservationSizes>::uninit();
        assert_eq!(
            carc_game_observation_sizes(game, s.as_mut_ptr()),
            CarcStatus::Ok
        );
        // SAFETY: written on success.
        unsafe { s.assume_init() }
    };
    let full = new(r#"{"players":2,"sets":["base"],"window":24}"#);
    let game = new(r#"{"players":2,"sets":["base"],"window":24,"preset":"compact"}"#);
    let (f, c) = (sizes(full), sizes(game));
    assert_eq!(c.window, 24);
    assert!(c.planes < f.planes && c.actions < f.actions && c.globals_len < f.globals_len);
    assert_eq!(c.planes_len, c.planes * 24 * 24);
    let mut mask = vec![0i8; c.actions as usize];
    let mut needed = 0;
    let mut steps = 0;
    loop {
        let status = carc_game_legal_mask(
            game,
            mask.as_mut_ptr(),
            mask.len() as u32,
            &mut needed,
            std::ptr::null_mut(),
        );
        assert_eq!(status, CarcStatus::Ok);
        assert_eq!(needed, c.actions);
        let Some(id) = mask.iter().position(|m| *m == 1) else {
            break;
        };
        let status = carc_game_apply_flat(game, id as u32, std::ptr::null_mut());
        assert_eq!(status, CarcStatus::Ok);
        steps += 1;
    }
    assert!(steps > 50);
    assert_eq!(
        carc_game_apply_flat(game, c.actions, std::ptr::null_mut()),
        CarcStatus::InvalidArgument
    );
    crate::game::carc_game_free(full);
    crate::game::carc_game_free(game);
}
