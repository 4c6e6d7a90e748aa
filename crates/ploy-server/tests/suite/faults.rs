//! Two faults of `ployd` found by trying it as a new user: the command language refused a
//! challenge with the bot in the first seat (the API and the page allow it), and
//! `--bot-time 500ms` was reported at start as `0s`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::common::{Cmd, FAST, UNTHROTTLED, ployd, temp_dir};

#[test]
fn the_bot_may_take_the_first_seats_in_a_command_challenge() {
    let dir = temp_dir("faults-bot-first");
    let mut cmd = Cmd::start(&dir.join("db"), &[]);
    assert!(cmd.first("signup ann ann-secret").starts_with("ok"));

    let reply = cmd.send("ploy challenge bot ann ann-secret");
    assert!(reply[0].starts_with("ok board "), "{reply:?}");
    let board = reply[0].trim_start_matches("ok board ").to_owned();
    assert!(
        reply.iter().any(|l| l == "Players: bot (Green), ann (Red)"),
        "{reply:?}"
    );
    // The bot holds the first seat, so it moved first.
    let shown = cmd.send(&format!("ploy history {board}"));
    assert!(shown.len() >= 2, "{shown:?}");
    assert!(shown[1].contains("bot"), "{shown:?}");

    // Several bots before the user take the first seats in order; more after him follow.
    let reply = cmd.send("ploy challenge -variant=ffa bot bot ann ann-secret bot");
    assert!(reply[0].starts_with("ok board "), "{reply:?}");
    assert!(
        reply
            .iter()
            .any(|l| l == "Players: bot (Green), bot (Red), ann (Yellow), bot (Blue)"),
        "{reply:?}"
    );

    // Without the user's password after the bots it is a usage error, not a refusal of
    // the bot's credentials; a wrong password is still refused.
    let first = cmd.first("ploy challenge bot ann");
    assert!(first.starts_with("error 400: usage:"), "{first}");
    let first = cmd.first("ploy challenge bot ann wrong-secret");
    assert!(first.starts_with("error 403"), "{first}");
}

/// The first line `ployd serve` writes, started with `extra`.
fn first_line(extra: &[&str]) -> String {
    let dir = temp_dir(&format!("faults-time-{}", extra.join("-")));
    let mut child = ployd()
        .arg("serve")
        .arg("--db")
        .arg(crate::common::db_arg(&dir.join("db")))
        .args(["--listen", "127.0.0.1:0"])
        .args(FAST)
        .args(UNTHROTTLED)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ployd starts");
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    line
}

#[test]
fn the_bot_time_is_reported_as_given() {
    for (given, shown) in [
        ("500ms", "bot 500ms per move"),
        ("1500ms", "bot 1500ms per move"),
        ("2s", "bot 2s per move"),
        ("90s", "bot 1m30s per move"),
    ] {
        let line = first_line(&["--bot-time", given]);
        assert!(line.contains(shown), "--bot-time {given}: {line}");
    }
}
