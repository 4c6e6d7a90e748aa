//! The browser page in a real headless Chromium, against a real `ployd serve` on a loopback
//! port with a real database file: sign-up, challenges, whole games against the bot played
//! by clicking, reloads, live updates, keyboard play and screenshots (into
//! `target/page-screenshots/`).
//!
//! Without Chromium the tests print a notice and pass; with `CI=true` they fail instead.
//! The tests share one lock, so only one browser runs at a time.

use crate::{cdp, common};
mod cross_origin;
mod dates;
mod form;
mod howto;
mod invitations;
mod lists;
mod pente;
mod playing;
mod pyloff;
mod ratings;
mod shield;
mod touch;
mod watch;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cdp::{Browser, browser_or_skip};
use common::{Rng, Server, post, signup, temp_dir};
use serde_json::{Value, json};

static ONE_BROWSER: Mutex<()> = Mutex::new(());

const WAIT: Duration = Duration::from_secs(20);

fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("page-screenshots")
}

fn base(server: &Server) -> String {
    format!("http://{}", server.addr)
}

/// Signs up through the form; leaves the page on the game list.
fn sign_up(b: &mut Browser, url: &str, user: &str, password: &str) {
    b.navigate(&format!("{url}/")).unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    b.click("#userid").unwrap();
    b.type_text(user).unwrap();
    b.click("#password").unwrap();
    b.type_text(password).unwrap();
    b.click("#signup-button").unwrap();
    b.wait_for("!document.getElementById('lobby').hidden", WAIT)
        .unwrap();
    let who = b
        .eval("document.getElementById('who-name').textContent")
        .unwrap();
    assert_eq!(who, json!(format!("Signed in as {user}")));
    // The page keeps no password anywhere.
    let kept = b
        .eval(&format!(
            "JSON.stringify(localStorage).includes({p:?}) || JSON.stringify(sessionStorage).includes({p:?}) \
             || document.cookie.includes({p:?}) || document.getElementById('password').value !== ''",
            p = password
        ))
        .unwrap();
    assert_eq!(kept, json!(false));
}

/// Fills the new-game form: `options` as (option name, value) for selects and numbers, or
/// (flag name, "") for checkboxes; `seats` as "me", "bot" or a userid. Returns the board.
fn new_game(b: &mut Browser, game: &str, options: &[(&str, &str)], seats: &[&str]) -> i64 {
    b.click("#nav-new").unwrap();
    b.wait_for(
        "!document.getElementById('new').hidden && document.querySelectorAll('#new-seat-fields .seat-row').length > 0",
        WAIT,
    )
    .unwrap();
    b.eval(&format!(
        "(() => {{ const s = document.getElementById('new-game'); s.value = {game:?};
           s.dispatchEvent(new Event('change')); return true; }})()"
    ))
    .unwrap();
    for (name, value) in options {
        b.eval(&format!(
            "(() => {{ const e = document.getElementById('opt-' + {name:?});
               if (e.type === 'checkbox') e.checked = true; else e.value = {value:?};
               e.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .unwrap();
    }
    // The seats drawn for this game and these options (seats past `seats` keep their
    // defaults: "nobody" where a seat may stay empty).
    let mut drawn_for = vec![game.to_owned()];
    drawn_for.extend(options.iter().map(|(name, value)| {
        if value.is_empty() {
            format!("-{name}")
        } else {
            format!("-{name}={value}")
        }
    }));
    let drawn_for = drawn_for.join(" ");
    b.wait_for(
        &format!(
            "document.getElementById('new-seat-fields').getAttribute('data-for') === {drawn_for:?}"
        ),
        WAIT,
    )
    .unwrap();
    for (i, who) in seats.iter().enumerate() {
        let (choice, name) = match *who {
            "me" => ("me", ""),
            "bot" => ("bot", ""),
            user => ("player", user),
        };
        b.eval(&format!(
            "(() => {{ const s = document.getElementById('seat-{i}'); s.value = {choice:?};
               s.dispatchEvent(new Event('change'));
               document.getElementById('seat-user-{i}').value = {name:?}; return true; }})()"
        ))
        .unwrap();
    }
    b.click("#new-submit").unwrap();
    let id = b
        .wait_for(
            "location.hash.startsWith('#game/') && window.ployd.latest() && window.ployd.latest().id",
            WAIT,
        )
        .unwrap();
    id.as_i64().unwrap()
}

/// An invited player joins game `id` through the API; waits until the page shows the game
/// started.
fn joins(b: &mut Browser, server: &Server, id: i64, user: &str, password: &str) {
    common::join(server.addr, id, user, password);
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'active'",
        WAIT,
    )
    .unwrap();
}

fn latest(b: &mut Browser) -> Value {
    b.eval("window.ployd.latest()").unwrap()
}

/// Clicks `selector` in two halves, with the page reading what it shows again in between:
/// the button pressed, the event stream saying `ready` (see [`stream_ready`]; the page
/// then asks `path` again), the button released.
fn click_across_ready(b: &mut Browser, selector: &str, path: &str) {
    let (x, y) = b.centre(selector).unwrap();
    b.press_at(x, y).unwrap();
    stream_ready(b, path);
    b.release_at(x, y).unwrap();
}

/// Has the page's event stream say `ready` (as when it connects, after which the page reads
/// what it shows again) and waits until the page has asked `path` once more, and a moment
/// for the answer to be drawn.
fn stream_ready(b: &mut Browser, path: &str) {
    let asked = format!(
        "performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === {path:?}).length"
    );
    b.eval("performance.setResourceTimingBufferSize(100000); true")
        .unwrap();
    let before = b.eval(&asked).unwrap().as_u64().unwrap();
    b.eval("window.ployd.state().events.dispatchEvent(new MessageEvent('ready', { data: '{}' })); true")
        .unwrap();
    b.wait_for(&format!("{asked} > {before}"), WAIT).unwrap();
    b.eval("new Promise((done) => setTimeout(() => done(true), 100))")
        .unwrap();
}

/// Waits until the game is over or it is the page user's turn and the board takes moves.
fn wait_turn_or_end(b: &mut Browser) -> Value {
    b.wait_for(
        "(() => { const v = window.ployd.latest(); if (!v) return false;
           if (v.status !== 'active') return true;
           const g = window.ployd.state().game;
           return g.shown === v && !g.busy && v.to_move === window.ployd.state().me; })()",
        Duration::from_secs(60),
    )
    .unwrap();
    latest(b)
}

/// A move that ends games: a capture of a commander, else (mostly) a capture, else any.
fn choose(view: &Value, rng: &mut Rng) -> String {
    let legal: Vec<&str> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(!legal.is_empty());
    let pieces = view["position"]["pieces"].as_array().unwrap();
    let at = |sq: &str| pieces.iter().find(|p| p["square"] == sq);
    let parts = |m: &str| -> (String, String) {
        let v: Vec<&str> = m.split('-').collect();
        (v[0].to_owned(), v[1].to_owned())
    };
    let captures: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| {
            let (f, t) = parts(m);
            f != t && at(&t).is_some()
        })
        .collect();
    if let Some(m) = captures.iter().find(|m| {
        let (_, t) = parts(m);
        at(&t).is_some_and(|p| p["kind"] == "commander")
    }) {
        return (*m).to_owned();
    }
    if !captures.is_empty() && rng.below(5) != 0 {
        return captures[rng.below(captures.len())].to_owned();
    }
    // Motion moves more often than turns, so that the armies meet.
    let motions: Vec<&str> = legal
        .iter()
        .copied()
        .filter(|m| {
            let (f, t) = parts(m);
            f != t
        })
        .collect();
    if !motions.is_empty() && rng.below(4) != 0 {
        return motions[rng.below(motions.len())].to_owned();
    }
    legal[rng.below(legal.len())].to_owned()
}

/// Plays `mv` by clicking: the piece, then the destination, or for a turn (in place, or a
/// shield's after moving) the turn's button under the board. A shield's move without a
/// turn is one click on the destination, like any other piece's. Checks the marked
/// destinations against the legal moves.
fn click_move(b: &mut Browser, view: &Value, mv: &str) {
    let parts: Vec<&str> = mv.split('-').collect();
    let (from, to) = (parts[0], parts[1]);
    let before = view["moves_played"].as_u64().unwrap();
    b.click(&format!("[data-square={from}]")).unwrap();
    b.wait_for(
        &format!("document.querySelector('.layer-marks .selected') !== null && window.ployd.state().game.board.selected === {from:?}"),
        WAIT,
    )
    .unwrap();
    // The marked squares are exactly the destinations of the legal moves from there.
    let mut want: Vec<String> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| {
            let p: Vec<&str> = m.as_str().unwrap().split('-').collect();
            (p[0] == from && p[1] != from).then(|| p[1].to_owned())
        })
        .collect();
    want.sort();
    want.dedup();
    let shown = b
        .eval("[...document.querySelectorAll('[data-target]')].map(e => e.getAttribute('data-target')).sort()")
        .unwrap();
    assert_eq!(shown, json!(want), "marked destinations from {from}");
    let turns = parts[2] != "0";
    if from != to && !turns {
        b.click(&format!("[data-square={to}]")).unwrap();
    } else {
        b.wait_for(
            &format!("document.querySelector('#choices [data-move=\"{mv}\"]') !== null"),
            WAIT,
        )
        .unwrap();
        b.click(&format!("#choices [data-move=\"{mv}\"]")).unwrap();
    }
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
    let played = b
        .eval(&format!("window.ployd.latest().moves[{before}]"))
        .unwrap();
    assert_eq!(played, json!(mv));
}

/// Plays up to `moves` of the page user's moves by clicking; returns the state once it is
/// the user's turn again or the game is over.
fn play_moves(b: &mut Browser, rng: &mut Rng, moves: usize) -> Value {
    for _ in 0..moves {
        let view = wait_turn_or_end(b);
        if view["status"] != "active" {
            return view;
        }
        let mv = choose(&view, rng);
        click_move(b, &view, &mv);
    }
    wait_turn_or_end(b)
}

/// Plays the page user's moves by clicking until the rules end the game; returns the final
/// state. At most `max_moves` of the user's moves.
fn play_to_the_end(b: &mut Browser, seed: u64, max_moves: usize) -> Value {
    let view = play_moves(b, &mut Rng(seed), max_moves);
    assert_eq!(view["status"], "over", "the game did not end");
    view
}

/// The board is wholly in the viewport and the page does not scroll sideways.
fn assert_fits(b: &mut Browser, what: &str) {
    b.eval("window.scrollTo(0, 0); true").unwrap();
    let v = b
        .eval(
            "(() => { const r = document.querySelector('#board svg, #board pre').getBoundingClientRect();
               return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                       width: innerWidth, height: innerHeight,
                       scroll: document.documentElement.scrollWidth}; })()",
        )
        .unwrap();
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!(
        f("scroll") <= f("width"),
        "{what}: the page scrolls sideways: {v}"
    );
    assert!(
        f("left") >= 0.0
            && f("right") <= f("width")
            && f("top") >= 0.0
            && f("bottom") <= f("height"),
        "{what}: the board is not wholly visible: {v}"
    );
}

/// Accessibility basics of what is on the screen now: the document's language is given,
/// there is one top heading, and every control a screen reader offers (buttons, links,
/// fields, lists to choose from, the slider, the board) has a name.
fn assert_accessible(b: &mut Browser, what: &str) {
    assert_eq!(
        b.eval("document.documentElement.lang").unwrap(),
        json!("en"),
        "{what}"
    );
    let nodes = b.accessible_nodes().unwrap();
    if std::env::var_os("PLOYD_TEST_LOG").is_some() {
        eprintln!("{what}: {nodes:?}");
    }
    const CONTROLS: &[&str] = &[
        "button",
        "link",
        "textbox",
        "searchbox",
        "combobox",
        "checkbox",
        "radio",
        "slider",
        "spinbutton",
        "application",
        "listbox",
        "image",
        "img",
    ];
    let unnamed: Vec<&(String, String)> = nodes
        .iter()
        .filter(|(role, name)| CONTROLS.contains(&role.as_str()) && name.is_empty())
        .collect();
    assert!(
        unnamed.is_empty(),
        "{what}: controls without a name: {unnamed:?}"
    );
    let h1 = b
        .eval("[...document.querySelectorAll('h1')].filter(h => h.offsetParent !== null).length")
        .unwrap();
    assert_eq!(h1, json!(1), "{what}: visible top headings");
}

fn shoot(b: &mut Browser, name: &str) {
    for (w, h, mobile) in [(1280, 800, false), (390, 844, true)] {
        b.viewport(w, h, mobile).unwrap();
        std::thread::sleep(Duration::from_millis(150));
        if name.starts_with("ploy") || name.starts_with("pente") || name.starts_with("pyloff") {
            assert_fits(b, &format!("{name} at {w}x{h}"));
        } else {
            // Forms and lists: no sideways scrolling either.
            let v = b
                .eval("[document.documentElement.scrollWidth, innerWidth]")
                .unwrap();
            assert!(
                v[0].as_f64() <= v[1].as_f64(),
                "{name} at {w}x{h}: the page scrolls sideways: {v}"
            );
        }
        b.screenshot(&screenshots().join(format!("{name}-{w}x{h}.png")))
            .unwrap();
    }
    b.viewport(1280, 800, false).unwrap();
}

#[test]
fn two_players_against_the_bot_by_clicking() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("two_players_against_the_bot_by_clicking") else {
        return;
    };
    let dir = temp_dir("page-2p");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    b.navigate(&format!("{url}/")).unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    assert_accessible(&mut b, "the sign-in form");
    shoot(&mut b, "signin");
    sign_up(&mut b, &url, "alice", "s3cret-pw");
    assert_accessible(&mut b, "the empty game list");
    shoot(&mut b, "lobby-empty");
    b.click("#nav-new").unwrap();
    b.wait_for(
        "document.querySelectorAll('#new-seat-fields .seat-row').length === 2",
        WAIT,
    )
    .unwrap();
    assert_accessible(&mut b, "the new-game form");
    shoot(&mut b, "new-game");
    let id = new_game(&mut b, "ploy", &[], &["me", "bot"]);
    wait_turn_or_end(&mut b);
    assert_accessible(&mut b, "a Ploy game");
    shoot(&mut b, "ploy-2p-start");
    // A few moves, then a picture of a piece picked, its squares marked (the README's).
    let mut rng = Rng(11);
    let view = play_moves(&mut b, &mut rng, 3);
    assert_eq!(view["status"], "active");
    let lance = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .filter(|m| m[..2] != m[3..5])
        .map(|m| &m[..2])
        .find(|sq| {
            view["position"]["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["square"] == *sq && p["kind"] == "lance")
        })
        .unwrap()
        .to_owned();
    b.click(&format!("[data-square={lance}]")).unwrap();
    b.wait_for("!document.getElementById('choices').hidden", WAIT)
        .unwrap();
    assert_accessible(&mut b, "a Ploy game with a piece picked");
    shoot(&mut b, "ploy-2p-picked");
    b.screenshot_of("#board", &screenshots().join("ploy-board.png"))
        .unwrap();
    b.key("Escape").unwrap();
    let view = play_moves(&mut b, &mut rng, 150);
    assert_eq!(view["status"], "over", "the game did not end");
    let end = view;
    let result = end["result"].as_str().unwrap().to_owned();
    assert!(!result.is_empty());
    let status = b
        .wait_for(
            "document.getElementById('game-status').textContent.startsWith('Game over')",
            WAIT,
        )
        .unwrap();
    assert_eq!(status, json!(true));
    shoot(&mut b, "ploy-2p-over");
    // Reload: the same game, as it was.
    let moves = end["moves"].clone();
    b.reload().unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'over'",
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves"], moves);
    assert_eq!(latest(&mut b)["id"], json!(id));
    let text = b
        .eval("document.getElementById('game-status').textContent")
        .unwrap();
    assert!(
        text.as_str().unwrap().contains(&result.replace('_', " ")),
        "{text}"
    );
    drop(server);
}

/// Where a square is on the screen, in board squares (the board may be turned).
fn square_xy(b: &mut Browser, sq: &str) -> (i64, i64) {
    let v = b
        .eval(&format!("window.ployd.state().game.board.xy({sq:?})"))
        .unwrap();
    (
        v[0].as_f64().unwrap() as i64 / 100,
        v[1].as_f64().unwrap() as i64 / 100,
    )
}

/// Tabs from the top of the page until the board has the focus.
fn tab_to_board(b: &mut Browser) {
    b.eval("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); true")
        .unwrap();
    for _ in 0..40 {
        b.key("Tab").unwrap();
        if b.eval("document.activeElement === document.querySelector('#board svg')")
            .unwrap()
            == json!(true)
        {
            return;
        }
    }
    panic!("Tab never reaches the board");
}

/// Presses the arrow keys: `dx` to the right (left when negative), `dy` up (down).
fn arrows(b: &mut Browser, dx: i64, dy: i64) {
    for _ in 0..dx.abs() {
        b.key(if dx > 0 { "ArrowRight" } else { "ArrowLeft" })
            .unwrap();
    }
    for _ in 0..dy.abs() {
        b.key(if dy > 0 { "ArrowUp" } else { "ArrowDown" }).unwrap();
    }
}

/// Waits until the page has `n` moves of the game, within `within`.
fn wait_moves(b: &mut Browser, n: usize, within: Duration) {
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().moves_played === {n}"),
        within,
    )
    .unwrap_or_else(|e| panic!("the page never had {n} moves: {e}"));
}

/// A click that is not a move: explained (the explanation contains `why`) and not sent.
fn click_refused(b: &mut Browser, selector: &str, why: &str) {
    let before = latest(b)["moves_played"].clone();
    b.click(selector).unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(
        text.as_str().unwrap().contains(why),
        "clicking {selector}: {text}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(latest(b)["moves_played"], before, "{selector} was sent");
}

/// Moves the board's cursor to `sq` with the arrow keys.
fn cursor_to(b: &mut Browser, sq: &str) {
    let cur = b
        .eval("window.ployd.state().game.board.cursor")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let (x0, y0) = square_xy(b, &cur);
    let (x1, y1) = square_xy(b, sq);
    let (h, v) = (x1 - x0, y1 - y0);
    for _ in 0..h.abs() {
        b.key(if h > 0 { "ArrowRight" } else { "ArrowLeft" })
            .unwrap();
    }
    for _ in 0..v.abs() {
        b.key(if v > 0 { "ArrowDown" } else { "ArrowUp" }).unwrap();
    }
    let now = b.eval("window.ployd.state().game.board.cursor").unwrap();
    assert_eq!(now, json!(sq));
}

/// Plays one move with the keyboard alone: Tab to the board, arrows, Enter (and Tab and
/// Enter to a turn button when the move is a turn). `kind` picks the move: "motion",
/// "turn", "shield" (a shield's move and turn) or "straight" (a shield's move without a
/// turn).
fn keyboard_move(b: &mut Browser, kind: &str) {
    let view = wait_turn_or_end(b);
    assert_eq!(view["status"], "active");
    let before = view["moves_played"].as_u64().unwrap();
    let legal: Vec<String> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let split = |m: &str| -> (String, String, String) {
        let p: Vec<&str> = m.split('-').collect();
        (p[0].to_owned(), p[1].to_owned(), p[2].to_owned())
    };
    let count = |from: &str, to: &str| {
        legal
            .iter()
            .filter(|m| {
                let (f, t, _) = split(m);
                f == from && t == to
            })
            .count()
    };
    let mv = legal
        .iter()
        .find(|m| {
            let (f, t, r) = split(m);
            match kind {
                "motion" => f != t && count(&f, &t) == 1,
                "turn" => f == t,
                "straight" => f != t && count(&f, &t) > 1 && r == "0",
                _ => f != t && count(&f, &t) > 1 && r != "0",
            }
        })
        .unwrap_or_else(|| panic!("no {kind} move in {legal:?}"))
        .clone();
    let (from, to, _) = split(&mv);
    tab_to_board(b);
    cursor_to(b, &from);
    b.key("Enter").unwrap();
    b.wait_for(
        &format!("window.ployd.state().game.board.selected === {from:?}"),
        WAIT,
    )
    .unwrap();
    match kind {
        "motion" => {
            cursor_to(b, &to);
            b.key("Enter").unwrap();
        }
        "straight" => {
            // A shield's move without a turn: Enter on the destination, no other step.
            cursor_to(b, &to);
            b.key("Enter").unwrap();
        }
        _ => {
            // Tab from the board to the turn buttons (in place, or a shield's after
            // moving), to the one for this move.
            let mut found = false;
            for _ in 0..12 {
                b.key("Tab").unwrap();
                if b.eval(&format!(
                    "document.activeElement && document.activeElement.getAttribute('data-move') === {mv:?}"
                ))
                .unwrap()
                    == json!(true)
                {
                    found = true;
                    break;
                }
            }
            assert!(found, "Tab never reaches the turn button of {mv}");
            b.key("Enter").unwrap();
        }
    }
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval(&format!("window.ployd.latest().moves[{before}]"))
            .unwrap(),
        json!(mv)
    );
}

/// Clicks that are not moves are explained on the page and not sent.
fn illegal_clicks_are_explained(b: &mut Browser) {
    let view = wait_turn_or_end(b);
    let before = view["moves_played"].clone();
    let pieces = view["position"]["pieces"].as_array().unwrap().clone();
    let mover = view["position"]["mover"].as_str().unwrap().to_owned();
    let enemy = pieces
        .iter()
        .find(|p| view["position"]["controllers"][p["colour"].as_str().unwrap()] != mover.as_str())
        .unwrap();
    let sq = enemy["square"].as_str().unwrap();
    b.click(&format!("[data-square={sq}]")).unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(
        text.as_str().unwrap().contains("you move"),
        "clicking {sq}: {text}"
    );
    // An empty square.
    b.click("[data-square=e5]").unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(text.as_str().unwrap().contains("e5 is empty"), "{text}");
    // A commander cannot go three squares.
    let own = pieces
        .iter()
        .find(|p| p["colour"] == mover.as_str() && p["kind"] == "commander")
        .unwrap();
    let from = own["square"].as_str().unwrap();
    b.click(&format!("[data-square={from}]")).unwrap();
    b.click("[data-square=e5]").unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    let t = text.as_str().unwrap();
    assert!(
        t.contains("commander") && (t.contains("at most 1 square") || t.contains("no flag")),
        "{t}"
    );
    // Escape lets go of the piece; a click on it picks it again, a second lets go.
    b.key("Escape").unwrap();
    assert_eq!(
        b.eval("window.ployd.state().game.board.selected").unwrap(),
        Value::Null
    );
    b.click(&format!("[data-square={from}]")).unwrap();
    b.click(&format!("[data-square={from}]")).unwrap();
    assert_eq!(
        b.eval("window.ployd.state().game.board.selected").unwrap(),
        Value::Null
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        latest(b)["moves_played"],
        before,
        "an illegal click was sent"
    );
}

#[test]
fn four_players_with_bot_seats_by_clicking() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("four_players_with_bot_seats_by_clicking") else {
        return;
    };
    let dir = temp_dir("page-4p");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "carol", "pw-secret-carol");
    // Free-for-all: three bots; a short no-capture limit so that the bots finish quickly
    // once carol is out.
    let id = new_game(
        &mut b,
        "ploy",
        &[("variant", "ffa"), ("no_capture_limit", "30")],
        &["me", "bot", "bot", "bot"],
    );
    assert_eq!(
        latest(&mut b)["players"],
        json!(["carol", "bot", "bot", "bot"])
    );
    assert_eq!(
        latest(&mut b)["options"],
        json!(["-variant=ffa", "-no_capture_limit=30"])
    );
    illegal_clicks_are_explained(&mut b);
    keyboard_move(&mut b, "turn");
    shoot(&mut b, "ploy-ffa");
    b.eval("document.activeElement.blur(); true").unwrap();
    b.screenshot_of("#board", &screenshots().join("ploy-four-board.png"))
        .unwrap();
    let end = play_to_the_end(&mut b, 5, 200);
    assert_eq!(end["status"], "over");
    shoot(&mut b, "ploy-ffa-over");
    b.reload().unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'over'",
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves"], end["moves"]);
    assert_eq!(latest(&mut b)["id"], json!(id));

    // Partnership, carol and a bot against two bots: one move with the keyboard (a shield
    // that moves and turns), the rest by clicking.
    let pid = new_game(
        &mut b,
        "ploy",
        &[("variant", "partnership"), ("no_capture_limit", "30")],
        &["me", "bot", "bot", "bot"],
    );
    assert_ne!(pid, id);
    keyboard_move(&mut b, "shield");
    shoot(&mut b, "ploy-partnership");
    let end = play_to_the_end(&mut b, 9, 200);
    assert_eq!(end["status"], "over");
}

#[test]
fn a_move_from_another_client_appears_live() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_move_from_another_client_appears_live") else {
        return;
    };
    let dir = temp_dir("page-live");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "bob", "hunter22");
    sign_up(&mut b, &url, "alice", "s3cret-pw");
    let id = new_game(&mut b, "ploy", &[], &["me", "bob"]);
    joins(&mut b, &server, id, "bob", "hunter22");
    // alice moves with the keyboard, bob through the API; the page shows bob's move.
    keyboard_move(&mut b, "motion");
    b.wait_for(
        "document.getElementById('game-status').textContent.includes('bob (Red) to move')",
        WAIT,
    )
    .unwrap();
    let state = common::get(server.addr, &format!("/api/games/{id}")).json();
    let legal = state["legal"].as_array().unwrap();
    let mv = legal[legal.len() / 2].as_str().unwrap().to_owned();
    let start = Instant::now();
    let r = post(
        server.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "bob", "password": "hunter22", "move": mv, "ply": 1}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    b.wait_for(
        "document.querySelectorAll('#moves li').length === 2 \
         && document.getElementById('game-status').textContent.startsWith('Your move')",
        // The page does not poll and is not reloaded: only the event stream can bring the
        // move. (How fast is printed, not asserted: no wall-clock limits in tests.)
        WAIT,
    )
    .unwrap();
    let seen = start.elapsed();
    eprintln!("bob's move was on alice's page {seen:?} after it was posted");
    let shown = b
        .eval("document.querySelector('#moves li:last-child button').textContent")
        .unwrap();
    assert!(shown.as_str().unwrap().contains(&mv), "{shown}");

    // The slider shows earlier positions; the board takes no move there.
    b.click("#first").unwrap();
    b.wait_for("window.ployd.shown().ply === 0", WAIT).unwrap();
    let pieces = b
        .eval("document.querySelectorAll('[data-piece]').length")
        .unwrap();
    assert_eq!(pieces, json!(30));
    b.click("[data-square=e3]").unwrap();
    let text = b
        .eval("document.getElementById('explain').textContent")
        .unwrap();
    assert!(
        text.as_str()
            .unwrap()
            .contains("looking at the position after move 0"),
        "{text}"
    );
    b.eval("(() => { const s = document.getElementById('slider'); s.value = 1; s.dispatchEvent(new Event('input')); return true; })()")
        .unwrap();
    b.wait_for("window.ployd.shown().ply === 1", WAIT).unwrap();
    b.click("#last").unwrap();
    b.wait_for("window.ployd.shown() === window.ployd.latest()", WAIT)
        .unwrap();

    // A typed move goes to the server, and its refusal is shown.
    b.click("#typed-move").unwrap();
    b.type_text("e3-e9").unwrap();
    b.key("Enter").unwrap();
    b.wait_for(
        "document.getElementById('explain').textContent.includes('e3-e9')",
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves_played"], json!(2));
    // alice offers a draw.
    b.click("#propose").unwrap();
    b.wait_for(
        "document.getElementById('game-status').textContent.includes('draw offered by alice')",
        WAIT,
    )
    .unwrap();

    // The game list says whose turn it is.
    b.click("#nav-games").unwrap();
    b.wait_for(
        &format!("document.querySelector('#games a[data-game=\"{id}\"].your-move') !== null"),
        WAIT,
    )
    .unwrap();
    shoot(&mut b, "lobby");

    // bob signs in on the same browser (a wrong password first): his board is turned so
    // that Red sits at the bottom, and he turns the draw down.
    b.click("#signout").unwrap();
    b.wait_for("!document.getElementById('signin').hidden", WAIT)
        .unwrap();
    // (The field still holds alice's userid, as a convenience; bob types over it.)
    b.eval("document.getElementById('userid').select(); true")
        .unwrap();
    b.type_text("bob").unwrap();
    b.click("#password").unwrap();
    b.type_text("wrong").unwrap();
    b.key("Enter").unwrap();
    b.wait_for(
        "document.getElementById('signin-message').textContent.includes('wrong password')",
        WAIT,
    )
    .unwrap();
    b.eval("document.getElementById('password').value = ''; true")
        .unwrap();
    b.click("#password").unwrap();
    b.type_text("hunter22").unwrap();
    b.key("Enter").unwrap();
    b.wait_for(
        &format!("document.querySelector('#games a[data-game=\"{id}\"]:not(.your-move)') !== null"),
        WAIT,
    )
    .unwrap();
    b.click(&format!("#games a[data-game=\"{id}\"]")).unwrap();
    b.wait_for(
        "window.ployd.latest() && !document.getElementById('reject').hidden",
        WAIT,
    )
    .unwrap();
    let (e1, e9) = (square_xy(&mut b, "e1"), square_xy(&mut b, "e9"));
    assert!(
        e1.1 < e9.1,
        "Red's board is not turned: e1 {e1:?}, e9 {e9:?}"
    );
    shoot(&mut b, "ploy-2p-red");
    b.click("#reject").unwrap();
    b.wait_for(
        "window.ployd.latest().draw_offers.length === 0 && document.getElementById('reject').hidden",
        WAIT,
    )
    .unwrap();

    // bob's game list follows the game live: alice resigns elsewhere.
    b.click("#nav-games").unwrap();
    b.wait_for(
        &format!("document.querySelector('#games a[data-game=\"{id}\"]') !== null"),
        WAIT,
    )
    .unwrap();
    let r = post(
        server.addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": "alice", "password": "s3cret-pw"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    b.wait_for(
        &format!("document.querySelector('#games a[data-game=\"{id}\"]') === null"),
        Duration::from_secs(2),
    )
    .unwrap();
    b.click("#show-finished").unwrap();
    b.wait_for(
        &format!("(document.querySelector('#games a[data-game=\"{id}\"]') || {{}}).textContent.includes('bob (Red) wins (resignation)')"),
        WAIT,
    )
    .unwrap();
}

/// Pente and Pyloff against another player who moves through the API: the moves arrive on
/// the open page within 2 s; a Pente capture is shown; a forced Pyloff pass is played by the
/// server and shown.
#[test]
fn pente_capture_and_pyloff_pass_against_another_player() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("pente_capture_and_pyloff_pass_against_another_player")
    else {
        return;
    };
    let dir = temp_dir("page-others");
    let server = Server::start(&dir.join("db"), &[]);
    signup(server.addr, "bob", "hunter22");
    sign_up(&mut b, &base(&server), "alice", "s3cret-pw");
    pente::pente_capture_against_another_player(&mut b, &server);
    pyloff::pyloff_forced_pass_against_another_player(&mut b, &server);
}
