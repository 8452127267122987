//! The solver's transposition table.
//!
//! Entries hold a position exactly (both players' bitboards, 16 bytes), so a hit is never a
//! collision. A value is stored relative to its own position ("win in n plies from here"), so an
//! entry is valid wherever the position recurs, at any depth. Buckets hold two entries: the first
//! keeps the entry with the larger subtree (more empty cells, hence more work saved), the second
//! always takes the newest.

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

#[derive(Clone, Copy, Debug)]
struct Entry {
    mover: u64,
    other: u64,
    value: i16,
    bound: Bound,
    empties: u8,
    best: u8,
    used: bool,
}

const EMPTY: Entry = Entry {
    mover: 0,
    other: 0,
    value: 0,
    bound: Bound::Exact,
    empties: 0,
    best: 0,
    used: false,
};

/// A hit: the stored value, its bound and the best move found (a cell index).
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// Stored value.
    pub value: i32,
    /// How it bounds the true value.
    pub bound: Bound,
    /// Best move, or `u8::MAX` if none was stored.
    pub best: u8,
}

/// A fixed-size table of positions already searched.
pub struct Table {
    buckets: Vec<[Entry; 2]>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MB (rounded down to a power of two buckets).
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).next_power_of_two() / 2;
        Table {
            buckets: vec![[EMPTY; 2]; n.max(1)],
            mask: n.max(1) - 1,
        }
    }

    fn index(&self, mover: u64, other: u64) -> usize {
        (mnk_core::zobrist::mix64(mover ^ mnk_core::zobrist::mix64(other)) as usize) & self.mask
    }

    /// The entry for this position, if stored.
    #[must_use]
    pub fn probe(&self, mover: u64, other: u64) -> Option<Hit> {
        self.buckets[self.index(mover, other)]
            .iter()
            .find(|e| e.used && e.mover == mover && e.other == other)
            .map(|e| Hit {
                value: i32::from(e.value),
                bound: e.bound,
                best: e.best,
            })
    }

    /// Stores a result.
    pub fn store(&mut self, mover: u64, other: u64, value: i32, bound: Bound, best: u8) {
        let empties = 64 - (mover | other).count_ones() as u8;
        let entry = Entry {
            mover,
            other,
            value: value as i16,
            bound,
            empties,
            best,
            used: true,
        };
        let i = self.index(mover, other);
        let bucket = &mut self.buckets[i];
        if let Some(slot) = bucket
            .iter_mut()
            .find(|e| e.used && e.mover == mover && e.other == other)
        {
            *slot = entry;
        } else if !bucket[0].used || empties >= bucket[0].empties {
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}
