//! Fuzz target: see [`mnk_fuzz::api::request`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mnk_fuzz::api::request(data));
