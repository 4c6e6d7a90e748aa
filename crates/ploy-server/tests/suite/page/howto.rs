//! "How to play" on the page: each game's short rules, under the game chosen in the
//! new-game form and in the game view, saying what docs/rules.md, docs/pente.md and
//! docs/pyloff.md say (checked on a few facts of each), built without `innerHTML`.

use super::*;

/// The text of the "How to play" section inside `within` for `game`, after opening it.
fn howto_text(b: &mut Browser, within: &str, game: &str) -> String {
    let selector = format!("{within} details[data-howto={game}]");
    b.wait_for(
        &format!("document.querySelector({selector:?}) !== null"),
        WAIT,
    )
    .unwrap();
    let v = b
        .eval(&format!(
            "(() => {{ const d = document.querySelector({selector:?}); d.open = true;
               return [d.querySelector('summary').textContent, d.querySelectorAll('h3').length,
                       d.querySelectorAll('li').length, d.textContent]; }})()"
        ))
        .unwrap();
    let title = v[0].as_str().unwrap();
    assert!(title.starts_with("How to play "), "{title}");
    assert!(v[1].as_u64().unwrap() >= 2, "{game}: {v}");
    assert!(v[2].as_u64().unwrap() >= 4, "{game}: {v}");
    v[3].as_str().unwrap().to_owned()
}

#[test]
fn each_game_explains_how_to_play() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("each_game_explains_how_to_play") else {
        return;
    };
    let dir = temp_dir("page-howto");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    let script = common::get(server.addr, "/page/howto.js");
    assert_eq!(script.status, 200);
    assert!(!script.text().contains("innerHTML"));
    sign_up(&mut b, &url, "dora", "dora-pw-1");
    b.click("#nav-new").unwrap();
    b.wait_for(
        "document.querySelectorAll('#new-seat-fields .seat-row').length > 0",
        WAIT,
    )
    .unwrap();

    // The facts each account must give (docs/rules.md sections 2-6, docs/pente.md "The
    // rules as played here", docs/pyloff.md "A move" and "The end and the score").
    let facts: &[(&str, &[&str])] = &[
        (
            "ploy",
            &[
                "shield (1 flag) steps one square",
                "probe (2 flags) goes one or two squares",
                "lance (3 flags) one to three",
                "commander (4 flags) one square",
                "commander is captured",
                "A shield may step and then turn in the same move",
                "third time",
                "200 moves",
            ],
        ),
        (
            "pente",
            &[
                "White begins, on the centre",
                "exactly two enemy stones",
                "Five or more",
                "ten captured stones",
                "at least three points from the centre",
            ],
        ),
        (
            "pyloff",
            &[
                "on top of four pieces",
                "swap",
                "without a freedom is captured",
                "highest score wins",
            ],
        ),
    ];
    for (game, want) in facts {
        b.eval(&format!(
            "(() => {{ const s = document.getElementById('new-game'); s.value = {game:?};
               s.dispatchEvent(new Event('change')); return true; }})()"
        ))
        .unwrap();
        let text = howto_text(&mut b, "#new-howto", game);
        for fact in *want {
            assert!(text.contains(fact), "{game}: no {fact:?} in {text}");
        }
    }
    assert_accessible(&mut b, "the new-game form with the rules open");

    // In the game view: the rules of the game on the board.
    new_game(&mut b, "pente", &[("size", "9")], &["me", "bot"]);
    let text = howto_text(&mut b, "#game-howto", "pente");
    assert!(text.contains("Five or more"), "{text}");
    assert_eq!(
        b.eval("document.querySelectorAll('#game-howto details').length")
            .unwrap(),
        json!(1)
    );
    b.eval("document.querySelector('#game-howto details').scrollIntoView(); true")
        .unwrap();
    shoot(&mut b, "howto-pente");
    assert_accessible(&mut b, "a Pente game with its rules open");
}
