//! The exact solver against published results (tests/data/mnk-results.tsv) and brute force.

use std::collections::HashMap;

use mnk_core::{Cell, Position, Record, Rules, Win};
use mnk_engine::geometry::Geometry;
use mnk_engine::solver::{self, Solver};
use mnk_engine::{Limits, Rng, Value};

struct Known {
    width: u32,
    height: u32,
    k: u32,
    value: String,
}

fn known_results() -> Vec<Known> {
    include_str!("data/mnk-results.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Known {
                width: f[0].parse().unwrap(),
                height: f[1].parse().unwrap(),
                k: f[2].parse().unwrap(),
                value: f[3].into(),
            }
        })
        .collect()
}

fn check(width: u32, height: u32, k: u32) {
    let row = known_results()
        .into_iter()
        .find(|r| (r.width, r.height, r.k) == (width, height, k))
        .expect("the board is in the data file");
    let rules = Rules::bounded(width, height, k).unwrap();
    let mut solver = Solver::new(&rules, 64).unwrap();
    let analysis = solver
        .solve(&Position::new(rules), &Limits::none())
        .unwrap();
    let expected_win = match row.value.as_str() {
        "draw" => false,
        "first player wins" => true,
        other => panic!("unexpected value {other}"),
    };
    match analysis.value {
        Value::Draw => assert!(
            !expected_win,
            "{width}x{height}x{k}: solved a draw, known {}",
            row.value
        ),
        Value::Win(_) => assert!(
            expected_win,
            "{width}x{height}x{k}: solved a win, known {}",
            row.value
        ),
        other => panic!("{width}x{height}x{k}: solved {other}, known {}", row.value),
    }
}

#[test]
fn tic_tac_toe_is_a_draw() {
    check(3, 3, 3);
}

#[test]
fn four_by_three_is_a_first_player_win() {
    check(4, 3, 3);
}

#[test]
fn four_by_four_by_four_is_a_draw() {
    check(4, 4, 4);
}

#[test]
fn five_by_five_by_four_is_a_draw() {
    check(5, 5, 4);
}

#[test]
fn five_by_five_by_five_is_a_draw() {
    check(5, 5, 5);
}

#[test]
fn every_row_the_solver_takes_on_is_known_to_it() {
    // The solver takes every bounded board of at most 64 cells, 7x7x5 and 8x8x5 included; the
    // rows checked above are those it proves within a test's time. 7x7x5 and 8x8x5 are run by
    // `mnk solve --table` (docs/benchmarks.md); 15x15x5 is beyond its bitboards.
    for r in known_results() {
        let rules = Rules::bounded(r.width, r.height, r.k).unwrap();
        let cells = r.width * r.height;
        assert_eq!(
            solver::solvable(&rules),
            cells <= 64,
            "{}x{}x{}",
            r.width,
            r.height,
            r.k
        );
    }
    // The perfect player keeps to boards it can play move by move in time.
    assert!(solver::perfectly_playable(
        &Rules::bounded(6, 6, 4).unwrap()
    ));
    assert!(!solver::perfectly_playable(
        &Rules::bounded(7, 7, 5).unwrap()
    ));
}

/// Plain negamax over every move, memoised by position: slow but obviously right. Scores as the
/// solver's values: +(100 - plies) for a win, -(100 - plies) for a loss, 0 for a draw.
fn brute_force(pos: &mut Position, memo: &mut std::collections::HashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut best = i32::MIN;
    for m in pos.legal_moves() {
        pos.play(m);
        let v = match pos.outcome() {
            mnk_core::Outcome::Win { .. } => 99,
            mnk_core::Outcome::Draw(_) => 0,
            mnk_core::Outcome::Ongoing => {
                let child = brute_force(pos, memo);
                -child + child.signum()
            }
        };
        pos.undo();
        best = best.max(v);
    }
    memo.insert(pos.hash(), best);
    best
}

fn to_score(v: Value) -> i32 {
    match v {
        Value::Win(n) => 100 - n as i32,
        Value::Loss(n) => -(100 - n as i32),
        Value::Draw => 0,
        Value::Eval(_) => panic!("the solver returned an evaluation"),
    }
}

/// Every move's exact value (with distance) agrees with brute force, from the empty board and
/// from a few openings, on boards small enough to enumerate.
#[test]
fn move_values_agree_with_brute_force() {
    let boards = [
        (
            Rules::bounded(3, 3, 3).unwrap(),
            vec![vec![], vec!["a1"], vec!["b2", "a1"], vec!["a1", "b1", "c3"]],
        ),
        (
            Rules::bounded(4, 3, 3).unwrap(),
            vec![vec![], vec!["a1"], vec!["b2", "c2"]],
        ),
        (
            Rules::bounded(3, 3, 3)
                .unwrap()
                .with_win(mnk_core::Win::Exact)
                .unwrap(),
            vec![vec![]],
        ),
        (
            Rules::bounded(4, 3, 3)
                .unwrap()
                .with_win(mnk_core::Win::Exact)
                .unwrap(),
            vec![vec!["a1"]],
        ),
        (Rules::bounded(3, 2, 2).unwrap(), vec![vec![]]),
    ];
    for (rules, openings) in boards {
        let mut memo = std::collections::HashMap::new();
        for opening in openings {
            let moves: Vec<_> = opening.iter().map(|m| m.parse().unwrap()).collect();
            let mut pos = Position::from_moves(rules, &moves).unwrap();
            let analysis = mnk_engine::solver::analyse(&pos, &Limits::none()).unwrap();
            assert_eq!(
                to_score(analysis.value),
                brute_force(&mut pos, &mut memo),
                "{rules} after {opening:?}"
            );
            for (cell, value) in analysis.moves {
                pos.play(cell);
                let expected = match pos.outcome() {
                    mnk_core::Outcome::Win { .. } => 99,
                    mnk_core::Outcome::Draw(_) => 0,
                    mnk_core::Outcome::Ongoing => {
                        let child = brute_force(&mut pos, &mut memo);
                        -child + child.signum()
                    }
                };
                pos.undo();
                assert_eq!(
                    to_score(value),
                    expected,
                    "{rules} after {opening:?}, move {cell}"
                );
            }
        }
    }
}

/// Plain negamax over bitboards, memoised: [`brute_force`] for larger boards. `me` is to move.
fn brute_force_bits(g: &Geometry, me: u64, them: u64, memo: &mut HashMap<(u64, u64), i32>) -> i32 {
    if let Some(&v) = memo.get(&(me, them)) {
        return v;
    }
    let mut best = i32::MIN;
    let mut empty = g.full & !(me | them);
    while empty != 0 {
        let i = empty.trailing_zeros() as usize;
        empty &= empty - 1;
        best = best.max(brute_force_move(g, me, them, i, memo));
    }
    memo.insert((me, them), best);
    best
}

/// The brute-force value of the move on bit `i` for `me`, the side to move.
fn brute_force_move(
    g: &Geometry,
    me: u64,
    them: u64,
    i: usize,
    memo: &mut HashMap<(u64, u64), i32>,
) -> i32 {
    let mine = me | 1 << i;
    if g.wins_through(mine, i) {
        99
    } else if mine | them == g.full {
        0
    } else {
        let child = brute_force_bits(g, them, mine, memo);
        -child + child.signum()
    }
}

/// Checks the value of every move from [`Solver::analyse`], and the moves
/// [`Solver::best_moves`] keeps, against brute force.
fn check_against_brute_force(
    solver: &mut Solver,
    pos: &Position,
    memo: &mut HashMap<(u64, u64), i32>,
) {
    let rules = *pos.rules();
    let g = Geometry::new(&rules).unwrap();
    let record = format!("{rules} after {}", Record(pos.history().to_vec()));
    let (me, them) = g.split(pos);
    let analysis = solver.analyse(pos, &Limits::none()).unwrap();
    assert_eq!(
        to_score(analysis.value),
        brute_force_bits(&g, me, them, memo),
        "{record}"
    );
    let mut expected_best = Vec::new();
    for &(cell, value) in &analysis.moves {
        let expected = brute_force_move(&g, me, them, g.bit(cell), memo);
        assert_eq!(to_score(value), expected, "{record}, move {cell}");
        if value == analysis.value {
            expected_best.push(cell);
        }
    }
    expected_best.sort_by_key(|c| (c.y, c.x));
    let best = solver.best_moves(pos, &Limits::none()).unwrap();
    assert_eq!(best.value, analysis.value, "{record}");
    let cells: Vec<Cell> = best.moves.iter().map(|m| m.0).collect();
    assert_eq!(cells, expected_best, "{record}");
}

/// Random positions with a dozen or so empty cells, on boards where the threat pruning (double
/// threats, forcing lines, the cells that spoil them) has work to do, agree with brute force.
#[test]
fn threat_pruning_agrees_with_brute_force_on_random_positions() {
    let exact = |w, h, k| {
        Rules::bounded(w, h, k)
            .unwrap()
            .with_win(Win::Exact)
            .unwrap()
    };
    // (rules, stones placed at random, positions)
    let boards = [
        (Rules::bounded(4, 4, 3).unwrap(), 4, 8),
        (Rules::bounded(5, 4, 4).unwrap(), 8, 8),
        (Rules::bounded(5, 5, 4).unwrap(), 13, 8),
        (Rules::bounded(6, 4, 4).unwrap(), 12, 8),
        (Rules::bounded(6, 6, 4).unwrap(), 24, 12),
        (Rules::bounded(7, 5, 4).unwrap(), 23, 8),
        (Rules::bounded(7, 2, 3).unwrap(), 3, 8),
        (exact(4, 4, 3), 4, 8),
        (exact(6, 4, 4), 12, 8),
        (exact(7, 3, 3), 9, 8),
        // k = 5, where the pairings prove most nodes.
        (Rules::bounded(6, 5, 5).unwrap(), 18, 8),
        (Rules::bounded(7, 4, 5).unwrap(), 16, 8),
        (exact(6, 5, 5), 18, 6),
    ];
    let mut rng = Rng::seeded(2024);
    for (rules, stones, count) in boards {
        let mut memo = HashMap::new();
        let mut solver = Solver::for_rules(&rules).unwrap();
        let mut checked = 0;
        while checked < count {
            let mut pos = Position::new(rules);
            while pos.ply() < stones && !pos.is_over() {
                let moves = pos.legal_moves();
                pos.play(moves[rng.below(moves.len())]);
            }
            if !pos.is_over() {
                check_against_brute_force(&mut solver, &pos, &mut memo);
                checked += 1;
            }
        }
    }
}

/// Positions where a stone outside a forcing line still matters, because it would turn one of
/// the blocks into a threat: found by searching for positions whose values change when such
/// cells are left out of the zone.
#[test]
fn stones_that_turn_a_block_into_a_threat_are_not_left_out() {
    for (rules, moves) in [
        ("6x4x4,exact", "e2 c1 f3 a2 b2 c4 f4 e3 a4 b4 e4 f2"),
        (
            "6x5x4",
            "f3 a2 d5 a5 c2 e2 a4 b2 a1 f4 f2 d1 d2 c1 b3 c3 e1 b4",
        ),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let record: Record = moves.parse().unwrap();
        let pos = Position::from_moves(rules, &record.0).unwrap();
        let mut solver = Solver::for_rules(&rules).unwrap();
        check_against_brute_force(&mut solver, &pos, &mut HashMap::new());
    }
}
