//! Criterion benchmarks of the exact tools on small boards: the solver's three questions (the
//! value, the best moves, every move's value) and the counts below a position.
//!
//! `cargo bench -p mnk-engine --bench exact`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mnk_core::{Position, Rules};
use mnk_engine::count::count_below;
use mnk_engine::solver::Solver;
use mnk_engine::Limits;

fn empty(rules: &str) -> Position {
    Position::new(rules.parse::<Rules>().unwrap())
}

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solver");
    group.sample_size(10);
    for board in ["6x6x4", "7x5x4"] {
        let pos = empty(board);
        group.bench_function(format!("value, empty {board}"), |b| {
            b.iter(|| {
                let mut solver = Solver::for_rules(pos.rules()).unwrap();
                solver.solve(black_box(&pos), &Limits::none()).unwrap()
            });
        });
        group.bench_function(format!("best moves, empty {board}"), |b| {
            b.iter(|| {
                let mut solver = Solver::for_rules(pos.rules()).unwrap();
                solver.best_moves(black_box(&pos), &Limits::none()).unwrap()
            });
        });
    }
    for board in ["6x5x4", "6x6x4"] {
        let pos = empty(board);
        group.bench_function(format!("every move, empty {board}"), |b| {
            b.iter(|| {
                let mut solver = Solver::for_rules(pos.rules()).unwrap();
                solver.analyse(black_box(&pos), &Limits::none()).unwrap()
            });
        });
    }
    group.finish();
}

fn counts(c: &mut Criterion) {
    let mut group = c.benchmark_group("counts");
    group.sample_size(10);
    for board in ["3x3x3", "4x3x3"] {
        let pos = empty(board);
        group.bench_function(format!("below each move, empty {board}"), |b| {
            b.iter(|| count_below(black_box(&pos), &Limits::none()).unwrap());
        });
    }
    group.finish();
}

#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, solver, counts);
}
criterion_main!(group::benches);
