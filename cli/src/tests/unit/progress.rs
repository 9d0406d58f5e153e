//! Unit tests of `progress`, included by `progress.rs` so they see its private items.

use super::*;

/// The text written so far by a progress line into a buffer.
fn written(p: &Progress<Vec<u8>>) -> String {
    String::from_utf8(p.out.clone()).unwrap()
}

fn at(start: Instant, millis: u64) -> Instant {
    start + Duration::from_millis(millis)
}

#[test]
fn a_short_run_prints_nothing() {
    let start = Instant::now();
    for terminal in [false, true] {
        let mut p = Progress::new(Vec::new(), terminal, start);
        p.update_at(at(start, 10), |_| unreachable!("not due yet"));
        p.update_at(at(start, 999), |_| unreachable!("not due yet"));
        p.finish();
        assert_eq!(written(&p), "", "terminal: {terminal}");
    }
}

#[test]
fn a_terminal_line_is_redrawn_in_place_and_erased_at_the_end() {
    let start = Instant::now();
    let mut p = Progress::new(Vec::new(), true, start);
    p.update_at(at(start, 1000), |e| format!("turn 10, {}", seconds(e)));
    // Within the redraw interval: nothing.
    p.update_at(at(start, 1100), |_| unreachable!("rate-limited"));
    p.update_at(at(start, 1250), |_| "turn 9".to_string());
    assert_eq!(written(&p), "\rturn 10, 1 s\rturn 9      ");
    p.finish();
    assert_eq!(written(&p), "\rturn 10, 1 s\rturn 9      \r      \r");
    // A second finish (or the drop) writes nothing more.
    p.finish();
    assert!(written(&p).ends_with("      \r      \r"));
}

#[test]
fn a_log_gets_a_plain_line_every_log_interval() {
    let start = Instant::now();
    let mut p = Progress::new(Vec::new(), false, start);
    p.update_at(at(start, 1500), |e| format!("a {}", seconds(e)));
    p.update_at(at(start, 5000), |_| unreachable!("rate-limited"));
    p.update_at(at(start, 11_500), |e| format!("b {}", seconds(e)));
    p.update_at(at(start, 130_000), |e| format!("c {}", seconds(e)));
    p.finish();
    assert_eq!(written(&p), "a 1 s\nb 11 s\nc 2 min 10 s\n");
}
