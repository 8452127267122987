//! Search scores: evaluation units, or `MATE - n` for a win `n` plies from the root
//! (`-(MATE - n)` for a loss), shared by the search, its table and the engine's answers.

/// Score of a win on the spot (a win `n` plies from the root scores `MATE - n`).
pub const MATE: i32 = 30_000;
/// Deepest ply a search reaches (extensions included).
pub const MAX_PLY: usize = 120;
/// Above any score.
pub const INFINITY: i32 = MATE + 1;

/// Whether a score is a proven win.
#[must_use]
pub fn is_win(score: i32) -> bool {
    score >= MATE - MAX_PLY as i32 - 10
}

/// Whether a score is a proven loss.
#[must_use]
pub fn is_loss(score: i32) -> bool {
    score <= -(MATE - MAX_PLY as i32 - 10)
}
