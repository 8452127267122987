//! `POST /api/import` and `POST /api/export` through the router: every format in and out, and
//! every refusal with its code.

use crate::common;

use axum::http::StatusCode;
use common::{app, assert_error, post};
use serde_json::{json, Value};

/// The hand-written Piskvork file of mnk-core's test data (see its README).
fn gomocup_file() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mnk-core/tests/data/vertical-five-20x20.psq"
    );
    std::fs::read_to_string(path).expect("the hand-written .psq file")
}

/// The answer without its `format`: what /api/state answers.
fn state_part(answer: &Value) -> Value {
    let mut state = answer.clone();
    state.as_object_mut().unwrap().remove("format");
    state
}

#[tokio::test]
async fn a_psq_file_imports_as_its_game() {
    let app = app();
    let reply = post(&app, "/api/import", json!({ "text": gomocup_file() })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let answer = reply.json;
    assert_eq!(answer["format"], "psq");
    assert_eq!(
        answer["rules"],
        json!({"width": 20, "height": 20, "unbounded": false, "k": 5, "win": "freestyle", "first": "X"})
    );
    assert_eq!(
        answer["moves"],
        json!(["c19", "r2", "c18", "r3", "c17", "q2", "c16", "s2", "c15"])
    );
    assert_eq!(answer["ply"], 9);
    assert_eq!(answer["outcome"]["status"], "win");
    assert_eq!(answer["outcome"]["winner"], "X");
    let line: Vec<&str> = answer["outcome"]["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cell"].as_str().unwrap())
        .collect();
    assert_eq!(line, ["c15", "c16", "c17", "c18", "c19"]);
    assert_eq!(answer["last"], json!({"cell": "c15", "x": 2, "y": 14}));

    // The page loads the answer as it is: /api/state agrees with it.
    let state = post(
        &app,
        "/api/state",
        json!({ "rules": answer["rules"], "moves": answer["moves"] }),
    )
    .await;
    assert_eq!(state.json, state_part(&answer));

    // Rules given with the file change k and the win, not the board.
    let exact = post(
        &app,
        "/api/import",
        json!({ "text": gomocup_file(), "rules": "20x20x5,exact" }),
    )
    .await;
    assert_eq!(exact.status, StatusCode::OK, "{}", exact.json);
    assert_eq!(exact.json["rules"]["win"], "exact");
    let six = post(
        &app,
        "/api/import",
        json!({ "text": gomocup_file(), "rules": {"width": 20, "height": 20, "k": 6} }),
    )
    .await;
    assert_eq!(six.json["outcome"]["status"], "ongoing");
}

#[tokio::test]
async fn records_pairs_and_diagrams_import() {
    let app = app();
    let record = post(
        &app,
        "/api/import",
        json!({ "text": "h8 i9\nj10", "rules": "gomoku15" }),
    )
    .await;
    assert_eq!(record.status, StatusCode::OK, "{}", record.json);
    assert_eq!(record.json["format"], "record");
    assert_eq!(record.json["moves"], json!(["h8", "i9", "j10"]));
    assert_eq!(record.json["to_move"], "O");

    // x,y pairs are the API's cells: 0-based, rows from the bottom.
    let pairs = post(
        &app,
        "/api/import",
        json!({ "text": "1,1\n0,0\n2,2", "rules": "tictactoe" }),
    )
    .await;
    assert_eq!(pairs.json["format"], "xy");
    assert_eq!(pairs.json["moves"], json!(["b2", "a1", "c3"]));

    // Without rules a record goes on the smallest board that holds it.
    let big = post(&app, "/api/import", json!({ "text": "h8 s19" })).await;
    assert_eq!(big.json["rules"]["width"], 19);
    let unbounded = post(
        &app,
        "/api/import",
        json!({ "text": "0,0 -1,-1", "rules": null }),
    )
    .await;
    assert_eq!(unbounded.json["rules"]["unbounded"], true);
    assert_eq!(unbounded.json["moves"], json!(["0,0", "-1,-1"]));

    let diagram = post(
        &app,
        "/api/import",
        json!({ "text": "  a b c\n3 X X X\n2 O O .\n1 . . .\n" }),
    )
    .await;
    assert_eq!(diagram.status, StatusCode::OK, "{}", diagram.json);
    assert_eq!(diagram.json["format"], "diagram");
    assert_eq!(diagram.json["rules"]["k"], 3);
    assert_eq!(diagram.json["outcome"]["winner"], "X");
    assert_eq!(diagram.json["ply"], 5);
}

#[tokio::test]
async fn import_refusals_have_their_codes() {
    let app = app();
    let import = |body: Value| {
        let app = app.clone();
        async move { post(&app, "/api/import", body).await }
    };
    assert_error(&import(json!({ "text": "" })).await, 422, "import");
    assert_error(
        &import(json!({ "text": "hello world" })).await,
        400,
        "bad_cell",
    );
    assert_error(&import(json!({})).await, 400, "bad_json");
    assert_error(&import(json!({ "text": 5 })).await, 400, "bad_json");
    assert_error(
        &import(json!({ "text": "h8", "moves": [] })).await,
        400,
        "bad_json",
    );
    assert_error(
        &import(json!({ "text": "h8", "rules": "3x3x9" })).await,
        422,
        "bad_rules",
    );
    let taken = import(json!({ "text": "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n" })).await;
    assert_error(&taken, 422, "illegal_move");
    assert_eq!(taken.json["error"]["index"], 1);
    assert_error(
        &import(json!({ "text": gomocup_file(), "rules": "gomoku15" })).await,
        422,
        "import",
    );
    assert_error(
        &import(json!({ "text": "Piskvorky 50x50, 0:0, 0" })).await,
        422,
        "bad_rules",
    );
    let record = import(json!({ "text": "a1 a2 a1", "rules": "tictactoe" })).await;
    assert_error(&record, 422, "illegal_move");
    assert_eq!(record.json["error"]["index"], 2);
    let many = "a1 ".repeat(10);
    assert_error(
        &import(json!({ "text": many, "rules": "tictactoe" })).await,
        422,
        "too_large",
    );
    assert_error(
        &import(json!({ "text": "X ? .\n. . .\n. . ." })).await,
        422,
        "import",
    );
    let over = import(json!({ "text": "a1 a2 b1 b2 c1 c2", "rules": "tictactoe" })).await;
    assert_error(&over, 409, "game_over");
    assert_eq!(over.json["error"]["index"], 5);
}

#[tokio::test]
async fn games_export_and_import_back() {
    let app = app();
    let game = json!({ "rules": "gomoku15", "moves": ["h8", "a1", "o15"] });
    let export = |format: &str| {
        let mut body = game.clone();
        body["format"] = json!(format);
        let app = app.clone();
        async move { post(&app, "/api/export", body).await }
    };
    let record = export("record").await;
    assert_eq!(record.status, StatusCode::OK, "{}", record.json);
    assert_eq!(
        record.json,
        json!({"format": "record", "text": "h8 a1 o15"})
    );
    let psq = export("psq").await;
    assert_eq!(psq.json["format"], "psq");
    assert_eq!(
        psq.json["text"],
        "Piskvorky 15x15, 0:0, 0\r\n8,8,0\r\n1,15,0\r\n15,1,0\r\n-1\r\n"
    );
    let diagram = export("diagram").await;
    assert!(diagram.json["text"]
        .as_str()
        .unwrap()
        .starts_with("   a b c"));
    for reply in [record, psq, diagram] {
        let back = post(
            &app,
            "/api/import",
            json!({ "text": reply.json["text"], "rules": "gomoku15" }),
        )
        .await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.json);
        assert_eq!(back.json["ply"], 3);
        assert_eq!(back.json["format"], reply.json["format"]);
    }

    assert_error(&export("sgf").await, 400, "bad_json");
    let unbounded = post(
        &app,
        "/api/export",
        json!({ "rules": "infx5", "moves": ["0,0"], "format": "psq" }),
    )
    .await;
    assert_error(&unbounded, 422, "unsupported");
    let illegal = post(
        &app,
        "/api/export",
        json!({ "rules": "tictactoe", "moves": ["a1", "a1"], "format": "record" }),
    )
    .await;
    assert_error(&illegal, 422, "illegal_move");
    let missing = post(&app, "/api/export", json!({ "rules": "tictactoe" })).await;
    assert_error(&missing, 400, "bad_json");
}

#[tokio::test]
async fn the_documented_example_holds() {
    let reply = post(
        &app(),
        "/api/import",
        json!({ "text": "Piskvorky 15x15, 11:11, 0\r\n8,8,1000\r\n9,7,1500\r\n-1\r\n" }),
    )
    .await;
    assert_eq!(
        reply.json,
        json!({"format": "psq",
               "rules": {"width": 15, "height": 15, "unbounded": false, "k": 5, "win": "freestyle", "first": "X"},
               "moves": ["h8", "i9"], "ply": 2, "to_move": "X", "outcome": {"status": "ongoing"},
               "last": {"cell": "i9", "x": 8, "y": 8}})
    );
}
