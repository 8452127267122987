//! `POST /api/review`: positions valued by a fixed search, moves judged by the chance they lose.

use crate::common;

use axum::http::StatusCode;
use common::{app, assert_error, post};
use serde_json::{json, Value};

/// Nodes per position in these tests: enough to see a five or a four coming.
const NODES: u64 = 20_000;

async fn review(body: Value) -> Value {
    let reply = post(&app(), "/api/review", body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    reply.json
}

fn marks(reply: &Value) -> Vec<&str> {
    reply["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mark"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_review_says_the_same_thing_twice() {
    let game = json!({
        "rules": "gomoku15",
        "moves": ["h8", "i9", "h9", "h10", "g10", "i8", "i10", "j9", "k9", "g8"],
        "nodes": NODES,
    });
    let (first, second) = (review(game.clone()).await, review(game).await);
    assert_eq!(first, second);
    assert_eq!(first["positions"].as_array().unwrap().len(), 11);
    assert_eq!(first["moves"].as_array().unwrap().len(), 10);
    for p in first["positions"].as_array().unwrap() {
        let chance = p["expect_x"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&chance), "{p}");
        assert!(p["value"]["expect"].is_number(), "{p}");
    }
    for (i, m) in first["moves"].as_array().unwrap().iter().enumerate() {
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["player"], if i % 2 == 0 { "X" } else { "O" });
        let accuracy = m["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{m}");
        assert!(m["line"].as_array().is_some_and(|l| !l.is_empty()), "{m}");
    }
}

#[tokio::test]
async fn a_move_that_keeps_a_proven_win_is_not_a_mistake() {
    // X's open four h8–k8: any move of X's still wins (O cannot block both ends), only slower.
    let moves = json!(["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "o15"]);
    let reply =
        review(json!({"rules": "gomoku15", "moves": moves, "from": 8, "nodes": NODES})).await;
    let played = &reply["moves"][0];
    assert_eq!(played["best_value"]["kind"], "win", "{played}");
    assert_eq!(played["value"]["kind"], "win", "{played}");
    assert_eq!(played["mark"], "good", "{played}");
    assert_eq!(played["loss"], 0.0);
}

#[tokio::test]
async fn a_move_that_lets_a_five_through_is_a_blunder() {
    // O's four a1–a4 needs a5; X looks away with o15.
    let moves = json!(["h8", "a1", "i9", "a2", "o1", "a3", "o3", "a4", "o15"]);
    let reply =
        review(json!({"rules": "gomoku15", "moves": moves, "from": 8, "nodes": NODES})).await;
    let played = &reply["moves"][0];
    assert_eq!(played["mark"], "blunder", "{played}");
    assert_eq!(played["best"], "a5", "{played}");
    assert_eq!(played["value"]["kind"], "loss", "{played}");
    assert!(played["accuracy"].as_f64().unwrap() < 10.0, "{played}");
}

#[tokio::test]
async fn the_winning_move_of_a_finished_game_is_judged() {
    let moves = json!(["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "l8"]);
    let reply =
        review(json!({"rules": "gomoku15", "moves": moves, "from": 7, "nodes": NODES})).await;
    assert_eq!(marks(&reply), ["best", "best"]);
    let last = &reply["positions"][2];
    assert_eq!(last["value"]["kind"], "loss", "{last}");
    assert_eq!(last["expect_x"], 1.0);
    assert!(last["best"].is_null());
}

#[tokio::test]
async fn bad_review_requests_are_refused() {
    let app = app();
    let game = |extra: Value| {
        let mut body = json!({"rules": "gomoku15", "moves": ["h8", "i9"]});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (extra, status, code) in [
        (json!({"from": 2, "to": 1}), 400, "bad_json"),
        (json!({"to": 3}), 400, "bad_json"),
        (json!({"from": 5}), 400, "bad_json"),
        (json!({"nodes": 0}), 400, "bad_json"),
        (json!({"nodes": 1_000_000_000_000u64}), 400, "bad_json"),
        (json!({"colour": "X"}), 400, "bad_json"),
        (json!({"moves": ["h8", "h8"]}), 422, "illegal_move"),
    ] {
        let reply = post(&app, "/api/review", game(extra.clone())).await;
        assert_error(&reply, status, code);
    }
    // 40 moves row by row (a1..o1, a2..o2, a3..k3): no five, and 41 positions, too many at once.
    let long: Vec<String> = (0..40u8)
        .map(|i| format!("{}{}", char::from(b'a' + i % 15), 1 + i / 15))
        .collect();
    let reply = post(
        &app,
        "/api/review",
        json!({"rules": "gomoku15", "moves": long, "to": 40}),
    )
    .await;
    assert_error(&reply, 422, "too_large");
}
