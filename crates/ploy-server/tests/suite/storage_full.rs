//! A full disk: a write that needs room the file cannot have answers `507 storage_full`
//! and leaves nothing half-written. The disk is filled for real through SQLite's own
//! `max_page_count` on a real file (`ployd --max-db-pages`): the same `SQLITE_FULL` that a
//! full disk gives.

use std::net::SocketAddr;

use crate::common::{Cmd, Response, Server, get, join, ployd, post, raw, signup, temp_dir};

/// Games made and joined before the cap.
const STOCK: i64 = 40;
use serde_json::{Value, json};

/// The file's pages now.
fn pages(db: &std::path::Path) -> u64 {
    // The main file plus what the write-ahead log holds, in 4 KiB pages: a generous count
    // of what the database uses.
    let size = |p: std::path::PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    let wal = db.with_extension("db-wal");
    (size(db.to_owned()) + size(wal)).div_ceil(4096)
}

fn view(addr: SocketAddr, id: i64) -> Value {
    get(addr, &format!("/api/games/{id}")).json()
}

fn assert_full(r: &Response, what: &str) {
    assert_eq!(r.status, 507, "{what}: {}", r.text());
    assert_eq!(r.json()["error"], "storage_full", "{what}");
}

/// `ployd check` on the file: exit status and output.
fn check(db: &std::path::Path) -> (bool, String) {
    let out = ployd().arg("check").arg("--db").arg(db).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn a_full_disk_answers_507_and_leaves_nothing_half_written() {
    if !crate::common::sqlite_only("a_full_disk_answers_507_and_leaves_nothing_half_written") {
        return;
    }
    let dir = temp_dir("storage-full");
    let db = dir.join("ployd.db");
    // A database with its schema, then a server that may grow it by a few pages only.
    {
        let server = Server::start(&db, &[]);
        signup(server.addr, "alice", "alice-pass-1");
        signup(server.addr, "bob", "bob-pass-22");
        // Games already joined, to fill with moves (a join under the cap could be the
        // write that does not fit).
        for _ in 0..STOCK {
            let r = post(
                server.addr,
                "/api/games",
                &json!({"game": "ploy", "players": ["alice", "bob"],
                        "userid": "alice", "password": "alice-pass-1"}),
            );
            assert_eq!(r.status, 201, "{}", r.text());
            join(
                server.addr,
                r.json()["id"].as_i64().unwrap(),
                "bob",
                "bob-pass-22",
            );
        }
    }
    let limit = pages(&db) + 12;
    let limit_arg = limit.to_string();
    let mut server = Server::start(&db, &["--max-db-pages", &limit_arg]);
    let addr = server.addr;

    // Moves until one does not fit: every refused move changes nothing.
    let mut refused_move = None;
    let mut game: Option<i64> = None;
    let mut stock = (101..101 + STOCK).collect::<Vec<i64>>();
    let mut games = usize::try_from(STOCK).unwrap();
    for _ in 0..3000 {
        let id = match game.or_else(|| stock.pop()) {
            Some(id) => id,
            None => {
                let r = post(
                    addr,
                    "/api/games",
                    &json!({"game": "ploy", "players": ["alice", "bob"],
                            "userid": "alice", "password": "alice-pass-1"}),
                );
                if r.status == 507 {
                    assert_full(&r, "a new game");
                    // No game was made.
                    let listed = get(addr, "/api/games?user=alice&filter=all").json();
                    assert_eq!(listed["games"].as_array().unwrap().len(), games);
                    break;
                }
                assert_eq!(r.status, 201, "{}", r.text());
                games += 1;
                let id = r.json()["id"].as_i64().unwrap();
                let joined = post(
                    addr,
                    &format!("/api/games/{id}/join"),
                    &json!({"userid": "bob", "password": "bob-pass-22"}),
                );
                assert_eq!(
                    joined.status,
                    200,
                    "the stock of games ended before the disk filled: {}",
                    joined.text()
                );
                id
            }
        };
        game = Some(id);
        let before = view(addr, id);
        if before["status"] != "active" {
            game = None;
            continue;
        }
        let who = before["to_move"].as_str().unwrap().to_owned();
        let password = if who == "alice" {
            "alice-pass-1"
        } else {
            "bob-pass-22"
        };
        let legal = before["legal"].as_array().unwrap();
        let mv = legal[legal.len() / 2].as_str().unwrap().to_owned();
        let ply = before["moves_played"].as_u64().unwrap();
        let r = post(
            addr,
            &format!("/api/games/{id}/moves"),
            &json!({"userid": who, "password": password, "move": mv, "ply": ply}),
        );
        if r.status == 507 {
            assert_full(&r, "a move");
            assert_eq!(view(addr, id), before, "the refused move changed the game");
            refused_move = Some((id, before, who, password, mv));
            break;
        }
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let (id, before, who, password, mv) = refused_move.expect("the disk filled up with moves");

    // New accounts, until one does not fit: it does not half exist.
    let mut refused_user = None;
    for n in 0..2000 {
        let user = format!("user{n}");
        let r = post(
            addr,
            "/api/users",
            &json!({"userid": user, "password": "user-pass-1"}),
        );
        if r.status == 507 {
            assert_full(&r, "a sign-up");
            refused_user = Some(user);
            break;
        }
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let user = refused_user.expect("the disk filled up with accounts");
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": user, "password": "user-pass-1"}),
    );
    assert_eq!(r.status, 403, "{}", r.text());
    // The command language says the same.
    let line = format!("signup {user} user-pass-1");
    let r = raw(
        addr,
        format!(
            "POST /api/command HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{line}",
            line.len()
        )
        .as_bytes(),
    )
    .unwrap();
    assert!(r.text().starts_with("error 507:"), "{}", r.text());
    // Reads still answer.
    assert_eq!(view(addr, id), before);
    assert_eq!(get(addr, "/api/types").status, 200);
    // The file is whole and every game replays as cached.
    let (ok, out) = check(&db);
    assert!(ok, "{out}");

    // With room again, the same move is played.
    server.kill();
    let mut cmd = Cmd::start(&db, &["--max-db-pages", &limit_arg]);
    let reply = cmd.first(&format!("signup {user} user-pass-1"));
    assert!(reply.starts_with("error 507:"), "{reply}");
    drop(cmd);
    let server = Server::start(&db, &[]);
    let r = post(
        server.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": who, "password": password, "move": mv,
                "ply": before["moves_played"]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    drop(server);
    let (ok, out) = check(&db);
    assert!(ok, "{out}");
}
