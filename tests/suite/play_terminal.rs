//! The compiled `play` example in a real pseudo-terminal: a person's clock runs down on
//! screen while nobody types, and at zero the game ends with a time forfeit without a key
//! being pressed.
//!
//! It runs the example `cargo test` built (the tests never run cargo).
#![cfg(all(unix, feature = "cli"))]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

/// The `play` example.
fn play_binary() -> PathBuf {
    crate::common::example("play")
}

/// A pseudo-terminal: the controlling side, and the path of the terminal side.
fn open_pty() -> (OwnedFd, PathBuf) {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("a pseudo-terminal");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let path = PathBuf::from(name.to_str().expect("a UTF-8 path").to_owned());
    let size = rustix::termios::Winsize {
        ws_row: 50,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    rustix::termios::tcsetwinsize(&master, size).expect("window size");
    (master, path)
}

/// What the terminal shows, as chunks read by a thread.
fn reader(master: &OwnedFd) -> Receiver<Vec<u8>> {
    let mut file = File::from(master.try_clone().expect("dup"));
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            match file.read(&mut buf) {
                Ok(0) | Err(_) => break, // EIO once the program has closed the terminal
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// The clock texts of the prompts `green M:SS.T> ` in `screen`, in order.
fn prompt_clocks(screen: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = screen;
    while let Some(i) = rest.find("green ") {
        rest = &rest[i + 6..];
        let clock: String = rest.chars().take(6).collect();
        let shaped = clock.len() == 6
            && clock.as_bytes()[1] == b':'
            && clock.as_bytes()[4] == b'.'
            && clock.bytes().filter(u8::is_ascii_digit).count() == 4;
        if shaped && rest[6..].starts_with("> ") {
            out.push(clock);
        }
    }
    out
}

#[test]
fn the_clock_runs_down_live_and_ends_the_game_at_zero() {
    let (master, slave_path) = open_pty();
    let slave = || {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&slave_path)
            .expect("the terminal side")
    };
    // Green (a person) has 3 seconds for the game; nobody types.
    let mut child = Command::new(play_binary())
        .args(["--clock", "0.05+0", "--no-color"])
        .env_remove("NO_COLOR")
        .stdin(Stdio::from(slave()))
        .stdout(Stdio::from(slave()))
        .stderr(Stdio::from(slave()))
        .spawn()
        .expect("play starts");
    let chunks = reader(&master);
    let mut screen = Vec::new();
    let start = Instant::now();
    let over = "Game over: Red wins, time forfeit.";
    while start.elapsed() < Duration::from_secs(60) {
        if let Ok(chunk) = chunks.recv_timeout(Duration::from_millis(200)) {
            screen.extend_from_slice(&chunk);
        }
        let text = String::from_utf8_lossy(&screen);
        if text
            .find(over)
            .is_some_and(|at| text[at..].contains("ploy> "))
        {
            break;
        }
    }
    let text = String::from_utf8_lossy(&screen).into_owned();
    assert!(text.contains("Green's time is up."), "{text}");
    assert!(text.contains(over), "{text}");
    // The prompt was drawn again and again in place, its clock counting down: at least
    // one distinct value per second of the 3 (ten a second are drawn), ending at zero.
    let clocks = prompt_clocks(&text);
    let mut distinct = clocks.clone();
    distinct.dedup();
    assert!(distinct.len() >= 3, "{distinct:?}");
    assert!(distinct.windows(2).all(|w| w[0] > w[1]), "{distinct:?}");
    assert!(distinct[0].as_str() <= "0:03.0", "{distinct:?}");
    assert!(text.contains("\r\x1b[Kgreen 0:0"), "{text:?}");

    // The session goes on after the forfeit: `quit` ends it and the terminal is left in
    // its normal mode.
    let mut input = File::from(master.try_clone().expect("dup"));
    input.write_all(b"quit\r").expect("typing");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting") {
            break status;
        }
        assert!(Instant::now() < deadline, "play did not quit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    let termios = rustix::termios::tcgetattr(slave()).expect("terminal attributes");
    assert!(
        termios
            .local_modes
            .contains(rustix::termios::LocalModes::ICANON | rustix::termios::LocalModes::ECHO),
        "raw mode left on"
    );
}
