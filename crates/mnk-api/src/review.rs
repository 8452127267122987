//! `review`: the positions of a game valued by the review's fixed search, and its moves judged
//! by the win chance they lose (mnk-engine's [`review`](mnk_engine::review) module says how).
//!
//! A request names the game and a stretch of it, `from` to `to` (positions after that many
//! moves): every position of the stretch is valued, and every move inside it judged. The page
//! reviews a game a few moves at a time, so that marks appear as they are found and a stop
//! comes soon; each stretch starts at the last position of the one before, whose value the
//! memo in [`Settings::review_memo`] still holds (the search is fixed: a value searched again
//! would be the same).

use std::sync::Arc;
use std::time::Duration;

use mnk_core::{Cell, Player, Position, Rules};
use mnk_engine::review::{
    review_stretch, Evaluation, Judgement, Memo, MAX_REVIEW_NODES, REVIEW_NODES,
};
use mnk_engine::BotError;
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::error::ApiError;
use crate::game::value_json;
use crate::game::{self, cell_names};
use crate::{Context, Job, Settings};

/// The most positions one request may value.
pub const MAX_STRETCH: usize = 32;

/// A request to review part of a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The rules, as in [`game::GameRequest`].
    pub rules: Json,
    /// The whole game's moves, as in [`game::GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// The first position to value (after this many moves; default 0).
    #[serde(default)]
    pub from: Option<usize>,
    /// The last position to value (default: the end of the game, or `from` + 31).
    #[serde(default)]
    pub to: Option<usize>,
    /// Nodes per position (default [`REVIEW_NODES`]).
    #[serde(default)]
    pub nodes: Option<u64>,
}

/// A review request, checked: the first position to value and the moves after it.
#[derive(Debug)]
pub struct ReviewJob {
    start: Position,
    moves: Vec<Cell>,
    from: usize,
    nodes: u64,
    /// The longest the whole stretch may take (a cap: the nodes decide unless the machine is
    /// far slower than expected).
    pub budget: Duration,
    /// The values already found, by this review's earlier stretches or another's.
    memo: Arc<Memo>,
}

/// Checks a review request.
pub fn review(settings: &Settings, request: &ReviewRequest) -> Result<Job, ApiError> {
    let all = game::position(&request.rules, &request.moves)?;
    let cells: Vec<Cell> = all.history().to_vec();
    let from = request.from.unwrap_or(0);
    if from > cells.len() {
        return Err(ApiError::BadJson(format!(
            "from {from} is past the end of a game of {} moves",
            cells.len()
        )));
    }
    let to = request
        .to
        .unwrap_or_else(|| cells.len().min(from + MAX_STRETCH - 1));
    if from > to || to > cells.len() {
        return Err(ApiError::BadJson(format!(
            "review positions {from} to {to} of a game of {} moves: give 0 ≤ from ≤ to ≤ {}",
            cells.len(),
            cells.len()
        )));
    }
    if to - from >= MAX_STRETCH {
        return Err(ApiError::TooLarge(format!(
            "{} positions in one review request: at most {MAX_STRETCH}",
            to - from + 1
        ))
        .worded(
            "review_stretch",
            json!({ "n": to - from + 1, "max": MAX_STRETCH }),
        ));
    }
    let nodes = request.nodes.unwrap_or(REVIEW_NODES);
    if !(1..=MAX_REVIEW_NODES).contains(&nodes) {
        return Err(ApiError::BadJson(format!(
            "nodes must be 1 to {MAX_REVIEW_NODES}, not {nodes}"
        )));
    }
    let start = Position::from_moves(*all.rules(), &cells[..from])
        .map_err(|(index, e)| ApiError::from_play(index, &e))?;
    Ok(Job::Review(ReviewJob {
        start,
        moves: cells[from..to].to_vec(),
        from,
        nodes,
        budget: settings.solve_time(None),
        memo: settings.review_memo.clone(),
    }))
}

impl ReviewJob {
    /// Values the positions and judges the moves.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let limits = context.limits(self.budget);
        let reviewed = review_stretch(&self.start, &self.moves, self.nodes, &limits, &self.memo)
            .map_err(|e| match e {
                BotError::OutOfTime { .. } => ApiError::OutOfTime(format!(
                    "the review's searches did not finish within {} ms: ask for fewer positions",
                    self.budget.as_millis()
                ))
                .worded("review_time", json!({ "ms": self.budget.as_millis() })),
                other => ApiError::from(other),
            })?;
        let rules = *self.start.rules();
        let mut to_move = self.start.to_move();
        let mut positions = Vec::with_capacity(reviewed.evaluations.len());
        for (i, e) in reviewed.evaluations.iter().enumerate() {
            positions.push(position_json(&rules, self.from + i, to_move, e));
            to_move = to_move.opponent();
        }
        let moves: Vec<Json> = self
            .moves
            .iter()
            .zip(&reviewed.judgements)
            .enumerate()
            .map(|(i, (&cell, (judgement, confirmed)))| {
                let mover = if i % 2 == 0 {
                    self.start.to_move()
                } else {
                    self.start.to_move().opponent()
                };
                let before = &reviewed.evaluations[i];
                move_json(
                    &rules,
                    self.from + i + 1,
                    mover,
                    cell,
                    before,
                    judgement,
                    *confirmed,
                )
            })
            .collect();
        Ok(json!({ "nodes": self.nodes, "positions": positions, "moves": moves }))
    }
}

fn position_json(rules: &Rules, ply: usize, to_move: Player, e: &Evaluation) -> Json {
    let expect_x = if to_move == Player::X {
        e.expected
    } else {
        1.0 - e.expected
    };
    json!({
        "ply": ply,
        "to_move": to_move.to_string(),
        "value": value_json(rules, e.value),
        "expect_x": rounded(expect_x),
        "best": e.best.map(|c| rules.cell_name(c)),
        "pv": cell_names(rules, &e.pv),
        "depth": e.depth,
        "nodes": e.nodes,
    })
}

fn move_json(
    rules: &Rules,
    ply: usize,
    mover: Player,
    cell: Cell,
    before: &Evaluation,
    judgement: &Judgement,
    confirmed: bool,
) -> Json {
    json!({
        "ply": ply,
        "move": rules.cell_name(cell),
        "player": mover.to_string(),
        "mark": judgement.mark.name(),
        "loss": rounded(judgement.loss),
        "accuracy": (judgement.accuracy * 10.0).round() / 10.0,
        "value": value_json(rules, judgement.value),
        "best": before.best.map(|c| rules.cell_name(c)),
        "best_value": value_json(rules, before.value),
        "line": cell_names(rules, &before.pv),
        "confirmed": confirmed,
    })
}

/// A chance to three decimals.
fn rounded(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
