//! The HTTP/1.1 server of `carcassonne serve`, on hyper (1.x) and tokio: one request per
//! connection (`Connection: close`), and limits on everything a client sends.
//!
//! Limits: the request line and headers at most [`MAX_HEAD_BYTES`] (431), at most
//! [`MAX_HEADERS`] headers (431), a body of at most [`MAX_BODY_BYTES`] given by
//! `Content-Length` (413; a body with a `Transfer-Encoding` is refused, 501), bodies over
//! [`LARGE_BODY_BYTES`] at most [`MAX_LARGE_BODIES`] at once (503), and
//! [`Limits::request_timeout`] to send the whole request (not each read: 408) and as
//! long to take the answer. A malformed head is answered 400 by hyper.
//!
//! At most [`MAX_CONNECTIONS`] connections are served at once. When all places are
//! taken, a new connection takes the place of the oldest one still sending its request
//! (it is answered 408) or taking its answer (it is cut), so idle or slow clients cannot
//! keep the others out; a new connection is answered 503 only when every place is held
//! by a request being answered. The answers are computed on blocking threads (a bot's
//! search takes a while), one per connection at most.

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io::Write;
use std::net::TcpListener;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use tokio::time::Instant;

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
/// Bodies larger than this need one of [`MAX_LARGE_BODIES`] places to be read and
/// answered; when none is free the request is answered 503.
pub const LARGE_BODY_BYTES: usize = 64 << 10;
/// The most requests with a large body read and answered at once.
pub const MAX_LARGE_BODIES: usize = 4;

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

/// A connection still sending its request.
const READING: u8 = 0;
/// A connection whose request is being answered: it keeps its place.
const ANSWERING: u8 = 1;
/// A connection that gave its place up.
const EVICTED: u8 = 2;
/// A connection whose answer is being sent.
const WRITING: u8 = 3;

/// A connection being served.
struct Conn {
    started: Instant,
    state: AtomicU8,
    /// Woken when the connection gives its place up or changes its state.
    wake: Notify,
    /// Whether it gave its place up while sending its request (answered 408).
    evicted_reading: std::sync::atomic::AtomicBool,
}

/// The connections being served, by number.
type Registry = Mutex<Vec<(u64, Arc<Conn>)>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Takes a place for a new connection: a free one, or the place of the oldest
/// connection still sending its request or taking its answer. `false` when every place
/// is held by a request being answered.
fn take_place(registry: &Registry, id: u64, conn: Arc<Conn>) -> bool {
    let mut conns = lock(registry);
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
        let evicted = slow.into_iter().find(|c| {
            [READING, WRITING].into_iter().any(|from| {
                let done = c
                    .state
                    .compare_exchange(from, EVICTED, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                if done && from == READING {
                    c.evicted_reading.store(true, Ordering::SeqCst);
                }
                done
            })
        });
        match evicted {
            Some(c) => c.wake.notify_one(),
            None => return false,
        }
    }
    conns.push((id, conn));
    true
}

/// An answer with no body for hyper, with the headers every answer carries.
fn to_hyper(response: Response) -> hyper::Response<Full<Bytes>> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(response.body)));
    *out.status_mut() = hyper::StatusCode::from_u16(response.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = out.headers_mut();
    let mut put = |name: &str, value: &str| {
        if let (Ok(n), Ok(v)) = (
            hyper::header::HeaderName::from_bytes(name.as_bytes()),
            hyper::header::HeaderValue::from_str(value),
        ) {
            headers.append(n, v);
        }
    };
    put("content-type", response.content_type);
    put("x-content-type-options", "nosniff");
    if !response
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("cache-control"))
    {
        put("cache-control", "no-store");
    }
    for (name, value) in &response.headers {
        put(name, value);
    }
    out
}

/// The raw bytes of an answer, for a connection hyper no longer holds.
fn raw(response: &Response) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
        response.status,
        hyper::StatusCode::from_u16(response.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Status"),
        response.content_type,
        response.body.len()
    )
    .into_bytes();
    out.extend_from_slice(&response.body);
    out
}

/// One of the [`MAX_LARGE_BODIES`] places, given back when dropped.
struct LargeBody(Arc<AtomicUsize>);

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

/// Reads a request's head and body within the limits: the request, or the answer that
/// refuses it.
async fn read(
    request: hyper::Request<Incoming>,
    deadline: Instant,
    large: &Arc<AtomicUsize>,
) -> Result<(Request, Option<LargeBody>), Response> {
    let (parts, body) = request.into_parts();
    if parts.headers.contains_key(hyper::header::TRANSFER_ENCODING) {
        return Err(Response::error(
            501,
            "bodies with a Transfer-Encoding are not accepted; send Content-Length",
        ));
    }
    let length = match parts.headers.get(hyper::header::CONTENT_LENGTH) {
        None => 0,
        Some(v) => v
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .ok_or_else(|| Response::error(400, "Content-Length is not a whole number"))?,
    };
    if length > MAX_BODY_BYTES as u64 {
        return Err(Response::error(
            413,
            format!("the body is {length} bytes; at most {MAX_BODY_BYTES} are accepted"),
        ));
    }
    let place = if length > LARGE_BODY_BYTES as u64 {
        Some(large_body(large).ok_or_else(|| {
            Response::error(
                503,
                format!(
                    "too many requests with a body over {LARGE_BODY_BYTES} bytes at once; try again"
                ),
            )
        })?)
    } else {
        None
    };
    let path = percent_decode(parts.uri.path(), false)
        .ok_or_else(|| Response::error(400, "the path is badly encoded"))?;
    let mut query = Vec::new();
    for pair in parts
        .uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let bad = || Response::error(400, "the query is badly encoded");
        query.push((
            percent_decode(k, true).ok_or_else(bad)?,
            percent_decode(v, true).ok_or_else(bad)?,
        ));
    }
    let mut headers = Vec::new();
    for (name, value) in &parts.headers {
        let value = std::str::from_utf8(value.as_bytes())
            .map_err(|_| Response::error(400, "a header value is not UTF-8"))?;
        headers.push((name.as_str().to_string(), value.trim().to_string()));
    }
    let collected = tokio::time::timeout_at(deadline, Limited::new(body, MAX_BODY_BYTES).collect())
        .await
        .map_err(|_| Response::error(408, "the request took too long to arrive"))?
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                Response::error(413, format!("the body is over {MAX_BODY_BYTES} bytes"))
            } else {
                Response::error(400, format!("cannot read the body: {e}"))
            }
        })?;
    Ok((
        Request {
            method: parts.method.as_str().to_string(),
            path,
            query,
            headers,
            body: Vec::from(collected.to_bytes()),
        },
        place,
    ))
}

/// Serves `listener` until the process ends (or fails to start the runtime).
pub fn serve(listener: TcpListener, handler: Arc<Handler>, limits: Limits) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_CONNECTIONS + 4)
        .thread_name("carcassonne-http")
        .enable_all()
        .build()?;
    listener.set_nonblocking(true)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let registry: Arc<Registry> = Arc::new(Mutex::new(Vec::new()));
        let large = Arc::new(AtomicUsize::new(0));
        let mut next_id = 0u64;
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                // Out of descriptors, for one: try again shortly.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            next_id += 1;
            let id = next_id;
            let conn = Arc::new(Conn {
                started: Instant::now(),
                state: AtomicU8::new(READING),
                wake: Notify::new(),
                evicted_reading: false.into(),
            });
            if !take_place(&registry, id, Arc::clone(&conn)) {
                let answer = raw(&Response::error(
                    503,
                    "too many requests at once; try again",
                ));
                tokio::spawn(async move {
                    let mut stream = stream;
                    let _ = tokio::time::timeout(
                        Duration::from_secs(1),
                        tokio::io::AsyncWriteExt::write_all(&mut stream, &answer),
                    )
                    .await;
                });
                continue;
            }
            let registry = Arc::clone(&registry);
            let handler = Arc::clone(&handler);
            let large = Arc::clone(&large);
            tokio::spawn(async move {
                connection(stream, &conn, handler, limits, large).await;
                lock(&registry).retain(|(i, _)| *i != id);
            });
        }
    })
}

/// Serves the one request of a connection.
async fn connection(
    stream: tokio::net::TcpStream,
    conn: &Arc<Conn>,
    handler: Arc<Handler>,
    limits: Limits,
    large: Arc<AtomicUsize>,
) {
    // A second handle on the socket, to answer 408 once hyper has let it go.
    let Ok(std_stream) = stream.into_std() else {
        return;
    };
    let spare = std_stream.try_clone();
    let Ok(stream) = tokio::net::TcpStream::from_std(std_stream) else {
        return;
    };
    let request_deadline = conn.started + limits.request_timeout;
    let answer_deadline = Arc::new(Mutex::new(None::<Instant>));
    let service = {
        let conn = Arc::clone(conn);
        let answer_deadline = Arc::clone(&answer_deadline);
        hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let conn = Arc::clone(&conn);
            let handler = Arc::clone(&handler);
            let large = Arc::clone(&large);
            let answer_deadline = Arc::clone(&answer_deadline);
            async move {
                let response = match read(request, request_deadline, &large).await {
                    Err(refused) => refused,
                    Ok((request, place)) => {
                        if conn
                            .state
                            .compare_exchange(
                                READING,
                                ANSWERING,
                                Ordering::SeqCst,
                                Ordering::SeqCst,
                            )
                            .is_err()
                        {
                            Response::error(408, "the request took too long to arrive")
                        } else {
                            // A panic in a handler is a bug: answer 500, keep serving.
                            let answered =
                                tokio::task::spawn_blocking(move || handler(&request)).await;
                            drop(place);
                            answered.unwrap_or_else(|_| {
                                Response::error(500, "internal error: the server hit a bug")
                            })
                        }
                    }
                };
                *lock(&answer_deadline) = Some(Instant::now() + limits.request_timeout);
                let _ = conn.state.compare_exchange(
                    ANSWERING,
                    WRITING,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                );
                let _ = conn.state.compare_exchange(
                    READING,
                    WRITING,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                );
                conn.wake.notify_one();
                Ok::<_, Infallible>(to_hyper(response))
            }
        })
    };
    let mut builder = http1::Builder::new();
    builder
        .keep_alive(false)
        .half_close(true)
        .timer(TokioTimer::new())
        .header_read_timeout(None)
        .max_headers(MAX_HEADERS)
        .max_buf_size(MAX_HEAD_BYTES.max(8192));
    let mut served = Box::pin(builder.serve_connection(TokioIo::new(stream), service));
    let timed_out = loop {
        let state = conn.state.load(Ordering::SeqCst);
        let deadline = match state {
            READING => Some(request_deadline),
            WRITING => *lock(&answer_deadline),
            EVICTED => break conn.evicted_reading.load(Ordering::SeqCst),
            _ => None,
        };
        let far = Instant::now() + Duration::from_secs(3600);
        tokio::select! {
            _ = &mut served => return,
            _ = conn.wake.notified() => {}
            _ = tokio::time::sleep_until(deadline.unwrap_or(far)) => {
                if deadline.is_some() {
                    break state == READING;
                }
            }
        }
    };
    // hyper lets the socket go; the spare handle answers.
    drop(served);
    if timed_out {
        if let Ok(mut spare) = spare {
            // Blocking, briefly: the answer is small, and a little of what the client
            // still sends is read so that the socket does not close under it.
            let _ = tokio::task::spawn_blocking(move || {
                let _ = spare.set_nonblocking(false);
                let _ = spare.set_write_timeout(Some(Duration::from_secs(1)));
                let _ = spare.write_all(&raw(&Response::error(
                    408,
                    "the request took too long to arrive",
                )));
                let _ = spare.shutdown(std::net::Shutdown::Write);
                let _ = spare.set_read_timeout(Some(Duration::from_millis(100)));
                let mut sink = [0u8; 4096];
                for _ in 0..4 {
                    match std::io::Read::read(&mut spare, &mut sink) {
                        Ok(n) if n > 0 => {}
                        _ => break,
                    }
                }
            })
            .await;
        }
    }
}

#[cfg(test)]
#[path = "../tests/unit/http.rs"]
mod tests;
