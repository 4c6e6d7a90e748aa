//! Ploy, the 1970 3M strategy game: the facade crate re-exporting the workspace crates.
#![forbid(unsafe_code)]

pub use ploy_core as core;
pub use ploy_notation as notation;
pub use ploy_search as search;
pub use ploy_sheet as sheet;
