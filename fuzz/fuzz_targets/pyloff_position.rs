//! Fuzz target: see `pyloff::fuzzing::position_string` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pyloff::fuzzing::position_string(data));
