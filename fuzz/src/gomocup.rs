//! Checks for the Gomocup brain: the line parser alone, and whole conversations with a session.
//!
//! The parser check compares the parser with the protocol's own account of which lines complete
//! a command, and prints every command it reads back as protocol text that must read as the same
//! command. The session check feeds the lines to a real session whose bot is mnk's strongest,
//! held to a few thousand nodes, and checks every answer against the specification: one answer
//! to each line that needs one, each of a shape the protocol allows, moves on free cells of the
//! board, and never an internal failure. This file uses mnk-core, mnk-engine, mnk-gomocup and
//! std only, so mnk-gomocup's replay test includes it as it is.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use mnk_core::{Position, Rules};
use mnk_engine::{Bot, BotError, Choice, Deadline, Limits, SearchInfo};
use mnk_gomocup::{
    strongest_bot, BlockKind, BoardStone, BotOptions, Command, Coord, Field, Flow, Info,
    ParseError, Parser, Session,
};

/// The most lines of one input a session check reads, so that one input stays quick.
pub const MAX_SESSION_LINES: usize = 64;
/// The most nodes the session's bot may search for one move.
pub const MAX_NODES: u64 = 20_000;
/// The longest the session's bot may think for one move.
pub const MAX_THINK: Duration = Duration::from_millis(50);
/// The longest answer line the parser may make (bad lines are quoted briefly).
const MAX_REPLY_BYTES: usize = 512;

/// The input's lines, split as the brain splits its standard input.
fn lines(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    mnk_gomocup::stdio::read_lines(data, |line| {
        lines.push(line.to_string());
        true
    })
    .expect("reading from memory cannot fail");
    lines
}

/// What a line is to the protocol, worked out from the specification independently of the
/// parser. Lines are padded and emptied only by spaces and tabs; a line holding any other
/// control character (a NUL byte, say) is garbage, never a command.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Nothing but spaces and tabs: skipped.
    Empty,
    /// `BOARD`, `YXBOARD` or `SWAP2BOARD`: opens a block, answered at its `DONE`.
    Opens,
    /// A line inside a block other than `DONE` and `END` (garbage included).
    InBlock,
    /// `DONE` closing a block; `yx` for `YXBOARD`, which is answered only when it fails.
    Closes { yx: bool },
    /// `END`, inside a block or not: the conversation stops, nothing is written.
    End,
    /// `INFO`, `YXSTOP` or `STOP`: a command that gets no answer.
    Silent,
    /// Any other line outside a block: a command, known or not, or garbage. One answer.
    Command { known: bool },
}

/// How many answers a line needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    Nothing,
    One,
    AtMostOne,
    Stop,
}

impl Kind {
    fn need(&self) -> Need {
        match self {
            Kind::Empty | Kind::Opens | Kind::InBlock | Kind::Silent => Need::Nothing,
            Kind::Closes { yx: true } => Need::AtMostOne,
            Kind::Closes { yx: false } | Kind::Command { .. } => Need::One,
            Kind::End => Need::Stop,
        }
    }

    /// Whether the parser completes something on this line (a command or an error).
    fn completes(&self) -> bool {
        !matches!(self, Kind::Empty | Kind::Opens | Kind::InBlock)
    }
}

/// The protocol's account of a sequence of lines: it only needs to know whether a block is open.
#[derive(Default)]
struct Oracle {
    block: Option<String>,
}

impl Oracle {
    fn kind(&mut self, line: &str) -> Kind {
        let blank = |c: char| c == '\t' || (c.is_whitespace() && !c.is_control());
        let t = line.trim_matches(blank);
        if t.is_empty() {
            return Kind::Empty;
        }
        let garbage = t.chars().any(|c| c.is_control() && !blank(c));
        let word = t
            .split(char::is_whitespace)
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if let Some(block) = &self.block {
            return match word.as_str() {
                _ if garbage => Kind::InBlock,
                "DONE" => {
                    let yx = block == "YXBOARD";
                    self.block = None;
                    Kind::Closes { yx }
                }
                "END" => {
                    self.block = None;
                    Kind::End
                }
                _ => Kind::InBlock,
            };
        }
        match word.as_str() {
            _ if garbage => Kind::Command { known: false },
            "INFO" | "YXSTOP" | "STOP" => Kind::Silent,
            "END" => Kind::End,
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                self.block = Some(word);
                Kind::Opens
            }
            w => Kind::Command {
                known: KNOWN.contains(&w),
            },
        }
    }
}

/// The command words of the protocol that mnk knows outside a block (`DONE` only closes one).
const KNOWN: [&str; 16] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "INFO",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
];

/// A command written back as protocol lines.
fn render(command: &Command) -> Vec<String> {
    let one = |s: String| vec![s];
    match command {
        Command::Start(n) => one(format!("START {n}")),
        Command::RectStart { width, height } => one(format!("RECTSTART {width},{height}")),
        Command::Restart => one("RESTART".into()),
        Command::Begin => one("BEGIN".into()),
        Command::Turn(c) => one(format!("TURN {c}")),
        Command::Block { kind, stones } => {
            let mut lines = vec![kind.word().to_string()];
            for s in stones {
                let field = match s.field {
                    Field::Own => 1,
                    Field::Opponent => 2,
                    Field::WinningLine => 3,
                };
                lines.push(format!("{},{field}", s.at));
            }
            lines.push("DONE".into());
            lines
        }
        Command::Info(info) => one(match info {
            Info::TimeoutTurn(ms) => format!("INFO timeout_turn {ms}"),
            Info::TimeoutMatch(ms) => format!("INFO timeout_match {ms}"),
            Info::TimeLeft(ms) => format!("INFO time_left {ms}"),
            Info::MaxMemory(bytes) => format!("INFO max_memory {bytes}"),
            Info::GameType(t) => format!("INFO game_type {t}"),
            Info::Rule(r) => format!("INFO rule {r}"),
            Info::Evaluate(c) => format!("INFO evaluate {c}"),
            Info::Folder(f) => format!("INFO folder {f}"),
            Info::MaxDepth(d) => format!("INFO max_depth {}", d.unwrap_or(0)),
            Info::MaxNode(n) => format!("INFO max_node {}", n.unwrap_or(0)),
            Info::ThreadNum(n) => format!("INFO thread_num {n}"),
            Info::Other { key, value } => format!("INFO {key} {value}"),
        }),
        Command::End => one("END".into()),
        Command::About => one("ABOUT".into()),
        Command::Takeback(c) => one(format!("TAKEBACK {c}")),
        Command::Play(c) => one(format!("PLAY {c}")),
        Command::Stop => one("YXSTOP".into()),
        Command::ShowForbid => one("YXSHOWFORBID".into()),
    }
}

/// The command that `lines` make when fed to a fresh parser (and that they make exactly one).
fn reparse(lines: &[String]) -> Result<Command, ParseError> {
    let mut parser = Parser::new();
    let (last, init) = lines.split_last().expect("a command has a line");
    for line in init {
        assert_eq!(
            parser.feed(line),
            None,
            "{line:?} of {lines:?} completed early"
        );
    }
    let result = parser
        .feed(last)
        .expect("the last line completes the command");
    assert!(!parser.in_block(), "{lines:?} left a block open");
    result
}

/// Checks a parse error's answer: one clean, short line; `UNKNOWN` for unknown words and
/// garbage, `ERROR` for the rest.
fn check_error_reply(line: &str, kind: &Kind, e: &ParseError) {
    let reply = e.reply();
    assert!(
        !reply.chars().any(char::is_control),
        "{line:?}: control character in {reply:?}"
    );
    assert!(
        reply.len() <= MAX_REPLY_BYTES,
        "{line:?}: {} bytes",
        reply.len()
    );
    assert!(!e.to_string().is_empty());
    let unknown = matches!(kind, Kind::Command { known: false, .. });
    assert_eq!(
        reply.starts_with("UNKNOWN "),
        unknown,
        "{line:?}: {reply:?}"
    );
    assert_eq!(reply.starts_with("ERROR "), !unknown, "{line:?}: {reply:?}");
}

/// Gomocup lines through the parser alone: a line completes a command exactly when the protocol
/// says so, an error answers with one clean short line (`UNKNOWN` for unknown words and
/// garbage, `ERROR` for the rest), and every command reads back from its protocol text as the
/// same command.
pub fn parser(data: &[u8]) {
    let mut parser = Parser::new();
    let mut oracle = Oracle::default();
    for line in lines(data) {
        let kind = oracle.kind(&line);
        let result = parser.feed(&line);
        assert_eq!(
            result.is_some(),
            kind.completes(),
            "{line:?}: {result:?} but the line is {kind:?}"
        );
        assert_eq!(parser.in_block(), oracle.block.is_some(), "{line:?}");
        match result {
            None => {}
            Some(Ok(command)) => {
                assert!(
                    !matches!(kind, Kind::Command { known: false, .. }),
                    "{line:?} read as {command:?}"
                );
                let text = render(&command);
                assert_eq!(
                    reparse(&text),
                    Ok(command.clone()),
                    "{line:?} read as {command:?}, written as {text:?}"
                );
            }
            Some(Err(e)) => check_error_reply(&line, &kind, &e),
        }
    }
}

/// mnk's strongest bot held to a small budget, so a session under the fuzzer never thinks long.
/// Limits from the session are kept where they are tighter.
struct Quick(Box<dyn Bot>);

impl Quick {
    fn limits(limits: &Limits) -> Limits {
        let cap = Deadline::from_now(MAX_THINK);
        let deadline = match &limits.deadline {
            Some(d) if d.remaining_ms() <= cap.remaining_ms() => d.clone(),
            _ => cap,
        };
        Limits {
            max_depth: limits.max_depth,
            max_nodes: Some(limits.max_nodes.map_or(MAX_NODES, |n| n.min(MAX_NODES))),
            deadline: Some(deadline),
            stop: limits.stop.clone(),
        }
    }
}

impl Bot for Quick {
    fn id(&self) -> &'static str {
        self.0.id()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        self.0.choose(pos, &Quick::limits(limits))
    }

    fn choose_with_info(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Choice, BotError> {
        self.0.choose_with_info(pos, &Quick::limits(limits), info)
    }
}

/// The brain's bot with a 1 MB table (the session would size it by `INFO`) and one thread
/// (whatever `INFO thread_num` says, so that a run repeats), held to a budget.
fn quick_bot(rules: &Rules, _options: BotOptions) -> Result<Box<dyn Bot>, BotError> {
    let options = BotOptions {
        hash_bytes: Some(1 << 20),
        threads: 1,
    };
    Ok(Box::new(Quick(strongest_bot(rules, options)?)))
}

/// Reads `x,y` with plain digits.
fn coord(text: &str) -> Option<Coord> {
    let (x, y) = text.split_once(',')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(x) || !digits(y) {
        return None;
    }
    Some(Coord::new(x.parse().ok()?, y.parse().ok()?))
}

/// What an answer line is, or a panic when the protocol allows no such line.
#[derive(Debug, PartialEq)]
enum Answer {
    Ok,
    Swap,
    Forbid,
    Error,
    Unknown,
    About,
    Move(Coord),
    Opening(Vec<Coord>),
}

fn answer(line: &str) -> Answer {
    assert!(
        !line.contains(['\r', '\n']),
        "{line:?} is more than one line"
    );
    match line {
        "OK" => return Answer::Ok,
        "SWAP" => return Answer::Swap,
        "FORBID ." => return Answer::Forbid,
        _ => {}
    }
    if let Some(message) = line.strip_prefix("ERROR ") {
        assert!(
            !message.starts_with("the engine cannot move"),
            "internal failure: {line:?}"
        );
        return Answer::Error;
    }
    if line.starts_with("UNKNOWN ") {
        return Answer::Unknown;
    }
    if line.starts_with("name=\"") {
        return Answer::About;
    }
    let cells: Option<Vec<Coord>> = line.split(' ').map(coord).collect();
    match cells {
        Some(cells) if cells.len() == 1 => Answer::Move(cells[0]),
        Some(cells) if cells.len() == 3 => Answer::Opening(cells),
        _ => panic!("{line:?} is no answer of the protocol"),
    }
}

/// A conversation: the input's lines (at most [`MAX_SESSION_LINES`]) fed through the parser to
/// a session. Every line gets as many answers as the protocol says, each of an allowed shape and
/// none an internal failure; a move is on the board and on a cell that was free, and the session
/// records it as the brain's stone; the session's stones stay distinct and on the board; it
/// stops at the first `END`.
pub fn session(data: &[u8]) {
    let mut parser = Parser::new();
    let mut session = Session::new(quick_bot);
    let mut oracle = Oracle::default();
    for line in lines(data).iter().take(MAX_SESSION_LINES) {
        let need = oracle.kind(line).need();
        let before: Vec<BoardStone> = session.stones().to_vec();
        let mut replies = Vec::new();
        let mut flow = Flow::Continue;
        let mut command = None;
        if let Some(parsed) = parser.feed(line) {
            command = parsed.as_ref().ok().cloned();
            let stop = Arc::new(AtomicBool::new(false));
            flow = session.handle(parsed, &stop, &mut |l: &str| replies.push(l.to_string()));
        }
        let answers: Vec<Answer> = replies
            .iter()
            .filter(|r| !r.starts_with("MESSAGE ") && !r.starts_with("DEBUG "))
            .map(|r| answer(r))
            .collect();
        match need {
            Need::Nothing | Need::Stop => {
                assert!(answers.is_empty(), "{line:?} got {replies:?}");
            }
            Need::One => assert_eq!(answers.len(), 1, "{line:?} got {replies:?}"),
            Need::AtMostOne => assert!(answers.len() <= 1, "{line:?} got {replies:?}"),
        }
        assert_eq!(flow == Flow::End, need == Need::Stop, "{line:?}");
        if flow == Flow::End {
            return;
        }
        if let (Some(Answer::Move(at)), Some(command)) = (answers.first(), &command) {
            check_move(line, command, &before, session.stones(), at);
        }
        if let Some(Answer::Opening(cells)) = answers.first() {
            let frame = session.frame().expect("an opening needs a board");
            let distinct: HashSet<&Coord> = cells.iter().collect();
            assert_eq!(distinct.len(), 3, "{line:?}: {cells:?}");
            assert!(
                cells.iter().all(|c| frame.contains(*c)),
                "{line:?}: {cells:?}"
            );
        }
        let mut seen = HashSet::new();
        for s in session.stones() {
            assert!(seen.insert(s.at), "{line:?}: {} twice in the session", s.at);
            let frame = session.frame().expect("stones need a board");
            assert!(frame.contains(s.at), "{line:?}: {} off the board", s.at);
        }
    }
}

/// A move answer: on the board, on a cell free before the command, and recorded as the brain's
/// last stone.
fn check_move(
    line: &str,
    command: &Command,
    before: &[BoardStone],
    after: &[BoardStone],
    at: &Coord,
) {
    let given: &[BoardStone] = match command {
        Command::Block {
            kind: BlockKind::Board | BlockKind::Swap2Board,
            stones,
        } => stones,
        Command::Begin | Command::Turn(_) | Command::Play(_) => before,
        other => panic!("{line:?}: a move answers {other:?}"),
    };
    assert!(
        given.iter().all(|s| s.at != *at),
        "{line:?}: the brain played {at}, which is taken"
    );
    if let Command::Turn(c) = command {
        assert_ne!(c, at, "{line:?}: the brain played on the opponent's stone");
    }
    if let Command::Play(c) = command {
        assert_eq!(c, at, "{line:?}: PLAY answered another cell");
    }
    assert_eq!(
        after.last(),
        Some(&BoardStone {
            at: *at,
            field: Field::Own
        }),
        "{line:?}: the move is not recorded"
    );
}
