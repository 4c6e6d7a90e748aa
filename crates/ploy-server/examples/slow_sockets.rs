//! How long slow sockets stay open against `ployd serve`'s connection limits: a real server
//! (in this process, on a loopback port, with a real database file) and 900 sockets from
//! another thread, a third silent, a third stopping halfway through their headers, a third
//! halfway through a body; and one more for every nine that sends a whole request, reads
//! the answer and then keeps the connection idle. Prints when each kind was closed (fewest, median, most seconds
//! after it opened), and a normal request's latency while they are open.
//!
//! ```sh
//! cargo run --release -p ploy-server --example slow_sockets                      # 10/30/60 s
//! cargo run --release -p ploy-server --example slow_sockets -- 1s 2s 5s 900      # small
//! ```
//!
//! The arguments, all optional, are the header, body and idle timeouts and the number of
//! sockets.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ploy_server::game::Registry;
use ploy_server::http::{ServeOptions, serve};
use ploy_server::service::{Config, Service, SystemClock};
use ploy_server::store::Store;

fn time_arg(arg: Option<String>, default: u64) -> Duration {
    match arg {
        None => Duration::from_secs(default),
        Some(a) => {
            let a = a.trim();
            if let Some(ms) = a.strip_suffix("ms") {
                Duration::from_millis(ms.parse().expect("a time such as 500ms"))
            } else {
                Duration::from_secs_f64(a.trim_end_matches('s').parse().expect("a time such as 2s"))
            }
        }
    }
}

/// One slow socket: its kind, the socket, when it opened, when the server closed it and
/// the first bytes the server sent.
struct Slow {
    kind: usize,
    stream: TcpStream,
    opened: Instant,
    closed: Option<Duration>,
    answer: Vec<u8>,
}

const KINDS: [&str; 4] = [
    "silent",
    "half a header",
    "half a body",
    "kept alive, idle after one request",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let header = time_arg(args.next(), 10);
    let body = time_arg(args.next(), 30);
    let idle = time_arg(args.next(), 60);
    let count: usize = args.next().map_or(Ok(900), |n| n.parse())?;

    let dir = std::env::temp_dir().join(format!("ployd-slow-sockets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let mut config = Config::default();
    config.hash.memory_kib = 256;
    config.hash.iterations = 1;
    let service = Arc::new(Service::new(
        Store::open(dir.join("slow.db"))?,
        Registry::standard(),
        Arc::new(SystemClock),
        config,
    ));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let addr = listener.local_addr()?;
    let mut options = ServeOptions::default();
    options.header_timeout = header;
    options.body_timeout = body;
    options.idle_timeout = idle;
    runtime.spawn(async move {
        let _ = serve(service, listener, options).await;
    });
    println!(
        "ployd on {addr}: --header-timeout {header:?} --body-timeout {body:?} --idle-timeout {idle:?}; {count} slow sockets"
    );
    let quiet = latencies(addr, 20);

    let json_body = r#"{"userid":"slowpoke","password":"slow-pass-1"}"#;
    let mut sockets = Vec::with_capacity(count);
    let opening = Instant::now();
    let mut last_watch = Instant::now();
    let kept_alive = count / 9;
    for i in 0..count + kept_alive {
        let kind = if i < count { i % 3 } else { 3 };
        let mut stream = TcpStream::connect(addr)?;
        match kind {
            0 => {}
            1 => stream.write_all(b"GET /api/types HTTP/1.1\r\nHost: x\r\nAccept: */")?,
            3 => stream.write_all(b"GET /api/types HTTP/1.1\r\nHost: x\r\n\r\n")?,
            _ => {
                let head = format!(
                    "POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                    json_body.len()
                );
                stream.write_all(head.as_bytes())?;
                stream.write_all(&json_body.as_bytes()[..json_body.len() / 2])?;
            }
        }
        stream.set_nonblocking(true)?;
        sockets.push(Slow {
            kind,
            stream,
            opened: Instant::now(),
            closed: None,
            answer: Vec::new(),
        });
        // Closes while the others are still being opened count from their own start.
        if last_watch.elapsed() > Duration::from_millis(20) {
            watch(&mut sockets);
            last_watch = Instant::now();
        }
    }
    println!(
        "{count} slow sockets and {kept_alive} kept-alive ones open in {:.2} s",
        opening.elapsed().as_secs_f64()
    );
    let busy = latencies(addr, 20);

    // Watch them until every one is closed or twice the longest limit has passed.
    let give_up = Instant::now() + 2 * header.max(body).max(idle) + Duration::from_secs(5);
    while Instant::now() < give_up && sockets.iter().any(|s| s.closed.is_none()) {
        watch(&mut sockets);
        std::thread::sleep(Duration::from_millis(20));
    }

    println!("| sockets | closed | fewest s | median s | most s | still open | first answer |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (k, name) in KINDS.iter().enumerate() {
        let of_kind: Vec<&Slow> = sockets.iter().filter(|s| s.kind == k).collect();
        let mut times: Vec<f64> = of_kind
            .iter()
            .filter_map(|s| s.closed.map(|d| d.as_secs_f64()))
            .collect();
        times.sort_by(f64::total_cmp);
        let open = of_kind.len() - times.len();
        let status = of_kind.iter().find(|s| !s.answer.is_empty()).map_or_else(
            || "none".to_owned(),
            |s| {
                String::from_utf8_lossy(&s.answer)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_owned()
            },
        );
        let at = |q: f64| -> String {
            if times.is_empty() {
                "-".to_owned()
            } else {
                let i = ((times.len() - 1) as f64 * q).round() as usize;
                format!("{:.2}", times[i])
            }
        };
        println!(
            "| {name} ({}) | {} | {} | {} | {} | {open} | {status} |",
            of_kind.len(),
            times.len(),
            at(0.0),
            at(0.5),
            at(1.0)
        );
    }
    println!(
        "GET /api/types on a new connection: quiet p50 {:.2} ms, p95 {:.2} ms; with the slow sockets open p50 {:.2} ms, p95 {:.2} ms",
        quiet.0, quiet.1, busy.0, busy.1
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// Notes the sockets the server has closed since the last look (and its first bytes).
fn watch(sockets: &mut [Slow]) {
    let mut buf = [0u8; 512];
    for s in sockets.iter_mut().filter(|s| s.closed.is_none()) {
        loop {
            match s.stream.read(&mut buf) {
                Ok(0) => {
                    s.closed = Some(s.opened.elapsed());
                    break;
                }
                Ok(n) => {
                    if s.answer.len() < 64 {
                        s.answer.extend_from_slice(&buf[..n.min(64)]);
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => {
                    s.closed = Some(s.opened.elapsed());
                    break;
                }
            }
        }
    }
}

/// `n` requests `GET /api/types`, each on a new connection: p50 and p95 latency, ms.
fn latencies(addr: SocketAddr, n: usize) -> (f64, f64) {
    let mut ms: Vec<f64> = (0..n)
        .map(|_| {
            let start = Instant::now();
            let mut s = TcpStream::connect(addr).expect("connect");
            s.write_all(b"GET /api/types HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .expect("write");
            let mut out = Vec::new();
            s.read_to_end(&mut out).expect("read");
            assert!(
                out.starts_with(b"HTTP/1.1 200"),
                "a normal request is answered"
            );
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}
