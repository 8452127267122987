//! The symmetries of a bounded board: rotations and reflections that map it onto itself.

use crate::cell::Cell;

/// A rotation or reflection of a `width`×`height` board. A square board has all eight; a
/// rectangle keeps the four that do not swap its axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every cell where it is.
    Identity,
    /// Quarter turn (square boards only).
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Three-quarter turn (square boards only).
    Rotate270,
    /// Mirror left–right.
    FlipX,
    /// Mirror top–bottom.
    FlipY,
    /// Mirror in the main diagonal (square boards only).
    Transpose,
    /// Mirror in the other diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries of a square, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The four symmetries of a rectangle, identity first.
    pub const RECTANGLE: [Symmetry; 4] = [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipX,
        Symmetry::FlipY,
    ];

    /// Where `cell` goes on a `width`×`height` board. For the four that swap axes the board must
    /// be square.
    #[must_use]
    pub fn apply(self, cell: Cell, width: u32, height: u32) -> Cell {
        let (mx, my) = (width as i32 - 1, height as i32 - 1);
        let Cell { x, y } = cell;
        match self {
            Symmetry::Identity => cell,
            Symmetry::Rotate90 => Cell::new(my - y, x),
            Symmetry::Rotate180 => Cell::new(mx - x, my - y),
            Symmetry::Rotate270 => Cell::new(y, mx - x),
            Symmetry::FlipX => Cell::new(mx - x, y),
            Symmetry::FlipY => Cell::new(x, my - y),
            Symmetry::Transpose => Cell::new(y, x),
            Symmetry::AntiTranspose => Cell::new(my - y, mx - x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn symmetries_are_distinct_permutations() {
        let n = 5;
        let cells: Vec<Cell> = (0..n)
            .flat_map(|y| (0..n).map(move |x| Cell::new(x, y)))
            .collect();
        let mut images = HashSet::new();
        for s in Symmetry::ALL {
            let image: Vec<Cell> = cells.iter().map(|&c| s.apply(c, 5, 5)).collect();
            let set: HashSet<Cell> = image.iter().copied().collect();
            assert_eq!(set.len(), cells.len(), "{s:?} is not a permutation");
            assert!(image
                .iter()
                .all(|c| (0..n).contains(&c.x) && (0..n).contains(&c.y)));
            images.insert(image);
        }
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn rectangle_symmetries_stay_on_the_board() {
        for s in Symmetry::RECTANGLE {
            for y in 0..3 {
                for x in 0..4 {
                    let c = s.apply(Cell::new(x, y), 4, 3);
                    assert!((0..4).contains(&c.x) && (0..3).contains(&c.y), "{s:?}");
                }
            }
        }
    }
}
