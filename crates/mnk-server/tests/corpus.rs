//! A generated corpus of requests — valid games on every kind of rules with every bot, and bad
//! input of every kind — none of which may get a 5xx: the server answers 2xx or a 4xx with a
//! JSON error. The quick test sends 1,500; the optimised-only one 20,000.

use crate::common;

use axum::body::Body;
use axum::http::{header, Method, Request};
use mnk_core::{Position, Rules};
use mnk_engine::Rng;
use serde_json::{json, Value};

const RULES: [&str; 24] = [
    "tictactoe",
    "3x3x3,o-first",
    "4x4x4,exact",
    "5x5x4",
    "6x5x4",
    "7x7x5",
    "9x9",
    "gomoku15",
    "standard",
    "gomoku19",
    "32x32x8",
    "1x1x1",
    "2x2x2",
    "32x1x5",
    "1x12x3",
    "15x15x1",
    "15x15x2,exact",
    "infx1",
    "infx2",
    "infx3",
    "infx4,exact",
    "unbounded",
    "infx6,o-first",
    "infx8",
];

const OPPONENTS: [&str; 12] = [
    r#"{"level":1}"#,
    r#"{"level":2}"#,
    r#"{"level":3}"#,
    r#"{"level":4}"#,
    r#"{"level":5}"#,
    r#"{"level":6}"#,
    r#"{"bot":"rules"}"#,
    r#"{"bot":"perfect"}"#,
    r#"{"bot":"alphabeta","depth":3}"#,
    r#"{"bot":"weights"}"#,
    r#"{"bot":"engine"}"#,
    r#""alphabeta:2""#,
];

/// A random game under `rules`, finished or not, as cell names.
fn random_game(rules: &Rules, rng: &mut Rng) -> Vec<String> {
    let mut pos = Position::new(*rules);
    let plies = rng.below(14);
    while pos.ply() < plies && !pos.is_over() {
        let moves = pos.legal_moves();
        let Some(cell) = rng.pick(&moves) else { break };
        pos.play(cell);
    }
    pos.history().iter().map(|&c| rules.cell_name(c)).collect()
}

/// A valid request body for `endpoint` on a random game.
fn valid_body(endpoint: &str, rng: &mut Rng) -> String {
    let rules: Rules = RULES[rng.below(RULES.len())].parse().expect("listed rules");
    let moves = random_game(&rules, rng);
    let mut body = json!({ "rules": rules.to_string(), "moves": moves });
    match endpoint {
        "move" | "hint" => {
            if endpoint == "move" || rng.below(2) == 0 {
                let opponent: Value =
                    serde_json::from_str(OPPONENTS[rng.below(OPPONENTS.len())]).unwrap();
                body["opponent"] = opponent;
            }
            body["time_ms"] = json!(rng.below(8));
            body["seed"] = json!(rng.next_u64());
        }
        "solve" => body["time_ms"] = json!(1 + rng.below(20)),
        _ => {}
    }
    body.to_string()
}

/// Ways to spoil a valid body.
fn spoiled(valid: &str, rng: &mut Rng) -> String {
    let cut = |s: &str, at: usize| s.chars().take(at).collect::<String>();
    match rng.below(14) {
        0 => cut(valid, rng.below(valid.len().max(1))),
        1 => valid.replace("\"moves\"", "\"mvoes\""),
        2 => valid.replace("\"rules\"", "\"rulez\""),
        3 => valid.replacen(':', ": [[[", 1),
        4 => {
            let absurd = ["0x0x0", "99999x1x1", "infx0", "33x33x5", "3x3x4", "x", ""];
            json!({"rules": absurd[rng.below(absurd.len())], "moves": []}).to_string()
        }
        5 => json!({"rules": "gomoku15", "moves": ["h8", "h8"]}).to_string(),
        6 => json!({"rules": "tictactoe", "moves": ["a1", "b1", "a2", "b2", "a3", "c3"]}).to_string(),
        7 => json!({"rules": "tictactoe", "moves": ["z99", {"x": -1, "y": 0}, 7]}).to_string(),
        8 => json!({"rules": "unbounded", "moves": [{"x": i64::MAX, "y": 0}, "268435457,0"]}).to_string(),
        9 => json!({"rules": {"width": 15, "height": 15, "k": 5, "extra": 1}, "moves": []}).to_string(),
        10 => json!({"rules": "gomoku15", "moves": [], "opponent": {"level": rng.below(20)}, "time_ms": -1}).to_string(),
        11 => json!({"rules": "gomoku15", "moves": [], "opponent": {"bot": "nobody", "depth": 99}}).to_string(),
        12 => "\u{0}\u{ffff}\"\\u0000".repeat(1 + rng.below(100)),
        _ => json!({"rules": "infx5", "moves": (0..1025).map(|i| format!("{},0", i * 3)).collect::<Vec<_>>()}).to_string(),
    }
}

fn generate(rng: &mut Rng) -> Request<Body> {
    const ENDPOINTS: [&str; 5] = ["state", "move", "hint", "weights", "solve"];
    let endpoint = ENDPOINTS[rng.below(ENDPOINTS.len())];
    let valid = valid_body(endpoint, rng);
    let (method, path, content_type, body) = match rng.below(10) {
        0..=5 => (
            "POST",
            format!("/api/{endpoint}"),
            "application/json",
            valid,
        ),
        6 | 7 => (
            "POST",
            format!("/api/{endpoint}"),
            "application/json",
            spoiled(&valid, rng),
        ),
        8 => ("POST", format!("/api/{endpoint}"), "text/plain", valid),
        _ => {
            let paths = [
                "/api/nothing",
                "/../etc/passwd",
                "/%00",
                "/api/bots",
                "/app.js",
                "/",
            ];
            let methods = ["GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];
            (
                methods[rng.below(methods.len())],
                paths[rng.below(paths.len())].to_string(),
                "application/json",
                valid,
            )
        }
    };
    Request::builder()
        .method(Method::from_bytes(method.as_bytes()).unwrap())
        .uri(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

async fn no_server_errors(requests: usize) {
    let app = common::app();
    let mut rng = Rng::seeded(2026);
    let mut failures = Vec::new();
    for i in 0..requests {
        let request = generate(&mut rng);
        let what = format!("#{i} {} {}", request.method(), request.uri());
        // A response to HEAD has no body to carry the error.
        let head = request.method() == Method::HEAD;
        let reply = common::send(&app, request).await;
        let status = reply.status.as_u16();
        let json_error = head || reply.json["error"]["code"].is_string();
        if status >= 500 || (status >= 400 && !json_error) {
            failures.push(format!(
                "{what}: {status} {}",
                String::from_utf8_lossy(&reply.bytes)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {requests} requests failed, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_requests_get_no_server_error() {
    no_server_errors(1_500).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "20,000 requests: run optimised, with --ignored (scripts/test.sh does)"]
async fn twenty_thousand_generated_requests_get_no_server_error() {
    no_server_errors(20_000).await;
}
