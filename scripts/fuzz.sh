#!/usr/bin/env bash
# Runs a fuzz target (cargo-fuzz, libFuzzer) for some minutes on one core, then adds to its
# corpus only the new inputs that reach new code. Works on stable Rust (`--sanitizer none`).
#
#   ./scripts/fuzz.sh TARGET [MINUTES]     one target, 10 minutes by default
#   ./scripts/fuzz.sh all [MINUTES]        every target in turn, MINUTES each
#   ./scripts/fuzz.sh list                 the targets
#
# The corpus is fuzz/corpus/TARGET (kept in git; `cargo test` replays it through
# crates/*/tests/fuzz_corpus.rs). The fuzzer runs in libFuzzer's fork mode with one job, so it
# goes on after a failure: every failing input is saved under fuzz/artifacts/TARGET/, listed at
# the end, and makes the script exit 1. Reproduce one with
# `cargo fuzz run --sanitizer none TARGET FILE`, shrink it with `cargo fuzz tmin --sanitizer none
# TARGET FILE`, and copy it into the corpus so the test suite keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(record diagram rules psq gomocup_line gomocup_session api_json)

usage() {
    echo "usage: $0 TARGET|all|list [MINUTES]   (targets: ${TARGETS[*]})" >&2
    exit 2
}

[ $# -ge 1 ] || usage
what=$1
minutes=${2:-10}
[[ $minutes =~ ^[0-9]+$ ]] || usage

if [ "$what" = list ]; then
    printf '%s\n' "${TARGETS[@]}"
    exit 0
fi

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "==> installing cargo-fuzz from crates.io"
    cargo install cargo-fuzz --locked
fi

fuzz_one() {
    local target=$1
    local corpus=fuzz/corpus/$target
    local found=fuzz/target/found/$target
    local dict=()
    [ -f "fuzz/dict/$target.dict" ] && dict=(-dict="fuzz/dict/$target.dict")
    local artifacts=fuzz/artifacts/$target
    mkdir -p "$corpus" "$found" "$artifacts"
    echo "==> fuzzing $target for $minutes min (corpus $corpus)"
    # New inputs go to the first directory, a scratch one; the corpus is only read. In fork
    # mode libFuzzer exits with an error after any failure, which the artifacts then show.
    local status=0
    cargo fuzz run --sanitizer none "$target" "$found" "$corpus" -- \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=2048 \
        "${dict[@]}" || status=$?
    if [ "$status" -ne 0 ] && [ -z "$(ls -A "$artifacts")" ]; then
        echo "==> $target: the fuzzer failed (exit $status) without a failing input" >&2
        exit "$status"
    fi
    # A set cover of the edges only (no hit counts), so that the corpus stays small.
    echo "==> adding the inputs that reach new code to $corpus"
    cargo fuzz run --sanitizer none "$target" "$corpus" "$found" -- -set_cover_merge=1 -use_counters=0 "${dict[@]}"
    rm -rf "$found"
    if [ -n "$(ls -A "$artifacts")" ]; then
        echo "==> $target: failing inputs in $artifacts:"
        ls -l "$artifacts"
        failed=1
    fi
}

failed=0

case $what in
    all)
        for target in "${TARGETS[@]}"; do
            fuzz_one "$target"
        done
        ;;
    *)
        printf '%s\n' "${TARGETS[@]}" | grep -qx -- "$what" || usage
        fuzz_one "$what"
        ;;
esac
exit "$failed"
