//! No cross-site actions: a POST, PUT or DELETE that carries the session cookie goes on
//! only if its `Origin` is the server's own, or it has no `Origin` and its
//! `Sec-Fetch-Site` is absent, `same-origin` or `none`; otherwise `403 cross_origin` and
//! nothing changes. Requests without the cookie are not checked. The server's origin is
//! `--public-origin`, else the scheme (`X-Forwarded-Proto` under `--trust-proxy`) and the
//! `Host` header. (The same attacks from a real browser page on another port are in
//! `page/cross_origin.rs`.)

use std::net::SocketAddr;

use crate::common::{Response, Server, get, join, login, post, raw, signup, temp_dir};
use serde_json::{Value, json};

/// A request with a JSON body (when `body` is not empty), the cookie and `extra` headers.
fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
    extra: &[(&str, &str)],
) -> Response {
    send_to(addr, &addr.to_string(), method, path, body, cookie, extra)
}

/// [`send`] with the `Host` header `host`.
fn send_to(
    addr: SocketAddr,
    host: &str,
    method: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
    extra: &[(&str, &str)],
) -> Response {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
    }
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    raw(addr, req.as_bytes()).expect("a response")
}

fn assert_cross_origin(r: &Response, what: &str) {
    assert_eq!(r.status, 403, "{what}: {}", r.text());
    assert_eq!(r.json()["error"], "cross_origin", "{what}");
}

/// A game of alice (to move) against bob; alice's cookie.
fn game(addr: SocketAddr) -> (i64, String) {
    signup(addr, "alice", "alice-pass-1");
    signup(addr, "bob", "bob-pass-22");
    let g = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"],
                "userid": "alice", "password": "alice-pass-1"}),
    );
    assert_eq!(g.status, 201, "{}", g.text());
    let id = g.json()["id"].as_i64().unwrap();
    join(addr, id, "bob", "bob-pass-22");
    (id, login(addr, "alice", "alice-pass-1"))
}

fn state(addr: SocketAddr, id: i64) -> Value {
    let v = get(addr, &format!("/api/games/{id}")).json();
    json!({"ply": v["moves_played"], "status": v["status"]})
}

fn games_of(addr: SocketAddr, user: &str) -> usize {
    get(addr, &format!("/api/games?user={user}&filter=all")).json()["games"]
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn cookie_bearing_actions_from_elsewhere_are_refused_and_change_nothing() {
    let dir = temp_dir("xorigin-refused");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let (id, cookie) = game(addr);
    let before = state(addr, id);
    let ours = format!("http://{addr}");
    let other_port = format!("http://127.0.0.1:{}", addr.port().wrapping_add(1).max(1));
    let https_ours = format!("https://{addr}");
    let moves = format!("/api/games/{id}/moves");
    let mv = r#"{"move":"e3-e4","ply":0}"#;

    let refused: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("another port", vec![("Origin", other_port.as_str())]),
        ("another host", vec![("Origin", "http://evil.example")]),
        ("https of our host", vec![("Origin", https_ours.as_str())]),
        ("an opaque origin", vec![("Origin", "null")]),
        ("a cross-site fetch", vec![("Sec-Fetch-Site", "cross-site")]),
        ("a same-site fetch", vec![("Sec-Fetch-Site", "same-site")]),
        (
            "a foreign origin that calls itself same-origin",
            vec![
                ("Origin", "http://evil.example"),
                ("Sec-Fetch-Site", "same-origin"),
            ],
        ),
    ];
    for (what, headers) in &refused {
        let r = send(addr, "POST", &moves, mv, Some(&cookie), headers);
        assert_cross_origin(&r, what);
        // A form's text/plain body is refused the same way (before its type is looked at).
        let mut form = format!(
            "POST {moves} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
             Content-Type: text/plain\r\nContent-Length: {}\r\n",
            mv.len()
        );
        for (k, v) in headers {
            form.push_str(&format!("{k}: {v}\r\n"));
        }
        form.push_str("\r\n");
        form.push_str(mv);
        assert_cross_origin(&raw(addr, form.as_bytes()).unwrap(), what);
    }
    let other = [("Origin", other_port.as_str())];
    // A new game with a short deadline, a resignation, a command, signing out: all refused.
    let r = send(
        addr,
        "POST",
        "/api/games",
        r#"{"game":"ploy","options":["-deadline=1s"],"players":["alice","bob"]}"#,
        Some(&cookie),
        &other,
    );
    assert_cross_origin(&r, "challenge");
    let r = send(
        addr,
        "POST",
        &format!("/api/games/{id}/resign"),
        "",
        Some(&cookie),
        &other,
    );
    assert_cross_origin(&r, "resign");
    let mut cmd = format!(
        "POST /api/command HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Origin: {other_port}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        format!("ploy resign {id} alice *").len()
    );
    cmd.push_str(&format!("ploy resign {id} alice *"));
    assert_cross_origin(&raw(addr, cmd.as_bytes()).unwrap(), "command");
    let r = send(addr, "DELETE", "/api/sessions", "", Some(&cookie), &other);
    assert_cross_origin(&r, "sign-out");

    // Nothing changed: no move, no resignation, one game, the session still alive.
    assert_eq!(state(addr, id), before);
    assert_eq!(games_of(addr, "alice"), 1);
    let who = send(addr, "GET", "/api/sessions", "", Some(&cookie), &other);
    assert_eq!(who.json()["userid"], "alice", "{}", who.text());

    // Reading is not an action: a GET with a foreign Origin answers.
    assert_eq!(
        send(
            addr,
            "GET",
            &format!("/api/games/{id}"),
            "",
            Some(&cookie),
            &other
        )
        .status,
        200
    );

    // The same move from the server's own origin is played.
    let r = send(
        addr,
        "POST",
        &moves,
        mv,
        Some(&cookie),
        &[("Origin", &ours)],
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(state(addr, id)["ply"], 1);
}

#[test]
fn same_origin_and_originless_requests_act() {
    let dir = temp_dir("xorigin-allowed");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let (_, cookie) = game(addr);
    let challenge = r#"{"game":"ploy","players":["alice","bob"]}"#;
    let ours = format!("http://{addr}");
    let ours_upper = format!("HTTP://{addr}");
    let allowed: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("no Origin, no Sec-Fetch-Site (curl)", vec![]),
        (
            "Sec-Fetch-Site: same-origin",
            vec![("Sec-Fetch-Site", "same-origin")],
        ),
        ("Sec-Fetch-Site: none", vec![("Sec-Fetch-Site", "none")]),
        ("our Origin", vec![("Origin", ours.as_str())]),
        (
            "our Origin in capitals",
            vec![("Origin", ours_upper.as_str())],
        ),
        (
            "our Origin, same-origin fetch",
            vec![("Origin", ours.as_str()), ("Sec-Fetch-Site", "same-origin")],
        ),
    ];
    for (n, (what, headers)) in allowed.iter().enumerate() {
        let r = send(
            addr,
            "POST",
            "/api/games",
            challenge,
            Some(&cookie),
            headers,
        );
        assert_eq!(r.status, 201, "{what}: {}", r.text());
        assert_eq!(games_of(addr, "alice"), n + 2, "{what}");
    }

    // Without the cookie the password is the proof: no Origin check at all.
    let r = send(
        addr,
        "POST",
        "/api/games",
        r#"{"game":"ploy","players":["bob","alice"],"userid":"bob","password":"bob-pass-22"}"#,
        None,
        &[
            ("Origin", "http://evil.example"),
            ("Sec-Fetch-Site", "cross-site"),
        ],
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = send(
        addr,
        "POST",
        "/api/sessions",
        r#"{"userid":"bob","password":"bob-pass-22"}"#,
        None,
        &[("Origin", "null")],
    );
    assert_eq!(r.status, 201, "sign-in from anywhere: {}", r.text());

    // Signing out from the page's own origin works and ends the session.
    let r = send(
        addr,
        "DELETE",
        "/api/sessions",
        "",
        Some(&cookie),
        &[("Origin", &ours)],
    );
    assert_eq!(r.status, 204);
    let who = send(addr, "GET", "/api/sessions", "", Some(&cookie), &[]);
    assert_eq!(who.json()["userid"], Value::Null);
}

#[test]
fn the_origin_is_the_public_one_or_the_proxys_scheme_and_host() {
    // --public-origin: only that origin, whatever the Host header says.
    let dir = temp_dir("xorigin-public");
    let server = Server::start(
        &dir.join("db"),
        &["--public-origin", "https://Ployd.Example.org/"],
    );
    let addr = server.addr;
    let (_, cookie) = game(addr);
    let challenge = r#"{"game":"ploy","players":["alice","bob"]}"#;
    let local = format!("http://{addr}");
    let r = send(
        addr,
        "POST",
        "/api/games",
        challenge,
        Some(&cookie),
        &[("Origin", &local)],
    );
    assert_cross_origin(&r, "the Host's origin is not the public one");
    for origin in ["https://ployd.example.org", "https://ployd.example.org:443"] {
        let r = send(
            addr,
            "POST",
            "/api/games",
            challenge,
            Some(&cookie),
            &[("Origin", origin)],
        );
        assert_eq!(r.status, 201, "{origin}: {}", r.text());
    }
    drop(server);

    // --trust-proxy: the scheme from X-Forwarded-Proto, the host from Host.
    let dir = temp_dir("xorigin-proxy");
    let server = Server::start(&dir.join("db"), &["--trust-proxy"]);
    let addr = server.addr;
    let (_, cookie) = game(addr);
    let proxied = |origin: &str, proto: &str| {
        send_to(
            addr,
            "games.example.org",
            "POST",
            "/api/games",
            challenge,
            Some(&cookie),
            &[("Origin", origin), ("X-Forwarded-Proto", proto)],
        )
    };
    assert_eq!(proxied("https://games.example.org", "https").status, 201);
    assert_cross_origin(
        &proxied("http://games.example.org", "https"),
        "http under https",
    );
    assert_cross_origin(
        &proxied("https://games.example.org", "http"),
        "https under http",
    );
    assert_eq!(proxied("http://games.example.org", "http").status, 201);
    drop(server);

    // Without --trust-proxy, X-Forwarded-Proto is ignored: the scheme is http.
    let dir = temp_dir("xorigin-noproxy");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let (_, cookie) = game(addr);
    let r = send_to(
        addr,
        "games.example.org",
        "POST",
        "/api/games",
        challenge,
        Some(&cookie),
        &[
            ("Origin", "https://games.example.org"),
            ("X-Forwarded-Proto", "https"),
        ],
    );
    assert_cross_origin(&r, "an untrusted X-Forwarded-Proto");
}

#[test]
fn a_bad_public_origin_is_refused_at_start() {
    let dir = temp_dir("xorigin-flag");
    for bad in ["ployd.example.org", "https://x.org/games", "ftp://x.org"] {
        let out = crate::common::ployd()
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--public-origin",
                bad,
                "--db",
            ])
            .arg(dir.join("db"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--public-origin"), "{bad}: {err}");
    }
}
