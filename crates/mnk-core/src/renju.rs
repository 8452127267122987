//! Renju's forbidden moves: what black (the first player) may not play.
//!
//! The international rules (RIF) forbid black a move that makes an overline (six or more in a
//! row), a double-four (two fours at once) or a double-three (two threes at once), unless the
//! same move makes a five, which wins. Their definitions, which this module follows word for
//! word:
//!
//! - a *five* is an unbroken row of exactly five black stones; six or more is an *overline*;
//! - a *four* is a row of four stones that one more stone turns into a five; a *straight four*
//!   is an unbroken row of four with two such stones, one at each end (it is still one four);
//! - a *three* is a row of three stones that one more stone turns into a straight four, without
//!   making a five at the same time — and that stone must be a move black may play: a three
//!   whose straight-four points are all forbidden (or make a five) is no three. Whether a point
//!   is forbidden is this same question asked one stone deeper, so the rule is recursive; it is
//!   followed to the end (every level adds a stone, so it ends);
//! - the threes and fours of a move are counted per line through it, except that one line can
//!   hold two fours (`X.XXX.X` with the move in the middle: its two five points make fives of
//!   different stones), which is a double-four on its own.
//!
//! A double-four takes precedence over a double-three in the reason given, and an overline over
//! both. White has no forbidden moves.
//!
//! Two checkers decide this. The fast one, here, copies the board into a byte grid with a
//! border and reads each of the four lines outward from the move: a five or four through the
//! move can only be completed at the first empty cell beyond its run of stones, and a straight
//! four can only be made there too, so each line has at most two cells to look at, and only
//! those that make a straight four are asked, recursively, whether black may play them. The
//! slow one, [`reference`](mod@reference), applies the definitions to every cell of every line with no such
//! insight; tests hold the two to the same answer on diagrams worked out by hand and on many
//! random positions.

pub mod reference;

pub use crate::forbidden::ForbiddenKind;

use crate::cell::{Cell, DIRECTIONS};
use crate::player::Player;
use crate::position::Position;

impl Position {
    /// Why black — the player with forbidden moves, the first player under renju — may not
    /// play `cell` now, or `None` when black may (or the rules are not renju, or the cell is
    /// not free). It asks about black whoever is to move, and does not look at whether the game
    /// is over.
    ///
    /// ```
    /// use mnk_core::{renju::ForbiddenKind, Cell, Position, Preset};
    /// let pos = Position::from_diagram(Preset::Renju.rules(), "
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . X . . . . . . .
    ///     . . . . . . . X . . . . . . .
    ///     . . . . . X X . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     . . . . . . . . . . . . . . .
    ///     O . O . O . . . . . . . . . .
    ///     O . . . . . . . . . . . . . .
    /// ").unwrap();
    /// let h7: Cell = "h7".parse().unwrap();
    /// assert_eq!(pos.forbidden_kind(h7), Some(ForbiddenKind::DoubleThree));
    /// assert_eq!(pos.forbidden_cells(), vec![h7]);
    /// ```
    #[must_use]
    pub fn forbidden_kind(&self, cell: Cell) -> Option<ForbiddenKind> {
        let black = self.rules().first();
        if !self.rules().has_forbidden_moves(black) || !self.is_free(cell) {
            return None;
        }
        let mut grid = Grid::of(self, black);
        let at = grid.index(cell);
        grid.forbidden(at)
    }

    /// Every cell black may not play now under renju (empty under other rules), ordered by row
    /// then column. Like [`Position::forbidden_kind`], it asks about black whoever is to move.
    #[must_use]
    pub fn forbidden_cells(&self) -> Vec<Cell> {
        self.forbidden_points()
            .into_iter()
            .map(|(c, _)| c)
            .collect()
    }

    /// [`Position::forbidden_cells`], each with why it is forbidden, from one pass of the checker.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Cell, ForbiddenKind)> {
        let black = self.rules().first();
        if !self.rules().has_forbidden_moves(black) {
            return Vec::new();
        }
        let mut grid = Grid::of(self, black);
        self.rules()
            .cells()
            .filter(|&c| self.stone(c).is_none())
            .filter_map(|c| grid.forbidden(grid.index(c)).map(|kind| (c, kind)))
            .collect()
    }

    /// Whether the side to move has forbidden moves (renju's black) and every free cell is
    /// one, so it cannot move. Asked after every white move, so it first looks for a free cell
    /// with no black stone near it on its lines, which no rule can forbid: on all but a crowded
    /// board the first free cell is one, and the checker is not needed.
    pub(crate) fn mover_is_shut_out(&self) -> bool {
        let black = self.to_move();
        if !self.rules().has_forbidden_moves(black) {
            return false;
        }
        let free = || self.rules().cells().filter(|&c| self.stone(c).is_none());
        if free().any(|c| !self.has_stone_in_reach(c, black)) {
            return false;
        }
        let mut grid = Grid::of(self, black);
        free().all(|c| grid.forbidden(grid.index(c)).is_some())
    }

    /// Whether `player` has a stone within five cells of `cell` on one of its four lines: a
    /// move there can only make a three, four, five or overline with such stones.
    fn has_stone_in_reach(&self, cell: Cell, player: Player) -> bool {
        DIRECTIONS.iter().any(|&(dx, dy)| {
            (1..=5).any(|n| {
                self.stone(cell.offset(dx, dy, n)) == Some(player)
                    || self.stone(cell.offset(dx, dy, -n)) == Some(player)
            })
        })
    }
}

/// Black's forbidden moves for a searcher that puts stones on and takes them off many times:
/// the fast checker's grid kept up to date one stone at a time instead of copied from a
/// [`Position`] per question, so the engine asks the same authority as
/// [`Position::forbidden_kind`] at the cost of a few line walks.
///
/// ```
/// use mnk_core::{renju::{ForbiddenKind, ForbiddenMoves}, Cell, Player, Position, Preset};
/// let pos = Position::new(Preset::Renju.rules());
/// let mut check = ForbiddenMoves::new(&pos).unwrap();
/// for c in ["f8", "g8", "h7", "h6"] {
///     check.set(c.parse().unwrap(), Some(Player::X));
/// }
/// assert_eq!(check.kind("h8".parse().unwrap()), Some(ForbiddenKind::DoubleThree));
/// check.set("h6".parse().unwrap(), None);
/// assert_eq!(check.kind("h8".parse().unwrap()), None);
/// ```
#[derive(Clone, Debug)]
pub struct ForbiddenMoves {
    grid: Grid,
    black: Player,
    width: u32,
    height: u32,
}

impl ForbiddenMoves {
    /// The checker for `pos`, or `None` when its rules give nobody forbidden moves.
    #[must_use]
    pub fn new(pos: &Position) -> Option<ForbiddenMoves> {
        let black = pos.rules().first();
        if !pos.rules().has_forbidden_moves(black) {
            return None;
        }
        let (width, height) = pos.rules().size()?;
        Some(ForbiddenMoves {
            grid: Grid::of(pos, black),
            black,
            width,
            height,
        })
    }

    /// Puts `stone` on `cell` (`None` empties it); cells off the board are ignored.
    pub fn set(&mut self, cell: Cell, stone: Option<Player>) {
        if !self.on_board(cell) {
            return;
        }
        let i = self.grid.index(cell);
        self.grid.cells[i] = match stone {
            None => EMPTY,
            Some(p) if p == self.black => BLACK,
            Some(_) => OTHER,
        };
    }

    /// Why black may not play `cell`, as [`Position::forbidden_kind`] answers it for the stones
    /// set here; `None` for a free move, a taken cell or a cell off the board.
    pub fn kind(&mut self, cell: Cell) -> Option<ForbiddenKind> {
        if !self.on_board(cell) {
            return None;
        }
        let i = self.grid.index(cell);
        if self.grid.cells[i] != EMPTY {
            return None;
        }
        self.grid.forbidden(i)
    }

    fn on_board(&self, cell: Cell) -> bool {
        (0..self.width as i32).contains(&cell.x) && (0..self.height as i32).contains(&cell.y)
    }
}

/// An empty cell of the grid.
const EMPTY: u8 = 0;
/// A black stone.
const BLACK: u8 = 1;
/// A white stone or the border: neither continues a black row nor is a cell to play.
const OTHER: u8 = 2;

/// The board as black sees it, one byte a cell, with a border one cell wide so that reading a
/// line never leaves the array (every walk stops at the first cell that is not black).
#[derive(Clone, Debug)]
struct Grid {
    cells: Vec<u8>,
    stride: usize,
    /// The index steps of the four line directions.
    steps: [isize; 4],
}

impl Grid {
    fn of(pos: &Position, black: Player) -> Grid {
        let (width, height) = pos
            .rules()
            .size()
            .expect("renju is played on a bounded board");
        let stride = width as usize + 2;
        let mut grid = Grid {
            cells: vec![OTHER; stride * (height as usize + 2)],
            stride,
            steps: DIRECTIONS.map(|(dx, dy)| dx as isize + dy as isize * stride as isize),
        };
        for c in pos.rules().cells() {
            let i = grid.index(c);
            grid.cells[i] = match pos.stone(c) {
                None => EMPTY,
                Some(p) if p == black => BLACK,
                Some(_) => OTHER,
            };
        }
        grid
    }

    fn index(&self, c: Cell) -> usize {
        (c.y as usize + 1) * self.stride + c.x as usize + 1
    }

    fn at(&self, i: usize, step: isize, n: isize) -> usize {
        i.wrapping_add_signed(step * n)
    }

    /// Black stones in a row from `i` (not counting `i`) one way along `step`.
    fn count(&self, i: usize, step: isize) -> usize {
        let mut n = 0;
        while self.cells[self.at(i, step, n as isize + 1)] == BLACK {
            n += 1;
        }
        n
    }

    /// The length of the unbroken black run through `i`, counting `i` as black.
    fn run(&self, i: usize, step: isize) -> usize {
        1 + self.count(i, step) + self.count(i, -step)
    }

    /// The two cells just beyond the black run through `i`.
    fn ends(&self, i: usize, step: isize) -> [usize; 2] {
        [
            self.at(i, step, -(self.count(i, -step) as isize) - 1),
            self.at(i, step, self.count(i, step) as isize + 1),
        ]
    }

    /// Whether a black stone on the empty cell `i` makes exactly five along `step`.
    fn five_at(&self, i: usize, step: isize) -> bool {
        self.cells[i] == EMPTY && self.run(i, step) == 5
    }

    /// Why black may not play the empty cell `i`, if it may not.
    fn forbidden(&mut self, i: usize) -> Option<ForbiddenKind> {
        self.cells[i] = BLACK;
        let verdict = self.judge(i);
        self.cells[i] = EMPTY;
        verdict
    }

    /// The verdict on the black stone just put on `i`.
    fn judge(&mut self, i: usize) -> Option<ForbiddenKind> {
        let runs = self.steps.map(|step| self.run(i, step));
        if runs.contains(&5) {
            return None; // a five wins, whatever else the move makes
        }
        if runs.iter().any(|&r| r > 5) {
            return Some(ForbiddenKind::Overline);
        }
        let fours: usize = self.steps.iter().map(|&step| self.fours(i, step)).sum();
        if fours >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        let mut threes = 0;
        for step in self.steps {
            if self.three(i, step) {
                threes += 1;
                if threes == 2 {
                    return Some(ForbiddenKind::DoubleThree);
                }
            }
        }
        None
    }

    /// The fours through the black stone on `i` along `step`: each end of its run that makes a
    /// five completes one, except that the two ends of an unbroken four are one straight four.
    fn fours(&self, i: usize, step: isize) -> usize {
        let fives = self
            .ends(i, step)
            .iter()
            .filter(|&&e| self.five_at(e, step))
            .count();
        if fives == 2 && self.run(i, step) == 4 {
            1
        } else {
            fives
        }
    }

    /// Whether the black stone on `i` is part of a three along `step`: a stone at an end of its
    /// run makes a straight four, makes no five, and is not itself forbidden.
    fn three(&mut self, i: usize, step: isize) -> bool {
        for e in self.ends(i, step) {
            if self.cells[e] != EMPTY {
                continue;
            }
            self.cells[e] = BLACK;
            let straight = self.straight_four(e, step);
            self.cells[e] = EMPTY;
            if straight
                && !self.steps.iter().any(|&s| self.five_at(e, s))
                && self.forbidden(e).is_none()
            {
                return true;
            }
        }
        false
    }

    /// Whether the black run through `i` along `step` is a straight four: four stones whose two
    /// ends each make exactly five.
    fn straight_four(&self, i: usize, step: isize) -> bool {
        self.run(i, step) == 4 && self.ends(i, step).iter().all(|&e| self.five_at(e, step))
    }
}
