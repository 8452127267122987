//! Fuzz target: see [`mnk_fuzz::gomocup::session`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mnk_fuzz::gomocup::session(data));
