//! Who wins where: the one place mnk decides whether a line wins.
//!
//! A win is always an unbroken run of one player's stones along one of the four directions, and
//! whether it wins is asked of [`crate::Rules::run_wins`] with the run's length and how many of
//! its two ends the opponent closes (caro looks at that; a board edge closes nothing). The
//! outcome after a move, the full scan, [`Position::wins_at`] and [`Position::winning_cells`]
//! all come through here, and the engine asks `wins_at` instead of counting runs itself.

use std::fmt;

use crate::cell::{Cell, DIRECTIONS};
use crate::player::Player;
use crate::position::Position;

/// Why a run of k or more stones does not win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoWin {
    /// Longer than k where only exactly k wins (exactly k, caro, renju's black).
    Overline,
    /// Exactly k, but closed at both ends by the opponent's stones (caro).
    Closed,
}

impl NoWin {
    /// The name the API gives it: `overline` or `closed`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            NoWin::Overline => "overline",
            NoWin::Closed => "closed",
        }
    }
}

impl fmt::Display for NoWin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoWin::Overline => "longer than the rules let win",
            NoWin::Closed => "closed at both ends by the opponent",
        })
    }
}

impl Position {
    /// A run of the stone on `cell` that is k or more long and yet does not win, with why: the
    /// first in [`DIRECTIONS`] order, or `None` when there is none (or no stone on `cell`). What a
    /// front-end says when a move looks like a win and is not: caro's closed five, an overline
    /// where only exactly k wins.
    ///
    /// ```
    /// use mnk_core::{Cell, NoWin, Position, Rules};
    /// let rules: Rules = "9x9x5,caro".parse().unwrap();
    /// // X's five b2..f2 is closed by O's stones at a2 and g2.
    /// let moves: Vec<Cell> = "b2 a2 c2 g2 d2 d1 f2 f1 e2".split(' ').map(|m| m.parse().unwrap()).collect();
    /// let pos = Position::from_moves(rules, &moves).unwrap();
    /// let (run, why) = pos.unwon_run("e2".parse().unwrap()).unwrap();
    /// assert_eq!((run.len(), why), (5, NoWin::Closed));
    /// assert!(!pos.is_over());
    /// ```
    #[must_use]
    pub fn unwon_run(&self, cell: Cell) -> Option<(Vec<Cell>, NoWin)> {
        let player = self.stone(cell)?;
        let k = self.rules().k() as usize;
        DIRECTIONS.into_iter().find_map(|dir| {
            let run = self.run_through(cell, player, dir);
            if run.len() < k || self.run_wins(&run, dir, player) {
                return None;
            }
            let why = if run.len() > k {
                NoWin::Overline
            } else {
                NoWin::Closed
            };
            Some((run, why))
        })
    }

    /// Whether `player`'s stone on `cell` would complete a winning line now: `cell` is on the
    /// board and empty, and the run of `player`'s stones through it, in some direction, wins
    /// under the rules (under renju black's five wins even where the same move would also be a
    /// forbidden shape, as the rules say; black's overline does not win). It does not ask whose
    /// turn it is or whether the game is over.
    ///
    /// ```
    /// use mnk_core::{Cell, Player, Position, Preset};
    /// let pos = Position::from_diagram(Preset::TicTacToe.rules(), "
    ///     X X .
    ///     O . .
    ///     . . .
    /// ").unwrap();
    /// assert!(pos.wins_at("c3".parse().unwrap(), Player::X));
    /// assert!(!pos.wins_at("c3".parse().unwrap(), Player::O));
    /// assert!(!pos.wins_at("a3".parse().unwrap(), Player::X), "taken");
    /// ```
    #[must_use]
    pub fn wins_at(&self, cell: Cell, player: Player) -> bool {
        self.is_free(cell) && self.winning_run(cell, player).is_some()
    }

    /// Every cell where `player`'s stone would complete a winning line now (see
    /// [`Position::wins_at`]), ordered by row then column. With k = 1 every free cell wins; on
    /// the unbounded board that lists the cells next to the stones (the origin on an empty
    /// board).
    #[must_use]
    pub fn winning_cells(&self, player: Player) -> Vec<Cell> {
        if self.rules().k() == 1 {
            return if self.rules().is_bounded() {
                self.rules().cells().filter(|&c| self.is_free(c)).collect()
            } else {
                self.cells_near_stones(1)
            };
        }
        // A winning run of two or more holds another stone of `player` next to the cell.
        let mut cells: Vec<Cell> = self
            .stones()
            .filter(|&(_, p)| p == player)
            .flat_map(|(s, _)| {
                (-1..=1).flat_map(move |dy| (-1..=1).map(move |dx| s.offset(dx, dy, 1)))
            })
            .filter(|&c| self.wins_at(c, player))
            .collect();
        cells.sort_unstable_by_key(|c| (c.y, c.x));
        cells.dedup();
        cells
    }

    /// The winning run through `cell` if `player`'s stone on it (there already, or put there in
    /// thought) wins along some direction: the first such run in [`DIRECTIONS`] order.
    pub(crate) fn winning_run(&self, cell: Cell, player: Player) -> Option<Vec<Cell>> {
        DIRECTIONS.into_iter().find_map(|dir| {
            let run = self.run_through(cell, player, dir);
            self.run_wins(&run, dir, player).then_some(run)
        })
    }

    /// Whether `run`, an unbroken run of `player`'s stones along `dir` listed from one end to
    /// the other, wins: its length and how many of its two ends the opponent's stones close.
    pub(crate) fn run_wins(&self, run: &[Cell], (dx, dy): (i32, i32), player: Player) -> bool {
        let (Some(&first), Some(&last)) = (run.first(), run.last()) else {
            return false;
        };
        let opponent = Some(player.opponent());
        let blocked = u32::from(self.stone(first.offset(dx, dy, -1)) == opponent)
            + u32::from(self.stone(last.offset(dx, dy, 1)) == opponent);
        self.rules().run_wins(player, run.len() as u32, blocked)
    }
}

#[cfg(test)]
mod tests {
    use super::NoWin;
    use crate::cell::cells;
    use crate::{Cell, Player, Position, Preset, Rules};

    #[test]
    fn every_rule_set_answers_through_the_same_question() {
        // X: a1 b1 c1 d1 and f1 (e1 makes six under freestyle, where six wins); O elsewhere.
        let stones = |rules: &str| {
            Position::from_stones(
                rules.parse::<Rules>().unwrap(),
                &cells("a1 b1 c1 d1 f1"),
                &cells("a3 c3 e3 g3 i3"),
            )
            .unwrap()
        };
        let e1: Cell = "e1".parse().unwrap();
        assert!(stones("15x15x5").wins_at(e1, Player::X));
        assert!(!stones("15x15x5,exact").wins_at(e1, Player::X));
        assert!(!stones("15x15x5,caro").wins_at(e1, Player::X));
        assert!(!stones("15x15x5,renju").wins_at(e1, Player::X));
        // With O first, X is white, whose overline wins.
        assert!(stones("15x15x5,renju,o-first").wins_at(e1, Player::X));
        assert_eq!(stones("15x15x5").winning_cells(Player::X), vec![e1]);
        assert!(stones("15x15x5,exact").winning_cells(Player::X).is_empty());
    }

    #[test]
    fn runs_that_do_not_win_say_why() {
        let game = |rules: &str, moves: &str| {
            Position::from_moves(rules.parse::<Rules>().unwrap(), &cells(moves)).unwrap()
        };
        let e1: Cell = "e1".parse().unwrap();
        // Caro: a five closed at both ends does not win; a half-open one does (and the edge
        // closes nothing).
        let closed = game("15x15x5,caro", "b1 a1 c1 g1 d1 a3 f1 c3 e1");
        let (run, why) = closed.unwon_run(e1).unwrap();
        assert_eq!((run, why), (cells("b1 c1 d1 e1 f1"), NoWin::Closed));
        assert!(!closed.is_over());
        let half_open = game("15x15x5,caro", "b1 a1 c1 a3 d1 c3 f1 e3 e1");
        assert!(half_open.is_over());
        assert_eq!(half_open.unwon_run(e1), None);
        // Exactly five: six in a row is an overline; under freestyle it wins.
        let six = "a1 a3 b1 c3 c1 e3 d1 g3 f1 i3 e1";
        let exact = game("15x15x5,exact", six);
        assert!(!exact.is_over());
        assert_eq!(exact.unwon_run(e1).map(|r| r.1), Some(NoWin::Overline));
        assert!(game("15x15x5", six).is_over());
        // Short runs, and empty cells, have nothing to say.
        assert_eq!(exact.unwon_run("c3".parse().unwrap()), None);
        assert_eq!(exact.unwon_run("h8".parse().unwrap()), None);
    }

    #[test]
    fn k_one_wins_anywhere() {
        let pos = Position::new(Rules::bounded(2, 2, 1).unwrap());
        assert_eq!(pos.winning_cells(Player::O).len(), 4);
        let pos = Position::new(Preset::TicTacToe.rules());
        assert!(pos.winning_cells(Player::X).is_empty());
    }
}
