//! Fuzz target: see `pente::fuzzing::position_string` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pente::fuzzing::position_string(data));
