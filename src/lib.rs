#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use ploy_core as core;
pub use ploy_notation as notation;
pub use ploy_search as search;
pub use ploy_sheet as sheet;

#[cfg(feature = "cli")]
pub mod cli;
pub mod engine;
pub mod play;
