//! The exact solver: the game-theoretic value of small-board positions.
//!
//! Negamax with alpha-beta over bitboards ([`crate::geometry`]), with:
//! - **immediate wins and forced blocks**: a side that can complete a line does; a side facing one
//!   such cell must take it, facing two it has lost;
//! - **live windows**: a window holding stones of both players can never be completed. When
//!   neither player has a live window the game is a draw whatever happens; when one side's live
//!   windows need more stones than it has moves left, that side cannot win, which bounds the value;
//! - **dead cells**: cells in no live window change nothing but the move count, so only one of
//!   them is ever tried;
//! - a **transposition table** keyed by the exact position, **canonical under the board's
//!   symmetries** while few stones are down (where symmetric transpositions are common);
//! - **pairings**: a side whose live windows each contain a pair of empty cells, with the pairs
//!   disjoint, cannot win (the opponent answers each move in a pair with its partner); this is how
//!   5×5×5 is known to be a draw, and the check proves such draws at once;
//! - **move ordering** by the table's best move, then by how much a cell adds to its side's
//!   windows and takes from the opponent's.
//!
//! Values are "win in n plies", "draw" or "loss in n plies" from the side to move, stored in the
//! table relative to their own position so they are valid at any depth. The value is found with
//! two null-window tests around the draw first (can the mover win? can it lose?), then a full
//! window on the side that matters, so drawn boards, the common case, need only the cheap tests.

mod tt;

use std::fmt;

use mnk_core::{Cell, Outcome, Position, Rules};

use crate::geometry::Geometry;
use crate::limits::Limits;
use crate::value::Value;
use tt::{Bound, Table};

/// Score of a win on the spot; a win in n plies scores `WIN + 1 - n`.
const WIN: i32 = 1000;
/// Beyond every score.
const INFINITY: i32 = WIN + 2;
/// While at most this many stones are down, table keys are made canonical under symmetry.
const SYMMETRY_STONES: u32 = 25;
/// Steps a pairing search may take before giving up (it then proves nothing).
const PAIRING_BUDGET: u32 = 64;
/// Nodes between checks of the stop flag and the deadline.
const CHECK_EVERY: u64 = 4096;
/// Default transposition table size.
pub const DEFAULT_TABLE_MB: usize = 64;
/// The largest board the solver takes on.
pub const MAX_SOLVE_CELLS: usize = 36;

/// Whether the solver takes on boards of these rules (bounded, at most [`MAX_SOLVE_CELLS`] cells).
/// Small boards are solved in well under a second; the largest may take much longer.
#[must_use]
pub fn solvable(rules: &Rules) -> bool {
    rules.cell_count().is_some_and(|n| n <= MAX_SOLVE_CELLS)
}

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board is too large (or unbounded).
    TooLarge(String),
    /// The game is already over.
    GameOver,
    /// A limit (nodes, deadline, stop flag) ended the search first.
    Aborted {
        /// Nodes searched before stopping.
        nodes: u64,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge(rules) => write!(
                f,
                "{rules} is too large to solve exactly: the solver takes bounded boards of at most {MAX_SOLVE_CELLS} cells"
            ),
            SolveError::GameOver => write!(f, "the game is over"),
            SolveError::Aborted { nodes } => write!(f, "stopped before the solution was proven ({nodes} nodes)"),
        }
    }
}

impl std::error::Error for SolveError {}

/// A solved position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Value for the side to move.
    pub value: Value,
    /// A move that achieves the value (the first such in cell order).
    pub best: Option<Cell>,
    /// Every legal move with its exact value for the side playing it (when asked for), best first,
    /// then by cell.
    pub moves: Vec<(Cell, Value)>,
    /// Nodes searched.
    pub nodes: u64,
}

/// An exact solver for one board geometry, keeping its table between calls.
pub struct Solver {
    g: Geometry,
    table: Table,
    nodes: u64,
    aborted: bool,
    limits: Limits,
    inverse: Vec<Vec<u8>>,
}

/// Converts a child's score to the parent's: negate, and a win or loss is one ply further away.
fn parent_score(child: i32) -> i32 {
    let v = -child;
    v - v.signum()
}

/// Converts a parent's bound to the child's window edge (the inverse of [`parent_score`]).
fn child_bound(parent: i32) -> i32 {
    -(parent + parent.signum())
}

fn score_to_value(score: i32) -> Value {
    match score {
        0 => Value::Draw,
        s if s > 0 => Value::Win((WIN + 1 - s) as u32),
        s => Value::Loss((WIN + 1 + s) as u32),
    }
}

/// What one scan of the windows learns about a position.
struct Scan {
    my_threats: u64,
    their_threats: u64,
    live: u64,
    /// Fewest stones the mover still needs in one live window (`u32::MAX` if none).
    my_need: u32,
    their_need: u32,
}

impl Solver {
    /// A solver for `rules` with a table of `table_mb` MB.
    pub fn new(rules: &Rules, table_mb: usize) -> Result<Solver, SolveError> {
        let g = Geometry::new(rules)
            .filter(|_| solvable(rules))
            .ok_or_else(|| SolveError::TooLarge(rules.to_string()))?;
        let inverse = g
            .permutations
            .iter()
            .map(|p| {
                let mut inv = vec![0u8; p.len()];
                for (i, &j) in p.iter().enumerate() {
                    inv[j as usize] = i as u8;
                }
                inv
            })
            .collect();
        Ok(Solver {
            g,
            table: Table::new(table_mb),
            nodes: 0,
            aborted: false,
            limits: Limits::none(),
            inverse,
        })
    }

    /// Nodes searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn bitboards(&self, pos: &Position) -> (u64, u64) {
        let mover = pos.to_move();
        let mut bits = (0u64, 0u64);
        for (cell, player) in pos.stones() {
            let bit = 1u64 << self.g.bit(cell);
            if player == mover {
                bits.0 |= bit;
            } else {
                bits.1 |= bit;
            }
        }
        bits
    }

    /// The exact value of `pos` for the side to move, and a best move.
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
        self.start(pos, limits)?;
        let (me, them) = self.bitboards(pos);
        let score = self.exact(me, them)?;
        let best = self.best_move(me, them, score);
        Ok(Analysis {
            value: score_to_value(score),
            best,
            moves: Vec::new(),
            nodes: self.nodes,
        })
    }

    /// The exact value of `pos` and of every legal move in it.
    pub fn analyse(&mut self, pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
        self.start(pos, limits)?;
        let (me, them) = self.bitboards(pos);
        let mut moves = Vec::new();
        let mut empty = self.g.full & !(me | them);
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let mine = me | 1 << i;
            let score = if self.g.wins_through(mine, i) {
                WIN
            } else if (mine | them) == self.g.full {
                0
            } else {
                parent_score(self.exact(them, mine)?)
            };
            moves.push((self.g.cell(i), score));
        }
        moves.sort_by_key(|&(c, s)| (-s, c.y, c.x));
        let best = moves.first().copied();
        Ok(Analysis {
            value: score_to_value(best.map_or(0, |b| b.1)),
            best: best.map(|b| b.0),
            moves: moves
                .into_iter()
                .map(|(c, s)| (c, score_to_value(s)))
                .collect(),
            nodes: self.nodes,
        })
    }

    fn start(&mut self, pos: &Position, limits: &Limits) -> Result<(), SolveError> {
        if pos.rules().size() != Some((self.g.width, self.g.height)) || pos.rules().k() != self.g.k
        {
            return Err(SolveError::TooLarge(pos.rules().to_string()));
        }
        if pos.is_over() {
            return Err(SolveError::GameOver);
        }
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits.clone();
        Ok(())
    }

    /// The exact score of a position that is not over.
    fn exact(&mut self, me: u64, them: u64) -> Result<i32, SolveError> {
        // Two null windows, "can the mover win?" then "can the mover lose?": each lets a
        // defender stop at the first move that holds the draw.
        let score = if self.search(me, them, 0, 1) >= 1 {
            self.search(me, them, 0, INFINITY)
        } else if self.search(me, them, -1, 0) <= -1 {
            self.search(me, them, -INFINITY, 0)
        } else {
            0
        };
        if self.aborted {
            Err(SolveError::Aborted { nodes: self.nodes })
        } else {
            Ok(score)
        }
    }

    /// The first move (in cell order, after immediate wins) whose value equals `score`.
    fn best_move(&mut self, me: u64, them: u64, score: i32) -> Option<Cell> {
        let mut empty = self.g.full & !(me | them);
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let mine = me | 1 << i;
            let child = if self.g.wins_through(mine, i) {
                WIN
            } else if (mine | them) == self.g.full {
                0
            } else {
                // A null window around `score` proves the move reaches it.
                parent_score(self.search(
                    them,
                    mine,
                    child_bound(score + 1),
                    child_bound(score - 1),
                ))
            };
            if child == score {
                return Some(self.g.cell(i));
            }
        }
        None
    }

    fn scan(&self, me: u64, them: u64) -> Scan {
        let k = self.g.k;
        let mut s = Scan {
            my_threats: 0,
            their_threats: 0,
            live: 0,
            my_need: u32::MAX,
            their_need: u32::MAX,
        };
        for &w in &self.g.windows {
            let (mine, theirs) = (w & me, w & them);
            if theirs == 0 {
                let need = k - mine.count_ones();
                s.my_need = s.my_need.min(need);
                s.live |= w;
                if need == 1 {
                    s.my_threats |= w & !me;
                }
            } else if mine == 0 {
                let need = k - theirs.count_ones();
                s.their_need = s.their_need.min(need);
                s.live |= w;
                if need == 1 {
                    s.their_threats |= w & !them;
                }
            }
        }
        if !self.g.freestyle {
            // Under exact-k a window's last cell may make an overline instead of a win.
            s.my_threats = self.real_threats(me, s.my_threats);
            s.their_threats = self.real_threats(them, s.their_threats);
        }
        s
    }

    fn real_threats(&self, own: u64, candidates: u64) -> u64 {
        let mut rest = candidates;
        let mut real = 0;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.g.wins_through(own | 1 << i, i) {
                real |= 1 << i;
            }
        }
        real
    }

    /// Table key: the position itself, or its canonical image while few stones are down.
    fn key(&self, me: u64, them: u64) -> (u64, u64, usize) {
        if (me | them).count_ones() > SYMMETRY_STONES {
            return (me, them, 0);
        }
        let mut best = (me, them, 0);
        for s in 1..self.g.permutations.len() {
            let image = (self.g.transform(me, s), self.g.transform(them, s));
            if image < (best.0, best.1) {
                best = (image.0, image.1, s);
            }
        }
        best
    }

    /// Whether every live window of `own` contains a pair of empty cells, the pairs disjoint.
    fn paired(&self, own: u64, other: u64) -> bool {
        let empty = self.g.full & !(own | other);
        let windows: Vec<u64> = self
            .g
            .windows
            .iter()
            .filter(|&&w| w & other == 0)
            .map(|&w| w & empty)
            .collect();
        let mut budget = PAIRING_BUDGET;
        find_pairing(&windows, 0, &mut Vec::new(), &mut budget)
    }

    /// How promising a move looks: it extends its side's live windows and spoils the
    /// opponent's, each worth four times more for every stone the window already holds.
    fn order_score(&self, me: u64, them: u64, cell: usize) -> i32 {
        let mut score = 0;
        for &w in &self.g.windows_at[cell] {
            let w = self.g.windows[w as usize];
            let (mine, theirs) = ((w & me).count_ones(), (w & them).count_ones());
            if theirs == 0 {
                score += 1 << (2 * mine).min(28);
            }
            if mine == 0 {
                score += 1 << (2 * theirs).min(28);
            }
        }
        score
    }

    /// Fail-soft negamax. `me` is to move; the previous move did not end the game.
    fn search(&mut self, me: u64, them: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0
            && (self.limits.should_stop() || self.limits.nodes_exhausted(self.nodes))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let empty = self.g.full & !(me | them);
        if empty == 0 {
            return 0;
        }
        let scan = self.scan(me, them);
        if scan.my_threats != 0 {
            return WIN;
        }
        if scan.their_threats.count_ones() >= 2 {
            return -(WIN - 1);
        }
        // Bounds from what each side could still complete in the moves it has left.
        let empties = empty.count_ones();
        let (my_moves, their_moves) = (empties.div_ceil(2), empties / 2);
        let best_possible = if scan.my_need <= my_moves {
            WIN + 2 - 2 * scan.my_need as i32
        } else {
            0
        };
        let worst_possible = if scan.their_need <= their_moves {
            -(WIN + 1 - 2 * scan.their_need as i32)
        } else {
            0
        };
        if best_possible == 0 && worst_possible == 0 {
            return 0;
        }
        if best_possible <= alpha {
            return best_possible;
        }
        if worst_possible >= beta {
            return worst_possible;
        }
        // A side whose live windows each hold a pair of empty cells, the pairs disjoint, cannot
        // win: the other side answers every move in a pair with its partner.
        if alpha >= 0 && best_possible > 0 && self.paired(me, them) {
            return 0;
        }
        if beta <= 0 && worst_possible < 0 && self.paired(them, me) {
            return 0;
        }
        alpha = alpha.max(worst_possible - 1);
        beta = beta.min(best_possible + 1);

        let (km, kt, sym) = self.key(me, them);
        let mut tt_move = None;
        if let Some(hit) = self.table.probe(km, kt) {
            match hit.bound {
                Bound::Exact => return hit.value,
                Bound::Lower if hit.value >= beta => return hit.value,
                Bound::Upper if hit.value <= alpha => return hit.value,
                _ => {}
            }
            if hit.best != u8::MAX {
                tt_move = Some(self.inverse[sym][hit.best as usize] as usize);
            }
        }

        // Candidate moves: the forced block, else every live cell and one dead cell.
        let candidates = if scan.their_threats != 0 {
            scan.their_threats
        } else {
            let dead = empty & !scan.live;
            (empty & scan.live) | (dead & dead.wrapping_neg())
        };
        let mut moves: Vec<(i32, usize)> = Vec::with_capacity(candidates.count_ones() as usize);
        let mut rest = candidates;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let score = if Some(i) == tt_move {
                i32::MAX
            } else {
                self.order_score(me, them, i)
            };
            moves.push((score, i));
        }
        // Highest score first, ties by cell: a total order keeps the search deterministic.
        moves.sort_unstable_by_key(|&(s, i)| (std::cmp::Reverse(s), i));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = u8::MAX;
        for &(_, i) in &moves {
            let mine = me | 1 << i;
            let child = self.search(them, mine, child_bound(beta), child_bound(alpha));
            if self.aborted {
                return 0;
            }
            let score = parent_score(child);
            if score > best {
                best = score;
                best_move = i as u8;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_move = if best_move == u8::MAX {
            u8::MAX
        } else {
            self.g.permutations[sym][best_move as usize]
        };
        self.table.store(km, kt, best, bound, stored_move);
        best
    }
}

/// Backtracking search for disjoint pairs: `pairs` holds the pairs chosen so far, `used` their cells.
fn find_pairing(windows: &[u64], used: u64, pairs: &mut Vec<u64>, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    // The unsatisfied window with the fewest free cells is the most constrained: try it first.
    let mut pick: Option<(u32, u64)> = None;
    for &w in windows {
        if pairs.iter().any(|pair| pair & !w == 0) {
            continue;
        }
        let free = w & !used;
        let n = free.count_ones();
        if n < 2 {
            return false;
        }
        if pick.is_none_or(|(m, _)| n < m) {
            pick = Some((n, free));
        }
    }
    let Some((_, free)) = pick else {
        return true;
    };
    let mut a_bits = free;
    while a_bits != 0 {
        let a = a_bits & a_bits.wrapping_neg();
        a_bits &= a_bits - 1;
        let mut b_bits = a_bits;
        while b_bits != 0 {
            let b = b_bits & b_bits.wrapping_neg();
            b_bits &= b_bits - 1;
            pairs.push(a | b);
            let found = find_pairing(windows, used | a | b, pairs, budget);
            pairs.pop();
            if found {
                return true;
            }
        }
    }
    false
}

/// Solves `pos` with a fresh solver: the value of the position and of every legal move.
pub fn analyse(pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
    if let Outcome::Win { .. } | Outcome::Draw = pos.outcome() {
        return Err(SolveError::GameOver);
    }
    Solver::new(pos.rules(), DEFAULT_TABLE_MB)?.analyse(pos, limits)
}
