//! Search benches (filled in below).
fn main() {}
