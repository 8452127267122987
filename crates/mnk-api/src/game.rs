//! Reading a game out of a request and writing positions back as JSON.
//!
//! Requests carry the rules and the whole move list; mnk-core alone decides whether they make a
//! legal game. This module only translates: JSON in, [`Position`] or [`ApiError`] out, and the
//! JSON shapes of `docs/api.md` for cells, outcomes and states.

use mnk_core::{Cell, DrawKind, Outcome, Position, Rules, RulesSpec};
use mnk_engine::Value;
use serde::Deserialize;
use serde_json::{json, Value as Json};

use crate::error::ApiError;

/// The most moves a request may carry on the unbounded board (a bounded board allows as many as it
/// has cells).
pub const MAX_UNBOUNDED_MOVES: usize = 1024;

/// The part every game request shares: the rules and the moves so far. Requests that carry more
/// repeat these two fields (a flattened struct could not refuse unknown fields) and build their
/// position with [`position`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The rules: an object as in `docs/api.md`, or a rules string such as `"15x15x5"`.
    pub rules: Json,
    /// The moves so far, oldest first: cell strings (`"h8"`, `"7,7"`) or `{"x": 7, "y": 7}`.
    #[serde(default)]
    pub moves: Vec<Json>,
}

impl GameRequest {
    /// The request's position (see [`position`]).
    pub fn position(&self) -> Result<Position, ApiError> {
        position(&self.rules, &self.moves)
    }
}

/// Validates a game into a position: the rules first, then the length of the move list, then each
/// cell's notation, then each move's legality (by mnk-core).
pub fn position(rules: &Json, moves: &[Json]) -> Result<Position, ApiError> {
    play(parse_rules(rules)?, moves)
}

/// Plays a move list under rules already read: the length of the list, then each cell's
/// notation, then each move's legality, as [`position`] does.
pub fn play(rules: Rules, moves: &[Json]) -> Result<Position, ApiError> {
    check_move_count(&rules, moves.len())?;
    let moves = moves
        .iter()
        .enumerate()
        .map(|(index, m)| {
            parse_cell(m).map_err(|message| {
                let text = m.as_str().map_or_else(|| m.to_string(), str::to_string);
                ApiError::not_a_cell(index, &text, message)
            })
        })
        .collect::<Result<Vec<Cell>, ApiError>>()?;
    let pos =
        Position::from_moves(rules, &moves).map_err(|(index, e)| ApiError::from_play(index, &e))?;
    refuse_moves_after_dead_draw(rules, &moves)?;
    Ok(pos)
}

/// Refuses a move made after the game became a draw for want of any line left to make
/// (`game_over`, with the index of the first such move). Once no line is left none ever is
/// again, so the first dead position is found by halving.
fn refuse_moves_after_dead_draw(rules: Rules, moves: &[Cell]) -> Result<(), ApiError> {
    let dead_after =
        |n: usize| Position::from_moves(rules, &moves[..n]).is_ok_and(|pos| pos.no_line_left());
    if moves.is_empty() || !dead_after(moves.len() - 1) {
        return Ok(());
    }
    let (mut alive, mut dead) = (0, moves.len() - 1);
    if dead_after(0) {
        dead = 0;
    }
    while alive + 1 < dead {
        let mid = (alive + dead) / 2;
        if dead_after(mid) {
            dead = mid;
        } else {
            alive = mid;
        }
    }
    Err(ApiError::GameOver {
        index: Some(dead),
        message: format!(
            "move {} comes after the game ended: no line could be completed any more, so it is a draw",
            dead + 1
        ),
    }
    .worded("after_the_end", json!({ "move": dead + 1 })))
}

/// Whether the game is over: won, the board full, or no line left for either player.
#[must_use]
pub fn finished(pos: &Position) -> bool {
    pos.is_over() || pos.no_line_left()
}

/// Refuses a game of more moves than the board has cells, or than [`MAX_UNBOUNDED_MOVES`] on
/// the unbounded board (`too_large`).
pub fn check_move_count(rules: &Rules, count: usize) -> Result<(), ApiError> {
    let limit = rules.cell_count().unwrap_or(MAX_UNBOUNDED_MOVES);
    if count > limit {
        return Err(ApiError::TooLarge(format!(
            "{count} moves is more than {} allow (at most {limit})",
            if rules.is_bounded() {
                "the board's cells"
            } else {
                "the server's limit for the unbounded board"
            }
        ))
        .worded("too_many_moves", json!({ "n": count, "max": limit })));
    }
    Ok(())
}

/// Reads rules given as an object (validated by mnk-core's deserializer) or as a string in
/// mnk-core's notation (`15x15x5`, `infx5`, `gomoku15`).
pub fn parse_rules(value: &Json) -> Result<Rules, ApiError> {
    match value {
        Json::String(text) => text.parse::<Rules>().map_err(ApiError::from),
        Json::Object(_) => RulesSpec::deserialize(value)
            .map_err(|e| {
                ApiError::BadRules(format!("the rules are not playable: {e}"))
                    .worded("unreadable", json!({}))
            })?
            .build()
            .map_err(ApiError::from),
        _ => Err(ApiError::BadRules(
            "rules must be an object such as {\"width\": 15, \"height\": 15, \"k\": 5} or a string such as \"15x15x5\""
                .to_string(),
        )
        .worded("unreadable", json!({}))),
    }
}

/// Reads one move: a cell string in either notation, or an object with integer `x` and `y`.
fn parse_cell(value: &Json) -> Result<Cell, String> {
    match value {
        Json::String(text) => text.parse::<Cell>().map_err(|e| e.to_string()),
        Json::Object(map) => {
            let coordinate = |name: &str| {
                map.get(name)
                    .and_then(Json::as_i64)
                    .and_then(|n| i32::try_from(n).ok())
            };
            match (coordinate("x"), coordinate("y")) {
                (Some(x), Some(y)) if Cell::new(x, y).in_range() => Ok(Cell::new(x, y)),
                _ => Err(format!(
                    "{value} is not a cell: give integer \"x\" and \"y\" within the board's range"
                )),
            }
        }
        other => Err(format!(
            "{other} is not a cell: write a string such as \"h8\" or \"7,7\""
        )),
    }
}

/// A cell in both notations: `{"cell": "h8", "x": 7, "y": 7}` (`"cell": "7,7"` on the unbounded
/// board, which always writes `x,y`).
#[must_use]
pub fn cell_json(rules: &Rules, cell: Cell) -> Json {
    json!({ "cell": rules.cell_name(cell), "x": cell.x, "y": cell.y })
}

/// Cells as the board writes them.
#[must_use]
pub fn cell_names(rules: &Rules, cells: &[Cell]) -> Vec<String> {
    cells.iter().map(|&c| rules.cell_name(c)).collect()
}

/// How the game stands: `{"status": "ongoing" | "draw" | "win", "winner", "line"}`, and for a
/// draw before the board is full (renju's black with no move that is not forbidden)
/// `"reason": "no_move_left"`.
#[must_use]
pub fn outcome_json(rules: &Rules, outcome: &Outcome) -> Json {
    match outcome {
        Outcome::Ongoing => json!({ "status": "ongoing" }),
        Outcome::Draw(DrawKind::FullBoard) => json!({ "status": "draw" }),
        Outcome::Draw(DrawKind::NoMoveLeft) => {
            json!({ "status": "draw", "reason": "no_move_left" })
        }
        Outcome::Win { winner, line } => json!({
            "status": "win",
            "winner": winner,
            "line": line.iter().map(|&c| cell_json(rules, c)).collect::<Vec<_>>(),
        }),
    }
}

/// The outcome as the game stands: a dead draw (no line left for either player) is a draw, with
/// `"reason": "no_line_left"`, though the board is not full.
#[must_use]
pub fn game_outcome_json(pos: &Position) -> Json {
    if pos.no_line_left() {
        return json!({ "status": "draw", "reason": "no_line_left" });
    }
    outcome_json(pos.rules(), pos.outcome())
}

/// The state of a game, as `POST /api/state` answers it; under rules with forbidden moves
/// (renju), with `forbidden`: the cells the side to move may not play, and why.
#[must_use]
pub fn state_json(pos: &Position) -> Json {
    let mut state = json!({
        "rules": pos.rules(),
        "moves": cell_names(pos.rules(), pos.history()),
        "ply": pos.ply(),
        "to_move": pos.to_move(),
        "outcome": game_outcome_json(pos),
        "last": pos.last_move().map(|c| cell_json(pos.rules(), c)),
    });
    if pos.rules().has_forbidden_moves(pos.rules().first()) {
        state["forbidden"] = Json::Array(forbidden_json(pos));
    }
    if let Some(unwon) = unwon_json(pos) {
        state["unwon"] = unwon;
    }
    state
}

/// When the last move made k or more in a row that does not win (caro's five closed at both
/// ends, an overline where only exactly k wins): whose run, its cells and why, so that a
/// front-end can say why the game goes on.
pub fn unwon_json(pos: &Position) -> Option<Json> {
    let last = pos.last_move()?;
    if pos.outcome().winner().is_some() {
        return None;
    }
    let (run, why) = pos.unwon_run(last)?;
    Some(json!({
        "player": pos.stone(last),
        "cells": cell_names(pos.rules(), &run),
        "reason": why.name(),
        "why": why.to_string(),
    }))
}

/// The cells the side to move may not play, each with its kind (`double-three`,
/// `double-four`, `overline`) and the reason in words; none when the game is over or the side to
/// move has no forbidden moves.
pub fn forbidden_json(pos: &Position) -> Vec<Json> {
    let rules = pos.rules();
    if finished(pos) || !rules.has_forbidden_moves(pos.to_move()) {
        return Vec::new();
    }
    pos.forbidden_points()
        .into_iter()
        .map(|(cell, kind)| {
            let mut entry = cell_json(rules, cell);
            entry["kind"] = json!(kind.name());
            entry["why"] = json!(kind.to_string());
            entry
        })
        .collect()
}

/// A value as `{"kind", "plies" | "score", "text", "expect"}` (`expect`: the win chance of the
/// player it is for, mnk-engine's `chance::expected`).
#[must_use]
pub fn value_json(rules: &Rules, value: Value) -> Json {
    let text = value.to_string();
    // The expected result for the side to move (for a move: its player), 0 to 1, to three places.
    let expect = (mnk_engine::chance::expected(rules, value) * 1000.0).round() / 1000.0;
    match value {
        Value::Win(plies) => {
            json!({ "kind": "win", "plies": plies, "text": text, "expect": expect })
        }
        Value::Loss(plies) => {
            json!({ "kind": "loss", "plies": plies, "text": text, "expect": expect })
        }
        Value::Draw => json!({ "kind": "draw", "text": text, "expect": expect }),
        Value::Eval(score) => {
            json!({ "kind": "eval", "score": score, "text": text, "expect": expect })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(rules: Json, moves: Json) -> GameRequest {
        serde_json::from_value(json!({ "rules": rules, "moves": moves })).unwrap()
    }

    #[test]
    fn a_draw_before_the_board_is_full_says_why() {
        let renju: Rules = "renju".parse().unwrap();
        let full = outcome_json(&renju, &Outcome::Draw(DrawKind::FullBoard));
        assert_eq!(full, json!({ "status": "draw" }));
        let shut_out = outcome_json(&renju, &Outcome::Draw(DrawKind::NoMoveLeft));
        assert_eq!(
            shut_out,
            json!({ "status": "draw", "reason": "no_move_left" })
        );
    }

    #[test]
    fn a_run_that_does_not_win_is_explained() {
        let state = |rules: &str, moves: &str| {
            let moves: Vec<Json> = moves.split(' ').map(Json::from).collect();
            state_json(&position(&json!(rules), &moves).unwrap())
        };
        let closed = state("caro", "b1 a1 c1 g1 d1 a3 f1 c3 e1");
        assert_eq!(closed["outcome"]["status"], "ongoing");
        assert_eq!(closed["unwon"]["reason"], "closed");
        assert_eq!(closed["unwon"]["player"], "X");
        assert_eq!(
            closed["unwon"]["cells"],
            json!(["b1", "c1", "d1", "e1", "f1"])
        );
        let six = "a1 a3 b1 c3 c1 e3 d1 g3 f1 i3 e1";
        assert_eq!(state("15x15x5,exact", six)["unwon"]["reason"], "overline");
        // A win, or a move that makes no long run, has nothing to explain; nor does a later
        // move that does not make the run.
        assert_eq!(state("15x15x5", six)["outcome"]["status"], "win");
        assert!(state("15x15x5", six).get("unwon").is_none());
        assert!(state("caro", "b1 a1 c1 g1 d1 a3 f1 c3 e1 h8")
            .get("unwon")
            .is_none());
        assert!(state("caro", "h8").get("unwon").is_none());
    }

    #[test]
    fn rules_come_as_objects_or_strings() {
        let object = parse_rules(&json!({"width": 15, "height": 15, "k": 5})).unwrap();
        assert_eq!(object, "15x15x5".parse().unwrap());
        assert_eq!(
            parse_rules(&json!("gomoku15")).unwrap(),
            mnk_core::Preset::Gomoku15.rules()
        );
        for bad in [
            json!({"width": 3, "height": 3, "k": 4}),
            json!({"width": 0, "height": 3, "k": 1}),
            json!({"width": 3, "k": 3}),
            json!({"width": 3, "height": 3, "k": 3, "colour": "red"}),
            json!("3x3"),
            json!(5),
        ] {
            let e = parse_rules(&bad).unwrap_err();
            assert_eq!(e.code(), "bad_rules", "{bad}");
        }
    }

    #[test]
    fn moves_are_checked_in_order() {
        let pos = request(json!("3x3x3"), json!(["b2", {"x": 0, "y": 0}, "2,2"]))
            .position()
            .unwrap();
        assert_eq!(pos.ply(), 3);
        let e = request(json!("3x3x3"), json!(["b2", "zz"]))
            .position()
            .unwrap_err();
        assert_eq!((e.code(), e.index()), ("bad_cell", Some(1)));
        let e = request(json!("3x3x3"), json!(["b2", 7]))
            .position()
            .unwrap_err();
        assert_eq!((e.code(), e.index()), ("bad_cell", Some(1)));
        let e = request(json!("3x3x3"), json!(["b2", "b2"]))
            .position()
            .unwrap_err();
        assert_eq!((e.code(), e.index()), ("illegal_move", Some(1)));
        let e = request(json!("3x3x3"), json!(["d4"]))
            .position()
            .unwrap_err();
        assert_eq!((e.code(), e.index()), ("illegal_move", Some(0)));
        let e = request(json!("3x3x3"), json!(["a1", "a2", "b1", "b2", "c1", "c2"]))
            .position()
            .unwrap_err();
        assert_eq!((e.code(), e.index()), ("game_over", Some(5)));
    }

    #[test]
    fn move_lists_are_bounded() {
        let ten = json!(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "a1"]);
        let e = request(json!("3x3x3"), ten).position().unwrap_err();
        assert_eq!(e.code(), "too_large");
        let many: Vec<String> = (0..=MAX_UNBOUNDED_MOVES)
            .map(|i| format!("{i},0"))
            .collect();
        let e = request(json!("infx5"), json!(many)).position().unwrap_err();
        assert_eq!(e.code(), "too_large");
    }

    #[test]
    fn state_shows_the_winning_line() {
        let pos = request(json!("3x3x3"), json!(["a1", "a2", "b2", "b3", "c3"]))
            .position()
            .unwrap();
        let state = state_json(&pos);
        assert_eq!(state["outcome"]["status"], "win");
        assert_eq!(state["outcome"]["winner"], "X");
        assert_eq!(
            state["outcome"]["line"][0],
            json!({"cell": "a1", "x": 0, "y": 0})
        );
        assert_eq!(state["last"]["cell"], "c3");
        assert_eq!(state["to_move"], "O");
        assert_eq!(state["rules"]["k"], 3);
    }

    #[test]
    fn values_carry_kind_text_and_chance() {
        let rules: Rules = "gomoku15".parse().unwrap();
        assert_eq!(
            value_json(&rules, Value::Win(3)),
            json!({"kind": "win", "plies": 3, "text": "win in 3", "expect": 1.0})
        );
        assert_eq!(
            value_json(&rules, Value::Draw),
            json!({"kind": "draw", "text": "draw", "expect": 0.5})
        );
        let eval = value_json(&rules, Value::Eval(120));
        assert_eq!(
            (eval["kind"].clone(), eval["score"].clone()),
            (json!("eval"), json!(120))
        );
        let chance = eval["expect"].as_f64().unwrap();
        assert!(chance > 0.5 && chance < 1.0, "{chance}");
        assert_eq!(value_json(&rules, Value::Loss(4))["kind"], "loss");
        assert_eq!(value_json(&rules, Value::Loss(4))["expect"], 0.0);
    }
}
