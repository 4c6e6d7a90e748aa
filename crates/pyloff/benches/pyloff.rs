//! Benches (written below).
fn main() {}
