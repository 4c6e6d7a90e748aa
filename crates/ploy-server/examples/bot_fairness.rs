//! Measures the fairness of `ployd serve`'s bot queue: how long another user waits for his
//! first bot reply while one user has as many games waiting for the bot as allowed (and
//! more refused), against the bot's time alone.
//!
//! A real server (the library's `http::serve`, as `ployd serve` runs it) on a loopback port
//! with a real SQLite file in a temporary directory; clients over plain TCP.
//!
//! ```sh
//! cargo run --release -p ploy-server --example bot_fairness -- [BOT_MS] [THREADS] [LIMIT] [TRIES]
//! ```
//!
//! Defaults: a bot move of 1000 ms (no node or depth limit, so each takes its whole time),
//! bot threads the number of cores, 8 games per user, 40 tries by the busy user.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ploy_server::game::{Budget, Registry};
use ploy_server::http::ServeOptions;
use ploy_server::service::{Config, Service, SystemClock};
use ploy_server::store::Store;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

/// Rounds of the busy measurement.
const ROUNDS: usize = 3;

/// Sends one request and reads the answer (status, JSON body).
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), Error> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(addr)?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let json = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| serde_json::from_str(b).unwrap_or(Value::Null))
        .unwrap_or(Value::Null);
    Ok((status, json))
}

/// A Ploy game where the bot moves first; its number, or `None` when refused (the status).
fn bot_first(addr: SocketAddr, user: &str) -> Result<Result<i64, u16>, Error> {
    let (status, v) = request(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "ploy", "players": ["bot", user],
                     "userid": user, "password": "password-1"})),
    )?;
    Ok(match v["id"].as_i64() {
        Some(id) if status == 201 => Ok(id),
        _ => Err(status),
    })
}

/// How long after `start` the bot's first move on game `id` shows.
fn first_reply(addr: SocketAddr, id: i64, start: Instant) -> Result<Duration, Error> {
    loop {
        let (_, v) = request(addr, "GET", &format!("/api/games/{id}"), None)?;
        if v["moves_played"].as_u64().unwrap_or(0) > 0 {
            return Ok(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let bot_ms = arg(0, 1000);
    let threads = usize::try_from(arg(1, cores as u64))?;
    let limit = usize::try_from(arg(2, 8))?;
    let tries = arg(3, 40);

    let dir = std::env::temp_dir().join(format!("ployd-bot-fairness-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let mut config = Config::default();
    config.hash.memory_kib = 256;
    config.hash.iterations = 1;
    config.bot_budget = Budget {
        time: Some(Duration::from_millis(bot_ms)),
        nodes: None,
        depth: None,
    };
    config.bot_games_per_user = limit;
    let mut service = Arc::new(Service::new(
        Store::open(dir.join("fair.db"))?,
        Registry::standard(),
        Arc::new(SystemClock),
        config,
    ));
    service.start_bot_workers(threads)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))?;
    let addr = listener.local_addr()?;
    let server = Arc::clone(&service);
    runtime.spawn(async move {
        let _ = ploy_server::http::serve(server, listener, ServeOptions::default()).await;
    });
    for user in ["alice", "bob", "carol"] {
        request(
            addr,
            "POST",
            "/api/users",
            Some(&json!({"userid": user, "password": "password-1"})),
        )?;
    }
    println!("bot move {bot_ms} ms, {threads} bot threads, at most {limit} games waiting per user");

    // The bot's time alone: carol's first reply on an idle server, the median of three.
    let mut alone = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let id =
            bot_first(addr, "carol")?.map_err(|s| format!("carol's challenge refused: {s}"))?;
        alone.push(first_reply(addr, id, start)?);
    }
    alone.sort();
    let alone = alone[1];
    println!(
        "alone: carol's first bot reply after {} ms (median of 3)",
        alone.as_millis()
    );

    let mut worst = Duration::ZERO;
    for round in 1..=ROUNDS {
        // Alice tries `tries` games with the bot to move; the limit admits `limit`.
        let mut admitted = Vec::new();
        let mut refused = 0;
        for _ in 0..tries {
            match bot_first(addr, "alice")? {
                Ok(id) => admitted.push(id),
                Err(429) => refused += 1,
                Err(s) => return Err(format!("alice's challenge: status {s}").into()),
            }
        }
        // Bob's first reply now.
        let start = Instant::now();
        let id = bot_first(addr, "bob")?.map_err(|s| format!("bob's challenge refused: {s}"))?;
        let busy = first_reply(addr, id, start)?;
        worst = worst.max(busy);
        let served = admitted
            .iter()
            .map(|&g| request(addr, "GET", &format!("/api/games/{g}"), None))
            .filter(|r| {
                r.as_ref()
                    .is_ok_and(|(_, v)| v["moves_played"].as_u64().unwrap_or(0) > 0)
            })
            .count();
        println!(
            "round {round}: alice {} games waiting, {refused} refused (429 too_many_bot_games); \
             bob's first bot reply after {} ms = {:.2}x the bot alone, {:.2}x the bot's budget \
             ({served} of alice's games served by then)",
            admitted.len(),
            busy.as_millis(),
            busy.as_secs_f64() / alone.as_secs_f64(),
            busy.as_secs_f64() / (bot_ms as f64 / 1000.0),
        );
        // Every admitted game is played before the next round.
        for &g in &admitted {
            first_reply(addr, g, Instant::now())?;
        }
        println!(
            "round {round}: all of alice's {} games served {} ms after bob's challenge",
            admitted.len(),
            start.elapsed().as_millis()
        );
    }
    println!(
        "worst: bob's first bot reply after {} ms = {:.2}x the bot alone",
        worst.as_millis(),
        worst.as_secs_f64() / alone.as_secs_f64()
    );
    drop(runtime);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
