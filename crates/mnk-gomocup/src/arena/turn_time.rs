//! `mnk bench --turn-ms MS`: how much of each turn an engine uses, the way a tournament manager
//! sees it. Each position goes to a fresh engine process (`INFO timeout_turn MS`, no game clock)
//! as a `BOARD`, and the time from sending it to reading the move is measured, with the deepest
//! `MESSAGE depth N` the engine reported. Any Gomocup engine can be measured, so a build of an
//! older commit is measured the same way as this one.

use std::fmt;
use std::time::{Duration, Instant};

use mnk_core::Position;

use super::engine::{Engine, EngineSettings};
use super::Fault;

/// Time an engine may take past the turn before the measurement gives up on it.
const GRACE: Duration = Duration::from_secs(5);

/// One position's turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnSample {
    /// Milliseconds from sending the position to reading the move.
    pub ms: f64,
    /// The deepest depth the engine reported, if it reported any.
    pub depth: Option<u32>,
}

/// The turns of a set of positions at one move time.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnReport {
    /// The move time the engine was given.
    pub turn_ms: u64,
    /// One sample a position, in the positions' order.
    pub samples: Vec<TurnSample>,
}

/// The middle value of `values` (the mean of the two middle ones for an even count), `None` for
/// none.
fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

impl TurnReport {
    /// The median time a turn took, in milliseconds.
    #[must_use]
    pub fn median_ms(&self) -> Option<f64> {
        median(self.samples.iter().map(|s| s.ms).collect())
    }

    /// The median time as a share of the move time.
    #[must_use]
    pub fn median_share(&self) -> Option<f64> {
        self.median_ms().map(|ms| ms / self.turn_ms.max(1) as f64)
    }

    /// The longest time past the move time, in milliseconds (0 when every move was in time).
    #[must_use]
    pub fn worst_overrun_ms(&self) -> f64 {
        self.samples
            .iter()
            .map(|s| s.ms - self.turn_ms as f64)
            .fold(0.0, f64::max)
    }

    /// How many turns used between `low` and `high` (shares of the move time, inclusive).
    #[must_use]
    pub fn used_between(&self, low: f64, high: f64) -> usize {
        let turn = self.turn_ms.max(1) as f64;
        self.samples
            .iter()
            .filter(|s| (low..=high).contains(&(s.ms / turn)))
            .count()
    }

    /// The median reported depth, over the positions where the engine reported one.
    #[must_use]
    pub fn median_depth(&self) -> Option<f64> {
        median(
            self.samples
                .iter()
                .filter_map(|s| s.depth.map(f64::from))
                .collect(),
        )
    }
}

impl fmt::Display for TurnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.samples.len();
        writeln!(f, "{:>4} {:>9} {:>6} {:>6}", "#", "ms", "share", "depth")?;
        for (i, s) in self.samples.iter().enumerate() {
            let depth = s.depth.map_or("-".to_string(), |d| d.to_string());
            let share = 100.0 * s.ms / self.turn_ms.max(1) as f64;
            writeln!(f, "{:>4} {:>9.1} {:>5.0}% {:>6}", i + 1, s.ms, share, depth)?;
        }
        let (Some(ms), Some(share)) = (self.median_ms(), self.median_share()) else {
            return write!(f, "No positions measured");
        };
        let depth = self
            .median_depth()
            .map_or("none reported".to_string(), |d| format!("{d:.1}"));
        write!(
            f,
            "Turns of {} ms on {n} positions: median {ms:.1} ms ({:.0}% of the turn), {} of {n} \
             between 70% and 90%, worst overrun {:.1} ms, median depth {depth}",
            self.turn_ms,
            100.0 * share,
            self.used_between(0.7, 0.9),
            self.worst_overrun_ms(),
        )
    }
}

/// Measures `command` (a Gomocup engine's command line) on every position at `turn_ms` a move,
/// one fresh process a position, told `INFO thread_num` when `threads` is set. `positions` must be
/// on bounded boards with the engine's rules the protocol can name (as for `mnk match`).
///
/// # Errors
/// The engine's fault (it could not start, broke the protocol, or gave no move within the turn
/// and a grace of five seconds), with the position's number.
pub fn measure_turns(
    command: &str,
    positions: &[Position],
    turn_ms: u64,
    threads: Option<usize>,
) -> Result<TurnReport, (usize, Fault)> {
    let settings = EngineSettings {
        turn_ms,
        match_ms: 0,
        max_memory: 350 << 20,
        threads,
        max_nodes: None,
    };
    let mut samples = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        let at = |fault| (i + 1, fault);
        let mut engine = Engine::start(command, pos.rules(), settings).map_err(at)?;
        let start = Instant::now();
        let deadline = start + Duration::from_millis(turn_ms) + GRACE;
        engine.request(pos, None, deadline).map_err(at)?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        samples.push(TurnSample {
            ms,
            depth: engine.reported_depth(),
        });
        engine.end();
    }
    Ok(TurnReport { turn_ms, samples })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(ms: &[f64], depths: &[Option<u32>]) -> TurnReport {
        TurnReport {
            turn_ms: 200,
            samples: ms
                .iter()
                .zip(depths)
                .map(|(&ms, &depth)| TurnSample { ms, depth })
                .collect(),
        }
    }

    #[test]
    fn medians_shares_and_overruns() {
        let r = report(
            &[150.0, 190.0, 120.0, 215.0],
            &[Some(10), Some(12), None, Some(11)],
        );
        assert_eq!(r.median_ms(), Some(170.0));
        assert_eq!(r.median_share(), Some(0.85));
        assert_eq!(r.worst_overrun_ms(), 15.0);
        assert_eq!(r.used_between(0.7, 0.9), 1);
        assert_eq!(r.median_depth(), Some(11.0));
        assert!(r.to_string().ends_with(
            "median 170.0 ms (85% of the turn), 1 of 4 between 70% and 90%, worst overrun \
             15.0 ms, median depth 11.0"
        ));
    }

    #[test]
    fn moves_in_time_have_no_overrun() {
        let r = report(&[10.0, 199.0, 140.0], &[None, None, None]);
        assert_eq!(r.worst_overrun_ms(), 0.0);
        assert_eq!(r.median_ms(), Some(140.0));
        assert_eq!(r.median_depth(), None);
        assert!(r.to_string().ends_with("median depth none reported"));
    }

    #[test]
    fn no_positions_no_figures() {
        let r = report(&[], &[]);
        assert_eq!((r.median_ms(), r.median_share()), (None, None));
        assert_eq!(r.to_string().lines().last(), Some("No positions measured"));
    }
}
