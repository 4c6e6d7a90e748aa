//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod bounded;
mod common;
mod handwritten;
mod roundtrip;
