//! Fuzz target: see `pyloff::fuzzing::moves_line` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pyloff::fuzzing::moves_line(data));
