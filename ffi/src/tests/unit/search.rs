//! Unit tests of `search`, included by `search.rs`.

use super::*;

#[test]
fn struct_size() {
    assert_eq!(std::mem::size_of::<CarcSearchInfo>(), 40);
}

/// Sizes first (no search), then a search whose shares and flat policy sum to 1.
#[test]
fn sizes_then_a_search() {
    let text = std::ffi::CString::new(r#"{"players":2,"sets":["base"],"seed":4}"#).unwrap();
    let mut game: *mut CarcGame = std::ptr::null_mut();
    assert_eq!(
        crate::game::carc_game_new(text.as_ptr(), &mut game),
        CarcStatus::Ok
    );
    let mut info = CarcSearchInfo::default();
    let none = std::ptr::null_mut();
    assert_eq!(
        carc_mcts_search(
            game,
            50,
            1,
            none,
            0,
            none,
            0,
            std::ptr::null_mut(),
            0,
            &mut info
        ),
        CarcStatus::Ok
    );
    assert_eq!((info.iterations, info.players), (0, 2));
    let mut shares = vec![0f32; info.legal as usize];
    let mut policy = vec![0f32; info.actions as usize];
    let mut values = [0f64; 2];
    assert_eq!(
        carc_mcts_search(
            game,
            50,
            1,
            shares.as_mut_ptr(),
            shares.len() as u32,
            policy.as_mut_ptr(),
            policy.len() as u32,
            values.as_mut_ptr(),
            2,
            &mut info
        ),
        CarcStatus::Ok
    );
    assert_eq!(info.iterations, 50);
    assert!((shares.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert!((values[info.player as usize] - info.value).abs() < 1e-9);
    crate::game::carc_game_free(game);
}
