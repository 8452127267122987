//! How long the brain may think for one move.
//!
//! A Gomocup game is lost the moment a move arrives late, so the budget is built from what the
//! manager says with a safety margin on every side:
//! - `timeout_turn` caps every move; we keep back a twentieth of it (at least
//!   [`TURN_MARGIN_MIN_MS`], at most [`TURN_MARGIN_MAX_MS`]) for process start-up, pipes and the
//!   search's own stopping latency (together under 10 ms on our machines: more would be
//!   thinking time thrown away). `0` means "play at once".
//! - `timeout_match`/`time_left` cap the game: of what is left we keep back a reserve and share
//!   the rest over the moves still to come ([`clock_share_ms`]). When the manager sends no
//!   `time_left` we count our own spending since the last report (or since `START`).

use std::time::Duration;

use mnk_engine::search::time::clock_share_ms;

/// The turn time assumed when the manager never sends `timeout_turn` (a human at a keyboard).
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Least part of `timeout_turn` kept back.
pub const TURN_MARGIN_MIN_MS: u64 = 10;
/// Greatest part of `timeout_turn` kept back.
pub const TURN_MARGIN_MAX_MS: u64 = 1_000;

/// The manager's clock settings and what the brain has spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Milliseconds per move (`0` = play at once).
    pub turn_ms: u64,
    /// Milliseconds per game (`0` = no limit).
    pub match_ms: u64,
    /// The last `time_left` the manager sent.
    pub reported_left_ms: Option<u64>,
    /// Milliseconds the brain spent thinking since that report (or since the game began).
    pub spent_ms: u64,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            turn_ms: DEFAULT_TURN_MS,
            match_ms: 0,
            reported_left_ms: None,
            spent_ms: 0,
        }
    }
}

impl TimeControl {
    /// A new game starts: nothing spent, no report yet (the settings stay).
    pub fn new_game(&mut self) {
        self.reported_left_ms = None;
        self.spent_ms = 0;
    }

    /// The manager reports the game time left.
    pub fn report_left(&mut self, ms: u64) {
        self.reported_left_ms = Some(ms);
        self.spent_ms = 0;
    }

    /// The brain spent `ms` on a move.
    pub fn spend(&mut self, ms: u64) {
        self.spent_ms = self.spent_ms.saturating_add(ms);
    }

    /// Game time left as far as we know: the last report less what we spent since, or the
    /// game's limit less what we spent; `None` when the game has no limit.
    #[must_use]
    pub fn game_left_ms(&self) -> Option<u64> {
        match self.reported_left_ms {
            Some(left) => Some(left.saturating_sub(self.spent_ms)),
            None if self.match_ms > 0 => Some(self.match_ms.saturating_sub(self.spent_ms)),
            None => None,
        }
    }

    /// What the next move may spend, with `ply` stones on the board.
    #[must_use]
    pub fn budget(&self, ply: usize) -> Duration {
        let margin = (self.turn_ms / 20).clamp(TURN_MARGIN_MIN_MS, TURN_MARGIN_MAX_MS);
        let mut ms = self.turn_ms.saturating_sub(margin);
        if let Some(left) = self.game_left_ms() {
            // The protocol has no increment.
            ms = ms.min(clock_share_ms(left, 0, ply));
        }
        Duration::from_millis(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn_ms: u64, match_ms: u64, left: Option<u64>) -> TimeControl {
        TimeControl {
            turn_ms,
            match_ms,
            reported_left_ms: left,
            spent_ms: 0,
        }
    }

    #[test]
    fn the_turn_limit_keeps_a_margin() {
        assert_eq!(tc(100, 0, None).budget(0), Duration::from_millis(90));
        assert_eq!(tc(200, 0, None).budget(0), Duration::from_millis(190));
        assert_eq!(tc(300, 0, None).budget(0), Duration::from_millis(285));
        assert_eq!(tc(5_000, 0, None).budget(0), Duration::from_millis(4_750));
        assert_eq!(tc(30_000, 0, None).budget(0), Duration::from_millis(29_000));
        assert_eq!(tc(0, 0, None).budget(0), Duration::ZERO);
        assert_eq!(tc(8, 0, None).budget(0), Duration::ZERO);
    }

    #[test]
    fn the_game_clock_is_shared_over_the_moves_to_come() {
        // 180 s per game, 30 s per move: early on the game clock decides.
        let b = tc(30_000, 180_000, Some(180_000)).budget(0);
        assert_eq!(b, Duration::from_millis((180_000 - 3_000) / 30));
        // Almost no time left: spend almost nothing, never more than is left.
        let b = tc(30_000, 180_000, Some(60)).budget(100);
        assert_eq!(b, Duration::from_millis(1));
        assert_eq!(tc(30_000, 180_000, Some(0)).budget(100), Duration::ZERO);
    }

    #[test]
    fn without_reports_we_count_our_own_spending() {
        let mut t = tc(10_000, 20_000, None);
        t.spend(19_000);
        assert_eq!(t.game_left_ms(), Some(1_000));
        assert!(t.budget(10) <= Duration::from_millis(95));
        t.report_left(5_000);
        assert_eq!(t.game_left_ms(), Some(5_000));
        t.spend(1_000);
        assert_eq!(t.game_left_ms(), Some(4_000));
        t.new_game();
        assert_eq!(t.game_left_ms(), Some(20_000));
    }
}
