//! Bitboards for small bounded boards (at most 64 cells), shared by counting and the exact solver.
//!
//! A position is two `u64` masks, one per player, bit `y * width + x` for cell `(x, y)`. The
//! geometry precomputes every k-window (k consecutive cells along a row, column or diagonal),
//! which windows pass through each cell, the cells along each line for exact-k run checks, and the
//! cell permutation of each board symmetry.

use mnk_core::{Cell, Position, Rules, Win, DIRECTIONS};

/// The largest number of cells a bitboard can hold.
pub const MAX_CELLS: usize = 64;

/// Precomputed lines and symmetries of one small board.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Stones in a row that win.
    pub k: u32,
    /// Whether a run longer than k also wins.
    pub freestyle: bool,
    /// Number of cells.
    pub cells: usize,
    /// Mask of all cells.
    pub full: u64,
    /// Every k-window as a mask.
    pub windows: Vec<u64>,
    /// For each cell, the indices of the windows through it.
    pub windows_at: Vec<Vec<u16>>,
    /// For each cell and direction, the cells stepping forward and backward (for exact-k runs).
    rays: Vec<[[Vec<u8>; 2]; 4]>,
    /// For each symmetry, where each cell goes.
    pub permutations: Vec<Vec<u8>>,
}

impl Geometry {
    /// The geometry of a bounded board of at most 64 cells; `None` otherwise.
    #[must_use]
    pub fn new(rules: &Rules) -> Option<Geometry> {
        let (width, height) = rules.size()?;
        let cells = rules.cell_count()?;
        if cells > MAX_CELLS {
            return None;
        }
        let k = rules.k();
        let index = |c: Cell| rules.index_of(c);
        let mut windows = Vec::new();
        for start in rules.cells() {
            for (dx, dy) in DIRECTIONS {
                let mask = (0..k as i32)
                    .map(|i| index(start.offset(dx, dy, i)))
                    .try_fold(0u64, |m, i| i.map(|i| m | 1 << i));
                if let Some(mask) = mask {
                    windows.push(mask);
                }
            }
        }
        windows.sort_unstable();
        windows.dedup(); // k = 1 makes the four directions coincide
        let mut windows_at = vec![Vec::new(); cells];
        for (w, &mask) in windows.iter().enumerate() {
            for (cell, list) in windows_at.iter_mut().enumerate() {
                if mask >> cell & 1 == 1 {
                    list.push(w as u16);
                }
            }
        }
        let rays = rules
            .cells()
            .map(|c| {
                DIRECTIONS.map(|(dx, dy)| {
                    [1, -1].map(|sign| {
                        (1..)
                            .map_while(|i| {
                                index(c.offset(dx * sign, dy * sign, i)).map(|i| i as u8)
                            })
                            .collect()
                    })
                })
            })
            .collect();
        let permutations = rules
            .symmetries()
            .iter()
            .map(|s| {
                rules
                    .cells()
                    .map(|c| index(s.apply(c, width, height)).unwrap() as u8)
                    .collect()
            })
            .collect();
        let full = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        Some(Geometry {
            width,
            height,
            k,
            freestyle: rules.win() == Win::Freestyle,
            cells,
            full,
            windows,
            windows_at,
            rays,
            permutations,
        })
    }

    /// The cell of bit `i`.
    #[must_use]
    pub fn cell(&self, i: usize) -> Cell {
        Cell::new(
            (i % self.width as usize) as i32,
            (i / self.width as usize) as i32,
        )
    }

    /// The bit of `cell`.
    #[must_use]
    pub fn bit(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// The stones of `pos` (a position on this board) as bitboards: the side to move's, then
    /// the other side's.
    #[must_use]
    pub fn split(&self, pos: &Position) -> (u64, u64) {
        let mover = pos.to_move();
        let mut bits = (0u64, 0u64);
        for (cell, player) in pos.stones() {
            let bit = 1u64 << self.bit(cell);
            if player == mover {
                bits.0 |= bit;
            } else {
                bits.1 |= bit;
            }
        }
        bits
    }

    /// Whether `own` (which includes the stone on `cell`) wins through `cell`.
    #[must_use]
    pub fn wins_through(&self, own: u64, cell: usize) -> bool {
        if self.freestyle {
            self.windows_at[cell].iter().any(|&w| {
                let m = self.windows[w as usize];
                own & m == m
            })
        } else {
            (0..4).any(|d| self.run_length(own, cell, d) == self.k)
        }
    }

    /// Length of the run of `own` stones through `cell` in direction `d` (the cell counts).
    #[must_use]
    pub fn run_length(&self, own: u64, cell: usize, d: usize) -> u32 {
        let [fwd, back] = &self.rays[cell][d];
        let count = |ray: &Vec<u8>| ray.iter().take_while(|&&i| own >> i & 1 == 1).count() as u32;
        1 + count(fwd) + count(back)
    }

    /// Whether `own` holds a winning line anywhere (slow; for checks and counting setup).
    #[must_use]
    pub fn has_win(&self, own: u64) -> bool {
        let mut rest = own;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.wins_through(own, cell) {
                return true;
            }
        }
        false
    }

    /// `bits` moved by symmetry number `s`.
    #[must_use]
    pub fn transform(&self, bits: u64, s: usize) -> u64 {
        let perm = &self.permutations[s];
        let mut out = 0;
        let mut rest = bits;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1u64 << perm[i];
        }
        out
    }

    /// The smallest of a position's symmetric images, as one key (first player's stones high).
    #[must_use]
    pub fn canonical(&self, first: u64, second: u64) -> u128 {
        (0..self.permutations.len())
            .map(|s| {
                (u128::from(self.transform(first, s)) << 64) | u128::from(self.transform(second, s))
            })
            .min()
            .expect("the identity is always there")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_has_eight_lines() {
        let g = Geometry::new(&Rules::bounded(3, 3, 3).unwrap()).unwrap();
        assert_eq!(g.windows.len(), 8);
        assert_eq!(g.windows_at[4].len(), 4);
        assert_eq!(g.permutations.len(), 8);
    }

    #[test]
    fn window_counts_match_the_formula() {
        // rows: h·(w−k+1), columns: w·(h−k+1), each diagonal direction: (w−k+1)(h−k+1)
        for (w, h, k) in [(4u32, 3u32, 3u32), (5, 5, 4), (6, 5, 4), (7, 7, 5)] {
            let g = Geometry::new(&Rules::bounded(w, h, k).unwrap()).unwrap();
            let expected = h * (w - k + 1) + w * (h - k + 1) + 2 * (w - k + 1) * (h - k + 1);
            assert_eq!(g.windows.len() as u32, expected, "{w}x{h}x{k}");
        }
    }

    #[test]
    fn exact_k_does_not_count_overlines() {
        let rules = Rules::bounded(5, 1, 3)
            .unwrap()
            .with_win(Win::Exact)
            .unwrap();
        let g = Geometry::new(&rules).unwrap();
        assert!(g.wins_through(0b00111, 0));
        assert!(!g.wins_through(0b01111, 0));
    }
}
