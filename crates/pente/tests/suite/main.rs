//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod analyze_lines;
mod book;
mod common;
mod defects;
mod eval_terms;
mod levels;
mod perft;
mod properties;
mod proven_wins;
mod rules;
mod serde;
