//! No client input makes the server fail: every bot and level on odd rules (tiny k, thin and tiny
//! boards, the unbounded board) answers with a move or a 4xx error, never a 500, and within its
//! time limit.

use crate::common;

use std::time::{Duration, Instant};

use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bot_answers_odd_rules_without_failing() {
    let app = common::app();
    let opponents: Vec<serde_json::Value> = (1..=6)
        .map(|level| json!({"level": level}))
        .chain(
            ["rules", "perfect", "alphabeta", "weights", "engine"].map(|bot| json!({"bot": bot})),
        )
        .collect();
    // 200 stones far apart on the unbounded board: thousands of candidate cells per node, so a
    // search must watch its deadline often, and stop at once when it passes.
    let spread: Vec<String> = (0..200)
        .map(|i| format!("{},{}", (i % 20) * 5, (i / 20) * 5))
        .collect();
    let games = [
        ("infx5", json!(spread)),
        ("infx1", json!([])),
        ("infx2", json!([])),
        ("infx2", json!(["0,0"])),
        ("infx3", json!(["0,0", "1,0"])),
        ("infx5", json!(["0,0"])),
        ("15x15x1", json!([])),
        ("15x15x2", json!(["h8"])),
        ("15x15x3", json!(["h8", "h9"])),
        ("1x1x1", json!([])),
        ("2x2x2", json!(["a1"])),
        ("32x1x5", json!(["a1"])),
        ("1x32x32", json!([])),
        ("4x4x4,exact", json!(["b2"])),
        ("7x7x4,o-first", json!(["d4"])),
    ];
    let mut failures = Vec::new();
    for (rules, moves) in &games {
        for opponent in &opponents {
            let body = json!({"rules": rules, "moves": moves, "opponent": opponent, "time_ms": 100, "seed": 1});
            let start = Instant::now();
            let reply = common::post(&app, "/api/move", body).await;
            let took = start.elapsed();
            if reply.status.is_server_error() || took > Duration::from_millis(1500) {
                let moves = moves.as_array().map_or(0, Vec::len);
                failures.push(format!(
                    "{rules} after {moves} moves, {opponent}: {} in {took:?}: {}",
                    reply.status, reply.json["error"]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
