//! ploy-search: see the crate's issue. (placeholder)
