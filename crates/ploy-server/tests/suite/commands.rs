//! The command language through `ployd cmd` (a child process, a real database file).

use crate::common::{Cmd, FAST, Rng, pick, ployd, temp_dir, text};
use ploy_core::{Game, Rules, Variant};

/// The moves of a board (from `history`) and its status line.
fn history(cmd: &mut Cmd, board: u32) -> (Vec<String>, String) {
    let reply = cmd.send(&format!("ploy history {board}"));
    assert!(reply[0].starts_with("ok board"), "{reply:?}");
    let status = reply.last().unwrap().clone();
    let moves = reply[1..reply.len() - 1]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(3)
                .expect("N. user (Seat) move")
                .to_owned()
        })
        .collect();
    (moves, status)
}

fn replay(variant: Variant, moves: &[String]) -> Game {
    let mut g = Game::start(variant, Rules::standard());
    for m in moves {
        g.play(ploy_notation::read_university(g.position(), m).unwrap())
            .unwrap();
    }
    g
}

/// Plays board `board` to the end: the people named move (choosing moves that end games
/// soon), the bot answers by itself.
fn play_out(
    cmd: &mut Cmd,
    board: u32,
    variant: Variant,
    people: &[(&str, &str)],
    seed: u64,
) -> Game {
    let mut rng = Rng(seed);
    for _ in 0..2000 {
        let (moves, status) = history(cmd, board);
        let g = replay(variant, &moves);
        if status.starts_with("Game over") {
            assert!(
                g.outcome().is_some(),
                "the server ended a game the rules did not"
            );
            return g;
        }
        assert!(g.outcome().is_none(), "{status}");
        let who = status.split_whitespace().next().unwrap();
        let (user, pass) = people
            .iter()
            .find(|(u, _)| *u == who)
            .unwrap_or_else(|| panic!("{who} is to move but is not a person here: {status}"));
        let mv = text(pick(&g, &mut rng));
        let reply = cmd.first(&format!(
            "ploy move {board} {user} {pass} {mv}#{}",
            moves.len()
        ));
        assert_eq!(
            reply,
            format!("ok board {board} move {}: {mv}", moves.len() + 1),
            "{status}"
        );
    }
    panic!("the game does not end");
}

#[test]
fn whole_games_through_the_command_language() {
    let dir = temp_dir("cmd-whole");
    let db = dir.join("db");
    let mut cmd = Cmd::start(&db, &[]);
    assert_eq!(cmd.first("signup alice pa-secret"), "ok signed up alice");
    assert_eq!(cmd.first("signup bob pb-secret"), "ok signed up bob");
    assert!(
        cmd.first("signup bot long-enough")
            .starts_with("error 409:")
    );
    assert!(cmd.first("signup al!ce x").starts_with("error 400:"));
    let list = cmd.send("list");
    assert_eq!(list[0], "ok 3 game types");
    assert!(list[1].starts_with("ploy "));
    assert_eq!(
        list[2],
        "pente  options: -size -no_tournament_rule -level -rated"
    );
    assert_eq!(
        list[3],
        "pyloff  options: -size -all_freedoms -cut_down -level -rated"
    );
    assert!(cmd.first("help").starts_with("ok help"));
    let help = cmd.send("help ploy");
    assert!(
        help.iter()
            .any(|l| l.contains("-variant=two-player|ffa|partnership"))
    );

    // Two people: bob is invited, and the game starts when he joins.
    assert_eq!(
        cmd.first("ploy challenge alice pa-secret bob"),
        "ok board 101"
    );
    assert_eq!(
        cmd.first("ploy join 101 bob pb-secret"),
        "ok board 101: started"
    );
    let g = play_out(
        &mut cmd,
        101,
        Variant::TwoPlayer,
        &[("alice", "pa-secret"), ("bob", "pb-secret")],
        1,
    );
    let shown = cmd.send(&format!("ploy show 101#{}", g.moves().len()));
    assert!(shown[0].starts_with(&format!("ok board 101 after {} move", g.moves().len())));
    assert!(shown.iter().any(|l| l.starts_with("Game over:")));
    let start = cmd.send("ploy show 101#0");
    assert!(
        start.iter().any(|l| l == "alice (Green) to move"),
        "{start:?}"
    );

    // Against the bot: it answers within the same command.
    assert_eq!(
        cmd.first("ploy challenge alice pa-secret bot"),
        "ok board 102"
    );
    play_out(
        &mut cmd,
        102,
        Variant::TwoPlayer,
        &[("alice", "pa-secret")],
        2,
    );

    // Four players, two people and two bots in a partnership game.
    assert_eq!(
        cmd.first("ploy challenge -variant=partnership alice pa-secret bot bob bot"),
        "ok board 103"
    );
    assert_eq!(
        cmd.first("ploy join 103 bob pb-secret"),
        "ok board 103: started"
    );
    play_out(
        &mut cmd,
        103,
        Variant::Partnership,
        &[("alice", "pa-secret"), ("bob", "pb-secret")],
        3,
    );
    // A free-for-all game with three bots.
    assert_eq!(
        cmd.first("ploy challenge -variant=ffa alice pa-secret bot bot bot"),
        "ok board 104"
    );
    play_out(
        &mut cmd,
        104,
        Variant::FreeForAll,
        &[("alice", "pa-secret")],
        4,
    );

    let games = cmd.send("ploy games alice all");
    assert_eq!(games[0], "ok 4 games");
    assert!(cmd.send("ploy games alice active")[0] == "ok 0 games");

    // The game record survives a new process.
    drop(cmd);
    let mut cmd = Cmd::start(&db, &[]);
    let (moves, status) = history(&mut cmd, 101);
    assert_eq!(moves.len(), g.moves().len());
    assert!(status.starts_with("Game over"));
    let check = ployd()
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
    assert!(String::from_utf8_lossy(&check.stdout).contains("4 games replayed, 0 problems"));

    // A game stored under other rules is refused, not replayed under these.
    {
        crate::common::sql(&db, "UPDATE games SET rules_version = 99 WHERE id = 104").unwrap();
        crate::common::sql(&db, "UPDATE games SET ply = 0 WHERE id = 102").unwrap();
    }
    assert!(
        cmd.first("ploy show 104")
            .starts_with("error 409: board 104 was played under ploy rules version 99"),
    );
    // A cache that disagrees with the log is found.
    let check = ployd()
        .arg("check")
        .arg("--db")
        .arg(crate::common::db_arg(&db))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(!check.status.success());
    assert!(out.contains("board 102: cache"), "{out}");
    assert!(out.contains("board 104:"), "{out}");

    // Notifications for bob.
    let inbox = ployd()
        .args(["inbox", "bob", "--db"])
        .arg(crate::common::db_arg(&db))
        .output()
        .unwrap();
    let inbox = String::from_utf8_lossy(&inbox.stdout);
    assert!(inbox.contains("alice challenges you to ploy"), "{inbox}");
    assert!(inbox.contains("ploy 101: alice (Green) played"), "{inbox}");
}

#[test]
fn refused_commands_say_why_and_change_nothing() {
    let dir = temp_dir("cmd-refusals");
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    cmd.send("signup alice pa-secret");
    cmd.send("signup bob pb-secret");
    cmd.send("signup carol pc-secret");
    assert_eq!(
        cmd.first("ploy challenge alice pa-secret bob"),
        "ok board 101"
    );
    assert!(cmd.first("ploy join 101 bob pb-secret").starts_with("ok"));
    assert!(
        cmd.first("ploy move 101 alice pa-secret e3-e4#0")
            .starts_with("ok")
    );
    let before = history(&mut cmd, 101);
    let cases = [
        (
            "ploy move 101 bob wrong e7-e6",
            "error 403: unknown userid or wrong password",
        ),
        (
            "ploy move 101 mallory x e7-e6",
            "error 403: unknown userid or wrong password",
        ),
        (
            "ploy move 101 carol pc-secret e7-e6",
            "error 403: carol holds no seat on board 101",
        ),
        (
            "ploy move 101 alice pa-secret e4-e5",
            "error 409: it is bob (Red)'s turn on board 101, not alice's",
        ),
        (
            "ploy move 101 bob pb-secret e7-e6#0",
            "error 409: board 101 has 1 move played; a move numbered #0 is stale",
        ),
        (
            "ploy move 101 bob pb-secret e4-e5#1",
            "error 422: `e4-e5`: the piece on e4 is green's, but red is to move",
        ),
        ("ploy move 101 bob pb-secret e9-e9", "error 422:"),
        (
            "ploy move 999 bob pb-secret e7-e6",
            "error 404: there is no ploy board 999",
        ),
        (
            "ploy move x bob pb-secret e7-e6",
            "error 400: `x` is not a board number",
        ),
        (
            "ploy move 101 bob pb-secret",
            "error 400: usage: ploy move BOARD USER PASSWORD MOVE[#N]",
        ),
        ("chess move 101 bob pb-secret e7-e6", "error 400:"),
        ("frobnicate", "error 400:"),
        (
            "ploy challenge -colour=red alice pa-secret bob",
            "error 400: -colour is not an option of ploy",
        ),
        (
            "ploy challenge -relaxed=1 alice pa-secret bob",
            "error 400: option -relaxed takes no value",
        ),
        (
            "ploy challenge -variant=ffa alice pa-secret bob",
            "error 400: this ploy game takes 4 players, not 2",
        ),
        ("ploy challenge alice pa-secret alice", "error 400:"),
        (
            "ploy challenge alice pa-secret nobody",
            "error 400: there is no user `nobody`",
        ),
        ("ploy challenge alice wrong bob", "error 403:"),
        ("ploy resign 101 carol pc-secret", "error 403:"),
        (
            "ploy accept 101 bob pb-secret",
            "error 409: nobody offers a draw on board 101 now",
        ),
        ("ploy show 101#9", "error 400:"),
    ];
    for (line, expected) in cases {
        let reply = cmd.send(line);
        assert!(reply[0].starts_with(expected), "{line}: {reply:?}");
        assert!(
            !reply
                .iter()
                .any(|l| l.contains("pb-secret") && l.contains("wrong"))
        );
        assert_eq!(history(&mut cmd, 101), before, "{line} changed the game");
    }
    assert_eq!(cmd.first("ploy games carol all"), "ok 0 games");
    // Resigning ends it with the reason.
    let r = cmd.first("ploy resign 101 bob pb-secret");
    assert_eq!(r, "ok board 101: alice (Green) wins (resignation)");
    assert!(
        cmd.first("ploy move 101 bob pb-secret e7-e6")
            .starts_with("error 409: board 101 is over")
    );
}

#[test]
fn deadlines_remind_and_forfeit() {
    let dir = temp_dir("cmd-timers");
    let db = dir.join("db");
    let t0: i64 = 1_700_000_000;
    let day = 86_400;
    let at = |t: i64| t.to_string();
    {
        let mut cmd = Cmd::start(&db, &["--now", &at(t0)]);
        cmd.send("signup alice pa-secret");
        cmd.send("signup bob pb-secret");
        assert_eq!(
            cmd.first("ploy challenge -deadline=7d -reminder=3d alice pa-secret bob"),
            "ok board 101"
        );
        assert_eq!(
            cmd.first("ploy challenge -deadline=7d alice pa-secret bob"),
            "ok board 102"
        );
        assert!(cmd.first("ploy join 101 bob pb-secret").starts_with("ok"));
        assert!(cmd.first("ploy join 102 bob pb-secret").starts_with("ok"));
        assert!(
            cmd.first("ploy move 101 alice pa-secret e3-e4")
                .starts_with("ok")
        );
        assert!(
            cmd.first("ploy move 102 alice pa-secret e3-e4")
                .starts_with("ok")
        );
        assert_eq!(
            cmd.first("ploy challenge -variant=ffa -deadline=1d alice pa-secret bot bot bot"),
            "ok board 103"
        );
        assert!(
            cmd.first("ploy challenge -deadline=1d -reminder=2d alice pa-secret bob")
                .starts_with("error 400")
        );
        assert!(
            cmd.first("ploy challenge -deadline=7 alice pa-secret bob")
                .starts_with("error 400")
        );
    }
    let sweep = |t: i64| {
        let out = ployd()
            .args(["timers", "--db"])
            .arg(crate::common::db_arg(&db))
            .args(["--now", &at(t)])
            .args(FAST)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let inbox = |user: &str| {
        let out = ployd()
            .args(["inbox", user, "--db"])
            .arg(crate::common::db_arg(&db))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // Two days: nothing due.
    sweep(t0 + 2 * day);
    assert!(!inbox("bob").contains("reminder"));
    // Four days: bob is reminded, once.
    sweep(t0 + 4 * day);
    sweep(t0 + 5 * day);
    assert_eq!(
        inbox("bob")
            .matches("ploy 101: reminder - your move")
            .count(),
        1
    );
    assert!(!inbox("bob").contains("ploy 102: reminder"));
    // A move after the deadline (before any sweep) is refused: the game ended on time.
    {
        let mut cmd = Cmd::start(&db, &["--now", &at(t0 + 8 * day)]);
        let r = cmd.first("ploy move 102 bob pb-secret e7-e6");
        assert_eq!(r, "error 409: board 102 is over: alice (Green) wins (time)");
    }
    // Board 103 (free-for-all, three opponents): on time alice withdrew (her pieces left
    // the board), and with only bots left the game was abandoned at once, nobody winning.
    {
        let mut cmd = Cmd::start(&db, &["--now", &at(t0 + 4 * day)]);
        let (moves, status) = history(&mut cmd, 103);
        assert_eq!(moves, ["time"], "the withdrawal is the only entry");
        let h = cmd.send("ploy history 103");
        assert_eq!(
            h[1], "1. alice (Green) time (withdrew: his pieces left the board)",
            "{h:?}"
        );
        assert_eq!(
            status,
            "Game over: abandoned: only bots were left; nobody wins"
        );
    }
    // Eight days: the sweep forfeits board 101.
    sweep(t0 + 8 * day);
    let mut cmd = Cmd::start(&db, &["--now", &at(t0 + 8 * day)]);
    let shown = cmd.send("ploy show 101");
    assert!(
        shown
            .iter()
            .any(|l| l == "Game over: alice (Green) wins (time)"),
        "{shown:?}"
    );
    assert!(inbox("alice").contains("bob (Red) ran out of time"));
}
