//! # mnk-fuzz — the properties the fuzz targets check
//!
//! One module per crate under test, each a set of plain functions `fn(&[u8])` that read the
//! input as a front-end would and panic when a property fails. The fuzz targets in
//! `fuzz_targets/` only call them; the replay tests `crates/*/tests/fuzz_corpus.rs` include the
//! same modules by path and run them over every file of `fuzz/corpus/`, so what the fuzzer
//! found stays checked by `cargo test` without it.

pub mod api;
pub mod gomocup;
pub mod notation;
pub mod replay;
