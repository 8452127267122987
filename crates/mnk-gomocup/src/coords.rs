//! The one place where protocol coordinates meet mnk-core's.
//!
//! The protocol counts rows from the **top** of the board (`0,0` is the top-left corner, as on
//! the manager's screen); mnk-core's [`Cell`] counts them from the **bottom** (so `a1` is the
//! bottom-left corner, as gomoku notation writes it). Columns agree. On a board `height` rows
//! tall, row `y` from the top is row `height - 1 - y` from the bottom, both ways.

use mnk_core::Cell;

use crate::command::Coord;

/// The size of the board the protocol talks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Frame {
    /// A `width`×`height` board.
    #[must_use]
    pub const fn new(width: u32, height: u32) -> Frame {
        Frame { width, height }
    }

    /// Whether the protocol cell lies on the board.
    #[must_use]
    pub fn contains(&self, c: Coord) -> bool {
        c.x < self.width && c.y < self.height
    }

    /// The mnk-core cell of a protocol cell, or `None` when it is off the board.
    #[must_use]
    pub fn cell(&self, c: Coord) -> Option<Cell> {
        self.contains(c)
            .then(|| Cell::new(c.x as i32, (self.height - 1 - c.y) as i32))
    }

    /// The protocol cell of an mnk-core cell, or `None` when it is off the board.
    #[must_use]
    pub fn coord(&self, cell: Cell) -> Option<Coord> {
        let on_board = cell.x >= 0
            && cell.y >= 0
            && (cell.x as u32) < self.width
            && (cell.y as u32) < self.height;
        on_board.then(|| Coord::new(cell.x as u32, self.height - 1 - cell.y as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_flip_and_columns_agree() {
        let f = Frame::new(15, 10);
        // Top-left in the protocol is the top row, which mnk-core calls row 10 (index 9).
        assert_eq!(f.cell(Coord::new(0, 0)), Some(Cell::new(0, 9)));
        assert_eq!(f.cell(Coord::new(14, 9)), Some(Cell::new(14, 0)));
        assert_eq!(f.cell(Coord::new(15, 0)), None);
        assert_eq!(f.cell(Coord::new(0, 10)), None);
        assert_eq!(f.coord(Cell::new(-1, 0)), None);
        assert_eq!(f.coord(Cell::new(0, 10)), None);
        for x in 0..15 {
            for y in 0..10 {
                let c = Coord::new(x, y);
                assert_eq!(f.coord(f.cell(c).unwrap()), Some(c));
            }
        }
        // h8 on 15x15 is the centre: 7,7 both ways.
        let g = Frame::new(15, 15);
        assert_eq!(g.coord("h8".parse().unwrap()), Some(Coord::new(7, 7)));
        assert_eq!(g.coord("a15".parse().unwrap()), Some(Coord::new(0, 0)));
    }
}
