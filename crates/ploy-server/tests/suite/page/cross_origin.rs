//! The issue's cross-site attacks from a real browser: with alice signed in on ployd's
//! origin, a page served from another port of the same host (the same *site*, so the
//! `SameSite=Strict` cookie goes along) posts a move with a plain `text/plain` form,
//! challenges with a one-second deadline and resigns through `/api/command` with
//! `fetch`. Each is refused `403 cross_origin` and nothing changes; the page's own
//! requests from ployd's origin still act.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{ONE_BROWSER, WAIT};
use crate::cdp::browser_or_skip;
use crate::common::{Server, get, join, post, signup, temp_dir};
use serde_json::{Value, json};

/// A second origin: a tiny HTTP server on another loopback port that answers every
/// request with one HTML page.
struct Attacker {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Attacker {
    fn start(html: String) -> Attacker {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(mut conn) = conn else { continue };
                let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).is_ok_and(|n| n == 1) {
                    head.push(byte[0]);
                }
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
                    html.len()
                );
                let _ = conn.write_all(answer.as_bytes());
            }
        });
        Attacker { addr, stop }
    }
}

impl Drop for Attacker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr);
    }
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
fn a_page_on_another_port_cannot_act_with_the_session() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_page_on_another_port_cannot_act_with_the_session") else {
        return;
    };
    let dir = temp_dir("page-cross-origin");
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
    assert_eq!(g.status, 201, "{}", g.text());
    let id = g.json()["id"].as_i64().unwrap();
    join(addr, id, "bob", "bob-pass-22");
    let ployd = format!("http://{addr}");

    // Alice signs in on ployd's own page (a same-origin fetch: Chromium sends `Origin`).
    b.navigate(&format!("{ployd}/")).unwrap();
    let signed_in = b
        .eval(
            "fetch('/api/sessions', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({userid: 'alice', password: 'alice-pass-1'})})
             .then(r => r.status)",
        )
        .unwrap();
    assert_eq!(signed_in, json!(201));
    let before = state(addr, id);

    // The attacker's page: a fetch challenge with a one-second deadline, a fetch resigning
    // through the command route, then a text/plain form that plays a move.
    let form_name = r#"{"move":"e3-e4","ply":0,"pad":""#;
    let html = format!(
        r#"<!doctype html><html><body>
<form id="f" method="POST" action="{ployd}/api/games/{id}/moves" enctype="text/plain">
<input type="hidden" name='{form_name}' value='"}}'></form>
<script>
window.statuses = [];
async function attack() {{
  for (const [path, body] of [
    ['/api/games', JSON.stringify({{game: 'ploy', options: ['-deadline=1s'], players: ['bob', 'alice']}})],
    ['/api/command', 'ploy resign {id} alice *'],
  ]) {{
    try {{
      await fetch('{ployd}' + path, {{method: 'POST', mode: 'no-cors', credentials: 'include',
        headers: {{'Content-Type': 'text/plain'}}, body}});
      window.statuses.push('sent');
    }} catch (e) {{ window.statuses.push('failed: ' + e); }}
  }}
  window.fetched = true;
}}
attack();
</script></body></html>"#
    );
    let attacker = Attacker::start(html);
    let evil = format!("http://127.0.0.1:{}", attacker.addr.port());
    assert_ne!(evil, ployd);
    b.navigate(&format!("{evil}/")).unwrap();
    let statuses = b
        .wait_for("window.fetched && window.statuses", WAIT)
        .unwrap();
    assert_eq!(statuses, json!(["sent", "sent"]));
    // The form: the browser navigates to ployd's answer, which it shows as text.
    b.eval("document.getElementById('f').submit(); true")
        .unwrap();
    let shown = b
        .wait_for(
            &format!(
                "location.href.startsWith({ployd:?}) && document.readyState === 'complete' \
                 && document.body && document.body.innerText"
            ),
            WAIT,
        )
        .unwrap();
    let answer: Value = serde_json::from_str(shown.as_str().unwrap()).unwrap();
    // `cross_origin` shows that the browser sent the cookie: without it there is no check.
    assert_eq!(answer["error"], "cross_origin", "{answer}");

    // Nothing changed: no move, no resignation, no new game.
    assert_eq!(state(addr, id), before);
    assert_eq!(games_of(addr, "alice"), 1);

    // The same actions from ployd's own page act.
    b.navigate(&format!("{ployd}/")).unwrap();
    let played = b
        .eval(&format!(
            "fetch('/api/games/{id}/moves', {{method: 'POST', headers: {{'Content-Type': 'application/json'}},
               body: JSON.stringify({{move: 'e3-e4', ply: 0}})}}).then(r => r.status)"
        ))
        .unwrap();
    assert_eq!(played, json!(200));
    let resigned = b
        .eval(&format!(
            "fetch('/api/command', {{method: 'POST', body: 'ploy resign {id} alice *'}}).then(r => r.text())"
        ))
        .unwrap();
    assert!(resigned.as_str().unwrap().starts_with("ok"), "{resigned}");
    assert_eq!(state(addr, id), json!({"ply": 1, "status": "over"}));
}
