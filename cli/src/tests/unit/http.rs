//! Unit tests of `serve::http`, included by `http.rs` so they see its private items.

use super::*;

fn read(bytes: &[u8]) -> (Result<Request, BadRequest>, Vec<u8>) {
    let mut input = bytes;
    let mut continued = Vec::new();
    let r = read_request(&mut input, &mut continued, |_| Ok(()));
    (r, continued)
}

fn status_of(bytes: &[u8]) -> u16 {
    read(bytes).0.unwrap_err().status
}

#[test]
fn requests_are_read_with_their_path_query_headers_and_body() {
    let (r, _) = read(
        b"POST /api/games/ab%20c?rot=2&x=a+b&flag HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
    );
    let r = r.unwrap();
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/api/games/ab c");
    assert_eq!(r.param("rot"), Some("2"));
    assert_eq!(r.param("x"), Some("a b"));
    assert_eq!(r.param("flag"), Some(""));
    assert_eq!(r.header("host"), Some("127.0.0.1:8080"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.body, b"{\"a\":1}");
    // Bare line feeds and leading empty lines are accepted (RFC 9112 2.2).
    let (r, _) = read(b"\r\nGET / HTTP/1.0\nHost: x\n\n");
    assert_eq!(r.unwrap().path, "/");
}

#[test]
fn a_client_waiting_for_continue_gets_it() {
    let (r, continued) =
        read(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}");
    assert_eq!(r.unwrap().body, b"{}");
    assert_eq!(continued, b"HTTP/1.1 100 Continue\r\n\r\n");
}

#[test]
fn bad_requests_get_their_status_and_say_why() {
    assert_eq!(status_of(b""), 400);
    assert_eq!(
        status_of(b"GET / HTTP/1.1\r\n"),
        400,
        "no end of the headers"
    );
    assert_eq!(status_of(b"GET /\r\n\r\n"), 400);
    assert_eq!(status_of(b"get / HTTP/1.1\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET / HTTP/2.0\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET relative HTTP/1.1\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET /%zz HTTP/1.1\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET /%ff HTTP/1.1\r\n\r\n"), 400, "not UTF-8");
    assert_eq!(status_of(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET / HTTP/1.1\r\nA b: c\r\n\r\n"), 400);
    assert_eq!(status_of(b"GET / HTTP/1.1\r\n\xff: x\r\n\r\n"), 400);
    assert_eq!(
        status_of(b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx"),
        400
    );
    assert_eq!(
        status_of(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
        400
    );
    assert_eq!(
        status_of(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort"),
        400
    );
    let chunked = read(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").0;
    let e = chunked.unwrap_err();
    assert_eq!(e.status, 501);
    assert!(e.message.contains("Content-Length"));
    let huge = format!(
        "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
        MAX_BODY_BYTES + 1
    );
    let e = read(huge.as_bytes()).0.unwrap_err();
    assert_eq!(e.status, 413);
    assert!(e.message.contains(&MAX_BODY_BYTES.to_string()));
    let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD_BYTES));
    assert_eq!(status_of(long.as_bytes()), 431);
    let many: String = (0..=MAX_HEADERS).map(|i| format!("X-{i}: y\r\n")).collect();
    assert_eq!(
        status_of(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
        431
    );
    // Headers just within the limit are fine.
    let fine: String = (0..MAX_HEADERS).map(|i| format!("X-{i}: y\r\n")).collect();
    assert!(read(format!("GET / HTTP/1.1\r\n{fine}\r\n").as_bytes())
        .0
        .is_ok());
}

#[test]
fn answers_carry_their_length_and_close() {
    let mut out = Vec::new();
    let mut r = Response::error(409, "the game is over");
    r.headers.push(("Content-Disposition", "attachment".into()));
    write_response(&mut out, &r).unwrap();
    let text = String::from_utf8(out).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 409 Conflict\r\n"));
    assert!(head.contains(&format!("Content-Length: {}\r\n", body.len())));
    assert!(head.contains("Connection: close"));
    assert!(head.contains("Cache-Control: no-store"));
    assert!(head.contains("Content-Disposition: attachment"));
    assert_eq!(body, r#"{"error":"the game is over"}"#);
    // A response with its own Cache-Control keeps it alone.
    let mut out = Vec::new();
    let mut r = Response::new(200, "image/svg+xml", "<svg/>");
    r.headers.push(("Cache-Control", "max-age=60".into()));
    write_response(&mut out, &r).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("Cache-Control").count(), 1);
}

#[test]
fn percent_decoding() {
    assert_eq!(percent_decode("a%2Fb+c", false).as_deref(), Some("a/b+c"));
    assert_eq!(percent_decode("a%2Fb+c", true).as_deref(), Some("a/b c"));
    assert_eq!(percent_decode("%", false), None);
    assert_eq!(percent_decode("%4", false), None);
    assert_eq!(percent_decode("%c3%a9", false).as_deref(), Some("é"));
}
