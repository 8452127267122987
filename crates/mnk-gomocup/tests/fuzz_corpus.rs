//! Replays the fuzz corpus of the Gomocup brain (`fuzz/corpus/{gomocup_line,gomocup_session}`)
//! through the fuzz targets' own checks, which this test includes from `fuzz/src/`: what the
//! fuzzer found stays checked by `cargo test`, without the fuzzer. `./scripts/fuzz.sh` grows the
//! corpus.
//!
//! The session check's bot thinks for at most 50 ms, so on a loaded machine its swap2 decisions
//! (`SWAP`, one move, or two moves after three stones) differ from an idle one's. The corpus is
//! replayed again with bots whose judgement is fixed, one for each decision, so every answer the
//! protocol allows is checked on every machine.

#[path = "../../../fuzz/src/gomocup.rs"]
mod gomocup;
#[path = "../../../fuzz/src/replay.rs"]
mod replay;

use std::path::PathBuf;

use mnk_core::{Position, Rules};
use mnk_engine::opening::nearest_centre;
use mnk_engine::{Bot, BotError, Choice, Limits, Value};
use mnk_gomocup::BotOptions;

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

/// Plays the free cell nearest the centre and judges every position `value` for the side to
/// move: a fixed swap2 judgement, whatever the machine's load.
struct Judge {
    value: i32,
}

impl Bot for Judge {
    fn id(&self) -> &'static str {
        "judge"
    }

    fn choose(&mut self, pos: &Position, _limits: &Limits) -> Result<Choice, BotError> {
        let mut choice = Choice::just(nearest_centre(pos).ok_or(BotError::GameOver)?);
        choice.value = Some(Value::Eval(self.value));
        Ok(choice)
    }
}

/// Every position even: after three stones the brain places two more (`x1,y1 x2,y2`), the
/// answer a starved search gave when this test was written.
fn even(_: &Rules, _: BotOptions) -> Result<Box<dyn Bot>, BotError> {
    Ok(Box::new(Judge { value: 0 }))
}

/// Every position lost for the side to move: the brain takes black (`SWAP`).
fn lost(_: &Rules, _: BotOptions) -> Result<Box<dyn Bot>, BotError> {
    Ok(Box::new(Judge { value: -1000 }))
}

/// Every position won for the side to move: the brain takes white with one move.
fn won(_: &Rules, _: BotOptions) -> Result<Box<dyn Bot>, BotError> {
    Ok(Box::new(Judge { value: 1000 }))
}

#[test]
fn sessions_take_every_swap2_decision_as_the_protocol_allows() {
    replay::replay(&corpus("gomocup_session"), |data| {
        gomocup::session_with(data, even)
    });
    replay::replay(&corpus("gomocup_session"), |data| {
        gomocup::session_with(data, lost)
    });
    replay::replay(&corpus("gomocup_session"), |data| {
        gomocup::session_with(data, won)
    });
}
