//! Fuzz target: see [`mnk_fuzz::notation::psq`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mnk_fuzz::notation::psq(data));
