//! Move generation benches (filled in below).
fn main() {}
