//! A position from its stones alone, when the order they were played in is not known: diagrams,
//! a Gomocup `BOARD` block, an imported picture.
//!
//! [`Position::from_stones`] asks that a game reach the stones. They are checked (on the board,
//! one per cell, counts that alternating moves reach) and a history is rebuilt by alternating
//! the two players' stones. A finished game must have been finished by its last move, so a
//! winning line must belong to the player who moved last, only one player may have one, and one
//! stone of it must be the one whose removal leaves no win: that stone goes last in the rebuilt
//! history.
//!
//! [`Position::from_setup`] takes the stones as a board editor leaves them, with the player to
//! move named: any counts, since an editor (or a manager handing an engine a position to
//! analyse) need not alternate. When a game reaches the stones with that player to move, the
//! position is that game's, as from [`Position::from_stones`]; otherwise the stones are set up,
//! not played (see [`Position::setup_stones`]), and the moves alternate from the player named.
//! Only what no board can hold is refused: a stone off the board, two on a cell, and a winning
//! line for both players (the game ends at the first).

use std::collections::HashSet;
use std::fmt;

use crate::cell::Cell;
use crate::player::Player;
use crate::position::{Outcome, Position};
use crate::rules::Rules;

/// Why a set of stones is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A stone lies off the board.
    OffBoard(Cell),
    /// Two stones on one cell.
    Duplicate(Cell),
    /// The stone counts cannot arise from alternating moves.
    BadCounts {
        /// Stones of the player who moved first.
        first: usize,
        /// Stones of the other player.
        second: usize,
    },
    /// Both players have a winning line, which no game reaches (it ends at the first).
    BothWon,
    /// A player has a winning line but the other one moved last.
    WrongWinner {
        /// Who has the winning line.
        winner: Player,
        /// Who moved last, by the stone counts.
        last_mover: Player,
    },
    /// No single stone could have been the move that ended the game (say, two separate lines).
    SeveralWinningMoves,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unreachable = "this position cannot arise in a game";
        match self {
            SetupError::OffBoard(c) => write!(f, "{c} is not on the board"),
            SetupError::Duplicate(c) => write!(f, "{c} holds two stones: a cell takes one"),
            SetupError::BadCounts { first, second } => write!(
                f,
                "the first player has {first} stones and the second {second}: the first must have as many or one more"
            ),
            SetupError::BothWon => write!(f, "{unreachable}: both players have a winning line"),
            SetupError::WrongWinner { winner, last_mover } => write!(
                f,
                "{unreachable}: {winner} has a winning line but {last_mover} moved last"
            ),
            SetupError::SeveralWinningMoves => write!(
                f,
                "{unreachable}: more than one move would have ended the game"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// The position with X's stones on `x` and O's on `o`, in any order, or why no game reaches
    /// it (see [`SetupError`]). The history is rebuilt as a placement order, the players' stones
    /// alternating and a winning stone last; it is not checked to be a game move by move. Under
    /// exactly-k (and caro) rules it may pass through a position that a line of exactly k would
    /// have ended, the overline (or the closing stone) that undoes it coming later, so replaying
    /// it can stop early; under renju, whether each black stone was allowed when it was played
    /// cannot be known without the order, and is not asked.
    ///
    /// ```
    /// use mnk_core::{Cell, Player, Position, Preset, SetupError};
    /// let cells = |s: &str| s.split_whitespace().map(|c| c.parse::<Cell>().unwrap()).collect::<Vec<_>>();
    /// let rules = Preset::TicTacToe.rules();
    /// let pos = Position::from_stones(rules, &cells("a1 b2"), &cells("c3")).unwrap();
    /// assert_eq!(pos.to_move(), Player::O);
    /// assert_eq!(
    ///     Position::from_stones(rules, &cells("a1 a1"), &cells("c3")),
    ///     Err(SetupError::Duplicate("a1".parse().unwrap()))
    /// );
    /// ```
    pub fn from_stones(rules: Rules, x: &[Cell], o: &[Cell]) -> Result<Position, SetupError> {
        check_cells(&rules, x, o)?;
        let first = rules.first();
        let mut stones = [x.to_vec(), o.to_vec()];
        let (nf, ns) = (
            stones[first.index()].len(),
            stones[first.opponent().index()].len(),
        );
        if nf != ns && nf != ns + 1 {
            return Err(SetupError::BadCounts {
                first: nf,
                second: ns,
            });
        }
        let last_mover = if nf == ns + 1 {
            first
        } else {
            first.opponent()
        };
        let build = |stones: &[Vec<Cell>; 2]| {
            let mut pos = Position::new(rules);
            let (f, s) = (&stones[first.index()], &stones[first.opponent().index()]);
            for i in 0..f.len().max(s.len()) {
                for side in [f, s] {
                    if let Some(&c) = side.get(i) {
                        pos.place_stone(c);
                    }
                }
            }
            pos
        };
        let mut pos = build(&stones);
        let winners: Vec<Player> = [Player::X, Player::O]
            .into_iter()
            .filter(|&p| pos.winning_line_of(p).is_some())
            .collect();
        match winners.as_slice() {
            [] => {}
            [winner] if *winner != last_mover => {
                return Err(SetupError::WrongWinner {
                    winner: *winner,
                    last_mover,
                })
            }
            [winner] => {
                let winner = *winner;
                let line = pos.winning_line_of(winner).expect("found above");
                // A stone of the line whose removal leaves no win was played last.
                let own = &stones[winner.index()];
                let order = line
                    .iter()
                    .find_map(|cell| {
                        let i = own.iter().position(|c| c == cell)?;
                        let mut trial = own.clone();
                        let c = trial.remove(i);
                        let mut without = stones.clone();
                        without[winner.index()] = trial.clone();
                        trial.push(c);
                        (!build(&without).scan_outcome().is_over()).then_some(trial)
                    })
                    .ok_or(SetupError::SeveralWinningMoves)?;
                stones[winner.index()] = order;
                pos = build(&stones);
            }
            _ => return Err(SetupError::BothWon),
        }
        pos.set_outcome(pos.scan_outcome());
        Ok(pos)
    }

    /// The position with X's stones on `x` and O's on `o`, in any order and in any numbers, and
    /// `to_move` to move; or why no board holds these stones (off the board, two on a cell, or a
    /// winning line for each player: [`SetupError`]). This is a board editor's position: the
    /// counts need not alternate, so nothing is said about how the stones came.
    ///
    /// When a game reaches these stones with `to_move` next, the position is that game's, the
    /// same as [`Position::from_stones`] builds. Otherwise the stones are placed rather than
    /// played ([`Position::setup_stones`] counts them; [`Position::undo`] stops at them), and
    /// the moves from here alternate from `to_move`. A winning line on the board makes the game
    /// won by its owner, whoever is to move; a full board without one is a draw. The rules'
    /// first player is black under renju whatever the counts: choosing which side that is, is
    /// the caller's decision.
    ///
    /// ```
    /// use mnk_core::{Cell, Player, Position, Preset, SetupError};
    /// let cells = |s: &str| s.split_whitespace().map(|c| c.parse::<Cell>().unwrap()).collect::<Vec<_>>();
    /// let rules = Preset::Gomoku15.rules();
    /// // X has four stones to O's two and is to move, as an editor may leave it.
    /// let pos = Position::from_setup(rules, &cells("h7 h8 h9 h10"), &cells("j8 j9"), Player::X).unwrap();
    /// assert_eq!(pos.to_move(), Player::X);
    /// assert_eq!(pos.setup_stones(), 6);
    /// assert!(pos.wins_at("h11".parse().unwrap(), Player::X));
    /// // Counts a game reaches give the game's position.
    /// let game = Position::from_setup(rules, &cells("h8"), &cells("j9"), Player::X).unwrap();
    /// assert_eq!(game.setup_stones(), 0);
    /// assert_eq!(
    ///     Position::from_setup(rules, &cells("h8"), &cells("h8"), Player::O),
    ///     Err(SetupError::Duplicate("h8".parse().unwrap()))
    /// );
    /// ```
    pub fn from_setup(
        rules: Rules,
        x: &[Cell],
        o: &[Cell],
        to_move: Player,
    ) -> Result<Position, SetupError> {
        check_cells(&rules, x, o)?;
        let first = rules.first();
        let (nf, ns) = match first {
            Player::X => (x.len(), o.len()),
            Player::O => (o.len(), x.len()),
        };
        // The player a game would have to move: the first with equal counts, the second when
        // the first has one stone more; no one for other counts.
        let in_turn = if nf == ns {
            Some(first)
        } else if nf == ns + 1 {
            Some(first.opponent())
        } else {
            None
        };
        if in_turn == Some(to_move) {
            match Position::from_stones(rules, x, o) {
                Ok(pos) => return Ok(pos),
                Err(SetupError::BothWon) => return Err(SetupError::BothWon),
                // A winning line that no last move made: a finished game all the same, set up.
                Err(_) => {}
            }
        }
        let mut pos = Position::new(rules);
        // Interleaved from the first player's, so the history reads like a game where it can.
        let (f, s) = match first {
            Player::X => ((x, Player::X), (o, Player::O)),
            Player::O => ((o, Player::O), (x, Player::X)),
        };
        for i in 0..x.len().max(o.len()) {
            for (side, player) in [f, s] {
                if let Some(&c) = side.get(i) {
                    pos.place_setup_stone(c, player);
                }
            }
        }
        if pos.winning_line_of(Player::X).is_some() && pos.winning_line_of(Player::O).is_some() {
            return Err(SetupError::BothWon);
        }
        pos.finish_setup(to_move);
        Ok(pos)
    }

    /// A winning line of `player`'s stones on the board, found by scanning every run.
    fn winning_line_of(&self, player: Player) -> Option<Vec<Cell>> {
        match self.scan_outcome_of(player) {
            Outcome::Win { line, .. } => Some(line),
            _ => None,
        }
    }
}

/// Checks that every stone is on the board and no cell holds two.
fn check_cells(rules: &Rules, x: &[Cell], o: &[Cell]) -> Result<(), SetupError> {
    let mut seen = HashSet::new();
    for &c in x.iter().chain(o) {
        if !rules.contains(c) {
            return Err(SetupError::OffBoard(c));
        }
        if !seen.insert(c) {
            return Err(SetupError::Duplicate(c));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::cells;
    use crate::rules::Preset;

    #[test]
    fn bad_stones_say_why() {
        let rules = Preset::TicTacToe.rules();
        let setup = |x: &str, o: &str| Position::from_stones(rules, &cells(x), &cells(o));
        assert_eq!(
            setup("a1 d4", "b1"),
            Err(SetupError::OffBoard("d4".parse().unwrap()))
        );
        assert_eq!(
            setup("a1 b2", "b2"),
            Err(SetupError::Duplicate("b2".parse().unwrap()))
        );
        assert_eq!(
            setup("a1 b1 c2", "a2"),
            Err(SetupError::BadCounts {
                first: 3,
                second: 1
            })
        );
        assert_eq!(setup("a1 b1 c1", "a2 b2 c2"), Err(SetupError::BothWon));
        assert_eq!(
            setup("a1 b1 c1", "a2 b2 a3"),
            Err(SetupError::WrongWinner {
                winner: Player::X,
                last_mover: Player::O
            })
        );
        // Two separate lines: no one stone made both.
        let rules = Rules::bounded(5, 3, 3).unwrap();
        assert_eq!(
            Position::from_stones(rules, &cells("a1 b1 c1 a3 b3 c3"), &cells("a2 c2 d1 e2 d3")),
            Err(SetupError::SeveralWinningMoves)
        );
        let won = setup("a1 b1 c1", "a2 b2").unwrap();
        assert_eq!(won.outcome().winner(), Some(Player::X));
    }
}
