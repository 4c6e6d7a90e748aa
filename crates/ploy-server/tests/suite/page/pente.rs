//! Pente on the page: a 9x9 game against the bot played by clicking to its end, the first
//! stone's and the tournament rule's points, a move with the keyboard, captures shown in a
//! game against another player whose moves arrive live.

use super::*;

/// Pente's columns (pente.org: no I).
const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

/// Column and row (from 0) of a point such as `K10`.
pub(super) fn col_row(p: &str) -> (i64, i64) {
    let c = COLUMNS.find(&p[..1]).expect("a column letter") as i64;
    (c, p[1..].parse::<i64>().expect("a row number") - 1)
}

fn point(c: i64, r: i64) -> String {
    format!("{}{}", &COLUMNS[c as usize..=c as usize], r + 1)
}

fn legal(view: &Value) -> Vec<String> {
    view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

fn stones(view: &Value) -> Vec<String> {
    view["position"]["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["point"].as_str().unwrap().to_owned())
        .collect()
}

/// A legal point next to a stone if there is one (so that the game gets somewhere).
fn choose(view: &Value, rng: &mut Rng) -> String {
    let legal = legal(view);
    assert!(!legal.is_empty());
    let stones: Vec<(i64, i64)> = stones(view).iter().map(|p| col_row(p)).collect();
    let near: Vec<&String> = legal
        .iter()
        .filter(|p| {
            let (c, r) = col_row(p);
            stones
                .iter()
                .any(|&(sc, sr)| (sc - c).abs() <= 1 && (sr - r).abs() <= 1)
        })
        .collect();
    if !near.is_empty() && rng.below(5) != 0 {
        return near[rng.below(near.len())].clone();
    }
    legal[rng.below(legal.len())].clone()
}

/// Clicks the point `p` and waits until the server has the move.
fn click_point(b: &mut Browser, p: &str) {
    let before = latest(b)["moves_played"].as_u64().unwrap();
    b.click(&format!("[data-point={p}]")).unwrap();
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval(&format!("window.ployd.latest().moves[{before}]"))
            .unwrap(),
        json!(p)
    );
}

/// Places a stone on `p` with the keyboard alone: Tab to the board, arrows, Enter.
fn keyboard_point(b: &mut Browser, p: &str) {
    let before = latest(b)["moves_played"].as_u64().unwrap();
    tab_to_board(b);
    let cursor = b
        .eval("window.ployd.state().game.board.cursor")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let (c0, r0) = col_row(&cursor);
    let (c1, r1) = col_row(p);
    arrows(b, c1 - c0, r1 - r0);
    assert_eq!(
        b.eval("window.ployd.state().game.board.cursor").unwrap(),
        json!(p)
    );
    b.key("Enter").unwrap();
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {before}"),
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval(&format!("window.ployd.latest().moves[{before}]"))
            .unwrap(),
        json!(p)
    );
}

fn shown_list(b: &mut Browser, attribute: &str) -> Vec<String> {
    let v = b
        .eval(&format!(
            "[...document.querySelectorAll('#board [{attribute}]')].map(e => e.getAttribute('{attribute}')).sort()"
        ))
        .unwrap();
    serde_json::from_value(v).unwrap()
}

#[test]
fn pente_against_the_bot_by_clicking() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("pente_against_the_bot_by_clicking") else {
        return;
    };
    let dir = temp_dir("page-pente");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "dora", "pw-secret-dora");
    let id = new_game(&mut b, "pente", &[("size", "9")], &["me", "bot"]);
    assert_eq!(latest(&mut b)["options"], json!(["-size=9"]));

    // The first stone: only the centre, marked; a click elsewhere is explained, not sent.
    let view = wait_turn_or_end(&mut b);
    assert_eq!(legal(&view), ["E5"]);
    assert_eq!(shown_list(&mut b, "data-playable"), ["E5"]);
    assert_accessible(&mut b, "a Pente game");
    shoot(&mut b, "pente-start");
    click_refused(&mut b, "[data-point=A1]", "centre, E5");
    click_point(&mut b, "E5");

    // White's second stone under the tournament rule: the empty points less than three
    // from the centre are greyed, and refused with the reason.
    let view = wait_turn_or_end(&mut b);
    assert_eq!(view["moves_played"], json!(2));
    let taken = stones(&view);
    let mut middle: Vec<String> = Vec::new();
    for c in 0..9 {
        for r in 0..9 {
            let p = point(c, r);
            if (c - 4).abs() < 3 && (r - 4).abs() < 3 && !taken.contains(&p) {
                middle.push(p);
            }
        }
    }
    middle.sort();
    assert_eq!(shown_list(&mut b, "data-forbidden"), middle);
    let legal_now = legal(&view);
    assert_eq!(legal_now.len(), 81 - taken.len() - middle.len());
    assert!(middle.iter().all(|p| !legal_now.contains(p)));
    shoot(&mut b, "pente-tournament-rule");
    click_refused(
        &mut b,
        &format!("[data-point={}]", middle[0]),
        "tournament rule",
    );
    // A stone already there.
    click_refused(&mut b, "[data-point=E5]", "already holds a stone");

    // This move with the keyboard alone: the legal point nearest the centre.
    let target = legal_now
        .iter()
        .min_by_key(|p| {
            let (c, r) = col_row(p);
            ((c - 4).abs() + (r - 4).abs(), (*p).clone())
        })
        .unwrap()
        .clone();
    keyboard_point(&mut b, &target);
    assert_eq!(shown_list(&mut b, "data-forbidden"), Vec::<String>::new());

    // On by clicking, to the end.
    let mut rng = Rng(3);
    let mut end = None;
    for _ in 0..45 {
        let view = wait_turn_or_end(&mut b);
        if view["status"] != "active" {
            end = Some(view);
            break;
        }
        let p = choose(&view, &mut rng);
        click_point(&mut b, &p);
    }
    let end = end.unwrap_or_else(|| wait_turn_or_end(&mut b));
    assert_eq!(end["status"], "over", "the game did not end");
    let result = end["result"].as_str().unwrap().to_owned();
    assert!(!result.is_empty());
    b.wait_for(
        "document.getElementById('game-status').textContent.startsWith('Game over')",
        WAIT,
    )
    .unwrap();
    let line = end["position"]["winning_line"].as_array().unwrap().len();
    let drawn = b
        .eval("document.querySelectorAll('#board .five').length")
        .unwrap();
    assert_eq!(drawn, json!(usize::from(line > 0)), "the winning line");
    shoot(&mut b, "pente-over");
    b.screenshot_of("#board", &screenshots().join("pente-board.png"))
        .unwrap();

    // Reload: the same game.
    b.reload().unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status === 'over'",
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves"], end["moves"]);
    assert_eq!(latest(&mut b)["id"], json!(id));
}

/// alice (White) on the page against bob through the API: bob's moves appear within 2 s,
/// and alice's capture of two of bob's stones is shown.
pub(crate) fn pente_capture_against_another_player(b: &mut Browser, server: &Server) {
    let id = new_game(b, "pente", &[("size", "9")], &["me", "bob"]);
    joins(b, server, id, "bob", "hunter22");
    let bob = |ply: usize, p: &str| {
        let r = post(
            server.addr,
            &format!("/api/games/{id}/moves"),
            &json!({"userid": "bob", "password": "hunter22", "move": p, "ply": ply}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    };
    wait_turn_or_end(b);
    click_point(b, "E5");
    bob(1, "F5");
    wait_moves(b, 2, Duration::from_secs(2));
    wait_turn_or_end(b);
    click_point(b, "B2");
    bob(3, "G5");
    wait_moves(b, 4, Duration::from_secs(2));
    wait_turn_or_end(b);
    click_point(b, "H5");
    let view = latest(b);
    assert_eq!(view["position"]["captures"]["white"], json!(2));
    assert_eq!(shown_list(b, "data-captured"), ["F5", "G5"]);
    let stones_left = b
        .eval("document.querySelectorAll('#board [data-stone]').length")
        .unwrap();
    assert_eq!(stones_left, json!(3));
    let note = b
        .eval("document.querySelector('#players li[data-seat=\"0\"]').textContent")
        .unwrap();
    assert!(
        note.as_str().unwrap().contains("captured 2 of 10"),
        "{note}"
    );
    shoot(b, "pente-capture");

    // The slider: the empty board, then the position before the capture, then the present.
    b.click("#first").unwrap();
    b.wait_for("window.ployd.shown().ply === 0", WAIT).unwrap();
    assert_eq!(shown_list(b, "data-stone"), Vec::<String>::new());
    b.click("#moves li:nth-child(4) button").unwrap();
    b.wait_for("window.ployd.shown().ply === 4", WAIT).unwrap();
    assert_eq!(shown_list(b, "data-stone"), ["B2", "E5", "F5", "G5"]);
    click_refused(b, "[data-point=H5]", "looking at the position after move 4");
    b.click("#last").unwrap();
    b.wait_for("window.ployd.shown() === window.ployd.latest()", WAIT)
        .unwrap();
    assert_eq!(shown_list(b, "data-stone"), ["B2", "E5", "H5"]);

    // bob offers a draw through the API; alice's page offers to accept it, and she does.
    let r = post(
        server.addr,
        &format!("/api/games/{id}/propose"),
        &json!({"userid": "bob", "password": "hunter22"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    b.wait_for(
        "!document.getElementById('accept').hidden",
        Duration::from_secs(2),
    )
    .unwrap();
    b.click("#accept").unwrap();
    b.wait_for(
        "window.ployd.latest().status === 'over' \
         && document.getElementById('game-status').textContent.startsWith('Game over')",
        WAIT,
    )
    .unwrap();
    let result = latest(b)["result"].as_str().unwrap().to_owned();
    assert!(result.contains("draw"), "{result}");
}
