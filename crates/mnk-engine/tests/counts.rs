//! `count_tree` against published game-tree counts (tests/data/tree-counts.tsv), and
//! `count_below` against the same counts, `count_tree` and brute force.
//!
//! Boards up to 4x3 run in every test run; the 4x4 rows take tens of seconds and run as ignored
//! tests in release (`cargo test --release -- --ignored`, which the test script does).

use std::collections::HashSet;

use mnk_core::{Cell, Outcome, Player, Position, Record, Rules, Win};
use mnk_engine::count::{count_below, count_tree, CountError, Subtree, TreeCounts};
use mnk_engine::Limits;

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

/// The figure a row of the data file gives for a board, as a number.
fn data(size: (u32, u32, u32), quantity: &str) -> u128 {
    rows()
        .into_iter()
        .find(|r| r.size == size && r.quantity == quantity)
        .unwrap_or_else(|| panic!("no row {quantity} for {size:?}"))
        .value
        .parse()
        .unwrap()
}

/// A position as a set: its stones in cell order.
fn stones(pos: &Position) -> Vec<(Cell, Player)> {
    let mut stones: Vec<(Cell, Player)> = pos.stones().collect();
    stones.sort_by_key(|&(c, _)| (c.y, c.x));
    stones
}

/// Games below `pos`, one by one, and every position met (brute force, no memo).
fn brute_force(pos: &mut Position, seen: &mut HashSet<Vec<(Cell, Player)>>) -> u128 {
    seen.insert(stones(pos));
    if pos.is_over() {
        return 1;
    }
    let mut games = 0;
    for cell in pos.legal_moves() {
        pos.play(cell);
        games += brute_force(pos, seen);
        pos.undo();
    }
    games
}

/// `count_below` against brute force: the position's counts and each move's.
fn check_below(rules: Rules, moves: &str) {
    let record: Record = moves.parse().unwrap();
    let mut pos = Position::from_moves(rules, &record.0).unwrap();
    let counts = count_below(&pos, &Limits::none()).unwrap();
    let mut seen = HashSet::new();
    let games = brute_force(&mut pos, &mut seen);
    assert_eq!(
        counts.position,
        Subtree {
            games,
            positions: seen.len() as u64
        },
        "{rules} after [{moves}]"
    );
    let legal = pos.legal_moves();
    assert_eq!(counts.moves.len(), legal.len());
    for (&(cell, below), expected_cell) in counts.moves.iter().zip(&legal) {
        assert_eq!(cell, *expected_cell, "moves in cell order");
        pos.play(cell);
        let mut seen = HashSet::new();
        let games = brute_force(&mut pos, &mut seen);
        pos.undo();
        assert_eq!(
            below,
            Subtree {
                games,
                positions: seen.len() as u64
            },
            "{rules} after [{moves}], move {cell}"
        );
    }
}

#[test]
fn below_the_empty_tic_tac_toe_board() {
    let rules = Rules::bounded(3, 3, 3).unwrap();
    let counts = count_below(&Position::new(rules), &Limits::none()).unwrap();
    // The whole tree, from the data file: games, and positions with the empty one.
    assert_eq!(counts.position.games, data((3, 3, 3), "complete games"));
    assert_eq!(
        u128::from(counts.position.positions),
        data(
            (3, 3, 3),
            "reachable positions (empty and terminal included)"
        )
    );
    // The moves' games add up to the whole; their positions overlap (X a1 O b2 X c3 and
    // X c3 O b2 X a1 are one position), so they add up to more than 5477.
    let games: u128 = counts.moves.iter().map(|m| m.1.games).sum();
    assert_eq!(games, counts.position.games);
    let positions: u64 = counts.moves.iter().map(|m| m.1.positions).sum();
    assert!(positions > counts.position.positions - 1);
    // Below one move, by symmetry: a corner, an edge, the centre.
    let below = |name: &str| {
        let cell: Cell = name.parse().unwrap();
        counts.moves.iter().find(|m| m.0 == cell).unwrap().1
    };
    assert_eq!(below("a1").games, 27_732);
    assert_eq!(below("b1").games, 29_592);
    assert_eq!(below("b2").games, 25_872);
    for corner in ["c1", "a3", "c3"] {
        assert_eq!(below(corner), below("a1"));
    }
    for edge in ["a2", "c2", "b3"] {
        assert_eq!(below(edge), below("b1"));
    }
    check_below(rules, "");
}

#[test]
fn below_positions_of_small_boards_agree_with_brute_force() {
    let exact = |w, h, k| {
        Rules::bounded(w, h, k)
            .unwrap()
            .with_win(Win::Exact)
            .unwrap()
    };
    check_below(Rules::bounded(3, 3, 3).unwrap(), "b2 a1");
    check_below(Rules::bounded(2, 2, 2).unwrap(), "");
    check_below(Rules::bounded(4, 3, 3).unwrap(), "b2 c2 a3");
    check_below(Rules::bounded(4, 3, 3).unwrap(), "a1 d3 b2");
    check_below(exact(4, 3, 3), "b2 c2");
    check_below(exact(5, 2, 3), "c1");
    check_below(Rules::bounded(4, 4, 3).unwrap(), "b2 c3 b3 c2 a1 a4 d1");
}

#[test]
fn below_the_empty_four_by_three_board() {
    let rules = Rules::bounded(4, 3, 3).unwrap();
    let counts = count_below(&Position::new(rules), &Limits::none()).unwrap();
    assert_eq!(
        u128::from(counts.position.positions),
        data((4, 3, 3), "reachable positions")
    );
    let whole = count_tree(&rules).unwrap();
    assert_eq!(counts.position.games, whole.games());
    let games: u128 = counts.moves.iter().map(|m| m.1.games).sum();
    assert_eq!(games, whole.games());
    assert!(counts
        .moves
        .iter()
        .all(|(_, below)| below.positions < whole.positions()));
}

#[test]
#[ignore = "seconds optimised, minutes unoptimised: run with --ignored"]
fn below_the_empty_four_by_four_by_three_board_agrees_with_the_whole_tree() {
    let rules = Rules::bounded(4, 4, 3).unwrap();
    let counts = count_below(&Position::new(rules), &Limits::none()).unwrap();
    let whole = count_tree(&rules).unwrap();
    assert_eq!(counts.position.games, whole.games());
    assert_eq!(counts.position.positions, whole.positions());
    let games: u128 = counts.moves.iter().map(|m| m.1.games).sum();
    assert_eq!(games, whole.games());
    // 4x4x4 has more unfinished positions than the count keeps in memory.
    let huge = Position::new(Rules::bounded(4, 4, 4).unwrap());
    let err = count_below(&huge, &Limits::none()).unwrap_err();
    assert!(matches!(err, CountError::TooLarge { .. }), "{err}");
}

#[test]
fn below_finished_and_oversized_positions() {
    let rules = Rules::bounded(3, 3, 3).unwrap();
    let record: Record = "a1 a2 b1 b2 c1".parse().unwrap();
    let over = Position::from_moves(rules, &record.0).unwrap();
    assert!(matches!(over.outcome(), Outcome::Win { .. }));
    let counts = count_below(&over, &Limits::none()).unwrap();
    assert_eq!(
        counts.position,
        Subtree {
            games: 1,
            positions: 1
        }
    );
    assert!(counts.moves.is_empty());
    let large = Position::new(Rules::bounded(5, 5, 4).unwrap());
    let err = count_below(&large, &Limits::none()).unwrap_err();
    assert!(matches!(err, CountError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("at most"), "{err}");
    let unbounded = Position::new(mnk_core::Preset::Unbounded.rules());
    assert!(matches!(
        count_below(&unbounded, &Limits::none()),
        Err(CountError::TooLarge { .. })
    ));
    // A raised stop flag ends a long count.
    let huge = Position::new(Rules::bounded(4, 4, 4).unwrap());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    assert_eq!(count_below(&huge, &stopped), Err(CountError::Aborted));
}
