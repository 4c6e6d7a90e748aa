//! Fuzz target: see `ploy_notation::fuzzing::university_move` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ploy_notation::fuzzing::university_move(data));
