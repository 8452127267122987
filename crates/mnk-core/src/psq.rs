//! Piskvork's `.psq` game files, read and written.
//!
//! Piskvork, the gomoku manager that runs Gomocup, saves a game as text (its `openPsq` and
//! `savePsq` in `source/game.cpp` of Petr Laštovička's Piskvork; Gomocup's game archives are in
//! this format):
//!
//! ```text
//! Piskvorky 20x20, 11:11, 0
//! 10,10,1012
//! 11,9,500
//! pbrain-first.exe
//! pbrain-second.exe
//! -1
//! ```
//!
//! - The header names the board, **width `x` height**, then fields this module ignores: each
//!   player's computer level (`0` is a human) and which of the two players began (`0` or `1`).
//! - Then one move per line, oldest first, as `x,y,time`: **1-based**, counted from the
//!   **top-left** corner (Piskvork draws row 1 at the top), and the thinking time in milliseconds,
//!   which is optional and ignored. Moves alternate, the first player's first.
//! - After the moves, anything that is not a move: the engines' file names, a result code.
//!
//! So psq `x,y` is the Gomocup protocol's 0-based, top-left `x-1,y-1`, and the mnk-core cell
//! `(x-1, height-y)`, whose rows count from the bottom (`a1` is the bottom-left corner) — the same
//! flip as `mnk-gomocup/src/coords.rs`. `h8` on 15×15 is `8,8` in a psq file; `a15` is `1,1`.
//!
//! Reading is lenient where real files differ: CRLF or LF, a byte-order mark, blank lines, a
//! header without the fields after the size, moves without a time, any trailer. It is strict
//! where a silent guess would change the game: a board mnk does not play (sides 1 to
//! [`MAX_SIDE`]), a move off the board or on a taken cell, and a move after the trailer began
//! (moves never resume once something else came, so such a line means a damaged file).
//! Piskvork allows rectangular boards, and so does this module. The file holds no k: a game read
//! from one is five in a row unless the caller says otherwise ([`Psq::rules`]).
//!
//! Writing produces what Piskvork itself saves from its window, with CRLF line ends: the header
//! with both players human (`0:0`, so opening the file starts no engine) and the first player
//! beginning, one `x,y,0` line per move, then the result code `-1` ("unknown").

use std::fmt;
use std::str::FromStr;

use crate::cell::Cell;
use crate::position::Position;
use crate::rules::{Rules, RulesError, MAX_SIDE};

/// The k of a game read from a psq file when the caller gives no rules: five in a row.
pub const PSQ_K: u32 = 5;

/// A game as a `.psq` file holds it: the board's size and the moves, which are on the board and
/// on distinct cells (both checked when the file is read or the game converted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Psq {
    width: u32,
    height: u32,
    moves: Vec<Cell>,
}

/// Why a `.psq` file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PsqError {
    /// The first line (blank lines aside) is not a `Piskvorky WxH` header.
    Header {
        /// The line found instead, shortened (empty when the file is).
        found: String,
    },
    /// The header's board has a side of zero or larger than [`MAX_SIDE`].
    BoardSize {
        /// Columns, as written (saturated at `u64::MAX`).
        width: u64,
        /// Rows, as written (saturated at `u64::MAX`).
        height: u64,
    },
    /// A move is outside the board.
    OffBoard {
        /// Which move, from 0.
        index: usize,
        /// Its line in the file, from 1.
        line: usize,
        /// Its column as written (1-based from the left).
        x: i64,
        /// Its row as written (1-based from the top).
        y: i64,
    },
    /// A move is on a cell an earlier move took.
    Taken {
        /// Which move, from 0.
        index: usize,
        /// Its line in the file, from 1.
        line: usize,
        /// The cell, in mnk's notation.
        cell: Cell,
        /// The earlier move on that cell, from 0.
        earlier: usize,
    },
    /// A move line comes after a line that ended the moves (a damaged or hand-edited file).
    MoveAfterEnd {
        /// The move's line, from 1.
        line: usize,
        /// The line that ended the moves, from 1.
        end: usize,
    },
}

impl PsqError {
    /// The move the error is about, from 0, where there is one.
    #[must_use]
    pub fn index(&self) -> Option<usize> {
        match self {
            PsqError::OffBoard { index, .. } | PsqError::Taken { index, .. } => Some(*index),
            _ => None,
        }
    }
}

impl fmt::Display for PsqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PsqError::Header { found } if found.is_empty() => write!(
                f,
                "the file is empty: a .psq file starts with a line such as 'Piskvorky 20x20, 11:11, 0'"
            ),
            PsqError::Header { found } => write!(
                f,
                "'{found}' is not a .psq header: the first line must be like 'Piskvorky 20x20, 11:11, 0'"
            ),
            PsqError::BoardSize { width, height } => write!(
                f,
                "the file is for a {width}x{height} board: mnk plays boards of 1 to {MAX_SIDE} cells a side"
            ),
            PsqError::OffBoard { index, line, x, y } => write!(
                f,
                "line {line}: move {} at {x},{y} is off the board (psq coordinates count from 1,1 at the top left)",
                index + 1
            ),
            PsqError::Taken {
                index,
                line,
                cell,
                earlier,
            } => write!(
                f,
                "line {line}: move {} is on {cell}, already taken by move {}",
                index + 1,
                earlier + 1
            ),
            PsqError::MoveAfterEnd { line, end } => write!(
                f,
                "line {line} is a move, but the moves ended at line {end}: remove the lines in between or the move"
            ),
        }
    }
}

impl std::error::Error for PsqError {}

/// The longest piece of a bad header quoted in an error.
const QUOTE_CHARS: usize = 40;

fn quote(line: &str) -> String {
    let mut quoted: String = line.chars().take(QUOTE_CHARS).collect();
    if line.chars().count() > QUOTE_CHARS {
        quoted.push('…');
    }
    quoted
}

/// A decimal number as written (an optional sign, then digits), saturated to the type's range;
/// `None` when the text is not one.
fn number(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.parse::<i64>().unwrap_or(i64::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// The board size of a header line (`Piskvorky 20x20, 11:11, 0`); the fields after the size are
/// not read.
fn header(line: &str) -> Result<(u32, u32), PsqError> {
    let bad = || PsqError::Header { found: quote(line) };
    let name = "piskvorky";
    let rest = line
        .get(..name.len())
        .filter(|start| start.eq_ignore_ascii_case(name))
        .map(|_| &line[name.len()..])
        .ok_or_else(bad)?;
    if !rest.starts_with(char::is_whitespace) {
        return Err(bad());
    }
    let size = rest
        .trim_start()
        .split([',', ' ', '\t'])
        .next()
        .unwrap_or("");
    let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |text: &str| {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        Ok(text.parse::<u64>().unwrap_or(u64::MAX))
    };
    let (width, height) = (side(w)?, side(h)?);
    let fits = |side: u64| (1..=u64::from(MAX_SIDE)).contains(&side);
    if fits(width) && fits(height) {
        Ok((width as u32, height as u32))
    } else {
        Err(PsqError::BoardSize { width, height })
    }
}

/// A move line, `x,y` or `x,y,time`, as the numbers written; `None` for any other line.
fn move_line(line: &str) -> Option<(i64, i64)> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if !(2..=3).contains(&fields.len()) {
        return None;
    }
    let numbers: Vec<i64> = fields.iter().map(|f| number(f)).collect::<Option<_>>()?;
    Some((numbers[0], numbers[1]))
}

impl Psq {
    /// The game of a position on a bounded board; `None` on the unbounded board, which a psq
    /// file cannot hold, and for a set-up position ([`Position::setup_stones`]), whose stones a
    /// psq file's alternating moves cannot give to the right players.
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<Psq> {
        if pos.setup_stones() > 0 {
            return None;
        }
        let (width, height) = pos.rules().size()?;
        Some(Psq {
            width,
            height,
            moves: pos.history().to_vec(),
        })
    }

    /// Columns of the board.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows of the board.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The moves, oldest first, as mnk-core cells (rows from the bottom).
    #[must_use]
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// The rules a psq file implies, since it names no k: five in a row (k = [`PSQ_K`], or the
    /// longer side on a smaller board), freestyle, the first player X, on the file's board.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        Rules::bounded(
            self.width,
            self.height,
            PSQ_K.min(self.width.max(self.height)),
        )
    }

    /// The psq coordinates (1-based, from the top left) of an on-board cell.
    fn coords(&self, cell: Cell) -> (i64, i64) {
        (
            i64::from(cell.x) + 1,
            i64::from(self.height) - i64::from(cell.y),
        )
    }

    /// The cell at psq coordinates, if they are on the board.
    fn cell(&self, x: i64, y: i64) -> Option<Cell> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        ((1..=w).contains(&x) && (1..=h).contains(&y))
            .then(|| Cell::new((x - 1) as i32, (h - y) as i32))
    }
}

impl FromStr for Psq {
    type Err = PsqError;

    /// Reads a psq file (see the module documentation).
    fn from_str(text: &str) -> Result<Psq, PsqError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty());
        let first = lines.next().map_or("", |(_, line)| line);
        let (width, height) = header(first)?;
        let mut psq = Psq {
            width,
            height,
            moves: Vec::new(),
        };
        // Which move took each cell, row-major from the bottom left.
        let mut taken: Vec<Option<usize>> = vec![None; width as usize * height as usize];
        let mut end = None;
        for (line_no, line) in lines {
            let Some((x, y)) = move_line(line) else {
                end.get_or_insert(line_no);
                continue;
            };
            if let Some(end) = end {
                return Err(PsqError::MoveAfterEnd { line: line_no, end });
            }
            let index = psq.moves.len();
            let cell = psq.cell(x, y).ok_or(PsqError::OffBoard {
                index,
                line: line_no,
                x,
                y,
            })?;
            let slot = &mut taken[cell.y as usize * width as usize + cell.x as usize];
            if let Some(earlier) = *slot {
                return Err(PsqError::Taken {
                    index,
                    line: line_no,
                    cell,
                    earlier,
                });
            }
            *slot = Some(index);
            psq.moves.push(cell);
        }
        Ok(psq)
    }
}

impl fmt::Display for Psq {
    /// Writes the file as Piskvork saves one (see the module documentation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piskvorky {}x{}, 0:0, 0\r\n", self.width, self.height)?;
        for &cell in &self.moves {
            let (x, y) = self.coords(cell);
            write!(f, "{x},{y},0\r\n")?;
        }
        write!(f, "-1\r\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn read(text: &str) -> Result<Psq, PsqError> {
        text.parse()
    }

    #[test]
    fn rows_count_from_the_top_and_from_one() {
        let psq = read("Piskvorky 15x10, 0:0, 0\n1,1,0\n15,10,0\n8,3\n").unwrap();
        assert_eq!((psq.width(), psq.height()), (15, 10));
        // 1,1 is the top-left corner, a10 on a board ten rows tall; 15,10 the bottom-right, o1.
        let names: Vec<String> = psq.moves().iter().map(ToString::to_string).collect();
        assert_eq!(names, ["a10", "o1", "h8"]);
        // h8 is the centre of 15x15 either way up.
        let centre = read("Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n").unwrap();
        assert_eq!(centre.moves(), ["h8".parse::<Cell>().unwrap()]);
    }

    #[test]
    fn positions_write_as_piskvork_saves() {
        let mut pos = Position::new(Preset::Gomoku15.rules());
        for cell in ["a15", "o1", "h8"] {
            pos.play(cell.parse().unwrap());
        }
        let psq = Psq::from_position(&pos).unwrap();
        assert_eq!(
            psq.to_string(),
            "Piskvorky 15x15, 0:0, 0\r\n1,1,0\r\n15,15,0\r\n8,8,0\r\n-1\r\n"
        );
        assert_eq!(read(&psq.to_string()), Ok(psq));
        assert_eq!(
            Psq::from_position(&Position::new(Preset::Unbounded.rules())),
            None
        );
    }

    #[test]
    fn real_files_vary() {
        // A byte-order mark, CRLF, blank lines, spaces, no times, a header without the levels,
        // and a trailer of engine names and a result code.
        let text = "\u{feff}\r\n  piskvorky 20X20\r\n10,10\r\n\r\n 11 , 9 , 250 \r\n+12,-0,7\r\npbrain-a.exe\r\npbrain-b.exe\r\n-1\r\n";
        let err = read(text).unwrap_err();
        // -0 is row 0: off the board, caught before the trailer.
        assert_eq!(
            err,
            PsqError::OffBoard {
                index: 2,
                line: 6,
                x: 12,
                y: 0
            }
        );
        let psq = read(&text.replace("+12,-0,7", "12,8,7")).unwrap();
        assert_eq!(psq.moves().len(), 3);
        assert_eq!(psq.moves()[0], Cell::new(9, 10));
        assert_eq!(psq.rules(), Rules::bounded(20, 20, 5));
        // An empty game and a board smaller than five.
        let tiny = read("Piskvorky 3x3, 0:0, 0\n-1\n").unwrap();
        assert!(tiny.moves().is_empty());
        assert_eq!(tiny.rules(), Ok(Preset::TicTacToe.rules()));
    }

    #[test]
    fn damaged_files_say_what_is_wrong() {
        let header = |text: &str| matches!(read(text), Err(PsqError::Header { .. }));
        for bad in [
            "",
            "\n\n",
            "Piskvork 20x20, 11:11, 0",
            "Piskvorky20x20",
            "Piskvorky 20",
            "Piskvorky 20x",
            "Piskvorky x20",
            "Piskvorky -3x20",
            "10,10,0\nPiskvorky 20x20",
        ] {
            assert!(header(bad), "{bad:?}");
        }
        assert_eq!(
            read("Piskvorky 40x20, 11:11, 0").unwrap_err(),
            PsqError::BoardSize {
                width: 40,
                height: 20
            }
        );
        assert_eq!(
            read("Piskvorky 0x99999999999999999999999").unwrap_err(),
            PsqError::BoardSize {
                width: 0,
                height: u64::MAX
            }
        );
        let off = read("Piskvorky 15x15\n16,1,0").unwrap_err();
        assert_eq!(off.index(), Some(0));
        assert!(off.to_string().contains("16,1"), "{off}");
        let huge = read("Piskvorky 15x15\n1,99999999999999999999999,0").unwrap_err();
        assert!(matches!(huge, PsqError::OffBoard { y: i64::MAX, .. }));
        let taken = read("Piskvorky 15x15\n8,8,0\n9,9,0\n8,8,0").unwrap_err();
        assert_eq!(
            taken,
            PsqError::Taken {
                index: 2,
                line: 4,
                cell: Cell::new(7, 7),
                earlier: 0
            }
        );
        assert!(taken.to_string().contains("h8"), "{taken}");
        let resumed = read("Piskvorky 15x15\n8,8,0\nbrain.exe\n9,9,0\n").unwrap_err();
        assert_eq!(resumed, PsqError::MoveAfterEnd { line: 4, end: 3 });
        for e in [off, taken, resumed] {
            assert!(!e.to_string().is_empty());
        }
        let long = read(&format!("{}\n", "z".repeat(500))).unwrap_err();
        assert!(long.to_string().len() < 200, "{long}");
    }
}
