//! ploy-notation: see the crate's issue. (placeholder)
