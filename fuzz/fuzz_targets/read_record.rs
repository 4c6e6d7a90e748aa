//! Fuzzes `ploy_sheet::read_record`: never panics; a text that reads writes back as the same
//! game in both formats. The body is `ploy_sheet::fuzzing::read_record`, also run by the
//! crate's tests.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ploy_sheet::fuzzing::read_record(data);
});
