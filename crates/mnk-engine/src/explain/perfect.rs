//! The perfect player's reasons: the exact value of every move, and the line of best play
//! after its own.
//!
//! Values count plies to the end of the game, as the unbeatable minimax this player grew from
//! scored a win 100 less the plies and a loss -100 plus the plies: among winning moves the
//! fastest is best, among losing ones the slowest, so the computer wins quickly and loses late.

use mnk_core::{Cell, Player};

use crate::value::Value;

/// Why the chosen moves are the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The position is won: the moves that win soonest.
    FastestWin,
    /// Neither side can force a win: the moves that keep the draw.
    Draw,
    /// Every move loses: the moves that lose latest.
    SlowestLoss,
}

/// One move of the line of best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The move.
    pub cell: Cell,
    /// Who plays it.
    pub player: Player,
    /// What it is worth to that player.
    pub value: Value,
}

/// The perfect player's explanation.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfectLine {
    /// The position's exact value for the bot.
    pub value: Value,
    /// The moves that keep it, in cell order: the bot picked one at random.
    pub best: Vec<Cell>,
    /// Every legal move with its exact value, best first, then by cell; `None` when the solver
    /// could not value them all in the time left after choosing.
    pub moves: Option<Vec<(Cell, Value)>>,
    /// The chosen move, then both sides' best play (the first best move in cell order) to the
    /// end of the game.
    pub path: Vec<PathStep>,
    /// Whether the path reaches the end of the game (the time may run out first).
    pub path_complete: bool,
    /// Nodes the solver searched after the choice, for the path and the other moves' values.
    pub extra_nodes: u64,
}

impl PerfectLine {
    /// Why the best moves are best.
    #[must_use]
    pub fn reason(&self) -> Reason {
        match self.value {
            Value::Win(_) => Reason::FastestWin,
            Value::Loss(_) => Reason::SlowestLoss,
            Value::Draw | Value::Eval(_) => Reason::Draw,
        }
    }
}
