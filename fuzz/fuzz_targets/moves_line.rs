//! Fuzz target: see `ploy_notation::fuzzing::moves_line` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ploy_notation::fuzzing::moves_line(data));
