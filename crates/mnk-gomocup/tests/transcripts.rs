//! Transcript tests: each file in `tests/transcripts/` is a conversation with the brain.
//!
//! - `> text` is a line the manager sends (a LF is appended); `>> text` is sent as is, without
//!   a line end. Both understand the escapes `\r`, `\n`, `\t`, `\\` and `\xHH`.
//! - `< text` is a line the brain must answer; `< <move>` matches any `x,y`, and a pattern
//!   ending in `*` matches any line that starts with what comes before the `*`.
//! - `bot: NAME` picks the deterministic test bot (`nearest` by default, see `common`);
//!   `messages: keep` compares `MESSAGE` lines too (by default they are skipped, as managers do).
//! - `#` starts a comment line.
//!
//! Every transcript runs twice: line by line on one thread, and through the threaded
//! [`mnk_gomocup::run`] (reader and thinking threads) on the same input up to its `END`.

mod common;

use std::io::{Cursor, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use common::{is_message, maker, run_sync, split, well_formed};

struct Transcript {
    bot: String,
    keep_messages: bool,
    input: String,
    expected: Vec<String>,
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).expect("\\xHH")));
            }
            other => panic!("unknown escape \\{other:?}"),
        }
    }
    out
}

fn load(path: &Path) -> Transcript {
    let text = std::fs::read_to_string(path).unwrap();
    let mut t = Transcript {
        bot: "nearest".into(),
        keep_messages: false,
        input: String::new(),
        expected: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        } else if let Some(rest) = line.strip_prefix(">> ") {
            t.input.push_str(&unescape(rest));
        } else if let Some(rest) = line.strip_prefix("> ").or(line.strip_prefix(">")) {
            t.input.push_str(&unescape(rest));
            t.input.push('\n');
        } else if let Some(rest) = line.strip_prefix("< ") {
            t.expected.push(rest.to_string());
        } else if let Some(bot) = line.strip_prefix("bot: ") {
            t.bot = bot.trim().to_string();
        } else if line.trim() == "messages: keep" {
            t.keep_messages = true;
        } else {
            panic!("{}:{}: cannot read '{line}'", path.display(), n + 1);
        }
    }
    t
}

fn matches(pattern: &str, line: &str) -> bool {
    if pattern == "<move>" {
        line.split_once(',').is_some_and(|(x, y)| {
            !x.is_empty()
                && !y.is_empty()
                && x.bytes().all(|b| b.is_ascii_digit())
                && y.bytes().all(|b| b.is_ascii_digit())
        })
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        line.starts_with(prefix)
    } else {
        pattern == line
    }
}

fn compare(name: &str, how: &str, expected: &[String], actual: &[String]) {
    let ok =
        expected.len() == actual.len() && expected.iter().zip(actual).all(|(e, a)| matches(e, a));
    if !ok {
        let mut report = format!("{name} ({how}): the brain's answers differ\n");
        for i in 0..expected.len().max(actual.len()) {
            let e = expected.get(i).map_or("(nothing)", String::as_str);
            let a = actual.get(i).map_or("(nothing)", String::as_str);
            let mark = if matches(e, a) { "  " } else { "!!" };
            report.push_str(&format!("{mark} expected: {e}\n   actual:   {a}\n"));
        }
        panic!("{report}");
    }
}

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
    let t = load(path);
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

    // 2. Through the reader and thinking threads, on the input before END.
    let before_end: Vec<String> = lines
        .iter()
        .take_while(|l| !l.trim().eq_ignore_ascii_case("end"))
        .cloned()
        .collect();
    let sync_before_end: Vec<String> = run_sync(&t.bot, &before_end)
        .iter()
        .flat_map(|s| s.replies.iter().cloned())
        .filter(keep)
        .collect();
    let out = SharedBuf::default();
    let input = Cursor::new(before_end.join("\n").into_bytes());
    mnk_gomocup::run(input, out.clone(), maker(&t.bot)).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let threaded: Vec<String> = text.lines().map(str::to_string).filter(keep).collect();
    compare(&name, "threaded", &sync_before_end, &threaded);
}

#[test]
fn every_transcript() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "transcripts missing in {}",
        dir.display()
    );
    for f in &files {
        check(f);
    }
}
