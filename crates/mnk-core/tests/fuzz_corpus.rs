//! Replays the fuzz corpus of mnk-core's notations (`fuzz/corpus/{record,diagram,rules,psq}`)
//! through the fuzz targets' own checks, which this test includes from `fuzz/src/`: what the
//! fuzzer found stays checked by `cargo test`, without the fuzzer. `./scripts/fuzz.sh` grows the
//! corpus.

#[path = "../../../fuzz/src/notation.rs"]
mod notation;
#[path = "../../../fuzz/src/replay.rs"]
mod replay;

use std::path::PathBuf;

fn corpus(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/corpus/{target}"))
}

#[test]
fn records_round_trip_and_play_as_the_rules_say() {
    replay::replay(&corpus("record"), notation::record);
}

#[test]
fn diagrams_round_trip_and_replay_as_games() {
    replay::replay(&corpus("diagram"), notation::diagram);
}

#[test]
fn rules_text_round_trips() {
    replay::replay(&corpus("rules"), notation::rules);
}

#[test]
fn psq_files_read_write_and_play_consistently() {
    replay::replay(&corpus("psq"), notation::psq);
}
