//! Leaving a Ploy free-for-all on a real `ployd` (a named change: it answered `422 play
//! on`): a player who resigns a three- or four-player game that would go on withdraws, his
//! pieces leave the board and the others play on; when only bots are left the game ends at
//! once, `abandoned`, with no winner. The withdrawal is a log entry of its own, replayed by
//! `ployd check` and written in the record as the score sheet writes a resignation.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ploy_core::{Seat, WinReason};
use serde_json::{Value, json};

use crate::common::{Cmd, FAST, Server, get, join, ployd, post, signup, temp_dir};

fn state(addr: SocketAddr, id: i64) -> Value {
    get(addr, &format!("/api/games/{id}")).json()
}

fn resign(addr: SocketAddr, id: i64, user: &str, password: &str) -> crate::common::Response {
    post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": user, "password": password}),
    )
}

fn wait_for(addr: SocketAddr, id: i64, user: &str) -> Value {
    let limit = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(addr, id);
        if s["status"] == "over" || s["to_move"] == user {
            return s;
        }
        assert!(Instant::now() < limit, "the bots do not answer: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pieces_of(s: &Value, colour: &str) -> usize {
    s["position"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["colour"] == colour)
        .count()
}

#[test]
fn a_free_for_all_left_to_three_bots_is_abandoned() {
    let dir = temp_dir("leaving-bots");
    let db = dir.join("db");
    let server = Server::start(&db, &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "options": ["-variant=ffa"],
                "players": ["alice", "bot", "bot", "bot"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let before = state(addr, id);
    assert_eq!(before["to_move"], "alice");

    let r = resign(addr, id, "alice", "alice-pw1");
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["status"], "over");
    assert_eq!(s["reason"], "abandoned");
    assert_eq!(s["winners"], json!([]));
    assert_eq!(s["moves_played"], 1, "the withdrawal is one log entry");
    assert_eq!(pieces_of(&s, "green"), 0, "her pieces left the board");
    assert!(
        !s["position"]["in_play"]
            .as_array()
            .unwrap()
            .contains(&json!("green"))
    );
    // Nothing more happens: the bots do not play on alone.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(state(addr, id)["moves_played"], 1);

    // The record writes the withdrawal as a resignation, and its reader replays it.
    let text = get(addr, &format!("/api/games/{id}/record")).text();
    let saved = ploy_sheet::read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let w: Vec<_> = saved.game.withdrawals().collect();
    assert_eq!(w.len(), 1, "{text}");
    assert_eq!(
        (w[0].seat, w[0].reason),
        (Seat::Green, WinReason::Resignation)
    );
    drop(server);

    // `ployd check` replays the withdrawal with the moves.
    let out = ployd()
        .args(["check", "--db"])
        .arg(crate::common::db_arg(&db))
        .args(FAST)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn people_who_leave_a_free_for_all_withdraw_and_the_others_play_on() {
    let dir = temp_dir("leaving-people");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "options": ["-variant=ffa"],
                "players": ["alice", "bob", "bot", "bot"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    join(addr, id, "bob", "bob-pw222");

    // Alice (Green, to move) withdraws: bob (Red) plays on, with the bots.
    let r = resign(addr, id, "alice", "alice-pw1");
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["status"], "active", "{s}");
    assert_eq!(s["reason"], Value::Null);
    assert_eq!(s["to_move"], "bob");
    assert_eq!(pieces_of(&s, "green"), 0);
    assert_eq!(s["position"]["in_play"], json!(["red", "yellow", "blue"]));
    // Once out, she cannot resign again or move.
    let r = resign(addr, id, "alice", "alice-pw1");
    assert!(r.status >= 400, "{}", r.text());
    assert_eq!(state(addr, id)["moves_played"], 1);

    // Bob moves, the bots answer, and his leaving leaves the bots alone: abandoned.
    let mv = s["legal"][0].as_str().unwrap().to_owned();
    let r = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "bob", "password": "bob-pw222", "move": mv, "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let s = wait_for(addr, id, "bob");
    assert_eq!(s["status"], "active", "{s}");
    let r = resign(addr, id, "bob", "bob-pw222");
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(
        (s["status"].as_str(), s["reason"].as_str()),
        (Some("over"), Some("abandoned"))
    );
    assert_eq!(s["winners"], json!([]));
    assert_eq!(s["result"], "abandoned: only bots were left; nobody wins");
    drop(server);

    // The command language shows the withdrawals in the history.
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    let h = cmd.send(&format!("ploy history {id}"));
    assert_eq!(
        h[1], "1. alice (Green) resignation (withdrew: his pieces left the board)",
        "{h:?}"
    );
    assert!(
        h.iter()
            .any(|l| l.ends_with("bob (Red) resignation (withdrew: his pieces left the board)")),
        "{h:?}"
    );
}
