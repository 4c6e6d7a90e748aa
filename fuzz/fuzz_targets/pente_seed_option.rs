//! Fuzz target: see `pente::fuzzing::seed_option` for the properties it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pente::fuzzing::seed_option(data));
