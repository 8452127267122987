//! The line-counting alpha-beta of the advanced tic-tac-toe this project grew from.
//!
//! Alpha-beta to a fixed depth (the original used 2) over an evaluation that looks at every
//! k-window of the board: a window holding stones of both players is worth nothing, an empty one
//! is worth 1 to the side to move, and one holding `n` stones of one player only is worth
//! `10^(n+1)` to that player. A finished game scores as a win or loss, sooner wins higher. On the
//! unbounded board only windows that hold a stone are counted (there are infinitely many empty ones).
//!
//! The work grows with the stones: around 1,024 scattered stones on the unbounded board there
//! are some 25,000 candidate cells and half a million windows, so one evaluation takes
//! milliseconds. The limits are therefore read by work done (windows evaluated, moves
//! generated) as well as every few nodes, also while the windows are listed; stopped before any
//! root move was searched, the bot answers its first candidate (for level 3, the heaviest cell).
//!
//! The search tells a [`Recorder`] each node it enters and leaves, each leaf's windows and each
//! cut-off: [`NoRecord`] when it plays, a [`TreeRecorder`] when it explains its move
//! ([`Bot::explain`]), so the tree shown is the search played.

use mnk_core::{Cell, Outcome, Player, Position, DIRECTIONS};

use crate::bot::{Bot, BotError, Choice};
use crate::explain::alphabeta::{AlphaBetaTrace, Exit, NoRecord, Recorder, TreeRecorder};
use crate::explain::Explanation;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::value::Value;
use crate::Explained;

/// The original's search depth.
pub const DEFAULT_DEPTH: u32 = 2;
/// Score of a won game (before subtracting the plies it took).
const WIN: i64 = 1 << 62;
/// Bounded boards up to this many cells search every empty cell; larger ones only cells near stones.
const ALL_CELLS_UP_TO: usize = 81;

/// Nodes between checks of the node limit, the deadline and the stop flag.
const CHECK_EVERY: u64 = 16;
/// Work (windows evaluated or listed, cells generated) between readings of the deadline and
/// stop flag, whatever the node count: well under a millisecond.
const WORK_PER_CHECK: u64 = 5_000;

/// Starting cells of the windows to evaluate: every window of a bounded board; on the unbounded
/// board the windows through a stone or through a cell the root may play (computed once per
/// search, so stones placed inside the search count only in those windows). `None` when the
/// limits stopped the listing.
fn windows(pos: &Position, limits: &Limits) -> Option<Vec<(Cell, (i32, i32))>> {
    let k = pos.rules().k() as i32;
    let fits = |c: Cell, (dx, dy): (i32, i32)| pos.rules().contains(c.offset(dx, dy, k - 1));
    if pos.rules().is_bounded() {
        return Some(
            pos.rules()
                .cells()
                .flat_map(|c| DIRECTIONS.iter().map(move |&d| (c, d)))
                .filter(|&(c, d)| fits(c, d))
                .collect(),
        );
    }
    // Windows as packed keys (half a million around 1,024 scattered stones): sorting integers
    // is several times faster than sorting tuples or filling a hash set.
    let mut keys = Vec::new();
    let cells = pos.stones().map(|(c, _)| c).chain(LineCountBot::moves(pos));
    let cells_per_check = (WORK_PER_CHECK / (4 * k as u64)).max(1);
    for (i, stone) in cells.enumerate() {
        for d in DIRECTIONS {
            for back in 0..k {
                keys.push(window_key(stone.offset(d.0, d.1, -back), d));
            }
        }
        if (i as u64 + 1) % cells_per_check == 0 && limits.should_stop() {
            return None;
        }
    }
    keys.sort_unstable();
    keys.dedup();
    Some(keys.into_iter().map(key_window).collect())
}

/// Shifts coordinates (within ±[`mnk_core::MAX_COORD`] plus a window) to non-negative 30-bit
/// numbers.
const KEY_BIAS: i64 = 1 << 29;
/// The directions in the order of their tuples, so that keys sort as `(y, x, direction)`.
const SORTED_DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];

/// A window as one integer that sorts by row, column, then direction.
fn window_key(start: Cell, d: (i32, i32)) -> u64 {
    let rank = SORTED_DIRECTIONS
        .iter()
        .position(|&s| s == d)
        .expect("one of the four directions") as u64;
    let y = (i64::from(start.y) + KEY_BIAS) as u64;
    let x = (i64::from(start.x) + KEY_BIAS) as u64;
    y << 32 | x << 2 | rank
}

/// The window of a [`window_key`].
fn key_window(key: u64) -> (Cell, (i32, i32)) {
    let y = (key >> 32) as i64 - KEY_BIAS;
    let x = ((key >> 2) & ((1 << 30) - 1)) as i64 - KEY_BIAS;
    (
        Cell::new(x as i32, y as i32),
        SORTED_DIRECTIONS[(key & 3) as usize],
    )
}

/// The stones of `me` and of the opponent in one window.
fn window_stones(
    pos: &Position,
    me: Player,
    k: i32,
    (start, (dx, dy)): (Cell, (i32, i32)),
) -> (u32, u32) {
    let (mut mine, mut theirs) = (0u32, 0u32);
    for i in 0..k {
        match pos.stone(start.offset(dx, dy, i)) {
            Some(p) if p == me => mine += 1,
            Some(_) => theirs += 1,
            None => {}
        }
    }
    (mine, theirs)
}

/// The original evaluation of one window holding `mine` stones of the side to move and
/// `theirs` of the other, for the side to move.
fn window_points(mine: u32, theirs: u32) -> i64 {
    let worth = |n: u32| 10i64.saturating_pow((n + 1).min(18));
    match (mine, theirs) {
        (0, 0) => 1,
        (n, 0) => worth(n),
        (0, n) => -worth(n),
        _ => 0,
    }
}

/// The line-count alpha-beta player.
#[derive(Debug)]
pub struct LineCountBot {
    depth: u32,
    /// Search only this many root moves, the heaviest by attack weight (all when `None`).
    root_moves: Option<usize>,
    rng: Rng,
}

struct Search<'a, R: Recorder> {
    limits: &'a Limits,
    /// Told of every node, leaf window and cut-off ([`NoRecord`] when nobody watches).
    recorder: &'a mut R,
    /// The windows evaluated, fixed at the root so leaves do not recompute them.
    windows: &'a [(Cell, (i32, i32))],
    nodes: u64,
    /// Windows evaluated and moves generated so far, and when to read the clock next.
    work: u64,
    next_check: u64,
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
        if pos
            .rules()
            .cell_count()
            .is_some_and(|n| n <= ALL_CELLS_UP_TO)
        {
            return pos.legal_moves();
        }
        let mut moves = pos.cells_near_stones(2);
        // Renju's black may not play a forbidden point (as legal_moves leaves them out).
        if pos.rules().has_forbidden_moves(pos.to_move()) {
            moves.retain(|&c| pos.forbidden_kind(c).is_none());
        }
        moves
    }
}

impl<R: Recorder> Search<'_, R> {
    /// Searches every root move `depth` plies deep: the best move and its score, and whether the
    /// search finished before the limits stopped it (if not, the best of the moves searched;
    /// `fallback` and `i64::MIN` if none was).
    fn root(
        &mut self,
        pos: &Position,
        moves: &[Cell],
        fallback: Cell,
        depth: u32,
    ) -> (Cell, i64, bool) {
        let mut board = pos.clone();
        let (mut best, mut best_score) = (fallback, i64::MIN);
        let mut alpha = i64::MIN + 1;
        self.recorder.enter(pos, 0, alpha, i64::MAX);
        for &m in moves {
            board.play_unchecked(m);
            let score = -self.alpha_beta(&mut board, depth - 1, 1, i64::MIN + 1, -alpha);
            board.undo();
            if self.stopped {
                self.recorder.leave(best_score, Exit::Stopped);
                return (best, best_score, false);
            }
            if score > best_score {
                (best, best_score) = (m, score);
                alpha = alpha.max(score);
            }
        }
        self.recorder.leave(best_score, Exit::Inner);
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
        self.stopped || self.worked(0)
    }

    /// Counts `units` of work, reading the deadline and stop flag whenever
    /// [`WORK_PER_CHECK`] more have been done (the node count is left alone, so node-limited
    /// searches stay reproducible); true once stopped.
    fn worked(&mut self, units: u64) -> bool {
        self.work += units;
        if !self.stopped && self.work >= self.next_check {
            self.next_check = self.work + WORK_PER_CHECK;
            self.stopped = self.limits.should_stop();
        }
        self.stopped
    }

    /// The original evaluation, from the point of view of the side to move (0 once stopped:
    /// the caller throws it away).
    fn evaluate(&mut self, pos: &Position) -> i64 {
        let me = pos.to_move();
        let k = pos.rules().k() as i32;
        let mut score: i64 = 0;
        for chunk in self.windows.chunks(WORK_PER_CHECK as usize) {
            for &w in chunk {
                let (mine, theirs) = window_stones(pos, me, k, w);
                let points = window_points(mine, theirs);
                self.recorder.window(w.0, w.1, mine, theirs, points);
                score = score.saturating_add(points);
            }
            if self.worked(chunk.len() as u64) {
                return 0;
            }
        }
        score
    }

    /// One node: counted, told to the recorder, searched.
    fn alpha_beta(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i64,
        alpha: i64,
        beta: i64,
    ) -> i64 {
        self.nodes += 1;
        self.recorder.enter(pos, ply as u32, alpha, beta);
        let (value, exit) = self.node_value(pos, depth, ply, alpha, beta);
        self.recorder.leave(value, exit);
        value
    }

    /// A node's value (0 once stopped: the caller throws it away) and how its search ended.
    fn node_value(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i64,
        mut alpha: i64,
        beta: i64,
    ) -> (i64, Exit) {
        match pos.outcome() {
            // The previous mover won.
            Outcome::Win { .. } => return (-(WIN - ply), Exit::Won),
            Outcome::Draw(_) => return (0, Exit::Drawn),
            Outcome::Ongoing => {}
        }
        if self.out_of_budget() {
            return (0, Exit::Stopped);
        }
        if depth == 0 {
            let value = self.evaluate(pos);
            return (
                value,
                if self.stopped {
                    Exit::Stopped
                } else {
                    Exit::Leaf
                },
            );
        }
        let moves = LineCountBot::moves(pos);
        if self.worked(moves.len() as u64) {
            return (0, Exit::Stopped);
        }
        let mut best = i64::MIN + 1;
        for (i, &m) in moves.iter().enumerate() {
            pos.play_unchecked(m);
            let score = -self.alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.undo();
            if self.stopped {
                return (0, Exit::Stopped);
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                self.recorder.cut(&moves[i + 1..]);
                break;
            }
        }
        (best, Exit::Inner)
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
        Ok(self.decide(pos, limits, &mut NoRecord)?.choice)
    }

    /// The same search as [`Bot::choose`], recorded.
    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        let mut recorder = TreeRecorder::new(pos.to_move(), WIN);
        let decision = self.decide(pos, limits, &mut recorder)?;
        let trace = AlphaBetaTrace {
            bot: pos.to_move(),
            depth: decision.choice.depth,
            root_moves: decision.root_moves,
            preselected: self.root_moves,
            nodes: decision.choice.nodes,
            recorded: recorder.finish(),
            stopped: !decision.complete,
        };
        Ok(Explained {
            choice: decision.choice,
            explanation: Explanation::AlphaBeta(trace),
        })
    }
}

/// What one search decided, with what an explanation adds to the choice.
struct Decision {
    choice: Choice,
    /// The root moves in the order searched.
    root_moves: Vec<Cell>,
    /// Whether every root move was searched before the limits stopped the search.
    complete: bool,
}

impl LineCountBot {
    /// Chooses the move, telling `recorder` what the search does.
    fn decide<R: Recorder>(
        &mut self,
        pos: &Position,
        limits: &Limits,
        recorder: &mut R,
    ) -> Result<Decision, BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        // Stopped while weighing, the heaviest of the cells weighed so far.
        let mut moves: Vec<Cell> = match self.root_moves {
            Some(n) => crate::weights::weigh(pos, limits)
                .0
                .into_iter()
                .take(n)
                .map(|(c, _)| c)
                .collect(),
            None => LineCountBot::moves(pos),
        };
        if moves.is_empty() {
            // Every cell near the stones forbidden (renju's black): any legal cell.
            moves = pos.legal_moves();
        }
        let Some(&heaviest) = moves.first() else {
            return Err(BotError::GameOver);
        };
        // Shuffle so that equally good moves vary from game to game (reproducibly per seed).
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i + 1);
            moves.swap(i, j);
        }
        // Out of time before any search: the heaviest cell for level 3, else the first
        // (shuffled) candidate.
        let fallback = if self.root_moves.is_some() {
            heaviest
        } else {
            moves[0]
        };
        // The caller's depth limit caps the bot's own depth.
        let depth = limits
            .max_depth
            .map_or(self.depth, |d| d.clamp(1, self.depth));
        let windows = (!limits.should_stop())
            .then(|| windows(pos, limits))
            .flatten();
        let Some(windows) = windows else {
            return Ok(Decision {
                choice: Choice {
                    depth,
                    ..Choice::just(fallback)
                },
                root_moves: moves,
                complete: false,
            });
        };
        let mut search = Search {
            limits,
            recorder,
            windows: &windows,
            nodes: 0,
            work: 0,
            next_check: WORK_PER_CHECK,
            stopped: false,
        };
        let (best, best_score, complete) = search.root(pos, &moves, fallback, depth);
        let choice = Choice {
            cell: best,
            // Stopped before the first move was searched: the move is a guess with no value.
            value: (best_score > i64::MIN).then(|| to_value(best_score)),
            pv: vec![best],
            depth,
            nodes: search.nodes,
        };
        Ok(Decision {
            choice,
            root_moves: moves,
            complete,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use mnk_core::{Rules, MAX_COORD};

    #[test]
    fn window_keys_round_trip_and_sort_like_tuples() {
        let m = MAX_COORD + 31;
        let mut windows = Vec::new();
        for (x, y) in [(0, 0), (-m, -m), (m, m), (-m, m), (3, -7), (-1, -1)] {
            for d in DIRECTIONS {
                windows.push((Cell::new(x, y), d));
            }
        }
        for &w in &windows {
            assert_eq!(key_window(window_key(w.0, w.1)), w);
        }
        let mut by_key = windows.clone();
        by_key.sort_by_key(|&(c, d)| window_key(c, d));
        windows.sort_by_key(|&(c, d)| (c.y, c.x, d));
        assert_eq!(by_key, windows);
    }

    #[test]
    fn the_unbounded_windows_are_those_through_stones_and_root_moves() {
        let rules: Rules = "infx5".parse().unwrap();
        let moves = ["0,0", "1,1", "7,-3", "2,0", "-40,12"].map(|c| c.parse::<Cell>().unwrap());
        let pos = Position::from_moves(rules, &moves).unwrap();
        // The plain way: a set of every window through a stone or a candidate cell.
        let mut expected = BTreeSet::new();
        for c in pos
            .stones()
            .map(|(c, _)| c)
            .chain(LineCountBot::moves(&pos))
        {
            for d in DIRECTIONS {
                for back in 0..5 {
                    let start = c.offset(d.0, d.1, -back);
                    expected.insert((start.y, start.x, d));
                }
            }
        }
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(y, x, d)| (Cell::new(x, y), d))
            .collect();
        assert_eq!(windows(&pos, &Limits::none()), Some(expected));
    }
}
