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
//!   5×5×5 is known to be a draw, and the check proves such draws at once. A pair inside several
//!   windows serves them all: the search for pairs serves the most constrained window first
//!   with the pairs that serve the most others, within a small step budget; this is what proves
//!   most nodes of the k = 5 boards;
//! - **forcing lines**: with no threat on the board, a move that makes two threats at once wins in
//!   3, and a short line of threats, each met by its forced block, ending in such a move bounds
//!   the value from below. When the *opponent* has such a line, a move that touches none of its
//!   cells (nor the cells where a stone would turn one of its blocks into a threat) and makes no
//!   threat loses just after it, so only the moves that do are searched. This is what k = 4 on
//!   6×6 needs: without it every defence against a threat two moves away was searched in full,
//!   and valuing every move of the empty 6×6×4 board took 17 s instead of under one;
//! - **relevance zones** (after Hsu et al., "On solving the 7,7,5-game and the 8,8,5-game", 2020):
//!   a proof that a side cannot win also says which empty cells it read, its zone, such that
//!   the side's stones anywhere else would not change it. Where every move of the mover has to
//!   be refuted, a refutation with zone Z refutes every other move outside Z too, so only the
//!   moves inside the zones of all refutations so far are searched. Zones are propagated up the
//!   tree (a node's zone is the union of what its proof used) and kept in the table. This took
//!   7×7×5 from 1.45 million nodes to 0.23 million;
//! - **move ordering** by the table's best move, then by how much a cell adds to its side's
//!   windows and takes from the opponent's.
//!
//! Values are "win in n plies", "draw" or "loss in n plies" from the side to move, stored in the
//! table relative to their own position so they are valid at any depth. The value is found with
//! two null-window tests around the draw first (can the mover win? can it lose?), so drawn
//! boards, the common case, need only the cheap tests; a decided game's distance is then found
//! by more null windows (MTD(f)).
//!
//! Three questions, three prices: [`Solver::solve`] (the value and one best move, what `mnk
//! solve` prints), [`Solver::best_moves`] (the value and every move that keeps it, what the
//! perfect player needs) and [`Solver::analyse`] (the exact value of every move, what `POST
//! /api/solve` and `mnk solve --all` show). The last costs the most: a losing move's exact
//! distance needs a proof of its own.

pub mod book;
pub mod book_index;
pub mod known;
mod tt;

use std::fmt;

use mnk_core::{Cell, Outcome, Position, Rules};

use crate::geometry::{Geometry, MAX_CELLS};
use crate::limits::Limits;
use crate::value::Value;
use tt::{Bound, Table};

/// Score of a win on the spot; a win in n plies scores `WIN + 1 - n`.
const WIN: i32 = 1000;
/// Beyond every score.
const INFINITY: i32 = WIN + 2;
/// While at most this many stones are down, table keys are made canonical under symmetry.
const SYMMETRY_STONES: u32 = 25;
/// The longest forcing line (threat, block, threat, block, ..., double threat) looked for, in plies.
const FORCING_PLIES: u32 = 7;
/// Steps a pairing search may take before giving up (it then proves nothing).
const PAIRING_BUDGET: u32 = 256;
/// Nodes between checks of the stop flag and the deadline.
const CHECK_EVERY: u64 = 4096;
/// Default transposition table size.
pub const DEFAULT_TABLE_MB: usize = 64;
/// The largest board the solver takes on (its bitboards are 64 bits). Boards past about 36 cells
/// may take far longer than anyone waits: give them a deadline.
pub const MAX_SOLVE_CELLS: usize = 64;
/// The largest board the perfect player plays on: every move within the server's thinking time.
pub const PERFECT_PLAY_CELLS: usize = 36;

/// The largest table [`table_mb`] gives, in MB.
pub const MAX_TABLE_MB: usize = 1024;

/// Bytes of table worth having per position: an entry is 32 bytes and a bucket holds two, so
/// with two entries' room per position they rarely push each other out.
const TABLE_BYTES_PER_POSITION: u128 = 64;

/// How many positions a board of `cells` cells can hold with the first player's stones level
/// with the second's or one more: the sum over n of C(cells, n) · C(n, ⌈n/2⌉). It counts
/// positions past a win too, so it bounds what the solver can meet from above.
fn positions_bound(cells: u32) -> u128 {
    let choose = |n: u128, k: u128| (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1));
    let cells = u128::from(cells);
    (0..=cells)
        .map(|n| choose(cells, n).saturating_mul(choose(n, n.div_ceil(2))))
        .fold(0u128, u128::saturating_add)
}

/// The table size for `rules`: `asked_mb` (at most [`MAX_TABLE_MB`]), but no more than every
/// position the board can hold would fill (a larger table only costs memory and the time to
/// clear it); at least 1 MB. Every front-end sizes its solver with this.
#[must_use]
pub fn table_mb(rules: &Rules, asked_mb: usize) -> usize {
    let asked_mb = asked_mb.clamp(1, MAX_TABLE_MB);
    // The solver refuses larger boards anyway (and their counts would overflow).
    let Some(cells) = rules.cell_count().filter(|&n| n <= MAX_SOLVE_CELLS) else {
        return asked_mb;
    };
    let bytes = positions_bound(cells as u32).saturating_mul(TABLE_BYTES_PER_POSITION);
    let needed_mb = bytes.div_ceil(1 << 20).max(1);
    usize::try_from(needed_mb).map_or(asked_mb, |needed| asked_mb.min(needed))
}

/// Whether the solver takes on boards of these rules (bounded, at most [`MAX_SOLVE_CELLS`] cells;
/// freestyle or exactly k, not renju or caro). Small boards are solved in well under a second; the largest may take
/// much longer.
#[must_use]
pub fn solvable(rules: &Rules) -> bool {
    rules.cell_count().is_some_and(|n| n <= MAX_SOLVE_CELLS) && crate::variant::solved(rules)
}

/// Whether the perfect player plays these rules: a board the solver decides move after move
/// within a second or so (bounded, at most [`PERFECT_PLAY_CELLS`] cells).
#[must_use]
pub fn perfectly_playable(rules: &Rules) -> bool {
    rules.cell_count().is_some_and(|n| n <= PERFECT_PLAY_CELLS) && solvable(rules)
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
            SolveError::TooLarge(rules) => match rules.parse::<Rules>().map(|r| r.win()) {
                Ok(win @ (mnk_core::Win::Renju | mnk_core::Win::Caro)) => write!(
                    f,
                    "the solver does not play {win} ({rules}): it takes freestyle and exactly-k rules"
                ),
                _ => write!(
                    f,
                    "{rules} is too large to solve exactly: the solver takes bounded boards of at most {MAX_SOLVE_CELLS} cells"
                ),
            },
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
    /// A move that achieves the value: with [`Solver::solve`] the one its search proved (the
    /// first such in cell order where it proved none), else the first such in cell order.
    pub best: Option<Cell>,
    /// The moves asked for, with their exact values for the side playing them: none
    /// ([`Solver::solve`]), the best ones in cell order ([`Solver::best_moves`]), or every legal
    /// move, best first, then by cell ([`Solver::analyse`]).
    pub moves: Vec<(Cell, Value)>,
    /// Nodes searched.
    pub nodes: u64,
    /// What proved it.
    pub proof: ProofStats,
}

/// How a search closed its nodes without searching below them: the proof's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Nodes proved unwinnable for a side by a pairing of its live windows.
    pub pairings: u64,
    /// Nodes decided or bounded by a forcing line (threats ending in a double threat).
    pub forcing_lines: u64,
    /// Nodes answered by the transposition table.
    pub table: u64,
    /// Moves left out because they lie outside the relevance zone of a sibling's refutation.
    pub zone_cuts: u64,
}

/// An exact solver for one board geometry, keeping its table between calls.
pub struct Solver {
    g: Geometry,
    table: Table,
    nodes: u64,
    proof: ProofStats,
    aborted: bool,
    limits: Limits,
    inverse: Vec<Vec<u8>>,
    /// The windows through each two cells, for the pairing search.
    pair_windows: Vec<WindowSet>,
    /// Whether moves outside a refutation's relevance zone are left out: under freestyle only
    /// (see [`Solver::search_moves`]); the unit tests turn it off to compare.
    zones: bool,
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

/// Where one side stands one move away from a threat (a window one stone short of a win).
struct Twos {
    /// Empty cells that would make a threat.
    makers: u64,
    /// Empty cells that would make two threats on different cells at once: a win in 3.
    doubles: u64,
}

/// A forcing win: moves that each make a threat, met by the forced block, ending in two threats.
struct ForcingWin {
    /// Plies from the first threat to the win.
    plies: u32,
    /// Every cell an opponent's move would have to touch to spoil it: the attacker's moves, the
    /// blocks, and the cells where an opponent's stone would turn a block into a threat.
    zone: u64,
    /// The cells the line fills: the attacker's moves, the blocks and the final threats.
    line: u64,
    /// The defender's forced blocks before the final double threat.
    blocks: u64,
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
            pair_windows: pair_windows(&g),
            g,
            table: Table::new(table_mb),
            nodes: 0,
            proof: ProofStats::default(),
            aborted: false,
            limits: Limits::none(),
            inverse,
            zones: rules.win() == mnk_core::Win::Freestyle,
        })
    }

    /// A solver for `rules` with the default table ([`DEFAULT_TABLE_MB`]), or less where the
    /// board cannot fill it (see [`table_mb`]).
    pub fn for_rules(rules: &Rules) -> Result<Solver, SolveError> {
        Solver::new(rules, table_mb(rules, DEFAULT_TABLE_MB))
    }

    /// Nodes searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of `pos` for the side to move, and a best move.
    pub fn solve(&mut self, pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
        self.start(pos, limits)?;
        let (me, them) = self.g.split(pos);
        let score = self.exact(me, them)?;
        let best = self.best_move(me, them, score);
        if self.aborted {
            return Err(SolveError::Aborted { nodes: self.nodes });
        }
        Ok(Analysis {
            value: score_to_value(score),
            best,
            moves: Vec::new(),
            nodes: self.nodes,
            proof: self.proof,
        })
    }

    /// The exact value of `pos` and every move that keeps it, in cell order: what a perfect
    /// player chooses from. Much cheaper than [`Solver::analyse`], which values the other moves
    /// too: each move needs one null-window test instead of an exact value.
    pub fn best_moves(&mut self, pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
        self.start(pos, limits)?;
        let (me, them) = self.g.split(pos);
        let score = self.exact(me, them)?;
        let mut moves = Vec::new();
        let mut empty = self.g.full & !(me | them);
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            if self.reaches(me, them, i, score) {
                moves.push((self.g.cell(i), score_to_value(score)));
            }
            if self.aborted {
                return Err(SolveError::Aborted { nodes: self.nodes });
            }
        }
        Ok(Analysis {
            value: score_to_value(score),
            best: moves.first().map(|m| m.0),
            moves,
            nodes: self.nodes,
            proof: self.proof,
        })
    }

    /// The exact value of `pos` and of every legal move in it.
    pub fn analyse(&mut self, pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
        self.start(pos, limits)?;
        let (me, them) = self.g.split(pos);
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
            proof: self.proof,
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
        self.proof = ProofStats::default();
        self.aborted = false;
        self.limits = limits.clone();
        Ok(())
    }

    /// The exact score of a position that is not over.
    fn exact(&mut self, me: u64, them: u64) -> Result<i32, SolveError> {
        // Two null windows, "can the mover win?" then "can the mover lose?": each lets a
        // defender stop at the first move that holds the draw. A decided game's distance is then
        // narrowed down by more null windows (MTD(f)), each starting from the last bound found.
        let win = self.search(me, them, 0, 1, false).0;
        let score = if win >= 1 {
            self.distance(me, them, win, win, WIN)
        } else {
            let loss = self.search(me, them, -1, 0, false).0;
            if loss <= -1 {
                self.distance(me, them, loss, -WIN, loss)
            } else {
                0
            }
        };
        if self.aborted {
            Err(SolveError::Aborted { nodes: self.nodes })
        } else {
            Ok(score)
        }
    }

    /// The exact score of a position known to lie in `lower..=upper`, by null-window tests
    /// starting from the guess `guess` (MTD(f)): each fail-soft answer is a new bound.
    fn distance(&mut self, me: u64, them: u64, guess: i32, mut lower: i32, mut upper: i32) -> i32 {
        let mut score = guess;
        while lower < upper && !self.aborted {
            let beta = if score == lower { score + 1 } else { score };
            score = self.search(me, them, beta - 1, beta, false).0;
            if score < beta {
                upper = score;
            } else {
                lower = score;
            }
        }
        score
    }

    /// A move whose value equals `score`, the position's value: the table's best move when it
    /// reaches it (the move the search proved, nearly always), else the first in cell order.
    /// Proving some other move instead (the first in cell order, a corner) could cost more than
    /// the value did.
    fn best_move(&mut self, me: u64, them: u64, score: i32) -> Option<Cell> {
        let (km, kt, sym) = self.key(me, them);
        if let Some(hit) = self.table.probe(km, kt).filter(|hit| hit.best != u8::MAX) {
            let i = self.inverse[sym][hit.best as usize] as usize;
            if (me | them) >> i & 1 == 0 && self.reaches(me, them, i, score) {
                return Some(self.g.cell(i));
            }
        }
        let mut empty = self.g.full & !(me | them);
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            if self.reaches(me, them, i, score) {
                return Some(self.g.cell(i));
            }
        }
        None
    }

    /// Whether the move on bit `i` keeps `score`, the position's value.
    fn reaches(&mut self, me: u64, them: u64, i: usize, score: i32) -> bool {
        let mine = me | 1 << i;
        let child = if self.g.wins_through(mine, i) {
            WIN
        } else if (mine | them) == self.g.full {
            0
        } else {
            // No move does better than the position's value, so one null window proves whether
            // the move reaches it: its value is at least `score` exactly when the reply's is at
            // most `child_bound(score)`.
            let edge = child_bound(score);
            return self.search(them, mine, edge, edge + 1, false).0 <= edge;
        };
        child == score
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
            }
            // An empty window is live for both sides.
            if mine == 0 {
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

    /// Where `own` stands one move from a threat (see [`Twos`]), with `other`'s stones in the way.
    fn twos(&self, own: u64, other: u64) -> Twos {
        let mut twos = Twos {
            makers: 0,
            doubles: 0,
        };
        let Some(stones) = self.g.k.checked_sub(2) else {
            return twos;
        };
        // Cells in two or more such windows may make two threats: checked one by one below.
        let mut twice = 0;
        for &w in &self.g.windows {
            if w & other != 0 || (w & own).count_ones() != stones {
                continue;
            }
            let empty = w & !own;
            let makers = if self.g.freestyle {
                empty
            } else {
                self.real_makers(own, empty)
            };
            twice |= twos.makers & makers;
            twos.makers |= makers;
        }
        let mut rest = twice;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.threatened(own, other, cell).count_ones() >= 2 {
                twos.doubles |= 1 << cell;
            }
        }
        twos
    }

    /// Which of a window's two empty cells make a real threat: under exact-k the second stone
    /// may make an overline rather than a win.
    fn real_makers(&self, own: u64, empty: u64) -> u64 {
        let (a, b) = (
            empty.trailing_zeros() as usize,
            63 - empty.leading_zeros() as usize,
        );
        let both = own | empty;
        let mut makers = 0;
        if self.g.wins_through(both, b) {
            makers |= 1 << a;
        }
        if self.g.wins_through(both, a) {
            makers |= 1 << b;
        }
        makers
    }

    /// The cells a stone of `own` on `cell` would threaten to complete.
    fn threatened(&self, own: u64, other: u64, cell: usize) -> u64 {
        let stones = self.g.k - 2;
        let mut threats = 0;
        for &w in &self.g.windows_at[cell] {
            let w = self.g.windows[w as usize];
            if w & other != 0 || (w & own).count_ones() != stones {
                continue;
            }
            let empty = w & !own;
            if self.g.freestyle || self.real_makers(own, empty) >> cell & 1 == 1 {
                threats |= empty & !(1 << cell);
            }
        }
        threats
    }

    /// The shortest forcing win of `own` (to move, neither side having a threat) of at most
    /// `max_plies` plies, if there is one. `twos` is `own`'s [`Twos`] here.
    fn forcing_win(&self, twos: &Twos, own: u64, other: u64, max_plies: u32) -> Option<ForcingWin> {
        (3..=max_plies)
            .step_by(2)
            .find_map(|plies| self.forcing_line(own, other, twos.makers, twos.doubles, plies))
    }

    /// A forcing win of at most `plies` plies, found depth first. `makers` holds every cell that
    /// makes a threat (and perhaps some that no longer do), `fresh` every cell that may make two.
    fn forcing_line(
        &self,
        own: u64,
        other: u64,
        makers: u64,
        fresh: u64,
        plies: u32,
    ) -> Option<ForcingWin> {
        let mut rest = fresh;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let threats = self.threatened(own, other, cell);
            if threats.count_ones() >= 2 {
                return Some(ForcingWin {
                    plies: 3,
                    zone: 1 << cell | threats,
                    line: 1 << cell | threats,
                    blocks: 0,
                });
            }
        }
        if plies < 5 {
            return None;
        }
        let k = self.g.k;
        let mut rest = makers;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let threat = self.threatened(own, other, cell);
            if threat == 0 {
                continue;
            }
            if threat.count_ones() >= 2 {
                // Not met so far (`fresh` holds every double), but two threats win at once.
                return Some(ForcingWin {
                    plies: 3,
                    zone: 1 << cell | threat,
                    line: 1 << cell | threat,
                    blocks: 0,
                });
            }
            let block = threat.trailing_zeros() as usize;
            let (own2, other2) = (own | 1 << cell, other | threat);
            // The block must not make a threat of its own (the attacker would have to answer it),
            // and a stone anywhere in a window where it would is part of the zone.
            let mut blocks_threaten = false;
            let mut spoil = 0;
            for &w in &self.g.windows_at[block] {
                let w = self.g.windows[w as usize];
                if w & own2 != 0 {
                    continue;
                }
                let stones = (w & other2).count_ones();
                if stones + 1 >= k {
                    blocks_threaten = true;
                    break;
                }
                if stones + 2 >= k {
                    spoil |= w & !other2;
                }
            }
            if blocks_threaten {
                continue;
            }
            // Only windows through the new stone can give it new threats to make.
            let mut fresh = 0;
            for &w in &self.g.windows_at[cell] {
                let w = self.g.windows[w as usize];
                if w & other2 == 0 && (w & own2).count_ones() == k - 2 {
                    fresh |= w & !own2;
                }
            }
            let empty = !(own2 | other2);
            if let Some(line) =
                self.forcing_line(own2, other2, (makers | fresh) & empty, fresh, plies - 2)
            {
                return Some(ForcingWin {
                    plies: line.plies + 2,
                    zone: line.zone | 1 << cell | threat | spoil,
                    line: line.line | 1 << cell | threat,
                    blocks: line.blocks | threat,
                });
            }
        }
        None
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

    /// Whether every live window of `own` contains a pair of empty cells, the pairs disjoint: if
    /// so, the cells of the pairs (the proof's relevance zone).
    fn paired(&self, own: u64, other: u64) -> Option<u64> {
        let empty = self.g.full & !(own | other);
        // Windows holding an opponent's stone need no pair: only the others are searched.
        let live: Vec<(usize, u64)> = (self.g.windows.iter().enumerate())
            .filter(|&(_, &w)| w & other == 0)
            .map(|(i, &w)| (i, w & empty))
            .collect();
        let mut search = PairingSearch {
            live: &live,
            pair_windows: &self.pair_windows,
            cells: self.g.cells,
            budget: PAIRING_BUDGET,
            left: 0,
        };
        let found = search.find(WindowSet::default(), empty);
        found.then_some(empty & !search.left)
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

    /// The empty cells of every window still live for `own` (holding no stone of `other`).
    fn live_cells(&self, own: u64, other: u64) -> u64 {
        let empty = self.g.full & !(own | other);
        (self.g.windows.iter())
            .filter(|&&w| w & other == 0)
            .fold(0, |cells, &w| cells | (w & empty))
    }

    /// `zone` widened until every window live for `own` (no stone of `other`) holds at least
    /// `need` of its empty cells outside `taken`, counting none of the cells of `weak` if one of
    /// them is there (one stone of `own` may yet land on a cell of `weak`, so it may take one).
    /// With `need` such cells kept empty, stones of `own` anywhere else leave each window short
    /// of at least `need` stones. Cells are added outside `weak` first, then in cell order; the
    /// whole board when no cells can do it.
    fn cover(&self, own: u64, other: u64, mut zone: u64, need: u32, taken: u64, weak: u64) -> u64 {
        let free = self.g.full & !(own | other | taken);
        for &w in &self.g.windows {
            if w & other != 0 {
                continue;
            }
            let cells = w & free;
            loop {
                let held = cells & zone;
                if held.count_ones() - u32::from(held & weak != 0) >= need {
                    break;
                }
                let out = cells & !zone;
                if out == 0 {
                    return self.g.full;
                }
                let pick = if out & !weak != 0 { out & !weak } else { out };
                zone |= pick & pick.wrapping_neg();
            }
        }
        zone
    }

    /// `bits` of a canonical image (under symmetry `sym`) mapped back to the position's cells.
    fn untransform(&self, bits: u64, sym: usize) -> u64 {
        let inverse = &self.inverse[sym];
        let mut out = 0;
        let mut rest = bits;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1u64 << inverse[i];
        }
        out
    }

    /// Fail-soft negamax. `me` is to move; the previous move did not end the game.
    ///
    /// `unpaired`: the parent found no pairing for the side that just moved (`them`); with one
    /// stone more and the same live windows, neither can this node, so it does not look.
    ///
    /// With the score comes the proof's **relevance zone** when the score proves that a side
    /// cannot win: at most 0 and at most `alpha` (the mover cannot win), or at least 0 and at
    /// least `beta` (the opponent cannot win). The zone is a set of cells such that the side
    /// still cannot win after any stones of its own are added on empty cells outside it: every
    /// cell whose emptiness the proof read (the pairs of a pairing, the cells of a forcing line,
    /// the moves played below) and enough cells of each of the side's live windows that extra
    /// stones cannot complete one, nor, where the proof needs it, bring one within a stone of
    /// completion. Otherwise the zone is the whole board, which claims nothing. See
    /// [`Solver::search_moves`] for how zones prune.
    fn search(
        &mut self,
        me: u64,
        them: u64,
        mut alpha: i32,
        mut beta: i32,
        unpaired: bool,
    ) -> (i32, u64) {
        let full = self.g.full;
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0
            && (self.limits.should_stop() || self.limits.nodes_exhausted(self.nodes))
        {
            self.aborted = true;
        }
        if self.aborted {
            return (0, full);
        }
        let empty = full & !(me | them);
        if empty == 0 {
            return (0, 0);
        }
        let scan = self.scan(me, them);
        if scan.my_threats != 0 {
            // The opponent cannot win while the winning cell stays empty and none of its windows
            // is complete.
            let cell = scan.my_threats & scan.my_threats.wrapping_neg();
            return (WIN, self.cover(them, me, cell, 1, 0, 0));
        }
        if scan.their_threats.count_ones() >= 2 {
            // The mover cannot win while two of the threats stay open and its own windows each
            // keep two cells empty (no win in one move).
            let first = scan.their_threats & scan.their_threats.wrapping_neg();
            let rest = scan.their_threats & !first;
            let two = first | rest & rest.wrapping_neg();
            return (-(WIN - 1), self.cover(me, them, two, 2, 0, 0));
        }
        // Bounds from what each side could still complete in the moves it has left. Stones
        // outside a side's live windows change none of them and take moves away: the zone of "it
        // cannot complete one in time" is those windows' empty cells.
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
            let zone = if alpha >= 0 {
                self.live_cells(me, them)
            } else if beta <= 0 {
                self.live_cells(them, me)
            } else {
                full
            };
            return (0, zone);
        }
        if best_possible <= alpha {
            let zone = if best_possible == 0 {
                self.live_cells(me, them)
            } else {
                full
            };
            return (best_possible, zone);
        }
        if worst_possible >= beta {
            let zone = if worst_possible == 0 {
                self.live_cells(them, me)
            } else {
                full
            };
            return (worst_possible, zone);
        }
        alpha = alpha.max(worst_possible - 1);
        beta = beta.min(best_possible + 1);

        let (km, kt, sym) = self.key(me, them);
        let mut tt_move = None;
        if let Some(hit) = self.table.probe(km, kt) {
            let decided = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.value >= beta,
                Bound::Upper => hit.value <= alpha,
            };
            if decided {
                self.proof.table += 1;
                let zone = if sym == 0 {
                    hit.zone
                } else {
                    self.untransform(hit.zone, sym)
                };
                return (hit.value, zone);
            }
            if hit.best != u8::MAX {
                tt_move = Some(self.inverse[sym][hit.best as usize] as usize);
            }
        }

        // With no threat on the board, look for forcing wins: a move making two threats wins in
        // 3, a longer forcing line bounds the value from below. When the opponent has one, only
        // moves that touch its zone, or make a threat first, can do better than losing just after
        // it; the others are left out (exactly valued for a double threat, else only when the
        // bound cannot matter).
        let mut spoilers = None;
        let (mut i_can_force, mut they_can_force) = (false, false);
        if scan.their_threats == 0 {
            let mine = self.twos(me, them);
            let longest = FORCING_PLIES.min((WIN + 1 - beta).max(3) as u32);
            if let Some(win) = self.forcing_win(&mine, me, them, longest) {
                let score = WIN + 1 - win.plies as i32;
                if win.plies == 3 || score >= beta {
                    self.proof.forcing_lines += 1;
                    // The opponent's blocks stay forced while its windows keep two cells empty
                    // besides them.
                    return (score, self.cover(them, me, win.line, 2, win.blocks, 0));
                }
                i_can_force = true;
            }
            let theirs = self.twos(them, me);
            let longest = FORCING_PLIES.min((WIN + alpha).max(3) as u32);
            if let Some(loss) = self.forcing_win(&theirs, them, me, longest) {
                they_can_force = true;
                let bound = -(WIN - loss.plies as i32);
                if loss.plies == 3 || bound <= alpha {
                    self.proof.forcing_lines += 1;
                    spoilers = Some((loss.zone | mine.makers, bound, loss));
                }
            }
        }
        // A side whose live windows each hold a pair of empty cells, the pairs disjoint, cannot
        // win: the other side answers every move in a pair with its partner. (A side with a
        // forcing win has no such pairs. The bounds above leave the signs of alpha and beta as
        // they were.)
        let mut unpaired_here = false;
        if alpha >= 0 && best_possible > 0 && !i_can_force {
            if let Some(pairs) = self.paired(me, them) {
                self.proof.pairings += 1;
                return (0, pairs);
            }
            unpaired_here = true;
        }
        if beta <= 0 && worst_possible < 0 && !they_can_force && !unpaired {
            if let Some(pairs) = self.paired(them, me) {
                self.proof.pairings += 1;
                return (0, pairs);
            }
        }
        // Candidate moves: the forced block; else the spoilers; else every live cell and one dead
        // cell. Each way of leaving moves out says what the zone of "the mover cannot win" needs
        // for the moves it left out.
        let mut best = -INFINITY;
        let mut best_move = u8::MAX;
        let (candidates, left_out) = if scan.their_threats != 0 {
            // Any other move loses to the threat, unless it wins at once.
            (scan.their_threats, LeftOut::Block(scan.their_threats))
        } else if let Some((spoilers, bound, loss)) = spoilers {
            let left_out = empty & !spoilers;
            if left_out == 0 {
                (empty, LeftOut::Nothing)
            } else {
                best = bound;
                best_move = left_out.trailing_zeros() as u8;
                if best >= beta {
                    return (best, full);
                }
                (empty & spoilers, LeftOut::Spoilers(loss, left_out))
            }
        } else {
            let dead = empty & !scan.live;
            let one = dead & dead.wrapping_neg();
            let left_out = if dead == one {
                LeftOut::Nothing
            } else {
                LeftOut::Dead(one)
            };
            ((empty & scan.live) | one, left_out)
        };
        let (best, best_move, zone) = self.search_moves(
            Node {
                me,
                them,
                alpha,
                beta,
                unpaired: unpaired_here,
            },
            candidates,
            tt_move,
            best,
            best_move,
        );
        if self.aborted {
            return (0, full);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let zone = match (bound, zone) {
            (Bound::Upper, Zone::CannotWin(zone)) if best <= 0 => match left_out {
                LeftOut::Nothing => zone,
                LeftOut::Block(threat) => self.cover(me, them, zone | threat, 2, 0, 0),
                // The opponent's forcing line goes through after any left-out move whose stone
                // leaves each of the mover's windows two empty cells besides its blocks.
                LeftOut::Spoilers(loss, left_out) => {
                    self.cover(me, them, zone | loss.line, 2, loss.blocks, left_out)
                }
                // Every dead cell is as good as the one tried, as long as that one stays empty.
                LeftOut::Dead(one) => zone | one,
            },
            (Bound::Lower, Zone::OpponentCannotWin(zone)) if best >= 0 => zone,
            _ => full,
        };
        let stored_move = if best_move == u8::MAX {
            u8::MAX
        } else {
            self.g.permutations[sym][best_move as usize]
        };
        let stored_zone = if sym == 0 || zone == full {
            zone
        } else {
            self.g.transform(zone, sym)
        };
        self.table
            .store(km, kt, best, bound, stored_move, stored_zone);
        (best, zone)
    }

    /// Searches the candidate moves of `node` in order (the table's move, then by
    /// [`Solver::order_score`], ties by cell), starting from the score `best` of moves already
    /// left out; returns the best score, its move and the zone of what the search proved.
    ///
    /// **Relevance zones.** Once a move is refuted by a proof that the mover cannot win after it,
    /// with zone Z, any other move outside Z is refuted too: with the mover's stone on that
    /// cell as well, the proof still holds (Z is a zone), and taking the first stone away only
    /// helps the opponent (under freestyle a side's extra stones never hurt it). So while the
    /// node needs no more than "the mover cannot win" (`alpha` at least 0), the moves still to
    /// search are those inside the zone of every move refuted so far. The node's own zone is then
    /// the union of the zones its refutations had: every left-out move is refuted by one of them.
    /// A move that wins (a cut) gives the zone of its reply's proof and the move itself. Not under
    /// exact-k, where an extra stone can turn a line into an overline.
    fn search_moves(
        &mut self,
        node: Node,
        candidates: u64,
        tt_move: Option<usize>,
        mut best: i32,
        mut best_move: u8,
    ) -> (i32, u8, Zone) {
        let Node {
            me,
            them,
            mut alpha,
            beta,
            unpaired,
        } = node;
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

        alpha = alpha.max(best);
        let mut still = candidates;
        let mut cannot_win = Some(0u64);
        for &(_, i) in &moves {
            if still >> i & 1 == 0 {
                self.proof.zone_cuts += 1;
                best = best.max(0);
                continue;
            }
            let mine = me | 1 << i;
            let (child_alpha, child_beta) = (child_bound(beta), child_bound(alpha));
            let (child, zone) = self.search(them, mine, child_alpha, child_beta, unpaired);
            if self.aborted {
                return (0, best_move, Zone::Nothing);
            }
            // The child proved "the mover cannot win after this move": its zone says where.
            if child >= 0 && child >= child_beta {
                cannot_win = cannot_win.map(|z| z | zone);
                if self.zones && alpha >= 0 {
                    still &= zone | 1 << i;
                }
            } else {
                cannot_win = None;
            }
            let score = parent_score(child);
            if score > best {
                best = score;
                best_move = i as u8;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        let zone = if child <= 0 && child <= child_alpha {
                            Zone::OpponentCannotWin(zone | 1 << i)
                        } else {
                            Zone::Nothing
                        };
                        return (best, best_move, zone);
                    }
                }
            }
        }
        let zone = cannot_win.map_or(Zone::Nothing, Zone::CannotWin);
        (best, best_move, zone)
    }
}

/// One node's position and window, for [`Solver::search_moves`].
struct Node {
    me: u64,
    them: u64,
    alpha: i32,
    beta: i32,
    /// What the children's `unpaired` is.
    unpaired: bool,
}

/// What a node's move search proved about who cannot win, with the zone.
enum Zone {
    /// Nothing that has a zone.
    Nothing,
    /// The mover cannot win after any of the moves searched or left out by zones.
    CannotWin(u64),
    /// The opponent cannot win: a move holds it off.
    OpponentCannotWin(u64),
}

/// Which moves a node left out before searching, and so what "the mover cannot win" needs more.
enum LeftOut {
    /// None.
    Nothing,
    /// Every move but the block of this threat.
    Block(u64),
    /// These moves, which touch nothing of the opponent's forcing line.
    Spoilers(ForcingWin, u64),
    /// Every dead cell but this one.
    Dead(u64),
}

/// A set of windows, by their index in the list a pairing search is given (at most four per
/// cell).
#[derive(Clone, Copy, Default)]
struct WindowSet([u64; 4 * MAX_CELLS / 64]);

impl WindowSet {
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    fn add(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn union(&self, other: &WindowSet) -> WindowSet {
        WindowSet(std::array::from_fn(|j| self.0[j] | other.0[j]))
    }

    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

/// Pairs tried per step, the most useful first; beyond this many (windows of more than eight
/// free cells) the rest are tried in cell order.
const SORTED_PAIRS: usize = 28;

/// Every two cells `a < b` of `bits`, as bit indices.
fn pairs_in(bits: u64) -> impl Iterator<Item = (usize, usize)> {
    let ones = move |mut rest: u64| {
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                i
            })
        })
    };
    // The cells after `a`: every bit above it.
    ones(bits).flat_map(move |a| ones(bits & !(u64::MAX >> (63 - a))).map(move |b| (a, b)))
}

/// For every two cells `a < b`, the windows holding both (index `a * cells + b`).
fn pair_windows(g: &Geometry) -> Vec<WindowSet> {
    let mut sets = vec![WindowSet::default(); g.cells * g.cells];
    for (i, &w) in g.windows.iter().enumerate() {
        for (a, b) in pairs_in(w) {
            sets[a * g.cells + b].add(i);
        }
    }
    sets
}

/// Backtracking search for a pairing: a pair of free cells for every live window, the pairs
/// disjoint (a pair inside several windows serves them all). A window left with two free cells
/// has its pair forced, taken at once; otherwise each step serves the window with the fewest
/// free cells left, trying first the pairs that serve the most other windows too. Only the
/// steps that choose count against the budget.
struct PairingSearch<'a> {
    /// The windows to serve: index in the geometry's list, and empty cells.
    live: &'a [(usize, u64)],
    pair_windows: &'a [WindowSet],
    cells: usize,
    budget: u32,
    /// The free cells left when a pairing was found: the others are its pairs.
    left: u64,
}

impl PairingSearch<'_> {
    /// Whether the windows not in `covered` can be served by pairs of cells in `free_cells`.
    fn find(&mut self, mut covered: WindowSet, mut free_cells: u64) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        // Take every forced pair, as often as taking one forces another, then choose.
        let (n, free) = loop {
            let mut pick: Option<(u32, u64)> = None;
            let mut forced = false;
            for &(i, w) in self.live {
                if covered.has(i) {
                    continue;
                }
                let free = w & free_cells;
                let n = free.count_ones();
                if n < 2 {
                    return false;
                }
                if n == 2 {
                    let (a, b) = (
                        free.trailing_zeros() as usize,
                        63 - free.leading_zeros() as usize,
                    );
                    covered = covered.union(&self.pair_windows[a * self.cells + b]);
                    free_cells &= !free;
                    forced = true;
                } else if pick.is_none_or(|(m, _)| n < m) {
                    pick = Some((n, free));
                }
            }
            if !forced {
                match pick {
                    None => {
                        self.left = free_cells;
                        return true;
                    }
                    Some(pick) => break pick,
                }
            }
        };
        let sorted = (n * (n - 1) / 2) as usize <= SORTED_PAIRS;
        let mut pairs = [(0u32, 0u64, WindowSet::default()); SORTED_PAIRS];
        let mut len = 0;
        for (a, b) in pairs_in(free) {
            let pair = 1 << a | 1 << b;
            let set = covered.union(&self.pair_windows[a * self.cells + b]);
            if sorted {
                pairs[len] = (set.count() - covered.count(), pair, set);
                len += 1;
            } else if self.find(set, free_cells & !pair) {
                return true;
            }
        }
        pairs[..len].sort_unstable_by_key(|&(count, pair, _)| (std::cmp::Reverse(count), pair));
        pairs[..len]
            .iter()
            .any(|&(_, pair, set)| self.find(set, free_cells & !pair))
    }
}

/// Solves `pos` with a fresh solver: the value of the position and of every legal move.
pub fn analyse(pos: &Position, limits: &Limits) -> Result<Analysis, SolveError> {
    if let Outcome::Win { .. } | Outcome::Draw(_) = pos.outcome() {
        return Err(SolveError::GameOver);
    }
    Solver::for_rules(pos.rules())?.analyse(pos, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move's exact value on random positions of the k = 5 boards, where the search is
    /// deep and many moves are left out for lying outside a sibling's relevance zone, is the
    /// same with and without zones (the solver without them agrees with brute force and the
    /// published values; positions this open are out of brute force's reach).
    #[test]
    fn zones_change_no_value() {
        // (rules, stones placed at random, positions)
        let boards = [
            (Rules::bounded(6, 5, 5).unwrap(), 6, 6),
            (Rules::bounded(6, 6, 5).unwrap(), 8, 6),
            (Rules::bounded(7, 5, 5).unwrap(), 8, 6),
            (Rules::bounded(7, 6, 5).unwrap(), 12, 4),
            (Rules::bounded(5, 5, 4).unwrap(), 5, 6),
            (Rules::bounded(6, 5, 4).unwrap(), 5, 12),
        ];
        let mut rng = crate::Rng::seeded(775);
        let mut zone_cuts = 0;
        for (rules, stones, count) in boards {
            let mut checked = 0;
            while checked < count {
                let mut pos = Position::new(rules);
                while pos.ply() < stones && !pos.is_over() {
                    let moves = pos.legal_moves();
                    pos.play(moves[rng.below(moves.len())]);
                }
                if pos.is_over() {
                    continue;
                }
                let mut with = Solver::new(&rules, 16).unwrap();
                let mut without = Solver::new(&rules, 16).unwrap();
                without.zones = false;
                let a = with.analyse(&pos, &Limits::none()).unwrap();
                let b = without.analyse(&pos, &Limits::none()).unwrap();
                let record = mnk_core::Record(pos.history().to_vec());
                assert_eq!(a.moves, b.moves, "{rules} after {record}");
                assert_eq!(b.proof.zone_cuts, 0);

                zone_cuts += a.proof.zone_cuts;
                checked += 1;
            }
        }
        assert!(
            zone_cuts > 10_000,
            "only {zone_cuts} moves left out by zones"
        );
    }

    /// A zone stored under a position's canonical image comes back as the same cells.
    #[test]
    fn zones_come_back_from_the_symmetric_table() {
        let solver = Solver::new(&Rules::bounded(7, 7, 5).unwrap(), 1).unwrap();
        let zone = bits(7, &["a1", "b1", "d4", "g2", "c7"]);
        for sym in 0..solver.g.permutations.len() {
            let stored = solver.g.transform(zone, sym);
            assert_eq!(solver.untransform(stored, sym), zone, "symmetry {sym}");
        }
        assert_eq!(solver.g.permutations.len(), 8);
    }

    #[test]
    fn pairs_in_lists_every_two_cells_once() {
        let pairs: Vec<(usize, usize)> = pairs_in(0b1011).collect();
        assert_eq!(pairs, [(0, 1), (0, 3), (1, 3)]);
        assert_eq!(pairs_in(1 << 63 | 1).collect::<Vec<_>>(), [(0, 63)]);
        assert_eq!(pairs_in(u64::MAX).count(), 64 * 63 / 2);
        assert_eq!(pairs_in(1 << 5).count(), 0);
    }

    #[test]
    fn the_position_bound_counts_balanced_placements() {
        // Tic-tac-toe: 6046 placements with X level or one ahead (5478 of them legal positions).
        assert_eq!(positions_bound(9), 6046);
        assert_eq!(positions_bound(0), 1);
        assert!(positions_bound(36) > 1 << 50);
    }

    #[test]
    fn small_boards_get_small_tables() {
        let rules = |w, h, k| Rules::bounded(w, h, k).unwrap();
        assert_eq!(table_mb(&rules(3, 3, 3), 1024), 1);
        assert_eq!(table_mb(&rules(4, 3, 3), 1024), 9);
        assert_eq!(table_mb(&rules(4, 4, 4), 1024), 621);
        assert_eq!(table_mb(&rules(6, 6, 5), 1024), 1024);
        assert_eq!(table_mb(&rules(6, 6, 5), 64), 64);
        assert_eq!(table_mb(&rules(6, 6, 5), 4096), MAX_TABLE_MB);
        assert_eq!(table_mb(&rules(3, 3, 3), 0), 1);
    }

    /// Bits of the cells named, on a board `width` wide.
    fn bits(width: usize, cells: &[&str]) -> u64 {
        cells.iter().fold(0, |b, name| {
            let c: Cell = name.parse().unwrap();
            b | 1 << (c.y as usize * width + c.x as usize)
        })
    }

    #[test]
    fn a_double_threat_is_seen_with_the_cells_that_spoil_it() {
        // 6x6, k = 4: X on c3 d3 has the open two that e3 or b3 turns into an open three.
        let solver = Solver::new(&Rules::bounded(6, 6, 4).unwrap(), 1).unwrap();
        let (x, o) = (bits(6, &["c3", "d3"]), bits(6, &["a6", "f6"]));
        let twos = solver.twos(x, o);
        assert_eq!(twos.doubles, bits(6, &["b3", "e3"]));
        let win = solver.forcing_win(&twos, x, o, 3).unwrap();
        assert_eq!(win.plies, 3);
        // b3 makes threats on a3 and e3.
        assert_eq!(win.zone, bits(6, &["b3", "a3", "e3"]));
        // With a3 taken, b3 makes one threat only: e3 is the double now.
        let o = o | bits(6, &["a3"]);
        let twos = solver.twos(x, o);
        assert_eq!(twos.doubles, bits(6, &["e3"]));
    }

    #[test]
    fn exact_k_doubles_leave_out_overlines() {
        // 8x1, three in a row, X on b1 and e1. Freestyle: c1 threatens a1 and d1, d1 threatens
        // c1 and f1, f1 threatens d1 and g1. Exactly three: b1 c1 d1 e1 would be four, so c1
        // and d1 make one threat each and only f1 is a double.
        let rules = Rules::bounded(8, 1, 3).unwrap();
        let x = bits(8, &["b1", "e1"]);
        let freestyle = Solver::new(&rules, 1).unwrap();
        assert_eq!(freestyle.twos(x, 0).doubles, bits(8, &["c1", "d1", "f1"]));
        let exact = Solver::new(&rules.with_win(mnk_core::Win::Exact).unwrap(), 1).unwrap();
        assert_eq!(exact.twos(x, 0).doubles, bits(8, &["f1"]));
        assert_eq!(exact.threatened(x, 0, 2), bits(8, &["a1"]));
    }
}
