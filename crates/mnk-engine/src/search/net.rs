//! The learnt evaluation: a small network over the cells' line patterns, updated as stones are
//! placed and taken back.
//!
//! **Inputs.** Every empty cell that some stone's line reaches (a pattern of two stones or more
//! for either player in one of its four directions; the cells far from every stone count nothing,
//! so the board's size does not shift the sums) is seen from one player's side: in each
//! direction, the pair (own pattern, opponent's pattern), 10 × 10 classes of
//! [`super::pattern::Pattern`], and the line's shape itself for each player, its *line code*
//! ([`line_codes`]: the own stones and free cells up to [`CODE_REACH`] each side before the first
//! blocker, left and right alike). Tables give each pair and each own and opponent's code a
//! vector of [`DIMS`] values; the cell's twelve vectors and a bias are summed and clipped to
//! `[0, 1]` (a clipped ReLU), so a cell values its directions together (two threes at one cell
//! are more than twice one). The pattern pairs carry the rule set (what wins, what is blocked);
//! the codes the finer shape (where the stones sit, how much room is left). A network whose code
//! rows are all zero (a file of the format before them) reads no codes at all. The board
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
/// How many cells each side of a cell a line code reads.
pub const CODE_REACH: u32 = 4;
/// One side's codes: `1 << len | own` for `len` free cells before the blocker, less one.
const SIDE_CODES: usize = (1 << (CODE_REACH + 1)) - 1;
/// Line codes: unordered pairs of side codes (a line read either way is the same shape).
pub const CODES: usize = SIDE_CODES * (SIDE_CODES + 1) / 2;
/// [`CODES`] rounded up to a power of two.
const CODE_SLOTS: usize = CODES.next_power_of_two();
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

/// The largest pair or code row or cell bias value (the trainer clamps to it): the thirteen of
/// a cell sum within i16.
pub const MAX_CELL_WEIGHT: i32 = 2_500;

/// The largest hidden bias (in 1/[`QA`]).
pub const MAX_HIDDEN_BIAS: i32 = 1 << 20;
/// The largest output weight (in 1/[`QO`] of an evaluation unit): 32 of them times [`QA`] fit
/// in i32.
pub const MAX_OUT: i32 = 1 << 18;

/// The largest output bias, in evaluation units (the evaluation's own limit).
pub const MAX_OUT_BIAS: i32 = 20_000;

/// One player's pool: the sum of the cell vectors seen from that player's side.
pub type Pool = [i32; DIMS];

/// The tables of a cell vector's shares, in 1/[`QA`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellLayer {
    /// Per direction pair (own pattern × 10 + opponent's), the cell vector's share.
    pub pair: Vec<[i16; DIMS]>,
    /// Per line code of the player whose view it is ([`CODES`] rows).
    pub own_code: Vec<[i16; DIMS]>,
    /// Per line code of the other player.
    pub opp_code: Vec<[i16; DIMS]>,
    /// Added to every cell vector before clipping.
    pub bias: [i16; DIMS],
}

/// A network's weights, in the integer form the search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// The cell vectors' tables.
    pub cell: CellLayer,
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
    views: Box<[Row; 256]>,
    /// Derived from the code tables: per line code of X, its share in X's view (own) then O's
    /// (opponent's); then per line code of O, its share in X's view then O's.
    /// Rounded up to a power of two ([`CODE_SLOTS`]), so that a masked index needs no bounds check.
    code_views: Box<[[Row; CODE_SLOTS]; 2]>,
    /// Whether any code row is other than zero: a network without codes (the format before
    /// them) spares the board their reading.
    reads_codes: bool,
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
    // A nibble is B2 (3) or more when bit 2 or 3 is set, or bits 0 and 1 both are. Without
    // short cuts: the search asks this twice per changed cell, and branches mispredict.
    let strong = |k: u16| (k & 0xCCCC) | (k & (k >> 1) & 0x1111);
    strong(own) | strong(other) != 0
}

/// The four direction pairs of a cell seen by the player whose key is `own`.
#[inline]
#[must_use]
pub fn pairs(own: u16, other: u16) -> [usize; 4] {
    [0, 1, 2, 3].map(|d| key_pattern(own, d) as usize * 10 + key_pattern(other, d) as usize)
}

/// Both players' line codes, X's then O's, of a cell whose line masks are `line` (the board's
/// form: bit `r` the cell, bits below it one side nearest first from `r - 1`, above it the
/// other; a wall in both masks): each side read up to [`CODE_REACH`] cells, stopping at the
/// first opponent's stone or wall, as `1 << len | own` (`len` free cells, a bit per own stone
/// among them, nearest lowest), and the two sides an unordered pair, in `0..CODES`. `r` is at
/// least [`CODE_REACH`]. By table: each side's four cells of both masks index both side codes.
#[inline]
#[must_use]
pub fn line_codes(line: [u64; 2], r: u32) -> [u16; 2] {
    const NEAR: u64 = (1 << CODE_REACH) - 1;
    let window =
        |shift: u32| ((line[0] >> shift) & NEAR | ((line[1] >> shift) & NEAR) << 4) as usize;
    let above = SIDES_ABOVE[window(r + 1)];
    let below = SIDES_BELOW[window(r - CODE_REACH)];
    [0, 1].map(|p| CODE_OF_SIDES[usize::from(below[p]) * SIDE_CODES + usize::from(above[p])])
}

/// Per four cells of X's mask and O's (X's in the low nibble, the cell nearest the centre in
/// bit 0), both players' side codes.
static SIDES_ABOVE: [[u8; 2]; 256] = side_table(false);
/// The same with the nearest cell in bit 3 (the cells below the centre).
static SIDES_BELOW: [[u8; 2]; 256] = side_table(true);
/// Per pair of side codes, the line code (the pair unordered, numbered in a triangle).
static CODE_OF_SIDES: [u16; SIDE_CODES * SIDE_CODES] = code_table();

const fn side_table(nearest_high: bool) -> [[u8; 2]; 256] {
    let mut table = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        let masks = [i & 0xF, i >> 4];
        let mut p = 0;
        while p < 2 {
            let (own, blocked) = (masks[p] & !masks[1 - p], masks[1 - p]);
            let (mut len, mut code) = (0, 0);
            while len < CODE_REACH as usize {
                let bit = if nearest_high { 3 - len } else { len };
                if blocked >> bit & 1 == 1 {
                    break;
                }
                code |= (own >> bit & 1) << len;
                len += 1;
            }
            table[i][p] = ((code | 1 << len) - 1) as u8;
            p += 1;
        }
        i += 1;
    }
    table
}

const fn code_table() -> [u16; SIDE_CODES * SIDE_CODES] {
    let mut table = [0u16; SIDE_CODES * SIDE_CODES];
    let (mut a, mut next) = (0, 0);
    while a < SIDE_CODES {
        let mut b = a;
        while b < SIDE_CODES {
            table[a * SIDE_CODES + b] = next;
            table[b * SIDE_CODES + a] = next;
            next += 1;
            b += 1;
        }
        a += 1;
    }
    table
}

impl Net {
    /// A network of these weights.
    #[must_use]
    pub fn new(
        cell: CellLayer,
        hidden: Vec<[i32; 2 * DIMS]>,
        hidden_bias: [i32; HIDDEN],
        out: [i32; HIDDEN],
        out_bias: i32,
    ) -> Net {
        let mut views = Box::new([Row([0; 2 * DIMS]); 256]);
        for (p, Row(row)) in views.iter_mut().enumerate() {
            let (x, o) = (p & 0xF, p >> 4);
            if x < 10 && o < 10 {
                row[..DIMS].copy_from_slice(&cell.pair[x * 10 + o]);
                row[DIMS..].copy_from_slice(&cell.pair[o * 10 + x]);
            }
        }
        let mut code_views = Box::new([[Row([0; 2 * DIMS]); CODE_SLOTS]; 2]);
        for c in 0..CODES {
            code_views[0][c].0[..DIMS].copy_from_slice(&cell.own_code[c]);
            code_views[0][c].0[DIMS..].copy_from_slice(&cell.opp_code[c]);
            code_views[1][c].0[..DIMS].copy_from_slice(&cell.opp_code[c]);
            code_views[1][c].0[DIMS..].copy_from_slice(&cell.own_code[c]);
        }
        let reads_codes = cell
            .own_code
            .iter()
            .chain(&cell.opp_code)
            .flatten()
            .any(|&x| x != 0);
        let mut views_bias = [0; 2 * DIMS];
        views_bias[..DIMS].copy_from_slice(&cell.bias);
        views_bias[DIMS..].copy_from_slice(&cell.bias);
        let hidden16 = Box::new(std::array::from_fn(|u| {
            std::array::from_fn(|j| hidden[u][j].clamp(-MAX_WEIGHT, MAX_WEIGHT) as i16)
        }));
        Net {
            cell,
            hidden,
            hidden_bias,
            out,
            out_bias,
            views,
            code_views,
            reads_codes,
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
        let head = HIDDEN * 2 * DIMS + HIDDEN + HIDDEN + 1;
        let want = PAIRS * DIMS + 2 * CODES * DIMS + DIMS + head;
        // A network of the format before line codes: its code rows are zero.
        let without_codes = PAIRS * DIMS + DIMS + head;
        if numbers.len() != want && numbers.len() != without_codes {
            return Err(format!(
                "a network holds {want} numbers, this file {}",
                numbers.len()
            ));
        }
        let codes = if numbers.len() == want { CODES } else { 0 };
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
        let own_values = take(codes * DIMS, MAX_CELL_WEIGHT, "an own line code's row")?;
        let opp_values = take(
            codes * DIMS,
            MAX_CELL_WEIGHT,
            "an opponent's line code's row",
        )?;
        let bias_values = take(DIMS, MAX_CELL_WEIGHT, "the cell bias")?;
        let hidden_values = take(HIDDEN * 2 * DIMS, MAX_WEIGHT, "a hidden unit's weight")?;
        let hidden_bias = take(HIDDEN, MAX_HIDDEN_BIAS, "a hidden bias")?;
        let out = take(HIDDEN, MAX_OUT, "an output weight")?;
        let out_bias = take(1, MAX_OUT_BIAS, "the output bias")?;
        let as_i16 = |v: &[i32]| -> [i16; DIMS] { std::array::from_fn(|j| v[j] as i16) };
        let rows = |v: &[i32]| -> Vec<[i16; DIMS]> {
            let mut rows: Vec<[i16; DIMS]> = v.chunks(DIMS).map(as_i16).collect();
            rows.resize(CODES, [0; DIMS]);
            rows
        };
        Ok(Net::new(
            CellLayer {
                pair: pair_values.chunks(DIMS).map(as_i16).collect(),
                own_code: rows(&own_values),
                opp_code: rows(&opp_values),
                bias: as_i16(&bias_values),
            },
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
            "# mnk network: {PAIRS} pair rows of {DIMS}, {CODES} own line code rows, {CODES} opponent's line code rows, cell bias, {HIDDEN} hidden rows of {}, hidden biases, output weights, output bias",
            2 * DIMS
        );
        let row = |s: &mut String, xs: &mut dyn Iterator<Item = i64>| {
            let words: Vec<String> = xs.map(|x| x.to_string()).collect();
            let _ = writeln!(s, "{}", words.join(" "));
        };
        s.push_str(
            "# pairs (own pattern, opponent's pattern), dead b1 f1 b2 f2 b3 f3 b4 f4 five\n",
        );
        for r in &self.cell.pair {
            row(&mut s, &mut r.iter().map(|&x| i64::from(x)));
        }
        s.push_str("# own line codes\n");
        for r in &self.cell.own_code {
            row(&mut s, &mut r.iter().map(|&x| i64::from(x)));
        }
        s.push_str("# opponent's line codes\n");
        for r in &self.cell.opp_code {
            row(&mut s, &mut r.iter().map(|&x| i64::from(x)));
        }
        s.push_str("# cell bias\n");
        row(&mut s, &mut self.cell.bias.iter().map(|&x| i64::from(x)));
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

/// A table row of both views on a cache line of its own: rows read from a table aligned only
/// to its values straddled two lines three times in four (a fifth of the first-level cache
/// misses of a search, in cachegrind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Row(Views);

/// What a board keeps for its network: the two players' pools, per cell its vectors before
/// clipping in both views and its line codes, and what [`Accumulator::undo_move`] restores.
/// Both views sit in one row, so a change reads one table row for both.
#[derive(Clone, Debug)]
pub struct Accumulator<'n> {
    net: &'n Net,
    pools: Pools,
    /// What [`Accumulator::change`] has added since the last [`Accumulator::settle`], in 16
    /// bits: a move's changes are summed in the width the cell vectors have (a cell's share
    /// moves by at most [`QA`], a move changes some 40 cells), and widened once.
    pending: Views,
    /// Per cell, its vectors and line codes: one record, so a change finds both at one index.
    cells: Vec<CellState>,
    /// Per move made with logging: the pools before it and the length of `pre_log`.
    moves: Vec<(Pools, usize)>,
    /// Cells' vectors and codes before a logged change, oldest first.
    pre_log: Vec<Logged>,
}

/// What the accumulator keeps of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellState {
    /// Its vectors before clipping, X's view then O's.
    pre: Views,
    /// Per direction, X's line code and O's.
    codes: [[u16; 2]; 4],
}

/// A cell's state before a logged change of its direction `d`.
#[derive(Clone, Copy, Debug)]
struct Logged {
    idx: u32,
    d: u8,
    codes: [u16; 2],
    pre: Views,
}

impl<'n> Accumulator<'n> {
    /// Empty pools for a board of `slots` cells (every cell is then added once).
    #[must_use]
    pub fn new(net: &'n Net, slots: usize) -> Accumulator<'n> {
        Accumulator {
            net,
            pools: [0; 2 * DIMS],
            pending: [0; 2 * DIMS],
            cells: vec![
                CellState {
                    pre: [0; 2 * DIMS],
                    codes: [[0; 2]; 4],
                };
                slots
            ],
            moves: Vec::new(),
            pre_log: Vec::new(),
        }
    }

    /// Computes the empty cell `idx` from its keys and line codes (per direction X's and
    /// O's) and adds it to the pools.
    pub fn add_cell(&mut self, idx: usize, keys: [u16; 2], codes: [[u16; 2]; 4]) {
        // Wrapping sums: every row and the bias are within MAX_CELL_WEIGHT, so the thirteen
        // never wrap.
        let mut pre = self.net.views_bias;
        for (d, code) in codes.iter().enumerate() {
            for row in rows(self.net, keys, d, *code) {
                for (x, r) in pre.iter_mut().zip(row) {
                    *x = x.wrapping_add(*r);
                }
            }
        }
        let part = mask(counts(keys[0], keys[1]));
        for (s, x) in self.pools.iter_mut().zip(pre) {
            *s += i32::from(clip(x) & part);
        }
        self.cells[idx] = CellState { pre, codes };
    }

    /// Whether the network reads line codes (see [`Net`]'s `reads_codes`); when it does not,
    /// every cell's codes stay 0, whose rows are zero.
    #[inline]
    #[must_use]
    pub fn reads_codes(&self) -> bool {
        self.net.reads_codes
    }

    /// The line codes of the empty cell `idx` in direction `d`, X's and O's.
    #[inline]
    #[must_use]
    pub fn codes(&self, idx: usize, d: usize) -> [u16; 2] {
        self.cells[idx].codes[d & 3]
    }

    /// Takes the cell `idx` (about to hold a stone) out of the pools; its vectors stay for
    /// when the stone is taken back.
    pub fn remove_cell(&mut self, idx: usize, keys: [u16; 2]) {
        let part = mask(counts(keys[0], keys[1]));
        for (s, x) in self.pools.iter_mut().zip(self.cells[idx].pre) {
            *s -= i32::from(clip(x) & part);
        }
    }

    /// The empty cell `idx`'s keys changed from `old` to `new` and its line codes to `code`,
    /// in direction `d` only; with `log`, [`Accumulator::undo_move`] restores its vectors.
    #[inline]
    pub fn change(
        &mut self,
        idx: usize,
        d: usize,
        old: [u16; 2],
        new: [u16; 2],
        code: [u16; 2],
        log: bool,
    ) {
        let d = d & 3;
        let CellState { pre: before, codes } = self.cells[idx];
        let old_code = codes[d];
        if log {
            self.pre_log.push(Logged {
                idx: idx as u32,
                d: d as u8,
                codes: old_code,
                pre: before,
            });
        }
        // All-ones masks where the cell takes part, so the loop has no branch and vectorises.
        let (was, is) = (mask(counts(old[0], old[1])), mask(counts(new[0], new[1])));
        let [out_pair, out_x, out_o] = rows(self.net, old, d, old_code);
        let [in_pair, in_x, in_o] = rows(self.net, new, d, code);
        // On copies, so the compiler need not check whether the rows overlap.
        let after: Views = std::array::from_fn(|j| {
            before[j]
                .wrapping_sub(out_pair[j].wrapping_add(out_x[j]).wrapping_add(out_o[j]))
                .wrapping_add(in_pair[j].wrapping_add(in_x[j]).wrapping_add(in_o[j]))
        });
        let cell = &mut self.cells[idx];
        cell.pre = after;
        cell.codes[d] = code;
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
        for logged in self.pre_log.drain(len..).rev() {
            let idx = logged.idx as usize;
            let cell = &mut self.cells[idx];
            cell.pre = logged.pre;
            cell.codes[usize::from(logged.d) & 3] = logged.codes;
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
        self.cells[idx].pre
    }

    /// The line codes of cell `idx` (for consistency checks).
    #[must_use]
    pub fn codes_of(&self, idx: usize) -> [[u16; 2]; 4] {
        self.cells[idx].codes
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

/// The three rows direction `d` adds to a cell of these keys and codes.
#[inline]
fn rows(net: &Net, keys: [u16; 2], d: usize, code: [u16; 2]) -> [&Views; 3] {
    [
        &net.views[view_index(keys, d)].0,
        &net.code_views[0][usize::from(code[0]) & (CODE_SLOTS - 1)].0,
        &net.code_views[1][usize::from(code[1]) & (CODE_SLOTS - 1)].0,
    ]
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
        let mut rows = |n: usize| -> Vec<[i16; DIMS]> {
            (0..n)
                .map(|_| std::array::from_fn(|_| small(40) as i16))
                .collect()
        };
        let cell = CellLayer {
            pair: rows(PAIRS),
            own_code: rows(CODES),
            opp_code: rows(CODES),
            bias: std::array::from_fn(|_| small(60) as i16),
        };
        let hidden = (0..HIDDEN)
            .map(|_| std::array::from_fn(|_| small(100)))
            .collect();
        let hidden_bias = std::array::from_fn(|_| small(60));
        let out = std::array::from_fn(|_| small(5000));
        Net::new(cell, hidden, hidden_bias, out, small(50))
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
    fn a_network_of_the_format_before_codes_reads_none() {
        let mut net = Net::random(3);
        let mut cell = net.cell.clone();
        cell.own_code = vec![[0; DIMS]; CODES];
        cell.opp_code = vec![[0; DIMS]; CODES];
        net = Net::new(cell, net.hidden, net.hidden_bias, net.out, net.out_bias);
        assert!(!net.reads_codes && Net::random(3).reads_codes);
        // The file without its two sections of code rows.
        let text = net.to_text("t");
        let mut skipping = false;
        let old: Vec<&str> = text
            .lines()
            .filter(|line| {
                if line.starts_with("# ") {
                    skipping = line.contains("line codes");
                }
                !skipping
            })
            .collect();
        assert!(old.len() < text.lines().count());
        assert_eq!(Net::parse(&old.join("\n")).unwrap(), net);
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
            let empty = line_codes([0, 0], CODE_REACH)[0];
            acc.add_cell(0, keys, [[empty; 2]; 4]);
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

    /// A line of `2r + 1` cells around an empty centre, each empty (0), X's (1), O's (2) or
    /// a wall (3), as the board's masks.
    fn masks(below: &[u8], above: &[u8], r: u32) -> [u64; 2] {
        let mut line = [0u64; 2];
        for (sideways, cells) in [(-1i64, below), (1, above)] {
            for (i, &c) in cells.iter().enumerate() {
                let bit = 1u64 << (i64::from(r) + sideways * (i as i64 + 1));
                for (p, mask) in line.iter_mut().enumerate() {
                    if c == 3 || usize::from(c) == p + 1 {
                        *mask |= bit;
                    }
                }
            }
        }
        line
    }

    /// One side's code read cell by cell: free cells up to the first blocker, own stones set.
    fn side_code(cells: &[u8], p: usize) -> usize {
        let mut code = 0;
        let mut len = 0;
        for &c in cells.iter().take(CODE_REACH as usize) {
            if c == 3 || (c != 0 && usize::from(c) != p + 1) {
                break;
            }
            if c != 0 {
                code |= 1 << len;
            }
            len += 1;
        }
        (code | 1 << len) - 1
    }

    #[test]
    fn line_codes_name_each_shape_once_whichever_way_it_is_read() {
        // Every line of reach 4 (4^8), and lines of reach 5 with a random fifth cell a side.
        let mut rng = crate::rng::Rng::seeded(9);
        let mut seen = std::collections::HashMap::new();
        for n in 0..1u32 << 16 {
            let cell = |i: u32| (n >> (2 * i) & 3) as u8;
            let (mut below, mut above): (Vec<u8>, Vec<u8>) =
                ((0..4).map(cell).collect(), (4..8).map(cell).collect());
            let r = 4 + rng.below(2) as u32;
            if r == 5 {
                below.push(rng.below(4) as u8);
                above.push(rng.below(4) as u8);
            }
            for p in 0..2 {
                let code = line_codes(masks(&below, &above, r), r)[p];
                assert!(usize::from(code) < CODES);
                // Read the other way round, the same code.
                assert_eq!(line_codes(masks(&above, &below, r), r)[p], code);
                // The same sides, the same code; other sides, another.
                let (a, b) = (side_code(&below, p), side_code(&above, p));
                let shape = (a.min(b), a.max(b));
                assert_eq!(*seen.entry(shape).or_insert(code), code, "{shape:?}");
            }
        }
        let codes: std::collections::HashSet<u16> = seen.values().copied().collect();
        assert_eq!(codes.len(), seen.len(), "two shapes share a code");
        assert_eq!(seen.len(), CODES, "every pair of side codes occurs");
    }
}
