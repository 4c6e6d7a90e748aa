//! Invitations, against a real `ployd serve` on a loopback port with a real database file:
//! a challenge that seats other people waits for each to join; they join or decline, the
//! challenger cancels, an invitation lapses after 7 days by the server's clock; moves wait
//! for the start, deadlines count from it; the limits; the events, lists and inbox; and an
//! old database (before invitations) opens and its games go on.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::common::{Cmd, FAST, Server, get, join, login, ployd, post, request, signup, temp_dir};
use serde_json::{Value, json};

const ALICE: (&str, &str) = ("alice", "alice-pw1");
const BOB: (&str, &str) = ("bob", "hunter22");
const CAROL: (&str, &str) = ("carol", "carol-pw3");

fn people(addr: SocketAddr) {
    for (u, p) in [ALICE, BOB, CAROL] {
        signup(addr, u, p);
    }
}

fn challenge(addr: SocketAddr, game: &str, options: Value, players: Value) -> Value {
    let r = post(
        addr,
        "/api/games",
        &json!({"game": game, "options": options, "players": players,
                "userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

fn action(addr: SocketAddr, id: i64, what: &str, who: (&str, &str)) -> crate::common::Response {
    post(
        addr,
        &format!("/api/games/{id}/{what}"),
        &json!({"userid": who.0, "password": who.1}),
    )
}

fn play(
    addr: SocketAddr,
    id: i64,
    who: (&str, &str),
    mv: &str,
    ply: usize,
) -> crate::common::Response {
    post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": who.0, "password": who.1, "move": mv, "ply": ply}),
    )
}

fn state(addr: SocketAddr, id: i64) -> Value {
    let r = get(addr, &format!("/api/games/{id}"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// The kinds of game `id`'s events from the first, read from its event stream until `n`
/// are in (a read timeout guards against a stream that says nothing).
fn event_kinds(addr: SocketAddr, id: i64, n: usize) -> Vec<String> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(
            format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 0\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut kinds = Vec::new();
    let mut line = String::new();
    while kinds.len() < n {
        line.clear();
        reader.read_line(&mut line).expect("an event in time");
        if let Some(kind) = line.trim_end().strip_prefix("event: ")
            && kind != "ready"
        {
            kinds.push(kind.to_owned());
        }
    }
    kinds
}

#[test]
fn invited_people_join_before_anyone_moves_and_the_bot_waits() {
    let dir = temp_dir("inv-join");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    people(addr);

    // A free-for-all game: the bot first, then alice, bob and carol.
    let s = challenge(
        addr,
        "ploy",
        json!(["-variant=ffa"]),
        json!(["bot", "alice", "bob", "carol"]),
    );
    let id = s["id"].as_i64().unwrap();
    assert_eq!(s["status"], "invited");
    assert_eq!(s["waiting_for"], json!(["bob", "carol"]));
    assert_eq!(s["challenger"], "alice");
    assert_eq!(s["to_move"], Value::Null);
    assert_eq!(s["legal"], json!([]));

    // Nobody moves before the start: 409 not_started, nothing changes.
    let before = state(addr, id);
    let r = play(addr, id, ALICE, "e3-e4", 0);
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["error"], "not_started");
    for what in ["resign", "propose"] {
        let r = action(addr, id, what, BOB);
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (409, json!("not_started"))
        );
    }
    assert_eq!(state(addr, id), before);

    // Someone without a seat cannot join; bob joins with his session cookie.
    signup(addr, "dave", "dave-pw44");
    let r = action(addr, id, "join", ("dave", "dave-pw44"));
    assert_eq!(r.status, 403, "{}", r.text());
    let cookie = login(addr, BOB.0, BOB.1);
    let r = request(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({})),
        Some(&cookie),
    )
    .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["status"], "invited");
    assert_eq!(s["waiting_for"], json!(["carol"]));
    // Joining again changes nothing.
    let again = join(addr, id, BOB.0, BOB.1);
    assert_eq!(again["waiting_for"], json!(["carol"]));

    // The bot has not moved while it waited.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(state(addr, id)["moves_played"], 0);

    // Carol joins: the game starts and the bot, first to move, plays.
    let s = join(addr, id, CAROL.0, CAROL.1);
    assert_eq!(s["status"], "active");
    assert_eq!(s["waiting_for"], json!([]));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(addr, id);
        if s["moves_played"].as_u64().unwrap() >= 1 {
            assert_eq!(s["move_seats"][0], 0);
            break;
        }
        assert!(Instant::now() < deadline, "the bot does not move: {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        event_kinds(addr, id, 5),
        ["new", "joined", "joined", "started", "move"]
    );

    // A game against the bot alone starts at once.
    let s = challenge(addr, "pente", json!([]), json!(["alice", "bot"]));
    assert_eq!(s["status"], "active");
    assert_eq!(s["waiting_for"], json!([]));
    assert_eq!(s["to_move"], "alice");
}

#[test]
fn declined_and_cancelled_invitations_end_the_game_with_no_winner() {
    let dir = temp_dir("inv-decline");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    people(addr);

    // Bob declines.
    let id = challenge(addr, "pente", json!([]), json!(["alice", "bob"]))["id"]
        .as_i64()
        .unwrap();
    let r = action(addr, id, "decline", BOB);
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["status"], "over");
    assert_eq!(s["winners"], json!([]));
    assert_eq!(s["reason"], "declined");
    assert_eq!(s["result"], "declined by bob");
    assert_eq!(s["waiting_for"], json!([]));
    // Over: no join, no move, no second decline.
    for (what, who) in [("join", BOB), ("decline", BOB), ("join", ALICE)] {
        let r = action(addr, id, what, who);
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (409, json!("game_over"))
        );
    }
    let r = play(addr, id, ALICE, "K10", 0);
    assert_eq!(r.status, 409);
    assert_eq!(state(addr, id), s);
    let listed = get(addr, "/api/games?user=bob").json()["games"][0].clone();
    assert_eq!(
        (listed["status"].clone(), listed["waiting_for"].clone()),
        (json!("over"), json!([]))
    );
    assert_eq!(event_kinds(addr, id, 2), ["new", "declined"]);

    // The challenger cancels, after one of two invited people joined.
    let id = challenge(addr, "pyloff", json!([]), json!(["alice", "bob", "carol"]))["id"]
        .as_i64()
        .unwrap();
    join(addr, id, BOB.0, BOB.1);
    let r = action(addr, id, "decline", ALICE);
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(
        (
            s["status"].clone(),
            s["reason"].clone(),
            s["result"].clone()
        ),
        (
            json!("over"),
            json!("cancelled"),
            json!("cancelled by alice")
        )
    );
    assert_eq!(event_kinds(addr, id, 3), ["new", "joined", "declined"]);

    // Once started, declining is refused (resign instead) and changes nothing.
    let id = challenge(addr, "pente", json!([]), json!(["alice", "bob"]))["id"]
        .as_i64()
        .unwrap();
    join(addr, id, BOB.0, BOB.1);
    let before = state(addr, id);
    let r = action(addr, id, "decline", BOB);
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("started"))
    );
    assert_eq!(state(addr, id), before);

    // `ployd check` replays declined and cancelled games without a problem.
    drop(server);
    let out = ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&dir.join("db")))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("3 games replayed, 0 problems"), "{text}");
}

#[test]
fn invitations_lapse_after_seven_days_and_deadlines_count_from_the_start() {
    let dir = temp_dir("inv-lapse");
    let db = dir.join("db");
    let t0: i64 = 1_800_000_000;
    let day = 86_400;
    let at = |t: i64| t.to_string();
    let mut server = Server::start(&db, &["--now", &at(t0), "--timer-interval", "1"]);
    let addr = server.addr;
    people(addr);
    // Board 101 will lapse; board 102 starts two hours later, with a one-hour deadline.
    let lapsing = challenge(addr, "pyloff", json!([]), json!(["alice", "bob", "carol"]));
    let lapsing = lapsing["id"].as_i64().unwrap();
    join(addr, lapsing, CAROL.0, CAROL.1);
    let timed = challenge(
        addr,
        "pente",
        json!(["-deadline=1h"]),
        json!(["alice", "bob"]),
    );
    let timed = timed["id"].as_i64().unwrap();
    assert_eq!(state(addr, timed)["deadline_at"], Value::Null);
    drop(server);

    // Two hours later bob joins board 102: the hour runs from then.
    server = Server::start(&db, &["--now", &at(t0 + 7200), "--timer-interval", "1"]);
    let addr = server.addr;
    let s = join(addr, timed, BOB.0, BOB.1);
    assert_eq!(s["status"], "active");
    assert_eq!(s["deadline_at"], t0 + 7200 + 3600);
    drop(server);
    server = Server::start(
        &db,
        &["--now", &at(t0 + 7200 + 1800), "--timer-interval", "1"],
    );
    let addr = server.addr;
    let first = state(addr, timed)["legal"][0].as_str().unwrap().to_owned();
    let r = play(addr, timed, ALICE, &first, 0);
    assert_eq!(r.status, 200, "{}", r.text());
    drop(server);

    // A second before seven days, after sweeps, board 101 still waits.
    let start = |t: i64| Server::start(&db, &["--now", &at(t), "--timer-interval", "1"]);
    server = start(t0 + 7 * day - 1);
    let addr = server.addr;
    std::thread::sleep(Duration::from_millis(1500));
    let s = state(addr, lapsing);
    assert_eq!(s["status"], "invited");
    assert_eq!(s["waiting_for"], json!(["bob"]));
    drop(server);

    // At seven days the sweep ends it: over, no winner, and bob can no longer join.
    server = start(t0 + 7 * day);
    let addr = server.addr;
    let deadline = Instant::now() + Duration::from_secs(20);
    let s = loop {
        let s = state(addr, lapsing);
        if s["status"] == "over" {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the invitation does not lapse: {s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(s["reason"], "lapsed");
    assert_eq!(s["winners"], json!([]));
    assert_eq!(s["result"], "lapsed (not joined by bob)");
    let r = action(addr, lapsing, "join", BOB);
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (409, json!("game_over"))
    );
    assert_eq!(event_kinds(addr, lapsing, 3), ["new", "joined", "lapsed"]);
    drop(server);

    // The cron path (`ployd timers --now`) lapses invitations too.
    let mut cmd = Cmd::start(&db, &["--now", &at(t0 + 7 * day)]);
    assert!(
        cmd.first("pente challenge alice alice-pw1 bob")
            .starts_with("ok board 103")
    );
    drop(cmd);
    let out = ployd()
        .args(["timers", "--db"])
        .arg(crate::common::db_arg(&db))
        .args(["--now", &at(t0 + 14 * day)])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut cmd = Cmd::start(&db, &[]);
    let shown = cmd.send("pente show 103");
    assert!(
        shown
            .iter()
            .any(|l| l == "Game over: lapsed (not joined by bob)"),
        "{shown:?}"
    );
    drop(cmd);
    // `ployd check` replays lapsed games, and games whose clock started late.
    let out = ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&db))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("3 games replayed, 0 problems"), "{text}");
}

#[test]
fn short_deadlines_and_too_many_invitations_are_refused_and_store_nothing() {
    let dir = temp_dir("inv-limits");
    let server = Server::start(&dir.join("db"), &["--max-invitations", "2"]);
    let addr = server.addr;
    people(addr);
    let count = || {
        get(addr, "/api/games").json()["games"]
            .as_array()
            .unwrap()
            .len()
    };

    // Under an hour with another person seated: 400; against the bot it is fine.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pente", "options": ["-deadline=59m"], "players": ["alice", "bob"],
                "userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.json()["message"].as_str().unwrap().contains("1h"));
    assert_eq!(count(), 0);
    let s = challenge(
        addr,
        "pente",
        json!(["-deadline=1h"]),
        json!(["alice", "bob"]),
    );
    assert_eq!(s["status"], "invited");
    let s = challenge(
        addr,
        "pente",
        json!(["-deadline=1s"]),
        json!(["alice", "bot"]),
    );
    assert_eq!(s["status"], "active");
    assert_eq!(count(), 2);

    // Two open invitations are the most: the third is refused (429), nothing stored.
    let second = challenge(addr, "pente", json!([]), json!(["alice", "carol"]));
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pente", "players": ["alice", "bob"],
                "userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json()["error"], "too_many_invitations");
    assert_eq!(count(), 3);
    // Games against the bot do not count, and others' invitations are their own.
    challenge(addr, "pente", json!([]), json!(["alice", "bot"]));
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pente", "players": ["bob", "alice"],
                "userid": BOB.0, "password": BOB.1}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    // Once carol joins, alice has one open invitation and may send another.
    join(addr, second["id"].as_i64().unwrap(), CAROL.0, CAROL.1);
    challenge(addr, "pente", json!([]), json!(["alice", "bob"]));
    assert_eq!(count(), 6);

    // Eight challenges racing: two pass, six are refused.
    let racing: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(move || {
                post(
                    addr,
                    "/api/games",
                    &json!({"game": "pente", "players": ["carol", "bob"],
                            "userid": CAROL.0, "password": CAROL.1}),
                )
                .status
            })
        })
        .collect();
    let mut statuses: Vec<u16> = racing.into_iter().map(|t| t.join().unwrap()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 201, 429, 429, 429, 429, 429, 429]);
    assert_eq!(count(), 8);
}

#[test]
fn lists_the_inbox_and_the_command_language_show_invitations() {
    let dir = temp_dir("inv-lists");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    people(addr);
    let id = challenge(addr, "pente", json!([]), json!(["alice", "bob"]))["id"]
        .as_i64()
        .unwrap();

    // `ployd inbox` names the invitation first.
    let out = ployd()
        .args(["inbox", "bob", "--db"])
        .arg(crate::common::db_arg(&server.db))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!(
            "invitation: board {id} pente alice bob: waiting for bob\n"
        )),
        "{text}"
    );

    // The list of games waiting for bob (`next`) holds the invitation; alice's does not.
    let next = |user: &str| {
        get(addr, &format!("/api/games?user={user}&filter=next")).json()["games"].clone()
    };
    let bobs = next("bob");
    assert_eq!(bobs.as_array().unwrap().len(), 1);
    assert_eq!(bobs[0]["id"], id);
    assert_eq!(bobs[0]["status"], "invited");
    assert_eq!(bobs[0]["waiting_for"], json!(["bob"]));
    assert_eq!(next("alice"), json!([]));

    // Bob's inbox: the invitation, and a note naming the board and how to join.
    let r = post(
        addr,
        "/api/inbox",
        &json!({"userid": BOB.0, "password": BOB.1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let inbox = r.json();
    assert_eq!(inbox["invitations"][0]["id"], id);
    let note = &inbox["notes"][0];
    assert_eq!(note["game"], id);
    assert!(
        note["subject"].as_str().unwrap().contains(&format!(
            "alice challenges you to pente (Black) on board {id}"
        )),
        "{note}"
    );
    assert!(
        note["body"]
            .as_str()
            .unwrap()
            .contains(&format!("pente join {id} bob PASSWORD")),
        "{note}"
    );

    // The command language: `games USER next`, `inbox`, `join` and `decline`.
    let cmd = |line: &str| {
        let req = format!(
            "POST /api/command HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{line}",
            line.len()
        );
        crate::common::raw(addr, req.as_bytes()).unwrap().text()
    };
    let games = cmd("pente games bob next");
    assert!(games.starts_with("ok 1 game\n"), "{games}");
    assert!(
        games.contains(&format!(
            "{id} pente alice bob: invited, waiting for bob (0 moves)"
        )),
        "{games}"
    );
    let inbox = cmd("inbox bob hunter22");
    assert!(
        inbox.starts_with("ok 1 notification, 1 invitation\n"),
        "{inbox}"
    );
    assert!(
        inbox.contains(&format!(
            "invitation: board {id} pente alice bob: waiting for bob"
        )),
        "{inbox}"
    );
    let show = cmd(&format!("pente show {id}"));
    assert!(show.contains("\nWaiting for bob to join\n"), "{show}");
    assert!(cmd(&format!("pente move {id} alice alice-pw1 J10")).starts_with("error 409: board"));
    assert!(cmd(&format!("pente join {id} bob wrong-pw")).starts_with("error 403:"));
    let joined = cmd(&format!("pente join {id} bob hunter22"));
    assert!(
        joined.starts_with(&format!("ok board {id}: started\n")),
        "{joined}"
    );
    assert!(joined.contains("\nalice (White) to move\n"), "{joined}");
    assert_eq!(cmd("pente games bob next"), "ok 0 games\n.\n");
    assert!(cmd(&format!("pente decline {id} bob hunter22")).starts_with("error 409:"));

    let second = challenge(addr, "pente", json!([]), json!(["alice", "carol"]))["id"]
        .as_i64()
        .unwrap();
    let declined = cmd(&format!("pente decline {second} carol carol-pw3"));
    assert!(
        declined.starts_with(&format!("ok board {second}: declined by carol\n")),
        "{declined}"
    );
    assert!(cmd("help").contains("GAME join BOARD USER PASSWORD"));
}

#[test]
fn a_database_from_before_invitations_opens_and_its_games_go_on() {
    if !crate::common::sqlite_only("a_database_from_before_invitations_opens") {
        return;
    }
    let dir = temp_dir("inv-migrate");
    let db = dir.join("db");
    // Accounts made by this server, then the file is rebuilt with the first schema only
    // and a game as the server before invitations stored it.
    {
        let server = Server::start(&dir.join("accounts"), &[]);
        people(server.addr);
    }
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(ploy_server::store::MIGRATIONS[0])
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "ATTACH DATABASE ?1 AS old",
            [dir.join("accounts").to_str().unwrap()],
        )
        .unwrap();
        conn.execute_batch(
            "INSERT INTO users SELECT userid, password_hash, created_at FROM old.users;
             INSERT INTO games(game, options, rules_version, deadline, reminder, created_at,
                 ply, status, to_move_seat, winners, result, turn_since)
             VALUES ('ploy', '[]', 1, NULL, NULL, 1000, 0, 'active', 0, '[]', '', 1000);
             INSERT INTO seats VALUES (101, 0, 'alice'), (101, 1, 'bob');
             INSERT INTO events(game_id, ply, kind, at) VALUES (101, 0, 'new', 1000);",
        )
        .unwrap();
    }
    let server = Server::start(&db, &[]);
    let addr = server.addr;
    let s = state(addr, 101);
    assert_eq!(s["status"], "active");
    assert_eq!(s["waiting_for"], json!([]));
    assert_eq!(s["challenger"], Value::Null);
    assert_eq!(s["to_move"], "alice");
    let r = play(addr, 101, ALICE, "e3-e4", 0);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = play(addr, 101, BOB, "e7-e6", 1);
    assert_eq!(r.status, 200, "{}", r.text());
    // New games on the same file are invitations.
    let s = challenge(addr, "ploy", json!([]), json!(["alice", "carol"]));
    assert_eq!(s["status"], "invited");
    drop(server);
    let out = ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&db))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 games replayed, 0 problems"), "{text}");
}
