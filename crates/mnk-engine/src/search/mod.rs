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
        let (analysis, ranked) = self.search(pos, limits, info, rank_all)?;
        if pos.rules().is_bounded() || pos.ply() > 0 {
            return Ok((analysis, ranked));
        }
        // On the empty board without borders every first move is the same move shifted: play
        // it where the notation puts the first stone, at 0,0, with the line shifted alike.
        let (dx, dy) = (-analysis.best.x, -analysis.best.y);
        let shift = |c: Cell| Cell::new(c.x + dx, c.y + dy);
        let pv: Vec<Cell> = analysis.pv.iter().map(|&c| shift(c)).collect();
        let value = analysis.value;
        let centred = Analysis {
            best: shift(analysis.best),
            pv,
            ..analysis
        };
        let ranked = if ranked.is_empty() {
            ranked
        } else {
            vec![(centred.best, value)]
        };
        Ok((centred, ranked))
    }

    /// The search itself: urgent moves outside the frame, root threat searches, then iterative
    /// deepening.
    fn search(
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
        // Stopped inside the first iteration: the best root move it searched in full, else
        // the best-ordered one.
        let (best, score, pv, depth) = match last.or_else(|| s.unfinished_best()) {
            Some(it) => (it.pv[0], it.score, it.pv, it.depth),
            None => {
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
                if !pos.is_free(end) {
                    continue;
                }
                // The run behind this end, the cell, and the run beyond it.
                let mut run = 1;
                for s in [1, -1] {
                    let mut t = end.offset(dx, dy, s);
                    while pos.stone(t) == Some(p) {
                        run += 1;
                        t = t.offset(dx, dy, s);
                    }
                }
                if pos.rules().run_wins(run) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
