//! The throttles of a real `ployd serve` (under `--trust-proxy`, each client's address is
//! the one its `X-Forwarded-For` names): failed password checks per address and per
//! (address, userid), doubling waits, new accounts per address, and the bounded password
//! work (`503 busy`).

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::{Arc, Barrier};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Response, Server, raw, temp_dir};

/// A request from the client at `from` (through the trusted proxy).
pub(crate) fn from(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    body: &str,
    content_type: &str,
) -> Response {
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Forwarded-For: {from}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, req.as_bytes()).expect("the server answers")
}

fn json_from(addr: SocketAddr, client: &str, path: &str, body: &Value) -> Response {
    from(
        addr,
        client,
        "POST",
        path,
        &body.to_string(),
        "application/json",
    )
}

fn sign_in(addr: SocketAddr, client: &str, userid: &str, password: &str) -> Response {
    json_from(
        addr,
        client,
        "/api/sessions",
        &json!({"userid": userid, "password": password}),
    )
}

fn sign_up(addr: SocketAddr, client: &str, userid: &str, password: &str) -> Response {
    json_from(
        addr,
        client,
        "/api/users",
        &json!({"userid": userid, "password": password}),
    )
}

/// Asserts a `429 throttled` with `Retry-After: seconds`.
fn assert_throttled(r: &Response, seconds: u64) {
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json()["error"], "throttled");
    assert_eq!(
        r.header("retry-after"),
        Some(seconds.to_string().as_str()),
        "{}",
        r.text()
    );
}

fn server(dir: &std::path::Path, limits: &[&str]) -> Server {
    let mut args = vec!["--trust-proxy"];
    args.extend_from_slice(limits);
    Server::start(&dir.join("db"), &args)
}

#[test]
fn failures_per_address_lock_that_address_only_and_known_and_unknown_userids_count_alike() {
    let dir = temp_dir("throttle-address");
    let server = server(&dir, &["--failures-per-address", "3/30s"]);
    let addr = server.addr;
    assert_eq!(
        sign_up(addr, "192.0.2.9", "alice", "alice-secret").status,
        201
    );
    // Three failures from one address, known and unknown userids alike: 403 each.
    for (userid, password) in [
        ("alice", "wrong-one"),
        ("nobody", "wrong-two"),
        ("alice", "wrong-three"),
    ] {
        let r = sign_in(addr, "192.0.2.1", userid, password);
        assert_eq!(r.status, 403, "{}", r.text());
    }
    // Then the address waits one failure's share of the period (30 s / 3), whatever the
    // userid, even with the right password.
    assert_throttled(&sign_in(addr, "192.0.2.1", "nobody", "wrong-four"), 10);
    assert_throttled(&sign_in(addr, "192.0.2.1", "alice", "alice-secret"), 10);
    // A move with the right password from that address is refused too; nothing is played.
    let game = json_from(
        addr,
        "192.0.2.9",
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bot"], "userid": "alice", "password": "alice-secret"}),
    );
    assert_eq!(game.status, 201, "{}", game.text());
    let mv = json_from(
        addr,
        "192.0.2.1",
        "/api/games/101/moves",
        &json!({"userid": "alice", "password": "alice-secret", "move": "e3-e4", "ply": 0}),
    );
    assert_throttled(&mv, 10);
    assert_eq!(crate::common::get(addr, "/api/games/101").json()["ply"], 0);
    // Alice from her own address is not locked out.
    assert_eq!(
        sign_in(addr, "192.0.2.2", "alice", "alice-secret").status,
        201
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_wait_doubles_while_failures_go_on() {
    let dir = temp_dir("throttle-doubling");
    let server = server(&dir, &["--failures-per-address", "2/2s"]);
    let addr = server.addr;
    let client = "198.51.100.7";
    // Fails until throttled; the number of failures it took and the refusal.
    let fail_until_throttled = || {
        for failures in 0..10 {
            let r = sign_in(addr, client, "mallory", "guess-guess");
            if r.status != 403 {
                return (failures, r);
            }
        }
        panic!("never throttled");
    };
    // Two failures (the limit), then one failure's share of the period: 1 s.
    let (n, r) = fail_until_throttled();
    assert_eq!(n, 2);
    assert_throttled(&r, 1);
    std::thread::sleep(Duration::from_millis(1100));
    // One share came back; using it up again locks the address for twice as long.
    let (n, r) = fail_until_throttled();
    assert_eq!(n, 1);
    assert_throttled(&r, 2);
    std::thread::sleep(Duration::from_millis(2100));
    // The failures go on: twice as long again.
    let (n, r) = fail_until_throttled();
    assert!((1..=2).contains(&n), "{n}");
    assert_throttled(&r, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn failures_per_user_lock_that_userid_from_that_address_only() {
    let dir = temp_dir("throttle-user");
    let server = server(
        &dir,
        &[
            "--failures-per-address",
            "off",
            "--failures-per-user",
            "2/60s",
        ],
    );
    let addr = server.addr;
    assert_eq!(
        sign_up(addr, "192.0.2.9", "alice", "alice-secret").status,
        201
    );
    assert_eq!(sign_up(addr, "192.0.2.9", "bob", "bob-secret!").status, 201);
    let attacker = "203.0.113.5";
    // A known and an unknown userid are throttled at the same point, the same way.
    for userid in ["alice", "ghost"] {
        for _ in 0..2 {
            assert_eq!(
                sign_in(addr, attacker, userid, "wrong-password").status,
                403
            );
        }
        let r = sign_in(addr, attacker, userid, "wrong-password");
        assert_throttled(&r, 30);
    }
    let a = sign_in(addr, attacker, "alice", "wrong-password").json();
    let g = sign_in(addr, attacker, "ghost", "wrong-password").json();
    assert_eq!(a, g, "the same answer for a known and an unknown userid");
    // The same address may still try another userid.
    assert_eq!(sign_in(addr, attacker, "bob", "bob-secret!").status, 201);
    // Alice signs in from elsewhere.
    assert_eq!(
        sign_in(addr, "192.0.2.44", "alice", "alice-secret").status,
        201
    );
    // Through the command route the same throttle answers, line by line.
    let reply = from(
        addr,
        attacker,
        "POST",
        "/api/command",
        "inbox alice alice-secret\ninbox bob bob-secret!\n",
        "text/plain",
    )
    .text();
    assert!(
        reply.starts_with("error 429: too many failed password checks"),
        "{reply}"
    );
    assert!(reply.contains("\nok 0 notifications\n"), "{reply}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_failures_count_and_a_pair_counts_once_per_request() {
    let dir = temp_dir("throttle-commands");
    let server = server(&dir, &["--failures-per-address", "3/60s"]);
    let addr = server.addr;
    assert_eq!(
        sign_up(addr, "192.0.2.9", "alice", "alice-secret").status,
        201
    );
    let client = "192.0.2.77";
    // Twenty lines with the same wrong pair: checked once, one failure.
    let lines = "inbox alice wrong-password\n".repeat(20);
    let reply = from(addr, client, "POST", "/api/command", &lines, "text/plain").text();
    assert_eq!(reply.matches("error 403: ").count(), 20, "{reply}");
    // Two other wrong pairs in one request: two more failures (three in all), then the
    // address is locked, so a fourth line is refused without a check.
    let reply = from(
        addr,
        client,
        "POST",
        "/api/command",
        "inbox alice wrong-two\ninbox alice wrong-three\ninbox alice alice-secret\n",
        "text/plain",
    )
    .text();
    let firsts: Vec<&str> = reply
        .split(".\n")
        .filter(|r| !r.is_empty())
        .map(|r| r.lines().next().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3, "{reply}");
    assert!(firsts[0].starts_with("error 403: "), "{reply}");
    assert!(firsts[1].starts_with("error 403: "), "{reply}");
    assert!(firsts[2].starts_with("error 429: "), "{reply}");
    assert_throttled(&sign_in(addr, client, "alice", "alice-secret"), 20);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_accounts_per_address_count_both_routes() {
    let dir = temp_dir("throttle-signups");
    let server = server(&dir, &["--signups-per-address", "2/1h"]);
    let addr = server.addr;
    let client = "192.0.2.30";
    // A refused signup does not count.
    assert_eq!(sign_up(addr, client, "shorty", "short").status, 400);
    assert_eq!(sign_up(addr, client, "first", "first-secret").status, 201);
    let reply = from(
        addr,
        client,
        "POST",
        "/api/command",
        "signup second second-secret\nsignup third third-secret\n",
        "text/plain",
    )
    .text();
    assert!(reply.starts_with("ok signed up second\n"), "{reply}");
    assert!(
        reply.contains("\nerror 429: too many new accounts from this address"),
        "{reply}"
    );
    let r = sign_up(addr, client, "fourth", "fourth-secret");
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json()["error"], "throttled");
    // An hour's share: 30 minutes, give or take the time the test took.
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1700..=1800).contains(&wait), "{wait}");
    // Nothing was made: the same userids are free for another address.
    assert_eq!(
        sign_in(addr, "192.0.2.31", "third", "third-secret").status,
        403
    );
    assert_eq!(
        sign_up(addr, "192.0.2.31", "third", "third-secret").status,
        201
    );
    assert_eq!(
        sign_up(addr, "192.0.2.31", "fourth", "fourth-secret").status,
        201
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn password_work_beyond_the_workers_and_queue_is_refused_with_503() {
    let dir = temp_dir("throttle-busy");
    // One hash thread, no queue, and a hash that takes a while (16 MiB, 3 passes).
    let server = server(
        &dir,
        &[
            "--failures-per-address",
            "off",
            "--failures-per-user",
            "off",
            "--signups-per-address",
            "off",
            "--hash-workers",
            "1",
            "--hash-queue",
            "0",
            "--argon2-memory",
            "16384",
            "--argon2-iterations",
            "3",
        ],
    );
    let addr = server.addr;
    let n = 8;
    let start = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let start = Arc::clone(&start);
            std::thread::spawn(move || {
                start.wait();
                sign_up(
                    addr,
                    &format!("192.0.2.{}", 100 + i),
                    &format!("user{i}"),
                    "long-enough",
                )
            })
        })
        .collect();
    let answers: Vec<Response> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let made: Vec<usize> = (0..n).filter(|&i| answers[i].status == 201).collect();
    let busy: Vec<usize> = (0..n).filter(|&i| answers[i].status == 503).collect();
    assert_eq!(made.len() + busy.len(), n, "{answers:?}");
    assert!(
        !made.is_empty() && !busy.is_empty(),
        "made {made:?} busy {busy:?}"
    );
    for &i in &busy {
        let r = &answers[i];
        assert_eq!(r.json()["error"], "busy");
        assert_eq!(r.header("retry-after"), Some("1"));
        // Nothing was made: the userid is still free.
        let again = sign_up(addr, "192.0.2.250", &format!("user{i}"), "long-enough");
        assert_eq!(again.status, 201, "{}", again.text());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A request on a socket bound to the loopback address `local` (no proxy).
pub(crate) fn bound_from(addr: SocketAddr, local: &str, req: &str) -> Response {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let local: std::net::IpAddr = local.parse().unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(local, 0)).unwrap();
        socket.connect(addr).await.unwrap()
    });
    let mut stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream.write_all(req.as_bytes()).unwrap();
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).unwrap();
    // A JSON answer with a Content-Length (never chunked): the head, then the body.
    let text = String::from_utf8(buf).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a whole response");
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split_whitespace().nth(1).unwrap();
    Response {
        status: status.parse().unwrap(),
        headers: lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
            .collect(),
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn without_the_proxy_the_socket_address_counts_and_x_forwarded_for_is_ignored() {
    let dir = temp_dir("throttle-sockets");
    let server = Server::start(&dir.join("db"), &["--failures-per-address", "2/60s"]);
    let addr = server.addr;
    crate::common::signup(addr, "alice", "alice-secret");
    let attempt = |password: &str, forwarded: &str| {
        let body = json!({"userid": "alice", "password": password}).to_string();
        format!(
            "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nX-Forwarded-For: {forwarded}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    // Each failure claims another address; the server counts its socket's, 127.0.0.2.
    for (i, forwarded) in ["192.0.2.1", "192.0.2.2"].iter().enumerate() {
        let r = bound_from(addr, "127.0.0.2", &attempt("wrong-password", forwarded));
        assert_eq!(r.status, 403, "failure {i}: {}", r.text());
    }
    let r = bound_from(addr, "127.0.0.2", &attempt("alice-secret", "192.0.2.3"));
    assert_throttled(&r, 30);
    // Another loopback address is not throttled.
    let r = bound_from(addr, "127.0.0.3", &attempt("alice-secret", "192.0.2.1"));
    assert_eq!(r.status, 201, "{}", r.text());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ipv6_client_counts_by_its_64_network() {
    let dir = temp_dir("throttle-ipv6");
    let server = server(&dir, &["--failures-per-address", "2/60s"]);
    let addr = server.addr;
    assert_eq!(
        sign_up(addr, "192.0.2.9", "alice", "alice-secret").status,
        201
    );
    // Two failures from two addresses of one /64, then the whole /64 waits.
    assert_eq!(
        sign_in(addr, "2001:db8:0:7::1", "alice", "wrong-password").status,
        403
    );
    assert_eq!(
        sign_in(addr, "2001:db8:0:7::2", "alice", "wrong-password").status,
        403
    );
    assert_throttled(
        &sign_in(addr, "2001:db8:0:7::ffff", "alice", "alice-secret"),
        30,
    );
    // The next /64 is another client.
    assert_eq!(
        sign_in(addr, "2001:db8:0:8::1", "alice", "alice-secret").status,
        201
    );
    let _ = std::fs::remove_dir_all(&dir);
}
