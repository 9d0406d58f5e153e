//! Unit tests of `game`, included by `game.rs` so they see its private items.

use super::*;
use carcassonne_session::encode::Preset;

/// `carc_game_from_record_ex` takes the observation preset, which records do not
/// save: a compact game saved and loaded with `"preset": "compact"` offers the same
/// ids; loaded without it, the full encoding.
#[test]
fn records_load_with_a_preset() {
    let compact = parse_config(r#"{"players":2,"sets":["base"],"preset":"compact"}"#).unwrap();
    let layout = Layout::new(compact.spec, compact.preset, &compact.config);
    let mut session = Session::with_layout(
        carcassonne_core::Game::new(compact.config.clone()).unwrap(),
        std::sync::Arc::new(layout),
    );
    let mask = |s: &mut Session| {
        let mut m = vec![0i8; s.num_actions()];
        s.legal_mask(&mut m).unwrap();
        m
    };
    let first = mask(&mut session).iter().position(|m| *m == 1).unwrap() as u32;
    session.step(first).unwrap();
    let text = session.record_json("g").unwrap();
    let options = load_options(r#"{"preset":"compact"}"#).unwrap();
    assert_eq!(options.preset, Some(Preset::Compact));
    let back = load_record(&text, options).unwrap();
    assert_eq!(mask(&mut back.session()), mask(&mut session));
    let full = load_record(&text, Given::default()).unwrap();
    assert!(full.session().num_actions() > session.num_actions());
    for bad in [r#"{"preset":"tiny"}"#, r#"{"preset":1}"#] {
        let err = load_options(bad).unwrap_err();
        assert!(err.message.contains("options.preset"), "{}", err.message);
    }
}

#[test]
fn both_readers_of_chance_and_window_say_the_same_and_cut_hostile_values_short() {
    let long = format!("\"{}\"", "x".repeat(100_000));
    for (key, value) in [
        ("chance", "\"dice\""),
        ("chance", long.as_str()),
        ("chance", "[1,2,3]"),
        ("window", "2"),
        ("window", "70000"),
        ("window", "\"big\""),
        ("window", long.as_str()),
    ] {
        let config = parse_config(&format!(
            r#"{{"players":2,"sets":["base"],"{key}":{value}}}"#
        ))
        .unwrap_err()
        .message;
        let option = load_options(&format!(r#"{{"{key}":{value}}}"#))
            .unwrap_err()
            .message;
        let named = |message: &str, prefix: String| {
            message
                .strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{message:.80}"))
                .to_string()
        };
        assert_eq!(
            named(&config, format!("{key}: ")),
            named(&option, format!("options.{key}: ")),
            "{key}={value:.20}"
        );
        assert!(option.len() < 200, "{key}: {} bytes", option.len());
    }
}

#[test]
fn config_keys_and_errors_name_the_field() {
    let ok = parse_config(r#"{"players":3,"sets":["base","river1"],"seed":7}"#).unwrap();
    assert_eq!(ok.config.players, 3);
    assert_eq!(ok.config.seed, 7);
    assert_eq!(ok.chance, ChanceMode::Sampled);
    assert_eq!(u32::from(ok.spec.window), CARC_DEFAULT_WINDOW);
    assert_eq!(
        u32::from(EncoderSpec::DEFAULT_WINDOW),
        CARC_DEFAULT_WINDOW,
        "the header's default window is the encoder's"
    );
    let explicit =
        parse_config(r#"{"players":2,"sets":["base"],"chance":"explicit","window":9}"#).unwrap();
    assert_eq!(explicit.chance, ChanceMode::Explicit);
    assert_eq!(explicit.spec.window, 9);
    assert_eq!(explicit.preset, Preset::Full);
    let compact = parse_config(r#"{"players":2,"sets":["base"],"preset":"compact"}"#).unwrap();
    assert_eq!(compact.preset, Preset::Compact);
    for (text, field) in [
        (
            r#"{"players":2,"sets":["base"],"preset":"tiny"}"#,
            "preset:",
        ),
        (r#"{"players":2,"sets":["base"],"preset":3}"#, "preset:"),
        (r#"{"players":9,"sets":["base"]}"#, "players:"),
        (r#"{"players":2,"sets":["base"],"colour":1}"#, "colour:"),
        (
            r#"{"players":2,"sets":["base"],"chance":"dice"}"#,
            "chance:",
        ),
        (r#"{"players":2,"sets":["base"],"window":0}"#, "window:"),
        (r#"{"players":2,"sets":["base"],"window":70000}"#, "window:"),
        (r#"{"players":2,"sets":["base"],"window":"big"}"#, "window:"),
        (r#"{"players":2,"sets":["nope"]}"#, "sets[0]:"),
        (r#"{"players":2}"#, "sets:"),
        (
            r#"{"players":2,"sets":["base"],"rules":{"x":1}}"#,
            "rules.x:",
        ),
        (
            r#"{"players":2,"sets":["base"],"figures":{"abbot":2}}"#,
            "figures.abbot:",
        ),
        (r#"[1]"#, "config:"),
        (r#"{"players":"#, "not valid JSON"),
        (
            r#"{"players":2,"players":3,"sets":["base"]}"#,
            "players: duplicate key",
        ),
        (
            r#"{"players":2,"sets":["base"],"rules":{"farmers":true,"farmers":false}}"#,
            "rules.farmers: duplicate key",
        ),
    ] {
        let e = parse_config(text).unwrap_err();
        assert_eq!(e.status, CarcStatus::InvalidConfig, "{text}");
        assert!(
            e.message.starts_with(field) || e.message.contains(field),
            "{text}: {}",
            e.message
        );
    }
}

/// `docs/c-api.md` describes every key that `carc_game_new` adds to the record format's
/// `setup` object, in its example and its prose, and counts them right.
#[test]
fn the_c_api_guide_lists_every_configuration_key() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/c-api.md")).unwrap();
    let start = guide.find("## Configuration").unwrap();
    let section = &guide[start..start + 1 + guide[start + 1..].find("\n## ").unwrap()];
    let count = ["no", "one", "two", "three", "four", "five"][OPTION_KEYS.len()];
    assert!(
        section.contains(&format!("plus {count} keys of its own")),
        "{section}"
    );
    for key in OPTION_KEYS {
        assert!(
            section.contains(&format!("\"{key}\":")),
            "{key} in the example"
        );
        assert!(section.contains(&format!("`{key}`")), "{key} in the text");
    }
}
