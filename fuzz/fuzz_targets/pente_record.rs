//! Fuzz target: see `pente::fuzzing::record` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pente::fuzzing::record(data));
