//! Fuzz bodies.
