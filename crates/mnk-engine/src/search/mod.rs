//! The engine for boards too large to solve: threat patterns, threat-space search and a
//! principal-variation alpha-beta, behind one facade.
//!
//! One file per part, as in Stockfish:
//! - [`pattern`]: line patterns and the tables built from the reference scanner,
//! - [`threat`]: threat classes combining the four directions of a cell,
//! - [`board`]: the fast padded board with incremental patterns (and the unbounded frame),
//! - [`weight_table`]: every value the evaluation and the ordering use, one table per variant,
//! - [`eval`]: the static evaluation,
//! - [`movegen`]: candidates by threat class and their ordering,
//! - [`tt`]: the transposition table,
//! - [`vcf`]: VCF and VCT searches,
//! - [`search`]: the alpha-beta search and the root,
//! - [`stats`]: where its nodes go (counters behind the `stats` feature).
//!
//! [`Engine`] runs a search on a [`Position`] within [`Limits`] and reports each iteration;
//! [`Engine::analyse_lines`] is the analysis board's search: several lines (multi-PV), thinking
//! until stopped; [`EngineBot`] is the [`Bot`] with id `engine`; [`top_moves`] ranks moves for
//! hints.

pub mod board;
pub mod control;
pub mod eval;
pub mod movegen;
pub mod net;
pub mod pattern;
pub mod score;
#[allow(clippy::module_inception)]
pub mod search;
pub mod stats;
pub mod threat;
pub mod time;
pub mod tt;
pub mod vcf;
pub mod weight_table;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use mnk_core::{Cell, Position};

use crate::explain::engine::{End, EngineRecorder, EngineTracer, NoTrace};
use crate::explain::engine::{EngineExplanation, ExplainedLimits};
use crate::explain::Explanation;
use crate::{Bot, BotError, Choice, Deadline, Explained, Limits, SearchInfo, Value};
use board::Board;
use score::{is_loss, is_win, MATE};
use search::{Iteration, RootMoves, Searcher};
use time::TimePlan;
use tt::TranspositionTable;
use vcf::ThreatCache;
use weight_table::WeightTable;

/// Transposition table size when none is given, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Depth searched when the limits give no depth, node count, deadline or stop flag (so a
/// search always ends).
pub const DEFAULT_DEPTH: u32 = 8;
/// Deepest iteration ever started.
pub const MAX_DEPTH: u32 = 60;
/// The shortest lines the pattern tables know: games of k = 1 or 2 are not for this engine.
pub const MIN_K: u32 = 3;
/// How many plies deeper than the main thread's iteration the odd helper threads search (the
/// even ones search its depth). With two threads, a lead of two brought the main thread to
/// depth 10 sooner than a lead of one, and won more games against one thread
/// (docs/strength.md, "Threads").
const HELPER_LEAD: u32 = 2;

/// Most threads one search takes (the front-ends refuse more).
pub const MAX_THREADS: usize = 64;

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The move to play.
    pub best: Cell,
    /// Its value for the side to move.
    pub value: Value,
    /// The expected line, starting with `best`.
    pub pv: Vec<Cell>,
    /// Depth of the last completed iteration (or the length of a threat-search proof).
    pub depth: u32,
    /// Nodes searched, threat searches included.
    pub nodes: u64,
    /// Milliseconds spent (0 without a deadline or a cutoff, which hold the only clock).
    pub elapsed_ms: u64,
}

/// One line of an analysis: a root move, what it is worth and the play expected after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Variation {
    /// Its value for the side to move (who plays `pv[0]`).
    pub value: Value,
    /// The expected line, starting with the root move.
    pub pv: Vec<Cell>,
}

/// What a multi-PV analysis knows after a completed iteration (or a threat-search proof).
#[derive(Clone, Debug, PartialEq)]
pub struct MultiPv {
    /// Depth of the iteration (for a threat-search proof: the length of the proof line; 0
    /// when stopped before the first iteration was complete).
    pub depth: u32,
    /// The lines, best first, with distinct first moves. Fewer than asked when the root has
    /// fewer moves worth searching (a forced block, the defences against a threat), and one
    /// when a win was proven before the tree search.
    pub lines: Vec<Variation>,
    /// Nodes searched so far, threat searches included.
    pub nodes: u64,
    /// Milliseconds since the search began (0 without a deadline or a cutoff, which hold the
    /// only clock).
    pub elapsed_ms: u64,
}

impl MultiPv {
    /// The search's result as the single-line [`Analysis`].
    fn as_analysis(&self) -> Analysis {
        let line = &self.lines[0];
        Analysis {
            best: line.pv[0],
            value: line.value,
            pv: line.pv.clone(),
            depth: self.depth,
            nodes: self.nodes,
            elapsed_ms: self.elapsed_ms,
        }
    }

    /// The same lines with every cell moved by `(dx, dy)`.
    fn shifted(&self, dx: i32, dy: i32) -> MultiPv {
        let shift = |c: &Cell| Cell::new(c.x + dx, c.y + dy);
        MultiPv {
            lines: self
                .lines
                .iter()
                .map(|l| Variation {
                    value: l.value,
                    pv: l.pv.iter().map(shift).collect(),
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// What kind of search [`Engine::search`] runs.
#[derive(Clone, Copy, Debug)]
struct Mode {
    /// Every root move searched with a full window, for ranking (hints, the heat map).
    rank_all: bool,
    /// Lines searched (multi-PV); 1 to play a move.
    lines: usize,
    /// Think until the limits stop the search or the value is proven (analysis), rather than
    /// stop when another iteration looks too long for the time left or the move is forced.
    until_stopped: bool,
}

impl Mode {
    const PLAY: Mode = Mode {
        rank_all: false,
        lines: 1,
        until_stopped: false,
    };
}

/// The search engine: owns its transposition table and threat caches between searches.
///
/// A multi-PV analysis searches its first line exactly as a single-line search would, and
/// the other lines with a second table and cache (allocated at the first such analysis, the
/// size of the first), so that they leave no trace the first line could see: the first line
/// is always the move the engine would play at that depth.
///
/// **Threads (Lazy SMP).** With [`Engine::set_threads`] above 1, the calling thread runs the search
/// as it would alone (the *main* thread: its move, value, line and depth are the answer, and only
/// it reads the limits), while helper threads run the same iterative deepening on copies of the
/// board beside it, sharing its transposition table (see [`tt`] for how the table takes concurrent
/// stores), each with its own threat cache, killers and history. A helper's next iteration is never
/// shallower than the one the main thread is in, and odd helpers go [`HELPER_LEAD`] plies deeper
/// than that; helpers from the second on begin with another root move first. So they spread over
/// the tree, and what they store lets the main thread cut and order sooner. The helpers start at
/// once, while the main thread runs the root threat searches (up to 37 ms of a 200 ms turn on
/// undecided 15×15 positions), from the root moves those searches leave when they find nothing;
/// when they narrow the main thread's moves to the defences, the helpers' wider root costs them
/// time, never a wrong answer, since only the main thread's moves are played. The helpers are told
/// to stop when the main thread returns, for whatever reason (depth, a proof, the time plan, the
/// deadline, the stop flag, a panic), but the answer does not wait for them: a helper the machine
/// has not scheduled yet could hold it up for milliseconds. When the next search starts, those that
/// have ended give back their caches (the others are left to end on their own, and the next helpers
/// get new caches: the search never waits for a thread); changing the thread count waits for them
/// all, and a dropped engine leaves them to end on their own. Nodes reported count every thread
/// (the helpers' as they last published them, every few hundred nodes); a node limit counts the
/// main thread's. With one thread (the default) no thread is started, and the search is exactly the
/// single-threaded one: depth- and node-limited searches are reproducible, and `mnk bench` keeps
/// its signature.
pub struct Engine {
    /// The table, shared with the helper threads while they run.
    tt: Arc<TranspositionTable>,
    cache: ThreatCache,
    hash_mb: usize,
    /// The table and cache of the other lines of a multi-PV analysis.
    others: Option<(TranspositionTable, ThreatCache)>,
    meter: Option<Arc<AtomicU64>>,
    /// Threads per search, the calling thread included.
    threads: usize,
    /// One threat cache per helper thread, kept between searches like `cache` (while the
    /// helpers run, theirs).
    helper_caches: Vec<ThreatCache>,
    /// The helper threads of the last search: stopped when it returned, joined when the next
    /// one starts or the thread count changes, so that the answer never waits for them.
    helpers: Vec<std::thread::JoinHandle<ThreatCache>>,
    /// The evaluation's values; `None` for the shipped table of each position's rules.
    weights: Option<&'static WeightTable>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Engine")
    }
}

/// Converts a root-relative score to a [`Value`] for the side to move.
#[must_use]
pub fn value_of(score: i32) -> Value {
    if is_win(score) {
        Value::Win((MATE - score).max(1) as u32)
    } else if is_loss(score) {
        Value::Loss((MATE + score).max(1) as u32)
    } else {
        Value::Eval(score)
    }
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` megabytes.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            cache: ThreatCache::new(),
            hash_mb,
            others: None,
            meter: None,
            threads: 1,
            helper_caches: Vec::new(),
            helpers: Vec::new(),
            weights: None,
        }
    }

    /// Values positions with `weights` from now on (`None`, the default: the shipped table of
    /// each position's rules). For comparing and tuning tables.
    pub fn set_weights(&mut self, weights: Option<&'static WeightTable>) {
        self.weights = weights;
    }

    /// An engine with a table of `hash_mb` megabytes searching with `threads` threads (see
    /// [`Engine::set_threads`]).
    #[must_use]
    pub fn with_threads(hash_mb: usize, threads: usize) -> Engine {
        let mut engine = Engine::new(hash_mb);
        engine.set_threads(threads);
        engine
    }

    /// Searches from now on with `threads` threads, the calling thread included (Lazy SMP; see
    /// [`Engine`]), between 1 and [`MAX_THREADS`]. 1 (the default) starts no thread.
    pub fn set_threads(&mut self, threads: usize) {
        self.join_helpers(true);
        self.threads = threads.clamp(1, MAX_THREADS);
        self.helper_caches.truncate(self.threads - 1);
        self.helper_caches
            .resize_with(self.threads - 1, ThreatCache::new);
    }

    /// Threads per search, the calling thread included.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Where every search of this engine publishes its node count as it goes (every few
    /// hundred nodes; the search sets it to 0 when it starts), so that a front-end on another
    /// thread can show progress while an iteration runs. `None` (the default) publishes
    /// nothing.
    pub fn set_node_meter(&mut self, meter: Option<Arc<AtomicU64>>) {
        self.meter = meter;
    }

    /// Searches `pos` within `limits`, calling `info` after every completed iteration.
    ///
    /// A search without a deadline starts from an empty table, so with a depth or node limit the
    /// same position always gives the same move, value and node count. A search with a deadline
    /// keeps the table of the previous ones (timed results depend on the machine anyway).
    pub fn analyse(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Analysis, BotError> {
        self.analyse_recorded(pos, limits, info, NoTrace)
    }

    /// [`Engine::analyse`], telling `rec` what the search does: the same search, with the same
    /// move, value, line and node count (an explanation's).
    pub fn analyse_recorded<R: EngineRecorder>(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
        rec: R,
    ) -> Result<Analysis, BotError> {
        let mut report = |m: &MultiPv| {
            let line = &m.lines[0];
            info(&SearchInfo {
                depth: m.depth,
                value: line.value,
                pv: line.pv.clone(),
                nodes: m.nodes,
                elapsed_ms: m.elapsed_ms,
            });
        };
        self.run(pos, limits, &mut report, Mode::PLAY, rec)
            .map(|(m, _)| m.as_analysis())
    }

    /// Analyses `pos` for an analysis board: the best `lines` moves (multi-PV), each with its
    /// value and expected line, deepening until the limits stop the search, the value of the
    /// best line is proven, or [`MAX_DEPTH`]. `report` hears every completed iteration; the
    /// answer is the last one (or, stopped before any was complete, what the first one found).
    ///
    /// As with [`Engine::analyse`], a search without a deadline starts from empty tables, so a
    /// depth or node limit gives the same reports, lines and node counts on every run (a node
    /// limit applies to the first line's search and to the other lines' search each). The
    /// first line's iterations are those of [`Engine::analyse`]: at the same depth, the same
    /// move, value and line. The other lines follow it best first (each searched on its own,
    /// one may now and then score above the first). Refused with [`BotError::Unsupported`]
    /// for k below [`MIN_K`].
    pub fn analyse_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        lines: usize,
        report: &mut dyn FnMut(&MultiPv),
    ) -> Result<MultiPv, BotError> {
        if pos.rules().k() < MIN_K {
            return Err(BotError::Unsupported(format!(
                "the engine analyses games of k = {MIN_K} or more in a row; k = {} is decided within a few moves",
                pos.rules().k()
            )));
        }
        let mode = Mode {
            rank_all: false,
            lines: lines.max(1),
            until_stopped: true,
        };
        self.run(pos, limits, report, mode, NoTrace).map(|(m, _)| m)
    }

    /// Up to `n` moves with their values, best first, searched with a full window each (so
    /// every value is exact at the depth reached). Proven wins found before the tree search
    /// list only the winning move.
    pub fn top_moves(
        &mut self,
        pos: &Position,
        limits: &Limits,
        n: usize,
    ) -> Result<Vec<(Cell, Value)>, BotError> {
        let mode = Mode {
            rank_all: true,
            ..Mode::PLAY
        };
        let (analysis, ranked) = self.run(pos, limits, &mut |_| {}, mode, NoTrace)?;
        if ranked.is_empty() {
            let best = analysis.as_analysis();
            return Ok(vec![(best.best, best.value)]);
        }
        Ok(ranked.into_iter().take(n).collect())
    }

    fn run<R: EngineRecorder>(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&MultiPv),
        mode: Mode,
        mut rec: R,
    ) -> Result<(MultiPv, Vec<(Cell, Value)>), BotError> {
        if pos.rules().is_bounded() || pos.ply() > 0 {
            return self.search(pos, limits, report, mode, rec);
        }
        // On the empty board without borders every first move is the same move shifted: play
        // it where the notation puts the first stone, at 0,0, with the lines shifted alike.
        let centred = |m: &MultiPv| {
            let first = m.lines[0].pv[0];
            m.shifted(-first.x, -first.y)
        };
        let (found, ranked) =
            self.search(pos, limits, &mut |m| report(&centred(m)), mode, &mut rec)?;
        let first = found.lines[0].pv[0];
        rec.shift(-first.x, -first.y);
        let found = centred(&found);
        let ranked = if ranked.is_empty() {
            ranked
        } else {
            vec![(found.lines[0].pv[0], found.lines[0].value)]
        };
        Ok((found, ranked))
    }

    /// The search itself: urgent moves outside the frame, root threat searches, then iterative
    /// deepening.
    fn search<R: EngineRecorder>(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&MultiPv),
        mode: Mode,
        rec: R,
    ) -> Result<(MultiPv, Vec<(Cell, Value)>), BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let fallback;
        let limits = if limits.max_depth.is_none()
            && limits.max_nodes.is_none()
            && limits.deadline.is_none()
            && limits.cutoff.is_none()
            && limits.stop.is_none()
        {
            fallback = Limits::depth(DEFAULT_DEPTH);
            &fallback
        } else {
            limits
        };
        // Time is read on the deadline's clock, else on a hard stop's: a search under a cutoff
        // plans nothing by it, but still says how long its iterations took.
        let clock = limits.deadline.as_ref().or(limits.cutoff.as_ref());
        let start_ms = clock.map(Deadline::now_ms);
        let budget_ms = limits.deadline.as_ref().map(|d| d.remaining_ms());
        let elapsed = || match (clock, start_ms) {
            (Some(d), Some(s)) => d.now_ms().saturating_sub(s),
            _ => 0,
        };
        let weights = self.weights;
        // The search board of `pos`, valued by this engine's table.
        let board_of = |pos: &Position| match weights {
            Some(w) => Board::with_weights(pos, w),
            None => Board::from_position(pos),
        };
        let board = board_of(pos);
        if let Some((cell, value)) = outside_frame_urgency(pos, &board) {
            let mut rec = rec;
            rec.finish(&mut board_of(pos), &[], 1, End::Urgent);
            let found = MultiPv {
                depth: 1,
                lines: vec![Variation {
                    value,
                    pv: vec![cell],
                }],
                nodes: 0,
                elapsed_ms: 0,
            };
            return Ok((found, Vec::new()));
        }
        if mode.lines > 1 && self.others.is_none() {
            let hash_mb = self.hash_mb;
            self.others = Some((TranspositionTable::new(hash_mb), ThreatCache::new()));
        }
        // The helpers of the last search were stopped when it returned; those done give back
        // their caches here.
        self.join_helpers(false);
        let Engine {
            tt,
            cache,
            others,
            meter,
            helper_caches,
            helpers,
            ..
        } = self;
        let mut others = others.as_mut().filter(|_| mode.lines > 1);
        let timed = limits.deadline.is_some();
        prepare_tables(tt, cache, timed);
        if let Some((tt, cache)) = &mut others {
            prepare_tables(tt, cache, timed);
        }
        if !timed {
            helper_caches.iter_mut().for_each(ThreatCache::clear);
        }
        if let Some(meter) = meter.as_deref() {
            meter.store(0, Ordering::Relaxed);
        }
        let tt: &Arc<TranspositionTable> = tt;
        let mut s = Searcher::recorded(board, tt, cache, limits, rec);
        if let Some(meter) = meter.as_deref() {
            s.ctl.add_meter(meter);
        }
        s.all_root_scores = mode.rank_all;
        let lines_found = |s: &Searcher<R>, lines: &[Iteration], nodes: u64| MultiPv {
            depth: lines[0].depth,
            lines: lines
                .iter()
                .map(|it| Variation {
                    value: value_of(it.score),
                    pv: it.pv.iter().map(|&i| s.board.cell_of(i)).collect(),
                })
                .collect(),
            nodes,
            elapsed_ms: elapsed(),
        };

        // Lazy SMP's helpers (none with one thread) start before step 1's threat searches, on
        // the root moves those would leave if they found nothing, so that the time the main
        // thread spends on them already fills the shared table; stopped when this function
        // returns, however it returns.
        let crew = Arc::new(Crew::new());
        let _stop_helpers = RaiseOnDrop(&crew.halt);
        let helped = !helper_caches.is_empty();
        if let Some(root) = helped.then(|| s.unscreened_root_moves()).flatten() {
            crew.start(helper_caches, helpers, |id, cache| HelperJob {
                id,
                board: board_of(pos),
                root: root.clone(),
                tt: Arc::clone(tt),
                cache,
                meter: meter.clone(),
            });
        }
        if let Some(proof) = s.root_threats() {
            s.rec
                .finish(&mut s.board, &proof.pv, proof.depth, End::Threat);
            report(&lines_found(&s, std::slice::from_ref(&proof), proof.nodes));
            let found = lines_found(&s, std::slice::from_ref(&proof), s.ctl.nodes());
            return Ok((found, Vec::new()));
        }
        // The other lines' searcher, on the root moves the threat searches left.
        let mut t = others.map(|(tt, cache)| {
            let mut t = Searcher::new(board_of(pos), tt, cache, limits);
            t.copy_root(&s);
            if let Some(meter) = meter.as_deref() {
                t.ctl.add_meter(meter);
            }
            t
        });
        let nodes = |s: &Searcher<R>, t: &Option<Searcher>| {
            s.ctl.nodes() + t.as_ref().map_or(0, |t| t.ctl.nodes()) + crew.nodes()
        };

        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // The lines of the last complete iteration, and those an incomplete first one found.
        let mut last: Vec<Iteration> = Vec::new();
        let mut partial: Vec<Iteration> = Vec::new();
        let mut plan = TimePlan::new(budget_ms);
        // A single line played for a move may take the best move of an iteration the deadline
        // cut short (analysis and ranking keep complete iterations only).
        let single = mode.lines == 1 && !mode.rank_all && !mode.until_stopped;
        // Why the loop ends, for an explanation.
        let mut end = End::Depth;
        for depth in 1..=max_depth {
            crew.main_depth.store(depth, Ordering::Relaxed);
            if single {
                s.set_soft_stop(start_ms.zip(plan.soft_stop_ms()).map(|(s, t)| s + t));
            }
            let Some(first) = s.iterate(depth as i32, last.first().map(|it| it.score)) else {
                if let Some(better) = s.improved_root().filter(|_| single && !last.is_empty()) {
                    report(&lines_found(
                        &s,
                        std::slice::from_ref(&better),
                        s.ctl.nodes() + crew.nodes(),
                    ));
                    last = vec![better];
                }
                end = stopped_by(limits, s.ctl.nodes());
                break;
            };
            let score = first.score;
            let mut lines = vec![first];
            if let Some(t) = &mut t {
                let previous: Vec<i32> = last.iter().skip(1).map(|it| it.score).collect();
                let wanted = mode.lines - 1;
                let (more, complete) =
                    t.other_lines(depth as i32, &previous, lines[0].pv[0], wanted);
                lines.extend(more);
                if !complete {
                    if last.is_empty() {
                        partial = lines;
                    }
                    end = stopped_by(limits, t.ctl.nodes());
                    break;
                }
            }
            report(&lines_found(&s, &lines, nodes(&s, &t)));
            let proven = is_win(score) || is_loss(score);
            let plies = (MATE - score.abs()) as u32;
            last = lines;
            if proven && depth >= plies + 2 {
                end = End::Proven;
                break;
            }
            if mode.until_stopped {
                continue;
            }
            if s.root_len() == 1 && depth >= 4 && !mode.rank_all {
                end = End::Forced;
                break;
            }
            if !plan.another_iteration(depth, last[0].pv[0], score, elapsed()) {
                end = End::TimePlan;
                break;
            }
        }
        let root_scores = s.root_scores();
        // Stopped inside the first iteration: the lines it completed, else the best root move
        // it searched in full, else the best-ordered one.
        if last.is_empty() {
            last = partial;
        }
        if last.is_empty() {
            last.push(s.unfinished_best().unwrap_or_else(|| Iteration {
                depth: 0,
                score: 0,
                pv: vec![root_scores[0].0],
                nodes: s.ctl.nodes(),
            }));
        }
        if R::ON {
            s.rec.finish(&mut s.board, &last[0].pv, last[0].depth, end);
        }
        let ranked = if mode.rank_all {
            root_scores
                .iter()
                .filter(|r| r.2)
                .map(|&(idx, sc, _)| (s.board.cell_of(idx), value_of(sc)))
                .collect()
        } else {
            Vec::new()
        };
        Ok((lines_found(&s, &last, nodes(&s, &t)), ranked))
    }

    /// Takes back the threat caches of the helper threads of the last search, which it
    /// stopped when it returned: by then they have almost always ended. With `wait`, waits for
    /// those that have not; without, leaves them to end on their own (a thread the machine has
    /// not scheduled since could otherwise hold up the search for as long) and gives their
    /// successors new caches.
    fn join_helpers(&mut self, wait: bool) {
        for helper in self.helpers.drain(..) {
            if !wait && !helper.is_finished() {
                self.helper_caches.push(ThreatCache::new());
                continue;
            }
            match helper.join() {
                Ok(cache) => self.helper_caches.push(cache),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }
}

/// What a helper thread of a Lazy SMP search takes with it: its number (from 1), a copy of the
/// board and of the main thread's root moves, the shared table, its threat cache (given back
/// when it ends) and the caller's node meter, if any.
struct HelperJob {
    id: usize,
    board: Board,
    root: RootMoves,
    tt: Arc<TranspositionTable>,
    cache: ThreatCache,
    meter: Option<Arc<AtomicU64>>,
}

/// The helper threads of a Lazy SMP search, from the main thread's side: the limits they run
/// under (only a stop flag, raised when the main thread is done), the depth the main thread is
/// at, and the nodes they have counted so far.
struct Crew {
    limits: Limits,
    halt: Arc<AtomicBool>,
    main_depth: AtomicU32,
    nodes: AtomicU64,
}

impl Crew {
    fn new() -> Crew {
        let halt = Arc::new(AtomicBool::new(false));
        Crew {
            limits: Limits {
                stop: Some(Arc::clone(&halt)),
                ..Limits::default()
            },
            halt,
            main_depth: AtomicU32::new(1),
            nodes: AtomicU64::new(0),
        }
    }

    /// Starts one helper thread per threat cache in `caches`, each on the job `job` makes of
    /// its number (from 1) and the cache, adding their handles to `helpers`. A thread the
    /// machine refuses is done without (a new cache takes the place of the one that went with
    /// the job).
    fn start(
        self: &Arc<Crew>,
        caches: &mut Vec<ThreatCache>,
        helpers: &mut Vec<std::thread::JoinHandle<ThreatCache>>,
        job: impl Fn(usize, ThreatCache) -> HelperJob,
    ) {
        for (i, cache) in std::mem::take(caches).into_iter().enumerate() {
            let id = i + 1;
            let job = job(id, cache);
            let crew = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name(format!("mnk-search-{id}"))
                .spawn(move || crew.help(job));
            match spawned {
                Ok(handle) => helpers.push(handle),
                // No thread to be had: search with fewer (the cache went with the job).
                Err(_) => caches.push(ThreatCache::new()),
            }
        }
    }

    /// The helpers' nodes as they last published them (every few hundred nodes each).
    fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// One helper's search: iterative deepening, each iteration at least one deeper than its
    /// last and no shallower than the main thread's ([`HELPER_LEAD`] plies deeper for odd
    /// helpers), helpers from the second on with another root move first, until stopped, a
    /// result is proven, or [`MAX_DEPTH`]. Gives back the threat cache.
    fn help(&self, job: HelperJob) -> ThreatCache {
        let HelperJob {
            id,
            board,
            root,
            tt,
            mut cache,
            meter,
        } = job;
        let mut h = Searcher::new(board, &tt, &mut cache, &self.limits);
        h.set_root_moves(root);
        h.promote_root_move(id / 2);
        h.ctl.add_meter(&self.nodes);
        if let Some(meter) = meter.as_deref() {
            h.ctl.add_meter(meter);
        }
        let ahead = if id % 2 == 1 { HELPER_LEAD } else { 0 };
        let mut depth = 0;
        let mut previous = None;
        loop {
            depth = (depth + 1).max(self.main_depth.load(Ordering::Relaxed) + ahead);
            if depth > MAX_DEPTH {
                break;
            }
            let Some(it) = h.iterate(depth as i32, previous) else {
                break;
            };
            previous = Some(it.score);
            let plies = (MATE - it.score.abs()) as u32;
            if (is_win(it.score) || is_loss(it.score)) && depth >= plies + 2 {
                break;
            }
        }
        drop(h);
        cache
    }
}

/// Raises a flag when dropped.
struct RaiseOnDrop<'f>(&'f AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Which limit stopped a search that had counted `nodes` when it stopped.
fn stopped_by(limits: &Limits, nodes: u64) -> End {
    if limits.nodes_exhausted(nodes) {
        End::Nodes
    } else if limits.out_of_time() {
        End::Time
    } else if limits.should_stop() {
        End::Stopped
    } else {
        // The time plan's soft stop: the iteration had a better move, its end not worth waiting for.
        End::TimePlan
    }
}

/// Readies the tables for a search: a timed search keeps what the last searches learned (timed
/// play is not reproducible anyway; older entries are the first to be replaced), any other
/// starts from empty tables, so that it is.
fn prepare_tables(tt: &TranspositionTable, cache: &mut ThreatCache, timed: bool) {
    if timed {
        tt.new_search();
    } else {
        tt.clear();
        cache.clear();
    }
}

/// When the unbounded frame leaves stones out: a win, or a block of the opponent's win, on a
/// line through a stone outside the frame (the board cannot see those lines; it sees every
/// other, and the search plays or blocks the fives it sees at once).
///
/// Only the lines through the stones outside the frame are walked, so the cost follows those
/// stones and no cell is weighed twice: a handful of look-ups per stone.
fn outside_frame_urgency(pos: &Position, board: &Board) -> Option<(Cell, Value)> {
    let me = pos.to_move();
    if board.threat_count(me.index(), threat::Threat::Five) > 0 {
        // A five the board sees: the search plays it before anything else.
        return None;
    }
    // Per side, the cell that completes a line through an outside stone (lowest row, then
    // column, so the answer does not depend on the order of the stones).
    let mut completes: [Option<Cell>; 2] = [None, None];
    for (stone, p) in pos.stones().filter(|&(c, _)| board.index_of(c).is_none()) {
        for (dx, dy) in mnk_core::DIRECTIONS {
            // The run of p's stones through `stone`, and the empty cells at its two ends.
            let mut ends = [stone, stone];
            for (end, sign) in ends.iter_mut().zip([1, -1]) {
                while pos.stone(*end) == Some(p) {
                    *end = end.offset(dx, dy, sign);
                }
            }
            for end in ends {
                // Whether p's stone there wins is mnk-core's to say.
                if pos.wins_at(end, p) {
                    let slot = &mut completes[p.index()];
                    if slot.is_none_or(|c| (end.y, end.x) < (c.y, c.x)) {
                        *slot = Some(end);
                    }
                }
            }
        }
    }
    if let Some(c) = completes[me.index()] {
        return Some((c, Value::Win(1)));
    }
    completes[me.opponent().index()].map(|c| (c, Value::Eval(0)))
}

/// Up to `n` moves for the side to move with their values, best first (for hints and the
/// heat map). Empty when the game is over.
#[must_use]
pub fn top_moves(pos: &Position, limits: &Limits, n: usize) -> Vec<(Cell, Value)> {
    Engine::new(4).top_moves(pos, limits, n).unwrap_or_default()
}

/// How to build the engine behind a bot: its table size and its threads per search. Front-ends
/// pass it to `roster::create_with` and `Level::bot_with`; the levels
/// capped in depth and nodes (4 and 5) take one thread and their own table whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Threads per search, 1 to [`MAX_THREADS`] (Lazy SMP; see [`Engine`]).
    pub threads: usize,
    /// The evaluation's values; `None` for the shipped table of the rules. Every level that
    /// searches with the engine takes it.
    pub weights: Option<&'static WeightTable>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            weights: None,
        }
    }
}

impl EngineConfig {
    /// The default table with `threads` threads per search.
    #[must_use]
    pub fn with_threads(threads: usize) -> EngineConfig {
        EngineConfig {
            threads,
            ..EngineConfig::default()
        }
    }
}

/// The engine as a [`Bot`] (id `engine`), optionally capped in depth and nodes (the levels use
/// caps; the caller's limits apply as well, whichever is tighter).
#[derive(Debug, Default)]
pub struct EngineBot {
    engine: Engine,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
}

impl EngineBot {
    /// A bot with a table of `hash_mb` megabytes.
    #[must_use]
    pub fn new(hash_mb: usize) -> EngineBot {
        EngineBot {
            engine: Engine::new(hash_mb),
            max_depth: None,
            max_nodes: None,
        }
    }

    /// A bot built as `config` says (table size and threads).
    #[must_use]
    pub fn with_config(config: EngineConfig) -> EngineBot {
        let mut engine = Engine::with_threads(config.hash_mb, config.threads);
        engine.set_weights(config.weights);
        EngineBot {
            engine,
            max_depth: None,
            max_nodes: None,
        }
    }

    /// The same bot valuing positions with `weights` (`None`: the shipped table).
    #[must_use]
    pub fn with_weights(mut self, weights: Option<&'static WeightTable>) -> EngineBot {
        self.engine.set_weights(weights);
        self
    }

    /// A bot that never searches deeper than `max_depth` or longer than `max_nodes`.
    #[must_use]
    pub fn capped(max_depth: Option<u32>, max_nodes: Option<u64>) -> EngineBot {
        EngineBot {
            engine: Engine::new(DEFAULT_HASH_MB),
            max_depth,
            max_nodes,
        }
    }
}

impl EngineBot {
    /// `limits` with the bot's caps, whichever is tighter. A capped bot (a level below the top)
    /// is defined by its caps: the caller's deadline is only a hard stop for it, never a plan,
    /// so that its move does not depend on the device's speed or on its earlier searches.
    fn limits_within(&self, limits: &Limits) -> Limits {
        let capped = self.max_depth.is_some() || self.max_nodes.is_some();
        let mut limits = if capped {
            limits.with_cutoff_only()
        } else {
            limits.clone()
        };
        limits.max_depth = tighter(limits.max_depth, self.max_depth);
        limits.max_nodes = tighter(limits.max_nodes, self.max_nodes);
        limits
    }
}

fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Bot for EngineBot {
    fn id(&self) -> &'static str {
        "engine"
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        self.choose_with_info(pos, limits, &mut |_| {})
    }

    fn choose_with_info(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Choice, BotError> {
        let limits = self.limits_within(limits);
        let a = self.engine.analyse(pos, &limits, info)?;
        Ok(choice_of(a))
    }

    /// The same search as [`Bot::choose`], recorded: its iterations, the threat sequence
    /// that decided it (if one did), the root moves compared and the principal path.
    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        let limits = self.limits_within(limits);
        let time_ms = limits.deadline.as_ref().map(|d| d.remaining_ms());
        let mut iterations = Vec::new();
        let mut tracer = EngineTracer::new();
        let a = self.engine.analyse_recorded(
            pos,
            &limits,
            &mut |i| iterations.push(i.clone()),
            &mut tracer,
        )?;
        let trace = tracer
            .finish_trace()
            .expect("a search that answers records its end");
        Ok(Explained {
            choice: choice_of(a),
            explanation: Explanation::Engine(EngineExplanation {
                to_move: pos.to_move(),
                iterations,
                trace,
                limits: ExplainedLimits {
                    max_depth: limits.max_depth,
                    max_nodes: limits.max_nodes,
                    time_ms,
                },
            }),
        })
    }
}

fn choice_of(a: Analysis) -> Choice {
    Choice {
        cell: a.best,
        value: Some(a.value),
        pv: a.pv,
        depth: a.depth,
        nodes: a.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{bench_position, POSITIONS};

    /// Plays `line` from `pos`, panicking at an illegal move.
    fn play_line(pos: &Position, line: &[Cell]) {
        let mut pos = pos.clone();
        for &c in line {
            pos.try_play(c)
                .unwrap_or_else(|e| panic!("{c:?} in {line:?}: {e}"));
        }
    }

    #[test]
    fn multi_pv_lines_are_distinct_and_legal_and_the_first_is_the_engines_move() {
        for p in &POSITIONS {
            let pos = bench_position(p);
            let limits = Limits::depth(5);
            let single = Engine::new(4).analyse(&pos, &limits, &mut |_| {}).unwrap();
            let multi = Engine::new(4)
                .analyse_lines(&pos, &limits, 3, &mut |_| {})
                .unwrap();
            let first = &multi.lines[0];
            assert_eq!(
                (first.pv[0], first.value, &first.pv),
                (single.best, single.value, &single.pv),
                "{}",
                p.name
            );
            assert_eq!(multi.depth, single.depth, "{}", p.name);
            if single.value.is_proven() && multi.lines.len() == 1 {
                continue; // proven by the threat search: one line
            }
            assert_eq!(multi.lines.len(), 3, "{}", p.name);
            let mut moves: Vec<Cell> = multi.lines.iter().map(|l| l.pv[0]).collect();
            moves.sort_by_key(|c| (c.y, c.x));
            moves.dedup();
            assert_eq!(moves.len(), 3, "{}: {:?}", p.name, multi.lines);
            for line in &multi.lines {
                play_line(&pos, &line.pv);
            }
            // The other lines are best first.
            assert!(multi.lines[1].value >= multi.lines[2].value, "{}", p.name);
            assert!(multi.nodes > single.nodes, "{}", p.name);
        }
    }

    #[test]
    fn analysis_reports_are_the_same_on_every_run() {
        let pos = bench_position(&POSITIONS[0]);
        for limits in [Limits::depth(5), Limits::nodes(60_000)] {
            let run = || {
                let mut reports = Vec::new();
                let last = Engine::new(4)
                    .analyse_lines(&pos, &limits, 3, &mut |m| reports.push(m.clone()))
                    .unwrap();
                (reports, last)
            };
            let (reports, last) = run();
            assert_eq!((reports.clone(), last.clone()), run(), "{limits:?}");
            assert!(reports.len() >= 3, "{limits:?}: {reports:?}");
            for (i, r) in reports.iter().enumerate() {
                assert_eq!(r.depth, i as u32 + 1);
                assert_eq!(r.lines.len(), 3);
                assert_eq!(r.elapsed_ms, 0, "no clock without a deadline");
            }
            assert!(reports.windows(2).all(|w| w[0].nodes < w[1].nodes));
            if limits.max_depth.is_some() {
                assert_eq!(Some(&last), reports.last());
            }
        }
    }

    #[test]
    fn a_search_under_a_cutoff_says_how_long_it_took() {
        /// A clock a millisecond later at every reading.
        struct Ticking(std::sync::atomic::AtomicU64);
        impl crate::Clock for Ticking {
            fn now_ms(&self) -> u64 {
                self.0.fetch_add(1, Ordering::Relaxed)
            }
        }
        let pos = bench_position(&POSITIONS[0]);
        let clock: Arc<dyn crate::Clock> = Arc::new(Ticking(Default::default()));
        let limits = Limits {
            cutoff: Some(Deadline::after(clock, std::time::Duration::from_secs(3600))),
            ..Limits::depth(4)
        };
        let mut reports = Vec::new();
        let a = Engine::new(4)
            .analyse(&pos, &limits, &mut |i| reports.push(i.elapsed_ms))
            .unwrap();
        assert!(a.elapsed_ms > 0, "{a:?}");
        assert!(reports.windows(2).all(|w| w[0] < w[1]), "{reports:?}");
        // The same search as without the clock: the cutoff plans nothing.
        let plain = Engine::new(4)
            .analyse(&pos, &Limits::depth(4), &mut |_| {})
            .unwrap();
        assert_eq!(
            (a.best, a.value, a.nodes),
            (plain.best, plain.value, plain.nodes)
        );
    }

    #[test]
    fn one_line_reports_as_play_does() {
        let pos = bench_position(&POSITIONS[2]);
        let limits = Limits::depth(6);
        let mut infos = Vec::new();
        let single = Engine::new(4)
            .analyse(&pos, &limits, &mut |i| infos.push(i.clone()))
            .unwrap();
        let mut reports = Vec::new();
        let one = Engine::new(4)
            .analyse_lines(&pos, &limits, 1, &mut |m| reports.push(m.clone()))
            .unwrap();
        assert_eq!(one.nodes, single.nodes);
        assert_eq!(one.lines[0].pv, single.pv);
        assert_eq!(reports.len(), infos.len());
        for (r, i) in reports.iter().zip(&infos) {
            assert_eq!(
                (r.depth, r.lines[0].value, &r.lines[0].pv, r.nodes),
                (i.depth, i.value, &i.pv, i.nodes)
            );
        }
    }

    #[test]
    fn a_proven_win_is_reported_as_a_win() {
        // X to move makes two open threes at g5: a win by threats.
        let pos = Position::from_diagram(
            "9x9x5".parse().unwrap(),
            "
            O . . . . . . . O
            . . . . . . . . .
            . . . . . . X . .
            . . . . . . X . .
            . . . . X X . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            O . . . . . . . O
            ",
        )
        .unwrap();
        let mut reports = Vec::new();
        let found = Engine::new(1)
            .analyse_lines(&pos, &Limits::depth(12), 3, &mut |m| {
                reports.push(m.clone())
            })
            .unwrap();
        assert!(matches!(found.lines[0].value, Value::Win(_)), "{found:?}");
        assert_eq!(found.lines[0].pv[0], "g5".parse().unwrap());
        play_line(&pos, &found.lines[0].pv);
        assert_eq!(Some(&found), reports.last(), "the proof is reported");
    }

    #[test]
    fn the_node_meter_follows_the_search() {
        let pos = bench_position(&POSITIONS[0]);
        let meter = Arc::new(AtomicU64::new(7));
        let mut engine = Engine::new(4);
        engine.set_node_meter(Some(meter.clone()));
        let found = engine
            .analyse_lines(&pos, &Limits::depth(5), 2, &mut |_| {})
            .unwrap();
        let seen = meter.load(Ordering::Relaxed);
        // Published every CHECK_EVERY nodes by each of the two searchers, from 0.
        assert!(seen <= found.nodes, "{seen} > {}", found.nodes);
        assert!(seen + 2 * control::CHECK_EVERY >= found.nodes, "{seen}");
    }

    #[test]
    fn one_thread_again_is_the_one_thread_search() {
        // An engine that searched with two threads, set back to one, searches exactly as a
        // fresh one: same move, value, line and node count.
        let pos = bench_position(&POSITIONS[0]);
        let limits = Limits::depth(6);
        let fresh = Engine::new(4).analyse(&pos, &limits, &mut |_| {}).unwrap();
        let mut engine = Engine::with_threads(4, 2);
        engine.analyse(&pos, &limits, &mut |_| {}).unwrap();
        engine.set_threads(1);
        assert_eq!(engine.analyse(&pos, &limits, &mut |_| {}).unwrap(), fresh);
        assert_eq!(Engine::with_threads(4, 0).threads(), 1);
        assert_eq!(Engine::with_threads(4, 1000).threads(), MAX_THREADS);
    }

    #[test]
    fn two_threads_play_legal_moves_with_sound_values() {
        for p in &POSITIONS {
            let pos = bench_position(p);
            let limits = Limits::depth(6);
            let one = Engine::new(4).analyse(&pos, &limits, &mut |_| {}).unwrap();
            let mut depths = Vec::new();
            let two = Engine::with_threads(4, 2)
                .analyse(&pos, &limits, &mut |i| depths.push(i.depth))
                .unwrap();
            assert_eq!(two.pv[0], two.best, "{}", p.name);
            play_line(&pos, &two.pv);
            // The main thread completes every iteration up to the limit, as one thread does.
            assert_eq!(two.depth, one.depth, "{}", p.name);
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "{}", p.name);
            // Proofs do not contradict each other.
            let (a, b) = (one.value, two.value);
            let contradict = |x: Value, y: Value| matches!((x, y), (Value::Win(_), Value::Loss(_)));
            assert!(
                !contradict(a, b) && !contradict(b, a),
                "{}: {a} and {b}",
                p.name
            );
            if matches!(one.value, Value::Win(_)) && one.depth <= 1 {
                // Proven by the root threat searches, which the main thread runs alone.
                assert_eq!((two.best, two.value), (one.best, one.value), "{}", p.name);
            }
            // Analysis lines with helpers: distinct and legal, the first the engine's move.
            let multi = Engine::with_threads(4, 2)
                .analyse_lines(&pos, &Limits::depth(4), 3, &mut |_| {})
                .unwrap();
            let mut firsts: Vec<Cell> = multi.lines.iter().map(|l| l.pv[0]).collect();
            firsts.sort_by_key(|c| (c.y, c.x));
            firsts.dedup();
            assert_eq!(firsts.len(), multi.lines.len(), "{}", p.name);
            for line in &multi.lines {
                play_line(&pos, &line.pv);
            }
        }
    }

    #[test]
    fn helpers_stop_with_the_main_thread() {
        let pos = bench_position(&POSITIONS[1]);
        // A stop flag raised before the search: the answer comes at once, from the root.
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let limits = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        let a = Engine::with_threads(4, 3)
            .analyse(&pos, &limits, &mut |_| {})
            .unwrap();
        play_line(&pos, &a.pv);
        // A node limit counts the main thread's nodes; the helpers stop when it does, and
        // their nodes are counted in the answer.
        let limits = Limits::nodes(50_000);
        let one = Engine::new(4).analyse(&pos, &limits, &mut |_| {}).unwrap();
        let three = Engine::with_threads(4, 3)
            .analyse(&pos, &limits, &mut |_| {})
            .unwrap();
        play_line(&pos, &three.pv);
        assert!(one.nodes <= 50_000 + 1, "{}", one.nodes);
        assert!(three.nodes > one.nodes, "{} vs {}", three.nodes, one.nodes);
    }

    #[test]
    fn games_of_two_in_a_row_are_not_analysed() {
        let pos = Position::new("5x5x2".parse().unwrap());
        let refused = Engine::new(1).analyse_lines(&pos, &Limits::depth(2), 2, &mut |_| {});
        assert!(
            matches!(refused, Err(BotError::Unsupported(_))),
            "{refused:?}"
        );
    }

    #[test]
    fn the_first_move_without_borders_is_at_the_origin() {
        for rules in ["infx3", "infx5", "infx4,exact"] {
            let pos = Position::new(rules.parse().unwrap());
            let a = Engine::new(1)
                .analyse(&pos, &Limits::depth(3), &mut |_| {})
                .unwrap();
            assert_eq!(a.best, Cell::new(0, 0), "{rules}");
            assert_eq!(a.pv[0], Cell::new(0, 0), "{rules}");
            let top = Engine::new(1)
                .top_moves(&pos, &Limits::depth(2), 5)
                .unwrap();
            assert_eq!(top[0].0, Cell::new(0, 0), "{rules}");
            let mut reports = Vec::new();
            let lines = Engine::new(1)
                .analyse_lines(&pos, &Limits::depth(3), 2, &mut |m| reports.push(m.clone()))
                .unwrap();
            assert_eq!(lines.lines[0].pv[0], Cell::new(0, 0), "{rules}");
            assert!(reports.iter().all(|r| r.lines[0].pv[0] == Cell::new(0, 0)));
        }
    }

    /// The position after `moves` on the board without borders (X first).
    fn unbounded(rules: &str, moves: &[(i32, i32)]) -> Position {
        let cells: Vec<Cell> = moves.iter().map(|&(x, y)| Cell::new(x, y)).collect();
        Position::from_moves(rules.parse().unwrap(), &cells).unwrap()
    }

    /// The urgent move outside the frame, and the engine's move, at depth 2.
    fn urgency_and_move(pos: &Position) -> (Option<(Cell, Value)>, Cell) {
        let urgent = outside_frame_urgency(pos, &Board::from_position(pos));
        let choice = EngineBot::new(1).choose(pos, &Limits::depth(2)).unwrap();
        (urgent, choice.cell)
    }

    #[test]
    fn a_four_left_out_of_the_frame_is_blocked() {
        // X's four at the origin, blocked on the left; the game went on 1,000 cells away.
        let pos = unbounded(
            "infx5",
            &[
                (0, 0),
                (-1, 0),
                (1, 0),
                (1000, 0),
                (2, 0),
                (1000, 10),
                (3, 0),
                (1000, 20),
                (1000, 40),
            ],
        );
        let four = Cell::new(4, 0);
        assert_eq!(urgency_and_move(&pos), (Some((four, Value::Eval(0))), four));
    }

    #[test]
    fn a_win_left_out_of_the_frame_comes_before_a_block() {
        // Both sides have an open four far from the last move; X, to move, wins.
        let pos = unbounded(
            "infx5",
            &[
                (0, 0),
                (0, 100),
                (1, 0),
                (1, 100),
                (2, 0),
                (2, 100),
                (3, 0),
                (3, 100),
                (1000, 0),
                (1000, 50),
            ],
        );
        let win = Cell::new(-1, 0);
        assert_eq!(urgency_and_move(&pos), (Some((win, Value::Win(1))), win));
    }

    #[test]
    fn a_four_across_the_frame_edge_is_blocked_inside() {
        // The frame spans x = -48..=47 around O's last move at (0, 5): O's four at x = 46..=49
        // (stopped by X at 50) has two stones inside, two outside, and its last cell, 45,
        // inside. The board sees only "O O | wall": the facade must block it.
        let pos = unbounded(
            "infx5",
            &[
                (50, 0),
                (46, 0),
                (-1000, 0),
                (47, 0),
                (-1000, 10),
                (48, 0),
                (-1000, 20),
                (49, 0),
                (-1000, 30),
                (0, 5),
            ],
        );
        let board = Board::from_position(&pos);
        assert!(board.index_of(Cell::new(47, 0)).is_some());
        assert!(board.index_of(Cell::new(48, 0)).is_none());
        let block = Cell::new(45, 0);
        assert_eq!(
            urgency_and_move(&pos),
            (Some((block, Value::Eval(0))), block)
        );
    }

    #[test]
    fn nothing_is_urgent_when_every_stone_is_in_the_frame() {
        let pos = unbounded("infx5", &[(0, 0), (1, 1), (1, 0), (2, 2), (2, 0), (3, 3)]);
        assert_eq!(
            outside_frame_urgency(&pos, &Board::from_position(&pos)),
            None
        );
    }
}
