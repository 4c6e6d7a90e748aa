//! The page's lists follow `next_page` (docs/server.md, "GET /api/games": 50 games a page):
//! "Your games" shows every running game of the user, however many, and the finished ones
//! a page at a time (*More finished games*); "Watch games" lists every game on the server,
//! filtered by game type and by running or finished, a page at a time (*Previous page*,
//! *Next page*). The games each page must show are worked out here from the boards this
//! test created (newest first, 50 a page), not read from the server's answers.

use super::*;

/// Starts a game of `game` between `user` (first seat, to move) and the bot; its board.
fn against_bot(server: &Server, game: &str, user: &str, password: &str) -> i64 {
    let r = post(
        server.addr,
        "/api/games",
        &json!({"game": game, "options": [], "players": [user, "bot"],
                "userid": user, "password": password}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

/// The boards the list `selector` shows, in order.
fn shown_ids(b: &mut Browser, selector: &str) -> Vec<i64> {
    let v = b
        .eval(&format!(
            "[...document.querySelectorAll({selector:?})].map((a) => Number(a.getAttribute('data-game')))"
        ))
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// `ids` newest first, cut into pages of 50.
fn pages(ids: &[i64]) -> Vec<Vec<i64>> {
    let mut v = ids.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.chunks(50).map(<[i64]>::to_vec).collect()
}

/// Waits until the watch list shows page `page` of what the address asks.
fn wait_watch_page(b: &mut Browser, page: usize) {
    b.wait_for(
        &format!(
            "!document.getElementById('watch').hidden \
             && document.getElementById('watch-games').getAttribute('data-page') === '{page}' \
             && document.getElementById('watch-page').textContent === 'Page {page}'"
        ),
        WAIT,
    )
    .unwrap();
}

#[test]
fn long_lists_are_read_page_by_page() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("long_lists_are_read_page_by_page") else {
        return;
    };
    let dir = temp_dir("page-lists");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "alice", "alice-pw1");
    // 53 running Ploy games (alice to move in each) and 52 finished Pente games.
    let running: Vec<i64> = (0..53)
        .map(|_| against_bot(&server, "ploy", "alice", "alice-pw1"))
        .collect();
    let finished: Vec<i64> = (0..52)
        .map(|_| {
            let id = against_bot(&server, "pente", "alice", "alice-pw1");
            let r = post(
                server.addr,
                &format!("/api/games/{id}/resign"),
                &json!({"userid": "alice", "password": "alice-pw1"}),
            );
            assert_eq!(r.status, 200, "{}", r.text());
            id
        })
        .collect();

    // Your games: all 53 running games (the server's first page holds 50 of them).
    b.reload().unwrap();
    b.wait_for(
        "document.querySelectorAll('#games a[data-game]').length === 53",
        WAIT,
    )
    .unwrap();
    let mut want = running.clone();
    want.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(shown_ids(&mut b, "#games a[data-game]"), want);
    let heading = b
        .eval("document.querySelector('#games h2').textContent")
        .unwrap();
    assert_eq!(heading, json!("Your move (53)"));
    let hint = b
        .eval("document.querySelector('#games .hint').textContent")
        .unwrap();
    assert_eq!(hint, json!("More than 50 finished games hidden."));

    // The finished games: a page, then the next one under "More finished games".
    let over = pages(&finished);
    b.click("#show-finished").unwrap();
    b.wait_for(
        "document.querySelectorAll('#games a[data-game]').length === 103 \
         && document.getElementById('more-finished') !== null",
        WAIT,
    )
    .unwrap();
    assert_eq!(shown_ids(&mut b, "#games a[data-game]")[53..], over[0]);
    // The list is read again whenever the event stream connects or names a change: a reading
    // that finds nothing new must not take the button away between pressing and releasing
    // it. Here the stream says it connected while the button is held down.
    click_across_ready(&mut b, "#more-finished", "/api/inbox");
    b.wait_for(
        "document.querySelectorAll('#games a[data-game]').length === 105 \
         && document.getElementById('more-finished') === null",
        WAIT,
    )
    .unwrap();
    let all_over: Vec<i64> = over.concat();
    assert_eq!(shown_ids(&mut b, "#games a[data-game]")[53..], all_over);

    // Watch games (signed out: every game is public). Running games first, 50 a page.
    b.click("#signout").unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    b.click("#signin-watch").unwrap();
    wait_watch_page(&mut b, 1);
    let run = pages(&running);
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), run[0]);
    assert_eq!(
        b.eval("document.getElementById('watch-prev').disabled")
            .unwrap(),
        json!(true)
    );
    assert_eq!(
        b.eval("document.getElementById('watch-next').disabled")
            .unwrap(),
        json!(false)
    );
    b.click("#watch-next").unwrap();
    wait_watch_page(&mut b, 2);
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), run[1]);
    assert_eq!(
        b.eval("document.getElementById('watch-next').disabled")
            .unwrap(),
        json!(true)
    );
    b.click("#watch-prev").unwrap();
    wait_watch_page(&mut b, 1);
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), run[0]);

    // Finished Pente games, chosen by the selects' labels; a filter starts at page 1.
    b.click("#watch-next").unwrap();
    wait_watch_page(&mut b, 2);
    for (label, shown) in [("Game", "Pente"), ("Show", "finished games")] {
        b.eval(&format!(
            "(() => {{ const l = [...document.querySelectorAll('#watch label')].find((l) => l.textContent.trim() === {label:?});
               const s = l.control; s.value = [...s.options].find((o) => o.text === {shown:?}).value;
               s.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .unwrap();
    }
    b.wait_for("location.hash === '#watch?game=pente&show=over'", WAIT)
        .unwrap();
    wait_watch_page(&mut b, 1);
    b.wait_for(
        &format!(
            "document.querySelector('#watch-games a[data-game]').getAttribute('data-game') === '{}'",
            over[0][0]
        ),
        WAIT,
    )
    .unwrap();
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), over[0]);
    b.click("#watch-next").unwrap();
    wait_watch_page(&mut b, 2);
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), over[1]);
    // The address keeps the list: a reload shows the same page.
    b.reload().unwrap();
    wait_watch_page(&mut b, 2);
    assert_eq!(shown_ids(&mut b, "#watch-games a[data-game]"), over[1]);
    // No running Pente game.
    b.eval(
        "(() => { const s = document.getElementById('watch-show'); s.value = 'active';
           s.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "location.hash === '#watch?game=pente' \
         && document.querySelector('#watch-games .empty') !== null",
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("document.querySelector('#watch-games .empty').textContent")
            .unwrap(),
        json!("No running games yet.")
    );
}
