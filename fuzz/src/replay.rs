//! Replaying a corpus without the fuzzer: every file of a directory through a check.
//!
//! The replay tests (`crates/*/tests/fuzz_corpus.rs`) include this file by path, so it uses std
//! only.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Runs `check` on every file of `dir`, in name order, and panics naming each file that fails
/// (or when the directory is missing or empty, so that a moved corpus cannot pass unnoticed).
pub fn replay(dir: &Path, check: fn(&[u8])) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus {}: {e}", dir.display()));
    let mut files: Vec<_> = entries
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    let failed: Vec<String> = files
        .iter()
        .filter(|file| {
            let data = std::fs::read(file).expect("a readable corpus file");
            catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|file| file.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} inputs fail (the panics are printed above):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}
