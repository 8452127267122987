//! Fuzz target: see [`mnk_fuzz::notation::record`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mnk_fuzz::notation::record(data));
