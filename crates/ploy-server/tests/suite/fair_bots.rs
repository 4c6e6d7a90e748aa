//! The bot queue of a real `ployd serve`: one user's waiting games cannot starve another's,
//! and a user may have at most `--bot-games-per-user` games waiting for the bot.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::{Server, get, post, signup, temp_dir};
use serde_json::{Value, json};

/// Bot moves that take their whole time (no node or depth limit reached first).
const SLOW_BOT: &[&str] = &["--bot-nodes", "1000000000000", "--bot-threads", "1"];

/// A Ploy game where the bot moves first (it holds the first seat), by `user`.
fn bot_first(addr: SocketAddr, user: &str, password: &str) -> crate::common::Response {
    post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["bot", user],
                "userid": user, "password": password}),
    )
}

fn moves_played(addr: SocketAddr, id: i64) -> u64 {
    get(addr, &format!("/api/games/{id}")).json()["moves_played"]
        .as_u64()
        .unwrap()
}

fn game_count(addr: SocketAddr) -> usize {
    get(addr, "/api/games").json()["games"]
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn a_user_may_have_so_many_games_waiting_for_the_bot_and_no_more() {
    let dir = temp_dir("bots-limit");
    let mut args = SLOW_BOT.to_vec();
    args.extend(["--bot-time", "3s", "--bot-games-per-user", "2"]);
    let server = Server::start(&dir.join("db"), &args);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");

    // Alice is to move here: the game does not wait for the bot.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bot"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let own = r.json()["id"].as_i64().unwrap();

    // Two games waiting for the bot are the most; a third challenge is refused.
    for _ in 0..2 {
        let r = bot_first(addr, "alice", "alice-pw1");
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let r = bot_first(addr, "alice", "alice-pw1");
    assert_eq!(r.status, 429, "{}", r.text());
    let e = r.json();
    assert_eq!(e["error"], "too_many_bot_games");
    assert_eq!(game_count(addr), 3, "the refused challenge stored nothing");

    // A move that would leave the bot to move is refused too, and nothing is played.
    let before = get(addr, &format!("/api/games/{own}")).json();
    let r = post(
        addr,
        &format!("/api/games/{own}/moves"),
        &json!({"userid": "alice", "password": "alice-pw1", "move": "e3-e4", "ply": 0}),
    );
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json()["error"], "too_many_bot_games");
    assert_eq!(get(addr, &format!("/api/games/{own}")).json(), before);

    // The limit is per user: bob's game is queued.
    let r = bot_first(addr, "bob", "bob-pw222");
    assert_eq!(r.status, 201, "{}", r.text());
}

#[test]
fn one_users_waiting_games_do_not_starve_another_users() {
    let dir = temp_dir("bots-fair");
    let mut args = SLOW_BOT.to_vec();
    args.extend(["--bot-time", "1s"]);
    let server = Server::start(&dir.join("db"), &args);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");

    // Alice queues eight games (the default limit), then bob one.
    let alices: Vec<i64> = (0..8)
        .map(|_| {
            let r = bot_first(addr, "alice", "alice-pw1");
            assert_eq!(r.status, 201, "{}", r.text());
            r.json()["id"].as_i64().unwrap()
        })
        .collect();
    let r = bot_first(addr, "bob", "bob-pw222");
    assert_eq!(r.status, 201, "{}", r.text());
    let bobs = r.json()["id"].as_i64().unwrap();

    // One worker, serving the user served least recently: bob's game comes right after
    // the one of alice's that the worker held when he arrived, not after all eight.
    let deadline = Instant::now() + Duration::from_secs(60);
    while moves_played(addr, bobs) == 0 {
        assert!(Instant::now() < deadline, "the bot never serves bob");
        std::thread::sleep(Duration::from_millis(20));
    }
    let served: Vec<&i64> = alices
        .iter()
        .filter(|&&id| moves_played(addr, id) > 0)
        .collect();
    assert!(
        served.len() <= 1,
        "bob waited for {} of alice's games: {served:?}",
        served.len()
    );
    let state: Value = get(addr, &format!("/api/games/{bobs}")).json();
    assert_eq!(state["to_move"], "bob");
}

#[test]
fn bot_threads_default_to_the_number_of_cores() {
    let out = crate::common::ployd()
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let line = help
        .lines()
        .skip_while(|l| !l.contains("--bot-threads"))
        .take_while(|l| !l.trim_start().starts_with("--bot-games-per-user"))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(line.contains(&format!("[default: {cores}]")), "{line}");
    assert!(help.contains("[default: 8]"), "{help}");
    assert!(help.contains("[default: 20]"), "{help}");
}
