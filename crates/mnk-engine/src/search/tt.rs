//! The transposition table: what earlier visits learned about a position, shared by every
//! thread of a search.
//!
//! Each entry is 12 bytes: a 64-bit data word and a 32-bit key word. The data holds the best
//! move found (a board index, or [`NO_MOVE`]), its score with mate scores stored relative to the
//! node (so they stay right when the same position is met at another ply), the depth it was
//! searched to, the bound kind (exact, lower, upper) and the search generation. The key word is
//! the upper 32 bits of the position's hash (the lower bits chose the bucket, so together they
//! make a 64-bit check) XORed with both halves of the data word. Entries live in buckets of
//! [`BUCKET`], keys first, then data, 48 bytes a bucket; a store goes to the slot already
//! holding the same position, else to the slot that is least worth keeping: an entry from an
//! older search first, then the shallowest. So deep results survive many shallow ones and a new
//! search gradually recycles the old one's entries.
//!
//! **Threads without locks.** The helper threads of a Lazy SMP search ([`super`]) probe and
//! store into the same table at once. Both words are atomics read and written with relaxed
//! ordering (plain loads and stores on the machines we run on, so one thread pays nothing), and
//! nothing orders the two stores of an entry: a probe may see the data of one store and the key
//! of another. The XOR makes such a torn entry fail the check (it matches only if the two data
//! words fold to the same 32 bits, about one chance in 2^32), so it reads as a miss, the
//! scheme of Hyatt and Mann's lockless hashing. A race may still lose a store, or replace an
//! entry another thread just wrote; that costs a little search, never a wrong entry.
//!
//! The size is given in megabytes and rounded down to a whole number of buckets. The engine
//! clears the table for every search without a deadline, so that searches with a depth or node
//! limit are reproducible (with one thread), and keeps it (as an older generation) between
//! timed searches, whose results depend on the machine anyway.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};

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

/// One entry as the store logic reads it (decoded from its two words).
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The upper 32 bits of the hash, as the key word gives them back.
    check: u32,
    mv: u16,
    score: i16,
    depth: i8,
    /// Bits 0-1 bound (0 = empty), bits 2-7 generation.
    flags: u8,
}

impl Entry {
    /// The data word: move in bits 0-15, score 16-31, depth 32-39, flags 40-47.
    fn data(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth as u8) << 32
            | u64::from(self.flags) << 40
    }

    /// The entry of a key word and a data word (its `check` is meaningful only when the two
    /// come from the same store).
    fn decode(key: u32, data: u64) -> Entry {
        Entry {
            check: key ^ fold(data),
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            flags: (data >> 40) as u8,
        }
    }

    fn is_empty(self) -> bool {
        self.flags & 3 == 0
    }
}

/// The two halves of a data word XORed together, the part of the key word that ties it to
/// its data.
fn fold(data: u64) -> u32 {
    (data as u32) ^ (data >> 32) as u32
}

/// Four entries: their key words, then their data words.
#[derive(Default)]
struct Bucket {
    keys: [AtomicU32; BUCKET],
    data: [AtomicU64; BUCKET],
}

// The same 12 bytes an entry took before the table was shared: a given size holds as many.
const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET * 12);

impl Bucket {
    fn entry(&self, i: usize) -> Entry {
        let data = self.data[i].load(Ordering::Relaxed);
        Entry::decode(self.keys[i].load(Ordering::Relaxed), data)
    }

    fn set(&self, i: usize, e: Entry) {
        let data = e.data();
        self.data[i].store(data, Ordering::Relaxed);
        self.keys[i].store(e.check ^ fold(data), Ordering::Relaxed);
    }
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

/// A fixed-size hash table of search results, shared by the threads of a search (`&self`
/// probes and stores). Clearing it and starting a generation are meant for the start of a search;
/// a helper thread of the last search that has not yet stopped may still store into it, which
/// costs nothing but the slot (its entries are true of their positions).
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..buckets).map(|_| Bucket::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for i in 0..BUCKET {
                b.data[i].store(0, Ordering::Relaxed);
                b.keys[i].store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation (older entries become first to go).
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 0x3F;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, hash: u64) -> &Bucket {
        &self.buckets[((u128::from(hash as u32) * self.buckets.len() as u128) >> 32) as usize]
    }

    /// Looks up a position; `ply` turns stored mate scores back into root-relative ones.
    #[must_use]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let check = (hash >> 32) as u32;
        let bucket = self.bucket(hash);
        (0..BUCKET)
            .map(|i| bucket.entry(i))
            .find(|e| !e.is_empty() && e.check == check)
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
    pub fn store(&self, hash: u64, ply: usize, mv: u16, score: i32, depth: i32, bound: Bound) {
        let check = (hash >> 32) as u32;
        let bucket = self.bucket(hash);
        let generation = self.generation.load(Ordering::Relaxed);
        let entries: [Entry; BUCKET] = std::array::from_fn(|i| bucket.entry(i));
        let slot = match entries
            .iter()
            .position(|e| !e.is_empty() && e.check == check)
        {
            Some(i) => i,
            None => entries
                .iter()
                .enumerate()
                .min_by_key(|(i, e)| {
                    let current = e.flags >> 2 == generation;
                    (!e.is_empty(), current, e.depth, *i)
                })
                .map_or(0, |(i, _)| i),
        };
        let e = entries[slot];
        // Keep the old move when the new result has none for the same position.
        let mv = if mv == NO_MOVE && e.check == check && !e.is_empty() {
            e.mv
        } else {
            mv
        };
        bucket.set(
            slot,
            Entry {
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
            },
        );
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
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        // Two positions of the same bucket (the low 32 bits choose it).
        let (a, b) = (0x1111_2222_0000_0007_u64, 0x3333_4444_0000_0007_u64);
        let entry = |hash: u64, mv, score, depth, flags| Entry {
            check: (hash >> 32) as u32,
            mv,
            score,
            depth,
            flags,
        };
        let (ea, eb) = (entry(a, 5, 100, 3, 1), entry(b, 9, -40, 7, 2));
        let bucket = tt.bucket(a);
        bucket.set(0, ea);
        assert_eq!(tt.probe(a, 0).map(|h| (h.mv, h.score)), Some((5, 100)));
        // b's store into the slot seen half-way: b's data, a's key.
        bucket.data[0].store(eb.data(), Ordering::Relaxed);
        assert_eq!(tt.probe(a, 0), None, "a's key with b's data");
        assert_eq!(tt.probe(b, 0), None, "b's data under a's key");
        // The other way round: a's data, b's key.
        bucket.set(0, eb);
        assert_eq!(tt.probe(b, 0).map(|h| (h.mv, h.score)), Some((9, -40)));
        let key_b = bucket.keys[0].load(Ordering::Relaxed);
        bucket.set(0, ea);
        bucket.keys[0].store(key_b, Ordering::Relaxed);
        assert_eq!(tt.probe(a, 0), None, "b's key with a's data");
        assert_eq!(tt.probe(b, 0), None, "a's data under b's key");
        // A store over a torn slot sees no entry of its position there: it writes a whole one.
        tt.store(a, 0, 6, 50, 4, Bound::Upper);
        assert_eq!(
            tt.probe(a, 0),
            Some(Hit {
                mv: 6,
                score: 50,
                depth: 4,
                bound: Bound::Upper
            })
        );
    }

    /// The entry every thread of the test below stores for position `n`: its fields follow
    /// from `n`, so a probe can tell whether what it read belongs to the position it asked for.
    fn written(n: u64) -> (u64, u16, i32, i32, Bound) {
        // All in one bucket (the low 32 bits choose it), told apart by the check.
        let hash = (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1) << 32;
        let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(n % 3) as usize];
        (
            hash,
            (n % 1000) as u16,
            (n % 4001) as i32 - 2000,
            (n % 60) as i32,
            bound,
        )
    }

    #[test]
    fn threads_storing_and_probing_at_once_never_read_a_wrong_entry() {
        const THREADS: u64 = 4;
        const ROUNDS: u64 = 1_000_000;
        let tt = TranspositionTable::new(1);
        let (hits, misses) = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..THREADS)
                .map(|t| {
                    let tt = &tt;
                    scope.spawn(move || {
                        let (mut hits, mut misses) = (0u64, 0u64);
                        for r in 0..ROUNDS {
                            // 64 positions fight for the bucket's 4 slots.
                            let n = (r * 7 + t * 13) % 64;
                            let (hash, mv, score, depth, bound) = written(n);
                            tt.store(hash, 0, mv, score, depth, bound);
                            let m = (r * 11 + t) % 64;
                            let (hash, mv, score, depth, bound) = written(m);
                            match tt.probe(hash, 0) {
                                Some(hit) => {
                                    assert_eq!(
                                        hit,
                                        Hit {
                                            mv,
                                            score,
                                            depth,
                                            bound
                                        },
                                        "position {m}"
                                    );
                                    hits += 1;
                                }
                                None => misses += 1,
                            }
                        }
                        (hits, misses)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap())
                .fold((0, 0), |(h, m), (h2, m2)| (h + h2, m + m2))
        });
        // The test means something only if the threads did find each other's entries.
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
    }
}
