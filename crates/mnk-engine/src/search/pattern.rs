//! Line patterns: what a player makes in one direction by putting a stone on an empty cell.
//!
//! A pattern depends only on the cells of one line around the cell, up to `reach` cells on each
//! side (`k - 1` for freestyle, `k` when the cell just past a run decides: an overline that does
//! not win, a five closed at both ends that does not win under caro). Seen by one player, every
//! cell there is own, empty or blocked (opponent stone or board edge); only the cells before the
//! nearest blocker on each side matter. So one side of the line is coded as a number
//! `1 << len | own`, `len` the free cells before the blocker and `own` a bit per own stone among
//! them, and the two sides together index a table of `4^(reach + 1)` patterns (at most 2^18
//! bytes, for exact eight). Under caro a side also says whether its blocker is an opponent's
//! stone (which closes a five) or the edge (which does not), two more bits of index.
//!
//! Which runs win is a [`LineRule`] per player, read from mnk-core's `Rules::run_wins` (the one
//! win authority): under renju black's lines are exact-five lines and white's freestyle ones.
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

/// Which unbroken runs of one player's stones win, as mnk-core's `Rules::run_wins` says for
/// that player: the pattern tables are built for one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineRule {
    /// Stones in a row needed.
    pub k: u32,
    /// Whether more than k in a row wins too.
    pub overline_wins: bool,
    /// Whether a run closed at both ends by the opponent's stones fails to win (caro).
    pub closed_loses: bool,
}

impl LineRule {
    /// The rule for `player`'s lines, asked of mnk-core: freestyle, exactly k (renju's black
    /// too), or caro's exactly k not closed at both ends.
    #[must_use]
    pub fn of(rules: &mnk_core::Rules, player: mnk_core::Player) -> LineRule {
        let k = rules.k();
        LineRule {
            k,
            overline_wins: rules.run_wins(player, k + 1, 0),
            closed_loses: !rules.run_wins(player, k, 2),
        }
    }

    /// Five or more in a row wins (`exact`: exactly k).
    #[must_use]
    pub fn simple(k: u32, exact: bool) -> LineRule {
        LineRule {
            k,
            overline_wins: !exact,
            closed_loses: false,
        }
    }

    /// Whether a run of `len` stones with `closed` of its ends held by the opponent wins.
    #[must_use]
    pub fn wins(self, len: u32, closed: u32) -> bool {
        (len == self.k || (len > self.k && self.overline_wins))
            && !(self.closed_loses && closed >= 2)
    }

    /// How far each side of a line matters.
    #[must_use]
    pub fn reach(self) -> u32 {
        if self.overline_wins && !self.closed_loses {
            self.k.saturating_sub(1).max(1)
        } else {
            self.k
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
    /// Whether the blocker just past `len` is an opponent's stone (not the edge, and within
    /// the reach).
    pub closed: bool,
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
    fn wins(self, rule: LineRule) -> bool {
        let (l, r) = (self.left.run(), self.right.run());
        let closed = u32::from(l == self.left.len && self.left.closed)
            + u32::from(r == self.right.len && self.right.closed);
        rule.wins(1 + l + r, closed)
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

/// A table of patterns for one line rule, indexed by the two coded sides (and, when closed
/// ends matter, whether each side is closed by the opponent).
#[derive(Debug)]
pub struct PatternTable {
    rule: LineRule,
    reach: u32,
    table: Vec<u8>,
}

impl PatternTable {
    /// Builds the table for a line rule.
    #[must_use]
    pub fn build(rule: LineRule) -> PatternTable {
        let reach = rule.reach();
        let closed_bits = if rule.closed_loses { 2 } else { 0 };
        let size = 1usize << (2 * reach + 2 + closed_bits);
        let mut t = PatternTable {
            rule,
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
        self.index_of_codes(lcode, rcode, s.left.closed, s.right.closed)
    }

    /// The index of two coded sides and their closed flags (ignored unless closed ends
    /// matter; a side reaching the reach is never closed).
    #[inline]
    #[must_use]
    pub fn index_of_codes(&self, lcode: u64, rcode: u64, lclosed: bool, rclosed: bool) -> usize {
        let base = (lcode << (self.reach + 1)) | rcode;
        if !self.rule.closed_loses {
            return base as usize;
        }
        let top = 2 * self.reach + 2;
        let lclosed = lclosed && lcode >> self.reach == 0;
        let rclosed = rclosed && rcode >> self.reach == 0;
        (base | u64::from(lclosed) << top | u64::from(rclosed) << (top + 1)) as usize
    }

    fn decode(&self, idx: usize) -> Option<Segment> {
        let half = self.reach + 1;
        let top = 2 * half;
        let (lclosed, rclosed) = (idx >> top & 1 == 1, idx >> (top + 1) & 1 == 1);
        let idx = idx & (low_bits(top) as usize);
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
        // A side that reaches the reach has no blocker in view: such closed flags are
        // never looked up.
        if (lclosed && llen == self.reach) || (rclosed && rlen == self.reach) {
            return None;
        }
        Some(Segment {
            left: Side {
                len: llen,
                own: lown,
                closed: lclosed,
            },
            right: Side {
                len: rlen,
                own: rcode & low_bits(rlen),
                closed: rclosed,
            },
        })
    }

    fn fill(&mut self, idx: usize) -> Pattern {
        if self.table[idx] != UNKNOWN {
            return Pattern::from_u8(self.table[idx]);
        }
        let s = self.decode(idx).expect("valid index");
        let p = if s.wins(self.rule) {
            Pattern::Five
        } else if !s.has_room(self.rule.k) {
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
/// Line rules per k: overline wins or not, times closed fives lose or not.
const RULES_PER_K: usize = 4;

static TABLES: [OnceLock<PatternTable>; 6 * RULES_PER_K] =
    [const { OnceLock::new() }; 6 * RULES_PER_K];

/// Where a line rule's shared tables are kept, if its k has tables.
#[must_use]
pub fn table_slot(rule: LineRule) -> Option<usize> {
    (TABLE_MIN_K..=TABLE_MAX_K).contains(&rule.k).then(|| {
        (rule.k - TABLE_MIN_K) as usize * RULES_PER_K
            + usize::from(rule.overline_wins)
            + 2 * usize::from(rule.closed_loses)
    })
}

/// The shared table for a line rule, built on first use; `None` when its k has no table (use
/// [`generic_pattern`]).
#[must_use]
pub fn table(rule: LineRule) -> Option<&'static PatternTable> {
    let slot = &TABLES[table_slot(rule)?];
    Some(slot.get_or_init(|| PatternTable::build(rule)))
}

/// The pattern of a segment for any k, without a table: fives, fours and threes exactly as the
/// tables define them, weaker lines by the most stones in one window (no open/blocked
/// distinction there).
#[must_use]
pub fn generic_pattern(s: Segment, rule: LineRule) -> Pattern {
    let k = rule.k;
    if s.wins(rule) {
        return Pattern::Five;
    }
    if !s.has_room(k) {
        return Pattern::Dead;
    }
    let wins_after = |s: Segment| {
        s.empties()
            .filter(|&(l, d)| s.with(l, d).wins(rule))
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
        if next.wins(rule) {
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
    /// An opponent's stone.
    Blocked,
    /// The edge of the board: blocks like a stone but closes nothing under caro.
    Edge,
}

/// The slow reference: the pattern made by putting an own stone on `line[centre]` (which must be
/// empty), found by trying stones on the empty cells directly. Cells beyond the slice count as
/// unknown: they neither extend a run nor block one, so give at least the reach on each side.
#[must_use]
pub fn reference_pattern(line: &[Seen], centre: usize, rule: LineRule) -> Pattern {
    let mut cells = line.to_vec();
    cells[centre] = Seen::Own;
    reference_level(&mut cells, centre, rule, 4)
}

fn reference_wins(cells: &[Seen], centre: usize, rule: LineRule) -> bool {
    let mut lo = centre;
    while lo > 0 && cells[lo - 1] == Seen::Own {
        lo -= 1;
    }
    let mut hi = centre;
    while hi + 1 < cells.len() && cells[hi + 1] == Seen::Own {
        hi += 1;
    }
    let run = (hi - lo + 1) as u32;
    let closed = u32::from(lo > 0 && cells[lo - 1] == Seen::Blocked)
        + u32::from(cells.get(hi + 1) == Some(&Seen::Blocked));
    rule.wins(run, closed)
}

/// The pattern of `cells` (centre already own), looking at most `budget` stones ahead.
fn reference_level(cells: &mut [Seen], centre: usize, rule: LineRule, budget: u32) -> Pattern {
    if reference_wins(cells, centre, rule) {
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
        if cells[a..=b]
            .iter()
            .any(|&c| c == Seen::Blocked || c == Seen::Edge)
        {
            continue;
        }
        cells[e] = Seen::Own;
        match reference_level(cells, centre, rule, budget - 1) {
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
        let mut s = Side {
            len: 0,
            own: 0,
            closed: false,
        };
        for d in 1..=reach {
            let i = centre as isize + step * d as isize;
            if i < 0 || i >= line.len() as isize {
                break;
            }
            match line[i as usize] {
                Seen::Blocked => {
                    s.closed = true;
                    break;
                }
                Seen::Edge => break,
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

    fn caro(k: u32) -> LineRule {
        LineRule {
            k,
            overline_wins: false,
            closed_loses: true,
        }
    }

    /// The three kinds of line rule for `k`: freestyle, exact, caro.
    fn rules(k: u32) -> [LineRule; 3] {
        [
            LineRule::simple(k, false),
            LineRule::simple(k, true),
            caro(k),
        ]
    }

    fn parse(text: &str) -> (Vec<Seen>, usize) {
        let mut centre = 0;
        let cells = text
            .chars()
            .enumerate()
            .map(|(i, c)| match c {
                'X' => Seen::Own,
                'O' => Seen::Blocked,
                '|' => Seen::Edge,
                '*' => {
                    centre = i;
                    Seen::Empty
                }
                _ => Seen::Empty,
            })
            .collect();
        (cells, centre)
    }

    fn both(text: &str, rule: LineRule) -> Pattern {
        let (cells, centre) = parse(text);
        let r = reference_pattern(&cells, centre, rule);
        let t = table(rule).unwrap();
        let seg = segment_of(&cells, centre, t.reach());
        assert_eq!(t.pattern(seg), r, "table and reference differ on {text}");
        r
    }

    fn random_line(rng: &mut Rng, r: usize, own: usize) -> Vec<Seen> {
        let mut cells: Vec<Seen> = (0..2 * r + 1)
            .map(|_| match rng.below(10) {
                x if x < own => Seen::Own,
                x if x == own => Seen::Blocked,
                x if x == own + 1 && rng.below(2) == 0 => Seen::Edge,
                _ => Seen::Empty,
            })
            .collect();
        cells[r] = Seen::Empty;
        cells
    }

    #[test]
    fn named_shapes_for_five() {
        use Pattern::*;
        let free = LineRule::simple(5, false);
        let exact = LineRule::simple(5, true);
        assert_eq!(both("....XX*XX....", free), Five);
        assert_eq!(both("...XXX*XX....", free), Five);
        assert_eq!(both("...XXX*XX....", exact), Dead);
        assert_eq!(both("....XX*XX....", exact), Five);
        assert_eq!(both(".....*XXX....", free), F4);
        assert_eq!(both("....O*XXX....", free), B4);
        assert_eq!(both("....X*X.X....", free), B4);
        assert_eq!(both("......*XX....", free), F3);
        assert_eq!(both(".....O*XX....", free), B3);
        assert_eq!(both("......*.XX...", free), F3);
        assert_eq!(both("......*X.....", free), F2);
        assert_eq!(both("....|.*X..|..", free), B2);
        assert_eq!(both("......*......", free), F1);
        assert_eq!(both("....|.*..|...", free), Dead);
        // Exact five: six in a row is no win.
        assert_eq!(both("..XX*XX......", exact), Five);
        assert_eq!(both(".XXX*XX......", exact), Dead);
        assert_eq!(both(".XXX*XX......", free), Five);
        assert_eq!(both("X.*XXX.......", exact), B4);
        assert_eq!(both("X.*XXX.......", free), F4);
    }

    #[test]
    fn caro_fives_closed_by_the_opponent_do_not_count() {
        use Pattern::*;
        let c = caro(5);
        assert_eq!(both("...OXX*XXO...", c), Dead);
        assert_eq!(both("...OXX*XX.O..", c), Five);
        assert_eq!(both("....|XX*XXO..", c), Five, "the edge closes nothing");
        assert_eq!(both("...|XX*XX|...", c), Five);
        assert_eq!(both("...XXX*XX....", c), Dead, "an overline");
        // A closed four whose five would be closed too is no four.
        assert_eq!(both("...OXX*X.O...", c), Dead);
        assert_eq!(both("...OXX*X..O..", c), B4);
        assert_eq!(both("...OXX*X.....", c), B4);
        assert_eq!(both("...|XX*X.O...", c), B4);
        assert_eq!(both("....O*XXX....", c), B4);
        assert_eq!(both("....O*XXX.O..", c), Dead);
        assert_eq!(both(".....*XXX....", c), F4);
    }

    #[test]
    fn line_rules_follow_the_rules_of_mnk_core() {
        use mnk_core::{Player, Rules};
        for text in ["15x15x5", "15x15x5,exact", "15x15x5,caro", "15x15x5,renju"] {
            let rules: Rules = text.parse().unwrap();
            for player in [Player::X, Player::O] {
                let rule = LineRule::of(&rules, player);
                for len in 0..12 {
                    for closed in 0..=2 {
                        assert_eq!(
                            rule.wins(len, closed),
                            rules.run_wins(player, len, closed),
                            "{text} {player:?} {len} {closed}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tables_match_the_reference_on_random_lines() {
        let mut rng = Rng::seeded(7);
        for k in TABLE_MIN_K..=TABLE_MAX_K {
            for rule in rules(k) {
                let t = table(rule).unwrap();
                let r = t.reach() as usize;
                let samples = if k <= 5 { 3000 } else { 400 };
                for _ in 0..samples {
                    let cells = random_line(&mut rng, r, 4);
                    let seg = segment_of(&cells, r, t.reach());
                    let want = reference_pattern(&cells, r, rule);
                    assert_eq!(t.pattern(seg), want, "{rule:?} {cells:?}");
                }
            }
        }
    }

    #[test]
    fn small_tables_match_the_reference_everywhere() {
        for k in 3..=5 {
            for rule in rules(k) {
                let t = table(rule).unwrap();
                let r = t.reach() as usize;
                let n = 2 * r;
                let kinds = [Seen::Own, Seen::Empty, Seen::Blocked, Seen::Edge];
                // The edge only differs from a stone under caro (where five cells a side with
                // four kinds each are too many for a debug build: the random lines cover it).
                let base: usize = if rule.closed_loses && k <= 4 { 4 } else { 3 };
                let mut count = 0;
                for code in 0..base.pow(n as u32) {
                    let mut c = code;
                    let mut cells = Vec::with_capacity(n + 1);
                    for i in 0..=n {
                        if i == r {
                            cells.push(Seen::Empty);
                            continue;
                        }
                        cells.push(kinds[c % base]);
                        c /= base;
                    }
                    let seg = segment_of(&cells, r, t.reach());
                    assert_eq!(t.pattern(seg), reference_pattern(&cells, r, rule));
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
            for rule in rules(k) {
                let t = table(rule).unwrap();
                let r = t.reach() as usize;
                for _ in 0..500 {
                    let cells = random_line(&mut rng, r, 5);
                    let seg = segment_of(&cells, r, t.reach());
                    let want = t.pattern(seg);
                    let got = generic_pattern(seg, rule);
                    if want >= Pattern::B3 || got >= Pattern::B3 {
                        assert_eq!(got, want, "{rule:?} {cells:?}");
                    }
                }
            }
        }
    }
}
