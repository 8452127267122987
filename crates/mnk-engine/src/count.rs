//! Counting the whole game tree of a small board, like chess perft.
//!
//! Counting games one by one is hopeless beyond 3×3 (4×4×4 has 15 trillion). Instead the walk goes
//! ply by ply over *positions*: each position carries the number of move sequences that reach it,
//! and passes that number on to each child. A position's stones fix everything that matters (whose
//! turn, and whether someone has won, since play stops at the first win), so merging sequences
//! that reach the same stones loses nothing.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use mnk_core::zobrist::mix64;
use mnk_core::Rules;

use crate::geometry::Geometry;

/// The largest board `count` accepts: beyond this the number of positions outgrows memory.
pub const MAX_COUNT_CELLS: usize = 20;

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

/// Why a board cannot be counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountError(pub String);

impl fmt::Display for CountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
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
    fn write_u128(&mut self, v: u128) {
        self.0 = (v as u64) ^ mix64((v >> 64) as u64);
    }
}

type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;
type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// Walks the game tree of `rules` (a bounded board of at most [`MAX_COUNT_CELLS`] cells).
pub fn count_tree(rules: &Rules) -> Result<TreeCounts, CountError> {
    let geometry = Geometry::new(rules)
        .filter(|g| g.cells <= MAX_COUNT_CELLS)
        .ok_or_else(|| {
            CountError(format!(
                "counting needs a bounded board of at most {MAX_COUNT_CELLS} cells (4x5, say); {rules} is too large"
            ))
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
