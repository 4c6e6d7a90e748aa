//! The site-wide throttles of several `ployd serve` processes on one PostgreSQL database:
//! failures counted by one process lock the key on another, the wait doubles across them,
//! new accounts per address are counted for the whole site, another address is not
//! affected, a database that cannot answer lets no guess through, and stale rows are
//! swept. Clients are told apart by the loopback address their socket is bound to
//! (127.0.0.x, no proxy). These tests run on the throwaway cluster whatever
//! `PLOYD_TEST_BACKEND` says (skipped with a notice without PostgreSQL, failed under
//! `CI=true`).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::time::Duration;

use ploy_server::store::{DbAddress, Gcra, LimitKind, Store};
use serde_json::json;

use crate::common::pg::{Cluster, cluster};
use crate::common::{FAST, Response, UNTHROTTLED, ployd};
use crate::throttle::bound_from;

/// A `ployd serve` on the database at `address`, on a free loopback port.
struct Serve {
    child: Child,
    addr: SocketAddr,
}

impl Serve {
    fn start(address: &str, limits: &[&str]) -> Serve {
        let mut child = ployd()
            .args(["serve", "--listen", "127.0.0.1:0", "--db", address])
            .args(FAST)
            .args(UNTHROTTLED)
            .args(limits)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ployd starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let first = lines
            .next()
            .expect("ployd says where it listens")
            .expect("stderr");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("unexpected first line: {first}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        // Keep reading stderr so that the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if std::env::var_os("PLOYD_TEST_LOG").is_some() {
                    eprintln!("[ployd] {line}");
                }
            }
        });
        Serve { child, addr }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh database of the cluster and two servers on it with the same `limits`.
fn two_servers(test: &str, limits: &[&str]) -> Option<(&'static Cluster, String, Serve, Serve)> {
    let c = cluster(test)?;
    let db = c.database(test);
    let address = c.address(&db);
    let a = Serve::start(&address, limits);
    let b = Serve::start(&address, limits);
    Some((c, db, a, b))
}

/// A JSON POST from a socket bound to the loopback address `local`.
fn post_from(server: &Serve, local: &str, path: &str, body: &serde_json::Value) -> Response {
    let body = body.to_string();
    let addr = server.addr;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    bound_from(addr, local, &req)
}

fn sign_in(server: &Serve, local: &str, userid: &str, password: &str) -> Response {
    post_from(
        server,
        local,
        "/api/sessions",
        &json!({"userid": userid, "password": password}),
    )
}

fn sign_up(server: &Serve, local: &str, userid: &str, password: &str) -> Response {
    post_from(
        server,
        local,
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

fn count(c: &Cluster, db: &str, query: &str) -> i64 {
    c.client(db)
        .query_one(query, &[])
        .unwrap_or_else(|e| panic!("{query}: {e}"))
        .get(0)
}

#[test]
fn failures_on_one_process_lock_the_address_on_another_and_the_wait_doubles_across_them() {
    let Some((_c, _db, a, b)) = two_servers(
        "shared_failures_per_address",
        &["--failures-per-address", "2/2s"],
    ) else {
        return;
    };
    assert_eq!(
        sign_up(&a, "127.0.0.9", "alice", "alice-secret").status,
        201
    );
    let attacker = "127.0.0.2";
    // One failure on each process: the limit of two, counted once for the site.
    assert_eq!(sign_in(&a, attacker, "alice", "wrong-one").status, 403);
    assert_eq!(sign_in(&b, attacker, "alice", "wrong-two").status, 403);
    // Both processes refuse the address for one failure's share of the period (2 s / 2),
    // the right password too.
    assert_throttled(&sign_in(&a, attacker, "alice", "alice-secret"), 1);
    assert_throttled(&sign_in(&b, attacker, "alice", "alice-secret"), 1);
    // Alice from another address, on either process, is not affected.
    assert_eq!(
        sign_in(&b, "127.0.0.3", "alice", "alice-secret").status,
        201
    );
    assert_eq!(
        sign_in(&a, "127.0.0.3", "alice", "alice-secret").status,
        201
    );
    std::thread::sleep(Duration::from_millis(1100));
    // One share came back; a failure on B uses it up, and A now locks for twice as long.
    assert_eq!(sign_in(&b, attacker, "alice", "wrong-three").status, 403);
    assert_throttled(&sign_in(&a, attacker, "alice", "wrong-four"), 2);
    assert_throttled(&sign_in(&b, attacker, "alice", "alice-secret"), 2);
    std::thread::sleep(Duration::from_millis(2100));
    // The failures go on, now on A: twice as long again, on B as well.
    let mut failures = 0;
    let refused = loop {
        let r = sign_in(&a, attacker, "alice", "wrong-again");
        if r.status != 403 {
            break r;
        }
        failures += 1;
        assert!(failures <= 2, "never throttled");
    };
    assert!((1..=2).contains(&failures), "{failures}");
    assert_throttled(&refused, 4);
    assert_throttled(&sign_in(&b, attacker, "alice", "alice-secret"), 4);
}

#[test]
fn failures_per_user_on_one_process_lock_that_userid_from_that_address_on_another() {
    let Some((_c, _db, a, b)) = two_servers(
        "shared_failures_per_user",
        &[
            "--failures-per-address",
            "off",
            "--failures-per-user",
            "2/60s",
        ],
    ) else {
        return;
    };
    assert_eq!(
        sign_up(&a, "127.0.0.9", "alice", "alice-secret").status,
        201
    );
    assert_eq!(sign_up(&b, "127.0.0.9", "bob", "bob-secret!").status, 201);
    let attacker = "127.0.0.4";
    // Two failures for ALICE (any case of letters), one on each process.
    assert_eq!(sign_in(&a, attacker, "alice", "wrong-one").status, 403);
    assert_eq!(sign_in(&b, attacker, "ALICE", "wrong-two").status, 403);
    // Then (that address, alice) waits 30 s on both processes.
    let r = sign_in(&b, attacker, "alice", "alice-secret");
    assert_throttled(&r, 30);
    assert!(r.text().contains("for this userid"), "{}", r.text());
    assert_throttled(&sign_in(&a, attacker, "Alice", "alice-secret"), 30);
    // The same address may still try bob; alice signs in from elsewhere.
    assert_eq!(sign_in(&a, attacker, "bob", "bob-secret!").status, 201);
    assert_eq!(
        sign_in(&b, "127.0.0.5", "alice", "alice-secret").status,
        201
    );
}

#[test]
fn new_accounts_per_address_are_counted_for_the_whole_site() {
    let Some((c, db, a, b)) = two_servers("shared_signups", &["--signups-per-address", "2/1h"])
    else {
        return;
    };
    let client = "127.0.0.6";
    assert_eq!(sign_up(&a, client, "first", "first-secret").status, 201);
    assert_eq!(sign_up(&b, client, "second", "second-secret").status, 201);
    // The third, on either process, waits for an hour's share (30 minutes).
    for server in [&a, &b] {
        let r = sign_up(server, client, "third", "third-secret");
        assert_eq!(r.status, 429, "{}", r.text());
        let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
        assert!((1700..=1800).contains(&wait), "{wait}");
    }
    // Nothing was made; another address makes it.
    assert_eq!(sign_in(&a, client, "third", "third-secret").status, 403);
    assert_eq!(
        sign_up(&b, "127.0.0.7", "third", "third-secret").status,
        201
    );
    // One row per address in the database.
    assert_eq!(
        count(
            c,
            &db,
            "SELECT count(*) FROM throttles WHERE kind = 'signups-per-address'"
        ),
        2
    );
}

#[test]
fn a_database_that_cannot_answer_lets_no_guess_through() {
    let Some((c, db, a, _b)) = two_servers(
        "shared_unavailable",
        &[
            "--failures-per-address",
            "3/60s",
            "--signups-per-address",
            "5/1h",
        ],
    ) else {
        return;
    };
    assert_eq!(
        sign_up(&a, "127.0.0.9", "alice", "alice-secret").status,
        201
    );
    // The throttles' table is away (as if the database failed those statements).
    c.sql(&db, "ALTER TABLE throttles RENAME TO throttles_away");
    let client = "127.0.0.8";
    for password in ["wrong-1", "wrong-2", "wrong-3", "wrong-4", "alice-secret"] {
        let r = sign_in(&a, client, "alice", password);
        assert_eq!(r.status, 503, "{}", r.text());
        assert_eq!(r.json()["error"], "busy");
        assert_eq!(r.header("retry-after"), Some("1"));
    }
    let r = sign_up(&a, client, "mallory", "mallory-secret");
    assert_eq!(r.status, 503, "{}", r.text());
    c.sql(&db, "ALTER TABLE throttles_away RENAME TO throttles");
    // Nothing was counted or made while it was away.
    assert_eq!(count(c, &db, "SELECT count(*) FROM throttles"), 1);
    assert_eq!(
        count(
            c,
            &db,
            "SELECT count(*) FROM users WHERE userid = 'mallory'"
        ),
        0
    );
    // Back: three failures are answered, then the lock.
    for password in ["wrong-1", "wrong-2", "wrong-3"] {
        assert_eq!(sign_in(&a, client, "alice", password).status, 403);
    }
    assert_throttled(&sign_in(&a, client, "alice", "alice-secret"), 20);
    assert_eq!(sign_up(&a, client, "mallory", "mallory-secret").status, 201);
}

#[test]
fn a_sweep_deletes_the_rows_that_remember_nothing() {
    let Some((c, db, a, b)) = two_servers("shared_sweep", &["--failures-per-address", "2/2s"])
    else {
        return;
    };
    assert_eq!(
        sign_up(&a, "127.0.0.9", "alice", "alice-secret").status,
        201
    );
    // 127.0.0.10 is locked (for a second) and then left alone.
    assert_eq!(sign_in(&a, "127.0.0.10", "alice", "wrong").status, 403);
    assert_eq!(sign_in(&b, "127.0.0.10", "alice", "wrong").status, 403);
    assert_throttled(&sign_in(&a, "127.0.0.10", "alice", "alice-secret"), 1);
    // Its limiter is full again two seconds after, and the lock a period after it ended.
    std::thread::sleep(Duration::from_millis(3200));
    // 127.0.0.11 is locked now; 127.0.0.12 failed once.
    assert_eq!(sign_in(&b, "127.0.0.11", "alice", "wrong").status, 403);
    assert_eq!(sign_in(&a, "127.0.0.11", "alice", "wrong").status, 403);
    assert_eq!(sign_in(&b, "127.0.0.12", "alice", "wrong").status, 403);
    let key_count = |key: &str| {
        count(
            c,
            &db,
            &format!("SELECT count(*) FROM throttles WHERE key = '{key}'"),
        )
    };
    assert_eq!(key_count("127.0.0.10"), 1);
    let address: DbAddress = c.address(&db).parse().unwrap();
    let store = Store::connect(&address, None).unwrap();
    let rate = Gcra::new(2.try_into().unwrap(), Duration::from_secs(2));
    assert_eq!(
        store
            .limit_sweep(LimitKind::FailuresPerAddress, rate)
            .unwrap(),
        1
    );
    assert_eq!(key_count("127.0.0.10"), 0);
    assert_eq!(key_count("127.0.0.11"), 1);
    assert_eq!(key_count("127.0.0.12"), 1);
    // 127.0.0.10 starts afresh: two failures before the lock, not a doubled wait.
    assert_eq!(sign_in(&b, "127.0.0.10", "alice", "wrong").status, 403);
    assert_eq!(sign_in(&a, "127.0.0.10", "alice", "wrong").status, 403);
    assert_throttled(&sign_in(&b, "127.0.0.10", "alice", "alice-secret"), 1);
}
