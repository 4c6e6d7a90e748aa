//! What the facade's tests share: the programs they run as child processes.

use std::path::PathBuf;

/// The example `name` that `cargo test` built for this test binary: it builds the package's
/// examples (in the test profile) before it runs the tests, into `target/<profile>/examples/`
/// beside the tests' `deps/`. The tests never run cargo themselves.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test>");
    let bin = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "no example at {} (run the tests with `cargo test`, which builds the examples)",
        bin.display()
    );
    bin
}
