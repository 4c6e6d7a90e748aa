//! E-mail addresses of accounts (`email`, `confirm`, `"email"` at signup): a code is mailed
//! to a new address, good for 24 hours by the server's clock and 5 tries, and no other
//! mail goes there before it is confirmed; every mail ends with the line on stopping mail.

use std::path::Path;

use ploy_server::store::QueuedMail;
use serde_json::json;

use crate::common::{Cmd, Server, post, temp_dir};

const T0: i64 = 1_800_000_000;

fn queue(db: &Path) -> Vec<QueuedMail> {
    crate::common::open_store(db).mail_queue(true).unwrap()
}

fn address(db: &Path, user: &str) -> Option<(String, bool)> {
    crate::common::open_store(db)
        .mail_address(user)
        .unwrap()
        .map(|a| (a.address, a.confirmed_at.is_some()))
}

/// The code in the newest mail to `user`.
fn code_for(db: &Path, user: &str) -> String {
    let q = queue(db);
    let mail = q
        .iter()
        .rev()
        .find(|m| m.mail.userid.as_deref() == Some(user))
        .expect("a mail for the user");
    let line = mail
        .mail
        .body
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with(&format!("confirm {user} PASSWORD "))
        })
        .expect("the confirm command in the mail");
    let code = line.split_whitespace().last().unwrap().to_owned();
    assert_eq!(code.len(), 6, "{code}");
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{code}");
    code
}

fn wrong(code: &str) -> String {
    if code == "123456" { "654321" } else { "123456" }.to_owned()
}

fn at(t: i64) -> String {
    t.to_string()
}

#[test]
fn an_address_gets_its_code_and_is_confirmed_by_it() {
    let dir = temp_dir("mail-confirm");
    let db = dir.join("db");
    let mut cmd = Cmd::start(&db, &["--now", &at(T0)]);
    assert!(cmd.first("signup alice alice-pw1").starts_with("ok"));
    assert!(cmd.first("signup bob bob-pw-22").starts_with("ok"));

    // Refusals change nothing.
    for line in [
        "email alice alice-pw1 not-an-address",
        "email alice alice-pw1 a@b@c",
        "email alice wrong-pw1 alice@example.org",
        "email alice alice-pw1",
        "confirm alice alice-pw1 123456",
    ] {
        let first = cmd.first(line);
        assert!(first.starts_with("error "), "{line}: {first}");
    }
    assert_eq!(
        cmd.first("email alice alice-pw1 alice"),
        "error 400: `alice` is not an e-mail address: no user and domain around an `@`"
    );
    assert_eq!(
        cmd.first("email alice wrong-pw1 alice@example.org"),
        "error 403: unknown userid or wrong password"
    );
    assert!(queue(&db).is_empty());
    assert_eq!(address(&db, "alice"), None);

    let reply = cmd.send("email alice alice-pw1 alice@example.org");
    assert_eq!(
        reply[0],
        "ok a code for alice is mailed to alice@example.org"
    );
    let q = queue(&db);
    assert_eq!(q.len(), 1);
    let mail = &q[0];
    assert_eq!(mail.mail.recipient, "alice@example.org");
    assert_eq!(mail.mail.userid.as_deref(), Some("alice"));
    assert_eq!(mail.queued_at, T0);
    assert_eq!(mail.sent_at, None);
    assert!(mail.mail.subject.contains("alice"), "{}", mail.mail.subject);
    assert_eq!(
        mail.mail.body.lines().last(),
        Some("To stop mail from this server, send the command: email alice PASSWORD none")
    );
    let code = code_for(&db, "alice");
    assert!(
        !mail.mail.body.contains("alice-pw1"),
        "no password in the mail"
    );
    assert_eq!(
        address(&db, "alice"),
        Some(("alice@example.org".to_owned(), false))
    );

    // Another user cannot confirm it, nor does a wrong code.
    assert_eq!(
        cmd.first(&format!("confirm bob bob-pw-22 {code}")),
        "error 404: bob has no e-mail address; `email bob PASSWORD ADDRESS` gives one"
    );
    assert_eq!(
        cmd.first(&format!("confirm alice alice-pw1 {}", wrong(&code))),
        "error 403: wrong code; 4 tries left"
    );
    assert_eq!(
        cmd.first(&format!("confirm alice wrong-pw1 {code}")),
        "error 403: unknown userid or wrong password"
    );
    assert!(!address(&db, "alice").unwrap().1);
    assert_eq!(
        cmd.first(&format!("confirm alice alice-pw1 {code}")),
        "ok alice@example.org confirmed for alice"
    );
    assert_eq!(
        address(&db, "alice"),
        Some(("alice@example.org".to_owned(), true))
    );
    assert!(
        cmd.first(&format!("confirm alice alice-pw1 {code}"))
            .starts_with("error 409: alice@example.org is confirmed already")
    );

    // `none` removes the address.
    assert_eq!(
        cmd.first("email alice alice-pw1 none"),
        "ok no mail for alice"
    );
    assert_eq!(address(&db, "alice"), None);
}

#[test]
fn a_code_has_five_tries_and_24_hours_by_the_servers_clock() {
    let dir = temp_dir("mail-code-limits");
    let db = dir.join("db");
    let mut cmd = Cmd::start(&db, &["--now", &at(T0)]);
    assert!(cmd.first("signup carol carol-pw1").starts_with("ok"));
    assert!(cmd.first("signup dave dave-pw-1").starts_with("ok"));
    assert!(
        cmd.first("email carol carol-pw1 carol@example.org")
            .starts_with("ok")
    );
    assert!(
        cmd.first("email dave dave-pw-1 dave@example.org")
            .starts_with("ok")
    );
    let carol = code_for(&db, "carol");
    let dave = code_for(&db, "dave");

    // Five wrong codes use up carol's tries: the right one is refused after them.
    for left in (0..5).rev() {
        assert_eq!(
            cmd.first(&format!("confirm carol carol-pw1 {}", wrong(&carol))),
            format!("error 403: wrong code; {left} tries left")
        );
    }
    assert!(
        cmd.first(&format!("confirm carol carol-pw1 {carol}"))
            .starts_with("error 409: the code was tried 5 times;"),
    );
    assert!(!address(&db, "carol").unwrap().1);
    // A new `email` sends a new code, with new tries.
    assert!(
        cmd.first("email carol carol-pw1 carol@example.org")
            .starts_with("ok")
    );
    let carol2 = code_for(&db, "carol");
    assert_eq!(
        cmd.first(&format!("confirm carol carol-pw1 {carol2}")),
        "ok carol@example.org confirmed for carol"
    );
    drop(cmd);

    // 24 hours later dave's code has expired; a second earlier it had not.
    let mut late = Cmd::start(&db, &["--now", &at(T0 + 24 * 3600)]);
    assert!(
        late.first(&format!("confirm dave dave-pw-1 {dave}"))
            .starts_with("error 409: the code has expired (after 24 hours);")
    );
    drop(late);
    let mut early = Cmd::start(&db, &["--now", &at(T0 + 24 * 3600 - 1)]);
    assert_eq!(
        early.first(&format!("confirm dave dave-pw-1 {dave}")),
        "ok dave@example.org confirmed for dave"
    );
}

#[test]
fn signup_over_http_takes_an_email_and_a_bad_one_makes_no_account() {
    let dir = temp_dir("mail-signup");
    let db = dir.join("db");
    let server = Server::start(&db, &[]);
    let r = post(
        server.addr,
        "/api/users",
        &json!({"userid": "erin", "password": "erin-pw-1", "email": "not an address"}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["error"], "bad_request");
    let r = post(
        server.addr,
        "/api/users",
        &json!({"userid": "erin", "password": "erin-pw-1", "email": 7}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(
        crate::common::open_store(&db)
            .user("erin")
            .unwrap()
            .is_none()
    );
    assert!(queue(&db).is_empty());

    let r = post(
        server.addr,
        "/api/users",
        &json!({"userid": "erin", "password": "erin-pw-1", "email": "erin@example.org"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        address(&db, "erin"),
        Some(("erin@example.org".to_owned(), false))
    );
    let q = queue(&db);
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].mail.recipient, "erin@example.org");
    code_for(&db, "erin");
}
