//! Every endpoint of docs/api.md and every error code, in process through `oneshot`.

use crate::common;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::{app, assert_error, get, post, send};
use mnk_server::ServerConfig;
use serde_json::json;

const TICTACTOE: &str = "tictactoe";

#[tokio::test]
async fn health_says_ok_and_the_version() {
    let reply = get(&app(), "/api/health").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json["status"], "ok");
    assert_eq!(reply.json["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn presets_list_every_rule_set_with_its_rules() {
    let reply = get(&app(), "/api/presets").await;
    assert_eq!(reply.status, StatusCode::OK);
    let presets = reply.json["presets"].as_array().unwrap();
    let ids: Vec<&str> = presets.iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "tictactoe",
            "9x9",
            "gomoku15",
            "gomoku19",
            "standard",
            "unbounded",
            "renju",
            "caro"
        ]
    );
    assert_eq!(
        presets[0]["rules"],
        json!({"width": 3, "height": 3, "unbounded": false, "k": 3, "win": "freestyle", "first": "X"})
    );
    assert_eq!(presets[4]["rules"]["win"], "exact");
    assert_eq!(presets[5]["rules"]["unbounded"], true);
    assert!(presets[5]["rules"].get("width").is_none());
    assert!(presets
        .iter()
        .all(|p| p["title"].as_str().is_some_and(|t| !t.is_empty())));
}

#[tokio::test]
async fn bots_list_bots_and_levels() {
    let reply = get(&app(), "/api/bots").await;
    assert_eq!(reply.status, StatusCode::OK);
    let ids: Vec<&str> = reply.json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["rules", "perfect", "alphabeta", "weights", "engine"]);
    let levels = reply.json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 6);
    assert_eq!(levels[0]["level"], 1);
    assert!(levels.iter().all(|l| l["description"].as_str().is_some()));
}

#[tokio::test]
async fn state_reports_turn_outcome_and_last_move() {
    let app = app();
    let reply = post(
        &app,
        "/api/state",
        json!({"rules": {"width": 3, "height": 3, "k": 3}, "moves": ["b2", "a1"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json["ply"], 2);
    assert_eq!(reply.json["to_move"], "X");
    assert_eq!(reply.json["moves"], json!(["b2", "a1"]));
    assert_eq!(reply.json["outcome"], json!({"status": "ongoing"}));
    assert_eq!(reply.json["last"], json!({"cell": "a1", "x": 0, "y": 0}));
    assert_eq!(reply.json["rules"]["k"], 3);

    // Both notations and {x, y} objects are accepted; answers use the letter form.
    let win = post(
        &app,
        "/api/state",
        json!({"rules": TICTACTOE, "moves": ["0,0", "a2", {"x": 1, "y": 1}, "b3", "c3"]}),
    )
    .await;
    assert_eq!(win.json["outcome"]["status"], "win");
    assert_eq!(win.json["outcome"]["winner"], "X");
    assert_eq!(
        win.json["outcome"]["line"],
        json!([
            {"cell": "a1", "x": 0, "y": 0},
            {"cell": "b2", "x": 1, "y": 1},
            {"cell": "c3", "x": 2, "y": 2}
        ])
    );
    assert_eq!(win.json["moves"], json!(["a1", "a2", "b2", "b3", "c3"]));

    // A tic-tac-toe draw is decided before the last cell is filled: after eight moves no line can
    // be made any more, so the game ends there and a ninth move comes after its end.
    let draw = post(
        &app,
        "/api/state",
        json!({"rules": TICTACTOE, "moves": ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2"]}),
    )
    .await;
    assert_eq!(
        draw.json["outcome"],
        json!({"status": "draw", "reason": "no_line_left"})
    );
    let filled = post(
        &app,
        "/api/state",
        json!({"rules": TICTACTOE, "moves": ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]}),
    )
    .await;
    assert_error(&filled, 409, "game_over");
    assert_eq!(filled.json["error"]["index"], 8);

    // The unbounded board takes signed cells; O may move first.
    let unbounded = post(
        &app,
        "/api/state",
        json!({"rules": {"unbounded": true, "k": 5, "first": "O"}, "moves": ["0,0", "-3,2"]}),
    )
    .await;
    assert_eq!(unbounded.status, StatusCode::OK, "{}", unbounded.json);
    assert_eq!(unbounded.json["to_move"], "O");
    assert_eq!(
        unbounded.json["last"],
        json!({"cell": "-3,2", "x": -3, "y": 2})
    );
    assert_eq!(unbounded.json["rules"]["unbounded"], true);

    let empty = post(&app, "/api/state", json!({"rules": "gomoku15"})).await;
    assert_eq!(empty.json["ply"], 0);
    assert_eq!(empty.json["last"], json!(null));
}

#[tokio::test]
async fn state_refuses_bad_games_with_stable_codes() {
    let app = app();
    let state = |rules, moves| json!({"rules": rules, "moves": moves});
    let cases = [
        (
            state(json!({"width": 3, "height": 3, "k": 4}), json!([])),
            422,
            "bad_rules",
            None,
        ),
        (
            state(json!({"width": 0, "height": 3, "k": 1}), json!([])),
            422,
            "bad_rules",
            None,
        ),
        (
            state(json!({"width": 40, "height": 40, "k": 5}), json!([])),
            422,
            "bad_rules",
            None,
        ),
        (
            state(json!({"width": 3, "height": 3}), json!([])),
            422,
            "bad_rules",
            None,
        ),
        (
            state(json!({"unbounded": true, "width": 3, "k": 3}), json!([])),
            422,
            "bad_rules",
            None,
        ),
        (state(json!("3x3x9"), json!([])), 422, "bad_rules", None),
        (
            state(json!(TICTACTOE), json!(["b2", "9z"])),
            400,
            "bad_cell",
            Some(1),
        ),
        (
            state(json!(TICTACTOE), json!([true])),
            400,
            "bad_cell",
            Some(0),
        ),
        (
            state(json!(TICTACTOE), json!(["b2", "b2"])),
            422,
            "illegal_move",
            Some(1),
        ),
        (
            state(json!(TICTACTOE), json!(["b2", "d4"])),
            422,
            "illegal_move",
            Some(1),
        ),
        (
            state(
                json!(TICTACTOE),
                json!(["a1", "a2", "b1", "b2", "c1", "c2"]),
            ),
            409,
            "game_over",
            Some(5),
        ),
        (
            state(
                json!(TICTACTOE),
                json!(["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "a1"]),
            ),
            422,
            "too_large",
            None,
        ),
        (json!({"moves": []}), 400, "bad_json", None),
        (
            json!({"rules": TICTACTOE, "moves": "b2"}),
            400,
            "bad_json",
            None,
        ),
        (json!([1, 2]), 400, "bad_json", None),
    ];
    for (body, status, code, index) in cases {
        let reply = post(&app, "/api/state", body.clone()).await;
        assert_error(&reply, status, code);
        assert_eq!(
            reply.json["error"]["index"].as_u64(),
            index.map(|i| i as u64),
            "{body}"
        );
    }
}

/// Refusals carry the words behind their message (docs/api.md, "Refusals in words"), so that the
/// page says them in the player's language.
#[tokio::test]
async fn refusals_carry_a_reason_and_its_values() {
    let app = app();
    let cases = [
        (
            json!({"rules": {"width": 3, "height": 3, "k": 6}, "moves": []}),
            "k_does_not_fit",
            json!({"k": 6, "width": 3, "height": 3}),
        ),
        (
            json!({"rules": "3x3x9", "moves": []}),
            "k_does_not_fit",
            json!({"k": 9, "width": 3, "height": 3}),
        ),
        (
            json!({"rules": {"width": 0, "height": 3, "k": 3}, "moves": []}),
            "zero_size",
            json!({}),
        ),
        (
            json!({"rules": TICTACTOE, "moves": ["b2", "hello"]}),
            "not_a_cell",
            json!({"move": 2, "cell": "hello"}),
        ),
        (
            json!({"rules": TICTACTOE, "moves": ["b2", "b2"]}),
            "occupied",
            json!({"move": 2, "cell": "b2"}),
        ),
        (
            json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b1", "b2", "c1", "c2"]}),
            "after_the_end",
            json!({"move": 6}),
        ),
    ];
    for (body, reason, params) in cases {
        let reply = post(&app, "/api/state", body.clone()).await;
        assert_eq!(
            reply.json["error"]["reason"], reason,
            "{body}: {}",
            reply.json
        );
        assert_eq!(
            reply.json["error"]["params"], params,
            "{body}: {}",
            reply.json
        );
    }
}

#[tokio::test]
async fn bodies_must_be_json() {
    let app = app();
    let raw = |content_type: Option<&str>, body: &str| {
        let mut builder = Request::builder().method(Method::POST).uri("/api/state");
        if let Some(t) = content_type {
            builder = builder.header(header::CONTENT_TYPE, t);
        }
        builder.body(Body::from(body.to_string())).unwrap()
    };
    let not_json = send(&app, raw(Some("application/json"), "{\"rules\": ")).await;
    assert_error(&not_json, 400, "bad_json");
    let empty = send(&app, raw(Some("application/json"), "")).await;
    assert_error(&empty, 400, "bad_json");
    let text = send(&app, raw(Some("text/plain"), "{\"rules\": \"3x3x3\"}")).await;
    assert_error(&text, 415, "bad_content_type");
    let none = send(&app, raw(None, "{\"rules\": \"3x3x3\"}")).await;
    assert_error(&none, 415, "bad_content_type");
    let with_charset = send(
        &app,
        raw(
            Some("application/json; charset=utf-8"),
            "{\"rules\": \"3x3x3\"}",
        ),
    )
    .await;
    assert_eq!(with_charset.status, StatusCode::OK);
}

#[tokio::test]
async fn the_computer_moves_and_reports_its_search() {
    let app = app();
    // The perfect player answers a corner with the centre: the only move that holds the draw.
    let reply = post(
        &app,
        "/api/move",
        json!({"rules": TICTACTOE, "moves": ["a1"], "opponent": {"bot": "perfect"}, "seed": 7}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(reply.json["move"], json!({"cell": "b2", "x": 1, "y": 1}));
    assert_eq!(reply.json["value"]["kind"], "draw");
    assert_eq!(reply.json["pv"][0], "b2");
    assert!(reply.json["nodes"].is_u64() && reply.json["depth"].is_u64());
    assert!(reply.json["time_ms"].is_u64());
    assert_eq!(reply.json["state"]["moves"], json!(["a1", "b2"]));
    assert_eq!(reply.json["state"]["to_move"], "X");

    // A win in one is taken, and the state shows the line.
    let win = post(
        &app,
        "/api/move",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b2", "a3"], "opponent": {"level": 6}, "seed": 1}),
    )
    .await;
    assert_eq!(win.status, StatusCode::OK, "{}", win.json);
    assert_eq!(win.json["move"]["cell"], "c3");
    assert_eq!(
        win.json["value"],
        json!({"kind": "win", "plies": 1, "text": "win in 1", "expect": 1.0})
    );
    assert_eq!(win.json["state"]["outcome"]["status"], "win");
    assert_eq!(
        win.json["state"]["outcome"]["line"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[tokio::test]
async fn every_level_and_bot_plays_where_it_can() {
    let app = app();
    for level in 1..=6 {
        let reply = post(
            &app,
            "/api/move",
            json!({"rules": "9x9", "moves": ["e5"], "opponent": {"level": level}, "time_ms": 100, "seed": 3}),
        )
        .await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "level {level}: {}",
            reply.json
        );
        assert_eq!(reply.json["state"]["ply"], 2);
    }
    for bot in ["rules", "perfect", "alphabeta", "weights", "engine"] {
        let reply = post(
            &app,
            "/api/move",
            json!({"rules": TICTACTOE, "moves": [], "opponent": {"bot": bot}, "time_ms": 200, "seed": 3}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{bot}: {}", reply.json);
    }
    let depth = post(
        &app,
        "/api/move",
        json!({"rules": "gomoku15", "moves": ["h8"], "opponent": {"bot": "alphabeta", "depth": 1}, "seed": 3}),
    )
    .await;
    assert_eq!(depth.status, StatusCode::OK, "{}", depth.json);
    let unbounded = post(
        &app,
        "/api/move",
        json!({"rules": {"unbounded": true, "k": 5}, "moves": ["0,0", "1,1"], "opponent": "level2", "seed": 3}),
    )
    .await;
    assert_eq!(unbounded.status, StatusCode::OK, "{}", unbounded.json);
}

#[tokio::test]
async fn move_refusals() {
    let app = app();
    let over = json!(["a1", "a2", "b1", "b2", "c1"]);
    let cases = [
        (
            json!({"rules": TICTACTOE, "moves": over, "opponent": {"level": 3}}),
            409,
            "game_over",
        ),
        (
            json!({"rules": TICTACTOE, "moves": [], "opponent": {"level": 7}}),
            400,
            "unknown_bot",
        ),
        (
            json!({"rules": TICTACTOE, "moves": [], "opponent": {"bot": "deep-blue"}}),
            400,
            "unknown_bot",
        ),
        (
            json!({"rules": "gomoku15", "moves": [], "opponent": {"bot": "rules"}}),
            422,
            "unsupported",
        ),
        (
            json!({"rules": "gomoku15", "moves": [], "opponent": {"bot": "perfect"}}),
            422,
            "unsupported",
        ),
        (
            json!({"rules": TICTACTOE, "moves": [], "opponent": {"bot": "weights", "depth": 3}}),
            422,
            "unsupported",
        ),
        (json!({"rules": TICTACTOE, "moves": []}), 400, "bad_json"),
        (
            json!({"rules": TICTACTOE, "moves": [], "opponent": {"level": 2}, "time_ms": -5}),
            400,
            "bad_json",
        ),
        (
            json!({"rules": TICTACTOE, "moves": ["b2", "b2"], "opponent": {"level": 2}}),
            422,
            "illegal_move",
        ),
    ];
    for (body, status, code) in cases {
        let reply = post(&app, "/api/move", body.clone()).await;
        assert_error(&reply, status, code);
    }
}

#[tokio::test]
async fn a_hint_suggests_without_playing() {
    let app = app();
    let reply = post(
        &app,
        "/api/hint",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b2", "a3"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(reply.json["move"]["cell"], "c3");
    assert!(reply.json.get("state").is_none());
    let with_bot = post(
        &app,
        "/api/hint",
        json!({"rules": "gomoku15", "moves": ["h8"], "opponent": {"level": 2}, "seed": 1}),
    )
    .await;
    assert_eq!(with_bot.status, StatusCode::OK, "{}", with_bot.json);
    let over = post(
        &app,
        "/api/hint",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b1", "b2", "c1"]}),
    )
    .await;
    assert_error(&over, 409, "game_over");
}

#[tokio::test]
async fn explain_answers_the_move_played_and_why() {
    let app = app();
    for (rules, moves, opponent, kind) in [
        (
            TICTACTOE,
            json!(["a1", "b2"]),
            json!({"bot": "rules"}),
            "rules",
        ),
        (
            TICTACTOE,
            json!(["a1"]),
            json!({"bot": "alphabeta", "depth": 3}),
            "alphabeta",
        ),
        (
            TICTACTOE,
            json!(["a1", "b2", "c3"]),
            json!({"level": 6}),
            "perfect",
        ),
        (
            "gomoku15",
            json!(["h8", "i9"]),
            json!({"level": 2}),
            "weights",
        ),
    ] {
        let body = json!({"rules": rules, "moves": moves, "opponent": opponent, "seed": 5});
        let explained = post(&app, "/api/explain", body.clone()).await;
        assert_eq!(explained.status, StatusCode::OK, "{}", explained.json);
        assert_eq!(explained.json["explanation"]["kind"], kind);
        assert!(explained.json.get("state").is_none());
        let moved = post(&app, "/api/move", body).await;
        for field in ["move", "value", "nodes"] {
            assert_eq!(explained.json[field], moved.json[field], "{kind}: {field}");
        }
    }
    // The search engine (level 5, capped in nodes): the move it plays, with its iterations,
    // the root moves it compared and its principal path.
    let body =
        json!({"rules": "gomoku15", "moves": ["h8", "i9"], "opponent": {"level": 5}, "seed": 4});
    let engine = post(&app, "/api/explain", body.clone()).await;
    assert_eq!(engine.status, StatusCode::OK, "{}", engine.json);
    let moved = post(&app, "/api/move", body).await;
    for field in ["move", "value", "pv", "depth", "nodes"] {
        assert_eq!(engine.json[field], moved.json[field], "engine: {field}");
    }
    let x = &engine.json["explanation"];
    assert_eq!(x["kind"], "engine");
    assert_eq!(x["root"]["moves"][0]["cell"], engine.json["move"]["cell"]);
    assert!(!x["iterations"].as_array().unwrap().is_empty());
    assert!(x["path"].as_array().unwrap().len() > 1);
    let over = post(
        &app,
        "/api/explain",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b1", "b2", "c1"], "opponent": "rules"}),
    )
    .await;
    assert_error(&over, 409, "game_over");
    let unknown = post(
        &app,
        "/api/explain",
        json!({"rules": TICTACTOE, "opponent": {"bot": "nobody"}}),
    )
    .await;
    assert_error(&unknown, 400, "unknown_bot");
}

#[tokio::test]
async fn weights_are_a_sorted_heat_map_for_the_side_to_move() {
    let app = app();
    let reply = post(
        &app,
        "/api/weights",
        json!({"rules": "gomoku15", "moves": ["h8"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(reply.json["for"], "O");
    let weights = reply.json["weights"].as_array().unwrap();
    assert!(!weights.is_empty());
    assert!(weights
        .iter()
        .all(|w| w["cell"].is_string() && w["x"].is_i64() && w["weight"].is_f64()));
    let values: Vec<f64> = weights
        .iter()
        .map(|w| w["weight"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "heaviest first");
    assert!(weights.iter().all(|w| w["cell"] != "h8"), "no taken cell");

    let over = post(
        &app,
        "/api/weights",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b1", "b2", "c1"]}),
    )
    .await;
    assert_eq!(over.status, StatusCode::OK);
    assert_eq!(over.json["weights"], json!([]));
    let bad = post(
        &app,
        "/api/weights",
        json!({"rules": TICTACTOE, "moves": ["a9"]}),
    )
    .await;
    assert_error(&bad, 422, "illegal_move");
}

#[tokio::test]
async fn solve_gives_exact_values_on_small_boards() {
    let app = app();
    let reply = post(&app, "/api/solve", json!({"rules": TICTACTOE, "moves": []})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(reply.json["value"]["kind"], "draw");
    let moves = reply.json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|m| m["value"]["kind"] == "draw"));
    assert!(reply.json["best"].is_string());
    assert!(reply.json["nodes"].as_u64().unwrap() > 0);

    let won = post(
        &app,
        "/api/solve",
        json!({"rules": TICTACTOE, "moves": ["a1", "b1", "b2"]}),
    )
    .await;
    assert_eq!(won.json["value"]["kind"], "loss", "{}", won.json);
    assert_eq!(won.json["best"], "c3");

    let large = post(
        &app,
        "/api/solve",
        json!({"rules": "gomoku15", "moves": []}),
    )
    .await;
    assert_error(&large, 422, "too_large");
    let unbounded = post(
        &app,
        "/api/solve",
        json!({"rules": "unbounded", "moves": []}),
    )
    .await;
    assert_error(&unbounded, 422, "too_large");
    let over = post(
        &app,
        "/api/solve",
        json!({"rules": TICTACTOE, "moves": ["a1", "a2", "b1", "b2", "c1"]}),
    )
    .await;
    assert_error(&over, 409, "game_over");
}

#[tokio::test]
async fn unknown_paths_and_methods_get_json_errors() {
    let app = app();
    assert_error(&get(&app, "/api/nothing").await, 404, "not_found");
    assert_error(&get(&app, "/api").await, 404, "not_found");
    assert_error(&get(&app, "/no-such-file.png").await, 404, "not_found");
    let wrong = get(&app, "/api/state").await;
    assert_error(&wrong, 405, "method_not_allowed");
    assert_eq!(wrong.headers[header::ALLOW], "POST");
    let wrong = post(&app, "/api/health", json!({})).await;
    assert_error(&wrong, 405, "method_not_allowed");
    let delete = send(
        &app,
        Request::delete("/api/move").body(Body::empty()).unwrap(),
    )
    .await;
    assert_error(&delete, 405, "method_not_allowed");
}

#[tokio::test]
async fn a_game_with_no_line_left_is_a_draw_and_takes_no_more_moves() {
    // One cell left on 3x3 and it completes nothing: drawn before the board is full.
    let moves = json!(["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1"]);
    let reply = post(
        &app(),
        "/api/state",
        json!({"rules": TICTACTOE, "moves": moves}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.json["outcome"],
        json!({"status": "draw", "reason": "no_line_left"})
    );
    let after = post(
        &app(),
        "/api/state",
        json!({"rules": TICTACTOE, "moves": ["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"]}),
    )
    .await;
    assert_error(&after, 409, "game_over");
    assert_eq!(after.json["error"]["index"], 8);
    // The computer neither moves nor hints in it, and the analysis board does not start.
    for path in ["/api/move", "/api/hint"] {
        let reply = post(
            &app(),
            path,
            json!({"rules": TICTACTOE, "moves": moves, "opponent": {"level": 3}}),
        )
        .await;
        assert_error(&reply, 409, "game_over");
    }
    let analysis = get(
        &app(),
        "/api/analyse?rules=tictactoe&moves=b2.a1.c3.a3.a2.c2.b3.b1",
    )
    .await;
    assert_error(&analysis, 409, "game_over");
    // One move earlier a line is still possible: the game goes on.
    let earlier = post(
        &app(),
        "/api/state",
        json!({"rules": TICTACTOE, "moves": ["b2", "a1", "c3", "a3", "a2", "c2"]}),
    )
    .await;
    assert_eq!(earlier.json["outcome"]["status"], "ongoing");
}

#[tokio::test]
async fn bots_say_whether_they_play_the_rules_asked() {
    let reply = get(&app(), "/api/bots?rules=15x15x5").await;
    assert_eq!(reply.status, StatusCode::OK);
    let bots = reply.json["bots"].as_array().unwrap();
    let plays = |id: &str| {
        let bot = bots.iter().find(|b| b["id"] == id).unwrap();
        (
            bot["plays"].as_bool().unwrap(),
            bot["why"].as_str().map(str::to_string),
        )
    };
    assert_eq!(plays("engine"), (true, None));
    let (rules_plays, why) = plays("rules");
    assert!(!rules_plays && why.unwrap().contains("3x3"));
    let (perfect_plays, why) = plays("perfect");
    assert!(!perfect_plays && why.unwrap().contains("cells"));
    assert!(reply.json["levels"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["plays"] == true));
    // Every bot plays tic-tac-toe; a preset id is read as rules too.
    let small = get(&app(), "/api/bots?rules=tictactoe").await;
    assert!(small.json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["plays"] == true));
    // Without rules, no verdicts.
    assert!(get(&app(), "/api/bots").await.json["bots"][0]
        .get("plays")
        .is_none());
    assert_error(
        &get(&app(), "/api/bots?rules=bogus").await,
        422,
        "bad_rules",
    );
    let unknown = get(&app(), "/api/bots?colour=red").await;
    assert_eq!(
        unknown.status,
        StatusCode::BAD_REQUEST,
        "{:?}",
        unknown.json
    );
    assert!(unknown.json["error"]["code"].is_string());
}

#[tokio::test]
async fn the_engine_moves_with_two_search_threads() {
    // `--search-threads 2`: level 6 on a large board is the engine with two threads (Lazy
    // SMP); its answer is a legal move with its search, as with one.
    let app = mnk_server::router(&ServerConfig {
        search_threads: 2,
        ..common::config()
    });
    let reply = post(
        &app,
        "/api/move",
        json!({"rules": "15x15x5", "moves": ["h8", "i9", "h10", "h9"], "opponent": {"level": 6}, "time_ms": 300}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    assert_eq!(reply.json["state"]["moves"].as_array().unwrap().len(), 5);
    assert!(reply.json["depth"].as_u64().unwrap() >= 1, "{}", reply.json);
    assert!(reply.json["nodes"].as_u64().unwrap() > 0, "{}", reply.json);
}

/// A game drawn because no line can be completed is over for every endpoint, as `state` says
/// (the example: before, `weights` answered a heat map and `solve` values).
#[tokio::test]
async fn a_game_with_no_line_left_is_over_for_every_endpoint() {
    let app = app();
    let game = json!({"rules": {"width": 3, "height": 1, "k": 3}, "moves": []});
    let state = post(&app, "/api/state", game.clone()).await;
    assert_eq!(state.json["outcome"]["status"], "draw");
    assert_eq!(state.json["outcome"]["reason"], "no_line_left");
    assert_error(
        &post(&app, "/api/hint", game.clone()).await,
        409,
        "game_over",
    );
    assert_error(
        &post(&app, "/api/solve", game.clone()).await,
        409,
        "game_over",
    );
    let mut against = game.clone();
    against["opponent"] = json!({"level": 1});
    assert_error(&post(&app, "/api/move", against).await, 409, "game_over");
    let weights = post(&app, "/api/weights", game).await;
    assert_eq!(weights.status, StatusCode::OK);
    assert_eq!(weights.json["weights"], json!([]));
}
