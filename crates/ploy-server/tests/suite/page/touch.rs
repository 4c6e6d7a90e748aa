//! Touch screens: below 600 px a move waits for "Play it" (a setting, kept once changed;
//! off by default on a wide screen), Cancel sends nothing, and the keyboard still plays
//! (Enter on the board, Enter on "Play it"); a 19x19 Pente board can be zoomed to a
//! finger's width a point, a 9x9 one has no zoom.

use super::*;

fn server_moves(server: &Server, id: i64) -> u64 {
    common::get(server.addr, &format!("/api/games/{id}")).json()["moves_played"]
        .as_u64()
        .unwrap()
}

/// The distance in CSS pixels between the centres of two neighbouring points.
fn point_pitch(b: &mut Browser) -> f64 {
    b.eval(
        "(() => { const a = document.querySelector('[data-point=A1]').getBoundingClientRect();
           const c = document.querySelector('[data-point=B1]').getBoundingClientRect();
           return (c.left + c.width / 2) - (a.left + a.width / 2); })()",
    )
    .unwrap()
    .as_f64()
    .unwrap()
}

fn visible(b: &mut Browser, id: &str) -> bool {
    b.eval(&format!(
        "(() => {{ const e = document.getElementById({id:?});
           return !e.hidden && e.getBoundingClientRect().height > 0; }})()"
    ))
    .unwrap()
        == json!(true)
}

#[test]
fn a_move_is_confirmed_on_a_phone_and_big_boards_zoom() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_move_is_confirmed_on_a_phone_and_big_boards_zoom") else {
        return;
    };
    let dir = temp_dir("page-touch");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    sign_up(&mut b, &url, "erin", "erin-pw-1");

    // A wide screen: no confirm step by default; a click on the centre plays at once.
    let id = new_game(&mut b, "pente", &[("size", "9")], &["me", "bot"]);
    b.wait_for("window.ployd.latest().status === 'active'", WAIT)
        .unwrap();
    assert_eq!(
        b.eval("document.getElementById('confirm-moves').checked")
            .unwrap(),
        json!(false)
    );
    assert!(!visible(&mut b, "zoom"), "a 9x9 board offers zoom");
    b.click("[data-point=E5]").unwrap();
    b.wait_for("window.ployd.latest().moves_played >= 1", WAIT)
        .unwrap();
    assert!(server_moves(&server, id) >= 1);

    // A phone: the setting is on by default; a click asks first.
    b.viewport(390, 844, true).unwrap();
    let id = new_game(&mut b, "pente", &[], &["me", "bot"]);
    b.wait_for(
        "window.ployd.latest().status === 'active' && document.getElementById('confirm-moves').checked",
        WAIT,
    )
    .unwrap();
    let before = point_pitch(&mut b);
    assert!(before < 30.0, "a 19x19 point is {before} px before zooming");
    assert!(visible(&mut b, "zoom"), "a 19x19 board offers no zoom");
    b.click("#zoom").unwrap();
    b.wait_for(
        "document.getElementById('zoom').getAttribute('aria-pressed') === 'true'",
        WAIT,
    )
    .unwrap();
    let after = point_pitch(&mut b);
    assert!(after >= 44.0, "a zoomed 19x19 point is {after} px");
    // The first stone goes on the centre, which the zoomed board shows.
    let centre = b
        .eval(
            "(() => { const r = document.querySelector('[data-point=K10]').getBoundingClientRect();
               const v = document.getElementById('board').getBoundingClientRect();
               return r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom; })()",
        )
        .unwrap();
    assert_eq!(centre, json!(true), "the zoomed board is not centred");
    b.screenshot(&screenshots().join("pente-zoomed-390x844.png"))
        .unwrap();

    // Cancel: nothing is sent.
    b.click("[data-point=K10]").unwrap();
    b.wait_for("!document.getElementById('confirm').hidden", WAIT)
        .unwrap();
    let text = b
        .eval("document.getElementById('confirm-text').textContent")
        .unwrap();
    assert_eq!(text, json!("Play K10?"));
    // The stone waits on the board, pale, until the answer.
    let shown = b
        .eval("document.querySelectorAll('#board [data-preview=K10]').length")
        .unwrap();
    assert_eq!(shown, json!(1));
    b.screenshot(&screenshots().join("pente-confirm-390x844.png"))
        .unwrap();
    b.click("#confirm-no").unwrap();
    b.wait_for("document.getElementById('confirm').hidden", WAIT)
        .unwrap();
    assert_eq!(server_moves(&server, id), 0);
    let shown = b
        .eval("document.querySelectorAll('#board [data-preview]').length")
        .unwrap();
    assert_eq!(shown, json!(0));
    assert_eq!(latest(&mut b)["moves_played"], json!(0));

    // Play it: the move is sent.
    b.click("[data-point=K10]").unwrap();
    b.wait_for("!document.getElementById('confirm').hidden", WAIT)
        .unwrap();
    assert_eq!(server_moves(&server, id), 0);
    b.click("#confirm-yes").unwrap();
    b.wait_for("window.ployd.latest().moves_played >= 1", WAIT)
        .unwrap();
    assert_eq!(latest(&mut b)["moves"][0], json!("K10"));

    // The keyboard: Enter on the board asks, Enter on "Play it" sends.
    let view = wait_turn_or_end(&mut b);
    let played = view["moves_played"].as_u64().unwrap();
    tab_to_board(&mut b);
    let target = b
        .eval("window.ployd.latest().legal[0]")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let cursor = b
        .eval("window.ployd.state().game.board.cursor")
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned();
    let (c0, r0) = super::pente::col_row(&cursor);
    let (c1, r1) = super::pente::col_row(&target);
    arrows(&mut b, c1 - c0, r1 - r0);
    b.key("Enter").unwrap();
    b.wait_for(
        "!document.getElementById('confirm').hidden && document.activeElement === document.getElementById('confirm-yes')",
        WAIT,
    )
    .unwrap();
    assert_eq!(server_moves(&server, id), played);
    b.key("Enter").unwrap();
    b.wait_for(
        &format!("window.ployd.latest().moves_played > {played}"),
        WAIT,
    )
    .unwrap();
    assert_eq!(latest(&mut b)["moves"][played as usize], json!(target));
    assert_accessible(&mut b, "a zoomed Pente board with the confirm setting");

    // Switched off by hand, the choice stays after a reload, even on a phone.
    b.click("#confirm-moves").unwrap();
    b.reload().unwrap();
    b.wait_for(
        "window.ployd.latest() && window.ployd.latest().status !== undefined",
        WAIT,
    )
    .unwrap();
    assert_eq!(
        b.eval("document.getElementById('confirm-moves').checked")
            .unwrap(),
        json!(false)
    );

    // On a wide screen the setting can be switched on too; a big board zooms there as well.
    b.viewport(1280, 800, false).unwrap();
    b.click("#confirm-moves").unwrap();
    let id = new_game(&mut b, "pente", &[], &["me", "bot"]);
    b.wait_for("window.ployd.latest().status === 'active'", WAIT)
        .unwrap();
    b.click("#zoom").unwrap();
    b.click("[data-point=K10]").unwrap();
    b.wait_for("!document.getElementById('confirm').hidden", WAIT)
        .unwrap();
    assert_eq!(server_moves(&server, id), 0);
    b.screenshot(&screenshots().join("pente-confirm-zoomed-1280x800.png"))
        .unwrap();
}
