#!/usr/bin/env bash
# Runs every test of mnk: formatting, lints, the Rust suite optimised (including the slow
# ignored tests, and the rooms' tests on SQLite and on a throw-away PostgreSQL cluster), then the
# browser tests against a real `mnk serve` in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

# In the `ci` profile, so the proc macros, build scripts (SQLite's C, the page's engine) and their
# dependencies built for the lints serve the test build too: from a cold start the lints and the
# tests' build took 12.5 minutes this way, 17 in the dev profile. The lints are the same.
step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --profile ci -- -D warnings

# The rooms' PostgreSQL test (two servers on one database) needs a database: a throw-away
# cluster, stopped and removed on exit. Without PostgreSQL installed this fails, as it must.
step "PostgreSQL: a throw-away cluster for the rooms' tests"
pg_dir=$(mktemp -d)
chmod 755 "$pg_dir" # as root the cluster runs as the postgres user, which must reach it
trap 'scripts/pg-cluster.sh stop "$pg_dir/pg"; rm -rf "$pg_dir"' EXIT
MNK_TEST_POSTGRES_URL=$(scripts/pg-cluster.sh start "$pg_dir/pg")
export MNK_TEST_POSTGRES_URL
echo "$MNK_TEST_POSTGRES_URL"

# The `ci` profile is release without link-time optimisation (see Cargo.toml). One run with the
# ignored tests (the optimised-only ones: 4x4 tree counts, 100,000 renju positions, the
# pbrain-mnk self-match, …), so each binary's slow tests share its run with its quick ones.
step "Rust tests (optimised, the ignored ones too)"
cargo test --workspace --profile ci -- --include-ignored

step "Browser tests (Playwright + /usr/bin/chromium against mnk serve)"
# MNK_TEST_POSTGRES_URL is still exported: the two-server rooms test starts two servers on it.
# The server the test suite built: `cargo build -p mnk` alone would unify other features and
# compile half the dependencies again.
cargo test --workspace --profile ci --no-run
npm --prefix e2e ci --no-audit --no-fund
MNK_BIN="$PWD/target/ci/mnk" npm --prefix e2e test
