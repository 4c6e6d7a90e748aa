//! `ployd serve` killed with SIGKILL twice while 8 clients post moves without pause, and
//! restarted each time: every acknowledged move is in the log and every game replays.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use crate::common::{Rng, Server, pick, request, temp_dir, text};
use ploy_core::{Game, Rules};
use serde_json::{Value, json};

/// What a client knows of one of its games.
struct Board {
    id: i64,
    game: Game,
    /// Moves the server acknowledged (200), in order.
    acked: Vec<String>,
}

fn stored_moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// Retries a request until the server answers (it may be down for a restart).
fn until_up(
    addr: &RwLock<SocketAddr>,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> crate::common::Response {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let a = *addr.read().unwrap();
        if let Ok(r) = request(a, method, path, body, None) {
            return r;
        }
        assert!(Instant::now() < deadline, "the server does not come back");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn new_board(addr: &RwLock<SocketAddr>, users: &[String; 2]) -> Board {
    let r = until_up(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "ploy", "players": [users[0], users[1]],
                     "userid": users[0], "password": "pw-secret"})),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let j = until_up(
        addr,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"userid": users[1], "password": "pw-secret"})),
    );
    assert_eq!(j.status, 200, "{}", j.text());
    Board {
        id,
        game: Game::new(Rules::standard()),
        acked: Vec::new(),
    }
}

/// Posts moves without pause until `stop`; returns every board with its acknowledged moves
/// and the number of moves whose outcome was unknown (connection lost).
fn client(
    n: usize,
    addr: Arc<RwLock<SocketAddr>>,
    stop: Arc<AtomicBool>,
    acked_total: Arc<AtomicUsize>,
) -> (Vec<Board>, usize) {
    let users = [format!("k{n}a"), format!("k{n}b")];
    for u in &users {
        let r = until_up(
            &addr,
            "POST",
            "/api/users",
            Some(&json!({"userid": u, "password": "pw-secret"})),
        );
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let mut rng = Rng(100 + n as u64);
    let mut boards = vec![new_board(&addr, &users)];
    let mut unknown = 0;
    while !stop.load(Ordering::Relaxed) {
        let b = boards.last_mut().unwrap();
        if b.game.outcome().is_some() {
            boards.push(new_board(&addr, &users));
            continue;
        }
        let mv = pick(&b.game, &mut rng);
        let seat = b.game.position().mover().index();
        let body = json!({"userid": users[seat], "password": "pw-secret", "move": text(mv),
                          "ply": b.acked.len()});
        let a = *addr.read().unwrap();
        match request(
            a,
            "POST",
            &format!("/api/games/{}/moves", b.id),
            Some(&body),
            None,
        ) {
            Ok(r) if r.status == 200 => {
                b.game.play(mv).unwrap();
                b.acked.push(text(mv));
                acked_total.fetch_add(1, Ordering::Relaxed);
                assert_eq!(stored_moves(&r.json()), b.acked);
            }
            Ok(r) => panic!("board {}: {} {}", b.id, r.status, r.text()),
            Err(_) => {
                // Lost with the server: the move may or may not have been committed. Ask.
                unknown += 1;
                let state = until_up(&addr, "GET", &format!("/api/games/{}", b.id), None).json();
                let stored = stored_moves(&state);
                assert_eq!(
                    stored[..b.acked.len()],
                    b.acked[..],
                    "an acknowledged move is lost"
                );
                if stored.len() == b.acked.len() + 1 {
                    assert_eq!(stored.last().unwrap(), &text(mv));
                    b.game.play(mv).unwrap();
                    b.acked.push(text(mv)); // known now, though never acknowledged
                } else {
                    assert_eq!(stored.len(), b.acked.len(), "a move appeared from nowhere");
                }
            }
        }
    }
    (boards, unknown)
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let dir = temp_dir("crash");
    let mut server = Server::start(&dir.join("db"), &[]);
    let addr = Arc::new(RwLock::new(server.addr));
    let stop = Arc::new(AtomicBool::new(false));
    let acked = Arc::new(AtomicUsize::new(0));
    let handles: Vec<_> = (0..8)
        .map(|n| {
            let (addr, stop, acked) = (Arc::clone(&addr), Arc::clone(&stop), Arc::clone(&acked));
            std::thread::spawn(move || client(n, addr, stop, acked))
        })
        .collect();
    let wait_for_moves = |at_least: usize| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while acked.load(Ordering::Relaxed) < at_least {
            assert!(Instant::now() < deadline, "the clients make no progress");
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let mut marks = Vec::new();
    for round in 0..2 {
        wait_for_moves(acked.load(Ordering::Relaxed) + 150);
        server.kill();
        marks.push(acked.load(Ordering::Relaxed));
        std::thread::sleep(Duration::from_millis(200 + 100 * round));
        server.restart();
        *addr.write().unwrap() = server.addr;
    }
    wait_for_moves(acked.load(Ordering::Relaxed) + 150);
    stop.store(true, Ordering::Relaxed);
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();

    let addr = server.addr;
    let mut games = 0;
    for (boards, _) in &results {
        for b in boards {
            let r = request(addr, "GET", &format!("/api/games/{}", b.id), None, None).unwrap();
            assert_eq!(stored_moves(&r.json()), b.acked, "board {}", b.id);
            games += 1;
        }
    }
    let unknown: usize = results.iter().map(|r| r.1).sum();
    eprintln!(
        "{} moves acknowledged in {games} games; kills after {marks:?}; {unknown} requests lost with the process",
        acked.load(Ordering::Relaxed)
    );
    server.kill();
    let check = crate::common::ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&server.db))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{out}");
    // (A game whose creation was lost with the process exists without its client.)
    assert!(out.contains(" games replayed, 0 problems"), "{out}");
}
