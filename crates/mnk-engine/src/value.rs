//! Values of positions and moves, from the point of view of the side to move.

use std::cmp::Ordering;
use std::fmt;

/// What a position or move is worth to the player who is to move (for a move: to the player who
/// plays it). Proven values count plies to the end of the game; heuristic ones are an evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A proven win in this many plies (1 = winning now).
    Win(u32),
    /// A proven draw.
    Draw,
    /// A proven loss in this many plies.
    Loss(u32),
    /// Not proven: a heuristic evaluation, positive is good (about 100 per "pawn" of advantage).
    Eval(i32),
}

impl Value {
    /// A single number that orders values: faster wins high, slower losses higher than faster
    /// ones, evaluations in between.
    #[must_use]
    pub fn rank(self) -> i64 {
        const PROVEN: i64 = 1 << 40;
        match self {
            Value::Win(n) => PROVEN - i64::from(n),
            Value::Loss(n) => -PROVEN + i64::from(n),
            Value::Draw => 0,
            Value::Eval(e) => i64::from(e).clamp(-(PROVEN / 2), PROVEN / 2),
        }
    }

    /// Whether the value is proven (not an evaluation).
    #[must_use]
    pub fn is_proven(self) -> bool {
        !matches!(self, Value::Eval(_))
    }

    /// The value one ply earlier, seen by the opponent: a win in n becomes a loss in n + 1.
    #[must_use]
    pub fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
            Value::Eval(e) => Value::Eval(-e),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => write!(f, "draw"),
            Value::Eval(e) => write!(f, "{e:+}"),
        }
    }
}
