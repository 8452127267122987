//! A game in progress: the stones, whose turn it is, the history, the hash and the outcome.
//!
//! Three ways to play a move, as in cozy-chess: [`Position::play`] panics on an illegal move,
//! [`Position::try_play`] returns a [`PlayError`], and [`Position::play_unchecked`] trusts the
//! caller (search code that generated the move itself). After every move the outcome is updated by
//! scanning only the four lines through the new stone; whether a line wins is decided in
//! `win.rs`, the one place that does.

use std::collections::HashMap;
use std::fmt;

use crate::cell::{Cell, DIRECTIONS};
use crate::forbidden::ForbiddenKind;
use crate::player::Player;
use crate::rules::Rules;
use crate::zobrist;

/// How the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nobody has won and there is room to play.
    Ongoing,
    /// Nobody won and nobody can move: the bounded board is full, or (renju) black is to move
    /// and every free cell is forbidden to black.
    Draw(DrawKind),
    /// `winner` made a winning line; `line` lists its cells in order along the line.
    Win {
        /// Who won.
        winner: Player,
        /// The cells of the winning line.
        line: Vec<Cell>,
    },
}

impl Outcome {
    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }
}

/// Why a game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawKind {
    /// Every cell of the bounded board holds a stone.
    FullBoard,
    /// Black is to move under renju and every free cell is forbidden to black. Passing is not
    /// part of these rules, so black cannot move and, as on a full board, nobody can win.
    NoMoveLeft,
}

impl fmt::Display for DrawKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawKind::FullBoard => "the board is full",
            DrawKind::NoMoveLeft => "black has no move left that is not forbidden",
        })
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The cell already holds a stone.
    Occupied(Cell),
    /// The cell is not on the board.
    OffBoard(Cell),
    /// The game has already ended.
    GameOver,
    /// Renju: black (the first player) may not play there.
    Forbidden {
        /// The cell asked for.
        cell: Cell,
        /// Why black may not play it.
        kind: ForbiddenKind,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Occupied(c) => write!(f, "{c} is already taken: choose an empty cell"),
            PlayError::OffBoard(c) => write!(f, "{c} is not on the board"),
            PlayError::GameOver => write!(f, "the game is over: start a new game or undo"),
            PlayError::Forbidden { cell, kind } => write!(
                f,
                "{cell} is forbidden to black under renju: {kind}; choose another cell"
            ),
        }
    }
}

impl std::error::Error for PlayError {}

/// Where the stones are: a flat grid for bounded boards, a map for the unbounded one (so its cost
/// follows the stones played, not their span).
#[derive(Clone, Debug)]
enum Stones {
    Grid {
        width: u32,
        height: u32,
        cells: Vec<Option<Player>>,
    },
    Sparse(HashMap<Cell, Player>),
}

impl Stones {
    fn new(rules: &Rules) -> Stones {
        match rules.size() {
            Some((width, height)) => Stones::Grid {
                width,
                height,
                cells: vec![None; width as usize * height as usize],
            },
            None => Stones::Sparse(HashMap::new()),
        }
    }

    fn grid_index(width: u32, height: u32, c: Cell) -> Option<usize> {
        (c.x >= 0 && c.y >= 0 && (c.x as u32) < width && (c.y as u32) < height)
            .then(|| c.y as usize * width as usize + c.x as usize)
    }

    fn get(&self, c: Cell) -> Option<Player> {
        match self {
            Stones::Grid {
                width,
                height,
                cells,
            } => Stones::grid_index(*width, *height, c).and_then(|i| cells[i]),
            Stones::Sparse(map) => map.get(&c).copied(),
        }
    }

    fn set(&mut self, c: Cell, stone: Option<Player>) {
        match self {
            Stones::Grid {
                width,
                height,
                cells,
            } => {
                let i = Stones::grid_index(*width, *height, c).expect("cell on the board");
                cells[i] = stone;
            }
            Stones::Sparse(map) => match stone {
                Some(p) => {
                    map.insert(c, p);
                }
                None => {
                    map.remove(&c);
                }
            },
        }
    }
}

/// A position of a k-in-a-row game.
///
/// ```
/// use mnk_core::{Cell, Outcome, Player, Position, Preset};
/// let mut pos = Position::new(Preset::TicTacToe.rules());
/// for cell in ["a1", "a2", "b2", "b3", "c3"] {
///     pos.play(cell.parse().unwrap());
/// }
/// assert_eq!(pos.outcome().winner(), Some(Player::X));
/// assert_eq!(pos.to_string(), "  a b c\n3 . O X\n2 O X .\n1 X . .\n");
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    rules: Rules,
    stones: Stones,
    history: Vec<Cell>,
    hash: u64,
    outcome: Outcome,
    setup: Setup,
}

/// Where the moves of [`Position::history`] begin to alternate. A game played from the empty
/// board alternates from its first stone, the rules' first player's. A position set up from its
/// stones ([`Position::from_setup`], say a board editor's, where the counts need not alternate)
/// starts with `stones` stones that were placed, not played: their owners are read from the
/// board, and the moves after them alternate from `to_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Setup {
    /// How many of the first stones of the history were placed rather than played.
    stones: usize,
    /// Who moves after them.
    to_move: Player,
}

impl Position {
    /// The empty board under `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        let hash = if rules.first() == Player::O {
            zobrist::O_TO_MOVE
        } else {
            0
        };
        Position {
            rules,
            stones: Stones::new(&rules),
            history: Vec::new(),
            hash,
            outcome: Outcome::Ongoing,
            setup: Setup {
                stones: 0,
                to_move: rules.first(),
            },
        }
    }

    /// Plays a record of moves from the empty board, refusing the first illegal one.
    pub fn from_moves(rules: Rules, moves: &[Cell]) -> Result<Position, (usize, PlayError)> {
        let mut pos = Position::new(rules);
        for (i, &m) in moves.iter().enumerate() {
            pos.try_play(m).map_err(|e| (i, e))?;
        }
        Ok(pos)
    }

    /// The rules of this game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Who plays next (also after the game ended: whose turn it would be).
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.mover_at(self.history.len())
    }

    /// Who played (or plays) the `i`-th stone of the history, for `i` past the set-up stones.
    fn mover_at(&self, i: usize) -> Player {
        if (i - self.setup.stones) % 2 == 0 {
            self.setup.to_move
        } else {
            self.setup.to_move.opponent()
        }
    }

    /// The stone on `cell`, if any.
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Player> {
        self.stones.get(cell)
    }

    /// Whether `cell` is on the board and empty.
    #[must_use]
    pub fn is_free(&self, cell: Cell) -> bool {
        self.rules.contains(cell) && self.stones.get(cell).is_none()
    }

    /// The stones in the order they came, oldest first: the moves played so far, after the
    /// [`Position::setup_stones`] a set-up position starts with. Only when there are none does
    /// [`Position::from_moves`] replay the history into this position.
    #[must_use]
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    /// How many of the first stones of [`Position::history`] were placed by
    /// [`Position::from_setup`] rather than played in turn: 0 for a game played from the empty
    /// board. [`Position::undo`] stops at them.
    #[must_use]
    pub fn setup_stones(&self) -> usize {
        self.setup.stones
    }

    /// Number of stones on the board.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The most recent move.
    #[must_use]
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().copied()
    }

    /// The Zobrist hash of the stones and the side to move.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// How the game stands.
    #[must_use]
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_over()
    }

    /// Every stone with its owner, in the order of [`Position::history`].
    pub fn stones(&self) -> impl Iterator<Item = (Cell, Player)> + '_ {
        self.history.iter().enumerate().map(move |(i, &c)| {
            let owner = if i < self.setup.stones {
                self.stones.get(c).expect("a set-up stone is on the board")
            } else {
                self.mover_at(i)
            };
            (c, owner)
        })
    }

    /// Checks that the side to move may play `cell`: the game goes on, the cell is on the board
    /// and empty, and (renju) it is not forbidden to black.
    pub fn check_move(&self, cell: Cell) -> Result<(), PlayError> {
        if self.outcome.is_over() {
            Err(PlayError::GameOver)
        } else if !self.rules.contains(cell) {
            Err(PlayError::OffBoard(cell))
        } else if self.stones.get(cell).is_some() {
            Err(PlayError::Occupied(cell))
        } else if let Some(kind) = self.forbidden_to_mover(cell) {
            Err(PlayError::Forbidden { cell, kind })
        } else {
            Ok(())
        }
    }

    /// Why the side to move may not play the free `cell` under renju, if it may not.
    fn forbidden_to_mover(&self, cell: Cell) -> Option<ForbiddenKind> {
        if self.rules.has_forbidden_moves(self.to_move()) {
            self.forbidden_kind(cell)
        } else {
            None
        }
    }

    /// Plays `cell` for the side to move, or says why it cannot be played (and changes nothing).
    pub fn try_play(&mut self, cell: Cell) -> Result<(), PlayError> {
        self.check_move(cell)?;
        self.play_unchecked(cell);
        Ok(())
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Panics
    /// If the move is illegal; use [`Position::try_play`] for moves from outside.
    pub fn play(&mut self, cell: Cell) {
        if let Err(e) = self.try_play(cell) {
            panic!("illegal move: {e}");
        }
    }

    /// Plays `cell` for the side to move without checking that it is legal. The caller promises
    /// the game is not over and the cell is on the board, empty and (renju) not forbidden.
    pub fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(
            self.check_move(cell).is_ok(),
            "play_unchecked({cell}) is illegal"
        );
        let player = self.to_move();
        self.place_stone(cell);
        self.outcome = self.outcome_after(cell, player);
    }

    /// Takes back the last move and returns it (`None` on the empty board, or when only the
    /// set-up stones of [`Position::from_setup`] are left: they were not moves).
    pub fn undo(&mut self) -> Option<Cell> {
        if self.history.len() == self.setup.stones {
            return None;
        }
        let cell = self.history.pop()?;
        let player = self.to_move();
        self.stones.set(cell, None);
        self.hash ^= zobrist::stone_key(cell, player) ^ zobrist::O_TO_MOVE;
        // The game never continues past a win, so before the last move it was still going.
        self.outcome = Outcome::Ongoing;
        Some(cell)
    }

    /// The run of `player`'s stones through `cell` in direction `(dx, dy)`, from one end to the other.
    #[must_use]
    pub fn run_through(&self, cell: Cell, player: Player, (dx, dy): (i32, i32)) -> Vec<Cell> {
        let mut start = cell;
        while self.stones.get(start.offset(dx, dy, -1)) == Some(player) {
            start = start.offset(dx, dy, -1);
        }
        let mut run = Vec::new();
        let mut c = start;
        while c == cell || self.stones.get(c) == Some(player) {
            run.push(c);
            c = c.offset(dx, dy, 1);
        }
        run
    }

    fn outcome_after(&self, cell: Cell, player: Player) -> Outcome {
        match self.winning_run(cell, player) {
            Some(line) => Outcome::Win {
                winner: player,
                line,
            },
            None => self.outcome_without_win(),
        }
    }

    /// The legal moves. On a bounded board: every empty cell (under renju, when black is to
    /// move, every empty cell that is not forbidden). On the unbounded board every empty cell is
    /// legal, so this lists the useful ones: empty cells within two of a stone (the origin on an
    /// empty board). Empty when the game is over. Ordered by cell (row, then column).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Cell> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        if self.rules.is_bounded() {
            let forbidden = if self.rules.has_forbidden_moves(self.to_move()) {
                self.forbidden_cells()
            } else {
                Vec::new()
            };
            return self
                .rules
                .cells()
                .filter(|&c| self.stones.get(c).is_none() && !forbidden.contains(&c))
                .collect();
        }
        self.cells_near_stones(2)
    }

    /// Empty on-board cells within Chebyshev distance `radius` of a stone, ordered by row then
    /// column; the centre (bounded) or origin (unbounded) when the board is empty.
    #[must_use]
    pub fn cells_near_stones(&self, radius: i32) -> Vec<Cell> {
        if self.history.is_empty() {
            let centre = match self.rules.size() {
                Some((w, h)) => Cell::new((w as i32 - 1) / 2, (h as i32 - 1) / 2),
                None => Cell::new(0, 0),
            };
            return vec![centre];
        }
        let mut cells: Vec<Cell> = self
            .history
            .iter()
            .flat_map(|&s| {
                (-radius..=radius)
                    .flat_map(move |dy| (-radius..=radius).map(move |dx| s.offset(dx, dy, 1)))
            })
            .filter(|&c| self.is_free(c))
            .collect();
        cells.sort_unstable_by_key(|c| (c.y, c.x));
        cells.dedup();
        cells
    }

    /// The bounding box of the stones as (min, max) corners; `None` on an empty board.
    #[must_use]
    pub fn stone_bounds(&self) -> Option<(Cell, Cell)> {
        let first = *self.history.first()?;
        Some(self.history.iter().fold((first, first), |(lo, hi), c| {
            (
                Cell::new(lo.x.min(c.x), lo.y.min(c.y)),
                Cell::new(hi.x.max(c.x), hi.y.max(c.y)),
            )
        }))
    }

    /// The outcome found the slow way, by scanning every line of the board; used by tests and
    /// by diagram parsing. Reports a win for whichever player has a winning line (X checked first).
    #[must_use]
    pub fn scan_outcome(&self) -> Outcome {
        match self.scan_outcome_of(Player::X) {
            Outcome::Win { winner, line } => Outcome::Win { winner, line },
            _ => self.scan_outcome_of(Player::O),
        }
    }

    /// [`Position::scan_outcome`] for the lines of one player.
    pub(crate) fn scan_outcome_of(&self, player: Player) -> Outcome {
        for (cell, p) in self.stones() {
            if p != player {
                continue;
            }
            for dir in DIRECTIONS {
                // Only start at the first stone of a run, so each run is measured once.
                if self.stones.get(cell.offset(dir.0, dir.1, -1)) == Some(player) {
                    continue;
                }
                let run = self.run_through(cell, player, dir);
                if self.run_wins(&run, dir, player) {
                    return Outcome::Win {
                        winner: player,
                        line: run,
                    };
                }
            }
        }
        self.outcome_without_win()
    }

    /// Draw on a full bounded board or when the side to move has no move (renju's black with
    /// only forbidden cells free), else the game goes on (for a position with no winning line).
    fn outcome_without_win(&self) -> Outcome {
        if self.is_full() {
            Outcome::Draw(DrawKind::FullBoard)
        } else if self.mover_is_shut_out() {
            Outcome::Draw(DrawKind::NoMoveLeft)
        } else {
            Outcome::Ongoing
        }
    }

    /// Whether every cell of a bounded board holds a stone (never on the unbounded board).
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.rules.cell_count() == Some(self.history.len())
    }

    /// The hash computed from scratch; equal to [`Position::hash`] (tests check that).
    #[must_use]
    pub fn fresh_hash(&self) -> u64 {
        let side = if self.to_move() == Player::O {
            zobrist::O_TO_MOVE
        } else {
            0
        };
        self.stones()
            .fold(side, |h, (c, p)| h ^ zobrist::stone_key(c, p))
    }

    /// Puts a stone for the side to move without updating the outcome; diagram parsing places
    /// stones in bulk and scans for the outcome once at the end.
    pub(crate) fn place_stone(&mut self, cell: Cell) {
        let player = self.to_move();
        self.stones.set(cell, Some(player));
        self.history.push(cell);
        self.hash ^= zobrist::stone_key(cell, player) ^ zobrist::O_TO_MOVE;
    }

    /// Replaces the outcome; only diagram parsing needs this, after placing stones in bulk.
    pub(crate) fn set_outcome(&mut self, outcome: Outcome) {
        self.outcome = outcome;
    }

    /// Puts `player`'s stone on `cell` as a set-up stone: before any move, whoever is to move.
    /// [`Position::finish_setup`] then says who moves after them.
    pub(crate) fn place_setup_stone(&mut self, cell: Cell, player: Player) {
        debug_assert_eq!(
            self.history.len(),
            self.setup.stones,
            "set-up stones come first"
        );
        self.stones.set(cell, Some(player));
        self.history.push(cell);
        self.setup.stones += 1;
    }

    /// Ends the set-up: `to_move` moves next. Recomputes the hash and the outcome by scanning.
    pub(crate) fn finish_setup(&mut self, to_move: Player) {
        self.setup.to_move = to_move;
        self.hash = self.fresh_hash();
        self.outcome = self.scan_outcome();
    }
}

impl PartialEq for Position {
    /// Two positions are equal when they have the same rules, stones and side to move (the order
    /// the stones came in, and whether they were set up or played, does not matter).
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && self.history.len() == other.history.len()
            && self.to_move() == other.to_move()
            && self.stones().all(|(c, p)| other.stone(c) == Some(p))
    }
}

impl Eq for Position {}
