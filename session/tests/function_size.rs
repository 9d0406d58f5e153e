//! Long functions are split into named steps: no function of the files below passes
//! [`MAX_LINES`] lines (from its `fn` line to its closing brace), so each step of a
//! long procedure (the replay of a record: its head, each turn's entry, the start of the
//! turn, its actions, its end, the end of the game) has a name and a doc comment.

use std::path::Path;

/// The longest a function of the checked files may be.
const MAX_LINES: usize = 100;

/// The files checked, under `session/src`.
const FILES: [&str; 1] = ["record/replay.rs"];

/// Each function of `text` that starts at the left margin or one indent in (`fn`,
/// `pub fn`, `pub(super) fn`, ...): its name and its number of lines.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(at) = words.iter().position(|w| *w == "fn") else {
            continue;
        };
        if indent > 4 || !words[..at].iter().all(|w| w.starts_with("pub")) {
            continue;
        }
        let name: String = words[at + 1]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if line.trim_end().ends_with(';') {
            continue; // a declaration without a body
        }
        if line.trim_end().ends_with('}') {
            found.push((name, 1));
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let end = (i..lines.len())
            .find(|&j| lines[j] == close)
            .unwrap_or_else(|| panic!("fn {name}: no closing brace"));
        found.push((name, end - i + 1));
    }
    found
}

#[test]
fn no_function_passes_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in FILES {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        let fns = functions(&text);
        assert!(fns.len() > 5, "{file}: functions found: {fns:?}");
        let long: Vec<_> = fns.iter().filter(|(_, n)| *n > MAX_LINES).collect();
        assert!(
            long.is_empty(),
            "{file}: longer than {MAX_LINES} lines: {long:?}"
        );
    }
}

#[test]
fn a_function_counts_from_its_fn_line_to_its_closing_brace() {
    let text = "/// Doc.\npub(super) fn a(x: u8) -> u8 {\n    x\n}\n\nfn b() {}\n\nimpl T {\n    fn c(&self) {\n        1;\n    }\n}\n";
    assert_eq!(
        functions(text),
        [
            ("a".to_string(), 3),
            ("b".to_string(), 1),
            ("c".to_string(), 3)
        ]
    );
}
