//! Property test: random lines, from plausible commands to noise, never crash the brain, and
//! every line that needs an answer gets exactly one (lines that need none get none).

mod common;

use common::{is_message, run_sync, well_formed};
use proptest::prelude::*;

/// How many answers a line needs, worked out from the specification independently of the
/// parser: `INFO`, `END`, `YXSTOP`/`STOP`, empty lines (nothing but spaces and tabs) and the
/// lines inside a block get none; a block gets one at its `DONE` (`YXBOARD` only when it fails,
/// so at most one), or at the end of the input when it is left open; a line holding other
/// control characters is garbage, never a command (and never `DONE` or `END` inside a block);
/// every other line gets exactly one.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Need {
    None,
    One,
    AtMostOne,
    Stop,
}

struct Oracle {
    block: Option<String>,
}

impl Oracle {
    fn need(&mut self, line: &str) -> Need {
        let blank = |c: char| c == '\t' || (c.is_whitespace() && !c.is_control());
        let t = line.trim_matches(blank);
        if t.is_empty() {
            return Need::None;
        }
        let garbage = t.chars().any(|c| c.is_control() && !blank(c));
        let word = t
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if let Some(block) = &self.block {
            if garbage {
                return Need::None;
            }
            return match word.as_str() {
                "DONE" => {
                    let yx = block == "YXBOARD";
                    self.block = None;
                    if yx {
                        Need::AtMostOne
                    } else {
                        Need::One
                    }
                }
                "END" => Need::Stop,
                _ => Need::None,
            };
        }
        if garbage {
            return Need::One;
        }
        match word.as_str() {
            "INFO" | "YXSTOP" | "STOP" => Need::None,
            "END" => Need::Stop,
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                self.block = Some(word);
                Need::None
            }
            _ => Need::One,
        }
    }

    /// What the end of the input needs: an answer for a block left open (but `YXBOARD`'s).
    fn finish(&mut self) -> Option<Need> {
        self.block.take().map(|b| {
            if b == "YXBOARD" {
                Need::None
            } else {
                Need::One
            }
        })
    }
}

fn coordinate() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..17, 0u32..17).prop_map(|(x, y)| format!("{x},{y}")),
        (-3i64..40, -3i64..40).prop_map(|(x, y)| format!("{x},{y}")),
        "[0-9,a-z -]{0,8}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("START"),
        Just("start"),
        Just("RECTSTART"),
        Just("RESTART"),
        Just("BEGIN"),
        Just("TURN"),
        Just("turn"),
        Just("BOARD"),
        Just("YXBOARD"),
        Just("SWAP2BOARD"),
        Just("DONE"),
        Just("INFO"),
        Just("ABOUT"),
        Just("TAKEBACK"),
        Just("PLAY"),
        Just("YXSTOP"),
        Just("STOP"),
        Just("YXSHOWFORBID"),
        Just("SUGGEST"),
        Just("END"),
    ];
    let info_key = prop_oneof![
        Just("timeout_turn"),
        Just("timeout_match"),
        Just("time_left"),
        Just("max_memory"),
        Just("game_type"),
        Just("rule"),
        Just("evaluate"),
        Just("folder"),
        Just("max_depth"),
        Just("max_node"),
        Just("thread_num"),
    ];
    prop_oneof![
        4 => (word, coordinate()).prop_map(|(w, a)| format!("{w} {a}")),
        2 => (0u32..40).prop_map(|n| format!("START {n}")),
        2 => (0u32..17, 0u32..17, 0u32..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        2 => (info_key, "[0-9a-z,-]{0,6}").prop_map(|(k, v)| format!("INFO {k} {v}")),
        1 => (0u32..20).prop_map(|r| format!("INFO rule {r}")),
        1 => "[^\r\n]{0,20}",
        1 => "[\\x00-\\x09\\x0b\\x0c\\x0e-\\x1f \\t]{1,4}[A-Z]{0,5}",
        1 => Just(String::new()),
    ]
}

fn check(lines: &[String]) -> Result<(), TestCaseError> {
    let steps = run_sync("nearest", lines);
    let mut oracle = Oracle { block: None };
    for (i, step) in steps.iter().enumerate() {
        let answers: Vec<&String> = step.replies.iter().filter(|l| !is_message(l)).collect();
        for r in &step.replies {
            prop_assert!(
                well_formed(r),
                "malformed answer {:?} to {:?}",
                r,
                step.line
            );
        }
        let need = if i < lines.len() {
            oracle.need(&step.line)
        } else {
            oracle
                .finish()
                .expect("a last step only for a block left open")
        };
        match need {
            Need::None | Need::Stop => {
                prop_assert!(answers.is_empty(), "{:?} got {:?}", step.line, answers)
            }
            Need::One => prop_assert_eq!(answers.len(), 1, "{:?} got {:?}", step.line, answers),
            Need::AtMostOne => {
                prop_assert!(answers.len() <= 1, "{:?} got {:?}", step.line, answers)
            }
        }
    }
    // The session stops exactly at the first END outside... or inside a block; without END,
    // a block left open takes one more step.
    let mut oracle = Oracle { block: None };
    let expected_len = match lines.iter().position(|l| oracle.need(l) == Need::Stop) {
        Some(i) => i + 1,
        None => lines.len() + usize::from(oracle.finish().is_some()),
    };
    prop_assert_eq!(steps.len(), expected_len);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn garbage_never_crashes_and_is_always_answered(
        started in any::<bool>(),
        lines in prop::collection::vec(line(), 1..50),
    ) {
        let mut all = Vec::new();
        if started {
            all.push("START 15".to_string());
        }
        all.extend(lines);
        check(&all)?;
    }
}
