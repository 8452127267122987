//! The transcript format: a conversation with the brain, written as the manager sees it.
//!
//! - `> text` is a line the manager sends (a LF is appended); `>> text` is sent as is, without
//!   a line end. Both understand the escapes `\r`, `\n`, `\t`, `\\` and `\xHH`.
//! - `< text` is a line the brain must answer; `< <move>` matches any `x,y`, `< <move: 7,6
//!   7,11>` one of the moves listed, and a pattern ending in `*` matches any line that starts
//!   with what comes before the `*`.
//! - `bot: NAME` picks the deterministic test bot (`nearest` by default; `strongest` is the
//!   brain's own engine held to a fixed number of nodes; see `common`);
//!   `messages: keep` compares `MESSAGE` lines too (by default they are skipped, as managers do).
//! - `#` starts a comment line.

/// A conversation: what the manager sends and what the brain must answer.
pub struct Transcript {
    /// The test bot that plays (when the brain runs in the test process).
    pub bot: String,
    /// Whether `MESSAGE` lines are compared too.
    pub keep_messages: bool,
    /// Everything the manager sends, line ends included.
    pub input: String,
    /// The brain's expected answers, as patterns.
    pub expected: Vec<String>,
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

/// Reads a transcript; `name` is for error messages.
pub fn parse(name: &str, text: &str) -> Transcript {
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
            panic!("{name}:{}: cannot read '{line}'", n + 1);
        }
    }
    t
}

/// Whether `line` is a move `x,y`.
pub fn is_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        !x.is_empty()
            && !y.is_empty()
            && x.bytes().all(|b| b.is_ascii_digit())
            && y.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether an answer matches an expected pattern.
pub fn matches(pattern: &str, line: &str) -> bool {
    if pattern == "<move>" {
        is_move(line)
    } else if let Some(list) = pattern
        .strip_prefix("<move: ")
        .and_then(|p| p.strip_suffix('>'))
    {
        is_move(line) && list.split_whitespace().any(|m| m == line)
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        line.starts_with(prefix)
    } else {
        pattern == line
    }
}

/// Panics with a side-by-side report unless `actual` matches `expected` line for line.
pub fn compare(name: &str, how: &str, expected: &[String], actual: &[String]) {
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

/// The transcript files (`*.txt`) of the test folder `folder`, sorted, asserting there are at
/// least `at_least` of them.
pub fn files(folder: &str, at_least: usize) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= at_least,
        "transcripts missing in {}",
        dir.display()
    );
    files
}
