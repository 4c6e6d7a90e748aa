//! Draw offers and times on the page: a game against the bot offers no draw (the bot never
//! agrees), a game between two people does; a move's time limit and the notifications under
//! the game list are shown as dates, never as seconds since 1970.

use super::*;

/// The year of `at` (seconds since 1970) in the browser's time zone, the one the page
/// writes its dates in.
fn year_of(b: &mut Browser, at: i64) -> String {
    let y = b
        .eval(&format!("new Date({at} * 1000).getFullYear()"))
        .unwrap();
    y.as_i64().unwrap().to_string()
}

#[test]
fn no_draw_offer_against_the_bot_and_times_as_dates() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("no_draw_offer_against_the_bot_and_times_as_dates") else {
        return;
    };
    let dir = temp_dir("page-dates");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "bob", "bob-pw-22");
    sign_up(&mut b, &url, "alice", "alice-pw1");

    // Against the bot: moves, resigning, but no draw offer.
    let bot_game = new_game(&mut b, "pente", &[("size", "9")], &["me", "bot"]);
    b.wait_for("window.ployd.latest().status === 'active'", WAIT)
        .unwrap();
    let hidden = b
        .eval(
            "[document.getElementById('propose').hidden, document.getElementById('resign').hidden]",
        )
        .unwrap();
    assert_eq!(hidden, json!([true, false]), "board {bot_game}");

    // Against bob, with a day for each move: the offer is there, and the time left is
    // given with the date it runs out.
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": "pente", "options": ["-size=9", "-deadline=1d"],
                "players": ["alice", "bob"], "userid": "alice", "password": "alice-pw1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    common::join(server.addr, id, "bob", "bob-pw-22");
    b.navigate(&format!("{url}/#game/{id}")).unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'active'",
        WAIT,
    )
    .unwrap();
    let propose = b.eval("document.getElementById('propose').hidden").unwrap();
    assert_eq!(propose, json!(false));
    let deadline = latest(&mut b)["deadline_at"].as_i64().unwrap();
    let status = b
        .eval("document.getElementById('game-status').textContent")
        .unwrap();
    let status = status.as_str().unwrap();
    assert!(!status.contains(&deadline.to_string()), "{status}");
    assert!(status.contains("left (until "), "{status}");
    assert!(status.contains(&year_of(&mut b, deadline)), "{status}");

    // The notifications under the game list: each with its date, newest first.
    let inbox = post(
        server.addr,
        "/api/inbox",
        &json!({"userid": "alice", "password": "alice-pw1"}),
    )
    .json();
    let notes = inbox["notes"].as_array().unwrap();
    assert!(!notes.is_empty(), "{inbox}");
    b.click("#nav-games").unwrap();
    b.wait_for(
        "!document.getElementById('notes').hidden && document.querySelectorAll('#notes li').length > 0",
        WAIT,
    )
    .unwrap();
    b.eval("document.getElementById('notes').open = true")
        .unwrap();
    let shown = b
        .eval(
            "[...document.querySelectorAll('#notes li')].map((li) => [Number(li.getAttribute('data-note')),
               li.querySelector('time').getAttribute('datetime'), li.querySelector('time').textContent,
               li.textContent])",
        )
        .unwrap();
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), notes.len().min(20));
    let mut newest: Vec<&Value> = notes.iter().collect();
    newest.sort_by_key(|n| -n["id"].as_i64().unwrap());
    for (row, note) in shown.iter().zip(newest) {
        let at = note["at"].as_i64().unwrap();
        assert_eq!(row[0], note["id"]);
        let iso = b
            .eval(&format!("new Date({at} * 1000).toISOString()"))
            .unwrap();
        assert_eq!(row[1], iso);
        let text = row[2].as_str().unwrap();
        assert!(!text.contains(&at.to_string()), "{text}");
        assert!(text.contains(&year_of(&mut b, at)), "{text}");
        assert!(
            row[3]
                .as_str()
                .unwrap()
                .contains(note["subject"].as_str().unwrap()),
            "{row}"
        );
    }
    shoot(&mut b, "lobby-notes");
}
