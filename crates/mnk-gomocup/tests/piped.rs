//! Whole sessions piped at once into the real `pbrain-mnk`, `END` last: every command read
//! before `END` is answered, in order, and the brain exits by itself, promptly.
//!
//! Each file in `tests/piped/` is a transcript (the format of `common/transcript.rs`; the real
//! engine plays, so moves are matched as `<move>`). The test writes the whole input in one go and
//! keeps the pipe open, as a manager does, so only `END` can end the brain.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::transcript::{compare, files, parse};
use common::{is_message, split};

/// How long the brain may take from receiving its input to exiting. Every search in these
/// transcripts is cut short by END, so this is process start-up and the END grace with room for
/// a busy machine.
const EXIT_WITHIN: Duration = Duration::from_secs(3);

/// Runs `pbrain-mnk` on `input` and returns its output lines, checking that it exits by itself,
/// successfully, within [`EXIT_WITHIN`].
fn pipe_through_brain(name: &str, input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("pbrain-mnk starts");
    let mut stdin = child.stdin.take().unwrap();
    let sent = Instant::now();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > EXIT_WITHIN {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: pbrain-mnk still runs {EXIT_WITHIN:?} after its input");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(stdin);
    assert!(status.success(), "{name}: pbrain-mnk exited with {status}");
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    output.lines().map(str::to_string).collect()
}

fn check(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let t = parse(&name, &std::fs::read_to_string(path).unwrap());
    assert!(
        split(&t.input)
            .iter()
            .any(|l| l.trim().eq_ignore_ascii_case("END")),
        "{name}: a piped session holds END"
    );
    let lines = pipe_through_brain(&name, &t.input);
    let answers: Vec<String> = lines
        .into_iter()
        .filter(|l| t.keep_messages || !is_message(l))
        .collect();
    compare(&name, "piped into pbrain-mnk", &t.expected, &answers);
}

#[test]
fn every_piped_session() {
    for f in &files("piped", 6) {
        check(f);
    }
}

/// The move that a search cut short by END answers is a legal one, on an empty cell.
#[test]
fn the_move_answered_after_end_is_legal() {
    let input = "START 15\nINFO timeout_turn 60000\nBOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\nEND\n";
    let lines = pipe_through_brain("board", input);
    let answers: Vec<&String> = lines.iter().filter(|l| !is_message(l)).collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0], "OK");
    let mv = answers[1].as_str();
    assert!(common::transcript::is_move(mv), "{mv}");
    assert!(!["7,7", "8,8", "7,8"].contains(&mv), "{mv} is taken");
    let (x, y) = mv.split_once(',').unwrap();
    let (x, y): (u32, u32) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < 15 && y < 15, "{mv} is off the board");
}
