//! Cells and their notation.
//!
//! A cell is `(x, y)`: `x` counts columns from the left, `y` rows from the bottom, both from 0.
//! It is written two ways:
//! - `h8`: the column as letters (`a`..`z`, then `aa`, `ab`, …) and the row as a number counted
//!   from 1 at the bottom, as gomoku GUIs write it. Only cells with `x, y >= 0` have this name.
//! - `7,7`: the 0-based `x,y` pair. It allows negative numbers, so it names every cell of the
//!   unbounded board, whose first stone is by convention at `0,0`.
//!
//! [`Cell`]'s `Display` uses the letter form where it exists and `x,y` otherwise; `FromStr`
//! accepts both, so every cell round-trips. To show cells to people, use
//! [`crate::Rules::cell_name`]: letters on a bounded board, always `x,y` on the unbounded one.

use std::fmt;
use std::str::FromStr;

/// The largest absolute coordinate any cell may have, so that arithmetic on cells (neighbours,
/// line scans, symmetries) can never overflow an `i32`.
pub const MAX_COORD: i32 = 1 << 28;

/// A cell of the board: column `x` from the left, row `y` from the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cell {
    /// Column, 0 = leftmost (negative on the unbounded board left of the first stone).
    pub x: i32,
    /// Row, 0 = bottom (negative on the unbounded board below the first stone).
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }

    /// The cell `steps` away in direction `(dx, dy)`.
    #[must_use]
    pub const fn offset(self, dx: i32, dy: i32, steps: i32) -> Cell {
        Cell {
            x: self.x + dx * steps,
            y: self.y + dy * steps,
        }
    }

    /// Whether both coordinates lie within ±[`MAX_COORD`].
    #[must_use]
    pub const fn in_range(self) -> bool {
        // `unsigned_abs`: `abs` of i32::MIN overflows.
        self.x.unsigned_abs() <= MAX_COORD as u32 && self.y.unsigned_abs() <= MAX_COORD as u32
    }
}

/// The four line directions a k-in-a-row can run in: horizontal, vertical and both diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Why a piece of text is not a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellParseError {
    /// The text that failed to parse.
    pub text: String,
}

impl fmt::Display for CellParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a cell: write a column letter and a row number like h8, or 0-based x,y like 7,7",
            self.text
        )
    }
}

impl std::error::Error for CellParseError {}

/// The letters of column `x` (0 → `a`, 25 → `z`, 26 → `aa`).
#[must_use]
pub fn column_name(x: u32) -> String {
    let mut n = u64::from(x) + 1;
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ASCII letters")
}

/// The column index of letters such as `h` or `aa`, if they are letters and small enough.
#[must_use]
pub fn parse_column(letters: &str) -> Option<u32> {
    if letters.is_empty() || letters.len() > 6 {
        return None;
    }
    let mut n: u64 = 0;
    for b in letters.bytes() {
        let b = b.to_ascii_lowercase();
        if !b.is_ascii_lowercase() {
            return None;
        }
        n = n * 26 + u64::from(b - b'a' + 1);
    }
    u32::try_from(n - 1).ok().filter(|&x| x as i32 <= MAX_COORD)
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.x >= 0 && self.y >= 0 {
            write!(f, "{}{}", column_name(self.x as u32), i64::from(self.y) + 1)
        } else {
            write!(f, "{},{}", self.x, self.y)
        }
    }
}

impl FromStr for Cell {
    type Err = CellParseError;

    fn from_str(s: &str) -> Result<Cell, CellParseError> {
        let err = || CellParseError {
            text: s.to_string(),
        };
        let t = s.trim();
        let cell = if let Some((xs, ys)) = t.split_once(',') {
            let x: i32 = xs.trim().parse().map_err(|_| err())?;
            let y: i32 = ys.trim().parse().map_err(|_| err())?;
            Cell::new(x, y)
        } else {
            let split = t.find(|c: char| !c.is_ascii_alphabetic()).ok_or_else(err)?;
            let (letters, digits) = t.split_at(split);
            let x = parse_column(letters).ok_or_else(err)?;
            if !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            let row: i32 = digits.parse().map_err(|_| err())?;
            if row < 1 {
                return Err(err());
            }
            Cell::new(x as i32, row - 1)
        };
        if cell.in_range() {
            Ok(cell)
        } else {
            Err(err())
        }
    }
}

/// Cells by name, separated by spaces (`"a1 b2"`): for tests.
#[cfg(test)]
pub(crate) fn cells(names: &str) -> Vec<Cell> {
    names
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_continue_past_z() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(7), "h");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        assert_eq!(column_name(26 * 27), "aaa");
        for x in 0..2000 {
            assert_eq!(parse_column(&column_name(x)), Some(x));
        }
    }

    #[test]
    fn both_notations_parse() {
        assert_eq!("h8".parse::<Cell>(), Ok(Cell::new(7, 7)));
        assert_eq!("H8".parse::<Cell>(), Ok(Cell::new(7, 7)));
        assert_eq!("7,7".parse::<Cell>(), Ok(Cell::new(7, 7)));
        assert_eq!("-3, 2".parse::<Cell>(), Ok(Cell::new(-3, 2)));
        assert_eq!("aa1".parse::<Cell>(), Ok(Cell::new(26, 0)));
        assert_eq!(Cell::new(-1, 4).to_string(), "-1,4");
        assert_eq!(Cell::new(0, 0).to_string(), "a1");
    }

    #[test]
    fn garbage_is_refused() {
        for bad in [
            "",
            "h",
            "8",
            "h0",
            "h-1",
            "h8x",
            "1,",
            ",1",
            "x,y",
            "é5",
            "99999999999,0",
            "a99999999999",
        ] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?} parsed");
        }
    }
}
