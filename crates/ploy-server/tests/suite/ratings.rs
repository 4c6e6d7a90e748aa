//! Ratings on a real `ployd`: games created with `-rated` (two people) change both players'
//! Glicko-2 ratings, per game type and board size, when they end by the rules, by
//! resignation, by an agreed draw or on time; other games change nothing. The numbers are
//! checked against the `skillratings` crate called directly and against the formulas of the
//! Glicko-2 paper written out below; the leaderboard (`GET /api/ratings`, `GAME ratings`) is
//! checked against the users' profiles sorted here.

use std::net::SocketAddr;
use std::path::Path;

use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::common::{Cmd, FAST, Response, Server, get, join, ployd, post, signup, temp_dir};

/// A rating: (rating, deviation, volatility).
type R = (f64, f64, f64);

const START: R = (1500.0, 350.0, 0.06);

/// The system constant the server uses.
const TAU: f64 = 0.5;

/// One Glicko-2 rating period of one game, for `me` against `them` with score `s` (1, 0.5
/// or 0), step by step as in Glickman's "Example of the Glicko-2 system" (steps 2 to 8;
/// the volatility by the Illinois iteration of step 5).
fn paper(me: R, them: R, s: f64) -> R {
    const SCALE: f64 = 173.7178;
    let (mu, phi, sigma) = ((me.0 - 1500.0) / SCALE, me.1 / SCALE, me.2);
    let (mu_j, phi_j) = ((them.0 - 1500.0) / SCALE, them.1 / SCALE);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (s - e);
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * g * (s - e);
    (SCALE * mu2 + 1500.0, SCALE * phi2, sigma2)
}

/// The same period by the `skillratings` crate, for both players; `s` is the first's score.
fn crate_period(first: R, second: R, s: f64) -> (R, R) {
    let to = |r: R| Glicko2Rating {
        rating: r.0,
        deviation: r.1,
        volatility: r.2,
    };
    let outcome = match s {
        1.0 => Outcomes::WIN,
        0.0 => Outcomes::LOSS,
        _ => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (a, b) = glicko2(&to(first), &to(second), &outcome, &config);
    (
        (a.rating, a.deviation, a.volatility),
        (b.rating, b.deviation, b.volatility),
    )
}

/// Both players' ratings after one game, checked to agree between the crate and the
/// paper's formulas.
fn period(first: R, second: R, s: f64) -> (R, R) {
    let (a, b) = crate_period(first, second, s);
    for (got, want) in [
        (a, paper(first, second, s)),
        (b, paper(second, first, 1.0 - s)),
    ] {
        assert!(
            (got.0 - want.0).abs() < 1e-6
                && (got.1 - want.1).abs() < 1e-6
                && (got.2 - want.2).abs() < 1e-6,
            "the crate gives {got:?}, the paper's formulas {want:?}"
        );
    }
    (a, b)
}

fn password(user: &str) -> String {
    format!("{user}-secret")
}

fn create(addr: SocketAddr, game: &str, options: &[&str], players: &[&str]) -> Response {
    post(
        addr,
        "/api/games",
        &json!({"game": game, "options": options, "players": players,
                "userid": players.iter().find(|p| **p != "bot").unwrap(),
                "password": password(players.iter().find(|p| **p != "bot").unwrap())}),
    )
}

/// A game of `first` against `second`, joined: its number.
fn started(addr: SocketAddr, game: &str, options: &[&str], first: &str, second: &str) -> i64 {
    let r = create(addr, game, options, &[first, second]);
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["id"].as_i64().unwrap();
    join(addr, id, second, &password(second));
    id
}

fn act(addr: SocketAddr, id: i64, what: &str, user: &str, extra: Value) -> Value {
    let mut body = json!({"userid": user, "password": password(user)});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let r = post(addr, &format!("/api/games/{id}/{what}"), &body);
    assert_eq!(r.status, 200, "{what} by {user}: {}", r.text());
    r.json()
}

/// Plays `mv`, naming the number of moves played before it.
fn play(addr: SocketAddr, id: i64, user: &str, mv: &str) -> Value {
    let ply = get(addr, &format!("/api/games/{id}")).json()["moves_played"].clone();
    act(addr, id, "moves", user, json!({"move": mv, "ply": ply}))
}

fn profile(addr: SocketAddr, user: &str) -> Value {
    let r = get(addr, &format!("/api/users/{user}"));
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// `user`'s rating for `game` on boards of side `size`, with his rated games.
fn rating_of(addr: SocketAddr, user: &str, game: &str, size: u64) -> Option<(R, u64)> {
    profile(addr, user)["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["game"] == game && r["size"] == size)
        .map(|r| {
            (
                (
                    r["rating"].as_f64().unwrap(),
                    r["deviation"].as_f64().unwrap(),
                    r["volatility"].as_f64().unwrap(),
                ),
                r["games"].as_u64().unwrap(),
            )
        })
}

fn assert_rating(addr: SocketAddr, user: &str, game: &str, size: u64, want: R, games: u64) {
    let (got, n) = rating_of(addr, user, game, size)
        .unwrap_or_else(|| panic!("{user} has no {game} {size} rating"));
    assert_eq!(n, games, "{user}'s rated games");
    assert!(
        (got.0 - want.0).abs() < 1e-9
            && (got.1 - want.1).abs() < 1e-9
            && (got.2 - want.2).abs() < 1e-9,
        "{user}: {got:?}, Glicko-2 gives {want:?}"
    );
}

/// `ployd check` on `db`: its exit code and output.
fn check(db: &Path) -> (Option<i32>, String) {
    let out = ployd()
        .args(["check", "--db"])
        .arg(crate::common::db_arg(db))
        .args(FAST)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn the_first_period_of_two_new_players_is_the_papers() {
    // Worked by hand from the paper: g = 0.6690, E = 0.5, v = 8.936, Δ = 2.989; the
    // volatility stays near 0.06; φ* = 2.0157, φ' = 1.6712, μ' = ±0.9343.
    let (w, l) = period(START, START, 1.0);
    assert!(
        (w.0 - 1662.3).abs() < 0.05 && (w.1 - 290.3).abs() < 0.05,
        "{w:?}"
    );
    assert!(
        (l.0 - 1337.7).abs() < 0.05 && (l.1 - 290.3).abs() < 0.05,
        "{l:?}"
    );
    assert!((w.2 - 0.06).abs() < 1e-4 && (l.2 - 0.06).abs() < 1e-4);
    let (d1, d2) = period(START, START, 0.5);
    assert!((d1.0 - 1500.0).abs() < 1e-9 && (d2.0 - 1500.0).abs() < 1e-9);
    assert!((d1.1 - 290.3).abs() < 0.05);
}

const FIVE: &[&str] = &["E5", "A9", "B5", "B9", "C5", "C9", "D5", "D9", "F5"];

#[test]
fn rated_games_change_both_ratings_as_glicko2_says_and_others_change_nothing() {
    let dir = temp_dir("ratings");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    for u in ["alice", "bob", "carol", "dave"] {
        signup(addr, u, &password(u));
    }

    // A win by the rules (five in a row): alice (White) beats bob.
    let id = started(addr, "pente", &["-size=9", "-rated"], "alice", "bob");
    let s = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(s["rated"], true);
    assert_eq!(s["options"], json!(["-size=9", "-rated"]));
    assert!(
        rating_of(addr, "alice", "pente", 9).is_none(),
        "no rating before the end"
    );
    for (i, mv) in FIVE.iter().enumerate() {
        play(addr, id, if i % 2 == 0 { "alice" } else { "bob" }, mv);
    }
    let s = get(addr, &format!("/api/games/{id}")).json();
    assert_eq!(
        (s["reason"].clone(), s["winners"].clone()),
        (json!("five"), json!(["alice"]))
    );
    let (mut alice, mut bob) = period(START, START, 1.0);
    assert!((alice.0 - 1662.3).abs() < 0.05 && (alice.1 - 290.3).abs() < 0.05);
    assert_rating(addr, "alice", "pente", 9, alice, 1);
    assert_rating(addr, "bob", "pente", 9, bob, 1);

    // The rematch keeps -rated, bob takes White; two moves, then an agreed draw.
    let r = post(
        addr,
        &format!("/api/games/{id}/rematch"),
        &json!({"userid": "bob", "password": password("bob")}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    let r = r.json();
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r["rated"], true);
    join(addr, id, "alice", &password("alice"));
    play(addr, id, "bob", "E5");
    play(addr, id, "alice", "A9");
    act(addr, id, "propose", "bob", json!({}));
    let s = act(addr, id, "accept", "alice", json!({}));
    assert_eq!(s["reason"], "agreement");
    (bob, alice) = period(bob, alice, 0.5);
    assert!(
        bob.0 > 1337.7 && alice.0 < 1662.3,
        "a draw moves both towards each other"
    );
    assert_rating(addr, "alice", "pente", 9, alice, 2);
    assert_rating(addr, "bob", "pente", 9, bob, 2);

    // A resignation after two moves: bob (White) resigns, alice wins.
    let id = started(addr, "pente", &["-rated", "-size=9"], "bob", "alice");
    play(addr, id, "bob", "E5");
    play(addr, id, "alice", "A9");
    let s = act(addr, id, "resign", "bob", json!({}));
    assert_eq!(s["winners"], json!(["alice"]));
    (bob, alice) = period(bob, alice, 0.0);
    assert_rating(addr, "alice", "pente", 9, alice, 3);
    assert_rating(addr, "bob", "pente", 9, bob, 3);

    // Another board size, another game type: ratings of their own, from the start.
    let id = started(addr, "pente", &["-size=7", "-rated"], "carol", "alice");
    play(addr, id, "carol", "D4");
    play(addr, id, "alice", "A7");
    act(addr, id, "resign", "alice", json!({}));
    let (c7, a7) = period(START, START, 1.0);
    assert_rating(addr, "carol", "pente", 7, c7, 1);
    assert_rating(addr, "alice", "pente", 7, a7, 1);
    assert_rating(addr, "alice", "pente", 9, alice, 3);
    let id = started(addr, "ploy", &["-rated"], "dave", "carol");
    play(addr, id, "dave", "e3-e4-0");
    play(addr, id, "carol", "e7-e6-0");
    act(addr, id, "resign", "carol", json!({}));
    let (d9, c9) = period(START, START, 1.0);
    assert_rating(addr, "dave", "ploy", 9, d9, 1);
    assert_rating(addr, "carol", "ploy", 9, c9, 1);
    assert_rating(addr, "carol", "pente", 7, c7, 1);

    // Games that change nothing: unrated; rated but one move; declined; cancelled.
    let before: Vec<Value> = ["alice", "bob", "carol", "dave"]
        .iter()
        .map(|u| profile(addr, u))
        .collect();
    let id = started(addr, "pente", &["-size=9"], "alice", "bob");
    assert_eq!(
        get(addr, &format!("/api/games/{id}")).json()["rated"],
        false
    );
    play(addr, id, "alice", "E5");
    play(addr, id, "bob", "A9");
    act(addr, id, "resign", "bob", json!({}));
    let id = started(addr, "pente", &["-size=9", "-rated"], "alice", "bob");
    play(addr, id, "alice", "E5");
    let s = act(addr, id, "resign", "bob", json!({}));
    assert_eq!(
        (s["status"].clone(), s["moves_played"].clone()),
        (json!("over"), json!(1))
    );
    let r = create(addr, "pente", &["-size=9", "-rated"], &["alice", "bob"]);
    act(
        addr,
        r.json()["id"].as_i64().unwrap(),
        "decline",
        "bob",
        json!({}),
    );
    let r = create(addr, "pente", &["-size=9", "-rated"], &["alice", "bob"]);
    act(
        addr,
        r.json()["id"].as_i64().unwrap(),
        "decline",
        "alice",
        json!({}),
    );
    let after: Vec<Value> = ["alice", "bob", "carol", "dave"]
        .iter()
        .map(|u| profile(addr, u))
        .collect();
    assert_eq!(before, after, "unrated games changed a rating");

    // -rated is for two people: refused (400) with a bot, with three or four players, or
    // with a value; nothing is stored.
    let count = get(addr, "/api/games").json()["games"]
        .as_array()
        .unwrap()
        .len();
    for (game, options, players) in [
        ("pente", vec!["-rated"], vec!["alice", "bot"]),
        ("pente", vec!["-rated", "-level=3"], vec!["bot", "alice"]),
        ("pyloff", vec!["-rated"], vec!["alice", "bob", "carol"]),
        (
            "pyloff",
            vec!["-rated"],
            vec!["alice", "bob", "carol", "dave"],
        ),
        (
            "ploy",
            vec!["-variant=ffa", "-rated"],
            vec!["alice", "bob", "carol", "dave"],
        ),
        (
            "ploy",
            vec!["-variant=partnership", "-rated"],
            vec!["alice", "bob", "carol", "dave"],
        ),
        ("pente", vec!["-rated=1"], vec!["alice", "bob"]),
        ("pente", vec!["-rated", "-rated"], vec!["alice", "bob"]),
    ] {
        let r = create(addr, game, &options, &players);
        assert_eq!(r.status, 400, "{options:?} {players:?}: {}", r.text());
        assert_eq!(r.json()["error"], "bad_request");
        assert!(
            r.json()["message"].as_str().unwrap().contains("rated"),
            "{}",
            r.text()
        );
    }
    let now = get(addr, "/api/games").json()["games"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(count, now, "a refused -rated stored a game");

    // The profile is public and says nothing private.
    let p = profile(addr, "ALICE");
    assert_eq!(p["id"], "alice");
    let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["created_at", "id", "ratings"]);
    assert!(!p.to_string().contains("secret"));
    assert_eq!(get(addr, "/api/users/nobody").status, 404);
    assert_eq!(get(addr, "/api/users/nobody").json()["error"], "no_user");

    // `ployd check` recomputes every rating from the rated games, and finds a tampered one.
    let db = dir.join("db");
    let (code, out) = check(&db);
    assert_eq!(code, Some(0), "{out}");
    crate::common::sql(
        &db,
        "UPDATE ratings SET rating = rating + 1 WHERE userid = 'bob' AND game = 'pente'",
    )
    .unwrap();
    let (code, out) = check(&db);
    assert_ne!(code, Some(0), "{out}");
    assert!(
        out.contains("ratings: rating of bob for pente size 9"),
        "{out}"
    );
    // The log of changes is append-only.
    assert!(crate::common::sql(&db, "DELETE FROM rating_changes").is_err());
    assert!(crate::common::sql(&db, "UPDATE rating_changes SET score = 1").is_err());
}

#[test]
fn a_rated_game_lost_on_time_is_rated_and_the_command_shows_the_leaderboard() {
    let dir = temp_dir("ratings-time");
    let db = dir.join("db");
    let t0: i64 = 1_700_000_000;
    {
        let mut cmd = Cmd::start(&db, &["--now", &t0.to_string()]);
        cmd.send("signup ann ann-secret");
        cmd.send("signup ben ben-secret");
        let r = cmd.first("pente challenge -size=9 -rated -deadline=1d ann ann-secret ben");
        assert_eq!(r, "ok board 101");
        assert!(cmd.first("pente join 101 ben ben-secret").starts_with("ok"));
        assert!(
            cmd.first("pente move 101 ann ann-secret E5")
                .starts_with("ok")
        );
        assert!(
            cmd.first("pente move 101 ben ben-secret A9")
                .starts_with("ok")
        );
        assert_eq!(
            cmd.first("pente ratings 9"),
            "ok pente size 9 ratings, page 1: 0 players"
        );
        let help = cmd.send("help pente").join("\n");
        assert!(help.contains("-rated: "), "{help}");
        let list = cmd.send("list").join("\n");
        assert!(list.contains("-level -rated"), "{list}");
    }
    // Two days on, ann has run out of time: ben wins, both ratings change.
    let out = ployd()
        .args(["timers", "--db"])
        .arg(crate::common::db_arg(&db))
        .args(["--now", &(t0 + 2 * 86_400).to_string()])
        .args(FAST)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut cmd = Cmd::start(&db, &["--now", &(t0 + 2 * 86_400).to_string()]);
    let shown = cmd.send("pente show 101").join("\n");
    assert!(shown.contains("ben (Black) wins (time)"), "{shown}");
    let (ben, ann) = period(START, START, 1.0);
    let lines = cmd.send("pente ratings 9");
    assert_eq!(
        lines,
        [
            "ok pente size 9 ratings, page 1: 2 players".to_owned(),
            format!(
                "   1. ben  {:.1} (deviation {:.1}, volatility {:.4}, 1 game)",
                ben.0, ben.1, ben.2
            ),
            format!(
                "   2. ann  {:.1} (deviation {:.1}, volatility {:.4}, 1 game)",
                ann.0, ann.1, ann.2
            ),
        ]
    );
    assert!(lines[1].contains("1662.3 (deviation 290.3"), "{lines:?}");
    assert!(cmd.first("pente ratings x").starts_with("error 400"));
    assert!(cmd.first("pente ratings 9 0").starts_with("error 400"));
    assert!(cmd.first("pente ratings 9 1 2").starts_with("error 400"));
    assert_eq!(
        cmd.first("pente ratings"),
        "ok pente size 19 ratings, page 1: 0 players"
    );
}

#[test]
fn the_leaderboard_is_best_first_and_paged_by_fifty() {
    let dir = temp_dir("ratings-board");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    let users: Vec<String> = (0..52).map(|i| format!("p{i:02}")).collect();
    for u in &users {
        signup(addr, u, &password(u));
    }
    // 26 games between new players (wins and draws), then 8 between their winners, so
    // that ratings, deviations and counts differ.
    let game = |first: &str, second: &str, how: usize| {
        let id = started(addr, "ploy", &["-rated"], first, second);
        play(addr, id, first, "e3-e4-0");
        play(addr, id, second, "e7-e6-0");
        match how % 3 {
            0 => {
                act(addr, id, "propose", first, json!({}));
                act(addr, id, "accept", second, json!({}));
            }
            1 => {
                act(addr, id, "resign", second, json!({}));
            }
            _ => {
                act(addr, id, "resign", first, json!({}));
            }
        }
    };
    for k in 0..26 {
        game(&users[2 * k], &users[2 * k + 1], k);
    }
    for k in 0..8 {
        game(&users[4 * k], &users[4 * k + 2], k + 1);
    }

    // The second implementation: every profile's ploy rating, sorted here.
    let mut expected: Vec<(String, f64, u64)> = users
        .iter()
        .map(|u| {
            let (r, n) = rating_of(addr, u, "ploy", 9).unwrap();
            (u.clone(), r.0, n)
        })
        .collect();
    expected.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let distinct: std::collections::BTreeSet<u64> =
        expected.iter().map(|e| e.1.to_bits()).collect();
    assert!(distinct.len() > 5, "the games should spread the ratings");

    let page1 = get(addr, "/api/ratings?game=ploy&size=9").json();
    assert_eq!(
        (page1["game"].clone(), page1["size"].clone()),
        (json!("ploy"), json!(9))
    );
    assert_eq!(
        (page1["page"].clone(), page1["next_page"].clone()),
        (json!(1), json!(2))
    );
    let page2 = get(addr, "/api/ratings?game=ploy&size=9&page=2").json();
    assert_eq!(page2["next_page"], Value::Null);
    let rows: Vec<Value> = page1["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .chain(page2["ratings"].as_array().unwrap())
        .cloned()
        .collect();
    assert_eq!(page1["ratings"].as_array().unwrap().len(), 50);
    assert_eq!(rows.len(), 52);
    for (i, (row, (user, rating, games))) in rows.iter().zip(&expected).enumerate() {
        assert_eq!(row["rank"], i + 1);
        assert_eq!(row["userid"], user.as_str(), "rank {}", i + 1);
        assert_eq!(row["rating"].as_f64().unwrap(), *rating);
        assert_eq!(row["games"].as_u64().unwrap(), *games);
    }
    // The game's default board, other boards, bad queries.
    assert_eq!(get(addr, "/api/ratings?game=ploy").json(), page1);
    let none = get(addr, "/api/ratings?game=pente").json();
    assert_eq!(
        (none["size"].clone(), none["ratings"].clone()),
        (json!(19), json!([]))
    );
    assert_eq!(
        get(addr, "/api/ratings?game=ploy&size=9&page=3").json()["ratings"],
        json!([])
    );
    for bad in [
        "/api/ratings",
        "/api/ratings?game=chess",
        "/api/ratings?game=ploy&size=x",
        "/api/ratings?game=ploy&size=0",
        "/api/ratings?game=ploy&page=0",
        "/api/ratings?game=ploy&page=-1",
    ] {
        let r = get(addr, bad);
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert_eq!(r.json()["error"], "bad_request");
    }
    // The types list -rated beside -level.
    let types = get(addr, "/api/types").json();
    let names: Vec<&str> = types["types"].as_array().unwrap()[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert!(names.ends_with(&["level", "rated"]), "{names:?}");
}
