//! A shield's move on the page (docs/rules.md, "The shield's combined move"): a click on
//! the shield and one on its destination play the move without a turn, as for any other
//! piece; turning after the move is a step of its own, the buttons under the board. Both
//! with the mouse and with the keyboard.

use super::*;

fn legal(view: &Value) -> Vec<String> {
    view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// A legal shield move `from-to-r` with `from != to` and the turn `r` (0 or not).
fn shield_move(view: &Value, turned: bool) -> String {
    let legal = legal(view);
    legal
        .iter()
        .find(|m| {
            let p: Vec<&str> = m.split('-').collect();
            let kind = view["position"]["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["square"] == p[0])
                .map(|x| x["kind"].clone());
            p[0] != p[1] && kind == Some(json!("shield")) && (p[2] != "0") == turned
        })
        .unwrap_or_else(|| panic!("no shield move in {legal:?}"))
        .clone()
}

/// bob answers through the API with his first legal move; waits until it is alice's turn.
fn bob_moves(b: &mut Browser, server: &Server, id: i64) {
    let state = common::get(server.addr, &format!("/api/games/{id}")).json();
    let mv = legal(&state)[0].clone();
    let ply = state["moves_played"].as_u64().unwrap();
    let r = post(
        server.addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": "bob", "password": "hunter22", "move": mv, "ply": ply}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    b.wait_for(
        &format!(
            "window.ployd.latest().moves_played === {} && window.ployd.latest().to_move === 'alice'",
            ply + 1
        ),
        WAIT,
    )
    .unwrap();
}

#[test]
fn a_shield_moves_in_one_click_and_turns_as_a_second_step() {
    let _one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut b) = browser_or_skip("a_shield_moves_in_one_click_and_turns_as_a_second_step")
    else {
        return;
    };
    let dir = temp_dir("page-shield");
    let server = Server::start(&dir.join("db"), &[]);
    let url = base(&server);
    signup(server.addr, "bob", "hunter22");
    sign_up(&mut b, &url, "alice", "s3cret-pw");
    let id = new_game(&mut b, "ploy", &[], &["me", "bob"]);
    joins(&mut b, &server, id, "bob", "hunter22");

    // Two clicks: the shield, its square ahead. The move is sent without a turn.
    let view = latest(&mut b);
    let mv = shield_move(&view, false);
    let p: Vec<&str> = mv.split('-').collect();
    b.click(&format!("[data-square={}]", p[0])).unwrap();
    b.wait_for(
        &format!("window.ployd.state().game.board.selected === {:?}", p[0]),
        WAIT,
    )
    .unwrap();
    // Its turns after moving wait under the board, each a button of its own.
    let offered = b
        .eval(&format!(
            "[...document.querySelectorAll('#choices [data-move]')].map((e) => e.getAttribute('data-move'))
               .filter((m) => m.startsWith({:?}))",
            format!("{}-{}-", p[0], p[1])
        ))
        .unwrap();
    let mut want: Vec<String> = legal(&view)
        .into_iter()
        .filter(|m| m.starts_with(&format!("{}-{}-", p[0], p[1])) && !m.ends_with("-0"))
        .collect();
    want.sort();
    let mut offered: Vec<String> = serde_json::from_value(offered).unwrap();
    offered.sort();
    assert_eq!(offered, want);
    shoot(&mut b, "ploy-shield-picked");
    b.click(&format!("[data-square={}]", p[1])).unwrap();
    b.wait_for("window.ployd.latest().moves_played === 1", WAIT)
        .unwrap();
    assert_eq!(latest(&mut b)["moves"][0], json!(mv));

    // A shield that moves and turns: the piece, then the button of that turn.
    bob_moves(&mut b, &server, id);
    let view = latest(&mut b);
    let mv = shield_move(&view, true);
    let p: Vec<&str> = mv.split('-').collect();
    b.click(&format!("[data-square={}]", p[0])).unwrap();
    b.wait_for(
        &format!("document.querySelector('#choices [data-move=\"{mv}\"]') !== null"),
        WAIT,
    )
    .unwrap();
    // The game is read again whenever the event stream connects or names a change: a reading
    // that finds nothing new must not take the button away between pressing and releasing it.
    click_across_ready(
        &mut b,
        &format!("#choices [data-move=\"{mv}\"]"),
        &format!("/api/games/{id}"),
    );
    b.wait_for("window.ployd.latest().moves_played === 3", WAIT)
        .unwrap();
    assert_eq!(latest(&mut b)["moves"][2], json!(mv));

    // With the keyboard: Enter on the shield, Enter on its destination.
    bob_moves(&mut b, &server, id);
    keyboard_move(&mut b, "straight");
    bob_moves(&mut b, &server, id);
    keyboard_move(&mut b, "shield");
}
