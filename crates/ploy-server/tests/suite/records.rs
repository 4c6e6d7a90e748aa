//! Game records from a real `ployd`: `GET /api/games/{id}/record` and `GAME record BOARD`
//! answer the game's record in its own game's format, and the game crate's reader replays
//! it into the game the server played.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ploy_core::{Outcome, Seat, SeatSet, WinReason};
use ploy_notation::UniversityMove;
use serde_json::{Value, json};

use crate::common::{Cmd, Server, get, post, signup, temp_dir};

const ALICE: (&str, &str) = ("alice", "alice-pw1");

fn state(addr: SocketAddr, id: i64) -> Value {
    get(addr, &format!("/api/games/{id}")).json()
}

/// Starts a game of `game` between alice (first seat) and the bot.
fn against_bot(addr: SocketAddr, game: &str, options: &[&str]) -> i64 {
    let r = post(
        addr,
        "/api/games",
        &json!({"game": game, "options": options, "players": [ALICE.0, "bot"],
                "userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

/// Alice plays her first legal move `n` times, the bot answering each; the final state.
fn play_some(addr: SocketAddr, id: i64, n: usize) -> Value {
    for _ in 0..n {
        let s = wait_for_alice(addr, id);
        if s["status"] == "over" {
            return s;
        }
        let mv = s["legal"][0].as_str().unwrap().to_owned();
        let r = post(
            addr,
            &format!("/api/games/{id}/moves"),
            &json!({"userid": ALICE.0, "password": ALICE.1, "move": mv,
                    "ply": s["moves_played"]}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    wait_for_alice(addr, id)
}

fn wait_for_alice(addr: SocketAddr, id: i64) -> Value {
    let limit = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(addr, id);
        if s["status"] == "over" || s["to_move"] == ALICE.0 {
            return s;
        }
        assert!(Instant::now() < limit, "the bot does not answer: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn moves(s: &Value) -> Vec<String> {
    s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// The record of board `id`, checked as a download named `{game}-{id}.{game}`.
fn record(addr: SocketAddr, id: i64, game: &str) -> String {
    let r = get(addr, &format!("/api/games/{id}/record"));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.header("content-disposition"),
        Some(format!("attachment; filename=\"{game}-{id}.{game}\"").as_str())
    );
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("text/plain")),
        "{:?}",
        r.header("content-type")
    );
    r.text()
}

#[test]
fn a_resigned_ploy_game_reads_back_from_its_record() {
    let dir = temp_dir("records-ploy");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, ALICE.0, ALICE.1);
    let id = against_bot(addr, "ploy", &["-relaxed"]);
    let s = play_some(addr, id, 3);
    let r = post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let played = moves(&s);
    assert!(played.len() >= 6, "{played:?}");

    let text = record(addr, id, "ploy");
    let saved = ploy_sheet::read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let replayed: Vec<String> = saved
        .game
        .moves()
        .iter()
        .map(|&m| UniversityMove::from(m).to_string())
        .collect();
    assert_eq!(replayed, played);
    assert_eq!(saved.header.players.get(Seat::Green), Some(ALICE.0));
    assert_eq!(saved.header.players.get(Seat::Red), Some("bot"));
    assert_eq!(
        saved.game.outcome(),
        Some(Outcome::Win {
            winners: SeatSet::from(Seat::Red),
            reason: WinReason::Resignation,
        })
    );
    assert!(saved.game.start_position().rules().elimination == ploy_core::Elimination::Relaxed);

    // The command language answers the same record.
    drop(server);
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    let reply = cmd.send(&format!("ploy record {id}"));
    assert_eq!(
        reply[0],
        format!("ok board {id}: record ploy-{id}.ploy"),
        "{reply:?}"
    );
    assert_eq!(reply[1..].join("\n") + "\n", text);
    // Another game type's board, and a board that does not exist, are refused.
    assert!(
        cmd.first(&format!("pente record {id}"))
            .starts_with("error 404")
    );
    assert!(cmd.first("ploy record 99999").starts_with("error 404"));
}

#[test]
fn pente_and_pyloff_games_read_back_from_their_records() {
    let dir = temp_dir("records-pp");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, ALICE.0, ALICE.1);

    // Pente, going on: the record is unfinished and replays to the same position.
    let id = against_bot(addr, "pente", &["-size=9", "-no_tournament_rule"]);
    let s = play_some(addr, id, 3);
    let text = record(addr, id, "pente");
    let rec: pente::Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    let game = rec.validate().unwrap();
    let replayed: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    assert_eq!(replayed, moves(&s));
    assert_eq!(game.position().to_string(), s["position"]["position"]);
    assert_eq!(rec.white.as_deref(), Some(ALICE.0));
    assert_eq!(rec.black.as_deref(), Some("bot"));
    assert_eq!(rec.result, pente::GameResult::Unfinished);
    assert!(!rec.rules.tournament_rule);

    // Resigned: Black (the bot) wins.
    let r = post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": ALICE.0, "password": ALICE.1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let rec: pente::Record = record(addr, id, "pente").parse().unwrap();
    assert_eq!(rec.result, pente::GameResult::BlackWins);

    // Pyloff on a small board, played to its end.
    let id = against_bot(addr, "pyloff", &["-size=3"]);
    let s = play_some(addr, id, 40);
    assert_eq!(s["status"], "over", "{s}");
    let text = record(addr, id, "pyloff");
    assert!(
        text.starts_with("# player 1: alice\n# player 2: bot\n"),
        "{text}"
    );
    let rec: pyloff::Record = text.parse().unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let game = rec.replay().unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let replayed: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
    assert_eq!(replayed, moves(&s));
    assert!(
        !matches!(rec.result, pyloff::RecordResult::Ongoing),
        "{text}"
    );

    // A board that does not exist.
    assert_eq!(get(addr, "/api/games/99999/record").status, 404);
}
