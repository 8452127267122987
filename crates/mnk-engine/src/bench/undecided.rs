//! Undecided middle-game positions of 15×15 freestyle, for measuring how much of its turn the
//! engine uses where a move needs thought (`mnk bench --turn-ms`).
//!
//! The positions (the file beside this one) come from level 6 self-play games (100,000 nodes a
//! move, generated openings): positions after 8 to 14 stones, in games that went on for at least
//! 12 more plies, which a depth-6 search of the engine of then scored at no more than 1000 either
//! way (no proven result, no large advantage, with the sides' sums at 4 quarters each). Later
//! positions of such games are mostly decided already: of 101 taken after 16 to 30 stones, two
//! passed. The evaluation's scale has changed since (the mover's sum counts 9 quarters, the
//! opponent's 8, and the values were tuned again), so a test checks what does not depend on it:
//! every position is still unproven at depth 6.

use mnk_core::{Cell, Position, Rules};

use super::BENCH_HASH_MB;
use crate::search::Engine;
use crate::{Limits, Value};

/// The positions, one game record a line (`#` starts a comment).
pub const UNDECIDED_15X15: &str = include_str!("undecided-15x15.txt");

/// The rules of [`UNDECIDED_15X15`].
pub const UNDECIDED_RULES: &str = "15x15x5";

/// The depth of the search that judges a position undecided.
pub const UNDECIDED_DEPTH: u32 = 6;

/// The positions of [`UNDECIDED_15X15`].
///
/// # Panics
/// If the built-in file holds a line that is not a legal record (a test guards against that).
#[must_use]
pub fn undecided_positions() -> Vec<Position> {
    let rules: Rules = UNDECIDED_RULES.parse().expect("undecided rules");
    UNDECIDED_15X15
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let moves: Vec<Cell> = line
                .split_whitespace()
                .map(|c| c.parse().expect("undecided cell"))
                .collect();
            Position::from_moves(rules, &moves).expect("undecided record")
        })
        .collect()
}

/// Whether `pos` is undecided: not over, and a depth-[`UNDECIDED_DEPTH`] search proves neither
/// side's win.
#[must_use]
pub fn is_undecided(pos: &Position) -> bool {
    if pos.is_over() {
        return false;
    }
    let mut engine = Engine::new(BENCH_HASH_MB);
    match engine.analyse(pos, &Limits::depth(UNDECIDED_DEPTH), &mut |_| {}) {
        Ok(a) => matches!(a.value, Value::Eval(_)),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_an_undecided_middle_game() {
        let positions = undecided_positions();
        assert!(positions.len() >= 40, "only {} positions", positions.len());
        for (i, pos) in positions.iter().enumerate() {
            assert!(
                (8..=14).contains(&pos.ply()),
                "position {}: ply {}",
                i + 1,
                pos.ply()
            );
            assert!(is_undecided(pos), "position {} is decided", i + 1);
        }
    }
}
