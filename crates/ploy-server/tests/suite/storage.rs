//! The database file's health: `ployd check` and `ployd serve` find a damaged page, and
//! `ployd backup` copies a live database consistently and replaces its target atomically.

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{FAST, Server, ployd, temp_dir};

/// Runs `ployd cmd` on `db` with `commands` on its standard input, to its end (so that the
/// last connection closes and the write-ahead log is folded into the file).
fn commands(db: &Path, commands: &[&str]) -> String {
    let mut child = ployd()
        .arg("cmd")
        .arg("--db")
        .arg(db)
        .args(FAST)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ployd cmd starts");
    let mut stdin = child.stdin.take().unwrap();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!text.contains("\nerror"), "{text}");
    text
}

/// A database with three accounts and three games, one with a move.
fn make_db(db: &Path) {
    commands(
        db,
        &[
            "signup alice pw-secret",
            "signup bob pw-secret",
            "signup carol pw-secret",
            "ploy challenge alice pw-secret bob",
            "ploy join 101 bob pw-secret",
            "ploy move 101 alice pw-secret e3-e4",
            "ploy challenge bob pw-secret carol",
            "pente challenge carol pw-secret alice",
        ],
    );
    assert!(
        !db.with_extension("db-wal").exists() && db.metadata().unwrap().len() > 4 * 4096,
        "the log is folded into the file"
    );
}

fn run(args: &[&str], db: &Path) -> Output {
    ployd().args(args).arg("--db").arg(db).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `ployd check` on `db`: its exit code and output.
fn check(db: &Path) -> (Option<i32>, String) {
    let out = run(&["check"], db);
    (out.status.code(), text(&out))
}

/// Overwrites one page in the middle of the file (never the first, which holds the header
/// and the schema) with garbage.
fn damage_a_page(db: &Path) {
    let mut bytes = std::fs::read(db).unwrap();
    let page_size = match u16::from_be_bytes([bytes[16], bytes[17]]) {
        1 => 65536,
        n => usize::from(n),
    };
    // The root page of the move log (numbered from 1): a page of data, not of the schema,
    // so that the file still opens and SQLite's checks must find the damage.
    let root = crate::common::sql_i64(
        db,
        "SELECT rootpage FROM sqlite_master WHERE name = 'moves'",
    );
    let page = usize::try_from(root - 1).unwrap();
    assert!(page > 0 && (page + 1) * page_size <= bytes.len());
    bytes[page * page_size..(page + 1) * page_size].fill(0xA5);
    std::fs::write(db, bytes).unwrap();
}

/// `ployd serve` on `db` on a free port, expected to exit by itself: its exit code and
/// standard error.
fn serve_to_exit(db: &Path) -> (Option<i32>, String) {
    let mut child = ployd()
        .arg("serve")
        .arg("--db")
        .arg(db)
        .args(["--listen", "127.0.0.1:0"])
        .args(FAST)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "ployd serve still runs on a damaged file: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_damaged_page_is_named_by_check_and_refused_by_serve() {
    if !crate::common::sqlite_only("a_damaged_page_is_named_by_check_and_refused_by_serve") {
        return;
    }
    let dir = temp_dir("storage-damage");
    let db = dir.join("games.db");
    make_db(&db);

    // Healthy: both pass.
    let (code, out) = check(&db);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("integrity_check and foreign_key_check: ok"),
        "{out}"
    );
    assert!(out.contains("3 games replayed, 0 problems"), "{out}");
    let mut server = Server::start(&db, &[]);
    assert!(server.alive());
    server.kill();
    drop(server);
    assert_eq!(check(&db).0, Some(0));

    damage_a_page(&db);
    let (code, out) = check(&db);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("games.db is damaged"), "{out}");
    assert!(
        out.contains("btreeInitPage") || out.contains("malformed") || out.contains("page"),
        "SQLite's words: {out}"
    );
    // Bounded: at most 10 lines of SQLite's report after the heading.
    let report = out.split("is damaged").nth(1).unwrap();
    assert!(report.lines().count() <= 11, "{out}");

    let (code, err) = serve_to_exit(&db);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("games.db is damaged"), "{err}");
    assert!(err.contains("PRAGMA quick_check"), "{err}");
    assert!(err.contains("refusing to serve it"), "{err}");
    assert!(!err.contains("serving http://"), "{err}");
}

#[test]
fn backup_copies_a_live_database_and_replaces_only_with_force() {
    if !crate::common::sqlite_only("backup_copies_a_live_database_and_replaces_only_with_force") {
        return;
    }
    let dir = temp_dir("storage-backup");
    let db = dir.join("live.db");
    let copy = dir.join("copy.db");
    make_db(&db);
    let history = |db: &Path| commands(db, &["ploy history 101", "ploy show 102"]);
    let before = history(&db);

    // A server holds the database open while the copy is taken.
    let mut server = Server::start(&db, &[]);
    let out = run(&["backup", copy.to_str().unwrap()], &db);
    assert!(out.status.success(), "{}", text(&out));
    let (code, out) = check(&copy);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("3 games replayed, 0 problems"), "{out}");
    assert_eq!(history(&copy), before);

    // An existing target is refused without --force, and left as it was.
    commands(&db, &["ploy challenge alice pw-secret carol"]);
    let old = std::fs::read(&copy).unwrap();
    let out = run(&["backup", copy.to_str().unwrap()], &db);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("exists (--force replaces it)"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read(&copy).unwrap(), old);

    // With --force it is replaced by a copy of the database as it is now.
    let out = run(&["backup", "--force", copy.to_str().unwrap()], &db);
    assert!(out.status.success(), "{}", text(&out));
    let (code, out) = check(&copy);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("4 games replayed, 0 problems"), "{out}");
    assert!(server.alive());
    server.kill();

    // Never over the database itself; no temporary file is left behind.
    let out = run(&["backup", "--force", db.to_str().unwrap()], &db);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("is the database itself"),
        "{}",
        text(&out)
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
}
