//! The new-game form in words: every option of `GET /api/types` has a label in words (no
//! flag name such as `-size`), choices and small number ranges are selects holding exactly
//! the values the rules allow (Pente's sizes odd), and a game is started by a user who reads
//! the labels only.

use super::*;

/// JavaScript that defines `byLabel(text)`: the form control whose `<label>` reads `text`
/// or whose accessible name (`aria-label`) is `text`, and `pick(text, optionText)`: chooses
/// the select's option shown as `optionText`.
pub(super) const BY_LABEL: &str = "
  window.byLabel = (text) => {
    const l = [...document.querySelectorAll('#new-form label')].find((l) => l.textContent.trim() === text);
    if (l) return l.control;
    return [...document.querySelectorAll('#new-form [aria-label]')].find((e) => e.getAttribute('aria-label') === text) || null;
  };
  window.pick = (text, shown) => {
    const s = window.byLabel(text);
    const o = [...s.options].find((o) => o.text === shown);
    if (!o) throw new Error('no option ' + shown + ' under ' + text);
    s.value = o.value;
    s.dispatchEvent(new Event('change'));
    return true;
  };
  true";

/// The texts of the options of the select labelled `label`.
fn choices(b: &mut Browser, label: &str) -> Vec<String> {
    let v = b
        .eval(&format!(
            "[...window.byLabel({label:?}).options].map((o) => o.text)"
        ))
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Chooses `game` by the "Game" label and waits for its fields.
fn choose_game(b: &mut Browser, shown: &str, game: &str) {
    b.eval(&format!("window.pick('Game', {shown:?})")).unwrap();
    b.wait_for(
        &format!(
            "(document.getElementById('new-seat-fields').getAttribute('data-for') || '').split(' ')[0] === {game:?}"
        ),
        WAIT,
    )
    .unwrap();
}

/// Every option field of the form has a label in words: not the flag's name, no `-name`.
fn assert_labels_in_words(b: &mut Browser, types: &Value, game: &str) {
    let t = types["types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == game)
        .unwrap();
    for o in t["options"].as_array().unwrap() {
        let name = o["name"].as_str().unwrap();
        let label = b
            .eval(&format!(
                "(() => {{ const e = document.querySelector('[data-option={name:?}]');
                   return e && e.labels.length ? e.labels[0].textContent.trim() : null; }})()"
            ))
            .unwrap();
        let label = label
            .as_str()
            .unwrap_or_else(|| panic!("{game} -{name} has no labelled field"))
            .to_owned();
        assert!(
            !label.contains('-') || label.contains(' '),
            "{game} -{name}: label {label:?}"
        );
        assert!(!label.starts_with('-'), "{game} -{name}: label {label:?}");
        assert!(!label.contains('_'), "{game} -{name}: label {label:?}");
        assert_ne!(label, name, "{game} -{name}: the label is the flag's name");
        // A small range of numbers and every choice is a select.
        let kind = o["kind"].as_str().unwrap();
        let small = kind == "number"
            && o["values"]["max"].as_u64().unwrap() - o["values"]["min"].as_u64().unwrap() < 50;
        if kind == "choice" || small {
            let tag = b
                .eval(&format!(
                    "document.querySelector('[data-option={name:?}]').tagName"
                ))
                .unwrap();
            assert_eq!(tag, json!("SELECT"), "{game} -{name}");
        }
    }
    let flags = b
        .eval("document.querySelectorAll('#new-form code').length")
        .unwrap();
    assert_eq!(flags, json!(0), "{game}: flag names shown in the form");
}

#[test]
fn the_new_game_form_is_filled_by_its_labels() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("the_new_game_form_is_filled_by_its_labels") else {
        return;
    };
    let dir = temp_dir("page-form");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    let types = common::get(server.addr, "/api/types").json();
    sign_up(&mut b, &url, "carol", "carol-pw1");
    b.click("#nav-new").unwrap();
    b.wait_for(
        "document.querySelectorAll('#new-seat-fields .seat-row').length > 0",
        WAIT,
    )
    .unwrap();
    b.eval(BY_LABEL).unwrap();

    for (shown, game) in [("Ploy", "ploy"), ("Pyloff", "pyloff"), ("Pente", "pente")] {
        choose_game(&mut b, shown, game);
        b.eval("document.getElementById('new-more').open = true")
            .unwrap();
        assert_labels_in_words(&mut b, &types, game);
    }

    // Pente's board sizes: the odd sides from 7 to 19 only (docs/pente.md).
    let mut want = vec!["default".to_owned()];
    want.extend((7..=19).step_by(2).map(|n| n.to_string()));
    assert_eq!(choices(&mut b, "Board size"), want);
    shoot(&mut b, "new-game-pente");

    // Pyloff's sizes: 2 to 13 (docs/pyloff.md).
    choose_game(&mut b, "Pyloff", "pyloff");
    let mut want = vec!["default".to_owned()];
    want.extend((2..=13).map(|n| n.to_string()));
    assert_eq!(choices(&mut b, "Board size"), want);

    // Ploy's variants in words.
    choose_game(&mut b, "Ploy", "ploy");
    assert_eq!(
        choices(&mut b, "Players"),
        [
            "two players (default)",
            "four-player free-for-all",
            "four players in two teams"
        ]
    );

    // A 9x9 Pente game without the tournament rule against the bot, by the labels.
    choose_game(&mut b, "Pente", "pente");
    b.eval("window.pick('Board size', '9')").unwrap();
    b.eval(
        "(() => { const c = window.byLabel('Without the tournament rule'); c.checked = true;
           c.dispatchEvent(new Event('change')); return true; })()",
    )
    .unwrap();
    b.wait_for(
        "document.getElementById('new-seat-fields').getAttribute('data-for') === 'pente -size=9 -no_tournament_rule'",
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
    let game = common::get(server.addr, &format!("/api/games/{id}")).json();
    assert_eq!(game["game"], json!("pente"));
    assert_eq!(game["players"], json!(["carol", "bot"]));
    let mut options: Vec<String> = serde_json::from_value(game["options"].clone()).unwrap();
    options.sort();
    assert_eq!(options, ["-no_tournament_rule", "-size=9"]);
    assert_eq!(game["position"]["size"], json!(9));
}
