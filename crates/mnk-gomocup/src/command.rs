//! The manager's lines, parsed into typed [`Command`]s.
//!
//! Parsing is pure: a [`Parser`] takes one line at a time (without its line end) and returns the
//! command it completes, if any. Most commands fit on one line; `BOARD`, `YXBOARD` and
//! `SWAP2BOARD` open a block of `x,y,field` lines that `DONE` closes, so the parser keeps that
//! block as its only state. Command words are matched without regard to case, and a command that
//! takes no argument ignores any printable text after its word.
//!
//! Nothing but an empty line is skipped in silence: a line of spaces and tabs is empty, but a line
//! holding other control characters (NUL bytes, say) or longer than [`MAX_LINE`] is no command
//! and is answered `UNKNOWN`, like an unknown word ([`ParseError::UnknownCommand`]); a known
//! command with a bad argument is answered `ERROR` (see [`ParseError::reply`]). Inside a block
//! such a line spoils the block, which fails at its `DONE`; a block the input leaves open fails
//! too ([`Parser::finish`]). `END` is heard even inside a block, so a brain can always be stopped.

use std::fmt;

use mnk_engine::search::MAX_THREADS;

/// A cell in the protocol's coordinates: 0-based column `x` from the left and row `y` from the
/// **top**. (mnk-core counts rows from the bottom; [`crate::coords`] converts.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// Column from the left.
    pub x: u32,
    /// Row from the top.
    pub y: u32,
}

impl Coord {
    /// The cell at column `x`, row `y` counted from the top.
    #[must_use]
    pub const fn new(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Whose stone a `BOARD` line describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a stone of a winning line in a continuous game.
    WinningLine,
}

/// One line of a `BOARD`, `YXBOARD` or `SWAP2BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardStone {
    /// Where the stone is.
    pub at: Coord,
    /// Whose it is.
    pub field: Field,
}

/// The three block commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `BOARD`: set the position, then answer a move.
    Board,
    /// `YXBOARD`: set the position and answer nothing.
    YxBoard,
    /// `SWAP2BOARD`: a swap2 opening decision.
    Swap2Board,
}

impl BlockKind {
    /// The command word that opens the block.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
        }
    }
}

/// An `INFO key value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: milliseconds for one move (0 = play at once).
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds for the whole game (0 = no limit).
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left in the game (a negative number counts as 0).
    TimeLeft(u64),
    /// `max_memory`: bytes the brain may use (0 = no limit).
    MaxMemory(u64),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `rule`: bit flags, 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    Rule(u32),
    /// `evaluate x,y`: the cell under the user's mouse.
    Evaluate(Coord),
    /// `folder`: a folder for persistent files.
    Folder(String),
    /// `max_depth` (extension): greatest search depth; `None` for no limit (0 or negative).
    MaxDepth(Option<u32>),
    /// `max_node` (extension): greatest node count; `None` for no limit (0 or negative).
    MaxNode(Option<u64>),
    /// `thread_num` (extension, as Yixin board and Rapfi use it): threads per search, from 1;
    /// numbers above [`MAX_THREADS`] read as [`MAX_THREADS`].
    ThreadNum(usize),
    /// Any other key, which the specification says to ignore.
    Other {
        /// The key, lower-cased.
        key: String,
        /// The rest of the line.
        value: String,
    },
}

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n×n board.
    Start(u32),
    /// `RECTSTART w,h`: a new game on a w×h board.
    RectStart {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain answers its move.
    Turn(Coord),
    /// A `BOARD`, `YXBOARD` or `SWAP2BOARD` block, complete with its `DONE`.
    Block {
        /// Which block command.
        kind: BlockKind,
        /// Its stone lines in the order given.
        stones: Vec<BoardStone>,
    },
    /// `INFO key value`.
    Info(Info),
    /// `END`: exit at once, writing nothing more.
    End,
    /// `ABOUT`: describe the brain.
    About,
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Coord),
    /// `PLAY x,y`: the manager accepts a suggested move; the brain plays it.
    Play(Coord),
    /// `YXSTOP` or `STOP`: stop thinking and answer the best move so far.
    Stop,
    /// `YXSHOWFORBID`: list the renju-forbidden cells.
    ShowForbid,
}

impl Command {
    /// Whether the manager waits for an answer to this command (a move, `OK`, a description…).
    #[must_use]
    pub fn expects_reply(&self) -> bool {
        !matches!(
            self,
            Command::Info(_)
                | Command::End
                | Command::Stop
                | Command::Block {
                    kind: BlockKind::YxBoard,
                    ..
                }
        )
    }
}

/// Why a line could not be read as a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first word is no command of the protocol. Answered `UNKNOWN`.
    #[error("'{0}' is not a command of the Gomocup protocol")]
    UnknownCommand(String),
    /// A known command without its argument.
    #[error("{command} needs {expected}")]
    MissingArgument {
        /// The command word.
        command: &'static str,
        /// What the argument should look like.
        expected: &'static str,
    },
    /// A known command with an argument that does not read.
    #[error("{command} needs {expected}, not '{text}'")]
    BadArgument {
        /// The command word.
        command: &'static str,
        /// The argument as given.
        text: String,
        /// What the argument should look like.
        expected: &'static str,
    },
    /// A line inside a block that is neither `x,y,field` nor `DONE`.
    #[error("{block} expects lines 'x,y,field' with field 1, 2 or 3, then DONE; got '{line}'")]
    BadStoneLine {
        /// The block's command word.
        block: &'static str,
        /// The line as given.
        line: String,
    },
    /// A line holding control characters other than tabs (NUL bytes, say): garbage, not a
    /// command, whatever its words. Answered `UNKNOWN`.
    #[error("'{0}' holds control characters, so it is not a command of the Gomocup protocol")]
    ControlCharacters(String),
    /// A line longer than [`MAX_LINE`] bytes: no command is that long. Answered `UNKNOWN`.
    #[error("a line of more than {MAX_LINE} bytes is not a command of the Gomocup protocol")]
    TooLong,
    /// A `BOARD`-like block still open when the input ended.
    #[error("{} was not closed by DONE before the input ended", .0.word())]
    UnclosedBlock(BlockKind),
    /// `INFO` without a key. Reported at the next move request, like a bad value.
    #[error("INFO needs a key and a value, such as 'INFO timeout_turn 5000'")]
    MissingInfoKey,
    /// An `INFO` line for a known key whose value does not read. No reply is due for `INFO`, so
    /// the session reports it at the next move request.
    #[error("INFO {key} needs {expected}, not '{value}'")]
    BadInfoValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the value should look like.
        expected: &'static str,
    },
}

impl ParseError {
    /// Whether the manager waits for an answer to the line that failed: not for `INFO` lines,
    /// nor for a `YXBOARD` block.
    #[must_use]
    pub fn expects_reply(&self) -> bool {
        !matches!(
            self,
            ParseError::BadInfoValue { .. }
                | ParseError::MissingInfoKey
                | ParseError::UnclosedBlock(BlockKind::YxBoard)
        )
    }

    /// The protocol line that answers this error: `UNKNOWN …` for unknown commands, `ERROR …`
    /// for the rest.
    #[must_use]
    pub fn reply(&self) -> String {
        match self {
            ParseError::UnknownCommand(_)
            | ParseError::ControlCharacters(_)
            | ParseError::TooLong => format!("UNKNOWN {self}"),
            _ => format!("ERROR {self}"),
        }
    }
}

/// An open block: its kind, the stones read so far and the first bad line, if any.
#[derive(Clone, Debug)]
struct OpenBlock {
    kind: BlockKind,
    stones: Vec<BoardStone>,
    error: Option<ParseError>,
}

/// Reads the manager's lines one at a time. Its only state is an open `BOARD`-like block.
#[derive(Clone, Debug, Default)]
pub struct Parser {
    block: Option<OpenBlock>,
}

/// Longest line read, in bytes: [`crate::stdio::read_lines`] cuts longer lines just after this,
/// and [`Parser::feed`] refuses them (no command is that long, and a cut line must not pass for
/// the command it begins with).
pub const MAX_LINE: usize = 64 * 1024;

/// Longest text of a bad line repeated in an error message, so garbage cannot flood the output.
const QUOTE_LIMIT: usize = 60;

/// The text of a bad line as an error message repeats it: at most [`QUOTE_LIMIT`] characters,
/// control characters shown as `?`, so a reply is always one clean line.
fn quote(text: &str) -> String {
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let mut short: String = text.chars().take(QUOTE_LIMIT).map(clean).collect();
    if text.chars().count() > QUOTE_LIMIT {
        short.push('…');
    }
    short
}

/// Whether `c` may pad a line or make it empty: spaces (ASCII or Unicode), tabs, and the line
/// ends a caller may leave on. Every other control character is garbage.
fn is_blank(c: char) -> bool {
    matches!(c, '\t' | '\r' | '\n') || (c.is_whitespace() && !c.is_control())
}

/// Why a line cannot be a command whatever its words say, if it cannot.
fn garbage(line: &str, too_long: bool) -> Option<ParseError> {
    if too_long {
        Some(ParseError::TooLong)
    } else if line.chars().any(|c| c.is_control() && !is_blank(c)) {
        Some(ParseError::ControlCharacters(quote(line)))
    } else {
        None
    }
}

impl Parser {
    /// A parser outside any block.
    #[must_use]
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a `BOARD`-like block is open (its lines are being read).
    #[must_use]
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Reads one line (its line end already removed; stray `\r`, spaces and tabs are trimmed).
    /// Returns `None` when the line completes nothing (an empty line, or a line inside a block),
    /// else the command or the error it makes.
    pub fn feed(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        // Measured before trimming: a line cut short may have lost anything after its padding.
        let too_long = line.len() > MAX_LINE;
        let line = line.trim_matches(is_blank);
        if line.is_empty() {
            return None;
        }
        let garbage = garbage(line, too_long);
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        if self.block.is_some() {
            return self.feed_block(line, &word, garbage.is_some());
        }
        if let Some(e) = garbage {
            return Some(Err(e));
        }
        let open = |kind| OpenBlock {
            kind,
            stones: Vec::new(),
            error: None,
        };
        let command = match word.as_str() {
            "START" => parse_size("START", rest).map(Command::Start),
            "RECTSTART" => parse_pair("RECTSTART", rest, "a size 'width,height'")
                .map(|(width, height)| Command::RectStart { width, height }),
            "RESTART" => Ok(Command::Restart),
            "BEGIN" => Ok(Command::Begin),
            "TURN" => parse_coord("TURN", rest).map(Command::Turn),
            "TAKEBACK" => parse_coord("TAKEBACK", rest).map(Command::Takeback),
            "PLAY" => parse_coord("PLAY", rest).map(Command::Play),
            "BOARD" => {
                self.block = Some(open(BlockKind::Board));
                return None;
            }
            "YXBOARD" => {
                self.block = Some(open(BlockKind::YxBoard));
                return None;
            }
            "SWAP2BOARD" => {
                self.block = Some(open(BlockKind::Swap2Board));
                return None;
            }
            "INFO" => parse_info(rest).map(Command::Info),
            "END" => Ok(Command::End),
            "ABOUT" => Ok(Command::About),
            "YXSTOP" | "STOP" => Ok(Command::Stop),
            "YXSHOWFORBID" => Ok(Command::ShowForbid),
            _ => Err(ParseError::UnknownCommand(quote(line))),
        };
        Some(command)
    }

    /// Reads a line of an open block: a stone, `DONE`, or `END` (which abandons the block). A
    /// line that is neither, garbage included, fails the block at its `DONE`.
    fn feed_block(
        &mut self,
        line: &str,
        word: &str,
        garbage: bool,
    ) -> Option<Result<Command, ParseError>> {
        let block = self.block.as_mut().expect("a block is open");
        match word {
            "DONE" if !garbage => {
                let block = self.block.take().expect("a block is open");
                Some(match block.error {
                    Some(e) => Err(e),
                    None => Ok(Command::Block {
                        kind: block.kind,
                        stones: block.stones,
                    }),
                })
            }
            // END must always be heard.
            "END" if !garbage => {
                self.block = None;
                Some(Ok(Command::End))
            }
            _ => {
                match parse_stone(line).filter(|_| !garbage) {
                    Some(stone) => block.stones.push(stone),
                    None => {
                        let kind = block.kind;
                        block.error.get_or_insert_with(|| ParseError::BadStoneLine {
                            block: kind.word(),
                            line: quote(line),
                        });
                    }
                }
                None
            }
        }
    }

    /// Ends the input: the error of a block left open, if one is (`None` otherwise). The
    /// parser is then outside any block.
    pub fn finish(&mut self) -> Option<ParseError> {
        self.block.take().map(|b| ParseError::UnclosedBlock(b.kind))
    }
}

const COORD: &str = "a cell 'x,y' (0-based numbers)";

fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    let text = text.trim();
    // `u32::from_str` accepts a leading '+'; the protocol writes plain digits.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_size(command: &'static str, rest: &str) -> Result<u32, ParseError> {
    const EXPECTED: &str = "a board size (a whole number)";
    if rest.is_empty() {
        return Err(ParseError::MissingArgument {
            command,
            expected: EXPECTED,
        });
    }
    number(rest).ok_or_else(|| ParseError::BadArgument {
        command,
        text: quote(rest),
        expected: EXPECTED,
    })
}

fn split_pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((number(a)?, number(b)?))
}

fn parse_pair(
    command: &'static str,
    rest: &str,
    expected: &'static str,
) -> Result<(u32, u32), ParseError> {
    if rest.is_empty() {
        return Err(ParseError::MissingArgument { command, expected });
    }
    split_pair(rest).ok_or_else(|| ParseError::BadArgument {
        command,
        text: quote(rest),
        expected,
    })
}

fn parse_coord(command: &'static str, rest: &str) -> Result<Coord, ParseError> {
    parse_pair(command, rest, COORD).map(|(x, y)| Coord::new(x, y))
}

fn parse_stone(line: &str) -> Option<BoardStone> {
    let mut parts = line.split(',');
    let x = number(parts.next()?)?;
    let y = number(parts.next()?)?;
    let field = match parts.next()?.trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::WinningLine,
        _ => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(BoardStone {
        at: Coord::new(x, y),
        field,
    })
}

/// Reads a signed whole number; values below zero mean "no limit" or "nothing left" depending
/// on the key, so the caller decides.
fn signed(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Saturate huge values rather than refusing them: a limit of 10^30 ms is no limit.
    Some(t.parse().unwrap_or(if t.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

fn parse_info(rest: &str) -> Result<Info, ParseError> {
    let (key, value) = match rest.split_once(char::is_whitespace) {
        Some((k, v)) => (k, v.trim()),
        None => (rest, ""),
    };
    if key.is_empty() {
        return Err(ParseError::MissingInfoKey);
    }
    let key = key.to_ascii_lowercase();
    let bad = |expected: &'static str| ParseError::BadInfoValue {
        key: key.clone(),
        value: quote(value),
        expected,
    };
    const MS: &str = "milliseconds (a whole number)";
    let non_negative = |expected| {
        signed(value)
            .filter(|&v| v >= 0)
            .map(|v| v as u64)
            .ok_or_else(|| bad(expected))
    };
    let info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(non_negative(MS)?),
        "timeout_match" => Info::TimeoutMatch(non_negative(MS)?),
        "time_left" => Info::TimeLeft(signed(value).ok_or_else(|| bad(MS))?.max(0) as u64),
        "max_memory" => Info::MaxMemory(non_negative("bytes (a whole number)")?),
        "game_type" => {
            Info::GameType(number(value).ok_or_else(|| bad("0, 1, 2 or 3 (the kind of game)"))?)
        }
        "rule" => Info::Rule(number(value).ok_or_else(|| bad("bit flags (a whole number)"))?),
        "evaluate" => {
            let (x, y) = split_pair(value).ok_or_else(|| bad(COORD))?;
            Info::Evaluate(Coord::new(x, y))
        }
        "folder" => Info::Folder(value.to_string()),
        "max_depth" => {
            let d = signed(value).ok_or_else(|| bad("a depth (a whole number)"))?;
            Info::MaxDepth((d > 0).then(|| d.min(i64::from(u32::MAX)) as u32))
        }
        "max_node" => {
            let n = signed(value).ok_or_else(|| bad("a node count (a whole number)"))?;
            Info::MaxNode((n > 0).then_some(n as u64))
        }
        "thread_num" => {
            let n = signed(value)
                .filter(|&n| n >= 1)
                .ok_or_else(|| bad("a number of threads (a whole number, 1 or more)"))?;
            Info::ThreadNum(n.min(MAX_THREADS as i64) as usize)
        }
        _ => Info::Other {
            key,
            value: value.to_string(),
        },
    };
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Result<Command, ParseError> {
        Parser::new().feed(line).expect("a command")
    }

    #[test]
    fn words_are_case_insensitive_and_arguments_trimmed() {
        assert_eq!(one("start 15"), Ok(Command::Start(15)));
        assert_eq!(one("  StArT   20 \r"), Ok(Command::Start(20)));
        assert_eq!(
            one("rectstart 20, 10"),
            Ok(Command::RectStart {
                width: 20,
                height: 10
            })
        );
        assert_eq!(one("turn 7,8"), Ok(Command::Turn(Coord::new(7, 8))));
        assert_eq!(one("Yxstop"), Ok(Command::Stop));
        assert_eq!(one("stop"), Ok(Command::Stop));
        assert_eq!(one("BEGIN please"), Ok(Command::Begin));
    }

    #[test]
    fn empty_lines_complete_nothing() {
        let mut p = Parser::new();
        assert_eq!(p.feed(""), None);
        assert_eq!(p.feed(" \r "), None);
        assert_eq!(p.feed("\t \t"), None);
    }

    #[test]
    fn control_garbage_is_answered_unknown() {
        for line in [
            "\0",
            "\0\0\0",
            "\x01\x02",
            "\x0c",
            "ABOUT \0",
            "\0START 15",
            "\x7f",
        ] {
            let e = one(line).unwrap_err();
            assert!(matches!(e, ParseError::ControlCharacters(_)), "{line:?}");
            assert!(e.expects_reply());
            assert!(e.reply().starts_with("UNKNOWN '"), "{}", e.reply());
            assert!(!e.reply().contains('\0'));
        }
        assert_eq!(
            one("\0\0").unwrap_err().reply(),
            "UNKNOWN '??' holds control characters, so it is not a command of the Gomocup protocol"
        );
        // A trailing NUL spoils an argument too.
        assert!(matches!(
            one("START 15\0"),
            Err(ParseError::ControlCharacters(_))
        ));
    }

    #[test]
    fn an_overlong_line_is_no_command() {
        let long = format!("TURN 7,7{}", " ".repeat(MAX_LINE));
        let e = one(&long).unwrap_err();
        assert_eq!(e, ParseError::TooLong);
        assert!(e.reply().starts_with("UNKNOWN "));
    }

    #[test]
    fn garbage_inside_a_block_fails_it() {
        let mut p = Parser::new();
        p.feed("BOARD");
        assert_eq!(p.feed("7,7,1\0"), None);
        assert_eq!(
            p.feed("DONE \x01"),
            None,
            "a garbled DONE does not close the block"
        );
        assert_eq!(p.feed("END \x01"), None, "a garbled END is no END");
        assert!(p.in_block());
        assert!(matches!(
            p.feed("DONE"),
            Some(Err(ParseError::BadStoneLine { block: "BOARD", .. }))
        ));
    }

    #[test]
    fn a_block_left_open_fails_at_the_end_of_input() {
        let mut p = Parser::new();
        assert_eq!(p.finish(), None);
        p.feed("BOARD");
        p.feed("7,7,1");
        let e = p.finish().unwrap();
        assert_eq!(e, ParseError::UnclosedBlock(BlockKind::Board));
        assert_eq!(
            e.reply(),
            "ERROR BOARD was not closed by DONE before the input ended"
        );
        assert!(e.expects_reply());
        assert!(!p.in_block());
        p.feed("YXBOARD");
        assert!(!p.finish().unwrap().expects_reply());
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        assert!(matches!(
            one("START"),
            Err(ParseError::MissingArgument {
                command: "START",
                ..
            })
        ));
        assert!(matches!(
            one("START -5"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(one("TURN 7"), Err(ParseError::BadArgument { .. })));
        assert!(matches!(
            one("TURN -1,3"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            one("TURN 99999999999,3"),
            Err(ParseError::BadArgument { .. })
        ));
        assert_eq!(
            one("HELLO world"),
            Err(ParseError::UnknownCommand("HELLO world".into()))
        );
        assert!(one("HELLO").unwrap_err().reply().starts_with("UNKNOWN "));
        assert!(one("TURN x").unwrap_err().reply().starts_with("ERROR "));
    }

    #[test]
    fn blocks_collect_stones_until_done() {
        let mut p = Parser::new();
        assert_eq!(p.feed("board"), None);
        assert!(p.in_block());
        assert_eq!(p.feed("7,7,1"), None);
        assert_eq!(p.feed(""), None);
        assert_eq!(p.feed("8,8,2"), None);
        assert_eq!(p.feed("9,9,3"), None);
        let done = p.feed("done").unwrap().unwrap();
        assert_eq!(
            done,
            Command::Block {
                kind: BlockKind::Board,
                stones: vec![
                    BoardStone {
                        at: Coord::new(7, 7),
                        field: Field::Own
                    },
                    BoardStone {
                        at: Coord::new(8, 8),
                        field: Field::Opponent
                    },
                    BoardStone {
                        at: Coord::new(9, 9),
                        field: Field::WinningLine
                    },
                ]
            }
        );
        assert!(!p.in_block());
    }

    #[test]
    fn a_bad_block_line_fails_the_block_at_done() {
        let mut p = Parser::new();
        p.feed("YXBOARD");
        assert_eq!(p.feed("7,7,4"), None);
        assert_eq!(p.feed("TURN 3,3"), None);
        assert!(matches!(
            p.feed("DONE"),
            Some(Err(ParseError::BadStoneLine {
                block: "YXBOARD",
                ..
            }))
        ));
        assert!(!p.in_block());
    }

    #[test]
    fn end_is_heard_inside_a_block() {
        let mut p = Parser::new();
        p.feed("SWAP2BOARD");
        p.feed("1,1,1");
        assert_eq!(p.feed("end"), Some(Ok(Command::End)));
        assert!(!p.in_block());
    }

    #[test]
    fn info_keys() {
        let info = |l: &str| match one(l) {
            Ok(Command::Info(i)) => Ok(i),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(info("INFO timeout_turn 5000"), Ok(Info::TimeoutTurn(5000)));
        assert_eq!(info("info TIMEOUT_MATCH 0"), Ok(Info::TimeoutMatch(0)));
        assert_eq!(info("INFO time_left -20"), Ok(Info::TimeLeft(0)));
        assert_eq!(
            info("INFO time_left 99999999999999999999999"),
            Ok(Info::TimeLeft(i64::MAX as u64))
        );
        assert_eq!(
            info("INFO max_memory 367001600"),
            Ok(Info::MaxMemory(367_001_600))
        );
        assert_eq!(info("INFO game_type 1"), Ok(Info::GameType(1)));
        assert_eq!(info("INFO rule 1"), Ok(Info::Rule(1)));
        assert_eq!(
            info("INFO evaluate 3,4"),
            Ok(Info::Evaluate(Coord::new(3, 4)))
        );
        assert_eq!(
            info("INFO folder C:\\my files\\x"),
            Ok(Info::Folder("C:\\my files\\x".into()))
        );
        assert_eq!(info("INFO max_depth 12"), Ok(Info::MaxDepth(Some(12))));
        assert_eq!(info("INFO max_depth -1"), Ok(Info::MaxDepth(None)));
        assert_eq!(info("INFO max_node 0"), Ok(Info::MaxNode(None)));
        assert_eq!(
            info("INFO caution_factor 4"),
            Ok(Info::Other {
                key: "caution_factor".into(),
                value: "4".into()
            })
        );
        assert_eq!(info("INFO thread_num 4"), Ok(Info::ThreadNum(4)));
        assert_eq!(info("info THREAD_NUM 1"), Ok(Info::ThreadNum(1)));
        assert_eq!(
            info("INFO thread_num 100000000000000000000"),
            Ok(Info::ThreadNum(MAX_THREADS))
        );
        for garbage in ["0", "-2", "two", "2.5", "", "4 4", "0x4", "+", "\u{0662}"] {
            let e = info(&format!("INFO thread_num {garbage}")).unwrap_err();
            assert!(
                matches!(&e, ParseError::BadInfoValue { key, .. } if key == "thread_num"),
                "{garbage}: {e:?}"
            );
            assert!(!e.expects_reply());
            let reply = e.reply();
            assert!(
                reply.starts_with("ERROR INFO thread_num needs a number of threads"),
                "{reply}"
            );
        }
        let e = info("INFO").unwrap_err();
        assert_eq!(e, ParseError::MissingInfoKey);
        assert!(!e.expects_reply());
        let e = info("INFO timeout_turn soon").unwrap_err();
        assert!(!e.expects_reply());
        assert!(matches!(e, ParseError::BadInfoValue { .. }));
    }

    #[test]
    fn which_commands_expect_a_reply() {
        assert!(one("ABOUT").unwrap().expects_reply());
        assert!(!one("INFO rule 0").unwrap().expects_reply());
        assert!(!one("END").unwrap().expects_reply());
        assert!(!one("YXSTOP").unwrap().expects_reply());
    }

    #[test]
    fn long_garbage_is_quoted_briefly() {
        let long = "x".repeat(10_000);
        let reply = one(&long).unwrap_err().reply();
        assert!(reply.len() < 200, "{}", reply.len());
    }
}
