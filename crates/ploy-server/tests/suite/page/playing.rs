//! What a player does on the page with issue 26's features, each through the page's own
//! controls: leaving a four-player free-for-all against three bots with *Resign* (his
//! pieces leave the board; only bots are left, so the game ends `abandoned`, nobody
//! winning: docs/server.md, "POST /api/games/{id}/resign"); a game against a level-1 bot
//! started by the new-game form's labels alone (docs/server.md, "Options"); the record
//! downloaded by the game view's link and read back by the game's own crate; and a rematch
//! (the same options, every player one seat on: docs/server.md, "GAME rematch").

use super::*;
use ploy_core::{Outcome, Seat};
use ploy_notation::UniversityMove;

/// Clicks *Resign* twice (the first click asks again) and waits for the answer.
fn resign_on_the_page(b: &mut Browser) {
    b.click("#resign").unwrap();
    b.wait_for(
        "document.getElementById('resign').textContent.startsWith('Really resign')",
        WAIT,
    )
    .unwrap();
    b.click("#resign").unwrap();
}

#[test]
fn leaving_a_free_for_all_against_three_bots_ends_it() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("leaving_a_free_for_all_against_three_bots_ends_it") else {
        return;
    };
    let dir = temp_dir("page-leave");
    // Fast bots: a small node budget (the last flag counts).
    let server = Server::start(&dir.join("db"), &["--bot-nodes", "40", "--bot-time", "1s"]);
    let url = base(&server);
    sign_up(&mut b, &url, "erin", "erin-pw12");
    let id = new_game(
        &mut b,
        "ploy",
        &[("variant", "ffa")],
        &["me", "bot", "bot", "bot"],
    );
    // One move of erin's by clicking; the three bots answer.
    let view = play_moves(&mut b, &mut Rng(3), 1);
    assert_eq!(view["status"], "active");
    assert_eq!(view["moves_played"], json!(4));
    assert_eq!(
        b.eval("document.getElementById('resign').hidden").unwrap(),
        json!(false)
    );
    resign_on_the_page(&mut b);
    b.wait_for("window.ployd.latest().status === 'over'", WAIT)
        .unwrap();
    let end = latest(&mut b);
    assert_eq!(end["reason"], "abandoned");
    assert_eq!(end["winners"], json!([]));
    assert_eq!(end["moves_played"], json!(5), "the withdrawal is one entry");
    let green = end["position"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["colour"] == "green")
        .count();
    assert_eq!(green, 0, "erin's pieces left the board");
    assert_eq!(
        b.eval("document.getElementById('game-status').textContent")
            .unwrap(),
        json!("Game over: abandoned: only bots were left; nobody wins")
    );
    // Nothing to play or resign any more; the server says the same.
    for id in ["resign", "typed", "propose"] {
        assert_eq!(
            b.eval(&format!("document.getElementById({id:?}).hidden"))
                .unwrap(),
            json!(true),
            "{id}"
        );
    }
    let s = common::get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["status"], "over");
    assert_eq!(s["reason"], "abandoned");
    // The bots do not play on alone.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        common::get(server.addr, &format!("/api/games/{id}")).json()["moves_played"],
        json!(5)
    );
    shoot(&mut b, "ploy-ffa-abandoned");
}

#[test]
fn a_level_one_bot_game_started_by_the_labels_answers() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_level_one_bot_game_started_by_the_labels_answers") else {
        return;
    };
    let dir = temp_dir("page-level");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "fred", "fred-pw12");
    // The navigation link by its text, then every field by its label.
    b.eval(
        "[...document.querySelectorAll('nav a')].find((a) => a.textContent.trim() === 'New game').click(); true",
    )
    .unwrap();
    b.wait_for(
        "document.querySelectorAll('#new-seat-fields .seat-row').length > 0",
        WAIT,
    )
    .unwrap();
    b.eval(form::BY_LABEL).unwrap();
    b.eval("window.pick('Game', 'Ploy')").unwrap();
    b.wait_for(
        "(document.getElementById('new-seat-fields').getAttribute('data-for') || '') === 'ploy'",
        WAIT,
    )
    .unwrap();
    b.eval("window.pick('Bot strength', '1')").unwrap();
    b.wait_for(
        "document.getElementById('new-seat-fields').getAttribute('data-for') === 'ploy -level=1'",
        WAIT,
    )
    .unwrap();
    let seats: Vec<String> = serde_json::from_value(
        b.eval("[...document.querySelectorAll('#new-seat-fields select')].map((s) => s.getAttribute('aria-label'))")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(seats.len(), 2);
    b.eval(&format!("window.pick({:?}, 'you')", seats[0]))
        .unwrap();
    b.eval(&format!("window.pick({:?}, 'the bot')", seats[1]))
        .unwrap();
    b.eval(
        "[...document.querySelectorAll('#new-form button')].find((x) => x.textContent.trim() === 'Start the game').click()",
    )
    .unwrap();
    let id = b
        .wait_for(
            "location.hash.startsWith('#game/') && window.ployd.latest() && window.ployd.latest().id",
            WAIT,
        )
        .unwrap()
        .as_i64()
        .unwrap();
    let s = common::get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["players"], json!(["fred", "bot"]));
    assert_eq!(s["options"], json!(["-level=1"]));
    assert_eq!(s["bot_level"], json!(1));
    // Two moves by clicking: the level-1 bot answers each.
    let view = play_moves(&mut b, &mut Rng(21), 2);
    assert_eq!(view["status"], "active");
    assert_eq!(view["moves_played"], json!(4));
    let seats: Vec<i64> = serde_json::from_value(view["move_seats"].clone()).unwrap();
    assert_eq!(seats, [0, 1, 0, 1], "the bot played every other move");
}

/// The record behind the game view's link, fetched in the page as the browser would
/// download it: (text, Content-Disposition).
fn download(b: &mut Browser) -> (String, String) {
    b.wait_for("!document.getElementById('record').hidden", WAIT)
        .unwrap();
    let v = b
        .eval(
            "(async () => { const a = document.getElementById('record');
               if (!a.hasAttribute('download')) throw new Error('not a download');
               const r = await fetch(a.href);
               return [r.status, await r.text(), r.headers.get('Content-Disposition')]; })()",
        )
        .unwrap();
    assert_eq!(v[0], json!(200), "{v}");
    (
        v[1].as_str().unwrap().to_owned(),
        v[2].as_str().unwrap().to_owned(),
    )
}

fn strings(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn records_download_from_the_page_and_read_back() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("records_download_from_the_page_and_read_back") else {
        return;
    };
    let dir = temp_dir("page-records");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "gina", "gina-pw12");

    // Ploy, going on: the record replays to the moves on the page.
    let id = new_game(&mut b, "ploy", &[], &["me", "bot"]);
    let view = play_moves(&mut b, &mut Rng(5), 2);
    let (text, disposition) = download(&mut b);
    assert_eq!(
        disposition,
        format!("attachment; filename=\"ploy-{id}.ploy\"")
    );
    let saved = ploy_sheet::read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let replayed: Vec<String> = saved
        .game
        .moves()
        .iter()
        .map(|&m| UniversityMove::from(m).to_string())
        .collect();
    assert_eq!(replayed, strings(&view["moves"]));
    assert_eq!(saved.header.players.get(Seat::Green), Some("gina"));
    assert_eq!(saved.header.players.get(Seat::Red), Some("bot"));
    assert_eq!(saved.game.outcome(), None);
    // Resigned on the page: the record says so.
    resign_on_the_page(&mut b);
    b.wait_for("window.ployd.latest().status === 'over'", WAIT)
        .unwrap();
    let (text, _) = download(&mut b);
    let saved = ploy_sheet::read_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        matches!(saved.game.outcome(), Some(Outcome::Win { .. })),
        "{text}"
    );

    // Pente and Pyloff, a few moves each.
    for (game, options) in [
        ("pente", vec![("size", "9")]),
        ("pyloff", vec![("size", "3")]),
    ] {
        let id = new_game(&mut b, game, &options, &["me", "bot"]);
        let view = play_by_typing(&mut b, 2);
        let (text, disposition) = download(&mut b);
        assert_eq!(
            disposition,
            format!("attachment; filename=\"{game}-{id}.{game}\"")
        );
        let replayed: Vec<String> = if game == "pente" {
            let rec: ::pente::Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(rec.white.as_deref(), Some("gina"));
            let g = rec.validate().unwrap();
            assert_eq!(g.position().to_string(), view["position"]["position"]);
            g.moves().iter().map(ToString::to_string).collect()
        } else {
            let rec: ::pyloff::Record = text.parse().unwrap_or_else(|e| panic!("{e:?}\n{text}"));
            let g = rec.replay().unwrap_or_else(|e| panic!("{e:?}\n{text}"));
            g.moves().iter().map(|(_, m)| m.to_string()).collect()
        };
        assert_eq!(replayed, strings(&view["moves"]), "{game}");
    }
}

/// Plays `n` of the page user's moves by typing the first legal move into *Type a move*;
/// the state once it is his turn again (or the game is over).
fn play_by_typing(b: &mut Browser, n: usize) -> Value {
    for _ in 0..n {
        let view = wait_turn_or_end(b);
        if view["status"] != "active" {
            return view;
        }
        let before = view["moves_played"].as_u64().unwrap();
        let mv = view["legal"][0].as_str().unwrap().to_owned();
        b.click("#typed-move").unwrap();
        b.type_text(&mv).unwrap();
        b.key("Enter").unwrap();
        b.wait_for(
            &format!("window.ployd.latest().moves_played > {before}"),
            WAIT,
        )
        .unwrap();
    }
    wait_turn_or_end(b)
}

#[test]
fn a_rematch_from_the_page_opens_the_new_game() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_rematch_from_the_page_opens_the_new_game") else {
        return;
    };
    let dir = temp_dir("page-rematch");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "ivan", "ivan-pw12");
    sign_up(&mut b, &url, "hana", "hana-pw12");

    // Against the bot at level 2, on a 9x9 Pente board: the bot takes the first seat next.
    let id = new_game(
        &mut b,
        "pente",
        &[("size", "9"), ("level", "2")],
        &["me", "bot"],
    );
    assert_eq!(
        b.eval("document.getElementById('rematch').hidden").unwrap(),
        json!(true)
    );
    play_by_typing(&mut b, 1);
    resign_on_the_page(&mut b);
    b.wait_for(
        "window.ployd.latest().status === 'over' && !document.getElementById('rematch').hidden",
        WAIT,
    )
    .unwrap();
    assert_accessible(&mut b, "a finished game with its rematch button");
    shoot(&mut b, "pente-rematch");
    b.click("#rematch").unwrap();
    let next = b
        .wait_for(
            &format!("window.ployd.latest() && window.ployd.latest().id !== {id} && location.hash === '#game/' + window.ployd.latest().id && window.ployd.latest().id"),
            WAIT,
        )
        .unwrap()
        .as_i64()
        .unwrap();
    let s = latest(&mut b);
    assert_eq!(s["players"], json!(["bot", "hana"]));
    assert_eq!(s["bot_level"], json!(2));
    let mut options = strings(&s["options"]);
    options.sort();
    assert_eq!(options, ["-level=2", "-size=9"]);
    // The bot moves first in the new game; then it is hana's turn on the page.
    let v = wait_turn_or_end(&mut b);
    assert_eq!(v["status"], "active");
    assert_eq!(v["moves_played"], json!(1));
    assert_eq!(v["id"], json!(next));

    // Against another person: he is invited again and the page opens the new game.
    let id = new_game(&mut b, "ploy", &[], &["me", "ivan"]);
    joins(&mut b, &server, id, "ivan", "ivan-pw12");
    resign_on_the_page(&mut b);
    b.wait_for(
        "window.ployd.latest().status === 'over' && !document.getElementById('rematch').hidden",
        WAIT,
    )
    .unwrap();
    b.click("#rematch").unwrap();
    b.wait_for(
        &format!("window.ployd.latest() && window.ployd.latest().id > {id} && window.ployd.latest().status === 'invited'"),
        WAIT,
    )
    .unwrap();
    let s = latest(&mut b);
    assert_eq!(s["players"], json!(["ivan", "hana"]));
    assert_eq!(s["waiting_for"], json!(["ivan"]));
    b.wait_for(
        "document.getElementById('game-status').textContent === 'Waiting for ivan to join'",
        WAIT,
    )
    .unwrap();
}
