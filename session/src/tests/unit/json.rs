//! Unit tests of `json`, included by `json.rs` so they see its private items.

use super::*;

#[test]
fn duplicate_keys_are_refused_at_every_level_with_their_path() {
    let e = parse_strict(r#"{"turns":[{"player":0},{"player":1,"player":2}]}"#).unwrap_err();
    assert_eq!(e.path, "turns[1].player");
    assert_eq!(e.message, "duplicate key");
    let e = parse_strict(r#"{"a":1,"a":1}"#).unwrap_err();
    assert_eq!(e.path, "a");
}

#[test]
fn nesting_is_bounded_without_deep_recursion() {
    let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(parse_strict(&ok).is_ok());
    // Far deeper than any stack would allow if every level were read.
    let deep = "[".repeat(1_000_000);
    let e = parse_strict(&deep).unwrap_err();
    assert!(e.message.contains("nested deeper than 32"), "{e}");
}

#[test]
fn long_values_are_cut_in_messages() {
    let key = "k".repeat(10_000);
    let e = parse_strict(&format!(r#"{{"{key}":1,"{key}":2}}"#)).unwrap_err();
    assert!(e.path.len() < 100, "{}", e.path);
    assert!(e.path.contains("(10000 bytes)"));
    assert!(describe(&Value::String("é".repeat(5000))).len() < 120);
}

#[test]
fn syntax_errors_and_trailing_text_are_errors() {
    assert!(parse_strict("")
        .unwrap_err()
        .message
        .starts_with("invalid JSON"));
    assert!(parse_strict("{} {}").is_err());
    assert!(parse_strict("{\"a\":").is_err());
    assert_eq!(parse_strict(" {\"a\": 1e3} ").unwrap()["a"], 1000.0);
}
