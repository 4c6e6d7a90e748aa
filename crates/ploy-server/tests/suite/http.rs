//! The HTTP API of a real `ployd serve` on a loopback port with a real database file.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use crate::common::{Rng, Server, get, join, login, pick, post, request, signup, temp_dir, text};
use ploy_core::{Game, Rules, Variant};
use serde_json::{Value, json};

fn replay(variant: Variant, moves: &[Value]) -> Game {
    let mut g = Game::start(variant, Rules::standard());
    for m in moves {
        let mv = ploy_notation::read_university(g.position(), m.as_str().unwrap()).unwrap();
        g.play(mv).unwrap();
    }
    g
}

fn legal_texts(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().iter().map(|&m| text(m)).collect();
    v.sort();
    v
}

fn moves_of(state: &Value) -> Vec<Value> {
    state["moves"].as_array().unwrap().clone()
}

#[test]
fn a_whole_game_between_two_people_survives_a_restart() {
    let dir = temp_dir("http-whole");
    let mut server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "s3cret-pw");
    signup(addr, "bob", "hunter22");
    let dup = post(
        addr,
        "/api/users",
        &json!({"userid": "Alice", "password": "long-enough"}),
    );
    assert_eq!(dup.status, 409);
    assert_eq!(dup.json()["error"], "taken");
    let cookie = login(addr, "alice", "s3cret-pw");

    let created = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "options": [], "players": ["alice", "bob"],
                "userid": "alice", "password": "s3cret-pw"}),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let state = created.json();
    let id = state["id"].as_i64().unwrap();
    assert!(id >= 101);
    for key in [
        "id",
        "game",
        "options",
        "players",
        "moves",
        "status",
        "to_move",
        "to_move_seat",
        "legal",
        "winners",
        "result",
    ] {
        assert!(state.get(key).is_some(), "missing {key}");
    }
    // Bob is invited: nobody moves until he joins.
    assert_eq!(state["status"], "invited");
    assert_eq!(state["waiting_for"], json!(["bob"]));
    assert_eq!(state["to_move"], Value::Null);
    let state = join(addr, id, "bob", "hunter22");
    assert_eq!(state["status"], "active");
    assert_eq!(state["waiting_for"], json!([]));
    assert_eq!(state["to_move"], "alice");
    assert_eq!(state["to_move_seat"], 0);

    let mut rng = Rng(7);
    let mut state = state;
    let mut plies = 0;
    while state["status"] == "active" {
        let moves = moves_of(&state);
        let g = replay(Variant::TwoPlayer, &moves);
        let legal: Vec<String> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            legal,
            legal_texts(&g),
            "legal moves after {} moves",
            moves.len()
        );
        let mv = text(pick(&g, &mut rng));
        let r = if state["to_move"] == "alice" {
            request(
                addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&json!({"move": mv, "ply": moves.len()})),
                Some(&cookie),
            )
            .unwrap()
        } else {
            post(
                addr,
                &format!("/api/games/{id}/moves"),
                &json!({"userid": "bob", "password": "hunter22", "move": mv, "ply": moves.len()}),
            )
        };
        assert_eq!(r.status, 200, "{}", r.text());
        state = r.json();
        assert_eq!(moves_of(&state).len(), moves.len() + 1);
        assert_eq!(moves_of(&state).last().unwrap(), &json!(mv));
        plies += 1;
        assert!(plies < 1000, "the game does not end");
    }
    let g = replay(Variant::TwoPlayer, &moves_of(&state));
    let outcome = g.outcome().expect("the rules ended the game");
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["legal"], json!([]));
    let winners: Vec<&str> = outcome
        .winners()
        .iter()
        .map(|s| ["alice", "bob"][s.index()])
        .collect();
    assert_eq!(state["winners"], json!(winners));
    assert!(!state["result"].as_str().unwrap().is_empty());

    // A move after the end: 409.
    let late = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "bob", "password": "hunter22", "move": "e7-e6-0", "ply": plies}),
    );
    assert_eq!(late.status, 409);
    assert_eq!(late.json()["error"], "game_over");

    // Any earlier position.
    let at3 = get(addr, &format!("/api/games/{id}?ply=3")).json();
    assert_eq!(moves_of(&at3).len(), 3);
    assert_eq!(at3["status"], "active");

    // SIGKILL and restart: the game is intact.
    server.restart();
    let after = get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(after, state);
    let list = get(server.addr, "/api/games?user=alice&filter=all").json();
    assert_eq!(list["games"][0]["id"], id);
    assert_eq!(list["games"][0]["status"], "over");
}

fn wait_for_people(addr: std::net::SocketAddr, id: i64, human: &[&str]) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let s = get(addr, &format!("/api/games/{id}")).json();
        if s["status"] == "over" || human.iter().any(|h| s["to_move"] == *h) {
            return s;
        }
        assert!(Instant::now() < deadline, "the bot does not answer: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bots_answer_over_http_in_two_and_four_player_games() {
    let dir = temp_dir("http-bots");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "s3cret-pw");
    for (variant, options, players) in [
        (Variant::TwoPlayer, json!([]), json!(["alice", "bot"])),
        (
            Variant::FreeForAll,
            json!(["-variant=ffa"]),
            json!(["alice", "bot", "bot", "bot"]),
        ),
    ] {
        let created = post(
            addr,
            "/api/games",
            &json!({"game": "ploy", "options": options, "players": players,
                    "userid": "alice", "password": "s3cret-pw"}),
        );
        assert_eq!(created.status, 201, "{}", created.text());
        let id = created.json()["id"].as_i64().unwrap();
        let mut rng = Rng(11);
        let mut state = wait_for_people(addr, id, &["alice"]);
        while state["status"] == "active" {
            let moves = moves_of(&state);
            let g = replay(variant, &moves);
            let mv = text(pick(&g, &mut rng));
            let r = post(
                addr,
                &format!("/api/games/{id}/moves"),
                &json!({"userid": "alice", "password": "s3cret-pw", "move": mv, "ply": moves.len()}),
            );
            assert_eq!(r.status, 200, "{}", r.text());
            state = wait_for_people(addr, id, &["alice"]);
        }
        let g = replay(variant, &moves_of(&state));
        assert!(g.outcome().is_some(), "the rules ended the game");
        assert_eq!(state["players"], players);
    }
}

/// Refused requests: the status and word, nothing changed, no password echoed.
#[test]
fn refusals_come_in_order_and_change_nothing() {
    let dir = temp_dir("http-refusals");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "s3cret-alice");
    signup(addr, "bob", "s3cret-bob");
    signup(addr, "carol", "s3cret-carol");
    let created = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "s3cret-alice"}),
    );
    let id = created.json()["id"].as_i64().unwrap();
    join(addr, id, "bob", "s3cret-bob");
    let path = format!("/api/games/{id}/moves");
    let ok = post(
        addr,
        &path,
        &json!({"userid": "alice", "password": "s3cret-alice", "move": "e3-e4", "ply": 0}),
    );
    assert_eq!(ok.status, 200);
    let before = get(addr, &format!("/api/games/{id}")).json();

    let cases: Vec<(&str, String, Value, u16, &str)> = vec![
        (
            "unknown game, malformed body",
            "/api/games/999/moves".into(),
            json!("not an object"),
            404,
            "not_found",
        ),
        (
            "malformed body beats a wrong password",
            path.clone(),
            json!({"userid": "bob", "password": "wrong", "ply": 1}),
            400,
            "bad_request",
        ),
        (
            "ply of the wrong type",
            path.clone(),
            json!({"userid": "bob", "password": "wrong", "move": "e7-e6", "ply": "1"}),
            400,
            "bad_request",
        ),
        (
            "wrong password beats a stale move number",
            path.clone(),
            json!({"userid": "bob", "password": "s3cret-alice", "move": "e7-e6", "ply": 0}),
            403,
            "forbidden",
        ),
        (
            "unknown user",
            path.clone(),
            json!({"userid": "mallory", "password": "x", "move": "e7-e6", "ply": 1}),
            403,
            "forbidden",
        ),
        (
            "a user without a seat",
            path.clone(),
            json!({"userid": "carol", "password": "s3cret-carol", "move": "e7-e6", "ply": 1}),
            403,
            "forbidden",
        ),
        (
            "stale move number beats an illegal move",
            path.clone(),
            json!({"userid": "bob", "password": "s3cret-bob", "move": "a1-a1-9", "ply": 0}),
            409,
            "stale",
        ),
        (
            "out of turn",
            path.clone(),
            json!({"userid": "alice", "password": "s3cret-alice", "move": "e4-e5", "ply": 1}),
            409,
            "not_your_turn",
        ),
        (
            "an illegal move",
            path.clone(),
            json!({"userid": "bob", "password": "s3cret-bob", "move": "e4-e5-0", "ply": 1}),
            422,
            "illegal_move",
        ),
        (
            "a malformed move",
            path.clone(),
            json!({"userid": "bob", "password": "s3cret-bob", "move": "e7-e6-0-", "ply": 1}),
            422,
            "illegal_move",
        ),
    ];
    for (what, p, body, status, word) in cases {
        let r = post(addr, &p, &body);
        assert_eq!(r.status, status, "{what}: {}", r.text());
        let j = r.json();
        assert_eq!(j["error"], word, "{what}");
        assert!(j["message"].is_string(), "{what}");
        for secret in ["s3cret-alice", "s3cret-bob", "s3cret-carol"] {
            assert!(
                !r.text().contains(secret),
                "{what}: the reply shows a password"
            );
        }
        let now = get(addr, &format!("/api/games/{id}")).json();
        assert_eq!(now, before, "{what}: the game changed");
    }
    // The rules' reason comes with an illegal move.
    let r = post(
        addr,
        &path,
        &json!({"userid": "bob", "password": "s3cret-bob", "move": "e4-e5-0", "ply": 1}),
    );
    assert!(
        r.json()["message"].as_str().unwrap().contains("green"),
        "{}",
        r.text()
    );

    // Resign and draws check the same way.
    let r = post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": "carol", "password": "s3cret-carol"}),
    );
    assert_eq!(r.status, 403);
    let r = post(
        addr,
        &format!("/api/games/{id}/accept"),
        &json!({"userid": "bob", "password": "s3cret-bob"}),
    );
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("no_offer"))
    );
    assert_eq!(get(addr, &format!("/api/games/{id}")).json(), before);

    // No password in clear in the database files.
    drop(server);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        for secret in ["s3cret-alice", "s3cret-bob", "s3cret-carol"] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "a password is stored in clear"
            );
        }
    }
}

#[test]
fn resignation_draw_offers_and_sessions() {
    let dir = temp_dir("http-endings");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    signup(addr, "bob", "pb-secret");
    let ca = login(addr, "alice", "pa-secret");
    let cb = login(addr, "bob", "pb-secret");
    let who = request(addr, "GET", "/api/sessions", None, Some(&ca)).unwrap();
    assert_eq!(who.json()["userid"], "alice");
    let new_game = |addr| {
        let r = request(
            addr,
            "POST",
            "/api/games",
            Some(&json!({"game": "ploy", "players": ["alice", "bob"]})),
            Some(&ca),
        )
        .unwrap();
        assert_eq!(r.status, 201, "{}", r.text());
        let id = r.json()["id"].as_i64().unwrap();
        let r = request(
            addr,
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({})),
            Some(&cb),
        )
        .unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        id
    };
    let id = new_game(addr);
    let r = request(
        addr,
        "POST",
        &format!("/api/games/{id}/propose"),
        Some(&json!({})),
        Some(&ca),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["draw_offers"], json!(["alice"]));
    let r = request(
        addr,
        "POST",
        &format!("/api/games/{id}/reject"),
        Some(&json!({})),
        Some(&cb),
    )
    .unwrap();
    assert_eq!(r.json()["draw_offers"], json!([]));
    request(
        addr,
        "POST",
        &format!("/api/games/{id}/propose"),
        Some(&json!({})),
        Some(&cb),
    )
    .unwrap();
    let r = request(
        addr,
        "POST",
        &format!("/api/games/{id}/accept"),
        Some(&json!({})),
        Some(&ca),
    )
    .unwrap();
    let s = r.json();
    assert_eq!(
        (s["status"].clone(), s["reason"].clone()),
        (json!("over"), json!("agreement"))
    );
    assert_eq!(s["winners"], json!([]));

    let id = new_game(addr);
    let r = request(
        addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&json!({})),
        Some(&cb),
    )
    .unwrap();
    let s = r.json();
    assert_eq!(s["winners"], json!(["alice"]));
    assert_eq!(s["reason"], "resignation");

    // After signing out, the cookie no longer works.
    let r = request(addr, "DELETE", "/api/sessions", None, Some(&ca)).unwrap();
    assert_eq!(r.status, 204);
    let r = request(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "ploy", "players": ["alice", "bob"]})),
        Some(&ca),
    )
    .unwrap();
    assert_eq!(r.status, 403);
}

#[test]
fn sixteen_clients_racing_for_one_move_number_give_one_success() {
    let dir = temp_dir("http-race");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    signup(addr, "bob", "pb-secret");
    let id = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"], "userid": "alice", "password": "pa-secret"}),
    )
    .json()["id"]
        .as_i64()
        .unwrap();
    join(addr, id, "bob", "pb-secret");
    let legal: Vec<String> = get(addr, &format!("/api/games/{id}")).json()["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    let barrier = Arc::new(Barrier::new(16));
    let handles: Vec<_> = (0..16)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let mv = legal[i % legal.len()].clone();
            std::thread::spawn(move || {
                barrier.wait();
                post(
                    addr,
                    &format!("/api/games/{id}/moves"),
                    &json!({"userid": "alice", "password": "pa-secret", "move": mv, "ply": 0}),
                )
                .status
            })
        })
        .collect();
    let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 409).count(),
        15,
        "{statuses:?}"
    );
    let state = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(moves_of(&state).len(), 1);
    drop(server);
    let rows = crate::common::sql_i64(
        &dir.join("db"),
        &format!("SELECT COUNT(*) FROM moves WHERE game_id = {id}"),
    );
    assert_eq!(rows, 1);
}

#[test]
fn malformed_and_oversized_requests_get_4xx() {
    let dir = temp_dir("http-malformed");
    let mut server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    signup(addr, "bob", "pb-secret");
    let id = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"], "userid": "alice", "password": "pa-secret"}),
    )
    .json()["id"]
        .as_i64()
        .unwrap();
    join(addr, id, "bob", "pb-secret");
    let big = "x".repeat(200_000);
    let json_req = |path: &str, body: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let moves = format!("/api/games/{id}/moves");
    let mut requests: Vec<(String, Vec<u8>)> = vec![
        ("garbage".into(), b"\x00\x01\x02 hello\r\n\r\n".to_vec()),
        ("no request line".into(), b"\r\n\r\n".to_vec()),
        ("bad JSON".into(), json_req(&moves, "{\"userid\": ")),
        ("JSON array".into(), json_req(&moves, "[1,2,3]")),
        ("empty body".into(), json_req(&moves, "")),
        ("negative ply".into(), json_req(&moves, r#"{"userid":"bob","password":"pb-secret","move":"e7-e6","ply":-1}"#)),
        ("huge ply".into(), json_req(&moves, r#"{"userid":"bob","password":"pb-secret","move":"e7-e6","ply":1e300}"#)),
        ("wrong types".into(), json_req("/api/games", r#"{"game": 5, "players": "alice"}"#)),
        ("options not strings".into(), json_req("/api/games", r#"{"game": "ploy", "players": ["alice","bob"], "options": [1], "userid":"alice","password":"pa-secret"}"#)),
        ("unknown option".into(), json_req("/api/games", r#"{"game": "ploy", "players": ["alice","bob"], "options": ["-colour=red"], "userid":"alice","password":"pa-secret"}"#)),
        ("unknown game type".into(), json_req("/api/games", r#"{"game": "chess", "players": ["alice","bob"], "userid":"alice","password":"pa-secret"}"#)),
        ("deep JSON".into(), json_req(&moves, &"[".repeat(50_000))),
        ("oversized body".into(), json_req(&moves, &big)),
        ("huge move text".into(), json_req(&moves, &format!(r#"{{"userid":"bob","password":"pb-secret","move":"{}","ply":1}}"#, "e".repeat(60_000)))),
        ("huge userid".into(), json_req("/api/users", &format!(r#"{{"userid":"{}","password":"pb-secret"}}"#, "a".repeat(60_000)))),
        ("bad board id".into(), json_req("/api/games/abc/moves", "{}")),
        ("board id overflow".into(), json_req("/api/games/99999999999999999999999/moves", "{}")),
        ("unknown route".into(), b"GET /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec()),
        ("wrong method".into(), b"DELETE /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec()),
        ("bad ply query".into(), format!("GET /api/games/{id}?ply=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()),
        ("ply beyond the game".into(), format!("GET /api/games/{id}?ply=5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()),
        ("command not UTF-8".into(), b"POST /api/command HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n\xff\xfe".to_vec()),
        ("huge header".into(), format!("GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "y".repeat(1_000_000)).into_bytes()),
    ];
    requests.push((
        "lying content length".into(),
        format!("POST {moves} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 10\r\n\r\n{{}}").into_bytes(),
    ));
    for (what, req) in requests {
        match crate::common::raw_with_timeout(addr, &req, Duration::from_secs(3)) {
            Ok(r) => {
                assert!(
                    (400..500).contains(&r.status),
                    "{what}: {} {}",
                    r.status,
                    r.text()
                );
                if !r.body.is_empty() {
                    let j = r.json();
                    assert!(
                        j["error"].is_string() && j["message"].is_string(),
                        "{what}: {j}"
                    );
                }
            }
            // The server may close a connection that sends nothing sensible; it must live on.
            Err(e) => eprintln!("{what}: connection closed ({e})"),
        }
        assert!(server.alive(), "{what}: the server died");
    }
    let state = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(moves_of(&state).len(), 0);
}

#[test]
fn the_event_stream_announces_moves() {
    let dir = temp_dir("http-events");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    signup(addr, "bob", "pb-secret");
    let id = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"], "userid": "alice", "password": "pa-secret"}),
    )
    .json()["id"]
        .as_i64()
        .unwrap();
    join(addr, id, "bob", "pb-secret");
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    // Wait for the stream's first event before moving.
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line.starts_with("event: ready") {
            break;
        }
    }
    let r = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "alice", "password": "pa-secret", "move": "e3-e4", "ply": 0}),
    );
    assert_eq!(r.status, 200);
    let started = Instant::now();
    loop {
        line.clear();
        reader
            .read_line(&mut line)
            .expect("an event within the timeout");
        if line.starts_with("data:") && line.contains("\"kind\":\"move\"") {
            assert!(line.contains(&format!("\"id\":{id}")));
            assert!(line.contains("\"ply\":1"));
            break;
        }
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_command_route_speaks_the_command_language() {
    let dir = temp_dir("http-command");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let body = "signup dave pd-secret\nsignup erin pe-secret\nploy challenge dave pd-secret erin\nploy join 101 erin pe-secret\nploy move 101 erin pe-secret e7-e6\n";
    let req = format!(
        "POST /api/command HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let r = crate::common::raw(addr, req.as_bytes()).unwrap();
    assert_eq!(r.status, 200);
    let replies: Vec<Vec<&str>> = {
        let t = r.text();
        let t: &'static str = Box::leak(t.into_boxed_str());
        t.split("\n.\n")
            .filter(|s| !s.is_empty())
            .map(|s| s.lines().collect())
            .collect()
    };
    assert_eq!(replies.len(), 5, "{replies:?}");
    assert_eq!(replies[0][0], "ok signed up dave");
    assert_eq!(replies[2][0], "ok board 101");
    assert_eq!(replies[3][0], "ok board 101: started");
    assert_eq!(
        replies[4][0],
        "error 409: it is dave (Green)'s turn on board 101, not erin's"
    );
    // With the session cookie, `*` stands for the password.
    let cookie = login(addr, "dave", "pd-secret");
    let cmd = |line: &str, cookie: Option<&str>| {
        let mut req = format!(
            "POST /api/command HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n",
            line.len()
        );
        if let Some(c) = cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(line);
        crate::common::raw(addr, req.as_bytes()).unwrap().text()
    };
    assert!(cmd("ploy propose 101 dave *", None).starts_with("error 403:"));
    assert!(cmd("ploy propose 101 erin *", Some(&cookie)).starts_with("error 403:"));
    assert!(
        cmd("ploy propose 101 dave *", Some(&cookie))
            .starts_with("ok board 101: draw offered by dave")
    );
    // The same game through the JSON API.
    let s = get(addr, "/api/games/101").json();
    assert_eq!(s["players"], json!(["dave", "erin"]));
    // The page, and the files it loads, all from this server.
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(
        page.header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(page.text().contains("/page/app.js"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"));
    for (path, kind) in [
        ("/page/app.js", "text/javascript"),
        ("/page/ploy.js", "text/javascript"),
        ("/page/page.css", "text/css"),
    ] {
        let r = get(addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
    }
    let missing = get(addr, "/page/nothing.js");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["error"], "not_found");
}

#[test]
fn the_routes_of_the_page() {
    let dir = temp_dir("http-page-routes");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    // What a challenge would seat, without starting anything.
    let r = post(addr, "/api/types/ploy/seats", &json!({}));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"game": "ploy", "options": [], "players": {"min": 2, "max": 2},
               "seats": ["Green", "Red"]})
    );
    let r = post(
        addr,
        "/api/types/ploy/seats",
        &json!({"options": ["-deadline=1d12h", "-variant=ffa", "-no_capture_limit=30"]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"game": "ploy",
               "options": ["-variant=ffa", "-no_capture_limit=30", "-deadline=1d12h"],
               "players": {"min": 4, "max": 4},
               "seats": ["Green", "Red", "Yellow", "Blue"]})
    );
    for (body, word) in [
        (json!({"options": ["-plays_on"]}), "bad_request"),
        (json!({"options": ["-colour=red"]}), "bad_request"),
        (json!({"options": "-relaxed"}), "bad_request"),
        (
            json!({"options": ["-reminder=2d", "-deadline=1d"]}),
            "bad_request",
        ),
    ] {
        let r = post(addr, "/api/types/ploy/seats", &body);
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        assert_eq!(r.json()["error"], word);
    }
    let r = post(addr, "/api/types/chess/seats", &json!({}));
    assert_eq!(r.status, 400);
    assert!(r.json()["message"].as_str().unwrap().contains("ploy"));
    assert_eq!(get(addr, "/api/games").json()["games"], json!([]));

    // `move_seats`: the seat that played each move, at every move number.
    signup(addr, "alice", "s3cret-pw");
    signup(addr, "bob", "hunter22");
    let created = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "s3cret-pw"}),
    );
    let id = created.json()["id"].as_i64().unwrap();
    assert_eq!(created.json()["move_seats"], json!([]));
    join(addr, id, "bob", "hunter22");
    let r = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "alice", "password": "s3cret-pw", "move": "e3-e4", "ply": 0}),
    );
    assert_eq!(r.json()["move_seats"], json!([0]));
    let r = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "bob", "password": "hunter22", "move": "e7-e6", "ply": 1}),
    );
    assert_eq!(r.json()["move_seats"], json!([0, 1]));
    let s = get(addr, &format!("/api/games/{id}?ply=1")).json();
    assert_eq!(s["moves"], json!(["e3-e4-0"]));
    assert_eq!(s["move_seats"], json!([0]));
}
