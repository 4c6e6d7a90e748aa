//! Three `ployd serve` processes on one PostgreSQL database behave as one server: a race on
//! one move has one winner whatever process each racer reached; no acknowledged move is
//! lost or doubled while a process is killed and restarted; an event stream on one process
//! sees a move posted on another; a bot game goes on after the process that took the last
//! move dies; a deadline fires exactly once. Clients spread their requests over the
//! processes at random (seeded).
//!
//! These tests run on the throwaway PostgreSQL cluster whatever `PLOYD_TEST_BACKEND` says
//! (skipped with a notice without PostgreSQL, failed under `CI=true`). The figure of
//! several processes (ignored by default) prints moves per second and the 95th-percentile
//! latency of a move with one, two and three processes on PostgreSQL and one on SQLite:
//!
//! ```text
//! cargo test --release -p ploy-server --test suite cluster_figure -- --ignored --nocapture
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ploy_core::{Game, Rules};
use serde_json::{Value, json};

use crate::common::cluster::{Servers, any, moves_of};
use crate::common::{Rng, Server, pick, request, signup, temp_dir, text};
use crate::mail_out::{FROM, code_in, wait_for};
use crate::mail_relay::Relay;

/// The flags of every process here: the bot queue and the timers rechecked often.
fn quick() -> Vec<&'static str> {
    vec!["--timer-interval", "200ms", "--bot-recheck", "200ms"]
}

/// Signs up `user` on one of `addrs` and opens a session there; the cookie.
fn person(addrs: &[SocketAddr], rng: &mut Rng, user: &str) -> String {
    let addr = addrs[rng.below(addrs.len())];
    signup(addr, user, "pw-secret");
    let addr = addrs[rng.below(addrs.len())];
    crate::common::login(addr, user, "pw-secret")
}

/// A two-player Ploy game of `a` (challenger) and `b`, joined; its number.
fn game_of(addrs: &[SocketAddr], rng: &mut Rng, cookies: [&str; 2], players: [&str; 2]) -> i64 {
    let r = any(
        addrs,
        rng,
        "POST",
        "/api/games",
        Some(&json!({"game": "ploy", "players": players})),
        Some(cookies[0]),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let r = any(
        addrs,
        rng,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({})),
        Some(cookies[1]),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    id
}

#[test]
fn a_race_of_16_on_one_move_over_three_processes_has_one_winner() {
    let Some(s) = Servers::same("cluster_race", 3, &quick()) else {
        return;
    };
    let addrs = s.addrs();
    let mut rng = Rng(27);
    let alice = person(&addrs, &mut rng, "alice");
    let bob = person(&addrs, &mut rng, "bob");
    let id = game_of(&addrs, &mut rng, [&alice, &bob], ["alice", "bob"]);
    let state = any(
        &addrs,
        &mut rng,
        "GET",
        &format!("/api/games/{id}"),
        None,
        None,
    )
    .json();
    let mover = if state["to_move"] == "alice" {
        alice
    } else {
        bob
    };
    let legal: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert!(legal.len() >= 16, "{legal:?}");

    // Each racer has its connection open and its request written but for the last byte;
    // the barrier releases all the last bytes at once.
    let barrier = Arc::new(Barrier::new(16));
    let racers: Vec<_> = (0..16)
        .map(|n| {
            let addr = addrs[rng.below(3)];
            let mv = legal[n * legal.len() / 16].clone();
            let body = json!({"move": mv, "ply": 0}).to_string();
            let req = format!(
                "POST /api/games/{id}/moves HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\nCookie: {mover}\r\n\r\n{body}",
                body.len()
            );
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(30)))
                    .unwrap();
                let (head, last) = req.as_bytes().split_at(req.len() - 1);
                stream.write_all(head).unwrap();
                barrier.wait();
                stream.write_all(last).unwrap();
                let mut reply = String::new();
                let _ = std::io::Read::read_to_string(&mut stream, &mut reply);
                let status: u16 = reply
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| panic!("no status: {reply}"));
                (status, mv, addr)
            })
        })
        .collect();
    let results: Vec<(u16, String, SocketAddr)> =
        racers.into_iter().map(|h| h.join().unwrap()).collect();
    let used: std::collections::HashSet<SocketAddr> = results.iter().map(|r| r.2).collect();
    assert_eq!(used.len(), 3, "the racers reached every process");
    let winners: Vec<&(u16, String, SocketAddr)> = results.iter().filter(|r| r.0 == 200).collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    for r in &results {
        assert!(
            r.0 == 200 || r.0 == 409,
            "a refusal of the move number: {r:?}"
        );
    }
    let state = any(
        &addrs,
        &mut rng,
        "GET",
        &format!("/api/games/{id}"),
        None,
        None,
    )
    .json();
    assert_eq!(moves_of(&state), vec![winners[0].1.clone()]);
    assert_eq!(
        s.count(&format!("SELECT COUNT(*) FROM moves WHERE game_id = {id}")),
        1
    );
}

/// One client's record: each game's moves as the client knows them, and how many of
/// them the server acknowledged with a 200.
struct Played {
    games: Vec<(i64, Vec<String>)>,
    acknowledged: usize,
    /// Requests that got no answer (their process had died or was dying).
    failed: usize,
    latencies: Vec<Duration>,
    span: (Instant, Instant),
}

/// Plays move `mv` as number `ply` of game `id` through any process; when a request fails
/// without an answer (its process died), reads the game to learn the move's fate and
/// sends it again only if it is not in the log. Returns whether a 200 acknowledged it
/// (`false`: it was found in the log after a failed request) and the latency of the try
/// that answered; `failed` counts the requests without an answer.
fn play_surely(
    addrs: &[SocketAddr],
    rng: &mut Rng,
    id: i64,
    ply: usize,
    mv: &str,
    cookie: &str,
    failed: &mut usize,
) -> (bool, Duration) {
    let body = json!({"move": mv, "ply": ply});
    for _ in 0..100 {
        let addr = addrs[rng.below(addrs.len())];
        let t = Instant::now();
        match request(
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&body),
            Some(cookie),
        ) {
            Ok(r) if r.status == 200 => return (true, t.elapsed()),
            Ok(r) => assert_eq!(r.status, 409, "board {id} move {ply}: {}", r.text()),
            Err(_) => {
                *failed += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        // The fate of the move is unknown (or a process that died committed it while a
        // repetition was refused): the log says.
        let state = any(addrs, rng, "GET", &format!("/api/games/{id}"), None, None).json();
        let log = moves_of(&state);
        if log.len() > ply {
            assert_eq!(log[ply], mv, "board {id}: move {ply} is another");
            assert_eq!(log.len(), ply + 1, "board {id}: moves after mine");
            return (false, t.elapsed());
        }
    }
    panic!("board {id}: move {ply} never went through");
}

/// A client with two users who play `games` games against each other, one move per game
/// in turn, up to `moves` moves each; every request to a process chosen at random.
/// `progress` counts the moves of all clients, for the process killer.
fn spread_client(
    addrs: &[SocketAddr],
    n: usize,
    games: usize,
    moves: usize,
    progress: &AtomicUsize,
) -> Played {
    let mut rng = Rng(1000 + n as u64);
    let users = [format!("k{n}a"), format!("k{n}b")];
    let cookies = [
        person(addrs, &mut rng, &users[0]),
        person(addrs, &mut rng, &users[1]),
    ];
    let mut boards: Vec<(i64, Game, Vec<String>)> = (0..games)
        .map(|_| {
            let id = game_of(
                addrs,
                &mut rng,
                [&cookies[0], &cookies[1]],
                [&users[0], &users[1]],
            );
            (id, Game::new(Rules::standard()), Vec::new())
        })
        .collect();
    let mut acknowledged = 0;
    let mut failed = 0;
    let mut latencies = Vec::new();
    let first = Instant::now();
    for _ in 0..moves {
        for (id, game, log) in &mut boards {
            if game.outcome().is_some() {
                continue;
            }
            let mv = pick(game, &mut rng);
            let seat = game.position().mover().index();
            let (acked, latency) = play_surely(
                addrs,
                &mut rng,
                *id,
                log.len(),
                &text(mv),
                &cookies[seat],
                &mut failed,
            );
            if acked {
                acknowledged += 1;
                latencies.push(latency);
            }
            game.play(mv).unwrap();
            log.push(text(mv));
            progress.fetch_add(1, Ordering::Relaxed);
        }
    }
    Played {
        games: boards.into_iter().map(|(id, _, log)| (id, log)).collect(),
        acknowledged,
        failed,
        latencies,
        span: (first, Instant::now()),
    }
}

/// Runs `clients` clients over `addrs` playing `games` games of up to `moves` moves in
/// all; checks every game's log against what its client played. Returns the records.
fn play_spread(
    addrs: &[SocketAddr],
    clients: usize,
    games: usize,
    moves: usize,
    progress: &AtomicUsize,
) -> Vec<Played> {
    let played: Vec<Played> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|n| {
                let share = games / clients + usize::from(n < games % clients);
                scope.spawn(move || spread_client(addrs, n, share, moves, progress))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut rng = Rng(99);
    for p in &played {
        for (id, log) in &p.games {
            let state = any(
                addrs,
                &mut rng,
                "GET",
                &format!("/api/games/{id}"),
                None,
                None,
            );
            assert_eq!(
                &moves_of(&state.json()),
                log,
                "board {id}: the stored moves differ from those played"
            );
        }
    }
    played
}

#[test]
fn eight_clients_lose_no_move_while_one_of_three_processes_is_killed_twice() {
    let Some(mut s) = Servers::same("cluster_kills", 3, &quick()) else {
        return;
    };
    let addrs = s.addrs();
    let progress = AtomicUsize::new(0);
    let done = AtomicBool::new(false);
    let mut victim = s.servers.remove(Rng(5).below(3));
    // A site-wide event stream on a process that stays up sees every change of every game
    // once, in increasing numbers, whichever process wrote it.
    let mut site = stream(s.servers[0].addr, "/api/events");
    site.get_ref()
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let mut kills = 0;
    let (played, reader) = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let mut seen = Vec::new();
            while !done.load(Ordering::Relaxed) {
                if let Some(e) = site_event(&mut site) {
                    seen.push(e);
                }
            }
            seen
        });
        let killer = scope.spawn(|| {
            // Killed after about a fifth and again after about half of the moves (up to
            // 3,000), restarted a little later each time.
            for at in [600, 1400] {
                while progress.load(Ordering::Relaxed) < at && !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if done.load(Ordering::Relaxed) {
                    return;
                }
                victim.kill();
                kills += 1;
                std::thread::sleep(Duration::from_millis(300));
                victim.restart();
            }
        });
        let played = play_spread(&addrs, 8, 100, 30, &progress);
        done.store(true, Ordering::Relaxed);
        killer.join().unwrap();
        (played, reader.join().unwrap())
    });
    assert_eq!(kills, 2, "the process was killed twice during the games");
    let games: usize = played.iter().map(|p| p.games.len()).sum();
    let total: usize = played
        .iter()
        .flat_map(|p| &p.games)
        .map(|(_, l)| l.len())
        .sum();
    let acknowledged: usize = played.iter().map(|p| p.acknowledged).sum();
    let failed: usize = played.iter().map(|p| p.failed).sum();
    eprintln!(
        "cluster_kills: {games} games, {total} moves, {acknowledged} acknowledged by a 200, \
         {} found in the log after a request without an answer; {failed} requests without \
         an answer",
        total - acknowledged
    );
    assert!(failed > 0, "the clients met the killed process");
    assert_eq!(games, 100);
    assert!(total >= 1500, "{total} moves");
    // Every move played is in the log once: the rows are exactly the moves played.
    assert_eq!(s.count("SELECT COUNT(*) FROM moves") as usize, total);
    let (ok, out) = s.check();
    assert!(ok, "{out}");
    assert!(out.contains("100 games replayed, 0 problems"), "{out}");

    // Read on until the stream has as many events as the table (the last ones may still
    // be on their way), at most 10 s after the games.
    let events = s.count("SELECT COUNT(*) FROM events") as usize;
    let limit = Instant::now() + Duration::from_secs(10);
    let mut seen = reader;
    while seen.len() < events && Instant::now() < limit {
        if let Some(e) = site_event(&mut site) {
            seen.push(e);
        }
    }
    assert!(
        seen.windows(2).all(|w| w[0].0 < w[1].0),
        "the stream's numbers increase"
    );
    let mut got: Vec<(i64, i64, String)> = seen.into_iter().map(|(_, g, p, k)| (g, p, k)).collect();
    got.sort();
    let mut stored: Vec<(i64, i64, String)> = s
        .client()
        .query("SELECT game_id, ply, kind FROM events", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    stored.sort();
    assert_eq!(got, stored, "the stream saw every event once");
}

/// Reads an event stream until an event whose data satisfies `want`, for at most
/// `limit`; the data line.
fn next_event(reader: &mut BufReader<TcpStream>, want: impl Fn(&Value) -> bool) -> Value {
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .expect("an event before the read timeout");
        assert!(n > 0, "the stream ended");
        if let Some(data) = line.trim_end().strip_prefix("data: ")
            && let Ok(v) = serde_json::from_str::<Value>(data)
            && want(&v)
        {
            return v;
        }
    }
}

/// The next event of a stream (its number, board, ply and kind), or `None` when none came
/// within the read timeout.
fn site_event(reader: &mut BufReader<TcpStream>) -> Option<(i64, i64, i64, String)> {
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => panic!("the stream ended"),
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None;
            }
            Err(e) => panic!("the stream failed: {e}"),
        }
        if let Some(data) = line.trim_end().strip_prefix("data: ")
            && let Ok(v) = serde_json::from_str::<Value>(data)
            && let (Some(seq), Some(id), Some(ply), Some(kind)) = (
                v["seq"].as_i64(),
                v["id"].as_i64(),
                v["ply"].as_i64(),
                v["kind"].as_str(),
            )
        {
            return Some((seq, id, ply, kind.to_owned()));
        }
    }
}

/// Opens game `id`'s event stream on `addr` and waits for its `ready`.
fn stream(addr: SocketAddr, path: &str) -> BufReader<TcpStream> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut reader = BufReader::new(s);
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("event: ready") {
            return reader;
        }
    }
}

#[test]
fn an_event_stream_on_one_process_sees_moves_posted_on_the_others() {
    let Some(s) = Servers::same("cluster_stream", 3, &quick()) else {
        return;
    };
    let addrs = s.addrs();
    let mut rng = Rng(31);
    let alice = person(&addrs, &mut rng, "alice");
    let bob = person(&addrs, &mut rng, "bob");
    let id = game_of(&addrs, &mut rng, [&alice, &bob], ["alice", "bob"]);
    let mut game_stream = stream(addrs[0], &format!("/api/games/{id}/events"));
    let mut site_stream = stream(addrs[0], "/api/events");
    let mut game = Game::new(Rules::standard());
    let mut latencies = Vec::new();
    for ply in 0..6 {
        let mv = pick(&game, &mut rng);
        let cookie = [&alice, &bob][game.position().mover().index()];
        // Posted on the two other processes in turn.
        let on = addrs[1 + ply % 2];
        let r = request(
            on,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": text(mv), "ply": ply})),
            Some(cookie),
        )
        .unwrap();
        let posted = Instant::now();
        assert_eq!(r.status, 200, "{}", r.text());
        let want = |v: &Value| v["id"] == id && v["kind"] == "move" && v["ply"] == ply + 1;
        next_event(&mut game_stream, want);
        latencies.push(posted.elapsed());
        next_event(&mut site_stream, want);
        game.play(mv).unwrap();
    }
    let ms: Vec<String> = latencies
        .iter()
        .map(|d| format!("{:.1}", d.as_secs_f64() * 1000.0))
        .collect();
    eprintln!(
        "cluster_stream: a move posted on process B or C reached the stream on A after {} ms",
        ms.join(", ")
    );
}

/// Waits (at most `limit`) until game `id` has at least `n` moves; its state.
fn wait_moves(addrs: &[SocketAddr], id: i64, n: usize, limit: Duration) -> Value {
    let start = Instant::now();
    let mut rng = Rng(7);
    loop {
        let state = any(
            addrs,
            &mut rng,
            "GET",
            &format!("/api/games/{id}"),
            None,
            None,
        )
        .json();
        if moves_of(&state).len() >= n || start.elapsed() > limit {
            return state;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_bot_game_goes_on_after_the_process_that_took_the_last_move_dies() {
    // The first process searches slowly (a bot move takes it a minute), so that it is
    // surely still at the bot's move when it is killed; the others at the tests' budget.
    let slow: &[&str] = &["--bot-nodes", "1000000000", "--bot-time", "60s"];
    let Some(mut s) = Servers::start("cluster_bot", &quick(), &[slow, &[], &[]]) else {
        return;
    };
    let addrs = s.addrs();
    let mut rng = Rng(41);
    let alice = person(&addrs, &mut rng, "alice");
    let r = any(
        &addrs,
        &mut rng,
        "POST",
        "/api/games",
        Some(&json!({"game": "ploy", "players": ["alice", "bot"]})),
        Some(&alice),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let mut state = wait_moves(&addrs, id, 0, Duration::ZERO);
    if state["to_move"] == "bot" {
        state = wait_moves(&addrs, id, 1, Duration::from_secs(15));
    }

    // Twice: alice moves on the first process, which is killed right after its 200. The
    // first time the three run; the second time the first runs alone when alice moves, so
    // that it is the one that takes the bot's move, and the others start after its death.
    for round in 0..2 {
        assert_eq!(state["to_move"], "alice", "{state}");
        let ply = moves_of(&state).len();
        if round == 1 {
            s.servers[1].kill();
            s.servers[2].kill();
        }
        let mv = state["legal"][0].as_str().unwrap().to_owned();
        let r = request(
            addrs[0],
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv, "ply": ply})),
            Some(&alice),
        )
        .unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        s.servers[0].kill();
        let killed = Instant::now();
        if round == 1 {
            s.servers[1].restart();
            s.servers[2].restart();
        }
        state = wait_moves(&addrs[1..], id, ply + 2, Duration::from_secs(20));
        let log = moves_of(&state);
        assert_eq!(log.len(), ply + 2, "round {round}: no bot move: {state}");
        assert_eq!(log[ply], mv);
        assert_eq!(state["move_seats"][ply + 1], 1, "{state}");
        eprintln!(
            "cluster_bot: round {round}: the bot's move came {:.0} ms after the kill",
            killed.elapsed().as_secs_f64() * 1000.0
        );
        s.servers[0].restart();
    }
    let (ok, out) = s.check();
    assert!(ok, "{out}");
}

#[test]
fn a_deadline_fires_exactly_once_with_three_processes_sweeping() {
    let dir = temp_dir("cluster-deadline");
    let relay = Relay::start(&dir, &[]);
    let target = relay.target();
    let mut flags = quick();
    flags.extend([
        "--smtp",
        &target,
        "--mail-from",
        FROM,
        "--smtp-timeout",
        "2",
        "--smtp-retry",
        "1",
    ]);
    let Some(s) = Servers::same("cluster_deadline", 3, &flags) else {
        return;
    };
    let addrs = s.addrs();
    let mut rng = Rng(53);
    let r = any(
        &addrs,
        &mut rng,
        "POST",
        "/api/users",
        Some(&json!({"userid": "alice", "password": "pw-secret", "email": "alice@example.org"})),
        None,
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let code = code_in(&wait_for(&relay, 1)[0]);
    let addr = addrs[rng.below(3)];
    let reply = crate::accounts_public::post_command(
        addr,
        &format!("confirm alice pw-secret {code}\n"),
        None,
    );
    assert!(reply.starts_with("ok"), "{reply}");

    let r = any(
        &addrs,
        &mut rng,
        "POST",
        "/api/games",
        Some(
            &json!({"game": "ploy", "options": ["-deadline=1s"], "players": ["alice", "bot"],
                     "userid": "alice", "password": "pw-secret"}),
        ),
        None,
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    let start = Instant::now();
    let state = loop {
        let state = any(
            &addrs,
            &mut rng,
            "GET",
            &format!("/api/games/{id}"),
            None,
            None,
        )
        .json();
        if state["status"] == "over" || start.elapsed() > Duration::from_secs(15) {
            break state;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(state["status"], "over", "{state}");
    assert_eq!(state["reason"], "time", "{state}");
    // The mail of it, and then a few more sweeps of every process: nothing more.
    let mails = wait_for(&relay, 2);
    std::thread::sleep(Duration::from_secs(2));
    let endings = s.count(&format!(
        "SELECT COUNT(*) FROM endings WHERE game_id = {id} AND kind = 'time'"
    ));
    assert_eq!(endings, 1);
    let events = s.count(&format!(
        "SELECT COUNT(*) FROM events WHERE game_id = {id} AND kind = 'time'"
    ));
    assert_eq!(events, 1);
    let notes = s.count(&format!(
        "SELECT COUNT(*) FROM outbox WHERE game_id = {id} AND subject LIKE '%ran out of time%'"
    ));
    assert_eq!(notes, 1);
    let queued = s.count(&format!(
        "SELECT COUNT(*) FROM mail_queue WHERE subject LIKE '%ploy {id}:%ran out of time%'"
    ));
    assert_eq!(queued, 1);
    let mails_now = relay.messages();
    assert_eq!(mails_now.len(), 2, "{mails_now:#?}");
    assert!(
        mails[1].subject.contains("ran out of time"),
        "{:?}",
        mails[1].subject
    );
}

/// The figure: 8 clients playing 200 games of 30 moves (session cookies, the tests' cheap
/// password hashes), with one, two and three processes on one PostgreSQL database, and
/// with one process on SQLite; each request to a process chosen at random.
#[test]
#[ignore = "a measurement; run with --ignored --nocapture in release mode"]
fn cluster_figure() {
    for n in 0..=3 {
        let (label, _servers, _pg, addrs) = if n == 0 {
            let dir = temp_dir("cluster-figure-sqlite");
            let file = dir.join("db");
            let address = format!("sqlite:{}", file.display());
            let server = Server::start(&file, &["--db", &address]);
            let addrs = vec![server.addr];
            ("SQLite, 1 process".to_owned(), Some(server), None, addrs)
        } else {
            let Some(s) = Servers::same(&format!("cluster_figure_{n}"), n, &quick()) else {
                return;
            };
            let addrs = s.addrs();
            (
                format!("PostgreSQL, {n} process{}", if n > 1 { "es" } else { "" }),
                None,
                Some(s),
                addrs,
            )
        };
        let progress = AtomicUsize::new(0);
        let played = play_spread(&addrs, 8, 200, 30, &progress);
        let start = played.iter().map(|p| p.span.0).min().unwrap();
        let end = played.iter().map(|p| p.span.1).max().unwrap();
        let mut latencies: Vec<Duration> =
            played.iter().flat_map(|p| p.latencies.clone()).collect();
        latencies.sort();
        let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
        let moves = latencies.len();
        let seconds = (end - start).as_secs_f64();
        println!(
            "{label}: {moves} moves in {seconds:.1} s = {:.0} moves/s; latency p50 {:.1} ms, \
             p95 {:.1} ms",
            moves as f64 / seconds,
            at(0.5).as_secs_f64() * 1000.0,
            at(0.95).as_secs_f64() * 1000.0
        );
    }
}
