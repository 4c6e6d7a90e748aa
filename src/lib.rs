// The README is the crate's front page. Its links to the documents in `docs/` are
// reference-style; these definitions come first and win in rustdoc, so that there the links
// lead to the modules of `ploy::docs` (see src/docs.rs).
#![doc = "[rules]: crate::docs::rules\n[notation]: crate::docs::notation\n\
          [protocol]: crate::docs::protocol\n[speed]: crate::docs::speed\n[server]: crate::docs::server\n\
          [docs]: crate::docs\n[pyloff]: crate::docs::pyloff\n\
          [pente]: crate::docs::pente\n[search-tuning]: crate::docs::search_tuning\n\
          [matches]: crate::docs::matches"]
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use ploy_core as core;
pub use ploy_engine as engine;
pub use ploy_notation as notation;
pub use ploy_search as search;
pub use ploy_sheet as sheet;

#[cfg(feature = "cli")]
pub mod cli;
pub mod docs;
pub mod play;
pub mod protocol;
