//! Counting the whole game tree of a small board, like chess perft, and the subtree below each
//! move of a position (for the game-tree explorer).
//!
//! Counting games one by one is hopeless beyond 3×3 (4×4×4 has 15 trillion). Instead the walk goes
//! ply by ply over *positions*: each position carries the number of move sequences that reach it,
//! and passes that number on to each child. A position's stones fix everything that matters (whose
//! turn, and whether someone has won, since play stops at the first win), so merging sequences
//! that reach the same stones loses nothing.
//!
//! Below a position ([`count_below`]) the same two facts do the work. Games below a position
//! depend only on the position, so they are counted depth first with every position's count
//! memoised. Distinct positions below each move cannot be added up (the moves' subtrees share
//! positions by transposition), so one ply-by-ply walk carries, with each position, the set of
//! moves it can be reached from.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use mnk_core::zobrist::mix64;
use mnk_core::{Cell, Position, Rules};

use crate::geometry::Geometry;
use crate::limits::Limits;

/// The largest board `count` accepts: beyond this the number of positions outgrows memory.
pub const MAX_COUNT_CELLS: usize = 20;
/// The most empty cells a position may have for [`count_below`].
pub const MAX_COUNT_EMPTIES: usize = 16;
/// The most positions [`count_below`] holds at once (memoised game counts, or one ply of the
/// walk), about 20 to 40 bytes each: 4×4×3 from the empty board needs 3.5 million (its
/// unfinished positions), 4×4×4 more than this.
const MAX_HELD: usize = 4 << 20;
/// Game counts are memoised for positions with at least this many empty cells.
const MEMO_FROM_EMPTIES: u32 = 4;
/// Positions counted between checks of the limits.
const CHECK_EVERY: u64 = 1 << 14;

/// Everything `mnk count` reports about a game tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeCounts {
    /// Complete games won by the player who moves first.
    pub first_wins: u128,
    /// Complete games won by the other player.
    pub second_wins: u128,
    /// Complete games that filled the board without a winner.
    pub draws: u128,
    /// Complete games by length: `games_by_length[p]` games end at ply `p`.
    pub games_by_length: Vec<u128>,
    /// All move sequences from the empty board (the root included): game-tree nodes.
    pub nodes: u128,
    /// Distinct reachable positions by ply.
    pub positions_by_ply: Vec<u64>,
    /// Distinct reachable positions up to symmetry, by ply.
    pub symmetric_by_ply: Vec<u64>,
    /// Reachable positions where the game is over.
    pub terminal: u64,
    /// Terminal positions up to symmetry.
    pub terminal_symmetric: u64,
}

impl TreeCounts {
    /// Complete games of any outcome.
    #[must_use]
    pub fn games(&self) -> u128 {
        self.first_wins + self.second_wins + self.draws
    }

    /// Reachable positions of all plies.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions_by_ply.iter().sum()
    }

    /// Reachable positions up to symmetry, all plies.
    #[must_use]
    pub fn symmetric_positions(&self) -> u64 {
        self.symmetric_by_ply.iter().sum()
    }
}

/// Why a tree was not counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// The tree is too large to count: `reason` names the limit it passes (`rules`, `cells`,
    /// `empties`, `positions`), `max` its value, `message` says it for people.
    TooLarge {
        /// Which limit: a stable name.
        reason: &'static str,
        /// The limit's value (0 for `rules`).
        max: usize,
        /// The limit, in words.
        message: String,
    },
    /// A limit (deadline, stop flag) ended the count first.
    Aborted,
}

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CountError::TooLarge { message, .. } => write!(f, "{message}"),
            CountError::Aborted => write!(f, "stopped before the count was complete"),
        }
    }
}

impl std::error::Error for CountError {}

/// A fast hasher for bitboard keys (the standard SipHash would dominate the walk).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        mix64(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
    fn write_u128(&mut self, v: u128) {
        self.0 = (v as u64) ^ mix64((v >> 64) as u64);
    }
}

type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// Refuses renju and caro, which the bitboards here do not know (see [`crate::variant`]).
fn not_yet(rules: &Rules) -> Result<(), CountError> {
    if crate::variant::solved(rules) {
        Ok(())
    } else {
        Err(CountError::TooLarge {
            reason: "rules",
            max: 0,
            message: format!(
                "counting does not know {} yet ({rules}): it counts freestyle and exactly-k games",
                rules.win()
            ),
        })
    }
}

/// Walks the game tree of `rules` (a bounded board of at most [`MAX_COUNT_CELLS`] cells).
pub fn count_tree(rules: &Rules) -> Result<TreeCounts, CountError> {
    not_yet(rules)?;
    let geometry = Geometry::new(rules)
        .filter(|g| g.cells <= MAX_COUNT_CELLS)
        .ok_or_else(|| {
            CountError::TooLarge {
                reason: "cells",
                max: MAX_COUNT_CELLS,
                message: format!(
                    "counting needs a bounded board of at most {MAX_COUNT_CELLS} cells (4x5, say); {rules} is too large"
                ),
            }
        })?;
    let g = &geometry;
    let mut counts = TreeCounts {
        games_by_length: vec![0; g.cells + 1],
        ..TreeCounts::default()
    };
    // Key: mover's stones in the high half, the other player's in the low half.
    let mut layer: KeyMap<u128> = KeyMap::default();
    layer.insert(0, 1);
    for ply in 0..=g.cells {
        let mut next: KeyMap<u128> = KeyMap::default();
        let mut symmetric = KeySet::default();
        let mut terminal_symmetric = KeySet::default();
        for (&key, &paths) in &layer {
            let (mover, other) = ((key >> 64) as u64, key as u64);
            counts.nodes += paths;
            let (first, second) = if ply % 2 == 0 {
                (mover, other)
            } else {
                (other, mover)
            };
            let canonical = g.canonical(first, second);
            symmetric.insert(canonical);
            // `other` just moved; the game is over if they won or the board is full.
            let won = ply > 0 && g.has_win(other);
            if won || ply == g.cells {
                counts.terminal += 1;
                terminal_symmetric.insert(canonical);
                counts.games_by_length[ply] += paths;
                match (won, ply % 2 == 1) {
                    (true, true) => counts.first_wins += paths,
                    (true, false) => counts.second_wins += paths,
                    (false, _) => counts.draws += paths,
                }
                continue;
            }
            let mut empty = g.full & !(mover | other);
            while empty != 0 {
                let cell = empty.trailing_zeros();
                empty &= empty - 1;
                let child = (u128::from(other) << 64) | u128::from(mover | 1 << cell);
                *next.entry(child).or_insert(0) += paths;
            }
        }
        counts.positions_by_ply.push(layer.len() as u64);
        counts.symmetric_by_ply.push(symmetric.len() as u64);
        counts.terminal_symmetric += terminal_symmetric.len() as u64;
        layer = next;
        if layer.is_empty() {
            break;
        }
    }
    Ok(counts)
}

/// Games and positions below one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Subtree {
    /// Complete games from the position on: move sequences that end the game, each stopping at
    /// the first win (as the rules define it, freestyle or exact) or on the full board. A
    /// finished position has one, the empty game.
    pub games: u128,
    /// Distinct positions reachable from the position, itself and finished ones included. A
    /// position is the stones on the board, whatever order they came in.
    pub positions: u64,
}

/// What [`count_below`] counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountsBelow {
    /// Below the position itself.
    pub position: Subtree,
    /// Below each legal move (that is, below the position after it), in cell order.
    pub moves: Vec<(Cell, Subtree)>,
}

/// Counts the games and positions below `pos` and below each of its moves, within `limits`.
/// Takes positions of bounded boards with at most [`MAX_COUNT_EMPTIES`] empty cells (and at
/// most 64 cells in all).
pub fn count_below(pos: &Position, limits: &Limits) -> Result<CountsBelow, CountError> {
    let rules = pos.rules();
    not_yet(rules)?;
    let g = Geometry::new(rules).ok_or_else(|| CountError::TooLarge {
        reason: "cells",
        max: 64,
        message: format!(
            "counting needs a bounded board of at most 64 cells; {rules} is too large"
        ),
    })?;
    let (me, them) = g.split(pos);
    let empty = g.full & !(me | them);
    let empties = empty.count_ones() as usize;
    if empties > MAX_COUNT_EMPTIES {
        return Err(CountError::TooLarge {
            reason: "empties",
            max: MAX_COUNT_EMPTIES,
            message: format!(
                "the tree below a position with {empties} empty cells is too large to count: at most {MAX_COUNT_EMPTIES}"
            ),
        });
    }
    if pos.is_over() {
        let one = Subtree {
            games: 1,
            positions: 1,
        };
        return Ok(CountsBelow {
            position: one,
            moves: Vec::new(),
        });
    }
    let mut below = Below {
        g: &g,
        limits,
        cells: (0..g.cells).filter(|&i| empty >> i & 1 == 1).collect(),
        memo: HashMap::default(),
        counted: 0,
    };
    let positions = below.positions(me, them)?;
    let mut moves = Vec::with_capacity(empties);
    let mut games = 0;
    for j in 0..below.cells.len() {
        let cell = below.cells[j];
        let mine = me | 1 << cell;
        let child_games = if below.ends(mine, them, cell) {
            1
        } else {
            below.games(them, mine, 0, 1 << j)?
        };
        games += u128::from(child_games);
        moves.push((
            g.cell(cell),
            Subtree {
                games: u128::from(child_games),
                positions: positions.per_move[j],
            },
        ));
    }
    moves.sort_by_key(|&(c, _)| (c.y, c.x));
    Ok(CountsBelow {
        position: Subtree {
            games,
            positions: positions.total,
        },
        moves,
    })
}

/// Positions below a position, in all and below each of its moves.
struct PositionsBelow {
    total: u64,
    per_move: Vec<u64>,
}

/// The walk below one position. Its empty cells are numbered in order (`cells[j]` is the bit of
/// the j-th), so the stones played below it pack into a key of two `empties`-bit halves.
struct Below<'a> {
    g: &'a Geometry,
    limits: &'a Limits,
    cells: Vec<usize>,
    /// Games below each unfinished position met, by packed key.
    memo: HashMap<u64, u64, BuildHasherDefault<KeyHasher>>,
    counted: u64,
}

/// Marks a finished position in the walk's sets of moves.
const FINISHED: u64 = 1 << 63;

impl Below<'_> {
    /// Whether the stone just played on `cell` (in `mine`) ends the game.
    fn ends(&self, mine: u64, them: u64, cell: usize) -> bool {
        self.g.wins_through(mine, cell) || mine | them == self.g.full
    }

    /// Counts one more position; an error once the limits are reached.
    fn tick(&mut self, held: usize) -> Result<(), CountError> {
        self.counted += 1;
        if held > MAX_HELD {
            return Err(CountError::TooLarge {
                reason: "positions",
                max: MAX_HELD,
                message: format!(
                    "the tree below this position is too large to count: more than {MAX_HELD} positions to keep"
                ),
            });
        }
        if self.counted % CHECK_EVERY == 0 && self.limits.should_stop() {
            return Err(CountError::Aborted);
        }
        Ok(())
    }

    /// Complete games below an unfinished position: `me` to move, `me_packed` and
    /// `them_packed` the stones played since the root, packed.
    fn games(
        &mut self,
        me: u64,
        them: u64,
        me_packed: u64,
        them_packed: u64,
    ) -> Result<u64, CountError> {
        // Near the end of the game a count costs less than a lookup: no memo there.
        let memoised = (me | them).count_ones() + MEMO_FROM_EMPTIES <= self.g.cells as u32;
        let key = me_packed << 32 | them_packed;
        if memoised {
            if let Some(&games) = self.memo.get(&key) {
                return Ok(games);
            }
        }
        self.tick(self.memo.len())?;
        let mut games = 0;
        for j in 0..self.cells.len() {
            let cell = self.cells[j];
            if (me | them) >> cell & 1 == 1 {
                continue;
            }
            let mine = me | 1 << cell;
            games += if self.ends(mine, them, cell) {
                1
            } else {
                self.games(them, mine, them_packed, me_packed | 1 << j)?
            };
        }
        if memoised {
            self.memo.insert(key, games);
        }
        Ok(games)
    }

    /// Distinct positions below the root (`me` to move), ply by ply, each carrying the set of the
    /// root's moves (bit j for `cells[j]`) it can be reached from.
    fn positions(&mut self, me: u64, them: u64) -> Result<PositionsBelow, CountError> {
        let mut per_move = vec![0u64; self.cells.len()];
        let mut total = 1;
        // Key: mover's stones in the high half, the other player's in the low half.
        let mut layer: KeyMap<u64> = KeyMap::default();
        for (j, &cell) in self.cells.iter().enumerate() {
            let mine = me | 1 << cell;
            let finished = if self.ends(mine, them, cell) {
                FINISHED
            } else {
                0
            };
            layer.insert(u128::from(them) << 64 | u128::from(mine), 1 << j | finished);
        }
        while !layer.is_empty() {
            let mut next: KeyMap<u64> = KeyMap::default();
            for (&key, &from) in &layer {
                self.tick(next.len())?;
                total += 1;
                let mut moves = from & !FINISHED;
                while moves != 0 {
                    per_move[moves.trailing_zeros() as usize] += 1;
                    moves &= moves - 1;
                }
                if from & FINISHED != 0 {
                    continue;
                }
                let (mover, other) = ((key >> 64) as u64, key as u64);
                let mut empty = self.g.full & !(mover | other);
                while empty != 0 {
                    let cell = empty.trailing_zeros() as usize;
                    empty &= empty - 1;
                    let mine = mover | 1 << cell;
                    let finished = if self.ends(mine, other, cell) {
                        FINISHED
                    } else {
                        0
                    };
                    *next
                        .entry(u128::from(other) << 64 | u128::from(mine))
                        .or_insert(0) |= from & !FINISHED | finished;
                }
            }
            layer = next;
        }
        Ok(PositionsBelow { total, per_move })
    }
}

fn join<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for TreeCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first_len = self
            .games_by_length
            .iter()
            .position(|&n| n > 0)
            .unwrap_or(0);
        let last_len = self
            .games_by_length
            .iter()
            .rposition(|&n| n > 0)
            .unwrap_or(0);
        writeln!(f, "complete games            {}", self.games())?;
        writeln!(f, "  won by the first player {}", self.first_wins)?;
        writeln!(f, "  won by the second player {}", self.second_wins)?;
        writeln!(f, "  drawn                   {}", self.draws)?;
        writeln!(
            f,
            "  by length {first_len}..{last_len}         {}",
            join(&self.games_by_length[first_len..=last_len])
        )?;
        writeln!(f, "game-tree nodes           {}", self.nodes)?;
        writeln!(f, "reachable positions       {}", self.positions())?;
        writeln!(
            f,
            "  by ply                  {}",
            join(&self.positions_by_ply)
        )?;
        writeln!(
            f,
            "  non-terminal            {}",
            self.positions() - self.terminal
        )?;
        writeln!(
            f,
            "positions up to symmetry  {}",
            self.symmetric_positions()
        )?;
        writeln!(
            f,
            "  by ply                  {}",
            join(&self.symmetric_by_ply)
        )?;
        writeln!(f, "terminal positions        {}", self.terminal)?;
        write!(f, "  up to symmetry          {}", self.terminal_symmetric)
    }
}
