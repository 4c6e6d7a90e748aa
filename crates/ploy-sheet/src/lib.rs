//! ploy-sheet: see the crate's issue. (placeholder)
