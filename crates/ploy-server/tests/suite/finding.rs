//! Finding games to watch on a real `ployd`: `GET /api/games` with `filter` (`all`,
//! `active`, `next`, `over`), `game=G`, `user=U` and `page=K`, 50 games a page, newest
//! first, with `next_page`.

use std::net::SocketAddr;

use serde_json::{Value, json};

use crate::common::{Server, get, post, signup, temp_dir};

fn challenge(addr: SocketAddr, game: &str, user: &str, password: &str) -> i64 {
    let r = post(
        addr,
        "/api/games",
        &json!({"game": game, "players": [user, "bot"], "userid": user, "password": password}),
    );
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["id"].as_i64().unwrap()
}

fn ids(answer: &Value) -> Vec<i64> {
    answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn games_are_found_by_type_user_and_state_a_page_at_a_time() {
    let dir = temp_dir("finding");
    let server = Server::start(&dir.join("db"), &[]);
    let addr = server.addr;
    signup(addr, "alice", "alice-pw1");
    signup(addr, "bob", "bob-pw222");

    // 52 Pente games of alice, then 3 Ploy games of bob, 2 of which he resigns.
    let mut pente = Vec::new();
    for _ in 0..52 {
        pente.push(challenge(addr, "pente", "alice", "alice-pw1"));
    }
    let mut ploy = Vec::new();
    for _ in 0..3 {
        ploy.push(challenge(addr, "ploy", "bob", "bob-pw222"));
    }
    for id in &ploy[..2] {
        let r = post(
            addr,
            &format!("/api/games/{id}/resign"),
            &json!({"userid": "bob", "password": "bob-pw222"}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let mut all: Vec<i64> = pente.iter().chain(&ploy).copied().collect();
    all.sort_unstable_by(|a, b| b.cmp(a));

    // Every game, newest first, 50 a page.
    let first = get(addr, "/api/games").json();
    assert_eq!(ids(&first), all[..50]);
    assert_eq!(first["page"], 1);
    assert_eq!(first["next_page"], 2);
    let second = get(addr, "/api/games?page=2").json();
    assert_eq!(ids(&second), all[50..]);
    assert_eq!(second["next_page"], Value::Null);
    let third = get(addr, "/api/games?page=3").json();
    assert!(ids(&third).is_empty());
    assert_eq!(third["next_page"], Value::Null);

    // By game type, state and user, together.
    let mut newest_ploy = ploy.clone();
    newest_ploy.reverse();
    assert_eq!(ids(&get(addr, "/api/games?game=ploy").json()), newest_ploy);
    let over = get(addr, "/api/games?filter=over").json();
    assert_eq!(ids(&over), [ploy[1], ploy[0]]);
    assert!(
        over["games"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "over")
    );
    assert_eq!(
        ids(&get(addr, "/api/games?filter=active&game=ploy").json()),
        [ploy[2]]
    );
    assert!(ids(&get(addr, "/api/games?filter=over&game=pente").json()).is_empty());
    assert_eq!(
        ids(&get(addr, "/api/games?user=bob&filter=over").json()),
        [ploy[1], ploy[0]]
    );
    let alice = get(addr, "/api/games?user=alice&game=pente&page=2").json();
    assert_eq!(ids(&alice), [pente[1], pente[0]]);
    assert_eq!(alice["next_page"], Value::Null);

    // Bad queries are refused with a reason.
    for (query, word) in [
        ("game=chess", "chess"),
        ("page=0", "from 1"),
        ("page=two", "page number"),
        ("page=-1", "page number"),
        ("filter=won", "expected all, active, next or over"),
        ("filter=next", "needs a userid"),
    ] {
        let r = get(addr, &format!("/api/games?{query}"));
        assert_eq!(r.status, 400, "{query}: {}", r.text());
        let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
        assert!(message.contains(word), "{query}: {message}");
    }
}
