//! Pyloff on the page: a size-4 game against the bot played by clicking to its end (with
//! a swap, the playable points checked against the legal moves, the control that hides
//! upper levels, a move with the keyboard), and a forced pass in a game against another
//! player whose moves arrive live.

use super::*;

/// Column and row (from 0) of a cell such as `c3`.
fn xy(cell: &str) -> (i64, i64) {
    let x = i64::from(cell.as_bytes()[0] - b'a');
    (x, cell[1..].parse::<i64>().expect("a row number") - 1)
}

/// The cells of `legal` (placements; not `swap` or `pass`), sorted.
fn cells(view: &Value) -> Vec<String> {
    let mut v: Vec<String> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .filter(|m| m != "swap" && m != "pass")
        .collect();
    v.sort();
    v
}

fn marked(b: &mut Browser) -> Vec<String> {
    let v = b
        .eval("[...document.querySelectorAll('#board [data-playable]')].map(e => e.getAttribute('data-playable')).sort()")
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Clicks the cell and waits until the server has the move (and any forced pass after it).
fn click_cell(b: &mut Browser, cell: &str) {
    let before = latest(b)["moves_played"].as_u64().unwrap();
    b.click(&format!("[data-cell={cell}]")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval(&format!("window.ployd.latest().moves[{before}]"))
            .unwrap(),
        json!(cell)
    );
}

/// An upper-level cell mostly (the pyramid grows), else any.
fn choose(view: &Value, rng: &mut Rng) -> String {
    let cells = cells(view);
    assert!(!cells.is_empty(), "no placement in {}", view["legal"]);
    let upper: Vec<&String> = cells
        .iter()
        .filter(|c| {
            let (x, y) = xy(c);
            x % 2 == 1 || y % 2 == 1
        })
        .collect();
    if !upper.is_empty() && rng.below(3) != 0 {
        return upper[rng.below(upper.len())].clone();
    }
    cells[rng.below(cells.len())].clone()
}

#[test]
fn pyloff_against_the_bot_by_clicking() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("pyloff_against_the_bot_by_clicking") else {
        return;
    };
    let dir = temp_dir("page-pyloff");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "erin", "pw-secret-erin");
    // erin is player 2: the bot places first, and erin may swap.
    let id = new_game(&mut b, "pyloff", &[("size", "4")], &["bot", "me"]);
    assert_eq!(latest(&mut b)["players"], json!(["bot", "erin"]));
    let view = wait_turn_or_end(&mut b);
    assert_eq!(view["moves_played"], json!(1));
    assert!(view["legal"].as_array().unwrap().contains(&json!("swap")));
    assert_eq!(marked(&mut b), cells(&view));
    assert_accessible(&mut b, "a Pyloff game");
    shoot(&mut b, "pyloff-swap");
    b.click("#choices [data-move=swap]").unwrap();
    b.wait_for("window.ployd.latest().moves_played >= 2", WAIT)
        .unwrap();
    assert_eq!(latest(&mut b)["moves"][1], json!("swap"));
    // After the swap the bot's first piece is erin's, and the bot places again.
    let view = wait_turn_or_end(&mut b);
    assert_eq!(view["position"]["scores"][1], json!(1));

    // The marked points are the legal placements; other cells are explained, not sent.
    assert_eq!(marked(&mut b), cells(&view));
    let pieces: Vec<(i64, i64, i64)> = view["position"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["level"].as_i64().unwrap(),
                p["i"].as_i64().unwrap(),
                p["j"].as_i64().unwrap(),
            )
        })
        .collect();
    // A level-1 cell: b2 rests on a1, c1, a3, c3, which are not all taken yet.
    assert!(pieces.len() < 4);
    click_refused(&mut b, "[data-cell=b2]", "needs all four pieces under it");
    let taken = view["position"]["pieces"][0]["cell"]
        .as_str()
        .unwrap()
        .to_owned();
    click_refused(&mut b, &format!("[data-cell={taken}]"), "is taken");

    // One move with the keyboard alone.
    let target = cells(&view)[0].clone();
    tab_to_board(&mut b);
    let cursor = b
        .eval("window.ployd.state().game.board.cursor")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let ((x0, y0), (x1, y1)) = (xy(&cursor), xy(&target));
    arrows(&mut b, x1 - x0, y1 - y0);
    b.key("Enter").unwrap();
    b.wait_for("window.ployd.latest().moves_played >= 4", WAIT)
        .unwrap();
    assert_eq!(latest(&mut b)["moves"][3], json!(target));

    // On by clicking, to the end (at most 4 x 30 moves on size 4).
    let mut rng = Rng(21);
    let mut levels_checked = false;
    let mut end = None;
    for _ in 0..80 {
        let view = wait_turn_or_end(&mut b);
        if view["status"] != "active" {
            end = Some(view);
            break;
        }
        assert_eq!(marked(&mut b), cells(&view));
        let upper = view["position"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["level"] != json!(0))
            .count();
        if !levels_checked && upper >= 3 {
            // Hiding the upper levels leaves the board's pieces only.
            let all = view["position"]["pieces"].as_array().unwrap().len();
            shoot(&mut b, "pyloff-levels");
            b.screenshot_of("#board svg", &screenshots().join("pyloff-board.png"))
                .unwrap();
            b.eval("(() => { const s = document.getElementById('pyloff-levels'); s.value = '1'; s.dispatchEvent(new Event('change')); return true; })()")
                .unwrap();
            let shown = b
                .eval("document.querySelectorAll('#board [data-piece]').length")
                .unwrap();
            assert_eq!(shown, json!(all - upper));
            b.eval("(() => { const s = document.getElementById('pyloff-levels'); s.value = 'all'; s.dispatchEvent(new Event('change')); return true; })()")
                .unwrap();
            let shown = b
                .eval("document.querySelectorAll('#board [data-piece]').length")
                .unwrap();
            assert_eq!(shown, json!(all));
            levels_checked = true;
        }
        let cell = choose(&view, &mut rng);
        click_cell(&mut b, &cell);
    }
    let end = end.unwrap_or_else(|| wait_turn_or_end(&mut b));
    assert_eq!(end["status"], "over", "the game did not end");
    assert!(levels_checked, "no three pieces ever stood on upper levels");
    assert!(!end["result"].as_str().unwrap().is_empty());
    // The scores are shown per player.
    let scores = end["position"]["scores"].clone();
    for seat in 0..2 {
        let note = b
            .eval(&format!(
                "document.querySelector('#players li[data-seat=\"{seat}\"]').textContent"
            ))
            .unwrap();
        assert!(
            note.as_str()
                .unwrap()
                .contains(&format!("score {}", scores[seat])),
            "{note}"
        );
    }
    b.wait_for(
        "document.getElementById('game-status').textContent.startsWith('Game over')",
        WAIT,
    )
    .unwrap();
    shoot(&mut b, "pyloff-over");

    b.reload().unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'over'",
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves"], end["moves"]);
    assert_eq!(latest(&mut b)["id"], json!(id));
}

/// alice (player 1) on the page against bob (player 2) through the API, on size 4: bob's
/// moves appear within 2 s, and after alice's 6th placement bob has no legal placement, so
/// the server passes for him and it is alice's move again. (The line was found by random
/// play with the `pyloff` crate's `moves` example and is checked here move by move.)
pub(crate) fn pyloff_forced_pass_against_another_player(b: &mut Browser, server: &Server) {
    let id = new_game(b, "pyloff", &[("size", "4")], &["me", "bob"]);
    joins(b, server, id, "bob", "hunter22");
    let line = [
        "c5", "g7", "c1", "g1", "a3", "a5", "e3", "e7", "g3", "g5", "c7",
    ];
    for (ply, cell) in line.iter().enumerate() {
        if ply % 2 == 0 {
            let view = wait_turn_or_end(b);
            assert_eq!(marked(b), cells(&view));
            click_cell(b, cell);
        } else {
            let r = post(
                server.addr,
                &format!("/api/games/{id}/moves"),
                &json!({"userid": "bob", "password": "hunter22", "move": cell, "ply": ply}),
            );
            assert_eq!(r.status, 200, "{}", r.text());
            wait_moves(b, ply + 1, Duration::from_secs(2));
        }
    }
    // The pass was played by the server with alice's last placement.
    let view = wait_turn_or_end(b);
    assert_eq!(view["moves_played"], json!(12));
    assert_eq!(view["moves"][11], json!("pass"));
    assert_eq!(view["move_seats"][11], json!(1));
    assert_eq!(view["to_move"], json!("alice"));
    let shown = b
        .eval("document.querySelector('#moves li:last-child button').textContent")
        .unwrap();
    assert!(shown.as_str().unwrap().contains("pass"), "{shown}");
    assert!(
        b.eval("document.getElementById('game-status').textContent")
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("Your move")
    );
    shoot(b, "pyloff-pass");

    // alice resigns on the page: the first click asks again, the second resigns.
    b.click("#resign").unwrap();
    b.wait_for(
        "document.getElementById('resign').textContent.includes('Really')",
        WAIT,
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(latest(b)["status"], json!("active"));
    b.click("#resign").unwrap();
    b.wait_for("window.ployd.latest().status === 'over'", WAIT)
        .unwrap();
    let view = latest(b);
    assert_eq!(view["winners"], json!(["bob"]));
    assert!(
        view["result"].as_str().unwrap().contains("resign"),
        "{}",
        view["result"]
    );
}
