//! `carcassonne serve` under hostile input over real connections: malformed, huge,
//! slow and too many requests are answered with their status (or dropped), and the
//! server goes on serving the others.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["serve", "--port", "0"])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the carcassonne binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s
    }

    /// Sends `bytes` and returns the whole answer.
    fn send(&self, bytes: &[u8]) -> String {
        let mut s = self.connect();
        let _ = s.write_all(bytes);
        let _ = s.shutdown(Shutdown::Write);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    fn get(&self, path: &str) -> String {
        self.send(
            format!(
                "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
                self.port
            )
            .as_bytes(),
        )
    }

    fn alive(&self) {
        let answer = self.get("/api/options");
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn status(answer: &str) -> &str {
    answer.get(9..12).unwrap_or("")
}

#[test]
fn malformed_and_huge_requests_get_their_status() {
    let server = Server::start();
    let host = format!("Host: 127.0.0.1:{}\r\n", server.port);
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        // hyper answers malformed heads itself, without a message.
        (b"\x00\x01\x02 garbage\r\n\r\n".to_vec(), "400", ""),
        (format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(40_000)).into_bytes(), "431", ""),
        (format!("GET / HTTP/1.1\r\n{host}{}\r\n", "X-A: b\r\n".repeat(65)).into_bytes(), "431", ""),
        (format!("POST /api/games HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n").into_bytes(), "413", "at most"),
        (format!("POST /api/games HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").into_bytes(), "501", "Content-Length"),
        (format!("POST /api/games HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{{\"a\":").into_bytes(), "400", "not valid JSON"),
        (format!("GET /\u{1b}]0;owned\u{7} HTTP/1.1\r\n{host}\r\n").into_bytes(), "400", ""),
        (format!("GET /%1b]0;owned%07 HTTP/1.1\r\n{host}\r\n").into_bytes(), "404", "\\u{1b}"),
        (b"GET /api/games HTTP/1.1\r\nHost: attacker.example\r\n\r\n".to_vec(), "403", "Host"),
    ];
    for (bytes, expected, says) in cases {
        let answer = server.send(&bytes);
        assert_eq!(status(&answer), expected, "{answer}");
        assert!(answer.contains(says), "{answer}");
        assert!(!answer.contains("\u{1b}"), "no control character is echoed");
    }
    server.alive();
}

/// Clients that send nothing, or half a request, hold a connection each but not the
/// server: the others are answered at once, and a silent one gets 408 in the end.
#[test]
fn slow_and_many_clients_do_not_stop_the_others() {
    let server = Server::start_with(&["--request-timeout", "2"]);
    let mut silent: Vec<TcpStream> = (0..10).map(|_| server.connect()).collect();
    let mut half = server.connect();
    half.write_all(b"POST /api/games HTTP/1.1\r\nContent-Len")
        .unwrap();
    let started = Instant::now();
    server.alive();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // Far more connections than are served at once: each new one takes the place of
    // the one sending its request longest, which is answered 408; the server answers
    // a whole request at once all the same.
    let crowd: Vec<TcpStream> = (0..150).map(|_| server.connect()).collect();
    let started = Instant::now();
    server.alive();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let mut first = silent.remove(0);
    let mut answer = Vec::new();
    first
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = first.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    // The crowd's newest are still connected; once its time is up (2 s) each is
    // answered 408 too.
    let mut last = crowd.into_iter().last().unwrap();
    let mut answer = Vec::new();
    last.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = last.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let _ = half.shutdown(Shutdown::Both);
    server.alive();
}

/// A request's time is for the whole request, not for each read: a client sending a
/// byte at a time, each well within the time, is answered 408 once the whole time is
/// up.
#[test]
fn a_trickled_request_gets_408_at_its_deadline() {
    let server = Server::start_with(&["--request-timeout", "2"]);
    let mut s = server.connect();
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    for b in b"GET /api/options HTTP/1.1\r\nX-Slow: "
        .iter()
        .chain([b'a'; 200].iter())
    {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(250));
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if !answer.is_empty() || started.elapsed() > Duration::from_secs(8) {
            break;
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(
        answer.starts_with("HTTP/1.1 408"),
        "{answer:?} after {:?}",
        started.elapsed()
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

/// 64 connections that send a byte and then nothing do not keep a whole request out.
#[test]
fn idle_connections_do_not_keep_others_out() {
    let server = Server::start();
    let idle: Vec<TcpStream> = (0..64)
        .map(|_| {
            let mut s = server.connect();
            s.write_all(b"G").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..3 {
        let started = Instant::now();
        server.alive();
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    drop(idle);
}

/// The most memory (kB) and the threads the server's process has had, from /proc.
fn process_status(server: &Server, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap()
}

/// Large bodies of many small values, many at once, do not make the server's memory
/// grow with them: they are counted before they are parsed, and only a few large
/// bodies are taken at once.
#[test]
fn many_large_bodies_keep_memory_bounded() {
    let server = Server::start();
    let before = process_status(&server, "VmHWM:");
    let mut body = String::from("{\"record\":[");
    while body.len() < (4 << 20) - 16 {
        body.push_str("0,");
    }
    body.push_str("0]}");
    let request = format!(
        "POST /api/games/load HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.port,
        body.len()
    );
    let answers: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|_| scope.spawn(|| server.send(request.as_bytes())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for answer in &answers {
        assert!(matches!(status(answer), "413" | "503"), "{answer}");
    }
    let after = process_status(&server, "VmHWM:");
    eprintln!("peak RSS: {before} kB before, {after} kB after 12 bodies of 4 MiB");
    assert!(after < before + 64 * 1024, "{before} kB -> {after} kB");
    server.alive();
}

/// Concurrent bots' searches share the server's threads (--max-threads): four at once
/// with four threads each do not run sixteen threads.
#[test]
fn bot_searches_share_the_threads_of_the_server() {
    let server = Server::start_with(&["--max-threads", "4"]);
    let post = |path: &str, body: &str| {
        server.send(
            format!(
                "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                server.port,
                body.len()
            )
            .as_bytes(),
        )
    };
    let answer = post(
        "/api/games",
        r#"{"setup":{"players":2,"sets":["base"],"seed":1},"seats":["mcts:200000:threads=64","human"]}"#,
    );
    assert_eq!(status(&answer), "400", "{answer}");
    assert!(answer.contains("at most 4 (--max-threads)"), "{answer}");
    let ids: Vec<String> = (0..4)
        .map(|_| {
            let answer = post("/api/games", r#"{"setup":{"players":2,"sets":["base"],"seed":1},"seats":["mcts:400ms:threads=4","human"]}"#);
            assert_eq!(status(&answer), "201", "{answer}");
            let state: serde_json::Value =
                serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
            state["id"].as_str().unwrap().to_string()
        })
        .collect();
    let idle = process_status(&server, "Threads:");
    let most = std::sync::atomic::AtomicU64::new(0);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let n = process_status(&server, "Threads:");
                most.fetch_max(n, std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        let handles: Vec<_> = ids
            .iter()
            .map(|id| {
                scope.spawn(move || post(&format!("/api/games/{id}/bot"), r#"{"version":0}"#))
            })
            .collect();
        for h in handles {
            let answer = h.join().unwrap();
            assert_eq!(status(&answer), "200", "{answer}");
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let most = most.into_inner();
    eprintln!("threads: {idle} idle, at most {most} during four searches of four threads");
    // A thread for each of the four requests, and three more for the one search running.
    assert!(most <= idle + 4 + 3, "{idle} -> {most}");
}

/// A whole game over real connections: create it, let the bots play, read the record.
#[test]
fn a_game_over_real_connections() {
    let server = Server::start();
    let body = r#"{"setup":{"players":2,"sets":["base"],"seed":1},"seats":["greedy","random"]}"#;
    let answer = server.send(
        format!(
            "POST /api/games HTTP/1.1\r\nHost: localhost:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            server.port,
            body.len()
        )
        .as_bytes(),
    );
    assert_eq!(status(&answer), "201", "{answer}");
    let state: serde_json::Value =
        serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
    let id = state["id"].as_str().unwrap().to_string();
    let mut version = state["version"].as_u64().unwrap();
    loop {
        let body = format!(r#"{{"version":{version}}}"#);
        let answer = server.send(
            format!(
                "POST /api/games/{id}/bot HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                server.port,
                body.len()
            )
            .as_bytes(),
        );
        if status(&answer) == "409" {
            assert!(answer.contains("the game is over"), "{answer}");
            break;
        }
        assert_eq!(status(&answer), "200", "{answer}");
        let state: serde_json::Value =
            serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap();
        version = state["version"].as_u64().unwrap();
    }
    let answer = server.get(&format!("/api/games/{id}/record"));
    assert!(answer.to_ascii_lowercase().contains(&format!(
        "content-disposition: attachment; filename=\"{id}.json\""
    )));
    let record = answer.split_once("\r\n\r\n").unwrap().1;
    let game = carcassonne_session::record::replay_json(record).unwrap();
    assert!(game.is_terminal());
}

/// The server's limits are options; bad values are refused before it listens.
#[test]
fn bad_limits_are_refused_at_the_start() {
    for (option, value) in [
        ("--max-threads", "0"),
        ("--max-threads", "65"),
        ("--max-iterations", "lots"),
        ("--max-millis", "0"),
        ("--request-timeout", "0"),
        ("--allow-host", "evil.example/x"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["serve", "--port", "0", option, value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{option} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(option), "{option} {value}: {err}");
    }
}
