//! The exact solver through the API on the boards where it used to give up: `POST /api/solve` on
//! the empty 6×6×4 board, and the perfect player (`{"bot": "perfect"}`) playing whole games on
//! 6×6×4 and 7×5×4 with the server's default thinking time. Optimised only (an unoptimised
//! solver is some twenty times slower): `cargo test --profile ci -- --ignored`, as the test
//! script runs them.

use crate::common;

use axum::http::StatusCode;
use common::post;
use mnk_server::ServerConfig;
use serde_json::{json, Value};

/// The app with the server's own thinking times (1 s by default, 10 s at most).
fn app() -> axum::Router {
    mnk_server::router(&ServerConfig {
        threads: 2,
        ..ServerConfig::default()
    })
}

#[tokio::test]
#[ignore = "optimised only: run with --ignored (scripts/test.sh does)"]
async fn solve_values_every_move_of_the_empty_six_by_six_by_four_board() {
    let reply = post(&app(), "/api/solve", json!({"rules": "6x6x4", "moves": []})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(
        reply.json["value"],
        json!({"kind": "win", "plies": 11, "text": "win in 11", "expect": 1.0})
    );
    let moves = reply.json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 36);
    let value = |cell: &str| {
        let m = moves.iter().find(|m| m["cell"] == cell).unwrap();
        m["value"]["text"].as_str().unwrap().to_string()
    };
    // The four centre cells win fastest; the board's symmetries give equal values.
    for centre in ["c3", "d3", "c4", "d4"] {
        assert_eq!(value(centre), "win in 11");
    }
    for (a, b) in [("a1", "f6"), ("b1", "a5"), ("c2", "e4"), ("b2", "e5")] {
        assert_eq!(value(a), value(b), "{a} and {b} are symmetric");
    }
    assert!(moves[..4].iter().all(|m| m["value"]["text"] == "win in 11"));
}

/// Plays a whole game of the perfect player against itself through `POST /api/move`, with the
/// default thinking time for every move, and checks that it goes as the first answer's value
/// says: the first player wins in exactly that many plies, each answer's value one ply closer.
async fn perfect_game(rules: &str) {
    let app = app();
    let mut moves: Vec<String> = Vec::new();
    let mut first: Option<u64> = None;
    loop {
        let reply = post(
            &app,
            "/api/move",
            json!({"rules": rules, "moves": moves, "opponent": {"bot": "perfect"}, "seed": moves.len()}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "{rules} after {moves:?}: {}",
            reply.json
        );
        let value = &reply.json["value"];
        let plies = value["plies"].as_u64().unwrap();
        let left = *first.get_or_insert(plies) - moves.len() as u64;
        // The mover wins in the plies left, or (the second player) loses in them.
        let kind = if moves.len() % 2 == 0 { "win" } else { "loss" };
        assert_eq!(
            (value["kind"].as_str().unwrap(), plies),
            (kind, left),
            "{rules} after {moves:?}"
        );
        moves.push(reply.json["move"]["cell"].as_str().unwrap().to_string());
        let state: &Value = &reply.json["state"];
        if state["outcome"]["status"] != "ongoing" {
            assert_eq!(state["outcome"]["status"], "win", "{rules}: {moves:?}");
            assert_eq!(state["outcome"]["winner"], "X", "{rules}: {moves:?}");
            break;
        }
    }
    assert_eq!(Some(moves.len() as u64), first, "{rules}: {moves:?}");
}

#[tokio::test]
#[ignore = "optimised only: run with --ignored (scripts/test.sh does)"]
async fn the_perfect_player_plays_whole_games_on_six_by_six_by_four() {
    perfect_game("6x6x4").await;
}

#[tokio::test]
#[ignore = "optimised only: run with --ignored (scripts/test.sh does)"]
async fn the_perfect_player_plays_whole_games_on_seven_by_five_by_four() {
    perfect_game("7x5x4").await;
}
