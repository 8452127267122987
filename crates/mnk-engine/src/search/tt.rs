//! The transposition table: what earlier visits learned about a position.
//!
//! Each entry is 12 bytes: the upper 32 bits of the position's hash (the lower bits chose the
//! bucket, so together they make a 64-bit check), the best move found (a board index, or
//! [`NO_MOVE`]), its score with mate scores stored relative to the node (so they stay right
//! when the same position is met at another ply), the depth it was searched to, the bound kind
//! (exact, lower, upper) and the search generation. Entries live in buckets of [`BUCKET`]; a
//! store goes to the slot already holding the same position, else to the slot that is least
//! worth keeping: an entry from an older search first, then the shallowest. So deep results
//! survive many shallow ones and a new search gradually recycles the old one's entries.
//!
//! The size is given in megabytes and rounded down to a whole number of buckets. The table
//! belongs to one search at a time; the engine clears it for every search without a deadline, so
//! that searches with a depth or node limit are reproducible, and keeps it (as an older
//! generation) between timed searches, whose results depend on the machine anyway.

use super::score::{is_loss, is_win};

/// A stored move that means "none".
pub const NO_MOVE: u16 = u16::MAX;
/// Entries per bucket.
pub const BUCKET: usize = 4;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (a beta cutoff).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    mv: u16,
    score: i16,
    depth: i8,
    /// Bits 0-1 bound (0 = empty), bits 2-7 generation.
    flags: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Best move, or [`NO_MOVE`].
    pub mv: u16,
    /// Score, relative to the probing node.
    pub score: i32,
    /// Depth searched.
    pub depth: i32,
    /// How the score bounds the value.
    pub bound: Bound,
}

/// A fixed-size hash table of search results.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        TranspositionTable {
            entries: vec![Entry::default(); buckets * BUCKET],
            buckets,
            generation: 0,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Starts a new search generation (older entries become first to go).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    fn bucket(&self, hash: u64) -> usize {
        ((u128::from(hash as u32) * self.buckets as u128) >> 32) as usize * BUCKET
    }

    /// Looks up a position; `ply` turns stored mate scores back into root-relative ones.
    #[must_use]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let check = (hash >> 32) as u32;
        let b = self.bucket(hash);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.flags & 3 != 0 && e.check == check)
            .map(|e| Hit {
                mv: e.mv,
                score: from_tt(i32::from(e.score), ply),
                depth: i32::from(e.depth),
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
            })
    }

    /// Stores a result.
    pub fn store(&mut self, hash: u64, ply: usize, mv: u16, score: i32, depth: i32, bound: Bound) {
        let check = (hash >> 32) as u32;
        let b = self.bucket(hash);
        let generation = self.generation;
        let slot = {
            let bucket = &self.entries[b..b + BUCKET];
            match bucket
                .iter()
                .position(|e| e.flags & 3 != 0 && e.check == check)
            {
                Some(i) => i,
                None => bucket
                    .iter()
                    .enumerate()
                    .min_by_key(|(i, e)| {
                        let empty = e.flags & 3 == 0;
                        let current = e.flags >> 2 == generation;
                        (!empty, current, e.depth, *i)
                    })
                    .map_or(0, |(i, _)| i),
            }
        };
        let e = &mut self.entries[b + slot];
        // Keep the old move when the new result has none for the same position.
        let mv = if mv == NO_MOVE && e.check == check && e.flags & 3 != 0 {
            e.mv
        } else {
            mv
        };
        *e = Entry {
            check,
            mv,
            score: to_tt(score, ply) as i16,
            depth: depth.clamp(-100, 127) as i8,
            flags: (generation << 2)
                | match bound {
                    Bound::Exact => 1,
                    Bound::Lower => 2,
                    Bound::Upper => 3,
                },
        };
    }
}

/// Mate scores are stored as distance from the node, not from the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if is_win(score) {
        score + ply as i32
    } else if is_loss(score) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if is_win(score) {
        score - ply as i32
    } else if is_loss(score) {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF_1234_5678, 3, 17, 250, 6, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF_1234_5678, 3).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (17, 250, 6, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEE0_1234_5678, 3).is_none());
        // A mate found 5 plies below a node at ply 3 is 2 plies from a node at ply 0.
        tt.store(42, 3, 1, MATE - 8, 4, Bound::Exact);
        assert_eq!(tt.probe(42, 0).unwrap().score, MATE - 5);
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
    }
}
