//! Who wins where: the one place mnk decides whether a line wins.
//!
//! A win is always an unbroken run of one player's stones along one of the four directions, and
//! whether it wins is asked of [`crate::Rules::run_wins`] with the run's length and how many of
//! its two ends the opponent closes (caro looks at that; a board edge closes nothing). The
//! outcome after a move, the full scan, [`Position::wins_at`] and [`Position::winning_cells`]
//! all come through here, and the engine asks `wins_at` instead of counting runs itself.

use crate::cell::{Cell, DIRECTIONS};
use crate::player::Player;
use crate::position::Position;

impl Position {
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
    fn k_one_wins_anywhere() {
        let pos = Position::new(Rules::bounded(2, 2, 1).unwrap());
        assert_eq!(pos.winning_cells(Player::O).len(), 4);
        let pos = Position::new(Preset::TicTacToe.rules());
        assert!(pos.winning_cells(Player::X).is_empty());
    }
}
