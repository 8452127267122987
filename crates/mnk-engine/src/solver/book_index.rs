//! A solved book's positions found by their stones, for a front-end to answer from.
//!
//! A book lists positions by the moves that reached them; a front-end asks about a position
//! reached in any order and on any symmetric image of the board. The index keys every book
//! position by its stones (a bitboard per player) under each symmetry of the board, with the best
//! move carried along, so one lookup answers for all eight (four on a rectangle) images and
//! every move order.
//!
//! What the book says about a position's moves: a move's value is known when the position after
//! it is in the book (its value seen one ply earlier) or is already over (a win in 1 or a draw).
//! Where the book holds every reply (the positions where the side off the book's strategy is to
//! move) every move's value is known and the solver is not needed.

use std::collections::HashMap;

use mnk_core::{Cell, Player, Position, Rules, Symmetry};

use super::book::Book;
use crate::value::Value;

/// The stones of a position: a bitboard for the first player's, one for the second's.
type Key = (u64, u64);

/// A book's value and best move for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The exact value for the side to move.
    pub value: Value,
    /// A move that keeps it.
    pub best: Option<Cell>,
}

/// What a book knows about a position and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookAnswer {
    /// The position's value and a best move, when known (from its own entry, or from every move's
    /// value).
    pub position: Option<Known>,
    /// The legal moves whose values are known, with them (for the side playing them), best
    /// first, then by cell (bottom row first), as the solver's `analyse` orders them.
    pub moves: Vec<(Cell, Value)>,
    /// Whether every legal move's value is known.
    pub complete: bool,
}

/// A book's positions under every symmetry of the board.
#[derive(Clone, Debug)]
pub struct BookIndex {
    rules: Rules,
    width: u32,
    height: u32,
    positions: HashMap<Key, Known>,
    entries: usize,
}

/// Why a book cannot be indexed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unindexable(pub Rules);

impl std::fmt::Display for Unindexable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the solver does not take {} (a bounded board of at most 64 cells, freestyle or exactly k), so no position would be looked up in this book",
            self.0
        )
    }
}

impl std::error::Error for Unindexable {}

impl BookIndex {
    /// Indexes `book`; refuses rules the solver does not take (no lookup would reach them).
    pub fn new(book: &Book) -> Result<BookIndex, Unindexable> {
        let rules = book.rules;
        let Some((width, height)) = rules.size().filter(|_| super::solvable(&rules)) else {
            return Err(Unindexable(rules));
        };
        let mut index = BookIndex {
            rules,
            width,
            height,
            positions: HashMap::new(),
            entries: book.entries.len(),
        };
        for entry in &book.entries {
            for symmetry in index.symmetries() {
                let image = |c: Cell| symmetry.apply(c, width, height);
                let moves: Vec<Cell> = entry.moves.iter().map(|&c| image(c)).collect();
                let known = Known {
                    value: entry.value,
                    best: entry.best.map(image),
                };
                index.positions.insert(index.key_of(&moves), known);
            }
        }
        Ok(index)
    }

    /// The rules of the book.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How many positions the book lists (before symmetry).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether the book lists no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The book's value and best move for `pos` (any move order, any symmetric image), if it
    /// holds the position under these rules. The book's positions are games', so a set-up
    /// position (see `Position::from_setup`) is looked up only when its stones and side to move
    /// are a game's.
    #[must_use]
    pub fn get(&self, pos: &Position) -> Option<Known> {
        if pos.rules() != &self.rules {
            return None;
        }
        // The key says where each player's stones lie, not who is to move: a game's side to
        // move follows from the counts, and a set-up position's must be that one.
        let first = self.rules.first();
        let (mut key, mut count) = ((0u64, 0u64), (0usize, 0usize));
        for (c, p) in pos.stones() {
            if p == first {
                key.0 |= self.bit(c);
                count.0 += 1;
            } else {
                key.1 |= self.bit(c);
                count.1 += 1;
            }
        }
        let in_turn = match count.0.checked_sub(count.1) {
            Some(0) => first,
            Some(1) => first.opponent(),
            _ => return None,
        };
        if pos.to_move() != in_turn {
            return None;
        }
        self.positions.get(&key).copied()
    }

    /// What the book knows about `pos` and each of its legal moves (nothing for other rules or a
    /// finished game).
    #[must_use]
    pub fn answer(&self, pos: &Position) -> BookAnswer {
        let mut answer = BookAnswer {
            position: self.get(pos),
            moves: Vec::new(),
            complete: false,
        };
        if pos.rules() != &self.rules || pos.is_over() {
            return answer;
        }
        let legal = pos.legal_moves();
        let mut child = pos.clone();
        for &cell in &legal {
            child.play(cell);
            if let Some(value) = self.move_value(&child, pos.to_move()) {
                answer.moves.push((cell, value));
            }
            child.undo();
        }
        answer
            .moves
            .sort_by_key(|&(c, v)| (std::cmp::Reverse(v), c.y, c.x));
        answer.complete = answer.moves.len() == legal.len();
        if answer.complete {
            if let Some(&(best, value)) = answer.moves.first() {
                answer.position = Some(Known {
                    value,
                    best: Some(best),
                });
            }
        }
        answer
    }

    /// The value of the move that led to `child`, for `mover`, when known: a finished game is a
    /// win in 1 or a draw, a book position's value is seen one ply earlier.
    fn move_value(&self, child: &Position, mover: Player) -> Option<Value> {
        if child.is_over() {
            return Some(if child.outcome().winner() == Some(mover) {
                Value::Win(1)
            } else {
                Value::Draw
            });
        }
        self.get(child).map(|known| known.value.parent())
    }

    /// The symmetries of the board: eight on a square, four on a rectangle.
    fn symmetries(&self) -> &'static [Symmetry] {
        if self.width == self.height {
            &Symmetry::ALL
        } else {
            &Symmetry::RECTANGLE
        }
    }

    /// The key of the position `moves` reach: whose stones lie where (moves alternate from the
    /// rules' first player, so the parity of a move says whose stone it is).
    fn key_of(&self, moves: &[Cell]) -> Key {
        let mut key = (0u64, 0u64);
        for (i, &c) in moves.iter().enumerate() {
            if i % 2 == 0 {
                key.0 |= self.bit(c);
            } else {
                key.1 |= self.bit(c);
            }
        }
        key
    }

    /// The bit of `cell` in a key.
    fn bit(&self, cell: Cell) -> u64 {
        1u64 << (cell.y as u32 * self.width + cell.x as u32)
    }
}
