//! Test support: a real `ployd` process on a loopback port with a real database, a small
//! HTTP/1.1 client over `TcpStream` (raw bytes, so malformed requests can be sent too), and
//! a move chooser for Ploy games.
//!
//! The database is a SQLite file, or with `PLOYD_TEST_BACKEND=postgres` a database of a
//! throwaway PostgreSQL cluster ([`pg`]): tests name their database by a file path as
//! always, and pass it on through [`db_arg`] (to `--db`) or [`open_store`].
#![allow(dead_code)]

pub mod cluster;
pub mod pg;

use std::collections::HashMap;
use std::ffi::OsString;
use std::sync::{Mutex, OnceLock};

use ploy_server::store::{DbAddress, Store};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use ploy_core::{Game, Move};
use serde_json::Value;

/// Cheap password hashes and a small bot budget, so that tests run fast.
pub const FAST: &[&str] = &[
    "--argon2-memory",
    "256",
    "--argon2-iterations",
    "1",
    "--bot-nodes",
    "300",
    "--bot-time",
    "5s",
];

/// The throttles of `ployd serve` off: most tests sign up and sign in many times from the one
/// loopback address. The tests of the throttles set them again (the last flag counts).
pub const UNTHROTTLED: &[&str] = &[
    "--failures-per-address",
    "off",
    "--failures-per-user",
    "off",
    "--signups-per-address",
    "off",
];

/// Whether the suite runs on PostgreSQL (`PLOYD_TEST_BACKEND=postgres` and PostgreSQL
/// installed; without it, a notice, or a failure under `CI=true`).
pub fn on_postgres() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("PLOYD_TEST_BACKEND").as_deref() == Ok("postgres")
            && pg::cluster("PLOYD_TEST_BACKEND=postgres").is_some()
    })
}

/// The `--db` argument for the database that `path` names: the file itself on SQLite; on
/// PostgreSQL ([`on_postgres`]) the address of a fresh database of the shared cluster,
/// created on the first use of `path` and the same for it afterwards.
pub fn db_arg(path: &Path) -> OsString {
    if !on_postgres() {
        return path.as_os_str().to_owned();
    }
    static NAMES: OnceLock<Mutex<HashMap<PathBuf, String>>> = OnceLock::new();
    let cluster = pg::cluster("db_arg").expect("on_postgres has started it");
    let mut names = NAMES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let db = names.entry(path.to_owned()).or_insert_with(|| {
        let name = path
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        cluster.database(&name)
    });
    OsString::from(cluster.address(db))
}

/// The PostgreSQL database that `path` names (`None` on SQLite).
fn pg_database(path: &Path) -> Option<String> {
    let arg = db_arg(path);
    let arg = arg.to_str()?;
    arg.starts_with("postgres://")
        .then(|| arg.rsplit('/').next().unwrap_or_default().to_owned())
}

/// Runs `sql` (one statement, in words both databases read) on the database `path` names,
/// outside the server, as an administrator would: the rows changed, or the refusal.
pub fn sql(path: &Path, sql: &str) -> Result<u64, String> {
    match pg_database(path) {
        Some(db) => pg::cluster("sql")
            .expect("started")
            .client(&db)
            .execute(sql, &[])
            .map_err(|e| e.to_string()),
        None => {
            let conn = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
            conn.busy_timeout(Duration::from_secs(5))
                .map_err(|e| e.to_string())?;
            conn.execute(sql, [])
                .map(|n| n as u64)
                .map_err(|e| e.to_string())
        }
    }
}

/// The one integer that `query` answers on the database `path` names.
pub fn sql_i64(path: &Path, query: &str) -> i64 {
    match pg_database(path) {
        Some(db) => pg::cluster("sql_i64")
            .expect("started")
            .client(&db)
            .query_one(query, &[])
            .unwrap_or_else(|e| panic!("{query}: {e}"))
            .get(0),
        None => rusqlite::Connection::open(path)
            .and_then(|c| c.query_row(query, [], |r| r.get(0)))
            .unwrap_or_else(|e| panic!("{query}: {e}")),
    }
}

/// The store of the database `path` names (see [`db_arg`]), opened in the test process.
pub fn open_store(path: &Path) -> Store {
    let address = DbAddress::from_os(&db_arg(path)).expect("a database address");
    Store::connect(&address, None).expect("the store opens")
}

/// Whether a test that works on a SQLite file itself (its pages, its copies, SQL in
/// SQLite's words) runs: not on PostgreSQL, where it prints a notice.
pub fn sqlite_only(test: &str) -> bool {
    if on_postgres() {
        eprintln!("{test}: skipped on PostgreSQL: it works on a SQLite file itself");
        return false;
    }
    true
}

/// A fresh directory under the target directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ployd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The `ployd` binary.
pub fn ployd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ployd"))
}

/// A running `ployd cmd`.
pub struct Cmd {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Cmd {
    pub fn start(db: &Path, extra: &[&str]) -> Cmd {
        let mut child = ployd()
            .arg("cmd")
            .arg("--db")
            .arg(db_arg(db))
            .args(FAST)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ployd cmd starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Cmd {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command; returns the reply's lines (without the closing `.`).
    pub fn send(&mut self, line: &str) -> Vec<String> {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut out = Vec::new();
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).unwrap() > 0,
                "ployd cmd ended"
            );
            let l = l.trim_end_matches('\n');
            if l == "." {
                return out;
            }
            out.push(l.strip_prefix('.').unwrap_or(l).to_owned());
        }
    }

    pub fn first(&mut self, line: &str) -> String {
        self.send(line).swap_remove(0)
    }
}

impl Drop for Cmd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `ployd serve`.
pub struct Server {
    child: Option<Child>,
    pub addr: SocketAddr,
    pub db: PathBuf,
    extra: Vec<String>,
}

impl Server {
    /// Starts a server on a free loopback port.
    pub fn start(db: &Path, extra: &[&str]) -> Server {
        let mut s = Server {
            child: None,
            addr: "127.0.0.1:0".parse().unwrap(),
            db: db.to_owned(),
            extra: extra.iter().map(|s| (*s).to_owned()).collect(),
        };
        s.launch();
        s
    }

    fn launch(&mut self) {
        let mut child = ployd()
            .arg("serve")
            .arg("--db")
            .arg(db_arg(&self.db))
            .arg("--listen")
            .arg(self.addr.to_string())
            .args(FAST)
            .args(UNTHROTTLED)
            .args(&self.extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ployd starts");
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let first = lines
            .next()
            .expect("ployd says where it listens")
            .expect("stderr");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("unexpected first line: {first}"));
        self.addr = url
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
        self.child = Some(child);
    }

    /// Kills the process with SIGKILL (no chance to clean up).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Sends SIGTERM (through the `kill` program) and waits up to `limit` for the process
    /// to end; returns how long it took, or `None` if it still runs.
    pub fn terminate(&mut self, limit: Duration) -> Option<Duration> {
        let child = self.child.as_mut()?;
        let start = std::time::Instant::now();
        let sent = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -TERM failed");
        while start.elapsed() < limit {
            if child.try_wait().ok().flatten().is_some() {
                self.child = None;
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Starts it again on the same port and database.
    pub fn restart(&mut self) {
        self.kill();
        for _ in 0..50 {
            let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.launch()));
            if ok.is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("ployd does not restart");
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| c.try_wait().ok().flatten().is_none())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends raw bytes and reads the response (the connection is closed after it).
pub fn raw(addr: SocketAddr, request: &[u8]) -> std::io::Result<Response> {
    raw_with_timeout(addr, request, Duration::from_secs(60))
}

/// [`raw`] with a read timeout.
pub fn raw_with_timeout(
    addr: SocketAddr,
    request: &[u8],
    timeout: Duration,
) -> std::io::Result<Response> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.write_all(request)?;
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf)?;
    parse_response(&buf)
}

fn parse_response(buf: &[u8]) -> std::io::Result<Response> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_owned());
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = std::str::from_utf8(&buf[..end]).map_err(|_| bad("headers not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or_else(|| bad("no status"))?;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("bad status"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = buf[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(nl) = rest.windows(2).position(|w| w == b"\r\n") {
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..nl]).unwrap_or("0").trim(), 16)
                    .unwrap_or(0);
            if size == 0 {
                break;
            }
            let start = nl + 2;
            out.extend_from_slice(&rest[start..(start + size).min(rest.len())]);
            rest = &rest[(start + size + 2).min(rest.len())..];
        }
        body = out;
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// A request with an optional JSON body and cookie.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> std::io::Result<Response> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
    }
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    raw(addr, req.as_bytes())
}

pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, None, None).expect("GET")
}

pub fn post(addr: SocketAddr, path: &str, body: &Value) -> Response {
    request(addr, "POST", path, Some(body), None).expect("POST")
}

/// Signs up a user (201).
pub fn signup(addr: SocketAddr, user: &str, password: &str) {
    let r = post(
        addr,
        "/api/users",
        &serde_json::json!({"userid": user, "password": password}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
}

/// Opens a session; returns the cookie (`ployd_session=...`).
pub fn login(addr: SocketAddr, user: &str, password: &str) -> String {
    let r = post(
        addr,
        "/api/sessions",
        &serde_json::json!({"userid": user, "password": password}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let set = r.header("set-cookie").expect("a cookie").to_owned();
    assert!(set.contains("HttpOnly"));
    set.split(';').next().unwrap().to_owned()
}

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A move that ends games soon: a winning move, else a capture, else any (seeded).
pub fn pick(game: &Game, rng: &mut Rng) -> Move {
    let legal = game.legal_moves();
    assert!(!legal.is_empty(), "no legal move");
    let pos = game.position();
    let wins: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| pos.after(m).is_ok_and(|p| p.outcome().is_some()))
        .collect();
    if let Some(&m) = wins.first() {
        return m;
    }
    let captures: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
        .collect();
    if !captures.is_empty() && rng.below(4) != 0 {
        return captures[rng.below(captures.len())];
    }
    legal[rng.below(legal.len())]
}

/// The university text of a move.
pub fn text(mv: Move) -> String {
    ploy_notation::UniversityMove::from(mv).to_string()
}

/// Joins game `id` for an invited player (200).
pub fn join(addr: SocketAddr, id: i64, user: &str, password: &str) -> Value {
    let r = post(
        addr,
        &format!("/api/games/{id}/join"),
        &serde_json::json!({"userid": user, "password": password}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}
