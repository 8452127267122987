//! Counting a search's nodes and deciding when it stops: the limits (nodes, deadline, stop
//! flag), read every [`CHECK_EVERY`] nodes, and the time slices of the root threat searches.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::Limits;

/// Nodes between readings of the clock and the stop flag (a power of two). A node costs under a
/// microsecond on an open board but up to some 50 (its move list scanned and scored) among a
/// thousand stones on the board without borders; this keeps the search within a few
/// milliseconds of the deadline there, for a negligible cost here.
pub const CHECK_EVERY: u64 = 128;

/// Counts nodes and decides when to stop.
pub struct Control<'a> {
    limits: &'a Limits,
    nodes: u64,
    stopped: bool,
    /// An extra node ceiling for a sub-search (root VCT), if any.
    ceiling: Option<u64>,
    /// When the sub-search under way (the root threat searches) must end, on the deadline's
    /// clock, and whether it has.
    slice_end_ms: Option<u64>,
    slice_over: bool,
    /// Where the nodes counted since the last poll are added at every poll, for a caller on
    /// another thread (several searches may add to one meter; a helper thread of a Lazy SMP
    /// search adds to two: the engine's count of its helpers' nodes and the caller's), and how
    /// many were.
    meters: [Option<&'a AtomicU64>; 2],
    published: u64,
}

impl<'a> Control<'a> {
    /// A counter for one search under `limits`.
    #[must_use]
    pub fn new(limits: &'a Limits) -> Control<'a> {
        Control {
            limits,
            nodes: 0,
            stopped: false,
            ceiling: None,
            slice_end_ms: None,
            slice_over: false,
            meters: [None; 2],
            published: 0,
        }
    }

    /// Adds the nodes counted to `meter` at every poll (every [`CHECK_EVERY`] nodes), so that
    /// a front-end can show progress while an iteration runs. Up to two meters; a third
    /// replaces the second.
    pub fn add_meter(&mut self, meter: &'a AtomicU64) {
        let slot = usize::from(self.meters[0].is_some());
        self.meters[slot] = Some(meter);
    }

    /// Counts a node; true when the search must stop now.
    #[inline]
    pub fn tick(&mut self) -> bool {
        // Once stopped, the unwinding (a re-search begun on a stopped search's score) counts
        // nothing: a node limit is never overrun.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.limits.nodes_exhausted(self.nodes) {
            self.stopped = true;
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.poll();
        }
        self.stopped()
    }

    /// Reads the clock and the stop flag now, counting no node (for loops that play no
    /// moves, or too few to count); true when the search must stop.
    pub fn poll(&mut self) -> bool {
        if !self.stopped && self.limits.should_stop() {
            self.stopped = true;
        }
        if let (Some(end), Some(deadline)) = (self.slice_end_ms, &self.limits.deadline) {
            self.slice_over |= deadline.now_ms() >= end;
        }
        for meter in self.meters.iter().flatten() {
            meter.fetch_add(self.nodes - self.published, Ordering::Relaxed);
        }
        self.published = self.nodes;
        self.stopped()
    }

    /// Whether the search must stop (limits, or the sub-search's ceiling or time slice).
    #[inline]
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped || self.slice_over || self.ceiling.is_some_and(|c| self.nodes >= c)
    }

    /// Stops the search now, as a limit would.
    pub fn halt(&mut self) {
        self.stopped = true;
    }

    /// Starts a time slice of `share` of the time left, if there is a deadline.
    pub(super) fn start_slice(&mut self, share: f64) {
        self.slice_end_ms = self
            .limits
            .deadline
            .as_ref()
            .map(|d| d.now_ms() + (d.remaining_ms() as f64 * share) as u64);
        self.slice_over = false;
    }

    /// Ends the time slice.
    pub(super) fn end_slice(&mut self) {
        self.slice_end_ms = None;
        self.slice_over = false;
    }

    /// The limits the search runs under.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Ends the sub-search under way after `nodes` more nodes (`None`: no ceiling of its own).
    pub(super) fn set_ceiling(&mut self, nodes: Option<u64>) {
        self.ceiling = nodes.map(|n| self.nodes + n);
    }

    /// Nodes so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
