//! `mnk serve`'s room flags take effect: the per-address allowances it is given are the ones a
//! flooding client meets, and the delay before a game left may be claimed is the one rooms say.

mod support;

use serde_json::json;
use support::{call, room_with_two_players, Served};

#[test]
fn the_room_rates_given_to_serve_are_the_ones_enforced() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("flags.db").display());
    let served = Served::start_with(
        &database,
        &[
            "--room-creations-per-hour",
            "2",
            "--room-actions-per-minute",
            "2",
            "--room-idle-minutes",
            "5",
            "--room-claim-secs",
            "7",
        ],
    );
    let (room, tokens) = room_with_two_players(&served.addr, "tictactoe");
    let (status, refused) = served
        .call("POST", "/api/rooms", &json!({"rules": "tictactoe"}))
        .unwrap();
    assert_eq!(status, 201, "{refused}");
    let (status, refused) = served
        .call("POST", "/api/rooms", &json!({"rules": "tictactoe"}))
        .unwrap();
    assert_eq!(status, 429, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 2 an hour"), "{message}");

    let path = format!("/api/rooms/{room}/move");
    let plays = [(0, "b2"), (1, "a1"), (0, "c3")];
    let codes: Vec<u16> = plays
        .iter()
        .enumerate()
        .map(|(ply, (seat, cell))| {
            let body = json!({"token": tokens[*seat], "ply": ply, "cell": cell});
            call(&served.addr, "POST", &path, &body).unwrap().0
        })
        .collect();
    assert_eq!(codes, [200, 200, 429]);
    let (_, state) = served
        .call(
            "GET",
            &format!("/api/rooms/{room}"),
            &serde_json::Value::Null,
        )
        .unwrap();
    assert_eq!(state["moves"], json!(["b2", "a1"]));
    // A game without a clock may be claimed after the delay given.
    assert_eq!(state["claim_after_ms"], 7000);
}
