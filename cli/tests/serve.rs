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
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne"))
            .args(["serve", "--port", "0"])
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
        (b"\x00\x01\x02 garbage\r\n\r\n".to_vec(), "400", "request line"),
        (b"GET / HTTP/1.1\r\n".to_vec(), "400", "ended before"),
        (format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(40_000)).into_bytes(), "431", "longer than"),
        (format!("POST /api/games HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n").into_bytes(), "413", "at most"),
        (format!("POST /api/games HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").into_bytes(), "501", "Content-Length"),
        (format!("POST /api/games HTTP/1.1\r\n{host}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{{\"a\":").into_bytes(), "400", "not valid JSON"),
        (format!("GET /\u{1b}]0;owned\u{7} HTTP/1.1\r\n{host}\r\n").into_bytes(), "404", "\\u{1b}"),
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
    let server = Server::start();
    let mut silent: Vec<TcpStream> = (0..10).map(|_| server.connect()).collect();
    let mut half = server.connect();
    half.write_all(b"POST /api/games HTTP/1.1\r\nContent-Len")
        .unwrap();
    let started = Instant::now();
    server.alive();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // Far more connections than are served at once: the extra ones are refused with
    // 503, and the server serves again once they are gone.
    let crowd: Vec<TcpStream> = (0..150).map(|_| server.connect()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut refused = 0;
    for mut c in crowd.into_iter().skip(60) {
        let _ = c.set_read_timeout(Some(Duration::from_millis(500)));
        let mut answer = Vec::new();
        let _ = c.read_to_end(&mut answer);
        if String::from_utf8_lossy(&answer).contains(" 503 ") {
            refused += 1;
        }
    }
    assert!(refused > 0, "no connection was refused");
    // A silent client is answered 408 once its time is up (20 s).
    let mut first = silent.remove(0);
    let mut answer = Vec::new();
    first
        .set_read_timeout(Some(Duration::from_secs(40)))
        .unwrap();
    let _ = first.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    for s in silent.drain(..) {
        let _ = s.shutdown(Shutdown::Both);
    }
    let _ = half.shutdown(Shutdown::Both);
    // The crowd's connections close as they are dropped; give the server a moment.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = server.get("/api/options");
        if answer.starts_with("HTTP/1.1 200 OK") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not recover: {answer}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
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
    assert!(answer.contains(&format!(
        "Content-Disposition: attachment; filename=\"{id}.json\""
    )));
    let record = answer.split_once("\r\n\r\n").unwrap().1;
    let game = carcassonne_session::record::replay_json(record).unwrap();
    assert!(game.is_terminal());
}
