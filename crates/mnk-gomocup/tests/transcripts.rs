//! Transcript tests: each file in `tests/transcripts/` is a conversation with the brain, in the
//! format of `common/transcript.rs`.
//!
//! Every transcript runs twice: line by line on one thread, and through the threaded
//! [`mnk_gomocup::run`] (reader and thinking threads) on the whole input at once, `END` and what
//! follows it included: the answers must be the same.

mod common;

use std::io::{Cursor, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use common::transcript::{compare, files, parse};
use common::{is_message, maker, run_sync, split, well_formed};

#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn check(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let t = parse(&name, &std::fs::read_to_string(path).unwrap());
    let keep = |l: &String| t.keep_messages || !is_message(l);

    // 1. Line by line.
    let lines = split(&t.input);
    let steps = run_sync(&t.bot, &lines);
    for step in &steps {
        let answers = step.replies.iter().filter(|l| !is_message(l)).count();
        assert!(
            answers <= 1,
            "{name}: '{}' got {answers} answers",
            step.line
        );
        for r in &step.replies {
            assert!(well_formed(r), "{name}: malformed answer {r:?}");
        }
    }
    let actual: Vec<String> = steps
        .iter()
        .flat_map(|s| s.replies.iter().cloned())
        .filter(keep)
        .collect();
    compare(&name, "line by line", &t.expected, &actual);

    // 2. Through the reader and thinking threads, the whole input at once.
    let out = SharedBuf::default();
    let input = Cursor::new(t.input.clone().into_bytes());
    mnk_gomocup::run(input, out.clone(), maker(&t.bot)).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let threaded: Vec<String> = text.lines().map(str::to_string).filter(keep).collect();
    compare(&name, "threaded", &t.expected, &threaded);
}

#[test]
fn every_transcript() {
    for f in &files("transcripts", 10) {
        check(f);
    }
}
