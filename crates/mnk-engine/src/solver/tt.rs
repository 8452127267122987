//! The solver's transposition table.
//!
//! Entries hold a position exactly (both players' bitboards, 16 bytes), so a hit is never a
//! collision. A value is stored relative to its own position ("win in n plies from here"), so an
//! entry is valid wherever the position recurs, at any depth. Buckets hold two entries: the first
//! keeps the entry with the larger subtree (more empty cells, hence more work saved), the second
//! always takes the newest.
//!
//! An entry is four words: the two bitboards, a word packing the value, bound, empty cells and
//! best move (all zeros means unused), and the proof's relevance zone (see the solver: the empty
//! cells a "this side cannot win" proof read, so that a hit can prune like the search it stands
//! for). Four words make a bucket of two entries one 64-byte cache line. A fresh table is then memory the system hands out already zeroed:
//! making a solver costs nothing, where writing 64 MB of empty entries took 30 ms, paid again by
//! every request of the web app (each makes its own solver).

/// How a stored value relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

impl Bound {
    /// The bound's code in an entry: never 0, which marks an unused entry.
    fn code(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_code(code: u64) -> Bound {
        match code {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

/// One entry: the mover's stones, the other player's, the packed rest (value in bits 0..16,
/// bound code in 16..24, empty cells in 24..32, best move in 32..40) and the zone.
#[derive(Clone, Copy)]
struct Entry([u64; 4]);

impl Entry {
    fn used(&self) -> bool {
        self.0[2] >> 16 & 0xff != 0
    }

    fn holds(&self, mover: u64, other: u64) -> bool {
        self.used() && self.0[0] == mover && self.0[1] == other
    }

    fn empties(&self) -> u8 {
        (self.0[2] >> 24) as u8
    }
}

/// A hit: the stored value, its bound, the best move found (a cell index) and the zone.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Stored value.
    pub value: i32,
    /// How it bounds the true value.
    pub bound: Bound,
    /// Best move, or `u8::MAX` if none was stored.
    pub best: u8,
    /// The relevance zone of the proof the value stands for, as stored.
    pub zone: u64,
}

/// A fixed-size table of positions already searched.
pub struct Table {
    /// Buckets of two entries, eight words.
    buckets: Vec<[u64; 8]>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two buckets).
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[u64; 8]>()).next_power_of_two() / 2;
        Table {
            // All zeros: allocated zeroed, not written.
            buckets: vec![[0; 8]; n.max(1)],
            mask: n.max(1) - 1,
        }
    }

    fn index(&self, mover: u64, other: u64) -> usize {
        (mnk_core::zobrist::mix64(mover ^ mnk_core::zobrist::mix64(other)) as usize) & self.mask
    }

    fn entries(bucket: &[u64; 8]) -> [Entry; 2] {
        [
            Entry([bucket[0], bucket[1], bucket[2], bucket[3]]),
            Entry([bucket[4], bucket[5], bucket[6], bucket[7]]),
        ]
    }

    /// The entry for this position, if stored.
    #[must_use]
    pub fn probe(&self, mover: u64, other: u64) -> Option<Hit> {
        Table::entries(&self.buckets[self.index(mover, other)])
            .into_iter()
            .find(|e| e.holds(mover, other))
            .map(|Entry([_, _, rest, zone])| Hit {
                value: i32::from(rest as u16 as i16),
                bound: Bound::from_code(rest >> 16 & 0xff),
                best: (rest >> 32) as u8,
                zone,
            })
    }

    /// Stores a result.
    pub fn store(&mut self, mover: u64, other: u64, value: i32, bound: Bound, best: u8, zone: u64) {
        let empties = 64 - (mover | other).count_ones() as u8;
        let rest = u64::from(value as i16 as u16)
            | bound.code() << 16
            | u64::from(empties) << 24
            | u64::from(best) << 32;
        let i = self.index(mover, other);
        let [first, second] = Table::entries(&self.buckets[i]);
        let slot = if first.holds(mover, other) {
            0
        } else if second.holds(mover, other) {
            1
        } else if !first.used() || empties >= first.empties() {
            0
        } else {
            1
        };
        self.buckets[i][4 * slot..4 * slot + 4].copy_from_slice(&[mover, other, rest, zone]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut table = Table::new(1);
        assert!(table.probe(0b1, 0b10).is_none());
        table.store(0b1, 0b10, -997, Bound::Lower, 7, 0b1100);
        let hit = table.probe(0b1, 0b10).unwrap();
        assert_eq!((hit.value, hit.bound, hit.best), (-997, Bound::Lower, 7));
        assert_eq!(hit.zone, 0b1100);
        table.store(0b1, 0b10, 0, Bound::Exact, u8::MAX, u64::MAX);
        let hit = table.probe(0b1, 0b10).unwrap();
        assert_eq!((hit.value, hit.bound, hit.best), (0, Bound::Exact, u8::MAX));
        // The empty board is a position like any other.
        table.store(0, 0, 12, Bound::Upper, 3, 0);
        assert_eq!(table.probe(0, 0).unwrap().bound, Bound::Upper);
        assert!(table.probe(0b10, 0b1).is_none());
    }
}
