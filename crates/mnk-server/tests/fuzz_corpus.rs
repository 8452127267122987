//! Replays the fuzz corpus of the JSON API (`fuzz/corpus/api_json`) through the fuzz target's own
//! check, which this test includes from `fuzz/src/`: what the fuzzer found stays checked by
//! `cargo test`, without the fuzzer. `./scripts/fuzz.sh` grows the corpus.

#[path = "../../../fuzz/src/api.rs"]
mod api;
#[path = "../../../fuzz/src/replay.rs"]
mod replay;

use std::path::PathBuf;

#[test]
fn every_body_gets_json_and_never_a_server_error() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/api_json");
    replay::replay(&corpus, api::request);
}
