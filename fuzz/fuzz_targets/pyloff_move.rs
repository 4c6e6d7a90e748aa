//! Fuzz target: see `pyloff::fuzzing::move_text` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pyloff::fuzzing::move_text(data));
