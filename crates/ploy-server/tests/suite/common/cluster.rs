//! Several `ployd serve` processes on one PostgreSQL database of the throwaway cluster
//! ([`super::pg`]), as a site with a load balancer runs them: the tests of
//! `tests/suite/cluster.rs` and its figure. They run on PostgreSQL whatever
//! `PLOYD_TEST_BACKEND` says (skipped with a notice without PostgreSQL, failed under
//! `CI=true`).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::pg::{self, Cluster};
use super::{Response, Rng, Server, ployd, request, temp_dir};

/// Servers sharing one PostgreSQL database.
pub struct Servers {
    pub servers: Vec<Server>,
    /// The database's name in the cluster.
    pub db: String,
    /// Its address, for `--db`.
    pub address: String,
    cluster: &'static Cluster,
}

impl Servers {
    /// Starts one server per entry of `each` (its own flags, after `common`) on a fresh
    /// database named after `test`; `None` (with a notice) without PostgreSQL.
    pub fn start(test: &str, common: &[&str], each: &[&[&str]]) -> Option<Servers> {
        let cluster = pg::cluster(test)?;
        let db = cluster.database(test);
        let address = cluster.address(&db);
        // `Server` names a database by a path; the `--db` given here comes later on the
        // command line and counts (ployd takes the last of a repeated flag).
        let nominal = temp_dir(test).join("db");
        let servers = each
            .iter()
            .map(|own| {
                let mut flags: Vec<&str> = vec!["--db", &address];
                flags.extend_from_slice(common);
                flags.extend_from_slice(own);
                Server::start(&nominal, &flags)
            })
            .collect();
        Some(Servers {
            servers,
            db,
            address,
            cluster,
        })
    }

    /// `n` servers with the same flags.
    pub fn same(test: &str, n: usize, flags: &[&str]) -> Option<Servers> {
        let none: &[&str] = &[];
        Servers::start(test, flags, &vec![none; n])
    }

    /// The servers' addresses (a restarted server keeps its port).
    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.servers.iter().map(|s| s.addr).collect()
    }

    /// A client of the database, as the superuser.
    pub fn client(&self) -> postgres::Client {
        self.cluster.client(&self.db)
    }

    /// The one integer that `query` answers.
    pub fn count(&self, query: &str) -> i64 {
        self.client()
            .query_one(query, &[])
            .unwrap_or_else(|e| panic!("{query}: {e}"))
            .get(0)
    }

    /// `ployd check` on the database: whether it passed, and what it printed.
    pub fn check(&self) -> (bool, String) {
        let out = ployd()
            .args(["check", "--db", &self.address])
            .output()
            .expect("ployd check runs");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    }
}

/// A request to one of `addrs` chosen by `rng`; when the chosen process does not answer
/// (killed, restarting), the request goes to another, for at most 20 s. Only for requests
/// that may be repeated without harm (reads, or writes whose repetition is refused).
pub fn any(
    addrs: &[SocketAddr],
    rng: &mut Rng,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> Response {
    let start = Instant::now();
    loop {
        let addr = addrs[rng.below(addrs.len())];
        match request(addr, method, path, body, cookie) {
            Ok(r) => return r,
            Err(e) => {
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "{method} {path}: no process answers: {e}"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// The moves of game `id`'s log as the API shows them.
pub fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|v| v.as_str().expect("a move's text").to_owned())
        .collect()
}
