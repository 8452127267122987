//! `POST /api/tree`, the game-tree explorer's data: every move with its exact value and the games
//! and positions below it, in process through `oneshot`.
//!
//! The counts are checked against facts (tests/data/tree-counts.tsv of mnk-engine: 255,168 games
//! and 5,478 positions in tic-tac-toe) and against the endpoint itself: a move's counts are the
//! counts of the position after it. mnk-engine's tests check them against brute force.

use crate::common;

use axum::http::StatusCode;
use common::{app, assert_error, post};
use serde_json::{json, Value};

/// `POST /api/tree` for `rules` after `moves`, which must answer 200.
async fn tree(app: &axum::Router, rules: &str, moves: &[&str]) -> Value {
    let reply = post(app, "/api/tree", json!({"rules": rules, "moves": moves})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    reply.json
}

/// A value's rank for the side to move: faster wins first, slower losses before faster ones.
fn rank(value: &Value) -> i64 {
    let plies = value["plies"].as_i64().unwrap_or(0);
    match value["kind"].as_str().unwrap() {
        "win" => 1000 - plies,
        "loss" => -1000 + plies,
        "draw" => 0,
        other => panic!("not an exact value: {other}"),
    }
}

#[tokio::test]
async fn the_tree_of_the_empty_tic_tac_toe_board() {
    let app = app();
    let answer = tree(&app, "tictactoe", &[]).await;
    assert_eq!(answer["to_move"], "X");
    assert_eq!(answer["outcome"], json!({"status": "ongoing"}));
    assert_eq!(answer["value"]["kind"], "draw");
    // tree-counts.tsv: complete games (OEIS A061526), reachable positions (OpenSpiel).
    assert_eq!(answer["games"], 255_168);
    assert_eq!(answer["positions"], 5_478);
    assert!(answer.get("uncounted").is_none());
    let children = answer["children"].as_array().unwrap();
    let cells: Vec<&str> = children
        .iter()
        .map(|c| c["cell"].as_str().unwrap())
        .collect();
    // Every move holds the draw, so the order is the cells'.
    assert_eq!(
        cells,
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    );
    assert_eq!(children[0]["x"], 0);
    assert_eq!(children[3]["y"], 1);
    let games = |cell: &str| {
        children.iter().find(|c| c["cell"] == cell).unwrap()["games"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(games("a1"), 27_732);
    assert_eq!(games("b1"), 29_592);
    assert_eq!(games("b2"), 25_872);
    let sum: u64 = children.iter().map(|c| c["games"].as_u64().unwrap()).sum();
    assert_eq!(sum, 255_168);
    // Positions below the moves overlap (transpositions): together more than the 5,477 below
    // the empty board, each fewer.
    let positions: Vec<u64> = children
        .iter()
        .map(|c| c["positions"].as_u64().unwrap())
        .collect();
    assert!(positions.iter().sum::<u64>() > 5_477);
    assert!(positions.iter().all(|&p| p < 5_477));
    // A move's counts are those of the position after it, and its value that position's, seen
    // from the other side.
    for child in children {
        let cell = child["cell"].as_str().unwrap();
        let after = tree(&app, "tictactoe", &[cell]).await;
        assert_eq!(after["games"], child["games"], "{cell}");
        assert_eq!(after["positions"], child["positions"], "{cell}");
        assert_eq!(after["to_move"], "O");
        assert_eq!(rank(&after["value"]), -rank(&child["value"]), "{cell}");
    }
}

#[tokio::test]
async fn children_come_best_first_then_by_cell() {
    let app = app();
    // X threatens c3 and O must take it; the other moves lose, some faster than others.
    let answer = tree(&app, "tictactoe", &["a1", "b1", "b2"]).await;
    assert_eq!(answer["to_move"], "O");
    let children = answer["children"].as_array().unwrap();
    assert_eq!(children.len(), 6);
    assert_eq!(children[0]["cell"], "c3");
    assert_eq!(answer["value"], children[0]["value"]);
    for pair in children.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let order = (
            -rank(&a["value"]),
            a["y"].as_i64().unwrap(),
            a["x"].as_i64().unwrap(),
        );
        let next = (
            -rank(&b["value"]),
            b["y"].as_i64().unwrap(),
            b["x"].as_i64().unwrap(),
        );
        assert!(order < next, "{a} before {b}");
    }
    // The values agree with /api/solve's.
    let solved = post(
        &app,
        "/api/solve",
        json!({"rules": "tictactoe", "moves": ["a1", "b1", "b2"]}),
    )
    .await;
    let values: Vec<&Value> = children.iter().map(|c| &c["value"]).collect();
    let solved_values: Vec<&Value> = solved.json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["value"])
        .collect();
    assert_eq!(values, solved_values);
}

#[tokio::test]
async fn a_finished_game_is_a_leaf() {
    let answer = tree(&app(), "tictactoe", &["a1", "a2", "b1", "b2", "c1"]).await;
    assert_eq!(answer["outcome"]["status"], "win");
    assert_eq!(answer["outcome"]["winner"], "X");
    assert_eq!(answer["value"], Value::Null);
    assert_eq!(answer["games"], 1);
    assert_eq!(answer["positions"], 1);
    assert_eq!(answer["children"], json!([]));
}

#[tokio::test]
async fn a_game_drawn_for_want_of_lines_still_has_its_moves_and_counts() {
    let app = app();
    // O's c2 leaves no line for either player; a2, the last cell, fills the board.
    let dead = ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2"];
    let answer = tree(&app, "tictactoe", &dead).await;
    assert_eq!(
        answer["outcome"],
        json!({"status": "draw", "reason": "no_line_left"})
    );
    assert_eq!(answer["value"]["kind"], "draw");
    assert_eq!(answer["games"], 1);
    assert_eq!(answer["positions"], 2);
    let children = answer["children"].as_array().unwrap();
    assert_eq!(children.len(), 1);
    assert_eq!(children[0]["cell"], "a2");
    assert_eq!(children[0]["games"], 1);
    assert_eq!(children[0]["positions"], 1);
    // The move itself comes after the end of the game as the API reads games.
    let mut after = dead.to_vec();
    after.push("a2");
    let reply = post(
        &app,
        "/api/tree",
        json!({"rules": "tictactoe", "moves": after}),
    )
    .await;
    assert_error(&reply, 409, "game_over");
}

#[tokio::test]
async fn counts_out_of_reach_are_left_out_with_the_reason() {
    let app = app();
    // 25 empty cells: the values come, the counts are too large.
    let answer = tree(&app, "5x5x4", &[]).await;
    assert_eq!(answer["value"]["kind"], "draw");
    assert_eq!(answer["uncounted"]["code"], "too_large");
    assert_eq!(answer["uncounted"]["reason"], "empties");
    assert_eq!(answer["uncounted"]["params"], json!({"max": 16}));
    assert!(answer["uncounted"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("at most")));
    assert!(answer.get("games").is_none() && answer.get("positions").is_none());
    let children = answer["children"].as_array().unwrap();
    assert_eq!(children.len(), 25);
    assert!(children
        .iter()
        .all(|c| c.get("games").is_none() && c["value"]["kind"].is_string()));
    // 4x4x3 from the empty board: the values take a few hundred nodes, the counts seconds.
    let reply = post(
        &app,
        "/api/tree",
        json!({"rules": "4x4x3", "moves": [], "time_ms": 5}),
    )
    .await;
    if reply.status == StatusCode::OK {
        assert_eq!(
            reply.json["uncounted"]["code"], "out_of_time",
            "{}",
            reply.json
        );
        assert_eq!(reply.json["children"].as_array().unwrap().len(), 16);
    } else {
        // On a slow machine even the values may not come in 5 ms.
        assert_error(&reply, 422, "out_of_time");
    }
}

#[tokio::test]
async fn tree_refusals() {
    let app = app();
    let cases = [
        (json!({"rules": "gomoku15", "moves": []}), 422, "too_large"),
        (json!({"rules": "unbounded", "moves": []}), 422, "too_large"),
        (
            json!({"rules": "tictactoe", "moves": ["a1", "a1"]}),
            422,
            "illegal_move",
        ),
        (
            json!({"rules": "tictactoe", "moves": ["zz"]}),
            400,
            "bad_cell",
        ),
        (json!({"rules": "3x3"}), 422, "bad_rules"),
        (json!({"rules": "tictactoe", "depth": 3}), 400, "bad_json"),
        (
            json!({"rules": "tictactoe", "moves": ["a1", "a2", "b1", "b2", "c1", "c2"]}),
            409,
            "game_over",
        ),
        // No values within a millisecond: 6x6x4 takes the solver about 600,000 nodes.
        (
            json!({"rules": "6x6x4", "moves": [], "time_ms": 1}),
            422,
            "out_of_time",
        ),
    ];
    for (body, status, code) in cases {
        let reply = post(&app, "/api/tree", body.clone()).await;
        assert_error(&reply, status, code);
        assert!(reply.json["error"]["message"].as_str().is_some(), "{body}");
    }
}
