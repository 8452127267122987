//! Solved opening books: written, read back, and checked against the solver.

use mnk_core::{Player, Position, Rules, Symmetry};
use mnk_engine::solver::book::{Book, BookError};
use mnk_engine::solver::book_index::BookIndex;
use mnk_engine::solver::Solver;
use mnk_engine::{Limits, Value};

/// Builds a book, writes it, reads it back, and checks every entry with a fresh solver: the
/// value is the position's and the best move keeps it.
fn round_trip(rules: &str, plies: u32) -> Book {
    let rules: Rules = rules.parse().unwrap();
    let mut solver = Solver::for_rules(&rules).unwrap();
    let book = Book::build(&mut solver, &Position::new(rules), plies, &Limits::none()).unwrap();
    let text = book.to_string();
    let read: Book = text.parse().unwrap();
    assert_eq!(read, book, "{text}");
    let mut fresh = Solver::for_rules(&rules).unwrap();
    for entry in &read.entries {
        let pos = Position::from_moves(rules, &entry.moves).unwrap();
        let best = fresh.best_moves(&pos, &Limits::none()).unwrap();
        assert_eq!(best.value, entry.value, "{:?}", entry.moves);
        let keeps: Vec<_> = best.moves.iter().map(|m| m.0).collect();
        assert!(keeps.contains(&entry.best.unwrap()), "{:?}", entry.moves);
    }
    read
}

#[test]
fn a_tic_tac_toe_book_round_trips_and_agrees_with_the_solver() {
    let book = round_trip("3x3x3", 3);
    // The root, X's best move, O's 8 replies and X's answer to each.
    assert_eq!(book.entries.len(), 1 + 1 + 8 + 8);
    assert_eq!(book.get(&[]).unwrap().value, Value::Draw);
}

#[test]
fn a_won_board_keeps_its_distances() {
    let book = round_trip("4x4x3", 2);
    assert_eq!(book.get(&[]).unwrap().value, Value::Win(5));
    assert!(book.entries.iter().skip(1).all(|e| e.value != Value::Draw));
}

#[test]
fn exact_k_books_name_their_rules() {
    let book = round_trip("5x4x4,exact", 1);
    assert!(book.to_string().contains("rules 5x4x4,exact"));
}

#[test]
fn broken_books_are_refused_with_the_line() {
    let read = |text: &str| text.parse::<Book>();
    assert_eq!(read("hello"), Err(BookError::Header));
    assert!(matches!(
        read("mnk-book 1\nrules 3x3"),
        Err(BookError::Rules(_))
    ));
    let line = |text: &str| match read(text) {
        Err(BookError::Line { line, .. }) => line,
        other => panic!("{other:?}"),
    };
    let head = "mnk-book 1\nrules 3x3x3\n";
    assert_eq!(line(&format!("{head}-\tdraw\n")), 3);
    assert_eq!(line(&format!("{head}-\tdraw\ta1\na1 a1\tdraw\tb2\n")), 4);
    assert_eq!(line(&format!("{head}-\twin in 0\ta1\n")), 3);
    assert_eq!(line(&format!("{head}-\tdraw\tz9\n")), 3);
    assert_eq!(line(&format!("{head}a1 b1 a2 b2 a3\tdraw\t-\n")), 3);
    // Comments and blank lines are fine.
    assert!(read(&format!("{head}# a note\n\n-\tdraw\ta1\n")).is_ok());
}

/// Every move value the index derives from a book (one ply earlier, or a finished game) is the
/// solver's, on every position the book lists and on each symmetric image of it; where the book
/// holds every reply, the whole analysis is the solver's, in its order.
fn index_agrees_with_the_solver(rules: &str, plies: u32) {
    let rules: Rules = rules.parse().unwrap();
    let mut solver = Solver::for_rules(&rules).unwrap();
    let book = Book::build(&mut solver, &Position::new(rules), plies, &Limits::none()).unwrap();
    let index = BookIndex::new(&book).unwrap();
    let (width, height) = rules.size().unwrap();
    let symmetries: &[Symmetry] = if width == height {
        &Symmetry::ALL
    } else {
        &Symmetry::RECTANGLE
    };
    let mut complete = 0;
    for entry in &book.entries {
        for &symmetry in symmetries {
            let moves: Vec<_> = entry
                .moves
                .iter()
                .map(|&c| symmetry.apply(c, width, height))
                .collect();
            let pos = Position::from_moves(rules, &moves).unwrap();
            let truth = solver.analyse(&pos, &Limits::none()).unwrap();
            let answer = index.answer(&pos);
            let known = answer.position.unwrap();
            assert_eq!(known.value, truth.value, "{moves:?}");
            for (cell, value) in &answer.moves {
                assert!(truth.moves.contains(&(*cell, *value)), "{moves:?} {cell}");
            }
            if answer.complete {
                assert_eq!(answer.moves, truth.moves, "{moves:?}");
                assert_eq!(known.best, truth.best, "{moves:?}");
                complete += 1;
            }
        }
    }
    assert!(complete > 0);
}

#[test]
fn a_book_index_agrees_with_the_solver() {
    index_agrees_with_the_solver("4x4x3", 3);
    index_agrees_with_the_solver("5x4x4", 2);
    index_agrees_with_the_solver("4x4x4,exact", 2);
}

#[test]
fn a_book_index_knows_nothing_of_other_rules() {
    let rules: Rules = "3x3x3".parse().unwrap();
    let mut solver = Solver::for_rules(&rules).unwrap();
    let book = Book::build(&mut solver, &Position::new(rules), 2, &Limits::none()).unwrap();
    let index = BookIndex::new(&book).unwrap();
    let other = Position::new("3x3x3,o-first".parse().unwrap());
    assert_eq!(index.get(&other), None);
    assert!(index.answer(&other).moves.is_empty());
    let renju: Book = "mnk-book 1\nrules 15x15x5,renju\n-\tdraw\th8\n"
        .parse()
        .unwrap();
    assert!(BookIndex::new(&renju).is_err());
}

#[test]
fn a_book_index_looks_up_set_up_positions_only_when_a_game_has_them() {
    let rules: Rules = "3x3x3".parse().unwrap();
    let mut solver = Solver::for_rules(&rules).unwrap();
    let book = Book::build(&mut solver, &Position::new(rules), 2, &Limits::none()).unwrap();
    let index = BookIndex::new(&book).unwrap();
    let b2 = "b2".parse().unwrap();
    // X's stone with O to move: the game after X's b2, which the book holds.
    let game = Position::from_setup(rules, &[b2], &[], Player::O).unwrap();
    assert_eq!(game.setup_stones(), 0);
    assert!(index.get(&game).is_some());
    // The same stone with X to move again is set up: no game has it, and the book's value (for
    // O to move) would be wrong for it.
    let set_up = Position::from_setup(rules, &[b2], &[], Player::X).unwrap();
    assert_eq!(index.get(&set_up), None);
    // Nor are the positions after it (X then has two stones to none).
    assert!(index.answer(&set_up).moves.is_empty());
}
