//! Solved opening books: the solver's proof written down, for a front-end to load instead of
//! solving again.
//!
//! A book holds positions of one board, each with its exact value and a move that keeps it. It is
//! the top of the proof tree: from a position, the side to move plays the move the solver proved
//! and the other side every legal move, for a given number of plies. A player following the book
//! keeps the value against every answer; a position off the book (the strategy side having
//! strayed) is for the live solver.
//!
//! The format is text, one position a line, its fields separated by tabs (shown here as `|`),
//! documented in `docs/solver-book.md`:
//!
//! ```text
//! mnk-book 1
//! rules 3x3x3
//! # moves from the empty board, tab, value for the side to move, tab, a move that keeps it
//! - | draw | a1
//! a1 | draw | b2
//! ```
//!
//! `-` stands for no moves (the empty board) and for no best move. Values are `draw`,
//! `win in N` and `loss in N` (plies, for the side to move). Blank lines and lines starting with
//! `#` are ignored. Reading checks every record against the rules, so a book that loads is one the
//! page can show.

use std::fmt;
use std::str::FromStr;

use mnk_core::{Cell, Position, Record, Rules};

use super::{SolveError, Solver};
use crate::limits::Limits;
use crate::value::Value;

/// The first line of every book, with the format's version.
pub const BOOK_HEADER: &str = "mnk-book 1";

/// One solved position of a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The moves from the empty board to the position.
    pub moves: Vec<Cell>,
    /// Its exact value for the side to move.
    pub value: Value,
    /// A move that keeps the value (none when the position has no legal move).
    pub best: Option<Cell>,
}

/// A solved opening book: positions of one board with their exact values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The rules every position is played under.
    pub rules: Rules,
    /// The positions, in the order they were solved (the root first).
    pub entries: Vec<BookEntry>,
}

/// Why a book could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not [`BOOK_HEADER`].
    Header,
    /// The `rules` line is missing or names no rules.
    Rules(String),
    /// A position line is malformed or illegal.
    Line {
        /// Line number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Header => write!(f, "not a book: the first line must be '{BOOK_HEADER}'"),
            BookError::Rules(why) => write!(f, "the book's rules line: {why}"),
            BookError::Line { line, reason } => write!(f, "line {line} of the book: {reason}"),
        }
    }
}

impl std::error::Error for BookError {}

impl Book {
    /// The entry of the position reached by `moves`, if the book has it.
    #[must_use]
    pub fn get(&self, moves: &[Cell]) -> Option<&BookEntry> {
        self.entries.iter().find(|e| e.moves == moves)
    }

    /// Solves `pos` and its proof tree's top `plies` plies below it with `solver` (the side to
    /// move at `pos` plays its best move, the other side every legal move), every solve within
    /// `limits`. Positions already over are left out.
    pub fn build(
        solver: &mut Solver,
        pos: &Position,
        plies: u32,
        limits: &Limits,
    ) -> Result<Book, SolveError> {
        let strategist = pos.to_move();
        let mut entries = Vec::new();
        let mut frontier = vec![pos.clone()];
        for depth in 0..=plies {
            let mut next = Vec::new();
            for p in &frontier {
                if p.is_over() {
                    continue;
                }
                let analysis = solver.solve(p, limits)?;
                entries.push(BookEntry {
                    moves: p.history().to_vec(),
                    value: analysis.value,
                    best: analysis.best,
                });
                if depth == plies {
                    continue;
                }
                let moves = if p.to_move() == strategist {
                    analysis.best.into_iter().collect()
                } else {
                    p.legal_moves()
                };
                for m in moves {
                    let mut child = p.clone();
                    child.play(m);
                    next.push(child);
                }
            }
            frontier = next;
        }
        Ok(Book {
            rules: *pos.rules(),
            entries,
        })
    }
}

/// A value as a book writes it.
fn value_text(value: Value) -> String {
    match value {
        Value::Win(n) => format!("win in {n}"),
        Value::Loss(n) => format!("loss in {n}"),
        Value::Draw => "draw".into(),
        // Books hold proven values only; an evaluation is written so that reading refuses it.
        Value::Eval(e) => format!("eval {e}"),
    }
}

fn parse_value(text: &str) -> Option<Value> {
    if text == "draw" {
        return Some(Value::Draw);
    }
    let (kind, n) = text.split_once(" in ")?;
    let n: u32 = n.parse().ok().filter(|&n| n > 0)?;
    match kind {
        "win" => Some(Value::Win(n)),
        "loss" => Some(Value::Loss(n)),
        _ => None,
    }
}

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{BOOK_HEADER}")?;
        writeln!(f, "rules {}", self.rules)?;
        writeln!(
            f,
            "# moves from the empty board, tab, value for the side to move, tab, a move that keeps it"
        )?;
        for e in &self.entries {
            let moves = if e.moves.is_empty() {
                "-".to_string()
            } else {
                Record(e.moves.clone()).to_string()
            };
            let best = e.best.map_or_else(|| "-".to_string(), |c| c.to_string());
            writeln!(f, "{moves}\t{}\t{best}", value_text(e.value))?;
        }
        Ok(())
    }
}

impl FromStr for Book {
    type Err = BookError;

    fn from_str(text: &str) -> Result<Book, BookError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        if lines.next().map(|(_, l)| l.trim()) != Some(BOOK_HEADER) {
            return Err(BookError::Header);
        }
        let rules: Rules = match lines.next() {
            Some((_, l)) => match l.trim().strip_prefix("rules ") {
                Some(r) => r.parse().map_err(|e| BookError::Rules(format!("{e}")))?,
                None => return Err(BookError::Rules("expected 'rules RULES'".into())),
            },
            None => return Err(BookError::Rules("missing".into())),
        };
        let mut entries = Vec::new();
        for (line, l) in lines {
            let bad = |reason: String| BookError::Line { line, reason };
            let fields: Vec<&str> = l.split('\t').collect();
            let [moves, value, best] = fields[..] else {
                return Err(bad(format!(
                    "expected three fields separated by tabs, found {}",
                    fields.len()
                )));
            };
            let moves: Vec<Cell> = if moves.trim() == "-" {
                Vec::new()
            } else {
                let record: Record = moves.parse().map_err(|e| bad(format!("moves: {e}")))?;
                record.0
            };
            let pos = Position::from_moves(rules, &moves)
                .map_err(|(i, e)| bad(format!("move {} ({}): {e}", i + 1, moves[i])))?;
            if pos.is_over() {
                return Err(bad("the game is already over there".into()));
            }
            let value = parse_value(value.trim()).ok_or_else(|| {
                bad(format!(
                    "'{value}' is not a value (draw, win in N, loss in N)"
                ))
            })?;
            let best = match best.trim() {
                "-" => None,
                cell => {
                    let cell: Cell = cell.parse().map_err(|e| bad(format!("best move: {e}")))?;
                    pos.check_move(cell)
                        .map_err(|e| bad(format!("best move {cell}: {e}")))?;
                    Some(cell)
                }
            };
            entries.push(BookEntry { moves, value, best });
        }
        Ok(Book { rules, entries })
    }
}
