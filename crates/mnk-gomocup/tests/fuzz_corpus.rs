//! Replays the fuzz corpus of the Gomocup brain (`fuzz/corpus/{gomocup_line,gomocup_session}`)
//! through the fuzz targets' own checks, which this test includes from `fuzz/src/`: what the
//! fuzzer found stays checked by `cargo test`, without the fuzzer. `./scripts/fuzz.sh` grows the
//! corpus.

#[path = "../../../fuzz/src/gomocup.rs"]
mod gomocup;
#[path = "../../../fuzz/src/replay.rs"]
mod replay;

use std::path::PathBuf;

fn corpus(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/corpus/{target}"))
}

#[test]
fn lines_parse_as_the_protocol_says_and_read_back() {
    replay::replay(&corpus("gomocup_line"), gomocup::parser);
}

#[test]
fn sessions_answer_every_line_as_the_protocol_says() {
    replay::replay(&corpus("gomocup_session"), gomocup::session);
}
