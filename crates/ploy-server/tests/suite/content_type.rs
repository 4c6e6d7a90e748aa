//! Content types: a non-empty body on a JSON route needs `Content-Type: application/json`
//! (parameters such as `charset` allowed), otherwise `415 unsupported_media_type` and
//! nothing changes; an empty body needs no type; the command route takes any type.

use std::net::SocketAddr;

use crate::common::{Response, Server, get, join, login, post, raw, signup, temp_dir};
use serde_json::json;

/// A POST of `body` with `content_type` (none if `None`) and the cookie.
fn send(
    addr: SocketAddr,
    path: &str,
    content_type: Option<&str>,
    body: &str,
    cookie: Option<&str>,
) -> Response {
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(t) = content_type {
        req.push_str(&format!("Content-Type: {t}\r\n"));
    }
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    raw(addr, req.as_bytes()).expect("a response")
}

fn assert_415(r: &Response, what: &str) {
    assert_eq!(r.status, 415, "{what}: {}", r.text());
    assert_eq!(r.json()["error"], "unsupported_media_type", "{what}");
}

#[test]
fn json_routes_refuse_bodies_not_marked_json_and_change_nothing() {
    let dir = temp_dir("ctype-json");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pass-1");
    signup(addr, "bob", "bob-pass-22");
    let g = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "alice-pass-1"}),
    );
    let id = g.json()["id"].as_i64().unwrap();
    join(addr, id, "bob", "bob-pass-22");

    let not_json = [
        None,
        Some("text/plain"),
        Some("text/plain; charset=utf-8"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        Some("application/jsonx"),
        Some("application/json-seq"),
        Some("text/json"),
    ];
    let account = r#"{"userid":"carol","password":"carol-pass-1"}"#;
    let mv = r#"{"userid":"alice","password":"alice-pass-1","move":"e3-e4","ply":0}"#;
    let challenge =
        r#"{"game":"ploy","players":["alice","bob"],"userid":"alice","password":"alice-pass-1"}"#;
    for t in not_json {
        let what = format!("{t:?}");
        assert_415(&send(addr, "/api/users", t, account, None), &what);
        assert_415(&send(addr, "/api/sessions", t, account, None), &what);
        assert_415(&send(addr, "/api/games", t, challenge, None), &what);
        assert_415(
            &send(addr, &format!("/api/games/{id}/moves"), t, mv, None),
            &what,
        );
        assert_415(
            &send(
                addr,
                &format!("/api/games/{id}/resign"),
                t,
                r#"{"userid":"alice","password":"alice-pass-1"}"#,
                None,
            ),
            &what,
        );
        assert_415(
            &send(addr, "/api/types/ploy/seats", t, r#"{"options":[]}"#, None),
            &what,
        );
    }
    // Nothing changed: no account carol, one game, no move, not resigned.
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": "carol", "password": "carol-pass-1"}),
    );
    assert_eq!(r.status, 403, "{}", r.text());
    let games = get(addr, "/api/games?user=alice&filter=all").json();
    assert_eq!(games["games"].as_array().unwrap().len(), 1);
    let view = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(view["moves_played"], 0);
    assert_eq!(view["status"], "active");

    // application/json with parameters, in any case, is JSON.
    for (n, t) in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON;charset=UTF-8",
        " application/json ",
    ]
    .iter()
    .enumerate()
    {
        let body = format!(r#"{{"userid":"user{n}","password":"user-pass-{n}0"}}"#);
        let r = send(addr, "/api/users", Some(t), &body, None);
        assert_eq!(r.status, 201, "{t}: {}", r.text());
    }
}

#[test]
fn empty_bodies_need_no_type_and_the_command_route_takes_any() {
    let dir = temp_dir("ctype-empty");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pass-1");
    signup(addr, "bob", "bob-pass-22");
    let cookie = login(addr, "alice", "alice-pass-1");
    let g = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "alice-pass-1"}),
    );
    let id = g.json()["id"].as_i64().unwrap();

    // Empty bodies, no Content-Type (or a wrong one): read as today.
    let r = send(addr, "/api/types/ploy/seats", None, "", None);
    assert_eq!(r.status, 200, "{}", r.text());
    let r = send(addr, "/api/inbox", Some("text/plain"), "", Some(&cookie));
    assert_eq!(r.status, 200, "{}", r.text());
    let r = send(addr, "/api/types/ploy/seats", Some("text/plain"), "", None);
    assert_eq!(r.status, 200, "{}", r.text());
    // A route that needs a body says so, whatever the type of the empty one.
    let r = send(
        addr,
        &format!("/api/games/{id}/resign"),
        Some("text/plain"),
        "",
        Some(&cookie),
    );
    assert_eq!(r.status, 400, "{}", r.text());

    // The command route: text/plain, none, JSON, a form: all run.
    for (n, t) in [
        Some("text/plain"),
        None,
        Some("application/json"),
        Some("application/x-www-form-urlencoded"),
    ]
    .iter()
    .enumerate()
    {
        let line = format!("signup cmd{n} cmd-pass-{n}0");
        let r = send(addr, "/api/command", *t, &line, None);
        assert_eq!(r.status, 200, "{t:?}: {}", r.text());
        assert!(
            r.text().starts_with(&format!("ok signed up cmd{n}")),
            "{t:?}: {}",
            r.text()
        );
    }
}
