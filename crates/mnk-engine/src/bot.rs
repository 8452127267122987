//! One interface for every computer player, from the 3×3 rule player to the engine.

use std::fmt;

use mnk_core::{Cell, Position};

use crate::explain::Explanation;
use crate::limits::Limits;
use crate::value::Value;

/// What a bot decided, with whatever it learned on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play.
    pub cell: Cell,
    /// What the move is worth to the bot's side, when the bot knows.
    pub value: Option<Value>,
    /// The expected continuation, starting with `cell` (may hold only `cell`).
    pub pv: Vec<Cell>,
    /// Depth reached, in plies (0 for bots that do not search).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// A bot's move and why it chose it.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The choice, exactly as [`Bot::choose`] makes it with the same seed and limits.
    pub choice: Choice,
    /// What the bot read, weighed or searched to make it.
    pub explanation: Explanation,
}

impl Choice {
    /// A choice with nothing known beyond the move.
    #[must_use]
    pub fn just(cell: Cell) -> Choice {
        Choice {
            cell,
            value: None,
            pv: vec![cell],
            depth: 0,
            nodes: 0,
        }
    }
}

/// Progress reported while a bot thinks, so front-ends can stream it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Depth just completed.
    pub depth: u32,
    /// Value of the best move so far.
    pub value: Value,
    /// Principal variation.
    pub pv: Vec<Cell>,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds since the search began (0 without a clock).
    pub elapsed_ms: u64,
}

/// Why a bot cannot move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotError {
    /// The game is over: there is nothing to choose.
    GameOver,
    /// This bot does not play these rules (the message says which it does play).
    Unsupported(String),
    /// No bot has this name (the message names those that exist).
    UnknownBot(String),
    /// The limits ran out before the bot could answer as it promises (the perfect player must
    /// prove its move; the others always answer).
    OutOfTime {
        /// Nodes searched before stopping.
        nodes: u64,
    },
    /// This bot does not explain its moves (the message says which bots do).
    NotExplained(String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::GameOver => write!(f, "the game is over"),
            BotError::Unsupported(why) => write!(f, "{why}"),
            BotError::OutOfTime { nodes } => write!(
                f,
                "the time ran out before the move was proven ({nodes} nodes): allow more time"
            ),
            BotError::UnknownBot(message) | BotError::NotExplained(message) => {
                write!(f, "{message}")
            }
        }
    }
}

impl std::error::Error for BotError {}

/// A computer player.
pub trait Bot: Send {
    /// The bot's identifier (one of the roster's `BOTS`).
    fn id(&self) -> &'static str;

    /// Chooses a move for the side to move within `limits`.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError>;

    /// Like [`Bot::choose`], reporting progress to `info` as the search deepens. Bots that do
    /// not search report nothing.
    fn choose_with_info(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Choice, BotError> {
        let _ = info;
        self.choose(pos, limits)
    }

    /// Like [`Bot::choose`], with why: the same choice (the same move, value and node count for
    /// the same seed and limits), recorded by the same code as it was made. Bots that do not
    /// explain their moves refuse with [`BotError::NotExplained`].
    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        let _ = (pos, limits);
        Err(BotError::NotExplained(not_explained(&format!(
            "the {} bot",
            self.id()
        ))))
    }
}

/// The refusal of a bot (`who`) that does not explain its moves.
#[must_use]
pub(crate) fn not_explained(who: &str) -> String {
    format!("{who} does not explain its moves: the roster's bots and levels do")
}

/// Why a bot does not play a set of rules (a page words it from this, in its language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplayable {
    /// The rule player knows 3×3 tic-tac-toe only.
    OnlyTicTacToe,
    /// The perfect player's solver does not take this win condition (renju, caro).
    NotSolved(mnk_core::Win),
    /// The perfect player needs a bounded board of at most this many cells.
    TooManyCells(usize),
}

impl Unplayable {
    /// A stable name for the reason (`only_tictactoe`, `not_solved`, `too_many_cells`).
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            Unplayable::OnlyTicTacToe => "only_tictactoe",
            Unplayable::NotSolved(_) => "not_solved",
            Unplayable::TooManyCells(_) => "too_many_cells",
        }
    }
}

impl fmt::Display for Unplayable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unplayable::OnlyTicTacToe => {
                write!(f, "the rule player knows only 3x3 tic-tac-toe (three in a row)")
            }
            Unplayable::NotSolved(win) => write!(
                f,
                "the perfect player (the exact solver) does not play {win}: it takes freestyle and exactly-k rules; choose the engine or a level"
            ),
            Unplayable::TooManyCells(max) => write!(
                f,
                "the perfect player needs a bounded board of at most {max} cells"
            ),
        }
    }
}
