//! Criterion benchmarks of the engine's board: play/undo, pattern update and move generation.
//!
//! `cargo bench -p mnk-engine --bench board`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mnk_core::{Cell, Position, Rules};
use mnk_engine::search::board::Board;
use mnk_engine::search::eval::evaluate;
use mnk_engine::search::movegen::{generate, move_score};

/// A 15×15 middle game (the first bench position).
fn middle_game() -> Board {
    let rules: Rules = "15x15x5".parse().unwrap();
    let moves: Vec<Cell> = "h8 i9 h10 h9 j9 i8 i10 g10 j7 j10 k8 i6 i7 g9 f10"
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    Board::from_position(&Position::from_moves(rules, &moves).unwrap())
}

fn play_undo(c: &mut Criterion) {
    let mut board = middle_game();
    let mut moves = Vec::new();
    board.candidates(&mut moves);
    c.bench_function("play+undo every candidate (15x15)", |b| {
        b.iter(|| {
            for &m in &moves {
                board.play(black_box(m));
                board.undo();
            }
        });
    });
    let rules: Rules = "15x15x5,exact".parse().unwrap();
    let mut exact = Board::from_position(&Position::new(rules));
    let centre = exact.index_of(Cell::new(7, 7)).unwrap();
    c.bench_function("play+undo, exact five, empty board", |b| {
        b.iter(|| {
            exact.play(black_box(centre));
            exact.undo();
        });
    });
}

fn pattern_update(c: &mut Criterion) {
    let pos = {
        let rules: Rules = "15x15x5".parse().unwrap();
        let moves: Vec<Cell> = "h8 i9 h10 h9 j9 i8 i10 g10 j7 j10 k8 i6 i7 g9 f10"
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        Position::from_moves(rules, &moves).unwrap()
    };
    c.bench_function("build board with patterns from a position", |b| {
        b.iter(|| Board::from_position(black_box(&pos)));
    });
    let board = middle_game();
    c.bench_function("evaluate", |b| b.iter(|| evaluate(black_box(&board))));
}

fn move_generation(c: &mut Criterion) {
    let board = middle_game();
    let mut out = Vec::new();
    c.bench_function("generate moves", |b| {
        b.iter(|| {
            generate(black_box(&board), &mut out);
            out.len()
        });
    });
    c.bench_function("generate and score moves", |b| {
        b.iter(|| {
            generate(black_box(&board), &mut out);
            out.iter().map(|&m| move_score(&board, m)).sum::<i32>()
        });
    });
}

#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, play_undo, pattern_update, move_generation);
}
criterion_main!(group::benches);
