//! Fuzz target: see `pente::fuzzing::book` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pente::fuzzing::book(data));
