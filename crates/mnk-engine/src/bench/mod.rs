//! `mnk bench`: a fixed set of positions searched to a fixed depth, one thread, a fixed table
//! size. The total node count is the engine's signature: a change that alters it changes the
//! search, and commits that do so record the new `Bench: N` in their message.
//!
//! With more threads (`mnk bench --threads N`, Lazy SMP) the same positions measure what the
//! helpers buy: time to the same depth, nodes per second of all threads together, and depth
//! within the time budget. Those node counts vary from run to run, so they are no signature.
//!
//! The positions cover the rule sets the engine plays: 15×15 and 20×20 freestyle, exact five,
//! the unbounded board, and boards with k = 4 and k = 6. Time is measured on the injected
//! [`SystemClock`] only to report nodes per second; it does not influence the search.

use std::fmt;

pub mod undecided;

use mnk_core::{Cell, Position, Rules};

use crate::search::Engine;
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
use crate::SystemClock;
use crate::{Clock, Limits, Value};

/// Depth searched when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 8;
/// Transposition table size used by the bench, in megabytes.
pub const BENCH_HASH_MB: usize = 16;
/// The signature: total nodes at [`DEFAULT_BENCH_DEPTH`] with one thread (`mnk bench`'s last
/// line). A change to the search that alters it updates this number, and its commit message
/// says `Bench: N`.
pub const SIGNATURE: u64 = 557_615;

/// One bench position: a name, the rules and the moves that lead to it.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    /// What the position is.
    pub name: &'static str,
    /// Rules in the form `Rules` parses.
    pub rules: &'static str,
    /// The game record leading to the position.
    pub moves: &'static str,
}

/// The bench positions.
pub const POSITIONS: [BenchPosition; 8] = [
    BenchPosition {
        name: "15x15 middle game",
        rules: "15x15x5",
        moves: "h8 i9 h10 h9 j9 i8 i10 g10 j7 j10 k8 i6 i7 g9 f10",
    },
    BenchPosition {
        name: "15x15 quiet middle game",
        rules: "15x15x5",
        moves: "h8 h9 i9 g7 j10 k11 i10 i8 j8 k7 g10 h10 j11 j9 k12",
    },
    BenchPosition {
        name: "15x15 opening",
        rules: "15x15x5",
        moves: "h8 i9 g9 i7",
    },
    BenchPosition {
        name: "20x20 freestyle",
        rules: "20x20x5",
        moves: "k10 l11 k11 k12 j10 l10 m11 l12 l9 j11 i9 m13 n14 h8",
    },
    BenchPosition {
        name: "15x15 exact five",
        rules: "15x15x5,exact",
        moves: "h8 g9 i9 g7 g8 i7 f9 h7 j7 e10 j10 k11 j9 j8",
    },
    BenchPosition {
        name: "unbounded five",
        rules: "infx5",
        moves: "0,0 1,1 -1,1 1,-1 0,2 2,0",
    },
    BenchPosition {
        name: "7x7 four in a row",
        rules: "7x7x4",
        moves: "d4 e5 c5",
    },
    BenchPosition {
        name: "19x19 six in a row",
        rules: "19x19x6",
        moves: "j10 k11 k10 j11 l10 i10 m10 n10 l11 k9 l9 l12 j9 m8",
    },
];

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position's name.
    pub name: &'static str,
    /// Its rules.
    pub rules: &'static str,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: u64,
    /// The move found.
    pub best: Cell,
    /// Its value.
    pub value: Value,
}

impl BenchLine {
    /// Nodes per second (nodes when under a millisecond).
    #[must_use]
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.ms.max(1)
    }
}

/// How deep the engine gets on one position within a time budget.
#[derive(Clone, Debug)]
pub struct DepthLine {
    /// The position's name.
    pub name: &'static str,
    /// The time budget in milliseconds.
    pub budget_ms: u64,
    /// The deepest iteration completed within the budget.
    pub depth: u32,
    /// Nodes searched when that iteration completed.
    pub nodes: u64,
    /// Milliseconds when that iteration completed.
    pub ms: u64,
}

impl DepthLine {
    /// Nodes per second up to the last completed iteration.
    #[must_use]
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.ms.max(1)
    }
}

/// Everything the bench measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Depth asked for.
    pub depth: u32,
    /// Threads per search.
    pub threads: usize,
    /// One line per position.
    pub lines: Vec<BenchLine>,
    /// Depth reached within [`DEPTH_BUDGET_MS`] on the 15×15 middle-game positions (empty when
    /// the bench ran without the timed part). A figure that depends on the machine, not part
    /// of the signature.
    pub depth_in_time: Vec<DepthLine>,
}

impl BenchReport {
    /// Total nodes: the bench signature.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.lines.iter().map(|l| l.nodes).sum()
    }

    /// Total milliseconds.
    #[must_use]
    pub fn ms(&self) -> u64 {
        self.lines.iter().map(|l| l.ms).sum()
    }

    /// Overall nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        self.nodes() * 1000 / self.ms().max(1)
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<26} {:<14} {:>5} {:>10} {:>7} {:>10}  {:<6} value",
            "position", "rules", "depth", "nodes", "ms", "nodes/s", "move"
        )?;
        for l in &self.lines {
            writeln!(
                f,
                "{:<26} {:<14} {:>5} {:>10} {:>7} {:>10}  {:<6} {}",
                l.name,
                l.rules,
                l.depth,
                l.nodes,
                l.ms,
                l.nps(),
                l.best.to_string(),
                l.value
            )?;
        }
        writeln!(
            f,
            "Total: {} nodes in {} ms, {} nodes/s (depth {})",
            self.nodes(),
            self.ms(),
            self.nps(),
            self.depth
        )?;
        for d in &self.depth_in_time {
            writeln!(
                f,
                "Depth in {} ms on {}: {} ({} nodes in {} ms, {} nodes/s)",
                d.budget_ms,
                d.name,
                d.depth,
                d.nodes,
                d.ms,
                d.nps()
            )?;
        }
        if self.threads > 1 {
            // Not a signature: say so, in words a script looking for "Bench: N" will not take.
            return write!(
                f,
                "Nodes with {} threads: {} (they vary from run to run; the bench signature counts one thread)",
                self.threads,
                self.nodes()
            );
        }
        write!(f, "Bench: {}", self.nodes())
    }
}

/// The position of a bench entry.
///
/// # Panics
/// If the built-in record is not legal (a test guards against that).
#[must_use]
pub fn bench_position(p: &BenchPosition) -> Position {
    let rules: Rules = p.rules.parse().expect("bench rules");
    let moves: Vec<Cell> = p
        .moves
        .split_whitespace()
        .map(|c| c.parse().expect("bench cell"))
        .collect();
    Position::from_moves(rules, &moves).expect("bench record")
}

/// Time budget of the depth figure, in milliseconds.
pub const DEPTH_BUDGET_MS: u64 = 1000;

/// Names of the positions whose depth within [`DEPTH_BUDGET_MS`] the bench reports.
pub const DEPTH_POSITIONS: [&str; 2] = ["15x15 middle game", "15x15 quiet middle game"];

/// Searches every bench position to `depth` (default [`DEFAULT_BENCH_DEPTH`]) with a fresh
/// engine of `threads` threads and a [`BENCH_HASH_MB`] table, then measures the depth reached
/// within [`DEPTH_BUDGET_MS`] on the [`DEPTH_POSITIONS`].
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[must_use]
pub fn run_bench(depth: Option<u32>, threads: usize) -> BenchReport {
    let mut report = run_fixed_depth(depth, threads);
    report.depth_in_time = POSITIONS
        .iter()
        .filter(|p| DEPTH_POSITIONS.contains(&p.name))
        .map(|p| depth_in(p, DEPTH_BUDGET_MS, threads))
        .collect();
    report
}

/// The deepest iteration the engine completes on `p` within `budget_ms` with `threads` threads.
///
/// The search runs without a deadline (which would make it stop early to save time for the
/// game) and is stopped by a flag when the budget runs out; the last iteration completed
/// before then counts.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[must_use]
pub fn depth_in(p: &BenchPosition, budget_ms: u64, threads: usize) -> DepthLine {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};
    use std::time::Duration;

    let pos = bench_position(p);
    let stop = Arc::new(AtomicBool::new(false));
    let (done, finished) = mpsc::channel::<()>();
    let timer = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            if finished
                .recv_timeout(Duration::from_millis(budget_ms))
                .is_err()
            {
                stop.store(true, Ordering::Relaxed);
            }
        })
    };
    let limits = Limits {
        max_depth: Some(crate::search::MAX_DEPTH),
        stop: Some(Arc::clone(&stop)),
        ..Limits::default()
    };
    let clock = SystemClock::new();
    let mut line = DepthLine {
        name: p.name,
        budget_ms,
        depth: 0,
        nodes: 0,
        ms: 0,
    };
    let mut engine = Engine::with_threads(BENCH_HASH_MB, threads);
    let _ = engine.analyse(&pos, &limits, &mut |info| {
        let ms = clock.now_ms();
        if ms <= budget_ms {
            line.depth = info.depth;
            line.nodes = info.nodes;
            line.ms = ms;
        }
    });
    let _ = done.send(());
    let _ = timer.join();
    line
}

/// The fixed-depth part of [`run_bench`] alone: reproducible with one thread, and quick at
/// small depths.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
#[must_use]
pub fn run_fixed_depth(depth: Option<u32>, threads: usize) -> BenchReport {
    run_fixed_depth_on(depth, threads, &SystemClock::new())
}

/// [`run_fixed_depth`] timed on `clock` (the page's worker gives its own): the clock only
/// measures, the depth limit alone decides the search, so the nodes are the same everywhere.
#[must_use]
pub fn run_fixed_depth_on(depth: Option<u32>, threads: usize, clock: &dyn Clock) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_BENCH_DEPTH).max(1);
    let mut engine = Engine::with_threads(BENCH_HASH_MB, threads);
    let mut lines = Vec::new();
    for p in &POSITIONS {
        let pos = bench_position(p);
        let start = clock.now_ms();
        let a = engine
            .analyse(&pos, &Limits::depth(depth), &mut |_| {})
            .expect("bench positions are not over");
        lines.push(BenchLine {
            name: p.name,
            rules: p.rules,
            depth: a.depth,
            nodes: a.nodes,
            ms: clock.now_ms() - start,
            best: a.best,
            value: a.value,
        });
    }
    BenchReport {
        depth,
        threads: engine.threads(),
        lines,
        depth_in_time: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_open() {
        for p in &POSITIONS {
            assert!(!bench_position(p).is_over(), "{}", p.name);
        }
    }

    #[test]
    fn one_thread_keeps_the_signature() {
        assert_eq!(run_fixed_depth(None, 1).nodes(), SIGNATURE);
    }

    #[test]
    fn shallow_bench_is_reproducible() {
        let a = run_fixed_depth(Some(3), 1);
        let b = run_fixed_depth(Some(3), 1);
        assert_eq!(a.nodes(), b.nodes());
        assert!(a.to_string().ends_with(&format!("Bench: {}", a.nodes())));
        for (x, y) in a.lines.iter().zip(&b.lines) {
            assert_eq!((x.best, x.value), (y.best, y.value));
        }
    }
}
