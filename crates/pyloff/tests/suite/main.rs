//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod common;
mod games;
mod levels;
mod multi;
mod rules;
mod seed_examples;
