//! The engine's own board: a padded array with incremental line patterns for both players.
//!
//! mnk-core's [`Position`] is the referee; the search copies it into this board once per search
//! and then plays and undoes moves here only. Every cell keeps, per direction and player, a bit
//! mask of the stones within the pattern reach along that line (walls count as both players'
//! stones, so they block either), and every empty cell keeps per player its four line patterns
//! packed into a 16-bit key. Playing a stone touches only the `4 × 2 × reach` cells whose lines
//! see it: their masks, their patterns (one lookup in a table indexed by both players' masks,
//! when the reach is short), the per-player threat counts, the running evaluation sums and the
//! bit sets of cells with strong threats. [`Board::play`] logs the patterns it overwrites, so
//! [`Board::undo`] restores them instead of recomputing.
//!
//! **Frames.** A bounded board is copied whole, surrounded by `pad` cells of wall. The unbounded
//! board is copied as a *frame*: the bounding box of the stones plus a margin of at least
//! [`UNBOUNDED_MARGIN`] cells on each side (and more than a line's reach, so no stone of the
//! position sees the frame's edge), cut at the coordinate limit ±[`MAX_COORD`], and walled in
//! like a bounded board. The wall matters: the pattern tables must only ever call a line open
//! where its empty cells can be played, or a threat search counts two winning cells where one is
//! playable. The frame is rebuilt for every search, so the cost follows the stones, not the
//! distance between them; the search may move up to the margin away from the stones, which is
//! more than a search ever needs to reach. When the stones spread wider than
//! [`MAX_FRAME_SPAN`], the frame is centred on the last move and stones outside it are left out
//! (the engine's facade checks the whole position for immediate wins and blocks first).

use std::cell::RefCell;
use std::sync::OnceLock;

use mnk_core::renju::ForbiddenMoves;
use mnk_core::zobrist::mix64;
use mnk_core::{Board as Geometry, Cell, Player, Position, Rules, MAX_COORD};

use super::net::{line_codes, Accumulator, CODE_REACH};
use super::pattern::{self, generic_pattern, LineRule, Pattern, PatternTable, Segment, Side};
use super::threat::{
    info_score, info_threat, info_threat_index, key_pattern, with_pattern, Threat,
};
use super::weight_table::{CellTable, WeightTable};

/// Cells of margin around the stones' bounding box on the unbounded board.
pub const UNBOUNDED_MARGIN: i32 = 8;
/// The widest frame (margin included) built for the unbounded board.
pub const MAX_FRAME_SPAN: i32 = 96;
/// Lines are kept in 64-bit masks, so the reach is capped (only matters for k > 31).
const MAX_REACH: u32 = 31;

const EMPTY: u8 = 0;
const OUTSIDE: u8 = 3;
const SIDE_KEY: u64 = 0x5BD1_E995_D6E8_FEB8;

/// A fast board for searching.
#[derive(Clone)]
pub struct Board {
    k: u32,
    /// The rules the board was built for (the frame's geometry aside).
    rules: Rules,
    /// Which runs win, per player (renju: black exactly five, white five or more).
    line_rules: [LineRule; 2],
    reach: u32,
    /// Per player, the pattern table of its line rule.
    table: [Option<&'static PatternTable>; 2],
    /// Both players' patterns of a line at once, when the reach is short (see [`pair_table`]).
    pairs: Option<&'static [u8]>,
    /// The evaluation's values.
    weights: &'static WeightTable,
    /// The learnt evaluation's sums, if the table has a network (`None` too while paused).
    acc: Option<Accumulator<'static>>,
    /// Per player, the threat class and value of each key (renju values the colours apart).
    cells: [CellTable; 2],
    bounded: bool,
    /// Playable cells of the frame.
    width: i32,
    height: i32,
    pad: i32,
    stride: i32,
    /// The position's cell at frame (0, 0).
    origin: Cell,
    dir_off: [isize; 4],
    stone: Vec<u8>,
    lines: Vec<[[u64; 2]; 4]>,
    keys: Vec<[u16; 2]>,
    /// The packed threat and score of each key (see [`CellTable::info`]).
    infos: Vec<[u32; 2]>,
    near: Vec<u8>,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    score: [i32; 2],
    threat_count: [[u32; 13]; 2],
    side: usize,
    moves: Vec<u16>,
    bbox: Vec<(i32, i32, i32, i32)>,
    empties: usize,
    won: bool,
    /// Keys and infos of empty cells before [`Board::play`] changed them, for [`Board::undo`].
    undo_log: Vec<Changed>,
    /// One per move made with [`Board::play`], newest last.
    frames: Vec<Frame>,
    /// Per player, a bit per empty cell where they make at least [`HOT`]: the few cells that
    /// threat searches and forced-move generation look for, listed without a board scan.
    hot: [Vec<u64>; 2],
    /// Under renju, mnk-core's checker of black's forbidden moves, following the stones (a
    /// cell: it answers by trying stones in thought).
    forbidden: Option<RefCell<ForbiddenMoves>>,
    /// The side with forbidden moves (black under renju).
    black: usize,
}

/// The weakest threat kept in the [`Board`]'s per-player bit sets.
const HOT: Threat = Threat::Flex3;

/// An empty cell's packed patterns before a move changed them.
#[derive(Clone, Copy)]
struct Changed {
    idx: u32,
    keys: [u16; 2],
    infos: [u32; 2],
    /// Bit `p` set when player `p`'s hot bit flipped (flipping again restores it).
    flipped: u8,
}

/// What [`Board::undo`] restores besides the changed cells: the totals before the move.
#[derive(Clone, Copy)]
struct Frame {
    /// Moves on the board before this one.
    ply: usize,
    /// Length of the undo log before this move.
    log_len: usize,
    score: [i32; 2],
    threat_count: [[u32; 13]; 2],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for fy in (0..self.height).rev() {
            for fx in 0..self.width {
                let c = match self.stone[self.index(fx, fy)] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// The board for a position, with the frame chosen as the module documentation says and the
    /// shipped weight table of its rules.
    #[must_use]
    pub fn from_position(pos: &Position) -> Board {
        Board::with_weights(pos, WeightTable::for_rules(pos.rules()))
    }

    /// [`Board::from_position`] valued by `weights`.
    #[must_use]
    pub fn with_weights(pos: &Position, weights: &'static WeightTable) -> Board {
        let rules = *pos.rules();
        let (origin, width, height) = match rules.board() {
            Geometry::Bounded { width, height } => (Cell::new(0, 0), width as i32, height as i32),
            Geometry::Unbounded => unbounded_frame(pos),
        };
        let mut board = Board::empty(&rules, weights, origin, width, height);
        for (cell, player) in pos.stones() {
            if let Some(idx) = board.index_of(cell) {
                board.forget_cell(idx);
                board.put::<false>(idx, player.index());
            }
        }
        board.side = pos.to_move().index();
        board.hash = board.fresh_hash();
        board.won = false;
        board.forbidden = ForbiddenMoves::new(pos).map(RefCell::new);
        board
    }

    fn empty(
        rules: &Rules,
        weights: &'static WeightTable,
        origin: Cell,
        width: i32,
        height: i32,
    ) -> Board {
        let black = rules.first().index();
        // Colour 0 of a table is black, the side that moves first.
        let colour = |p: usize| usize::from(p != black);
        let k = rules.k();
        let line_rules = [Player::X, Player::O].map(|p| LineRule::of(rules, p));
        let reach = board_reach(rules);
        let bounded = rules.is_bounded();
        let pad = (reach as i32).max(2);
        let stride = width + 2 * pad;
        let rows = height + 2 * pad;
        let n = (stride * rows) as usize;
        let mut b = Board {
            k,
            rules: *rules,
            line_rules,
            reach,
            table: line_rules.map(pattern::table),
            pairs: pair_table(line_rules),
            weights,
            // A network reads lines CODE_REACH cells each way: five in a row and longer.
            acc: weights
                .net()
                .filter(|_| reach >= CODE_REACH)
                .map(|net| Accumulator::new(net, n)),
            cells: [0, 1].map(|p| weights.cells(colour(p))),
            bounded,
            width,
            height,
            pad,
            stride,
            origin,
            dir_off: [1, stride as isize, stride as isize + 1, 1 - stride as isize],
            stone: vec![OUTSIDE; n],
            lines: vec![[[0; 2]; 4]; n],
            keys: vec![[0; 2]; n],
            infos: vec![[0; 2]; n],
            near: vec![0; n],
            zobrist: (0..n)
                .map(|i| [mix64(2 * i as u64 + 0x1234), mix64(2 * i as u64 + 0x1235)])
                .collect(),
            hash: 0,
            score: [0; 2],
            threat_count: [[0; 13]; 2],
            side: 0,
            moves: Vec::new(),
            bbox: Vec::new(),
            empties: (width * height) as usize,
            won: false,
            undo_log: Vec::new(),
            frames: Vec::new(),
            hot: [vec![0; n.div_ceil(64)], vec![0; n.div_ceil(64)]],
            forbidden: None,
            black,
        };
        for fy in 0..height {
            for fx in 0..width {
                let i = b.index(fx, fy);
                b.stone[i] = EMPTY;
            }
        }
        {
            // Walls: every cell outside the board (or the frame) is a stone of both players in
            // the lines of the cells that can see it.
            for fy in -pad..height + pad {
                for fx in -pad..width + pad {
                    if fx >= 0 && fx < width && fy >= 0 && fy < height {
                        continue;
                    }
                    b.mark(fx, fy, 0, true);
                    b.mark(fx, fy, 1, true);
                }
            }
        }
        for fy in 0..height {
            for fx in 0..width {
                let i = b.index(fx, fy);
                b.refresh_cell(i);
            }
        }
        b
    }

    /// Sets (or clears) `player`'s bit for the cell at frame (fx, fy) in the lines of every cell
    /// within reach that lies inside the array (used for walls).
    fn mark(&mut self, fx: i32, fy: i32, player: usize, on: bool) {
        let r = self.reach as i32;
        for (d, &(dx, dy)) in mnk_core::DIRECTIONS.iter().enumerate() {
            for i in -r..=r {
                if i == 0 {
                    continue;
                }
                let (cx, cy) = (fx + dx * i, fy + dy * i);
                if cx < -self.pad
                    || cy < -self.pad
                    || cx >= self.width + self.pad
                    || cy >= self.height + self.pad
                {
                    continue;
                }
                let c = self.index(cx, cy);
                // The cell c sees (fx, fy) at offset -i.
                let bit = 1u64 << (r - i);
                if on {
                    self.lines[c][d][player] |= bit;
                } else {
                    self.lines[c][d][player] &= !bit;
                }
            }
        }
    }

    #[inline]
    fn index(&self, fx: i32, fy: i32) -> usize {
        ((fy + self.pad) * self.stride + fx + self.pad) as usize
    }

    /// The array index of a cell of the position, if it is a playable cell of the frame.
    #[must_use]
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        let (fx, fy) = (
            i64::from(cell.x) - i64::from(self.origin.x),
            i64::from(cell.y) - i64::from(self.origin.y),
        );
        (fx >= 0 && fy >= 0 && fx < i64::from(self.width) && fy < i64::from(self.height))
            .then(|| self.index(fx as i32, fy as i32))
    }

    /// The position's cell at an array index.
    #[must_use]
    pub fn cell_of(&self, idx: usize) -> Cell {
        let i = idx as i32;
        let fx = i % self.stride - self.pad;
        let fy = i / self.stride - self.pad;
        Cell::new(self.origin.x + fx, self.origin.y + fy)
    }

    /// Frame coordinates of an index (for tie-breaking by cell: row, then column).
    #[inline]
    #[must_use]
    pub fn order_key(&self, idx: usize) -> u32 {
        idx as u32
    }

    /// k of the rules.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of array slots (indices are below this).
    #[must_use]
    pub fn slots(&self) -> usize {
        self.stone.len()
    }

    /// The side to move (0 = X, 1 = O).
    #[inline]
    #[must_use]
    pub fn side(&self) -> usize {
        self.side
    }

    /// The player to move.
    #[must_use]
    pub fn to_move(&self) -> Player {
        if self.side == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    /// The hash of the stones and side to move.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones placed since the board was built, plus those it was built with.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether the last move won.
    #[inline]
    #[must_use]
    pub fn last_move_won(&self) -> bool {
        self.won
    }

    /// Whether a bounded board is full.
    #[inline]
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.bounded && self.empties == 0
    }

    /// Whether the cell at `idx` is empty and playable.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, idx: usize) -> bool {
        self.stone[idx] == EMPTY
    }

    /// The stone at `idx`: 0 empty, 1 X, 2 O, 3 outside.
    #[inline]
    #[must_use]
    pub fn stone(&self, idx: usize) -> u8 {
        self.stone[idx]
    }

    /// The threat `player` makes by playing the empty cell `idx`.
    #[inline]
    #[must_use]
    pub fn threat(&self, idx: usize, player: usize) -> Threat {
        info_threat(self.infos[idx][player])
    }

    /// The packed pattern key of `player` at the empty cell `idx`.
    #[inline]
    #[must_use]
    pub fn key(&self, idx: usize, player: usize) -> u16 {
        self.keys[idx][player]
    }

    /// The line codes the network reads at cell `idx`: per direction, X's and O's (see
    /// [`line_codes`]); all 0 on a board whose lines reach less than [`CODE_REACH`] cells (k
    /// below five, where no network plays).
    #[must_use]
    pub fn line_codes(&self, idx: usize) -> [[u16; 2]; 4] {
        if self.reach < CODE_REACH {
            return [[0; 2]; 4];
        }
        std::array::from_fn(|d| line_codes(self.lines[idx][d], self.reach))
    }

    /// The evaluation score of `player` at the empty cell `idx`.
    #[inline]
    #[must_use]
    pub fn cell_score(&self, idx: usize, player: usize) -> i32 {
        info_score(self.infos[idx][player])
    }

    /// How many empty cells give `player` the threat class `t`.
    #[inline]
    #[must_use]
    pub fn threat_count(&self, player: usize, t: Threat) -> u32 {
        self.threat_count[player][t as usize]
    }

    /// How many empty cells give `player` at least the threat class `t`.
    #[inline]
    #[must_use]
    pub fn threats_at_least(&self, player: usize, t: Threat) -> u32 {
        self.threat_count[player][t as usize..].iter().sum()
    }

    /// The evaluation's values this board sums.
    #[inline]
    #[must_use]
    pub fn weights(&self) -> &'static WeightTable {
        self.weights
    }

    /// The sum of `player`'s cell scores over the empty cells.
    #[inline]
    #[must_use]
    pub fn score_sum(&self, player: usize) -> i32 {
        self.score[player]
    }

    /// Stops following the network (no pool updates) until [`Board::resume_net`]: for threat
    /// searches, which play many moves and evaluate none. Every move played meanwhile must be
    /// taken back before resuming, so the pools are those of before the pause.
    #[must_use]
    pub fn pause_net(&mut self) -> Option<Accumulator<'static>> {
        self.acc.take()
    }

    /// Follows the network again after [`Board::pause_net`] (give it what that returned).
    pub fn resume_net(&mut self, acc: Option<Accumulator<'static>>) {
        self.acc = acc;
    }

    /// The learnt evaluation of the side to move, if the board's table has a network.
    #[inline]
    #[must_use]
    pub fn net_eval(&self) -> Option<i32> {
        Some(self.acc.as_ref()?.evaluate(self.side))
    }

    /// The moves played on this board (array indices), oldest first.
    #[must_use]
    pub fn moves(&self) -> &[u16] {
        &self.moves
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<usize> {
        self.moves.last().map(|&m| usize::from(m))
    }

    /// Whether some stone lies within two cells of `idx`.
    #[inline]
    #[must_use]
    pub fn is_near(&self, idx: usize) -> bool {
        self.near[idx] > 0
    }

    /// The array index one step from `idx` in direction `d` (0..4), `steps` times.
    #[inline]
    #[must_use]
    pub fn step(&self, idx: usize, d: usize, steps: isize) -> usize {
        (idx as isize + self.dir_off[d] * steps) as usize
    }

    /// The reach of the line patterns.
    #[must_use]
    pub fn reach(&self) -> u32 {
        self.reach
    }

    /// Empty cells within two of a stone, inside the stones' bounding box grown by two; on an
    /// empty board the centre of the frame. Appended in index order (row, then column).
    pub fn candidates(&self, out: &mut Vec<usize>) {
        let Some(&(x0, y0, x1, y1)) = self.bbox.last() else {
            out.push(self.index(self.width / 2, self.height / 2));
            return;
        };
        let (x0, y0) = ((x0 - 2).max(0), (y0 - 2).max(0));
        let (x1, y1) = ((x1 + 2).min(self.width - 1), (y1 + 2).min(self.height - 1));
        for fy in y0..=y1 {
            let row = self.index(0, fy);
            for fx in x0..=x1 {
                let i = row + fx as usize;
                if self.stone[i] == EMPTY && self.near[i] > 0 {
                    out.push(i);
                }
            }
        }
    }

    /// Every empty cell where `player` has at least threat `t`, in index order.
    pub fn cells_with(&self, player: usize, t: Threat, out: &mut Vec<usize>) {
        if self.threats_at_least(player, t) == 0 {
            return;
        }
        if t >= HOT {
            for (w, &word) in self.hot[player].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if self.threat(i, player) >= t {
                        out.push(i);
                    }
                }
            }
            return;
        }
        let Some(&(x0, y0, x1, y1)) = self.bbox.last() else {
            return;
        };
        let r = self.reach as i32;
        let (x0, y0) = ((x0 - r).max(0), (y0 - r).max(0));
        let (x1, y1) = ((x1 + r).min(self.width - 1), (y1 + r).min(self.height - 1));
        for fy in y0..=y1 {
            let row = self.index(0, fy);
            for fx in x0..=x1 {
                let i = row + fx as usize;
                if self.stone[i] == EMPTY && self.threat(i, player) >= t {
                    out.push(i);
                }
            }
        }
    }

    /// Whether `player` has forbidden moves (black under renju).
    #[inline]
    #[must_use]
    pub fn has_forbidden(&self, player: usize) -> bool {
        self.forbidden.is_some() && player == self.black
    }

    /// Whether `player` may not play the empty cell `idx`: renju's black on a forbidden point.
    /// Only cells where black's lines could make a forbidden shape (two fours or threes, an
    /// open four, which may be two fours in one line, or six in a row) and no five are asked
    /// of mnk-core's checker, so the question costs a few look-ups almost everywhere.
    #[inline]
    #[must_use]
    pub fn forbids(&self, idx: usize, player: usize) -> bool {
        match &self.forbidden {
            Some(check) if player == self.black => {
                self.may_be_forbidden(idx) && check.borrow_mut().kind(self.cell_of(idx)).is_some()
            }
            _ => false,
        }
    }

    /// The cheap filter of [`Board::forbids`]: false only where black's stone on `idx`
    /// certainly makes no forbidden shape.
    fn may_be_forbidden(&self, idx: usize) -> bool {
        let key = self.keys[idx][self.black];
        let lines = [0, 1, 2, 3].map(|d| key_pattern(key, d));
        let count = |p: Pattern| lines.iter().filter(|&&q| q == p).count();
        if count(Pattern::Five) > 0 {
            return false; // a five wins, whatever else the move makes
        }
        count(Pattern::F4) > 0
            || count(Pattern::B4) >= 2
            || count(Pattern::F3) >= 2
            || self.makes_overline(idx)
    }

    /// Whether black's stone on `idx` makes more than k in a row.
    fn makes_overline(&self, idx: usize) -> bool {
        let r = self.reach;
        let b = self.black;
        self.lines[idx].iter().any(|masks| {
            let own = masks[b] & !masks[1 - b];
            let right = (own >> (r + 1)).trailing_ones().min(r);
            let left = (own << (64 - r)).leading_ones().min(r);
            1 + left + right > self.k
        })
    }

    /// Whether `player` can make at least threat `t` on a cell they may play.
    #[inline]
    #[must_use]
    pub fn has_playable_threat(&self, player: usize, t: Threat) -> bool {
        self.threats_at_least(player, t) > 0
            && (!self.has_forbidden(player) || self.has_threat_off_forbidden(player, t))
    }

    /// [`Board::has_playable_threat`] for a player with forbidden points: looks at the cells.
    fn has_threat_off_forbidden(&self, player: usize, t: Threat) -> bool {
        let mut cells = Vec::new();
        self.cells_with(player, t, &mut cells);
        cells.iter().any(|&c| !self.forbids(c, player))
    }

    /// Whether `player` can make a four whose five point the opponent may not play: under
    /// renju, white's four aimed at one of black's forbidden points, as sure a win as an open
    /// four (black cannot block, and has no five to play first when the caller has checked).
    #[inline]
    #[must_use]
    pub fn has_unblockable_four(&self, player: usize) -> bool {
        self.has_forbidden(1 - player) && self.has_four_at_forbidden(player)
    }

    /// [`Board::has_unblockable_four`] once the opponent has forbidden points.
    fn has_four_at_forbidden(&self, player: usize) -> bool {
        if self.threats_at_least(player, Threat::Block4) == 0 {
            return false;
        }
        let mut cells = Vec::new();
        self.cells_with(player, Threat::Block4, &mut cells);
        cells
            .into_iter()
            .any(|c| self.four_aims_at_forbidden(c, player))
    }

    /// Whether `player`'s stone on `c` makes a four (in some line) whose five point is
    /// forbidden to the opponent once that stone stands.
    fn four_aims_at_forbidden(&self, c: usize, player: usize) -> bool {
        let Some(check) = &self.forbidden else {
            return false;
        };
        let key = self.keys[c][player];
        let points: Vec<usize> = (0..4)
            .filter(|&d| key_pattern(key, d) == Pattern::B4)
            .filter_map(|d| self.five_point(c, d, player))
            .collect();
        if points.is_empty() {
            return false;
        }
        let stone = if player == 0 { Player::X } else { Player::O };
        let mut check = check.borrow_mut();
        check.set(self.cell_of(c), Some(stone));
        // The white stone only takes from black's lines, so the filter still holds.
        let aimed = points
            .iter()
            .any(|&e| self.may_be_forbidden(e) && check.kind(self.cell_of(e)).is_some());
        check.set(self.cell_of(c), None);
        aimed
    }

    /// The empty cell along direction `d` that completes `player`'s winning run together with
    /// a stone of theirs on the empty cell `c`, if any.
    fn five_point(&self, c: usize, d: usize, player: usize) -> Option<usize> {
        let own = player as u8 + 1;
        let k = self.k as isize;
        let run_through = |e: usize| {
            let counts = |sign: isize| {
                (1..)
                    .map(|i| self.step(e, d, sign * i))
                    .take_while(|&i| i == c || self.stone[i] == own)
                    .count() as u32
            };
            1 + counts(1) + counts(-1)
        };
        (-k..=k)
            .filter(|&i| i != 0)
            .map(|i| self.step(c, d, i))
            .find(|&e| self.stone[e] == EMPTY && self.line_rules[player].wins(run_through(e), 0))
    }

    /// The first cell (in index order) where `player` makes a five, if any.
    #[must_use]
    pub fn five_cell(&self, player: usize) -> Option<usize> {
        if self.threat_count(player, Threat::Five) == 0 {
            return None;
        }
        let mut cells = Vec::new();
        self.cells_with(player, Threat::Five, &mut cells);
        cells.first().copied()
    }

    /// Plays the empty cell `idx` for the side to move.
    pub fn play(&mut self, idx: usize) {
        debug_assert_eq!(self.stone[idx], EMPTY, "play on a non-empty cell");
        let p = self.side;
        debug_assert!(!self.forbids(idx, p), "a forbidden move played");
        self.won = self.threat(idx, p) == Threat::Five;
        self.frames.push(Frame {
            ply: self.moves.len(),
            log_len: self.undo_log.len(),
            score: self.score,
            threat_count: self.threat_count,
        });
        if let Some(acc) = &mut self.acc {
            acc.begin_move();
        }
        self.forget_cell(idx);
        self.put::<true>(idx, p);
        self.hash ^= self.zobrist[idx][p] ^ SIDE_KEY;
        self.side = 1 - p;
        debug_assert!(self.consistent());
    }

    /// Places a stone of `p` and updates everything but the side and hash; with `LOG`, the
    /// cells it changes are remembered for [`Board::undo`].
    fn put<const LOG: bool>(&mut self, idx: usize, p: usize) {
        let r = self.reach as isize;
        self.stone[idx] = p as u8 + 1;
        // The new masks go to `refresh_dir` in registers, each half computed on its own:
        // writing one half by index and reading the pair back from memory would stall.
        let (sel0, sel1) = if p == 0 { (u64::MAX, 0) } else { (0, u64::MAX) };
        for d in 0..4 {
            let off = self.dir_off[d];
            for i in 1..=r {
                let a = (idx as isize + off * i) as usize;
                let [l0, l1] = self.lines[a][d];
                let bit = 1u64 << (r - i);
                let line = [l0 | (bit & sel0), l1 | (bit & sel1)];
                let cell = &mut self.lines[a][d];
                cell[0] = line[0];
                cell[1] = line[1];
                if self.stone[a] == EMPTY {
                    self.refresh_dir::<LOG>(a, d, line);
                }
                let b = (idx as isize - off * i) as usize;
                let [l0, l1] = self.lines[b][d];
                let bit = 1u64 << (r + i);
                let line = [l0 | (bit & sel0), l1 | (bit & sel1)];
                let cell = &mut self.lines[b][d];
                cell[0] = line[0];
                cell[1] = line[1];
                if self.stone[b] == EMPTY {
                    self.refresh_dir::<LOG>(b, d, line);
                }
            }
        }
        self.bump_near(idx, 1);
        if let Some(check) = &self.forbidden {
            let player = if p == 0 { Player::X } else { Player::O };
            check.borrow_mut().set(self.cell_of(idx), Some(player));
        }
        let (fx, fy) = self.frame_xy(idx);
        let bb = match self.bbox.last() {
            Some(&(x0, y0, x1, y1)) => (x0.min(fx), y0.min(fy), x1.max(fx), y1.max(fy)),
            None => (fx, fy, fx, fy),
        };
        self.bbox.push(bb);
        self.moves.push(idx as u16);
        self.empties -= 1;
        if let Some(acc) = &mut self.acc {
            acc.settle();
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let Some(m) = self.moves.pop() else {
            return;
        };
        let idx = usize::from(m);
        self.bbox.pop();
        self.empties += 1;
        self.side = 1 - self.side;
        let p = self.side;
        self.hash ^= self.zobrist[idx][p] ^ SIDE_KEY;
        self.stone[idx] = EMPTY;
        if let Some(check) = &self.forbidden {
            check.borrow_mut().set(self.cell_of(idx), None);
        }
        let r = self.reach as isize;
        if self
            .frames
            .last()
            .is_some_and(|f| f.ply == self.moves.len())
        {
            // Made by `play`: clear the masks and restore what the move changed. The cell's
            // own key and info were left untouched while it held the stone.
            let frame = self.frames.pop().expect("checked");
            for d in 0..4 {
                let off = self.dir_off[d];
                for i in 1..=r {
                    let a = (idx as isize + off * i) as usize;
                    self.lines[a][d][p] &= !(1 << (r - i));
                    let b = (idx as isize - off * i) as usize;
                    self.lines[b][d][p] &= !(1 << (r + i));
                }
            }
            for c in self.undo_log.drain(frame.log_len..).rev() {
                let i = c.idx as usize;
                self.keys[i] = c.keys;
                self.infos[i] = c.infos;
                if c.flipped != 0 {
                    let bit = 1u64 << (i % 64);
                    for p in 0..2 {
                        if c.flipped & (1 << p) != 0 {
                            self.hot[p][i / 64] ^= bit;
                        }
                    }
                }
            }
            self.mark_hot(idx);
            self.score = frame.score;
            self.threat_count = frame.threat_count;
            if let Some(acc) = &mut self.acc {
                acc.undo_move();
            }
            self.bump_near(idx, -1);
            self.won = false;
            debug_assert!(self.consistent());
            return;
        }
        for d in 0..4 {
            let off = self.dir_off[d];
            for i in 1..=r {
                let a = (idx as isize + off * i) as usize;
                self.lines[a][d][p] &= !(1 << (r - i));
                if self.stone[a] == EMPTY {
                    self.refresh_dir::<false>(a, d, self.lines[a][d]);
                }
                let b = (idx as isize - off * i) as usize;
                self.lines[b][d][p] &= !(1 << (r + i));
                if self.stone[b] == EMPTY {
                    self.refresh_dir::<false>(b, d, self.lines[b][d]);
                }
            }
        }
        self.bump_near(idx, -1);
        self.refresh_cell(idx);
        if let Some(acc) = &mut self.acc {
            acc.settle();
        }
        self.won = false;
        debug_assert!(self.consistent());
    }

    /// Passes the move to the other side (for threat searches that ask "what if I do nothing").
    pub fn pass(&mut self) {
        self.side = 1 - self.side;
        self.hash ^= SIDE_KEY;
    }

    fn frame_xy(&self, idx: usize) -> (i32, i32) {
        let i = idx as i32;
        (i % self.stride - self.pad, i / self.stride - self.pad)
    }

    fn bump_near(&mut self, idx: usize, delta: i8) {
        let s = self.stride as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let c = (idx as isize + dy * s + dx) as usize;
                self.near[c] = self.near[c].wrapping_add_signed(delta);
            }
        }
    }

    /// Removes an empty cell's scores and threat counts before it is taken.
    fn forget_cell(&mut self, idx: usize) {
        let (w, bit) = (idx / 64, 1u64 << (idx % 64));
        self.hot[0][w] &= !bit;
        self.hot[1][w] &= !bit;
        if let Some(acc) = &mut self.acc {
            acc.remove_cell(idx, self.keys[idx]);
        }
        for p in 0..2 {
            let info = self.infos[idx][p];
            self.score[p] -= info_score(info);
            self.threat_count[p][info_threat_index(info)] -= 1;
        }
    }

    /// Recomputes all four directions of an empty cell from scratch (its key must be zeroed or
    /// counted already: this adds its contribution).
    fn refresh_cell(&mut self, idx: usize) {
        for p in 0..2 {
            let mut key = 0u16;
            for d in 0..4 {
                key = with_pattern(key, d, self.line_pattern(self.lines[idx][d], p));
            }
            let info = self.cells[p].info(key);
            self.keys[idx][p] = key;
            self.infos[idx][p] = info;
            self.score[p] += info_score(info);
            self.threat_count[p][info_threat_index(info)] += 1;
        }
        let codes = match &self.acc {
            Some(acc) if acc.reads_codes() => self.line_codes(idx),
            _ => [[0; 2]; 4],
        };
        if let Some(acc) = &mut self.acc {
            acc.add_cell(idx, self.keys[idx], codes);
        }
        self.mark_hot(idx);
    }

    /// Sets the hot bits of the empty cell `idx` from its infos.
    #[inline]
    fn mark_hot(&mut self, idx: usize) {
        let (w, bit) = (idx / 64, 1u64 << (idx % 64));
        for p in 0..2 {
            if info_threat_index(self.infos[idx][p]) >= HOT as usize {
                self.hot[p][w] |= bit;
            } else {
                self.hot[p][w] &= !bit;
            }
        }
    }

    #[inline]
    fn refresh_dir<const LOG: bool>(&mut self, idx: usize, d: usize, line: [u64; 2]) {
        if LOG {
            self.undo_log.push(Changed {
                idx: idx as u32,
                keys: self.keys[idx],
                infos: self.infos[idx],
                flipped: 0,
            });
        }
        let pair = match self.pairs {
            Some(t) => t[pair_index(line, self.reach)],
            None => self.line_pattern(line, 0) as u8 | (self.line_pattern(line, 1) as u8) << 4,
        };
        let shift = 4 * d;
        let old_keys = self.keys[idx];
        for p in 0..2 {
            let old = self.keys[idx][p];
            let new = (old & !(0xF << shift)) | (u16::from((pair >> (4 * p)) & 0xF) << shift);
            if new != old {
                let old_info = self.infos[idx][p];
                let new_info = self.cells[p].info(new);
                self.keys[idx][p] = new;
                self.infos[idx][p] = new_info;
                self.score[p] += info_score(new_info) - info_score(old_info);
                self.threat_count[p][info_threat_index(old_info)] -= 1;
                self.threat_count[p][info_threat_index(new_info)] += 1;
                let hot = HOT as usize;
                if (info_threat_index(old_info) >= hot) != (info_threat_index(new_info) >= hot) {
                    self.hot[p][idx / 64] ^= 1u64 << (idx % 64);
                    if LOG {
                        if let Some(c) = self.undo_log.last_mut() {
                            c.flipped |= 1 << p;
                        }
                    }
                }
            }
        }
        if let Some(acc) = &mut self.acc {
            let codes = if acc.reads_codes() {
                line_codes(line, self.reach)
            } else {
                [0; 2]
            };
            if self.keys[idx] != old_keys || codes != acc.codes(idx, d) {
                acc.change(idx, d, old_keys, self.keys[idx], codes, LOG);
            }
        }
    }

    /// The pattern `p` makes on a cell whose line masks are `line`.
    #[inline]
    fn line_pattern(&self, line: [u64; 2], p: usize) -> Pattern {
        line_pattern(line, p, self.reach, self.table[p], self.line_rules[p])
    }

    fn fresh_hash(&self) -> u64 {
        let mut h = if self.side == 1 { SIDE_KEY } else { 0 };
        for &m in &self.moves {
            let i = usize::from(m);
            h ^= self.zobrist[i][usize::from(self.stone[i]) - 1];
        }
        h
    }

    /// Whether the incremental state equals a fresh computation from the stones (slow; for
    /// debug assertions and tests). Only checked on small boards in debug builds.
    #[must_use]
    pub fn consistent(&self) -> bool {
        if cfg!(debug_assertions) && self.width * self.height > 100 {
            return true;
        }
        self.matches_fresh()
    }

    /// Whether masks, keys, counts, sums and hash equal those of a board rebuilt from scratch.
    #[must_use]
    pub fn matches_fresh(&self) -> bool {
        let mut fresh = self.rebuilt();
        fresh.side = self.side;
        fresh.hash = fresh.fresh_hash();
        for fy in 0..self.height {
            for fx in 0..self.width {
                let i = self.index(fx, fy);
                if self.lines[i] != fresh.lines[i] {
                    return false;
                }
                if self.stone[i] == EMPTY
                    && (self.keys[i] != fresh.keys[i] || self.infos[i] != fresh.infos[i])
                {
                    return false;
                }
                if (self.near[i] > 0) != (fresh.near[i] > 0) {
                    return false;
                }
            }
        }
        self.score == fresh.score
            && self.same_network_sums(&fresh)
            && self.hot == fresh.hot
            && self.threat_count == fresh.threat_count
            && self.hash == fresh.hash
            && self.bbox.last() == fresh.bbox.last()
    }

    /// Whether the network's pools and the empty cells' vectors equal `fresh`'s (true while
    /// the network is paused or absent).
    fn same_network_sums(&self, fresh: &Board) -> bool {
        let (Some(acc), Some(other)) = (&self.acc, &fresh.acc) else {
            return true;
        };
        acc.pools() == other.pools()
            && (0..self.slots())
                .filter(|&i| self.stone[i] == EMPTY)
                .all(|i| acc.pre_of(i) == other.pre_of(i) && acc.codes_of(i) == other.codes_of(i))
    }

    fn rebuilt(&self) -> Board {
        let mut b = Board::empty(
            &Rules::new(
                if self.bounded {
                    Geometry::Bounded {
                        width: self.width as u32,
                        height: self.height as u32,
                    }
                } else {
                    Geometry::Unbounded
                },
                self.k,
                self.rules.win(),
                self.rules.first(),
            )
            .expect("rules of an existing board"),
            self.weights,
            self.origin,
            self.width,
            self.height,
        );
        for &m in &self.moves {
            let i = usize::from(m);
            let p = usize::from(self.stone[i]) - 1;
            b.forget_cell(i);
            b.put::<false>(i, p);
        }
        b
    }
}

/// The pattern `p` makes on a cell whose line masks are `line` (bit `r` is the cell itself,
/// lower bits one side, higher bits the other), under `p`'s line rule, from the pattern table
/// when there is one. A rule that needs less reach than the board's (renju's white) reads the
/// masks narrowed to its own.
fn line_pattern(
    line: [u64; 2],
    p: usize,
    r: u32,
    table: Option<&PatternTable>,
    rule: LineRule,
) -> Pattern {
    let narrow = rule.reach().min(r);
    let shift = r - narrow;
    let r = narrow;
    let span = (1u64 << (2 * r + 1)) - 1;
    let (mine, theirs) = ((line[p] >> shift) & span, (line[1 - p] >> shift) & span);
    // Walls are in both masks: own stones are in mine only, the opponent's in theirs only.
    let own = mine & !theirs;
    let blk = theirs;
    let opponent = theirs & !mine;
    let m = (1u64 << r) - 1;
    let rb = (blk >> (r + 1)) & m;
    let ro = (own >> (r + 1)) & m;
    let rlen = rb.trailing_zeros().min(r);
    let lb = blk & m;
    let lo = own & m;
    let llen = if lb == 0 {
        r
    } else {
        r - 1 - (63 - lb.leading_zeros())
    };
    // Whether the blocker just past each side is an opponent's stone (caro's closed ends).
    let closes = rule.closed_loses;
    let rclosed = closes && rlen < r && (opponent >> (r + 1 + rlen)) & 1 == 1;
    let lclosed = closes && llen < r && (opponent >> (r - 1 - llen)) & 1 == 1;
    if let Some(t) = table {
        let rcode = (ro & ((1u64 << rlen) - 1)) | (1u64 << rlen);
        let lcode = (lo >> (r - llen)) | (1u64 << llen);
        t.get(t.index_of_codes(lcode, rcode, lclosed, rclosed))
    } else {
        let mut left = 0u64;
        for d in 1..=llen {
            if lo & (1 << (r - d)) != 0 {
                left |= 1 << (d - 1);
            }
        }
        let seg = Segment {
            left: Side {
                len: llen,
                own: left,
                closed: lclosed,
            },
            right: Side {
                len: rlen,
                own: ro & ((1u64 << rlen) - 1),
                closed: rclosed,
            },
        };
        generic_pattern(seg, rule)
    }
}

/// How far the board's line masks reach: the longer of the two players' rules (capped).
fn board_reach(rules: &Rules) -> u32 {
    [Player::X, Player::O]
        .map(|p| LineRule::of(rules, p).reach())
        .into_iter()
        .max()
        .unwrap_or(1)
        .min(MAX_REACH)
}

/// The longest reach with a pair table (4^(2 × reach) entries: a megabyte at reach 5).
const PAIR_MAX_REACH: u32 = 5;

/// The index of a line in the pair table: both masks without the centre bit, X's below O's.
#[inline]
fn pair_index(line: [u64; 2], r: u32) -> usize {
    let lo = (1u64 << r) - 1;
    let squeeze = |m: u64| (m & lo) | ((m >> (r + 1)) << r);
    (squeeze(line[0]) | (squeeze(line[1]) << (2 * r))) as usize
}

/// Line rules with tables per k (see [`pattern::table_slot`]).
const PAIR_RULES: usize = 4;

static PAIR_TABLES: [OnceLock<Vec<u8>>; 6 * PAIR_RULES * PAIR_RULES] =
    [const { OnceLock::new() }; 6 * PAIR_RULES * PAIR_RULES];

/// For short reaches, a table from both players' line masks to both patterns (X's in the low
/// nibble), built from [`line_pattern`] on first use: one lookup per line instead of two
/// decodings. `None` for longer reaches or k without a pattern table.
fn pair_table(rules: [LineRule; 2]) -> Option<&'static [u8]> {
    let tables = [pattern::table(rules[0])?, pattern::table(rules[1])?];
    let r = rules[0].reach().max(rules[1].reach());
    if r > PAIR_MAX_REACH {
        return None;
    }
    let (x, o) = (
        pattern::table_slot(rules[0])?,
        pattern::table_slot(rules[1])?,
    );
    let slot = &PAIR_TABLES[x * PAIR_RULES + o % PAIR_RULES];
    let built = slot.get_or_init(|| {
        let lo = (1u64 << r) - 1;
        let spread = |c: u64| (c & lo) | ((c >> r) << (r + 1));
        let half = 1u64 << (2 * r);
        (0..half * half)
            .map(|i| {
                let line = [spread(i & (half - 1)), spread(i >> (2 * r))];
                debug_assert_eq!(pair_index(line, r) as u64, i);
                line_pattern(line, 0, r, Some(tables[0]), rules[0]) as u8
                    | (line_pattern(line, 1, r, Some(tables[1]), rules[1]) as u8) << 4
            })
            .collect()
    });
    Some(built)
}

/// The frame for the unbounded board: origin, width and height.
fn unbounded_frame(pos: &Position) -> (Cell, i32, i32) {
    let rules = pos.rules();
    let reach = board_reach(rules) as i32;
    let m = UNBOUNDED_MARGIN.max(reach + 1);
    let (lo, hi) = pos
        .stone_bounds()
        .unwrap_or((Cell::new(0, 0), Cell::new(0, 0)));
    let last = pos.last_move().unwrap_or(lo);
    let span = |lo: i32, hi: i32, centre: i32| -> (i32, i32) {
        let (from, to) = if hi - lo + 1 + 2 * m <= MAX_FRAME_SPAN {
            (lo - m, hi + m)
        } else {
            let from = centre - MAX_FRAME_SPAN / 2;
            (from, from + MAX_FRAME_SPAN - 1)
        };
        // Past the coordinate limit there is no board: the frame's wall stands at the limit.
        let (from, to) = (from.max(-MAX_COORD), to.min(MAX_COORD));
        (from, to - from + 1)
    };
    let (x0, w) = span(lo.x, hi.x, last.x);
    let (y0, h) = span(lo.y, hi.y, last.y);
    (Cell::new(x0, y0), w, h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::net::Net;
    use crate::Rng;

    #[test]
    fn incremental_equals_fresh_after_random_play_and_undo() {
        for rules in [
            "9x9x5",
            "9x9x5,exact",
            "8x7x4",
            "10x10x6,exact",
            "7x7x3",
            "12x12x10",
            "9x9x5,renju",
            "9x9x5,caro",
        ] {
            let rules: Rules = rules.parse().unwrap();
            let mut rng = Rng::seeded(3);
            let mut board = Board::from_position(&Position::new(rules));
            for step in 0..300 {
                let mut cands = Vec::new();
                board.candidates(&mut cands);
                cands.retain(|&c| !board.forbids(c, board.side()));
                if board.ply() > 0 && (cands.is_empty() || rng.below(3) == 0 || board.won) {
                    board.undo();
                } else if let Some(m) = rng.pick(&cands) {
                    board.play(m);
                }
                assert!(board.matches_fresh(), "{rules} step {step}\n{board:?}");
            }
        }
    }

    #[test]
    fn line_codes_need_the_reach_of_five() {
        let played = |rules: &str| {
            let rules: Rules = rules.parse().unwrap();
            let mut board = Board::from_position(&Position::new(rules));
            board.play(board.index_of(Cell::new(4, 4)).unwrap());
            board.line_codes(board.index_of(Cell::new(5, 4)).unwrap())
        };
        // Four in a row reaches three cells: no codes (and no network). Five reads X's stone
        // next to the cell in the row (direction 0) and an empty line in the column.
        assert_eq!(played("9x9x4"), [[0; 2]; 4]);
        let codes = played("9x9x5");
        assert_ne!(codes[0][0], codes[1][0]);
        assert_eq!(codes[1][0], codes[1][1]);
    }

    #[test]
    fn a_network_s_pools_follow_play_and_undo() {
        let net: &'static Net = Box::leak(Box::new(Net::random(5)));
        for rules in ["9x9x5", "15x15x5", "9x9x5,renju"] {
            let rules: Rules = rules.parse().unwrap();
            let table = Box::leak(Box::new(
                WeightTable::new(WeightTable::for_rules(&rules).weights().clone())
                    .with_net(Some(net)),
            ));
            let mut rng = Rng::seeded(7);
            let mut board = Board::with_weights(&Position::new(rules), table);
            let mut evals = Vec::new();
            for step in 0..200 {
                let mut cands = Vec::new();
                board.candidates(&mut cands);
                cands.retain(|&c| !board.forbids(c, board.side()));
                if board.ply() > 0 && (cands.is_empty() || rng.below(3) == 0 || board.won) {
                    board.undo();
                    evals.pop();
                    // Taken back: the evaluation of before the move.
                    assert_eq!(board.net_eval(), evals.last().copied().flatten());
                } else if let Some(m) = rng.pick(&cands) {
                    board.play(m);
                    evals.push(board.net_eval());
                }
                assert!(board.matches_fresh(), "{rules} step {step}\n{board:?}");
            }
        }
    }

    #[test]
    fn forbidden_points_are_mnk_cores() {
        // Random renju games (black never on a forbidden point): at every step the board's
        // cheap filter and mnk-core's checker must name exactly the points mnk-core names.
        let rules: Rules = "15x15x5,renju".parse().unwrap();
        let mut rng = Rng::seeded(9);
        let mut forbidden_seen = 0;
        for _game in 0..12 {
            let mut pos = Position::new(rules);
            let mut board = Board::from_position(&pos);
            while !pos.is_over() && pos.ply() < 120 {
                let black = rules.first().index();
                let expected = pos.forbidden_cells();
                forbidden_seen += expected.len();
                for c in rules.cells().filter(|&c| pos.is_free(c)) {
                    let i = board.index_of(c).unwrap();
                    assert_eq!(board.forbids(i, black), expected.contains(&c), "{c}\n{pos}");
                    assert!(!board.forbids(i, 1 - black));
                }
                // Crowded play near the stones, where forbidden shapes arise.
                let mut cands = Vec::new();
                board.candidates(&mut cands);
                cands.retain(|&c| !board.forbids(c, board.side()));
                let Some(m) = rng.pick(&cands) else { break };
                pos.play(board.cell_of(m));
                board.play(m);
            }
        }
        assert!(
            forbidden_seen > 20,
            "only {forbidden_seen} forbidden points met"
        );
    }

    #[test]
    fn a_white_four_aimed_at_a_forbidden_point_is_unblockable() {
        // h8 is a double-three for black; white's h12 makes a four whose only five point is h8.
        let rules: Rules = "15x15x5,renju".parse().unwrap();
        let black: Vec<Cell> = ["f8", "g8", "g7", "f6", "h13", "h7", "a1"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let white: Vec<Cell> = ["h9", "h10", "h11", "o1", "o3", "o15"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let pos = Position::from_stones(rules, &black, &white).unwrap();
        let board = Board::from_position(&pos);
        assert!(board.has_unblockable_four(1));
        assert!(!board.has_unblockable_four(0));
        let free = Position::from_stones("15x15x5".parse().unwrap(), &black, &white).unwrap();
        assert!(!Board::from_position(&free).has_unblockable_four(1));
    }

    #[test]
    fn unbounded_frame_follows_the_stones() {
        let rules: Rules = "infx5".parse().unwrap();
        let pos = Position::from_moves(
            rules,
            &["0,0", "1,1", "-3,2"].map(|c| c.parse::<Cell>().unwrap()),
        )
        .unwrap();
        let board = Board::from_position(&pos);
        assert_eq!(board.width, 5 + 2 * UNBOUNDED_MARGIN);
        assert_eq!(board.height, 3 + 2 * UNBOUNDED_MARGIN);
        let i = board.index_of(Cell::new(-3, 2)).unwrap();
        assert_eq!(board.cell_of(i), Cell::new(-3, 2));
        assert_eq!(board.stone(i), 1);
        assert_eq!(board.to_move(), Player::O);
        // The frame is walled in: past its edge nothing can be played.
        assert!(board
            .index_of(Cell::new(-4 - UNBOUNDED_MARGIN, 0))
            .is_none());
    }

    #[test]
    fn unbounded_frame_stops_at_the_coordinate_limit() {
        let rules: Rules = "infx5".parse().unwrap();
        let corner = Cell::new(MAX_COORD, -MAX_COORD);
        let pos = Position::from_moves(rules, &[corner]).unwrap();
        let board = Board::from_position(&pos);
        assert_eq!(
            (board.width, board.height),
            (UNBOUNDED_MARGIN + 1, UNBOUNDED_MARGIN + 1)
        );
        assert!(board.index_of(corner).is_some());
        assert!(board.index_of(corner.offset(1, 0, 1)).is_none());
        assert!(board.index_of(corner.offset(0, -1, 1)).is_none());
    }

    #[test]
    fn a_line_at_the_frame_edge_is_not_open() {
        // On infx3 the search plays two O stones into the frame's corner: the line can be
        // extended on one side only, so O has one winning cell, and the threat count says so.
        let rules: Rules = "infx3".parse().unwrap();
        let pos = Position::from_moves(rules, &[Cell::new(0, 0)]).unwrap();
        let mut board = Board::from_position(&pos);
        let m = UNBOUNDED_MARGIN;
        for cell in [Cell::new(-m, -m), Cell::new(5, 5)] {
            board.play(board.index_of(cell).unwrap());
        }
        let second = board.index_of(Cell::new(-m, 1 - m)).unwrap();
        // A four that can be completed one way only (a blocked four and a lesser line).
        assert_eq!(board.threat(second, 1), Threat::Block4Plus);
        board.play(second);
        assert_eq!(board.threat_count(1, Threat::Five), 1);
        let above = board.index_of(Cell::new(-m, 2 - m)).unwrap();
        assert_eq!(board.threat(above, 1), Threat::Five);
        assert!(board.matches_fresh());
    }

    #[test]
    fn a_win_is_seen_from_the_patterns() {
        let rules: Rules = "15x15x5".parse().unwrap();
        let moves: Vec<Cell> = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        let pos = Position::from_moves(rules, &moves).unwrap();
        let mut board = Board::from_position(&pos);
        let g8 = board.index_of("g8".parse().unwrap()).unwrap();
        let l8 = board.index_of("l8".parse().unwrap()).unwrap();
        assert_eq!(board.threat(g8, 0), Threat::Five);
        assert_eq!(board.threat(l8, 0), Threat::Five);
        assert_eq!(board.threat_count(0, Threat::Five), 2);
        board.play(l8);
        assert!(board.last_move_won());
    }
}
