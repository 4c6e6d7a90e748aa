//! `ployd`: a play-by-mail game server for the games of the `ploy` workspace, in the
//! spirit of pbmserv, on SQLite.
//!
//! - [`game`]: the one trait, [`game::GameType`], through which the server reaches a game
//!   ([`game::ploy::PloyType`], [`game::pente::PenteType`], [`game::pyloff::PyloffType`]).
//! - [`store`]: all SQL, behind domain-level methods (SQLite, WAL, numbered migrations; the
//!   append-only move log is the truth).
//! - [`service`]: what the server does (accounts, challenges, moves, resignations, draw
//!   offers, timers, bots), whatever the way in.
//! - [`command`]: the pbmserv-style command language (`ployd cmd`, `POST /api/command`).
//! - [`http`]: the HTTP API and its event streams.
//! - [`mail`]: e-mail addresses of accounts and the queue of mail.
//! - [`auth`]: userids, passwords (argon2id), session tokens.
//! - [`page`]: the browser page served at `/` (static files compiled in).
//!
//! The user documentation is `docs/server.md` in the repository.
//!
//! ```
//! use std::sync::Arc;
//! use ploy_server::command::execute;
//! use ploy_server::game::Registry;
//! use ploy_server::service::{Config, Service, SystemClock};
//! use ploy_server::store::Store;
//!
//! let dir = std::env::temp_dir().join(format!("ployd-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("doc.db");
//! # let _ = std::fs::remove_file(&path);
//! let mut config = Config::default();
//! config.hash.memory_kib = 256; // cheap hashes for the example
//! config.hash.iterations = 1;
//! let service = Service::new(Store::open(&path)?, Registry::standard(), Arc::new(SystemClock), config);
//! assert_eq!(execute(&service, "signup alice s3cret-pw").first, "ok signed up alice");
//! assert_eq!(execute(&service, "signup bob hunter22").first, "ok signed up bob");
//! assert_eq!(execute(&service, "ploy challenge alice s3cret-pw bob").first, "ok board 101");
//! assert_eq!(execute(&service, "ploy join 101 bob hunter22").first, "ok board 101: started");
//! assert!(execute(&service, "ploy move 101 alice s3cret-pw e3-e4#0").is_ok());
//! assert_eq!(
//!     execute(&service, "ploy move 101 bob hunter22 e7-e6-0#0").first,
//!     "error 409: board 101 has 1 move played; a move numbered #0 is stale"
//! );
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod auth;
pub mod command;
pub mod game;
pub mod http;
pub mod mail;
pub mod page;
pub mod service;
pub mod store;
