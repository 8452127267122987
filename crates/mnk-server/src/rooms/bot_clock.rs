//! How long a room's bot may think over one turn: its usual time, unless its clock says less.
//!
//! The server keeps the bot's clock like a person's, so a bot that always thought for its usual
//! second would lose on time on a clock of a few seconds. With a clock it takes a move's share
//! of it as the engine's Gomocup brain does ([`clock_share_ms`]: a reserve kept back, the rest
//! over the moves to come, plus most of the increment).

use std::time::Duration;

use mnk_engine::search::time::clock_share_ms;

/// The least thinking time worth starting a search for: the engine answers at once below it.
const FLOOR_MS: u64 = 10;

/// The bot's thinking time for a turn after `ply` stones: `usual` without a clock; with one,
/// `left_ms` on its clock and `increment_ms` added after the turn, never more than `usual`.
#[must_use]
pub fn bot_budget(usual: Duration, clock: Option<(i64, i64)>, ply: usize) -> Duration {
    let Some((left_ms, increment_ms)) = clock else {
        return usual;
    };
    let left = left_ms.max(0) as u64;
    let share = clock_share_ms(left, increment_ms.max(0) as u64, ply);
    // The increment is only earned by moving in time: never plan past half of what is left.
    let ms = share.min(left / 2).max(FLOOR_MS.min(left / 2));
    usual.min(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_millis(1000);

    #[test]
    fn without_a_clock_the_bot_thinks_its_usual_time() {
        assert_eq!(bot_budget(SECOND, None, 0), SECOND);
        assert_eq!(bot_budget(SECOND, None, 200), SECOND);
    }

    #[test]
    fn a_long_clock_leaves_the_usual_time() {
        // 5 min + 3 s: a second a move is far inside the share.
        assert_eq!(bot_budget(SECOND, Some((300_000, 3_000)), 0), SECOND);
    }

    #[test]
    fn a_clock_of_some_seconds_shortens_the_thought() {
        // 20 s, no increment, after 10 stones: (20000 - 2000) / 25 = 720 ms.
        assert_eq!(
            bot_budget(SECOND, Some((20_000, 0)), 10),
            Duration::from_millis(720)
        );
    }

    #[test]
    fn a_short_clock_is_shared_over_the_game() {
        // 5 s, no increment, first move: (5000 - 500) / 30 = 150 ms.
        assert_eq!(
            bot_budget(SECOND, Some((5_000, 0)), 0),
            Duration::from_millis(150)
        );
        // 3 s + 1 s: the increment's three quarters come on top.
        assert_eq!(
            bot_budget(SECOND, Some((3_000, 1_000)), 0),
            Duration::from_millis(840)
        );
    }

    #[test]
    fn thirty_moves_on_a_short_clock_never_flag() {
        // 5 s and no increment, a move every turn spending its whole budget.
        let mut left = 5_000i64;
        for turn in 0..150 {
            let spent = bot_budget(SECOND, Some((left, 0)), 2 * turn).as_millis() as i64;
            assert!(spent < left, "turn {turn}: {spent} ms of {left}");
            left -= spent;
        }
    }

    #[test]
    fn an_empty_clock_gives_no_time() {
        assert_eq!(bot_budget(SECOND, Some((0, 0)), 40), Duration::ZERO);
        assert_eq!(bot_budget(SECOND, Some((-5, 2_000)), 40), Duration::ZERO);
    }
}
