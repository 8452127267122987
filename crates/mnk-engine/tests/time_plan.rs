//! How a timed search spends its turn, on a clock that advances with the search's own work (a
//! millisecond every few clock readings) instead of the machine's: the same turn every run, on
//! any machine, however loaded. The figures on the real clock come from `mnk bench --turn-ms`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mnk_engine::bench::undecided::undecided_positions;
use mnk_engine::search::Engine;
use mnk_engine::{Clock, Deadline, Limits};

/// A clock that advances a millisecond every [`READINGS_PER_MS`] readings (the search reads it
/// every 128 nodes).
struct WorkClock {
    readings: AtomicU64,
}

/// Clock readings a millisecond: some 1.3 M nodes a second, about the engine's speed here.
const READINGS_PER_MS: u64 = 10;

impl Clock for WorkClock {
    fn now_ms(&self) -> u64 {
        self.readings.fetch_add(1, Ordering::Relaxed) / READINGS_PER_MS
    }
}

/// The share of a `turn_ms` turn that one-thread searches of the first `n` undecided positions
/// take, in the positions' order.
fn shares(n: usize, turn_ms: u64) -> Vec<f64> {
    undecided_positions()
        .iter()
        .take(n)
        .map(|pos| {
            let clock = Arc::new(WorkClock {
                readings: AtomicU64::new(0),
            });
            let limits = Limits {
                deadline: Some(Deadline::after(
                    Arc::clone(&clock) as Arc<dyn Clock>,
                    Duration::from_millis(turn_ms),
                )),
                ..Limits::default()
            };
            let found = Engine::new(16).analyse(pos, &limits, &mut |_| {});
            assert!(found.is_ok(), "{found:?}");
            clock.now_ms() as f64 / turn_ms as f64
        })
        .collect()
}

#[test]
fn undecided_positions_use_most_of_the_turn_and_never_more() {
    let mut used = shares(20, 200);
    println!("{used:?}");
    assert!(used.iter().all(|&s| s <= 1.0), "{used:?}");
    used.sort_by(f64::total_cmp);
    let median = (used[9] + used[10]) / 2.0;
    assert!((0.7..=0.9).contains(&median), "median {median}: {used:?}");
}
