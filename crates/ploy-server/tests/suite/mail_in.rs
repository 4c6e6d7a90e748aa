//! Mail in through `ployd mail`, with the replies and boards going out through a real SMTP
//! relay: a whole Pente game played by mail (the relay down in the middle of it), and bad
//! mail that is refused or dropped and changes nothing.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::common::{Cmd, FAST, ployd, temp_dir};
use crate::mail_out::{FROM, T0, check_common, code_in, send};
use crate::mail_relay::{Delivered, Relay};

const FIVE: &[&str] = &["E5", "A9", "b5", "B9", "C5", "C9", "d5", "D9", "F5"];

/// Pipes `raw` into `ployd mail`; its exit status and standard error.
fn mail_in(db: &Path, now: i64, raw: &[u8]) -> (i32, String) {
    let mut child = ployd()
        .arg("mail")
        .arg("--db")
        .arg(crate::common::db_arg(db))
        .args(FAST)
        .args(["--now", &now.to_string()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("ployd mail runs");
    let mut stdin = child.stdin.take().unwrap();
    let raw = raw.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&raw);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A plain-text message.
fn message(from: &str, id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: ployd@games.example.org\r\nSubject: {subject}\r\n\
         Message-ID: <{id}>\r\nDate: Thu, 26 Nov 2026 12:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Signs up `users` with `ployd cmd`, gives them addresses and confirms them with the
/// codes delivered through `relay`.
fn players(db: &Path, relay: &Relay, users: &[(&str, &str)]) {
    let mut cmd = Cmd::start(db, &["--now", &T0.to_string()]);
    let before = relay.messages().len();
    for (user, pass) in users {
        assert!(
            cmd.first(&format!("signup {user} {pass}"))
                .starts_with("ok")
        );
        assert!(
            cmd.first(&format!("email {user} {pass} {user}@example.org"))
                .starts_with("ok")
        );
    }
    send(db, relay, T0);
    let got = relay.messages();
    for (m, (user, pass)) in got[before..].iter().zip(users) {
        assert_eq!(m.to, format!("{user}@example.org"));
        let first = cmd.first(&format!("confirm {user} {pass} {}", code_in(m)));
        assert!(first.starts_with("ok"), "{first}");
    }
}

/// The delivered mail answering the message `id`.
fn reply_to<'a>(got: &'a [Delivered], id: &str) -> &'a Delivered {
    let want = id.to_owned();
    let found: Vec<&Delivered> = got
        .iter()
        .filter(|m| m.in_reply_to.as_deref() == Some(want.as_str()))
        .collect();
    assert_eq!(found.len(), 1, "one reply to {id}: {got:#?}");
    found[0]
}

#[test]
fn a_whole_pente_game_by_mail_with_the_relay_down_in_the_middle() {
    let dir = temp_dir("mail-game");
    let db = dir.join("db");
    let mut relay = Relay::start(&dir, &[]);
    players(&db, &relay, &[("alice", "alice-pw1"), ("bob", "bob-pw-22")]);
    let mut now = T0 + 10;
    let mut sent_ids: Vec<String> = Vec::new();
    let mut mailed = |from: &str, n: usize, body: &str, now: i64| -> String {
        let id = format!("cmd{n}.{from}");
        let (code, err) = mail_in(&db, now, &message(from, &id, "my move", body));
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("the replies are queued"), "{err}");
        sent_ids.push(id.clone());
        id
    };

    let id = mailed(
        "alice@example.org",
        0,
        "# Hello ployd: a game with bob\n\npente challenge -board_size=9 alice alice-pw1 bob\n\n-- \nAlice\npente resign 101 alice alice-pw1\n",
        now,
    );
    assert!(send(&db, &relay, now).starts_with("sent 2"));
    let got = relay.messages();
    let reply = reply_to(&got, &id);
    check_common(reply, "alice");
    assert_eq!(reply.to, "alice@example.org");
    assert_eq!(reply.subject, "Re: my move");
    assert!(
        reply
            .body
            .starts_with("> pente challenge -board_size=9 alice *** bob\nok board 101\n"),
        "{reply:?}"
    );
    assert!(!reply.body.contains("Hello"), "{reply:?}");
    assert!(!reply.body.contains("alice-pw1"), "no password in a reply");
    let id = mailed(
        "bob@example.org",
        1,
        "> pente challenge -board_size=9 alice alice-pw1 bob\n# joining\npente join 101 bob bob-pw-22\n",
        now,
    );
    send(&db, &relay, now);
    let got = relay.messages();
    let reply = reply_to(&got, &id);
    assert!(
        reply
            .body
            .starts_with("> pente join 101 bob ***\nok board 101: started"),
        "{reply:?}"
    );

    for (n, mv) in FIVE.iter().enumerate() {
        now += 60;
        let (user, pass) = if n.is_multiple_of(2) {
            ("alice", "alice-pw1")
        } else {
            ("bob", "bob-pw-22")
        };
        if n == 4 {
            relay.stop();
        }
        let id = mailed(
            &format!("{user}@example.org"),
            n + 2,
            &format!("pente move 101 {user} {pass} {mv}#{n}\n"),
            now,
        );
        let out = send(&db, &relay, now);
        if (4..7).contains(&n) {
            assert!(
                out.contains("the relay failed") || out.starts_with("sent 0"),
                "{out}"
            );
        }
        if n == 6 {
            relay.restart();
            now += 3600;
            let out = send(&db, &relay, now);
            assert!(out.starts_with("sent "), "{out}");
            assert!(!out.starts_with("sent 0"), "{out}");
        }
        if !(4..6).contains(&n) {
            let got = relay.messages();
            let reply = reply_to(&got, &id);
            assert!(
                reply.body.contains(&format!(
                    "> pente move 101 {user} *** {mv}#{n}\nok board 101 move {}: {}",
                    n + 1,
                    mv.to_uppercase()
                )),
                "{reply:?}"
            );
        }
    }
    assert_eq!(
        send(&db, &relay, now + 7200).lines().next(),
        Some("sent 0, refused 0")
    );

    let store = crate::common::open_store(&db);
    let all = store.mail_queue(true).unwrap();
    assert!(all.iter().all(|m| m.sent_at.is_some()), "nothing waits");
    let got = relay.messages();
    assert_eq!(got.len(), all.len(), "every mail delivered");
    let mut ids: Vec<&str> = got.iter().map(|m| m.message_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), got.len(), "none twice");
    // One reply per mailed message.
    for id in &sent_ids {
        reply_to(&got, id);
    }
    // The boards: every note of board 101 to each player, in one thread.
    for user in ["alice", "bob"] {
        let notes: Vec<_> = store
            .inbox(user, 0)
            .unwrap()
            .into_iter()
            .filter(|n| n.note.game_id == Some(101))
            .collect();
        let boards: Vec<&Delivered> = got
            .iter()
            .filter(|m| m.to == format!("{user}@example.org") && m.subject.contains(" 101"))
            .filter(|m| !m.subject.starts_with("Re:"))
            .collect();
        assert_eq!(boards.len(), notes.len(), "{user}");
        for (m, n) in boards.iter().zip(&notes) {
            check_common(m, user);
            assert_eq!(m.subject, n.note.subject);
            assert!(m.body.starts_with(n.note.body.trim_end()), "{m:?}");
            if m.message_id != boards[0].message_id {
                assert_eq!(
                    m.in_reply_to.as_deref(),
                    Some(boards[0].message_id.as_str())
                );
            }
        }
    }
    let last = got
        .iter()
        .rfind(|m| m.to == "bob@example.org" && !m.subject.starts_with("Re:"))
        .unwrap();
    assert!(last.body.contains("alice (White) wins"), "{last:?}");
    assert!(
        last.message_id
            .ends_with(&format!("@{}", FROM.split('@').nth(1).unwrap()))
    );
}

/// What bad mail must leave alone: board 101's moves, the inboxes, and the mail queue
/// except for replies.
fn snapshot(db: &Path) -> (Vec<String>, usize, usize, usize) {
    let store = crate::common::open_store(db);
    let moves = store
        .load_game(101)
        .unwrap()
        .map(|g| g.moves.iter().map(|m| m.text.clone()).collect())
        .unwrap_or_default();
    let not_replies = store
        .mail_queue(true)
        .unwrap()
        .iter()
        .filter(|m| m.mail.in_reply_to.is_none())
        .count();
    (
        moves,
        store.inbox("alice", 0).unwrap().len(),
        store.inbox("bob", 0).unwrap().len(),
        not_replies,
    )
}

fn replies(db: &Path) -> Vec<ploy_server::store::QueuedMail> {
    crate::common::open_store(db)
        .mail_queue(true)
        .unwrap()
        .into_iter()
        .filter(|m| m.mail.in_reply_to.is_some())
        .collect()
}

#[test]
fn bad_mail_is_refused_or_dropped_and_changes_nothing() {
    let dir = temp_dir("mail-bad");
    let db = dir.join("db");
    let relay = Relay::start(&dir, &[]);
    players(&db, &relay, &[("alice", "alice-pw1"), ("bob", "bob-pw-22")]);
    let mut cmd = Cmd::start(&db, &["--now", &T0.to_string()]);
    assert_eq!(
        cmd.first("pente challenge -board_size=9 alice alice-pw1 bob"),
        "ok board 101"
    );
    assert!(cmd.first("pente join 101 bob bob-pw-22").starts_with("ok"));
    assert!(
        cmd.first("pente move 101 alice alice-pw1 E5#0")
            .starts_with("ok")
    );
    drop(cmd);
    let before = snapshot(&db);
    let bob_moves = "pente move 101 bob bob-pw-22 A9#1\n";

    // Each bad message: the refusal in the reply (or `None`: no reply at all).
    let mut garbage = Vec::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..4096 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        garbage.push(x.to_le_bytes()[0]);
    }
    let thousand: String = (0..1000).map(|_| bob_moves).collect();
    let big = format!("{bob_moves}{}", "x".repeat(10 * 1024 * 1024));
    let no_text = "From: bob@example.org\r\nSubject: a picture\r\nMessage-ID: <pic@x>\r\n\
                   MIME-Version: 1.0\r\nContent-Type: image/png\r\n\
                   Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\r\n"
        .as_bytes()
        .to_vec();
    let mut auto = message("bob@example.org", "auto@x", "Out of office", bob_moves);
    auto.splice(0..0, b"Auto-Submitted: auto-replied\r\n".iter().copied());
    let cases: Vec<(&str, Vec<u8>, Option<&str>)> = vec![
        ("binary garbage", garbage, None),
        ("no message at all", Vec::new(), None),
        (
            "a sender that is no confirmed address",
            message("mallory@evil.example", "forged@x", "hi", bob_moves),
            None,
        ),
        ("automatic mail", auto, None),
        (
            "a confirmed sender acting as someone else",
            message("alice@example.org", "other@x", "hi", bob_moves),
            Some(
                "error 403: alice@example.org is not the confirmed address of `bob`; nothing was run",
            ),
        ),
        (
            "no text part",
            no_text,
            Some("error 400: the message has no text part: write the commands as plain text"),
        ),
        (
            "a 10 MB body",
            message("bob@example.org", "big@x", "big", &big),
            Some("error 413: the message is larger than 1048576 bytes"),
        ),
        (
            "a thousand command lines",
            message("bob@example.org", "many@x", "many", &thousand),
            Some("error 413: the message holds 1000 command lines; at most 32 run in one message"),
        ),
        (
            "signup",
            message(
                "bob@example.org",
                "signup@x",
                "new",
                "signup carl carl-pw-1\n",
            ),
            Some("error 403: signup is not taken by mail"),
        ),
        (
            "only quotes, comments and a signature",
            message(
                "bob@example.org",
                "quoted@x",
                "re",
                "> pente move 101 bob bob-pw-22 A9#1\n# pente move 101 bob bob-pw-22 A9#1\n-- \npente move 101 bob bob-pw-22 A9#1\n",
            ),
            Some("error 400: the message holds no command"),
        ),
        (
            "a password change with the wrong password: neither password echoed",
            message(
                "bob@example.org",
                "passwd@x",
                "re",
                "password bob wrong-pw-1 brand-new-pw\n",
            ),
            Some("> password bob *** ***\nerror 403: unknown userid or wrong password"),
        ),
        (
            "a wrong password",
            message(
                "bob@example.org",
                "wrongpw@x",
                "re",
                "pente move 101 bob wrong-pw-1 A9#1\n",
            ),
            Some("error 403: unknown userid or wrong password"),
        ),
    ];
    for (why, raw, refusal) in cases {
        let n = replies(&db).len();
        let (code, err) = mail_in(&db, T0 + 5, &raw);
        assert_eq!(code, 0, "{why}: {err}");
        assert_eq!(snapshot(&db), before, "{why}: nothing changed");
        let now = replies(&db);
        match refusal {
            None => {
                assert_eq!(now.len(), n, "{why}: no reply");
                assert!(err.contains("dropped without a reply"), "{why}: {err}");
            }
            Some(text) => {
                assert_eq!(now.len(), n + 1, "{why}: one reply");
                let reply = now.last().unwrap();
                assert_eq!(reply.mail.recipient.split('@').nth(1), Some("example.org"));
                assert!(reply.mail.body.contains(text), "{why}: {}", reply.mail.body);
            }
        }
    }

    // HTML only: the text of the HTML part runs; multipart: its text part.
    let html = "From: bob@example.org\r\nSubject: html\r\nMessage-ID: <html@x>\r\n\
                MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
                <html><body><p>pente show 101</p></body></html>\r\n";
    let (code, _) = mail_in(&db, T0 + 5, html.as_bytes());
    assert_eq!(code, 0);
    let reply = replies(&db).pop().unwrap();
    assert!(
        reply
            .mail
            .body
            .starts_with("> pente show 101\nok board 101"),
        "{}",
        reply.mail.body
    );
    let multipart = "From: bob@example.org\r\nSubject: both\r\nMessage-ID: <multi@x>\r\n\
        MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n\
        --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\npente move 101 bob bob-pw-22 A9#1\r\n\
        --b1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>pente move 101 bob bob-pw-22 A9#1</p>\r\n\
        --b1--\r\n";
    let (code, _) = mail_in(&db, T0 + 5, multipart.as_bytes());
    assert_eq!(code, 0);
    let reply = replies(&db).pop().unwrap();
    assert_eq!(reply.mail.in_reply_to.as_deref(), Some("<multi@x>"));
    assert_eq!(
        reply.mail.body.matches("ok board 101 move 2: A9").count(),
        1,
        "{}",
        reply.mail.body
    );
    assert_eq!(snapshot(&db).0, vec!["E5".to_owned(), "A9".to_owned()]);
}
