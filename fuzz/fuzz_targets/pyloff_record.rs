//! Fuzz target: see `pyloff::fuzzing::record` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pyloff::fuzzing::record(data));
