//! Checks for the JSON API: arbitrary bytes as the body of a POST to an endpoint that reads a
//! game, sent through the whole axum router (every layer, as `mnk serve` runs it) on a
//! current-thread tokio runtime, with thinking capped at a few milliseconds.
//!
//! Every answer must be JSON, never a 5xx: a refusal is a 4xx with an error code and a message.
//! An accepted request must be consistent with the rest of the API: a state posted back gives
//! the same state, the computer's move and the hint are legal moves, the solver's best move has
//! the position's value, the heat map covers distinct cells. This file uses mnk-server's own
//! dependencies only, so mnk-server's replay test includes it as it is.

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use http_body_util::BodyExt;
use mnk_core::{Cell, MAX_COORD};
use mnk_server::ServerConfig;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The endpoints that read a game from the body; the input's first byte picks one.
pub const ENDPOINTS: [&str; 5] = [
    "/api/state",
    "/api/move",
    "/api/hint",
    "/api/solve",
    "/api/weights",
];

/// The longest any request may think (the server caps `time_ms` to this).
pub const MAX_THINK: Duration = Duration::from_millis(20);

/// The server under test: one engine slot, thinking capped at [`MAX_THINK`].
fn app() -> &'static (tokio::runtime::Runtime, Router) {
    static APP: OnceLock<(tokio::runtime::Runtime, Router)> = OnceLock::new();
    APP.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let config = ServerConfig {
            threads: 1,
            max_think: MAX_THINK,
            default_think: MAX_THINK,
            ..ServerConfig::default()
        };
        (runtime, mnk_server::router(&config))
    })
}

/// A reply: status, whether it said it is JSON, and the body read as JSON.
struct Reply {
    status: u16,
    json: Value,
}

/// Posts `body` to `path` and checks what every reply must be: no 5xx, JSON, and for a refusal
/// an error code and message.
fn post(path: &str, body: Vec<u8>) -> Reply {
    let (runtime, router) = app();
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("a valid request");
    let (status, content_type, bytes) = runtime.block_on(async {
        let response = router
            .clone()
            .oneshot(request)
            .await
            .expect("the router is infallible");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("the body is in memory")
            .to_bytes();
        (status, content_type, bytes)
    });
    let text = String::from_utf8_lossy(&bytes);
    assert!(!status.is_server_error(), "{path}: {status}: {text}");
    assert!(
        content_type.starts_with("application/json"),
        "{path}: {status} with Content-Type {content_type:?}: {text}"
    );
    let json: Value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{path}: {status} with a body that is not JSON ({e}): {text}"));
    if !status.is_success() {
        assert!(status.is_client_error(), "{path}: {status}");
        let error = &json["error"];
        assert!(
            error["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{path}: {status} without an error code: {json}"
        );
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{path}: {status} without an error message: {json}"
        );
    }
    Reply {
        status: status.as_u16(),
        json,
    }
}

/// The state `/api/state` gives for `rules` and `moves`, or `None` when it refuses them.
fn state(rules: &Value, moves: &Value) -> Option<Value> {
    let body = json!({ "rules": rules, "moves": moves });
    let reply = post("/api/state", body.to_string().into_bytes());
    (reply.status == 200).then_some(reply.json)
}

/// The moves of a state with `extra` appended.
fn moves_plus(state: &Value, extra: &Value) -> Value {
    let mut moves = state["moves"]
        .as_array()
        .expect("a state has moves")
        .clone();
    moves.push(extra.clone());
    Value::Array(moves)
}

/// A state must post back to itself, with its ply and last move in agreement with its moves.
fn check_state(state: &Value) {
    let moves = state["moves"].as_array().expect("a state lists its moves");
    assert_eq!(state["ply"].as_u64(), Some(moves.len() as u64), "{state}");
    assert!(
        matches!(state["to_move"].as_str(), Some("X" | "O")),
        "{state}"
    );
    let status = state["outcome"]["status"].as_str();
    assert!(
        matches!(status, Some("ongoing" | "draw" | "win")),
        "{state}"
    );
    for name in moves {
        let cell: Cell = name
            .as_str()
            .and_then(|n| n.parse().ok())
            .expect("a cell name");
        assert!(
            within_range(cell),
            "a move off the board: {name} in {state}"
        );
    }
    match moves.last() {
        Some(last) => assert_eq!(&state["last"]["cell"], last, "{state}"),
        None => assert!(state["last"].is_null(), "{state}"),
    }
    let again = self::state(&state["rules"], &state["moves"])
        .unwrap_or_else(|| panic!("a state does not post back: {state}"));
    assert_eq!(&again, state, "a state posted back changed");
}

/// Whether both coordinates lie within ±[`MAX_COORD`], computed without `Cell::in_range`.
fn within_range(c: Cell) -> bool {
    let limit = i64::from(MAX_COORD);
    i64::from(c.x).abs() <= limit && i64::from(c.y).abs() <= limit
}

/// A cell in an answer: `{"cell", "x", "y"}` whose name reads as its coordinates.
fn check_cell(entry: &Value) -> Cell {
    let name = entry["cell"]
        .as_str()
        .unwrap_or_else(|| panic!("no name: {entry}"));
    let cell: Cell = name.parse().unwrap_or_else(|e| panic!("{entry}: {e}"));
    assert_eq!(entry["x"].as_i64(), Some(i64::from(cell.x)), "{entry}");
    assert_eq!(entry["y"].as_i64(), Some(i64::from(cell.y)), "{entry}");
    assert!(within_range(cell), "a cell off the board: {entry}");
    cell
}

/// The state of the game a request body describes, as `/api/state` reads it (`None` when it
/// refuses it, which the endpoint that accepted the body may not have done for reasons of its
/// own, such as a duplicate key it reads differently).
fn request_state(body: &[u8]) -> Option<Value> {
    let request: Value = serde_json::from_slice(body).ok()?;
    let moves = request.get("moves").cloned().unwrap_or(json!([]));
    state(request.get("rules")?, &moves)
}

/// A JSON body posted to one of [`ENDPOINTS`] (picked by the first byte): no 5xx, always JSON,
/// and an accepted request answered consistently with the rest of the API.
pub fn request(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let path = ENDPOINTS[usize::from(pick) % ENDPOINTS.len()];
    let reply = post(path, body.to_vec());
    if reply.status != 200 {
        return;
    }
    let answer = &reply.json;
    match path {
        "/api/state" => check_state(answer),
        "/api/move" => {
            let after = &answer["state"];
            check_state(after);
            let played = check_cell(&answer["move"]);
            assert_eq!(after["last"], answer["move"], "{answer}");
            // The game went on before the move, which was legal there.
            let mut moves = after["moves"].as_array().expect("moves").clone();
            moves.pop();
            let before = state(&after["rules"], &Value::Array(moves))
                .unwrap_or_else(|| panic!("the game before the move is refused: {answer}"));
            assert_eq!(before["outcome"]["status"], "ongoing", "{answer}");
            let name = Value::String(played.to_string());
            let replayed = state(&before["rules"], &moves_plus(&before, &name))
                .unwrap_or_else(|| panic!("the computer's move is refused: {answer}"));
            assert_eq!(&replayed, after, "{answer}");
        }
        "/api/hint" => {
            let hint = check_cell(&answer["move"]);
            if let Some(before) = request_state(body) {
                assert_eq!(before["outcome"]["status"], "ongoing", "{answer}");
                let name = Value::String(hint.to_string());
                assert!(
                    state(&before["rules"], &moves_plus(&before, &name)).is_some(),
                    "the hint {hint} is not a legal move in {before}"
                );
            }
        }
        "/api/solve" => {
            let kinds = ["win", "loss", "draw"];
            let value = &answer["value"];
            assert!(
                kinds.contains(&value["kind"].as_str().unwrap_or("")),
                "{answer}"
            );
            let moves = answer["moves"].as_array().expect("a solve lists moves");
            let mut cells = std::collections::HashSet::new();
            for m in moves {
                assert!(cells.insert(check_cell(m)), "a move twice: {answer}");
                assert!(
                    kinds.contains(&m["value"]["kind"].as_str().unwrap_or("")),
                    "{m}"
                );
            }
            match moves.first() {
                Some(first) => {
                    assert_eq!(&first["value"], value, "the first move is a best one");
                    let best = answer["best"].as_str().expect("a best move");
                    let best: Cell = best.parse().expect("the best move reads");
                    let entry = moves.iter().find(|m| check_cell(m) == best);
                    let entry = entry.unwrap_or_else(|| panic!("best not in moves: {answer}"));
                    assert_eq!(&entry["value"], value, "{answer}");
                }
                None => assert!(answer["best"].is_null(), "{answer}"),
            }
        }
        "/api/weights" => {
            assert!(
                matches!(answer["for"].as_str(), Some("X" | "O")),
                "{answer}"
            );
            let weights = answer["weights"].as_array().expect("a heat map");
            let mut cells = std::collections::HashSet::new();
            for w in weights {
                assert!(cells.insert(check_cell(w)), "a cell twice: {answer}");
                assert!(w["weight"].is_number(), "{w}");
            }
        }
        _ => unreachable!("{path} is one of the endpoints"),
    }
}
