//! The slow reference checker of renju's forbidden moves, for tests: the rules' definitions
//! (see [`crate::renju`]) applied as they read, with no insight to get wrong.
//!
//! Each of the four lines through the move is taken whole, from edge to edge. A five is a run of
//! exactly five black stones; a four is a set of four black stones, the move among them, that
//! one more stone on some empty cell of the line turns into a five — found by trying every empty
//! cell of the line and collecting the distinct sets; a three is there when some empty cell of
//! the line, tried in turn, makes an unbroken run of exactly four with the move in it whose two
//! neighbouring cells are empty and each make exactly five, and that cell makes no five and is
//! not itself forbidden (asked of this same checker, one stone deeper).
//!
//! The stones sit in a plain array of the board's cells, so that the many trial stones cost
//! little: the rules' definitions are what must stay easy to read here, not the storage.

use std::collections::BTreeSet;

use crate::cell::{Cell, DIRECTIONS};
use crate::position::Position;
use crate::renju::ForbiddenKind;

/// Why black may not play `cell` in `pos`, by the definitions; the same question as
/// [`Position::forbidden_kind`], answered slowly.
#[must_use]
pub fn forbidden_kind(pos: &Position, cell: Cell) -> Option<ForbiddenKind> {
    let black = pos.rules().first();
    if !pos.rules().has_forbidden_moves(black) || !pos.is_free(cell) {
        return None;
    }
    let (width, height) = pos.rules().size()?;
    let mut board = Board {
        width: width as i32,
        height: height as i32,
        stones: vec![Stone::Empty; width as usize * height as usize],
    };
    for (c, p) in pos.stones() {
        let colour = if p == black {
            Stone::Black
        } else {
            Stone::White
        };
        board.set(c, colour);
    }
    board.forbidden(cell)
}

/// What a cell holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stone {
    Empty,
    Black,
    White,
}

/// The stones, on a bounded board: one entry per cell, row by row.
struct Board {
    width: i32,
    height: i32,
    stones: Vec<Stone>,
}

impl Board {
    fn on_board(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height
    }

    /// What the cell `c` holds (an on-board cell).
    fn at(&self, c: Cell) -> Stone {
        self.stones[(c.y * self.width + c.x) as usize]
    }

    fn set(&mut self, c: Cell, stone: Stone) {
        self.stones[(c.y * self.width + c.x) as usize] = stone;
    }

    fn is_black(&self, c: Cell) -> bool {
        self.at(c) == Stone::Black
    }

    fn is_empty(&self, c: Cell) -> bool {
        self.on_board(c) && self.at(c) == Stone::Empty
    }

    /// Every cell of the line through `c` along `(dx, dy)`, from one edge to the other.
    fn line(&self, c: Cell, (dx, dy): (i32, i32)) -> Vec<Cell> {
        let mut start = c;
        while self.on_board(start.offset(dx, dy, -1)) {
            start = start.offset(dx, dy, -1);
        }
        (0..)
            .map(|i| start.offset(dx, dy, i))
            .take_while(|&cell| self.on_board(cell))
            .collect()
    }

    /// The unbroken run of black stones of `line` that holds position `i` (a black stone), as a
    /// range of positions.
    fn run(&self, line: &[Cell], i: usize) -> std::ops::Range<usize> {
        let mut start = i;
        while start > 0 && self.is_black(line[start - 1]) {
            start -= 1;
        }
        let mut end = i + 1;
        while end < line.len() && self.is_black(line[end]) {
            end += 1;
        }
        start..end
    }

    /// Whether a black stone on the empty `c` makes exactly five in some line.
    fn makes_five(&mut self, c: Cell) -> bool {
        self.set(c, Stone::Black);
        let five = DIRECTIONS.iter().any(|&dir| {
            let line = self.line(c, dir);
            let i = line.iter().position(|&x| x == c).expect("on its own line");
            self.run(&line, i).len() == 5
        });
        self.set(c, Stone::Empty);
        five
    }

    /// Why black may not play the empty `m`, by the definitions.
    fn forbidden(&mut self, m: Cell) -> Option<ForbiddenKind> {
        self.set(m, Stone::Black);
        let lines: Vec<(Vec<Cell>, usize)> = DIRECTIONS
            .iter()
            .map(|&dir| {
                let line = self.line(m, dir);
                let i = line.iter().position(|&x| x == m).expect("on its own line");
                (line, i)
            })
            .collect();
        let runs: Vec<usize> = lines.iter().map(|(l, i)| self.run(l, *i).len()).collect();
        let verdict = if runs.contains(&5) {
            None
        } else if runs.iter().any(|&r| r >= 6) {
            Some(ForbiddenKind::Overline)
        } else if lines.iter().map(|(l, i)| self.fours(l, *i)).sum::<usize>() >= 2 {
            Some(ForbiddenKind::DoubleFour)
        } else if lines.iter().filter(|(l, i)| self.has_three(l, *i)).count() >= 2 {
            Some(ForbiddenKind::DoubleThree)
        } else {
            None
        };
        self.set(m, Stone::Empty);
        verdict
    }

    /// How many distinct fours of `line` hold the black stone at position `m`: sets of four
    /// stones, `m` among them, that a stone on an empty cell of the line makes a five.
    fn fours(&mut self, line: &[Cell], m: usize) -> usize {
        let mut fours: BTreeSet<Vec<Cell>> = BTreeSet::new();
        for (j, &e) in line.iter().enumerate() {
            if !self.is_empty(e) {
                continue;
            }
            self.set(e, Stone::Black);
            let run = self.run(line, j);
            if run.len() == 5 && run.contains(&m) {
                fours.insert(run.filter(|&k| k != j).map(|k| line[k]).collect());
            }
            self.set(e, Stone::Empty);
        }
        fours.len()
    }

    /// Whether the black stone at position `m` of `line` is part of a three there.
    fn has_three(&mut self, line: &[Cell], m: usize) -> bool {
        for (j, &e) in line.iter().enumerate() {
            if !self.is_empty(e) {
                continue;
            }
            self.set(e, Stone::Black);
            let straight = self.straight_four(line, j, m);
            self.set(e, Stone::Empty);
            if straight && !self.makes_five(e) && self.forbidden(e).is_none() {
                return true;
            }
        }
        false
    }

    /// Whether the black run through position `j` of `line` is an unbroken four holding `m`
    /// whose two neighbouring cells are empty and each make exactly five.
    fn straight_four(&mut self, line: &[Cell], j: usize, m: usize) -> bool {
        let run = self.run(line, j);
        if run.len() != 4 || !run.contains(&m) || run.start == 0 || run.end == line.len() {
            return false;
        }
        [run.start - 1, run.end].into_iter().all(|k| {
            let end = line[k];
            if !self.is_empty(end) {
                return false;
            }
            self.set(end, Stone::Black);
            let five = self.run(line, k).len() == 5;
            self.set(end, Stone::Empty);
            five
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn only_black_under_renju_has_forbidden_moves() {
        let cells =
            |s: &str| -> Vec<Cell> { s.split_whitespace().map(|c| c.parse().unwrap()).collect() };
        // X: a two-by-two cross around h8 leaves h8 a double-three for black.
        let x = cells("f8 g8 h9 h10");
        let o = cells("a1 c1 e1 g1");
        let renju = Position::from_stones("renju".parse::<Rules>().unwrap(), &x, &o).unwrap();
        let h8: Cell = "h8".parse().unwrap();
        assert_eq!(forbidden_kind(&renju, h8), Some(ForbiddenKind::DoubleThree));
        let o_first: Rules = "15x15x5,renju,o-first".parse().unwrap();
        let swapped = Position::from_stones(o_first, &x, &o).unwrap();
        assert_eq!(
            forbidden_kind(&swapped, h8),
            None,
            "X is white when O begins"
        );
        let free = Position::from_stones("15x15x5".parse::<Rules>().unwrap(), &x, &o).unwrap();
        assert_eq!(forbidden_kind(&free, h8), None);
    }
}
