//! Whether a line can still be made: the early draw.
//!
//! A bounded game is drawn in effect long before the board is full once neither player can ever
//! complete a line. A window of k cells is still *live* for a player when it holds none of the
//! opponent's stones, the player has enough moves left to fill its empty cells (moves alternate,
//! so the player to move has ⌈e/2⌉ of the e empty cells, the other ⌊e/2⌋), and, under exactly-k,
//! neither cell just beyond its ends is the player's own (filling it would make an overline).
//! Such a window can really be completed: the player fills it while the opponent plays elsewhere,
//! and there is always room elsewhere for the opponent's moves. So "no live window for either
//! player" is exactly "no continuation of this game has a winner" (the tests check it against a
//! search of every continuation).
//!
//! This is a query, not part of [`Position::outcome`]: game-tree counts, the solver and engine
//! protocols play to the end; front-ends that adjudicate (the web game, the terminal game) ask it.

use crate::cell::{Cell, DIRECTIONS};
use crate::player::Player;
use crate::position::Position;
use crate::rules::Board;

impl Position {
    /// Whether `player` can still complete a winning line in some continuation of this game. A
    /// finished game has no continuation; on the unbounded board there is always room.
    #[must_use]
    pub fn can_still_win(&self, player: Player) -> bool {
        if self.is_over() {
            return false;
        }
        let Board::Bounded { width, height } = self.rules().board() else {
            return true;
        };
        let (width, height) = (width as i32, height as i32);
        let k = self.rules().k() as i32;
        let empty = (width * height) as usize - self.ply();
        let moves_left = if self.to_move() == player {
            empty.div_ceil(2)
        } else {
            empty / 2
        };
        let inside = |c: Cell| c.x >= 0 && c.y >= 0 && c.x < width && c.y < height;
        for (dx, dy) in DIRECTIONS {
            for y in 0..height {
                for x in 0..width {
                    let start = Cell::new(x, y);
                    if !inside(start.offset(dx, dy, k - 1)) {
                        continue;
                    }
                    if self.window_is_live(start, (dx, dy), player, moves_left) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether no player can ever complete a line: the game is a draw, whatever is played.
    #[must_use]
    pub fn no_line_left(&self) -> bool {
        !self.is_over()
            && self.rules().is_bounded()
            && !self.can_still_win(Player::X)
            && !self.can_still_win(Player::O)
    }

    /// One window of k cells from `start`: free of the opponent, fillable in the moves left, and
    /// winning once filled, with the stones beyond its ends as they are.
    fn window_is_live(
        &self,
        start: Cell,
        (dx, dy): (i32, i32),
        player: Player,
        moves_left: usize,
    ) -> bool {
        let k = self.rules().k() as i32;
        let mut missing = 0;
        for i in 0..k {
            match self.stone(start.offset(dx, dy, i)) {
                Some(p) if p != player => return false,
                Some(_) => {}
                None => missing += 1,
            }
        }
        if missing > moves_left {
            return false;
        }
        // The run the filled window would make: the window and the player's stones beyond it.
        let beyond = |from: i32, step: i32| {
            let mut n = 0;
            while self.stone(start.offset(dx, dy, from + step * n)) == Some(player) {
                n += 1;
            }
            n
        };
        let (before, after) = (beyond(-1, -1), beyond(k, 1));
        let opponent = Some(player.opponent());
        let blocked = u32::from(self.stone(start.offset(dx, dy, -1 - before)) == opponent)
            + u32::from(self.stone(start.offset(dx, dy, k + after)) == opponent);
        self.rules()
            .run_wins(player, (k + before + after) as u32, blocked)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::rules::Rules;

    fn position(rules: &str, record: &str) -> Position {
        let rules: Rules = rules.parse().unwrap();
        let moves: Vec<Cell> = record
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Position::from_moves(rules, &moves).unwrap()
    }

    #[test]
    fn the_reviewed_game_is_a_draw_before_the_board_fills() {
        // The study review's example: one cell left, and it completes nothing.
        let pos = position("3x3x3", "b2 a1 c3 a3 a2 c2 b3 b1");
        assert!(!pos.is_over());
        assert!(pos.no_line_left());
        let earlier = position("3x3x3", "b2 a1 c3 a3 a2 c2");
        assert!(!earlier.no_line_left(), "b3 or b1 still make a line");
    }

    #[test]
    fn the_unbounded_board_and_finished_games_are_never_dead_draws() {
        assert!(!position("infx5", "0,0 1,1").no_line_left());
        let won = position("3x3x3", "a1 b1 a2 b2 a3");
        assert!(won.is_over() && !won.no_line_left());
    }

    #[test]
    fn moves_left_count() {
        // 4x1, three in a row: after X b1, O has two moves and X one; X cannot fill a window.
        let pos = position("4x1x3", "b1");
        assert!(!pos.can_still_win(Player::X));
        assert!(position("5x1x3", "b1").can_still_win(Player::X));
    }

    /// Whether some continuation of `pos` ends with a winner (every continuation, searched).
    fn some_win_ahead(pos: &mut Position, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&known) = memo.get(&pos.hash()) {
            return known;
        }
        let answer = match pos.outcome() {
            crate::Outcome::Win { .. } => true,
            crate::Outcome::Draw(_) => false,
            crate::Outcome::Ongoing => pos.legal_moves().into_iter().any(|m| {
                pos.play(m);
                let win = some_win_ahead(pos, memo);
                pos.undo();
                win
            }),
        };
        memo.insert(pos.hash(), answer);
        answer
    }

    /// Checks `no_line_left` on every reachable position of `rules` against the search.
    fn check_every_position(rules: &str) -> usize {
        check_positions(rules, true)
    }

    /// Checks `no_line_left` on every reachable position of `rules` against the search: equal
    /// to it when `exact`, else only never calling a draw where a win is still ahead.
    fn check_positions(rules: &str, exact: bool) -> usize {
        let rules: Rules = rules.parse().unwrap();
        let mut memo = HashMap::new();
        let mut seen = HashMap::new();
        let mut stack = vec![Position::new(rules)];
        let mut dead = 0;
        while let Some(mut pos) = stack.pop() {
            if seen.insert(pos.hash(), ()).is_some() {
                continue;
            }
            let expected = !pos.is_over() && !some_win_ahead(&mut pos, &mut memo);
            if exact {
                assert_eq!(pos.no_line_left(), expected, "{pos}");
            } else {
                assert!(!pos.no_line_left() || expected, "{pos}");
            }
            dead += usize::from(expected);
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play(m);
                stack.push(next);
            }
        }
        dead
    }

    #[test]
    fn dead_draws_are_exactly_the_positions_no_continuation_wins() {
        assert!(check_every_position("3x3x3") > 0);
        assert!(check_every_position("3x3x3,exact") > 0);
        assert!(check_every_position("4x3x3") > 0);
        assert!(check_every_position("4x3x3,exact") > 0);
        // Exactly-k overlines are covered by the exact rule sets above; k = 2 always has room.
        assert_eq!(check_every_position("4x2x2,o-first"), 0);
    }

    #[test]
    fn renju_and_caro_draws_are_never_called_early() {
        // Black's forbidden moves can keep a window from being filled, and under caro the
        // opponent's moves may have nowhere to go but an end of it, so there the answer may only
        // err towards playing on.
        for rules in ["9x1x5,renju", "6x2x5,renju", "9x1x5,caro", "6x2x5,caro"] {
            assert!(check_positions(rules, false) > 0, "{rules}");
        }
    }
}
