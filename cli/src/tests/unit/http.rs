//! Unit tests of `serve::http`, included by `http.rs` so they see its private items.

use super::*;

#[test]
fn answers_carry_their_headers() {
    let mut r = Response::error(409, "the game is over");
    r.headers.push(("Content-Disposition", "attachment".into()));
    let out = to_hyper(r);
    assert_eq!(out.status(), 409);
    let header = |n: &str| {
        out.headers()
            .get(n)
            .map(|v| v.to_str().unwrap().to_string())
    };
    assert_eq!(header("cache-control").as_deref(), Some("no-store"));
    assert_eq!(header("content-disposition").as_deref(), Some("attachment"));
    assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
    // A response with its own Cache-Control keeps it alone.
    let mut r = Response::new(200, "image/svg+xml", "<svg/>");
    r.headers.push(("Cache-Control", "max-age=60".into()));
    let out = to_hyper(r);
    assert_eq!(out.headers().get_all("cache-control").iter().count(), 1);
    let text = String::from_utf8(raw(&Response::error(408, "slow"))).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 408 Request Timeout\r\n"),
        "{text}"
    );
    assert!(text.ends_with("\r\n\r\n{\"error\":\"slow\"}"), "{text}");
}

#[test]
fn percent_decoding() {
    assert_eq!(percent_decode("a%2Fb+c", false).as_deref(), Some("a/b+c"));
    assert_eq!(percent_decode("a%2Fb+c", true).as_deref(), Some("a/b c"));
    assert_eq!(percent_decode("%", false), None);
    assert_eq!(percent_decode("%4", false), None);
    assert_eq!(percent_decode("%c3%a9", false).as_deref(), Some("é"));
}
