//! Accounts on a real `ployd serve`: the rules of new passwords and userids (while older
//! accounts keep working), changing a password, which ends the user's other sessions, and
//! signing out everywhere.

use std::path::Path;

use ploy_server::auth::{HashParams, hash_password};
use serde_json::{Value, json};

use crate::common::{Cmd, Response, Server, get, login, post, request, signup, temp_dir};

/// Adds an account the way an older `ployd` stored it (a password or userid that today's
/// rules would refuse for a new account).
fn old_account(db: &Path, userid: &str, password: &str) {
    let store = crate::common::open_store(db);
    let params = HashParams {
        memory_kib: 256,
        iterations: 1,
        parallelism: 1,
    };
    let hash = hash_password(password, params).unwrap();
    assert!(store.create_user(userid, &hash, 0).unwrap());
}

fn session_user(addr: std::net::SocketAddr, cookie: &str) -> Value {
    let r = request(addr, "GET", "/api/sessions", None, Some(cookie)).unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()["userid"].clone()
}

fn sign_in(addr: std::net::SocketAddr, userid: &str, password: &str) -> Response {
    post(
        addr,
        "/api/sessions",
        &json!({"userid": userid, "password": password}),
    )
}

#[test]
fn new_passwords_are_8_to_1024_bytes_without_spaces_and_old_ones_still_sign_in() {
    let dir = temp_dir("accounts-rules");
    let db = dir.join("db");
    old_account(&db, "olduser", "pw");
    let server = Server::start(&db, &[]);
    let addr = server.addr;

    for (password, why) in [
        ("1234567".to_owned(), "7 bytes"),
        ("two words".to_owned(), "a space"),
        ("tab\there".to_owned(), "a tab"),
        ("bell\u{7}bell".to_owned(), "a control character"),
        ("x".repeat(1025), "1,025 bytes"),
    ] {
        let r = post(
            addr,
            "/api/users",
            &json!({"userid": "newbie", "password": password}),
        );
        assert_eq!(r.status, 400, "{why}: {}", r.text());
        assert_eq!(r.json()["error"], "bad_request");
        assert!(
            !r.text().contains(&password),
            "{why}: the password is not echoed"
        );
    }
    // None of them made the account.
    assert_eq!(sign_in(addr, "newbie", "1234567").status, 403);
    signup(addr, "newbie", "12345678");
    signup(addr, "longpw", &"y".repeat(1024));
    signup(addr, "multibyte", "éééé"); // 4 characters, 8 bytes
    assert_eq!(sign_in(addr, "longpw", &"y".repeat(1024)).status, 201);

    // The command language has the same rule.
    let r = post_command(
        addr,
        "signup shorty 1234567\nsignup longer 12345678\n",
        None,
    );
    assert!(
        r.starts_with("error 400: a password is 8 to 1024 bytes"),
        "{r}"
    );
    assert!(r.contains("\nok signed up longer\n"), "{r}");

    // The account made before the rule still signs in with its 2-character password.
    assert_eq!(sign_in(addr, "olduser", "pw").status, 201);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `POST /api/command` with `body`; the reply's text.
pub(crate) fn post_command(addr: std::net::SocketAddr, body: &str, cookie: Option<&str>) -> String {
    let mut req = format!(
        "POST /api/command HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    let r = crate::common::raw(addr, req.as_bytes()).expect("the command route answers");
    assert_eq!(r.status, 200, "{}", r.text());
    r.text()
}

#[test]
fn new_userids_begin_with_a_letter_or_digit_and_old_ones_can_still_be_challenged() {
    let dir = temp_dir("accounts-userids");
    let db = dir.join("db");
    old_account(&db, "-x", "old-dash-password");
    let server = Server::start(&db, &[]);
    let addr = server.addr;
    for userid in ["-y", "_y"] {
        let r = post(
            addr,
            "/api/users",
            &json!({"userid": userid, "password": "long-enough"}),
        );
        assert_eq!(r.status, 400, "{userid}: {}", r.text());
        assert!(
            r.text().contains("must begin with a letter or a digit"),
            "{}",
            r.text()
        );
    }
    assert_eq!(sign_in(addr, "-y", "long-enough").status, 403);
    signup(addr, "9lives", "long-enough");
    signup(addr, "alice", "alice-secret");

    // The older userid `-x` signs in, and can challenge once `--` ends the options (without
    // it, `-x` reads as an option).
    assert_eq!(sign_in(addr, "-x", "old-dash-password").status, 201);
    let without = post_command(addr, "ploy challenge -x old-dash-password alice\n", None);
    assert!(without.starts_with("error 400"), "{without}");
    let with = post_command(addr, "ploy challenge -- -x old-dash-password alice\n", None);
    assert!(with.starts_with("ok board 101"), "{with}");
    let with_options = post_command(
        addr,
        "ploy challenge -deadline=7d -- -x old-dash-password alice\n",
        None,
    );
    assert!(with_options.starts_with("ok board 102"), "{with_options}");
    let game = get(addr, "/api/games/102").json();
    assert_eq!(game["players"], json!(["-x", "alice"]));
    assert!(
        game["options"]
            .as_array()
            .unwrap()
            .contains(&json!("-deadline=7d"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn changing_a_password_ends_the_other_sessions() {
    let dir = temp_dir("accounts-password");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "first-secret");
    let phone = login(addr, "alice", "first-secret");
    let laptop = login(addr, "alice", "first-secret");

    // Refusals change nothing: a wrong current password, a new one that breaks the rules,
    // a missing field.
    let wrong = post(
        addr,
        "/api/password",
        &json!({"userid": "alice", "password": "not-it-at-all", "new_password": "second-secret"}),
    );
    assert_eq!(wrong.status, 403, "{}", wrong.text());
    assert_eq!(wrong.json()["error"], "forbidden");
    let short = post(
        addr,
        "/api/password",
        &json!({"userid": "alice", "password": "first-secret", "new_password": "short"}),
    );
    assert_eq!(short.status, 400, "{}", short.text());
    let missing = post(
        addr,
        "/api/password",
        &json!({"userid": "alice", "new_password": "second-secret"}),
    );
    assert_eq!(missing.status, 400, "{}", missing.text());
    assert_eq!(session_user(addr, &phone), "alice");
    assert_eq!(sign_in(addr, "alice", "first-secret").status, 201);

    // With the cookie (and the current password): the laptop's session stays, the phone's
    // ends, and only the new password signs in.
    let r = request(
        addr,
        "POST",
        "/api/password",
        Some(&json!({"password": "first-secret", "new_password": "second-secret"})),
        Some(&laptop),
    )
    .unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(session_user(addr, &laptop), "alice");
    assert_eq!(session_user(addr, &phone), Value::Null);
    assert_eq!(sign_in(addr, "alice", "first-secret").status, 403);
    assert_eq!(sign_in(addr, "alice", "second-secret").status, 201);

    // The cookie does not stand in for the current password.
    let r = request(
        addr,
        "POST",
        "/api/password",
        Some(&json!({"new_password": "third-secret"})),
        Some(&laptop),
    )
    .unwrap();
    assert_eq!(r.status, 400, "{}", r.text());

    // With the userid and password in the body: every session ends.
    let r = post(
        addr,
        "/api/password",
        &json!({"userid": "alice", "password": "second-secret", "new_password": "third-secret"}),
    );
    assert_eq!(r.status, 204, "{}", r.text());
    assert_eq!(session_user(addr, &laptop), Value::Null);
    assert_eq!(sign_in(addr, "alice", "third-secret").status, 201);

    // The command `password USER OLD NEW`, over HTTP and in `ployd cmd`.
    let tablet = login(addr, "alice", "third-secret");
    let reply = post_command(addr, "password alice third-secret fourth-secret\n", None);
    assert!(
        reply.starts_with("ok password changed for alice\n"),
        "{reply}"
    );
    assert_eq!(session_user(addr, &tablet), Value::Null);
    let reply = post_command(addr, "password alice wrong-one fifth-secret\n", None);
    assert!(reply.starts_with("error 403:"), "{reply}");
    let reply = post_command(addr, "password alice fourth-secret short\n", None);
    assert!(reply.starts_with("error 400:"), "{reply}");
    assert_eq!(sign_in(addr, "alice", "fourth-secret").status, 201);
    let mut cmd = Cmd::start(&server.db, &[]);
    assert_eq!(
        cmd.first("password alice fourth-secret fifth-secret"),
        "ok password changed for alice"
    );
    assert_eq!(sign_in(addr, "alice", "fifth-secret").status, 201);
    assert_eq!(sign_in(addr, "alice", "fourth-secret").status, 403);
    // Within one request, the lines after a change check the new password.
    let reply = post_command(
        addr,
        "password alice fifth-secret sixth-secret\ninbox alice fifth-secret\ninbox alice sixth-secret\n",
        None,
    );
    let firsts: Vec<&str> = reply
        .split(".\n")
        .filter(|r| !r.is_empty())
        .map(|r| r.lines().next().unwrap())
        .collect();
    assert_eq!(
        firsts,
        [
            "ok password changed for alice",
            "error 403: unknown userid or wrong password",
            "ok 0 notifications"
        ],
        "{reply}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn signing_out_everywhere_ends_every_session_of_the_user() {
    let dir = temp_dir("accounts-everywhere");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-secret");
    signup(addr, "bob", "bob-secret");
    let a1 = login(addr, "alice", "alice-secret");
    let a2 = login(addr, "alice", "alice-secret");
    let b1 = login(addr, "bob", "bob-secret");

    let r = request(addr, "DELETE", "/api/sessions?all=2", None, Some(&a1)).unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(session_user(addr, &a1), "alice");

    // A plain sign-out ends this session only.
    let a3 = login(addr, "alice", "alice-secret");
    let r = request(addr, "DELETE", "/api/sessions", None, Some(&a3)).unwrap();
    assert_eq!(r.status, 204);
    assert_eq!(session_user(addr, &a3), Value::Null);
    assert_eq!(session_user(addr, &a1), "alice");

    let r = request(addr, "DELETE", "/api/sessions?all=1", None, Some(&a1)).unwrap();
    assert_eq!(r.status, 204, "{}", r.text());
    let cleared = r.header("set-cookie").unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(session_user(addr, &a1), Value::Null);
    assert_eq!(session_user(addr, &a2), Value::Null);
    // Another user's session is not touched.
    assert_eq!(session_user(addr, &b1), "bob");
    let _ = std::fs::remove_dir_all(&dir);
}
