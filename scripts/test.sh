#!/usr/bin/env bash
# Runs every test of mnk: formatting, lints, the Rust suite optimised (including the slow
# ignored tests), then the browser tests against a real `mnk serve` in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

# The `ci` profile is release without link-time optimisation (see Cargo.toml).
step "Rust tests (optimised)"
cargo test --workspace --profile ci

step "Optimised-only tests: 4x4 tree counts, self-play sanity, pbrain-mnk self-match"
cargo test --workspace --profile ci -- --ignored

step "Browser tests (Playwright + /usr/bin/chromium against mnk serve)"
cargo build --profile ci -p mnk
npm --prefix e2e ci --no-audit --no-fund
MNK_BIN="$PWD/target/ci/mnk" npm --prefix e2e test
