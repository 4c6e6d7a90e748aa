//! `ployd`: the game server's command line.

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use ploy_server::auth::HashParams;
use ploy_server::command;
use ploy_server::game::{Budget, Registry};
use ploy_server::service::{
    Clock, Config, FixedClock, Limits, Rate, Service, SystemClock, format_duration,
};
use ploy_server::store::{DbAddress, Scan, Store};

/// A play-by-mail game server for Ploy: pbmserv-style commands, an HTTP API, SQLite or
/// PostgreSQL.
#[derive(Parser, Debug)]
#[command(name = "ployd", version, about, long_about = None, args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug, Clone)]
struct Common {
    /// The database: a SQLite file (created if missing; `sqlite:FILE` for a file whose name
    /// reads like an address), or a PostgreSQL database, `postgres://USER@HOST:PORT/NAME`.
    #[arg(
        long,
        global = true,
        default_value = "./ployd.db",
        value_name = "ADDRESS"
    )]
    db: OsString,
    /// A file whose first line is the PostgreSQL password (default: libpq's PGPASSWORD,
    /// then its password file ~/.pgpass). The password is never printed.
    #[arg(long, global = true, value_name = "FILE")]
    db_password_file: Option<PathBuf>,
    /// Time per bot move (such as 500ms, 2s); with --bot-nodes or --bot-depth, whichever
    /// comes first.
    #[arg(long, global = true, default_value = "1s", value_parser = parse_time, value_name = "TIME")]
    bot_time: Duration,
    /// Most search nodes per bot move.
    #[arg(long, global = true, value_name = "N")]
    bot_nodes: Option<u64>,
    /// Deepest search per bot move, plies.
    #[arg(long, global = true, value_name = "PLIES")]
    bot_depth: Option<u32>,
    /// Argon2id memory for new password hashes, KiB.
    #[arg(long, global = true, default_value_t = HashParams::default().memory_kib, value_name = "KIB")]
    argon2_memory: u32,
    /// Argon2id passes for new password hashes.
    #[arg(long, global = true, default_value_t = HashParams::default().iterations, value_name = "N")]
    argon2_iterations: u32,
    /// The time to act at, seconds since 1970, instead of the system clock (for tests of
    /// the timers, and for running a sweep as of a given time).
    #[arg(long, global = true, value_name = "SECONDS")]
    now: Option<i64>,
    /// The most pages (of 4 KiB) the database file may grow to; a write that needs more is
    /// refused with 507 storage_full, as on a full disk. Default: no limit.
    #[arg(long, global = true, value_parser = clap::value_parser!(u64).range(1..), value_name = "PAGES")]
    max_db_pages: Option<u64>,
}

#[derive(Subcommand, Debug)]
// Parsed once at start: the size of the `serve` variant costs nothing.
#[allow(clippy::large_enum_variant)]
enum Command {
    /// Serves the HTTP API and the page for playing in the browser (at /).
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
        listen: SocketAddr,
        /// Threads that compute bot moves (default: the number of cores); games waiting
        /// for the bot are taken round-robin across the users who queued them.
        #[arg(long, default_value_t = cores(), value_name = "N")]
        bot_threads: usize,
        /// The most games one user may have waiting for a bot move at once; the move or
        /// challenge that would make one more is refused (429 too_many_bot_games).
        #[arg(long, default_value_t = Config::default().bot_games_per_user, value_name = "N")]
        bot_games_per_user: usize,
        /// The most open invitations (games waiting for people to join) per challenger;
        /// one more is refused (429 too_many_invitations).
        #[arg(long, default_value_t = Config::default().max_invitations, value_name = "N")]
        max_invitations: usize,
        /// How often deadlines and reminders are checked.
        #[arg(long, default_value = "60s", value_parser = parse_time, value_name = "TIME")]
        timer_interval: Duration,
        /// On PostgreSQL: how often the bot workers look at the database's queue without
        /// being notified; the longest a bot move claimed by a process that died waits
        /// for another process.
        #[arg(long, default_value = "10s", value_parser = positive_time, value_name = "TIME")]
        bot_recheck: Duration,
        /// Marks the session cookie `Secure`, so that browsers send it over HTTPS only (for
        /// a server behind a TLS proxy).
        #[arg(long)]
        secure_cookies: bool,
        /// Trusts the proxy in front: the client's address is the last one of its
        /// `X-Forwarded-For`, and `X-Forwarded-Proto: https` makes the cookie `Secure`. Only
        /// for a server that nothing but the proxy can reach.
        #[arg(long)]
        trust_proxy: bool,
        /// The server's origin as browsers see it (such as `https://ployd.example.org`): a
        /// POST, PUT or DELETE with the session cookie must come from it. Default: the
        /// scheme and the request's `Host`.
        #[arg(long, value_parser = ploy_server::http::parse_public_origin, value_name = "URL")]
        public_origin: Option<String>,
        /// The longest a client may take to send a request's headers.
        #[arg(long, default_value = "10s", value_parser = positive_time, value_name = "TIME")]
        header_timeout: Duration,
        /// The longest a client may take to send a request's body (then 408).
        #[arg(long, default_value = "30s", value_parser = positive_time, value_name = "TIME")]
        body_timeout: Duration,
        /// How long a kept-alive connection may wait for its next request.
        #[arg(long, default_value = "60s", value_parser = positive_time, value_name = "TIME")]
        idle_timeout: Duration,
        /// The most connections open at once, event streams included; one more gets 503
        /// and is closed at once.
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
        max_connections: u32,
        /// How often an event stream sends a comment line when it has nothing else to send
        /// (so that proxies and the idle limits of the way keep it open).
        #[arg(long, default_value = "25s", value_parser = positive_time, value_name = "TIME")]
        stream_keepalive: Duration,
        #[command(flatten)]
        accounts: AccountLimits,
        #[command(flatten)]
        relay: ploy_server::mail::RelayArgs,
    },
    /// Reads commands, one a line, on standard input; prints each reply and a line `.`.
    Cmd,
    /// Reads one mail message on standard input (as a mail server's alias pipes it), runs
    /// the command lines of its text and queues the replies to the sender in one mail;
    /// mail from an address that no account has confirmed is dropped without a reply.
    Mail,
    /// Lists the mail queue (mail waiting to be sent); with --send, sends what is due
    /// through the relay once (for cron, without a running server).
    Outbox {
        /// Sends the mail due now through the relay of --smtp, then lists what is left.
        #[arg(long, requires = "smtp")]
        send: bool,
        /// Lists sent and refused mail too.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        relay: ploy_server::mail::RelayArgs,
    },
    /// Prints the invitations waiting for a user, then his notifications.
    Inbox {
        /// The userid.
        user: String,
    },
    /// Applies the timers due now (reminders and forfeits) once, for use from cron when
    /// the server is not running.
    Timers,
    /// Runs SQLite's checks of the file (`PRAGMA integrity_check`, `foreign_key_check`; on
    /// PostgreSQL, that the append-only triggers and every constraint are in force),
    /// replays every game from its move log and compares it with the cached state; exits 1
    /// naming what is wrong.
    Check,
    /// Copies every account, session, game, move, note and queued mail of the SQLite
    /// database FILE into an empty PostgreSQL database (its password as for --db), in one
    /// transaction; refused into a database with rows, or while a `ployd serve` uses FILE.
    Migrate {
        /// The SQLite database to copy.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The PostgreSQL database to fill: postgres://USER@HOST:PORT/NAME.
        #[arg(long, value_name = "ADDRESS")]
        to: String,
    },
    /// Copies the database (`--db`) to FILE consistently, also while a server writes to it
    /// (SQLite's online backup API); FILE is replaced atomically. A PostgreSQL database is
    /// copied with pg_dump instead.
    Backup {
        /// The copy to write.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// The limits of `ployd serve` on password work and on what one client address may try.
#[derive(Args, Debug, Clone)]
struct AccountLimits {
    /// Threads that compute password hashes: at most this many argon2id computations
    /// (19 MiB each by default) run at once. Default: the number of cores.
    #[arg(long, default_value_t = default_hash_workers(), value_name = "N")]
    hash_workers: usize,
    /// Password computations that may wait for a hash thread; beyond them the request is
    /// refused with `503 busy`.
    #[arg(long, default_value_t = 64, value_name = "N")]
    hash_queue: usize,
    /// Failed password checks per client address (N/DURATION, or off); beyond them `429
    /// throttled`.
    #[arg(long, default_value = "10/1m", value_parser = parse_limit, value_name = "N/TIME")]
    failures_per_address: Limit,
    /// Failed password checks per client address and userid (N/DURATION, or off).
    #[arg(long, default_value = "5/15m", value_parser = parse_limit, value_name = "N/TIME")]
    failures_per_user: Limit,
    /// New accounts per client address (N/DURATION, or off), through `POST /api/users` and
    /// the `signup` command together.
    #[arg(long, default_value = "5/1h", value_parser = parse_limit, value_name = "N/TIME")]
    signups_per_address: Limit,
}

fn default_hash_workers() -> usize {
    Config::default().hash_workers
}

/// A limit of a flag: `N/DURATION` or `off`.
#[derive(Clone, Copy, Debug)]
struct Limit(Option<Rate>);

fn parse_limit(text: &str) -> Result<Limit, String> {
    Rate::parse(text, parse_time).map(Limit)
}

impl AccountLimits {
    fn apply(&self, config: &mut Config) {
        config.hash_workers = self.hash_workers.max(1);
        config.hash_queue = self.hash_queue;
        config.limits = Limits {
            failures_per_address: self.failures_per_address.0,
            failures_per_user: self.failures_per_user.0,
            signups_per_address: self.signups_per_address.0,
        };
    }
}

/// The most lines of SQLite's checks that `serve` and `check` print.
const DAMAGE_LINES: usize = 10;

/// The message for a database that SQLite's checks (`what`) find damaged.
fn damaged(db: &DbAddress, what: &str, lines: &[String]) -> String {
    let mut m = format!("{db} is damaged ({what} reports, at most {DAMAGE_LINES} lines):");
    for l in lines {
        m.push_str("\n  ");
        m.push_str(l);
    }
    m
}

/// A program flag's duration (the workspace's one parser, `ploy_search::parse_duration` in
/// its flag mode: `500ms`, `2s`, `1.5m`, `1h`), except that a bare number keeps this
/// program's unit, seconds.
/// A time for people, as `--bot-time` takes it: `2s`, `1m30s`, `500ms`, `1500ms`.
fn time_text(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format_duration(i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    } else if d.as_nanos().is_multiple_of(1_000_000) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{d:?}")
    }
}

fn parse_time(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let secs: u64 = t
            .parse()
            .map_err(|_| format!("`{}` is too long a time", ploy_search::excerpt(t, 40)))?;
        return Ok(Duration::from_secs(secs));
    }
    ploy_search::parse_duration(text, ploy_search::DurationMode::Flag).map_err(|e| e.to_string())
}

/// A limit's duration: as [`parse_time`], and more than nothing.
fn positive_time(text: &str) -> Result<Duration, String> {
    let d = parse_time(text)?;
    if d.is_zero() {
        Err("a limit must be longer than 0".to_owned())
    } else {
        Ok(d)
    }
}

/// The number of cores (1 when it cannot be told).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

impl Common {
    /// The address of `--db`.
    fn address(&self) -> Result<DbAddress, String> {
        DbAddress::from_os(&self.db).map_err(|e| format!("--db: {e}"))
    }
}

fn service(common: &Common) -> Result<Service, String> {
    service_with(common, |_| {})
}

/// The service, with `adjust` applied to the settings the common flags give.
fn service_with(common: &Common, adjust: impl FnOnce(&mut Config)) -> Result<Service, String> {
    let db = common.address()?;
    let mut store = Store::connect(&db, common.db_password_file.as_deref())
        .map_err(|e| format!("cannot open {db}: {e}"))?;
    if let Some(pages) = common.max_db_pages {
        store
            .limit_pages(pages)
            .map_err(|e| format!("cannot limit {db}: {e}"))?;
    }
    let clock: Arc<dyn Clock> = match common.now {
        Some(t) => Arc::new(FixedClock::new(t)),
        None => Arc::new(SystemClock),
    };
    let mut config = Config {
        bot_budget: Budget {
            time: Some(common.bot_time),
            nodes: common.bot_nodes,
            depth: common.bot_depth,
        },
        hash: HashParams {
            memory_kib: common.argon2_memory,
            iterations: common.argon2_iterations,
            parallelism: 1,
        },
        ..Config::default()
    };
    adjust(&mut config);
    Ok(Service::new(store, Registry::standard(), clock, config))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve {
            listen,
            bot_threads,
            bot_games_per_user,
            max_invitations,
            timer_interval,
            bot_recheck,
            secure_cookies,
            trust_proxy,
            public_origin,
            header_timeout,
            body_timeout,
            idle_timeout,
            max_connections,
            stream_keepalive,
            accounts,
            relay,
        } => {
            let relay = relay.relay().map_err(|e| e.to_string())?;
            let db = cli.common.address()?;
            let service = service_with(&cli.common, |c| {
                c.bot_games_per_user = bot_games_per_user.max(1);
                c.max_invitations = max_invitations;
                c.bot_recheck = bot_recheck;
                accounts.apply(c);
            })?;
            // Refuse a damaged file before anything is served from it or written to it.
            let started = Instant::now();
            let damage = service
                .store()
                .damage(Scan::Quick, DAMAGE_LINES)
                .map_err(|e| format!("cannot check {db}: {e}"))?;
            if !damage.is_empty() {
                return Err(format!(
                    "{}\nrefusing to serve it: see `ployd check`, and restore a backup",
                    damaged(&db, "PRAGMA quick_check", &damage)
                ));
            }
            let checked = started.elapsed();
            // Held while the server runs: `ployd migrate` refuses a file in use.
            let _in_use = match &db {
                DbAddress::Sqlite(path) => {
                    let f =
                        std::fs::File::open(path).map_err(|e| format!("cannot open {db}: {e}"))?;
                    f.try_lock_shared()
                        .map_err(|_| format!("{db} is being copied by ployd migrate"))?;
                    Some(f)
                }
                DbAddress::Postgres(_) => None,
            };
            let mut service = Arc::new(service);
            service
                .start_bot_workers(bot_threads)
                .map_err(|e| e.to_string())?;
            if let Some(relay) = relay {
                ploy_server::mail::outbound::start_sender(&service, relay)
                    .map_err(|e| format!("cannot start the mail sender: {e}"))?;
            }
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("cannot start the runtime: {e}"))?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind(listen)
                    .await
                    .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
                let addr = listener.local_addr().map_err(|e| e.to_string())?;
                if !addr.ip().is_loopback() {
                    eprintln!(
                        "ployd: warning: {addr} is not a loopback address; the API has no TLS"
                    );
                }
                eprintln!(
                    "ployd: serving http://{addr}/ (database {}, checked in {} ms, bot {} per move)",
                    db,
                    checked.as_millis(),
                    time_text(cli.common.bot_time)
                );
                let mut options = ploy_server::http::ServeOptions::default();
                options.timer_interval = timer_interval;
                options.secure_cookies = secure_cookies;
                options.trust_proxy = trust_proxy;
                options.public_origin = public_origin;
                options.header_timeout = header_timeout;
                options.body_timeout = body_timeout;
                options.idle_timeout = idle_timeout;
                options.max_connections = max_connections as usize;
                options.stream_keep_alive = stream_keepalive;
                ploy_server::http::serve(service, listener, options)
                    .await
                    .map_err(|e| format!("server: {e}"))
            })
        }
        Command::Cmd => {
            let service = service(&cli.common)?;
            let stdin = std::io::stdin();
            let mut out = std::io::stdout().lock();
            for line in stdin.lock().lines() {
                let line = line.map_err(|e| format!("reading commands: {e}"))?;
                if line.trim().is_empty() {
                    continue;
                }
                let reply = command::execute(&service, &line);
                out.write_all(reply.framed().as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("writing replies: {e}"))?;
            }
            Ok(())
        }
        Command::Mail => {
            let service = service(&cli.common)?;
            ploy_server::mail::inbound::run_mail(&service)
        }
        Command::Outbox { send, all, relay } => {
            let service = service(&cli.common)?;
            ploy_server::mail::outbound::outbox(&service, send, all, &relay)
        }
        Command::Inbox { user } => {
            let service = service(&cli.common)?;
            let notes = service.inbox(&user, 0).map_err(|e| e.to_string())?;
            let invitations = service.invitations_for(&user).map_err(|e| e.to_string())?;
            let mut out = std::io::stdout().lock();
            for g in invitations {
                let _ = writeln!(
                    out,
                    "invitation: board {} {} {}: waiting for {}\n",
                    g.id,
                    g.game,
                    g.players.join(" "),
                    g.waiting_for.join(", ")
                );
            }
            for n in notes {
                let _ = writeln!(
                    out,
                    "[{}] at {} board {}: {}\n{}\n",
                    n.id,
                    n.at,
                    n.note
                        .game_id
                        .map_or_else(|| "-".to_owned(), |g| g.to_string()),
                    n.note.subject,
                    n.note.body.trim_end()
                );
            }
            Ok(())
        }
        Command::Timers => {
            let service = service(&cli.common)?;
            let changed = service.sweep_timers().map_err(|e| e.to_string())?;
            service.run_pending_bots();
            println!("{} boards changed", changed.len());
            Ok(())
        }
        Command::Check => {
            let db = cli.common.address()?;
            let service = service(&cli.common)?;
            let damage = service
                .store()
                .damage(Scan::Full, DAMAGE_LINES)
                .map_err(|e| format!("cannot check {db}: {e}"))?;
            let postgres = service.store().is_postgres();
            if postgres {
                for line in &damage {
                    println!("postgresql: {line}");
                }
                println!(
                    "postgresql: triggers and constraints: {}",
                    if damage.is_empty() { "ok" } else { "damaged" }
                );
            } else {
                for line in &damage {
                    println!("sqlite: {line}");
                }
                println!(
                    "sqlite: integrity_check and foreign_key_check: {}",
                    if damage.is_empty() { "ok" } else { "damaged" }
                );
            }
            // A damaged file may fail the replay as a whole: that is one more problem.
            let (n, problems, failed) = match service.check() {
                Ok((n, problems)) => (n, problems, None),
                Err(e) => (0, Vec::new(), Some(e.to_string())),
            };
            for p in &problems {
                // A rating that differs from the rated games belongs to no one board.
                if p.id == 0 {
                    println!("ratings: {}", p.problem);
                } else {
                    println!("board {}: {}", p.id, p.problem);
                }
            }
            if let Some(e) = &failed {
                println!("replay: {e}");
            }
            println!("{n} games replayed, {} problems", problems.len());
            if !damage.is_empty() {
                Err(damaged(
                    &db,
                    if postgres {
                        "the check of triggers and constraints"
                    } else {
                        "PRAGMA integrity_check and foreign_key_check"
                    },
                    &damage,
                ))
            } else if let Some(e) = failed {
                Err(format!("the games cannot be replayed: {e}"))
            } else if problems.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{} problems: games that do not replay as cached, or ratings that differ \
                     from the rated games",
                    problems.len()
                ))
            }
        }
        Command::Migrate { from, to } => {
            let target = match DbAddress::from_str(&to).map_err(|e| format!("--to: {e}"))? {
                DbAddress::Postgres(pg) => pg,
                DbAddress::Sqlite(_) => {
                    return Err(
                        "--to: ployd migrate copies into PostgreSQL (postgres://...)".to_owned(),
                    );
                }
            };
            let copied = ploy_server::store::copy_to_postgres(
                &from,
                &target,
                cli.common.db_password_file.as_deref(),
            )
            .map_err(|e| format!("cannot copy {} to {target}: {e}", from.display()))?;
            for (table, rows) in &copied {
                println!("{table}: {rows} rows");
            }
            println!("{} copied to {target}", from.display());
            Ok(())
        }
        Command::Backup { file, force } => {
            let path = match cli.common.address()? {
                DbAddress::Sqlite(path) => path,
                DbAddress::Postgres(pg) => {
                    return Err(format!(
                        "{pg} is a PostgreSQL database: copy it with pg_dump \
                         (pg_dump --format=custom), not ployd backup"
                    ));
                }
            };
            let db = &path;
            if !db.exists() {
                return Err(format!("no database at {}", db.display()));
            }
            let store =
                Store::open(db).map_err(|e| format!("cannot open {}: {e}", db.display()))?;
            store.backup_to(&file, force).map_err(|e| e.to_string())?;
            println!("{} copied to {}", db.display(), file.display());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A mail server tries a message again later when its pipe exits with EX_TEMPFAIL.
    let failure = if matches!(cli.command, Command::Mail) {
        ExitCode::from(75)
    } else {
        ExitCode::FAILURE
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ployd: {e}");
            failure
        }
    }
}
