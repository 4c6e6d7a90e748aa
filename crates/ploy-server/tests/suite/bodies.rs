//! The request bodies of the HTTP API, refusal by refusal: the status and the exact message
//! for a missing field, a field of the wrong type, bad JSON, an empty body; of duplicate
//! JSON keys the last one counts. (A body's `Content-Type` is the subject of
//! `content_type.rs`.)

use std::time::Duration;

use crate::common::{Response, Server, post, signup, temp_dir};
use serde_json::json;

/// Sends `body` to `path` by POST with `content_type` (none if `None`).
fn send(
    addr: std::net::SocketAddr,
    path: &str,
    content_type: Option<&str>,
    body: &str,
) -> Response {
    let kind = content_type
        .map(|k| format!("Content-Type: {k}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{kind}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    crate::common::raw_with_timeout(addr, req.as_bytes(), Duration::from_secs(30)).expect("POST")
}

/// The status and the message of a refusal (or of success, the body's `userid`).
fn answer(r: &Response) -> (u16, String) {
    let j = r.json();
    let text = j["message"]
        .as_str()
        .or_else(|| j["userid"].as_str())
        .unwrap_or_default()
        .to_owned();
    (r.status, text)
}

/// A case: what it shows, the path, the `Content-Type`, the body, the status and words.
type Case<'a> = (&'a str, String, Option<&'a str>, &'a str, (u16, String));

#[test]
fn bodies_are_read_field_by_field_with_todays_words() {
    let dir = temp_dir("http-bodies");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "pa-secret");
    signup(addr, "bob", "pb-secret");
    let id = post(
        addr,
        "/api/games",
        &json!({"game": "ploy", "players": ["alice", "bob"], "userid": "alice", "password": "pa-secret"}),
    )
    .json()["id"]
        .as_i64()
        .unwrap();
    crate::common::join(addr, id, "bob", "pb-secret");
    let moves = format!("/api/games/{id}/moves");
    let json = Some("application/json");
    let bad = |m: &str| (400, m.to_owned());
    let cases: Vec<Case<'_>> = vec![
        // Accounts.
        (
            "last duplicate key counts",
            "/api/users".into(),
            json,
            r#"{"userid":"dup","userid":"carl","password":"pc-secret"}"#,
            (201, "carl".into()),
        ),
        (
            "JSON with a charset",
            "/api/users".into(),
            Some("application/json; charset=utf-8"),
            r#"{"userid":"dave","password":"pd-secret"}"#,
            (201, "dave".into()),
        ),
        (
            "JSON in capitals",
            "/api/users".into(),
            Some("Application/JSON"),
            r#"{"userid":"erin","password":"pe-secret"}"#,
            (201, "erin".into()),
        ),
        (
            "userid not a string",
            "/api/users".into(),
            json,
            r#"{"userid":5,"password":"x"}"#,
            bad("`userid` must be a string"),
        ),
        (
            "missing userid",
            "/api/users".into(),
            json,
            r#"{"password":"x"}"#,
            bad("missing field `userid`"),
        ),
        (
            "missing password",
            "/api/users".into(),
            json,
            r#"{"userid":"fred"}"#,
            bad("missing field `password`"),
        ),
        (
            "duplicate of the wrong type last",
            "/api/users".into(),
            json,
            r#"{"userid":"gus","userid":null,"password":"x"}"#,
            bad("`userid` must be a string"),
        ),
        (
            "empty body",
            "/api/users".into(),
            json,
            "",
            bad("the request has no body; expected a JSON object"),
        ),
        (
            "not an object",
            "/api/users".into(),
            json,
            "[1]",
            bad("expected a JSON object"),
        ),
        (
            "a string",
            "/api/sessions".into(),
            json,
            r#""alice""#,
            bad("expected a JSON object"),
        ),
        (
            "bad JSON",
            "/api/users".into(),
            json,
            r#"{"userid":"#,
            bad("malformed JSON: EOF while parsing a value at line 1 column 10"),
        ),
        (
            "trailing garbage",
            "/api/users".into(),
            json,
            r#"{"userid":"h","password":"x"} x"#,
            bad("malformed JSON: trailing characters at line 1 column 31"),
        ),
        // Games.
        (
            "game not a string",
            "/api/games".into(),
            json,
            r#"{"game":5,"players":"alice"}"#,
            bad("`game` must be a string"),
        ),
        (
            "players not a list",
            "/api/games".into(),
            json,
            r#"{"game":"ploy","players":"alice"}"#,
            bad("`players` must be a list of strings"),
        ),
        (
            "options null",
            "/api/games".into(),
            json,
            r#"{"game":"ploy","options":null}"#,
            bad("`options` must be a list of strings"),
        ),
        (
            "options not strings",
            "/api/games".into(),
            json,
            r#"{"game":"ploy","options":[1],"players":[]}"#,
            bad("`options` must be a list of strings"),
        ),
        (
            "missing players",
            "/api/games".into(),
            json,
            r#"{"game":"ploy"}"#,
            bad("missing field `players`"),
        ),
        (
            "missing game",
            "/api/games".into(),
            json,
            r#"{"players":5}"#,
            bad("missing field `game`"),
        ),
        (
            "credentials after the fields",
            "/api/games".into(),
            json,
            r#"{"game":"ploy","players":["alice","bob"],"userid":1}"#,
            bad("`userid` must be a string"),
        ),
        (
            "no credentials",
            "/api/games".into(),
            json,
            r#"{"game":"ploy","players":["alice","bob"]}"#,
            bad("missing field `userid` (or sign in for a session cookie)"),
        ),
        // Moves.
        (
            "move not a string",
            moves.clone(),
            json,
            r#"{"move":1,"ply":"x"}"#,
            bad("`move` must be a string"),
        ),
        (
            "missing move",
            moves.clone(),
            json,
            r#"{"ply":1}"#,
            bad("missing field `move`"),
        ),
        (
            "missing ply",
            moves.clone(),
            json,
            r#"{"move":"e3-e4"}"#,
            bad("missing field `ply`"),
        ),
        (
            "ply a string",
            moves.clone(),
            json,
            r#"{"move":"e3-e4","ply":"0"}"#,
            bad("`ply` must be a whole number, 0 or more"),
        ),
        (
            "ply negative",
            moves.clone(),
            json,
            r#"{"move":"e3-e4","ply":-1}"#,
            bad("`ply` must be a whole number, 0 or more"),
        ),
        (
            "ply a fraction",
            moves.clone(),
            json,
            r#"{"move":"e3-e4","ply":0.5}"#,
            bad("`ply` must be a whole number, 0 or more"),
        ),
        (
            "missing password",
            moves.clone(),
            json,
            r#"{"move":"e3-e4","ply":0,"userid":"alice"}"#,
            bad("missing field `password` (or sign in for a session cookie)"),
        ),
        (
            "password null",
            moves.clone(),
            json,
            r#"{"move":"e3-e4","ply":0,"userid":"alice","password":null}"#,
            bad("`password` must be a string"),
        ),
        (
            "last of duplicate moves and plies",
            moves.clone(),
            json,
            r#"{"userid":"alice","password":"pa-secret","move":"zz","ply":"x","move":"e3-e4","ply":0}"#,
            (200, String::new()),
        ),
        // Resignations and draws, seats, the inbox.
        (
            "resign without credentials",
            format!("/api/games/{id}/resign"),
            json,
            "{}",
            bad("missing field `userid` (or sign in for a session cookie)"),
        ),
        (
            "propose with an empty body",
            format!("/api/games/{id}/propose"),
            json,
            "",
            bad("the request has no body; expected a JSON object"),
        ),
        (
            "unknown board first",
            "/api/games/999/resign".into(),
            json,
            "",
            (404, "there is no board 999".into()),
        ),
        (
            "seats with an empty body",
            "/api/types/ploy/seats".into(),
            None,
            "",
            (200, String::new()),
        ),
        (
            "seats options not a list",
            "/api/types/ploy/seats".into(),
            json,
            r#"{"options":"x"}"#,
            bad("`options` must be a list of strings"),
        ),
        (
            "inbox with an empty body",
            "/api/inbox".into(),
            None,
            "",
            bad("missing field `userid` (or sign in for a session cookie)"),
        ),
        (
            "inbox not an object",
            "/api/inbox".into(),
            json,
            "[]",
            bad("expected a JSON object"),
        ),
        (
            "inbox after first",
            "/api/inbox?after=x".into(),
            json,
            "[]",
            bad("`after` must be a note number"),
        ),
    ];
    for (what, path, kind, body, expected) in cases {
        let r = send(addr, &path, kind, body);
        assert_eq!(answer(&r), expected, "{what}: {}", r.text());
    }
}
