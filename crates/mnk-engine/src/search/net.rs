//! The learnt evaluation: a small network over the cells' line patterns, updated as stones are
//! placed and taken back.
//!
//! **Inputs.** Every empty cell that some stone's line reaches (a pattern of two stones or more
//! for either player in one of its four directions; the cells far from every stone count nothing,
//! so the board's size does not shift the sums) is seen from one player's side: in each
//! direction, the pair (own pattern, opponent's pattern), 10 × 10 classes of
//! [`super::pattern::Pattern`]. A table gives each pair a vector of [`DIMS`] values; the cell's
//! four vectors and a bias are summed and clipped to `[0, 1]` (a clipped ReLU), so a cell
//! values its directions together (two threes at one cell are more than twice one). The board
//! keeps, per player, the sum of those cell vectors over the board (the *pool*), changing only
//! the cells a move's lines reach, as it does for the tables' sums.
//!
//! **Head.** The mover's pool and the opponent's, scaled down by [`POOL_SCALE`], feed
//! [`HIDDEN`] clipped-ReLU units, whose weighted sum is the evaluation, in the tables' units
//! (the trainer fits it in win-chance units and divides by the tables' scale `K`, so the
//! search's margins keep their meaning).
//!
//! **Integers.** The search runs on integers only, so a fixed node count gives the same search
//! on every machine: cell vectors in 1/[`QA`], the first layer's weights in 1/[`QW`], the
//! output weights in 1/[`QO`] of an evaluation unit. The trainer (`crate::train`) learns in
//! floating point and rounds to this form; the text file it writes is embedded like the tables.

use std::fmt::Write as _;

use super::threat::key_pattern;

/// Values per cell vector.
pub const DIMS: usize = 16;
/// Hidden units of the head.
pub const HIDDEN: usize = 32;
/// (own, opponent) pattern pairs of one direction.
pub const PAIRS: usize = 100;
/// A cell vector's value 1.
pub const QA: i32 = 127;
/// A first-layer weight's value 1.
pub const QW: i32 = 256;
/// An output weight's evaluation unit.
pub const QO: i32 = 16;
/// The pool is divided by this before the head (in floating point; a power of two).
pub const POOL_SCALE: i32 = 16;

/// The largest pool value the head reads (more is read as this).
pub const POOL_MAX: i32 = 32_767;
/// The largest first-layer weight (the trainer clamps to it).
pub const MAX_WEIGHT: i32 = 1 << 10;

/// The largest pair row or cell bias value (the trainer clamps to it): five sum within i16.
pub const MAX_CELL_WEIGHT: i32 = 6_000;

/// The largest hidden bias (in 1/[`QA`]).
pub const MAX_HIDDEN_BIAS: i32 = 1 << 20;
/// The largest output weight (in 1/[`QO`] of an evaluation unit): 32 of them times [`QA`] fit
/// in i32.
pub const MAX_OUT: i32 = 1 << 18;

/// The largest output bias, in evaluation units (the evaluation's own limit).
pub const MAX_OUT_BIAS: i32 = 20_000;

/// One player's pool: the sum of the cell vectors seen from that player's side.
pub type Pool = [i32; DIMS];

/// A network's weights, in the integer form the search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// Per direction pair (own pattern × 10 + opponent's), the cell vector's share.
    pub pair: Vec<[i16; DIMS]>,
    /// Added to every cell vector before clipping.
    pub cell_bias: [i16; DIMS],
    /// First layer: per hidden unit, weights of the mover's pool then the opponent's.
    pub hidden: Vec<[i32; 2 * DIMS]>,
    /// First layer's biases (in 1/[`QA`]).
    pub hidden_bias: [i32; HIDDEN],
    /// Output weights (in 1/[`QO`] of an evaluation unit per hidden unit at 1).
    pub out: [i32; HIDDEN],
    /// Output bias, in evaluation units.
    pub out_bias: i32,
    /// Derived from `pair` (see [`Net::new`]): per (X's pattern, O's pattern) pair of a
    /// direction, X's row then O's (the pair swapped), so a board reads both in one. Indexed by
    /// the two key nibbles side by side ([`view_index`]); the nibbles past the last pattern
    /// never occur and keep zero rows.
    views: Box<[Views; 256]>,
    /// The cell bias in both views.
    views_bias: Views,
    /// `hidden` in 16 bits (every weight is within [`MAX_WEIGHT`]), in a fixed-size block: so
    /// the compiler multiplies and adds pairs of 16-bit values, eight at a time.
    hidden16: Box<[[i16; 2 * DIMS]; HIDDEN]>,
}

/// Whether a cell takes part: a stone's line reaches it (a two or more for either player in a
/// direction). `own` and `other` are the two players' packed keys.
#[inline]
#[must_use]
pub fn counts(own: u16, other: u16) -> bool {
    // A nibble is B2 (3) or more when bit 2 or 3 is set, or bits 0 and 1 both are.
    let strong = |k: u16| k & 0xCCCC != 0 || k & (k >> 1) & 0x1111 != 0;
    strong(own) || strong(other)
}

/// The four direction pairs of a cell seen by the player whose key is `own`.
#[inline]
#[must_use]
pub fn pairs(own: u16, other: u16) -> [usize; 4] {
    [0, 1, 2, 3].map(|d| key_pattern(own, d) as usize * 10 + key_pattern(other, d) as usize)
}

impl Net {
    /// A network of these weights.
    #[must_use]
    pub fn new(
        pair: Vec<[i16; DIMS]>,
        cell_bias: [i16; DIMS],
        hidden: Vec<[i32; 2 * DIMS]>,
        hidden_bias: [i32; HIDDEN],
        out: [i32; HIDDEN],
        out_bias: i32,
    ) -> Net {
        let mut views = Box::new([[0; 2 * DIMS]; 256]);
        for (p, row) in views.iter_mut().enumerate() {
            let (x, o) = (p & 0xF, p >> 4);
            if x < 10 && o < 10 {
                row[..DIMS].copy_from_slice(&pair[x * 10 + o]);
                row[DIMS..].copy_from_slice(&pair[o * 10 + x]);
            }
        }
        let mut views_bias = [0; 2 * DIMS];
        views_bias[..DIMS].copy_from_slice(&cell_bias);
        views_bias[DIMS..].copy_from_slice(&cell_bias);
        let hidden16 = Box::new(std::array::from_fn(|u| {
            std::array::from_fn(|j| hidden[u][j].clamp(-MAX_WEIGHT, MAX_WEIGHT) as i16)
        }));
        Net {
            pair,
            cell_bias,
            hidden,
            hidden_bias,
            out,
            out_bias,
            views,
            views_bias,
            hidden16,
        }
    }

    /// The evaluation for the side whose pool is `own`, against `other`'s.
    #[must_use]
    pub fn evaluate(&self, own: &Pool, other: &Pool) -> i32 {
        // 16-bit factors, 32-bit products and sums: a pool is read as at most POOL_MAX and a
        // weight is at most MAX_WEIGHT, so the 32 products fit.
        let x: [i16; 2 * DIMS] = std::array::from_fn(|j| {
            if j < DIMS { own[j] } else { other[j - DIMS] }.clamp(0, POOL_MAX) as i16
        });
        let pres: [i32; HIDDEN] = std::array::from_fn(|u| dot(&self.hidden16[u], &x));
        let mut sum = 0i32;
        for ((pre, bias), out) in pres.iter().zip(&self.hidden_bias).zip(&self.out) {
            // pre is in 1/(QW · QA · POOL_SCALE); the unit is in 1/QA.
            let h = ((pre >> (QW * POOL_SCALE).trailing_zeros()) + bias).clamp(0, QA);
            sum += out * h;
        }
        sum / (QA * QO) + self.out_bias
    }

    /// Reads a network written by [`Net::to_text`].
    ///
    /// # Errors
    /// What is missing or unreadable, with its line.
    pub fn parse(text: &str) -> Result<Net, String> {
        let mut numbers: Vec<(usize, i64)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            for word in line.split_whitespace() {
                let v = word
                    .parse::<i64>()
                    .map_err(|_| format!("line {}: '{word}' is not a whole number", n + 1))?;
                numbers.push((n + 1, v));
            }
        }
        let want = PAIRS * DIMS + DIMS + HIDDEN * 2 * DIMS + HIDDEN + HIDDEN + 1;
        if numbers.len() != want {
            return Err(format!(
                "a network holds {want} numbers, this file {}",
                numbers.len()
            ));
        }
        let mut it = numbers.into_iter();
        let mut take = |n: usize, limit: i32, what: &str| -> Result<Vec<i32>, String> {
            (0..n)
                .map(|_| {
                    let (line, v) = it.next().ok_or("too few numbers")?;
                    if v.abs() > i64::from(limit) {
                        return Err(format!(
                            "line {line}: {v} is out of range for {what} (at most ±{limit})"
                        ));
                    }
                    Ok(v as i32)
                })
                .collect()
        };
        let pair_values = take(PAIRS * DIMS, MAX_CELL_WEIGHT, "a pair row")?;
        let bias_values = take(DIMS, MAX_CELL_WEIGHT, "the cell bias")?;
        let hidden_values = take(HIDDEN * 2 * DIMS, MAX_WEIGHT, "a hidden unit's weight")?;
        let hidden_bias = take(HIDDEN, MAX_HIDDEN_BIAS, "a hidden bias")?;
        let out = take(HIDDEN, MAX_OUT, "an output weight")?;
        let out_bias = take(1, MAX_OUT_BIAS, "the output bias")?;
        let as_i16 = |v: &[i32]| -> [i16; DIMS] { std::array::from_fn(|j| v[j] as i16) };
        Ok(Net::new(
            pair_values.chunks(DIMS).map(as_i16).collect(),
            as_i16(&bias_values),
            hidden_values
                .chunks(2 * DIMS)
                .map(|c| std::array::from_fn(|j| c[j]))
                .collect(),
            std::array::from_fn(|k| hidden_bias[k]),
            std::array::from_fn(|k| out[k]),
            out_bias[0],
        ))
    }

    /// The network as text: a comment `title`, then the numbers section by section.
    #[must_use]
    pub fn to_text(&self, title: &str) -> String {
        let mut s = String::new();
        for line in title.lines() {
            let _ = writeln!(s, "# {line}");
        }
        let _ = writeln!(
            s,
            "# mnk network: {PAIRS} pair rows of {DIMS}, cell bias, {HIDDEN} hidden rows of {}, hidden biases, output weights, output bias",
            2 * DIMS
        );
        let row = |s: &mut String, xs: &mut dyn Iterator<Item = i64>| {
            let words: Vec<String> = xs.map(|x| x.to_string()).collect();
            let _ = writeln!(s, "{}", words.join(" "));
        };
        s.push_str(
            "# pairs (own pattern, opponent's pattern), dead b1 f1 b2 f2 b3 f3 b4 f4 five\n",
        );
        for r in &self.pair {
            row(&mut s, &mut r.iter().map(|&x| i64::from(x)));
        }
        s.push_str("# cell bias\n");
        row(&mut s, &mut self.cell_bias.iter().map(|&x| i64::from(x)));
        s.push_str("# hidden units: mover's pool, opponent's pool\n");
        for r in &self.hidden {
            row(&mut s, &mut r.iter().map(|&x| i64::from(x)));
        }
        s.push_str("# hidden biases\n");
        row(&mut s, &mut self.hidden_bias.iter().map(|&x| i64::from(x)));
        s.push_str("# output weights\n");
        row(&mut s, &mut self.out.iter().map(|&x| i64::from(x)));
        s.push_str("# output bias\n");
        let _ = writeln!(s, "{}", self.out_bias);
        s
    }
}

/// Both players' pools side by side: X's view, then O's.
type Pools = [i32; 2 * DIMS];
/// A cell's vectors before clipping, X's view then O's.
type Views = [i16; 2 * DIMS];

/// What a board keeps for its network: the two players' pools, per cell its vectors before
/// clipping in both views, and what [`Accumulator::undo_move`] restores. Both views sit in one
/// row, so a change reads one table row for both.
#[derive(Clone, Debug)]
pub struct Accumulator<'n> {
    net: &'n Net,
    pools: Pools,
    /// What [`Accumulator::change`] has added since the last [`Accumulator::settle`], in 16
    /// bits: a move's changes are summed in the width the cell vectors have (a cell's share
    /// moves by at most [`QA`], a move changes some 40 cells), and widened once.
    pending: Views,
    pre: Vec<Views>,
    /// Per move made with logging: the pools before it and the length of `pre_log`.
    moves: Vec<(Pools, usize)>,
    /// Cells' vectors before a logged change, oldest first.
    pre_log: Vec<(u32, Views)>,
}

impl<'n> Accumulator<'n> {
    /// Empty pools for a board of `slots` cells (every cell is then added once).
    #[must_use]
    pub fn new(net: &'n Net, slots: usize) -> Accumulator<'n> {
        Accumulator {
            net,
            pools: [0; 2 * DIMS],
            pending: [0; 2 * DIMS],
            pre: vec![[0; 2 * DIMS]; slots],
            moves: Vec::new(),
            pre_log: Vec::new(),
        }
    }

    /// Computes the empty cell `idx` from its keys and adds it to the pools.
    pub fn add_cell(&mut self, idx: usize, keys: [u16; 2]) {
        // Wrapping sums: every row and the bias are within MAX_CELL_WEIGHT, so five never wrap.
        let mut pre = self.net.views_bias;
        for d in 0..4 {
            let row = &self.net.views[view_index(keys, d)];
            for (x, r) in pre.iter_mut().zip(row) {
                *x = x.wrapping_add(*r);
            }
        }
        let part = mask(counts(keys[0], keys[1]));
        for (s, x) in self.pools.iter_mut().zip(pre) {
            *s += i32::from(clip(x) & part);
        }
        self.pre[idx] = pre;
    }

    /// Takes the cell `idx` (about to hold a stone) out of the pools; its vectors stay for
    /// when the stone is taken back.
    pub fn remove_cell(&mut self, idx: usize, keys: [u16; 2]) {
        let part = mask(counts(keys[0], keys[1]));
        for (s, x) in self.pools.iter_mut().zip(self.pre[idx]) {
            *s -= i32::from(clip(x) & part);
        }
    }

    /// The empty cell `idx`'s keys changed from `old` to `new` in direction `d` only; with
    /// `log`, [`Accumulator::undo_move`] restores its vectors.
    #[inline]
    pub fn change(&mut self, idx: usize, d: usize, old: [u16; 2], new: [u16; 2], log: bool) {
        if log {
            self.pre_log.push((idx as u32, self.pre[idx]));
        }
        // All-ones masks where the cell takes part, so the loop has no branch and vectorises.
        let (was, is) = (mask(counts(old[0], old[1])), mask(counts(new[0], new[1])));
        let out = &self.net.views[view_index(old, d)];
        let into = &self.net.views[view_index(new, d)];
        // On copies, so the compiler need not check whether the rows overlap.
        let before = self.pre[idx];
        let after: Views =
            std::array::from_fn(|j| before[j].wrapping_sub(out[j]).wrapping_add(into[j]));
        self.pre[idx] = after;
        for (j, pending) in self.pending.iter_mut().enumerate() {
            let delta = (clip(after[j]) & is) - (clip(before[j]) & was);
            *pending = pending.wrapping_add(delta);
        }
    }

    /// Adds the changes since the last settling to the pools: after every stone placed or
    /// taken back, before the pools are read or saved.
    #[inline]
    pub fn settle(&mut self) {
        for (s, d) in self.pools.iter_mut().zip(&mut self.pending) {
            *s += i32::from(*d);
            *d = 0;
        }
    }

    /// Remembers the pools before a logged move.
    pub fn begin_move(&mut self) {
        debug_assert!(self.pending == [0; 2 * DIMS], "unsettled changes");
        self.moves.push((self.pools, self.pre_log.len()));
    }

    /// Restores the pools and the cells' vectors of before the last logged move.
    pub fn undo_move(&mut self) {
        let Some((pools, len)) = self.moves.pop() else {
            return;
        };
        self.pools = pools;
        self.pending = [0; 2 * DIMS];
        for (idx, pre) in self.pre_log.drain(len..).rev() {
            self.pre[idx as usize] = pre;
        }
    }

    /// The evaluation for `side` (0 X, 1 O) to move.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, side: usize) -> i32 {
        debug_assert!(self.pending == [0; 2 * DIMS], "unsettled changes");
        let x: &Pool = self.pools[..DIMS].try_into().expect("DIMS values");
        let o: &Pool = self.pools[DIMS..].try_into().expect("DIMS values");
        if side == 0 {
            self.net.evaluate(x, o)
        } else {
            self.net.evaluate(o, x)
        }
    }

    /// The pools, X's then O's (for consistency checks).
    #[must_use]
    pub fn pools(&self) -> &[i32; 2 * DIMS] {
        debug_assert!(self.pending == [0; 2 * DIMS], "unsettled changes");
        &self.pools
    }

    /// The vectors of cell `idx` (for consistency checks).
    #[must_use]
    pub fn pre_of(&self, idx: usize) -> Views {
        self.pre[idx]
    }
}

/// The sum of the 32 products of `w` and `x` (each within 2^25, so the sum fits), in the form
/// the compiler turns into SSE2's multiply-and-add of 16-bit pairs.
#[inline]
fn dot(w: &[i16; 2 * DIMS], x: &[i16; 2 * DIMS]) -> i32 {
    w.iter()
        .zip(x)
        .map(|(&w, &x)| i32::from(w) * i32::from(x))
        .sum()
}

/// The index of direction `d`'s (X's pattern, O's pattern) pair in the views table: X's
/// nibble, then O's above it.
#[inline]
fn view_index(keys: [u16; 2], d: usize) -> usize {
    let shift = 4 * d;
    usize::from((keys[0] >> shift) & 0xF) | usize::from((keys[1] >> shift) & 0xF) << 4
}

/// All ones when `counted`, else zero.
#[inline]
fn mask(counted: bool) -> i16 {
    -i16::from(counted)
}

/// A vector value clipped to `[0, QA]`.
#[inline]
fn clip(x: i16) -> i16 {
    x.clamp(0, QA as i16)
}

/// The longest side of a board a shipped network plays (its pools are read up to
/// [`POOL_MAX`], and it learnt from 15×15 games).
pub const MAX_NET_SIDE: u32 = 20;

#[cfg(test)]
impl Net {
    /// A network of small random weights (for tests of the plumbing, not of strength).
    pub fn random(seed: u64) -> Net {
        let mut rng = crate::rng::Rng::seeded(seed);
        let mut small = |r: i32| (rng.below((2 * r + 1) as usize) as i32) - r;
        let pair = (0..PAIRS)
            .map(|_| std::array::from_fn(|_| small(40) as i16))
            .collect();
        let cell_bias = std::array::from_fn(|_| small(60) as i16);
        let hidden = (0..HIDDEN)
            .map(|_| std::array::from_fn(|_| small(100)))
            .collect();
        let hidden_bias = std::array::from_fn(|_| small(60));
        let out = std::array::from_fn(|_| small(5000));
        Net::new(pair, cell_bias, hidden, hidden_bias, out, small(50))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_reads_back_what_it_writes() {
        let net = Net::random(1);
        let text = net.to_text("a test\nof two lines");
        assert!(text.starts_with("# a test\n# of two lines\n"));
        assert_eq!(Net::parse(&text).unwrap(), net);
    }

    #[test]
    fn damaged_network_files_are_refused_with_the_reason() {
        let text = Net::random(1).to_text("t");
        let short: String = text.lines().take(20).collect::<Vec<_>>().join("\n");
        assert!(Net::parse(&short).unwrap_err().contains("numbers"));
        let bad = text.replacen("\n0 ", "\nx ", 1).replacen("\n1 ", "\nx ", 1);
        let err = Net::parse(&format!("{bad}\nzz")).unwrap_err();
        assert!(err.contains("is not a whole number"), "{err}");
        // A weight the search's integer arithmetic cannot take.
        let mut net = Net::random(1);
        net.hidden[3][5] = MAX_WEIGHT + 1;
        let err = Net::parse(&net.to_text("t")).unwrap_err();
        assert!(
            err.contains("out of range for a hidden unit's weight"),
            "{err}"
        );
    }

    #[test]
    fn a_cell_counts_when_a_pattern_is_a_two_or_more() {
        use crate::search::pattern::Pattern;
        use crate::search::threat::with_pattern;
        for own in Pattern::ALL {
            for other in Pattern::ALL {
                for d in 0..4 {
                    let (a, b) = (with_pattern(0x1111, d, own), with_pattern(0x2222, d, other));
                    let want = own >= Pattern::B2 || other >= Pattern::B2;
                    assert_eq!(counts(a, b), want, "{own:?} {other:?} {d}");
                }
            }
        }
    }

    #[test]
    fn cells_no_line_reaches_count_nothing() {
        let net = Net::random(2);
        let pooled = |keys: [u16; 2]| {
            let mut acc = Accumulator::new(&net, 1);
            acc.add_cell(0, keys);
            *acc.pools()
        };
        // F1 in every direction for both (an empty neighbourhood): no part.
        let lone = 0x2222;
        assert!(!counts(lone, lone));
        assert_eq!(pooled([lone, lone]), [0; 2 * DIMS]);
        // An open two of O's in one direction: the cell counts in both views.
        let two = 0x2224;
        assert!(counts(lone, two) && counts(two, lone));
        assert_eq!(pairs(lone, two), [24, 22, 22, 22]);
        let pools = pooled([lone, two]);
        assert!(pools.iter().all(|&x| (0..=QA).contains(&x)));
        assert_ne!(pools, [0; 2 * DIMS]);
    }
}
