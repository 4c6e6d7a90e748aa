//! Measures what the password throttles cost a failed sign-in on SQLite (kept in memory)
//! and on PostgreSQL (kept in the database, for every process on it): a real `ployd serve`
//! per case, sequential wrong-password sign-ins on new connections, with the throttles off,
//! on (every failure counted, the limit never reached), and an address locked (every
//! attempt refused with 429 before any password is checked); then the store's own calls on
//! PostgreSQL, timed in this process.
//!
//! ```sh
//! cargo build -p ploy-server --bin ployd --example throttle_cost
//! target/debug/examples/throttle_cost --pg postgres://USER@127.0.0.1:PORT/EMPTY_DB \
//!     [--ployd target/debug/ployd] [--n 300] [--argon2-memory 256] [--argon2-iterations 1]
//! ```
//!
//! The PostgreSQL database should be empty (a fresh `createdb`); a SQLite file is made in
//! the system's temporary folder. Clients bind to 127.0.0.x addresses, one per case.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ploy_server::store::{DbAddress, Gcra, LimitKey, LimitKind, Store};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(ployd: &str, db: &str, cost: (&str, &str), limits: &[&str]) -> Server {
    let mut child = Command::new(ployd)
        .args(["serve", "--listen", "127.0.0.1:0", "--db", db])
        .args(["--argon2-memory", cost.0, "--argon2-iterations", cost.1])
        .args(["--hash-workers", "2"])
        .args(["--signups-per-address", "off"])
        .args(limits)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ployd starts");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("ployd says where it listens").unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("unexpected first line: {first}"));
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    std::thread::spawn(move || for _ in lines.map_while(Result::ok) {});
    Server { child, addr }
}

/// A JSON POST from a socket bound to `local`: the status.
fn post(addr: SocketAddr, local: IpAddr, path: &str, body: &str) -> u16 {
    let mut s = connect_from(addr, local);
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf);
    text.split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or(0)
}

/// A TCP connection to `addr` from the loopback address `local`, through tokio's socket
/// (std cannot bind before connecting).
fn connect_from(addr: SocketAddr, local: IpAddr) -> std::net::TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(local, 0)).unwrap();
        socket.connect(addr).await.unwrap()
    });
    let stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// `n` wrong-password sign-ins from `local`: the statuses seen and the latencies.
fn flood(addr: SocketAddr, local: IpAddr, n: usize) -> (Vec<(u16, usize)>, Vec<Duration>) {
    let body = r#"{"userid":"alice","password":"wrong-password"}"#;
    let mut times = Vec::with_capacity(n);
    let mut statuses: Vec<(u16, usize)> = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        let status = post(addr, local, "/api/sessions", body);
        times.push(t.elapsed());
        match statuses.iter_mut().find(|(s, _)| *s == status) {
            Some((_, c)) => *c += 1,
            None => statuses.push((status, 1)),
        }
    }
    times.sort();
    (statuses, times)
}

fn main() {
    let pg = arg("--pg").expect("--pg postgres://USER@HOST:PORT/EMPTY_DB is required");
    let ployd = arg("--ployd").unwrap_or_else(|| "target/debug/ployd".to_owned());
    let n: usize = arg("--n").map_or(300, |v| v.parse().expect("--n takes a number"));
    let memory = arg("--argon2-memory").unwrap_or_else(|| "256".to_owned());
    let passes = arg("--argon2-iterations").unwrap_or_else(|| "1".to_owned());
    let file: PathBuf =
        std::env::temp_dir().join(format!("throttle-cost-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let sqlite = file.to_string_lossy().into_owned();
    let cases: [(&str, &[&str]); 3] = [
        (
            "throttles off",
            &[
                "--failures-per-address",
                "off",
                "--failures-per-user",
                "off",
            ],
        ),
        (
            "counted, never reached",
            &[
                "--failures-per-address",
                "1000000/1h",
                "--failures-per-user",
                "1000000/1h",
            ],
        ),
        (
            "address locked (429)",
            &[
                "--failures-per-address",
                "1/1h",
                "--failures-per-user",
                "off",
            ],
        ),
    ];
    println!(
        "{n} sequential wrong-password sign-ins per case, argon2id {memory} KiB x {passes}, new connection each"
    );
    println!("| backend | throttles | answers | p50 ms | p95 ms | mean ms |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut host = 20u8;
    for (backend, db) in [("SQLite", sqlite.as_str()), ("PostgreSQL", pg.as_str())] {
        for (case, limits) in cases {
            host += 1;
            let local = IpAddr::from([127, 0, 0, host]);
            let server = start(&ployd, db, (&memory, &passes), limits);
            // alice exists (201 the first time, 409 after).
            let made = post(
                server.addr,
                IpAddr::from([127, 0, 0, 1]),
                "/api/users",
                r#"{"userid":"alice","password":"alice-secret"}"#,
            );
            assert!(made == 201 || made == 409, "sign-up: {made}");
            // Warm up (and, for the locked case, lock the address).
            let _ = flood(server.addr, local, 5);
            let (statuses, times) = flood(server.addr, local, n);
            let mean = times.iter().sum::<Duration>() / u32::try_from(times.len()).unwrap();
            let answers: Vec<String> = statuses.iter().map(|(s, c)| format!("{c} x {s}")).collect();
            println!(
                "| {backend} | {case} | {} | {} | {} | {} |",
                answers.join(", "),
                ms(percentile(&times, 0.5)),
                ms(percentile(&times, 0.95)),
                ms(mean)
            );
        }
    }
    let _ = std::fs::remove_file(&file);
    // The store's calls on PostgreSQL, in this process.
    let address: DbAddress = pg.parse().expect("a PostgreSQL address");
    let store = Store::connect(&address, None).expect("the store opens");
    let rate = Gcra::new(1_000_000.try_into().unwrap(), Duration::from_secs(3600));
    let time = |what: &str, f: &dyn Fn(usize)| {
        let mut times: Vec<Duration> = (0..n)
            .map(|i| {
                let t = Instant::now();
                f(i);
                t.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "store on PostgreSQL, {what}: p50 {} ms, p95 {} ms",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.95))
        );
    };
    time("limit_waits (2 keys)", &|i| {
        let a = format!("192.0.2.{}", i % 200);
        let u = format!("{a} alice");
        let keys = [
            LimitKey {
                kind: LimitKind::FailuresPerAddress,
                key: &a,
            },
            LimitKey {
                kind: LimitKind::FailuresPerUser,
                key: &u,
            },
        ];
        store.limit_waits(&keys).unwrap();
    });
    time("limit_failures (2 keys)", &|i| {
        let a = format!("192.0.2.{}", i % 200);
        let u = format!("{a} alice");
        let keys = [
            (
                LimitKey {
                    kind: LimitKind::FailuresPerAddress,
                    key: &a,
                },
                rate,
            ),
            (
                LimitKey {
                    kind: LimitKind::FailuresPerUser,
                    key: &u,
                },
                rate,
            ),
        ];
        store.limit_failures(&keys).unwrap();
    });
}
