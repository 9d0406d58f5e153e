//! A small HTTP/1.1 server on the standard library, for a page served to one person's
//! browser: one request per connection (`Connection: close`), a thread per connection up
//! to [`MAX_CONNECTIONS`], and limits on everything a client sends.
//!
//! Limits: the request line and headers at most [`MAX_HEAD_BYTES`], at most
//! [`MAX_HEADERS`] headers, a body of at most [`MAX_BODY_BYTES`] given by
//! `Content-Length` (a chunked body is refused), bodies over [`LARGE_BODY_BYTES`] at
//! most [`MAX_LARGE_BODIES`] at once, [`Limits::request_timeout`] to send the whole
//! request (not each read) and as long to take the answer. A request that breaks one of
//! them gets its status (400, 408, 413, 431, 501, 503) with a message that says which,
//! and the connection is closed.
//!
//! When all [`MAX_CONNECTIONS`] places are taken, a new connection takes the place of
//! the oldest one still sending its request (it is answered 408) or taking its answer
//! (it is cut), so idle or slow clients cannot keep the others out; a new connection is
//! answered 503 only when every place is held by a request being answered.
//!
//! (A maintained stack, hyper or axum with tower-http on tokio, was weighed and not
//! taken yet: hyper's header-read timeout closes the connection without the documented
//! 408, its own refusals of malformed heads carry no message, and the bounds above would
//! still need code of ours around it.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most bytes of a request line and its headers.
pub const MAX_HEAD_BYTES: usize = 16 << 10;
/// The most headers of a request.
pub const MAX_HEADERS: usize = 64;
/// The largest body accepted: a game record (at most 4 MiB) and room around it.
pub const MAX_BODY_BYTES: usize = (4 << 20) + (64 << 10);
/// The most connections served at once (see the module's docs for a new one).
pub const MAX_CONNECTIONS: usize = 64;
/// How long a client may take to send its whole request, or to take the answer, by
/// default.
pub const IO_TIMEOUT: Duration = Duration::from_secs(20);

/// A request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, percent-decoded, without the query (`/api/games/3f2a`).
    pub path: String,
    /// The query's `key=value` pairs, decoded.
    pub query: Vec<(String, String)>,
    /// Header names in lower case, with their values.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (lower case), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of query parameter `key`, if present.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// Further headers.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// An answer with `status`, `content_type` and `body`.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// A JSON answer.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::new(status, "application/json; charset=utf-8", value.to_string())
    }

    /// An error as JSON: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }
}

/// The reason phrase of a status code.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Writes `response` (with `Content-Length` and `Connection: close`).
pub fn write_response(stream: &mut impl Write, response: &Response) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    if !response
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("cache-control"))
    {
        head.push_str("Cache-Control: no-store\r\n");
    }
    for (name, value) in &response.headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&response.body)?;
    stream.flush()
}

/// Why a request could not be read: the status to answer and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRequest {
    /// The status code.
    pub status: u16,
    /// The message.
    pub message: String,
}

fn bad(status: u16, message: impl Into<String>) -> BadRequest {
    BadRequest {
        status,
        message: message.into(),
    }
}

/// Reads one request from `stream`, within the limits of the module. `continue_to` is
/// where a `100 Continue` goes when the client waits for it (`Expect: 100-continue`).
/// `admit` is asked about the body's length before it is read, and may refuse it.
pub fn read_request(
    stream: &mut impl Read,
    continue_to: &mut impl Write,
    admit: impl FnOnce(usize) -> Result<(), BadRequest>,
) -> Result<Request, BadRequest> {
    let mut reader = BufReader::new(stream);
    let mut head_bytes = 0usize;
    let mut next_line = |reader: &mut BufReader<_>| -> Result<String, BadRequest> {
        let mut line = Vec::new();
        let limit = (MAX_HEAD_BYTES - head_bytes.min(MAX_HEAD_BYTES)) as u64 + 1;
        let n = reader
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut line)
            .map_err(io_error)?;
        head_bytes += n;
        if head_bytes > MAX_HEAD_BYTES {
            return Err(bad(
                431,
                format!("the request line and headers are longer than {MAX_HEAD_BYTES} bytes"),
            ));
        }
        if n == 0 || line.last() != Some(&b'\n') {
            return Err(bad(400, "the request ended before its headers did"));
        }
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        String::from_utf8(line).map_err(|_| bad(400, "the request's head is not UTF-8"))
    };
    let mut line = next_line(&mut reader)?;
    // Empty lines before the request line are allowed (RFC 9112 2.2).
    let mut blanks = 0;
    while line.is_empty() {
        blanks += 1;
        if blanks > 4 {
            return Err(bad(400, "no request line"));
        }
        line = next_line(&mut reader)?;
    }
    let mut parts = line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if !m.is_empty() && !t.is_empty() => (m, t, v),
        _ => return Err(bad(400, "the request line is not `METHOD TARGET HTTP/1.1`")),
    };
    if !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad(400, "the method is not a word in capitals"));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(bad(
            400,
            format!(
                "unsupported protocol {}",
                carcassonne_session::json::echo(version)
            ),
        ));
    }
    if !target.starts_with('/') {
        return Err(bad(400, "the target must be a path starting with /"));
    }
    let (raw_path, raw_query) = target.split_once('?').unwrap_or((target, ""));
    let path =
        percent_decode(raw_path, false).ok_or_else(|| bad(400, "the path is badly encoded"))?;
    let mut query = Vec::new();
    for pair in raw_query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = percent_decode(k, true).ok_or_else(|| bad(400, "the query is badly encoded"))?;
        let v = percent_decode(v, true).ok_or_else(|| bad(400, "the query is badly encoded"))?;
        query.push((k, v));
    }
    let mut headers = Vec::new();
    loop {
        let line = next_line(&mut reader)?;
        if line.is_empty() {
            break;
        }
        if headers.len() >= MAX_HEADERS {
            return Err(bad(431, format!("more than {MAX_HEADERS} headers")));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| bad(400, "a header line without a colon"))?;
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(bad(400, "a header name is empty or holds blanks"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let header = |n: &str| {
        headers
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_str())
    };
    if header("transfer-encoding").is_some() {
        return Err(bad(
            501,
            "bodies with a Transfer-Encoding are not accepted; send Content-Length",
        ));
    }
    let lengths: Vec<&str> = headers
        .iter()
        .filter(|(k, _)| k == "content-length")
        .map(|(_, v)| v.as_str())
        .collect();
    let length = match lengths.as_slice() {
        [] => 0,
        [one] => one
            .parse::<usize>()
            .map_err(|_| bad(400, "Content-Length is not a whole number"))?,
        _ => return Err(bad(400, "Content-Length given more than once")),
    };
    if length > MAX_BODY_BYTES {
        return Err(bad(
            413,
            format!("the body is {length} bytes; at most {MAX_BODY_BYTES} are accepted"),
        ));
    }
    admit(length)?;
    if length > 0 && header("expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) {
        let _ = continue_to.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    // The body grows as it arrives: a length announced is not memory taken.
    let mut body = Vec::with_capacity(length.min(LARGE_BODY_BYTES));
    reader
        .take(length as u64)
        .read_to_end(&mut body)
        .map_err(io_error)?;
    if body.len() < length {
        return Err(bad(400, "the body is shorter than its Content-Length"));
    }
    Ok(Request {
        method: method.to_string(),
        path,
        query,
        headers,
        body,
    })
}

fn io_error(e: std::io::Error) -> BadRequest {
    match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
            bad(408, "the request took too long to arrive")
        }
        _ => bad(400, format!("cannot read the request: {e}")),
    }
}

/// Percent-decodes `text` (`+` is a blank in a query); `None` for a bad escape or
/// bytes that are not UTF-8.
pub fn percent_decode(text: &str, plus_is_space: bool) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// What answers requests.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// The limits of a server that can be set when it starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a client may take to send its whole request (line, headers and body),
    /// and then to take the whole answer.
    pub request_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            request_timeout: IO_TIMEOUT,
        }
    }
}

/// A connection still sending its request: the one that has been at it longest gives
/// its place to a new connection when every place is taken.
const READING: u8 = 0;
/// A connection whose request is being answered: it keeps its place.
const ANSWERING: u8 = 1;
/// A connection whose answer is being sent: like a reader, it gives its place up when
/// it has been at it longest.
const WRITING: u8 = 3;
/// A connection that gave its place up: answered 408 when it was still sending its
/// request, cut when it was taking its answer.
const EVICTED: u8 = 2;

/// A connection being served.
struct Conn {
    started: Instant,
    state: AtomicU8,
    /// The socket (a clone), to stop a read from another thread.
    stream: TcpStream,
}

/// The connections being served, by number.
type Registry = Mutex<Vec<(u64, Arc<Conn>)>>;

fn lock_registry(r: &Registry) -> std::sync::MutexGuard<'_, Vec<(u64, Arc<Conn>)>> {
    r.lock().unwrap_or_else(|e| e.into_inner())
}

/// Takes a place for a new connection: a free one, or the place of the connection that
/// has been sending its request longest (it is answered 408). `false` when every place
/// is held by a request being answered.
fn take_place(registry: &Registry, id: u64, conn: Arc<Conn>) -> bool {
    let mut conns = lock_registry(registry);
    let held = conns
        .iter()
        .filter(|(_, c)| c.state.load(Ordering::SeqCst) != EVICTED)
        .count();
    if held >= MAX_CONNECTIONS {
        let mut slow: Vec<&Arc<Conn>> = conns
            .iter()
            .map(|(_, c)| c)
            .filter(|c| matches!(c.state.load(Ordering::SeqCst), READING | WRITING))
            .collect();
        slow.sort_by_key(|c| c.started);
        let evicted = slow.into_iter().find_map(|c| {
            [READING, WRITING].into_iter().find_map(|from| {
                c.state
                    .compare_exchange(from, EVICTED, Ordering::SeqCst, Ordering::SeqCst)
                    .ok()
                    .map(|from| (c, from))
            })
        });
        match evicted {
            // A reader's read ends at once: its thread answers 408 and closes.
            Some((c, READING)) => {
                let _ = c.stream.shutdown(std::net::Shutdown::Read);
            }
            // A writer's write fails at once: its thread closes.
            Some((c, _)) => {
                let _ = c.stream.shutdown(std::net::Shutdown::Both);
            }
            None => return false,
        }
    }
    conns.push((id, conn));
    true
}

/// Reads from a socket until a deadline: every read waits at most for the time left.
struct Deadline<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Deadline<'_> {
    fn left(&self) -> std::io::Result<Duration> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        Ok(left)
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        (&mut &*self.stream).read(buf)
    }
}

impl Write for Deadline<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        (&mut &*self.stream).write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Bodies larger than this need one of [`MAX_LARGE_BODIES`] places to be read and
/// answered; when none is free the request is answered 503.
pub const LARGE_BODY_BYTES: usize = 64 << 10;
/// The most requests with a large body read and answered at once.
pub const MAX_LARGE_BODIES: usize = 4;

/// One of the [`MAX_LARGE_BODIES`] places, given back when dropped.
pub struct LargeBody(Arc<AtomicUsize>);

impl Drop for LargeBody {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn large_body(count: &Arc<AtomicUsize>) -> Option<LargeBody> {
    if count.fetch_add(1, Ordering::SeqCst) >= MAX_LARGE_BODIES {
        count.fetch_sub(1, Ordering::SeqCst);
        return None;
    }
    Some(LargeBody(Arc::clone(count)))
}

/// Serves `listener` until the process ends: each connection on a thread of its own
/// (at most [`MAX_CONNECTIONS`] at once), one request each.
pub fn serve(listener: TcpListener, handler: Arc<Handler>, limits: Limits) {
    let registry: Arc<Registry> = Arc::new(Mutex::new(Vec::new()));
    let large = Arc::new(AtomicUsize::new(0));
    let mut next_id = 0u64;
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            continue;
        };
        let Ok(clone) = stream.try_clone() else {
            continue;
        };
        next_id += 1;
        let id = next_id;
        let conn = Arc::new(Conn {
            started: Instant::now(),
            state: AtomicU8::new(READING),
            stream: clone,
        });
        if !take_place(&registry, id, Arc::clone(&conn)) {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = write_response(
                &mut stream,
                &Response::error(503, "too many requests at once; try again"),
            );
            continue;
        }
        let handler = Arc::clone(&handler);
        let done = Arc::clone(&registry);
        let large = Arc::clone(&large);
        let spawned = std::thread::Builder::new()
            .name("carcassonne-http".into())
            .spawn(move || {
                handle(stream, &conn, &*handler, limits, &large);
                lock_registry(&done).retain(|(i, _)| *i != id);
            });
        if spawned.is_err() {
            // The thread could not start: the connection was dropped with it.
            lock_registry(&registry).retain(|(i, _)| *i != id);
        }
    }
}

/// Answers the one request of a connection: the request must arrive within
/// `limits.request_timeout` of the connection, the answer be taken within as long again.
fn handle(
    stream: TcpStream,
    conn: &Conn,
    handler: &Handler,
    limits: Limits,
    large: &Arc<AtomicUsize>,
) {
    let mut input = Deadline {
        stream: &stream,
        until: conn.started + limits.request_timeout,
    };
    let mut early = Deadline {
        stream: &stream,
        until: conn.started + limits.request_timeout,
    };
    let mut place = None;
    let read = read_request(&mut input, &mut early, |length| {
        if length > LARGE_BODY_BYTES {
            place = Some(large_body(large).ok_or_else(|| {
                bad(
                    503,
                    format!("too many requests with a body over {LARGE_BODY_BYTES} bytes at once; try again"),
                )
            })?);
        }
        Ok(())
    });
    let read =
        match conn
            .state
            .compare_exchange(READING, ANSWERING, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => read,
            Err(_) => Err(bad(
                408,
                "the request took too long to arrive, and the server needed its place",
            )),
        };
    let response = match read {
        Ok(request) => {
            // A panic in a handler is a bug: answer 500, keep serving.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&request))) {
                Ok(r) => r,
                Err(_) => Response::error(500, "internal error: the server hit a bug"),
            }
        }
        Err(e) => Response::error(e.status, e.message),
    };
    drop(place);
    let _ = conn
        .state
        .compare_exchange(ANSWERING, WRITING, Ordering::SeqCst, Ordering::SeqCst);
    let mut output = Deadline {
        stream: &stream,
        until: Instant::now() + limits.request_timeout,
    };
    let _ = write_response(&mut output, &response);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Let the client read the answer before the socket closes under unread input (a
    // body refused unread): drain a little of it, briefly (half a second in all).
    let mut sink = [0u8; 4096];
    let mut rest = Deadline {
        stream: &stream,
        until: Instant::now() + Duration::from_millis(500),
    };
    for _ in 0..64 {
        match rest.read(&mut sink) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
}

#[cfg(test)]
#[path = "../tests/unit/http.rs"]
mod tests;
