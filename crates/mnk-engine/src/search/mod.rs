//! The engine for boards too large to solve: threat patterns, threat-space search and a
//! principal-variation alpha-beta, behind one facade.
//!
//! One file per part, as in Stockfish:
//! - [`pattern`]: line patterns and the tables built from the reference scanner,
//! - [`threat`]: threat classes combining the four directions of a cell,
//! - [`board`]: the fast padded board with incremental patterns (and the unbounded frame),
//! - [`eval`]: the static evaluation,
//! - [`movegen`]: candidates by threat class and their ordering,
//! - [`tt`]: the transposition table,
//! - [`vcf`]: VCF and VCT searches,
//! - [`search`]: the alpha-beta search and the root.
//!
//! [`Engine`] runs a search on a [`Position`] within [`Limits`] and reports each iteration;
//! [`EngineBot`] is the [`Bot`] with id `engine`; [`top_moves`] ranks moves for hints.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod pattern;
#[allow(clippy::module_inception)]
pub mod search;
pub mod threat;
pub mod tt;
pub mod vcf;

use mnk_core::{Cell, Position};

use crate::{Bot, BotError, Choice, Limits, SearchInfo, Value};
use board::Board;
use search::{is_loss, is_win, Iteration, Searcher, MATE};
use tt::TranspositionTable;
use vcf::ThreatCache;

/// Transposition table size when none is given, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Depth searched when the limits give no depth, node count, deadline or stop flag (so a
/// search always ends).
pub const DEFAULT_DEPTH: u32 = 8;
/// A new iteration starts only while the time spent, times this, is within the budget.
const TIME_FACTOR: u64 = 2;
/// Deepest iteration ever started.
pub const MAX_DEPTH: u32 = 60;

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
    /// Milliseconds spent (0 without a deadline, which holds the only clock).
    pub elapsed_ms: u64,
}

/// The search engine: owns its transposition table and threat cache between searches.
pub struct Engine {
    tt: TranspositionTable,
    cache: ThreatCache,
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
            tt: TranspositionTable::new(hash_mb),
            cache: ThreatCache::new(),
        }
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
        self.run(pos, limits, info, false).map(|(a, _)| a)
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
        let (analysis, ranked) = self.run(pos, limits, &mut |_| {}, true)?;
        if ranked.is_empty() {
            return Ok(vec![(analysis.best, analysis.value)]);
        }
        Ok(ranked.into_iter().take(n).collect())
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
        rank_all: bool,
    ) -> Result<(Analysis, Vec<(Cell, Value)>), BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let fallback;
        let limits = if limits.max_depth.is_none()
            && limits.max_nodes.is_none()
            && limits.deadline.is_none()
            && limits.stop.is_none()
        {
            fallback = Limits::depth(DEFAULT_DEPTH);
            &fallback
        } else {
            limits
        };
        let start_ms = limits.deadline.as_ref().map(|d| d.now_ms());
        let budget_ms = limits.deadline.as_ref().map(|d| d.remaining_ms());
        let elapsed = || match (&limits.deadline, start_ms) {
            (Some(d), Some(s)) => d.now_ms().saturating_sub(s),
            _ => 0,
        };
        let board = Board::from_position(pos);
        if let Some(urgent) = outside_frame_urgency(pos, &board) {
            let a = Analysis {
                best: urgent.0,
                value: urgent.1,
                pv: vec![urgent.0],
                depth: 1,
                nodes: 0,
                elapsed_ms: 0,
            };
            return Ok((a, Vec::new()));
        }
        if limits.deadline.is_some() {
            // Timed play is not reproducible anyway: keep what the last searches learned
            // (older entries are the first to be replaced).
            self.tt.new_search();
        } else {
            self.tt.clear();
            self.cache.clear();
        }
        let mut s = Searcher::new(board, &mut self.tt, &mut self.cache, limits);
        s.all_root_scores = rank_all;
        let to_cells = |b: &Board, line: &[usize]| line.iter().map(|&i| b.cell_of(i)).collect();

        if let Some(proof) = s.root_threats() {
            let pv: Vec<Cell> = to_cells(&s.board, &proof.pv);
            let value = value_of(proof.score);
            info(&SearchInfo {
                depth: proof.depth,
                value,
                pv: pv.clone(),
                nodes: proof.nodes,
                elapsed_ms: elapsed(),
            });
            let a = Analysis {
                best: pv[0],
                value,
                pv,
                depth: proof.depth,
                nodes: s.ctl.nodes(),
                elapsed_ms: elapsed(),
            };
            return Ok((a, Vec::new()));
        }

        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last: Option<Iteration> = None;
        for depth in 1..=max_depth {
            let previous = last.as_ref().map(|it| it.score);
            let Some(it) = s.iterate(depth as i32, previous) else {
                break;
            };
            info(&SearchInfo {
                depth: it.depth,
                value: value_of(it.score),
                pv: to_cells(&s.board, &it.pv),
                nodes: it.nodes,
                elapsed_ms: elapsed(),
            });
            let proven = is_win(it.score) || is_loss(it.score);
            let plies = (MATE - it.score.abs()) as u32;
            last = Some(it);
            if proven && depth >= plies + 2 {
                break;
            }
            if s.root_len() == 1 && depth >= 4 && !rank_all {
                break;
            }
            // Another iteration takes a few times longer than this one: stop while there
            // is not time for it.
            if let Some(budget) = budget_ms {
                if elapsed() * TIME_FACTOR > budget {
                    break;
                }
            }
        }
        let root_scores = s.root_scores();
        let board = &s.board;
        let (best, score, pv, depth) = match last {
            Some(it) => (it.pv[0], it.score, it.pv, it.depth),
            None => {
                // Stopped inside the first iteration: the best-ordered move.
                let first = root_scores[0].0;
                (first, 0, vec![first], 0)
            }
        };
        let ranked = if rank_all {
            root_scores
                .iter()
                .filter(|r| r.2)
                .map(|&(idx, sc, _)| (board.cell_of(idx), value_of(sc)))
                .collect()
        } else {
            Vec::new()
        };
        let a = Analysis {
            best: board.cell_of(best),
            value: value_of(score),
            pv: to_cells(board, &pv),
            depth,
            nodes: s.ctl.nodes(),
            elapsed_ms: elapsed(),
        };
        Ok((a, ranked))
    }
}

/// When the unbounded frame leaves stones out: a win, or a block of the opponent's win, that
/// lies outside it (checked on the position itself).
fn outside_frame_urgency(pos: &Position, board: &Board) -> Option<(Cell, Value)> {
    if pos.stones().all(|(c, _)| board.index_of(c).is_some()) {
        return None;
    }
    let me = pos.to_move();
    let wins = |c: Cell, p: mnk_core::Player| {
        mnk_core::DIRECTIONS.iter().any(|&(dx, dy)| {
            let mut run = 1;
            for s in [1, -1] {
                let mut t = c.offset(dx, dy, s);
                while pos.stone(t) == Some(p) {
                    run += 1;
                    t = t.offset(dx, dy, s);
                }
            }
            pos.rules().run_wins(run)
        })
    };
    let near = pos.cells_near_stones(1);
    if let Some(&c) = near.iter().find(|&&c| wins(c, me)) {
        return Some((c, Value::Win(1)));
    }
    near.iter()
        .find(|&&c| board.index_of(c).is_none() && wins(c, me.opponent()))
        .map(|&c| (c, Value::Eval(0)))
}

/// Up to `n` moves for the side to move with their values, best first (for hints and the
/// heat map). Empty when the game is over.
#[must_use]
pub fn top_moves(pos: &Position, limits: &Limits, n: usize) -> Vec<(Cell, Value)> {
    Engine::new(4).top_moves(pos, limits, n).unwrap_or_default()
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
        let mut limits = limits.clone();
        limits.max_depth = tighter(limits.max_depth, self.max_depth);
        limits.max_nodes = tighter(limits.max_nodes, self.max_nodes);
        let a = self.engine.analyse(pos, &limits, info)?;
        Ok(Choice {
            cell: a.best,
            value: Some(a.value),
            pv: a.pv,
            depth: a.depth,
            nodes: a.nodes,
        })
    }
}
