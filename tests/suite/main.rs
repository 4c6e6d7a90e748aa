//! The facade's integration tests, as one test binary (one link instead of one per file);
//! each file is a module. The programs run as child processes: `ploy` and
//! `pbrain-ploy-pente` through `CARGO_BIN_EXE_*`, the examples as `cargo test` built them.

mod cli;
mod cli_examples;
mod common;
mod docs_rules;
mod engine_games;
mod engine_protocol;
mod game_levels;
mod games_recorded;
mod match_engines;
mod match_games;
mod pente_common;
mod pente_moves_reference;
mod pente_piskvork;
mod pente_programs;
mod pente_win_in_three;
mod play;
mod play_terminal;
// The game crates' own slow reference implementations and random games, shared with their
// tests (one copy in the repository).
#[path = "../../crates/pyloff/tests/suite/common/mod.rs"]
mod pyloff_common;
mod pyloff_programs;
