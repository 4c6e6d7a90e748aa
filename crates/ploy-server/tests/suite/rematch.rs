//! Rematches on a real `ployd`: `POST /api/games/{id}/rematch` and `GAME rematch BOARD USER
//! PASSWORD` start a new game after a finished one, with the same options (bot level and
//! timers included), every player one seat on, the other people invited again.

use std::net::SocketAddr;

use serde_json::{Value, json};

use crate::common::{Cmd, Server, get, join, post, signup, temp_dir};

fn rematch(addr: SocketAddr, id: i64, user: &str, password: &str) -> crate::common::Response {
    post(
        addr,
        &format!("/api/games/{id}/rematch"),
        &json!({"userid": user, "password": password}),
    )
}

fn resign(addr: SocketAddr, id: i64, user: &str, password: &str) -> Value {
    let r = post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": user, "password": password}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

fn game_count(addr: SocketAddr) -> usize {
    get(addr, "/api/games").json()["games"]
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn a_rematch_keeps_the_options_and_moves_everyone_one_seat_on() {
    let dir = temp_dir("rematch");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");
    signup(addr, "carol", "carol-pw3");

    // Two people: bob asks for the rematch, alice is invited again, the colours swap.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pente", "options": ["-size=9", "-deadline=2d"],
                "players": ["alice", "bob"], "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let first = r.json()["id"].as_i64().unwrap();

    // Not before it is over.
    let before = game_count(addr);
    let r = rematch(addr, first, "alice", "alice-pw1");
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["error"], "not_over");
    join(addr, first, "bob", "bob-pw222");
    resign(addr, first, "alice", "alice-pw1");
    // Only its players may ask, with their password.
    assert_eq!(rematch(addr, first, "carol", "carol-pw3").status, 403);
    assert_eq!(rematch(addr, first, "bob", "wrong-pw99").status, 403);
    assert_eq!(rematch(addr, 99_999, "bob", "bob-pw222").status, 404);
    assert_eq!(game_count(addr), before, "refused rematches store nothing");

    let r = rematch(addr, first, "bob", "bob-pw222");
    assert_eq!(r.status, 201, "{}", r.text());
    let s = r.json();
    assert_ne!(s["id"], first);
    assert_eq!(s["game"], "pente");
    assert_eq!(s["options"], json!(["-size=9", "-deadline=2d"]));
    assert_eq!(s["players"], json!(["bob", "alice"]));
    assert_eq!(s["status"], "invited");
    assert_eq!(s["waiting_for"], json!(["alice"]));
    assert_eq!(s["challenger"], "bob");

    // Four seats with bots: the level is kept, and the seats rotate by one.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "options": ["-variant=ffa", "-level=2"],
                "players": ["alice", "bot", "bot", "bot"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let ffa = r.json()["id"].as_i64().unwrap();
    assert_eq!(
        resign(addr, ffa, "alice", "alice-pw1")["reason"],
        "abandoned"
    );
    let r = rematch(addr, ffa, "alice", "alice-pw1");
    assert_eq!(r.status, 201, "{}", r.text());
    let s = r.json();
    assert_eq!(s["players"], json!(["bot", "alice", "bot", "bot"]));
    assert_eq!(s["options"], json!(["-variant=ffa", "-level=2"]));
    assert_eq!(s["bot_level"], 2);
    assert_eq!(s["status"], "active");
    drop(server);

    // The command language.
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    let reply = cmd.send(&format!("pente rematch {first} alice alice-pw1"));
    assert!(reply[0].starts_with("ok board "), "{reply:?}");
    assert!(
        reply
            .iter()
            .any(|l| l == "Players: bob (White), alice (Black)"),
        "{reply:?}"
    );
    assert!(
        cmd.first(&format!("ploy rematch {first} alice alice-pw1"))
            .starts_with("error 404")
    );
}
