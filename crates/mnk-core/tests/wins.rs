//! The one win authority: `Position::wins_at`, `Position::winning_cells` and the outcome after a
//! move, under every win condition, caro's closed fives and renju's colours included.

use mnk_core::{Cell, Outcome, Player, Position, Rules};

fn cells(names: &str) -> Vec<Cell> {
    names
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn setup(rules: &str, x: &str, o: &str) -> Position {
    let rules: Rules = rules.parse().unwrap();
    Position::from_stones(rules, &cells(x), &cells(o)).unwrap()
}

/// Plays `cell` and says who won, if anyone.
fn winner_after(pos: &Position, name: &str) -> Option<Player> {
    let mut next = pos.clone();
    next.play(cell(name));
    assert_eq!(
        next.outcome().winner(),
        next.scan_outcome().winner(),
        "the outcome after the move agrees with a full scan"
    );
    next.outcome().winner()
}

#[test]
fn wins_at_asks_only_about_free_cells_on_the_board() {
    let pos = setup("15x15x5", "d8 e8 f8 g8", "a1 c1 e1 g1");
    assert!(pos.wins_at(cell("h8"), Player::X));
    assert!(pos.wins_at(cell("c8"), Player::X));
    assert!(!pos.wins_at(cell("d8"), Player::X), "taken");
    assert!(!pos.wins_at(Cell::new(15, 7), Player::X), "off the board");
    assert!(!pos.wins_at(cell("h8"), Player::O));
    assert_eq!(pos.winning_cells(Player::X), cells("c8 h8"));
    assert!(pos.winning_cells(Player::O).is_empty());
    assert_eq!(winner_after(&pos, "h8"), Some(Player::X));
}

#[test]
fn freestyle_exact_and_renju_read_a_six_differently() {
    // X: d8 e8 f8 . h8 i8; g8 makes six.
    let x = "d8 e8 f8 h8 i8";
    let o = "a1 c1 e1 g1 i1";
    assert!(setup("15x15x5", x, o).wins_at(cell("g8"), Player::X));
    assert!(!setup("15x15x5,exact", x, o).wins_at(cell("g8"), Player::X));
    assert!(!setup("15x15x5,caro", x, o).wins_at(cell("g8"), Player::X));
    // Renju: black (X, the first player) wins only with exactly five...
    assert!(!setup("renju", x, o).wins_at(cell("g8"), Player::X));
    // ...white with five or more.
    let white = setup("15x15x5,renju", "a1 c1 e1 g1 i1 k1", x);
    assert!(white.wins_at(cell("g8"), Player::O));
    assert_eq!(white.to_move(), Player::O);
    assert_eq!(winner_after(&white, "g8"), Some(Player::O));
    assert_eq!(white.winning_cells(Player::O), cells("g8"));
    // With O moving first, O is black: now X's six wins and O's does not.
    let o_first: Rules = "15x15x5,renju,o-first".parse().unwrap();
    let pos = Position::from_stones(o_first, &cells(x), &cells("a1 c1 e1 g1 i1")).unwrap();
    assert!(pos.wins_at(cell("g8"), Player::X));
}

#[test]
fn renju_five_wins_whatever_else_the_move_makes() {
    // h8: the five d8-h8, the fours h8 . h10 h11 h12 and h8 . j10 k11 l12, a double-four
    // otherwise: the five wins, so the move is not forbidden.
    let pos = setup(
        "renju",
        "d8 e8 f8 g8 h10 h11 h12 j10 k11 l12",
        "c8 h13 m13 a1 c1 e1 g1 i1 k1 m1",
    );
    assert_eq!(pos.forbidden_kind(cell("h8")), None);
    assert!(pos.wins_at(cell("h8"), Player::X));
    assert_eq!(winner_after(&pos, "h8"), Some(Player::X));
    // The same stones without the five: h8 is a double-four.
    let pos = setup(
        "renju",
        "d8 e8 f8 h10 h11 h12 j10 k11 l12",
        "c8 h13 m13 a1 c1 e1 g1 i1 k1",
    );
    assert_eq!(
        pos.forbidden_kind(cell("h8")),
        Some(mnk_core::ForbiddenKind::DoubleFour)
    );
}

#[test]
fn caro_five_closed_at_both_ends_does_not_win() {
    let caro = "15x15x5,caro";
    // O c8 X d8 e8 f8 g8 . O i8: h8 makes a five closed at both ends by white.
    let closed = setup(caro, "d8 e8 f8 g8", "c8 i8 a1 c1");
    assert!(!closed.wins_at(cell("h8"), Player::X));
    assert!(closed.winning_cells(Player::X).is_empty());
    assert_eq!(winner_after(&closed, "h8"), None);
    // Closed at one end only: it wins.
    let half = setup(caro, "d8 e8 f8 g8", "c8 a1 c1 e1");
    assert_eq!(half.winning_cells(Player::X), cells("h8"));
    assert_eq!(winner_after(&half, "h8"), Some(Player::X));
    // Exactly five: six does not win, closed or not.
    let six = setup(caro, "d8 e8 f8 g8 i8", "a1 c1 e1 g1 i1");
    assert!(!six.wins_at(cell("h8"), Player::X));
    assert_eq!(six.winning_cells(Player::X), cells("c8"));
    // Freestyle and exactly five do not care what closes the ends.
    for rules in ["15x15x5", "15x15x5,exact"] {
        assert!(setup(rules, "d8 e8 f8 g8", "c8 i8 a1 c1").wins_at(cell("h8"), Player::X));
    }
}

#[test]
fn caro_board_edge_does_not_close_a_five() {
    let caro = "15x15x5,caro";
    // a8 b8 c8 d8 e8 with white on f8: the edge is no stone, so only one end is closed.
    let row = setup(caro, "a8 b8 c8 d8", "f8 a1 c1 e1");
    assert!(row.wins_at(cell("e8"), Player::X));
    assert_eq!(winner_after(&row, "e8"), Some(Player::X));
    // Against both edges at once: a1-e5 on the diagonal into the corner, white on f6.
    let corner = setup(caro, "a1 b2 c3 d4", "f6 o1 o3 o5");
    assert!(corner.wins_at(cell("e5"), Player::X));
    // From edge to edge of a five-wide board, nothing can close it.
    let narrow = setup("5x3x5,caro", "a2 b2 c2 d2", "a1 b1 c1 d1");
    assert!(narrow.wins_at(cell("e2"), Player::X));
    // White against the bottom edge and a black stone: o1-o5 with black on o6 wins.
    let white = setup(caro, "o6 a15 c15 e15 g15", "o1 o2 o3 o4");
    assert_eq!(white.to_move(), Player::O);
    assert!(white.wins_at(cell("o5"), Player::O));
    assert_eq!(winner_after(&white, "o5"), Some(Player::O));
    // Black stones on both ends, o1 and o7: o2-o6 does not win.
    let closed = setup(caro, "o1 o7 a15 c15 e15", "o2 o3 o4 o5");
    assert!(!closed.wins_at(cell("o6"), Player::O));
    assert_eq!(winner_after(&closed, "o6"), None);
}

#[test]
fn a_caro_position_keeps_a_closed_five_as_a_running_game() {
    // A five closed at both ends can stand on the board: the game goes on.
    let pos = setup("15x15x5,caro", "d8 e8 f8 g8 h8", "c8 i8 a1 c1 e1");
    assert_eq!(*pos.outcome(), Outcome::Ongoing);
    assert_eq!(pos.scan_outcome(), Outcome::Ongoing);
    let diagram = Position::from_diagram(pos.rules().to_owned(), &pos.to_string()).unwrap();
    assert_eq!(diagram, pos);
    assert!(!diagram.is_over());
}
