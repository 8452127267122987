//! What a search may spend: depth, nodes, time, and a stop flag the caller can raise.
//!
//! The engine reads no clock of its own: time comes in as a [`Deadline`] holding a [`Clock`]
//! chosen by the caller, so the same code can run where `std::time` does not exist. On such a
//! target (WebAssembly in a browser, where `Instant::now()` panics) the system clock and what is
//! built on it are not compiled at all: the page's worker gives `performance.now()` instead.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
use std::time::Instant;

/// A source of elapsed time, injected by the caller.
pub trait Clock: Send + Sync {
    /// Milliseconds since some fixed start.
    fn now_ms(&self) -> u64;
}

/// The operating system's monotonic clock, for native front-ends.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl SystemClock {
    /// A clock that starts counting now.
    #[must_use]
    pub fn new() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// A point in time on a given clock after which a search must return.
#[derive(Clone)]
pub struct Deadline {
    clock: Arc<dyn Clock>,
    at_ms: u64,
}

impl std::fmt::Debug for Deadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Deadline(in {} ms)", self.remaining_ms())
    }
}

impl Deadline {
    /// `budget` from now on `clock`.
    pub fn after(clock: Arc<dyn Clock>, budget: Duration) -> Deadline {
        let at_ms = clock.now_ms().saturating_add(budget.as_millis() as u64);
        Deadline { clock, at_ms }
    }

    /// `budget` from now on the system clock.
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    #[must_use]
    pub fn from_now(budget: Duration) -> Deadline {
        Deadline::after(Arc::new(SystemClock::new()), budget)
    }

    /// Whether the deadline has passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.clock.now_ms() >= self.at_ms
    }

    /// Milliseconds left (0 once passed).
    #[must_use]
    pub fn remaining_ms(&self) -> u64 {
        self.at_ms.saturating_sub(self.clock.now_ms())
    }

    /// Milliseconds since the clock's start: for measuring how long a search took.
    #[must_use]
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }
}

/// Limits on one search. All are optional; a search with none runs until done.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Greatest depth in plies (iterative deepening stops there).
    pub max_depth: Option<u32>,
    /// Greatest number of nodes.
    pub max_nodes: Option<u64>,
    /// When to stop thinking and answer: the search plans its time by it (when to start
    /// another iteration, how long the root's threat searches may take), so a search with a
    /// deadline depends on the machine's speed.
    pub deadline: Option<Deadline>,
    /// A hard stop that plans nothing: the search ends there, but until then it runs as it
    /// would without one. A node-limited search with a cutoff is reproducible unless the
    /// cutoff stops it (which [`Limits::should_stop`] then tells).
    pub cutoff: Option<Deadline>,
    /// Raised by the caller to stop the search at once (the best move so far is answered).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limits.
    #[must_use]
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A depth limit only.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A node limit only.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A time limit on the system clock only.
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    #[must_use]
    pub fn time(budget: Duration) -> Limits {
        Limits {
            deadline: Some(Deadline::from_now(budget)),
            ..Limits::default()
        }
    }

    /// Whether the caller asked to stop or the deadline or the cutoff passed. Cheap enough to
    /// call every few thousand nodes; searches should not call it at every node.
    #[must_use]
    pub fn should_stop(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.out_of_time()
    }

    /// Whether the deadline or the cutoff passed.
    #[must_use]
    pub fn out_of_time(&self) -> bool {
        [&self.deadline, &self.cutoff]
            .into_iter()
            .flatten()
            .any(Deadline::passed)
    }

    /// These limits with the deadline made a cutoff (and an earlier cutoff kept): the same
    /// hard stop, but a search under them is decided by its other limits alone until then.
    #[must_use]
    pub fn with_cutoff_only(&self) -> Limits {
        let cutoff = [&self.deadline, &self.cutoff]
            .into_iter()
            .flatten()
            .min_by_key(|d| d.remaining_ms())
            .cloned();
        Limits {
            deadline: None,
            cutoff,
            ..self.clone()
        }
    }

    /// Whether `nodes` reaches the node limit.
    #[must_use]
    pub fn nodes_exhausted(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|m| nodes >= m)
    }
}
