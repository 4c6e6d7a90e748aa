//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod best_reply;
mod common;
mod differential;
mod engine;
mod evaluation;
mod four_player;
mod free_for_all;
mod levels;
mod options;
mod pv;
mod search;
mod threads;
mod tune_example;
