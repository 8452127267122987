//! The line-counting alpha-beta of the advanced tic-tac-toe this project grew from.
//!
//! Alpha-beta to a fixed depth (the original used 2) over an evaluation that looks at every
//! k-window of the board: a window holding stones of both players is worth nothing, an empty one
//! is worth 1 to the side to move, and one holding `n` stones of one player only is worth
//! `10^(n+1)` to that player. A finished game scores as a win or loss, sooner wins higher. On the
//! unbounded board only windows that hold a stone are counted (there are infinitely many empty ones).

use std::collections::HashSet;

use mnk_core::{Cell, Outcome, Position, DIRECTIONS};

use crate::bot::{Bot, BotError, Choice};
use crate::limits::Limits;
use crate::rng::Rng;
use crate::value::Value;

/// The original's search depth.
pub const DEFAULT_DEPTH: u32 = 2;
/// Score of a won game (before subtracting the plies it took).
const WIN: i64 = 1 << 62;
/// Bounded boards up to this many cells search every empty cell; larger ones only cells near stones.
const ALL_CELLS_UP_TO: usize = 81;

/// Nodes between checks of the deadline and stop flag.
const CHECK_EVERY: u64 = 16;

/// Starting cells of the windows to evaluate: every window of a bounded board; on the unbounded
/// board the windows through a stone or through a cell the root may play (computed once per
/// search, so stones placed inside the search count only in those windows).
fn windows(pos: &Position) -> Vec<(Cell, (i32, i32))> {
    let k = pos.rules().k() as i32;
    let fits = |c: Cell, (dx, dy): (i32, i32)| pos.rules().contains(c.offset(dx, dy, k - 1));
    if pos.rules().is_bounded() {
        return pos
            .rules()
            .cells()
            .flat_map(|c| DIRECTIONS.iter().map(move |&d| (c, d)))
            .filter(|&(c, d)| fits(c, d))
            .collect();
    }
    let mut starts = HashSet::new();
    let cells = pos.stones().map(|(c, _)| c).chain(LineCountBot::moves(pos));
    for stone in cells {
        for d in DIRECTIONS {
            for back in 0..k {
                starts.insert((stone.offset(d.0, d.1, -back), d));
            }
        }
    }
    let mut list: Vec<_> = starts.into_iter().collect();
    list.sort_unstable_by_key(|&(c, d)| (c.y, c.x, d));
    list
}

/// The original evaluation, from the point of view of the side to move.
fn evaluate(pos: &Position, windows: &[(Cell, (i32, i32))]) -> i64 {
    let me = pos.to_move();
    let k = pos.rules().k() as i32;
    let mut score: i64 = 0;
    for &(start, (dx, dy)) in windows {
        let (mut mine, mut theirs) = (0u32, 0u32);
        for i in 0..k {
            match pos.stone(start.offset(dx, dy, i)) {
                Some(p) if p == me => mine += 1,
                Some(_) => theirs += 1,
                None => {}
            }
        }
        let worth = |n: u32| 10i64.saturating_pow((n + 1).min(18));
        score = score.saturating_add(match (mine, theirs) {
            (0, 0) => 1,
            (n, 0) => worth(n),
            (0, n) => -worth(n),
            _ => 0,
        });
    }
    score
}

/// The line-count alpha-beta player.
#[derive(Debug)]
pub struct LineCountBot {
    depth: u32,
    /// Search only this many root moves, the heaviest by attack weight (all when `None`).
    root_moves: Option<usize>,
    rng: Rng,
}

struct Search<'a> {
    limits: &'a Limits,
    /// The windows evaluated, fixed at the root so leaves do not recompute them.
    windows: &'a [(Cell, (i32, i32))],
    nodes: u64,
    stopped: bool,
}

impl LineCountBot {
    /// A player searching `depth` plies, shuffling equal moves with `seed`.
    #[must_use]
    pub fn new(depth: u32, seed: u64) -> LineCountBot {
        LineCountBot {
            depth: depth.max(1),
            root_moves: None,
            rng: Rng::seeded(seed),
        }
    }

    /// The same player searching only the `n` root moves the attack-weight heat map rates
    /// highest (the line count then decides among plausible moves only).
    #[must_use]
    pub fn with_root_moves(self, n: usize) -> LineCountBot {
        LineCountBot {
            root_moves: Some(n.max(1)),
            ..self
        }
    }

    fn moves(pos: &Position) -> Vec<Cell> {
        match pos.rules().cell_count() {
            Some(n) if n <= ALL_CELLS_UP_TO => pos.legal_moves(),
            _ => pos.cells_near_stones(2),
        }
    }
}

impl Search<'_> {
    /// Searches every root move `depth` plies deep: the best move and its score, and whether the
    /// search finished before the limits stopped it (if not, the best of the moves searched;
    /// `i64::MIN` if none was).
    fn root(&mut self, pos: &Position, moves: &[Cell], depth: u32) -> (Cell, i64, bool) {
        let mut board = pos.clone();
        let (mut best, mut best_score) = (moves[0], i64::MIN);
        let mut alpha = i64::MIN + 1;
        for &m in moves {
            board.play_unchecked(m);
            let score = -self.alpha_beta(&mut board, depth - 1, 1, i64::MIN + 1, -alpha);
            board.undo();
            if self.stopped {
                return (best, best_score, false);
            }
            if score > best_score {
                (best, best_score) = (m, score);
                alpha = alpha.max(score);
            }
        }
        (best, best_score, true)
    }

    /// Checks the limits every few nodes; once they are hit every call returns at once.
    fn out_of_budget(&mut self) -> bool {
        if !self.stopped
            && self.nodes % CHECK_EVERY == 0
            && (self.limits.should_stop() || self.limits.nodes_exhausted(self.nodes))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn alpha_beta(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i64,
        mut alpha: i64,
        beta: i64,
    ) -> i64 {
        self.nodes += 1;
        match pos.outcome() {
            // The previous mover won.
            Outcome::Win { .. } => return -(WIN - ply),
            Outcome::Draw => return 0,
            Outcome::Ongoing => {}
        }
        if self.out_of_budget() {
            return 0;
        }
        if depth == 0 {
            return evaluate(pos, self.windows);
        }
        let mut best = i64::MIN + 1;
        for m in LineCountBot::moves(pos) {
            pos.play_unchecked(m);
            let score = -self.alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.undo();
            if self.stopped {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn to_value(score: i64) -> Value {
    if score > WIN / 2 {
        Value::Win((WIN - score) as u32)
    } else if score < -WIN / 2 {
        Value::Loss((WIN + score) as u32)
    } else {
        Value::Eval((score / 10).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
    }
}

impl Bot for LineCountBot {
    fn id(&self) -> &'static str {
        "alphabeta"
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let mut moves = match self.root_moves {
            Some(n) => crate::weights::attack_weights(pos)
                .into_iter()
                .take(n)
                .map(|(c, _)| c)
                .collect(),
            None => LineCountBot::moves(pos),
        };
        // Shuffle so that equally good moves vary from game to game (reproducibly per seed).
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i + 1);
            moves.swap(i, j);
        }
        let windows = windows(pos);
        let mut search = Search {
            limits,
            windows: &windows,
            nodes: 0,
            stopped: false,
        };
        // The caller's depth limit caps the bot's own depth.
        let depth = limits
            .max_depth
            .map_or(self.depth, |d| d.clamp(1, self.depth));
        let (best, best_score, _complete) = search.root(pos, &moves, depth);
        Ok(Choice {
            cell: best,
            // Stopped before the first move was searched: the move is a guess with no value.
            value: (best_score > i64::MIN).then(|| to_value(best_score)),
            pv: vec![best],
            depth,
            nodes: search.nodes,
        })
    }
}
