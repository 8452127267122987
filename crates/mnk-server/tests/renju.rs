//! Renju over the API: the state lists black's forbidden points while black is to move, and a
//! forbidden move is refused with its reason.

use crate::common;

use common::{app, assert_error, post};
use serde_json::json;

/// Black (X) to move, with an open two across (f8 g8) and one down (h9 h10) meeting at h8.
const DOUBLE_THREE_AT_H8: [&str; 8] = ["f8", "a1", "g8", "c1", "h9", "e1", "h10", "g1"];

#[tokio::test]
async fn the_state_lists_blacks_forbidden_points_while_black_is_to_move() {
    let app = app();
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "15x15x5,renju", "moves": DOUBLE_THREE_AT_H8}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    let forbidden = reply.json["forbidden"].as_array().unwrap();
    let h8 = forbidden
        .iter()
        .find(|f| f["cell"] == "h8")
        .expect("h8 is forbidden");
    assert_eq!(h8["kind"], "double-three");
    assert_eq!((h8["x"].as_i64(), h8["y"].as_i64()), (Some(7), Some(7)));
    assert!(h8["why"].as_str().unwrap().contains("double-three"));

    // White to move: white has no forbidden points.
    let mut moves: Vec<&str> = DOUBLE_THREE_AT_H8.to_vec();
    moves.push("o15");
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "15x15x5,renju", "moves": moves}),
    )
    .await;
    assert_eq!(reply.json["forbidden"], json!([]));

    // Freestyle has no such field.
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "15x15x5", "moves": DOUBLE_THREE_AT_H8}),
    )
    .await;
    assert!(reply.json.get("forbidden").is_none());
}

#[tokio::test]
async fn a_forbidden_move_is_refused_with_its_reason() {
    let mut moves: Vec<&str> = DOUBLE_THREE_AT_H8.to_vec();
    moves.push("h8");
    let reply = post(
        &app(),
        "/api/state",
        json!({"rules": "15x15x5,renju", "moves": moves}),
    )
    .await;
    assert_error(&reply, 422, "illegal_move");
    assert_eq!(reply.json["error"]["index"], 8);
    assert!(
        reply.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("double-three"),
        "{}",
        reply.json
    );
}
