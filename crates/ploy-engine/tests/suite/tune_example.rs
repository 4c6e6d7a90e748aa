//! The `tune` example as a child process: a tiny run plays its games, fits, and prints the
//! summary with weights that parse back as Rust-like numbers; the same seed gives the same
//! output whatever the number of threads; bad arguments end with status 2 and no panic.
//!
//! It runs the example `cargo test` built beside it (never cargo itself).

use std::path::PathBuf;
use std::process::{Command, Output};

fn tune() -> PathBuf {
    // `cargo test` builds the package's examples (in the test profile) before it runs the
    // tests: the example lies in `target/<profile>/examples/`, beside the test's `deps/`.
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test>");
    profile_dir
        .join("examples")
        .join(format!("tune{}", std::env::consts::EXE_SUFFIX))
}

fn run(args: &[&str]) -> Output {
    Command::new(tune())
        .args(args)
        .output()
        .expect("the tune example runs")
}

const SMALL: [&str; 8] = [
    "--games",
    "6",
    "--nodes",
    "200",
    "--iterations",
    "30",
    "--seed",
    "3",
];

#[test]
fn a_small_run_prints_the_fit() {
    let out = run(&SMALL);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    for key in [
        "games      6 (seed 3",
        "positions  ",
        "scale k    ",
        "error      ",
    ] {
        assert!(text.contains(key), "{key} missing in {text}");
    }
    // Every weight is listed, and the Rust form carries all the fields.
    for name in ploy_engine::EvalParams::NAMES {
        assert!(text.contains(name), "{name} missing in {text}");
    }
    for field in ["material: [", "mobility: [", "tempo: "] {
        assert!(text.contains(field), "{field} missing in {text}");
    }
    // No progress bar when standard error is not a terminal.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn threads_do_not_change_the_result() {
    let one = run(&SMALL);
    let mut two_args = SMALL.to_vec();
    two_args.extend(["-j", "2"]);
    let two = run(&two_args);
    assert!(one.status.success() && two.status.success());
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn bad_arguments_exit_2_without_a_panic() {
    for args in [&["--games", "many"][..], &["--bogus"], &["-j", "0"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
    }
}
