//! Pente and Pyloff on a real server: whole games through the HTTP API of `ployd serve` on a
//! loopback port and through `ployd cmd`, each on a real database file, checked against an
//! independent replay by the game crates.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::{Cmd, Response, Rng, Server, get, post, signup, temp_dir};
use serde_json::{Value, json};

/// Five in a row for White on 9x9: B5 C5 D5 E5 F5.
const FIVE: &[&str] = &["E5", "A9", "b5", "B9", "C5", "C9", "d5", "D9", "F5"];

/// A 9x9 game without the tournament rule that White wins by capturing ten stones (found by
/// a seeded search for such games; the rules crate confirms the reason below).
const CAPTURES: &str = "E5 D8 G2 C8 C1 B8 B1 B4 A9 A4 E8 F9 B7 C7 D6 J4 B8 C5 A3 H7 F1 C6 \
                        C4 B6 A6 B6 G5 B5 B4";

/// A Pyloff game on size 3 with two forced passes (moves 10 and 18, both player 2's) that
/// ends when nobody can place, player 2 ahead 6 to 5.
const PASSES: &str = "a5 e3 c3 e1 c5 a3 c1 d2 b4 pass a1 e5 a5 c5 d4 a5 b4 pass a1 b2";

fn texts(state: &Value, key: &str) -> Vec<String> {
    state[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {state}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn state(addr: SocketAddr, id: i64) -> Value {
    let r = get(addr, &format!("/api/games/{id}"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

fn play(addr: SocketAddr, id: i64, user: &str, password: &str, mv: &str, ply: usize) -> Response {
    post(
        addr,
        &format!("/api/games/{id}/moves"),
        &json!({"userid": user, "password": password, "move": mv, "ply": ply}),
    )
}

/// Alice's challenge, joined by the other people it seats; the state once they have.
fn create(addr: SocketAddr, game: &str, options: Value, players: Value) -> Value {
    let r = post(
        addr,
        "/api/games",
        &json!({"game": game, "options": options, "players": players,
                "userid": "alice", "password": "s3cret-pw"}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let mut s = r.json();
    let id = s["id"].as_i64().unwrap();
    for p in players.as_array().unwrap() {
        let p = p.as_str().unwrap();
        if p != "alice" && p != "bot" {
            s = crate::common::join(addr, id, p, password(p));
        }
    }
    s
}

fn password(user: &str) -> &'static str {
    match user {
        "alice" => "s3cret-pw",
        "bob" => "hunter22",
        "carol" => "c4rol-pw1",
        _ => panic!("{user} has no password here"),
    }
}

/// The Pente game of `moves` replayed by the `pente` crate.
fn pente_replay(rules: pente::Rules, moves: &[String]) -> pente::Game {
    let mut g = pente::Game::new(rules);
    for m in moves {
        g.play(m.parse().unwrap()).unwrap();
    }
    g
}

fn pente_legal(g: &pente::Game) -> Vec<String> {
    g.position()
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// A refused request: its status and error word, the game unchanged.
fn refused(addr: SocketAddr, id: i64, r: &Response, status: u16, word: &str, before: &Value) {
    assert_eq!(r.status, status, "{}", r.text());
    assert_eq!(r.json()["error"], word, "{}", r.text());
    assert!(!r.text().contains("s3cret-pw") && !r.text().contains("hunter22"));
    assert_eq!(&state(addr, id), before, "a refused move changed the game");
}

#[test]
fn pente_over_http_five_captures_refusals_and_a_restart() {
    let dir = temp_dir("games-pente");
    let mut server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "s3cret-pw");
    signup(addr, "bob", "hunter22");

    let s = create(
        addr,
        "pente",
        json!(["-board_size=9"]),
        json!(["alice", "bob"]),
    );
    let id = s["id"].as_i64().unwrap();
    assert_eq!(s["options"], json!(["-size=9"]));
    assert_eq!(s["seats"], json!(["White", "Black"]));
    assert_eq!(
        (s["to_move"].clone(), s["to_move_seat"].clone()),
        (json!("alice"), json!(0))
    );
    // The first stone goes on the centre: one legal move.
    assert_eq!(s["legal"], json!(["E5"]));
    assert_eq!(s["position"]["stones"], json!([]));

    // Refusals, in the order of the checks; nothing changes.
    let before = state(addr, id);
    let r = play(addr, id, "alice", "wrong", "E5", 0);
    refused(addr, id, &r, 403, "forbidden", &before);
    let r = play(addr, id, "bob", "hunter22", "E5", 0);
    refused(addr, id, &r, 409, "not_your_turn", &before);
    let r = play(addr, id, "alice", "s3cret-pw", "E5", 1);
    refused(addr, id, &r, 409, "stale", &before);
    let r = play(addr, id, "alice", "s3cret-pw", "A1", 0);
    refused(addr, id, &r, 422, "illegal_move", &before);
    assert!(r.json()["message"].as_str().unwrap().contains("centre"));
    let r = play(addr, id, "alice", "s3cret-pw", "I5", 0);
    refused(addr, id, &r, 422, "illegal_move", &before);

    // Five in a row; moves in either case are stored in upper case.
    let rules = pente::Rules::new(pente::Size::S9);
    for (ply, mv) in FIVE.iter().enumerate() {
        let user = if ply % 2 == 0 { "alice" } else { "bob" };
        let r = play(addr, id, user, password(user), mv, ply);
        assert_eq!(r.status, 200, "{}", r.text());
        let s = r.json();
        let moves = texts(&s, "moves");
        assert_eq!(moves.last().unwrap(), &mv.to_uppercase());
        let g = pente_replay(rules, &moves);
        assert_eq!(texts(&s, "legal"), pente_legal(&g));
        assert_eq!(s["position"]["position"], g.position().to_string());
    }
    let five = state(addr, id);
    assert_eq!(five["status"], "over");
    assert_eq!(five["winners"], json!(["alice"]));
    assert_eq!(five["reason"], "five");
    assert_eq!(five["result"], "alice (White) wins (five)");
    assert_eq!(five["to_move"], Value::Null);
    assert_eq!(five["legal"], json!([]));
    assert_eq!(
        five["position"]["winning_line"],
        json!(["B5", "C5", "D5", "E5", "F5"])
    );
    let r = play(addr, id, "bob", "hunter22", "A1", FIVE.len());
    refused(addr, id, &r, 409, "game_over", &five);

    // The server restarts; the game is intact. Then a game won by captures.
    server.restart();
    let addr = server.addr;
    assert_eq!(state(addr, id), five);
    let s = create(
        addr,
        "pente",
        json!(["-no_tournament_rule", "-size=9"]),
        json!(["alice", "bob"]),
    );
    let id2 = s["id"].as_i64().unwrap();
    assert_eq!(id2, id + 1);
    assert_eq!(s["options"], json!(["-size=9", "-no_tournament_rule"]));
    let moves: Vec<&str> = CAPTURES.split_whitespace().collect();
    for (ply, mv) in moves.iter().enumerate() {
        let user = if ply % 2 == 0 { "alice" } else { "bob" };
        let r = play(addr, id2, user, password(user), mv, ply);
        assert_eq!(r.status, 200, "move {ply} {mv}: {}", r.text());
    }
    let s = state(addr, id2);
    let g = pente_replay(rules.without_tournament_rule(), &texts(&s, "moves"));
    assert_eq!(
        g.outcome(),
        Some(pente::Outcome::Win {
            winner: pente::Color::White,
            reason: pente::WinReason::Captures
        })
    );
    assert_eq!(s["status"], "over");
    assert_eq!(s["reason"], "captures");
    assert_eq!(s["winners"], json!(["alice"]));
    assert!(s["position"]["captures"]["white"].as_u64().unwrap() >= 10);
    // An earlier position: White to move after ten moves.
    let at = get(addr, &format!("/api/games/{id2}?ply=10")).json();
    assert_eq!(at["status"], "active");
    assert_eq!(at["to_move"], "alice");
    let g = pente_replay(rules.without_tournament_rule(), &texts(&s, "moves")[..10]);
    assert_eq!(texts(&at, "legal"), pente_legal(&g));
}

/// Waits until a person is to move or the game is over.
fn wait_for_people(addr: SocketAddr, id: i64, people: &[&str]) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let s = state(addr, id);
        if s["status"] == "over" || people.iter().any(|p| s["to_move"] == *p) {
            return s;
        }
        assert!(Instant::now() < deadline, "the bot does not answer: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pyloff_options(size: u8, players: u8, rules: pyloff::RuleSet) -> pyloff::Options {
    pyloff::Options::new(size, players, rules).unwrap()
}

/// Replays a Pyloff game by the crate, checking that every pass in it was forced, that no
/// pass is left owing, and that it stopped where the rules or the move cap stop it.
fn pyloff_check(options: pyloff::Options, s: &Value) -> pyloff::Game {
    let mut g = pyloff::Game::new(options);
    for m in texts(s, "moves") {
        if m == "pass" {
            assert_eq!(g.position().status(), pyloff::Status::MustPass);
        }
        g.play(m.parse().unwrap()).unwrap();
    }
    let pos = g.position();
    let capped = pos.plies() >= options.move_cap();
    if s["status"] == "over" && s["reason"] != "resignation" {
        assert!(pos.is_over() || capped, "{s}");
        let outcome = pos
            .outcome()
            .unwrap_or_else(|| pyloff::Outcome::from_scores(pos.scores()));
        let players = texts(s, "players");
        let winners: Vec<String> = outcome
            .winners()
            .iter()
            .map(|p| players[p.index()].clone())
            .collect();
        assert_eq!(texts(s, "winners"), winners);
        assert_eq!(
            s["reason"],
            if pos.is_over() { "score" } else { "move_cap" }
        );
    } else if s["status"] == "active" {
        assert!(!pos.is_over() && !capped);
        assert_eq!(pos.status(), pyloff::Status::Place, "a pass is owing");
        let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        assert_eq!(texts(s, "legal"), legal);
        assert_eq!(s["to_move_seat"], pos.to_move().index());
    }
    assert_eq!(s["position"]["position"], pos.to_string());
    g
}

#[test]
fn pyloff_over_http_forced_passes_scores_and_three_or_four_players() {
    let dir = temp_dir("games-pyloff");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    for user in ["alice", "bob", "carol"] {
        signup(addr, user, password(user));
    }

    // Two players: the server plays both forced passes; nobody can place at the end.
    let s = create(addr, "pyloff", json!(["-size=3"]), json!(["alice", "bob"]));
    let id = s["id"].as_i64().unwrap();
    assert_eq!(s["seats"], json!(["player 1", "player 2"]));
    let options = pyloff_options(3, 2, pyloff::RuleSet::Default);
    let moves: Vec<&str> = PASSES.split_whitespace().collect();
    let mut ply = 0;
    while ply < moves.len() {
        let mv = moves[ply];
        assert_ne!(
            mv, "pass",
            "the server should have played the pass at {ply}"
        );
        let before = state(addr, id);
        let user = before["to_move"].as_str().unwrap().to_owned();
        let r = play(addr, id, &user, password(&user), mv, ply);
        assert_eq!(r.status, 200, "{}", r.text());
        let after = r.json();
        pyloff_check(options, &after);
        ply += 1;
        while moves.get(ply) == Some(&"pass") {
            assert_eq!(texts(&after, "moves")[ply], "pass");
            ply += 1;
        }
        assert_eq!(after["ply"], ply);
    }
    let s = state(addr, id);
    assert_eq!(texts(&s, "moves"), moves);
    assert_eq!(s["status"], "over");
    assert_eq!(s["reason"], "score");
    assert_eq!(s["result"], "bob (player 2) wins (score)");
    assert_eq!(s["position"]["scores"], json!([5, 6]));
    pyloff_check(options, &s);
    // Before the first pass the rules left player 2 nothing else.
    let at = get(addr, &format!("/api/games/{id}?ply=9")).json();
    assert_eq!(at["legal"], json!(["pass"]));
    assert_eq!(at["position"]["status"], "must_pass");
    assert_eq!(at["to_move"], "bob");

    // An illegal move and a voluntary pass are refused; nothing changes.
    let s = create(
        addr,
        "pyloff",
        json!(["-size=3", "-all_freedoms"]),
        json!(["alice", "bob", "carol"]),
    );
    let id = s["id"].as_i64().unwrap();
    assert_eq!(play(addr, id, "alice", "s3cret-pw", "c3", 0).status, 200);
    let before = state(addr, id);
    for bad in ["c3", "pass", "swap", "a2", "g7"] {
        let r = play(addr, id, "bob", "hunter22", bad, 1);
        refused(addr, id, &r, 422, "illegal_move", &before);
    }
    // Three players to the end: seeded moves, checked against the crate all the way.
    let options = pyloff_options(3, 3, pyloff::RuleSet::AllFreedoms);
    let mut rng = Rng(5);
    let mut s = before;
    while s["status"] == "active" {
        pyloff_check(options, &s);
        let legal = texts(&s, "legal");
        let user = s["to_move"].as_str().unwrap().to_owned();
        let mv = &legal[rng.below(legal.len())];
        let ply = s["ply"].as_u64().unwrap() as usize;
        let r = play(addr, id, &user, password(&user), mv, ply);
        assert_eq!(r.status, 200, "{}", r.text());
        s = r.json();
    }
    pyloff_check(options, &s);
    // (With this seed the game has forced passes, for three players too.)
    assert!(texts(&s, "moves").iter().any(|m| m == "pass"));

    // Size 2 never ends by the rules: the move cap (4 x 5 = 20 moves) ends it.
    let s = create(addr, "pyloff", json!(["-size=2"]), json!(["bob", "alice"]));
    let id = s["id"].as_i64().unwrap();
    let options = pyloff_options(2, 2, pyloff::RuleSet::Default);
    let mut s = s;
    while s["status"] == "active" {
        pyloff_check(options, &s);
        let user = s["to_move"].as_str().unwrap().to_owned();
        let ply = s["ply"].as_u64().unwrap() as usize;
        let r = play(
            addr,
            id,
            &user,
            password(&user),
            &texts(&s, "legal")[0],
            ply,
        );
        assert_eq!(r.status, 200, "{}", r.text());
        s = r.json();
    }
    pyloff_check(options, &s);
    assert_eq!(
        (s["reason"].clone(), s["ply"].clone()),
        (json!("move_cap"), json!(20))
    );
    assert_eq!(s["position"]["status"], "capped");

    // Resigning among three: the best score of those who stay wins.
    let s = create(
        addr,
        "pyloff",
        json!(["-size=3"]),
        json!(["alice", "bob", "carol"]),
    );
    let id = s["id"].as_i64().unwrap();
    for (ply, (user, mv)) in [
        ("alice", "a1"),
        ("bob", "e5"),
        ("carol", "a5"),
        ("alice", "e1"),
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(play(addr, id, user, password(user), mv, ply).status, 200);
    }
    let r = post(
        addr,
        &format!("/api/games/{id}/resign"),
        &json!({"userid": "carol", "password": "c4rol-pw1"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["reason"], "resignation");
    assert_eq!(s["winners"], json!(["alice"]));

    // Four players, three of them the bot, with the cut-down rules, to the end.
    let s = create(
        addr,
        "pyloff",
        json!(["-cut_down", "-size=3"]),
        json!(["alice", "bot", "bot", "bot"]),
    );
    let id = s["id"].as_i64().unwrap();
    assert_eq!(s["options"], json!(["-size=3", "-cut_down"]));
    let options = pyloff_options(3, 4, pyloff::RuleSet::CutDown);
    let mut rng = Rng(9);
    let mut s = wait_for_people(addr, id, &["alice"]);
    while s["status"] == "active" {
        pyloff_check(options, &s);
        let legal = texts(&s, "legal");
        let ply = s["ply"].as_u64().unwrap() as usize;
        let r = play(
            addr,
            id,
            "alice",
            "s3cret-pw",
            &legal[rng.below(legal.len())],
            ply,
        );
        assert_eq!(r.status, 200, "{}", r.text());
        s = wait_for_people(addr, id, &["alice"]);
    }
    pyloff_check(options, &s);
}

#[test]
fn pente_against_the_bot_over_http() {
    let dir = temp_dir("games-pente-bot");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "s3cret-pw");
    // The bot plays White and moves first.
    let s = create(addr, "pente", json!(["-size=9"]), json!(["bot", "alice"]));
    let id = s["id"].as_i64().unwrap();
    let rules = pente::Rules::new(pente::Size::S9);
    let mut rng = Rng(3);
    let mut s = wait_for_people(addr, id, &["alice"]);
    while s["status"] == "active" {
        let moves = texts(&s, "moves");
        assert_eq!(moves.len() % 2, 1, "the bot answered");
        let g = pente_replay(rules, &moves);
        let legal = pente_legal(&g);
        assert_eq!(texts(&s, "legal"), legal);
        let mv = &legal[rng.below(legal.len())];
        let r = play(addr, id, "alice", "s3cret-pw", mv, moves.len());
        assert_eq!(r.status, 200, "{}", r.text());
        s = wait_for_people(addr, id, &["alice"]);
    }
    let g = pente_replay(rules, &texts(&s, "moves"));
    let outcome = g.outcome().expect("the rules ended the game");
    // Random moves do not beat the bot.
    assert_eq!(outcome.winner(), Some(pente::Color::White), "{s}");
    assert_eq!(s["winners"], json!(["bot"]));
}

#[test]
fn pente_and_pyloff_through_the_command_language() {
    let dir = temp_dir("games-cmd");
    let db = dir.join("db");
    let mut cmd = Cmd::start(&db, &[]);
    assert_eq!(cmd.first("signup alice s3cret-pw"), "ok signed up alice");
    assert_eq!(cmd.first("signup bob hunter22"), "ok signed up bob");
    assert!(
        cmd.send("help pente")
            .join("\n")
            .contains("-no_tournament_rule")
    );
    assert!(cmd.send("help pyloff").join("\n").contains("-cut_down"));

    // Pente: five in a row.
    let reply = cmd.send("pente challenge -board_size=9 alice s3cret-pw bob");
    assert_eq!(reply[0], "ok board 101");
    assert!(
        reply.iter().any(|l| l == "Waiting for bob to join"),
        "{reply:?}"
    );
    let reply = cmd.send("pente join 101 bob hunter22");
    assert_eq!(reply[0], "ok board 101: started");
    assert!(
        reply.iter().any(|l| l == "alice (White) to move"),
        "{reply:?}"
    );
    assert_eq!(
        cmd.first("pente challenge -size=8 alice s3cret-pw bob"),
        "error 400: option -size: board size 8 is not an odd number from 7 to 19"
    );
    assert!(
        cmd.first("pente challenge -all_freedoms alice s3cret-pw bob")
            .starts_with("error 400:")
    );
    for (n, mv) in FIVE.iter().enumerate() {
        let (user, pass) = if n % 2 == 0 {
            ("alice", "s3cret-pw")
        } else {
            ("bob", "hunter22")
        };
        if n == 2 {
            // The tournament rule, then a stale number: refused, nothing played.
            assert!(
                cmd.first(&format!("pente move 101 {user} {pass} E6#{n}"))
                    .starts_with("error 422: `E6`: the tournament rule")
            );
            assert!(
                cmd.first(&format!("pente move 101 {user} {pass} {mv}#{}", n - 1))
                    .starts_with("error 409:")
            );
        }
        assert_eq!(
            cmd.first(&format!("pente move 101 {user} {pass} {mv}#{n}")),
            format!("ok board 101 move {}: {}", n + 1, mv.to_uppercase())
        );
    }
    let show = cmd.send("pente show 101");
    assert!(
        show.iter()
            .any(|l| l == "Game over: alice (White) wins (five)"),
        "{show:?}"
    );
    let show = cmd.send("pente show 101#2");
    assert_eq!(show[0], "ok board 101 after 2 moves");
    assert!(
        show.iter()
            .any(|l| l == "Position: b8/9/9/9/4w4/9/9/9/9 w 0 0 t"),
        "{show:?}"
    );

    // Pyloff: the passes the rules force are played by the server and named in the reply.
    assert_eq!(
        cmd.first("pyloff challenge -size=3 alice s3cret-pw bob"),
        "ok board 102"
    );
    assert_eq!(
        cmd.first("pyloff join 102 bob hunter22"),
        "ok board 102: started"
    );
    let moves: Vec<&str> = PASSES.split_whitespace().collect();
    let mut n = 0;
    while n < moves.len() {
        let mv = moves[n];
        let (user, pass) = if n % 2 == 0 {
            ("alice", "s3cret-pw")
        } else {
            ("bob", "hunter22")
        };
        let mut expect = format!("ok board 102 move {}: {mv}", n + 1);
        n += 1;
        while moves.get(n) == Some(&"pass") {
            expect.push_str("; bob (player 2) had to play pass");
            n += 1;
        }
        // Without a move number too, the reply names the move played.
        assert_eq!(
            cmd.first(&format!("pyloff move 102 {user} {pass} {mv}")),
            expect
        );
    }
    let history = cmd.send("pyloff history 102");
    assert_eq!(history[0], "ok board 102: 20 moves");
    assert_eq!(history[10], "10. bob (player 2) pass (forced)");
    assert_eq!(
        history.last().unwrap(),
        "Game over: bob (player 2) wins (score)"
    );
    let inbox = cmd.send("inbox bob hunter22");
    assert!(
        inbox
            .iter()
            .any(|l| l.contains("alice (player 1) played b4; bob (player 2) had to play pass")),
        "{inbox:?}"
    );
    drop(cmd);
    let check = crate::common::ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&db))
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

/// Each game's acknowledged moves, the latencies, and when the moves began and ended.
type ClientResult = (Vec<(i64, Vec<String>)>, Vec<Duration>, (Instant, Instant));

/// One client of the load figure: its two users play `games` games of `game` against each
/// other, one move a game in turn, `moves` moves each (or to the end), with session cookies;
/// each move is chosen from the `legal` list of the previous answer. Returns each game's
/// acknowledged moves, the latencies, and when its moves began and ended.
fn load_client(
    addr: SocketAddr,
    n: usize,
    game: &'static str,
    options: &Value,
    games: usize,
    moves: usize,
) -> ClientResult {
    let users = [format!("{game}{n}a"), format!("{game}{n}b")];
    for u in &users {
        signup(addr, u, "pw-secret");
    }
    let cookies = [
        crate::common::login(addr, &users[0], "pw-secret"),
        crate::common::login(addr, &users[1], "pw-secret"),
    ];
    let mut rng = Rng(n as u64 + 1);
    let mut boards: Vec<(i64, Value, Vec<String>)> = (0..games)
        .map(|_| {
            let r = crate::common::request(
                addr,
                "POST",
                "/api/games",
                Some(&json!({"game": game, "options": options, "players": users})),
                Some(&cookies[0]),
            )
            .unwrap();
            assert_eq!(r.status, 201, "{}", r.text());
            let id = r.json()["id"].as_i64().unwrap();
            let j = crate::common::request(
                addr,
                "POST",
                &format!("/api/games/{id}/join"),
                Some(&json!({})),
                Some(&cookies[1]),
            )
            .unwrap();
            assert_eq!(j.status, 200, "{}", j.text());
            (id, j.json(), Vec::new())
        })
        .collect();
    let mut latencies = Vec::new();
    let first = Instant::now();
    for _ in 0..moves {
        for (id, s, log) in &mut boards {
            if s["status"] != "active" {
                continue;
            }
            let legal = texts(s, "legal");
            let mv = legal[rng.below(legal.len())].clone();
            let seat = s["to_move_seat"].as_u64().unwrap() as usize;
            let t = Instant::now();
            let r = crate::common::request(
                addr,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&json!({"move": mv, "ply": s["ply"]})),
                Some(&cookies[seat]),
            )
            .unwrap();
            latencies.push(t.elapsed());
            assert_eq!(r.status, 200, "{}", r.text());
            *s = r.json();
            *log = texts(s, "moves");
        }
    }
    (
        boards.into_iter().map(|(id, _, log)| (id, log)).collect(),
        latencies,
        (first, Instant::now()),
    )
}

/// The load figure of each game: 8 clients, 200 games, 30 moves a game (Pente on 19x19,
/// Pyloff on size 6), session cookies:
///
/// ```text
/// cargo test --release -p ploy-server --test games -- --ignored --nocapture
/// ```
#[test]
#[ignore = "a measurement; run with --ignored --nocapture in release mode"]
fn load_figure_per_game() {
    for (game, options) in [("pente", json!([])), ("pyloff", json!([]))] {
        let dir = temp_dir(&format!("games-load-{game}"));
        let server = Server::start(&dir.join("db"), &[]);
        let addr = server.addr;
        let handles: Vec<_> = (0..8)
            .map(|n| {
                let options = options.clone();
                std::thread::spawn(move || load_client(addr, n, game, &options, 25, 30))
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let start = results.iter().map(|r| r.2.0).min().unwrap();
        let end = results.iter().map(|r| r.2.1).max().unwrap();
        let seconds = (end - start).as_secs_f64();
        let mut latencies = Vec::new();
        let mut total = 0;
        for (boards, lat, _) in results {
            latencies.extend(lat);
            for (id, log) in boards {
                assert_eq!(texts(&state(addr, id), "moves"), log, "board {id}");
                total += log.len();
            }
        }
        latencies.sort();
        let at = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize];
        println!(
            "{game}: {} moves ({} requests) in {seconds:.1} s = {:.0} requests/s; latency p50 \
             {:.1} ms, p95 {:.1} ms",
            total,
            latencies.len(),
            latencies.len() as f64 / seconds,
            at(0.5).as_secs_f64() * 1000.0,
            at(0.95).as_secs_f64() * 1000.0
        );
    }
}
