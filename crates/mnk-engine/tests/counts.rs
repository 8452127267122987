//! `count_tree` against published game-tree counts (tests/data/tree-counts.tsv).
//!
//! Boards up to 4x3 run in every test run; the 4x4 rows take tens of seconds and run as ignored
//! tests in release (`cargo test --release -- --ignored`, which the test script does).

use mnk_core::Rules;
use mnk_engine::count::{count_tree, TreeCounts};

struct Row {
    size: (u32, u32, u32),
    quantity: String,
    value: String,
}

fn rows() -> Vec<Row> {
    include_str!("data/tree-counts.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                size: (
                    f[0].parse().unwrap(),
                    f[1].parse().unwrap(),
                    f[2].parse().unwrap(),
                ),
                quantity: f[3].to_string(),
                value: f[4].to_string(),
            }
        })
        .collect()
}

/// The counted figure a row of the data file names, formatted as the file writes it.
fn figure(counts: &TreeCounts, quantity: &str) -> String {
    let list = |v: &[u64]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    match quantity {
        "complete games" => counts.games().to_string(),
        "games won by the first player" => counts.first_wins.to_string(),
        "games won by the second player" => counts.second_wins.to_string(),
        "drawn games" => counts.draws.to_string(),
        "games ending at ply 5,6,7,8,9" => counts.games_by_length[5..=9]
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(","),
        "game-tree nodes (all move sequences, root included)" => counts.nodes.to_string(),
        "reachable positions (empty and terminal included)" | "reachable positions" => {
            counts.positions().to_string()
        }
        "non-terminal positions" => (counts.positions() - counts.terminal).to_string(),
        "reachable positions by ply 0..9" => list(&counts.positions_by_ply),
        "positions up to symmetry" => counts.symmetric_positions().to_string(),
        "positions up to symmetry by ply 0..9" => list(&counts.symmetric_by_ply),
        "terminal positions up to symmetry" => counts.terminal_symmetric.to_string(),
        other => panic!("the data file has a quantity this test does not know: {other}"),
    }
}

fn check_board(size: (u32, u32, u32)) {
    let rules = Rules::bounded(size.0, size.1, size.2).unwrap();
    let counts = count_tree(&rules).unwrap();
    let board_rows: Vec<Row> = rows().into_iter().filter(|r| r.size == size).collect();
    assert!(!board_rows.is_empty(), "no data for {rules}");
    for row in board_rows {
        assert_eq!(
            figure(&counts, &row.quantity),
            row.value,
            "{rules}: {}",
            row.quantity
        );
    }
}

#[test]
fn tic_tac_toe_counts() {
    check_board((3, 3, 3));
}

#[test]
fn two_by_two_counts() {
    check_board((2, 2, 2));
}

#[test]
fn four_by_three_counts() {
    check_board((4, 3, 3));
}

#[test]
#[ignore = "tens of seconds: run in release with --ignored"]
fn four_by_four_counts() {
    check_board((4, 4, 4));
}

#[test]
fn every_board_in_the_data_is_tested() {
    let tested = [(3, 3, 3), (2, 2, 2), (4, 3, 3), (4, 4, 4)];
    for row in rows() {
        assert!(tested.contains(&row.size), "untested board {:?}", row.size);
    }
}

#[test]
fn large_boards_are_refused_with_a_reason() {
    let err = count_tree(&Rules::bounded(5, 5, 4).unwrap()).unwrap_err();
    assert!(err.to_string().contains("at most"), "{err}");
    assert!(count_tree(&mnk_core::Preset::Unbounded.rules()).is_err());
}
