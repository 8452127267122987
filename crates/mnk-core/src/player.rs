//! The two players.

use std::fmt;

/// One of the two players. `X` and `O` are marks, not turn order: [`crate::Rules`] says who
/// moves first (by default `X`, the way tic-tac-toe and gomoku's black begin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Player {
    /// The X player (black in gomoku terms when X moves first).
    X,
    /// The O player.
    O,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O: an index into per-player arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::X => 0,
            Player::O => 1,
        }
    }

    /// The character a diagram uses for this player's stone.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}
