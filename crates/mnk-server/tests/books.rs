//! Solved books served by `/api/solve` and `/api/tree`: a position whose every move the book holds
//! is answered from it (`"source": "book"`, no nodes) with the values the solver gives; others go
//! to the solver; a bad book stops the server at start with its file and line.

use crate::common;

use std::path::PathBuf;

use axum::http::StatusCode;
use axum::Router;
use common::{config, post};
use mnk_core::{Position, Rules, Symmetry};
use mnk_engine::solver::book::Book;
use mnk_engine::solver::Solver;
use mnk_engine::Limits;
use mnk_server::books::{self, Books};
use mnk_server::ServerConfig;
use serde_json::{json, Value};

/// A server answering from `books` (the solver alone with [`Books::none`]).
fn app_with(books: Books) -> Router {
    mnk_server::router(&ServerConfig { books, ..config() })
}

/// A book for `rules`, `plies` deep from the empty board, written to a file in `dir`.
fn book_file(dir: &tempfile::TempDir, rules: &str, plies: u32) -> (Book, PathBuf) {
    let rules: Rules = rules.parse().unwrap();
    let mut solver = Solver::for_rules(&rules).unwrap();
    let book = Book::build(&mut solver, &Position::new(rules), plies, &Limits::none()).unwrap();
    let path = dir.path().join(format!("{rules}.book"));
    std::fs::write(&path, book.to_string()).unwrap();
    (book, path)
}

async fn solve(app: &Router, rules: &str, moves: &[String]) -> Value {
    let reply = post(app, "/api/solve", json!({"rules": rules, "moves": moves})).await;
    assert_eq!(reply.status, StatusCode::OK, "{moves:?}: {}", reply.json);
    reply.json
}

/// The names of `moves`, mirrored by `symmetry` on a square board of side `n`.
fn names(moves: &[mnk_core::Cell], symmetry: Symmetry, n: u32) -> Vec<String> {
    moves
        .iter()
        .map(|&c| symmetry.apply(c, n, n).to_string())
        .collect()
}

#[tokio::test]
async fn a_served_book_answers_its_positions_as_the_solver_does() {
    let dir = tempfile::tempdir().unwrap();
    // 4x4x3 is a win for X in 5: the book carries distances, not only draws.
    let (book, path) = book_file(&dir, "4x4x3", 3);
    let served = app_with(books::with_files(&[path]).unwrap());
    let solver = app_with(Books::none());
    let mut from_book = 0;
    for entry in &book.entries {
        // The positions where O, off the book's strategy, is to move: the book holds every
        // reply to 3 plies. Also each one turned a quarter and mirrored: the same position.
        if entry.moves.len() % 2 == 0 || entry.moves.len() > 2 {
            continue;
        }
        for symmetry in [Symmetry::Identity, Symmetry::Rotate90, Symmetry::FlipY] {
            let moves = names(&entry.moves, symmetry, 4);
            let answer = solve(&served, "4x4x3", &moves).await;
            let truth = solve(&solver, "4x4x3", &moves).await;
            assert_eq!(answer["source"], "book", "{moves:?}: {answer}");
            assert_eq!(answer["nodes"], 0);
            assert_eq!(truth["source"], "solver");
            for field in ["value", "best", "moves"] {
                assert_eq!(answer[field], truth[field], "{field} after {moves:?}");
            }
            from_book += 1;
        }
    }
    assert!(
        from_book >= 3,
        "{from_book} positions answered from the book"
    );
}

#[tokio::test]
async fn the_tree_takes_its_values_from_the_book_and_still_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (book, path) = book_file(&dir, "4x4x3", 4);
    let served = app_with(books::with_files(&[path]).unwrap());
    let solver = app_with(Books::none());
    // O to move after three stones: every reply is in the book, and the counts below are quick.
    let entry = book.entries.iter().find(|e| e.moves.len() == 3).unwrap();
    let moves = names(&entry.moves, Symmetry::Identity, 4);
    let ask = |app: &Router| {
        let app = app.clone();
        let moves = moves.clone();
        async move {
            let reply = post(&app, "/api/tree", json!({"rules": "4x4x3", "moves": moves})).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
            reply.json
        }
    };
    let (answer, truth) = (ask(&served).await, ask(&solver).await);
    assert_eq!(answer["source"], "book", "{answer}");
    assert_eq!(truth["source"], "solver");
    for field in ["value", "children", "games", "positions"] {
        assert_eq!(answer[field], truth[field], "{field}");
    }
}

#[tokio::test]
async fn a_position_off_the_book_goes_to_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = book_file(&dir, "4x4x3", 2);
    let served = app_with(books::with_files(&[path]).unwrap());
    // Three stones, so every move leads to four: deeper than a 2-ply book reaches.
    let moves = ["a1", "d4", "a4"].map(String::from);
    let answer = solve(&served, "4x4x3", &moves).await;
    let truth = solve(&app_with(Books::none()), "4x4x3", &moves).await;
    assert_eq!(answer["source"], "solver");
    assert!(answer["nodes"].as_u64().unwrap() > 0);
    assert_eq!(answer["moves"], truth["moves"]);
    // Rules no book covers.
    let other = solve(&served, "tictactoe", &[]).await;
    assert_eq!(other["source"], "solver");
}

#[tokio::test]
async fn the_shipped_book_answers_what_it_knows_when_the_solver_runs_out_of_time() {
    let app = app_with(books::shipped());
    // Every move of the empty 7x6 board in 1 ms is beyond the solver; the book knows the
    // position's value and the move it proved.
    let reply = post(
        &app,
        "/api/solve",
        json!({"rules": "7x6x5", "moves": [], "time_ms": 1}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    let answer = reply.json;
    assert_eq!(answer["source"], "book");
    assert_eq!(answer["partial"], true);
    assert_eq!(answer["value"]["kind"], "draw");
    let best = answer["best"].as_str().unwrap();
    let moves = answer["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.len() < 42, "{answer}");
    assert!(moves.iter().any(|m| m["cell"] == best), "{answer}");
    // Without a book the same request is out of time, as before.
    let bare = post(
        &app_with(Books::none()),
        "/api/solve",
        json!({"rules": "7x6x5", "moves": [], "time_ms": 1}),
    )
    .await;
    common::assert_error(&bare, 422, "out_of_time");
}

#[tokio::test]
async fn the_shipped_7x7_book_holds_every_reply_to_its_first_move() {
    // d4, the move the book's proof plays (every first move draws, so the empty board's answer
    // may name another as its best).
    let app = app_with(books::shipped());
    let answer = solve(&app, "7x7x5", &["d4".to_string()]).await;
    assert_eq!(answer["source"], "book", "{answer}");
    assert_eq!(answer["moves"].as_array().unwrap().len(), 48);
}

#[tokio::test]
async fn the_shipped_7x7_book_answers_the_empty_board_at_once() {
    // The book holds one first move of each symmetry class, so every first move's value is
    // known: no solver, no time spent (the solver alone needs seconds and more).
    let app = app_with(books::shipped());
    let answer = solve(&app, "7x7x5", &[]).await;
    assert_eq!(answer["source"], "book", "{answer}");
    assert_eq!(answer["partial"], Value::Null, "{answer}");
    assert_eq!(answer["nodes"], 0, "{answer}");
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 49, "{answer}");
    // 7x7x5 is a draw, and so is every first move (an extra stone never hurts under freestyle).
    assert!(
        moves.iter().all(|m| m["value"]["kind"] == "draw"),
        "{answer}"
    );
}

#[test]
fn bad_books_are_refused_at_start_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let refusal = |files: &[PathBuf]| books::with_files(files).unwrap_err().to_string();

    let broken = write(
        "broken.book",
        "mnk-book 1\nrules 4x4x3\n-\tdraw\tb2\nb2 b2\tdraw\ta1\n",
    );
    let message = refusal(&[broken]);
    assert!(message.contains("broken.book"), "{message}");
    assert!(message.contains("line 4"), "{message}");

    let missing = dir.path().join("missing.book");
    let message = refusal(&[missing]);
    assert!(message.contains("missing.book"), "{message}");

    let renju = write(
        "renju.book",
        "mnk-book 1\nrules 15x15x5,renju\n-\tdraw\th8\n",
    );
    let message = refusal(&[renju]);
    assert!(message.contains("does not take"), "{message}");

    let first = write("a.book", "mnk-book 1\nrules 4x4x3\n-\twin in 5\tb2\n");
    let second = write("b.book", "mnk-book 1\nrules 4x4x3\n-\twin in 5\tc3\n");
    let message = refusal(&[first.clone(), second]);
    assert!(
        message.contains("a.book") && message.contains("b.book"),
        "{message}"
    );

    // A book for rules a shipped book covers replaces it.
    let small = write("7x6x5.book", "mnk-book 1\nrules 7x6x5\n-\tdraw\td3\n");
    let books = books::with_files(&[small, first]).unwrap();
    let rules: Rules = "7x6x5".parse().unwrap();
    assert_eq!(books.for_rules(&rules).unwrap().len(), 1);
    assert!(books::shipped().for_rules(&rules).unwrap().len() > 1);
}
