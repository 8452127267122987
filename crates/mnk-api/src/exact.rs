//! Exact values (`solve`) and the game-tree explorer (`tree`) on boards the solver takes.
//!
//! Both answer from the served book when it holds every move's value, else from the solver; when
//! the solver runs out of time, `solve` answers the book's part, marked `partial`. The tree adds
//! the number of games and distinct positions below each move where they can be counted in the
//! time the values leave.

use std::time::Duration;

use mnk_core::{Cell, Position, Rules};
use mnk_engine::count::{count_below, CountError, CountsBelow};
use mnk_engine::solver::book_index::BookAnswer;
use mnk_engine::solver::{self, Analysis, SolveError};
use mnk_engine::{Limits, Value};
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::books::Books;
use crate::error::ApiError;
use crate::game::value_json;
use crate::game::{self, cell_json, game_outcome_json};
use crate::{Checked, Context, Job, Settings};

/// A request for exact values: the game and an optional time limit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The rules, as in [`crate::game::GameRequest`].
    pub rules: Json,
    /// The moves so far, as in [`crate::game::GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// Solving time in milliseconds (capped; the cap when absent).
    #[serde(default)]
    pub time_ms: Option<u64>,
}

/// Exact values, checked: the position, what the book knows, the time.
#[derive(Debug)]
pub struct SolveJob {
    pos: Position,
    book: Option<BookAnswer>,
    /// The solver's time.
    pub budget: Duration,
}

/// Checks a request for the exact value of the position and of every legal move: refused when
/// the game is over (won, full, or no line left), answered at once when the book holds every
/// move's value.
pub fn solve(settings: &Settings, request: &SolveRequest) -> Result<Checked, ApiError> {
    let pos = solvable_position(request)?;
    if game::finished(&pos) {
        return Err(SolveError::GameOver.into());
    }
    let book = book_answer(&settings.books, &pos);
    if let Some(analysis) = book.as_ref().and_then(analysis_from_book) {
        return Ok(Checked::Answer(solve_json(
            pos.rules(),
            &analysis,
            0,
            "book",
        )));
    }
    Ok(Checked::Job(Box::new(Job::Solve(SolveJob {
        pos,
        book,
        budget: settings.solve_time(request.time_ms),
    }))))
}

impl SolveJob {
    /// Solves every move; when time runs out, answers the book's part if there is one.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let start = context.now_ms();
        let limits = context.limits(self.budget);
        let rules = *self.pos.rules();
        let elapsed = || context.now_ms().saturating_sub(start);
        match analyse_within(&self.pos, self.budget, &limits) {
            Ok(analysis) => Ok(solve_json(&rules, &analysis, elapsed(), "solver")),
            // Better the book's part, marked as such, than nothing.
            Err(e) if e.code() == "out_of_time" => match self.book.as_ref().and_then(book_part) {
                Some(part) => {
                    let mut answer = solve_json(&rules, &part, elapsed(), "book");
                    answer["partial"] = json!(true);
                    Ok(answer)
                }
                None => Err(e),
            },
            Err(e) => Err(e),
        }
    }
}

/// The game-tree explorer's view, checked.
#[derive(Debug)]
pub struct TreeJob {
    pos: Position,
    from_book: Option<Analysis>,
    /// The time for the values and the counts together.
    pub budget: Duration,
}

/// Checks a request for the explorer's view of a position: every move with its exact value,
/// and the games and distinct positions below it. A won or full board is a leaf, answered at
/// once; a game drawn for want of lines still has its moves, and the counts play on to a win or
/// a full board, as the published figures and `mnk count` do.
pub fn tree(settings: &Settings, request: &SolveRequest) -> Result<Checked, ApiError> {
    let pos = solvable_position(request)?;
    if pos.is_over() {
        // A leaf: one game (the one that ended here), one position, nothing to play.
        let mut answer = tree_head(&pos);
        answer["value"] = Json::Null;
        answer["games"] = json!(1);
        answer["positions"] = json!(1);
        answer["nodes"] = json!(0);
        answer["time_ms"] = json!(0);
        answer["children"] = json!([]);
        return Ok(Checked::Answer(answer));
    }
    let from_book = book_answer(&settings.books, &pos)
        .as_ref()
        .and_then(analysis_from_book);
    Ok(Checked::Job(Box::new(Job::Tree(TreeJob {
        pos,
        from_book,
        budget: settings.solve_time(request.time_ms),
    }))))
}

impl TreeJob {
    /// The values first (without them there is no answer); the counts get what time is left.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let start = context.now_ms();
        let limits = context.limits(self.budget);
        let rules = *self.pos.rules();
        let source = if self.from_book.is_some() {
            "book"
        } else {
            "solver"
        };
        let analysis = match self.from_book {
            Some(analysis) => analysis,
            None => analyse_within(&self.pos, self.budget, &limits)?,
        };
        let counts = count_below(&self.pos, &limits);
        let below = |cell| {
            counts
                .as_ref()
                .ok()
                .and_then(|c: &CountsBelow| c.moves.iter().find(|m| m.0 == cell))
                .map(|m| m.1)
        };
        let children: Vec<Json> = moves_json(&rules, &analysis.moves)
            .into_iter()
            .zip(&analysis.moves)
            .map(|(mut entry, &(cell, _))| {
                if let Some(below) = below(cell) {
                    entry["games"] = json!(below.games);
                    entry["positions"] = json!(below.positions);
                }
                entry
            })
            .collect();
        let mut answer = tree_head(&self.pos);
        answer["value"] = value_json(self.pos.rules(), analysis.value);
        match &counts {
            Ok(counts) => {
                answer["games"] = json!(counts.position.games);
                answer["positions"] = json!(counts.position.positions);
            }
            Err(e) => {
                // Said whole, without "not counted" (the page says that part).
                answer["uncounted"] = match e {
                    CountError::TooLarge {
                        reason,
                        max,
                        message,
                    } => json!({
                        "code": "too_large",
                        "message": message,
                        "reason": reason,
                        "params": { "max": max },
                    }),
                    CountError::Aborted => json!({
                        "code": "out_of_time",
                        "message": format!(
                            "the values took the time, or the count did not finish within {} ms",
                            self.budget.as_millis()
                        ),
                        "reason": "count_time",
                        "params": { "ms": self.budget.as_millis() },
                    }),
                };
            }
        }
        answer["nodes"] = json!(analysis.nodes);
        answer["time_ms"] = json!(context.now_ms().saturating_sub(start));
        answer["source"] = json!(source);
        answer["children"] = json!(children);
        Ok(answer)
    }
}

/// The start of every `tree` answer: whose move and how the game stands.
fn tree_head(pos: &Position) -> Json {
    json!({
        "to_move": pos.to_move(),
        "outcome": game_outcome_json(pos),
    })
}

/// The exact value of every move in `pos`, within `budget`.
fn analyse_within(pos: &Position, budget: Duration, limits: &Limits) -> Result<Analysis, ApiError> {
    solver::analyse(pos, limits).map_err(|e| match e {
        SolveError::Aborted { .. } => ApiError::OutOfTime(format!(
            "this position could not be solved within {} ms: {e}",
            budget.as_millis()
        ))
        .worded("not_solved_in_time", json!({ "ms": budget.as_millis() })),
        other => ApiError::from(other),
    })
}

/// The position a request for exact values names, on a board the solver takes (`too_large`
/// otherwise).
fn solvable_position(request: &SolveRequest) -> Result<Position, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    if !solver::solvable(pos.rules()) {
        return Err(SolveError::TooLarge(pos.rules().to_string()).into());
    }
    Ok(pos)
}

/// What the served book knows about `pos`: nothing when no book covers its rules.
fn book_answer(books: &Books, pos: &Position) -> Option<BookAnswer> {
    books.for_rules(pos.rules()).map(|book| book.answer(pos))
}

/// What the book knows as an analysis: the position's value and best move, and the moves whose
/// values it holds (every legal move only when `answer.complete`).
fn book_part(answer: &BookAnswer) -> Option<Analysis> {
    let position = answer.position?;
    Some(Analysis {
        value: position.value,
        best: position.best,
        moves: answer.moves.clone(),
        nodes: 0,
        proof: solver::ProofStats::default(),
    })
}

/// The book's values when it knows every move's: the solver is not needed.
fn analysis_from_book(answer: &BookAnswer) -> Option<Analysis> {
    book_part(answer).filter(|_| answer.complete)
}

/// Every move with its value, in the form of `solve`'s `moves`.
fn moves_json(rules: &Rules, moves: &[(Cell, Value)]) -> Vec<Json> {
    moves
        .iter()
        .map(|&(cell, value)| {
            let mut entry = cell_json(rules, cell);
            entry["value"] = value_json(rules, value);
            entry
        })
        .collect()
}

/// `solve`'s answer for an analysis that took `time_ms`, from `source`.
fn solve_json(rules: &Rules, analysis: &Analysis, time_ms: u64, source: &str) -> Json {
    json!({
        "value": value_json(rules, analysis.value),
        "best": analysis.best.map(|c| rules.cell_name(c)),
        "nodes": analysis.nodes,
        "time_ms": time_ms,
        "moves": moves_json(rules, &analysis.moves),
        "source": source,
    })
}
