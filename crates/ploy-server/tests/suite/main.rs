//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod accounts_public;
mod bodies;
mod cdp;
mod command_bounds;
mod commands;
mod common;
mod crash;
mod games;
mod headers;
mod http;
mod load;
mod page;
mod storage;
mod throttle;
