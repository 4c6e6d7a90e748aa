//! Mail out through a real SMTP relay: the codes, then every note of a Pente game mailed to
//! the players with a confirmed address, one thread per board; a relay that is down delays
//! the mail and loses none, and none is sent twice.

use std::path::Path;
use std::process::Output;

use crate::common::{Cmd, FAST, ployd, temp_dir};
use crate::mail_relay::{Delivered, Relay};

pub const T0: i64 = 1_800_000_000;
pub const FROM: &str = "ployd@games.example.org";
const FIVE: &[&str] = &["E5", "A9", "b5", "B9", "C5", "C9", "d5", "D9", "F5"];
pub const STOP: &str = "To stop mail from this server, send the command: email";

/// `ployd outbox` with `args`, at time `now`.
pub fn outbox(db: &Path, now: i64, args: &[&str]) -> Output {
    ployd()
        .arg("outbox")
        .arg("--db")
        .arg(crate::common::db_arg(db))
        .args(FAST)
        .args(["--now", &now.to_string()])
        .args(args)
        .output()
        .expect("ployd outbox runs")
}

/// `ployd outbox --send` through `relay` at time `now`; its standard output.
pub fn send(db: &Path, relay: &Relay, now: i64) -> String {
    let out = outbox(
        db,
        now,
        &[
            "--send",
            "--smtp",
            &relay.target(),
            "--mail-from",
            FROM,
            "--smtp-timeout",
            "2",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The code in a delivered confirmation mail.
pub fn code_in(mail: &Delivered) -> String {
    mail.body
        .lines()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (words.len() == 4 && words[0] == "confirm").then(|| words[3].to_owned())
        })
        .expect("a code in the mail")
}

/// Checks what every mail of the server has: the sender, one plain-text part, the
/// recipient in the envelope and the header, and the stop line last.
pub fn check_common(m: &Delivered, user: &str) {
    assert_eq!(m.from, FROM);
    assert_eq!(m.envelope_to, m.to);
    assert_eq!(m.content_type, "text/plain");
    assert!(m.message_id.ends_with("@games.example.org"), "{m:?}");
    assert_eq!(
        m.body.trim_end().lines().last().unwrap(),
        format!("{STOP} {user} PASSWORD none"),
        "{m:?}"
    );
}

#[test]
fn boards_go_out_by_mail_in_one_thread_per_board_and_a_relay_down_loses_nothing() {
    let dir = temp_dir("mail-out");
    let db = dir.join("db");
    let mut relay = Relay::start(&dir, &[]);
    let mut cmd = Cmd::start(&db, &["--now", &T0.to_string()]);
    for (user, pass) in [
        ("alice", "alice-pw1"),
        ("bob", "bob-pw-22"),
        ("carol", "carol-pw1"),
    ] {
        assert!(
            cmd.first(&format!("signup {user} {pass}"))
                .starts_with("ok")
        );
        assert!(
            cmd.first(&format!("email {user} {pass} {user}@example.org"))
                .starts_with("ok")
        );
    }
    assert_eq!(send(&db, &relay, T0), "sent 3, refused 0\n");
    let codes = relay.messages();
    assert_eq!(codes.len(), 3);
    for (m, user) in codes.iter().zip(["alice", "bob", "carol"]) {
        assert_eq!(m.to, format!("{user}@example.org"));
        assert_eq!(m.in_reply_to, None);
        check_common(m, user);
    }
    assert!(
        cmd.first(&format!("confirm alice alice-pw1 {}", code_in(&codes[0])))
            .starts_with("ok")
    );
    assert!(
        cmd.first(&format!("confirm bob bob-pw-22 {}", code_in(&codes[1])))
            .starts_with("ok")
    );
    // carol does not confirm: nothing of her game goes to her.
    assert_eq!(
        cmd.first("pente challenge -board_size=9 alice alice-pw1 bob"),
        "ok board 101"
    );
    assert_eq!(
        cmd.first("pente challenge -board_size=9 alice alice-pw1 carol"),
        "ok board 102"
    );
    assert!(cmd.first("pente join 101 bob bob-pw-22").starts_with("ok"));
    assert!(
        cmd.first("pente join 102 carol carol-pw1")
            .starts_with("ok")
    );
    let play = |cmd: &mut Cmd, n: usize| {
        let (user, pass) = if n.is_multiple_of(2) {
            ("alice", "alice-pw1")
        } else {
            ("bob", "bob-pw-22")
        };
        let first = cmd.first(&format!("pente move 101 {user} {pass} {}#{n}", FIVE[n]));
        assert!(first.starts_with("ok"), "{first}");
    };
    for n in 0..4 {
        play(&mut cmd, n);
    }
    assert!(
        cmd.first("pente move 102 alice alice-pw1 E5#0")
            .starts_with("ok")
    );
    let out = send(&db, &relay, T0);
    assert!(out.starts_with("sent "), "{out}");

    // The relay goes down mid-game: the mail waits.
    relay.stop();
    for n in 4..FIVE.len() {
        play(&mut cmd, n);
    }
    let out = send(&db, &relay, T0);
    assert_eq!(
        out.lines().next().unwrap(),
        "sent 0, refused 0; the relay failed: the rest waits for a later try"
    );
    let waiting = crate::common::open_store(&db).mail_queue(false).unwrap();
    assert_eq!(waiting.len(), 5, "{waiting:?}");
    assert_eq!(waiting[0].attempts, 1);
    assert!(waiting[0].last_error.is_some());
    assert_eq!(
        waiting[0].next_try,
        T0 + 60,
        "the first wait is --smtp-retry"
    );
    assert!(waiting[1..].iter().all(|m| m.attempts == 0));
    let listed = outbox(&db, T0, &[]);
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed.contains(&format!("[{}] to ", waiting[0].id))
            && listed.contains(&format!("waiting, next try at {}, 1 tries", T0 + 60)),
        "{listed}"
    );

    // Back up: nothing goes before the wait is over, then everything, once.
    relay.restart();
    assert_eq!(
        send(&db, &relay, T0 + 59),
        "sent 0, refused 0\n".to_owned() + &listed
    );
    assert_eq!(send(&db, &relay, T0 + 60), "sent 5, refused 0\n");
    assert_eq!(send(&db, &relay, T0 + 120), "sent 0, refused 0\n");

    let store = crate::common::open_store(&db);
    let all = store.mail_queue(true).unwrap();
    assert!(all.iter().all(|m| m.sent_at.is_some()), "{all:?}");
    let delivered = relay.messages();
    let mut ids: Vec<&str> = delivered.iter().map(|m| m.message_id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), delivered.len(), "no message twice");
    assert_eq!(delivered.len(), all.len(), "every queued mail delivered");

    // Nothing but the code went to carol.
    assert_eq!(
        delivered
            .iter()
            .filter(|m| m.to == "carol@example.org")
            .count(),
        1
    );
    // alice and bob got every note of board 101 their inboxes hold, in one thread each.
    for user in ["alice", "bob"] {
        let notes: Vec<_> = store
            .inbox(user, 0)
            .unwrap()
            .into_iter()
            .filter(|n| n.note.game_id == Some(101))
            .collect();
        let mails: Vec<&Delivered> = delivered
            .iter()
            .filter(|m| m.to == format!("{user}@example.org") && m.subject.contains(" 101"))
            .collect();
        assert_eq!(mails.len(), notes.len(), "{user}: {mails:#?}");
        assert!(mails.len() >= 4, "{user}");
        let first = &mails[0].message_id;
        assert_eq!(mails[0].in_reply_to, None);
        for (m, n) in mails.iter().zip(&notes) {
            check_common(m, user);
            assert_eq!(m.subject, n.note.subject);
            assert!(m.body.starts_with(n.note.body.trim_end()), "{m:?}");
            if m.message_id != *first {
                assert_eq!(m.in_reply_to.as_deref(), Some(first.as_str()), "{m:?}");
                assert_eq!(m.references.as_deref(), Some(first.as_str()), "{m:?}");
            }
        }
    }
    // bob's last mail: alice's winning move and the end of the game.
    let last = delivered
        .iter()
        .rfind(|m| m.to == "bob@example.org")
        .unwrap();
    assert!(last.body.contains("F5"), "{last:?}");
    assert!(last.body.contains("alice (White) wins"), "{last:?}");
    // Every move appears in a mail to the other player.
    for (n, mv) in FIVE.iter().enumerate() {
        let to = if n.is_multiple_of(2) { "bob" } else { "alice" };
        assert!(
            delivered
                .iter()
                .any(|m| m.to == format!("{to}@example.org")
                    && m.subject.contains(&mv.to_uppercase())),
            "{mv} to {to}"
        );
    }
}

/// Waits (at most 15 s) until the relay holds `n` messages; them.
pub fn wait_for(relay: &Relay, n: usize) -> Vec<Delivered> {
    let start = std::time::Instant::now();
    loop {
        let got = relay.messages();
        if got.len() >= n || start.elapsed() > std::time::Duration::from_secs(15) {
            assert_eq!(got.len(), n, "{got:#?}");
            return got;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn serve_with_smtp_drains_the_queue_and_retries_after_the_relay_comes_back() {
    let dir = temp_dir("mail-serve");
    let db = dir.join("db");
    let mut relay = Relay::start(&dir, &[]);
    let target = relay.target();
    let server = crate::common::Server::start(
        &db,
        &[
            "--smtp",
            &target,
            "--mail-from",
            FROM,
            "--smtp-timeout",
            "2",
            "--smtp-retry",
            "1",
        ],
    );
    let r = crate::common::post(
        server.addr,
        "/api/users",
        &serde_json::json!({"userid": "dora", "password": "dora-pw-1", "email": "dora@example.org"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let got = wait_for(&relay, 1);
    check_common(&got[0], "dora");
    code_in(&got[0]);

    relay.stop();
    let reply = crate::accounts_public::post_command(
        server.addr,
        "email dora dora-pw-1 dora@example.org\n",
        None,
    );
    assert!(reply.starts_with("ok a code for dora"), "{reply}");
    // The try fails while the relay is down; the mail waits in the queue.
    let start = std::time::Instant::now();
    while crate::common::open_store(&db).mail_queue(false).unwrap()[0].attempts == 0 {
        assert!(start.elapsed().as_secs() < 15, "no try");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    relay.restart();
    let got = wait_for(&relay, 2);
    assert_ne!(code_in(&got[0]), code_in(&got[1]), "a new code");
    assert!(
        crate::common::open_store(&db)
            .mail_queue(true)
            .unwrap()
            .iter()
            .all(|m| m.sent_at.is_some())
    );
}

#[test]
fn starttls_with_a_certificate_trusted_by_smtp_ca_and_a_password_from_a_file() {
    let dir = temp_dir("mail-tls");
    let db = dir.join("db");
    let rcgen::CertifiedKey { cert, signing_key } =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let cert_file = dir.join("relay.pem");
    let key_file = dir.join("relay.key");
    std::fs::write(&cert_file, cert.pem()).unwrap();
    std::fs::write(&key_file, signing_key.serialize_pem()).unwrap();
    let password_file = dir.join("smtp-password");
    std::fs::write(&password_file, "relay-secret\n").unwrap();
    let relay = Relay::start(
        &dir,
        &[
            "--tls",
            cert_file.to_str().unwrap(),
            key_file.to_str().unwrap(),
            "--auth",
            "ployd",
            "relay-secret",
        ],
    );
    let mut cmd = Cmd::start(&db, &["--now", &T0.to_string()]);
    assert!(cmd.first("signup erin erin-pw-1").starts_with("ok"));
    assert!(
        cmd.first("email erin erin-pw-1 erin@example.org")
            .starts_with("ok")
    );
    let base = [
        "--send",
        "--smtp",
        &relay.target(),
        "--mail-from",
        FROM,
        "--smtp-timeout",
        "2",
    ];
    let run = |now: i64, extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        let out = outbox(&db, now, &args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let ca = cert_file.to_str().unwrap();
    let pw = password_file.to_str().unwrap();
    std::fs::write(dir.join("wrong"), "not-it\n").unwrap();
    let wrong = dir.join("wrong");
    let wrong = wrong.to_str().unwrap();
    // Without STARTTLS the relay refuses; without --smtp-ca the certificate is not
    // trusted; a wrong password is refused: the mail waits each time.
    for (i, extra) in [
        vec!["--smtp-user", "ployd", "--smtp-password-file", pw],
        vec![
            "--smtp-starttls",
            "--smtp-user",
            "ployd",
            "--smtp-password-file",
            pw,
        ],
        vec![
            "--smtp-starttls",
            "--smtp-ca",
            ca,
            "--smtp-user",
            "ployd",
            "--smtp-password-file",
            wrong,
        ],
    ]
    .into_iter()
    .enumerate()
    {
        // Each try after the wait of the one before.
        let (ok, out) = run(T0 + 1000 * i64::try_from(i).unwrap(), &extra);
        assert!(ok, "{out}");
        assert!(
            out.starts_with("sent 0, refused 0; the relay failed"),
            "{extra:?}: {out}"
        );
    }
    let waiting = crate::common::open_store(&db).mail_queue(false).unwrap();
    assert_eq!(waiting.len(), 1, "the mail still waits");
    assert_eq!(waiting[0].attempts, 3);
    assert!(relay.messages().is_empty());
    // The password is never taken from the command line.
    let out = outbox(&db, T0, &["--smtp-password", "relay-secret"]);
    assert!(!out.status.success());

    let out = outbox(
        &db,
        T0 + 100_000,
        &[
            base.as_slice(),
            &[
                "--smtp-starttls",
                "--smtp-ca",
                ca,
                "--smtp-user",
                "ployd",
                "--smtp-password-file",
                pw,
            ],
        ]
        .concat(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("sent 1, refused 0"), "{text}");
    let got = relay.messages();
    assert_eq!(got.len(), 1);
    check_common(&got[0], "erin");
}
