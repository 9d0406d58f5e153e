//! `carcassonne serve`: people play against the built-in bots in a browser.
//!
//! A local web server (bound to 127.0.0.1 by default) serves one page (`cli/web/`: plain
//! HTML, JavaScript and SVG, no build step) and a JSON API over games kept in memory,
//! each a [`Table`] of its own, so several games go on at once and a game outlives a
//! page reload. The engine stays on the server: the page shows what the API gives it
//! (the board drawn by [`carcassonne_session::render`], the choices of the decision from
//! [`crate::choices`]) and sends back the index of the choice a person clicked.
//!
//! The API (bodies are JSON; errors are `{"error": "..."}` with a 4xx status):
//!
//! | request | does |
//! |---|---|
//! | `GET /api/options` | the sets, rule switches, editions and bot presets of the setup form |
//! | `GET /api/games` | the games in memory |
//! | `POST /api/games` `{"setup": {...}, "seats": ["human", "mcts:500"]}` | a new game ([`view::state`]) |
//! | `POST /api/games/load` `{"record": {...}, "seats": [...]}` | a game from a record, to go on with |
//! | `GET /api/games/ID` | the game's state |
//! | `POST /api/games/ID/play` `{"version": V, "choice": I}` | a person's decision: choice `I` of the state of version `V` |
//! | `POST /api/games/ID/bot` `{"version": V}` | one decision of the bot to play |
//! | `POST /api/games/ID/undo` `{"version": V}` | takes back the last decision of a person |
//! | `POST /api/games/ID/analyse` `{"version": V, "iterations": N}` | the MCTS view of the decision |
//! | `GET /api/games/ID/record` | the game's record, to save |
//! | `DELETE /api/games/ID` | forgets the game |
//! | `GET /api/tiles/TILE.svg?rot=R` | one tile's picture |
//!
//! A request names the version of the state it acts on, so a click meant for an older
//! state (another tab, a double click) is refused (409) instead of landing on the wrong
//! decision. Requests whose `Host` does not name the server ([`Settings::host_allowed`])
//! are refused (a web page elsewhere cannot reach the server by DNS rebinding), and a
//! `POST` must be `application/json` (so no other site can post a form to it). A body's
//! JSON values are counted before it is parsed ([`MAX_JSON_VALUES`]), and the bots'
//! searches share the server's threads (`--max-threads`).

mod http;
mod view;

use crate::args::{self, OptSpec};
use crate::table::{Seat, Table};
use crate::{emit, CliError, Outcome};
use carcassonne::tiles::catalogue;
use carcassonne::{Game, GameConfig, Rotation};
use carcassonne_session::bots::Bot;
use carcassonne_session::json::{echo, parse_strict};
use carcassonne_session::mcts::{Budget, MctsConfig};
use carcassonne_session::{record, render};
use http::{Request, Response};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::{IpAddr, TcpListener};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// Help text.
pub const HELP: &str = "\
carcassonne serve: play against the built-in bots in a browser

usage: carcassonne serve [--port P] [--host ADDRESS] [--allow-host NAME]...
                        [--max-threads N] [--max-iterations N] [--max-millis MS]
                        [--request-timeout SECS]

options:
  --port P             the port to listen on (default 8080; 0 picks a free one)
  --host ADDRESS       the address to listen on (default 127.0.0.1: this machine only;
                       another address opens the games to the network, without any
                       password)
  --allow-host NAME    a host name the page may be opened by, repeatable (besides the
                       address listened on and, on this machine, localhost): requests
                       naming another host are refused (DNS rebinding)
  --max-threads N      the most search threads of all the bots and analyses at once,
                       and so of one seat's `mcts:...:threads=T` (default: the number
                       of processors, at least 2 for the page's 2-thread preset, at
                       most 64)
  --max-iterations N   the largest MCTS budget of a seat, in iterations (default
                       200000); analyses search at most 100000 iterations or this
  --max-millis MS      the largest MCTS budget of a seat, in milliseconds (default
                       20000)
  --request-timeout SECS
                       how long a client may take to send a whole request, and then
                       to take the whole answer (default 20)
  -h, --help           show this text

Prints the address of the page and serves until stopped (Ctrl-C). The page sets up a
game (sets, rule switches, seats: a person, or a bot and its strength) and plays it with
the mouse: the squares where the tile fits are highlighted, the tile turns by a click or
the R key, the figures' spots are on the tile, other decisions are buttons, the bots'
moves are shown one by one with what they scored, and a game can be taken back a
decision, saved as a record, loaded from one, and shown as the MCTS bot sees it. Games
live in the server's memory until it stops (at most 64; the one untouched longest makes
room): save a record to keep one.
";

/// Games kept at once; a new one makes room by dropping the one untouched longest.
pub const MAX_GAMES: usize = 64;
/// The largest MCTS budget a seat may have by default: iterations.
pub const MAX_BOT_ITERATIONS: u32 = 200_000;
/// The largest MCTS budget a seat may have by default: milliseconds.
pub const MAX_BOT_MILLIS: u32 = 20_000;
/// The most JSON values (objects, arrays, strings, numbers, ...) of a request's body,
/// counted before any is kept: the largest game record (six players, every set) holds
/// about 10 000.
pub const MAX_JSON_VALUES: usize = 200_000;
/// The largest search of an analysis, in iterations.
pub const MAX_ANALYSIS_ITERATIONS: u32 = 100_000;
/// Iterations of an analysis when no MCTS bot sits at the table.
pub const DEFAULT_ANALYSIS_ITERATIONS: u32 = 2_000;
/// Lines of a game's log that the state carries.
pub const LOG_LINES: usize = 200;

/// The page and its script and style, served as they are.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// Runs the subcommand.
pub fn run(words: &[String]) -> Result<Outcome, CliError> {
    let parsed = args::parse(
        words,
        &[
            OptSpec::once("port"),
            OptSpec::once("host"),
            OptSpec::many("allow-host"),
            OptSpec::once("max-threads"),
            OptSpec::once("max-iterations"),
            OptSpec::once("max-millis"),
            OptSpec::once("request-timeout"),
        ],
    )?;
    if parsed.help {
        emit(HELP);
        return Ok(Outcome::Success);
    }
    if let Some(extra) = parsed.positionals.first() {
        return Err(CliError::Usage(format!("unexpected argument {extra:?}")));
    }
    let port = match parsed.value("port") {
        None => 8080,
        Some(text) => text.trim().parse::<u16>().map_err(|_| {
            CliError::Usage(format!(
                "--port: expected a port from 0 to 65535, found {text:?}"
            ))
        })?,
    };
    let host: IpAddr = match parsed.value("host") {
        None => IpAddr::from([127, 0, 0, 1]),
        Some(text) => text.trim().parse().map_err(|_| {
            CliError::Usage(format!(
                "--host: expected an IP address such as 127.0.0.1 or ::1, found {text:?}"
            ))
        })?,
    };
    let number = |name: &str, default: u64, max: u64| -> Result<u64, CliError> {
        match parsed.value(name) {
            None => Ok(default),
            Some(text) => text
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| {
                    CliError::Usage(format!(
                        "--{name}: expected a whole number from 1 to {max}, found {text:?}"
                    ))
                }),
        }
    };
    let processors = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut allowed_hosts = Vec::new();
    for name in parsed.values("allow-host") {
        let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        {
            return Err(CliError::Usage(format!(
                "--allow-host: expected a host name such as games.example, found {name:?}"
            )));
        }
        allowed_hosts.push(name);
    }
    let settings = Settings {
        bind: host,
        allowed_hosts,
        max_iterations: number(
            "max-iterations",
            u64::from(MAX_BOT_ITERATIONS),
            u64::from(u32::MAX),
        )? as u32,
        max_millis: number("max-millis", u64::from(MAX_BOT_MILLIS), 3_600_000)? as u32,
        ..Settings::local(number(
            "max-threads",
            processors.clamp(2, u64::from(MctsConfig::MAX_THREADS)),
            u64::from(MctsConfig::MAX_THREADS),
        )? as u8)
    };
    let limits = http::Limits {
        request_timeout: std::time::Duration::from_secs(number(
            "request-timeout",
            http::IO_TIMEOUT.as_secs(),
            3600,
        )?),
    };
    let listener = TcpListener::bind((host, port))
        .map_err(|e| CliError::Failed(format!("cannot listen on {host} port {port}: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| CliError::Failed(format!("cannot read the address listened on: {e}")))?;
    let shown = match bound {
        std::net::SocketAddr::V6(a) => format!("[{}]:{}", a.ip(), a.port()),
        std::net::SocketAddr::V4(a) => a.to_string(),
    };
    let server = Server::new(settings);
    emit(&format!(
        "carcassonne: serving the game page on http://{shown}/ (Ctrl-C stops; games live in memory until then)\n"
    ));
    if !host.to_canonical().is_loopback() {
        eprintln!(
            "carcassonne serve: listening on {host}: anyone who can reach this address can play and load games"
        );
    }
    let server = Arc::new(server);
    http::serve(
        listener,
        Arc::new(move |request: &Request| server.handle(request)),
        limits,
    )
    .map_err(|e| CliError::Failed(format!("cannot serve: {e}")))?;
    Ok(Outcome::Success)
}

/// A game in memory.
pub struct Entry {
    /// The game and its seats.
    pub table: Table,
    /// What happened, one line each, newest last (at most [`LOG_LINES`]).
    pub log: Vec<String>,
    /// The last move, for the page to show.
    pub last: Option<view::LastMove>,
    /// The view of the last MCTS bot's decision among several actions.
    pub bot_view: Option<view::BotView>,
    /// When the game was last asked for.
    touched: Instant,
}

impl Entry {
    fn new(table: Table) -> Entry {
        Entry {
            table,
            log: Vec::new(),
            last: None,
            bot_view: None,
            touched: Instant::now(),
        }
    }

    fn log(&mut self, lines: impl IntoIterator<Item = String>) {
        self.log.extend(lines);
        if self.log.len() > LOG_LINES {
            let cut = self.log.len() - LOG_LINES;
            self.log.drain(..cut);
        }
    }
}

/// What a server accepts, set when it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The address listened on: requests must name it (or another name accepted, see
    /// [`Settings::host_allowed`]) in their `Host` header.
    pub bind: IpAddr,
    /// Further host names accepted (`--allow-host`), in lower case.
    pub allowed_hosts: Vec<String>,
    /// The most search threads of all searches at once, and so of one seat.
    pub max_threads: u8,
    /// The largest MCTS budget of a seat, in iterations.
    pub max_iterations: u32,
    /// The largest MCTS budget of a seat, in milliseconds.
    pub max_millis: u32,
}

impl Settings {
    /// The defaults of a server on 127.0.0.1 with `max_threads` search threads.
    pub fn local(max_threads: u8) -> Settings {
        Settings {
            bind: IpAddr::from([127, 0, 0, 1]),
            allowed_hosts: Vec::new(),
            max_threads,
            max_iterations: MAX_BOT_ITERATIONS,
            max_millis: MAX_BOT_MILLIS,
        }
    }

    /// Whether a request's `Host` header names this server (the port is not looked at):
    /// an IP address of the address listened on (any IP address when it listens on all,
    /// `0.0.0.0` or `::`; any loopback address when it listens on one), `localhost` when
    /// it listens on a loopback address or on all, or a name of
    /// [`Settings::allowed_hosts`]. A page of another site reached through DNS
    /// rebinding names that site, never one of these.
    pub fn host_allowed(&self, host: &str) -> bool {
        let Some(name) = host_name(host) else {
            return false;
        };
        let bind = self.bind.to_canonical();
        if let Ok(ip) = name.parse::<IpAddr>() {
            let ip = ip.to_canonical();
            return bind.is_unspecified() || ip == bind || (bind.is_loopback() && ip.is_loopback());
        }
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        (name == "localhost" && (bind.is_loopback() || bind.is_unspecified()))
            || self.allowed_hosts.contains(&name)
    }

    /// The host names accepted, in words.
    fn hosts_in_words(&self) -> String {
        let bind = self.bind.to_canonical();
        let mut names = vec![if bind.is_unspecified() {
            "any IP address of this machine".to_string()
        } else if bind.is_loopback() {
            format!("{bind} (or another loopback address)")
        } else {
            bind.to_string()
        }];
        if bind.is_loopback() || bind.is_unspecified() {
            names.push("localhost".into());
        }
        names.extend(self.allowed_hosts.iter().cloned());
        format!("{} (more with --allow-host NAME)", names.join(", "))
    }
}

/// The name of a `Host` header without its port (an IPv6 address without brackets);
/// `None` when it is not `NAME`, `NAME:PORT`, `[IPV6]` or `[IPV6]:PORT`.
fn host_name(host: &str) -> Option<&str> {
    let host = host.trim();
    let port_ok = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.len() <= 5;
    let name = if let Some(rest) = host.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.strip_prefix(':').is_some_and(port_ok)) {
            return None;
        }
        ip
    } else {
        match host.split_once(':') {
            Some((name, port)) if port_ok(port) => name,
            Some(_) => return None,
            None => host,
        }
    };
    (!name.is_empty()).then_some(name)
}

/// Search threads shared by all searches: a search waits until its threads are free.
struct Threads {
    free: Mutex<u32>,
    freed: Condvar,
}

/// Threads taken by a search, given back when dropped.
struct TakenThreads<'a> {
    pool: &'a Threads,
    count: u32,
}

impl Threads {
    fn take(&self, count: u32) -> TakenThreads<'_> {
        let mut free = lock(&self.free);
        while *free < count {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= count;
        TakenThreads { pool: self, count }
    }
}

impl Drop for TakenThreads<'_> {
    fn drop(&mut self) {
        *lock(&self.pool.free) += self.count;
        self.pool.freed.notify_all();
    }
}

/// The server's games and what it answers.
pub struct Server {
    games: Mutex<BTreeMap<String, Arc<Mutex<Entry>>>>,
    /// Draws the games' ids.
    ids: Mutex<carcassonne::Rng>,
    settings: Settings,
    threads: Threads,
}

/// Locks a mutex, also one a panic left poisoned (its data is still consistent: every
/// change of a game is one call that either happens or not).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Server {
    /// A server with no games.
    pub fn new(settings: Settings) -> Server {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32);
        Server {
            games: Mutex::new(BTreeMap::new()),
            ids: Mutex::new(carcassonne::Rng::new(seed)),
            threads: Threads {
                free: Mutex::new(u32::from(settings.max_threads)),
                freed: Condvar::new(),
            },
            settings,
        }
    }

    /// Answers one request.
    pub fn handle(&self, request: &Request) -> Response {
        let host = request.header("host").unwrap_or("");
        if !self.settings.host_allowed(host) {
            return Response::error(
                403,
                format!(
                    "the Host header is {}; this server answers only to {}",
                    echo(host),
                    self.settings.hosts_in_words()
                ),
            );
        }
        if request.method == "POST" {
            let json = request.header("content-type").is_some_and(|t| {
                t.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .eq_ignore_ascii_case("application/json")
            });
            if !json {
                return Response::error(415, "a POST must carry Content-Type: application/json");
            }
        }
        let segments: Vec<&str> = request.path.split('/').skip(1).collect();
        let method = request.method.as_str();
        match (method, segments.as_slice()) {
            ("GET", [""]) => page(INDEX_HTML, "text/html; charset=utf-8"),
            ("GET", ["app.js"]) => page(APP_JS, "text/javascript; charset=utf-8"),
            ("GET", ["style.css"]) => page(STYLE_CSS, "text/css; charset=utf-8"),
            ("GET", ["favicon.ico"]) => Response::new(204, "text/plain", ""),
            ("GET", ["api", "options"]) => Response::json(200, &view::options()),
            ("GET", ["api", "games"]) => self.list(),
            ("POST", ["api", "games"]) => self.create(request),
            ("POST", ["api", "games", "load"]) => self.load(request),
            ("GET", ["api", "games", id]) => {
                self.with_game(id, |_, entry| Response::json(200, &view::state(id, entry)))
            }
            ("DELETE", ["api", "games", id]) => {
                if lock(&self.games).remove(*id).is_some() {
                    Response::new(204, "text/plain", "")
                } else {
                    no_game(id)
                }
            }
            ("GET", ["api", "games", id, "record"]) => self.with_game(id, |_, entry| {
                let mut response = Response::json(200, &entry.table.record());
                response.headers.push((
                    "Content-Disposition",
                    format!("attachment; filename=\"{}.json\"", file_name(id)),
                ));
                response
            }),
            ("POST", ["api", "games", id, action]) => {
                let body = match body_object(request) {
                    Ok(b) => b,
                    Err(r) => return r,
                };
                self.with_game(id, |id, entry| self.game_action(id, entry, action, &body))
            }
            ("GET", ["api", "tiles", name]) => tile_picture(name, request.param("rot")),
            _ if known_path(&segments) => Response::error(
                405,
                format!("{method} is not allowed on {}", echo(&request.path)),
            ),
            _ => Response::error(404, format!("nothing at {}", echo(&request.path))),
        }
    }

    /// Runs `f` on game `id`, or answers 404.
    fn with_game(&self, id: &str, f: impl FnOnce(&str, &mut Entry) -> Response) -> Response {
        let entry = lock(&self.games).get(id).cloned();
        match entry {
            Some(entry) => {
                let mut entry = lock(&entry);
                entry.touched = Instant::now();
                f(id, &mut entry)
            }
            None => no_game(id),
        }
    }

    fn list(&self) -> Response {
        let games: Vec<(String, Arc<Mutex<Entry>>)> = lock(&self.games)
            .iter()
            .map(|(k, v)| (k.clone(), Arc::clone(v)))
            .collect();
        let list: Vec<Value> = games
            .iter()
            .filter_map(|(id, entry)| {
                // A game busy with a bot's search is listed without waiting for it.
                let entry = entry.try_lock().ok()?;
                Some(view::summary(id, &entry))
            })
            .collect();
        Response::json(200, &json!({ "games": list }))
    }

    /// Keeps a new game; returns its id.
    fn keep(&self, table: Table) -> String {
        let mut games = lock(&self.games);
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .filter_map(|(id, e)| e.try_lock().ok().map(|e| (e.touched, id.clone())))
                .min()
                .map(|(_, id)| id);
            if let Some(id) = oldest {
                games.remove(&id);
            }
        }
        let id = loop {
            let id = format!("{:012x}", lock(&self.ids).next_u64() & 0xFFFF_FFFF_FFFF);
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(id.clone(), Arc::new(Mutex::new(Entry::new(table))));
        id
    }

    fn create(&self, request: &Request) -> Response {
        let body = match body_object(request) {
            Ok(b) => b,
            Err(r) => return r,
        };
        if let Some(key) = body
            .keys()
            .find(|k| !matches!(k.as_str(), "setup" | "seats"))
        {
            return Response::error(
                400,
                format!("{}: unknown key (allowed: setup, seats)", echo(key)),
            );
        }
        let Some(setup) = body.get("setup") else {
            return Response::error(400, "setup: missing");
        };
        let config = match GameConfig::from_json(setup) {
            Ok(c) => c,
            Err(e) => return Response::error(400, format!("setup.{}: {}", e.field, e.message)),
        };
        let players = config.players as usize;
        let seats = match self.seats_of(body.get("seats"), &config) {
            Ok(s) => s,
            Err(m) => return Response::error(400, m),
        };
        let game = match Game::new(config) {
            Ok(g) => g,
            Err(e) => return Response::error(400, format!("setup.{}: {}", e.field, e.message)),
        };
        let seed = game.config().seed;
        let table = Table::new(game, seats, format!("serve-{players}p-seed{seed}"));
        self.created(table)
    }

    fn load(&self, request: &Request) -> Response {
        let body = match body_object(request) {
            Ok(b) => b,
            Err(r) => return r,
        };
        if let Some(key) = body
            .keys()
            .find(|k| !matches!(k.as_str(), "record" | "seats"))
        {
            return Response::error(
                400,
                format!("{}: unknown key (allowed: record, seats)", echo(key)),
            );
        }
        let Some(value) = body.get("record") else {
            return Response::error(400, "record: missing");
        };
        // The record as an object, or as the text of a file.
        let value = match value {
            Value::String(text) => match count_values(text.trim()) {
                Err(r) if r.status == 413 => return r,
                _ => match record::parse_record_text(text.trim()) {
                    Ok(v) => v,
                    Err(e) => return Response::error(400, format!("record: {e}")),
                },
            },
            v => v.clone(),
        };
        let loaded = match record::load(&value, None) {
            Ok(l) => l,
            Err(e) => return Response::error(400, format!("record: {e}")),
        };
        let seats = match self.seats_of(body.get("seats"), loaded.game.config()) {
            Ok(s) => s,
            Err(m) => return Response::error(400, m),
        };
        let id = record::record_id(&value).unwrap_or("loaded").to_string();
        self.created(Table::new(loaded.game, seats, id))
    }

    fn created(&self, table: Table) -> Response {
        let id = self.keep(table);
        self.with_game(&id, |id, entry| {
            let line = format!(
                "game {id} set up: {}",
                crate::setup::describe(entry.table.game().config())
            );
            entry.log([line]);
            Response::json(201, &view::state(id, entry))
        })
    }
}

/// Whether a path is one the server answers (with some method).
fn known_path(segments: &[&str]) -> bool {
    matches!(
        segments,
        [""] | ["app.js"]
            | ["style.css"]
            | ["favicon.ico"]
            | ["api", "options"]
            | ["api", "games"]
            | ["api", "games", _]
            | ["api", "games", _, _]
            | ["api", "tiles", _]
    )
}

/// A page file.
fn page(text: &'static str, content_type: &'static str) -> Response {
    let mut r = Response::new(200, content_type, text);
    r.headers.push((
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'".into(),
    ));
    r
}

fn no_game(id: &str) -> Response {
    Response::error(
        404,
        format!(
            "no game {} on this server (games live in memory until the server stops)",
            echo(id)
        ),
    )
}

/// A game id as a file name (ids are hex; anything else is replaced).
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The body of a request as a JSON object (read strictly: duplicate keys refused).
fn body_object(request: &Request) -> Result<serde_json::Map<String, Value>, Response> {
    let text = std::str::from_utf8(&request.body)
        .map_err(|_| Response::error(400, "the body is not UTF-8"))?;
    if text.trim().is_empty() {
        return Ok(serde_json::Map::new());
    }
    count_values(text)?;
    match parse_strict(text) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(Response::error(400, "the body must be a JSON object")),
        Err(e) => Err(Response::error(
            400,
            format!("the body is not valid JSON: {e}"),
        )),
    }
}

/// Counts the values of a JSON text without keeping any: refuses (413) a text of more
/// than [`MAX_JSON_VALUES`], and (400) one that is not JSON, before a tree is built.
fn count_values(text: &str) -> Result<(), Response> {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use std::cell::Cell;
    struct Count<'a>(&'a Cell<usize>);
    impl Count<'_> {
        fn tick<E: serde::de::Error>(&self) -> Result<(), E> {
            let n = self.0.get() + 1;
            self.0.set(n);
            if n > MAX_JSON_VALUES {
                return Err(E::custom("too many values"));
            }
            Ok(())
        }
    }
    impl<'de> DeserializeSeed<'de> for Count<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Count<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
            self.tick()
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
            self.tick()
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
            self.tick()
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
            self.tick()
        }
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
            self.tick()
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
            self.tick()
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.tick()?;
            while seq.next_element_seed(Count(self.0))?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.tick()?;
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Count(self.0))?;
            }
            Ok(())
        }
    }
    let count = Cell::new(0);
    let mut reader = serde_json::Deserializer::from_str(text);
    let scanned = Count(&count)
        .deserialize(&mut reader)
        .and_then(|()| reader.end());
    match scanned {
        Ok(()) => Ok(()),
        Err(_) if count.get() > MAX_JSON_VALUES => Err(Response::error(
            413,
            format!("the body holds more than {MAX_JSON_VALUES} JSON values"),
        )),
        Err(e) => Err(Response::error(
            400,
            format!("the body is not valid JSON: {e}"),
        )),
    }
}

impl Server {
    /// The seats of a new game: `"human"` or a bot spec each, one per player, within the
    /// server's limits.
    fn seats_of(&self, value: Option<&Value>, config: &GameConfig) -> Result<Vec<Seat>, String> {
        let players = config.players as usize;
        let limits = &self.settings;
        let Some(value) = value else {
            return Err(
                "seats: missing (one per player: \"human\" or a bot such as \"mcts:500\")".into(),
            );
        };
        let list = value
            .as_array()
            .ok_or("seats: expected an array of strings, one per player")?;
        if list.len() != players {
            return Err(format!("seats: {} given for {players} players", list.len()));
        }
        list.iter()
        .enumerate()
        .map(|(i, v)| {
            let text = v
                .as_str()
                .ok_or_else(|| format!("seats[{i}]: expected a string"))?;
            if text.trim() == "human" {
                return Ok(Seat::Human);
            }
            // A network file on the server's disk is not the page's to name.
            if text.starts_with("net:") {
                return Err(format!(
                    "seats[{i}]: {}: the page offers the shipped network (net) only, not a file of the server",
                    echo(text)
                ));
            }
            let bot = Bot::parse(text).map_err(|m| format!("seats[{i}]: {m}"))?;
            bot.check(config).map_err(|m| format!("seats[{i}]: {m}"))?;
            if let Bot::Mcts(c) = bot {
                let too_big = match c.budget {
                    Budget::Iterations(n) => n > limits.max_iterations,
                    Budget::Millis(ms) => ms > limits.max_millis,
                };
                if too_big {
                    return Err(format!(
                        "seats[{i}]: {} is more than this server allows a bot: at most {} iterations or {} ms per decision (--max-iterations, --max-millis)",
                        echo(text), limits.max_iterations, limits.max_millis
                    ));
                }
                if c.threads > limits.max_threads {
                    return Err(format!(
                        "seats[{i}]: {} asks for {} threads; this server allows at most {} (--max-threads)",
                        echo(text), c.threads, limits.max_threads
                    ));
                }
            }
            Ok(Seat::Bot(bot))
        })
        .collect()
    }

    /// `version` of a request's body: it must be the game's.
    fn check_version(body: &serde_json::Map<String, Value>, table: &Table) -> Result<(), Response> {
        let version = match body.get("version") {
            None => {
                return Err(Response::error(
                    400,
                    "version: missing (the version of the state the request acts on)",
                ))
            }
            Some(v) => v
                .as_u64()
                .ok_or_else(|| Response::error(400, "version: expected a whole number"))?,
        };
        if version != table.version() {
            return Err(Response::json(
                409,
                &json!({
                    "error": format!("the game has changed since version {version} (it is at {}): showing it anew", table.version()),
                    "version": table.version(),
                }),
            ));
        }
        Ok(())
    }

    /// The POST actions on one game.
    fn game_action(
        &self,
        id: &str,
        entry: &mut Entry,
        action: &str,
        body: &serde_json::Map<String, Value>,
    ) -> Response {
        let allowed: &[&str] = match action {
            "play" => &["version", "choice"],
            "analyse" => &["version", "iterations"],
            "bot" | "undo" => &["version"],
            _ => {
                return Response::error(
                    404,
                    format!(
                        "no action {} on a game (play, bot, undo, analyse)",
                        echo(action)
                    ),
                )
            }
        };
        if let Some(key) = body.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Response::error(
                400,
                format!(
                    "{}: unknown key (allowed: {})",
                    echo(key),
                    allowed.join(", ")
                ),
            );
        }
        if let Err(r) = Self::check_version(body, &entry.table) {
            return r;
        }
        match action {
            "play" => {
                if entry.table.game().is_terminal() {
                    return Response::error(409, "the game is over");
                }
                let Some(seat) = entry.table.human_to_play() else {
                    return Response::error(409, "a bot decides now, not a person");
                };
                let choices = entry.table.choices();
                let index = match body.get("choice").map(|v| v.as_u64()) {
                    None => return Response::error(400, "choice: missing"),
                    Some(None) => return Response::error(400, "choice: expected a whole number"),
                    Some(Some(i)) => i,
                };
                let Some(choice) = usize::try_from(index).ok().and_then(|i| choices.get(i)) else {
                    return Response::error(
                        400,
                        format!(
                            "choice: {index} is not a choice of this decision (0 to {})",
                            choices.len() - 1
                        ),
                    );
                };
                let before = entry.table.game().board().len();
                let scored = entry.table.game().events().len();
                let text = choice.describe();
                match entry.table.play(choice.action) {
                    Ok(events) => {
                        entry.last = Some(view::LastMove {
                            seat,
                            by_bot: false,
                            text: text.clone(),
                            events: events.clone(),
                            tiles: (before, entry.table.game().board().len()),
                            scores: view::scores_since(entry.table.game(), scored),
                        });
                        entry.log([format!("{}: {text}", crate::table::seat_name(seat))]);
                        entry.log(events.into_iter().map(|e| format!("  {e}")));
                        Response::json(200, &view::state(id, entry))
                    }
                    Err(e) => Response::error(409, e.to_string()),
                }
            }
            "bot" => {
                let threads = match entry.table.bot_to_play() {
                    Some((_, Bot::Mcts(c))) => u32::from(c.threads.max(1)),
                    _ => 0,
                };
                let taken = self
                    .threads
                    .take(threads.min(u32::from(self.settings.max_threads)));
                let before = entry.table.game().board().len();
                let scored = entry.table.game().events().len();
                let moved = entry.table.bot_move();
                drop(taken);
                match moved {
                    Some(m) => {
                        let text = entry.table.describe(m.action);
                        let who = format!(
                            "{} [{}]",
                            crate::table::seat_name(m.seat),
                            entry.table.seats()[m.seat]
                        );
                        entry.log([format!("{who}: {text}")]);
                        entry.log(m.events.iter().map(|e| format!("  {e}")));
                        if let Some(eval) = m.evaluation {
                            entry.bot_view = Some(view::BotView {
                                seat: m.seat,
                                turn: entry.table.game().turns().len(),
                                evaluation: eval,
                            });
                        }
                        entry.last = Some(view::LastMove {
                            seat: m.seat,
                            by_bot: true,
                            text,
                            events: m.events,
                            tiles: (before, entry.table.game().board().len()),
                            scores: view::scores_since(entry.table.game(), scored),
                        });
                        Response::json(200, &view::state(id, entry))
                    }
                    None if entry.table.game().is_terminal() => {
                        Response::error(409, "the game is over")
                    }
                    None => Response::error(409, "a person decides now, not a bot"),
                }
            }
            "undo" => match entry.table.undo() {
                Ok(seat) => {
                    entry.last = None;
                    entry.log([format!(
                        "{} took back a decision",
                        crate::table::seat_name(seat)
                    )]);
                    Response::json(200, &view::state(id, entry))
                }
                Err(why) => Response::error(409, format!("cannot take back: {why}")),
            },
            "analyse" => {
                let game = entry.table.game();
                if game.is_terminal() {
                    return Response::error(
                        409,
                        "the game is over: there is no decision to analyse",
                    );
                }
                let mut config = entry
                    .table
                    .seats()
                    .iter()
                    .find_map(|s| match s {
                        Seat::Bot(Bot::Mcts(c)) => Some(*c),
                        _ => None,
                    })
                    .unwrap_or_else(|| {
                        MctsConfig::new(Budget::Iterations(DEFAULT_ANALYSIS_ITERATIONS))
                    });
                let most = MAX_ANALYSIS_ITERATIONS.min(self.settings.max_iterations);
                match body.get("iterations").map(|v| v.as_u64()) {
                    None => {}
                    Some(Some(n)) if (1..=u64::from(most)).contains(&n) => {
                        config.budget = Budget::Iterations(n as u32);
                    }
                    Some(_) => {
                        return Response::error(
                            400,
                            format!("iterations: expected a whole number from 1 to {most}"),
                        )
                    }
                }
                config.threads = config.threads.clamp(1, self.settings.max_threads.max(1));
                let mut rng = carcassonne::Rng::new(game.state_hash());
                let _taken = self.threads.take(u32::from(config.threads));
                match config.evaluate(game, &mut rng) {
                    Some(eval) => Response::json(
                        200,
                        &json!({
                            "version": entry.table.version(),
                            "view": view::evaluation(game, &eval, &config.to_string(), true),
                        }),
                    ),
                    None => Response::error(409, "there is no decision of a player to analyse now"),
                }
            }
            _ => unreachable!("actions are checked above"),
        }
    }
}

/// `GET /api/tiles/TILE.svg?rot=R`.
fn tile_picture(name: &str, rot: Option<&str>) -> Response {
    let Some(id) = name.strip_suffix(".svg") else {
        return Response::error(
            404,
            format!("no picture {}: tiles are TILE.svg", echo(name)),
        );
    };
    let Some(kind) = catalogue().by_id(id) else {
        return Response::error(404, format!("no tile {} in the catalogue", echo(id)));
    };
    let rot = match rot {
        None => Rotation::default(),
        Some(text) => match text.parse::<u8>().ok().and_then(Rotation::new) {
            Some(r) => r,
            None => {
                return Response::error(400, format!("rot: expected 0 to 3, found {}", echo(text)))
            }
        },
    };
    let mut r = Response::new(200, "image/svg+xml", render::tile_svg(kind, rot));
    r.headers.push(("Cache-Control", "max-age=86400".into()));
    r
}

#[cfg(test)]
#[path = "../tests/unit/serve.rs"]
mod tests;
