//! Swap openings over the API: `POST /api/state` with an opening says whose step it is, and
//! `POST /api/opening` plays the computer's part, from the opener's three stones to the colours
//! settled, with every mismatch refused.

use crate::common;

use common::{app, assert_error, post};
use serde_json::{json, Value};

/// A swap2 game of 15×15 freestyle: `moves` and `decisions` so far.
fn game(moves: Value, decisions: Value) -> Value {
    json!({
        "rules": "gomoku15",
        "moves": moves,
        "opening": {"kind": "swap2", "decisions": decisions},
    })
}

/// The same game with the bot that takes the computer's part.
fn ask(moves: Value, decisions: Value) -> Value {
    let mut body = game(moves, decisions);
    body["opponent"] = json!({"level": 6});
    body["time_ms"] = json!(300);
    body["seed"] = json!(7);
    body
}

#[tokio::test]
async fn the_state_says_whose_step_it_is() {
    let app = app();
    let cases = [
        (
            json!([]),
            json!([]),
            json!({"step": "place", "seat": "opener", "left": 3}),
        ),
        (
            json!(["h8", "j10"]),
            json!([]),
            json!({"step": "place", "seat": "opener", "left": 1}),
        ),
        (
            json!(["h8", "j10", "d12"]),
            json!([]),
            json!({"step": "choose", "seat": "chooser", "options": ["black", "white", "place-two"]}),
        ),
        (
            json!(["h8", "j10", "d12"]),
            json!(["place-two"]),
            json!({"step": "place", "seat": "chooser", "left": 2}),
        ),
        (
            json!(["h8", "j10", "d12", "g7", "k4"]),
            json!(["place-two"]),
            json!({"step": "choose", "seat": "opener", "options": ["black", "white"]}),
        ),
        (
            json!(["h8", "j10", "d12", "g7", "k4"]),
            json!(["place-two", "white"]),
            json!({"step": "settled", "black": "chooser"}),
        ),
        (
            json!(["h8", "j10", "d12"]),
            json!(["black"]),
            json!({"step": "settled", "black": "chooser"}),
        ),
    ];
    for (moves, decisions, step) in cases {
        let reply = post(&app, "/api/state", game(moves.clone(), decisions.clone())).await;
        assert_eq!(reply.status, 200, "{moves} {decisions}: {}", reply.json);
        assert_eq!(reply.json["opening"], step, "{moves} {decisions}");
    }
    // Without an opening, the state is as it always was.
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": "gomoku15", "moves": ["h8"]}),
    )
    .await;
    assert!(reply.json.get("opening").is_none());
}

#[tokio::test]
async fn openings_that_do_not_fit_are_refused_and_nothing_is_played() {
    let app = app();
    let bad = [
        // A choice before the three stones.
        game(json!(["h8", "j10"]), json!(["white"])),
        // Play went on without the choice.
        game(json!(["h8", "j10", "d12", "g7"]), json!([])),
        // place-two is swap2's, not swap's.
        json!({"rules": "gomoku15", "moves": ["h8", "j10", "d12"], "opening": {"kind": "swap", "decisions": ["place-two"]}}),
        // Tic-tac-toe's lines are too short for a swap opening.
        json!({"rules": "tictactoe", "moves": [], "opening": {"kind": "swap2"}}),
    ];
    for body in bad {
        let reply = post(&app, "/api/state", body.clone()).await;
        assert_error(&reply, 422, "bad_opening");
    }
    for body in [
        json!({"rules": "gomoku15", "opening": {"kind": "swap3"}}),
        json!({"rules": "gomoku15", "opening": {"kind": "swap2", "decisions": ["red"]}}),
        json!({"rules": "gomoku15", "opening": {"kind": "swap2", "extra": 1}}),
    ] {
        let reply = post(&app, "/api/state", body.clone()).await;
        assert_error(&reply, 400, "bad_json");
    }
}

#[tokio::test]
async fn the_computer_opens_then_chooses_until_the_colours_are_settled() {
    let app = app();
    let placed = post(&app, "/api/opening", ask(json!([]), json!([]))).await;
    assert_eq!(placed.status, 200, "{}", placed.json);
    assert_eq!(placed.json["action"], "place");
    let stones = placed.json["stones"].as_array().unwrap().clone();
    assert_eq!(stones.len(), 3);
    assert_eq!(placed.json["state"]["moves"], json!(stones));
    assert_eq!(
        placed.json["state"]["opening"],
        json!({"step": "choose", "seat": "chooser", "options": ["black", "white", "place-two"]})
    );

    // The computer as the one choosing, after the three stones.
    let chosen = post(&app, "/api/opening", ask(json!(stones), json!([]))).await;
    assert_eq!(chosen.status, 200, "{}", chosen.json);
    assert_eq!(chosen.json["action"], "choose");
    let decision = chosen.json["decision"].as_str().unwrap();
    let added = chosen.json["stones"].as_array().unwrap().len();
    let (expected_added, next) = match decision {
        "black" => (0, "settled"),
        "white" => (1, "settled"),
        "place-two" => (2, "choose"),
        other => panic!("decision {other}"),
    };
    assert_eq!(added, expected_added, "{}", chosen.json);
    assert_eq!(chosen.json["state"]["ply"], 3 + added);
    assert_eq!(chosen.json["state"]["opening"]["step"], next);

    // The computer as the opener after place-two: black or white, never place-two again.
    let five = json!(["h8", "j10", "d12", "g7", "k4"]);
    let last = post(&app, "/api/opening", ask(five, json!(["place-two"]))).await;
    assert_eq!(last.status, 200, "{}", last.json);
    let decision = last.json["decision"].as_str().unwrap();
    assert!(["black", "white"].contains(&decision), "{decision}");
    assert_eq!(last.json["state"]["opening"]["step"], "settled");
}

#[tokio::test]
async fn the_computer_is_not_asked_what_is_not_its_part() {
    let app = app();
    // Settled: the game goes on with /api/move.
    let reply = post(
        &app,
        "/api/opening",
        ask(json!(["h8", "j10", "d12"]), json!(["black"])),
    )
    .await;
    assert_error(&reply, 409, "opening_step");
    // Halfway through the opener's stones (a person is placing them).
    let reply = post(&app, "/api/opening", ask(json!(["h8"]), json!([]))).await;
    assert_error(&reply, 409, "opening_step");
    // The two stones of place-two are placed by whoever chose it.
    let reply = post(
        &app,
        "/api/opening",
        ask(json!(["h8", "j10", "d12"]), json!(["place-two"])),
    )
    .await;
    assert_error(&reply, 409, "opening_step");
    // No opponent named.
    let mut body = game(json!([]), json!([]));
    body["time_ms"] = json!(100);
    let reply = post(&app, "/api/opening", body).await;
    assert_error(&reply, 400, "bad_json");
}
