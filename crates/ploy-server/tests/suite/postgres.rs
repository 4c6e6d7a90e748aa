//! PostgreSQL beside SQLite: both reach the same schema version and refuse the same
//! writes; a newer database is refused; the password comes from a file or libpq's
//! `PGPASSWORD` and is never printed; `ployd backup` names `pg_dump`. These tests run on
//! the throwaway cluster whatever `PLOYD_TEST_BACKEND` says (skipped with a notice without
//! PostgreSQL, failed under `CI=true`).

use std::path::Path;
use std::process::Output;

use ploy_server::store::{DbAddress, MIGRATIONS, PG_MIGRATIONS, Store, StoreError};

use crate::common::pg::{Cluster, SECRET_USER, cluster};
use crate::common::{ployd, temp_dir};

/// The password of [`SECRET_USER`] (set when the cluster starts).
const SECRET: &str = "pw-of-the-secret-user";

fn pg_store(c: &Cluster, db: &str) -> Store {
    let address: DbAddress = c.address(db).parse().unwrap();
    Store::connect(&address, None).unwrap()
}

/// Rows a game, its move, its ending and people need, in words both databases read.
const SETUP: &[&str] = &[
    "INSERT INTO users(userid, password_hash, created_at) VALUES ('alice', 'h', 0)",
    "INSERT INTO users(userid, password_hash, created_at) VALUES ('bob', 'h', 0)",
    "INSERT INTO games(game, options, rules_version, created_at, turn_since)
     VALUES ('ploy', '[]', 1, 0, 0)",
    "INSERT INTO moves(game_id, ply, seat, text, source, at)
     VALUES (101, 0, 0, 'e3-e4', 'player', 0)",
    "INSERT INTO endings(game_id, ply, kind, seat, at) VALUES (101, 1, 'resignation', 0, 0)",
    "INSERT INTO invitations(game_id, userid, joined_at) VALUES (101, 'bob', NULL)",
    "INSERT INTO rating_changes(game_id, seat, userid, score, before_rating,
        before_deviation, before_volatility, after_rating, after_deviation,
        after_volatility, at)
     VALUES (101, 0, 'alice', 1, 1500, 350, 0.06, 1600, 300, 0.06, 0)",
    // A session of a user named in other letters: the key is the same.
    "INSERT INTO sessions(token_hash, userid, created_at, expires_at)
     VALUES ('t1', 'ALICE', 0, 1)",
    "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games, updated_at)
     VALUES ('Bob', 'ploy', 9, 1500, 350, 0.06, 1, 0)",
];

/// Writes the schema must refuse, each for its own rule.
const REFUSED: &[&str] = &[
    // A userid is unique in any case of letters.
    "INSERT INTO users(userid, password_hash, created_at) VALUES ('ALICE', 'h', 0)",
    // Foreign keys.
    "INSERT INTO sessions(token_hash, userid, created_at, expires_at)
     VALUES ('t2', 'nobody', 0, 1)",
    "INSERT INTO seats(game_id, seat, userid) VALUES (999, 0, 'alice')",
    "INSERT INTO mail_addresses(userid, address) VALUES ('nobody', 'x@example.org')",
    // The move log is append-only, numbered once, of known kinds.
    "UPDATE moves SET text = 'e3-e5'",
    "DELETE FROM moves",
    "INSERT INTO moves(game_id, ply, seat, text, source, at)
     VALUES (101, 0, 1, 'e7-e6', 'player', 0)",
    "INSERT INTO moves(game_id, ply, seat, text, source, at)
     VALUES (101, 1, 1, 'e7-e6', 'cheat', 0)",
    // Endings and invitations are kept; a game ends once.
    "UPDATE endings SET kind = 'time'",
    "DELETE FROM endings",
    "INSERT INTO endings(game_id, ply, kind, seat, at) VALUES (101, 1, 'time', 1, 0)",
    "DELETE FROM invitations",
    // Ratings.
    "UPDATE games SET rated = 2",
    "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games, updated_at)
     VALUES ('alice', 'ploy', 9, 1500, 0, 0.06, 1, 0)",
    "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games, updated_at)
     VALUES ('alice', 'ploy', 0, 1500, 350, 0.06, 1, 0)",
    "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games, updated_at)
     VALUES ('BOB', 'ploy', 9, 1500, 350, 0.06, 1, 0)",
    "INSERT INTO rating_changes(game_id, seat, userid, score, before_rating,
        before_deviation, before_volatility, after_rating, after_deviation,
        after_volatility, at)
     VALUES (101, 1, 'bob', 0.3, 1500, 350, 0.06, 1400, 300, 0.06, 0)",
    "INSERT INTO rating_changes(game_id, seat, userid, score, before_rating,
        before_deviation, before_volatility, after_rating, after_deviation,
        after_volatility, at)
     VALUES (101, 0, 'alice', 1, 1500, 350, 0.06, 1600, 300, 0.06, 0)",
    "UPDATE rating_changes SET score = 0",
    "DELETE FROM rating_changes",
];

#[test]
fn both_backends_reach_the_same_version_and_refuse_the_same_writes() {
    let Some(c) = cluster("both_backends_reach_the_same_version") else {
        return;
    };
    assert_eq!(MIGRATIONS.len(), PG_MIGRATIONS.len());
    let file = temp_dir("pg-schema").join("db");
    let sqlite = Store::open(&file).unwrap();
    let db = c.database("schema");
    let pg = pg_store(c, &db);
    assert_eq!(sqlite.schema_version().unwrap(), MIGRATIONS.len() as i64);
    assert_eq!(pg.schema_version().unwrap(), MIGRATIONS.len() as i64);
    // Opening again applies nothing twice.
    drop(pg);
    assert_eq!(
        pg_store(c, &db).schema_version().unwrap(),
        MIGRATIONS.len() as i64
    );

    let lite = rusqlite::Connection::open(&file).unwrap();
    lite.pragma_update(None, "foreign_keys", "ON").unwrap();
    let mut client = c.client(&db);
    for sql in SETUP {
        lite.execute(sql, [])
            .unwrap_or_else(|e| panic!("SQLite: {sql}: {e}"));
        client
            .execute(*sql, &[])
            .unwrap_or_else(|e| panic!("PostgreSQL: {sql}: {e}"));
    }
    for sql in REFUSED {
        assert!(lite.execute(sql, []).is_err(), "SQLite took {sql}");
        assert!(client.execute(*sql, &[]).is_err(), "PostgreSQL took {sql}");
    }
    let mut count = |sql: &str| -> (i64, i64) {
        let a: i64 = lite.query_row(sql, [], |r| r.get(0)).unwrap();
        let b: i64 = client.query_one(sql, &[]).unwrap().get(0);
        (a, b)
    };
    for table in ["users", "moves", "endings", "invitations", "rating_changes"] {
        let (a, b) = count(&format!("SELECT COUNT(*) FROM {table}"));
        assert_eq!(a, b, "{table}");
    }
    // Nothing refused changed a row.
    assert_eq!(count("SELECT COUNT(*) FROM moves"), (1, 1));
    assert_eq!(count("SELECT COUNT(*) FROM ratings"), (1, 1));
}

#[test]
fn a_database_of_a_newer_ployd_is_refused() {
    let Some(c) = cluster("a_database_of_a_newer_ployd_is_refused") else {
        return;
    };
    let db = c.database("newer");
    drop(pg_store(c, &db));
    c.sql(&db, "UPDATE ployd_schema SET version = 99");
    let address: DbAddress = c.address(&db).parse().unwrap();
    match Store::connect(&address, None) {
        Err(StoreError::TooNew { found: 99, known }) => {
            assert_eq!(known, PG_MIGRATIONS.len() as i64);
        }
        other => panic!("{other:?}"),
    }
    let out = ployd()
        .args(["cmd", "--db"])
        .arg(c.address(&db))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("schema version 99"), "{err}");
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `ployd cmd` on `address` with one command; its output, and whether it succeeded.
fn one_command(address: &str, file: Option<&Path>, env_password: Option<&str>) -> Output {
    let mut cmd = ployd();
    cmd.args(["cmd", "--db", address])
        .args(crate::common::FAST)
        .env_remove("PGPASSWORD")
        .env("PGPASSFILE", "/nonexistent/ployd-test-pgpass");
    if let Some(f) = file {
        cmd.arg("--db-password-file").arg(f);
    }
    if let Some(p) = env_password {
        cmd.env("PGPASSWORD", p);
    }
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // A ployd that could not connect has ended already.
        let _ = writeln!(stdin, "signup carol pw-of-carol");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn the_password_comes_from_a_file_or_pgpassword_and_is_never_printed() {
    let Some(c) = cluster("the_password_comes_from_a_file") else {
        return;
    };
    let db = c.database("secret");
    c.sql(
        "postgres",
        &format!("ALTER DATABASE {db} OWNER TO {SECRET_USER}"),
    );
    let address = format!("postgres://{SECRET_USER}@127.0.0.1:{}/{db}", c.port);
    let dir = temp_dir("pg-password");
    let right = dir.join("right");
    std::fs::write(&right, format!("{SECRET}\n")).unwrap();
    let wrong = dir.join("wrong");
    let wrong_password = "not-the-password-4711";
    std::fs::write(&wrong, wrong_password).unwrap();

    // No password: refused by the server, in its words.
    let out = one_command(&address, None, None);
    assert!(!out.status.success(), "{}", text(&out));
    // A wrong one: refused, and not repeated.
    let out = one_command(&address, Some(&wrong), None);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("password"), "{}", text(&out));
    assert!(!text(&out).contains(wrong_password), "{}", text(&out));
    let out = one_command(&address, None, Some(wrong_password));
    assert!(!out.status.success());
    assert!(!text(&out).contains(wrong_password), "{}", text(&out));
    // A missing file is named, its content is not read.
    let out = one_command(&address, Some(&dir.join("missing")), None);
    assert!(!out.status.success());
    assert!(text(&out).contains("missing"), "{}", text(&out));

    // The right one, from the file, then from PGPASSWORD.
    let out = one_command(&address, Some(&right), None);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).starts_with("ok"), "{}", text(&out));
    assert!(!text(&out).contains(SECRET));
    let out = one_command(&address, None, Some(SECRET));
    assert!(out.status.success(), "{}", text(&out));
    // carol exists already: the second signup reached the same database.
    assert!(text(&out).contains("taken"), "{}", text(&out));
    assert!(!text(&out).contains(SECRET));

    // An address holding a password is refused without repeating it.
    let with = format!(
        "postgres://{SECRET_USER}:{SECRET}@127.0.0.1:{}/{db}",
        c.port
    );
    let out = one_command(&with, None, None);
    assert!(!out.status.success());
    assert!(text(&out).contains("--db-password-file"), "{}", text(&out));
    assert!(!text(&out).contains(SECRET), "{}", text(&out));
}

#[test]
fn backup_of_a_postgresql_database_names_pg_dump() {
    let Some(c) = cluster("backup_of_a_postgresql_database_names_pg_dump") else {
        return;
    };
    let db = c.database("backup");
    let dir = temp_dir("pg-backup");
    let out = ployd()
        .args(["backup", "--db", &c.address(&db)])
        .arg(dir.join("copy.db"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(text(&out).contains("pg_dump"), "{}", text(&out));
    assert!(!dir.join("copy.db").exists());
}

#[test]
fn check_on_postgresql_replays_and_names_a_disabled_trigger() {
    let Some(c) = cluster("check_on_postgresql_replays_and_names_a_disabled_trigger") else {
        return;
    };
    let db = c.database("check");
    let address = c.address(&db);
    let mut child = ployd()
        .args(["cmd", "--db", &address])
        .args(crate::common::FAST)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        for line in [
            "signup alice pw-secret",
            "signup bob pw-secret",
            "ploy challenge alice pw-secret bob",
            "ploy join 101 bob pw-secret",
            "ploy move 101 alice pw-secret e3-e4",
        ] {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let replies = String::from_utf8_lossy(&out.stdout);
    assert!(!replies.contains("error"), "{replies}");
    let check = || {
        let out = ployd().args(["check", "--db", &address]).output().unwrap();
        (out.status.success(), text(&out))
    };
    let (ok, out) = check();
    assert!(ok, "{out}");
    assert!(
        out.contains("postgresql: triggers and constraints: ok"),
        "{out}"
    );
    assert!(out.contains("1 games replayed, 0 problems"), "{out}");
    assert!(!out.contains("sqlite"), "{out}");

    // An administrator turns the move log's guard off: check names it.
    c.sql(&db, "ALTER TABLE moves DISABLE TRIGGER moves_no_update");
    let (ok, out) = check();
    assert!(!ok, "{out}");
    assert!(
        out.contains("postgresql: trigger moves_no_update of moves is disabled"),
        "{out}"
    );
    c.sql(&db, "ALTER TABLE moves ENABLE TRIGGER moves_no_update");
    // A cache that disagrees with the log is found, as on SQLite.
    c.sql(&db, "UPDATE games SET ply = 0 WHERE id = 101");
    let (ok, out) = check();
    assert!(!ok, "{out}");
    assert!(out.contains("board 101: cache"), "{out}");
}

/// `ployd cmd` on `db` (an address or a file) with `lines`; its replies.
fn commands(db: &str, lines: &[&str]) -> String {
    let mut child = ployd()
        .args(["cmd", "--db", db])
        .args(crate::common::FAST)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        for line in lines {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}

#[test]
fn migrate_copies_a_sqlite_database_into_an_empty_postgresql_one_only() {
    let Some(c) = cluster("migrate_copies_a_sqlite_database") else {
        return;
    };
    let dir = temp_dir("pg-migrate");
    let file = dir.join("games.db");
    let file_arg = format!("sqlite:{}", file.display());
    let made = commands(
        &file_arg,
        &[
            "signup alice pw-secret",
            "signup bob pw-secret",
            "ploy challenge alice pw-secret bob",
            "ploy join 101 bob pw-secret",
            "ploy move 101 alice pw-secret e3-e4",
            "pente challenge bob pw-secret alice",
            "ploy challenge alice pw-secret bot",
        ],
    );
    assert!(!made.contains("error"), "{made}");
    let db = c.database("migrate");
    let address = c.address(&db);
    let migrate = |to: &str| {
        let out = ployd()
            .args(["migrate", "--from"])
            .arg(&file)
            .args(["--to", to])
            .output()
            .unwrap();
        (out.status.success(), text(&out))
    };
    let (ok, out) = migrate(&address);
    assert!(ok, "{out}");
    assert!(out.contains("games: 3 rows"), "{out}");

    // The same games, moves and notes on both, and the next board follows.
    let show = [
        "ploy history 101",
        "ploy games alice all",
        "inbox bob pw-secret",
        "pente show 102",
    ];
    assert_eq!(commands(&file_arg, &show), commands(&address, &show));
    let check = ployd().args(["check", "--db", &address]).output().unwrap();
    assert!(check.status.success(), "{}", text(&check));
    assert!(text(&check).contains("3 games replayed, 0 problems"));
    let next = commands(&address, &["ploy challenge bob pw-secret alice"]);
    assert!(next.contains("104"), "{next}");

    // Not into a database with rows.
    let (ok, out) = migrate(&address);
    assert!(!ok);
    assert!(out.contains("not empty"), "{out}");

    // Not while a server uses the file; nothing is copied then.
    // (Started here, not with `Server`, which would use a PostgreSQL database of its own
    // under PLOYD_TEST_BACKEND=postgres.)
    let mut server = ployd()
        .args(["serve", "--listen", "127.0.0.1:0", "--db", &file_arg])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::BufRead;
        let mut first = String::new();
        std::io::BufReader::new(server.stderr.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.contains("serving"), "{first}");
    }
    let empty = c.database("migrate_busy");
    let (ok, out) = migrate(&c.address(&empty));
    assert!(!ok);
    assert!(out.contains("in use by a running ployd serve"), "{out}");
    server.kill().unwrap();
    server.wait().unwrap();
    let mut client = c.client(&empty);
    let tables: i64 = client
        .query_one(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'games'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "the refused copy touched nothing");
}

/// `ployd outbox` on `db` with `args`; whether it succeeded, and what it printed.
fn outbox(db: &str, args: &[&str]) -> (bool, String) {
    let out = ployd()
        .args(["outbox", "--db", db])
        .args(args)
        .output()
        .unwrap();
    (out.status.success(), text(&out))
}

#[test]
fn migrate_copies_a_queued_mail_that_is_then_listed_and_sent_from_postgresql() {
    let Some(c) = cluster("migrate_copies_a_queued_mail") else {
        return;
    };
    let dir = temp_dir("pg-migrate-mail");
    let file = dir.join("games.db");
    let file_arg = format!("sqlite:{}", file.display());
    // A code to confirm the address waits in the mail queue of the file.
    let made = commands(
        &file_arg,
        &[
            "signup alice pw-secret",
            "email alice pw-secret alice@example.org",
        ],
    );
    assert!(!made.contains("error"), "{made}");
    let (ok, waiting) = outbox(&file_arg, &[]);
    assert!(ok, "{waiting}");
    assert!(
        waiting.contains("to alice@example.org (alice)"),
        "{waiting}"
    );
    assert!(waiting.contains("(waiting"), "{waiting}");

    let db = c.database("migrate_mail");
    let address = c.address(&db);
    let out = ployd()
        .args(["migrate", "--from"])
        .arg(&file)
        .args(["--to", &address])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    // The same queue on PostgreSQL: the same message waiting, by the same number.
    assert_eq!(outbox(&address, &[]), (true, waiting.clone()));

    // Sent from PostgreSQL through a relay: the code it carries confirms the address there.
    let relay = crate::mail_relay::Relay::start(&dir, &[]);
    let (ok, sent) = outbox(
        &address,
        &[
            "--send",
            "--smtp",
            &relay.target(),
            "--mail-from",
            crate::mail_out::FROM,
            "--smtp-timeout",
            "2",
        ],
    );
    assert!(ok, "{sent}");
    assert_eq!(sent, "sent 1, refused 0\n");
    let mails = relay.messages();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(mails[0].to, "alice@example.org");
    assert!(
        waiting.starts_with(&format!("[{}] ", mails[0].number)),
        "{waiting}"
    );
    crate::mail_out::check_common(&mails[0], "alice");
    let code = crate::mail_out::code_in(&mails[0]);
    let confirmed = commands(&address, &[&format!("confirm alice pw-secret {code}")]);
    assert!(confirmed.starts_with("ok"), "{confirmed}");

    // Nothing waits any more on PostgreSQL, where the message is listed as sent; the file's
    // queue is as it was (the copy was sent, not the file's row).
    let (ok, now) = outbox(&address, &[]);
    assert!(ok && !now.contains("alice@example.org"), "{now}");
    let (ok, all) = outbox(&address, &["--all"]);
    assert!(ok && all.contains("to alice@example.org (alice)"), "{all}");
    assert!(all.contains("(sent at "), "{all}");
    assert_eq!(outbox(&file_arg, &[]), (true, waiting));
}
