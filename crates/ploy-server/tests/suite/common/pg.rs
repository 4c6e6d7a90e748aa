//! A throwaway PostgreSQL cluster for the tests: one per test process, started on first
//! use in a fresh folder under the system's temporary directory, listening on a free
//! loopback port, with a fresh database per test. PostgreSQL's programs are found with
//! `pg_config --bindir`; as root they run as the unprivileged user `ployd-pg` (created if
//! missing) through `runuser`.
//!
//! The cluster is stopped and its folder removed when the test process ends, however it
//! ends: the server runs under a small shell guard whose standard input is a pipe from the
//! test process; when that pipe closes, the guard stops the server (`SIGQUIT`) and removes
//! the folder.
//!
//! Without PostgreSQL the tests that need it print a notice and pass; with `CI=true` they
//! fail instead.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The superuser the tests connect as (no password, over the loopback port).
pub const SUPERUSER: &str = "ployd";

/// A user that must give a password (scram-sha-256): the tests of the password.
pub const SECRET_USER: &str = "ployd_secret";

/// A running throwaway cluster.
pub struct Cluster {
    pub port: u16,
    pub bindir: PathBuf,
    /// The guard's standard input: dropping it (at the process's end) stops the server.
    _guard: Mutex<Child>,
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();

fn ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// The shared cluster, started on first use; `None` (with a notice printed for `test`)
/// when PostgreSQL is not installed. Under `CI=true` a missing PostgreSQL fails instead.
pub fn cluster(test: &str) -> Option<&'static Cluster> {
    let c = CLUSTER.get_or_init(|| {
        let bindir = Command::new("pg_config")
            .arg("--bindir")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .filter(|d| d.join("initdb").exists() && d.join("postgres").exists())?;
        Some(start(bindir))
    });
    if c.is_none() {
        assert!(
            !ci(),
            "{test}: PostgreSQL is missing and CI=true: install Debian's `postgresql` package"
        );
        eprintln!("{test}: skipped: PostgreSQL is not installed (pg_config --bindir)");
    }
    c.as_ref()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A command of PostgreSQL's, run as the unprivileged user when we are root.
fn as_owner(root: bool, program: &Path) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "ployd-pg", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn start(bindir: PathBuf) -> Cluster {
    let root = is_root();
    if root {
        let exists = Command::new("id")
            .arg("ployd-pg")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !exists {
            let made = Command::new("useradd")
                .args([
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                ])
                .arg("ployd-pg")
                .status()
                .expect("useradd runs");
            assert!(made.success(), "cannot create the user ployd-pg");
        }
    }
    let out = Command::new("mktemp")
        .args(["-d", "-t", "ployd-pg.XXXXXX"])
        .output()
        .expect("mktemp runs");
    assert!(out.status.success(), "mktemp -d failed");
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if root {
        let owned = Command::new("chown")
            .arg("ployd-pg:")
            .arg(&dir)
            .status()
            .expect("chown runs");
        assert!(owned.success());
    }
    let data = dir.join("data");
    let init = as_owner(root, &bindir.join("initdb"))
        .arg("-D")
        .arg(&data)
        .args([
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        ])
        .args(["--locale=C"])
        .output()
        .expect("initdb runs");
    assert!(
        init.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&init.stderr)
    );
    let hba = format!(
        "local all all trust\n\
         host all {SECRET_USER} 127.0.0.1/32 scram-sha-256\n\
         host all all 127.0.0.1/32 trust\n"
    );
    // Written through the owner, since the data folder is his alone.
    let mut tee = as_owner(root, Path::new("tee"))
        .arg(data.join("pg_hba.conf"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("tee runs");
    tee.stdin.take().unwrap().write_all(hba.as_bytes()).unwrap();
    assert!(tee.wait().unwrap().success());
    let port = free_port();
    // The guard: the server in the background; at the end of standard input, stop it and
    // remove the folder.
    let script = format!(
        "'{postgres}' -D '{data}' -p {port} -k '{dir}' -c listen_addresses=127.0.0.1 \
         -c fsync=off -c full_page_writes=off -c max_connections=300 \
         -c shared_buffers=32MB >'{dir}/log' 2>&1 & pid=$!; \
         cat >/dev/null; kill -QUIT $pid; wait $pid; rm -rf '{dir}'",
        postgres = bindir.join("postgres").display(),
        data = data.display(),
        dir = dir.display(),
    );
    let guard = as_owner(root, Path::new("sh"))
        .arg("-c")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the cluster's guard starts");
    let start = Instant::now();
    loop {
        let ready = Command::new(bindir.join("pg_isready"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                SUPERUSER,
                "-q",
            ])
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
            panic!("PostgreSQL did not start in 60 s:\n{log}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let cluster = Cluster {
        port,
        bindir,
        _guard: Mutex::new(guard),
    };
    cluster.sql(
        "postgres",
        &format!("CREATE ROLE {SECRET_USER} LOGIN PASSWORD 'pw-of-the-secret-user'"),
    );
    cluster
}

static DATABASES: AtomicUsize = AtomicUsize::new(0);

impl Cluster {
    /// Runs `sql` in database `db` as the superuser; panics naming the error.
    pub fn sql(&self, db: &str, sql: &str) {
        let mut client = self.client(db);
        client
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// A client of database `db`, as the superuser.
    pub fn client(&self, db: &str) -> postgres::Client {
        postgres::Config::new()
            .host("127.0.0.1")
            .port(self.port)
            .user(SUPERUSER)
            .dbname(db)
            .connect(postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to {db}: {e}"))
    }

    /// A new empty database named after `name`; returns its name.
    pub fn database(&self, name: &str) -> String {
        let n = DATABASES.fetch_add(1, Ordering::Relaxed);
        let clean: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        let db = format!("t{n}_{clean}");
        self.sql(
            "postgres",
            &format!("CREATE DATABASE {db} OWNER {SUPERUSER}"),
        );
        db
    }

    /// The address of database `db` for the superuser.
    pub fn address(&self, db: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{db}", self.port)
    }
}
