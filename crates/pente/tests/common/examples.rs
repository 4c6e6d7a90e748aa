//! Running the crate's compiled examples as child processes.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};

/// The example `name` next to this test binary (`target/<profile>/examples/<name>`),
/// brought up to date once per test run with `cargo build --example` (the test binary's
/// profile and target directory, offline; a no-op when `cargo test` built it already).
pub fn example(name: &str) -> PathBuf {
    static BUILT: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test>");
    let target_dir = profile_dir.parent().expect("target/<profile>");
    let bin = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let built = BUILT.get_or_init(|| Mutex::new(Vec::new()));
    let mut built = built
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !built.iter().any(|b| b == name) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let profile = if profile_dir.file_name().is_some_and(|n| n == "release") {
            "release"
        } else {
            "test"
        };
        let mut build = Command::new(cargo);
        build
            .args([
                "build",
                "--quiet",
                "--offline",
                "-p",
                "pente",
                "--example",
                name,
            ])
            .args(["--profile", profile, "--target-dir"])
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if cfg!(feature = "serde") {
            build.args(["--features", "serde"]);
        }
        match build.status() {
            Ok(status) => assert!(status.success(), "building the {name} example failed"),
            Err(e) => eprintln!("cannot run cargo ({e}); using {}", bin.display()),
        }
        built.push(name.to_owned());
    }
    assert!(bin.exists(), "no {name} example at {}", bin.display());
    bin
}

/// Runs example `name` with `args`, feeding `input` on its standard input.
pub fn run(name: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the example runs");
    writer.join().expect("writer thread");
    out
}

/// The answer lines of example `name`, parsed as JSON; asserts a clean exit.
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
