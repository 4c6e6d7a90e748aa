//! Ratings on the page: two people play a rated Pente game through the page (one browser,
//! each signed in in turn): the "Rated game" checkbox is offered only for two people, each
//! name shows its rating, and at the end both ratings change, on the page and on `GET
//! /api/users/{id}`; the leaderboard view lists them best first (screenshots
//! `page-rated-game-*` and `page-ratings-*`).

use super::*;

/// Signs out, then in as `user`; leaves the page on the game list.
fn sign_in_as(b: &mut Browser, user: &str, password: &str) {
    b.eval("location.hash = ''; true").unwrap();
    b.click("#signout").unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    b.eval("document.getElementById('userid').value = ''; document.getElementById('password').value = ''; true")
        .unwrap();
    b.click("#userid").unwrap();
    b.type_text(user).unwrap();
    b.click("#password").unwrap();
    b.type_text(password).unwrap();
    b.click("#signin-button").unwrap();
    b.wait_for(
        &format!(
            "!document.getElementById('lobby').hidden && \
             document.getElementById('who-name').textContent === 'Signed in as {user}'"
        ),
        WAIT,
    )
    .unwrap();
}

/// Opens board `id` from the game list.
fn open(b: &mut Browser, id: i64) {
    b.wait_for(
        &format!("document.querySelector('#games a[data-game=\"{id}\"]') !== null"),
        WAIT,
    )
    .unwrap();
    b.click(&format!("#games a[data-game=\"{id}\"]")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id === {id}"),
        WAIT,
    )
    .unwrap();
}

/// Clicks the point `p` and waits until the server has the move.
fn place(b: &mut Browser, p: &str) {
    b.wait_for(
        "(() => { const v = window.ployd.latest(); const g = window.ployd.state().game;
           return v && v.status === 'active' && g.shown === v && !g.busy
             && v.to_move === window.ployd.state().me; })()",
        WAIT,
    )
    .unwrap();
    let before = latest(b)["moves_played"].as_u64().unwrap();
    b.click(&format!("[data-point={p}]")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
}

/// The rating badges beside the players' names: (userid, text), in seat order.
fn badges(b: &mut Browser) -> Vec<(String, String)> {
    let v = b
        .eval("[...document.querySelectorAll('#players .prating')].map(e => [e.getAttribute('data-user'), e.textContent])")
        .unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn wait_badges(b: &mut Browser, want: &[(&str, &str)]) {
    let js: Vec<String> = want
        .iter()
        .map(|(u, t)| format!("[{u:?}, {t:?}]"))
        .collect();
    let expr = format!(
        "JSON.stringify([...document.querySelectorAll('#players .prating')].map(e => [e.getAttribute('data-user'), e.textContent])) === JSON.stringify([{}])",
        js.join(", ")
    );
    if b.wait_for(&expr, WAIT).is_err() {
        panic!("rating badges {:?}, expected {want:?}", badges(b));
    }
}

fn rating(server: &Server, user: &str) -> (f64, f64, u64) {
    let p = common::get(server.addr, &format!("/api/users/{user}")).json();
    let r = p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["game"] == "pente" && r["size"] == 9)
        .unwrap_or_else(|| panic!("{user} has no pente 9 rating: {p}"))
        .clone();
    (
        r["rating"].as_f64().unwrap(),
        r["deviation"].as_f64().unwrap(),
        r["games"].as_u64().unwrap(),
    )
}

#[test]
fn a_rated_game_played_on_the_page_changes_both_ratings() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_rated_game_played_on_the_page_changes_both_ratings")
    else {
        return;
    };
    let dir = temp_dir("page-ratings");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    let script = common::get(server.addr, "/page/ratings.js");
    assert_eq!(script.status, 200);
    assert!(!script.text().contains("innerHTML"));
    signup(server.addr, "ben", "ben-pw-22");
    sign_up(&mut b, &url, "ann", "ann-pw-11");

    // The checkbox is there for two people and goes away with a bot seat.
    b.click("#nav-new").unwrap();
    b.wait_for(
        "document.querySelectorAll('#new-seat-fields .seat-row').length > 0",
        WAIT,
    )
    .unwrap();
    b.eval(
        "(() => { const s = document.getElementById('new-game'); s.value = 'pente';
           s.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "document.getElementById('new-seat-fields').getAttribute('data-for') === 'pente' \
         && document.getElementById('opt-rated') !== null",
        WAIT,
    )
    .unwrap();
    let shown = "!document.getElementById('opt-rated').closest('.option').hidden";
    let label = b
        .eval("document.querySelector('label[for=opt-rated]').textContent.trim()")
        .unwrap();
    assert_eq!(label, json!("Rated game"));
    // (The second seat stays with another player: the form below keeps it.)
    for (seat1, visible) in [
        ("bot", false),
        ("player", true),
        ("bot", false),
        ("player", true),
    ] {
        b.eval(&format!(
            "(() => {{ const s = document.getElementById('seat-1'); s.value = {seat1:?};
               s.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .unwrap();
        b.wait_for(&format!("({shown}) === {visible}"), WAIT)
            .unwrap_or_else(|_| panic!("the Rated box with {seat1} in the second seat"));
    }

    // ann challenges ben to a rated 9x9 game by the form.
    let id = new_game(
        &mut b,
        "pente",
        &[("size", "9"), ("rated", "")],
        &["me", "ben"],
    );
    let s = common::get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["rated"], true);
    assert_eq!(s["options"], json!(["-size=9", "-rated"]));
    b.wait_for("document.querySelector('.rated-note') !== null", WAIT)
        .unwrap();
    wait_badges(&mut b, &[("ann", "unrated"), ("ben", "unrated")]);

    // ben joins and places his stone; ann places hers; ben resigns: all on the page.
    sign_in_as(&mut b, "ben", "ben-pw-22");
    b.wait_for(
        &format!("document.querySelector('[data-join=\"{id}\"]') !== null"),
        WAIT,
    )
    .unwrap();
    b.click(&format!("[data-join=\"{id}\"]")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id === {id} && window.ployd.latest().status === 'active'"),
        WAIT,
    )
    .unwrap();
    sign_in_as(&mut b, "ann", "ann-pw-11");
    open(&mut b, id);
    place(&mut b, "E5");
    sign_in_as(&mut b, "ben", "ben-pw-22");
    open(&mut b, id);
    place(&mut b, "A9");
    wait_badges(&mut b, &[("ann", "unrated"), ("ben", "unrated")]);
    b.click("#resign").unwrap();
    b.click("#resign").unwrap();
    b.wait_for("window.ployd.latest().status === 'over'", WAIT)
        .unwrap();

    // Both ratings changed: the first period of two new players, ann winning.
    let (ann, ann_dev, ann_games) = rating(&server, "ann");
    let (ben, ben_dev, ben_games) = rating(&server, "ben");
    assert!(
        (ann - 1662.3).abs() < 0.05 && (ann_dev - 290.3).abs() < 0.05,
        "{ann} {ann_dev}"
    );
    assert!(
        (ben - 1337.7).abs() < 0.05 && (ben_dev - 290.3).abs() < 0.05,
        "{ben} {ben_dev}"
    );
    assert_eq!((ann_games, ben_games), (1, 1));
    wait_badges(&mut b, &[("ann", "1662"), ("ben", "1338")]);
    let title = b
        .eval(
            "document.querySelector('#players .prating[data-user=ann]').getAttribute('aria-label')",
        )
        .unwrap();
    assert_eq!(title, json!("rating 1662, deviation 290, 1 rated game"));
    assert_accessible(&mut b, "a rated game over");
    shoot(&mut b, "page-rated-game");

    // The leaderboard view, from the navigation bar: ann first; other sizes are empty.
    b.click("#nav-ratings").unwrap();
    b.wait_for(
        "!document.getElementById('ratings').hidden && document.getElementById('ratings-table').hasAttribute('data-for')",
        WAIT,
    )
    .unwrap();
    b.eval(
        "(() => { const s = document.getElementById('ratings-game'); s.value = 'pente';
           s.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "document.getElementById('ratings-table').getAttribute('data-for') === 'pente 19 1'",
        WAIT,
    )
    .unwrap();
    assert!(
        b.eval("document.getElementById('ratings-table').textContent")
            .unwrap()
            .as_str()
            .unwrap()
            .contains("Nobody has a rating")
    );
    b.eval(
        "(() => { const s = document.getElementById('ratings-size'); s.value = '9';
           s.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "document.getElementById('ratings-table').getAttribute('data-for') === 'pente 9 1'",
        WAIT,
    )
    .unwrap();
    let rows = b
        .eval("[...document.querySelectorAll('table.ratings tbody tr')].map(r => [...r.children].map(c => c.textContent))")
        .unwrap();
    assert_eq!(
        rows,
        json!([
            ["1", "ann", "1662", "±290", "1"],
            ["2", "ben", "1338", "±290", "1"]
        ])
    );
    let sizes = b
        .eval("[...document.getElementById('ratings-size').options].map(o => o.value)")
        .unwrap();
    assert_eq!(
        sizes,
        json!(["7", "9", "11", "13", "15", "17", "19"]),
        "Pente's odd sizes"
    );
    assert_eq!(b.eval("location.hash").unwrap(), json!("#ratings/pente/9"));
    assert_eq!(
        b.eval("document.getElementById('ratings-prev').hidden && document.getElementById('ratings-next').hidden")
            .unwrap(),
        json!(true)
    );
    assert_accessible(&mut b, "the leaderboard");
    shoot(&mut b, "page-ratings");

    // The address alone opens it, signed out too.
    b.eval("location.hash = ''; true").unwrap();
    b.click("#signout").unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    b.navigate(&format!("{url}/#ratings/pente/9")).unwrap();
    b.wait_for(
        "document.getElementById('ratings-table') && document.getElementById('ratings-table').getAttribute('data-for') === 'pente 9 1' && !document.getElementById('ratings').hidden",
        WAIT,
    )
    .unwrap();
}
