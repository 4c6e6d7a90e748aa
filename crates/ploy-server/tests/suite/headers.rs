//! The headers every response of a real `ployd serve` carries, `Cache-Control: no-store`
//! on the API, and the session cookie's `Secure` under `--secure-cookies`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::{Response, Server, get, login, post, raw, request, signup, temp_dir};
use serde_json::json;

/// The four headers every response carries; `what` names the response in failures.
fn assert_hardened(r: &Response, what: &str) {
    assert_eq!(
        r.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
    assert_eq!(r.header("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{what}");
    let csp: Vec<&str> = r
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("content-security-policy"))
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(csp.len(), 1, "{what}: one policy, not {csp:?}");
    assert!(csp[0].contains("frame-ancestors 'none'"), "{what}: {csp:?}");
}

#[test]
fn every_kind_of_response_carries_the_headers() {
    let dir = temp_dir("headers-every");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;

    // Page files: the page's own policy (with frame-ancestors), and they may be cached.
    for path in ["/", "/page/app.js"] {
        let r = get(addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert_hardened(&r, path);
        assert!(
            r.header("content-security-policy")
                .unwrap()
                .contains("script-src 'self'"),
            "{path}"
        );
        assert_eq!(r.header("cache-control"), Some("no-cache"), "{path}");
    }

    // An API answer, an error, 404s, a wrong method: all no-store.
    let api = get(addr, "/api/types");
    assert_eq!(api.status, 200);
    let error = post(addr, "/api/users", &json!({"userid": "x"}));
    assert_eq!(error.status, 400, "{}", error.text());
    let no_game = get(addr, "/api/games/999");
    assert_eq!(no_game.status, 404);
    let no_route = get(addr, "/nowhere");
    assert_eq!(no_route.status, 404);
    let no_file = get(addr, "/page/nothing.js");
    assert_eq!(no_file.status, 404);
    let method = request(addr, "PUT", "/api/types", None, None).unwrap();
    assert_eq!(method.status, 405);
    let big = request(
        addr,
        "POST",
        "/api/users",
        Some(&json!({"userid": "x".repeat(70 * 1024)})),
        None,
    )
    .unwrap();
    assert_eq!(big.status, 413);
    for (r, what) in [
        (&api, "api"),
        (&error, "error"),
        (&no_game, "unknown game"),
        (&no_route, "unknown route"),
        (&no_file, "unknown page file"),
        (&method, "wrong method"),
        (&big, "oversized body"),
    ] {
        assert_hardened(r, what);
        assert_eq!(
            r.header("content-security-policy"),
            Some("frame-ancestors 'none'"),
            "{what}"
        );
        assert_eq!(r.header("cache-control"), Some("no-store"), "{what}");
    }

    // An event stream: its head.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    let sse = Response {
        status: 200,
        headers,
        body: Vec::new(),
    };
    assert!(
        sse.header("content-type")
            .is_some_and(|v| v.starts_with("text/event-stream"))
    );
    assert_hardened(&sse, "event stream");
    assert_eq!(sse.header("cache-control"), Some("no-store"));
}

#[test]
fn signed_in_answers_are_not_stored_and_cookies_are_secure_on_request() {
    let dir = temp_dir("headers-session");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": "alice", "password": "pa-secret"}),
    );
    assert_eq!(r.status, 201);
    let set = r.header("set-cookie").unwrap();
    assert!(!set.contains("Secure"), "{set}");
    let cookie = set.split(';').next().unwrap().to_owned();
    for path in ["/api/sessions", "/api/inbox", "/api/games"] {
        let r = request(addr, "GET", path, None, Some(&cookie)).unwrap();
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert_hardened(&r, path);
        assert_eq!(r.header("cache-control"), Some("no-store"), "{path}");
    }
    let me = request(addr, "GET", "/api/sessions", None, Some(&cookie)).unwrap();
    assert_eq!(me.json(), json!({"userid": "alice"}));
    let out = request(addr, "DELETE", "/api/sessions", None, Some(&cookie)).unwrap();
    assert_eq!(out.status, 204);
    assert!(!out.header("set-cookie").unwrap().contains("Secure"));
    drop(server);

    let dir = temp_dir("headers-secure");
    let server = Server::start(&dir.join("db"), &["--secure-cookies"]);
    let addr = server.addr;
    signup(addr, "bob", "pb-secret");
    let cookie = login(addr, "bob", "pb-secret");
    let r = post(
        addr,
        "/api/sessions",
        &json!({"userid": "bob", "password": "pb-secret"}),
    );
    let set = r.header("set-cookie").unwrap();
    assert!(set.ends_with("; Secure"), "{set}");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    let out = request(addr, "DELETE", "/api/sessions", None, Some(&cookie)).unwrap();
    assert!(out.header("set-cookie").unwrap().ends_with("; Secure"));
}

/// Behind a trusted proxy the cookie is `Secure` when the proxy says the request came over
/// HTTPS, and only then; without `--trust-proxy` the header is anyone's and changes nothing.
#[test]
fn a_trusted_proxy_saying_https_makes_the_cookie_secure() {
    let sign_in = |addr, proto: &str| {
        let body = r#"{"userid":"carol","password":"pc-secret"}"#;
        let req = format!(
            "POST /api/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
             Content-Type: application/json\r\nX-Forwarded-For: 192.0.2.9\r\n\
             X-Forwarded-Proto: {proto}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let r = raw(addr, req.as_bytes()).unwrap();
        assert_eq!(r.status, 201, "{}", r.text());
        r.header("set-cookie").unwrap().to_owned()
    };
    let dir = temp_dir("headers-proxy");
    let server = Server::start(&dir.join("db"), &["--trust-proxy"]);
    signup(server.addr, "carol", "pc-secret");
    assert!(sign_in(server.addr, "https").ends_with("; Secure"));
    assert!(!sign_in(server.addr, "http").contains("Secure"));
    drop(server);
    let dir = temp_dir("headers-no-proxy");
    let server = Server::start(&dir.join("db"), &[]);
    signup(server.addr, "carol", "pc-secret");
    assert!(!sign_in(server.addr, "https").contains("Secure"));
}
