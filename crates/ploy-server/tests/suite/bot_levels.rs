//! Bot levels on a real `ployd`: the game option `-level=N` (1 to 8, default 8) sets the
//! strength of every bot seat of a game; it is refused in a game without a bot seat, shown
//! as `bot_level` in the game's JSON and listed by `help`, `list` and `GET /api/types`.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Cmd, Server, get, post, signup, temp_dir};

/// Starts a Ploy game with the bot in the first seat and `alice` in the second.
fn bot_first(addr: SocketAddr, options: &[&str]) -> i64 {
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "options": options, "players": ["bot", "alice"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

/// The game once the bot has played its first move (alice is to move).
fn after_bot_move(addr: SocketAddr, id: i64) -> Value {
    let limit = Instant::now() + Duration::from_secs(60);
    loop {
        let s = get(addr, &format!("/api/games/{id}")).json();
        if s["to_move"] == "alice" {
            return s;
        }
        assert!(Instant::now() < limit, "the bot does not move: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn game_count(addr: SocketAddr) -> usize {
    get(addr, "/api/games").json()["games"]
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn a_level_one_bot_plays_its_own_moves_and_replays_them_on_the_same_board() {
    let dir = temp_dir("levels-one");
    let server = Server::start(&dir.join("db"), &["--bot-nodes", "2000"]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");

    // Five boards against a level-1 bot: each board seeds the bot's choices, and level 1
    // chooses among many lines, so the first moves are not all the same.
    let mut first_moves = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..5 {
        let id = bot_first(addr, &["-level=1"]);
        ids.push(id);
        let s = after_bot_move(addr, id);
        assert_eq!(s["bot_level"], 1, "{s}");
        assert_eq!(s["options"], json!(["-level=1"]));
        assert_eq!(s["moves"].as_array().unwrap().len(), 1);
        first_moves.push(s["moves"][0].as_str().unwrap().to_owned());
    }
    let distinct: BTreeSet<&String> = first_moves.iter().collect();
    assert!(
        distinct.len() >= 2,
        "a level-1 bot played the same first move on five boards: {first_moves:?}"
    );

    // The level-1 bot answers alice's moves too.
    let id = ids[0];
    let s = get(addr, &format!("/api/games/{id}")).json();
    let mv = s["legal"][0].as_str().unwrap().to_owned();
    let r = post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "alice", "password": "alice-pw1", "move": mv, "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let limit = Instant::now() + Duration::from_secs(60);
    while get(addr, &format!("/api/games/{id}")).json()["moves_played"] != 3 {
        assert!(Instant::now() < limit, "the bot does not answer");
        std::thread::sleep(Duration::from_millis(20));
    }

    // The first board of another server, the same game: the same bot move (the seed is
    // the board's number).
    let other = Server::start(&dir.join("db2"), &["--bot-nodes", "2000"]);
    signup(other.addr, "alice", "alice-pw1");
    let id = bot_first(other.addr, &["-level=1"]);
    assert_eq!(id, ids[0]);
    let s = after_bot_move(other.addr, id);
    assert_eq!(s["moves"][0], first_moves[0].as_str());
}

#[test]
fn the_level_is_shown_defaulted_and_refused_without_a_bot() {
    let dir = temp_dir("levels-json");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");

    // Without -level the bot plays at full strength: level 8.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pente", "options": ["-size=9"], "players": ["alice", "bot"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["bot_level"], 8);
    assert_eq!(r.json()["options"], json!(["-size=9"]));

    // Given, it is stored with the game's options, before the timers.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "pyloff", "options": ["-deadline=2d", "-level=3"],
                "players": ["alice", "bot"], "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let s = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["bot_level"], 3);
    assert_eq!(s["options"], json!(["-level=3", "-deadline=2d"]));

    // A game between people has no bot level, and refuses one; nothing is stored.
    let r = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["bot_level"], Value::Null);
    let before = game_count(addr);
    for (options, players, word) in [
        (vec!["-level=2"], vec!["alice", "bob"], "no bot seat"),
        (vec!["-level=9"], vec!["alice", "bot"], "from 1 to 8"),
        (vec!["-level=0"], vec!["alice", "bot"], "from 1 to 8"),
        (vec!["-level"], vec!["alice", "bot"], "needs a value"),
        (vec!["-level=2", "-level=3"], vec!["alice", "bot"], "twice"),
    ] {
        let r = post(
            addr,
            "/api/games",
            &json!({"game": "ploy", "options": options, "players": players,
                    "userid": "alice", "password": "alice-pw1"}),
        );
        assert_eq!(r.status, 400, "{options:?}: {}", r.text());
        let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains(word), "{options:?}: {message}");
    }
    assert_eq!(
        game_count(addr),
        before,
        "a refused challenge stores nothing"
    );

    // GET /api/types lists it for every game type, 1 to 8.
    let types = get(addr, "/api/types").json();
    for t in types["types"].as_array().unwrap() {
        let level = t["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == "level")
            .unwrap_or_else(|| panic!("no level option: {t}"));
        assert_eq!(level["kind"], "number");
        assert_eq!(level["values"], json!({"min": 1, "max": 8}));
    }
}

#[test]
fn commands_list_and_take_the_level() {
    let dir = temp_dir("levels-cmd");
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    assert!(cmd.first("signup alice pa-secret").starts_with("ok"));
    assert!(cmd.first("signup bob pb-secret").starts_with("ok"));
    let list = cmd.send("list").join("\n");
    for game in ["ploy", "pente", "pyloff"] {
        let line = list
            .lines()
            .find(|l| l.starts_with(game))
            .unwrap_or_else(|| panic!("{list}"));
        assert!(line.contains("-level"), "{line}");
    }
    let help = cmd.send("help pente").join("\n");
    assert!(help.contains("-level=N (1..8)"), "{help}");

    let first = cmd.first("pente challenge -size=9 -level=2 alice pa-secret bot");
    assert!(first.starts_with("ok"), "{first}");
    let first = cmd.first("pente challenge -level=2 alice pa-secret bob");
    assert!(first.starts_with("error 400"), "{first}");
    assert!(first.contains("no bot seat"), "{first}");
}
