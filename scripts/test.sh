#!/usr/bin/env bash
# Runs every test of mnk: formatting, lints, the Rust suite in release (including the slow
# release-only tests), then the browser tests against a real `mnk serve` in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

step "Rust tests (release)"
cargo test --workspace --release

step "Release-only tests: 4x4 tree counts, self-play sanity, pbrain-mnk self-match"
cargo test --workspace --release -- --ignored

step "Browser tests (Playwright + /usr/bin/chromium against mnk serve)"
cargo build --release -p mnk
npm --prefix e2e ci --no-audit --no-fund
MNK_BIN="$PWD/target/release/mnk" npm --prefix e2e test
