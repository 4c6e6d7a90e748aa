//! Invitations on the page: bob, signed in, sees alice's challenges under "Invitations"
//! with Join and Decline, answers them from the list and from the game view; the server's
//! state follows.

use super::*;

fn challenge(server: &Server, game: &str) -> i64 {
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": game, "players": ["alice", "bob"],
                "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

fn status(server: &Server, id: i64) -> Value {
    common::get(server.addr, &format!("/api/games/{id}")).json()
}

#[test]
fn invitations_are_joined_and_declined_on_the_page() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("invitations_are_joined_and_declined_on_the_page") else {
        return;
    };
    let dir = temp_dir("page-invitations");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "alice", "alice-pw1");
    sign_up(&mut b, &url, "bob", "hunter22");

    // Two invitations arrive while bob looks at his games (the event stream brings them).
    let first = challenge(&server, "pente");
    let second = challenge(&server, "ploy");
    b.wait_for(
        &format!(
            "!!document.querySelector('[data-join=\"{first}\"]') \
             && !!document.querySelector('[data-decline=\"{second}\"]')"
        ),
        WAIT,
    )
    .unwrap();
    let heading = b
        .eval("document.querySelector('#games .game-group h2').textContent")
        .unwrap();
    assert_eq!(heading, json!("Invitations (2)"));
    assert_accessible(&mut b, "the list with invitations");
    shoot(&mut b, "lobby-invitations");

    // Decline the second from the list: it ends, and leaves the list.
    b.click(&format!("[data-decline=\"{second}\"]")).unwrap();
    b.wait_for(
        &format!("!document.querySelector('[data-decline=\"{second}\"]')"),
        WAIT,
    )
    .unwrap();
    let s = status(&server, second);
    assert_eq!(s["status"], "over");
    assert_eq!(s["result"], "declined by bob");

    // Join the first from the list: the page opens the game, which has started.
    b.click(&format!("[data-join=\"{first}\"]")).unwrap();
    b.wait_for(
        &format!(
            "location.hash === '#game/{first}' && window.ployd.latest() \
             && window.ployd.latest().status === 'active'"
        ),
        WAIT,
    )
    .unwrap();
    assert_eq!(status(&server, first)["status"], "active");
    b.wait_for(
        "document.getElementById('game-status').textContent.includes('alice (White) to move') \
         && document.getElementById('join').hidden && document.getElementById('decline').hidden",
        WAIT,
    )
    .unwrap();

    // A third, answered in the game view: Join and Decline are offered, no move is.
    let third = challenge(&server, "pente");
    b.navigate(&format!("{url}/#game/{third}")).unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'invited' \
         && !document.getElementById('join').hidden && !document.getElementById('decline').hidden",
        WAIT,
    )
    .unwrap();
    let shown = b
        .eval(
            "[document.getElementById('game-status').textContent, \
              document.getElementById('resign').hidden, document.getElementById('typed').hidden]",
        )
        .unwrap();
    assert_eq!(
        shown,
        json!(["You are invited: join or decline", true, true])
    );
    assert_accessible(&mut b, "an invitation in the game view");
    b.click("#decline").unwrap();
    b.wait_for(
        "window.ployd.latest().status === 'over' \
         && document.getElementById('game-status').textContent.includes('declined by bob')",
        WAIT,
    )
    .unwrap();
    assert_eq!(status(&server, third)["reason"], "declined");
}
