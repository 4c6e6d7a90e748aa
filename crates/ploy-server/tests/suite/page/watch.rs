//! Watching a game on the page (every game is public, docs/server.md "GET /api/games"): the
//! watch list opens a read-only board that follows the players' moves live through the
//! event stream, for nobody signed in and for a signed-in user who holds no seat. The board
//! takes no move, and the move controls, draw offer, *Resign* and *Rematch* are not shown;
//! the record link is.

use super::*;

/// What a watcher sees of the game's controls, as `{id: shown}`.
fn controls(b: &mut Browser) -> Value {
    b.eval(
        "(() => { const shown = (id) => { const e = document.getElementById(id);
             return !e.hidden && !(e.closest('[hidden]')) && e.offsetParent !== null; };
           const out = {};
           for (const id of ['typed', 'propose', 'accept', 'reject', 'resign', 'rematch', 'join',
                             'decline', 'confirm-moves', 'record', 'watching']) out[id] = shown(id);
           return out; })()",
    )
    .unwrap()
}

const READ_ONLY: &str = r#"{"typed":false,"propose":false,"accept":false,"reject":false,
    "resign":false,"rematch":false,"join":false,"decline":false,"confirm-moves":false,
    "record":true,"watching":true}"#;

/// `user` plays the state's legal move in the middle of the list through the API.
fn api_move(server: &Server, id: i64, user: &str, password: &str) -> String {
    let s = common::get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["to_move"], user, "{s}");
    let legal = s["legal"].as_array().unwrap();
    let mv = legal[legal.len() / 2].as_str().unwrap().to_owned();
    let r = post(
        server.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": user, "password": password, "move": mv, "ply": s["moves_played"]}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    mv
}

/// Waits until the page's move list holds `n` moves, the last `mv`.
fn wait_moves(b: &mut Browser, n: usize, mv: &str) {
    b.wait_for(
        &format!(
            "document.querySelectorAll('#moves li').length === {n} \
             && document.querySelector('#moves li:last-child button').textContent.includes({mv:?})"
        ),
        // The page does not poll: only the event stream can bring the move.
        WAIT,
    )
    .unwrap();
}

#[test]
fn a_watched_game_follows_its_players_live() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_watched_game_follows_its_players_live") else {
        return;
    };
    let dir = temp_dir("page-watch");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "bob", "hunter22");
    signup(server.addr, "carol", "carol-pw1");
    // A finished Pente game against the bot, and bob's Ploy game against carol.
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": "pente", "options": [], "players": ["carol", "bot"],
                "userid": "carol", "password": "carol-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let pente = r.json()["id"].as_i64().unwrap();
    let r = post(
        server.addr,
        &format!("/api/games/{pente}/resign"),
        &json!({"userid": "carol", "password": "carol-pw1"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": "ploy", "options": [], "players": ["bob", "carol"],
                "userid": "bob", "password": "hunter22"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    common::join(server.addr, id, "carol", "carol-pw1");

    // Nobody signed in: the sign-in page offers watching; the list shows the running game.
    b.navigate(&format!("{url}/")).unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    b.click("#nav-watch").unwrap();
    b.wait_for(
        &format!("document.querySelector('#watch-games a[data-game=\"{id}\"]') !== null"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("document.querySelectorAll('#watch-games a[data-game]').length")
            .unwrap(),
        json!(1),
        "only the running game"
    );
    let item = b
        .eval(&format!(
            "document.querySelector('#watch-games a[data-game=\"{id}\"]').textContent"
        ))
        .unwrap();
    assert!(
        item.as_str().unwrap().contains("bob, carol")
            && item.as_str().unwrap().contains("bob to move"),
        "{item}"
    );
    assert_accessible(&mut b, "the watch list");
    shoot(&mut b, "watch");
    // The list follows the game live: bob's move shows as carol's turn.
    let first = api_move(&server, id, "bob", "hunter22");
    b.wait_for(
        &format!("document.querySelector('#watch-games a[data-game=\"{id}\"]').textContent.includes('carol to move')"),
        WAIT,
    )
    .unwrap();

    // The board: read-only, live.
    b.click(&format!("#watch-games a[data-game=\"{id}\"]"))
        .unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id === {id} && document.querySelectorAll('#moves li').length === 1"),
        WAIT,
    )
    .unwrap();
    let shown: Value = controls(&mut b);
    assert_eq!(shown, serde_json::from_str::<Value>(READ_ONLY).unwrap());
    let note = b
        .eval("document.getElementById('watching').textContent")
        .unwrap();
    assert!(
        note.as_str()
            .unwrap()
            .contains("You are watching this game"),
        "{note}"
    );
    assert_eq!(
        b.eval("document.getElementById('record').getAttribute('href')")
            .unwrap(),
        json!(format!("/api/games/{id}/record"))
    );
    let second = api_move(&server, id, "carol", "carol-pw1");
    wait_moves(&mut b, 2, &second);
    let third = api_move(&server, id, "bob", "hunter22");
    wait_moves(&mut b, 3, &third);
    assert!(
        b.eval("document.querySelector('#moves li:first-child button').textContent")
            .unwrap()
            .as_str()
            .unwrap()
            .contains(&first)
    );
    assert_accessible(&mut b, "a watched game");
    shoot(&mut b, "ploy-watching");
    // A click on a piece of the player to move is explained, selects nothing, sends nothing.
    let view = latest(&mut b);
    let from = view["legal"][0].as_str().unwrap()[..2].to_owned();
    b.click(&format!("[data-square={from}]")).unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(
        text.as_str().unwrap().contains("Sign in to play"),
        "clicking {from}: {text}"
    );
    assert_eq!(
        b.eval("window.ployd.state().game.board.selected").unwrap(),
        Value::Null
    );
    assert_eq!(
        b.eval("document.getElementById('choices').hidden").unwrap(),
        json!(true)
    );
    assert_eq!(
        b.eval("document.querySelectorAll('[data-target]').length")
            .unwrap(),
        json!(0)
    );
    assert_accessible(&mut b, "a watched game");
    assert_eq!(
        common::get(server.addr, &format!("/api/games/{id}")).json()["moves_played"],
        json!(3)
    );

    // A signed-in user without a seat watches the same way; the game ends while he looks.
    sign_up(&mut b, &url, "dave", "dave-pw12");
    b.eval(&format!("location.hash = '#game/{id}'; true"))
        .unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id === {id} && document.querySelectorAll('#moves li').length === 3"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        controls(&mut b),
        serde_json::from_str::<Value>(READ_ONLY).unwrap()
    );
    let from = latest(&mut b)["legal"][0].as_str().unwrap()[..2].to_owned();
    b.click(&format!("[data-square={from}]")).unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(
        text.as_str()
            .unwrap()
            .contains("You do not play in this game; you are watching it."),
        "{text}"
    );
    let fourth = api_move(&server, id, "carol", "carol-pw1");
    wait_moves(&mut b, 4, &fourth);
    let r = post(
        server.addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": "bob", "password": "hunter22"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    b.wait_for(
        "document.getElementById('game-status').textContent === 'Game over: carol (Red) wins (resignation)'",
        WAIT,
    )
    .unwrap();
    // Over: still no rematch for a watcher, the record still there.
    assert_eq!(
        controls(&mut b),
        serde_json::from_str::<Value>(READ_ONLY).unwrap()
    );

    // Finished games to watch: the finished Pente game and the Ploy game, newest first.
    b.click("#nav-watch").unwrap();
    b.wait_for("!document.getElementById('watch').hidden", WAIT)
        .unwrap();
    b.eval(
        "(() => { const s = document.getElementById('watch-show'); s.value = 'over';
           s.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "location.hash === '#watch?show=over' && document.querySelectorAll('#watch-games a[data-game]').length === 2",
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("[...document.querySelectorAll('#watch-games a[data-game]')].map((a) => Number(a.getAttribute('data-game')))")
            .unwrap(),
        json!([id, pente])
    );
}

/// A withdrawal from a free-for-all is a change of its own (event `withdrawal`, no move
/// follows it while a person is to move): the watcher's board shows the player out at once.
#[test]
fn a_watcher_sees_a_withdrawal_live() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_watcher_sees_a_withdrawal_live") else {
        return;
    };
    let dir = temp_dir("page-watch-withdrawal");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "bob", "hunter22");
    signup(server.addr, "carol", "carol-pw1");
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": "ploy", "options": ["-variant=ffa"],
                "players": ["bob", "carol", "bot", "bot"],
                "userid": "bob", "password": "hunter22"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    common::join(server.addr, id, "carol", "carol-pw1");
    b.navigate(&format!("{url}/#game/{id}")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id === {id} && window.ployd.latest().status === 'active'"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("document.querySelector('#players li[data-seat=\"0\"]').classList.contains('out')")
            .unwrap(),
        json!(false)
    );
    // bob (Green, to move) leaves; carol (Red) is to move next, so nothing else happens.
    let r = post(
        server.addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": "bob", "password": "hunter22"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["to_move"], "carol");
    b.wait_for(
        "document.querySelector('#players li[data-seat=\"0\"]').classList.contains('out') \
         && document.getElementById('game-status').textContent === 'carol (Red) to move'",
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("document.querySelectorAll('[data-piece]').length === window.ployd.latest().position.pieces.length && window.ployd.latest().position.pieces.every((p) => p.colour !== 'green')")
            .unwrap(),
        json!(true)
    );
}
