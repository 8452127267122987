//! Line patterns: what a player makes in one direction by putting a stone on an empty cell.
//!
//! A pattern depends only on the cells of one line around the cell, up to `reach` cells on each
//! side (`k - 1` for freestyle, `k` for exact-k, where the cell just past a run decides whether
//! it is an overline). Seen by one player, every cell there is own, empty or blocked (opponent
//! stone or board edge); only the cells before the nearest blocker on each side matter. So one
//! side of the line is coded as a number `1 << len | own`, `len` the free cells before the
//! blocker and `own` a bit per own stone among them, and the two sides together index a table
//! of `4^(reach + 1)` patterns (at most 2^18 bytes, for exact eight).
//!
//! The classes follow the number of stones still needed and the number of ways to finish:
//! [`Pattern::Five`] wins now; a four needs one more stone, open ([`Pattern::F4`]) when two cells
//! finish it, blocked ([`Pattern::B4`]) when one does; a three is a line where one more stone
//! makes a four (open three when that four can be open), and so on down to one. The definition
//! is recursive, so the tables are filled by a memoised recursion over the table itself (adding
//! a stone to a line gives another entry of the same table), and the tests compare every entry
//! they can afford with [`reference_pattern`], a slow scanner over explicit cells that applies
//! the definition directly.
//!
//! Tables exist for every k from 3 to 8 under both win conditions and are built on first use.
//! Other k (1, 2, and 9 or more) take [`generic_pattern`], which evaluates fives, fours and
//! threes exactly and grades weaker lines by counting stones in a window.

use std::sync::OnceLock;

/// What a stone on an empty cell makes in one line, from nothing to a win.
///
/// "Open" (`F`) patterns can become the next stronger open pattern; "blocked" (`B`) ones only
/// the next blocked one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No win possible through this cell in this line within four more stones.
    Dead = 0,
    /// One stone that can grow into a blocked two.
    B1,
    /// One stone that can grow into an open two.
    F1,
    /// Two that can become a blocked three.
    B2,
    /// Two that can become an open three.
    F2,
    /// Three that can become a blocked four.
    B3,
    /// Three that can become an open four.
    F3,
    /// A four with one cell left to finish it.
    B4,
    /// A four with two or more cells to finish it: unstoppable in this line.
    F4,
    /// A winning line.
    Five,
}

impl Pattern {
    /// Every pattern, weakest first.
    pub const ALL: [Pattern; 10] = [
        Pattern::Dead,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::Five,
    ];

    /// The pattern with this discriminant (`Dead` for anything out of range).
    #[must_use]
    pub fn from_u8(n: u8) -> Pattern {
        Pattern::ALL
            .get(usize::from(n))
            .copied()
            .unwrap_or(Pattern::Dead)
    }

    /// The pattern one stone weaker: what a line is when one more stone makes `self`.
    #[must_use]
    pub fn weaker(self) -> Pattern {
        match self {
            Pattern::Five => Pattern::B4, // not used: fours are counted, not derived
            Pattern::F4 => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            Pattern::F1 | Pattern::B1 | Pattern::Dead => Pattern::Dead,
        }
    }
}

/// One side of a line as a player sees it: `len` free cells before the nearest blocker (or the
/// reach), and a bit per own stone, bit `d - 1` for the cell at distance `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// Free cells before the nearest blocker (at most the reach).
    pub len: u32,
    /// Own stones: bit `d - 1` is the cell at distance `d`.
    pub own: u64,
}

impl Side {
    /// Consecutive own stones starting next to the centre.
    fn run(self) -> u32 {
        (self.own.trailing_ones()).min(self.len)
    }
}

/// A line through an empty cell as one player sees it, with a stone of theirs on the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Towards decreasing offsets.
    pub left: Side,
    /// Towards increasing offsets.
    pub right: Side,
}

impl Segment {
    /// Whether the run through the centre wins.
    fn wins(self, k: u32, exact: bool) -> bool {
        let run = 1 + self.left.run() + self.right.run();
        if exact {
            run == k
        } else {
            run >= k
        }
    }

    /// The segment with an own stone added at distance `d` on the left (`left = true`) or right.
    fn with(self, left: bool, d: u32) -> Segment {
        let mut s = self;
        if left {
            s.left.own |= 1 << (d - 1);
        } else {
            s.right.own |= 1 << (d - 1);
        }
        s
    }

    /// The empty cells of the segment as (side, distance).
    fn empties(self) -> impl Iterator<Item = (bool, u32)> {
        let l = (1..=self.left.len)
            .filter(move |d| self.left.own & (1 << (d - 1)) == 0)
            .map(|d| (true, d));
        let r = (1..=self.right.len)
            .filter(move |d| self.right.own & (1 << (d - 1)) == 0)
            .map(|d| (false, d));
        l.chain(r)
    }

    /// Whether some window of `k` free cells holds the centre.
    fn has_room(self, k: u32) -> bool {
        1 + self.left.len + self.right.len >= k
    }

    /// The most own stones (centre included) in a window of `k` free cells holding the centre.
    fn best_window(self, k: u32) -> u32 {
        let mut best = 0;
        // A window covers `a` cells on the left and `k - 1 - a` on the right.
        for a in 0..k {
            let b = k - 1 - a;
            if a > self.left.len || b > self.right.len {
                continue;
            }
            let l = (self.left.own & low_bits(a)).count_ones();
            let r = (self.right.own & low_bits(b)).count_ones();
            best = best.max(1 + l + r);
        }
        best
    }
}

fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// How far each side of a line matters for k in a row under the given win condition.
#[must_use]
pub fn reach(k: u32, exact: bool) -> u32 {
    if exact {
        k
    } else {
        k.saturating_sub(1).max(1)
    }
}

/// A table of patterns for one k and win condition, indexed by the two coded sides.
#[derive(Debug)]
pub struct PatternTable {
    k: u32,
    exact: bool,
    reach: u32,
    table: Vec<u8>,
}

impl PatternTable {
    /// Builds the table for `k` in a row (`exact`: an overline does not win).
    #[must_use]
    pub fn build(k: u32, exact: bool) -> PatternTable {
        let reach = reach(k, exact);
        let size = 1usize << (2 * reach + 2);
        let mut t = PatternTable {
            k,
            exact,
            reach,
            table: vec![UNKNOWN; size],
        };
        for idx in 0..size {
            if t.decode(idx).is_some() {
                t.fill(idx);
            }
        }
        t
    }

    /// The index of a segment: left code above right code, each `1 << len | own`.
    #[must_use]
    pub fn index(&self, s: Segment) -> usize {
        // The left code stores the cell at distance d in bit `len - d`.
        let mut lown = 0u64;
        for d in 1..=s.left.len {
            if s.left.own & (1 << (d - 1)) != 0 {
                lown |= 1 << (s.left.len - d);
            }
        }
        let lcode = (1u64 << s.left.len) | lown;
        let rcode = (1u64 << s.right.len) | (s.right.own & low_bits(s.right.len));
        ((lcode << (self.reach + 1)) | rcode) as usize
    }

    fn decode(&self, idx: usize) -> Option<Segment> {
        let half = self.reach + 1;
        let lcode = (idx >> half) as u64;
        let rcode = (idx as u64) & low_bits(half);
        if lcode == 0 || rcode == 0 {
            return None;
        }
        let llen = 63 - lcode.leading_zeros();
        let rlen = 63 - rcode.leading_zeros();
        let mut lown = 0u64;
        for d in 1..=llen {
            if lcode & (1 << (llen - d)) != 0 {
                lown |= 1 << (d - 1);
            }
        }
        Some(Segment {
            left: Side {
                len: llen,
                own: lown,
            },
            right: Side {
                len: rlen,
                own: rcode & low_bits(rlen),
            },
        })
    }

    fn fill(&mut self, idx: usize) -> Pattern {
        if self.table[idx] != UNKNOWN {
            return Pattern::from_u8(self.table[idx]);
        }
        let s = self.decode(idx).expect("valid index");
        let p = if s.wins(self.k, self.exact) {
            Pattern::Five
        } else if !s.has_room(self.k) {
            Pattern::Dead
        } else {
            let mut wins = 0;
            let mut best = Pattern::Dead;
            for (left, d) in s.empties() {
                let next = self.index(s.with(left, d));
                match self.fill(next) {
                    Pattern::Five => wins += 1,
                    p => best = best.max(p),
                }
            }
            match wins {
                0 => best.weaker(),
                1 => Pattern::B4,
                _ => Pattern::F4,
            }
        };
        self.table[idx] = p as u8;
        p
    }

    /// The pattern at a table index (as computed by [`PatternTable::index`] or by the board's
    /// fast coder).
    #[inline]
    #[must_use]
    pub fn get(&self, idx: usize) -> Pattern {
        Pattern::from_u8(self.table[idx])
    }

    /// The pattern of a segment.
    #[must_use]
    pub fn pattern(&self, s: Segment) -> Pattern {
        self.get(self.index(s))
    }

    /// The reach this table was built for.
    #[must_use]
    pub fn reach(&self) -> u32 {
        self.reach
    }

    /// The raw bytes, for the board's hot path.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.table
    }
}

const UNKNOWN: u8 = 0xFF;

/// The smallest k with a table.
pub const TABLE_MIN_K: u32 = 3;
/// The largest k with a table.
pub const TABLE_MAX_K: u32 = 8;

static TABLES: [[OnceLock<PatternTable>; 2]; 6] = [
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
];

/// The shared table for `k` and the win condition, built on first use; `None` when k has no
/// table (use [`generic_pattern`]).
#[must_use]
pub fn table(k: u32, exact: bool) -> Option<&'static PatternTable> {
    if !(TABLE_MIN_K..=TABLE_MAX_K).contains(&k) {
        return None;
    }
    let slot = &TABLES[(k - TABLE_MIN_K) as usize][usize::from(exact)];
    Some(slot.get_or_init(|| PatternTable::build(k, exact)))
}

/// The pattern of a segment for any k, without a table: fives, fours and threes exactly as the
/// tables define them, weaker lines by the most stones in one window (no open/blocked
/// distinction there).
#[must_use]
pub fn generic_pattern(s: Segment, k: u32, exact: bool) -> Pattern {
    if s.wins(k, exact) {
        return Pattern::Five;
    }
    if !s.has_room(k) {
        return Pattern::Dead;
    }
    let wins_after = |s: Segment| {
        s.empties()
            .filter(|&(l, d)| s.with(l, d).wins(k, exact))
            .count()
    };
    match wins_after(s) {
        0 => {}
        1 => return Pattern::B4,
        _ => return Pattern::F4,
    }
    let mut three = Pattern::Dead;
    for (l, d) in s.empties() {
        let next = s.with(l, d);
        if next.wins(k, exact) {
            continue;
        }
        match wins_after(next) {
            0 => {}
            1 => three = Pattern::B3,
            _ => return Pattern::F3,
        }
    }
    if three != Pattern::Dead {
        return three;
    }
    match k.saturating_sub(s.best_window(k)) {
        3 => Pattern::B2,
        4 => Pattern::B1,
        _ => Pattern::Dead,
    }
}

/// A cell of a line as one player sees it, for [`reference_pattern`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// The player's own stone.
    Own,
    /// An empty cell.
    Empty,
    /// An opponent's stone or the edge of the board.
    Blocked,
}

/// The slow reference: the pattern made by putting an own stone on `line[centre]` (which must be
/// empty), found by trying stones on the empty cells directly. Cells beyond the slice count as
/// unknown: they neither extend a run nor block one, so give at least the reach on each side.
#[must_use]
pub fn reference_pattern(line: &[Seen], centre: usize, k: u32, exact: bool) -> Pattern {
    let mut cells = line.to_vec();
    cells[centre] = Seen::Own;
    reference_level(&mut cells, centre, k, exact, 4)
}

fn reference_wins(cells: &[Seen], centre: usize, k: u32, exact: bool) -> bool {
    let mut lo = centre;
    while lo > 0 && cells[lo - 1] == Seen::Own {
        lo -= 1;
    }
    let mut hi = centre;
    while hi + 1 < cells.len() && cells[hi + 1] == Seen::Own {
        hi += 1;
    }
    let run = (hi - lo + 1) as u32;
    if exact {
        run == k
    } else {
        run >= k
    }
}

/// The pattern of `cells` (centre already own), looking at most `budget` stones ahead.
fn reference_level(cells: &mut [Seen], centre: usize, k: u32, exact: bool, budget: u32) -> Pattern {
    if reference_wins(cells, centre, k, exact) {
        return Pattern::Five;
    }
    if budget == 0 {
        return Pattern::Dead;
    }
    let mut wins = 0;
    let mut best = Pattern::Dead;
    for e in 0..cells.len() {
        if cells[e] != Seen::Empty {
            continue;
        }
        // Only cells in the free stretch around the centre can matter.
        let (a, b) = if e < centre { (e, centre) } else { (centre, e) };
        if cells[a..=b].contains(&Seen::Blocked) {
            continue;
        }
        cells[e] = Seen::Own;
        match reference_level(cells, centre, k, exact, budget - 1) {
            Pattern::Five => wins += 1,
            p => best = best.max(p),
        }
        cells[e] = Seen::Empty;
    }
    match wins {
        0 => best.weaker(),
        1 => Pattern::B4,
        _ => Pattern::F4,
    }
}

/// The segment a player sees around `centre` in an explicit line (cells past the reach or the
/// slice end are ignored).
#[must_use]
pub fn segment_of(line: &[Seen], centre: usize, reach: u32) -> Segment {
    let side = |step: isize| {
        let mut s = Side { len: 0, own: 0 };
        for d in 1..=reach {
            let i = centre as isize + step * d as isize;
            if i < 0 || i >= line.len() as isize {
                break;
            }
            match line[i as usize] {
                Seen::Blocked => break,
                Seen::Own => s.own |= 1 << (d - 1),
                Seen::Empty => {}
            }
            s.len = d;
        }
        s
    };
    Segment {
        left: side(-1),
        right: side(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    fn parse(text: &str) -> (Vec<Seen>, usize) {
        let mut centre = 0;
        let cells = text
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'X' => Seen::Own,
                'O' | '|' => Seen::Blocked,
                '*' => {
                    centre = i;
                    Seen::Empty
                }
                _ => Seen::Empty,
            })
            .collect();
        (cells, centre)
    }

    fn both(text: &str, k: u32, exact: bool) -> Pattern {
        let (cells, centre) = parse(text);
        let r = reference_pattern(&cells, centre, k, exact);
        let t = table(k, exact).unwrap();
        let seg = segment_of(&cells, centre, t.reach());
        assert_eq!(t.pattern(seg), r, "table and reference differ on {text}");
        r
    }

    #[test]
    fn named_shapes_for_five() {
        use Pattern::*;
        assert_eq!(both("....XX*XX....", 5, false), Five);
        assert_eq!(both("...XXX*XX....", 5, false), Five);
        assert_eq!(both("...XXX*XX....", 5, true), Dead);
        assert_eq!(both("....XX*XX....", 5, true), Five);
        assert_eq!(both(".....*XXX....", 5, false), F4);
        assert_eq!(both("....O*XXX....", 5, false), B4);
        assert_eq!(both("....X*X.X....", 5, false), B4);
        assert_eq!(both("......*XX....", 5, false), F3);
        assert_eq!(both(".....O*XX....", 5, false), B3);
        assert_eq!(both("......*.XX...", 5, false), F3);
        assert_eq!(both("......*X.....", 5, false), F2);
        assert_eq!(both("....|.*X..|..", 5, false), B2);
        assert_eq!(both("......*......", 5, false), F1);
        assert_eq!(both("....|.*..|...", 5, false), Dead);
        // Exact five: six in a row is no win.
        assert_eq!(both("..XX*XX......", 5, true), Five);
        assert_eq!(both(".XXX*XX......", 5, true), Dead);
        assert_eq!(both(".XXX*XX......", 5, false), Five);
        assert_eq!(both("X.*XXX.......", 5, true), B4);
        assert_eq!(both("X.*XXX.......", 5, false), F4);
    }

    #[test]
    fn tables_match_the_reference_on_random_lines() {
        let mut rng = Rng::seeded(7);
        for k in TABLE_MIN_K..=TABLE_MAX_K {
            for exact in [false, true] {
                let t = table(k, exact).unwrap();
                let r = t.reach() as usize;
                let samples = if k <= 5 { 3000 } else { 400 };
                for _ in 0..samples {
                    let mut cells: Vec<Seen> = (0..2 * r + 1)
                        .map(|_| match rng.below(10) {
                            0..=3 => Seen::Own,
                            4 => Seen::Blocked,
                            _ => Seen::Empty,
                        })
                        .collect();
                    cells[r] = Seen::Empty;
                    let seg = segment_of(&cells, r, t.reach());
                    let want = reference_pattern(&cells, r, k, exact);
                    assert_eq!(t.pattern(seg), want, "k={k} exact={exact} {cells:?}");
                }
            }
        }
    }

    #[test]
    fn small_tables_match_the_reference_everywhere() {
        for k in 3..=5 {
            for exact in [false, true] {
                let t = table(k, exact).unwrap();
                let r = t.reach() as usize;
                let n = 2 * r;
                let mut count = 0;
                for code in 0..3usize.pow(n as u32) {
                    let mut c = code;
                    let mut cells = Vec::with_capacity(n + 1);
                    for i in 0..=n {
                        if i == r {
                            cells.push(Seen::Empty);
                            continue;
                        }
                        cells.push([Seen::Own, Seen::Empty, Seen::Blocked][c % 3]);
                        c /= 3;
                    }
                    let seg = segment_of(&cells, r, t.reach());
                    assert_eq!(t.pattern(seg), reference_pattern(&cells, r, k, exact));
                    count += 1;
                }
                assert!(count > 0);
            }
        }
    }

    #[test]
    fn generic_path_agrees_on_fours_and_threes() {
        let mut rng = Rng::seeded(11);
        for k in 4..=7 {
            for exact in [false, true] {
                let t = table(k, exact).unwrap();
                let r = t.reach() as usize;
                for _ in 0..500 {
                    let mut cells: Vec<Seen> = (0..2 * r + 1)
                        .map(|_| match rng.below(10) {
                            0..=4 => Seen::Own,
                            5 => Seen::Blocked,
                            _ => Seen::Empty,
                        })
                        .collect();
                    cells[r] = Seen::Empty;
                    let seg = segment_of(&cells, r, t.reach());
                    let want = t.pattern(seg);
                    let got = generic_pattern(seg, k, exact);
                    if want >= Pattern::B3 || got >= Pattern::B3 {
                        assert_eq!(got, want, "k={k} exact={exact} {cells:?}");
                    }
                }
            }
        }
    }
}
