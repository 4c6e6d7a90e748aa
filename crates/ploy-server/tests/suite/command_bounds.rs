//! The bounds of one `POST /api/command` on a real `ployd serve`: at most 32 command lines,
//! and once the replies reach 1 MiB the remaining lines are not run.

use std::io::Write;
use std::process::Stdio;

use crate::accounts_public::post_command;
use crate::common::{FAST, Server, ployd, post, raw, temp_dir};
use serde_json::json;

/// The replies of a command response: each reply's lines (without the closing `.`, with
/// the dot-stuffing undone).
fn replies(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for line in text.lines() {
        if line == "." {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(line.strip_prefix('.').unwrap_or(line).to_owned());
        }
    }
    assert!(current.is_empty(), "an unfinished reply: {current:?}");
    out
}

#[test]
fn more_than_32_lines_are_refused_and_none_runs() {
    let dir = temp_dir("bounds-lines");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let lines: String = (0..33)
        .map(|i| format!("signup user{i} long-enough\n"))
        .collect();
    let req = format!(
        "POST /api/command HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{lines}",
        lines.len()
    );
    let r = raw(addr, req.as_bytes()).unwrap();
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["error"], "too_many_commands");
    // Nothing ran: every userid is still free.
    for i in [0, 16, 32] {
        let r = post(
            addr,
            "/api/users",
            &json!({"userid": format!("user{i}"), "password": "long-enough"}),
        );
        assert_eq!(r.status, 201, "user{i}: {}", r.text());
    }
    // 32 lines (blank lines do not count) all run.
    let lines: String = (0..32).map(|_| "list\n\n").collect();
    let out = replies(&post_command(addr, &lines, None));
    assert_eq!(out.len(), 32);
    assert!(out.iter().all(|r| r[0].starts_with("ok ")), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn once_the_replies_reach_1_mib_the_remaining_lines_do_not_run() {
    let dir = temp_dir("bounds-reply");
    let db = dir.join("db");
    // Users with long userids and 300 games of one of them (each of 15 others challenges
    // it 20 times): one `games ... all` reply is some 38 KB, so 32 of them pass 1 MiB.
    let a = format!("a{}", "x".repeat(31));
    let others: Vec<String> = (0..15)
        .map(|i| format!("b{i:02}{}", "y".repeat(29)))
        .collect();
    let mut child = ployd()
        .arg("cmd")
        .arg("--db")
        .arg(crate::common::db_arg(&db))
        .args(FAST)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "signup {a} long-enough").unwrap();
        for b in &others {
            writeln!(stdin, "signup {b} long-enough").unwrap();
            for _ in 0..20 {
                writeln!(stdin, "pente challenge {b} long-enough {a}").unwrap();
            }
        }
    }
    assert!(child.wait().unwrap().success());
    let server = Server::start(&db, &[]);
    let addr = server.addr;

    let mut lines = "signup early long-enough\n".to_owned();
    lines.push_str(&format!("pente games {a} all\n").repeat(30));
    lines.push_str("signup late long-enough\n");
    let text = post_command(addr, &lines, None);
    let out = replies(&text);
    assert_eq!(out.len(), 32, "one reply a line");
    assert_eq!(out[0][0], "ok signed up early");
    let cut = out
        .iter()
        .position(|r| r[0].starts_with("error 413"))
        .expect("some lines are not run");
    assert!(cut > 1, "{cut}");
    for r in &out[cut..] {
        assert_eq!(r, &vec!["error 413: reply too large".to_owned()]);
    }
    for r in &out[1..cut] {
        assert_eq!(r[0], "ok 300 games");
    }
    // The lines ran while the replies were under 1 MiB, and stopped once they reached it.
    let size = |replies: &[Vec<String>]| -> usize {
        replies
            .iter()
            .map(|r| r.iter().map(|l| l.len() + 1).sum::<usize>() + 2)
            .sum()
    };
    assert!(size(&out[..cut - 1]) < 1024 * 1024);
    assert!(size(&out[..cut]) >= 1024 * 1024);
    // `signup late` did not run.
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": "late", "password": "long-enough"}),
    );
    assert_eq!(r.status, 403);
    let _ = std::fs::remove_dir_all(&dir);
}
