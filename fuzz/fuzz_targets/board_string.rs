//! Fuzz target: see `ploy_notation::fuzzing::board_string` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ploy_notation::fuzzing::board_string(data));
