//! What the rule player read and which of its rules fired.
//!
//! The original game numbered its squares in a spiral (1, 2, 4 across the top, 8 right, 16
//! bottom right, 32 bottom, 64 bottom left, 128 left, 256 centre), so that a set of squares is a
//! sum, and kept a sum per line in which its own stones counted 4 and the person's 1: a line
//! summing to 8 holds two of its stones and a gap (its win), one summing to 2 two of the
//! person's (its block). The decision keeps those numbers so they can be shown as the original
//! read them.

use mnk_core::Cell;

/// Which rule gave the move, in the order the rule player tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Completes the bot's own line: `line` is its index in [`RuleDecision::rows`].
    Win {
        /// The line completed.
        line: usize,
    },
    /// Takes the gap of the opponent's two in a line.
    Block {
        /// The line blocked.
        line: usize,
    },
    /// The corner a fork pattern of the table answers with.
    Fork,
    /// The centre.
    Centre,
    /// A free corner, at random.
    Corner,
    /// A free side, at random.
    Side,
}

/// Which table of the original a fork pattern comes from, and so how it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkTable {
    /// Answered with one corner.
    Corner,
    /// Answered with any side (after the centre, if it is free, as the original's fallback does).
    Side,
    /// Answered with any corner but one (after the centre, if free; then a side if no corner is).
    CornerExcept,
}

/// A fork pattern of the original's tables that the opponent's stones matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForkPattern {
    /// The table it is in.
    pub table: ForkTable,
    /// The opponent's squares, as a sum of spiral numbers (the table's entry).
    pub pattern: u16,
    /// The squares the table answers with, as a sum: the corner; every side; every corner allowed.
    pub reply: u16,
    /// Whether the answer could be played: the original always moved second, so its answers
    /// assume its own stones are where its earlier answers put them; when a reply's squares are
    /// taken, the pattern is passed over and the rules go on.
    pub played: bool,
}

/// One line as the rule player read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The line's squares, as a sum of spiral numbers (the original's table: 7, 392, 112, …).
    pub squares: u16,
    /// The original's line sum: 4 for each of the bot's stones, 1 for each of the opponent's.
    pub sum: u16,
}

/// What the rule player read, which rule fired and the squares it left to chance.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleDecision {
    /// The rule that gave the move.
    pub rule: Rule,
    /// The fork pattern the opponent's stones matched, if one did (it shapes the choice of
    /// centre, corner or side even when its own answer is not what fired).
    pub pattern: Option<ForkPattern>,
    /// The cells the rule allows; the bot picks one at random.
    pub candidates: Vec<Cell>,
    /// The bot's squares, as a sum of spiral numbers.
    pub mine: u16,
    /// The opponent's squares, as a sum of spiral numbers.
    pub theirs: u16,
    /// The eight lines in the original's order (rows, columns, diagonals) with their sums.
    pub rows: [Row; 8],
}
