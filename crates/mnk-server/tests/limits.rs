//! Limits and overload: body size, think-time cap, a full engine pool answering `busy`.

use crate::common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::{assert_error, post, send};
use mnk_server::ServerConfig;
use serde_json::json;

/// A search that cannot finish on its own: alpha-beta 8 plies deep on an open 15×15 board.
fn slow_move(time_ms: u64) -> serde_json::Value {
    json!({
        "rules": "gomoku15",
        "moves": ["h8", "i9", "g7"],
        "opponent": {"bot": "alphabeta", "depth": 8},
        "time_ms": time_ms,
        "seed": 1,
    })
}

/// A POST of `body` as it is.
fn raw_post(path: &str, body: String) -> Request<Body> {
    Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap()
}

/// A valid game request padded with `spaces` of white space.
fn padded_state(spaces: usize) -> String {
    format!(
        "{{\"rules\": \"tictactoe\", \"moves\": []{}}}",
        " ".repeat(spaces)
    )
}

#[tokio::test]
async fn bodies_over_64_kib_are_refused_with_413() {
    let app = common::app();
    let reply = send(&app, raw_post("/api/state", padded_state(70 * 1024))).await;
    assert_error(&reply, 413, "too_large");

    // Also when the client announces the length up front.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/move")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, 200_000)
        .body(Body::from(vec![b' '; 200_000]))
        .unwrap();
    assert_error(&send(&app, request).await, 413, "too_large");

    // Just under the limit is fine.
    let reply = send(&app, raw_post("/api/state", padded_state(60 * 1024))).await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn move_lists_are_bounded_by_the_board() {
    let app = common::app();
    let many: Vec<String> = (0..1025)
        .map(|i| format!("{},{}", i % 40, i / 40))
        .collect();
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "unbounded", "moves": many}),
    )
    .await;
    assert_error(&reply, 422, "too_large");
    let full: Vec<String> = (0..=15 * 15)
        .map(|i| format!("{},{}", i % 15, i / 15))
        .collect();
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "gomoku15", "moves": full}),
    )
    .await;
    assert_error(&reply, 422, "too_large");
}

#[tokio::test]
async fn think_time_is_capped_by_the_server() {
    let config = ServerConfig {
        max_think: Duration::from_millis(300),
        ..common::config()
    };
    let app = mnk_server::router(&config);
    let start = Instant::now();
    let reply = post(&app, "/api/move", slow_move(1_000_000)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert!(
        reply.json["time_ms"].as_u64().unwrap() < 1500,
        "{}",
        reply.json
    );
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_pool_answers_busy_with_retry_after() {
    let config = ServerConfig {
        threads: 1,
        queue_wait: Duration::from_millis(200),
        ..common::config()
    };
    let app = mnk_server::router(&config);
    let slow = {
        let app = app.clone();
        tokio::spawn(async move { post(&app, "/api/move", slow_move(1500)).await })
    };
    // Let the slow search take the only slot.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let start = Instant::now();
    let refused = post(
        &app,
        "/api/weights",
        json!({"rules": "gomoku15", "moves": ["h8"]}),
    )
    .await;
    assert_error(&refused, 503, "busy");
    assert!(
        refused.headers[header::RETRY_AFTER]
            .to_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            >= 1
    );
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_millis(200) && waited < Duration::from_millis(1000),
        "{waited:?}"
    );

    // Requests that need no engine are still answered at once.
    let state = post(
        &app,
        "/api/state",
        json!({"rules": "gomoku15", "moves": ["h8"]}),
    )
    .await;
    assert_eq!(state.status, StatusCode::OK);

    let done = slow.await.unwrap();
    assert_eq!(done.status, StatusCode::OK, "{}", done.json);
    // The slot is free again.
    let after = post(
        &app,
        "/api/weights",
        json!({"rules": "gomoku15", "moves": ["h8"]}),
    )
    .await;
    assert_eq!(after.status, StatusCode::OK);
}
