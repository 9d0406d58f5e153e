//! Unit tests of `serve`, included by `serve/mod.rs` so they see its private items: the
//! API answered without a network.

use super::*;

const PORT: u16 = 8080;

fn request(method: &str, path: &str, body: Option<&str>) -> Request {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    Request {
        method: method.into(),
        path: path.into(),
        query: query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (k.into(), v.into())
            })
            .collect(),
        headers: vec![
            ("host".into(), format!("127.0.0.1:{PORT}")),
            ("content-type".into(), "application/json".into()),
        ],
        body: body.unwrap_or("").as_bytes().to_vec(),
    }
}

fn call(server: &Server, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let r = server.handle(&request(method, path, text.as_deref()));
    let value = if r.content_type.starts_with("application/json") {
        serde_json::from_slice(&r.body).unwrap()
    } else {
        Value::String(String::from_utf8(r.body).unwrap())
    };
    (r.status, value)
}

fn error_of(value: &Value) -> &str {
    value["error"].as_str().unwrap_or("")
}

fn new_game(server: &Server, sets: &[&str], seats: &[&str]) -> Value {
    let (status, state) = call(
        server,
        "POST",
        "/api/games",
        Some(
            json!({ "setup": { "players": seats.len(), "sets": sets, "seed": 3 }, "seats": seats }),
        ),
    );
    assert_eq!(status, 201, "{state}");
    state
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::new(Settings::local(4));
    let r = server.handle(&request("GET", "/", None));
    assert_eq!(r.status, 200);
    assert!(r.content_type.starts_with("text/html"));
    assert!(r
        .headers
        .iter()
        .any(|(n, v)| *n == "Content-Security-Policy" && v.contains("default-src 'self'")));
    let html = String::from_utf8(r.body).unwrap();
    assert!(html.contains("<script src=\"/app.js\">") && html.contains("/style.css"));
    for (path, kind) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let r = server.handle(&request("GET", path, None));
        assert_eq!(r.status, 200);
        assert!(r.content_type.starts_with(kind));
        assert!(!r.body.is_empty());
    }
    let (status, options) = call(&server, "GET", "/api/options", None);
    assert_eq!(status, 200);
    assert_eq!(
        options["sets"].as_array().unwrap().len(),
        TileSet::ALL.len()
    );
    assert!(options["rules"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["key"] == "farmers"));
    // The seat menu offers every kind of bot (the match is exhaustive: a new kind fails
    // to compile here until it is listed).
    let offered: Vec<&str> = options["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| Bot::parse(b["spec"].as_str().unwrap()).unwrap().name())
        .collect();
    for kind in [
        Bot::Random,
        Bot::Greedy,
        Bot::Heuristic,
        Bot::parse("mcts").unwrap(),
        Bot::parse("net").unwrap(),
    ] {
        let name = match kind {
            Bot::Random | Bot::Greedy | Bot::Heuristic | Bot::Mcts(_) | Bot::Net(_) => kind.name(),
        };
        assert!(
            offered.contains(&name),
            "{name} is not in the seat menu: {offered:?}"
        );
    }
}

use carcassonne::TileSet;
use carcassonne_session::bots::Bot;

/// Requests from elsewhere than this machine's own name are refused (DNS rebinding), a
/// POST must be JSON (no form posted from another site), unknown paths are 404 and
/// known paths with another method 405.
#[test]
fn requests_from_elsewhere_and_odd_requests_are_refused() {
    let server = Server::new(Settings::local(4));
    let mut r = request("GET", "/api/games", None);
    r.headers[0].1 = "evil.example:8080".into();
    let answer = server.handle(&r);
    assert_eq!(answer.status, 403);
    assert!(String::from_utf8(answer.body)
        .unwrap()
        .contains("evil.example"));
    r.headers.remove(0);
    assert_eq!(server.handle(&r).status, 403, "no Host header");
    let mut r = request("POST", "/api/games", Some("{}"));
    r.headers[1].1 = "text/plain".into();
    assert_eq!(server.handle(&r).status, 415);
    assert_eq!(call(&server, "GET", "/nothing", None).0, 404);
    assert_eq!(call(&server, "PUT", "/api/games", None).0, 405);
    assert_eq!(call(&server, "DELETE", "/", None).0, 405);
}

/// Every bind checks the Host header: its own IP addresses, `localhost` on this machine,
/// and the names given with --allow-host; the port is not looked at.
#[test]
fn host_names_accepted_by_each_bind() {
    let on = |bind: &str, allowed: &[&str]| Settings {
        bind: bind.parse().unwrap(),
        allowed_hosts: allowed.iter().map(|s| s.to_string()).collect(),
        ..Settings::local(1)
    };
    let cases: &[(&str, &[&str], &str, bool)] = &[
        ("127.0.0.1", &[], "127.0.0.1:8080", true),
        ("127.0.0.1", &[], "127.0.0.1", true),
        ("127.0.0.1", &[], "LOCALHOST:1234", true),
        ("127.0.0.1", &[], "[::1]:8080", true),
        ("127.0.0.1", &[], "evil.example:8080", false),
        ("127.0.0.1", &[], "", false),
        ("127.0.0.1", &[], "127.0.0.1:80:80", false),
        ("127.0.0.2", &[], "127.0.0.2:8080", true),
        ("::ffff:127.0.0.1", &[], "127.0.0.1:8080", true),
        ("::ffff:127.0.0.1", &[], "evil.example:8080", false),
        ("0.0.0.0", &[], "192.168.1.5:8080", true),
        ("0.0.0.0", &[], "0.0.0.0:8080", true),
        ("0.0.0.0", &[], "localhost:8080", true),
        ("0.0.0.0", &[], "evil.example", false),
        ("0.0.0.0", &["games.example"], "Games.Example.:8080", true),
        ("192.168.1.5", &[], "192.168.1.5:8080", true),
        ("192.168.1.5", &[], "192.168.1.6:8080", false),
        ("192.168.1.5", &[], "localhost:8080", false),
        ("192.168.1.5", &[], "rebound.example:8080", false),
        ("::", &[], "[fe80::1]:8080", true),
    ];
    for &(bind, allowed, host, ok) in cases {
        let server = Server::new(on(bind, allowed));
        let mut r = request("GET", "/api/games", None);
        r.headers[0].1 = host.into();
        let answer = server.handle(&r);
        assert_eq!(
            answer.status,
            if ok { 200 } else { 403 },
            "bind {bind}, Host {host:?}"
        );
        if !ok {
            let text = String::from_utf8(answer.body).unwrap();
            assert!(text.contains("--allow-host"), "{text}");
        }
    }
}

/// Seats over the server's thread or budget limits are refused with the limit named.
#[test]
fn seats_over_the_limits_are_refused() {
    let server = Server::new(Settings {
        max_iterations: 5000,
        ..Settings::local(2)
    });
    let seats = |seats: &[&str]| {
        call(
            &server,
            "POST",
            "/api/games",
            Some(json!({ "setup": { "players": 2, "sets": ["base"], "seed": 3 }, "seats": seats })),
        )
    };
    let (status, answer) = seats(&["human", "mcts:200:threads=64"]);
    assert_eq!(status, 400, "{answer}");
    assert!(
        error_of(&answer).contains("at most 2 (--max-threads)"),
        "{answer}"
    );
    let (status, answer) = seats(&["human", "mcts:6000"]);
    assert_eq!(status, 400, "{answer}");
    assert!(
        error_of(&answer).contains("at most 5000 iterations"),
        "{answer}"
    );
    assert_eq!(seats(&["human", "mcts:5000:threads=2"]).0, 201);
}

/// A body of many small JSON values is refused before a tree of them is built.
#[test]
fn bodies_of_too_many_values_are_refused() {
    let server = Server::new(Settings::local(1));
    let body = format!("{{\"record\":[{}0]}}", "0,".repeat(MAX_JSON_VALUES));
    let r = server.handle(&request("POST", "/api/games/load", Some(&body)));
    assert_eq!(r.status, 413);
    let text = format!(
        "{{\"record\":{}}}",
        json!(format!("[{}0]", "0,".repeat(MAX_JSON_VALUES)))
    );
    let r = server.handle(&request("POST", "/api/games/load", Some(&text)));
    assert_eq!(r.status, 413, "a record given as text is counted too");
    let r = server.handle(&request(
        "POST",
        "/api/games/load",
        Some("{\"record\":[1,}"),
    ));
    assert_eq!(r.status, 400);
}

/// Bad setups and seats are refused with the field that is wrong.
#[test]
fn bad_setups_name_their_field() {
    let server = Server::new(Settings::local(4));
    let cases: Vec<(Value, &str)> = vec![
        (json!({ "seats": ["human", "random"] }), "setup: missing"),
        (
            json!({ "setup": { "players": 9 }, "seats": [] }),
            "setup.players",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base", "moon"] }, "seats": ["human", "random"] }),
            "setup.sets",
        ),
        (
            json!({ "setup": { "players": 2, "colour": "red" }, "seats": ["human", "random"] }),
            "setup.",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] } }),
            "seats: missing",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": "human" }),
            "seats: expected an array",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human"] }),
            "seats: 1 given for 2 players",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human", 7] }),
            "seats[1]: expected a string",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human", "wizard"] }),
            "seats[1]: unknown bot",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human", "mcts:100000000"] }),
            "more than this server allows",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human", "mcts:30000ms"] }),
            "more than this server allows",
        ),
        (
            json!({ "setup": { "players": 2, "sets": ["base"] }, "seats": ["human", "random"], "x": 1 }),
            "\"x\": unknown key",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = call(&server, "POST", "/api/games", Some(body.clone()));
        assert_eq!(status, 400, "{body}");
        assert!(error_of(&answer).contains(expected), "{body}: {answer}");
    }
    for text in [
        "[1, 2]",
        "{\"setup\": 1, \"setup\": 2}",
        "{",
        "\u{0}",
        &"[".repeat(100),
    ] {
        let r = server.handle(&request("POST", "/api/games", Some(text)));
        assert_eq!(r.status, 400, "{text:?}");
    }
    let r = server.handle(&Request {
        body: vec![0xff, 0xfe],
        ..request("POST", "/api/games", None)
    });
    assert_eq!(r.status, 400);
    assert!(lock(&server.games).is_empty(), "no game was made");
}

/// A whole game through the API: every decision of the person by the index of a choice
/// of the state of the right version, the bots one decision per request; a request for
/// an older version, a choice that does not exist, a bot's request at a person's
/// decision and the reverse are refused and change nothing. The record replays.
#[test]
fn a_whole_game_through_the_api() {
    let server = Server::new(Settings::local(4));
    let sets: Vec<&str> = TileSet::ALL.iter().map(|s| s.key()).collect();
    let mut state = new_game(&server, &sets, &["human", "random"]);
    let id = state["id"].as_str().unwrap().to_string();
    let game = format!("/api/games/{id}");
    let mut rng = carcassonne::Rng::new(5);
    let mut refused = 0;
    let mut undone = 0;
    let mut kinds = std::collections::BTreeSet::new();
    while state["over"] == false {
        let version = state["version"].as_u64().unwrap();
        let choices = state["choices"].as_array().unwrap().clone();
        if state["human"].is_null() {
            assert!(
                choices.is_empty(),
                "a person's choices are only shown to a person"
            );
            let (status, answer) = call(
                &server,
                "POST",
                &format!("{game}/play"),
                Some(json!({ "version": version, "choice": 0 })),
            );
            assert_eq!(
                (status, error_of(&answer)),
                (409, "a bot decides now, not a person")
            );
            let (status, next) = call(
                &server,
                "POST",
                &format!("{game}/bot"),
                Some(json!({ "version": version })),
            );
            assert_eq!(status, 200, "{next}");
            assert!(next["last"]["by_bot"] == true);
            // The points shown with the move are what the scores moved by.
            let mut moved = [0i64; 2];
            for e in next["last"]["scores"].as_array().unwrap() {
                moved[e["seat"].as_u64().unwrap() as usize] += e["points"].as_i64().unwrap();
            }
            for seat in 0..2 {
                let delta = next["seats"][seat]["score"].as_i64().unwrap()
                    - state["seats"][seat]["score"].as_i64().unwrap();
                assert_eq!(moved[seat], delta, "{}", next["last"]);
            }
            state = next;
            continue;
        }
        assert!(!choices.is_empty());
        for (i, c) in choices.iter().enumerate() {
            assert_eq!(c["i"], i);
            kinds.insert(c["kind"].as_str().unwrap().to_string());
            if let Some(spot) = c["spot"].as_array() {
                for v in spot {
                    assert!(
                        (0.0..=render::TILE_SIZE).contains(&v.as_f64().unwrap()),
                        "{c}"
                    );
                }
            }
            if c["empty"] == true {
                assert!(!c["pos"].is_null());
            }
        }
        if rng.below(10) == 0 {
            // A stale version, a choice out of range, a bot's move at a person's turn.
            let stale = call(
                &server,
                "POST",
                &format!("{game}/play"),
                Some(json!({ "version": version + 1, "choice": 0 })),
            );
            assert_eq!(stale.0, 409);
            assert_eq!(stale.1["version"], version);
            let out = call(
                &server,
                "POST",
                &format!("{game}/play"),
                Some(json!({ "version": version, "choice": choices.len() })),
            );
            assert_eq!(out.0, 400);
            assert!(error_of(&out.1).starts_with("choice: "));
            let bot = call(
                &server,
                "POST",
                &format!("{game}/bot"),
                Some(json!({ "version": version })),
            );
            assert_eq!(
                (bot.0, error_of(&bot.1)),
                (409, "a person decides now, not a bot")
            );
            let unknown = call(
                &server,
                "POST",
                &format!("{game}/play"),
                Some(json!({ "version": version, "choice": 0, "also": 1 })),
            );
            assert_eq!(unknown.0, 400);
            refused += 4;
            let (_, same) = call(&server, "GET", &game, None);
            assert_eq!(same["version"], version, "refused requests change nothing");
        }
        let pick = rng.below(choices.len() as u32) as usize;
        let (status, next) = call(
            &server,
            "POST",
            &format!("{game}/play"),
            Some(json!({ "version": version, "choice": pick })),
        );
        assert_eq!(status, 200, "{next}");
        assert_eq!(next["last"]["text"], choices[pick]["text"]);
        state = next;
        if state["undo"]["ok"] == true && rng.below(4) == 0 {
            let (status, back) = call(
                &server,
                "POST",
                &format!("{game}/undo"),
                Some(json!({ "version": state["version"] })),
            );
            assert_eq!(status, 200);
            assert_eq!(
                back["choices"].as_array().unwrap().len(),
                choices.len(),
                "the decision is offered again"
            );
            undone += 1;
            state = back;
        }
    }
    assert!(refused > 0 && undone > 0);
    assert!(
        kinds.contains("place_tile") && kinds.contains("deploy") && kinds.len() >= 5,
        "{kinds:?}"
    );
    let over = call(
        &server,
        "POST",
        &format!("{game}/bot"),
        Some(json!({ "version": state["version"] })),
    );
    assert_eq!((over.0, error_of(&over.1)), (409, "the game is over"));
    let (status, record) = call(&server, "GET", &format!("{game}/record"), None);
    assert_eq!(status, 200);
    let replayed = carcassonne_session::record::replay(&record).unwrap();
    assert_eq!(
        json!(replayed.scores()),
        json!(state["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"].clone())
            .collect::<Vec<_>>())
    );
    let (status, _) = call(&server, "DELETE", &game, None);
    assert_eq!(status, 204);
    assert_eq!(call(&server, "GET", &game, None).0, 404);
    assert_eq!(call(&server, "DELETE", &game, None).0, 404);
}

/// A record loads (as an object or as the text of a file) and the game goes on from
/// it; a bad record is refused with the path of what is wrong.
#[test]
fn records_load_and_bad_ones_are_named() {
    let server = Server::new(Settings::local(4));
    let state = new_game(&server, &["base"], &["random", "random"]);
    let game = format!("/api/games/{}", state["id"].as_str().unwrap());
    let mut version = state["version"].as_u64().unwrap();
    for _ in 0..12 {
        let (_, s) = call(
            &server,
            "POST",
            &format!("{game}/bot"),
            Some(json!({ "version": version })),
        );
        version = s["version"].as_u64().unwrap();
    }
    let (_, record) = call(&server, "GET", &format!("{game}/record"), None);
    for body in [
        json!({ "record": record, "seats": ["human", "greedy"] }),
        json!({ "record": record.to_string(), "seats": ["human", "greedy"] }),
    ] {
        let (status, loaded) = call(&server, "POST", "/api/games/load", Some(body));
        assert_eq!(status, 201, "{loaded}");
        let (_, original) = call(&server, "GET", &game, None);
        assert_eq!(loaded["turn"], original["turn"]);
        assert_eq!(
            loaded["tile"], original["tile"],
            "the same tile is in hand: the draws resume"
        );
        assert_ne!(loaded["id"], original["id"]);
    }
    let mut bad = record.clone();
    bad["turns"][2]["actions"][0]["x"] = json!(99);
    let (status, answer) = call(
        &server,
        "POST",
        "/api/games/load",
        Some(json!({ "record": bad, "seats": ["human", "greedy"] })),
    );
    assert_eq!(status, 400);
    assert!(error_of(&answer).contains("turn 2"), "{answer}");
    let (status, answer) = call(
        &server,
        "POST",
        "/api/games/load",
        Some(json!({ "record": "not json", "seats": ["human", "greedy"] })),
    );
    assert_eq!(status, 400);
    assert!(error_of(&answer).starts_with("record: "));
    let (status, answer) = call(
        &server,
        "POST",
        "/api/games/load",
        Some(json!({ "record": record, "seats": ["human"] })),
    );
    assert_eq!(
        (status, error_of(&answer)),
        (400, "seats: 1 given for 2 players")
    );
    let (_, list) = call(&server, "GET", "/api/games", None);
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
}

/// The MCTS view of a decision: shares of the most visited choices, each naming its
/// choice; the view of a bot's last decision comes with the state.
#[test]
fn the_mcts_view() {
    let server = Server::new(Settings::local(4));
    let state = new_game(&server, &["base"], &["human", "mcts:40"]);
    let game = format!("/api/games/{}", state["id"].as_str().unwrap());
    let version = state["version"].clone();
    let (status, answer) = call(
        &server,
        "POST",
        &format!("{game}/analyse"),
        Some(json!({ "version": version, "iterations": 300 })),
    );
    assert_eq!(status, 200, "{answer}");
    let view = &answer["view"];
    assert_eq!(view["iterations"], 300);
    assert_eq!(view["seat"], 0);
    let top = view["top"].as_array().unwrap();
    assert!(!top.is_empty());
    let mut total = 0.0;
    for m in top {
        let i = m["choice"].as_u64().unwrap() as usize;
        assert_eq!(m["text"], state["choices"][i]["text"]);
        total += m["share"].as_f64().unwrap();
    }
    assert!(total > 0.0 && total <= 1.0 + 1e-9);
    for bad in [json!(0), json!(MAX_ANALYSIS_ITERATIONS + 1), json!("many")] {
        let (status, _) = call(
            &server,
            "POST",
            &format!("{game}/analyse"),
            Some(json!({ "version": version, "iterations": bad })),
        );
        assert_eq!(status, 400);
    }
    // Place the tile and deploy nothing: the bot moves, and its view comes with the state.
    let mut state = state;
    while state["human"] == 0 {
        let last = state["choices"].as_array().unwrap().len() - 1;
        let (_, s) = call(
            &server,
            "POST",
            &format!("{game}/play"),
            Some(json!({ "version": state["version"], "choice": last })),
        );
        state = s;
    }
    while state["human"].is_null() {
        let (_, s) = call(
            &server,
            "POST",
            &format!("{game}/bot"),
            Some(json!({ "version": state["version"] })),
        );
        state = s;
    }
    let view = &state["bot_view"];
    assert_eq!(view["seat"], 1);
    assert_eq!(view["bot"], "mcts:40");
    assert!(view["top"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["choice"].is_null()));
}

#[test]
fn tiles_are_drawn_alone() {
    let server = Server::new(Settings::local(4));
    let (status, svg) = call(&server, "GET", "/api/tiles/BASE-D.svg?rot=3", None);
    assert_eq!(status, 200);
    assert!(svg
        .as_str()
        .unwrap()
        .contains(r#"data-tile="BASE-D" data-rot="3""#));
    assert_eq!(call(&server, "GET", "/api/tiles/NOPE.svg", None).0, 404);
    assert_eq!(call(&server, "GET", "/api/tiles/BASE-D.png", None).0, 404);
    assert_eq!(
        call(&server, "GET", "/api/tiles/BASE-D.svg?rot=4", None).0,
        400
    );
    assert_eq!(call(&server, "GET", "/api/games/nope", None).0, 404);
    assert_eq!(
        call(&server, "POST", "/api/games/nope/play", Some(json!({}))).0,
        404
    );
}

/// The server keeps at most MAX_GAMES games: a new one makes room by dropping the one
/// untouched longest.
#[test]
fn games_make_room() {
    let server = Server::new(Settings::local(4));
    let first = new_game(&server, &["base"], &["human", "random"]);
    let first = format!("/api/games/{}", first["id"].as_str().unwrap());
    let second = new_game(&server, &["base"], &["human", "random"]);
    let second = format!("/api/games/{}", second["id"].as_str().unwrap());
    for _ in 2..MAX_GAMES {
        new_game(&server, &["base"], &["human", "random"]);
    }
    assert_eq!(
        call(&server, "GET", &first, None).0,
        200,
        "touch the first game"
    );
    new_game(&server, &["base"], &["human", "random"]);
    assert_eq!(lock(&server.games).len(), MAX_GAMES);
    assert_eq!(call(&server, "GET", &first, None).0, 200);
    assert_eq!(
        call(&server, "GET", &second, None).0,
        404,
        "the one untouched longest made room"
    );
}
