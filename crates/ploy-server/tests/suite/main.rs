//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod accounts_public;
mod bodies;
mod bot_levels;
mod cdp;
mod cluster;
mod command_bounds;
mod commands;
mod common;
mod connections;
mod content_type;
mod crash;
mod cross_origin;
mod fair_bots;
mod faults;
mod finding;
mod games;
mod headers;
mod http;
mod invitations;
mod leaving;
mod load;
mod mail_addresses;
mod mail_in;
mod mail_out;
mod mail_relay;
mod page;
mod postgres;
mod ratings;
mod records;
mod rematch;
mod shared_limits;
mod storage;
mod storage_full;
mod throttle;
