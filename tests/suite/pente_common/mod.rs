//! For the tests of `ploy pente`: the `pente` crate's test support (a slow, obvious
//! implementation of the rule book, written straight from its text, and random games; one
//! copy in the repository), and the runner of the programs as child processes
//! ([`programs`]).

#[path = "../../../crates/pente/tests/suite/common/mod.rs"]
mod reference;

pub use reference::*;

pub mod programs;
