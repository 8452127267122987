//! Fuzz target: see [`mnk_fuzz::gomocup::parser`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mnk_fuzz::gomocup::parser(data));
