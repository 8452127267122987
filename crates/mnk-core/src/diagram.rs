//! Positions as ASCII diagrams, for people and for tests.
//!
//! A bounded board prints with column letters on top and row numbers on the left, the top row
//! first:
//!
//! ```text
//!   a b c
//! 3 . O X
//! 2 O X .
//! 1 X . .
//! ```
//!
//! The unbounded board prints the stones' bounding box with a margin of one cell, after a line
//! `@ x,y` that gives the coordinates of the top-left cell of the picture. Stones spread wider
//! than [`MAX_PICTURE_SPAN`] print as a list (`stones: X 0,0, O 5000,3`) instead, which is not
//! read back.
//!
//! Parsing accepts the same text, with or without the labels and with or without spaces between
//! cells (`X.O`). Since a diagram does not say in which order the stones came, the history is
//! rebuilt by alternating the two players' stones; a finished game's winning stone comes last.

use std::fmt;

use crate::cell::{column_name, Cell};
use crate::player::Player;
use crate::position::Position;
use crate::rules::{Board, Rules};
use crate::setup::SetupError;

/// Why a diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramError {
    /// A row holds something other than `.`, `X` or `O`.
    BadCharacter {
        /// 1-based line of the diagram.
        line: usize,
        /// The offending character.
        found: char,
    },
    /// The rows do not match the board's size.
    WrongShape(String),
    /// The stones read cannot be put together into a position (counts that alternating moves
    /// never reach, or a position no game reaches).
    Setup(SetupError),
    /// The `@ x,y` origin line is malformed or used on a bounded board.
    BadOrigin(String),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::BadCharacter { line, found } => {
                write!(
                    f,
                    "line {line}: '{found}' is not a cell (use '.', 'X' or 'O')"
                )
            }
            DiagramError::WrongShape(why) => write!(f, "the diagram does not fit the board: {why}"),
            DiagramError::Setup(e) => write!(f, "{e}"),
            DiagramError::BadOrigin(text) => write!(
                f,
                "bad origin line '{text}': write '@ x,y' (unbounded boards only)"
            ),
        }
    }
}

impl std::error::Error for DiagramError {}

impl From<SetupError> for DiagramError {
    fn from(e: SetupError) -> DiagramError {
        DiagramError::Setup(e)
    }
}

/// The widest span of stones on the unbounded board that prints as a picture.
pub const MAX_PICTURE_SPAN: i32 = 200;

fn cell_width(rules: &Rules) -> usize {
    rules.size().map_or(1, |(w, _)| column_name(w - 1).len())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let symbol = |c: Cell| self.stone(c).map_or('.', Player::symbol);
        match self.rules().size() {
            Some((width, height)) => {
                let label = height.to_string().len();
                let cw = cell_width(self.rules());
                write!(f, "{:label$}", "")?;
                for x in 0..width {
                    write!(f, " {:>cw$}", column_name(x))?;
                }
                writeln!(f)?;
                for y in (0..height as i32).rev() {
                    write!(f, "{:>label$}", y + 1)?;
                    for x in 0..width as i32 {
                        write!(f, " {:>cw$}", symbol(Cell::new(x, y)))?;
                    }
                    writeln!(f)?;
                }
                Ok(())
            }
            None => {
                let (lo, hi) = self
                    .stone_bounds()
                    .unwrap_or((Cell::new(0, 0), Cell::new(0, 0)));
                if hi.x - lo.x > MAX_PICTURE_SPAN || hi.y - lo.y > MAX_PICTURE_SPAN {
                    // Too wide to draw: list the stones instead of a picture of mostly empty cells.
                    let stones: Vec<String> = self
                        .stones()
                        .map(|(c, p)| format!("{p} {},{}", c.x, c.y))
                        .collect();
                    return writeln!(f, "stones: {}", stones.join(", "));
                }
                let (lo, hi) = if self.ply() == 0 {
                    (lo, hi)
                } else {
                    (lo.offset(-1, -1, 1), hi.offset(1, 1, 1))
                };
                writeln!(f, "@ {},{}", lo.x, hi.y)?;
                for y in (lo.y..=hi.y).rev() {
                    let row: Vec<String> = (lo.x..=hi.x)
                        .map(|x| symbol(Cell::new(x, y)).to_string())
                        .collect();
                    writeln!(f, "{}", row.join(" "))?;
                }
                Ok(())
            }
        }
    }
}

/// One row of a diagram: its cells, read left to right.
fn parse_row(line_no: usize, line: &str) -> Result<Vec<Option<Player>>, DiagramError> {
    let mut tokens: Vec<&str> = line.split_whitespace().collect();
    let is_number = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if tokens.first().is_some_and(|t| is_number(t)) {
        tokens.remove(0);
    }
    if tokens.last().is_some_and(|t| is_number(t)) {
        tokens.pop();
    }
    tokens
        .concat()
        .chars()
        .map(|ch| match ch {
            '.' => Ok(None),
            'X' | 'x' => Ok(Some(Player::X)),
            'O' | 'o' => Ok(Some(Player::O)),
            found => Err(DiagramError::BadCharacter {
                line: line_no,
                found,
            }),
        })
        .collect()
}

/// A diagram read as text, before any rules are applied: the `@ x,y` origin, if given, and the
/// rows from the top, all of one length.
struct Picture {
    origin: Option<Cell>,
    rows: Vec<Vec<Option<Player>>>,
}

impl Picture {
    /// Reads the lines of a diagram; an origin line is refused unless `origin_allowed`.
    fn read(text: &str, origin_allowed: bool) -> Result<Picture, DiagramError> {
        let mut origin = None;
        let mut rows = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('@') {
                if !origin_allowed {
                    return Err(DiagramError::BadOrigin(line.to_string()));
                }
                origin = Some(parse_origin(line)?);
                continue;
            }
            if line.split_whitespace().next() == Some("a") {
                continue; // the column header
            }
            rows.push(parse_row(i + 1, line)?);
        }
        let width = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|r| r.len() != width) {
            return Err(DiagramError::WrongShape(
                "rows have different lengths".into(),
            ));
        }
        Ok(Picture { origin, rows })
    }
}

fn parse_origin(text: &str) -> Result<Cell, DiagramError> {
    let bad = || DiagramError::BadOrigin(text.to_string());
    let (x, y) = text
        .trim_start_matches('@')
        .trim()
        .split_once(',')
        .ok_or_else(bad)?;
    let origin = Cell::new(
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    );
    // Within the coordinate limit, so that cells counted from it cannot overflow.
    origin.in_range().then_some(origin).ok_or_else(bad)
}

impl Position {
    /// Reads a diagram (see the module documentation) as a position under `rules`.
    ///
    /// ```
    /// use mnk_core::{Player, Position, Preset};
    /// let pos = Position::from_diagram(Preset::TicTacToe.rules(), "
    ///     X . .
    ///     . O .
    ///     . . X
    /// ").unwrap();
    /// assert_eq!(pos.to_move(), Player::O);
    /// ```
    pub fn from_diagram(rules: Rules, text: &str) -> Result<Position, DiagramError> {
        let Picture { origin, rows } = Picture::read(text, !rules.is_bounded())?;
        let width = rows.first().map_or(0, Vec::len);
        let top_left = match rules.size() {
            Some((w, h)) => {
                if rows.len() != h as usize || width != w as usize {
                    return Err(DiagramError::WrongShape(format!(
                        "expected {h} rows of {w} cells, found {} rows of {width}",
                        rows.len()
                    )));
                }
                Cell::new(0, h as i32 - 1)
            }
            None => origin.unwrap_or(Cell::new(0, 0)),
        };
        let mut stones: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        for (r, row) in rows.iter().enumerate() {
            for (c, stone) in row.iter().enumerate() {
                if let Some(p) = stone {
                    let cell = Cell::new(top_left.x + c as i32, top_left.y - r as i32);
                    if !rules.contains(cell) {
                        return Err(DiagramError::WrongShape(format!("{cell} is out of range")));
                    }
                    stones[p.index()].push(cell);
                }
            }
        }
        Ok(Position::from_stones(
            rules,
            &stones[Player::X.index()],
            &stones[Player::O.index()],
        )?)
    }

    /// The board a diagram draws, for reading one whose rules are not known: the unbounded board
    /// when it has an `@ x,y` origin line, otherwise a bounded board as wide and tall as its rows.
    /// Pass rules for that board to [`Position::from_diagram`] to read the position.
    ///
    /// ```
    /// use mnk_core::{Board, Position};
    /// let board = Position::diagram_board("  a b c d\n2 X . O .\n1 . X . .").unwrap();
    /// assert_eq!(board, Board::Bounded { width: 4, height: 2 });
    /// assert_eq!(Position::diagram_board("@ -3,2\nX O").unwrap(), Board::Unbounded);
    /// ```
    pub fn diagram_board(text: &str) -> Result<Board, DiagramError> {
        let Picture { origin, rows } = Picture::read(text, true)?;
        if origin.is_some() {
            return Ok(Board::Unbounded);
        }
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 {
            return Err(DiagramError::WrongShape(
                "there are no rows of '.', 'X' and 'O'".into(),
            ));
        }
        let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(Board::Bounded {
            width: side(width),
            height: side(rows.len()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;
    use crate::rules::Preset;

    #[test]
    fn diagrams_print_and_parse() {
        let rules = Rules::bounded(4, 3, 3).unwrap();
        let pos = Position::from_diagram(rules, "X . O .\n. X . .\n. . . .").unwrap();
        assert_eq!(
            pos.to_string(),
            "  a b c d\n3 X . O .\n2 . X . .\n1 . . . .\n"
        );
        assert_eq!(
            Position::from_diagram(rules, &pos.to_string()).unwrap(),
            pos
        );
        assert_eq!(pos.to_move(), Player::O);
    }

    #[test]
    fn unbounded_diagrams_keep_their_origin() {
        let rules = Preset::Unbounded.rules();
        let pos = Position::from_diagram(rules, "@ -5,7\nX O\n. X").unwrap();
        assert_eq!(pos.stone(Cell::new(-5, 7)), Some(Player::X));
        assert_eq!(pos.stone(Cell::new(-4, 6)), Some(Player::X));
        assert_eq!(pos.stone(Cell::new(-4, 7)), Some(Player::O));
        let again = Position::from_diagram(rules, &pos.to_string()).unwrap();
        assert_eq!(again, pos);
    }

    #[test]
    fn finished_games_are_recognised() {
        let rules = Preset::TicTacToe.rules();
        let pos = Position::from_diagram(rules, "X X X\nO O .\n. . .").unwrap();
        assert_eq!(pos.outcome().winner(), Some(Player::X));
        assert!(pos.last_move().is_some_and(|c| c.y == 2));
        let err = Position::from_diagram(rules, "X X X\nO O O\nX . .").unwrap_err();
        assert_eq!(err, DiagramError::Setup(SetupError::BothWon), "{err}");
        assert!(err.to_string().contains("cannot arise in a game"), "{err}");
        let full = Position::from_diagram(rules, "X O X\nX O O\nO X X").unwrap();
        assert_eq!(*full.outcome(), Outcome::Draw(crate::DrawKind::FullBoard));
    }

    #[test]
    fn diagrams_tell_their_board() {
        let pos = Position::from_diagram(Preset::TicTacToe.rules(), "X . .\n. O .\n. . X").unwrap();
        assert_eq!(
            Position::diagram_board(&pos.to_string()),
            Ok(Board::Bounded {
                width: 3,
                height: 3
            })
        );
        assert_eq!(
            Position::diagram_board("XO.\n..."),
            Ok(Board::Bounded {
                width: 3,
                height: 2
            })
        );
        let unbounded = Position::new(Preset::Unbounded.rules()).to_string();
        assert_eq!(Position::diagram_board(&unbounded), Ok(Board::Unbounded));
        for bad in ["", "\n  \n", "1\n2", "X.\n...", "X ? ."] {
            assert!(Position::diagram_board(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bad_diagrams_say_why() {
        let rules = Preset::TicTacToe.rules();
        assert!(matches!(
            Position::from_diagram(rules, "X . .\n. . .").unwrap_err(),
            DiagramError::WrongShape(_)
        ));
        assert!(matches!(
            Position::from_diagram(rules, "X X .\n. . .\n. . .").unwrap_err(),
            DiagramError::Setup(SetupError::BadCounts { .. })
        ));
        assert!(matches!(
            Position::from_diagram(rules, "X ? .\n. . .\n. . .").unwrap_err(),
            DiagramError::BadCharacter { found: '?', .. }
        ));
    }
}
