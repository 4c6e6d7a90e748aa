//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod common;
mod differential;
mod limits;
mod multi;
mod options;
mod pv;
mod threads;
