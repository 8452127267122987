//! The exact solver against published results (tests/data/mnk-results.tsv).

use mnk_core::{Position, Rules};
use mnk_engine::solver::{self, Solver};
use mnk_engine::{Limits, Value};

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
fn every_row_small_enough_is_covered() {
    // The rows above are every row of the data file that the solver takes on; the rest (7x7x5 and
    // larger) exceed solver::MAX_SOLVE_CELLS.
    let covered = [(3, 3, 3), (4, 3, 3), (4, 4, 4), (5, 5, 4), (5, 5, 5)];
    for r in known_results() {
        let rules = Rules::bounded(r.width, r.height, r.k).unwrap();
        assert_eq!(
            solver::solvable(&rules),
            covered.contains(&(r.width, r.height, r.k)),
            "{}x{}x{}",
            r.width,
            r.height,
            r.k
        );
    }
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
            mnk_core::Outcome::Draw => 0,
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
                .with_win(mnk_core::Win::Exact),
            vec![vec![]],
        ),
        (
            Rules::bounded(4, 3, 3)
                .unwrap()
                .with_win(mnk_core::Win::Exact),
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
                    mnk_core::Outcome::Draw => 0,
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
