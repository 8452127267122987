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
    strongest_bot, BlockKind, BoardStone, BotMaker, BotOptions, Command, Coord, Field, Flow, Info,
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
            cutoff: limits.cutoff.clone(),
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

/// What an answer line is, by its shape alone; [`fits`] says which commands it may answer.
#[derive(Debug, PartialEq)]
enum Answer {
    /// `OK`.
    Ok,
    /// `SWAP`: in swap2, the brain takes black.
    Swap,
    /// `FORBID `, black's forbidden cells (four digits each), `.`.
    Forbid(Vec<Coord>),
    /// `ERROR message`.
    Error,
    /// `UNKNOWN message`.
    Unknown,
    /// The `ABOUT` line.
    About,
    /// One move, `x,y`.
    Move(Coord),
    /// Moves on one line, as swap2 answers: two (`x1,y1 x2,y2`, placed after three stones) or
    /// three (`x1,y1 x2,y2 x3,y3`, the opener's).
    Moves(Vec<Coord>),
}

/// Reads an answer line, or panics when no answer of the protocol has its shape.
fn answer(line: &str) -> Answer {
    assert!(
        !line.contains(['\r', '\n']),
        "{line:?} is more than one line"
    );
    match line {
        "OK" => return Answer::Ok,
        "SWAP" => return Answer::Swap,
        _ => {}
    }
    if let Some(cells) = line
        .strip_prefix("FORBID ")
        .and_then(|rest| rest.strip_suffix('.'))
    {
        let cells = forbidden_cells(cells)
            .unwrap_or_else(|| panic!("{line:?} is no answer of the protocol"));
        return Answer::Forbid(cells);
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
        Some(cells) if (2..=3).contains(&cells.len()) => Answer::Moves(cells),
        _ => panic!("{line:?} is no answer of the protocol"),
    }
}

/// The cells of a `FORBID` answer: four digits each, the column then the row; `None` when the
/// text is not that.
fn forbidden_cells(text: &str) -> Option<Vec<Coord>> {
    if text.len() % 4 != 0 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = |i: usize| text[i..i + 2].parse::<u32>().ok();
    (0..text.len())
        .step_by(4)
        .map(|i| Some(Coord::new(number(i)?, number(i + 2)?)))
        .collect()
}

/// Whether the protocol allows `answer` to `command` (`None`: a line the parser refused, which
/// only `ERROR` or `UNKNOWN` answers). Any command may fail with `ERROR`; a move answers a move
/// request; swap2 (`SWAP2BOARD`, docs/gomocup.md) answers three moves on an empty board,
/// `SWAP`, one move or two moves after three stones, and `SWAP` or one move after five.
fn fits(command: Option<&Command>, answer: &Answer) -> bool {
    let Some(command) = command else {
        return matches!(answer, Answer::Error | Answer::Unknown);
    };
    match (command, answer) {
        (_, Answer::Error) => true,
        (Command::Start(_) | Command::RectStart { .. } | Command::Restart, Answer::Ok) => true,
        (Command::Takeback(_), Answer::Ok) => true,
        (Command::About, Answer::About) => true,
        (Command::ShowForbid, Answer::Forbid(_)) => true,
        (Command::Begin | Command::Turn(_) | Command::Play(_), Answer::Move(_)) => true,
        (
            Command::Block {
                kind: BlockKind::Board,
                ..
            },
            Answer::Move(_),
        ) => true,
        (
            Command::Block {
                kind: BlockKind::Swap2Board,
                stones,
            },
            answer,
        ) => match (stones.len(), answer) {
            (0, Answer::Moves(cells)) => cells.len() == 3,
            (3, Answer::Moves(cells)) => cells.len() == 2,
            (3 | 5, Answer::Swap | Answer::Move(_)) => true,
            _ => false,
        },
        _ => false,
    }
}

/// A conversation: the input's lines (at most [`MAX_SESSION_LINES`]) fed through the parser to
/// a session. Every line gets as many answers as the protocol says, each of an allowed shape and
/// none an internal failure; a move is on the board and on a cell that was free, and the session
/// records it as the brain's stone; the session's stones stay distinct and on the board; it
/// stops at the first `END`.
///
/// The bot is mnk's strongest held to [`MAX_NODES`] and [`MAX_THINK`], so what it answers can
/// depend on the machine's load (a starved search judges swap2 positions differently); the
/// checks must hold for every answer it may give.
pub fn session(data: &[u8]) {
    session_with(data, quick_bot);
}

/// [`session`] with the bots `maker` makes: the replay tests pass bots whose swap2 judgement is
/// fixed, so that each answer the protocol allows is checked on every machine.
pub fn session_with(data: &[u8], maker: impl BotMaker + 'static) {
    let mut parser = Parser::new();
    let mut session = Session::new(maker);
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
        for a in &answers {
            assert!(
                fits(command.as_ref(), a),
                "{line:?}: {replies:?} is no answer to {command:?}"
            );
        }
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
        match (answers.first(), &command) {
            (Some(Answer::Move(at)), Some(command)) => {
                check_move(line, command, &before, session.stones(), at);
            }
            (Some(Answer::Moves(cells)), Some(command)) => {
                check_moves(line, command, &session, cells);
            }
            (Some(Answer::Forbid(cells)), _) => {
                // With no board there are no forbidden points.
                let frame = session.frame();
                let distinct: HashSet<&Coord> = cells.iter().collect();
                assert_eq!(distinct.len(), cells.len(), "{line:?}: {cells:?}");
                assert!(
                    cells.iter().all(|&c| frame.is_some_and(|f| f.contains(c))),
                    "{line:?}: {cells:?}"
                );
            }
            _ => {}
        }
        let mut seen = HashSet::new();
        for s in session.stones() {
            assert!(seen.insert(s.at), "{line:?}: {} twice in the session", s.at);
            let frame = session.frame().expect("stones need a board");
            assert!(frame.contains(s.at), "{line:?}: {} off the board", s.at);
        }
    }
}

/// Swap2's moves on one line: distinct, on the board, on cells the block left free; two placed
/// stones are recorded in the session, white's (the first) as the brain's, since it keeps the
/// colour asked to move next, and black's as the opponent's.
fn check_moves(line: &str, command: &Command, session: &Session, cells: &[Coord]) {
    let Command::Block { stones, .. } = command else {
        panic!("{line:?}: {cells:?} answers {command:?}");
    };
    let frame = session.frame().expect("swap2 needs a board");
    let distinct: HashSet<&Coord> = cells.iter().collect();
    assert_eq!(distinct.len(), cells.len(), "{line:?}: {cells:?}");
    for c in cells {
        assert!(frame.contains(*c), "{line:?}: {c} is off the board");
        assert!(
            stones.iter().all(|s| s.at != *c),
            "{line:?}: the brain placed {c}, which is taken"
        );
    }
    if let [white, black] = cells {
        let placed = [
            BoardStone {
                at: *white,
                field: Field::Own,
            },
            BoardStone {
                at: *black,
                field: Field::Opponent,
            },
        ];
        assert!(
            session.stones().ends_with(&placed),
            "{line:?}: the placed stones are not recorded"
        );
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

// These run in mnk-gomocup's replay test (crates/mnk-gomocup/tests/fuzz_corpus.rs), which
// includes this file; the fuzz crate itself builds no tests.
#[cfg(test)]
mod tests {
    use super::*;

    /// The command that protocol lines make, the lines separated by `|`.
    fn command(lines: &str) -> Command {
        let lines: Vec<String> = lines.split('|').map(str::to_string).collect();
        reparse(&lines).expect("a command")
    }

    fn allowed(lines: &str, reply: &str) -> bool {
        fits(Some(&command(lines)), &answer(reply))
    }

    fn no_shape(reply: &str) -> bool {
        std::panic::catch_unwind(|| answer(reply)).is_err()
    }

    const THREE: &str = "SWAP2BOARD|7,7,1|8,8,2|6,9,1|DONE";
    const FIVE: &str = "SWAP2BOARD|7,7,1|8,8,2|6,9,1|9,9,2|5,5,1|DONE";

    #[test]
    fn every_documented_swap2_answer_is_accepted() {
        assert!(allowed("SWAP2BOARD|DONE", "7,7 9,5 3,3"));
        // After three stones: take black, take white with a move, or place two more; the last
        // is what a search starved of CPU answers, since it judges the position about even.
        for reply in ["SWAP", "6,7", "6,7 7,8", "ERROR the game is over: x"] {
            assert!(allowed(THREE, reply), "{reply}");
        }
        for reply in ["SWAP", "6,7", "ERROR x"] {
            assert!(allowed(FIVE, reply), "{reply}");
        }
        assert_eq!(
            answer("6,7 7,8"),
            Answer::Moves(vec![Coord::new(6, 7), Coord::new(7, 8)])
        );
    }

    #[test]
    fn the_other_answers_fit_their_commands() {
        for lines in ["START 15", "RECTSTART 20,10", "RESTART", "TAKEBACK 1,1"] {
            assert!(allowed(lines, "OK"), "{lines}");
        }
        for lines in ["BEGIN", "TURN 7,7", "PLAY 7,7", "BOARD|7,7,1|DONE"] {
            assert!(allowed(lines, "8,8"), "{lines}");
            assert!(allowed(lines, "ERROR the game is over: x"), "{lines}");
        }
        assert!(allowed(
            "ABOUT",
            r#"name="mnk", version="0.1.0", author="a", country="n/a""#
        ));
        assert!(allowed("YXSHOWFORBID", "FORBID ."));
        assert!(allowed("YXSHOWFORBID", "FORBID 07080709."));
        assert_eq!(
            answer("FORBID 07080709."),
            Answer::Forbid(vec![Coord::new(7, 8), Coord::new(7, 9)])
        );
        assert!(allowed(
            "YXBOARD|1,1,1|1,1,2|DONE",
            "ERROR 1,1 is listed twice"
        ));
        assert!(fits(None, &answer("UNKNOWN 'FLY' is not a command")));
        assert!(fits(None, &answer("ERROR START needs a size")));
    }

    #[test]
    fn undocumented_answers_are_rejected() {
        // Lines no command is answered with.
        for reply in [
            "",
            "7,7,1",
            "7,7  8,8",
            "7,7 8,8 9,9 10,10",
            "7,7 SWAP",
            "MOVE 7,7",
            "FORBID 0708",
            "FORBID 070.",
            "swap",
        ] {
            assert!(no_shape(reply), "{reply:?}");
        }
        // Answers of the protocol in the wrong place.
        for (lines, reply) in [
            ("SWAP2BOARD|DONE", "7,7"),
            ("SWAP2BOARD|DONE", "SWAP"),
            ("SWAP2BOARD|DONE", "7,7 8,8"),
            (THREE, "7,7 8,8 9,9"),
            (THREE, "OK"),
            (FIVE, "6,7 7,8"),
            (FIVE, "6,7 7,8 9,9"),
            ("BOARD|7,7,1|DONE", "6,7 7,8"),
            ("BOARD|7,7,1|DONE", "SWAP"),
            ("TURN 7,7", "6,7 7,8"),
            ("TURN 7,7", "OK"),
            ("BEGIN", "7,7 9,5 3,3"),
            ("YXBOARD|7,7,1|DONE", "8,8"),
            ("START 15", "7,7"),
            ("ABOUT", "OK"),
            ("YXSHOWFORBID", "7,7"),
            ("TURN 7,7", "UNKNOWN x"),
        ] {
            assert!(!allowed(lines, reply), "{lines} answered {reply}");
        }
        assert!(!fits(None, &answer("7,7")));
        assert!(!fits(None, &answer("OK")));
    }
}
