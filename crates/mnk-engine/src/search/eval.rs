//! Static evaluation from the incremental patterns.
//!
//! Every empty cell carries, per player, a score for the shapes a stone there would make (the
//! line patterns plus a bonus for their combination); the board keeps the sums, and every value
//! comes from the board's [`super::weight_table`]. The evaluation is the mover's sum against
//! the opponent's, the mover's weighted a little more (it plays next: 9 quarters against 8 in the
//! shipped tables, worth some 180 Elo over equal weights), plus a term for threats that decide
//! the game soon: the mover who can make an open four is close to winning unless the opponent
//! has fours to interpose. Forced lines (fives, fours) are left to the search and its quiescence.

use super::board::Board;
use super::threat::Threat;

/// The largest evaluation (well below mate scores).
pub const EVAL_LIMIT: i32 = 20_000;

/// The position's value for the side to move, in evaluation units (about 100 per "pawn").
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side();
    let op = 1 - me;
    let terms = &board.weights().weights().eval;
    let mut v = board.net_eval().unwrap_or_else(|| {
        (terms.own_quarters * board.score_sum(me) - terms.opponent_quarters * board.score_sum(op))
            / 4
    });
    // Under renju black's threats on forbidden points are none (the checks cost nothing
    // elsewhere).
    if board.has_playable_threat(me, Threat::Flex4) || board.has_unblockable_four(me) {
        v += if board.threats_at_least(op, Threat::Block4) == 0 {
            terms.flex4_unanswered
        } else {
            terms.flex4_answered
        };
    } else if board.threat_count(me, Threat::Block4Flex3) > 0
        && board.has_playable_threat(me, Threat::Block4Flex3)
    {
        v += terms.four_three;
    }
    v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::weight_table::{Variant, WeightTable};
    use mnk_core::{Position, Rules};

    #[test]
    fn symmetric_positions_favour_the_mover_and_threats_count() {
        let rules: Rules = "15x15x5".parse().unwrap();
        // Equal sums (an empty board): the mover is ahead by its extra quarters, a tempo.
        // The tables' terms (15×15 freestyle is judged by the network, see super::net).
        let table = WeightTable::shipped(Variant::of(&rules));
        let empty = Board::with_weights(&Position::new(rules), table);
        let terms = &empty.weights().weights().eval;
        let sum = empty.score_sum(0);
        assert_eq!(empty.score_sum(1), sum);
        let tempo = (terms.own_quarters - terms.opponent_quarters) * sum / 4;
        assert!(tempo > 0, "{tempo}");
        assert_eq!(evaluate(&empty), tempo);
        let three: Vec<_> = ["h8", "a1", "i8", "a15"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let pos = Position::from_moves(rules, &three).unwrap();
        let v = evaluate(&Board::with_weights(&pos, table));
        assert!(v > 0, "{v}");
    }
}
