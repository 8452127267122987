//! How a timed search spends its turn: after each completed iteration, whether to start another.
//!
//! The deadline itself is a hard stop (the search's [`super::control::Control`] ends it there);
//! this plan decides when starting another iteration is worth it. An iteration takes about twice
//! as long as the one before, so one started when a share `s` of the turn is spent ends near
//! `2s`, or is stopped at the deadline with its root moves searched so far still counted (see
//! [`super::search::Searcher::improved_root`]). So that a move does not run on to the
//! deadline, an iteration also ends early at the soft stop ([`SOFT_STOP_SHARE`] of the turn)
//! once its root search has a move that beat alpha: a move takes some 70–90% of its turn; less
//! when the best move has stayed the same for several iterations, more when it keeps changing or
//! the score falls.
//!
//! Without a deadline nothing here applies: a depth- or node-limited search is reproducible.

/// Share of the turn after which no new iteration starts, in a position without news.
pub const BASE_SHARE: f64 = 0.75;
/// The share when the best move has not changed for [`STABLE_ITERATIONS`] iterations.
pub const STABLE_SHARE: f64 = 0.55;
/// The share when the best move changed in the last iteration or the score fell.
pub const UNSETTLED_SHARE: f64 = 0.9;
/// Iterations with the same best move after which it counts as settled.
pub const STABLE_ITERATIONS: u32 = 4;
/// A fall of the score from one iteration to the next that counts as bad news, in evaluation
/// units.
pub const SCORE_FALL: i32 = 40;
/// Share of the turn after which an iteration that has already raised a root move ends after
/// the root move under way (the soft stop, [`super::search::Searcher::set_soft_stop`]).
pub const SOFT_STOP_SHARE: f64 = 0.8;
/// The soft stop's share when the best move changed in the last iteration or the score fell.
pub const UNSETTLED_SOFT_STOP_SHARE: f64 = 0.9;
/// Iterations before this depth say too little about stability to change the share.
const FIRST_JUDGED_DEPTH: u32 = 4;

/// Least part of a game clock that is never spent.
pub const CLOCK_RESERVE_MIN_MS: u64 = 50;
/// Greatest part of a game clock that is never spent.
pub const CLOCK_RESERVE_MAX_MS: u64 = 3_000;

/// How many more moves of its own a player should share its game time over, after `ply` stones.
#[must_use]
pub fn moves_to_go(ply: usize) -> u64 {
    (30u64.saturating_sub(ply as u64 / 2)).clamp(10, 30)
}

/// A move's share of a game clock with `left_ms` on it after `ply` stones: a reserve kept back
/// (a tenth, within [`CLOCK_RESERVE_MIN_MS`]..=[`CLOCK_RESERVE_MAX_MS`]), the rest shared over
/// [`moves_to_go`], plus three quarters of the `increment_ms` the move earns back.
#[must_use]
pub fn clock_share_ms(left_ms: u64, increment_ms: u64, ply: usize) -> u64 {
    let reserve = (left_ms / 10).clamp(CLOCK_RESERVE_MIN_MS, CLOCK_RESERVE_MAX_MS);
    left_ms.saturating_sub(reserve) / moves_to_go(ply) + increment_ms * 3 / 4
}

/// The plan of one search's time.
#[derive(Clone, Debug)]
pub struct TimePlan {
    /// The turn's time, in ms; `None` without a deadline.
    budget_ms: Option<u64>,
    /// The best move and score of the last completed iteration.
    last: Option<(usize, i32)>,
    /// Completed iterations in a row with the same best move.
    same_best: u32,
    /// Whether the last iteration changed the best move or lowered the score.
    unsettled: bool,
}

impl TimePlan {
    /// A plan for a turn of `budget_ms` (`None`: no deadline, never stop for time).
    #[must_use]
    pub fn new(budget_ms: Option<u64>) -> TimePlan {
        TimePlan {
            budget_ms,
            last: None,
            same_best: 0,
            unsettled: false,
        }
    }

    /// When the next iteration's soft stop comes, in ms from the turn's start (`None` without
    /// a deadline).
    #[must_use]
    pub fn soft_stop_ms(&self) -> Option<u64> {
        let share = if self.unsettled {
            UNSETTLED_SOFT_STOP_SHARE
        } else {
            SOFT_STOP_SHARE
        };
        self.budget_ms.map(|b| (b as f64 * share) as u64)
    }

    /// After an iteration to `depth` that found `best` (a root move) with `score`, with
    /// `elapsed_ms` of the turn spent: whether another iteration should start.
    pub fn another_iteration(
        &mut self,
        depth: u32,
        best: usize,
        score: i32,
        elapsed_ms: u64,
    ) -> bool {
        let previous = self.last.replace((best, score));
        let changed = previous.is_some_and(|(b, _)| b != best);
        let fell = previous.is_some_and(|(_, s)| s - score >= SCORE_FALL);
        self.same_best = if changed { 0 } else { self.same_best + 1 };
        self.unsettled = depth >= FIRST_JUDGED_DEPTH && (changed || fell);
        let Some(budget) = self.budget_ms else {
            return true;
        };
        let share = if depth < FIRST_JUDGED_DEPTH {
            BASE_SHARE
        } else if changed || fell {
            UNSETTLED_SHARE
        } else if self.same_best >= STABLE_ITERATIONS {
            STABLE_SHARE
        } else {
            BASE_SHARE
        };
        (elapsed_ms as f64) < budget as f64 * share
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_shared_over_the_moves_to_come() {
        assert_eq!(
            (moves_to_go(0), moves_to_go(20), moves_to_go(200)),
            (30, 20, 10)
        );
        // 5 s, first move: (5000 - 500) / 30.
        assert_eq!(clock_share_ms(5_000, 0, 0), 150);
        // 3 s + 1 s: three quarters of the increment on top.
        assert_eq!(clock_share_ms(3_000, 1_000, 0), 840);
        // The reserve is at least 50 ms and at most 3 s.
        assert_eq!(clock_share_ms(40, 0, 0), 0);
        assert_eq!(clock_share_ms(600_000, 0, 60), (600_000 - 3_000) / 10);
    }

    #[test]
    fn without_a_deadline_every_iteration_goes_on() {
        let mut plan = TimePlan::new(None);
        for depth in 1..30 {
            assert!(plan.another_iteration(depth, 7, 0, u64::MAX));
        }
    }

    /// The elapsed time, in ms of a 1000 ms turn, just under and just over `share` of it.
    fn around(share: f64) -> (u64, u64) {
        let at = (1000.0 * share) as u64;
        (at - 1, at + 1)
    }

    #[test]
    fn a_quiet_search_starts_iterations_until_the_base_share() {
        let mut plan = TimePlan::new(Some(1000));
        let (under, over) = around(BASE_SHARE);
        assert!(plan.another_iteration(1, 3, 10, 10));
        assert!(plan.another_iteration(5, 3, 12, under));
        assert!(!plan.another_iteration(6, 3, 12, over));
    }

    /// A plan whose best move has been `best` with `score` for six iterations.
    fn settled(best: usize, score: i32) -> TimePlan {
        let mut plan = TimePlan::new(Some(1000));
        for depth in 1..=6 {
            plan.another_iteration(depth, best, score, 50);
        }
        plan
    }

    #[test]
    fn the_soft_stop_comes_later_after_bad_news() {
        assert_eq!(TimePlan::new(None).soft_stop_ms(), None);
        let mut plan = settled(3, 20);
        assert_eq!(plan.soft_stop_ms(), Some(800));
        plan.another_iteration(7, 4, 20, 100);
        assert_eq!(plan.soft_stop_ms(), Some(900));
        plan.another_iteration(8, 4, 20 - SCORE_FALL, 200);
        assert_eq!(plan.soft_stop_ms(), Some(900));
        plan.another_iteration(9, 4, 20 - SCORE_FALL, 300);
        assert_eq!(plan.soft_stop_ms(), Some(800));
    }

    #[test]
    fn a_settled_best_move_stops_sooner() {
        let mut plan = settled(3, 20);
        let (under, over) = around(STABLE_SHARE);
        assert!(plan.another_iteration(7, 3, 20, under));
        assert!(!plan.another_iteration(8, 3, 20, over));
    }

    #[test]
    fn a_new_best_move_or_a_falling_score_gets_more_time() {
        let (under, over) = around(UNSETTLED_SHARE);
        // A new best move: on until the unsettled share, where a quiet search stops sooner.
        assert!(settled(3, 20).another_iteration(7, 9, 20, under));
        assert!(!settled(3, 20).another_iteration(7, 9, 20, over));
        assert!(!settled(3, 20).another_iteration(7, 3, 20, under));
        // The same move, its score fallen by SCORE_FALL.
        assert!(settled(3, 100).another_iteration(7, 3, 100 - SCORE_FALL, under));
        assert!(!settled(3, 100).another_iteration(7, 3, 100 - SCORE_FALL + 1, under));
    }
}
