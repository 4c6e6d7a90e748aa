//! Running the Pente programs as child processes: `ploy pente <name>` (the binary cargo
//! built for these tests), and the brain binary `pbrain-ploy-pente` for `piskvork`.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The command that runs program `name`: `ploy pente <name>`, or `pbrain-ploy-pente` for
/// `piskvork` (the binary Gomocup managers start; `ploy pente piskvork` is the same).
pub fn command(name: &str) -> Command {
    if name == "piskvork" {
        Command::new(env!("CARGO_BIN_EXE_pbrain-ploy-pente"))
    } else {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ploy"));
        c.args(["pente", name]);
        c
    }
}

/// Runs `command` with `args`, feeding `input` on its standard input.
pub fn run_command(mut command: Command, args: &[&str], input: &str) -> Output {
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the program runs");
    writer.join().expect("writer thread");
    out
}

/// Runs program `name` with `args`, feeding `input` on its standard input.
pub fn run(name: &str, args: &[&str], input: &str) -> Output {
    run_command(command(name), args, input)
}

/// The answer lines of program `name`, parsed as JSON; asserts a clean exit.
pub fn json_lines(name: &str, args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let out = run(name, args, input);
    assert!(
        out.status.success(),
        "{name} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}
