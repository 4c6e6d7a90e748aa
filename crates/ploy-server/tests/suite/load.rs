//! Many HTTP clients at once: no move lost or doubled; and the load figure.
//!
//! The CI test plays 200 games with 8 clients and cheap password hashes. The measurement
//! (ignored by default) prints moves per second and the 95th-percentile latency of a move:
//!
//! ```text
//! cargo test --release -p ploy-server --test load -- --ignored --nocapture
//! ```

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::{Rng, Server, get, login, pick, request, signup, temp_dir, text};
use ploy_core::{Game, Rules};
use serde_json::json;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Auth {
    /// Every move carries the password (one argon2id verification per move).
    Password,
    /// Every move carries the session cookie.
    Session,
    /// Half the clients one way, half the other.
    Mixed,
}

struct Stats {
    moves: usize,
    seconds: f64,
    latencies: Vec<Duration>,
}

impl Stats {
    fn percentile(&mut self, p: f64) -> Duration {
        self.latencies.sort();
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[i]
    }
}

/// Each game's acknowledged moves, the latencies, and when the moves began and ended.
type ClientResult = (Vec<(i64, Vec<String>)>, Vec<Duration>, (Instant, Instant));

/// One client: its two users play `games` games against each other, one move per game in
/// turn, `moves` moves each (or to the end). Returns each game's acknowledged moves.
fn client(addr: SocketAddr, n: usize, games: usize, moves: usize, auth: Auth) -> ClientResult {
    let users = [format!("c{n}a"), format!("c{n}b")];
    for u in &users {
        signup(addr, u, "pw-secret");
    }
    let use_cookie = match auth {
        Auth::Password => false,
        Auth::Session => true,
        Auth::Mixed => n.is_multiple_of(2),
    };
    let cookies = [
        login(addr, &users[0], "pw-secret"),
        login(addr, &users[1], "pw-secret"),
    ];
    let mut rng = Rng(n as u64 + 1);
    let mut boards: Vec<(i64, Game, Vec<String>)> = (0..games)
        .map(|_| {
            let r = request(
                addr,
                "POST",
                "/api/games",
                Some(&json!({"game": "ploy", "players": [users[0], users[1]]})),
                Some(&cookies[0]),
            )
            .unwrap();
            assert_eq!(r.status, 201, "{}", r.text());
            let id = r.json()["id"].as_i64().unwrap();
            let j = request(
                addr,
                "POST",
                &format!("/api/games/{id}/join"),
                Some(&json!({})),
                Some(&cookies[1]),
            )
            .unwrap();
            assert_eq!(j.status, 200, "{}", j.text());
            (id, Game::new(Rules::standard()), Vec::new())
        })
        .collect();
    let mut latencies = Vec::new();
    let first = Instant::now();
    for _ in 0..moves {
        for (id, game, log) in &mut boards {
            if game.outcome().is_some() {
                continue;
            }
            let mv = pick(game, &mut rng);
            let seat = game.position().mover().index();
            let mut body = json!({"move": text(mv), "ply": log.len()});
            let cookie = if use_cookie {
                Some(cookies[seat].as_str())
            } else {
                body["userid"] = json!(users[seat]);
                body["password"] = json!("pw-secret");
                None
            };
            let t = Instant::now();
            let r = request(
                addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&body),
                cookie,
            )
            .unwrap();
            latencies.push(t.elapsed());
            assert_eq!(r.status, 200, "{}", r.text());
            game.play(mv).unwrap();
            log.push(text(mv));
        }
    }
    (
        boards.into_iter().map(|(id, _, log)| (id, log)).collect(),
        latencies,
        (first, Instant::now()),
    )
}

fn run(server: &Server, clients: usize, games: usize, moves: usize, auth: Auth) -> Stats {
    let addr = server.addr;
    let handles: Vec<_> = (0..clients)
        .map(|n| std::thread::spawn(move || client(addr, n, games / clients, moves, auth)))
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let start = results.iter().map(|r| r.2.0).min().unwrap();
    let end = results.iter().map(|r| r.2.1).max().unwrap();
    let seconds = (end - start).as_secs_f64();
    let mut total = 0;
    let mut latencies = Vec::new();
    for (boards, lat, _) in results {
        latencies.extend(lat);
        for (id, log) in boards {
            let state = get(addr, &format!("/api/games/{id}")).json();
            let stored: Vec<String> = state["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(
                stored, log,
                "board {id}: the stored moves differ from those acknowledged"
            );
            total += log.len();
        }
    }
    let rows = crate::common::sql_i64(&server.db, "SELECT COUNT(*) FROM moves");
    assert_eq!(rows as usize, total, "rows in the move log");
    Stats {
        moves: total,
        seconds,
        latencies,
    }
}

#[test]
fn eight_clients_play_200_games_without_losing_or_doubling_a_move() {
    let dir = temp_dir("load-ci");
    let server = Server::start(&dir.join("db"), &[]);
    let stats = run(&server, 8, 200, 8, Auth::Mixed);
    assert!(stats.moves >= 1000, "{} moves", stats.moves);
    let check = crate::common::ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&server.db))
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    assert!(String::from_utf8_lossy(&check.stdout).contains("200 games replayed, 0 problems"));
}

/// The load figure: 8 clients, 200 games, 30 moves each, with the default argon2id
/// parameters; once with session cookies and once with a password on every move.
#[test]
#[ignore = "a measurement; run with --ignored --nocapture in release mode"]
fn load_figure() {
    for auth in [Auth::Session, Auth::Password] {
        let dir = temp_dir(&format!("load-figure-{auth:?}"));
        let server = Server::start(
            &dir.join("db"),
            &["--argon2-memory", "19456", "--argon2-iterations", "2"],
        );
        let mut s = run(&server, 8, 200, 30, auth);
        let p50 = s.percentile(0.5);
        let p95 = s.percentile(0.95);
        println!(
            "{auth:?}: {} moves in {:.1} s = {:.0} moves/s; latency p50 {:.1} ms, p95 {:.1} ms",
            s.moves,
            s.seconds,
            s.moves as f64 / s.seconds,
            p50.as_secs_f64() * 1000.0,
            p95.as_secs_f64() * 1000.0
        );
    }
}
