//! Measures what a flood of password checks costs a real `ployd serve`: the process's peak
//! memory under many concurrent wrong-password sign-ins, and the latency of a
//! cookie-authenticated request during a sustained flood.
//!
//! ```sh
//! cargo build --release -p ploy-server --bin ployd --example password_flood
//! target/release/examples/password_flood [--ployd target/release/ployd] [--hash-workers 2]
//!     [--burst 300] [--flood 32] [--seconds 10]
//! ```
//!
//! The server runs with the default argon2id cost (19 MiB, 2 passes) and the throttles off,
//! so that the bound of the hash workers is what is measured. Linux only (it reads
//! `/proc/PID/status`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn number(name: &str, default: usize) -> usize {
    arg(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} takes a number, not {v}"))
    })
}

/// One request on a new connection; the status and the time it took.
fn request(addr: SocketAddr, req: &str) -> std::io::Result<(u16, Duration)> {
    let started = Instant::now();
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    s.write_all(req.as_bytes())?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((status, started.elapsed()))
}

fn post(addr: SocketAddr, path: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// `VmHWM`, `VmRSS` (KiB) and `Threads` of a process.
fn status(pid: u32) -> (u64, u64, u64) {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"), field("Threads:"))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let ployd = arg("--ployd").map_or_else(
        || {
            let me = std::env::current_exe().expect("the example's path");
            me.parent()
                .and_then(|d| d.parent())
                .expect("target/PROFILE/examples")
                .join("ployd")
        },
        PathBuf::from,
    );
    let workers = number("--hash-workers", 2);
    let burst = number("--burst", 300);
    let flood = number("--flood", 32);
    let seconds = number("--seconds", 10);
    let dir = std::env::temp_dir().join(format!("ployd-flood-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");

    let mut child = Command::new(&ployd)
        .args(["serve", "--listen", "127.0.0.1:0", "--db"])
        .arg(dir.join("flood.db"))
        .args(["--hash-workers", &workers.to_string()])
        .args([
            "--failures-per-address",
            "off",
            "--failures-per-user",
            "off",
            "--signups-per-address",
            "off",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", ployd.display()));
    let pid = child.id();
    let mut stderr = child.stderr.take().expect("stderr");
    let server = Server(child);
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while stderr.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let first = String::from_utf8_lossy(&first).into_owned();
    let addr: SocketAddr = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .and_then(|w| w.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line: {first}"));
    println!(
        "ployd {} at {addr}, --hash-workers {workers}",
        ployd.display()
    );

    let account = r#"{"userid":"alice","password":"the-right-password"}"#;
    let (s, _) = request(addr, &post(addr, "/api/users", account)).expect("signup");
    assert_eq!(s, 201, "signup");
    // The cookie of a session.
    let mut c = TcpStream::connect(addr).expect("connect");
    c.write_all(post(addr, "/api/sessions", account).as_bytes())
        .expect("sign in");
    let mut answer = String::new();
    c.read_to_string(&mut answer).expect("sign in");
    let cookie = answer
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .and_then(|v| v.split(';').next())
        .expect("a cookie")
        .to_owned();
    let (hwm, rss, threads) = status(pid);
    println!("after start: VmHWM {hwm} KiB, VmRSS {rss} KiB, {threads} threads");

    // 1. `burst` wrong-password sign-ins at once.
    let _ = std::fs::write(format!("/proc/{pid}/clear_refs"), "5"); // resets VmHWM
    let wrong = post(
        addr,
        "/api/sessions",
        r#"{"userid":"alice","password":"a-wrong-password"}"#,
    );
    let max_threads = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (max_threads, done) = (Arc::clone(&max_threads), Arc::clone(&done));
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let (_, _, t) = status(pid);
                max_threads.fetch_max(t as usize, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let gate = Arc::new(Barrier::new(burst));
    let started = Instant::now();
    let handles: Vec<_> = (0..burst)
        .map(|_| {
            let (gate, wrong) = (Arc::clone(&gate), wrong.clone());
            std::thread::spawn(move || {
                gate.wait();
                request(addr, &wrong)
            })
        })
        .collect();
    let mut counts = std::collections::BTreeMap::new();
    for h in handles {
        let status = h.join().expect("a client").map_or(0, |(s, _)| s);
        *counts.entry(status).or_insert(0) += 1;
    }
    let took = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    let (hwm, rss, _) = status(pid);
    println!(
        "{burst} concurrent wrong-password sign-ins: answers {counts:?} in {}; peak memory (VmHWM) {hwm} KiB = {:.1} MiB; most threads {}; VmRSS after {rss} KiB",
        ms(took),
        hwm as f64 / 1024.0,
        max_threads.load(Ordering::Relaxed)
    );
    std::thread::sleep(Duration::from_secs(2));
    let (_, rss, threads) = status(pid);
    println!("2 s later: VmRSS {rss} KiB, {threads} threads");

    // 2. A cookie GET, quiet, then during a flood of `flood` connections.
    let get = format!(
        "GET /api/inbox HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\r\n"
    );
    let sample = |n: usize| {
        let mut times: Vec<Duration> = (0..n)
            .map(|_| {
                let (s, t) = request(addr, &get).expect("the cookie GET");
                assert_eq!(s, 200, "the cookie GET");
                std::thread::sleep(Duration::from_millis(20));
                t
            })
            .collect();
        times.sort();
        times
    };
    let quiet = sample(100);
    println!(
        "cookie GET /api/inbox, quiet: p50 {}, p95 {}, max {}",
        ms(percentile(&quiet, 0.5)),
        ms(percentile(&quiet, 0.95)),
        ms(*quiet.last().unwrap())
    );
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let busy = Arc::new(AtomicUsize::new(0));
    let flooders: Vec<_> = (0..flood)
        .map(|_| {
            let (stop, answered, busy, wrong) = (
                Arc::clone(&stop),
                Arc::clone(&answered),
                Arc::clone(&busy),
                wrong.clone(),
            );
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match request(addr, &wrong) {
                        Ok((503, _)) => {
                            busy.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(_) => {
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(_) => {}
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let n = (seconds * 1000 / 25).max(20);
    let loaded = sample(n);
    stop.store(true, Ordering::Relaxed);
    for f in flooders {
        let _ = f.join();
    }
    println!(
        "cookie GET /api/inbox during a {flood}-connection password flood ({n} GETs): p50 {}, p95 {}, max {}; the flood got {} answers (403) and {} 503 busy",
        ms(percentile(&loaded, 0.5)),
        ms(percentile(&loaded, 0.95)),
        ms(*loaded.last().unwrap()),
        answered.load(Ordering::Relaxed),
        busy.load(Ordering::Relaxed)
    );
    let (hwm, rss, threads) = status(pid);
    println!("after the flood: VmHWM {hwm} KiB, VmRSS {rss} KiB, {threads} threads");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
